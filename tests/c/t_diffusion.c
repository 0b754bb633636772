/*
** tests/c/t_diffusion.c -- the diffusion samplers with an exact score and
** the masked-diffusion toy (issue 13, "Correctness"), against truths
** computed here:
**   - problem.gmm: log p by the closed-form 2 x 2 inverse and determinant,
**     and the diffused score (VP and VE levels) against central
**     differences of log p_t, to 1e-6 relative;
**   - problem.tokens: its mi recomputed by enumerating the V^L states;
**     diffusion.masked's exact KL is 0 to 1e-12 for independent tokens
**     (mi = 0) at every T, equals mi for T = 1 (the product of the
**     marginals) and is 0 for T = L (the chain rule);
**   - every sampler (ddpm, ddim eta = 0.5, pfode Euler and Heun, sde; and
**     ddpm, pfode Heun, sde on the cosine and VE schedules) on a 2-D
**     8-mode ring with unequal weights, 300 steps, 3000 particles (seed
**     7): each component's share within 3 standard errors of w_k, kl
**     falls from 5 steps to 300, w2 within 3 sqrt(tr Sigma / N) (the
**     sampling error of the particles' mean);
**   - the kNN entropy of a Gaussian's particles within 3 sd of the exact
**     1/2 log det(2 pi e S);
**   - the injected score error's bias and mean square, eps b / sqrt 2 and
**     eps^2, within 4 standard errors;
**   - pfode Euler = ddim eta = 0 and ddpm = ddim eta = 1 particle for
**     particle (same seed) to 1e-9: the identities of diffuse.h;
**   - the samplers refuse a target other than a gmm, masked one other
**     than tokens, with a message naming the problem they need;
**   - diffusion.rd (Chen, Daras & Dimakis 2023) on a 1-D Gaussian target
**     N(m, v0), whose diffused score and probability flow are closed
**     forms: one step by hand (the restored point is the Gaussian
**     posterior mean E[x_r | x_t], the degraded one the forward process
**     driven by the noise back to x_t) to 1e-12; the step's local error
**     against the exact flow x_b' = m + (x_b - m) sqrt((v0 + sigma'^2) /
**     (v0 + sigma^2)) falls as h^2 over h = 0.08, 0.04, 0.02 (slopes in
**     [1.8, 2.2]: a first-order method), as does DDIM's (restore = 0);
**     restore = 0 is ddim eta = 0 particle for particle to 1e-12; 20000
**     particles (seed 7, 200 steps) have the mean and variance of the
**     sampler's exact (affine, Gaussian) law within 4 standard errors,
**     and that law's variance bias against p_delta halves from 200 to
**     400 steps (global first order).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "olt.h"
#include "diffusion/diffuse.h"
#include "diffusion/rd.h"
#include "problems/gmm.h"
#include "problems/tokens.h"
#include "tap.h"

#define SEED 7
#define NSTEPS 300
#define NPART 3000
#define PI 3.14159265358979323846

static ol_problem *mkgmm (int K, const double *w, const double *mu,
                          const double *cov, int ccols)
{
  ol_pval v[3];
  ol_err e;
  ol_problem *p;
  memset(v, 0, sizeof v);
  v[0].arr = w; v[0].rows = 1; v[0].cols = K;
  v[1].arr = mu; v[1].rows = K; v[1].cols = 2;
  v[2].arr = cov; v[2].rows = K; v[2].cols = ccols;
  p = ol_problem_new(ol_problem_type_find("gmm"), v, &e);
  if (p == NULL) diag("gmm: %s", e.msg);
  return p;
}

/* log of sum_k w_k N(x; mu_k, S_k) by 2 x 2 closed forms */
static double logp2 (int K, const double *w, const double *mu,
                     const double *S, const double *x)
{
  double sum = 0;
  int k;
  for (k = 0; k < K; k++) {
    const double *c = S + 4 * k;
    double det = c[0] * c[3] - c[1] * c[2];
    double a = x[0] - mu[2 * k], b = x[1] - mu[2 * k + 1];
    double q = (c[3] * a * a - 2 * c[1] * a * b + c[0] * b * b) / det;
    sum += w[k] * exp(-0.5 * q) / (2 * PI * sqrt(det));
  }
  return log(sum);
}

