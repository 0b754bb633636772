/*
** tests/bench/ipopt.c -- IPOPT against optlab's sqp (and auglag) on the
** Hock-Schittkowski problems of problem.hs (core/problems/hs.c), in one
** run: per problem, iterations, evaluations and time per solve (median of
** reps) of each, the optimum's error against the published f*, and
** IPOPT's optimality error of each solution (ol_constr_kkt).  The solves
** are interleaved (IPOPT, sqp, auglag, then again, reps times) and timed
** on the process's CPU clock, and each ratio is taken within one rep: a
** loaded machine slows both sides of a pair alike (timed one solver's
** reps after the other's, on the wall clock, load alone moved the median
** ratio from 453x to 2232x).
**
** IPOPT (Waechter & Biegler 2006) through its C interface
** (IpStdCInterface.h) with exact first and second derivatives and default
** options (tol 1e-8), print_level 0.  Its f, gradient, constraints and
** Jacobian call the same C oracles as optlab's runs (the problem's fdf and
** con.fn); the Hessian of its Lagrangian, sigma grad^2 f + sum_i lambda_i
** grad^2 c_i, is written here for each problem and checked at start-up
** against central differences of the Lagrangian's gradient (the bench
** stops if one disagrees by more than 1e-5).  Constraints c >= 0 are
** IPOPT's g with g_L = 0, g_U = inf; equalities g_L = g_U = 0.
**
** optlab: optim.sqp (tol 1e-9) and optim.auglag with their defaults,
** through ol_run_advance with the loss metric only.  Evaluations are
** counted as each solver calls the oracles: f values, and gradients of f
** and of the constraints (a Jacobian of m rows counts m).
** Prints per problem
**   HS <k> ipopt  it <n> f <n> g <n> us/solve <t> ferr <e> kkt <e>
**   HS <k> sqp    ...
**   HS <k> auglag ...
**   HS <k> pairs  sqp <r>x (<lo> to <hi>) auglag ...   the per-rep ratios
** then the median over problems of the median ratio IPOPT / sqp.
** usage: ipopt [reps]
*/
#include <IpStdCInterface.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "constr.h"
#include "run.h"

static const int numbers[] = {6, 10, 14, 21, 28, 35, 39, 40, 43, 71, 76};
#define NPROB ((int)(sizeof numbers / sizeof numbers[0]))
#define MAXN 4

/* grad^2 f (into F) and grad^2 c_i (into C[i]), dense n x n, at x. */
static void hessians (int k, const double *x, double F[MAXN][MAXN],
                      double C[3][MAXN][MAXN])
{
  memset(F, 0, sizeof(double) * MAXN * MAXN);
  memset(C, 0, sizeof(double) * 3 * MAXN * MAXN);
  switch (k) {
  case 6: F[0][0] = 2; C[0][0][0] = -20; break;
  case 10:
    C[0][0][0] = -6; C[0][0][1] = C[0][1][0] = 2; C[0][1][1] = -2; break;
  case 14:
    F[0][0] = F[1][1] = 2; C[1][0][0] = -0.5; C[1][1][1] = -2; break;
  case 21: F[0][0] = 0.02; F[1][1] = 2; break;
  case 28:
    F[0][0] = 2; F[0][1] = F[1][0] = 2; F[1][1] = 4;
    F[1][2] = F[2][1] = 2; F[2][2] = 2; break;
  case 35:
    F[0][0] = 4; F[0][1] = F[1][0] = 2; F[0][2] = F[2][0] = 2;
    F[1][1] = 4; F[2][2] = 2; break;
  case 39:
    C[0][0][0] = -6 * x[0]; C[0][2][2] = -2;
    C[1][0][0] = 2; C[1][3][3] = -2; break;
  case 40: {
    int i, j;
    for (i = 0; i < 4; i++)
      for (j = 0; j < 4; j++)
        if (i != j) {
          double pr = -1;
          int l;
          for (l = 0; l < 4; l++) if (l != i && l != j) pr *= x[l];
          F[i][j] = pr;
        }
    C[0][0][0] = 6 * x[0]; C[0][1][1] = 2;
    C[1][0][0] = 2 * x[3]; C[1][0][3] = C[1][3][0] = 2 * x[0];
    C[2][3][3] = 2;
    break;
  }
  case 43: {
    static const double d[4][4] = {{2, 2, 4, 2}, {-2, -2, -2, -2},
                                   {-2, -4, -2, -4}, {-4, -2, -2, 0}};
    int i;
    for (i = 0; i < 4; i++) {
      F[i][i] = d[0][i];
      C[0][i][i] = d[1][i];
      C[1][i][i] = d[2][i];
      C[2][i][i] = d[3][i];
    }
    break;
  }
  case 71: {
    int i, j;
    F[0][0] = 2 * x[3]; F[0][1] = F[1][0] = x[3]; F[0][2] = F[2][0] = x[3];
    F[0][3] = F[3][0] = 2 * x[0] + x[1] + x[2];
    F[1][3] = F[3][1] = x[0]; F[2][3] = F[3][2] = x[0];
    for (i = 0; i < 4; i++)
      for (j = 0; j < 4; j++)
        if (i != j) {
          double pr = 1;
          int l;
          for (l = 0; l < 4; l++) if (l != i && l != j) pr *= x[l];
          C[0][i][j] = pr;
        }
    for (i = 0; i < 4; i++) C[1][i][i] = 2;
    break;
  }
  case 76:
    F[0][0] = 2; F[0][2] = F[2][0] = -1; F[1][1] = 1; F[2][2] = 2;
    F[2][3] = F[3][2] = 1; F[3][3] = 1; break;
  default: break;
  }
}

