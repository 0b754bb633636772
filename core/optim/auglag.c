/*
** core/optim/auglag.c -- the bound-constrained augmented Lagrangian
** method (Nocedal & Wright 2006, Algorithm 17.4, the bound-constrained
** formulation (17.50); Conn, Gould & Toint 1991, LANCELOT) for
**
**   min f(x)  s.t.  c_i(x) = 0 (i in E),  c_i(x) >= 0 (i in I),
**                   lo <= x <= hi (the problem's box set, if any).
**
** Subproblem: min over the box of the augmented Lagrangian
**   L_A(x; lambda, mu) = f(x) - sum_E lambda_i c_i + mu/2 sum_E c_i^2
**        + sum_I (max(0, lambda_i - mu c_i)^2 - lambda_i^2) / (2 mu)
** (N&W (17.36) for the equalities; for the inequalities Rockafellar's
** form, N&W (17.65) minimised over the slack in closed form), whose
** gradient is
**   grad L_A = grad f - sum_i lhat_i grad c_i,
**   lhat_i = lambda_i - mu c_i (E),  max(0, lambda_i - mu c_i) (I).
** Outer update (Algorithm 17.4): when the subproblem is solved to
** ||x - P(x - grad L_A)||_inf <= omega_k, and the violation
**   V = max(max_E |c_i|, max_I |min(c_i, lambda_i / mu)|) <= eta_k,
** lambda <- lhat (N&W (17.39)), eta <- eta / mu^0.9, omega <- omega / mu;
** otherwise mu <- 10 mu, eta <- 1 / mu^0.1, omega <- 1 / mu (N&W take
** 100; 10 keeps the subproblems better conditioned).  Start mu = mu0,
** omega = 1 / mu0, eta = 1 / mu0^0.1, lambda = 0; floors tol (omega) and
** ctol (eta).  The run stops as converged when both floors hold with the
** multipliers updated.
**
** Inner solver: projected L-BFGS (two-metric projection, Bertsekas 1982):
** the L-BFGS direction (N&W Algorithm 7.4, memory m) on the free
** variables (those not at a bound that the gradient pushes against), a
** backtracking Armijo search along the projection arc x(a) = P(x + a d),
**   L_A(x(a)) <= L_A(x) + c1 grad L_A' (x(a) - x) + 1e-12 |L_A(x)|,
** (the slack allows the rounding of L_A, as lbfgs.c), memory dropped at
** every outer update.  A failed search ends the subproblem.
**
** The first trial step is 1 (min(1, 1 / ||d||_inf) with an empty
** memory) times a growth factor that quadruples after each step whose
** first trial was accepted and gave no curvature pair (L_A linear along
** it: a linear objective far from the constraints), back to 1 otherwise.
**
** Infeasibility: when the penalty was raised more than 3 times in a row
** (mu up 1000-fold) without V falling below a quarter of its value when
** the raises began, or mu is at mumax, a feasibility restoration
** minimises the violation alone (constr.h, ol_constr_restore) and the
** method moves to the point it reaches; a least violation above
** OL_CONSTR_INFEAS (1e-6) stops the run with reason "infeasible" there
** (ol_ctx_infeasible), else the method goes on (at most 3 times).
**
** Scaling (scale = 1, the default): IPOPT's gradient-based scaling
** (Waechter & Biegler 2006, sec. 3.8): the method works on s_f f and s_i
** c_i, s = min(1, 100 / ||gradient at the start||_inf); f, grad f and the
** multipliers s_i lhat~_i / s_f are reported unscaled, and the bound
** multipliers (r.zl, r.zu) are fitted to the residual of lhat as the kkt
** metric fits them.
**
** One optlab iteration is one inner step (one line search), so records,
** metrics and plots show the inner progress; an outer update happens at
** the start of the step that finds the subproblem solved.  Multipliers:
** ol_auglag_lambda gives lhat at the current x (r.lambda), the first-order
** estimate that becomes lambda at the next update (0 before the first
** step, which evaluates it), so that
** grad f - sum lhat_i grad c_i - z_l + z_u = 0 is the projected gradient
** condition of the subproblem, and lhat_i >= 0 on I.  Counting: a
** constraint value adds 1 to nfev, a constraint gradient (analytic, or
** central differences, which also add their 2n values) 1 to ngev.  With
** gradient noise the tests above see noisy gradients: the run never
** stops as converged then (it ends by its budget or tolerance).  A
** composite problem (l1 > 0) fails at its first step.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "constr.h"
#include "method.h"
#include "lmem.h"
#include "vec.h"

#define AL_TRIALS 60
#define AL_FTOL 1e-12
#define AL_SKIP 1e-10
#define AL_RAISES 3
#define AL_GROW 1e12

typedef struct auglag_state {
  int n, m, mem;
  ol_lmem L;                        /* the inner L-BFGS pairs (lmem.h) */
  double mu, mu0, omega, eta, tol, ctol, c1, mumax;
  double *lam, *lhat, *cv, *J;      /* m, m, m, m x n */
  double *g, *gf, *d, *xt, *gt, *gft, *lht, *cvt, *Jt, *fw;
  double *sc, *lamu;                /* m: constraint scales, lhat unscaled */
  double *zl, *zu, *gu, *rw;        /* n, n, n, 6n (restoration) */
  double la, f, sf;                 /* L_A, f at c->x (scaled); f's scale */
  double vraise;                    /* V when the penalty raises began */
  double grow;                      /* first trial step's expansion */
  int valid, ninner, nouter, scale, scaleset, nraise, restored;
} auglag_state;

