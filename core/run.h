/*
** core/run.h -- the run engine: a problem, a method, options, and the
** state stepped so far, with its recorded metric series.
**
** The caller owns the loop: ol_run_step does exactly one iteration, so a
** front end can redraw, read keys and stop between steps.  After every
** step the run checks its stop rules and records metrics at chosen times.
** The stop reason is always stated, and the stop's iteration is always
** recorded.
**
** Stop rules, in the order they are tested after a step (optimizers only
** for the convergence rules; every rule is off when its option is 0):
**   budget        t >= iters
**   time          stepping wall time >= time (tested every 64 steps)
**   converged     the method signalled that it cannot go on because it
**                 has converged (ol_ctx_converged: a line search that
**                 cannot decrease f in floating point at a point that is
**                 stationary to working precision), or the true gradient
**                 (KKT measure when constrained or composite) is exactly
**                 0 at a point where the run holds it; noise-free only
**   tolerance     tol:       ||grad f(x_t)||_2 <= tol (kkt when
**                            constrained or composite)
**                 f_abstol:  |f(x_t) - f(x_{t-1})| <= f_abstol
**                 f_reltol:  |f(x_t) - f(x_{t-1})| <= f_reltol |f(x_t)|
**                 x_abstol:  ||x_t - x_{t-1}||_inf <= x_abstol
**                 x_reltol:  ||x_t - x_{t-1}||_inf <= x_reltol ||x_t||_inf
**                 stop_metric: metric(x_t) <= stop_value, any family
**                 (the definitions of Optim.jl; f, x and metric rules need
**                 an evaluation every step, as tol does)
**   diverged      ||x_t||_inf > xlimit max(1, ||x_0||_inf), or, for
**                 objectives and densities, f(x_t) < f(x_0) - flimit
**                 max(1, |f(x_0)|): tested every step for n <= 64 or a
**                 constrained problem, else wherever f or x is evaluated
**   infeasible    a constrained method found the constraints cannot be
**                 met (ol_ctx_infeasible, core/constr.h)
**   non-finite    NaN or Inf iterate, value or gradient
**   callback error, numerical failure, interrupted, stopped
**
** History: all series share one time axis.  Kept are (a) every step below
** 2L and then L points per octave (t in [2^j, 2^(j+1)) when t is a
** multiple of 2^j / L), so a log-x plot is evenly covered and the start
** of a run is never thinned, and (b) the multiples of a stride, a power of
** two doubled whenever more than U of them would be kept, so a linear-x
** plot is evenly covered; plus the stop's point.  L = max(2, 2^floor(
** log2(cap / 64))), U = cap / 2 (cap 4096: dense below 128, 64 points per
** octave, 2048 uniform).  At most U + 1 + nlog(T) + 1 points are kept for
** a run of T steps (nlog(T) = 2L + L (log2 T - log2 L - 1) for T >= 2L):
** 3,650 for 10^9 steps with the default cap, and never more than
** U + 2 + 63 L.  Memory for them is allocated for the budget (and grown by
** ol_run_extend), never in a step.
**
** A run borrows its problem (which must outlive it) and owns everything
** else.  Not thread-safe; distinct runs are independent.
*/
#ifndef OL_RUN_H
#define OL_RUN_H

#include "ol.h"
#include "problem.h"
#include "method.h"

/* Stop reasons. */
enum {
  OL_STOP_NONE = 0,     /* still running */
  OL_STOP_BUDGET,       /* "budget": iteration budget used up */
  OL_STOP_TOL,          /* "tolerance": gradnorm (kkt if constrained) <= tol */
  OL_STOP_TIME,         /* "time": wall-time budget used up */
  OL_STOP_NONFINITE,    /* "non-finite": NaN/Inf value or gradient */
  OL_STOP_CALLBACK,     /* "callback error": a user function failed */
  OL_STOP_FAILED,       /* "numerical failure": factorisation, line search */
  OL_STOP_INTERRUPTED,  /* "interrupted": Ctrl-C */
  OL_STOP_STOPPED,      /* "stopped": by the user (q, j:stop()) */
  OL_STOP_CONVERGED,    /* "converged": stationary in floating point */
  OL_STOP_DIVERGED,     /* "diverged": x or f past its limit */
  OL_STOP_INFEASIBLE    /* "infeasible": the constraints cannot be met
                           (ol_ctx_infeasible; x is the least-infeasible
                           point the method found) */
};
const char *ol_stop_name (int reason);

