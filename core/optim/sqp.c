/*
** core/optim/sqp.c -- line-search SQP with a quasi-Newton Hessian of the
** Lagrangian and a dense dual active-set QP solver, for small dense
** problems (Nocedal & Wright 2006, Algorithm 18.3) of the form
**
**   min f(x)  s.t.  c_i(x) = 0 (i in E),  c_i(x) >= 0 (i in I),
**                   lo <= x <= hi  (the problem's box set, if any).
**
** One optlab iteration is one SQP iteration:
** (1) Stop when IPOPT's optimality error (constr.h, ol_constr_kkt) at x
**     with the current multipliers lambda is <= tol.
** (2) QP subproblem (N&W (18.11)):
**       min_d  g'd + 1/2 d'Bd
**       s.t.   c_i + grad c_i'd = 0 (E),  c_i + grad c_i'd >= 0 (I),
**              lo - x <= d <= hi - x,
**     solved by the dual method of Goldfarb & Idnani (1983, "A
**     numerically stable dual method for solving strictly convex
**     quadratic programs", Math. Program. 27, the algorithm of sec. 3),
**     which starts from the unconstrained minimiser -B^{-1} g and adds
**     violated constraints one at a time, dropping those whose multiplier
**     would turn negative; each step solves the KKT system of the active
**     set through the Cholesky factor of B and the Schur complement
**     N'B^{-1}N (LAPACK dpotrf/dpotrs/dposv).  Its multipliers are
**     lambda_hat.  When the linearised constraints are inconsistent (the
**     dual becomes unbounded), they are relaxed as Powell (1978, "A fast
**     algorithm for nonlinearly constrained optimization calculations",
**     LNM 630) proposed: c_E -> (1 - theta) c_E, c_I -> c_I - theta
**     min(c_I, 0), for theta = 0.5, 0.9, 0.99, 1 (at theta = 1, d = 0 is
**     feasible).
** (3) Merit: Powell's (1978) weighted l1 penalty phi(x) = f(x) + sum_i
**     mu_i v_i(x), v_i = |c_i| on E, max(0, -c_i) on I (N&W (15.24) with
**     a weight per constraint), mu_i = max(m_i, (mu_i + m_i) / 2), m_i =
**     1.1 |lambda_hat_i| + 1e-8, so that d is a descent direction (N&W
**     Theorem 18.2) while a constraint with a small multiplier is not
**     penalised by the largest one (a single mu stalls HS106 in tiny
**     steps); the model decrease D = g'd + sum_i mu_i (v_i,lin(d) -
**     v_i(x)), v_lin the violation of the linearisation.
** (4) Backtracking: alpha = 1, 1/2, ... until phi(x + alpha d) <= phi(x) +
**     eta alpha D (eta = 1e-4); when the full step is rejected, first the
**     second-order correction (N&W (18.51)): the QP again with c replaced
**     by c(x + d) - J d, its step tried once at alpha = 1.
** (5) lambda <- lambda + alpha (lambda_hat - lambda) (Algorithm 18.3).
** (6) Powell's damped BFGS update of B with s = x+ - x and y = grad_x
**     L(x+, lambda+) - grad_x L(x, lambda+) (N&W Procedure 18.2); B0 = I,
**     scaled once by y'y / s'y after the first step (N&W (6.20)).
** (7) Infeasibility: when the step makes no progress twice in a row (no
**     decrease of the merit at a point whose violation sum exceeds
**     OL_CONSTR_INFEAS, or a vanishing step of a relaxed QP), a
**     feasibility restoration
**     minimises the violation alone (constr.h, ol_constr_restore).  Its
**     least violation above OL_CONSTR_INFEAS (1e-6) stops the run with
**     reason "infeasible" at that least-infeasible point
**     (ol_ctx_infeasible); below, the SQP starts afresh from the
**     feasible point found (at most 3 times).
**
** Scaling (scale = 1, the default): IPOPT's gradient-based scaling
** (Waechter & Biegler 2006, sec. 3.8; nlp_scaling_max_gradient = 100):
** the method works on s_f f and s_i c_i, s = min(1, 100 / ||gradient at
** the start||_inf), and tests the optimality error of that scaled
** problem; f, grad f (handed to the run) and the multipliers lambda_i =
** s_i lambda~_i / s_f are reported unscaled.
**
** Multipliers (r.lambda): lambda, so that grad f - sum lambda_i grad c_i
** - z_l + z_u = 0 at a solution, lambda_i >= 0 on I; the bound multipliers
** (r.zl, r.zu) are fitted to that residual at each accepted point as the
** kkt metric fits them (ol_constr_zfit).  Costs:
** per iteration one gradient of f and of each constraint at the accepted
** point, one value of f and of every constraint per trial point.  The QP
** is O(K (n + q)^3) for K constraint rows (general plus finite bounds) and
** q active ones: meant for n up to a few hundred.  Noise makes the KKT
** test fail; the run then ends by its budget.
*/
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "constr.h"
#include "method.h"
#include "penalty.h"
#include "vec.h"

