/*
** tests/c/t_fed.c -- problem.fedquad and the federated and asynchronous
** methods (core/problems/fedquad.c, core/dist/fedavg.c, scaffold.c,
** asgd.c, dist.c).
**
** Truth, independent of the methods' code:
**   fedquad: x* is a zero of the gradient, f* = f(x*), the shards are the
**     clients, each client's mean component gradient at 0 is -H_w cbar_w
**     with cbar_w and h_w by the header's formulas;
**   fedavg, K = 1, one worker: gd on the problem with minibatch noise
**     (batch drawn with replacement), the same iterates bit for bit;
**   fedavg, K = 3, four workers, whole shards or minibatches: a plain C
**     loop doing the same local steps and averaging, bit for bit, and the
**     drift and consensus probes from that loop's iterates;
**   fedavg, K = 10: converges to its fixed point in closed form,
**     x_j = sum_w (1 - (1 - lr h_wj)^K) cbar_wj / sum_w (...), which lies
**     off x*, so f stalls at 1/2 d'Hbar d above f* (d = x_fed - x*); the
**     same fixed point with server momentum (FedAvgM); client momentum
**     beta gives FedAvg's fixed point at step beta lr;
**   scaffold: converges to x* itself (1e-10) on the same problem, with
**     full and with half participation;
**   asgd, fixed speeds: round-robin with stale copies, as a plain loop;
**   a method without a finite sum is refused.
** Seeds: the runs' default seed 1 (printed); the loops seed their own
** generator the same way (ol_rng_seed(seed 1, stream 0)).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "rng.h"
#include "tap.h"
#include "dist/compress.h"
#include "problems/fedquad.h"
#include "dist/dist.h"

#define PI 3.14159265358979323846

static double dist2 (const double *a, const double *b, int n)
{
  double s = 0;
  int j;
  for (j = 0; j < n; j++) s += (a[j] - b[j]) * (a[j] - b[j]);
  return sqrt(s);
}

static ol_run *go3 (const ol_problem *p, const char *name, long iters,
                    const char *const *k, const double *v, int nk)
{
  double par[16];
  const ol_method_type *m = olt_method(name, par, (char *)NULL);
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_EMPTY);
  int i, j;
  if (m == NULL) return NULL;
  for (i = 0; i < m->nparams; i++)
    for (j = 0; j < nk; j++)
      if (strcmp(m->params[i].name, k[j]) == 0) par[i] = v[j];
  return olt_go(p, m, par, &o);
}

static void test_fedquad (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 3.0, "workers", 5.0,
                              "per", 7.0, "heterogeneity", 0.8, "cond", 20.0,
                              (char *)NULL);
  double g[3], gi[3], f, worst = 0, fs, hw, cb;
  int w, j, okc = 1;
  long k;
  ol_err e;
  if (p == NULL) return;
  ok(p->nsum == 35 && p->workers.n == 5 && p->workers.start[2] == 14 &&
     p->workers.perm[20] == 20, "fedquad: 5 clients of 7 components, the "
     "shards in index order");
  p->fdf(p->ud, p->xstar, &fs, g, &e);
  ok(fabs(g[0]) + fabs(g[1]) + fabs(g[2]) < 1e-14 && fabs(fs - p->fstar)
     <= 1e-14 * fabs(fs), "fedquad: grad f(x*) = 0 (%.2g) and f* = f(x*)",
     fabs(g[0]) + fabs(g[1]) + fabs(g[2]));
  for (w = 0; w < 5; w++) {
    double zero[3] = {0, 0, 0}, m[3] = {0, 0, 0};
    for (k = 7 * w; k < 7 * w + 7; k++) {
      p->fdfi(p->ud, k, zero, &f, gi, &e);
      for (j = 0; j < 3; j++) m[j] += gi[j] / 7;
    }
    for (j = 0; j < 3; j++) {
      hw = pow(20.0, -(double)((w + j) % 5) / 4);
      cb = 2 * 0.8 * cos(2 * PI * w / 5 + j);
      worst = fmax(worst, fabs(m[j] + hw * cb));
      okc = okc && fabs(ol_fedquad_centre(p, w)[j] - cb) < 1e-15
            && fabs(ol_fedquad_curv(p, w)[j] - hw) < 1e-15;
    }
  }
  ok(worst < 1e-13 && okc, "fedquad: client w's mean gradient at 0 is "
     "-H_w cbar_w by the header's formulas (worst %.2g)", worst);
  ok(ol_fedquad_fixed(p, 1, 0.1, g, &e) == OL_OK && dist2(g, p->xstar, 3) < 1e-14,
     "fedquad: FedAvg's fixed point with K = 1 is x*");
  ol_problem_free(p);
}

/* The summed component oracle (p->gsumi) of fedquad and fsquad is the
** sum of fdfi's gradients added in the order given, to the bit: over the
** whole index range, over runs that cross a client's edge, over repeated
** and descending indices. */
static void test_gsumi (void)
{
  static const long lists[][12] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
    {5, 6, 7, 8, 9, 3, 4, 20, 21, 22, 34, 33},
    {13, 13, 13, 14, 14, 0, 34, 27, 28, 29, 30, 6}};
  const char *names[] = {"fedquad", "fsquad"};
  int t, l, k, j;
  for (t = 0; t < 2; t++) {
    ol_problem *p = t == 0
      ? olt_problem("fedquad", NULL, "n", 3.0, "workers", 5.0, "per", 7.0,
                    "heterogeneity", 0.8, (char *)NULL)
      : olt_problem("fsquad", NULL, "N", 35.0, "d", 3.0, (char *)NULL);
    double x[3] = {0.3, -1.7, 2.2}, g[3], gs[3], gi[3];
    int same = 1;
    ol_err e;
    if (p == NULL) continue;
    for (l = 0; l < 3; l++) {
      for (j = 0; j < 3; j++) g[j] = gs[j] = 0.25 * (j + 1);
      for (k = 0; k < 12; k++) {
        p->fdfi(p->ud, lists[l][k], x, NULL, gi, &e);
        for (j = 0; j < 3; j++) g[j] += gi[j];
      }
      same = same && p->gsumi != NULL
             && p->gsumi(p->ud, lists[l], 12, x, gs, &e) == OL_OK
             && memcmp(g, gs, sizeof g) == 0;
    }
    ok(same, "%s: gsumi adds fdfi's gradients in order, bit for bit, over "
       "3 index lists", names[t]);
    ol_problem_free(p);
  }
}