typedef struct bench_nlp {
  ol_problem *p;
  int k, n, m;
  long nf, ng, it;
  ol_err e;
} bench_nlp;

static Bool ev_f (Index n, Number *x, Bool nx, Number *f, UserDataPtr ud)
{
  bench_nlp *b = ud;
  (void)n; (void)nx;
  b->nf++;
  return b->p->fdf(b->p->ud, x, f, NULL, &b->e) == OL_OK;
}

static Bool ev_gf (Index n, Number *x, Bool nx, Number *g, UserDataPtr ud)
{
  bench_nlp *b = ud;
  (void)n; (void)nx;
  b->ng++;
  return b->p->fdf(b->p->ud, x, NULL, g, &b->e) == OL_OK;
}

static Bool ev_g (Index n, Number *x, Bool nx, Index m, Number *g,
                  UserDataPtr ud)
{
  bench_nlp *b = ud;
  int i;
  (void)n; (void)nx;
  b->nf += m;
  for (i = 0; i < m; i++)
    if (b->p->con.fn(b->p->con.ud, i, x, &g[i], NULL, &b->e) != OL_OK)
      return 0;
  return 1;
}

static Bool ev_jac (Index n, Number *x, Bool nx, Index m, Index nele,
                    Index *ir, Index *jc, Number *v, UserDataPtr ud)
{
  bench_nlp *b = ud;
  int i, j;
  double c;
  (void)nx; (void)nele;
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      if (v == NULL) {
        ir[i * n + j] = i;
        jc[i * n + j] = j;
      }
    }
  if (v == NULL) return 1;
  b->ng += m;
  for (i = 0; i < m; i++)
    if (b->p->con.fn(b->p->con.ud, i, x, &c, v + i * n, &b->e) != OL_OK)
      return 0;
  return 1;
}

static Bool ev_h (Index n, Number *x, Bool nx, Number sigma, Index m,
                  Number *lam, Bool nl, Index nele, Index *ir, Index *jc,
                  Number *v, UserDataPtr ud)
{
  bench_nlp *b = ud;
  double F[MAXN][MAXN], C[3][MAXN][MAXN];
  int i, j, l, at = 0;
  (void)nx; (void)nl; (void)nele;
  if (v == NULL) {
    for (i = 0; i < n; i++)
      for (j = 0; j <= i; j++, at++) {
        ir[at] = i;
        jc[at] = j;
      }
    return 1;
  }
  hessians(b->k, x, F, C);
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++, at++) {
      v[at] = sigma * F[i][j];
      for (l = 0; l < m; l++) v[at] += lam[l] * C[l][i][j];
    }
  return 1;
}

static Bool ev_iter (Index mode, Index it, Number obj, Number pr, Number du,
                     Number mu, Number dn, Number rs, Number ad, Number ap,
                     Index ls, UserDataPtr ud)
{
  bench_nlp *b = ud;
  (void)mode; (void)obj; (void)pr; (void)du; (void)mu; (void)dn; (void)rs;
  (void)ad; (void)ap; (void)ls;
  b->it = it;
  return 1;
}

/* grad_x of sigma f + sum lam_i c_i at x into g (n) */
static void lag_grad (bench_nlp *b, const double *x, const double *lam,
                      double *g)
{
  double t[MAXN], c;
  int i, j;
  b->p->fdf(b->p->ud, x, NULL, g, &b->e);
  for (i = 0; i < b->m; i++) {
    b->p->con.fn(b->p->con.ud, i, x, &c, t, &b->e);
    for (j = 0; j < b->n; j++) g[j] += lam[i] * t[j];
  }
}

