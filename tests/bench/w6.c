/*
** tests/bench/w6.c -- W6: Newton-Schulz quintic, 5 steps, on a 1024 x 1024
** matrix through ol_polar_ns5 (core/polar.c, what Muon runs), against the
** DGEMM-bound floor: the 15 cblas_dgemm calls of the same sizes (3 per
** step: X X', c A A + b A, B X + a X), timed directly in this program on
** the same buffers, nothing else.  ol_polar_ns5 adds the Frobenius norm,
** the scaling and two n^2 copies per step.  With a third argument "svd"
** it also times the exact polar factor once (ol_polar_svd: dgesvd, QR
** iteration, tens of seconds at n = 1024 on one core).  G is iid N(0, 1),
** seed 1.  Prints:  W6 <variant> ms <median>; run with
** OPENBLAS_NUM_THREADS=1 for the single-core figures of bench/peers.
** usage: w6 [n] [reps] [svd]
*/
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "polar.h"
#include "rng.h"

static void floor_dgemms (int n, double *X, double *A, double *B, double *Y)
{
  int s;
  for (s = 0; s < 5; s++) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, X, n,
                X, n, 0.0, A, n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
                OL_NS5_C, A, n, A, n, OL_NS5_B, B, n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, B,
                n, X, n, OL_NS5_A, Y, n);
  }
}

int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 1024, reps = argc > 2 ? atoi(argv[2]) : 3;
  size_t nn, k, wn, ws;
  double *G, *O, *A, *B, *Y, *work, tf[64], tp[64], tsvd = 0, t0, gf;
  ol_rng rng;
  ol_err e;
  const char *thr = getenv("OPENBLAS_NUM_THREADS");
  int r;
  if (n < 2 || reps < 1 || reps > 64) {
    fprintf(stderr, "usage: w6 [n >= 2] [1 <= reps <= 64]\n");
    return 2;
  }
  nn = (size_t)n * n;
  wn = ol_polar_ns5_work(n, n);
  ws = ol_polar_svd_work(n, n);
  G = malloc(nn * sizeof *G);
  O = malloc(nn * sizeof *O);
  A = malloc(nn * sizeof *A);
  B = malloc(nn * sizeof *B);
  Y = malloc(nn * sizeof *Y);
  work = malloc((wn > ws ? wn : ws) * sizeof *work);
  if (!G || !O || !A || !B || !Y || !work || ws == 0) {
    fprintf(stderr, "w6: out of memory\n");
    return 1;
  }
  ol_rng_seed(&rng, 1, 0);
  ol_rng_normals(&rng, G, (int)nn);
  for (k = 0; k < nn; k++) {
    O[k] = G[k] / n;
    A[k] = B[k] = Y[k] = 0;
  }
  for (r = 0; r < reps; r++) {
    t0 = bench_now();
    floor_dgemms(n, O, A, B, Y);
    tf[r] = bench_now() - t0;
    t0 = bench_now();
    ol_polar_ns5(n, n, G, O, 5, work);
    tp[r] = bench_now() - t0;
  }
  if (argc > 3 && strcmp(argv[3], "svd") == 0) {
    t0 = bench_now();
    if (ol_polar_svd(n, n, G, Y, work, ws, &e) != OL_OK) {
      fprintf(stderr, "w6: %s\n", e.msg);
      return 1;
    }
    tsvd = bench_now() - t0;
  }
  gf = 30.0 * n * (double)n * n / 1e9;
  printf("W6 n=%d reps=%d OPENBLAS_NUM_THREADS=%s\n", n, reps,
         thr ? thr : "(unset)");
  printf("W6 floor ms %.1f  (15 dgemm, %.1f GFLOP/s)\n",
         1e3 * bench_median(tf, reps), gf / bench_median(tf, reps));
  printf("W6 polar ms %.1f  (ol_polar_ns5, ortherr %.3f)\n",
         1e3 * bench_median(tp, reps), ol_polar_ortherr(n, n, O, A));
  if (tsvd > 0)
    printf("W6 svd ms %.1f  (ol_polar_svd, one run, for reference)\n",
           1e3 * tsvd);
  free(G); free(O); free(A); free(B); free(Y); free(work);
  return 0;
}
