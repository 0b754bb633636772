/*
** tests/c/t_rng.c -- the random number generator.
**
** Truth: published reference outputs (splitmix64 from 0; xoshiro256**
** from state {1, 2, 3, 4}), stream offsets computed independently as the
** 2^128-th power of the generator's GF(2) transition matrix (a Python
** script, not the jump polynomial), and moments of the distributions with
** tolerances in standard errors.
*/
#include "rng.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define SEED 20240917u

/* |got - want| <= k se, reported with the numbers. */
static int within (double got, double want, double se, double k,
                   const char *what)
{
  return is_near(got, want, k * se, "%s (%.4g vs %.4g, %g se = %.3g)",
                 what, got, want, k, k * se);
}

/* The reference jump() of xoshiro256** 1.0 (2^128 calls of next). */
static void refjump (ol_rng *r)
{
  static const uint64_t JUMP[] = {
    0x180ec6d33cfd0abau, 0xd5a61266f0c9392cu,
    0xa9582618e03fc9aau, 0x39abdc4529b1661cu
  };
  uint64_t s[4] = {0, 0, 0, 0};
  int i, b, k;
  for (i = 0; i < 4; i++)
    for (b = 0; b < 64; b++) {
      if (JUMP[i] & ((uint64_t)1 << b))
        for (k = 0; k < 4; k++) s[k] ^= r->s[k];
      ol_rng_u64(r);
    }
  for (k = 0; k < 4; k++) r->s[k] = s[k];
}

static void moments (ol_rng *r, int kind, double a, int n, double *mean,
                     double *var)
{
  double s = 0, s2 = 0;
  int i;
  for (i = 0; i < n; i++) {
    double x = kind == 0 ? ol_rng_normal(r)
      : kind == 1 ? ol_rng_gamma(r, a) : ol_rng_student(r, a);
    s += x;
    s2 += x * x;
  }
  *mean = s / n;
  *var = s2 / n - *mean * *mean;
}

