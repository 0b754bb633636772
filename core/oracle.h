/*
** core/oracle.h -- the oracles a method sees: evaluation counts, the
** true-gradient cache, gradient noise and minibatches.
**
** A method reaches its problem only through ol_ctx_* (below).  The
** context carries the method's view (x, the counts, the generator); the
** driver that steps the method (ol_run, or a test) owns an ol_oracle, the
** state behind those calls: a cache of the true f and g at one point, the
** driver's own evaluation counts, the minibatch stream and a scratch
** workspace.  The oracle layer knows nothing of the run: the run hands it
** what it needs (ol_oracle_init) and reads back what it keeps (the
** fields below).  A context without one (orc NULL) gets exact oracles,
** uncached; finite-difference gradients, finite-difference Hessians,
** minibatches and simplex projection then fail or are skipped as each
** function says.
**
** Counting: nfev / ngev / nhev in the context count the oracle
** computations the method asked for.  The driver's own evaluation of x_t
** (ol_oracle_here: for its metrics and stop rules) is counted apart
** (mfev, mgev) until a step uses it from the cache, when it moves to the
** context's counts once (unclaimed); other cache hits are free.  A
** finite-difference gradient counts as one gradient evaluation, and so do
** a minibatch gradient (whatever its size) and a component gradient.
**
** Noise (problem.h, ol_noise), added by ol_ctx_grad only; ol_ctx_value and
** the driver's own evaluations stay exact:
**   GAUSS    g += sigma z,                      z ~ N(0, I)
**   ANISO    g += sigma / sqrt(batch) L z,      H(x0) = L L'
**   STUDENT  g_i += sigma t_nu
**   ASYM     g_i += sigma (E_i - 1),            E_i ~ Exp(1)
**   BATCH    f, g = means over 'batch' components of the finite sum drawn
**            in 'order' (the stream below): the cache is not used.
*/
#ifndef OL_ORACLE_H
#define OL_ORACLE_H

#include "ol.h"
#include "problem.h"
#include "rng.h"

/* The oracle state a driver owns (zeroed, then ol_oracle_init).
** Invariants:
**   gvalid      f, g hold the true value and gradient at xg, a copy of
**               the point they were computed at: by the driver
**               (ol_oracle_here) or handed over by the method
**               (ol_ctx_known, which sets handed).  unclaimed: bits 1 (f)
**               and 2 (g) of a cache the driver computed and no step has
**               used yet; such an evaluation is counted in mfev / mgev
**               until a step uses it, then moves to the context.
**   work        4n doubles, borrowed from the driver: [0, n) finite
**               differences and noise draws, [n, 2n) projection scratch,
**               [n, 4n) a finite-difference Hessian's scratch (during a
**               step; the driver may use [2n, 4n) between steps).
**   perm, pos   OL_NOISE_BATCH with an order other than REPLACE: perm
**               holds the N component indices of the current epoch, pos
**               the next position; pos == N means a new epoch is due
**               (SHUFFLE draws a fresh permutation then, ONCE only the
**               first time, CYCLIC keeps 0..N-1, GRAB shuffles the
**               first time and then takes the order grab built during
**               the epoch that ended).  Drawn with the context's
**               generator.
**   grab        OL_ORDER_GRAB: the online balancing state (oracle.c:
**               the stale mean, the running signed sum and the next
**               epoch's order, N indices and 3n doubles), else NULL.
**   conv        the method called ol_ctx_converged in this step, with
**               convmsg saying why; the driver clears it (and handed)
**               before each step. */
typedef struct ol_oracle {
  double f, *g, *xg;          /* true-oracle cache at xg (n each, owned) */
  int gvalid;
  double gn;                  /* ||g||_2 of the cache, when gnok: computed
                                 once a step for the tolerance, the metrics
                                 and ol_ctx_gnorm */
  int gnok;
  unsigned unclaimed;
  int handed;                 /* ol_ctx_known in this step */
  long mfev, mgev;            /* the driver's own evaluations */
  double *work;               /* 4n doubles, borrowed */
  long *perm;                 /* minibatch order, or NULL (owned) */
  long pos;
  int permdrawn;              /* ONCE, GRAB: the first permutation was
                                 drawn */
  struct ol_grab *grab;       /* GRAB's balancing state, or NULL (owned) */
  int conv;                   /* 1: converged, 2: infeasible */
  char convmsg[OL_ERRMAX];
} ol_oracle;

