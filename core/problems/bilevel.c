/*
** core/problems/bilevel.c -- the accessor that finds a problem's bilevel
** structure through its type (the structure is in core/problems/bilevel.h).
*/
#include "problems/bilevel.h"

const ol_bilevel *ol_bilevel_ud (const ol_problem *p)
{
  return p->ud;
}

const ol_bilevel *ol_bilevel_of (const ol_problem *p)
{
  if (p == NULL || p->type->bilevel == NULL) return NULL;
  return p->type->bilevel(p);
}
