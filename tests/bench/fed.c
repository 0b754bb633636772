/*
** tests/bench/fed.c -- FED: FedAvg rounds (dist.fedavg, K local steps of
** gradient descent on each client's whole shard, full participation,
** server_lr 1) on problem.fedquad with 10^5 components among 100 clients,
** through the run engine against a plain C loop doing the same local
** steps: per client, K times, g = (1/m) sum_i H_w (y - c_i) over its m
** components, y -= lr g; then x = the clients' mean.
**
** The floor reads fedquad's data (fedquad.h) and does the arithmetic in
** the order the engine does, so both end on the same x to the last bit
** (the first coordinate is printed).  The engine records sparsely (cap
** 16: a record evaluates f and g at x, a pass over the 10^5 components
** that is not part of a round), which over make bench's 200 rounds is
** about one round in ten (over 10 rounds it was most of them, 1.7x where
** 200 rounds give 1.1x).  Each variant is the median of reps timings.
** usage: fed [rounds] [reps] [K] [d].
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "method.h"
#include "problems/fedquad.h"
#include "run.h"

#define W 100
#define M 1000
#define LR 0.1

static void fed_floor (const ol_problem *p, int rounds, int K, double *x,
                       double *y, double *g, double *ybar)
{
  const double *C = ol_fedquad_points(p);
  int d = p->n, r, w, k, j;
  long i;
  memcpy(x, p->x0, sizeof *x * (size_t)d);
  for (r = 0; r < rounds; r++) {
    for (j = 0; j < d; j++) ybar[j] = 0;
    for (w = 0; w < W; w++) {
      const double *h = ol_fedquad_curv(p, w);
      memcpy(y, x, sizeof *x * (size_t)d);
      for (k = 0; k < K; k++) {
        for (j = 0; j < d; j++) g[j] = 0;
        for (i = (long)w * M; i < (long)(w + 1) * M; i++) {
          const double *c = C + (size_t)i * d;
          for (j = 0; j < d; j++) g[j] += h[j] * (y[j] - c[j]);
        }
        for (j = 0; j < d; j++) g[j] *= 1 / (double)M;
        for (j = 0; j < d; j++) y[j] -= LR * g[j];
      }
      for (j = 0; j < d; j++) ybar[j] += y[j];
    }
    for (j = 0; j < d; j++) ybar[j] *= 1 / (double)W;
    memcpy(x, ybar, sizeof *x * (size_t)d);
  }
}

static double fed_engine (const ol_problem *p, int rounds, int K, double *x0)
{
  const ol_method_type *m = ol_method_find("dist.fedavg");
  double par[16], t0;
  int i;
  ol_run_opts o;
  ol_err e;
  ol_run *r;
  for (i = 0; i < m->nparams; i++) {
    par[i] = m->params[i].def;
    if (strcmp(m->params[i].name, "K") == 0) par[i] = K;
    if (strcmp(m->params[i].name, "lr") == 0) par[i] = LR;
  }
  ol_run_opts_default(&o);
  o.iters = rounds;
  o.cap = 16;
  o.tol = 0;
  o.metrics = OL_MSET_OF(OL_MET_ROUNDS);
  r = ol_run_new(p, m, par, &o, &e);
  if (r == NULL) {
    fprintf(stderr, "fed: %s\n", e.msg);
    exit(1);
  }
  t0 = bench_now();
  ol_run_advance(r, rounds);
  t0 = bench_now() - t0;
  if (ol_run_reason(r) != OL_STOP_BUDGET)
    fprintf(stderr, "fed: engine stopped: %s %s\n",
            ol_stop_name(ol_run_reason(r)), ol_run_message(r));
  x0[0] = ol_run_x(r)[0];
  ol_run_free(r);
  return t0;
}

int main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi(argv[1]) : 10;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  int K = argc > 3 ? atoi(argv[3]) : 5;
  int d = argc > 4 ? atoi(argv[4]) : 10, k;
  double tf[64], te[64], xe[1], *x, *y, *g, *ybar;
  const ol_problem_type *pt = ol_problem_type_find("fedquad");
  ol_pval pv[8] = {{0}};
  ol_err e;
  ol_problem *p;
  if (pt == NULL || rounds < 1 || reps < 1 || reps > 64 || K < 1 || d < 1)
    return 1;
  for (k = 0; k < pt->nparams; k++) pv[k].num = pt->params[k].def;
  pv[0].num = d;
  pv[1].num = W;
  pv[2].num = M;
  if ((p = ol_problem_new(pt, pv, &e)) == NULL) {
    fprintf(stderr, "fed: %s\n", e.msg);
    return 1;
  }
  x = malloc(4 * sizeof *x * (size_t)d);
  if (x == NULL) return 1;
  y = x + d;
  g = y + d;
  ybar = g + d;
  for (k = 0; k < reps; k++) {
    double t0 = bench_now();
    fed_floor(p, rounds, K, x, y, g, ybar);
    tf[k] = bench_now() - t0;
    te[k] = fed_engine(p, rounds, K, xe);
  }
  printf("FED floor  ms/round %.3f  x[0] %.17g\n",
         1e3 * bench_median(tf, reps) / rounds, x[0]);
  printf("FED engine ms/round %.3f  x[0] %.17g\n",
         1e3 * bench_median(te, reps) / rounds, xe[0]);
  printf("FED fedavg round: %.2fx the C floor (target <= 1.3x; 10^5 "
         "components, %d clients, K = %d, d = %d)%s\n",
         bench_median(te, reps) / bench_median(tf, reps), W, K, d,
         x[0] == xe[0] ? "" : "  (finals differ!)");
  free(x);
  ol_problem_free(p);
  return 0;
}
