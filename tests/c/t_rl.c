/*
** tests/c/t_rl.c -- the RL family (core/rl/) and its MDP problems
** (stopping, inventory, rlvr), against truths computed here:
**   - V* by backward induction against brute-force enumeration of every
**     deterministic policy (stopping{H=3, K=3}: 2^9, inventory{H=3, M=2}:
**     3^9), against the threshold recursion c_h = mean max(price, c_{h+1})
**     of optimal stopping, and against Puterman's published solution of
**     the default inventory instance (V*_0 = (67, 129, 194, 227) / 16);
**   - the exact policy gradient against central differences of J, and
**     the REINFORCE estimate's mean against it within 5 standard errors;
**   - the predicted one-step entropy change (M25) against the actual one:
**     |actual - predicted| / lr^2 bounded as lr -> 0 (second order), by
**     mdp.h directly and through the first step of a run;
**   - zeroadv_pred of grpo and qae at the start against the closed forms
**     written out here, and the mean of zeroadv over a run against the
**     mean of zeroadv_pred within 4 standard errors;
**   - exact rl.pg and optim.gd agree (gap = subopt), pg's J never falls at
**     a small lr, dynpg ends within its performance-difference bound;
**   - the RL methods refuse problems that are not MDPs, and grpo / qae
**     refuse MDPs that are not verifiable-reward toys.
** Random tests print their seeds.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "rl/mdp.h"
#include "tap.h"

/* Best J over all deterministic policies: logits 0 on the chosen action,
** -1000 elsewhere (exp(-1000) = 0 exactly). */
static double brute (const ol_mdp *M, double *z, double *work)
{
  int nb = M->H * M->S, A = M->A, b, a;
  long k, total = 1;
  double best = -INFINITY;
  int *ch = calloc((size_t)nb, sizeof *ch);
  for (b = 0; b < nb; b++) total *= A;
  for (k = 0; k < total; k++) {
    long r = k;
    double J;
    for (b = 0; b < nb; b++) {
      ch[b] = (int)(r % A);
      r /= A;
      for (a = 0; a < A; a++) z[b * A + a] = a == ch[b] ? 0 : -1000;
    }
    J = ol_mdp_eval(M, z, NULL, work);
    if (J > best) best = J;
  }
  free(ch);
  return best;
}

static void test_vstar (void)
{
  ol_problem *p;
  const ol_mdp *M;
  double *z, *w, c = 0, want[4] = {67, 129, 194, 227};
  int s, h, K = 7, H = 6;
  /* (1) brute force on two small instances */
  p = olt_problem("stopping", NULL, "H", 3.0, "K", 3.0, (char *)NULL);
  M = ol_mdp_of(p);
  z = malloc(sizeof(double) * p->n);
  w = malloc(sizeof(double) * ol_mdp_worksize(M));
  is_near(brute(M, z, w), M->vstar, 1e-12, "stopping{H=3, K=3}: V* by "
          "backward induction = the best of the 512 deterministic policies");
  free(z);
  free(w);
  ol_problem_free(p);
  p = olt_problem("inventory", NULL, "H", 3.0, "M", 2.0, (char *)NULL);
  M = ol_mdp_of(p);
  z = malloc(sizeof(double) * p->n);
  w = malloc(sizeof(double) * ol_mdp_worksize(M));
  is_near(brute(M, z, w), M->vstar, 1e-12, "inventory{H=3, M=2}: V* = the "
          "best of the 19683 deterministic policies");
  free(z);
  free(w);
  ol_problem_free(p);
  /* (2) the threshold recursion of optimal stopping */
  p = olt_problem("stopping", NULL, "H", (double)H, "K", (double)K,
                  (char *)NULL);
  M = ol_mdp_of(p);
  for (h = H - 1; h >= 0; h--) {
    double n = 0;
    for (s = 0; s < K; s++) n += fmax((s + 1.0) / K, c) / K;
    c = n;
  }
  is_near(M->vstar, c, 1e-14, "stopping{H=6, K=7}: V* = c_0 of c_h = "
          "mean_s max(price_s, c_{h+1}) (%.15g)", c);
  is_near(p->fstar, -c, 0, "stopping: f* = -V*");
  ol_problem_free(p);
  /* (3) Puterman 1994, section 4.6.1 */
  p = olt_problem("inventory", NULL, (char *)NULL);
  M = ol_mdp_of(p);
  for (s = 0; s < 4; s++)
    is_near(M->vopt[s], want[s] / 16, 1e-13, "inventory{}: V*_0(%d) = "
            "%g/16 (Puterman 1994, 4.6.1)", s, want[s]);
  ok(M->pistar[0] == 3 && M->pistar[1] == 0 && M->pistar[4] == 2 &&
     M->pistar[8] == 0, "inventory{}: order 3 then 2 then 0 from empty "
     "stock, as Puterman's d*_1, d*_2, d*_3");
  ol_problem_free(p);
}

