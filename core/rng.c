/*
** core/rng.c -- xoshiro256** with splitmix64 seeding (see rng.h).
**
** Generator: xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear
** pseudorandom number generators", 2018/2021).  Seeding: the four state
** words are four consecutive outputs of splitmix64 started at 'seed'; then
** the xoshiro jump() (equivalent to 2^128 calls of next) is applied
** 'stream' times.  Streams of one seed are therefore non-overlapping
** blocks of 2^128 outputs of a single sequence.  Cost is O(stream) jumps
** (about a microsecond each): streams are meant to be chain / repeat
** indices, not hashes.
**
** Variates: uniform from the top 53 bits; normal by Marsaglia's polar
** method with the second deviate cached in the struct (reseeding clears
** it); gamma by Marsaglia & Tsang (2000) with the U^(1/a) boost for a < 1;
** Student-t as Z / sqrt(chi2_nu / nu); Exp(1) by inversion, -log(1 - U)
** with 1 - U in (0, 1]; integers below n by rejection, so
** they are exactly uniform.  Invalid shape parameters give NaN (the core
** never aborts).
*/
#include "rng.h"

#include <math.h>

/* splitmix64 (Steele, Lea & Flood 2014; Vigna's reference code). */
static uint64_t splitmix64 (uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static inline uint64_t rotl (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

uint64_t ol_rng_u64 (ol_rng *r)
{
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

/* Advance the state by 2^128 outputs (reference jump polynomial). */
static void jump (ol_rng *r)
{
  static const uint64_t JUMP[] = {
    0x180ec6d33cfd0abau, 0xd5a61266f0c9392cu,
    0xa9582618e03fc9aau, 0x39abdc4529b1661cu
  };
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int i, b;
  for (i = 0; i < 4; i++)
    for (b = 0; b < 64; b++) {
      if (JUMP[i] & ((uint64_t)1 << b)) {
        s0 ^= r->s[0];
        s1 ^= r->s[1];
        s2 ^= r->s[2];
        s3 ^= r->s[3];
      }
      ol_rng_u64(r);
    }
  r->s[0] = s0;
  r->s[1] = s1;
  r->s[2] = s2;
  r->s[3] = s3;
}

/* Seed r from (seed, stream); any values are valid.  splitmix64 output is
** a bijection of its counter, so the state is never all zero for the four
** consecutive outputs taken here. */
void ol_rng_seed (ol_rng *r, uint64_t seed, uint64_t stream)
{
  uint64_t x = seed, k;
  int i;
  for (i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
  for (k = 0; k < stream; k++) jump(r);
  r->spare = 0;
  r->has_spare = 0;
}

double ol_rng_uniform (ol_rng *r)
{
  return (double)(ol_rng_u64(r) >> 11) * 0x1.0p-53;
}

double ol_rng_normal (ol_rng *r)
{
  double u, v, s, m;
  if (r->has_spare) {
    r->has_spare = 0;
    return r->spare;
  }
  do {
    u = 2 * ol_rng_uniform(r) - 1;
    v = 2 * ol_rng_uniform(r) - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  m = sqrt(-2 * log(s) / s);
  r->spare = v * m;
  r->has_spare = 1;
  return u * m;
}

void ol_rng_normals (ol_rng *r, double *z, int n)
{
  int i;
  for (i = 0; i < n; i++) z[i] = ol_rng_normal(r);
}

/* Gamma(a, 1).  For a < 1: X = G(a + 1) U^(1/a) with U in (0, 1]. */
double ol_rng_gamma (ol_rng *r, double a)
{
  double d, c, x, v, u;
  if (!(a > 0) || isinf(a)) return NAN;
  if (a < 1) {
    double g = ol_rng_gamma(r, a + 1);
    u = 1 - ol_rng_uniform(r);
    return g * pow(u, 1 / a);
  }
  d = a - 1.0 / 3;
  c = 1 / sqrt(9 * d);
  for (;;) {
    do {
      x = ol_rng_normal(r);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    u = ol_rng_uniform(r);
    if (u < 1 - 0.0331 * (x * x) * (x * x)) return d * v;
    if (log(u) < 0.5 * x * x + d * (1 - v + log(v))) return d * v;
  }
}

/* Student-t with nu degrees of freedom: Z / sqrt(chi2_nu / nu), where
** chi2_nu = 2 Gamma(nu / 2, 1). */
double ol_rng_student (ol_rng *r, double nu)
{
  double z, chi2;
  if (!(nu > 0) || isinf(nu)) return NAN;
  z = ol_rng_normal(r);
  chi2 = 2 * ol_rng_gamma(r, nu / 2);
  return z / sqrt(chi2 / nu);
}

/* Exp(1) by inversion: -log(V), V = 1 - U in (0, 1], so the result is
** finite and >= 0. */
double ol_rng_exp (ol_rng *r)
{
  return -log(1 - ol_rng_uniform(r));
}

/* Uniform on 0..n-1, exactly: draws below 2^64 mod n are rejected so the
** accepted range is a whole number of copies of 0..n-1.  n <= 0 gives 0. */
long ol_rng_below (ol_rng *r, long n)
{
  uint64_t un, lim, x;
  if (n <= 1) return 0;
  un = (uint64_t)n;
  lim = (0 - un) % un;
  do x = ol_rng_u64(r); while (x < lim);
  return (long)(x % un);
}
