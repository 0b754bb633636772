/*
** tests/c/t_vi.c -- the variational family's estimator and exact metrics
** (core/vi/vi.c) against closed forms worked here for a Gaussian target
** p = N(mu, Sigma), 3-D with a dense Sigma (P = Sigma^-1 by cofactors,
** Sigma's Cholesky factor by hand, independent of the core's LAPACK):
**
**   - the one-draw gradient estimator, plain and stl, mean-field and
**     full-rank, averages to the exact gradient of the negative ELBO
**       d/dm = P (m - mu),  d/dC_ij = (P C)_ij (j < i),
**       d/domega_i = (P C)_ii C_ii - 1
**     within 4 standard errors per coordinate (20000 draws, seeded);
**   - stl's estimate is 0 for every draw when q = p (1e-12);
**   - kl: 0 at q = p (full-rank, 1e-12), 1/2 (log det Sigma + sum_i log
**     P_ii) at the mean-field optimum (1e-12), NaN on banana (a known mean
**     and covariance, not Gaussian); entropy n/2 (1 + log 2 pi) +
**     sum log C_ii (1e-14);
**   - elbo + kl = log Z = n/2 log 2 pi + 1/2 log det Sigma at a point
**     off the optimum within 4 elbo_se (20000 fresh draws);
**   - gradient evaluations: 2 (the Gaussian check) + evals at init, then
**     samples + evals per step;
**   - r.cov is C C' (1e-14), r.mean is m;
**   - with average = true (the default): r.mean, r.cov, r.mean_se,
**     r.cov_se, r.drift and r.window are the averaging window's,
**     recomputed here from the recorded iterates (test_average, 1e-12
**     relative).
** Contexts without a run (orc NULL: exact oracles, counted).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "tap.h"
#include "vi/vi.h"

#define N 3
#define SEED 20261202u
#define PI 3.14159265358979323846

extern const ol_method_type ol_vi_meanfield, ol_vi_fullrank;

static const double Sig[N * N] = {2, 0.9, -0.5, 0.9, 1, 0.3, -0.5, 0.3, 0.8};
static const double Mu[N] = {1, -2, 0.5};
static double Pr[N * N], Lc[N * N], detS;

/* P = Sigma^-1 by cofactors, det Sigma, and Sigma = Lc Lc' by hand. */
static void closed_forms (void)
{
  const double *a = Sig;
  int i, j;
  double c[N * N];
  c[0] = a[4] * a[8] - a[5] * a[7];
  c[1] = -(a[3] * a[8] - a[5] * a[6]);
  c[2] = a[3] * a[7] - a[4] * a[6];
  c[3] = -(a[1] * a[8] - a[2] * a[7]);
  c[4] = a[0] * a[8] - a[2] * a[6];
  c[5] = -(a[0] * a[7] - a[1] * a[6]);
  c[6] = a[1] * a[5] - a[2] * a[4];
  c[7] = -(a[0] * a[5] - a[2] * a[3]);
  c[8] = a[0] * a[4] - a[1] * a[3];
  detS = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) Pr[i * N + j] = c[j * N + i] / detS;
  memset(Lc, 0, sizeof Lc);
  Lc[0] = sqrt(a[0]);
  Lc[3] = a[3] / Lc[0];
  Lc[4] = sqrt(a[4] - Lc[3] * Lc[3]);
  Lc[6] = a[6] / Lc[0];
  Lc[7] = (a[7] - Lc[6] * Lc[3]) / Lc[4];
  Lc[8] = sqrt(a[8] - Lc[6] * Lc[6] - Lc[7] * Lc[7]);
}

static ol_problem *gaussian (void)
{
  const ol_problem_type *t = ol_problem_type_find("gaussian");
  ol_pval v[16];
  ol_err e;
  int i;
  ol_problem *p;
  memset(v, 0, sizeof v);
  for (i = 0; i < t->nparams; i++) v[i].num = t->params[i].def;
  v[0].num = N;
  v[3].arr = Sig;
  v[3].rows = v[3].cols = N;
  v[4].arr = Mu;
  v[4].rows = 1;
  v[4].cols = N;
  p = ol_problem_new(t, v, &e);
  if (p == NULL) diag("gaussian: %s", e.msg);
  return p;
}

typedef struct fixture {
  ol_ctx c;
  ol_rng rng;
  double x[N];
  ol_vi s;
} fixture;

