/*
** tests/c/t_band.c -- the quantile bands of finished runs (core/runpack.c:
** ol_run_band), which the live view of a repeats draws (issue 16).
**
** Truth, computed here from the runs' own series without the band's code:
**   runs of one length: at every recorded time, q = 0 is the least value,
**     q = 1 the largest, q = 0.5 of 7 runs the 4th in order (no
**     interpolation), q = 0.1 the type-7 quantile h = 0.6 between the 1st
**     and 2nd in order; each band's smallest value (vmin) is the least of
**     its series;
**   runs of two lengths (one stopped after 40 of 200 steps): at a time
**     past the short run's last record, it takes part with its last
**     value, found here by a linear search;
**   mismatched runs and a q outside [0, 1] are refused.
** Runs: gd lr = 0.05 on quadratic{n = 3} with Gaussian gradient noise
** sigma = 1, seed 7, streams 0..6 (printed).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "runpack.h"
#include "tap.h"

#define NR 7
#define SEED 7u

static int cmpd (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static ol_run *gdrun (const ol_problem *p, long iters, int stream,
                      int record_x, int go)
{
  double par[16];
  const ol_method_type *m = olt_method("gd", par, "lr", 0.05, (char *)NULL);
  ol_run_opts o = olt_opts(iters, 0, OL_MSET_EMPTY);
  o.seed = SEED;
  o.stream = (uint64_t)stream;
  o.record_x = record_x;
  return go ? olt_go(p, m, par, &o) : olt_run(p, m, par, &o);
}

/* The value run r holds at time t: its last record at or before t; NAN
** when its first record is after t. */
static double holds (const ol_run *r, int metric, long t)
{
  const long *ts = ol_run_times(r);
  const double *v = ol_run_series(r, metric);
  int k, at = -1;
  for (k = 0; k < ol_run_len(r); k++)
    if (ts[k] <= t) at = k;
  return at < 0 ? NAN : v[at];
}

