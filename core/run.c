/*
** core/run.c -- the run engine (see run.h for the contract).
**
** One step: the method moves c.x; the run counts the step, keeps the
** uniform average iterate when something reads it (games, exploitability;
** not for OL_M_OWNAVG methods), checks the iterate (finite, within
** xlimit), and evaluates the true f and g at the new point only when
** needed: a tolerance rule is on (optimizers), a record is due, or the
** run stops now.  A method that evaluated there itself hands f and g over
** (ol_ctx_known), and then nothing is evaluated again; that cache also
** serves a method asking for the gradient at the same point next step.
** Wherever the run holds f and g at x_t it applies the convergence and
** divergence rules of run.h.
**
** Recording: see run.h for which times are kept.  A stop appends its
** final point even when the rule keeps no point there; the next record
** (after ol_run_extend) replaces such an off-grid tail.  Each record also
** keeps c.ngev and the stepping seconds so far (evals, secs), moved with
** the times, so plots can use either as the x axis.
**
** Time: no clock call per step.  ol_run_advance (and ol_run_step, which
** is advance(1)) reads the monotonic clock around the slice; the time
** limit is checked every 64 steps against seconds + the slice so far.
** xavg is the mean of x_0 .. x_t.
**
** Metrics: a set given in the options must be available for the problem
** and the method, or ol_run_new fails naming the metric and why; probe
** metrics (lr*, ortherr; regret of an optimizer) are available when the
** method declares them (m->probes), and are NAN until its first step
** defines them.  The
** oracle state (cache, minibatch order: core/oracle.c) and the metrics'
** memory live in the run (runpriv.h) and are allocated here, never in a
** step.  Composite problems (l1 > 0) stop
** on the kkt (prox-gradient) measure.
*/
#include "run.h"

#include <limits.h>

#include "constr.h"
#include "runpriv.h"
#include "sample/stats.h"
#include "vec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* == options, schedules, names ============================================ */

void ol_run_opts_default (ol_run_opts *o)
{
  memset(o, 0, sizeof *o);
  o->iters = 1000;
  o->tol = 0;
  o->time_limit = 0;
  o->seed = 1;
  o->stream = 0;
  o->x0 = NULL;
  o->metrics = OL_MSET_EMPTY;
  o->stop_metric = -1;
  o->stop_value = 0;
  o->xlimit = 1e50;
  o->flimit = 1e10;
  o->cap = 4096;
  o->record_x = 0;
  o->sched.kind = OL_SCHED_CONST;
  o->sched.gamma = 0.1;
  o->sched.period = 1000;
}

/* Multiplier at step t (0-based) of a run with budget iters. */
double ol_sched_value (const ol_sched *s, long t, long iters)
{
  double per = s->period >= 1 ? (double)s->period : 1;
  double u;
  switch (s->kind) {
  case OL_SCHED_STEP:
    return pow(s->gamma, floor((double)t / per));
  case OL_SCHED_INV:
    return 1 / (1 + (double)t / per);
  case OL_SCHED_INVSQRT:
    return 1 / sqrt(1 + (double)t / per);
  case OL_SCHED_COSINE:
    if (iters <= 0) return 1;
    u = (double)(t < iters ? t : iters) / (double)iters;
    return 0.5 * (1 + cos(3.14159265358979323846 * u));
  case OL_SCHED_WARMUP:
    u = ((double)t + 1) / per;
    return u < 1 ? u : 1;
  default:
    return 1;
  }
}

const char *ol_stop_name (int reason)
{
  switch (reason) {
  case OL_STOP_NONE: return "running";
  case OL_STOP_BUDGET: return "budget";
  case OL_STOP_TOL: return "tolerance";
  case OL_STOP_TIME: return "time";
  case OL_STOP_NONFINITE: return "non-finite";
  case OL_STOP_CALLBACK: return "callback error";
  case OL_STOP_FAILED: return "numerical failure";
  case OL_STOP_INTERRUPTED: return "interrupted";
  case OL_STOP_STOPPED: return "stopped";
  case OL_STOP_CONVERGED: return "converged";
  case OL_STOP_DIVERGED: return "diverged";
  case OL_STOP_INFEASIBLE: return "infeasible";
  default: return "unknown";
  }
}

/* Stop reason for an error code from an oracle or a method. */
static int reason_of (int code)
{
  switch (code) {
  case OL_EDOM: return OL_STOP_NONFINITE;
  case OL_ECALLBACK: return OL_STOP_CALLBACK;
  case OL_EINTR: return OL_STOP_INTERRUPTED;
  default: return OL_STOP_FAILED;
  }
}

/* == evaluation and recording ============================================== */

/* True f, g at the current iterate into the cache: an actual oracle call,
** counted as the run's own (mfev, mgev) until a step uses it.  OL_OK or
** the oracle's code with e set. */
static int eval_here (ol_run *r, ol_err *e)
{
  return ol_oracle_here(&r->orc, r->p, r->x, e);
}

static void fill_state (ol_run *r, ol_mstate *s)
{
  s->p = r->p;
  s->n = r->n;
  s->x = r->x;
  s->xavg = r->xavg;
  s->xbar = r->shadow != NULL ? r->shadow->x : NULL;
  s->f = r->orc.f;
  s->g = r->orc.g;
  s->gn = r->orc.gnok ? &r->orc.gn : NULL;
  s->t = r->c.t;
  s->accepted = r->c.accepted;
  s->work = r->work + 2 * r->n;
  s->m = r->m;
  s->st = r->inited ? r->st : NULL;
  s->c = &r->c;
  s->mem = &r->mem;
}

/* -- which times the history keeps (run.h) -- */

/* floor(log2 t) for t >= 1. */
static int ilog2 (long t)
{
  int j = 0;
  while (t > 1) {
    t >>= 1;
    j++;
  }
  return j;
}

/* Spacing of the log points around t: 1 below 2L, 2^j / L in octave j. */
static long log_spacing (const ol_run *r, long t)
{
  int j = t >= 1 ? ilog2(t) : 0;
  return j > r->lgl ? 1L << (j - r->lgl) : 1;
}

static int kept (const ol_run *r, long t)
{
  return t % r->stride == 0 || t % log_spacing(r, t) == 0;
}

/* The first kept time after t. */
static long next_kept (const ol_run *r, long t)
{
  long u = t - t % r->stride + r->stride, s = log_spacing(r, t + 1);
  long l = (t + 1) % s == 0 ? t + 1 : t + 1 - (t + 1) % s + s;
  return u < l ? u : l;
}

