/*
** core/problems/bilevel.h -- the structure of a bilevel problem, for the
** bilevel methods (core/optim/bilevel.c).
**
**   min_x F(x) = f(x, y*(x)),   y*(x) = argmin_y g(x, y)
**
** f is the upper-level objective, g the lower-level one (strongly convex
** in y, so y*(x) is unique); F is the hyper-objective.  The problem's own
** oracle (p->fdf) is over the upper variable x alone (p->n = nx): F and
** its exact hypergradient, or a surrogate of F the problem documents
** (problem.ridgehyper's sigma > 0: the value-function penalty).  The
** partial oracles below give f and g at a pair (x, y), so that a method
** can solve the lower level itself; hyper gives the exact F and dF/dx
** whatever p->fdf is, for the hypergrad_err metric.
**
** A bilevel problem's ud starts with an ol_bilevel, and its type names
** ol_bilevel_ud as its bilevel hook (ol_problem_type.bilevel), which is
** how ol_bilevel_of tells it from every other problem.  The partial
** oracles may use scratch kept in the problem: not for two threads at
** once.
*/
#ifndef OL_BILEVEL_H
#define OL_BILEVEL_H

#include "problem.h"

typedef struct ol_bilevel ol_bilevel;

/* A partial oracle at (x, y) (nx and ny entries, borrowed): the value in
** *v, the partial gradients in gx (nx) and gy (ny); any of v, gx, gy may
** be NULL.  OL_OK or a code with e set. */
typedef int (*ol_bilevel_fn) (const ol_bilevel *b, const double *x,
                              const double *y, double *v, double *gx,
                              double *gy, ol_err *e);

struct ol_bilevel {
  int nx, ny;                /* upper and lower dimensions (nx = p->n) */
  ol_bilevel_fn upper;       /* f(x, y) */
  ol_bilevel_fn lower;       /* g(x, y) */
  /* Smoothness in y at x: *lf >= ||d2f/dy2||, *lg >= ||d2g/dy2|| (the
  ** spectral norms), for the inner step sizes 1/L. */
  void (*smooth) (const ol_bilevel *b, const double *x, double *lf,
                  double *lg);
  /* The exact hyper-objective F(x) into *F and dF/dx into dF (nx), either
  ** may be NULL; OL_OK or a code with e set (a singular lower level). */
  int (*hyper) (const ol_bilevel *b, const double *x, double *F,
                double *dF, ol_err *e);
  const double *y0;          /* a start for the lower variable (ny) */
};

/* The bilevel structure of p, or NULL when p is not a bilevel problem
** (its type has no bilevel hook). */
const ol_bilevel *ol_bilevel_of (const ol_problem *p);
/* The bilevel hook of a type whose problems' ud starts with an
** ol_bilevel: p's ud. */
const ol_bilevel *ol_bilevel_ud (const ol_problem *p);

#endif
