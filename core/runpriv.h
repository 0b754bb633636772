/*
** core/runpriv.h -- the run's private layout, shared by core/run.c (the
** engine) and core/method.c (the ctx oracles, which reach the run through
** ol_ctx.priv).  Not part of the public contract: only these two files
** include it.
**
** Invariants:
**   gvalid      f, g hold the true value and gradient at xg, a copy of
**               the point they were computed at (set only by the run).
**   work        4n doubles: [0, n) finite differences in the oracle,
**               [n, 2n) projection scratch for ol_ctx_project, [2n, 4n)
**               metric scratch (ol_mstate.work).
**   series      times[0..len) strictly increasing; every point except
**               possibly the last is a multiple of stride ("on grid");
**               offgrid says the last one is not (a final point), and the
**               next record replaces it.  next_rec is the next multiple
**               of stride after the last recorded time.
*/
#ifndef OL_RUNPRIV_H
#define OL_RUNPRIV_H

#include "run.h"

#include <string.h>

struct ol_run {
  const ol_problem *p;        /* borrowed */
  const ol_method_type *m;
  ol_run_opts o;              /* copy; o.x0 points at x0 below */
  double *par;                /* copy of the method parameters */
  void *st;                   /* method state, m->size bytes */
  int inited;                 /* m->init was called: fini is due */
  int n;
  ol_ctx c;                   /* c.priv == this run */
  ol_rng rng;
  double *x0, *x, *xavg;
  double f, *g, *xg;          /* true-oracle cache at xg */
  int gvalid;
  double *work;
  int usetol, useavg;
  long iters;                 /* budget */
  int reason;                 /* OL_STOP_* */
  char msg[OL_ERRMAX];
  double seconds;             /* accumulated stepping wall time */
  double slice0;              /* clock at the start of the current slice */
  unsigned metrics;           /* OL_MBIT set recorded */
  int cap, len, offgrid, tdim;
  long stride, next_rec;
  long *times;
  double *vals[OL_NMETRICS];  /* NULL for metrics not recorded */
  double *traj;               /* cap x tdim, or NULL */
};

/* ol_allfinite, inlined into the per-step path (same bit test). */
static inline int ol_run_finite (const double *x, int n)
{
  uint64_t bad = 0, u;
  int i;
  for (i = 0; i < n; i++) {
    memcpy(&u, &x[i], sizeof u);
    bad |= (u & 0x7ff0000000000000u) + 0x0010000000000000u;
  }
  return (bad >> 63) == 0;
}

#endif