/* Number of log points in [0, T], for lgl = log2 L. */
static long nlog (int lgl, long T)
{
  long L = 1L << lgl, cnt, lo, hi;
  int j;
  if (T < 2 * L) return T + 1;
  cnt = 2 * L;
  for (j = lgl + 1; j < 62 && (lo = 1L << j) <= T; j++) {
    hi = (1L << (j + 1)) - 1;
    if (hi > T) hi = T;
    cnt += (hi - lo) / (1L << (j - lgl)) + 1;
  }
  return cnt;
}

/* Points the history may hold for a budget of T steps (never more than
** the T + 1 iterates). */
static long hist_bound (const ol_run *r, long T)
{
  long b = r->ucap + 2 + nlog(r->lgl, T);
  return T + 2 < b ? T + 2 : b;
}

/* realloc *p to bytes; 1 (and *p unchanged) on failure. */
static int grow (void **p, size_t bytes)
{
  void *q = realloc(*p, bytes);
  if (q == NULL) return 1;
  *p = q;
  return 0;
}

/* Make room for the history of a budget of T steps; OL_ENOMEM with e
** set (the old arrays stay valid) on failure. */
static int hist_reserve (ol_run *r, long T, ol_err *e)
{
  long want = hist_bound(r, T);
  size_t m;
  int k;
  if (want <= r->alloc) return OL_OK;
  if (want > (1L << 30))
    return ol_err_set(e, OL_ENOMEM, "history of %ld points is too large",
                      want);
  m = (size_t)want;
  if (grow((void **)&r->times, m * sizeof *r->times) ||
      grow((void **)&r->evals, m * sizeof *r->evals) ||
      grow((void **)&r->secs, m * sizeof *r->secs))
    goto nomem;
  for (k = 0; k < OL_NMETRICS; k++)
    if (r->vals[k] != NULL &&
        grow((void **)&r->vals[k], m * sizeof *r->vals[k]))
      goto nomem;
  if (r->traj != NULL &&
      grow((void **)&r->traj, m * (size_t)r->tdim * sizeof *r->traj))
    goto nomem;
  r->alloc = (int)want;
  return OL_OK;
nomem:
  return ol_err_set(e, OL_ENOMEM, "out of memory (history of %ld points)",
                    want);
}

/* Double the stride while t would keep more than ucap of its multiples,
** then drop the points no longer kept. */
static void restride (ol_run *r, long t)
{
  int i, j, k;
  if (t / r->stride < r->ucap) return;
  while (t / r->stride >= r->ucap) r->stride *= 2;
  for (i = 0, j = 0; i < r->len; i++) {
    if (!kept(r, r->times[i])) continue;
    if (j != i) {
      r->times[j] = r->times[i];
      r->evals[j] = r->evals[i];
      r->secs[j] = r->secs[i];
      for (k = 0; k < OL_NMETRICS; k++)
        if (r->vals[k] != NULL) r->vals[k][j] = r->vals[k][i];
      if (r->traj != NULL)
        memcpy(r->traj + (size_t)j * r->tdim, r->traj + (size_t)i * r->tdim,
               (size_t)r->tdim * sizeof *r->traj);
    }
    j++;
  }
  r->len = j;
}

/* Method m defines metric i itself (its probe and probes set). */
static int probed (const ol_method_type *m, int i)
{
  return m->probe != NULL && ol_mset_has(m->probes, i);
}

static int stop_err (ol_run *r, int code, const ol_err *e);

/* Record the metrics at the current t; the cache must be valid at x.  A
** second record at the same t overwrites the first. */
static void record (ol_run *r)
{
  long t = r->c.t;
  ol_mstate s;
  int i, k;
  if (r->len > 0 && r->times[r->len - 1] == t)
    k = r->len - 1;
  else {
    if (r->offgrid) {
      r->len--;
      r->offgrid = 0;
    }
    restride(r, t);
    k = r->len++;
  }
  r->times[k] = t;
  r->evals[k] = (double)r->c.ngev;
  r->secs[k] = r->seconds + (r->inslice ? ol_now() - r->slice0 : 0);
  r->offgrid = !kept(r, t);
  r->next_rec = next_kept(r, t);
  fill_state(r, &s);
  for (i = 0; i < OL_NMETRICS; i++)
    if (r->vals[i] != NULL) {
      /* a method's own value of a metric comes first (a VI family's
      ** entropy is its Gaussian's, not the simplex one); a metric that
      ** can fail (the user's, metrics.h) stops the run with its error */
      double v = NAN;
      ol_err e;
      if (probed(r->m, i))
        v = r->m->probe(r->st, i, &r->c);
      else if (ol_metric_types[i]->try_eval == NULL)
        v = ol_metric_types[i]->eval(&s);
      else if (ol_metric_types[i]->try_eval(&s, &v, &e) != OL_OK &&
               r->reason == OL_STOP_NONE)
        stop_err(r, e.code, &e);
      r->vals[i][k] = v;
      if (isfinite(v) && !(v >= r->vmin[i])) r->vmin[i] = v;
    }
  if (r->traj != NULL)
    memcpy(r->traj + (size_t)k * r->tdim, r->x,
           (size_t)r->tdim * sizeof *r->x);
}

/* Stop with the reason for code and the message of e (or the code's
** text when the message is empty). */
static int stop_err (ol_run *r, int code, const ol_err *e)
{
  r->reason = reason_of(code);
  memcpy(r->msg, e->msg, sizeof r->msg);
  r->msg[sizeof r->msg - 1] = '\0';
  if (r->msg[0] == '\0')
    memcpy(r->msg, ol_strerror(code), strlen(ol_strerror(code)) + 1);
  return r->reason;
}

/* Stop with reason and a formatted message. */
static int stop_msg (ol_run *r, int reason, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->msg, sizeof r->msg, fmt, ap);
  va_end(ap);
  r->reason = reason;
  return reason;
}

/* == draws (samplers) ======================================================= */

/* Room for the draws of a budget of T steps: min(dcap, T - warmup + 1)
** rows.  OL_ENOMEM with e set (the old rows stay) on failure. */
static int draws_reserve (ol_run *r, long T, ol_err *e)
{
  long want = T - r->warmup + 1, cols = OL_DRAW_COLS + r->n;
  if (r->dcap == 0) return OL_OK;
  if (want > r->dcap) want = r->dcap;
  if (want < 1) want = 1;
  if (want <= r->dalloc) return OL_OK;
  if (grow((void **)&r->draws, (size_t)want * (size_t)cols *
           sizeof *r->draws))
    return ol_err_set(e, OL_ENOMEM, "out of memory (%ld draws of %ld "
                      "numbers)", want, cols);
  r->dalloc = want;
  return OL_OK;
}

