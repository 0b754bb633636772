/*
** core/problems/bilevel.c -- the oracle every bilevel problem shares and
** the test that finds one (the structure is in core/problems/bilevel.h).
*/
#include "problems/bilevel.h"

int ol_bilevel_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  const ol_bilevel *b = ud;
  return b->fdf(ud, x, f, g, e);
}

const ol_bilevel *ol_bilevel_of (const ol_problem *p)
{
  if (p == NULL || p->fdf != ol_bilevel_fdf) return NULL;
  return (const ol_bilevel *)p->ud;
}
