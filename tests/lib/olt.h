/*
** tests/lib/olt.h -- shared helpers of the C unit tests (tests/c/t_*.c).
**
** Making problems and parameter vectors from the registry with "key",
** value overrides; starting and stepping runs; finite-difference checks of
** a problem's gradient and Hessian.  Failures are reported with diag()
** (tap.h), so a broken helper shows up in the test output.  Links with the
** core and tests/lib/tap.o only.
*/
#ifndef OLT_H
#define OLT_H

#include "method.h"
#include "problem.h"
#include "rng.h"
#include "run.h"

/* == problems and parameters ============================================ */

/* Problem of type name: its defaults, then "key", value (double) overrides,
** NULL-ended.  On failure NULL with *e set; with e == NULL the failure is
** diag()ed instead. */
ol_problem *olt_problem (const char *name, ol_err *e, ...);

/* The "quadratic" problem with dimension n, condition number cond and
** rotation on (1) or off (0); NULL (diag()ed) on failure. */
ol_problem *olt_quadratic (int n, double cond, int rotate);

/* par[] := defaults of method m, then "key", value (double) overrides,
** NULL-ended; unknown keys are diag()ed. */
void olt_params (const ol_method_type *m, double *par, ...);

/* The same for the method called name; returns it, or NULL (diag()ed)
** when there is none. */
const ol_method_type *olt_method (const char *name, double *par, ...);

/* == runs ================================================================ */

/* Default run options but for iters, tol and metrics. */
ol_run_opts olt_opts (long iters, double tol, ol_mset metrics);

/* A new run of m with par on p (o NULL: defaults); NULL (diag()ed) on
** failure. */
ol_run *olt_run (const ol_problem *p, const ol_method_type *m,
                 const double *par, const ol_run_opts *o);

/* olt_run, then advanced by up to o->iters steps. */
ol_run *olt_go (const ol_problem *p, const ol_method_type *m,
                const double *par, const ol_run_opts *o);

/* The iterates x_1..x_k of m on p into X (k rows of p->n); 1, or 0
** (diag()ed) when the run cannot start or stops early. */
int olt_iterates (const ol_problem *p, const ol_method_type *m,
                  const double *par, const ol_run_opts *o, int k, double *X);

/* The first two iterates into x1 and x2 (p->n each); 1, or 0 on failure. */
int olt_two_steps (const ol_problem *p, const ol_method_type *m,
                   const double *par, const ol_run_opts *o, double *x1,
                   double *x2);

/* |got_i - want_i| <= tol (1 + |want_i|) for i < n; the first miss is
** diag()ed. */
int olt_agree (const double *got, const double *want, int n, double tol);

/* == oracles and finite differences ======================================= */

/* f(x) by the oracle; NaN when it fails. */
double olt_fval (const ol_problem *p, const double *x);

/* ||grad f(x)||_2 by the oracle; NaN when it fails. */
double olt_gnorm (const ol_problem *p, const double *x);

/* max_i |FD_i - g_i| / max(1, ||g||_inf): the oracle gradient g at x
** against central differences of f, h = 1e-6 max(1, |x_i|).  For games
** against differences of f = x'Ay, whose gradient is (A y, A'x) =
** (-g_x, g_y). */
double olt_graderr (const ol_problem *p, const double *x);

/* max_ij |FD(grad)_ij - H_ij| / max(1, max |H_ij|) at x. */
double olt_hesserr (const ol_problem *p, const double *x);

/* ok() that the gradient (and the Hessian when offered) match finite
** differences to 1e-6 at three random points x0 + scale N(0, I) (for
** games: on the simplices), drawn from r. */
void olt_derivs (const char *label, const ol_problem *p, ol_rng *r,
                 double scale);

/* A custom problem of dimension n with oracle fdf(ud, ...) (ud borrowed)
** over set s, starting at x0 (NULL: the default); NULL, diag()ed, on
** failure. */
ol_problem *olt_setproblem (int n, ol_fdf_fn fdf, void *ud, const ol_set *s,
                            const double *x0);

/* The optimizer "nop": a step that leaves x as it is, on objectives, so a
** run records the metrics of a fixed point.  Its init stores the run's
** context in olt_nop_ctx, for tests that call the oracles themselves. */
extern const ol_method_type olt_nop;
extern ol_ctx *olt_nop_ctx;
/* Its init (allocates nothing; stores c in olt_nop_ctx), for test methods
** that need no state. */
int olt_nop_init (void *st, const double *par, ol_ctx *c, ol_err *e);

#endif
