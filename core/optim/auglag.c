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
** Penalty weights: each constraint has its own penalty mu_i = mu w_i,
** fixed at the start so that the penalty's curvature mu_i ||grad
** c~_i(x0)||_2^2 (c~_i scaled as below) lies in [mu, 10 mu]: w_i = 1 /
** g2 for g2 = ||grad c~_i(x0)||_2^2 < 1, 10 / g2 for g2 > 10, else 1
** (within [1e-6, 1e6]; 1 when g2 = 0).  IPOPT's scaling only shrinks
** gradients longer than 100, and HS106's constraints keep penalty
** curvatures from mu 1.25e-5 (its linear constraints, gradients 0.0025)
** to mu 1e4: an inner subproblem conditioned beyond what L-BFGS can
** bridge in double precision, whose stalled line searches drove mu to
** 1e12.  The weights equal the method below on the constraints c~_i
** sqrt(w_i), their gradients at x0 between 1 and sqrt(10) long.  The
** band was chosen on problem.hs: HS106 takes 249 inner steps with it,
** 476 with [mu, 100 mu], 1569 with weights only raised (w_i = max(1, 1 /
** g2)); the full equilibration [mu, mu] sends HS040 to its other global
** minimiser (x3, x4 negated).  Below, mu c_i stands for mu_i c_i.
**
** Outer update: the safeguarded rule of ALGENCAN (Birgin & Martinez 2014,
** "Practical Augmented Lagrangian Methods for Constrained Optimization",
** SIAM, Algorithm 4.1; Andreani, Birgin, Martinez & Schuverdt 2007,
** "On augmented Lagrangian methods with general lower-level
** constraints", SIAM J. Optim. 18, Algorithm 3.1).  When the subproblem
** is solved to omega_k (below) or its line search can no longer move:
**   lambda <- P(lhat), the projection onto [-1e20, 1e20] (lambda_I >= 0
**     already), at every update (no acceptance test as N&W's eta);
**   V_k = max(max_E |c_i|, max_I |min(c_i, lambda_i / mu_i)|) (with the
**     lambda and mu of subproblem k); mu <- 10 mu only when V_k > tau
**     V_{k-1}, tau = 0.5 (the violation did not halve), else kept, so
**     that the penalty stays as small as the progress allows (a large mu
**     makes lhat = lambda - mu c carry mu times the rounding of c);
**   omega_k+1 = max(tol, omega_k / 10) from omega_0 = 1 / mu0: the inner
**     tolerance tightens with the outer iterations (ALGENCAN's eps_k),
**     measured as the scaled dual infeasibility stat / s_d below.
** Start mu = mu0, lambda = 0.  The L-BFGS memory is kept across an update
** that keeps mu.
**
** Convergence (relative, as IPOPT's tests; Waechter & Biegler 2006, eqs.
** (5)-(6); the scaled stopping criterion for ALGENCAN of Andreani,
** Haeser, Schuverdt, Secchin & Silva 2022, "On scaled stopping criteria
** for a safeguarded augmented Lagrangian method with theoretical
** guarantees"), at
** every step, on the scaled problem: feasibility max(max_E |c~_i|, max_I
** max(0, -c~_i)) <= ctol, and stat / s_d <= tol and comp / s_c <= tol,
** with stat, comp, s_d = max(100, (||lambda||_1 + ||z||_1) / (m + n)) /
** 100 and s_c those of constr.h's ol_constr_kkt, the bound multipliers z
** fitted as there.  The multipliers tried are lhat, and when they fail,
** the least-squares estimate on the active set A (the equalities and
** the inequalities with lhat_i > 0): l = argmin ||grad f - J_A' l|| over
** the free variables (rows scaled to unit norm, a 1e-13 ridge for
** dependent rows; l_I kept >= 0; the least-squares estimate of N&W
** chapter 18), which does not carry the rounding of c times mu that lhat
** = lambda - mu c carries;
** computed when m <= 500 and m_A^2 n <= 2.5e7.  A run so stopped has
** reason converged, its message naming which multipliers passed, the
** outer iterations and the final mu; r.lambda are those multipliers.
**
** Measured on problem.hs with defaults (inner steps, outer iterations):
** before these rules (N&W's eta/omega schedule, mu raised whenever V >
** eta, absolute tol = ctol = 1e-10 on ||x - P(x - grad L_A)||_inf and
** V) HS106 reached f = 7049.248020 with V 4e-11 but ended on its budget
** (50000 steps, mu = 1e12, kkt 5.8: the multipliers lambda - mu c
** spoiled by mu times the rounding of c); now 249 steps, 11 outer
** iterations, mu = 100, kkt 5.0e-11, multipliers sqp's to 2e-9; the
** other eleven problems 1 to 147 steps (before 1 to 243), all converged.
**
** Inner solver: projected L-BFGS (two-metric projection, Bertsekas 1982):
** the L-BFGS direction (N&W Algorithm 7.4, memory m) on the free
** variables (those not at a bound that the gradient pushes against), a
** backtracking Armijo search along the projection arc x(a) = P(x + a d),
**   L_A(x(a)) <= L_A(x) + c1 grad L_A' (x(a) - x) + 1e-12 |L_A(x)|,
** (the slack allows the rounding of L_A, as lbfgs.c), memory dropped at
** an outer update that raises mu and after a failed search, which ends
** the subproblem.
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
** the start of the step that finds the subproblem solved (or its line
** search failed in the step before).  Multipliers:
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
#include <stdlib.h>

#include "constr.h"
#include "method.h"
#include "penalty.h"
#include "lmem.h"
#include "vec.h"

#define AL_TRIALS 60
#define AL_FTOL 1e-12
#define AL_SKIP 1e-10
#define AL_RAISES 3
#define AL_GROW 1e12
#define AL_SMAX 100.0   /* IPOPT's s_max */
#define AL_TAU 0.5      /* raise mu unless V fell by this factor */
#define AL_LMAX 1e20    /* the safeguarding box of lambda */
#define AL_PMAX 500     /* constraints at most for the least squares */
#define AL_PWORK 2.5e7  /* its m_A^2 n_F at most */
#define AL_PWMAX 1e6    /* the penalty weights within [1e-6, 1e6] */
#define AL_PWBAND 10.0  /* mu ||grad c_i||^2 w_i within [mu, 10 mu] */
#define AL_LSEPS 1e-13  /* the least-squares ridge on unit rows */

typedef struct auglag_state {
  int n, m, mem;
  ol_lmem L;                        /* the inner L-BFGS pairs (lmem.h) */
  double mu, mu0, omega, tol, ctol, c1, mumax;
  double *lam, *lhat, *cv, *J;      /* m, m, m, m x n */
  double *g, *gf, *d, *xt, *gt, *gft, *lht, *cvt, *Jt, *fw;
  double *pw;                       /* m: the penalty's weights */
  double *sc, *lamu;                /* m: constraint scales, lhat unscaled */
  double *zl, *zu, *gu, *rw;        /* n, n, n, 6n (restoration) */
  double *G, *C, *pv, *lls, *r;     /* m^2 x 2, m, m, n: the least-squares
                                       multipliers (m <= AL_PMAX) */
  int *act;                         /* m: the active rows */
  double la, f, sf;                 /* L_A, f at c->x (scaled); f's scale */
  double vraise;                    /* V when the penalty raises began */
  double vprev;                     /* V at the last outer update */
  double grow;                      /* first trial step's expansion */
  int valid, ninner, nouter, scale, scaleset, nraise, restored, stuck;
  int pwset;                        /* the weights pw are set */
} auglag_state;

static const ol_param auglag_params[] = {
  {"mu0", OL_P_REAL, 10, 1e-8, 1e12, "initial penalty mu", NULL},
  {"tol", OL_P_REAL, 1e-10, 0, 1, "stop when IPOPT's scaled dual "
   "infeasibility and complementarity (the kkt metric's parts over s_d, "
   "s_c) of the scaled problem are at most tol", NULL},
  {"ctol", OL_P_REAL, 1e-10, 0, 1, "and the scaled problem's constraint "
   "violation is at most ctol", NULL},
  {"m", OL_P_INT, 10, 1, 1000, "L-BFGS memory of the inner solver", NULL},
  {"mumax", OL_P_REAL, 1e12, 1, 1e300, "largest penalty (raised tenfold "
   "only when the violation did not halve)", NULL},
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

/* The result hook (method.h): lambda (the multipliers above, 1 x m, none
** without constraints) and zl, zu (the bound multipliers, 1 x n). */
static int auglag_result (const void *st, const char *name, const double **v,
                      int *rows, int *cols)
{
  const auglag_state *s = st;
  const double *r = NULL;
  int k = s->n;
  if (strcmp(name, "lambda") == 0) {
    r = ol_auglag_lambda(st);
    k = s->m;
  }
  else if (strcmp(name, "zl") == 0 || strcmp(name, "zu") == 0)
    r = ol_auglag_z(st, name[1] == 'u');
  if (r == NULL) return 0;
  *v = r;
  *rows = 1;
  *cols = k;
  return 1;
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
  s->vprev = INFINITY;
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
      (s->J = ol_mat_new(mm, n, e)) == NULL ||
      (s->Jt = ol_mat_new(mm, n, e)) == NULL ||
      (s->sc = ol_vec_new(mm, e)) == NULL ||
      (s->lamu = ol_vec_new(mm, e)) == NULL ||
      (s->pw = ol_vec_new(mm, e)) == NULL ||
      (s->rw = ol_vec_new(6 * n, e)) == NULL ||
      (s->pv = ol_vec_new(mm, e)) == NULL ||
      (s->lls = ol_vec_new(mm, e)) == NULL ||
      (s->r = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  if (m > 0 && m <= AL_PMAX) {
    if ((s->G = ol_mat_new(m, m, e)) == NULL ||
        (s->C = ol_mat_new(m, m, e)) == NULL)
      return OL_ENOMEM;
    if ((s->act = malloc((size_t)m * sizeof *s->act)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "auglag: out of memory");
  }

  for (k = 0; k < (size_t)mm; k++) s->sc[k] = s->pw[k] = 1;
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
      double mi = s->mu * s->pw[i];
      lh[i] = li - mi * ci;
      v += -li * ci + 0.5 * mi * ci * ci;
    } else {
      double mi = s->mu * s->pw[i], t = li - mi * ci;
      lh[i] = t > 0 ? t : 0;
      v += (lh[i] * lh[i] - li * li) / (2 * mi);
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

static double violation (const auglag_state *s, const ol_problem *p)
{
  double v = 0;
  int i;
  for (i = 0; i < s->m; i++)
    v = fmax(v, p->con.kind[i] == OL_CON_EQ ? fabs(s->cv[i])
             : fabs(fmin(s->cv[i], s->lam[i] / (s->mu * s->pw[i]))));
  return v;
}

/* IPOPT's optimality error E_0 (Waechter & Biegler 2006, eqs. (5)-(6);
** constr.h, ol_constr_kkt) of the scaled problem at c->x with the
** multipliers lhat, from the values kept (no evaluation): the residual r
** is rr (g = grad L_A = grad f - sum lhat_i grad c_i for lh = lhat),
** the bound multipliers are fitted to it.  *du = stat / s_d, *co = comp
** / s_c, *pr = feas. */
static void optimality (const auglag_state *s, const ol_problem *p,
                        const double *x, const double *lh, const double *rr,
                        double *du, double *co, double *pr)
{
  double stat = 0, feas = 0, comp = 0, l1 = 0, l1i = 0, z1 = 0, sd, sc;
  double lo, hi;
  int i, j, n = s->n, m = s->m;
  for (i = 0; i < m; i++) {
    double ci = s->cv[i];
    l1 += fabs(lh[i]);
    if (p->con.kind[i] == OL_CON_EQ) feas = fmax(feas, fabs(ci));
    else {
      feas = fmax(feas, fmax(0, -ci));
      l1i += fabs(lh[i]);
      comp = fmax(comp, fabs(lh[i] * ci));
    }
  }
  for (j = 0; j < n; j++) {
    double r = rr[j], zl = 0, zu = 0;
    box(p, j, &lo, &hi);
    if (isfinite(lo) && r > 0) zl = r / (1 + fmax(0, x[j] - lo));
    if (isfinite(hi) && r < 0) zu = -r / (1 + fmax(0, hi - x[j]));
    stat = fmax(stat, fabs(r - zl + zu));
    if (zl > 0) comp = fmax(comp, zl * fabs(x[j] - lo));
    if (zu > 0) comp = fmax(comp, zu * fabs(hi - x[j]));
    z1 += zl + zu;
  }
  sd = fmax(AL_SMAX, (l1 + z1) / (m + n)) / AL_SMAX;
  sc = fmax(AL_SMAX, (z1 + l1i) / (n + p->con.mineq)) / AL_SMAX;
  *du = stat / sd;
  *co = comp / sc;
  *pr = feas;
}

/* At bound j with the gradient pushing outwards (held fixed). */
static int held (const ol_problem *p, const double *x, const double *g, int j)
{
  double lo, hi;
  box(p, j, &lo, &hi);
  return (x[j] <= lo && g[j] > 0) || (x[j] >= hi && g[j] < 0);
}

/* Cholesky factor (lower, row-major k x k) of A into L; 0 when A is not
** positive definite. */
static int chol (const double *A, double *L, int k)
{
  int i, j, q;
  for (i = 0; i < k; i++)
    for (j = 0; j <= i; j++) {
      double v = A[i * k + j];
      for (q = 0; q < j; q++) v -= L[i * k + q] * L[j * k + q];
      if (i == j) {
        if (!(v > 0)) return 0;
        L[i * k + i] = sqrt(v);
      } else L[i * k + j] = v / L[j * k + j];
    }
  return 1;
}

/* b := (L L')^{-1} b */
static void cholsolve (const double *L, int k, double *b)
{
  int i, q;
  for (i = 0; i < k; i++) {
    for (q = 0; q < i; q++) b[i] -= L[i * k + q] * b[q];
    b[i] /= L[i * k + i];
  }
  for (i = k - 1; i >= 0; i--) {
    for (q = i + 1; q < k; q++) b[i] -= L[q * k + i] * b[q];
    b[i] /= L[i * k + i];
  }
}

/* The active rows at x (A: the equalities and the inequalities with
** lhat_i > 0) into s->act, and their Gram matrix on the free variables
** G = J_AF J_AF'; returns m_A, or -1 when there is no room (m > AL_PMAX,
** or m_A^2 n > AL_PWORK). */
static int gram (auglag_state *s, const ol_problem *p, const double *x)
{
  int i, k, j, na = 0, n = s->n;
  if (s->G == NULL) return -1;
  for (i = 0; i < s->m; i++)
    if (p->con.kind[i] == OL_CON_EQ || s->lhat[i] > 0) s->act[na++] = i;
  if ((double)na * na * n > AL_PWORK) return -1;
  for (i = 0; i < na; i++)
    for (k = 0; k <= i; k++) {
      const double *a = s->J + (size_t)s->act[i] * n;
      const double *b = s->J + (size_t)s->act[k] * n;
      double v = 0;
      for (j = 0; j < n; j++)
        if (!held(p, x, s->g, j)) v += a[j] * b[j];
      s->G[i * na + k] = s->G[k * na + i] = v;
    }
  return na;
}

/* Least-squares multipliers at x: on the active rows, the l minimising
** ||grad f - J_AF' l|| over the free variables, from the normal equations
** with the rows scaled to unit norm, (D G D + eps I) D^-1 l = D J_AF grad
** f_F, D = diag(G)^-1/2, eps = AL_LSEPS (for dependent rows); the
** inequalities' l_i kept >= 0, the others 0.  Into s->lls, the residual
** grad f - J' l into s->r; 0 when there is no factor.  chol may work in
** place: it reads A(i, j) before it writes L(i, j). */
static int lsmult (auglag_state *s, const ol_problem *p, const double *x,
                   int na)
{
  int i, k, j, n = s->n;
  /* rows scaled to unit norm (Jacobi), so that eps only splits truly
  ** dependent rows */
  for (i = 0; i < na; i++) {
    double gi = s->G[i * na + i];
    s->lls[i] = gi > 0 ? 1 / sqrt(gi) : 0;
  }
  for (i = 0; i < na; i++)
    for (k = 0; k < na; k++)
      s->C[i * na + k] = s->G[i * na + k] * s->lls[i] * s->lls[k]
        + (i == k ? AL_LSEPS : 0);
  if (!chol(s->C, s->C, na)) return 0;
  for (i = 0; i < na; i++) {
    const double *a = s->J + (size_t)s->act[i] * n;
    double v = 0;
    for (j = 0; j < n; j++)
      if (!held(p, x, s->g, j)) v += a[j] * s->gf[j];
    s->pv[i] = v * s->lls[i];
  }
  cholsolve(s->C, na, s->pv);
  for (i = 0; i < na; i++) s->pv[i] *= s->lls[i];
  memset(s->lls, 0, (size_t)s->m * sizeof *s->lls);
  for (i = 0; i < na; i++) {
    int q = s->act[i];
    s->lls[q] = p->con.kind[q] == OL_CON_INEQ && s->pv[i] < 0 ? 0
      : s->pv[i];
  }
  memcpy(s->r, s->gf, (size_t)n * sizeof *s->r);
  for (i = 0; i < s->m; i++)
    if (s->lls[i] != 0) ol_vec_axpy(-s->lls[i], s->J + (size_t)i * n, s->r, n);
  return 1;
}

static int refresh (auglag_state *s, ol_ctx *c, ol_err *e)
{
  int rc = al_eval(s, c, c->x, &s->la, s->g, &s->f, s->gf, s->cv, s->J,
                   s->lhat, e);
  s->valid = rc == OL_OK;
  if (rc == OL_OK && !s->pwset && (!s->scale || s->scaleset)) {
    /* the penalty's weights: the penalty's curvature mu w_i ||grad
    ** c~_i(x0)||_2^2 brought into [mu, AL_PWBAND mu], w_i within
    ** [1 / AL_PWMAX, AL_PWMAX] */
    int i, n = s->n;
    for (i = 0; i < s->m; i++) {
      double g2 = ol_vec_dot(s->J + (size_t)i * n, s->J + (size_t)i * n, n);
      s->pw[i] = g2 > 0 ? fmin(AL_PWMAX, fmax(1, 1 / g2))
        * fmax(1 / AL_PWMAX, fmin(1, AL_PWBAND / g2)) : 1;
    }
    s->pwset = 1;
    return refresh(s, c, e);
  }
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
  int n = s->n, i, j, rc, ok = 0, na;
  double pg, gd, a, dn, lat = 0, ft = 0;
  if (p->l1 > 0)
    return ol_err_set(e, OL_EINVAL, "auglag: the %s term of a composite "
                      "problem is not smooth (use ista, fista or agnc)",
                      ol_penalty_of(p)->name);
  if (!s->valid && (rc = refresh(s, c, e)) != OL_OK) return rc;
  /* (0) converged: IPOPT's optimality error of the scaled problem at x
  ** with the multipliers lhat, else with the least-squares ones */
  {
    double du, co, pr;
    int conv = 0;
    optimality(s, p, c->x, s->lhat, s->g, &du, &co, &pr);
    pg = du;
    if (p->noise.kind == OL_NOISE_NONE && pr <= s->ctol) {
      if (du <= s->tol && co <= s->tol) conv = 1;
      else if ((na = gram(s, p, c->x)) > 0 && lsmult(s, p, c->x, na)) {
        optimality(s, p, c->x, s->lls, s->r, &du, &co, &pr);
        if (du <= s->tol && co <= s->tol) conv = 2;
      }
    }
    if (conv) {
      if (conv == 2) {
        memcpy(s->lhat, s->lls, (size_t)s->m * sizeof *s->lhat);
        memcpy(s->g, s->r, (size_t)n * sizeof *s->g);
      }
      {
        char msg[OL_ERRMAX];
        snprintf(msg, sizeof msg, "auglag: optimality error <= tol%s, "
                 "violation <= ctol (%d outer iterations, mu = %.3g)",
                 conv == 2 ? " with the least-squares multipliers" : "",
                 s->nouter, s->mu);
        ol_ctx_converged(c, msg);
      }
      known(s, c);
      return OL_OK;
    }
  }
  if (pg <= s->omega || s->stuck) {
    /* (1) subproblem solved: the safeguarded outer update */
    double V = violation(s, p), mu = s->mu;
    int nrest = s->restored;
    for (i = 0; i < s->m; i++) {
      double l = s->lhat[i];
      s->lam[i] = l > AL_LMAX ? AL_LMAX : l < -AL_LMAX ? -AL_LMAX : l;
    }
    if (V > AL_TAU * s->vprev && s->m > 0) {
      /* (1b) the violation did not fall by tau: a larger penalty, unless
      ** it has stopped decreasing under the raises (infeasible) */
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
      if (s->mu < s->mumax) s->mu = fmin(10 * s->mu, s->mumax);
    } else s->nraise = 0;
    s->vprev = V;
    s->omega = fmax(0.1 * s->omega, s->tol);
    s->nouter++;
    if (s->mu != mu || s->restored != nrest) s->L.cnt = 0;
    s->stuck = 0;
    if ((rc = refresh(s, c, e)) != OL_OK) return rc;
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
    s->stuck = 1;
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
    if (!ol_lmem_push(&s->L, n, AL_SKIP) && i == 0) s->grow = fmin(4 * fmax(1, s->grow), AL_GROW);
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
                  &s->lamu, &s->zl, &s->zu, &s->gu, &s->rw, &s->G, &s->pw,
                  &s->C, &s->pv, &s->lls, &s->r};
  size_t k;
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
  ol_lmem_fini(&s->L);
  free(s->act);
  s->act = NULL;
}

const ol_method_type ol_optim_auglag = {
  .name = "auglag",
  .family = OL_OPTIM,
  .doc = "augmented Lagrangian for c(x) = 0, c(x) >= 0 and bounds; projected "
    "L-BFGS inner solver (one iteration = one inner step); IPOPT's scaling "
    "and scaled stopping test; ALGENCAN's safeguarded updates; stops "
    "'infeasible' by restoration",
  .ref = "Nocedal & Wright 2006, Algorithm 17.4 and (17.50); Conn, Gould & "
    "Toint 1991; Birgin & Martinez 2014, Algorithm 4.1 (updates); Waechter "
    "& Biegler 2006 (scaling, eqs. 5-6); Andreani et al. 2022 (scaled "
    "stopping); Birgin, Martinez & Raydan 2000 (restoration)",
  .params = auglag_params,
  .nparams = (int)(sizeof auglag_params / sizeof auglag_params[0]),
  .size = sizeof(auglag_state),
  .flags = OL_M_CONSTR,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = auglag_init,
  .step = auglag_step,
  .fini = auglag_fini,
  .result = auglag_result,
  .probes = OL_MSET_NONE,
};