/* (2) K = 1 on one worker is minibatch SGD: gd with batch noise */
static void test_sgd (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 4.0, "workers", 1.0,
                              "per", 50.0, (char *)NULL);
  ol_problem *q = olt_problem("fedquad", NULL, "n", 4.0, "workers", 1.0,
                              "per", 50.0, (char *)NULL);
  static const char *const k[] = {"K", "lr", "batch"};
  const double v[] = {1, 0.3, 5};
  double par[4];
  const ol_method_type *gd = olt_method("gd", par, "lr", 0.3, (char *)NULL);
  ol_noise nz = {OL_NOISE_BATCH, 0, 1, 5, OL_ORDER_REPLACE, NULL, 0};
  ol_run_opts o = olt_opts(200, 0, OL_MSET_EMPTY);
  ol_run *a, *b;
  ol_err e;
  if (p == NULL || q == NULL || gd == NULL) return;
  ok(ol_problem_set_noise(q, &nz, &e) == OL_OK, "gd's problem: minibatches "
     "of 5 with replacement");
  a = go3(p, "fedavg", 200, k, v, 3);
  b = olt_go(q, gd, par, &o);
  ok(a != NULL && b != NULL && ol_run_len(a) > 0 &&
     memcmp(ol_run_x(a), ol_run_x(b), 4 * sizeof(double)) == 0 &&
     ol_run_x(a)[0] != p->x0[0],
     "fedavg K = 1, one worker, batch 5 = gd on minibatches of 5, bit for "
     "bit after 200 steps (seed 1)");
  ol_run_free(a);
  ol_run_free(b);
  ol_problem_free(p);
  ol_problem_free(q);
}