/* Step-size schedules, applied by the run as ctx->sched (a multiplier on
** every method's base step size). */
enum {
  OL_SCHED_CONST,       /* 1 */
  OL_SCHED_STEP,        /* gamma^floor(t / period) */
  OL_SCHED_INV,         /* 1 / (1 + t / period) */
  OL_SCHED_INVSQRT,     /* 1 / sqrt(1 + t / period) */
  OL_SCHED_COSINE,      /* 0.5 (1 + cos(pi min(t, T) / T)), T = iters */
  OL_SCHED_WARMUP       /* min(1, (t + 1) / period) */
};

typedef struct ol_sched {
  int kind;
  double gamma;         /* OL_SCHED_STEP factor, in (0, 1] */
  long period;          /* >= 1 */
} ol_sched;
double ol_sched_value (const ol_sched *s, long t, long iters);

/* Metrics, registered in core/metrics.h; ids are OL_MET_<NAME>. */
#include "metrics.h"

#define OL_RUN_MAXITERS (1L << 62)   /* largest iteration budget */

/* A change of a live parameter (method.h: params_live) made between two
** steps: params[param] became value after t steps (before step t + 1). */
typedef struct ol_change {
  long t;
  int param;
  double value;
} ol_change;

typedef struct ol_run_opts {
  long iters;           /* iteration budget, >= 0; default 1000 */
  double tol;           /* >= 0; 0 disables the tolerance stop */
  double f_abstol, f_reltol, x_abstol, x_reltol;   /* >= 0, 0: off */
  int stop_metric;      /* stop when this metric (OL_MET_*, -1: none, the
                           default) is <= stop_value: evaluated every step */
  double stop_value;
  double xlimit;        /* > 0, default 1e50 (diverged, see above) */
  double flimit;        /* > 0, default 1e10 */
  double time_limit;    /* seconds, 0 = none */
  uint64_t seed;        /* default 1 */
  uint64_t stream;      /* rng stream (chain / repeat index), default 0 */
  const double *x0;     /* NULL: the problem's default; copied */
  ol_mset metrics;      /* set to record; empty = defaults for the
                           problem kind and method family */
  int cap;              /* history size (see above), >= 16; default 4096 */
  int record_x;         /* keep the trajectory of x (first min(n, 8)
                           coordinates) at the recorded times */
  long warmup;          /* samplers: steps before the draws are kept (at
                           least the method's own warmup); default 0 */
  long draws;           /* samplers: keep the post-warmup draws (x and
                           the step's statistics, see ol_run_draws), at
                           most this many doubles (0: none, the default);
                           past it every other draw is dropped and the
                           thinning doubles */
  int average;          /* keep the uniform average of x_0..x_t (Polyak-
                           Ruppert); always on for games and for methods
                           that keep their own average */
  ol_sched sched;
  const ol_change *changes;   /* replayed: each applied (as ol_run_set)
                                 when the run has made its t steps, in
                                 list order; t nondecreasing; copied */
  int nchanges;
  int shell;            /* made only to restore packed results into
                           (runpack.h): for a method that keeps no draws
                           and names no results (ol_method_result) the
                           problem is not evaluated and the method not
                           initialised (restoring 10^5 results costs no
                           objective call); ol_run_unshell before it
                           steps */
} ol_run_opts;

void ol_run_opts_default (ol_run_opts *o);

typedef struct ol_run ol_run;

