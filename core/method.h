/*
** core/method.h -- the method vtable shared by optimizers, samplers and
** game dynamics, and the context a method steps in.
**
** A method is one C file exporting one const ol_method_type, registered
** by one line in core/optim/list.h, core/sample/list.h or
** core/games/list.h.  Its help text, Lua constructor, parameter checking
** and the registry sweep test all come from the table.
**
** Contract:
**   init  called once by the run; par holds nparams checked values in
**         table order; allocates every array the method needs (state
**         struct itself is allocated by the run, size bytes, zeroed).
**   step  exactly one iteration: reads and updates c->x in place; never
**         allocates; returns OL_OK or an error code with e set (oracle
**         errors are passed through unchanged).
**   fini  frees what init allocated; called once, also after a failed
**         init (so fini must cope with a partly initialised state).
** Oracles are reached only through ol_ctx_*, which count evaluations,
** add the problem's gradient noise, and reject non-finite values.
** Coordinate-wise methods (gd, momentum, adagrad, rmsprop, the Adam
** family) hand their update to ol_ctx_grad_apply, which on a large
** separable problem applies it a block at a time while the block's
** gradient is in cache.
*/
#ifndef OL_METHOD_H
#define OL_METHOD_H

#include "ol.h"
#include "problem.h"
#include "metrics.h"
#include "rng.h"

enum { OL_OPTIM, OL_SAMPLER, OL_DYNAMIC };   /* method families */

/* flags */
#define OL_M_NEEDSET   1u   /* requires a constraint set (pgd) */
#define OL_M_NEEDHESS  2u   /* requires a Hessian oracle */
#define OL_M_OWNAVG    4u   /* the method maintains c->xavg itself */
#define OL_M_NEEDMAT   8u   /* requires a matrix-shaped x (mrows, mcols) */
#define OL_M_NEEDSUM  16u   /* requires a finite sum (nsum, fdfi) */
#define OL_M_MH       32u   /* a sampler whose c->accepted counts
                               Metropolis-Hastings accept / reject
                               decisions (each step one), so acceptance 0
                               or 1 means a badly chosen step size */

#define OL_KIND(k) (1u << (k))   /* bit for a problem kind in 'kinds' */

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
  void *priv;       /* the run; opaque to methods */
} ol_ctx;

typedef struct ol_method_type {
  const char *name;          /* Lua name: optim.<name>{...} */
  int family;                /* OL_OPTIM, OL_SAMPLER, OL_DYNAMIC */
  const char *doc;           /* one line */
  const char *ref;           /* paper, year (and equation) */
  const ol_param *params;
  int nparams;
  size_t size;               /* bytes of private state */
  unsigned flags;            /* OL_M_* */
  unsigned kinds;            /* OL_KIND() bits of problem kinds accepted */
  int (*init) (void *st, const double *par, ol_ctx *c, ol_err *e);
  int (*step) (void *st, ol_ctx *c, ol_err *e);
  void (*fini) (void *st);
  /* Optional (NULL if none): a method-specific metric at the current
  ** state, e.g. OL_MET_LRMAX of an adaptive method or OL_MET_ORTHERR of
  ** Muon; NAN when the method does not define that metric. */
  double (*probe) (const void *st, int metric, const ol_ctx *c);
  /* OL_MBIT() set of the metrics probe defines (from the first step on:
  ** before it the probe may give NAN); 0 without a probe. */
  unsigned probes;
} ol_method_type;

#define OL_PROBES_LR (OL_MBIT(OL_MET_LRMIN) | OL_MBIT(OL_MET_LRMED) | \
                      OL_MBIT(OL_MET_LRMAX))
#define OL_PROBES_ORTH OL_MBIT(OL_MET_ORTHERR)

/* Registry: every method of every family, NULL-ended, in list order. */
extern const ol_method_type *const ol_methods[];
const ol_method_type *ol_method_find (const char *name);
/* OL_OK when method m can run on problem p, else OL_EINVAL with a message
** ("pgd needs a constrained problem", "mala needs an objective or density"). */
int ol_method_check (const ol_method_type *m, const ol_problem *p, ol_err *e);

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
/* Whether this step's gradient is taken in blocks (method.c): 1 without
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
/* The method cannot make progress from c->x for a reason that means
** convergence (why: "no further decrease in floating point (...)"): the
** run stops after this step with reason "converged" and why as its
** message.  The step should leave c->x where it is and return OL_OK. */
void ol_ctx_converged (ol_ctx *c, const char *why);
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
/* Proximal map of step * l1 ||.||_1 (soft thresholding) in place, then the
** projection onto the set; plain projection when p->l1 == 0. */
void ol_ctx_prox (ol_ctx *c, double *x, double step);

#endif