int main (void)
{
  ol_rng r, q;
  int i, n, same, counts[6] = {0}, bad;
  double m, v, s, chi2;

  /* references */
  ol_rng_seed(&r, 0, 0);
  ok(r.s[0] == 0xe220a8397b1dcdafu,
     "rng: seed 0 state starts with splitmix64(0) = 0xe220a8397b1dcdaf");
  r.s[0] = 1; r.s[1] = 2; r.s[2] = 3; r.s[3] = 4;
  ok(ol_rng_u64(&r) == 11520u && ol_rng_u64(&r) == 0 &&
     ol_rng_u64(&r) == 1509978240u &&
     ol_rng_u64(&r) == 1215971899390074240u,
     "rng: xoshiro256** from {1,2,3,4} gives the reference outputs");
  ol_rng_seed(&r, 0, 0);
  ok(ol_rng_u64(&r) == 0x99ec5f36cb75f2b4u,
     "rng: seed 0 stream 0 first output matches the reference");
  ol_rng_seed(&r, 0, 1);
  ok(ol_rng_u64(&r) == 0x376215edc846d62cu,
     "rng: stream 1 is the stream-0 state advanced 2^128 steps");
  ol_rng_seed(&r, 0, 2);
  ok(ol_rng_u64(&r) == 0xa72791f60c825a41u,
     "rng: stream 2 is the stream-0 state advanced 2^129 steps");
  {
    /* the jump-ahead (JUMP^k mod P) against k + 1 = k then one reference
    ** jump, for small, large and extreme k; from 2^b - 1 to 2^b the
    ** product of the table's entries 0 .. b - 1 and JUMP must equal entry
    ** b (core/rng.c), so 2^63 - 1 checks all 64 */
    static const uint64_t ks[] = {
      0, 1, 2, 3, 1000, ((uint64_t)1 << 32) - 1, ((uint64_t)1 << 40) - 1,
      (uint64_t)1 << 40, (uint64_t)1 << 53,
      ((uint64_t)1 << 53) + 1, ((uint64_t)1 << 63) - 1, ~(uint64_t)0 - 1
    };
    int j, good = 1;
    for (j = 0; j < (int)(sizeof ks / sizeof ks[0]); j++) {
      ol_rng_seed(&r, SEED, ks[j]);
      refjump(&r);
      ol_rng_seed(&q, SEED, ks[j] + 1);
      if (memcmp(r.s, q.s, sizeof r.s) != 0) {
        diag("stream %llu + 1 differs", (unsigned long long)ks[j]);
        good = 0;
      }
    }
    ok(good, "rng: stream k + 1 is stream k advanced by one reference jump "
       "(k up to 2^64 - 2)");
  }

  /* determinism and independence */
  diag("seed %u", (unsigned)SEED);
  ol_rng_seed(&r, SEED, 0);
  ol_rng_seed(&q, SEED, 0);
  for (i = 0, same = 1; i < 1000; i++)
    if (ol_rng_u64(&r) != ol_rng_u64(&q)) same = 0;
  ok(same, "rng: the same seed and stream give the same sequence");
  ol_rng_seed(&r, SEED, 0);
  ol_rng_seed(&q, SEED + 1, 0);
  for (i = 0, same = 0; i < 1000; i++)
    if (ol_rng_u64(&r) == ol_rng_u64(&q)) same++;
  is_int(same, 0, "rng: neighbouring seeds share no outputs in 1000 draws");
  n = 100000;
  ol_rng_seed(&r, SEED, 0);
  ol_rng_seed(&q, SEED, 1);
  for (i = 0, s = 0; i < n; i++)
    s += (ol_rng_uniform(&r) - 0.5) * (ol_rng_uniform(&q) - 0.5) * 12;
  within(s / n, 0, 1 / sqrt(n), 5, "rng: streams 0 and 1 are uncorrelated");

  /* uniform */
  ol_rng_seed(&r, SEED, 0);
  for (i = 0, s = 0, bad = 0; i < n; i++) {
    double u = ol_rng_uniform(&r);
    if (!(u >= 0 && u < 1)) bad++;
    s += u;
  }
  is_int(bad, 0, "rng: uniform lies in [0, 1)");
  within(s / n, 0.5, sqrt(1.0 / 12 / n), 5, "rng: uniform has mean 1/2");

  /* normal */
  ol_rng_seed(&r, SEED, 0);
  moments(&r, 0, 0, n, &m, &v);
  within(m, 0, 1 / sqrt(n), 5, "rng: normal has mean 0");
  within(v, 1, sqrt(2.0 / n), 5, "rng: normal has variance 1");
  ol_rng_seed(&r, SEED, 0);
  ol_rng_normal(&r);
  ok(r.has_spare, "rng: polar method caches its second deviate");
  ol_rng_seed(&r, SEED, 0);
  ok(!r.has_spare, "rng: reseeding drops the cached deviate");
  {
    double a = ol_rng_normal(&r), b = ol_rng_normal(&r), c2;
    ol_rng_seed(&q, SEED, 0);
    c2 = ol_rng_normal(&q);
    ok(a == c2 && b != a, "rng: normal sequence replays after reseeding");
  }

  /* gamma (mean a, variance a, var of sample var (2a^2 + 6a) / n) */
  {
    static const double as[] = {0.3, 1, 4.5};
    for (i = 0; i < 3; i++) {
      double a = as[i];
      ol_rng_seed(&r, SEED, (uint64_t)i);
      moments(&r, 1, a, n, &m, &v);
      within(m, a, sqrt(a / n), 5, "rng: gamma(a) has mean a");
      within(v, a, sqrt((2 * a * a + 6 * a) / n), 5,
             "rng: gamma(a) has variance a");
    }
  }
  ok(isnan(ol_rng_gamma(&r, 0)) && isnan(ol_rng_gamma(&r, -1)),
     "rng: gamma with a <= 0 is NaN");

  /* Student-t, nu = 10: variance nu/(nu-2), 4th moment 3nu^2/((nu-2)(nu-4)) */
  ol_rng_seed(&r, SEED, 7);
  moments(&r, 2, 10, n, &m, &v);
  within(m, 0, sqrt(1.25 / n), 5, "rng: student(10) has mean 0");
  within(v, 1.25, sqrt((6.25 - 1.5625) / n), 5,
         "rng: student(10) has variance nu/(nu-2)");
  ok(isnan(ol_rng_student(&r, 0)), "rng: student with nu <= 0 is NaN");

  /* below: chi-square over 6 cells, df 5, 1e-4 critical value 25.74 */
  ol_rng_seed(&r, SEED, 0);
  for (i = 0, bad = 0; i < 60000; i++) {
    long k = ol_rng_below(&r, 6);
    if (k < 0 || k > 5) bad++;
    else counts[k]++;
  }
  for (i = 0, chi2 = 0; i < 6; i++)
    chi2 += (counts[i] - 10000.0) * (counts[i] - 10000.0) / 10000;
  is_int(bad, 0, "rng: below(6) stays in 0..5");
  ok(chi2 < 25.74, "rng: below(6) is uniform (chi2 = %.2f, df 5)", chi2);
  is_int(ol_rng_below(&r, 1), 0, "rng: below(1) is 0");
  {
    long big = (long)(((uint64_t)1 << 62) + 1), k = 0;
    for (i = 0, bad = 0; i < 1000; i++) {
      k = ol_rng_below(&r, big);
      if (k < 0 || k >= big) bad++;
    }
    is_int(bad, 0, "rng: below(2^62 + 1) stays in range");
  }
  {
    double z[5];
    ol_rng_seed(&r, SEED, 0);
    ol_rng_seed(&q, SEED, 0);
    ol_rng_normals(&r, z, 5);
    for (i = 0, same = 1; i < 5; i++)
      if (z[i] != ol_rng_normal(&q)) same = 0;
    ok(same, "rng: normals(n) equals n calls of normal");
  }
  return done();
}