#define SQP_TRIALS 40
#define SQP_ETA 1e-4

typedef struct sqp_state {
  int n, m, K;               /* K = m + finite bounds */
  double tol;
  double *B, *Lc;            /* n x n, column-major: B and its Cholesky */
  /* sizes: n, n, m, m, m x n, m x n (m: at least 1) */
  double *g, *gt, *cv, *cvt, *J, *Jt;   /* at x and at the trial point */
  double *lam, *lamq;        /* m: multipliers, the QP's */
  double *csoc;              /* m: c(x + d) - J d, the correction's QP */
  double *d, *dsoc, *xt, *sv, *yv, *w;  /* n each */
  double *kw;                /* 3n: ol_constr_kkt's work */
  double *rw;                /* 6n: ol_constr_restore's work */
  double *sc, *lamu;         /* m: constraint scales, lambda unscaled */
  double *muv;               /* m: the merit's penalty weights mu_i */
  double *zl, *zu, *gu;      /* n: bound multipliers, grad f unscaled */
  double f, ft, sf;          /* f, f at the trial point (scaled); scale */
  /* the QP: K rows a_k'd >= b_k (or = b_k), the active set */
  double *A, *b, *u, *N, *BN, *S, *z, *r, *bz;   /* bz: the added row */
  int *row_con, *eq, *act, *alist, *skip;
  int valid, fails, scaled, scale, restored;
} sqp_state;

static const ol_param sqp_params[] = {
  {"tol", OL_P_REAL, 1e-9, 0, 1, "stop when IPOPT's optimality error "
   "(the kkt metric) of the scaled problem is at most tol", NULL},
  {"scale", OL_P_BOOL, 1, 0, 1, "scale f and each constraint by min(1, "
   "100 / ||gradient at x0||_inf) (IPOPT's gradient-based scaling)", NULL},
};

const double *ol_sqp_lambda (const void *st)
{
  const sqp_state *s = st;
  return s->m > 0 ? s->lamu : NULL;
}

const double *ol_sqp_z (const void *st, int which)
{
  const sqp_state *s = st;
  if (s->zl == NULL) return NULL;
  return which == 0 ? s->zl : s->zu;
}

/* The result hook (method.h): lambda (the multipliers above, 1 x m, none
** without constraints) and zl, zu (the bound multipliers, 1 x n). */
static int sqp_result (const void *st, const char *name, const double **v,
                      int *rows, int *cols)
{
  const sqp_state *s = st;
  const double *r = NULL;
  int k = s->n;
  if (strcmp(name, "lambda") == 0) {
    r = ol_sqp_lambda(st);
    k = s->m;
  }
  else if (strcmp(name, "zl") == 0 || strcmp(name, "zu") == 0)
    r = ol_sqp_z(st, name[1] == 'u');
  if (r == NULL) return 0;
  *v = r;
  *rows = 1;
  *cols = k;
  return 1;
}