/* An ol_vi of the given family on p started at x0 with sd0, evals,
** samples and average (0: the bare iterate is returned); 0 on failure
** (diag()ed). */
static int start (fixture *f, const ol_problem *p, int diag_, int stl,
                  const double *x0, double sd0, int evals, int samples,
                  int average)
{
  double par[OL_VI_NPARAMS];
  ol_err e;
  int i;
  memset(f, 0, sizeof *f);
  for (i = 0; i < OL_VI_NPARAMS; i++)
    par[i] = (diag_ ? ol_vi_meanfield_params : ol_vi_fullrank_params)[i].def;
  par[2] = samples;
  par[3] = stl;
  par[7] = sd0;
  par[8] = evals;
  par[9] = average;
  ol_rng_seed(&f->rng, SEED, (uint64_t)(2 * diag_ + stl));
  memcpy(f->x, x0, sizeof(double) * (size_t)p->n);   /* n <= N */
  f->c.p = p;
  f->c.n = p->n;
  f->c.x = f->x;
  f->c.sched = 1;
  f->c.rng = &f->rng;
  if (ol_vi_init(&f->s, diag_, par, &f->c, &e) != OL_OK) {
    diag("init: %s", e.msg);
    ol_vi_fini(&f->s);
    return 0;
  }
  return 1;
}

/* Set q's parameters: m, the diagonal d and the strictly lower part of
** C (row-major n x n, full-rank only). */
static void setq (ol_vi *s, const double *m, const double *C)
{
  int i, j;
  memcpy(s->theta, m, sizeof(double) * N);
  for (i = 0; i < N; i++) {
    s->d[i] = C[i * N + i];
    if (s->diag) s->theta[N + i] = log(C[i * N + i]);
    else {
      double *row = s->theta + N + i * (i + 1) / 2;
      for (j = 0; j < i; j++) row[j] = C[i * N + j];
      row[i] = log(C[i * N + i]);
    }
  }
}

/* The exact gradient of L = E_q U - H at (m, C) in theta's layout. */
static void exact_grad (int diag_, const double *m, const double *C,
                        double *g)
{
  double PC[N * N];
  int i, j, k;
  for (i = 0; i < N; i++) {
    g[i] = 0;
    for (j = 0; j < N; j++) g[i] += Pr[i * N + j] * (m[j] - Mu[j]);
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      PC[i * N + j] = 0;
      for (k = 0; k < N; k++) PC[i * N + j] += Pr[i * N + k] * C[k * N + j];
    }
  for (i = 0; i < N; i++) {
    if (diag_) g[N + i] = Pr[i * N + i] * C[i * N + i] * C[i * N + i] - 1;
    else {
      double *row = g + N + i * (i + 1) / 2;
      for (j = 0; j < i; j++) row[j] = PC[i * N + j];
      row[i] = PC[i * N + i] * C[i * N + i] - 1;
    }
  }
}

static void test_unbiased (const ol_problem *p)
{
  static const double m[N] = {1.3, -2.2, 1.0};
  static const double Cf[N * N] = {0.8, 0, 0, 0.3, 1.1, 0, -0.2, 0.4, 0.6};
  static const double Cd[N * N] = {0.8, 0, 0, 0, 1.1, 0, 0, 0, 0.6};
  const int D = 20000;
  int diag_, stl;
  for (diag_ = 0; diag_ <= 1; diag_++)
    for (stl = 0; stl <= 1; stl++) {
      fixture f;
      double want[N + N * (N + 1) / 2], sum[N + N * (N + 1) / 2],
        sq[N + N * (N + 1) / 2], u, zmax = 0;
      const double *C = diag_ ? Cd : Cf;
      int k, i, np, okrun = 1;
      if (!start(&f, p, diag_, stl, m, 1, 0, 1, 0)) {
        ok(0, "vi: start");
        continue;
      }
      np = f.s.np;
      setq(&f.s, m, C);
      exact_grad(diag_, m, C, want);
      memset(sum, 0, sizeof sum);
      memset(sq, 0, sizeof sq);
      for (k = 0; k < D && okrun; k++) {
        ol_err e;
        if (ol_vi_draw(&f.s, &f.c, f.s.g1, &u, &e) != OL_OK) okrun = 0;
        for (i = 0; i < np; i++) {
          sum[i] += f.s.g1[i];
          sq[i] += f.s.g1[i] * f.s.g1[i];
        }
      }
      for (i = 0; i < np; i++) {
        double mean = sum[i] / D, var = sq[i] / D - mean * mean;
        double z = fabs(mean - want[i]) / sqrt(var / D);
        if (z > zmax) zmax = z;
      }
      diag("%s%s: max |mean - exact| / se over %d coordinates = %.2f "
           "(%d draws, seed %u)", diag_ ? "meanfield" : "fullrank",
           stl ? " stl" : "", np, zmax, D, SEED);
      ok(okrun && zmax <= 4, "vi: %s%s: the one-draw gradient averages to "
         "the exact ELBO gradient within 4 se per coordinate",
         diag_ ? "meanfield" : "fullrank", stl ? " (stl)" : "");
      ol_vi_fini(&f.s);
    }
}