/* The Hessians above against central differences of the Lagrangian's
** gradient at a point off every symmetry, lam = (0.7, -1.3, 0.4). */
static int check_hessian (bench_nlp *b)
{
  static const double lam[3] = {0.7, -1.3, 0.4};
  double x[MAXN] = {0.9, 1.7, 1.3, 1.1}, F[MAXN][MAXN], C[3][MAXN][MAXN];
  double gp[MAXN], gm[MAXN], h = 1e-5, worst = 0;
  int i, j, l;
  hessians(b->k, x, F, C);
  for (j = 0; j < b->n; j++) {
    double xj = x[j];
    x[j] = xj + h;
    lag_grad(b, x, lam, gp);
    x[j] = xj - h;
    lag_grad(b, x, lam, gm);
    x[j] = xj;
    for (i = 0; i < b->n; i++) {
      double want = (gp[i] - gm[i]) / (2 * h), got = F[i][j];
      for (l = 0; l < b->m; l++) got += lam[l] * C[l][i][j];
      worst = fmax(worst, fabs(got - want) / (1 + fabs(want)));
    }
  }
  if (worst > 1e-5) {
    fprintf(stderr, "ipopt bench: HS %d: the Hessian written here is off "
            "by %g against differences\n", b->k, worst);
    return 1;
  }
  return 0;
}

/* One IPOPT solve from x0; time, counts, x and multipliers. */
static int ipopt_solve (bench_nlp *b, double *secs, double *x, double *lam,
                        int *status)
{
  double xl[MAXN], xu[MAXN], gl[3], gu[3], f, t0;
  IpoptProblem ip;
  int j, i;
  for (j = 0; j < b->n; j++) {
    xl[j] = b->p->set.kind == OL_SET_BOX && isfinite(b->p->set.lo[j])
            ? b->p->set.lo[j] : -2e19;
    xu[j] = b->p->set.kind == OL_SET_BOX && isfinite(b->p->set.hi[j])
            ? b->p->set.hi[j] : 2e19;
  }
  for (i = 0; i < b->m; i++) {
    gl[i] = 0;
    gu[i] = b->p->con.kind[i] == OL_CON_EQ ? 0 : 2e19;
  }
  b->nf = b->ng = b->it = 0;
  t0 = bench_now();
  ip = CreateIpoptProblem(b->n, xl, xu, b->m, gl, gu, b->m * b->n,
                          b->n * (b->n + 1) / 2, 0, ev_f, ev_g, ev_gf,
                          ev_jac, ev_h);
  if (ip == NULL) return 1;
  {
    /* IPOPT 3.11 takes char *, not const char * */
    char pl[] = "print_level", sb[] = "sb", yes[] = "yes";
    AddIpoptIntOption(ip, pl, 0);
    AddIpoptStrOption(ip, sb, yes);
  }
  SetIntermediateCallback(ip, ev_iter);
  memcpy(x, b->p->x0, (size_t)b->n * sizeof *x);
  *status = IpoptSolve(ip, x, NULL, &f, lam, NULL, NULL, b);
  FreeIpoptProblem(ip);
  *secs = bench_now() - t0;
  /* IPOPT's L = f + lam'g: optlab's lambda (grad f - lam'grad c) is -lam */
  for (i = 0; i < b->m; i++) lam[i] = -lam[i];
  return 0;
}

static int optlab_solve (bench_nlp *b, const char *method, double *secs,
                         double *x, double *lam, long *it, long *nf,
                         long *ng, int *reason)
{
  const ol_method_type *mt = ol_method_find(method);
  double par[8], t0;
  const double *l;
  ol_run_opts o;
  ol_run *r;
  ol_err e;
  int i;
  if (mt == NULL) return 1;
  for (i = 0; i < mt->nparams; i++) par[i] = mt->params[i].def;
  ol_run_opts_default(&o);
  o.iters = 100000;
  o.metrics = OL_MSET_OF(OL_MET_LOSS);
  t0 = bench_now();
  if ((r = ol_run_new(b->p, mt, par, &o, &e)) == NULL) {
    fprintf(stderr, "ipopt bench: %s\n", e.msg);
    return 1;
  }
  ol_run_advance(r, o.iters);
  *secs = bench_now() - t0;
  memcpy(x, ol_run_x(r), (size_t)b->n * sizeof *x);
  l = ol_constr_lambda(mt, ol_run_state(r));
  for (i = 0; i < b->m; i++) lam[i] = l != NULL ? l[i] : NAN;
  *it = ol_run_iter(r);
  *nf = ol_run_nfev(r);
  *ng = ol_run_ngev(r);
  *reason = ol_run_reason(r);
  ol_run_free(r);
  return 0;
}