/* After a post-warmup step: keep its draw (every dthin-th); at the cap,
** drop every other kept draw and double dthin. */
static void keep_draw (ol_run *r, long accepted0)
{
  long cols = OL_DRAW_COLS + r->n, i, j;
  ol_sampler_stat st;
  double *row;
  if (r->c.t <= r->warmup) return;
  if (r->dseen++ % r->dthin != 0) return;
  if (r->drows >= r->dalloc) {
    if (r->drows < r->dcap) return;   /* extend did not reserve: cannot */
    for (i = 0, j = 0; i < r->drows; i += 2, j++)
      memmove(r->draws + j * cols, r->draws + i * cols,
              (size_t)cols * sizeof *r->draws);
    r->drows = j;
    r->dthin *= 2;
    if ((r->dseen - 1) % r->dthin != 0) return;
  }
  row = r->draws + r->drows++ * cols;
  if (ol_sampler_stats(r->m, r->st, &st) == OL_OK) {
    row[0] = st.lp;
    row[1] = st.accept_stat;
    row[2] = st.stepsize;
    row[3] = st.treedepth;
    row[4] = st.n_leapfrog;
    row[5] = st.divergent;
    row[6] = st.energy;
  }
  else {
    row[0] = r->orc.gvalid ? -r->orc.f : NAN;
    row[1] = r->c.accepted > accepted0;
    row[2] = row[6] = NAN;
    row[3] = row[4] = row[5] = 0;
  }
  /* on the constrained scale of a bounded or reparameterized density */
  ol_problem_constrain(r->p, r->x, row + OL_DRAW_COLS);
}

/* == stepping ============================================================== */

/* Tolerance measure: kkt on a constrained or composite problem, else
** gradnorm. */
static double tol_measure (ol_run *r)
{
  ol_mstate s;
  if (r->p->set.kind == OL_SET_NONE && !(r->p->l1 > 0) && r->p->con.m == 0)
    return ol_oracle_gnorm(&r->orc, r->n);
  fill_state(r, &s);
  return ol_metric_types[OL_MET_KKT]->eval(&s);
}

/* ||x||_inf with the finiteness test of ol_run_finite folded in (NAN when
** an entry is not finite).  The maximum is taken over the bit patterns of
** |x_i| as unsigned integers, whose order is that of the values for
** finite doubles: a loop the compiler vectorises (a maximum of doubles it
** does not, for fear of NaNs), with the same result. */
static inline double absmax (const double *x, int n)
{
  uint64_t bad = 0, mu = 0, u;
  double m;
  int i;
  for (i = 0; i < n; i++) {
    memcpy(&u, x + i, sizeof u);
    bad |= ol_fbit(x[i]);
    u &= 0x7fffffffffffffffu;
    mu = u > mu ? u : mu;
  }
  memcpy(&m, &mu, sizeof m);
  return OL_FBITS_OK(bad) ? m : NAN;
}

/* The iterate rules: OL_STOP_NONFINITE, OL_STOP_DIVERGED or none. */
static int check_x (ol_run *r)
{
  double m = absmax(r->x, r->n);
  if (isnan(m))
    return stop_msg(r, OL_STOP_NONFINITE, "non-finite iterate at "
                    "iteration %ld", r->c.t);
  if (m > r->xlim)
    return stop_msg(r, OL_STOP_DIVERGED, "||x||_inf = %.3g exceeds xlimit "
                    "%g x max(1, ||x_0||_inf) at iteration %ld", m,
                    r->o.xlimit, r->c.t);
  return OL_STOP_NONE;
}

/* The rules that need f and g at x_t (the cache is valid there): the
** divergence of f, exact stationarity, the tolerances.  Returns the stop
** reason or OL_STOP_NONE; a stop's message says which rule held. */
static int check_fg (ol_run *r)
{
  const ol_run_opts *o = &r->o;
  int tols = ol_family_of(r->m)->tolerances;
  double fl = r->f0 - o->flimit * fmax(1, fabs(r->f0)), d;
  if (r->p->kind != OL_GAME && r->orc.f < fl)
    return stop_msg(r, OL_STOP_DIVERGED, "f = %.3g fell below f(x_0) - "
                    "flimit %g x max(1, |f(x_0)|) = %.3g at iteration %ld",
                    r->orc.f, o->flimit, fl, r->c.t);
  if (o->stop_metric >= 0) {
    ol_mstate ms;
    double v;
    fill_state(r, &ms);
    v = ol_metric_types[o->stop_metric]->eval(&ms);
    if (v <= o->stop_value)
      return stop_msg(r, OL_STOP_TOL, "%s %.3g <= %g (stop_below)",
                      ol_metric_types[o->stop_metric]->name, v,
                      o->stop_value);
  }
  if (!tols) return OL_STOP_NONE;
  if (r->p->noise.kind == OL_NOISE_NONE || r->usetol) {
    int plain = r->p->set.kind == OL_SET_NONE && !(r->p->l1 > 0)
                && r->p->con.m == 0;
    double m = tol_measure(r);
    if (o->tol > 0 && m <= o->tol)
      return stop_msg(r, OL_STOP_TOL, "%s %.3g <= tol %g",
                      plain ? "gradnorm" : "kkt", m, o->tol);
    if (m == 0 && r->p->noise.kind == OL_NOISE_NONE)
      return stop_msg(r, OL_STOP_CONVERGED, "the %s is exactly 0 at "
                      "iteration %ld", plain ? "gradient" : "KKT gap",
                      r->c.t);
  }
  if (r->c.t == 0) return OL_STOP_NONE;
  d = fabs(r->orc.f - r->fprev);
  if (o->f_abstol > 0 && d <= o->f_abstol)
    return stop_msg(r, OL_STOP_TOL, "|f_t - f_t-1| = %.3g <= f_abstol %g",
                    d, o->f_abstol);
  if (o->f_reltol > 0 && d <= o->f_reltol * fabs(r->orc.f))
    return stop_msg(r, OL_STOP_TOL, "|f_t - f_t-1| = %.3g <= f_reltol %g "
                    "x |f_t|", d, o->f_reltol);
  if (r->xprev != NULL) {
    double dx = 0, xm = 0;
    int i;
    for (i = 0; i < r->n; i++) {
      double a = fabs(r->x[i] - r->xprev[i]), b = fabs(r->x[i]);
      dx = a > dx ? a : dx;
      xm = b > xm ? b : xm;
    }
    if (o->x_abstol > 0 && dx <= o->x_abstol)
      return stop_msg(r, OL_STOP_TOL, "||x_t - x_t-1||_inf = %.3g <= "
                      "x_abstol %g", dx, o->x_abstol);
    if (o->x_reltol > 0 && dx <= o->x_reltol * xm)
      return stop_msg(r, OL_STOP_TOL, "||x_t - x_t-1||_inf = %.3g <= "
                      "x_reltol %g x ||x_t||_inf", dx, o->x_reltol);
  }
  return OL_STOP_NONE;
}