/* Allocate o's cache and minibatch stream for p; work (4 p->n doubles)
** is borrowed for o's life.  OL_ENOMEM with e set; ol_oracle_fini frees
** a partial one. */
int ol_oracle_init (ol_oracle *o, const ol_problem *p, double *work,
                    ol_err *e);
void ol_oracle_fini (ol_oracle *o);
/* The driver's own true f, g at x (n = p->n entries) into the cache: an
** oracle call counted in mfev, mgev, or nothing when the cache already
** holds x.  OL_OK or the oracle's code with e set. */
int ol_oracle_here (ol_oracle *o, const ol_problem *p, const double *x,
                    ol_err *e);
/* ||g||_2 of the cache (ol_vec_nrm2, computed at most once per g). */
double ol_oracle_gnorm (ol_oracle *o, int n);

/* 1 when the cache holds the true f, g at x (n entries). */
static inline int ol_oracle_at (const ol_oracle *o, const double *x, int n)
{
  return o->gvalid && memcmp(x, o->xg, (size_t)n * sizeof *x) == 0;
}

/* What a method sees of its driver. */
typedef struct ol_ctx {
  const ol_problem *p;
  int n;
  double *x;        /* iterate x_t; step replaces it by x_{t+1} */
  double *xavg;     /* average iterate (the run keeps the uniform average
                       unless the method has OL_M_OWNAVG) */
  long t;           /* steps completed before this one (0 on the first) */
  double sched;     /* step-size multiplier for this step from the run's
                       schedule (1 when none); methods scale lr by it */
  ol_rng *rng;      /* the run's generator (noise, proposals) */
  long nfev, ngev, nhev;   /* oracle evaluations so far */
  long accepted;    /* samplers: accepted proposals so far */
  ol_oracle *orc;   /* the driver's oracle state (a run's), or NULL:
                       exact oracles without cache or workspace */
  const struct ol_method_type *m;   /* the method stepped (set by the run;
                       NULL in drivers that step one method only): a
                       method defined at run time (Lua's optim.new) finds
                       its own table here */
} ol_ctx;

/* Oracles as a method sees them.
** ol_ctx_grad: value (f may be NULL) and gradient (g may be NULL) at x;
**   adds the problem's noise to g, so this is the stochastic gradient when
**   the problem is stochastic.  When x == c->x and the run already holds
**   the true gradient there, no new evaluation is made.
** ol_ctx_value: true value only.
** ol_ctx_hess: dense Hessian, n x n row-major.
** All return OL_OK, or a code with e set; non-finite results give OL_EDOM. */
int ol_ctx_grad (ol_ctx *c, const double *x, double *f, double *g, ol_err *e);
int ol_ctx_value (ol_ctx *c, const double *x, double *f, ol_err *e);
int ol_ctx_hess (ol_ctx *c, const double *x, double *H, ol_err *e);
/* A coordinate-wise update: coordinates [lo, hi) of x and of the method's
** own per-coordinate state, given g_lo .. g_{hi-1} in gb[0, hi - lo).  Step
** scalars (step size, bias corrections) are kept in the state. */
typedef void (*ol_update_fn) (void *st, double *x, const double *gb, int lo,
                              int hi);

