/*
** tests/bench/w2.c -- W2: Adam (lr 1e-3, beta1 0.9, beta2 0.999, eps 1e-8)
** on problem.quadratic{n = 10^6, rotate = false} (cond 10: lambda_i =
** 10^(-i/(n-1)), x0 = ones), through the run engine, against the fused,
** vectorized C floor of bench/peers/src/w2_adam_quad.c (one pass per step
** reading lambda, x, m, v and writing x, m, v, 56 B/elem), compiled here
** with the project's flags (make: -O3 and ARCH, -march=native by default).
**
** Both do W warm-up steps untimed, then T timed steps taken in
** alternating chunks of C steps (floor chunk, engine chunk, ...), so that
** a change in the machine's load during the run hits both alike.  The
** engine's records are sparse in the window (cap 16: after W = 256 steps
** the record stride is >= 32); the record count in the window is printed.
** The floor uses the same expression order as core/optim/adam.c, so the
** final iterates agree bit for bit (printed).
**
** The engine takes the gradient a block of OL_GBLOCK coordinates at a time
** (ol_ctx_grad_apply: quadratic's separable oracle with its finiteness
** test, then adam's update of the block), so the gradient never leaves
** the cache.  A profile of those parts, each timed alone over T
** passes on the floor's arrays:
**   oracle   quadratic's gsep over all blocks into one block buffer (with
**            its finiteness test)
**   adam     the update loop of adam.c given a block of g (a replica)
** Prints ms/step of each and the ratio engine / floor.
** usage: w2 [n] [T] [reps]; run with OPENBLAS_NUM_THREADS=1.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "method.h"
#include "run.h"
#include "runpriv.h"

#define W2_WARM 256
#define W2_CHUNK 10

static const double LR = 1e-3, B1 = 0.9, B2 = 0.999, EPS = 1e-8;

/* Fused Adam on f = 1/2 sum lam_i x_i^2: steps t0+1 .. t0+T. */
static void fused (long n, const double *lam, double *x, double *m,
                   double *v, long t0, long T, double *b1t, double *b2t)
{
  long t, i;
  (void)t0;
  for (t = 0; t < T; t++) {
    double a, r;
    *b1t *= B1;
    *b2t *= B2;
    a = LR / (1 - *b1t);
    r = 1 / sqrt(1 - *b2t);
    for (i = 0; i < n; i++) {
      double gi = lam[i] * x[i];
      double mi = B1 * m[i] + (1 - B1) * gi;
      double vi = B2 * v[i] + (1 - B2) * gi * gi;
      m[i] = mi;
      v[i] = vi;
      x[i] -= a * mi / (sqrt(vi) * r + EPS);
    }
  }
}

/* The update loop of adam.c given g, block by block as adam.c runs it
** (gb holds each block's gradient; the oracle is not called). */
static void adam_pass (long n, const double *gb, double *x, double *m,
                       double *v, double a, double r)
{
  long lo, hi, i;
  for (lo = 0; lo < n; lo = hi) {
    hi = ol_gblock_end(lo, n);
    for (i = lo; i < hi; i++) {
      double gi = gb[i - lo];
      double mi = B1 * m[i] + (1 - B1) * gi;
      double vi = B2 * v[i] + (1 - B2) * gi * gi;
      m[i] = mi;
      v[i] = vi;
      x[i] -= a * mi / (sqrt(vi) * r + EPS);
    }
  }
}

