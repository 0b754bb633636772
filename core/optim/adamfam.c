/*
** core/optim/adamfam.c -- array handling and the step-size envelope
** shared by the Adam-family optimizers (see adamfam.h).
*/
#include "adamfam.h"

#include <stdarg.h>

#include "envelope.h"
#include "vec.h"

/* ol_envelope (envelope.h) of w_i = lrt / (1 - b1t) / (sqrt(v_i) /
** sqrt(1 - b2t) + eps), i < n: the multiplier Adam's last step applied to
** m_t with lr_t = lrt and the running powers b1t = beta1^t, b2t =
** beta2^t.  Overwrites w[0..n). */
static double ol_adam_envelope (double *w, const double *v, int n,
                                double lrt, double b1t, double b2t,
                                double eps, int metric);

int ol_adam_vecs_new (int n, ol_err *e, ...)
{
  double **p;
  int rc = OL_OK;
  va_list ap;
  va_start(ap, e);
  while (rc == OL_OK && (p = va_arg(ap, double **)) != NULL)
    if ((*p = ol_vec_new(n, e)) == NULL) rc = OL_ENOMEM;
  va_end(ap);
  return rc;
}

void ol_adam_vecs_free (double **p, ...)
{
  va_list ap;
  va_start(ap, p);
  for (; p != NULL; p = va_arg(ap, double **)) {
    ol_vec_free(*p);
    *p = NULL;
  }
  va_end(ap);
}

int ol_adam_core_init (ol_adam_core *s, const double *par, int n, ol_err *e)
{
  s->lr = par[0];
  s->beta1 = par[1];
  s->beta2 = par[2];
  s->eps = par[3];
  s->par = par;
  s->b1t = s->b2t = 1;
  return ol_adam_vecs_new(n, e, &s->g, &s->m, &s->v, &s->w, (double **)NULL);
}

void ol_adam_core_fini (void *st)
{
  ol_adam_core *s = st;
  ol_adam_vecs_free(&s->g, &s->m, &s->v, &s->w, (double **)NULL);
}

double ol_adam_core_probe (const void *st, int metric, const ol_ctx *c)
{
  const ol_adam_core *s = st;
  if (c->t < 1 || s->w == NULL) return NAN;
  return ol_adam_envelope(s->w, s->v, c->n, s->lr * c->sched, s->b1t,
                          s->b2t, s->eps, metric);
}

static double ol_adam_envelope (double *w, const double *v, int n,
                                double lrt, double b1t, double b2t,
                                double eps, int metric)
{
  double a = lrt / (1 - b1t), r = 1 / sqrt(1 - b2t);
  int i;
  for (i = 0; i < n; i++) w[i] = a / (sqrt(v[i]) * r + eps);
  return ol_envelope(w, n, metric);
}