/* (3) four workers, K = 3: the plain loop */
static void test_loop (int batch)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 3.0, "workers", 4.0,
                              "per", 6.0, (char *)NULL);
  static const char *const k[] = {"K", "lr", "batch"};
  const double v[] = {3, 0.2, batch};
  double x[3], y[4][3], g[3], gi[3], ybar[3], drift = 0, cons = 0;
  int t, w, s, j, b;
  long i;
  ol_rng r;
  ol_run *a;
  ol_err e;
  if (p == NULL) return;
  ol_rng_seed(&r, 1, 0);
  memcpy(x, p->x0, sizeof x);
  for (t = 0; t < 20; t++) {
    for (j = 0; j < 3; j++) ybar[j] = 0;
    for (w = 0; w < 4; w++) {
      memcpy(y[w], x, sizeof x);
      for (s = 0; s < 3; s++) {
        int cnt = batch == 0 ? 6 : batch;
        for (j = 0; j < 3; j++) g[j] = 0;
        for (b = 0; b < cnt; b++) {
          i = 6 * w + (batch == 0 ? b : ol_rng_below(&r, 6));
          p->fdfi(p->ud, i, y[w], NULL, gi, &e);
          for (j = 0; j < 3; j++) g[j] += gi[j];
        }
        for (j = 0; j < 3; j++) g[j] *= 1 / (double)cnt;
        for (j = 0; j < 3; j++) y[w][j] -= 0.2 * g[j];
      }
      for (j = 0; j < 3; j++) ybar[j] += y[w][j];
    }
    for (j = 0; j < 3; j++) ybar[j] *= 1 / 4.0;
    drift = cons = 0;
    for (w = 0; w < 4; w++)
      for (j = 0; j < 3; j++) {
        drift += (y[w][j] - x[j]) * (y[w][j] - x[j]) / 4;
        cons += (y[w][j] - ybar[j]) * (y[w][j] - ybar[j]) / 4;
      }
    memcpy(x, ybar, sizeof x);
  }
  a = go3(p, "fedavg", 20, k, v, 3);
  ok(a != NULL && memcmp(ol_run_x(a), x, sizeof x) == 0,
     "fedavg K = 3, 4 workers, batch %d: the plain loop's x bit for bit "
     "after 20 rounds (seed 1)", batch);
  if (a != NULL) {
    const double *sd = ol_run_series(a, OL_MET_DRIFT);
    const double *sc = ol_run_series(a, OL_MET_CONSENSUS);
    const double *sr = ol_run_series(a, OL_MET_ROUNDS);
    int L = ol_run_len(a);
    ok(sd != NULL && sc != NULL && sr != NULL &&
       fabs(sd[L - 1] - drift) <= 1e-12 * drift &&
       fabs(sc[L - 1] - cons) <= 1e-12 * cons && sr[L - 1] == 20,
       "fedavg: drift %.6g, consensus %.6g and rounds 20 recorded as the "
       "loop's (1/4) sum ||y_w - x||^2, ||y_w - ybar||^2",
       sd != NULL ? sd[L - 1] : NAN, sc != NULL ? sc[L - 1] : NAN);
  }
  ol_run_free(a);
  ol_problem_free(p);
}