static const ol_param auglag_params[] = {
  {"mu0", OL_P_REAL, 10, 1e-8, 1e12, "initial penalty mu", NULL},
  {"tol", OL_P_REAL, 1e-10, 0, 1, "stationarity tolerance: ||x - P(x - "
   "grad L_A)||_inf of the last subproblem", NULL},
  {"ctol", OL_P_REAL, 1e-10, 0, 1, "feasibility tolerance on the "
   "constraint violation", NULL},
  {"m", OL_P_INT, 10, 1, 1000, "L-BFGS memory of the inner solver", NULL},
  {"mumax", OL_P_REAL, 1e12, 1, 1e300, "largest penalty", NULL},
  {"scale", OL_P_BOOL, 1, 0, 1, "scale f and each constraint by min(1, "
   "100 / ||gradient at x0||_inf) (IPOPT's gradient-based scaling)", NULL},
};

const double *ol_auglag_lambda (const void *st)
{
  const auglag_state *s = st;
  return s->m > 0 ? s->lamu : NULL;
}

const double *ol_auglag_z (const void *st, int which)
{
  const auglag_state *s = st;
  if (s->zl == NULL) return NULL;
  return which == 0 ? s->zl : s->zu;
}

static int auglag_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  auglag_state *s = st;
  const ol_problem *p = c->p;
  int n = c->n, m = p->con.m, mm;
  double **v[] = {&s->g, &s->gf, &s->d, &s->xt, &s->gt, &s->gft, &s->fw,
                  &s->zl, &s->zu, &s->gu};
  size_t k;
  if (p->set.kind != OL_SET_NONE && p->set.kind != OL_SET_BOX)
    return ol_err_set(e, OL_EINVAL, "auglag handles bounds (a box set) "
                      "and general constraints, not a %s",
                      p->set.kind == OL_SET_SIMPLEX ? "simplex" : "ball");
  s->n = n;
  s->m = m;
  s->mu0 = s->mu = par[0];
  s->tol = par[1];
  s->ctol = par[2];
  s->mem = (int)par[3];
  s->mumax = par[4];
  s->scale = par[5] != 0;
  s->sf = 1;
  s->c1 = 1e-4;
  s->omega = 1 / s->mu;
  s->eta = 1 / pow(s->mu, 0.1);
  mm = m > 0 ? m : 1;
  if ((double)s->mem * n > 1e9 || (double)mm * n > 1e9)
    return ol_err_set(e, OL_EINVAL, "auglag: problem too large");
  for (k = 0; k < sizeof v / sizeof v[0]; k++)
    if ((*v[k] = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if (ol_lmem_init(&s->L, s->mem, n, e) != OL_OK ||
      (s->lam = ol_vec_new(mm, e)) == NULL ||
      (s->lhat = ol_vec_new(mm, e)) == NULL ||
      (s->lht = ol_vec_new(mm, e)) == NULL ||
      (s->cv = ol_vec_new(mm, e)) == NULL ||
      (s->cvt = ol_vec_new(mm, e)) == NULL ||
      (s->J = ol_vec_new(mm * n, e)) == NULL ||
      (s->Jt = ol_vec_new(mm * n, e)) == NULL ||
      (s->sc = ol_vec_new(mm, e)) == NULL ||
      (s->lamu = ol_vec_new(mm, e)) == NULL ||
      (s->rw = ol_vec_new(6 * n, e)) == NULL)
    return OL_ENOMEM;
  for (k = 0; k < (size_t)mm; k++) s->sc[k] = 1;
  return OL_OK;
}

/* L_A and its gradient at x into *la, g; f, grad f into *f, gf; the
** constraint values, Jacobian rows and lhat into cv, J, lh. */
static int al_eval (auglag_state *s, ol_ctx *c, const double *x, double *la,
                    double *g, double *f, double *gf, double *cv, double *J,
                    double *lh, ol_err *e)
{
  const ol_problem *p = c->p;
  int i, j, n = s->n, rc;
  double v;
  if ((rc = ol_ctx_grad(c, x, f, gf, e)) != OL_OK) return rc;
  *f *= s->sf;
  ol_vec_scal(s->sf, gf, n);
  v = *f;
  memcpy(g, gf, (size_t)n * sizeof *g);
  for (i = 0; i < s->m; i++) {
    double *Ji = J + (size_t)i * n, li = s->lam[i], ci;
    rc = ol_problem_ceval(p, i, x, &cv[i], Ji, s->fw, &c->nfev, &c->ngev,
                          e);
    if (rc != OL_OK) return rc;
    cv[i] *= s->sc[i];
    for (j = 0; j < n; j++) Ji[j] *= s->sc[i];
    ci = cv[i];
    if (p->con.kind[i] == OL_CON_EQ) {
      lh[i] = li - s->mu * ci;
      v += -li * ci + 0.5 * s->mu * ci * ci;
    } else {
      double t = li - s->mu * ci;
      lh[i] = t > 0 ? t : 0;
      v += (lh[i] * lh[i] - li * li) / (2 * s->mu);
    }
    for (j = 0; j < n; j++) g[j] -= lh[i] * Ji[j];
  }
  *la = v;
  if (!isfinite(v) || !ol_allfinite(g, n))
    return ol_err_set(e, OL_EDOM, "auglag: non-finite augmented "
                      "Lagrangian");
  return OL_OK;
}

static void box (const ol_problem *p, int j, double *lo, double *hi)
{
  *lo = -INFINITY;
  *hi = INFINITY;
  if (p->set.kind == OL_SET_BOX) {
    *lo = p->set.lo[j];
    *hi = p->set.hi[j];
  }
}

/* ||x - P(x - g)||_inf */
static double pgnorm (const ol_problem *p, const double *x, const double *g,
                      int n)
{
  double r = 0, lo, hi, y;
  int j;
  for (j = 0; j < n; j++) {
    box(p, j, &lo, &hi);
    y = x[j] - g[j];
    y = y < lo ? lo : y > hi ? hi : y;
    r = fmax(r, fabs(x[j] - y));
  }
  return r;
}

static double violation (const auglag_state *s, const ol_problem *p)
{
  double v = 0;
  int i;
  for (i = 0; i < s->m; i++)
    v = fmax(v, p->con.kind[i] == OL_CON_EQ ? fabs(s->cv[i])
             : fabs(fmin(s->cv[i], s->lam[i] / s->mu)));
  return v;
}

/* At bound j with the gradient pushing outwards (held fixed). */
static int held (const ol_problem *p, const double *x, const double *g, int j)
{
  double lo, hi;
  box(p, j, &lo, &hi);
  return (x[j] <= lo && g[j] > 0) || (x[j] >= hi && g[j] < 0);
}

static int refresh (auglag_state *s, ol_ctx *c, ol_err *e)
{
  int rc = al_eval(s, c, c->x, &s->la, s->g, &s->f, s->gf, s->cv, s->J,
                   s->lhat, e);
  s->valid = rc == OL_OK;
  if (rc != OL_OK || !s->scale || s->scaleset) return rc;
  /* IPOPT's gradient-based scaling (Waechter & Biegler 2006, sec. 3.8)
  ** from the unscaled gradients at the start; then L_A again, scaled */
  {
    int i, n = s->n;
    s->sf = ol_constr_scale(ol_vec_nrminf(s->gf, n));
    for (i = 0; i < s->m; i++)
      s->sc[i] = ol_constr_scale(ol_vec_nrminf(s->J + (size_t)i * n, n));
    s->scaleset = 1;
  }
  return refresh(s, c, e);
}

/* End of a step at x: lhat unscaled (lambda_i = sc_i lhat~_i / sf), the
** fitted bound multipliers, and f, grad f handed to the run unscaled. */
static void known (auglag_state *s, ol_ctx *c)
{
  int i, j, n = s->n;
  for (i = 0; i < s->m; i++) s->lamu[i] = s->lhat[i] * s->sc[i] / s->sf;
  for (j = 0; j < n; j++) {
    s->gu[j] = s->gf[j] / s->sf;
    s->fw[j] = s->g[j] / s->sf;   /* grad f - sum lhat_i grad c_i */
  }
  ol_constr_zfit(c->p, c->x, s->fw, s->zl, s->zu);
  ol_ctx_known(c, s->f / s->sf, s->gu);
}

/* The penalty rule of infeasibility: after AL_RAISES raises of mu in a
** row (mu up 10^AL_RAISES) without V falling below a quarter of its value
** when they began, or at mumax, minimise the violation alone (constr.h's
** restoration).  A positive minimum (above OL_CONSTR_INFEAS) means the
** constraints cannot be met: the run stops at that least-infeasible
** point (*stop = 1).  Otherwise the method goes on from the feasible
** point found. */
static int infeasible (auglag_state *s, ol_ctx *c, int *stop, ol_err *e)
{
  int rc, n = s->n;
  double viol;
  *stop = 0;
  memcpy(s->xt, c->x, (size_t)n * sizeof *s->xt);
  rc = ol_constr_restore(c->p, s->xt, s->sc, 5000, &viol, s->rw, &c->nfev,
                         &c->ngev, e);
  if (rc != OL_OK) return rc;
  s->restored++;
  s->nraise = 0;
  memcpy(c->x, s->xt, (size_t)n * sizeof *c->x);
  if ((rc = refresh(s, c, e)) != OL_OK) return rc;
  if (viol <= OL_CONSTR_INFEAS) return OL_OK;
  *stop = 1;
  {
    char msg[OL_ERRMAX];
    snprintf(msg, sizeof msg, "auglag: the constraints cannot be met (the "
             "violation stopped decreasing while the penalty rose to mu = "
             "%.3g; feasibility restoration ends at a least violation %.3g "
             "> %g: x is that least-infeasible point)", s->mu, viol,
             OL_CONSTR_INFEAS);
    ol_ctx_infeasible(c, msg);
  }
  known(s, c);
  return OL_OK;
}

static int auglag_step (void *st, ol_ctx *c, ol_err *e)
{
  auglag_state *s = st;
  const ol_problem *p = c->p;
  int n = s->n, i, j, rc, ok = 0;
  double pg, gd, a, dn, lat = 0, ft = 0;
  if (p->l1 > 0)
    return ol_err_set(e, OL_EINVAL, "auglag: the l1 term of a composite "
                      "problem is not smooth (use ista or fista)");
  if (!s->valid && (rc = refresh(s, c, e)) != OL_OK) return rc;
  pg = pgnorm(p, c->x, s->g, n);
  if (pg <= s->omega) {
    /* (1) subproblem solved: Algorithm 17.4's outer update */
    double V = violation(s, p);
    if (V <= s->eta || s->m == 0) {
      if (V <= s->ctol && pg <= s->tol &&
          p->noise.kind == OL_NOISE_NONE) {
        ol_ctx_converged(c, "auglag: stationary and feasible to tol, "
                         "ctol");
        known(s, c);
        return OL_OK;
      }
      memcpy(s->lam, s->lhat, (size_t)s->m * sizeof *s->lam);
      s->eta = fmax(s->eta / pow(s->mu, 0.9), s->ctol);
      s->omega = fmax(s->omega / s->mu, s->tol);
      s->nraise = 0;
    } else {
      /* (1b) not feasible enough: a larger penalty, unless the violation
      ** has stopped decreasing under the raises (infeasible) */
      if (s->nraise == 0) s->vraise = V;
      else if (V < 0.25 * s->vraise) {
        s->vraise = V;
        s->nraise = 0;
      }
      s->nraise++;
      if ((s->nraise > AL_RAISES || s->mu >= s->mumax) && s->restored < 3) {
        int stop;
        if ((rc = infeasible(s, c, &stop, e)) != OL_OK) return rc;
        if (stop) return OL_OK;
      }
      if (s->mu < s->mumax) {
        s->mu *= 10;
        s->eta = fmax(1 / pow(s->mu, 0.1), s->ctol);
        s->omega = fmax(1 / s->mu, s->tol);
      } else {
        s->omega = fmax(s->omega / 10, s->tol);
      }
    }
    s->nouter++;
    s->L.cnt = 0;
    if ((rc = refresh(s, c, e)) != OL_OK) return rc;
    pg = pgnorm(p, c->x, s->g, n);
  }
  s->ninner++;
  /* (2) direction: two-loop recursion on the free variables */
  for (j = 0; j < n; j++) s->d[j] = held(p, c->x, s->g, j) ? 0 : -s->g[j];
  ol_lmem_apply(&s->L, s->d, n);
  for (j = 0; j < n; j++)
    if (held(p, c->x, s->g, j)) s->d[j] = 0;
  gd = ol_vec_dot(s->g, s->d, n);
  if (!(gd < 0)) {
    for (j = 0; j < n; j++)
      s->d[j] = held(p, c->x, s->g, j) ? 0 : -s->g[j];
    s->L.cnt = 0;
    gd = ol_vec_dot(s->g, s->d, n);
  }
  dn = 0;
  for (j = 0; j < n; j++) dn = fmax(dn, fabs(s->d[j]));
  a = s->L.cnt == 0 && dn > 0 ? fmin(1, 1 / dn) : 1;
  a *= c->sched * fmax(1, s->grow);
  /* (3) backtracking along the projection arc */
  for (i = 0; i < AL_TRIALS && gd < 0; i++, a *= 0.5) {
    double dec = 0;
    for (j = 0; j < n; j++) s->xt[j] = c->x[j] + a * s->d[j];
    ol_ctx_project(c, s->xt);
    for (j = 0; j < n; j++) dec += s->g[j] * (s->xt[j] - c->x[j]);
    if (memcmp(s->xt, c->x, (size_t)n * sizeof *s->xt) == 0) break;
    rc = al_eval(s, c, s->xt, &lat, s->gt, &ft, s->gft, s->cvt, s->Jt,
                 s->lht, e);
    if (rc == OL_EDOM) continue;
    if (rc != OL_OK) return rc;
    if (lat <= s->la + s->c1 * dec + AL_FTOL * fabs(s->la)) {
      ok = 1;
      break;
    }
  }
  if (!ok) {
    /* (4) no decrease: the subproblem is solved as far as it can be */
    s->omega = pg > s->omega ? pg : s->omega;
    s->L.cnt = 0;
    known(s, c);
    return OL_OK;
  }
  /* (5) memory pair, accept */
  {
    double *sn = ol_lmem_snext(&s->L, n), *yn = ol_lmem_ynext(&s->L, n);
    for (j = 0; j < n; j++) {
      sn[j] = s->xt[j] - c->x[j];
      yn[j] = s->gt[j] - s->g[j];
    }
    /* L_A linear along the step (no curvature pair) and the first trial
    ** taken: the next first trial is 4 times longer; else back to 1 */
    if (!ol_lmem_push(&s->L, n, AL_SKIP) && i == 0)
      s->grow = fmin(4 * fmax(1, s->grow), AL_GROW);
    else s->grow = 1;
  }
  memcpy(c->x, s->xt, (size_t)n * sizeof *c->x);
  memcpy(s->g, s->gt, (size_t)n * sizeof *s->g);
  memcpy(s->gf, s->gft, (size_t)n * sizeof *s->g);
  memcpy(s->cv, s->cvt, (size_t)s->m * sizeof *s->cv);
  memcpy(s->J, s->Jt, (size_t)s->m * n * sizeof *s->J);
  memcpy(s->lhat, s->lht, (size_t)s->m * sizeof *s->lhat);
  s->la = lat;
  s->f = ft;
  known(s, c);
  return OL_OK;
}

static void auglag_fini (void *st)
{
  auglag_state *s = st;
  double **v[] = {&s->g, &s->gf, &s->d, &s->xt, &s->gt, &s->gft, &s->fw,
                  &s->lam, &s->lhat,
                  &s->lht, &s->cv, &s->cvt, &s->J, &s->Jt, &s->sc,
                  &s->lamu, &s->zl, &s->zu, &s->gu, &s->rw};
  size_t k;
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
  ol_lmem_fini(&s->L);
}

const ol_method_type ol_optim_auglag = {
  "auglag", OL_OPTIM,
  "augmented Lagrangian for c(x) = 0, c(x) >= 0 and bounds; projected "
  "L-BFGS inner solver (one iteration = one inner step); IPOPT's scaling; "
  "stops 'infeasible' by restoration",
  "Nocedal & Wright 2006, Algorithm 17.4 and (17.50); Conn, Gould & "
  "Toint 1991; Waechter & Biegler 2006 (scaling); Birgin, Martinez &"
  " Raydan 2000 (restoration)",
  auglag_params, (int)(sizeof auglag_params / sizeof auglag_params[0]),
  sizeof(auglag_state), OL_M_CONSTR,
  OL_KIND(OL_OBJECTIVE),
  auglag_init, auglag_step, auglag_fini, NULL, 0u
};
