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

/* *p = a zero-filled array of n doubles for each double **p of the
** NULL-ended list.  OL_OK, or OL_ENOMEM with e set (the arrays made so
** far stay in place for fini to free). */
int ol_adam_vecs_new (int n, ol_err *e, ...);

/* Frees *p and sets it to NULL for each double **p of the NULL-ended
** list (NULL entries of a partly initialised state are fine). */
void ol_adam_vecs_free (double **p, ...);

/* ol_envelope (envelope.h) of w_i = lrt / (1 - b1t) / (sqrt(v_i) /
** sqrt(1 - b2t) + eps), i < n: the multiplier Adam's last step applied to
** m_t with lr_t = lrt and the running powers b1t = beta1^t, b2t =
** beta2^t.  Overwrites w[0..n). */
double ol_adam_envelope (double *w, const double *v, int n, double lrt,
                         double b1t, double b2t, double eps, int metric);

#endif