static double norminf (const double *x, int n)
{
  double r = 0;
  int j;
  for (j = 0; j < n; j++) r = fmax(r, fabs(x[j]));
  return r;
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

static int sqp_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  sqp_state *s = st;
  const ol_problem *p = c->p;
  int n = c->n, m = p->con.m, K = m, j, mm;
  double lo, hi;
  double **v[] = {&s->g, &s->gt, &s->d, &s->dsoc, &s->xt, &s->sv, &s->yv,
                  &s->w, &s->z, &s->bz, &s->zl, &s->zu, &s->gu};
  size_t k;
  if (p->set.kind != OL_SET_NONE && p->set.kind != OL_SET_BOX)
    return ol_err_set(e, OL_EINVAL, "sqp handles bounds (a box set) and "
                      "general constraints, not a %s",
                      p->set.kind == OL_SET_SIMPLEX ? "simplex" : "ball");
  if (n > 2000)
    return ol_err_set(e, OL_EINVAL, "sqp is dense: n = %d is above its "
                      "limit 2000 (use auglag)", n);
  for (j = 0; j < n; j++) {
    box(p, j, &lo, &hi);
    K += isfinite(lo) + isfinite(hi);
  }
  s->n = n;
  s->m = m;
  s->K = K;
  s->tol = par[0];
  s->scale = par[1] != 0;
  s->sf = 1;
  mm = m > 0 ? m : 1;
  for (k = 0; k < sizeof v / sizeof v[0]; k++)
    if ((*v[k] = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  if ((s->B = ol_mat_new(n, n, e)) == NULL ||
      (s->Lc = ol_mat_new(n, n, e)) == NULL ||
      (s->kw = ol_vec_new(3 * n, e)) == NULL ||
      (s->rw = ol_vec_new(6 * n, e)) == NULL ||
      (s->sc = ol_vec_new(mm, e)) == NULL ||
      (s->lamu = ol_vec_new(mm, e)) == NULL ||
      (s->muv = ol_vec_new(mm, e)) == NULL ||
      (s->cv = ol_vec_new(mm, e)) == NULL ||
      (s->cvt = ol_vec_new(mm, e)) == NULL ||
      (s->lam = ol_vec_new(mm, e)) == NULL ||
      (s->lamq = ol_vec_new(mm, e)) == NULL ||
      (s->csoc = ol_vec_new(mm, e)) == NULL ||
      (s->J = ol_mat_new(mm, n, e)) == NULL ||
      (s->Jt = ol_mat_new(mm, n, e)) == NULL ||
      (s->A = ol_mat_new(K > 0 ? K : 1, n, e)) == NULL ||
      (s->b = ol_vec_new(K > 0 ? K : 1, e)) == NULL ||
      (s->u = ol_vec_new(K > 0 ? K : 1, e)) == NULL ||
      (s->r = ol_vec_new(K > 0 ? K : 1, e)) == NULL ||
      (s->N = ol_mat_new(K > 0 ? K : 1, n, e)) == NULL ||
      (s->BN = ol_mat_new(K > 0 ? K : 1, n, e)) == NULL ||
      (s->S = ol_mat_new(K > 0 ? K : 1, K > 0 ? K : 1, e)) == NULL)
    return e->code;
  s->row_con = malloc(sizeof *s->row_con * (size_t)(5 * (K > 0 ? K : 1)));
  if (s->row_con == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  s->eq = s->row_con + (K > 0 ? K : 1);
  s->act = s->eq + (K > 0 ? K : 1);
  s->alist = s->act + (K > 0 ? K : 1);
  s->skip = s->alist + (K > 0 ? K : 1);
  for (j = 0; j < n; j++) s->B[j * n + j] = 1;
  for (j = 0; j < mm; j++) s->sc[j] = 1;
  return OL_OK;
}

/* f, grad f, c, J at x (grad: with gradients; else values only). */
static int evaluate (sqp_state *s, ol_ctx *c, const double *x, double *f,
                     double *g, double *cv, double *J, ol_err *e)
{
  const ol_problem *p = c->p;
  int i, rc;
  int j;
  rc = g != NULL ? ol_ctx_grad(c, x, f, g, e) : ol_ctx_value(c, x, f, e);
  if (rc != OL_OK) return rc;
  *f *= s->sf;
  if (g != NULL) ol_vec_scal(s->sf, g, s->n);
  for (i = 0; i < s->m; i++) {
    double *Ji = J != NULL ? J + (size_t)i * s->n : NULL;
    rc = ol_problem_ceval(p, i, x, &cv[i], Ji, s->w, &c->nfev, &c->ngev, e);
    if (rc != OL_OK) return rc;
    cv[i] *= s->sc[i];
    if (Ji != NULL)
      for (j = 0; j < s->n; j++) Ji[j] *= s->sc[i];
  }
  return OL_OK;
}

/* IPOPT's gradient-based scaling (Waechter & Biegler 2006, sec. 3.8) from
** the unscaled f, g, c, J at the start: the factors, and the stored
** values scaled by them. */
static void set_scale (sqp_state *s)
{
  int i, j, n = s->n;
  s->sf = ol_constr_scale(norminf(s->g, n));
  s->f *= s->sf;
  ol_vec_scal(s->sf, s->g, n);
  for (i = 0; i < s->m; i++) {
    double *Ji = s->J + (size_t)i * n;
    s->sc[i] = ol_constr_scale(norminf(Ji, n));
    s->cv[i] *= s->sc[i];
    for (j = 0; j < n; j++) Ji[j] *= s->sc[i];
  }
}

/* End of a step at x: the unscaled multipliers (lambda_i = sc_i
** lambda~_i / sf), the fitted bound multipliers, and f, grad f handed to
** the run unscaled. */
static void known (sqp_state *s, ol_ctx *c)
{
  int i, j, n = s->n;
  for (j = 0; j < n; j++) s->gu[j] = s->g[j] / s->sf;
  for (i = 0; i < s->m; i++) s->lamu[i] = s->lam[i] * s->sc[i] / s->sf;
  /* r = grad f - sum lambda_i grad c_i, unscaled: (g - sum lam~ J~) / sf */
  for (j = 0; j < n; j++) {
    double r = s->g[j];
    for (i = 0; i < s->m; i++) r -= s->lam[i] * s->J[(size_t)i * n + j];
    s->w[j] = r / s->sf;
  }
  ol_constr_zfit(c->p, c->x, s->w, s->zl, s->zu);
  ol_ctx_known(c, s->f / s->sf, s->gu);
}

/* sum_E |c_i| + sum_I max(0, -c_i) */
static double violation (const ol_problem *p, const double *cv, int m);

/* Feasibility restoration from c->x (constr.h: the scaled violation
** minimised over the box).  When the least violation it reaches is above
** OL_CONSTR_INFEAS, the problem is infeasible: the run stops there.
** Otherwise the SQP starts afresh from the feasible point it found (B =
** I, mu = 0, lambda = 0). */
static int restore (sqp_state *s, ol_ctx *c, const char *why, ol_err *e)
{
  int n = s->n, i, rc;
  double viol;
  memcpy(s->xt, c->x, (size_t)n * sizeof *s->xt);
  rc = ol_constr_restore(c->p, s->xt, s->sc, 5000, &viol, s->rw, &c->nfev,
                         &c->ngev, e);
  if (rc != OL_OK) return rc;
  memcpy(c->x, s->xt, (size_t)n * sizeof *c->x);
  rc = evaluate(s, c, c->x, &s->f, s->g, s->cv, s->J, e);
  if (rc != OL_OK) return rc;
  for (i = 0; i < s->m; i++) s->lam[i] = 0;
  memset(s->B, 0, (size_t)n * n * sizeof *s->B);
  for (i = 0; i < n; i++) s->B[i * n + i] = 1;
  s->scaled = 0;
  for (i = 0; i < s->m; i++) s->muv[i] = 0;
  s->fails = 0;
  s->restored++;
  known(s, c);
  if (viol > OL_CONSTR_INFEAS) {
    char msg[OL_ERRMAX];
    snprintf(msg, sizeof msg, "sqp: the constraints cannot be met (%s; "
             "feasibility restoration ends at a least violation %.3g > %g: "
             "x is that least-infeasible point)", why, viol,
             OL_CONSTR_INFEAS);
    ol_ctx_infeasible(c, msg);
  }
  return OL_OK;
}

static double violation (const ol_problem *p, const double *cv, int m)
{
  double v = 0;
  int i;
  for (i = 0; i < m; i++)
    v += p->con.kind[i] == OL_CON_EQ ? fabs(cv[i]) : fmax(0, -cv[i]);
  return v;
}

/* -- the QP (Goldfarb & Idnani 1983) -------------------------------- */

/* The rows of the QP at x for constraint values cv (m), relaxed by
** theta: general constraints first, then the finite bounds. */
static void qp_rows (sqp_state *s, const ol_problem *p, const double *x,
                     const double *cv, double theta)
{
  int n = s->n, i, j, k = 0;
  double lo, hi;
  memset(s->A, 0, (size_t)s->K * n * sizeof *s->A);
  for (i = 0; i < s->m; i++, k++) {
    memcpy(s->A + (size_t)k * n, s->J + (size_t)i * n,
           (size_t)n * sizeof *s->A);
    s->eq[k] = p->con.kind[i] == OL_CON_EQ;
    s->b[k] = s->eq[k] ? -(1 - theta) * cv[i]
                       : -cv[i] + theta * fmin(cv[i], 0);
    s->row_con[k] = i;
  }
  for (j = 0; j < n; j++) {
    box(p, j, &lo, &hi);
    if (isfinite(lo)) {
      s->A[(size_t)k * n + j] = 1;
      s->b[k] = lo - x[j];
      s->eq[k] = 0;
      s->row_con[k++] = -1;
    }
    if (isfinite(hi)) {
      s->A[(size_t)k * n + j] = -1;
      s->b[k] = x[j] - hi;
      s->eq[k] = 0;
      s->row_con[k++] = -1;
    }
  }
}

/* y = B^{-1} y for nrhs columns of n (the factor s->Lc). */
static int bsolve (sqp_state *s, double *y, int nrhs)
{
  return LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', s->n, nrhs, s->Lc, s->n,
                             y, s->n) == 0 ? OL_OK : OL_ENUMERIC;
}

/* Direction for adding row p (normal np, sign applied): z = B^{-1} np -
** B^{-1} N r with N' z = 0, r the multipliers' rates (q entries).
** np' z into *zn, np' B^{-1} np into *bnn. */
static int qp_dir (sqp_state *s, const double *np, int q, double *zn,
                   double *bnn, ol_err *e)
{
  int n = s->n, a, b;
  memcpy(s->z, np, (size_t)n * sizeof *s->z);
  if (bsolve(s, s->z, 1) != OL_OK) goto fail;
  *bnn = ol_vec_dot(np, s->z, n);
  if (q > 0) {
    for (a = 0; a < q; a++)
      memcpy(s->BN + (size_t)a * n, s->N + (size_t)a * n,
             (size_t)n * sizeof *s->BN);
    if (bsolve(s, s->BN, q) != OL_OK) goto fail;
    for (a = 0; a < q; a++) {
      for (b = 0; b <= a; b++)
        s->S[a + b * q] = s->S[b + a * q] =
          ol_vec_dot(s->N + (size_t)a * n, s->BN + (size_t)b * n, n);
      s->r[a] = ol_vec_dot(s->BN + (size_t)a * n, np, n);
    }
    if (LAPACKE_dposv_work(LAPACK_COL_MAJOR, 'L', q, 1, s->S, q, s->r, q)
        != 0)
      goto fail;
    for (a = 0; a < q; a++)
      ol_vec_axpy(-s->r[a], s->BN + (size_t)a * n, s->z, n);
  }
  *zn = ol_vec_dot(np, s->z, n);
  return OL_OK;
fail:
  return ol_err_set(e, OL_ENUMERIC, "sqp: the QP's KKT system is singular "
                    "(dependent active constraints)");
}

static void qp_drop (sqp_state *s, int at, int *q)
{
  int a, n = s->n;
  s->act[s->alist[at]] = -1;
  for (a = at; a + 1 < *q; a++) {
    s->alist[a] = s->alist[a + 1];
    s->u[a] = s->u[a + 1];
    s->act[s->alist[a]] = a;
    memcpy(s->N + (size_t)a * n, s->N + (size_t)(a + 1) * n,
           (size_t)n * sizeof *s->N);
  }
  (*q)--;
}

/* Solve the QP with the rows set by qp_rows: d and the multipliers of the
** general constraints (lamq).  OL_OK, 1 when infeasible, or an error. */
static int qp_solve (sqp_state *s, const double *g, double *d, ol_err *e)
{
  int n = s->n, K = s->K, q = 0, k, a, rc, guard = 0;
  /* (1) unconstrained minimiser */
  for (k = 0; k < n; k++) d[k] = -g[k];
  if (bsolve(s, d, 1) != OL_OK)
    return ol_err_set(e, OL_ENUMERIC, "sqp: Cholesky solve failed");
  for (k = 0; k < K; k++) {
    s->act[k] = -1;
    s->skip[k] = 0;
  }
  for (;;) {
    /* (2) the next row: every equality first (G-I sec. 3: they join the
    ** active set even when satisfied), then the most violated
    ** inequality */
    int p = -1, sg = 1;
    double worst = 0, sp, up = 0, dn = norminf(d, n);
    if (++guard > 20 * (K + n) + 100)
      return ol_err_set(e, OL_ENUMERIC, "sqp: the QP does not terminate");
    for (k = 0; k < K; k++) {
      const double *ak = s->A + (size_t)k * n;
      double sk, tk;
      if (s->act[k] >= 0 || s->skip[k]) continue;
      if (s->eq[k]) {
        p = k;
        break;
      }
      sk = ol_vec_dot(ak, d, n) - s->b[k];
      tk = 1e-11 * (1 + fabs(s->b[k]) + norminf(ak, n) * dn);
      if (sk < -tk && -sk > worst) {
        p = k;
        worst = -sk;
      }
    }
    if (p < 0) break;
    sp = ol_vec_dot(s->A + (size_t)p * n, d, n) - s->b[p];
    sg = sp > 0 ? -1 : 1;          /* an equality above: its negative */
    for (k = 0; k < n; k++) s->bz[k] = sg * s->A[(size_t)p * n + k];
    sp *= sg;
    /* (3) step towards row p, dropping rows whose multiplier hits 0 */
    for (;;) {
      double zn = 0, bnn = 0, t1 = INFINITY, t2, t;
      int kd = -1;
      if (++guard > 20 * (K + n) + 100)
        return ol_err_set(e, OL_ENUMERIC, "sqp: the QP does not "
                          "terminate");
      if ((rc = qp_dir(s, s->bz, q, &zn, &bnn, e)) != OL_OK) return rc;
      for (a = 0; a < q; a++)
        if (!s->eq[s->alist[a]] && s->r[a] > 0 && s->u[a] / s->r[a] < t1) {
          t1 = s->u[a] / s->r[a];
          kd = a;
        }
      if (zn <= 1e-12 * bnn) {
        /* row p depends on the active rows */
        if (kd < 0) {
          if (s->eq[p] && fabs(sp) <= 1e-9 * (1 + fabs(s->b[p]))) {
            s->skip[p] = 1;        /* a consistent, redundant equality */
            break;
          }
          return 1;                /* infeasible */
        }
        for (a = 0; a < q; a++) s->u[a] -= t1 * s->r[a];
        up += t1;
        qp_drop(s, kd, &q);
        continue;
      }
      t2 = -sp / zn;
      t = t2 < t1 ? t2 : t1;
      ol_vec_axpy(t, s->z, d, n);
      for (a = 0; a < q; a++) s->u[a] -= t * s->r[a];
      up += t;
      if (t2 <= t1) {
        /* (4) row p joins the active set */
        s->alist[q] = p;
        s->act[p] = q;
        s->u[q] = up;
        memcpy(s->N + (size_t)q * n, s->bz, (size_t)n * sizeof *s->N);
        q++;
        break;
      }
      qp_drop(s, kd, &q);
      sp = ol_vec_dot(s->bz, d, n) - sg * s->b[p];
    }
  }
  /* (5) multipliers of the general constraints, in their own sign */
  for (k = 0; k < s->m; k++) s->lamq[k] = 0;
  for (a = 0; a < q; a++) {
    int row = s->alist[a];
    double sgn = ol_vec_dot(s->N + (size_t)a * n, s->A + (size_t)row * n, n)
                 >= 0 ? 1 : -1;
    if (s->row_con[row] >= 0) s->lamq[s->row_con[row]] = sgn * s->u[a];
  }
  return OL_OK;
}

/* -- the SQP iteration ----------------------------------------------- */

/* Cholesky of B into Lc; B reset to the identity if it fails. */
static void factor (sqp_state *s)
{
  int n = s->n, j;
  memcpy(s->Lc, s->B, (size_t)n * n * sizeof *s->Lc);
  if (LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, s->Lc, n) == 0) return;
  memset(s->B, 0, (size_t)n * n * sizeof *s->B);
  for (j = 0; j < n; j++) s->B[j * n + j] = 1;
  memcpy(s->Lc, s->B, (size_t)n * n * sizeof *s->Lc);
}

/* The step d and lamq from the QP at x with constraint values cv,
** relaxed when inconsistent (Powell 1978); the theta used into *th. */
static int subproblem (sqp_state *s, const ol_problem *p, const double *x,
                       const double *cv, double *d, double *th, ol_err *e)
{
  static const double thetas[] = {0, 0.5, 0.9, 0.99, 1};
  size_t k;
  int rc = 1;
  for (k = 0; k < sizeof thetas / sizeof thetas[0] && rc == 1; k++) {
    qp_rows(s, p, x, cv, thetas[k]);
    rc = qp_solve(s, s->g, d, e);
    *th = thetas[k];
  }
  if (rc == 1)
    return ol_err_set(e, OL_ENUMERIC, "sqp: the relaxed QP is infeasible "
                      "(inconsistent bounds?)");
  return rc;
}

/* Powell's weighted violation sum_i mu_i viol_i(cv) */
static double wviol (const sqp_state *s, const ol_problem *p,
                     const double *cv)
{
  double v = 0;
  int i;
  for (i = 0; i < s->m; i++)
    v += s->muv[i] * (p->con.kind[i] == OL_CON_EQ ? fabs(cv[i])
                      : fmax(0, -cv[i]));
  return v;
}

/* the same of the linearisation c + J d */
static double wvlin (const sqp_state *s, const ol_problem *p,
                     const double *d)
{
  double v = 0;
  int i;
  for (i = 0; i < s->m; i++) {
    double ci = s->cv[i] + ol_vec_dot(s->J + (size_t)i * s->n, d, s->n);
    v += s->muv[i] * (p->con.kind[i] == OL_CON_EQ ? fabs(ci) : fmax(0, -ci));
  }
  return v;
}

/* Powell's damped BFGS update (N&W Procedure 18.2) with s->sv, s->yv. */
static void bfgs (sqp_state *s)
{
  int n = s->n, i, j;
  double *Bs = s->w, sBs, sy, th, sr;
  sy = ol_vec_dot(s->sv, s->yv, n);
  if (!s->scaled && sy > 0) {
    /* (6.20): B0 = (y'y / s'y) I before the first update */
    double sc = ol_vec_dot(s->yv, s->yv, n) / sy;
    memset(s->B, 0, (size_t)n * n * sizeof *s->B);
    for (j = 0; j < n; j++) s->B[j * n + j] = sc;
    s->scaled = 1;
  }
  for (i = 0; i < n; i++) {
    Bs[i] = 0;
    for (j = 0; j < n; j++) Bs[i] += s->B[j * n + i] * s->sv[j];
  }
  sBs = ol_vec_dot(s->sv, Bs, n);
  if (!(sBs > 0) || !isfinite(sBs)) return;
  th = sy >= 0.2 * sBs ? 1 : 0.8 * sBs / (sBs - sy);
  for (i = 0; i < n; i++) s->yv[i] = th * s->yv[i] + (1 - th) * Bs[i];
  sr = ol_vec_dot(s->sv, s->yv, n);
  if (!(sr > 0) || !isfinite(sr)) return;
  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      s->B[j * n + i] += -Bs[i] * Bs[j] / sBs + s->yv[i] * s->yv[j] / sr;
}

static int sqp_step (void *st, ol_ctx *c, ol_err *e)
{
  sqp_state *s = st;
  const ol_problem *p = c->p;
  int n = s->n, m = s->m, i, j, rc, ok = 0, soc = 0;
  double th, D, phi, phit = 0, a = 1, v;
  ol_kkt k;
  if (p->l1 > 0)
    return ol_err_set(e, OL_EINVAL, "sqp: the %s term of a composite "
                      "problem is not smooth (use ista, fista or agnc)",
                      ol_penalty_of(p)->name);
  if (!s->valid) {
    ol_ctx_project(c, c->x);
    rc = evaluate(s, c, c->x, &s->f, s->g, s->cv, s->J, e);
    if (rc != OL_OK) return rc;
    if (s->scale) set_scale(s);
    s->valid = 1;
  }
  /* (1) IPOPT's optimality error of the scaled problem */
  if (p->noise.kind == OL_NOISE_NONE) {
    rc = ol_constr_kkt_scaled(p, c->x, s->g, s->lam, s->sc, &k, s->kw, e);
    c->nfev += k.nval;                 /* its constraint calls (issue 22) */
    c->ngev += k.ngrad;
    if (rc != OL_OK) return rc;
    if (k.err <= s->tol) {
      ol_ctx_converged(c, "sqp: optimality error (kkt) <= tol");
      known(s, c);
      return OL_OK;
    }
  }
  /* (2) the QP */
  factor(s);
  if ((rc = subproblem(s, p, c->x, s->cv, s->d, &th, e)) != OL_OK)
    return rc;
  /* (3) merit penalty and model decrease */
  for (i = 0; i < m; i++) {
    double li = 1.1 * fabs(s->lamq[i]) + 1e-8;
    s->muv[i] = fmax(li, 0.5 * (s->muv[i] + li));
  }
  v = violation(p, s->cv, m);
  phi = s->f + wviol(s, p, s->cv);
  D = ol_vec_dot(s->g, s->d, n) + wvlin(s, p, s->d) - wviol(s, p, s->cv);
  if (norminf(s->d, n) <= 4 * DBL_EPSILON * (1 + norminf(c->x, n))) {
    /* a KKT point of the QP at x: take its multipliers */
    memcpy(s->lam, s->lamq, (size_t)m * sizeof *s->lam);
    if (th > 0) {
      if (s->restored < 3)
        return restore(s, c, "the linearised constraints are inconsistent "
                       "and the QP step vanishes", e);
      return ol_err_set(e, OL_ENUMERIC, "sqp: stuck at an infeasible "
                        "point (the linearised constraints are "
                        "inconsistent)");
    }
    rc = ol_constr_kkt_scaled(p, c->x, s->g, s->lam, s->sc, &k, s->kw, e);
    c->nfev += k.nval;
    c->ngev += k.ngrad;
    if (rc != OL_OK) return rc;
    ol_ctx_converged(c, k.err <= s->tol
                     ? "sqp: optimality error (kkt) <= tol"
                     : "sqp: the QP step is below rounding (kkt above "
                       "tol: the tolerance is below what the problem's "
                       "rounding allows)");
    known(s, c);
    return OL_OK;
  }
  /* (4) backtracking on phi, with one second-order correction */
  for (j = 0; j < SQP_TRIALS; j++) {
    const double *dd = soc ? s->dsoc : s->d;
    double aa = soc ? 1 : a;
    for (i = 0; i < n; i++) s->xt[i] = c->x[i] + aa * dd[i];
    ol_ctx_project(c, s->xt);
    rc = evaluate(s, c, s->xt, &s->ft, NULL, s->cvt, NULL, e);
    if (rc == OL_EDOM) phit = INFINITY;
    else if (rc != OL_OK) return rc;
    else phit = s->ft + wviol(s, p, s->cvt);
    if (phit <= phi + SQP_ETA * aa * D + 4 * DBL_EPSILON * fabs(phi)) {
      ok = 1;
      a = aa;
      break;
    }
    if (j == 0 && m > 0 && !soc) {
      /* N&W (18.51): the QP with c(x + d) - J d */
      double thc, *cs = s->csoc;  /* m values: not an n-sized buffer */
      for (i = 0; i < m; i++)
        cs[i] = s->cvt[i] - ol_vec_dot(s->J + (size_t)i * n, s->d, n);
      if (subproblem(s, p, c->x, cs, s->dsoc, &thc, e) == OL_OK
          && thc == 0) {
        soc = 1;
        j--;                       /* the correction is one extra trial */
        continue;
      }
      /* restore the QP of d (its multipliers) */
      if ((rc = subproblem(s, p, c->x, s->cv, s->dsoc, &th, e)) != OL_OK)
        return rc;
    }
    if (soc) {
      soc = 0;
      if ((rc = subproblem(s, p, c->x, s->cv, s->dsoc, &th, e)) != OL_OK)
        return rc;
    }
    a *= 0.5;
  }
  if (!ok) {
    if (++s->fails >= 2 && v > OL_CONSTR_INFEAS && s->restored < 3)
      return restore(s, c, "no decrease of the l1 merit along the QP "
                     "step", e);
    if (s->fails >= 2)
      return ol_err_set(e, OL_ENUMERIC, "sqp: line search failed (no "
                        "decrease of the l1 merit along the QP step); the "
                        "constraints are violated by %g here%s", v,
                        v > 0 ? " (infeasible, or a start far from "
                        "feasible points?)" : "");
    /* start the Hessian afresh once */
    memset(s->B, 0, (size_t)n * n * sizeof *s->B);
    for (i = 0; i < n; i++) s->B[i * n + i] = 1;
    s->scaled = 0;
    known(s, c);
    return OL_OK;
  }
  s->fails = 0;
  /* (5) the accepted point: gradients, multipliers */
  for (i = 0; i < n; i++) s->sv[i] = s->xt[i] - c->x[i];
  rc = evaluate(s, c, s->xt, &s->ft, s->gt, s->cvt, s->Jt, e);
  if (rc != OL_OK) return rc;
  for (i = 0; i < m; i++) s->lam[i] += a * (s->lamq[i] - s->lam[i]);
  /* (6) y = grad L(x+, lam) - grad L(x, lam) */
  for (j = 0; j < n; j++) s->yv[j] = s->gt[j] - s->g[j];
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++)
      s->yv[j] -= s->lam[i] * (s->Jt[(size_t)i * n + j]
                               - s->J[(size_t)i * n + j]);
  bfgs(s);
  memcpy(c->x, s->xt, (size_t)n * sizeof *c->x);
  memcpy(s->g, s->gt, (size_t)n * sizeof *s->g);
  memcpy(s->cv, s->cvt, (size_t)m * sizeof *s->cv);
  memcpy(s->J, s->Jt, (size_t)m * n * sizeof *s->J);
  s->f = s->ft;
  known(s, c);
  return OL_OK;
}

