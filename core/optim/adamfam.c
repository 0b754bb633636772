/*
** core/optim/adamfam.c -- array handling and the step-size envelope
** shared by the Adam-family optimizers (see adamfam.h).
*/
#include "adamfam.h"

#include <stdarg.h>

#include "envelope.h"
#include "vec.h"

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

double ol_adam_envelope (double *w, const double *v, int n, double lrt,
                         double b1t, double b2t, double eps, int metric)
{
  double a = lrt / (1 - b1t), r = 1 / sqrt(1 - b2t);
  int i;
  for (i = 0; i < n; i++) w[i] = a / (sqrt(v[i]) * r + eps);
  return ol_envelope(w, n, metric);
}