static void test_gmm (void)
{
  static const double w[3] = {0.2, 0.5, 0.3};
  static const double mu[6] = {-1, 0, 2, 1, 0, -2};
  static const double S[12] = {1, 0.3, 0.3, 0.5, 0.4, -0.1, -0.1, 0.8,
                               2, 0.9, 0.9, 1};
  static const double pts[4][2] = {{0, 0}, {1.5, -0.7}, {-3, 2}, {4, 4}};
  ol_problem *p = mkgmm(3, w, mu, S, 4);
  const ol_gmm *G = ol_gmm_of(p);
  double lv[9], work[32], sc[2], f, g[2], worst = 0, worstf = 0;
  static const double lev[3][2] = {{1, 0}, {0.6, 0.8}, {1, 4}};
  int i, l, j;
  ok(G != NULL && G->K == 3 && G->n == 2, "gmm: the accessor finds K = 3, "
     "n = 2");
  if (G == NULL) return;
  for (i = 0; i < 4; i++) {
    ol_err e;
    p->fdf(p->ud, pts[i], &f, g, &e);
    worstf = fmax(worstf, fabs(-f - logp2(3, w, mu, S, pts[i])));
  }
  ok(worstf < 1e-12, "gmm: -U is the closed-form log density (err %.2g)",
     worstf);
  /* (s, sigma^2) levels: the target, a VP level, a VE level */
  for (l = 0; l < 3; l++) {
    double s = lev[l][0], s2 = lev[l][1];
    ol_gmm_level(G, s, s2, lv);
    for (i = 0; i < 4; i++) {
      ol_gmm_eval(G, lv, s, pts[i], sc, NULL, work);
      for (j = 0; j < 2; j++) {
        double xp[2] = {pts[i][0], pts[i][1]}, xm[2], h = 1e-5, fd;
        xm[0] = xp[0]; xm[1] = xp[1];
        xp[j] += h;
        xm[j] -= h;
        fd = (ol_gmm_eval(G, lv, s, xp, NULL, NULL, work)
              - ol_gmm_eval(G, lv, s, xm, NULL, NULL, work)) / (2 * h);
        worst = fmax(worst, fabs(fd - sc[j]) / fmax(1, fabs(sc[j])));
      }
    }
  }
  ok(worst < 1e-6, "gmm: the diffused score matches central differences "
     "of log p_t at VP and VE levels (rel err %.2g)", worst);
  {
    /* p_t of the VP level is the mixture of N(s mu, s^2 S + s^2 sigma^2 I) */
    double mu2[6], S2[12];
    int k;
    for (k = 0; k < 6; k++) mu2[k] = 0.6 * mu[k];
    for (k = 0; k < 12; k++)
      S2[k] = 0.36 * (S[k] + ((k % 4 == 0 || k % 4 == 3) ? 0.8 : 0));
    ol_gmm_level(G, 0.6, 0.8, lv);
    f = ol_gmm_eval(G, lv, 0.6, pts[1], NULL, NULL, work);
    ok(fabs(f - logp2(3, w, mu2, S2, pts[1])) < 1e-12, "gmm: log p_t is "
       "the closed-form diffused mixture (err %.2g)",
       fabs(f - logp2(3, w, mu2, S2, pts[1])));
  }
  ol_problem_free(p);
}

static double runkl (ol_problem *p, int T, int *okrun)
{
  double par[8];
  const ol_method_type *m = olt_method("masked", par, "steps", (double)T,
                                       (char *)NULL);
  ol_run_opts o = olt_opts(100, 0, OL_MSET_OF(OL_MET_KL));
  ol_run *r = olt_run(p, m, par, &o);
  double kl;
  if (r == NULL) { *okrun = 0; return NAN; }
  ol_run_advance(r, 100);
  *okrun = ol_run_reason(r) == OL_STOP_CONVERGED;
  kl = ol_run_last(r, OL_MET_KL);
  ol_run_free(r);
  return kl;
}