/* (4) the heterogeneity bias and what removes it */
static void test_bias (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 2.0, "workers", 4.0,
                              "per", 10.0, "heterogeneity", 1.0, (char *)NULL);
  ol_problem *h = olt_problem("fedquad", NULL, "n", 2.0, "workers", 4.0,
                              "per", 10.0, "participation", 0.5,
                              (char *)NULL);
  static const char *const kf[] = {"K", "lr"};
  static const char *const km[] = {"K", "lr", "momentum", "server_lr"};
  static const char *const kb[] = {"K", "lr", "beta"};
  const double vf[] = {10, 0.1}, vm[] = {10, 0.1, 0.9, 0.1},
               vb[] = {10, 0.1, 0.2};
  double xf[2], xb[2], d[2], gap, want, H[4];
  ol_run *a, *b, *c, *s, *s2;
  ol_err e;
  if (p == NULL || h == NULL) return;
  ol_fedquad_fixed(p, 10, 0.1, xf, &e);
  ol_fedquad_fixed(p, 10, 0.1 * 0.2, xb, &e);
  a = go3(p, "fedavg", 3000, kf, vf, 2);
  b = go3(p, "fedavg", 3000, km, vm, 4);
  c = go3(p, "fedavg", 3000, kb, vb, 3);
  s = go3(p, "scaffold", 3000, kf, vf, 2);
  s2 = go3(h, "scaffold", 6000, kf, vf, 2);
  if (a == NULL || b == NULL || c == NULL || s == NULL || s2 == NULL) return;
  ok(dist2(xf, p->xstar, 2) > 0.1, "fedquad: FedAvg's fixed point lies "
     "%.4f from x*", dist2(xf, p->xstar, 2));
  ok(dist2(ol_run_x(a), xf, 2) < 1e-10, "fedavg K = 10: at the closed-form "
     "fixed point (%.2g) after 3000 rounds", dist2(ol_run_x(a), xf, 2));
  d[0] = xf[0] - p->xstar[0];
  d[1] = xf[1] - p->xstar[1];
  p->hess(p->ud, xf, H, &e);
  want = 0.5 * (H[0] * d[0] * d[0] + H[3] * d[1] * d[1]);
  gap = olt_fval(p, ol_run_x(a)) - p->fstar;
  ok(fabs(gap - want) <= 1e-8 * want, "fedavg: f stalls %.6g above f*, the "
     "closed form 1/2 d'Hd = %.6g", gap, want);
  ok(dist2(ol_run_x(b), xf, 2) < 1e-8, "fedavg with server momentum 0.9: "
     "the same fixed point (%.2g): momentum alone keeps the bias",
     dist2(ol_run_x(b), xf, 2));
  ok(dist2(ol_run_x(c), xb, 2) < 1e-8 && dist2(xb, p->xstar, 2) <
     0.35 * dist2(xf, p->xstar, 2), "fedavg with client momentum beta = 0.2: "
     "FedAvg's fixed point at step beta lr (%.2g), bias %.4f, not 0",
     dist2(ol_run_x(c), xb, 2), dist2(xb, p->xstar, 2));
  ok(dist2(ol_run_x(s), p->xstar, 2) < 1e-10, "scaffold K = 10: x* to %.2g",
     dist2(ol_run_x(s), p->xstar, 2));
  ok(dist2(ol_run_x(s2), h->xstar, 2) < 1e-10, "scaffold, half of the "
     "clients per round (seed 1): x* to %.2g",
     dist2(ol_run_x(s2), h->xstar, 2));
  ol_run_free(a);
  ol_run_free(b);
  ol_run_free(c);
  ol_run_free(s);
  ol_run_free(s2);
  ol_problem_free(p);
  ol_problem_free(h);
}

/* (5) partial participation is seeded */
static void test_partial (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 2.0, "workers", 8.0,
                              "participation", 0.25, (char *)NULL);
  double par[16];
  const ol_method_type *m = olt_method("fedavg", par, (char *)NULL);
  ol_run_opts o1 = olt_opts(30, 0, OL_MSET_EMPTY),
    o2 = olt_opts(30, 0, OL_MSET_EMPTY);
  ol_run *a, *b, *c;
  if (p == NULL || m == NULL) return;
  o2.seed = 2;
  a = olt_go(p, m, par, &o1);
  b = olt_go(p, m, par, &o1);
  c = olt_go(p, m, par, &o2);
  ok(a != NULL && b != NULL && c != NULL &&
     memcmp(ol_run_x(a), ol_run_x(b), 2 * sizeof(double)) == 0 &&
     memcmp(ol_run_x(a), ol_run_x(c), 2 * sizeof(double)) != 0,
     "fedavg, 2 of 8 clients per round: seed 1 twice the same, seed 2 "
     "another");
  ol_run_free(a);
  ol_run_free(b);
  ol_run_free(c);
  ol_problem_free(p);
}

