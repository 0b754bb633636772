/*
** core/runpriv.h -- the run's private layout, shared by core/run.c (the
** engine) and core/metrics.c (the per-run metric memory).  Not part of
** the public contract: only these files include it.  The oracle layer
** (core/oracle.c) does not see it: the run owns an ol_oracle (orc) and
** hands the method a context pointing at it.
**
** Invariants:
**   orc         the oracle state (oracle.h): the true-oracle cache at
**               orc.xg (orc.f, orc.g), the run's own evaluation counts
**               (orc.mfev, orc.mgev), the minibatch stream, the
**               method's convergence note; c.orc == &orc.
**   work        4n doubles, lent to orc: [0, n) finite differences in
**               the oracle, [n, 2n) projection scratch for
**               ol_ctx_project, [2n, 4n) metric scratch (ol_mstate.work).
**   series      times[0..len) strictly increasing, len <= alloc; every
**               point except possibly the last is kept by the history's
**               rule (run.h: a log point, or a multiple of stride, with
**               t / stride < ucap); offgrid says the last one is not (a
**               final point), and the next record replaces it.  next_rec
**               is the next kept time after the last recorded one.
**               alloc >= ucap + 2 + nlog(iters) (run.c), so a record
**               never allocates.  evals and secs are parallel to times
**               (moved together when the stride doubles): c.ngev and the
**               stepping seconds at each record.  vmin: the smallest
**               finite value of each metric over every record.
**   inslice     ol_run_advance is running: slice0 holds the clock at its
**               start, and a record adds now() - slice0 to seconds.
**   mem         the memory of the history-dependent metrics (mingradnorm,
**               support) and the nucnorm workspace; handed to metrics as
**               ol_mstate.mem.
*/
#ifndef OL_RUNPRIV_H
#define OL_RUNPRIV_H

#include "run.h"

#include <string.h>

/* Per-run metric memory (ol_mstate.mem), set up by ol_mmem_init for the
** recorded set and updated by the metrics at every record. */
typedef struct ol_mmem {
  double mingrad;          /* mingradnorm: min ||g|| so far (+inf first) */
  signed char *sign;       /* support: sign class of x at the last record */
  int hassign;             /* sign holds a record */
  long changes;            /* support: cumulative count of changes */
  double *svd;             /* nucnorm: n (matrix copy) + max(mrows, mcols)
                              (singular values) + lwork (LAPACK work) */
  int lwork;
} ol_mmem;

/* metrics.c: allocate what the metrics in 'metrics' (a set) need
** (OL_ENOMEM / OL_ENUMERIC with e set); free it (copes with a partial
** init and a zeroed struct). */
int ol_mmem_init (ol_mmem *mm, const ol_problem *p, ol_mset metrics,
                  ol_err *e);
void ol_mmem_free (ol_mmem *mm);
/* metrics.c: OL_EINVAL with a message naming metric id and why it is not
** available for p run by m ("nucnorm needs a matrix-shaped problem ..."). */
int ol_metric_unavail (int id, const ol_problem *p, const ol_method_type *m,
                       ol_err *e);

struct ol_run {
  const ol_problem *p;        /* borrowed */
  const ol_method_type *m;
  ol_run_opts o;              /* copy; o.x0 points at x0 below */
  double *par;                /* copy of the method parameters */
  void *st;                   /* method state, m->size bytes */
  int inited;                 /* m->init was called: fini is due */
  int n;
  ol_ctx c;                   /* c.orc == &orc */
  ol_oracle orc;
  ol_rng rng;
  double *x0, *x, *xavg;
  double *xprev;              /* x_{t-1}, for x_abstol / x_reltol */
  double fprev;               /* f(x_{t-1}), for f_abstol / f_reltol */
  double f0, x0max;           /* f(x_0), max(1, ||x_0||_inf): diverged */
  double xlim;                /* xlimit x0max: ||x||_inf past it diverged */
  double *work;
  int usetol, useavg;         /* usetol: a tol, f or x rule is on */
  int project;                /* project x on the set after each step:
                                 an optimizer on a constrained problem */
  long iters;                 /* budget */
  int reason;                 /* OL_STOP_* */
  char msg[OL_ERRMAX];
  char notice[320];          /* ol_run_notice */
  double seconds;             /* accumulated stepping wall time */
  double slice0;              /* clock at the start of the current slice */
  int inslice;                /* inside ol_run_advance (see above) */
  int remote;                 /* restored from a summary (runpack.h): its
                                 history is another process's */
  int restored;               /* restored by ol_run_unpack (either form):
                                 its method's state was never stepped */
  int shell;                  /* made with opts.shell (run.h): neither
                                 evaluated nor initialised */
  double *par0;               /* a shell's parameters as made (unpacking
                                 replays its changes into par) */
  ol_mset metrics;            /* the set recorded */
  int cap, len, offgrid, tdim;
  int alloc, ucap, lgl;       /* capacity; U and log2 L of the history */
  long stride, next_rec;
  double vmin[OL_NMETRICS];
  long *times;
  double *evals, *secs;       /* parallel to times (see above) */
  double *vals[OL_NMETRICS];  /* NULL for metrics not recorded */
  double *traj;               /* cap x tdim, or NULL */
  ol_mmem mem;
  double *draws;              /* drows x (OL_DRAW_COLS + n): the kept
                                 post-warmup draws (opts.draws) */
  long drows, dalloc, dcap;   /* rows kept, allocated, at most */
  long dthin, dseen;          /* every dthin-th kept; post-warmup seen */
  long warmup;                /* the method's warmup steps */
  ol_change *changes;         /* the log: nchg made, chgalloc allocated */
  int nchg, chgalloc;
  ol_change *replay;          /* o.changes copied: nreplay of them, the
                                 next to apply at ireplay (none after) */
  int nreplay, ireplay;
  long replay_t;              /* the t of the next one to apply, LONG_MAX
                                 when none is left: step1's one compare */
  ol_run *shadow;             /* bias / variance: the same method without
                                 gradient noise, stepped in lockstep */
  ol_problem *shadowp;        /* its problem: a noise-free shallow copy of
                                 p (only the struct is owned) */
};

/* run.c: replay_t from the replay cursor (after ireplay moved: the run's
** creation, a replay step, runpack.c's unpack). */
void ol_run_replay_next (ol_run *r);

/* ol_allfinite, inlined into the per-step path (same bit test). */
static inline int ol_run_finite (const double *x, int n)
{
  uint64_t bad = 0;
  int i;
  for (i = 0; i < n; i++) bad |= ol_fbit(x[i]);
  return OL_FBITS_OK(bad);
}

#endif