int main (int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  long T = argc > 2 ? atol(argv[2]) : 100, i, k;
  int reps = argc > 3 ? atoi(argv[3]) : 3, rp, len0, len1;
  const ol_problem_type *pt = ol_problem_type_find("quadratic");
  const ol_method_type *mt = ol_method_find("adam");
  const char *thr = getenv("OPENBLAS_NUM_THREADS");
  double *lam, *x, *m, *v, *g, tf[64], te[64], tpart[3][64], par[8];
  double b1t, b2t, dx = 0, fl, en, sum;
  ol_pval pv[8];
  ol_run_opts o;
  ol_problem *p;
  ol_err e;
  if (!pt || !mt || n < 2 || T < 1 || reps < 1 || reps > 64) {
    fprintf(stderr, "usage: w2 [n >= 2] [T >= 1] [1 <= reps <= 64]\n");
    return 2;
  }
  memset(pv, 0, sizeof pv);
  for (k = 0; k < pt->nparams; k++) pv[k].num = pt->params[k].def;
  pv[0].num = (double)n;
  pv[ol_param_find(pt->params, pt->nparams, "rotate")].num = 0;
  for (k = 0; k < mt->nparams; k++) par[k] = mt->params[k].def;
  if ((p = ol_problem_new(pt, pv, &e)) == NULL) {
    fprintf(stderr, "w2: %s\n", e.msg);
    return 1;
  }
  lam = malloc(n * sizeof *lam);
  x = malloc(n * sizeof *x);
  m = malloc(n * sizeof *m);
  v = malloc(n * sizeof *v);
  g = malloc(OL_GBLOCK * sizeof *g);
  if (!lam || !x || !m || !v || !g) return 1;
  fl = pv[1].num;
  for (i = 0; i < n; i++) lam[i] = pow(fl, -(double)i / (n - 1));
  ol_run_opts_default(&o);
  o.iters = W2_WARM + T;
  o.cap = 16;
  o.record_x = 0;
  o.metrics = OL_MSET_OF(OL_MET_LOSS);
  for (rp = 0; rp < reps; rp++) {
    ol_run *r;
    double t0;
    long done;
    for (i = 0; i < n; i++) {
      x[i] = 1;
      m[i] = v[i] = 0;
    }
    b1t = b2t = 1;
    if ((r = ol_run_new(p, mt, par, &o, &e)) == NULL) {
      fprintf(stderr, "w2: %s\n", e.msg);
      return 1;
    }
    /* (1) warm-up, untimed; then floor and engine in alternating chunks */
    fused(n, lam, x, m, v, 0, W2_WARM, &b1t, &b2t);
    ol_run_advance(r, W2_WARM);
    len0 = ol_run_len(r);
    tf[rp] = te[rp] = 0;
    for (done = 0; done < T; done += W2_CHUNK) {
      long c = T - done < W2_CHUNK ? T - done : W2_CHUNK;
      t0 = bench_now();
      fused(n, lam, x, m, v, W2_WARM + done, c, &b1t, &b2t);
      tf[rp] += bench_now() - t0;
      t0 = bench_now();
      ol_run_advance(r, c);
      te[rp] += bench_now() - t0;
    }
    len1 = ol_run_len(r);
    if (ol_run_reason(r) != OL_STOP_NONE && ol_run_reason(r) != OL_STOP_BUDGET)
      return bench_finish("w2", r, p, OL_STOP_BUDGET);
    for (i = 0, dx = 0; i < n; i++)
      dx = fmax(dx, fabs(ol_run_x(r)[i] - x[i]));
    ol_run_free(r);
    /* (2) profile of the parts, on the floor's arrays */
    {
      double a = LR / (1 - b1t), rr = 1 / sqrt(1 - b2t);
      long lo, hi;
      sum = 0;
      t0 = bench_now();
      for (k = 0; k < T; k++)
        for (lo = 0; lo < n; lo = hi) {
          hi = ol_gblock_end(lo, n);
          sum += p->gsep(p->ud, x, (int)lo, (int)hi, g, &e);
        }
      tpart[0][rp] = bench_now() - t0;
      t0 = bench_now();
      for (k = 0; k < T; k++) adam_pass(n, g, x, m, v, a * 1e-30, rr);
      tpart[2][rp] = bench_now() - t0;
      if (sum < 0) printf("%g\n", sum);
    }
  }
  fl = 1e3 * bench_median(tf, reps) / T;
  en = 1e3 * bench_median(te, reps) / T;
  printf("W2 n=%ld T=%ld (after %d warm-up steps; chunks of %d, "
         "alternating) reps=%d OPENBLAS_NUM_THREADS=%s\n", n, T, W2_WARM,
         W2_CHUNK, reps,
         thr ? thr : "(unset)");
  printf("W2 floor  ms/step %.3f  (fused vectorized loop, %.1f GB/s at 56 "
         "B/elem)\n",
         fl, 56.0 * n / (fl * 1e-3) / 1e9);
  printf("W2 engine ms/step %.3f  (records in the window: %d; max |x - "
         "x_floor| %.1e)\n", en, len1 - len0 + 1, dx);
  printf("W2 ratio  %.2fx the floor (target <= 1.3x)\n", en / fl);
  printf("W2 parts  ms/step: oracle %.3f  adam %.3f  (sum %.3f; blocks of "
         "%d)\n", 1e3 * bench_median(tpart[0], reps) / T,
         1e3 * bench_median(tpart[2], reps) / T,
         1e3 * (bench_median(tpart[0], reps) + bench_median(tpart[2], reps))
         / T, OL_GBLOCK);
  free(lam); free(x); free(m); free(v); free(g);
  ol_problem_free(p);
  return 0;
}