static void test_stl_zero (const ol_problem *p)
{
  fixture f;
  double u, worst = 0;
  int k, i;
  if (!start(&f, p, 0, 1, Mu, 1, 0, 1, 0)) {
    ok(0, "vi: start");
    return;
  }
  setq(&f.s, Mu, Lc);
  for (k = 0; k < 100; k++) {
    ol_err e;
    if (ol_vi_draw(&f.s, &f.c, f.s.g1, &u, &e) != OL_OK) worst = INFINITY;
    for (i = 0; i < f.s.np; i++) worst = fmax(worst, fabs(f.s.g1[i]));
  }
  diag("stl at q = p: max |g| over 100 draws %.2g", worst);
  ok(worst <= 1e-12, "vi: fullrank stl: the estimate is 0 at q = p for "
     "every draw");
  ol_vi_fini(&f.s);
}

static void test_metrics (const ol_problem *p)
{
  static const double m[N] = {1.3, -2.2, 1.0};
  fixture f;
  double Cd[N * N] = {0}, kl, klw, h, hw, logZ, S[N * N];
  const double *v;
  int i, j, k, rows, cols;
  long g0;
  /* (1) full-rank q = p: kl 0; cov = C C' */
  if (!start(&f, p, 0, 0, Mu, 1, 0, 1, 0)) return;
  ok(f.s.gauss == 1, "vi: the gaussian problem is recognised as Gaussian");
  setq(&f.s, Mu, Lc);
  kl = ol_vi_probe(&f.s, OL_MET_KL, &f.c);
  is_near(kl, 0, 1e-12, "vi: fullrank: kl = 0 at q = p");
  ok(ol_method_result(&ol_vi_fullrank, &f.s, "cov", &v, &rows, &cols) &&
     rows == N && cols == N, "vi: fullrank has a cov result, n x n");
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      S[i * N + j] = 0;
      for (k = 0; k < N; k++) S[i * N + j] += Lc[i * N + k] * Lc[j * N + k];
    }
  ok(v != NULL && olt_agree(v, S, N * N, 1e-14), "vi: r.cov is C C'");
  ok(ol_method_result(&ol_vi_fullrank, &f.s, "mean", &v, &rows, &cols) &&
     rows == 1 && cols == N && olt_agree(v, Mu, N, 0), "vi: r.mean is m");
  ol_vi_fini(&f.s);
  /* (2) mean-field optimum: d_i^2 = 1 / P_ii */
  if (!start(&f, p, 1, 0, Mu, 1, 0, 1, 0)) return;
  klw = 0.5 * log(detS);
  hw = 0.5 * N * (1 + log(2 * PI));
  for (i = 0; i < N; i++) {
    Cd[i * N + i] = 1 / sqrt(Pr[i * N + i]);
    klw += 0.5 * log(Pr[i * N + i]);
    hw += log(Cd[i * N + i]);
  }
  setq(&f.s, Mu, Cd);
  kl = ol_vi_probe(&f.s, OL_MET_KL, &f.c);
  h = ol_vi_probe(&f.s, OL_MET_ENTROPY, &f.c);
  diag("meanfield optimum: kl %.15g (closed form %.15g)", kl, klw);
  is_near(kl, klw, 1e-12, "vi: meanfield: kl at the optimum is 1/2 (log "
          "det Sigma + sum log P_ii)");
  is_near(h, hw, 1e-14, "vi: meanfield: entropy n/2 (1 + log 2 pi) + "
          "sum log C_ii");
  ol_vi_fini(&f.s);
  /* (3) elbo + kl = log Z off the optimum; the evaluation counts */
  if (!start(&f, p, 0, 0, m, 0.8, 20000, 1, 0)) return;
  logZ = 0.5 * N * log(2 * PI) + 0.5 * log(detS);
  kl = ol_vi_probe(&f.s, OL_MET_KL, &f.c);
  diag("elbo %.5f +- %.5f, kl %.5f, log Z %.5f", f.s.elbo, f.s.elbo_se, kl,
       logZ);
  ok(fabs(f.s.elbo + kl - logZ) <= 4 * f.s.elbo_se && f.s.elbo_se < 0.1,
     "vi: elbo + kl = log Z within 4 elbo_se (20000 fresh draws)");
  is_int(f.c.ngev, 2 + 20000, "vi: init evaluates 2 + evals gradients");
  ol_vi_fini(&f.s);
  if (!start(&f, p, 1, 0, m, 0.8, 7, 5, 0)) return;
  g0 = f.c.ngev;
  {
    ol_err e;
    ok(ol_vi_step(&f.s, &f.c, &e) == OL_OK && f.c.ngev - g0 == 5 + 7,
       "vi: a step evaluates samples + evals gradients");
  }
  ok(memcmp(f.x, f.s.theta, sizeof f.x) == 0, "vi: c->x is m after a step");
  ol_vi_fini(&f.s);
  /* (4) banana: a known mean and covariance, not Gaussian */
  {
    ol_problem *b = olt_problem("banana", NULL, NULL);
    if (b != NULL && start(&f, b, 0, 0, b->x0, 1, 0, 1, 0)) {
      ok(f.s.gauss == 0 && isnan(ol_vi_probe(&f.s, OL_MET_KL, &f.c)),
         "vi: kl is NaN on banana (not Gaussian)");
      ol_vi_fini(&f.s);
    }
    else ok(0, "vi: banana");
    ol_problem_free(b);
  }
}