static void test_tokens (void)
{
  static const double mis[3] = {0, 0.5, 1.2};
  int i, T, okr;
  for (i = 0; i < 3; i++) {
    ol_problem *p = olt_problem("tokens", NULL, "L", 4.0, "V", 3.0, "mi",
                                mis[i], (char *)NULL);
    const ol_tokens *tk = ol_tokens_of(p);
    double H = 0, mi;
    int st, x[4], j;
    if (tk == NULL) { ok(0, "tokens: made"); continue; }
    for (st = 0; st < 81; st++) {
      int s = st;
      double q;
      for (j = 3; j >= 0; j--) { x[j] = s % 3; s /= 3; }
      q = ol_tokens_prob(tk, x);
      if (q > 0) H -= q * log(q);
    }
    mi = 4 * log(3.0) - H;
    ok(fabs(mi - mis[i]) < 1e-10, "tokens: mi = %g is L log V - H by "
       "enumeration (%.12g)", mis[i], mi);
    for (T = 1; T <= 4; T++) {
      double kl = runkl(p, T, &okr);
      if (mis[i] == 0)
        ok(okr && fabs(kl) <= 1e-12, "masked: KL = 0 to 1e-12 for "
           "independent tokens at T = %d (%.3g)", T, kl);
      else if (T == 1)
        ok(okr && fabs(kl - mis[i]) < 1e-10, "masked: KL = mi for T = 1 "
           "(mi %g, KL %.12g)", mis[i], kl);
      else if (T == 4)
        ok(okr && fabs(kl) < 1e-12, "masked: KL = 0 for T = L (mi %g: "
           "%.3g)", mis[i], kl);
      else
        ok(okr && kl > 0 && kl < mis[i] / T * 1.5, "masked: 0 < KL < 1.5 "
           "mi / T at T = %d (mi %g, KL %.4g)", T, mis[i], kl);
    }
    ol_problem_free(p);
  }
}

typedef struct samp {
  const char *name;
  const char *key;
  double val;
  int sched;        /* OL_DFS_LINEAR, OL_DFS_COSINE, OL_DFS_VE */
} samp;

static ol_run *mkrun (ol_problem *p, const samp *s, int steps, int N)
{
  double par[16];
  const ol_method_type *m = olt_method(s->name, par, "steps", (double)steps,
                                       "samples", (double)N, "schedule",
                                       (double)s->sched, s->key, s->val,
                                       (char *)NULL);
  ol_run_opts o = olt_opts(steps + 10, 0, OL_MSET_EMPTY);
  ol_run *r;
  o.seed = SEED;
  r = olt_run(p, m, par, &o);
  if (r != NULL) ol_run_advance(r, steps + 10);
  return r;
}