/* (6) asgd with fixed speeds: round-robin over stale copies */
static void test_asgd (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 3.0, "workers", 3.0,
                              "per", 5.0, (char *)NULL);
  static const char *const k[] = {"lr", "batch", "speeds"};
  const double v[] = {0.1, 0, 0};
  double x[3], X[3][3], g[3], gi[3];
  int t, w, j, b;
  ol_run *a;
  ol_err e;
  if (p == NULL) return;
  memcpy(x, p->x0, sizeof x);
  for (w = 0; w < 3; w++) memcpy(X[w], x, sizeof x);
  for (t = 0; t < 30; t++) {
    w = t % 3;
    for (j = 0; j < 3; j++) g[j] = 0;
    for (b = 0; b < 5; b++) {
      p->fdfi(p->ud, 5 * w + b, X[w], NULL, gi, &e);
      for (j = 0; j < 3; j++) g[j] += gi[j];
    }
    for (j = 0; j < 3; j++) x[j] -= 0.1 * (g[j] * (1 / 5.0));
    memcpy(X[w], x, sizeof x);
  }
  a = go3(p, "asgd", 30, k, v, 3);
  ok(a != NULL && memcmp(ol_run_x(a), x, sizeof x) == 0,
     "asgd, 3 workers of equal speed: the round-robin loop with gradients "
     "2 updates stale, bit for bit after 30 updates");
  ol_run_free(a);
  ol_problem_free(p);
}

/* (7) the workers' iterates for the workers panel: their mean is x */
static void test_view (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 2.0, "workers", 4.0,
                              (char *)NULL);
  static const char *const k[] = {"K", "lr"};
  const double v[] = {5, 0.1};
  const double *X = NULL;
  double mean[2] = {0, 0};
  int rows = 0, cols = 0, w;
  ol_run *a;
  if (p == NULL) return;
  a = go3(p, "fedavg", 7, k, v, 2);
  if (a == NULL) return;
  ok(ol_method_result(ol_run_method(a), ol_run_state(a), "workers", &X,
                      &rows, &cols) == 1 && rows == 4 && cols == 2,
     "fedavg: its result workers is 4 x 2 (%d x %d)", rows, cols);
  for (w = 0; X != NULL && w < 4; w++) {
    mean[0] += X[2 * w] / 4;
    mean[1] += X[2 * w + 1] / 4;
  }
  ok(X != NULL && fabs(mean[0] - ol_run_x(a)[0]) < 1e-15 &&
     fabs(mean[1] - ol_run_x(a)[1]) < 1e-15 && X[0] != X[2],
     "fedavg: the workers' last local iterates average to x, and differ");
  ok(ol_method_result(ol_method_find("optim.gd"), ol_run_state(a),
                      "workers", &X, &rows, &cols) == 0,
     "ol_method_result: workers answered only for fedavg, scaffold and asgd");
  ol_run_free(a);
  ol_problem_free(p);
}

/* (8) compressed uploads (compress.h's ol_cupload): the bits by hand,
** top-k's first round by hand, top-k keeping every coordinate is the
** plain run to rounding */
static double lastof (ol_run *r, int metric)
{
  const double *v = r != NULL ? ol_run_series(r, metric) : NULL;
  return v != NULL && ol_run_len(r) > 0 ? v[ol_run_len(r) - 1] : NAN;
}