static void test_grad (void)
{
  static const char *const names[] = {"stopping", "inventory", "rlvr"};
  ol_rng r;
  int i;
  ol_rng_seed(&r, 11, 0);
  diag("seed 11 (gradient points)");
  for (i = 0; i < 3; i++) {
    ol_problem *p = olt_problem(names[i], NULL, (char *)NULL);
    char label[64];
    snprintf(label, sizeof label, "%s: exact policy gradient", names[i]);
    olt_derivs(label, p, &r, 1.0);
    ol_problem_free(p);
  }
}

/* REINFORCE: the mean of N one-episode estimates against the exact
** gradient, coordinate by coordinate, in standard errors. */
static void test_reinforce (void)
{
  ol_problem *p = olt_problem("stopping", NULL, "H", 3.0, "K", 3.0,
                              (char *)NULL);
  const ol_mdp *M = ol_mdp_of(p);
  int n = p->n, i, k, N = 40000;
  double *z = malloc(sizeof(double) * n), *pi = malloc(sizeof(double) * n);
  double *g = malloc(sizeof(double) * n), *ge = malloc(sizeof(double) * n);
  double *s1 = calloc((size_t)n, sizeof(double));
  double *s2 = calloc((size_t)n, sizeof(double));
  double *w = malloc(sizeof(double) * ol_mdp_worksize(M)), worst = 0;
  ol_rng r;
  ol_rng_seed(&r, 5, 0);
  diag("seed 5 (REINFORCE episodes)");
  for (i = 0; i < n; i++) z[i] = 0.7 * ol_rng_normal(&r);
  ol_mdp_eval(M, z, ge, w);
  ol_mdp_policy(M, z, pi);
  for (k = 0; k < N; k++) {
    for (i = 0; i < n; i++) g[i] = 0;
    ol_mdp_episode(M, pi, &r, g);
    for (i = 0; i < n; i++) {
      s1[i] += g[i];
      s2[i] += g[i] * g[i];
    }
  }
  for (i = 0; i < n; i++) {
    double m = s1[i] / N, v = s2[i] / N - m * m;
    double se = sqrt(v / N), d = fabs(m - ge[i]);
    if (se > 0 && d / se > worst) worst = d / se;
    if (se == 0 && d > 1e-15) worst = INFINITY;
  }
  ok(worst < 5, "reinforce: the mean of %d episode estimates matches the "
     "exact gradient (worst of %d coordinates %.2f se)", N, n, worst);
  free(z); free(pi); free(g); free(ge); free(s1); free(s2); free(w);
  ol_problem_free(p);
}