/* C C' of parameters th (n = N, packed as in vi.h) into S. */
static void cov_here (int diag_, const double *th, double *S)
{
  double C[N * N];
  int i, j, k;
  memset(C, 0, sizeof C);
  for (i = 0; i < N; i++) {
    if (diag_) C[i * N + i] = exp(th[N + i]);
    else {
      const double *row = th + N + i * (i + 1) / 2;
      for (j = 0; j < i; j++) C[i * N + j] = row[j];
      C[i * N + i] = exp(row[i]);
    }
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      S[i * N + j] = 0;
      for (k = 0; k < N; k++) S[i * N + j] += C[i * N + k] * C[j * N + k];
    }
}

/* The averaging window (average = true) against the same sums done here
** from the recorded iterates theta_1 .. theta_T: for 2^k <= T < 2^(k+1)
** the window is [a, T], a = 2^(k-1) (1 for T < 2); r.mean and r.cov are
** m and C C' of the window's mean theta; the batches are the complete
** runs of L = max(1, a / 8) iterates from a on (full-rank: at least
** 2 n / (samples + evals), 6 here), and mean_se (cov_se) is
** the sd over the batches of the batch's mean m (of C C' of its mean
** theta) over sqrt(batches); drift the t statistic of the least-squares
** slope of the batch means of m and of the log sds against their index
** (two rows; NaN below 8 batches).  Checked at T = 1, 3, 64, 300 (1e-12
** relative), both families. */
#define TMAX 300
static void test_average (const ol_problem *p)
{
  static const double m0[N] = {1.3, -2.2, 1.0};
  static double rec[TMAX + 1][N + N * (N + 1) / 2];
  static const long checks[] = {1, 3, 64, TMAX};
  int diag_;
  for (diag_ = 0; diag_ <= 1; diag_++) {
    fixture f;
    int np, i, c, good = 1;
    long t, ci = 0;
    double worst = 0;
    if (!start(&f, p, diag_, !diag_, m0, 1, 0, 1, 1)) {
      ok(0, "vi: start");
      continue;
    }
    np = f.s.np;
    for (t = 1; t <= TMAX && good; t++) {
      ol_err e;
      const double *v, *win;
      double avg[N + N * (N + 1) / 2], S[N * N], Sw[N * N];
      double bm[TMAX][2 * N], bS[TMAX][N * N];
      long a = 1, L, nb, b, k;
      int rows, cols;
      if (ol_vi_step(&f.s, &f.c, &e) != OL_OK) {
        good = 0;
        break;
      }
      memcpy(rec[t], f.s.theta, sizeof(double) * (size_t)np);
      if (t != checks[ci]) continue;
      ci++;
      while (4 * a <= t) a *= 2;     /* a = 2^(k-1) for 2^k <= t */
      L = a / 8 > 1 ? a / 8 : 1;
      if (!diag_ && L < 2 * N) L = 2 * N;   /* 2 n / (samples + evals) */
      nb = (t - a + 1) / L;
      for (i = 0; i < np; i++) {
        avg[i] = 0;
        for (k = a; k <= t; k++) avg[i] += rec[k][i];
        avg[i] /= (double)(t - a + 1);
      }
      cov_here(diag_, avg, Sw);
      for (b = 0; b < nb; b++) {
        double tb[N + N * (N + 1) / 2];
        for (i = 0; i < np; i++) {
          tb[i] = 0;
          for (k = a + b * L; k < a + (b + 1) * L; k++) tb[i] += rec[k][i];
          tb[i] /= (double)L;
        }
        for (i = 0; i < N; i++) {   /* m, then the log sds omega */
          bm[b][i] = tb[i];
          bm[b][N + i] = diag_ ? tb[N + i] : tb[N + i * (i + 1) / 2 + i];
        }
        cov_here(diag_, tb, bS[b]);
      }
      good = ol_vi_named(&f.s, "mean", &v, &rows, &cols) && cols == N;
      for (i = 0; good && i < N; i++)
        worst = fmax(worst, fabs(v[i] - avg[i]) / (1 + fabs(avg[i])));
      good = good && ol_vi_named(&f.s, "cov", &v, &rows, &cols);
      memcpy(S, v, sizeof S);
      for (i = 0; good && i < N * N; i++)
        worst = fmax(worst, fabs(S[i] - Sw[i]) / (1 + fabs(Sw[i])));
      good = good && ol_vi_named(&f.s, "window", &win, &rows, &cols) &&
        cols == 4 && win[0] == (double)a && win[1] == (double)t &&
        win[2] == (double)nb && win[3] == (double)L;
      if (!good) {
        diag("t %ld: window %g..%g, %g batches of %g; want %ld..%ld, %ld "
             "of %ld", t, win[0], win[1], win[2], win[3], a, t, nb, L);
        break;
      }
      for (c = 0; c < 2 && good; c++) {
        int K = c == 0 ? N : N * N;
        good = ol_vi_named(&f.s, c == 0 ? "mean_se" : "cov_se", &v, &rows,
                           &cols);
        for (i = 0; good && i < K; i++) {
          double mu = 0, ss = 0, se;
          for (b = 0; b < nb; b++) mu += (c == 0 ? bm[b][i] : bS[b][i]);
          mu /= (double)nb;
          for (b = 0; b < nb; b++) {
            double x = (c == 0 ? bm[b][i] : bS[b][i]) - mu;
            ss += x * x;
          }
          se = nb >= 2 ? sqrt(ss / (double)(nb - 1) / (double)nb) : NAN;
          if (nb < 2) good = isnan(v[i]);
          else worst = fmax(worst, fabs(v[i] - se) / (1e-300 + se));
        }
      }
      /* drift: the slope's t of the line through the batch means */
      good = good && ol_vi_named(&f.s, "drift", &v, &rows, &cols) &&
        rows == 2 && cols == N;
      for (i = 0; good && i < 2 * N; i++) {
        double bb = (double)(nb - 1) / 2, sbb = 0, xb = 0, sxb = 0, rss = 0;
        double beta, tt;
        if (nb < 8) {
          good = isnan(v[i]);
          continue;
        }
        for (b = 0; b < nb; b++) {
          sbb += (b - bb) * (b - bb);
          xb += bm[b][i] / (double)nb;
        }
        for (b = 0; b < nb; b++) sxb += (b - bb) * (bm[b][i] - xb);
        beta = sxb / sbb;
        for (b = 0; b < nb; b++) {
          double r = bm[b][i] - xb - beta * (b - bb);
          rss += r * r;
        }
        tt = beta / sqrt(rss / (double)(nb - 2) / sbb);
        worst = fmax(worst, fabs(v[i] - tt) / (1e-300 + fabs(tt)));
      }
      diag("%s t = %ld: window %ld..%ld, %ld batches of %ld", diag_ ?
           "meanfield" : "fullrank", t, a, t, nb, L);
    }
    diag("%s: worst relative difference from the sums done here %.2g",
         diag_ ? "meanfield" : "fullrank", worst);
    ok(good && ci == 4 && worst <= 1e-12, "vi: %s: r.mean, r.cov are the "
       "window's average, mean_se and cov_se its batch means' (t = 1, 3, "
       "64, %d)", diag_ ? "meanfield" : "fullrank", TMAX);
    ok(memcmp(f.x, f.s.rt, sizeof f.x) == 0, "vi: %s: c->x is the returned "
       "mean", diag_ ? "meanfield" : "fullrank");
    ol_vi_fini(&f.s);
  }
}

int main (void)
{
  ol_problem *p;
  closed_forms();
  diag("seed %u", SEED);
  if ((p = gaussian()) == NULL) {
    ok(0, "vi: gaussian problem");
    return done();
  }
  test_unbiased(p);
  test_stl_zero(p);
  test_metrics(p);
  test_average(p);
  ol_problem_free(p);
  return done();
}
