/*
** core/optim/adamfam.h -- what the Adam-family optimizers (adam, adamw,
** amsgrad, diffgrad, adamod, adabound) share besides their update rules,
** which each keeps in its own file: the parameter-table rows they have
** word for word, the allocation of their per-coordinate arrays, and the
** lrmin / lrmed / lrmax envelope of the bias-corrected Adam multiplier.
*/
#ifndef OL_ADAMFAM_H
#define OL_ADAMFAM_H

#include <math.h>

#include "method.h"

/* Parameter rows (Kingma & Ba 2015 names). */
#define OL_ADAM_P_LR \
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "step size (alpha)", NULL}
#define OL_ADAM_P_BETA1 \
  {"beta1", OL_P_REAL, 0.9, 0, 0.9999999999999999, \
   "decay of the first moment, in [0, 1)", NULL}
#define OL_ADAM_P_BETA2 \
  {"beta2", OL_P_REAL, 0.999, 0, 0.9999999999999999, \
   "decay of the second moment, in [0, 1)", NULL}
#define OL_ADAM_P_EPS \
  {"eps", OL_P_REAL, 1e-8, 0, INFINITY, "added to sqrt(vhat)", NULL}

/* The state adam and adamw share (adamw's struct starts with it). */
typedef struct ol_adam_core {
  double lr, beta1, beta2, eps;
  const double *par; /* the run's parameters: lr, eps are live (method.h;
                        ol_adam_core_begin reads them) */
  double b1t, b2t;  /* beta1^t, beta2^t after the last step */
  double a, r;      /* this step's lr_t / (1 - beta1^t), 1/sqrt(1 - beta2^t) */
  double *g, *m, *v;
  double *w;        /* probe scratch (multipliers, reordered) */
} ol_adam_core;

/* init from par = (lr, beta1, beta2, eps) and n-vectors g, m, v, w. */
int ol_adam_core_init (ol_adam_core *s, const double *par, int n, ol_err *e);
/* Set a and r for the coming step (its powers into *b1t, *b2t, kept by the
** caller until the step succeeds); returns lr_t = lr * sched.  Inline: it
** is on every step's path (W1). */
static inline double ol_adam_core_begin (ol_adam_core *s, const ol_ctx *c,
                                         double *b1t, double *b2t)
{
  double lrt;
  s->lr = s->par[0];
  s->eps = s->par[3];
  lrt = s->lr * c->sched;
  *b1t = s->b1t * s->beta1;
  *b2t = s->b2t * s->beta2;
  s->a = lrt / (1 - *b1t);
  s->r = 1 / sqrt(1 - *b2t);
  return lrt;
}
/* fini and probe (lrmin / lrmed / lrmax) of a state starting with
** ol_adam_core. */
void ol_adam_core_fini (void *st);
double ol_adam_core_probe (const void *st, int metric, const ol_ctx *c);

/* *p = a zero-filled array of n doubles for each double **p of the
** NULL-ended list.  OL_OK, or OL_ENOMEM with e set (the arrays made so
** far stay in place for fini to free). */
int ol_adam_vecs_new (int n, ol_err *e, ...);

/* Frees *p and sets it to NULL for each double **p of the NULL-ended
** list (NULL entries of a partly initialised state are fine). */
void ol_adam_vecs_free (double **p, ...);

#endif
