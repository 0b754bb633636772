/*
** core/vi/result.c -- the named results of variational methods (method.h,
** ol_method_result): r.mean (n), r.cov (n x n, a list of rows; C C' of
** the current q) and r:samples() (the last step's evals fresh draws from
** q, a list of rows); not a method.  Every vi method's state is an ol_vi
** (core/vi/vi.h), answered by ol_vi_named.
*/
#include "vi.h"

int ol_vi_result (const ol_method_type *m, const void *st, const char *name,
                  const double **v, int *rows, int *cols)
{
  if (m == NULL || m->family != OL_VI) return 0;
  return ol_vi_named(st, name, v, rows, cols);
}