/* One iteration of a running run; returns the reason after it. */
static int step_shadow (ol_run *r);
static void replay_due (ol_run *r);

static inline int step1 (ol_run *r)
{
  ol_ctx *c = &r->c;
  ol_err e;
  int rc, stop = OL_STOP_NONE, i, n = r->n, known;
  long t, acc0;
  e.code = OL_OK;
  e.msg[0] = '\0';
  c->sched = r->o.sched.kind == OL_SCHED_CONST ? 1
    : ol_sched_value(&r->o.sched, c->t, r->iters);
  if (r->xprev != NULL) memcpy(r->xprev, r->x, (size_t)n * sizeof *r->x);
  if (c->t >= r->replay_t) {
    replay_due(r);
    if (r->reason != OL_STOP_NONE) return r->reason;
  }
  r->orc.handed = r->orc.conv = 0;
  acc0 = c->accepted;
  rc = r->m->step(r->st, c, &e);
  /* the noise-free shadow takes the same step (its failure only makes
  ** bias and variance NaN from then on) */
  if (r->shadow != NULL && r->shadow->reason == OL_STOP_NONE)
    step_shadow(r->shadow);
  if (rc != OL_OK) {
    /* (1) failed step: keep the message, record x if it is evaluable */
    ol_err e2;
    stop_err(r, rc, &e);
    if (ol_allfinite(r->x, n) && eval_here(r, &e2) == OL_OK) record(r);
    return r->reason;
  }
  /* (2) count the step, refresh the average, check the iterate */
  t = ++c->t;
  if (!r->orc.handed) r->orc.gvalid = 0;
  if (r->useavg) {
    double w = 1 / ((double)t + 1);
    for (i = 0; i < n; i++) r->xavg[i] += w * (r->x[i] - r->xavg[i]);
  }
  /* A non-finite or diverged iterate is caught by the next evaluation
  ** (every method evaluates at its iterate, and the run evaluates before
  ** recording or stopping), so the full pass over x is only made where it
  ** is cheap or a projection would otherwise consume it; that keeps
  ** large-n steps to the passes the method itself needs. */
  if ((r->project || n <= 64) && !(absmax(r->x, n) <= r->xlim) &&
      check_x(r) != OL_STOP_NONE) {
    if (r->reason == OL_STOP_DIVERGED && eval_here(r, &e) == OL_OK)
      record(r);
    return r->reason;
  }
  /* Any optimizer on a constrained problem is run as its projected
  ** variant; idempotent for the methods that project themselves (for the
  ** diagonal adaptive methods on a box this is also their weighted-norm
  ** projection, as in Reddi et al. 2018). */
  if (r->project) ol_ctx_project(c, r->x);
  /* (3) stop rules that need no evaluation */
  if (r->orc.conv)
    stop = stop_msg(r, r->orc.conv == 2 ? OL_STOP_INFEASIBLE
                    : OL_STOP_CONVERGED, "%s", r->orc.convmsg);
  else if (t >= r->iters)
    stop = OL_STOP_BUDGET;
  else if ((t & 63) == 0 && r->o.time_limit > 0 &&
           r->seconds + (ol_now() - r->slice0) >= r->o.time_limit)
    stop = OL_STOP_TIME;
  /* (4) evaluate when needed (a tolerance, a due record, a stop) or when
  ** the method handed f and g over; then the rules on f and g, which may
  ** stop the run at this very step */
  known = r->orc.gvalid &&
    memcmp(r->x, r->orc.xg, (size_t)n * sizeof *r->x) == 0;
  if (known || stop != OL_STOP_NONE || r->usetol || t == r->next_rec) {
    int why;
    rc = eval_here(r, &e);
    if (rc != OL_OK) return stop_err(r, rc, &e);
    if (stop == OL_STOP_NONE && n > 64 && !r->project &&
        check_x(r) != OL_STOP_NONE) {
      record(r);
      return r->reason;
    }
    why = r->orc.conv ? OL_STOP_NONE : check_fg(r);
    if (why != OL_STOP_NONE && !r->orc.conv) stop = why;
    r->fprev = r->orc.f;
    if (stop != OL_STOP_NONE || t == r->next_rec) {
      int before = r->reason;
      record(r);
      if (r->reason != before) return r->reason;   /* a metric failed */
    }
  }
  if (stop == OL_STOP_BUDGET || stop == OL_STOP_TIME) r->msg[0] = '\0';
  if (r->draws != NULL) keep_draw(r, acc0);
  r->reason = stop;
  return stop;
}

/* The shadow's step, out of line, so that step1 has no recursion and
** inlines into the slice loop. */
static int step_shadow (ol_run *r)
{
  return step1(r);
}

long ol_run_advance (ol_run *r, long k)
{
  long t0, i;
  /* a callback of this run stepping it again (re-entry) takes no step */
  if (r == NULL || r->reason != OL_STOP_NONE || k <= 0 || r->inslice)
    return 0;
  t0 = r->c.t;
  r->slice0 = ol_now();
  r->inslice = 1;
  for (i = 0; i < k; i++)
    if (step1(r) != OL_STOP_NONE) break;
  r->inslice = 0;
  r->seconds += ol_now() - r->slice0;
  return r->c.t - t0;
}

int ol_run_step (ol_run *r)
{
  if (r == NULL) return OL_STOP_FAILED;
  ol_run_advance(r, 1);
  return r->reason;
}

void ol_run_halt (ol_run *r, int reason)
{
  ol_err e;
  if (r == NULL || r->reason != OL_STOP_NONE || r->inslice) return;
  r->reason = reason > OL_STOP_NONE && reason <= OL_STOP_STOPPED ? reason
    : OL_STOP_STOPPED;
  if (eval_here(r, &e) == OL_OK) record(r);
}