static void test_samplers (void)
{
  static const samp ss[] = {
    {"ddpm", NULL, 0, OL_DFS_LINEAR}, {"ddim", "eta", 0.5, OL_DFS_LINEAR},
    {"pfode", "solver", 0, OL_DFS_LINEAR}, {"pfode", "solver", 1,
                                            OL_DFS_LINEAR},
    {"sde", NULL, 0, OL_DFS_LINEAR}, {"ddpm", NULL, 0, OL_DFS_COSINE},
    {"ddpm", NULL, 0, OL_DFS_VE}, {"pfode", "solver", 1, OL_DFS_COSINE},
    {"pfode", "solver", 1, OL_DFS_VE}, {"sde", NULL, 0, OL_DFS_VE}};
  static const char *const sname[] = {"linear", "cosine", "ve"};
  double w[8] = {1, 2, 3, 2, 1, 1, 2, 4};
  ol_problem *p = olt_problem("gmm", NULL, (char *)NULL);
  ol_pval v[3];
  ol_err e;
  size_t i;
  int k;
  memset(v, 0, sizeof v);
  v[0].arr = w; v[0].rows = 1; v[0].cols = 8;
  ol_problem_free(p);
  p = ol_problem_new(ol_problem_type_find("gmm"), v, &e);
  diag("samplers: seed %d", SEED);
  for (i = 0; i < sizeof ss / sizeof ss[0]; i++) {
    char lab[48] = "";
    ol_run *r = mkrun(p, &ss[i], NSTEPS, NPART);
    ol_run *r5 = mkrun(p, &ss[i], 5, NPART);
    const double *sh, *se;
    int rows, cols, good = 1;
    double worst = 0, kl, kl5;
    if (ss[i].key != NULL && strcmp(ss[i].key, "solver") == 0)
      snprintf(lab, sizeof lab, " %s", ss[i].val == 0 ? "euler" : "heun");
    else if (ss[i].key != NULL)
      snprintf(lab, sizeof lab, " %s=%g", ss[i].key, ss[i].val);
    snprintf(lab + strlen(lab), sizeof lab - strlen(lab), " %s",
             sname[ss[i].sched]);
    if (r == NULL || r5 == NULL) { ok(0, "%s: runs", ss[i].name); continue; }
    ok(ol_run_reason(r) == OL_STOP_CONVERGED, "%s%s: stops after its "
       "steps (%s)", ss[i].name, lab, ol_run_message(r));
    ol_method_result(ol_run_method(r), ol_run_state(r), "shares", &sh,
                     &rows, &cols);
    ol_method_result(ol_run_method(r), ol_run_state(r), "shares_se", &se,
                     &rows, &cols);
    for (k = 0; k < 8; k++) {
      double z = fabs(sh[k] - w[k] / 16) / se[k];
      if (!(z <= 3)) good = 0;
      worst = fmax(worst, z);
    }
    ok(good, "%s%s: every mode weight within 3 standard errors with %d "
       "steps (worst %.2f se)", ss[i].name, lab, NSTEPS, worst);
    kl = ol_run_last(r, OL_MET_KL);
    kl5 = ol_run_last(r5, OL_MET_KL);
    ok(kl < kl5, "%s%s: kl falls with the steps (5: %.4f, %d: %.4f)",
       ss[i].name, lab, kl5, NSTEPS, kl);
    /* W2 of the Gaussian fit: its sampling error is about
    ** sqrt(tr Sigma / N) (the mean's) */
    {
      double w2 = ol_run_last(r, OL_MET_W2), tr = p->cov[0] + p->cov[3];
      ok(w2 < 3 * sqrt(tr / NPART), "%s%s: w2 %.4f below 3 sqrt(tr Sigma "
         "/ N) = %.4f", ss[i].name, lab, w2, 3 * sqrt(tr / NPART));
    }
    ol_run_free(r);
    ol_run_free(r5);
  }
  /* identities: pfode euler = ddim 0, ddpm = ddim 1 */
  {
    static const samp a[2][2] = {
      {{"pfode", "solver", 0, OL_DFS_LINEAR}, {"ddim", "eta", 0, OL_DFS_LINEAR}},
      {{"ddpm", NULL, 0, OL_DFS_LINEAR}, {"ddim", "eta", 1, OL_DFS_LINEAR}}};
    int q;
    for (q = 0; q < 2; q++) {
      ol_run *r1 = mkrun(p, &a[q][0], 20, 200), *r2 = mkrun(p, &a[q][1], 20,
                                                             200);
      const double *x1, *x2;
      int rows, cols, j;
      double d = 0;
      ol_method_result(ol_run_method(r1), ol_run_state(r1), "samples", &x1,
                       &rows, &cols);
      ol_method_result(ol_run_method(r2), ol_run_state(r2), "samples", &x2,
                       &rows, &cols);
      for (j = 0; j < rows * cols; j++) d = fmax(d, fabs(x1[j] - x2[j]));
      ok(d < 1e-9, "%s = ddim eta = %d particle for particle (max diff "
         "%.2g)", q == 0 ? "pfode euler" : "ddpm", q, d);
      ol_run_free(r1);
      ol_run_free(r2);
    }
  }
  ol_problem_free(p);
}

/* Kozachenko-Leonenko entropy of a sampler's particles: one Gaussian
** N(mu, S), H = 1/2 log det(2 pi e S); the estimator's sd is about
** n sqrt(psi'(1) / N) = 2 sqrt(1.645 / N). */
static void test_entropy (void)
{
  double mu[2] = {1, 2}, S[4] = {2, 0.5, 0.5, 1}, w[1] = {1}, H, Hx, sd;
  ol_problem *p = mkgmm(1, w, mu, S, 4);
  samp s = {"ddpm", NULL, 0, OL_DFS_LINEAR};
  ol_run *r = mkrun(p, &s, NSTEPS, NPART);
  H = ol_run_last(r, OL_MET_ENTROPY);
  Hx = 0.5 * log(pow(2 * PI * exp(1), 2) * (S[0] * S[3] - S[1] * S[2]));
  sd = 2 * sqrt(1.645 / NPART);
  ok(fabs(H - Hx) < 3 * sd, "entropy: the kNN estimate %.4f of a Gaussian's "
     "particles is within 3 sd (%.3f) of 1/2 log det(2 pi e S) = %.4f", H,
     sd, Hx);
  ol_run_free(r);
  ol_problem_free(p);
}