/* Gradient and update in one, for methods whose update of x_i reads only
** g_i and coordinate i of their state: upd(st, c->x, ...) is applied to
** the (stochastic) gradient at c->x.  Call it at the start of the step,
** before x moves.  On a noise-free problem with a
** separable oracle (p->gsep) and n > OL_GBLOCK the gradient is taken and
** applied a block of OL_GBLOCK coordinates at a time through g[0,
** OL_GBLOCK), which stays in cache; otherwise the whole gradient goes into
** g (n entries) and upd is called once.  One gradient evaluation; on an
** error, blocks already applied stay applied. */
#ifndef OL_GBLOCK
#define OL_GBLOCK 64
#endif
/* End of the block that starts at lo: min(lo + OL_GBLOCK, n). */
static inline int ol_gblock_end (int lo, int n)
{
  return n - lo > OL_GBLOCK ? lo + OL_GBLOCK : n;
}
/* Whether this step's gradient is taken in blocks (oracle.c): 1 without
** noise or finite differences, and then the evaluation is counted (unless
** the run already holds the gradient at x); 0 otherwise. */
int ol_ctx_blocks_start (ol_ctx *c);
/* Inline, so that upd is known where it is called: a small problem's step
** is the plain loop it was, and a large one's block loop calls only the
** oracle. */
static inline int ol_ctx_grad_apply (ol_ctx *c, double *g, ol_update_fn upd,
                                     void *st, ol_err *e)
{
  const ol_problem *p = c->p;
  int lo, hi, n = c->n, rc;
  if (n <= OL_GBLOCK || p->gsep == NULL || !ol_ctx_blocks_start(c)) {
    if ((rc = ol_ctx_grad(c, c->x, NULL, g, e)) != OL_OK) return rc;
    upd(st, c->x, g, 0, n);
    return OL_OK;
  }
  for (lo = 0; lo < n; lo = hi) {
    hi = ol_gblock_end(lo, n);
    /* gsep checks finiteness (folded into its loop) */
    if ((rc = p->gsep(p->ud, c->x, lo, hi, g, e)) != OL_OK) return rc;
    upd(st, c->x, g, lo, hi);
  }
  return OL_OK;
}
/* The method holds the true value f and gradient g (n entries, copied) at
** its new iterate c->x, from its own ol_ctx_grad calls: the run takes them
** as its cache instead of evaluating there again (records, stop rules).
** Call it at the end of a step, after the last change to c->x.  Ignored
** when the problem's gradients are noisy (g is then not the true one) and
** outside a run.  Every method that evaluates at its next point (line
** searches, accepted proposals) or keeps f and g at its current point
** (a rejected proposal) calls it. */
void ol_ctx_known (ol_ctx *c, double f, const double *g);

/* ol_vec_nrm2(g, c->n), the same bits, taken from the run's cache when g
** holds the cached gradient (the one handed over by ol_ctx_known in the
** last step, whose norm the run took for its tolerance or a record). */
double ol_ctx_gnorm (const ol_ctx *c, const double *g);
/* The method cannot make progress from c->x for a reason that means
** convergence (why: "no further decrease in floating point (...)"): the
** run stops after this step with reason "converged" and why as its
** message.  The step should leave c->x where it is and return OL_OK. */
void ol_ctx_converged (ol_ctx *c, const char *why);
/* The constraints of the problem cannot be met (core/constr.h's
** restoration found a positive minimum of their violation): the run stops
** after this step with reason "infeasible" and why as its message.  The
** step leaves c->x at the least-infeasible point it found. */
void ol_ctx_infeasible (ol_ctx *c, const char *why);
/* 1 when the true gradient g at a point with value f is zero to working
** precision: ||g||_inf max(1, ||x||_inf) <= eps^(2/3) max(1, |f|), with
** eps = DBL_EPSILON; eps^(2/3) = 3.7e-11 is the accuracy of a gradient
** computed in floating point (the optimal error of central differences).
** Methods use it to tell a line search that failed because f cannot
** decrease any further in floating point from a true failure.  0 when the
** problem's gradients are noisy (g is then not the true gradient). */
int ol_ctx_fp_stationary (const ol_ctx *c, const double *x, double f,
                          const double *g);

/* Project x in place onto the problem's constraint set (no-op if none). */
void ol_ctx_project (ol_ctx *c, double *x);
/* Gradient (f may be NULL) of component i of a finite sum at x; noise
** free.  OL_EINVAL when the problem is not a finite sum. */
int ol_ctx_gradi (ol_ctx *c, long i, const double *x, double *f, double *g,
                  ol_err *e);
/* Proximal map of step * h in place, h the composite term (l1 ||.||_1:
** soft thresholding; SCAD: core/penalty.h), then the projection onto the
** set; plain projection when p->l1 == 0. */
void ol_ctx_prox (ol_ctx *c, double *x, double step);

#endif