/* IPOPT's optimality error and f's error at x, lam */
static void judge (bench_nlp *b, const double *x, const double *lam,
                   double *ferr, double *kkt)
{
  double f, g[MAXN], w[3 * MAXN];
  ol_kkt k;
  b->p->fdf(b->p->ud, x, &f, g, &b->e);
  *ferr = fabs(f - b->p->fstar) / fmax(1, fabs(b->p->fstar));
  *kkt = ol_constr_kkt(b->p, x, g, lam, &k, w, &b->e) == OL_OK ? k.err
         : NAN;
}

int main (int argc, char **argv)
{
  int reps = argc > 1 ? atoi(argv[1]) : 21, q, r, bad = 0;
  const ol_problem_type *pt = ol_problem_type_find("hs");
  double ratio[NPROB], ratio_al[NPROB];
  static const char *const methods[] = {"sqp", "auglag"};
  if (reps < 1 || reps > 1001) reps = 21;
  if (pt == NULL) return 1;
  printf("HS: IPOPT (exact Hessians, default options, tol 1e-8) against "
         "optim.sqp (tol 1e-9) and optim.auglag; median of %d solves\n",
         reps);
  for (q = 0; q < NPROB; q++) {
    bench_nlp b;
    ol_pval pv[1] = {{0}};
    double t[1001], ts[2][1001], pr[2][1001], x[MAXN], lam[3], ferr, kkt,
      tip, tm[2], xm[2][MAXN], lm[2][3];
    int status = 0, mi, reason[2] = {0, 0};
    long it = 0, nf = 0, ng = 0, itm[2] = {0, 0}, nfm[2] = {0, 0},
      ngm[2] = {0, 0};
    memset(&b, 0, sizeof b);
    pv[0].num = numbers[q];
    if ((b.p = ol_problem_new(pt, pv, &b.e)) == NULL) return 1;
    b.k = numbers[q];
    b.n = b.p->n;
    b.m = b.p->con.m;
    if (check_hessian(&b)) return 1;
    /* interleaved: each rep solves with IPOPT, then sqp, then auglag, so
    ** a change of the machine's speed falls on all three alike; the
    ** ratio is taken per rep (a pair), its median kept */
    for (r = 0; r < reps; r++) {
      if (ipopt_solve(&b, &t[r], x, lam, &status)) return 1;
      for (mi = 0; mi < 2; mi++)
        if (optlab_solve(&b, methods[mi], &ts[mi][r], xm[mi], lm[mi],
                         &itm[mi], &nfm[mi], &ngm[mi], &reason[mi]))
          return 1;
      pr[0][r] = t[r] / ts[0][r];
      pr[1][r] = t[r] / ts[1][r];
    }
    tip = bench_median(t, reps);
    judge(&b, x, lam, &ferr, &kkt);
    printf("HS %3d ipopt  it %3ld f %4ld g %4ld us/solve %8.1f ferr %.1e "
           "kkt %.1e%s\n", b.k, b.it, b.nf, b.ng, 1e6 * tip, ferr, kkt,
           status == 0 ? "" : "  (IPOPT status not Solve_Succeeded)");
    for (mi = 0; mi < 2; mi++) {
      tm[mi] = bench_median(ts[mi], reps);
      memcpy(x, xm[mi], sizeof x);
      memcpy(lam, lm[mi], sizeof lam);
      it = itm[mi];
      nf = nfm[mi];
      ng = ngm[mi];
      judge(&b, x, lam, &ferr, &kkt);
      printf("HS %3d %-6s it %3ld f %4ld g %4ld us/solve %8.1f ferr %.1e "
             "kkt %.1e%s\n", b.k, methods[mi], it, nf, ng, 1e6 * tm[mi],
             ferr, kkt, reason[mi] == OL_STOP_CONVERGED ? ""
             : "  (not converged)");
      if (reason[mi] != OL_STOP_CONVERGED || ferr > 1e-6 || !(kkt <= 1e-8))
        bad = 1;
    }
    ratio[q] = bench_median(pr[0], reps);
    ratio_al[q] = bench_median(pr[1], reps);
    printf("HS %3d pairs  sqp %.1fx (%.1f to %.1f)  auglag %.1fx (%.1f to "
           "%.1f) IPOPT's time over ours, median and range of %d "
           "interleaved solves\n", b.k, ratio[q], pr[0][0], pr[0][reps - 1],
           ratio_al[q], pr[1][0], pr[1][reps - 1], reps);
    ol_problem_free(b.p);
  }
  {
    double med = bench_median(ratio, NPROB);
    printf("HS sqp is %.1fx faster per solve than IPOPT (median over %d "
           "problems; least %.1fx, most %.1fx; target >= 5x); auglag "
           "%.1fx\n", med, NPROB, ratio[0], ratio[NPROB - 1],
           bench_median(ratio_al, NPROB));
  }
  if (bad) printf("HS warning: an optlab solve missed f* (1e-6) or kkt "
                  "(1e-8)\n");
  return 0;
}