static void test_upload (void)
{
  ol_problem *p = olt_problem("fedquad", NULL, "n", 2.0, "workers", 8.0,
                              "participation", 0.25, (char *)NULL);
  ol_problem *q = olt_problem("fedquad", NULL, "n", 3.0, "workers", 1.0,
                              (char *)NULL);
  static const char *const k[] = {"compress", "k", "K", "lr"};
  double v[] = {OL_CMP_NONE, 1, 5, 0.1}, u[3], um = 0, uu = 0, want;
  double bits[4];
  ol_run *a, *b;
  int i, j, jm = 0;
  if (p == NULL || q == NULL) return;
  /* (a) bits: 30 rounds of 2 participants, 64 bits a plain message of 2
  ** coordinates, 32 + 1 a top-1 one; scaffold sends two messages */
  for (i = 0; i < 4; i++) {
    v[0] = i % 2 == 0 ? OL_CMP_NONE : OL_CMP_TOPK;
    a = go3(p, i < 2 ? "fedavg" : "scaffold", 30, k, v, 2);
    bits[i] = lastof(a, OL_MET_BITS);
    ol_run_free(a);
  }
  ok(bits[0] == 3840 && bits[1] == 1980 && bits[2] == 7680 &&
     bits[3] == 3960, "fedavg and scaffold, 2 of 8 clients, 30 rounds: "
     "bits %g, %g (top-1) and %g, %g (two messages each) by hand",
     bits[0], bits[1], bits[2], bits[3]);
  /* (b) one round on one client: the plain run's x is x0 + u; top-1 keeps
  ** u's largest entry */
  v[0] = OL_CMP_NONE;
  a = go3(q, "fedavg", 1, k + 2, v + 2, 2);
  v[0] = OL_CMP_TOPK;
  b = go3(q, "fedavg", 1, k, v, 4);
  if (a == NULL || b == NULL) return;
  for (j = 0; j < 3; j++) {
    u[j] = ol_run_x(a)[j] - q->x0[j];
    uu += u[j] * u[j];
    if (fabs(u[j]) > um) {
      um = fabs(u[j]);
      jm = j;
    }
  }
  want = (uu - um * um) / uu;
  ok(fabs(lastof(b, OL_MET_COMPRESS_ERR) - want) <= 1e-12 * want &&
     ol_run_x(b)[jm] == ol_run_x(a)[jm] && ol_run_x(b)[(jm + 1) % 3] ==
     q->x0[(jm + 1) % 3] && ol_run_x(b)[(jm + 2) % 3] == q->x0[(jm + 2) % 3],
     "fedavg top-1, one round: x moves along the update's largest entry "
     "only, compress_err %.6g = the rest's share of ||u||^2 %.6g",
     lastof(b, OL_MET_COMPRESS_ERR), want);
  ol_run_free(a);
  ol_run_free(b);
  /* (c) top-k with k = n sends everything: x0 + (y - x0) is y to
  ** rounding after 20 rounds */
  v[0] = OL_CMP_NONE;
  a = go3(p, "scaffold", 20, k + 2, v + 2, 2);
  v[0] = OL_CMP_TOPK;
  v[1] = 2;
  b = go3(p, "scaffold", 20, k, v, 4);
  ok(a != NULL && b != NULL && fabs(ol_run_x(a)[0] - ol_run_x(b)[0]) < 1e-12
     && fabs(ol_run_x(a)[1] - ol_run_x(b)[1]) < 1e-12 &&
     lastof(b, OL_MET_COMPRESS_ERR) == 0,
     "scaffold top-2 of 2 coordinates: the plain run's x to 1e-12, "
     "compress_err 0");
  ol_run_free(a);
  ol_run_free(b);
  ol_problem_free(p);
  ol_problem_free(q);
}

static void test_refuse (void)
{
  ol_problem *p = olt_problem("rosenbrock", NULL, (char *)NULL);
  const ol_method_type *m = ol_method_find("dist.fedavg");
  ol_err e;
  if (p == NULL || m == NULL) return;
  ok(ol_method_check(m, p, &e) != OL_OK, "fedavg refuses rosenbrock, not a "
     "finite sum (%s)", e.msg);
  ol_problem_free(p);
}

int main (void)
{
  diag("seed 1 (the runs' default)");
  test_fedquad();
  test_gsumi();
  test_sgd();
  test_loop(0);
  test_loop(2);
  test_bias();
  test_partial();
  test_asgd();
  test_view();
  test_upload();
  test_refuse();
  return done();
}