/* Create a run of method m (parameter values par, nparams of them, checked
** by the caller against m->params) on p.  Evaluates the metrics at x0 and
** records t = 0.  Returns NULL with e set on invalid input (method not
** applicable, bad options, out of memory).  An oracle failure at x0 is not
** an error here: the run is returned already stopped with its reason.
** p is borrowed for the run's life; the first run made on it freezes it
** (p->frozen: its checked setters refuse from then on), and its x0,
** noise, set and l1 are taken as its setters checked them (the start
** given in o->x0 is checked here: finite, inside the set). */
ol_run *ol_run_new (const ol_problem *p, const ol_method_type *m,
                    const double *par, const ol_run_opts *o, ol_err *e);
void ol_run_free (ol_run *r);   /* NULL is a no-op */

/* One iteration unless stopped.  Returns the stop reason after it
** (OL_STOP_NONE while the run goes on). */
int ol_run_step (ol_run *r);
/* Up to k iterations; returns how many were done.  None while the run
** is inside ol_run_advance already (a callback of the run stepping it). */
long ol_run_advance (ol_run *r, long k);
/* Stop now with reason (OL_STOP_INTERRUPTED or OL_STOP_STOPPED); records
** the final point.  No effect on a stopped run, nor inside its own
** ol_run_advance. */
void ol_run_halt (ol_run *r, int reason);
/* Raise the iteration budget of a run stopped by its budget (or not yet
** stopped) and resume it; OL_EINVAL otherwise, and inside its own
** ol_run_advance. */
int ol_run_extend (ol_run *r, long iters, ol_err *e);
/* Set live parameter param (method.h: params_live) of r to value, from
** the next step on, and record the change (ol_run_changes).  OL_EINVAL
** with a message naming the parameter and why (not live: the live ones
** listed; out of its range; r inside its own ol_run_advance; r stopped,
** since no step would follow: a run stopped by its budget is extended
** first). */
int ol_run_set (ol_run *r, int param, double value, ol_err *e);
/* The checks of ol_run_set alone: OL_OK when it would succeed (but for
** memory), else its error, and r unchanged (a binding that sets several
** parameters, or several runs, checks them all before it sets any). */
int ol_run_setcheck (const ol_run *r, int param, double value, ol_err *e);
/* The changes made so far (by ol_run_set or replayed), in order; *n of
** them; borrowed until the next change. */
const ol_change *ol_run_changes (const ol_run *r, int *n);

/* 1 while r is inside ol_run_advance (its callbacks are running): the
** binding then refuses to step, extend, stop or free it. */
int ol_run_busy (const ol_run *r);
/* 1 when r was restored from a summary (core/runpack.h,
** ol_run_pack_summary): its history holds the last record only, the rest
** is with the process that ran it; the binding refuses to read it. */
int ol_run_remote (const ol_run *r);
/* 1 when r was restored from packed bytes (a task file, another rank):
** its method's state is the one made with it, never stepped, so the
** method's named results (r.lambda, a variational mean, particles) are
** not the run's (runpack.h packs none). */
int ol_run_restored (const ol_run *r);
/* 1 when r was made with opts.shell (its method not initialised): it is
** to be restored into, and before it is continued, replaced by
** ol_run_unshell's run (runpack.h). */
int ol_run_shell (const ol_run *r);
/* The named result name of r's method (ol_method_result) for r: 0 for a
** restored run (ol_run_restored), whose method state would answer with
** the values it started from. */
int ol_run_result (const ol_run *r, const char *name, const double **v,
                   int *rows, int *cols);
/* About how many bytes of C memory r holds (its history included): what
** a garbage collector that owns r should count it as. */
size_t ol_run_memory (const ol_run *r);

int ol_run_reason (const ol_run *r);          /* OL_STOP_* */
/* A notice about how the run was set up ("" if none): a start moved
** inside its bounds (ol_constr_push, for the methods with OL_M_CONSTR). */
const char *ol_run_notice (const ol_run *r);
const char *ol_run_message (const ol_run *r); /* detail ("" if none): the
                                                 error text, traceback */