static void sqp_fini (void *st)
{
  sqp_state *s = st;
  double **v[] = {&s->g, &s->gt, &s->d, &s->dsoc, &s->xt, &s->sv, &s->yv,
                  &s->w, &s->z, &s->bz, &s->B, &s->Lc, &s->kw, &s->cv,
                  &s->cvt, &s->lam, &s->lamq, &s->csoc, &s->J, &s->Jt,
                  &s->A, &s->b, &s->u, &s->r, &s->N, &s->BN, &s->S,
                  &s->rw, &s->sc, &s->lamu, &s->zl, &s->zu, &s->gu,
                  &s->muv};
  size_t k;
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
  free(s->row_con);
  s->row_con = NULL;
}

const ol_method_type ol_optim_sqp = {
  .name = "sqp",
  .family = OL_OPTIM,
  .doc =
    "line-search SQP: damped-BFGS Lagrangian Hessian, dense dual active-set "
    "QP (Goldfarb-Idnani), Powell's weighted l1 merit with second-order "
    "correction; IPOPT's scaling; stops 'infeasible' by restoration",
  .ref =
    "Nocedal & Wright 2006, Algorithm 18.3; Goldfarb & Idnani 1983; Powell "
    "1978; Waechter & Biegler 2006 (scaling); Birgin, Martinez & Raydan "
    "2000 (restoration)",
  .params = sqp_params,
  .nparams = (int)(sizeof sqp_params / sizeof sqp_params[0]),
  .size = sizeof(sqp_state),
  .flags = OL_M_CONSTR,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = sqp_init,
  .step = sqp_step,
  .fini = sqp_fini,
  .result = sqp_result,
  .probes = OL_MSET_NONE,
};
