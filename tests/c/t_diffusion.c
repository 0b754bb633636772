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
**     than tokens, with a message naming the problem they need.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "olt.h"
#include "diffusion/diffuse.h"
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
  return done();
}