int main (void)
{
  ol_problem *p = olt_quadratic(3, 10, 1);
  ol_run *src[NR], *dst[5];
  const double q[5] = {0, 0.1, 0.5, 0.9, 1};
  double v[NR];
  ol_err e;
  int i, k, b, len, bad[5] = {0}, badv = 0, mets[2] = {OL_MET_LOSS,
                                                     OL_MET_GRADNORM};
  diag("seed %u, streams 0..%d", SEED, NR - 1);
  p->noise.kind = OL_NOISE_GAUSS;
  p->noise.sigma = 1;
  for (i = 0; i < NR; i++) src[i] = gdrun(p, 200, i, 1, 1);
  for (b = 0; b < 5; b++) dst[b] = gdrun(p, 200, 0, 0, 0);
  ok(ol_run_band(dst, q, 5, src, NR, &e) == OL_OK, "band: 5 quantiles of "
     "7 runs");
  len = ol_run_len(src[0]);
  is_int(ol_run_len(dst[2]), len, "band: the bands take the runs' time axis");
  ok(memcmp(ol_run_times(dst[2]), ol_run_times(src[0]),
            (size_t)len * sizeof(long)) == 0,
     "band: the same recorded times");
  for (i = 0; i < 2; i++) {
    int met = mets[i];
    for (k = 0; k < len; k++) {
      double want[5];
      for (b = 0; b < NR; b++) v[b] = ol_run_series(src[b], met)[k];
      qsort(v, NR, sizeof *v, cmpd);
      want[0] = v[0];
      want[1] = v[0] + 0.6 * (v[1] - v[0]);
      want[2] = v[3];
      want[3] = v[5] + 0.4 * (v[6] - v[5]);
      want[4] = v[6];
      for (b = 0; b < 5; b++) {
        double got = ol_run_series(dst[b], met)[k];
        double tol = (b == 1 || b == 3) ? 1e-15 * (1 + fabs(want[b])) : 0;
        if (!(fabs(got - want[b]) <= tol)) bad[b]++;
      }
    }
  }
  ok(bad[0] == 0 && bad[4] == 0, "band: q = 0 and q = 1 are the least and "
     "largest value at each of %d times, loss and gradnorm (%d, %d off)",
     len, bad[0], bad[4]);
  ok(bad[2] == 0, "band: q = 0.5 of 7 runs is the 4th in order (%d off)",
     bad[2]);
  ok(bad[1] == 0 && bad[3] == 0, "band: q = 0.1, 0.9 interpolate the order "
     "statistics at h = 0.6, 5.4 to 1e-15 (%d, %d off)", bad[1], bad[3]);
  for (b = 0; b < 5; b++) {
    double lo = INFINITY;
    for (k = 0; k < len; k++)
      lo = fmin(lo, ol_run_series(dst[b], OL_MET_LOSS)[k]);
    if (ol_run_min(dst[b], OL_MET_LOSS) != lo) badv++;
  }
  ok(badv == 0, "band: each band's vmin is the least of its series");
  {
    int spread = 0;
    for (k = 0; k < len; k++)
      spread += ol_run_series(dst[0], OL_MET_LOSS)[k]
                < ol_run_series(dst[4], OL_MET_LOSS)[k];
    ok(spread >= len - 1, "band: the noisy runs differ: the least below the "
       "largest at %d of %d times", spread, len);
  }
  ok(ol_run_traj(dst[2], &k) == NULL, "band: a band records no trajectory");

  /* runs of two lengths: the short one holds its last value */
  {
    ol_run *two[2], *one;
    const double qmax = 1;
    int off = 0, past = 0;
    two[0] = gdrun(p, 40, 1, 1, 1);
    two[1] = gdrun(p, 200, 2, 1, 1);
    one = gdrun(p, 200, 0, 0, 0);
    ok(ol_run_band(&one, &qmax, 1, two, 2, &e) == OL_OK &&
       ol_run_len(one) == ol_run_len(two[1]),
       "band: runs of 40 and 200 steps: the longer one's time axis");
    for (k = 0; k < ol_run_len(one); k++) {
      long t = ol_run_times(one)[k];
      double a = holds(two[0], OL_MET_LOSS, t), c = holds(two[1],
                                                          OL_MET_LOSS, t);
      double want = isnan(a) ? c : fmax(a, c);
      if (t > 40) past++;
      if (ol_run_series(one, OL_MET_LOSS)[k] != want) off++;
    }
    ok(off == 0 && past > 0, "band: past step 40 the short run takes part "
       "with its last value (%d times past 40, %d off)", past, off);
    ol_run_free(two[0]);
    ol_run_free(two[1]);
    ol_run_free(one);
  }

  /* refusals */
  {
    const double qbad = 1.5;
    ol_run *g;
    double par[16];
    const ol_method_type *m = olt_method("gd", par, (char *)NULL);
    ol_run_opts o = olt_opts(10, 0, OL_MSET_OF(OL_MET_LOSS));
    is_int(ol_run_band(dst, &qbad, 1, src, NR, &e), OL_EINVAL,
           "band: q = 1.5 is refused");
    ok(strstr(e.msg, "[0, 1]") != NULL, "band: ... naming the range (%s)",
       e.msg);
    g = olt_run(p, m, par, &o);
    is_int(ol_run_band(&g, q, 1, src, NR, &e), OL_EINVAL,
           "band: a band recording other metrics is refused");
    ok(strstr(e.msg, "other metrics") != NULL, "band: ... saying so (%s)",
       e.msg);
    is_int(ol_run_band(dst, q, 1, src, 0, &e), OL_EINVAL,
           "band: no runs is refused");
    ol_run_free(g);
  }
  for (i = 0; i < NR; i++) ol_run_free(src[i]);
  for (b = 0; b < 5; b++) ol_run_free(dst[b]);
  ol_problem_free(p);
  return done();
}
