/*
** core/vi/result.c -- the named results of variational methods: r.mean (n), r.cov (n x n)
** (method.h, ol_method_result); not a method.  0 for every name until a
** method of the family defines one.
*/
#include "method.h"

int ol_vi_result (const ol_method_type *m, const void *st, const char *name,
                  const double **v, int *rows, int *cols)
{
  (void)m; (void)st; (void)name; (void)v; (void)rows; (void)cols;
  return 0;
}