/* M25: actual - predicted entropy change is O(lr^2). */
static void test_dentropy (void)
{
  ol_problem *p = olt_problem("inventory", NULL, (char *)NULL);
  const ol_mdp *M = ol_mdp_of(p);
  int n = p->n, i, k;
  double *z = malloc(sizeof(double) * n), *d = malloc(sizeof(double) * n);
  double *y = malloc(sizeof(double) * n), *dz = malloc(sizeof(double) * n);
  double lr, ratio[5], err[5];
  ol_rng r;
  ol_rng_seed(&r, 3, 0);
  diag("seed 3 (entropy directions)");
  for (i = 0; i < n; i++) {
    z[i] = ol_rng_normal(&r);
    d[i] = ol_rng_normal(&r);
  }
  for (k = 0, lr = 1e-1; k < 5; k++, lr /= 10) {
    double H0 = ol_mdp_entropy(M, z), pred;
    for (i = 0; i < n; i++) {
      dz[i] = lr * d[i];
      y[i] = z[i] + dz[i];
    }
    pred = ol_mdp_dentropy_pred(M, z, dz);
    err[k] = fabs(ol_mdp_entropy(M, y) - H0 - pred);
    ratio[k] = err[k] / (lr * lr);
    diag("lr %.0e: |dH - pred| = %.3e, / lr^2 = %.4f", lr, err[k],
         ratio[k]);
  }
  ok(ratio[3] < 2 * ratio[0] && ratio[3] > 0.5 * ratio[1] &&
     ratio[2] > 0.5 * ratio[1] && ratio[2] < 2 * ratio[1],
     "dentropy_pred: |actual - predicted| / lr^2 stays bounded and near "
     "constant from lr = 1e-1 to 1e-4 (%.4f, %.4f, %.4f, %.4f)", ratio[0],
     ratio[1], ratio[2], ratio[3]);
  free(z); free(d); free(y); free(dz);
  ol_problem_free(p);
}

/* The same through the first step of rl.pg and rl.qae runs. */
static void test_dentropy_run (void)
{
  static const char *const meth[] = {"rl.pg", "rl.qae"};
  static const char *const prob[] = {"stopping", "rlvr"};
  int j;
  for (j = 0; j < 2; j++) {
    ol_problem *p = olt_problem(prob[j], NULL, (char *)NULL);
    double lr, rat[4];
    int k;
    for (k = 0, lr = 1; k < 4; k++, lr /= 10) {
      double par[8];
      const ol_method_type *m = olt_method(meth[j], par, "lr", lr,
                                           (char *)NULL);
      ol_run_opts o = olt_opts(1, 0, OL_MSET_EMPTY);
      ol_run *r = olt_go(p, m, par, &o);
      double a = ol_run_last(r, OL_MET_DENTROPY);
      double b = ol_run_last(r, OL_MET_DENTROPY_PRED);
      rat[k] = fabs(a - b) / (lr * lr);
      ol_run_free(r);
    }
    ok(rat[3] < 2 * rat[1] + 1e-9 && rat[2] < 2 * rat[1] + 1e-9 &&
       isfinite(rat[0]), "%s on %s: first step's |dentropy - "
       "dentropy_pred| / lr^2 bounded for lr = 1 .. 1e-3 (%.3g %.3g %.3g "
       "%.3g)", meth[j], prob[j], rat[0], rat[1], rat[2], rat[3]);
    ol_problem_free(p);
  }
}

static double binom (int G, int k, double p)
{
  double c = 1;
  int i;
  for (i = 0; i < k; i++) c = c * (G - i) / (i + 1);
  return c * pow(p, k) * pow(1 - p, G - k);
}

static void test_zeroadv (void)
{
  ol_problem *p = olt_problem("rlvr", NULL, "queries", 16.0, (char *)NULL);
  const ol_mdp *M = ol_mdp_of(p);
  int j, q, k, G = 8;
  double K = 0.6;
  for (j = 0; j < 2; j++) {
    double par[8], want = 0, sd = 0, sp = 0, s2 = 0, dm, se;
    const ol_method_type *m = olt_method(j == 0 ? "rl.grpo" : "rl.qae", par,
                                         (char *)NULL);
    ol_run_opts o = olt_opts(400, 0, OL_MSET_EMPTY);
    ol_run *r;
    const double *z, *zp;
    int len, t;
    for (q = 0; q < M->S; q++) {
      double pq = ol_mdp_pass(M, p->x0, q);
      if (j == 0) want += pow(pq, G) + pow(1 - pq, G);
      else
        for (k = 0; k <= G; k++) {
          double ph = (double)k / G;
          /* M26: baseline 0 when p <= 1 - K (failures get 0), else 1 */
          double zf = k == 0 || k == G ? 1 : ph <= 1 - K + 1e-12 ? 1 - ph
                                                                 : ph;
          want += binom(G, k, pq) * zf;
        }
    }
    want /= M->S;
    o.seed = 9;
    r = olt_go(p, m, par, &o);
    z = ol_run_series(r, OL_MET_ZEROADV);
    zp = ol_run_series(r, OL_MET_ZEROADV_PRED);
    len = ol_run_len(r);
    is_near(zp[1], want, 1e-12, "%s: zeroadv_pred at the start = the "
            "closed form over the queries' pass rates (%.6f)", m->name,
            want);
    for (t = 1; t < len; t++) {
      double d = z[t] - zp[t];
      sd += d;
      s2 += d * d;
      sp += zp[t];
    }
    dm = sd / (len - 1);
    se = sqrt((s2 / (len - 1) - dm * dm) / (len - 1));
    ok(fabs(dm) < 4 * se, "%s: zeroadv follows zeroadv_pred over %d steps "
       "(mean difference %.4f, se %.4f; mean predicted %.3f; seed 9)",
       m->name, len - 1, dm, se, sp / (len - 1));
    ol_run_free(r);
  }
  ol_problem_free(p);
}