long ol_run_iter (const ol_run *r);           /* steps done */
long ol_run_budget (const ol_run *r);
int ol_run_n (const ol_run *r);
const double *ol_run_x (const ol_run *r);     /* current iterate, borrowed */
/* Average iterate, or NULL when the run keeps none (opts.average off, not
** a game, no exploitability, and the method keeps no average itself). */
const double *ol_run_xavg (const ol_run *r);
const ol_problem *ol_run_problem (const ol_run *r);
const ol_method_type *ol_run_method (const ol_run *r);
const double *ol_run_params (const ol_run *r);
const ol_run_opts *ol_run_options (const ol_run *r);
double ol_run_seconds (const ol_run *r);      /* wall time spent stepping */
/* Oracle calls made for the method: value, gradient and Hessian
** evaluations it asked for (a run's own evaluation at x_t that the method
** then uses counts here, once). */
long ol_run_nfev (const ol_run *r);
long ol_run_ngev (const ol_run *r);
long ol_run_nhev (const ol_run *r);
/* Evaluations the run made only for its records and stop rules (value
** and gradient), used by no step: e.g. the true gradient under minibatch
** noise, or the final point of a method that evaluates before it moves. */
long ol_run_mfev (const ol_run *r);
long ol_run_mgev (const ol_run *r);
/* Samplers: proposals accepted so far (0 for other methods). */
long ol_run_accepted (const ol_run *r);

/* Recorded series.  All share the time axis ol_run_times (iteration
** numbers, increasing); ol_run_series returns NULL for a metric not
** recorded.  Pointers stay valid until the next step. */
ol_mset ol_run_metrics (const ol_run *r);    /* the set recorded */
int ol_run_len (const ol_run *r);
const long *ol_run_times (const ol_run *r);
/* Arrays parallel to ol_run_times (same length ol_run_len, same
** decimation), for plotting against other x axes.  ol_run_evals: the
** gradient evaluations counted by ol_run_ngev when each point was
** recorded (the run's own evaluations for metrics and stop rules
** included, cache hits free: see core/oracle.h), as doubles; deterministic
** for a seed.  ol_run_secs: the stepping wall time (ol_run_seconds plus
** the current slice so far) at each record, nondecreasing and at most
** ol_run_seconds once the slice ended; measured, so not reproducible.
** Never NULL for a run ol_run_new returned; valid until the next step. */
const double *ol_run_evals (const ol_run *r);
const double *ol_run_secs (const ol_run *r);
const double *ol_run_series (const ol_run *r, int metric);
/* Latest value of a metric (computed at the last recorded time), NAN if
** not recorded. */
double ol_run_last (const ol_run *r, int metric);
/* Smallest finite value of a metric over every record made (also those
** the history no longer keeps), NAN if none. */
double ol_run_min (const ol_run *r, int metric);
/* Trajectory: len rows of *dim coordinates (NULL unless record_x). */
const double *ol_run_traj (const ol_run *r, int *dim);

/* The method's state (borrowed; for per-method accessors such as
** core/sample/stats.h), NULL before init. */
const void *ol_run_state (const ol_run *r);

/* Kept post-warmup draws of a sampler run (opts.draws): *rows rows of
** OL_DRAW_COLS + n doubles, CmdStan's order: lp (= -U), accept_stat,
** stepsize, treedepth, n_leapfrog, divergent, energy, then x on the
** problem's constrained scale (ol_problem_constrain: a bounded or
** reparameterized density is sampled on u, its draws are of x).  Every
** *thin-th post-warmup draw is kept (1 until the cap was reached); *seen
** counts the post-warmup draws made.  Samplers without statistics
** (core/sample/stats.h) give accept_stat 1 or 0 (the proposal was
** accepted), NAN stepsize and energy, 0 tree depth and leapfrogs.  NULL
** (rows 0) when none are kept.  Valid until the next step. */
#define OL_DRAW_COLS 7
const double *ol_run_draws (const ol_run *r, long *rows, long *thin,
                            long *seen);
/* Warmup steps of the run's method (0 when it does not adapt). */
long ol_run_warmup (const ol_run *r);

#endif