int ol_run_extend (ol_run *r, long iters, ol_err *e)
{
  if (r == NULL) return ol_err_set(e, OL_EINVAL, "no run");
  if (r->inslice)
    return ol_err_set(e, OL_EINVAL, "the run is being stepped (by its own "
                      "callback)");
  if (r->remote)
    return ol_err_set(e, OL_EINVAL, "the run is a summary of one run "
                      "elsewhere (another rank's): it cannot be continued "
                      "here");
  if (r->reason != OL_STOP_NONE && r->reason != OL_STOP_BUDGET)
    return ol_err_set(e, OL_EINVAL, "cannot extend a run stopped by %s",
                      ol_stop_name(r->reason));
  if (iters <= r->c.t)
    return ol_err_set(e, OL_EINVAL, "iters = %ld must exceed the %ld "
                      "steps already done", iters, r->c.t);
  if (iters > OL_RUN_MAXITERS)
    return ol_err_set(e, OL_EINVAL, "iters = %ld is out of range [0, 2^62]",
                      iters);
  if (hist_reserve(r, iters, e) != OL_OK ||
      draws_reserve(r, iters, e) != OL_OK)
    return e->code;
  r->iters = iters;
  r->o.iters = iters;
  r->reason = OL_STOP_NONE;
  r->msg[0] = '\0';
  if (r->shadow != NULL && r->shadow->reason == OL_STOP_BUDGET)
    ol_run_extend(r->shadow, iters, e);
  return OL_OK;
}

/* == live parameters ======================================================= */

/* OL_OK when params[k] of m may be set to v during a run, else OL_EINVAL
** naming it and why: not live (the live ones listed) or out of range. */
static int live_check (const ol_method_type *m, int k, double v, ol_err *e)
{
  char live[160];
  size_t len = 0;
  int i;
  if (k < 0 || k >= m->nparams)
    return ol_err_set(e, OL_EINVAL, "%s has no parameter %d", m->name,
                      k + 1);
  if (k >= 32 || !(m->params_live & OL_LIVE(k))) {
    live[0] = '\0';
    for (i = 0; i < m->nparams && i < 32; i++)
      if ((m->params_live & OL_LIVE(i)) && len < sizeof live)
        len += (size_t)snprintf(live + len, sizeof live - len, "%s%s",
                                len > 0 ? ", " : "", m->params[i].name);
    if (live[0] == '\0')
      return ol_err_set(e, OL_EINVAL, "%s.%s cannot change during a run "
                        "(none of %s's parameters can)", m->name,
                        m->params[k].name, m->name);
    return ol_err_set(e, OL_EINVAL, "%s.%s cannot change during a run "
                      "(%s's live parameters: %s)", m->name,
                      m->params[k].name, m->name, live);
  }
  return ol_param_check(&m->params[k], v, e);
}