static void test_runs (void)
{
  ol_problem *p = olt_problem("stopping", NULL, (char *)NULL);
  ol_problem *q = olt_problem("rosenbrock", NULL, (char *)NULL);
  double par[8], par2[8];
  const ol_method_type *pg = olt_method("rl.pg", par, "lr", 2.0, (char *)NULL);
  const ol_method_type *gd = olt_method("optim.gd", par2, "lr", 2.0,
                                        (char *)NULL);
  ol_run_opts o = olt_opts(300, 0, OL_MSET_EMPTY);
  ol_run *a, *b;
  const double *gap;
  int t, len, mono = 1;
  ol_err e;
  o.metrics = OL_MSET_OF(OL_MET_GAP, OL_MET_LOSS);
  a = olt_go(p, pg, par, &o);
  o.metrics = OL_MSET_OF(OL_MET_SUBOPT);
  b = olt_go(p, gd, par2, &o);
  ok(olt_agree(ol_run_x(a), ol_run_x(b), p->n, 1e-12),
     "rl.pg (exact) and optim.gd take the same steps on -J");
  is_near(ol_run_last(a, OL_MET_GAP), ol_run_last(b, OL_MET_SUBOPT), 1e-12,
          "gap of rl.pg = subopt of optim.gd (V* - V^pi)");
  gap = ol_run_series(a, OL_MET_GAP);
  len = ol_run_len(a);
  for (t = 1; t < len; t++)
    if (gap[t] > gap[t - 1] + 1e-15) mono = 0;
  ok(mono, "rl.pg at lr = 2: V^pi never falls over 300 steps (gap %.3g "
     "-> %.3g)", gap[0], gap[len - 1]);
  ol_run_free(a);
  ol_run_free(b);
  /* dynpg: converged, within the performance-difference bound */
  {
    const ol_method_type *dy = olt_method("rl.dynpg", par, "lr", 1000.0,
                                          "tol", 1e-6, (char *)NULL);
    ol_run_opts o2 = olt_opts(100000, 0, OL_MSET_EMPTY);
    double g;
    a = olt_go(p, dy, par, &o2);
    g = ol_run_last(a, OL_MET_GAP);
    ok(ol_run_reason(a) == OL_STOP_CONVERGED && g >= 0 && g <= 10 * 10 *
       1e-6, "rl.dynpg on stopping{}: every stage trained in %ld steps, "
       "gap %.3g <= H S tol", ol_run_iter(a), g);
    ol_run_free(a);
  }
  /* refusals */
  ok(ol_method_check(pg, q, &e) == OL_EINVAL && strstr(e.msg, "MDP"),
     "rl.pg refuses rosenbrock (%s)", e.msg);
  ok(ol_method_check(ol_method_find("rl.grpo"), p, &e) == OL_EINVAL &&
     strstr(e.msg, "rlvr"), "rl.grpo refuses stopping (%s)", e.msg);
  ok(ol_method_check(ol_method_find("rl.qae"), q, &e) == OL_EINVAL,
     "rl.qae refuses rosenbrock");
  ol_problem_free(p);
  ol_problem_free(q);
}

int main (void)
{
  test_vstar();
  test_grad();
  test_reinforce();
  test_dentropy();
  test_dentropy_run();
  test_zeroadv();
  test_runs();
  return done();
}