/* The injected score error: mean eps b / sqrt 2 (b = 1 / sqrt n),
** E ||s^ - s||^2 = eps^2, each within 4 standard errors of M draws. */
static void test_score_error (void)
{
  enum { M = 20000 };
  double w[2] = {1, 1}, mu[4] = {-1, 0, 1, 0}, S[2] = {1, 0.5};
  ol_problem *p = mkgmm(2, w, mu, S, 1);
  ol_dfs D;
  ol_rng rng;
  double lv[6], work[16], sc[2], ex[2], x[2] = {0.3, -0.2}, bias[2];
  double m[2] = {0, 0}, m2 = 0, v2 = 0, eps = 0.7, want, se;
  int i, j;
  memset(&D, 0, sizeof D);
  D.G = ol_gmm_of(p);
  D.n = 2;
  D.eps = eps;
  D.work = work;
  D.bias = bias;
  bias[0] = bias[1] = 1 / sqrt(2.0);
  ol_rng_seed(&rng, SEED, 0);
  ol_gmm_level(D.G, 0.8, 0.5, lv);
  ol_gmm_eval(D.G, lv, 0.8, x, ex, NULL, work);
  for (i = 0; i < M; i++) {
    double q = 0;
    ol_dfs_score(&D, lv, 0.8, x, sc, &rng);
    for (j = 0; j < 2; j++) {
      double d = sc[j] - ex[j];
      m[j] += d / M;
      q += d * d;
    }
    m2 += q / M;
    v2 += q * q / M;
  }
  want = eps / sqrt(2.0) / sqrt(2.0);     /* eps / sqrt 2 times b_j */
  se = eps / sqrt(2.0) / sqrt(2.0) / sqrt((double)M);   /* sd of xi_j */
  ok(fabs(m[0] - want) < 4 * se && fabs(m[1] - want) < 4 * se,
     "score_error: the bias is eps b / sqrt 2 = %.4f per coordinate (%.4f, "
     "%.4f)", want, m[0], m[1]);
  se = sqrt((v2 - m2 * m2) / M);
  ok(fabs(m2 - eps * eps) < 4 * se, "score_error: E ||s^ - s||^2 = eps^2 "
     "= %.4f (%.4f, se %.4f)", eps * eps, m2, se);
  ol_problem_free(p);
}

/* A 1-D gmm with one component N(m, v0). */
static ol_problem *mkgauss1 (double m, double v0)
{
  double w[1] = {1}, mu[1], cov[1];
  ol_pval v[3];
  ol_err e;
  ol_problem *p;
  mu[0] = m;
  cov[0] = v0;
  memset(v, 0, sizeof v);
  v[0].arr = w; v[0].rows = 1; v[0].cols = 1;
  v[1].arr = mu; v[1].rows = 1; v[1].cols = 1;
  v[2].arr = cov; v[2].rows = 1; v[2].cols = 1;
  p = ol_problem_new(ol_problem_type_find("gmm"), v, &e);
  if (p == NULL) diag("gmm 1-d: %s", e.msg);
  return p;
}

/* VP: s = 1 / sqrt(1 + sigma^2) (abar = 1 / (1 + sigma^2)) */
static double vps (double sig)
{
  return 1 / sqrt(1 + sig * sig);
}