/* Apply and log a checked change (the shadow follows, unlogged). */
static int apply_change (ol_run *r, int k, double v, ol_err *e)
{
  if (r->nchg == r->chgalloc) {
    int na = r->chgalloc > 0 ? 2 * r->chgalloc : 8;
    ol_change *q;
    if (na > (1 << 24))
      return ol_err_set(e, OL_EINVAL, "more than %d parameter changes in "
                        "one run", 1 << 24);
    q = realloc(r->changes, (size_t)na * sizeof *q);
    if (q == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory (changes)");
    r->changes = q;
    r->chgalloc = na;
  }
  r->changes[r->nchg].t = r->c.t;
  r->changes[r->nchg].param = k;
  r->changes[r->nchg].value = v;
  r->nchg++;
  r->par[k] = v;
  if (r->shadow != NULL) r->shadow->par[k] = v;
  return OL_OK;
}

int ol_run_set (ol_run *r, int param, double value, ol_err *e)
{
  if (ol_run_setcheck(r, param, value, e) != OL_OK) return e->code;
  return apply_change(r, param, value, e);
}

int ol_run_setcheck (const ol_run *r, int param, double value, ol_err *e)
{
  if (r->inslice)
    return ol_err_set(e, OL_EINVAL, "the run is inside its own step (a "
                      "callback of the run cannot change its parameters)");
  if (live_check(r->m, param, value, e) != OL_OK) return e->code;
  /* a stopped run takes no step that the change could reach: logged, it
  ** would be one a replay never applies (its log would differ) */
  if (r->reason != OL_STOP_NONE)
    return ol_err_set(e, OL_EINVAL, "the run has stopped (%s)%s",
                      ol_stop_name(r->reason), r->reason == OL_STOP_BUDGET
                      ? ": extend it first, then change its parameters"
                      : ": a change would reach no step");
  return OL_OK;
}

const ol_change *ol_run_changes (const ol_run *r, int *n)
{
  *n = r->nchg;
  return r->changes;
}

/* Apply the replayed changes due after c.t steps (step1, before the
** step). */
static void replay_due (ol_run *r)
{
  ol_err e;
  while (r->ireplay < r->nreplay && r->replay[r->ireplay].t <= r->c.t) {
    const ol_change *ch = &r->replay[r->ireplay++];
    if (apply_change(r, ch->param, ch->value, &e) != OL_OK) {
      stop_err(r, e.code, &e);
      return;
    }
  }
  ol_run_replay_next(r);
}

void ol_run_replay_next (ol_run *r)
{
  r->replay_t = r->ireplay < r->nreplay ? r->replay[r->ireplay].t
                                        : LONG_MAX;
}

/* == creation ============================================================== */

/* The shadow of r for the bias and variance metrics: the same method,
** parameters, start, seed and schedule on a noise-free shallow copy of
** the problem, recording only what it must (loss, 16 points). */
static int make_shadow (ol_run *r, const ol_run_opts *o, ol_err *e)
{
  ol_run_opts so = *o;
  r->shadowp = malloc(sizeof *r->shadowp);
  if (r->shadowp == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (shadow run)");
  *r->shadowp = *r->p;
  r->shadowp->noise.kind = OL_NOISE_NONE;
  so.x0 = r->x0;
  so.changes = NULL;          /* r's changes reach the shadow with r's */
  so.nchanges = 0;
  so.draws = 0;
  so.tol = so.f_abstol = so.f_reltol = so.x_abstol = so.x_reltol = 0;
  so.stop_metric = -1;
  so.xlimit = so.flimit = INFINITY;
  so.time_limit = 0;
  so.metrics = OL_MSET_OF(OL_MET_LOSS);
  so.cap = 16;
  so.record_x = 0;
  so.average = 0;
  r->shadow = ol_run_new(r->shadowp, r->m, r->par, &so, e);
  return r->shadow != NULL ? OL_OK : e->code;
}

static int check_opts (const ol_run_opts *o, ol_err *e)
{
  const ol_sched *s = &o->sched;
  if (o->iters < 0 || o->iters > OL_RUN_MAXITERS)
    return ol_err_set(e, OL_EINVAL, "iters = %ld is out of range [0, 2^62]",
                      o->iters);
  {
    /* the tolerances: >= 0 (0 is off) */
    const struct { const char *name; double v; } tols[] = {
      {"tol", o->tol}, {"f_abstol", o->f_abstol}, {"f_reltol", o->f_reltol},
      {"x_abstol", o->x_abstol}, {"x_reltol", o->x_reltol}
    };
    size_t k;
    for (k = 0; k < sizeof tols / sizeof tols[0]; k++)
      if (!(tols[k].v >= 0))
        return ol_err_set(e, OL_EINVAL, "%s = %g is out of range [0, inf]",
                          tols[k].name, tols[k].v);
  }
  if (o->warmup < 0 || o->draws < 0)
    return ol_err_set(e, OL_EINVAL, "%s = %ld is out of range [0, inf]",
                      o->warmup < 0 ? "warmup" : "draws",
                      o->warmup < 0 ? o->warmup : o->draws);
  if (o->stop_metric >= OL_NMETRICS || o->stop_metric == OL_MET_MINGRADNORM
      || o->stop_metric == OL_MET_SUPPORT)
    return ol_err_set(e, OL_EINVAL, "stop_below: %s is not a metric of the "
                      "current point only",
                      o->stop_metric < OL_NMETRICS
                      ? ol_metric_types[o->stop_metric]->name : "?");
  if (o->stop_metric >= 0 && isnan(o->stop_value))
    return ol_err_set(e, OL_EINVAL, "stop_below: the value is NaN");
  if (!(o->xlimit > 0))
    return ol_err_set(e, OL_EINVAL, "xlimit = %g is out of range (0, inf]",
                      o->xlimit);
  if (!(o->flimit > 0))
    return ol_err_set(e, OL_EINVAL, "flimit = %g is out of range (0, inf]",
                      o->flimit);
  if (!(o->time_limit >= 0))
    return ol_err_set(e, OL_EINVAL, "time = %g is out of range [0, inf]",
                      o->time_limit);
  if (o->cap < 16 || o->cap > (1 << 30))
    return ol_err_set(e, OL_EINVAL, "cap = %d is out of range [16, %d]",
                      o->cap, 1 << 30);
  if (s->kind < OL_SCHED_CONST || s->kind > OL_SCHED_WARMUP)
    return ol_err_set(e, OL_EINVAL, "sched = %d is not one of the choices "
                      "const|step|inv|invsqrt|cosine|warmup", s->kind);
  if (!(s->gamma > 0 && s->gamma <= 1))
    return ol_err_set(e, OL_EINVAL, "gamma = %g is out of range (0, 1]",
                      s->gamma);
  if (s->period < 1)
    return ol_err_set(e, OL_EINVAL, "period = %ld is out of range "
                      "[1, inf]", s->period);
  return OL_OK;
}

/* Allocate n doubles into *p; OL_ENOMEM with e set on failure. */
static int alloc (double **p, size_t n, ol_err *e)
{
  *p = calloc(n > 0 ? n : 1, sizeof **p);
  if (*p == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (%zu doubles)", n);
  return OL_OK;
}

ol_run *ol_run_new (const ol_problem *p, const ol_method_type *m,
                    const double *par, const ol_run_opts *o, ol_err *e)
{
  ol_run_opts def;
  ol_run *r = NULL;
  const double *x0;
  ol_err e2;
  int i, n, rc, np, wasfrozen = 1;
  if (p == NULL || m == NULL) {
    ol_err_set(e, OL_EINVAL, "no %s", p == NULL ? "problem" : "method");
    return NULL;
  }
  if (o == NULL) {
    ol_run_opts_default(&def);
    o = &def;
  }
  /* (1) validate */
  if (check_opts(o, e) != OL_OK || ol_method_check(m, p, e) != OL_OK)
    return NULL;
  if (!ol_mset_empty(o->metrics))
    for (i = 0; i < OL_NMETRICS; i++)
      if (ol_mset_has(o->metrics, i) && !probed(m, i) &&
          !ol_metric_types[i]->avail(p, m->family)) {
        ol_metric_unavail(i, p, m, e);
        return NULL;
      }
  if (o->stop_metric >= 0 && !probed(m, o->stop_metric) &&
      !ol_metric_types[o->stop_metric]->avail(p, m->family)) {
    ol_metric_unavail(o->stop_metric, p, m, e);
    return NULL;
  }
  n = p->n;
  np = m->nparams > 0 ? m->nparams : 0;
  for (i = 0; i < np; i++)
    if (par != NULL && ol_param_check(&m->params[i], par[i], e) != OL_OK)
      return NULL;
  if (o->nchanges < 0 || (o->nchanges > 0 && o->changes == NULL)) {
    ol_err_set(e, OL_EINVAL, "changes: %d entries and no list",
               o->nchanges);
    return NULL;
  }
  for (i = 0; i < o->nchanges; i++) {
    const ol_change *ch = &o->changes[i];
    if (ch->t < 0 || (i > 0 && ch->t < o->changes[i - 1].t)) {
      ol_err_set(e, OL_EINVAL, "changes[%d]: t = %ld (times start at 0 "
                 "and do not decrease)", i + 1, ch->t);
      return NULL;
    }
    if (live_check(m, ch->param, ch->value, e) != OL_OK) {
      char msg[OL_ERRMAX];
      snprintf(msg, sizeof msg, "%s", e->msg);
      ol_err_set(e, OL_EINVAL, "changes[%d]: %s", i + 1, msg);
      return NULL;
    }
  }
  /* the problem's own x0 was checked by its setter; a start given here
  ** is checked here */
  x0 = o->x0 != NULL ? o->x0 : p->x0;
  for (i = 0; o->x0 != NULL && i < n; i++)
    if (!isfinite(x0[i])) {
      ol_err_set(e, OL_EINVAL, "x0[%d] = %g is not finite", i + 1, x0[i]);
      return NULL;
    }
  /* an infeasible start is an error (a projected start would hide a typo
  ** in x0), except for a constrained method on a box, which moves it
  ** inside as IPOPT does (ol_constr_push), with a notice */
  if (p->set.kind != OL_SET_NONE &&
      !((m->flags & OL_M_CONSTR) && p->set.kind == OL_SET_BOX) &&
      ol_set_explain(&p->set, x0, n, OL_SET_TOL, e) != OL_OK)
    return NULL;
  /* (2) allocate */
  r = calloc(1, sizeof *r);
  if (r == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (run)");
    return NULL;
  }
  r->p = p;
  r->m = m;
  r->n = n;
  r->o = *o;
  /* from now on p is immutable (problem.h): its setters refuse.  The one
  ** write a run makes to the problem it borrows; every problem is made
  ** non-const (ol_problem_new, ol_problem_custom), so the cast is sound */
  wasfrozen = p->frozen;
  ((ol_problem *)p)->frozen = 1;
  r->iters = o->iters;
  r->cap = o->cap;
  r->ucap = o->cap / 2;
  for (r->lgl = 1; (2L << r->lgl) <= o->cap / 64; r->lgl++) {}
  r->stride = 1;
  r->metrics = (!ol_mset_empty(o->metrics) ? o->metrics
                : ol_method_metrics(p, m));
  r->metrics = ol_mset_and(r->metrics, ol_mset_all());
  r->mem.mingrad = INFINITY;
  for (i = 0; i < OL_NMETRICS; i++) r->vmin[i] = NAN;
  if (alloc(&r->x0, n, e) || alloc(&r->x, n, e) || alloc(&r->xavg, n, e) ||
      alloc(&r->work, 4 * (size_t)n, e) || alloc(&r->par, np, e) ||
      ol_oracle_init(&r->orc, p, r->work, e) != OL_OK)
    goto fail;
  /* the history: one point now, the bound for the budget next */
  r->times = calloc(1, sizeof *r->times);
  if (r->times == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (series)");
    goto fail;
  }
  if (alloc(&r->evals, 1, e) || alloc(&r->secs, 1, e)) goto fail;
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_mset_has(r->metrics, i) && alloc(&r->vals[i], 1, e))
      goto fail;
  if (o->record_x) {
    r->tdim = n < 8 ? n : 8;
    if (alloc(&r->traj, (size_t)r->tdim, e)) goto fail;
  }
  r->alloc = 1;
  if (hist_reserve(r, o->iters, e) != OL_OK) goto fail;
  if ((o->x_abstol > 0 || o->x_reltol > 0) && alloc(&r->xprev, n, e))
    goto fail;
  if (ol_mmem_init(&r->mem, p, r->metrics, e) != OL_OK) goto fail;
  if (o->nchanges > 0) {
    r->replay = malloc((size_t)o->nchanges * sizeof *r->replay);
    if (r->replay == NULL) {
      ol_err_set(e, OL_ENOMEM, "out of memory (changes)");
      goto fail;
    }
    memcpy(r->replay, o->changes, (size_t)o->nchanges * sizeof *r->replay);
    r->nreplay = o->nchanges;
  }
  ol_run_replay_next(r);
  r->o.changes = NULL;        /* borrowed only during this call */
  r->o.nchanges = 0;
  r->st = calloc(1, m->size > 0 ? m->size : 1);
  if (r->st == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (method state)");
    goto fail;
  }
  memcpy(r->x0, x0, (size_t)n * sizeof *x0);
  if ((m->flags & OL_M_CONSTR) && p->set.kind == OL_SET_BOX)
    ol_constr_push(p, r->x0, r->notice, sizeof r->notice);
  x0 = r->x0;
  memcpy(r->x, x0, (size_t)n * sizeof *x0);
  memcpy(r->xavg, x0, (size_t)n * sizeof *x0);
  r->o.x0 = r->x0;
  for (i = 0; i < np; i++)
    r->par[i] = par != NULL ? par[i] : m->params[i].def;
  ol_rng_seed(&r->rng, o->seed, o->stream);
  r->c.p = p;
  r->c.n = n;
  r->c.x = r->x;
  r->c.xavg = r->xavg;
  r->c.sched = 1;
  r->c.rng = &r->rng;
  r->c.orc = &r->orc;
  r->c.m = m;
  r->project = ol_family_of(m)->project && p->set.kind != OL_SET_NONE;
  r->useavg = (p->kind == OL_GAME || o->average ||
               ol_mset_has(r->metrics, OL_MET_EXPLOIT))
    && !(m->flags & OL_M_OWNAVG);
  r->usetol = ((o->tol > 0 || o->f_abstol > 0 || o->f_reltol > 0 ||
                o->x_abstol > 0 || o->x_reltol > 0) &&
               ol_family_of(m)->tolerances)
    || o->stop_metric >= 0;
  if (o->shell && !ol_family_of(m)->draws && m->result == NULL) {
    /* a shell (run.h): only what ol_run_unpack reads or overwrites, and
    ** what ol_run_unshell needs to make the run it stands for */
    if (alloc(&r->par0, np, e)) goto fail;
    memcpy(r->par0, r->par, (size_t)np * sizeof *r->par);
    r->shell = 1;
    r->f0 = r->fprev = NAN;
    r->x0max = fmax(1, absmax(r->x, n));
    r->xlim = r->o.xlimit * r->x0max;
    return r;                 /* no history point: the metrics of some
                                 problems call the oracle */
  }
  /* (3) the true oracle at x0: a failure returns the run stopped */
  e2.msg[0] = '\0';
  rc = eval_here(r, &e2);
  if (rc != OL_OK) {
    stop_err(r, rc, &e2);
    return r;
  }
  /* (4) the method; init may move x (a projection), so re-evaluate */
  r->inited = 1;
  rc = m->init(r->st, r->par, &r->c, e);
  if (rc != OL_OK) goto fail;
  /* (5) probe metrics need a method that defines them */
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_mset_has(r->metrics, i) && ol_metric_byprobe(i) &&
        !probed(m, i)) {
      ol_metric_unavail(i, p, m, e);
      goto fail;
    }
  if (ol_mset_has(r->metrics, OL_MET_REGRET) &&
      ol_family_of(m)->regret_probe &&
      (m->probe == NULL || !ol_mset_has(m->probes, OL_MET_REGRET))) {
    ol_metric_unavail(OL_MET_REGRET, p, m, e);
    goto fail;
  }
  if (ol_mset_any(r->metrics, OL_MSET_OF(OL_MET_BIAS, OL_MET_VARIANCE)) &&
      make_shadow(r, o, e) != OL_OK)
    goto fail;
  /* (6) a sampler's draws after its warmup */
  r->warmup = ol_sampler_warmup(m, r->st);
  if (o->warmup > r->warmup) r->warmup = o->warmup;
  if (o->draws > 0 && ol_family_of(m)->draws) {
    r->dcap = o->draws / (OL_DRAW_COLS + n);
    if (r->dcap < 2) r->dcap = 2;
    r->dthin = 1;
    if (draws_reserve(r, o->iters, e) != OL_OK) goto fail;
  }
  if (!(m->flags & OL_M_OWNAVG))
    memcpy(r->xavg, r->x, (size_t)n * sizeof *r->x);
  if (!ol_allfinite(r->x, n)) {
    ol_err_set(&e2, OL_EDOM, "non-finite iterate after %s init", m->name);
    stop_err(r, OL_EDOM, &e2);
    return r;
  }
  rc = eval_here(r, &e2);
  if (rc != OL_OK) {
    stop_err(r, rc, &e2);
    return r;
  }
  r->f0 = r->fprev = r->orc.f;
  r->x0max = fmax(1, absmax(r->x, n));
  r->xlim = r->o.xlimit * r->x0max;
  record(r);
  if (r->reason == OL_STOP_NONE && check_fg(r) == OL_STOP_NONE &&
      r->iters == 0)
    r->reason = OL_STOP_BUDGET;
  return r;
fail:
  if (!wasfrozen) ((ol_problem *)p)->frozen = 0;
  ol_run_free(r);
  return NULL;
}

void ol_run_free (ol_run *r)
{
  int i;
  if (r == NULL) return;
  if (r->inited && r->m->fini != NULL) r->m->fini(r->st);
  free(r->st);
  free(r->x0);
  free(r->x);
  free(r->xavg);
  free(r->work);
  free(r->par);
  free(r->par0);
  free(r->times);
  free(r->evals);
  free(r->secs);
  for (i = 0; i < OL_NMETRICS; i++) free(r->vals[i]);
  free(r->traj);
  free(r->xprev);
  free(r->draws);
  free(r->changes);
  free(r->replay);
  ol_oracle_fini(&r->orc);
  ol_mmem_free(&r->mem);
  ol_run_free(r->shadow);
  free(r->shadowp);   /* a shallow copy: its arrays belong to r->p */
  free(r);
}

/* == accessors ============================================================= */

int ol_run_reason (const ol_run *r) { return r->reason; }
const char *ol_run_message (const ol_run *r) { return r->msg; }
const char *ol_run_notice (const ol_run *r) { return r->notice; }
long ol_run_iter (const ol_run *r) { return r->c.t; }
long ol_run_budget (const ol_run *r) { return r->iters; }
int ol_run_n (const ol_run *r) { return r->n; }
const double *ol_run_x (const ol_run *r) { return r->x; }
const double *ol_run_xavg (const ol_run *r)
{
  return r->useavg || (r->m->flags & OL_M_OWNAVG) ? r->xavg : NULL;
}
const ol_problem *ol_run_problem (const ol_run *r) { return r->p; }
int ol_run_busy (const ol_run *r) { return r->inslice; }
int ol_run_remote (const ol_run *r) { return r->remote; }
int ol_run_restored (const ol_run *r) { return r->restored; }
int ol_run_shell (const ol_run *r) { return r->shell; }

int ol_run_result (const ol_run *r, const char *name, const double **v,
                   int *rows, int *cols)
{
  if (r->restored) {
    *v = NULL;
    *rows = *cols = 0;
    return 0;
  }
  return ol_method_result(r->m, r->st, name, v, rows, cols);
}

size_t ol_run_memory (const ol_run *r)
{
  size_t s = sizeof *r + (size_t)r->m->size + 10 * (size_t)r->n
    * sizeof(double);
  int k, nv = 3 + r->tdim;
  for (k = 0; k < OL_NMETRICS; k++) nv += r->vals[k] != NULL;
  s += (size_t)r->alloc * (size_t)nv * sizeof(double);
  s += ((size_t)r->chgalloc + (size_t)r->nreplay) * sizeof(ol_change);
  if (r->shadow != NULL) s += ol_run_memory(r->shadow);
  return s;
}
long ol_run_accepted (const ol_run *r) { return r->c.accepted; }
const ol_method_type *ol_run_method (const ol_run *r) { return r->m; }
const double *ol_run_params (const ol_run *r) { return r->par; }
const ol_run_opts *ol_run_options (const ol_run *r) { return &r->o; }
double ol_run_seconds (const ol_run *r) { return r->seconds; }
long ol_run_nfev (const ol_run *r) { return r->c.nfev; }
long ol_run_ngev (const ol_run *r) { return r->c.ngev; }
long ol_run_nhev (const ol_run *r) { return r->c.nhev; }
long ol_run_mfev (const ol_run *r) { return r->orc.mfev; }
long ol_run_mgev (const ol_run *r) { return r->orc.mgev; }
ol_mset ol_run_metrics (const ol_run *r) { return r->metrics; }
int ol_run_len (const ol_run *r) { return r->len; }
const long *ol_run_times (const ol_run *r) { return r->times; }
const double *ol_run_evals (const ol_run *r) { return r->evals; }
const double *ol_run_secs (const ol_run *r) { return r->secs; }

const double *ol_run_series (const ol_run *r, int metric)
{
  if (metric < 0 || metric >= OL_NMETRICS) return NULL;
  return r->vals[metric];
}

double ol_run_last (const ol_run *r, int metric)
{
  if (metric < 0 || metric >= OL_NMETRICS || r->vals[metric] == NULL ||
      r->len == 0)
    return NAN;
  return r->vals[metric][r->len - 1];
}

double ol_run_min (const ol_run *r, int metric)
{
  if (metric < 0 || metric >= OL_NMETRICS || r->vals[metric] == NULL)
    return NAN;
  return r->vmin[metric];
}

const void *ol_run_state (const ol_run *r)
{
  return r->inited ? r->st : NULL;
}

long ol_run_warmup (const ol_run *r) { return r->warmup; }

const double *ol_run_draws (const ol_run *r, long *rows, long *thin,
                            long *seen)
{
  if (rows != NULL) *rows = r->drows;
  if (thin != NULL) *thin = r->dthin > 0 ? r->dthin : 1;
  if (seen != NULL) *seen = r->dseen;
  return r->drows > 0 ? r->draws : NULL;
}

const double *ol_run_traj (const ol_run *r, int *dim)
{
  if (dim != NULL) *dim = r->traj != NULL ? r->tdim : 0;
  return r->traj;
}
