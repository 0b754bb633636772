/*
** core/rng.c -- xoshiro256** with splitmix64 seeding (see rng.h).
**
** Generator: xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear
** pseudorandom number generators", 2018/2021).  Seeding: the four state
** words are four consecutive outputs of splitmix64 started at 'seed'; then
** the state is advanced by stream * 2^128 outputs, as if the reference
** jump() (2^128 calls of next) were applied 'stream' times.  Streams of
** one seed are therefore non-overlapping blocks of 2^128 outputs of a
** single sequence (the period is 2^256 - 1, so every stream 0 .. 2^64 - 1
** has its own block).  The advance is a jump-ahead: the state update is
** linear over GF(2) with characteristic polynomial P (degree 256), so
** advancing by d outputs is applying the polynomial x^d mod P, and
** x^(stream 2^128) = JUMP^stream mod P (JUMP = x^(2^128) mod P, the
** reference constant) is found by square-and-multiply over the bits of
** stream.  Cost: O(log stream) products mod P plus one jump's 256 steps,
** tens of microseconds for any stream; the result is bit for bit that of
** 'stream' reference jumps.
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

/* Polynomials over GF(2) of degree < 256, four words, bit j of word i the
** coefficient of x^(64 i + j). */
typedef struct gf2poly {
  uint64_t w[4];
} gf2poly;

/* x^(2^128) mod P: the reference jump polynomial. */
static const gf2poly JUMP = {{
  0x180ec6d33cfd0abau, 0xd5a61266f0c9392cu,
  0xa9582618e03fc9aau, 0x39abdc4529b1661cu
}};

/* P - x^256: the low terms of the characteristic polynomial of the
** xoshiro256 state update (Berlekamp-Massey over one state bit; checked by
** x^(2^128) mod P == JUMP, tests/c/t_rng.c). */
static const gf2poly PLOW = {{
  0x9d116f2bb0f0f001u, 0x0280002bcefd1a5eu,
  0x04b4edcf26259f85u, 0x0003c03c3f3ecb19u
}};

/* a b mod P (Horner over the bits of b, high to low). */
static gf2poly polymulmod (const gf2poly *a, const gf2poly *b)
{
  gf2poly r = {{0, 0, 0, 0}};
  int i, k;
  for (i = 255; i >= 0; i--) {
    uint64_t top = r.w[3] >> 63;              /* (1) r = r x mod P */
    r.w[3] = (r.w[3] << 1) | (r.w[2] >> 63);
    r.w[2] = (r.w[2] << 1) | (r.w[1] >> 63);
    r.w[1] = (r.w[1] << 1) | (r.w[0] >> 63);
    r.w[0] <<= 1;
    if (top)
      for (k = 0; k < 4; k++) r.w[k] ^= PLOW.w[k];
    if ((b->w[i >> 6] >> (i & 63)) & 1)       /* (2) r += a if b_i */
      for (k = 0; k < 4; k++) r.w[k] ^= a->w[k];
  }
  return r;
}

/* Apply the polynomial q to the state: s = sum_j q_j T^j s, T the state
** update (the reference jump's loop with q in place of JUMP). */
static void polyapply (ol_rng *r, const gf2poly *q)
{
  uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int i, b;
  for (i = 0; i < 4; i++)
    for (b = 0; b < 64; b++) {
      if (q->w[i] & ((uint64_t)1 << b)) {
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

/* Advance the state by k 2^128 outputs: JUMP^k mod P, left to right. */
static void jumps (ol_rng *r, uint64_t k)
{
  gf2poly q = JUMP;
  int b = 63;
  if (k == 0) return;
  while (!((k >> b) & 1)) b--;
  for (b--; b >= 0; b--) {
    q = polymulmod(&q, &q);
    if ((k >> b) & 1) q = polymulmod(&q, &JUMP);
  }
  polyapply(r, &q);
}

/* Seed r from (seed, stream); any values are valid.  splitmix64 output is
** a bijection of its counter, so the state is never all zero for the four
** consecutive outputs taken here. */
void ol_rng_seed (ol_rng *r, uint64_t seed, uint64_t stream)
{
  uint64_t x = seed;
  int i;
  for (i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
  jumps(r, stream);
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