/* diffusion.rd on N(m, v0): the step by hand, its order, its law. */
static void test_rd (void)
{
  const double m = 0.7, v0 = 0.5;
  ol_problem *p = mkgauss1(m, v0);
  const ol_gmm *G = ol_gmm_of(p);
  double lv[16], work[16];
  /* (1) one step by hand: x = 1.3 at sigma 0.9 to sigma' 0.6 through
  ** sigma_r = 0.5 sigma' = 0.3, VP scales */
  {
    double sig = 0.9, sigp = 0.6, sigr = 0.3, x = 1.3, g, ge, xr, out;
    double s = vps(sig), sp = vps(sigp), sr = vps(sigr);
    double xb = x / s, rb, want_r, want_o;
    ol_gmm_level(G, s, sig * sig, lv);
    ol_gmm_eval(G, lv, s, &x, &g, NULL, work);
    ge = -(x - s * m) / (s * s * (v0 + sig * sig));
    ok(fabs(g - ge) < 1e-12, "rd: the gmm's score at (s, sigma) is the "
       "closed form -(x - s m) / (s^2 (v0 + sigma^2)) (%.15g, %.15g)", g,
       ge);
    ol_rd_point(1, &x, &ge, s, sig, sp, sigp, sr, sigr, &xr, &out);
    /* the posterior mean of x_b,r = x_b - sqrt(sigma^2 - sigma_r^2) z */
    rb = m + (v0 + sigr * sigr) / (v0 + sig * sig) * (xb - m);
    want_r = sr * rb;
    want_o = sp * (rb + sqrt(sigp * sigp - sigr * sigr)
                   * (xb - rb) / sqrt(sig * sig - sigr * sigr));
    ok(fabs(xr - want_r) < 1e-12 && fabs(out - want_o) < 1e-12, "rd: one "
       "step by hand: restored %.15g (posterior mean %.15g), degraded "
       "%.15g (%.15g)", xr, want_r, out, want_o);
  }
  /* (2) the local error against the exact flow, VE (s = 1) from sigma = 1
  ** at x = 2.1, restore 0.5 and 0 (DDIM): err(h) ~ C h^2 */
  {
    static const double hs[3] = {0.08, 0.04, 0.02};
    static const double rs[2] = {0.5, 0};
    int q, k;
    for (q = 0; q < 2; q++) {
      double err[3], sl1, sl2;
      for (k = 0; k < 3; k++) {
        double sig = 1, sigp = 1 - hs[k], sigr = rs[q] * sigp, x = 2.1;
        double g = -(x - m) / (v0 + sig * sig), xr, out, exact;
        ol_rd_point(1, &x, &g, 1, sig, 1, sigp, 1, sigr, &xr, &out);
        exact = m + (x - m) * sqrt((v0 + sigp * sigp) / (v0 + sig * sig));
        err[k] = fabs(out - exact);
      }
      sl1 = log(err[0] / err[1]) / log(2.0);
      sl2 = log(err[1] / err[2]) / log(2.0);
      ok(sl1 >= 1.8 && sl1 <= 2.2 && sl2 >= 1.8 && sl2 <= 2.2, "rd "
         "restore %g: local error against the exact flow %.3g, %.3g, %.3g "
         "at h = 0.08, 0.04, 0.02: slopes %.3f, %.3f (2: first order)",
         rs[q], err[0], err[1], err[2], sl1, sl2);
    }
  }
  ol_problem_free(p);
  /* (3) restore = 0 is ddim eta = 0 */
  {
    double w[8] = {1, 2, 3, 2, 1, 1, 2, 4};
    ol_pval v[3];
    ol_err e;
    samp a = {"rd", "restore", 0, OL_DFS_LINEAR};
    samp b = {"ddim", "eta", 0, OL_DFS_LINEAR};
    ol_run *r1, *r2;
    const double *x1, *x2;
    int rows, cols, j;
    double d = 0;
    memset(v, 0, sizeof v);
    v[0].arr = w; v[0].rows = 1; v[0].cols = 8;
    p = ol_problem_new(ol_problem_type_find("gmm"), v, &e);
    r1 = mkrun(p, &a, 20, 200);
    r2 = mkrun(p, &b, 20, 200);
    ol_method_result(ol_run_method(r1), ol_run_state(r1), "samples", &x1,
                     &rows, &cols);
    ol_method_result(ol_run_method(r2), ol_run_state(r2), "samples", &x2,
                     &rows, &cols);
    for (j = 0; j < rows * cols; j++) d = fmax(d, fabs(x1[j] - x2[j]));
    ok(d < 1e-12, "rd restore = 0 = ddim eta = 0 particle for particle on "
       "the 8-mode ring (max diff %.2g)", d);
    ol_run_free(r1);
    ol_run_free(r2);
    ol_problem_free(p);
  }
  /* (4) the law.  On N(m, v0) the step is affine in x_b = x / s:
  ** x_b' - m = f (x_b - m), f = 1 - c / (v0 + sigma^2), c = A - sqrt(A (A
  ** - D)) (rd.c), from x ~ N(0, 1) at t = 1; so the sampler's own law is
  ** a closed form, its distance to p_delta = N(s m, s^2 (v0 + sigma^2))
  ** the discretization's bias (first order: halves with twice the steps) */
  {
    enum { N = 20000, T = 200 };
    samp a = {"rd", "restore", 0.5, OL_DFS_LINEAR};
    double mean = 0, var = 0, m4 = 0, wm[2], wv[2], se_m, se_v, pm = 0, pv = 0;
    const double *x;
    int rows, cols, i, q;
    ol_run *r;
    for (q = 0; q < 2; q++) {
      int steps = T << q, k;
      double h = (1 - 1e-3) / steps, mu = 0, V, s0;
      s0 = sqrt(exp(-0.1 - 9.95));
      V = 1 / (s0 * s0);
      for (k = 0; k < steps; k++) {
        double t = 1 - k * h, tp = k + 1 == steps ? 1e-3 : 1 - (k + 1) * h;
        double at = exp(-0.1 * t - 9.95 * t * t);
        double ap = exp(-0.1 * tp - 9.95 * tp * tp);
        double sig2 = (1 - at) / at, sigp2 = (1 - ap) / ap;
        double A = sig2 - 0.25 * sigp2, Dd = sig2 - sigp2;
        double f = 1 - (A - sqrt(A * (A - Dd))) / (v0 + sig2);
        mu = m + f * (mu - m);
        V *= f * f;
        if (k + 1 == steps) {
          wm[q] = sqrt(ap) * mu;
          wv[q] = ap * V;
          pm = sqrt(ap) * m;
          pv = ap * (v0 + sigp2);
        }
      }
    }
    p = mkgauss1(m, v0);
    r = mkrun(p, &a, T, N);
    ol_method_result(ol_run_method(r), ol_run_state(r), "samples", &x,
                     &rows, &cols);
    for (i = 0; i < rows; i++) mean += x[i] / rows;
    for (i = 0; i < rows; i++) {
      double d = x[i] - mean;
      var += d * d / (rows - 1);
      m4 += d * d * d * d / rows;
    }
    se_m = sqrt(wv[0] / rows);
    se_v = sqrt((m4 - var * var) / rows);
    ok(rows == N && fabs(mean - wm[0]) < 4 * se_m
       && fabs(var - wv[0]) < 4 * se_v, "rd restore 0.5, %d steps, %d "
       "particles (seed %d): mean %.5f, variance %.5f against the "
       "sampler's exact law %.5f, %.5f (se %.5f, %.5f: within 4 se)", T, N,
       SEED, mean, var, wm[0], wv[0], se_m, se_v);
    {
      double b1 = fabs(wv[0] - pv), b2 = fabs(wv[1] - pv);
      ok(b1 / b2 > 1.8 && b1 / b2 < 2.2 && fabs(wm[1] - pm) < 0.01,
         "rd restore 0.5: the law's variance bias against p_delta (%.5f) "
         "is %.5f at %d steps, %.5f at %d (ratio %.3f in [1.8, 2.2]: first "
         "order); mean %.5f against %.5f", pv, wv[0] - pv, T, wv[1] - pv,
         2 * T, b1 / b2, wm[1], pm);
    }
    ol_run_free(r);
    ol_problem_free(p);
  }
}

static void test_refuse (void)
{
  ol_problem *mix = olt_problem("mixture", NULL, (char *)NULL);
  ol_problem *gm = olt_problem("gmm", NULL, (char *)NULL);
  ol_err e;
  int rc = ol_method_check(ol_method_find("diffusion.ddpm"), mix, &e);
  ok(rc == OL_EINVAL && strstr(e.msg, "problem.gmm") != NULL, "ddpm: "
     "refuses mixture, naming problem.gmm (%s)", e.msg);
  rc = ol_method_check(ol_method_find("diffusion.masked"), gm, &e);
  ok(rc == OL_EINVAL && strstr(e.msg, "problem.tokens") != NULL, "masked: "
     "refuses gmm, naming problem.tokens (%s)", e.msg);
  ok(ol_method_check(ol_method_find("diffusion.sde"), gm, &e) == OL_OK,
     "sde: accepts gmm");
  ol_problem_free(mix);
  ol_problem_free(gm);
}

int main (void)
{
  test_gmm();
  test_tokens();
  test_samplers();
  test_entropy();
  test_score_error();
  test_refuse();
  test_rd();
  return done();
}
