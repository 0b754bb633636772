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
** reference constant) is the product of JUMP^(2^b) (a table) over the
** bits b of stream.  Cost: popcount(stream) - 1 products mod P plus one
** jump's 256 steps (a chain's stream 2^40 + c: one or two products, where
** square-and-multiply made 41); the result is bit for bit that of
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

/* P - x^256: the low terms of the characteristic polynomial of the
** xoshiro256 state update (Berlekamp-Massey over one state bit; checked by
** x^(2^128) mod P == JUMPS[0], tests/c/t_rng.c). */
static const gf2poly PLOW = {{
  0x9d116f2bb0f0f001u, 0x0280002bcefd1a5eu,
  0x04b4edcf26259f85u, 0x0003c03c3f3ecb19u
}};

/* JUMPS[b] = x^(2^(128 + b)) mod P: JUMPS[0] is the reference jump
** polynomial JUMP = x^(2^128) mod P, and each entry the square of the one
** before (computed once, offline, with the product below; checked by
** tests/c/t_rng.c, whose streams 2^63 - 1 and 2^63 use every entry). */
static const gf2poly JUMPS[64] = {
  {{0x180ec6d33cfd0abau, 0xd5a61266f0c9392cu,
    0xa9582618e03fc9aau, 0x39abdc4529b1661cu}},
  {{0x8cfe9bd9ab71d992u, 0xccfc8ca2814de79eu,
    0xa5a28cccb37dba5bu, 0xa23e49ee6f1a7a8du}},
  {{0x1b2a94a672a48c05u, 0x5e38f4fbb6fcda72u,
    0xca8a45310219dc67u, 0xd4e9921bccb8090bu}},
  {{0xf30974a2b1dbbb71u, 0x34cd4cc8228d74acu,
    0xfa0587a90f717438u, 0xee658f69deb5df26u}},
  {{0xb42bd4670583b289u, 0xd2c0d8e0c8a2fb9bu,
    0x2573e3218d8bb7dau, 0xd7aaaf48aa459c58u}},
  {{0xf6a5ab84efb67883u, 0xcc7efdcfed1ac303u,
    0xd82be75b83dbc2d0u, 0x8fd437c01abeab24u}},
  {{0xc85ee5171484f5a4u, 0xedc8b8d02a22310bu,
    0xb0b87a330b854c8au, 0x7d16742eceb4d5abu}},
  {{0x4298ba0e862a6007u, 0x4157dc48443e3565u,
    0x13c97c0891cab48au, 0x6533981804b420eau}},
  {{0xee5f5a6f02dfe47cu, 0xedc28c89cb341660u,
    0x613b2ed9f0acc107u, 0xa1ee335d14807ae0u}},
  {{0x5ec3050c6b43565au, 0x4b26f71c1fb1b47bu,
    0x0531513e8e0ac706u, 0x799d469b2145a8a3u}},
  {{0x34f0a6799020283eu, 0x7123f2290a1f413bu,
    0xb6acd7be4906b73du, 0x6007bb31ec5a2964u}},
  {{0xaa0711c54877febdu, 0x54fe6df4cff0db73u,
    0x7e42d6f544840499u, 0xec907801890a47abu}},
  {{0x03833e601d82a673u, 0x3ec263f5c999196eu,
    0xd8c4367e574ab160u, 0x964e9d188c16508eu}},
  {{0xd64f3f2aaf8f2171u, 0xf524fd4408357a5cu,
    0x15ac212f3b861b5au, 0x24d9ba21277dd8d8u}},
  {{0xfe9b778d7d1ca2deu, 0xbbe0e2c0c44b2e1cu,
    0x17a7af3e97d8c402u, 0xf89354cfe1e6b5fbu}},
  {{0x695cf225704e767du, 0xf4873d277cd1ab72u,
    0xaad8c318bc459cceu, 0xb89526857566cd94u}},
  {{0x3dcd32f39276a95fu, 0xc51212c8b1aa2787u,
    0x962c90a866ea6719u, 0xb81875d0f4f6f253u}},
  {{0xb43cf8e4eaf8e068u, 0x1c554e97b2277f47u,
    0xa5a140826c351d07u, 0x11495a1b200d4eb8u}},
  {{0x417b73b324735d32u, 0xff957b6f55288048u,
    0x05af69bf1fb82891u, 0x3e53bfa0db28e110u}},
  {{0xb6c7a6004612889cu, 0xfdb3f4ea18f0a56bu,
    0xd3da65e82bdd39e2u, 0x48f6214560239b46u}},
  {{0xf1267ba0ec3c645eu, 0xd9dc0929a54fea75u,
    0xec60b640d685171du, 0xde364ef64a484f59u}},
  {{0x2761cbab38e0f580u, 0xd7f1c5ade3de404au,
    0xcb6286958a9af01au, 0x2b29c7d3ef18d3b3u}},
  {{0x5a5ce93f67a3cdd6u, 0x547db3576511edc2u,
    0x99455c744595c01fu, 0x6a3b6a431109e3d1u}},
  {{0xafd80c1c832a739eu, 0x0d9d73da9f40f374u,
    0xed1d0a619aa60748u, 0x00d2333b0c03f620u}},
  {{0x11428ceb13f2cc2cu, 0xef46e42368baead3u,
    0x2a47bd3fc39081dau, 0x3f03458e0273439bu}},
  {{0x47558e815c898e8bu, 0x9f8160e9d0124398u,
    0x0fdcfd4ab0f5afeeu, 0xade2626c292a2a9fu}},
  {{0xe848ff06d72a9252u, 0xf8be2d3d6ce206b0u,
    0xd84fc5f798c1a55eu, 0xc35abe5cebab1ba4u}},
  {{0xb0dd0edb19af078cu, 0xee1d857a675ca074u,
    0x60ef7116e6f3c1e0u, 0x7c25b2c3282fb730u}},
  {{0xb51a19064886308au, 0x6b590805d407e77eu,
    0x57059d3707ee283au, 0x6298f48fa13cc12fu}},
  {{0x4f1102acb29c3230u, 0xcf69cee6182fa164u,
    0x1780be415c86b5d5u, 0xab5d0760d1fe77dcu}},
  {{0xc639b7c24b26ef11u, 0xa57d650a8007d505u,
    0xd81275131f4f91f8u, 0x10000e5f7bf7a58bu}},
  {{0x295b23eaa04478edu, 0xf1d3279f36823213u,
    0x743eedc2ede6d478u, 0x09d89163f581d1e0u}},
  {{0xc04b4f9c5d26c200u, 0x69e6e6e431a2d40bu,
    0x4823b45b89dc689cu, 0xf567382197055bf0u}},
  {{0x09f16c9da06c8a66u, 0xf32c270b20ce5f38u,
    0xbe61763d20685d37u, 0xda01b157a2b021e9u}},
  {{0xc6d70a8c6aec7778u, 0xaccd356978aafc8eu,
    0xa1fbf40a9936c15du, 0x9d7c0c2cf565896cu}},
  {{0x90c526d9d0b6773fu, 0x327a229ce1248578u,
    0xfbdcc8828b2c1889u, 0x592056e6bbf026f6u}},
  {{0xa14aaaccc2890705u, 0xe63e390ab5f8a1a5u,
    0x0fbd392d992b9686u, 0x746ea463d01f96a4u}},
  {{0xd8cd74de1850f135u, 0x441424d88baa1859u,
    0xb4bb676b08602d23u, 0x4d1dc582c66946beu}},
  {{0x2adbc6211da0644cu, 0x994b90f8d7149b3du,
    0x4b145a211d1fdfdfu, 0x621c1b93e8fa1183u}},
  {{0x2fd0c3d604d53cdfu, 0x340889c14a3c5736u,
    0x7bd5128045929790u, 0xfaf3fe8684e4e611u}},
  {{0x01e53e1bc659d517u, 0x5f15699d4848bfccu,
    0x6d8bf975dcc01074u, 0x4a55ccb047f7ed1fu}},
  {{0x71ce8d56b9692c38u, 0x629372507db35e61u,
    0xefcb70ac050d5190u, 0x929a14fdb0efb0b5u}},
  {{0x27d627035f8c74a5u, 0xe890fcbab799d186u,
    0xde5841dcae8e37bbu, 0xcf9e9a1026630265u}},
  {{0xb405010a26f11c18u, 0xfd3a5a8b24565256u,
    0x9d53ec478a607c58u, 0xbfbcf2e3dee7abfau}},
  {{0xb072a316838de4eeu, 0x8f148500f69fe8f8u,
    0xbc2ad4d4d5a4ecb8u, 0x20d9430de74248c9u}},
  {{0x732bd9e5c94b916au, 0xa0851e63a9ec247cu,
    0x63eb42892a0f4361u, 0x6db40995b68e4c68u}},
  {{0xe87d88258b7992ceu, 0xb38ada6d1a5427bau,
    0x29f4387fbb3eebe2u, 0x08543e7ab4077f43u}},
  {{0x6735bb34738c34f7u, 0x0a1db90231a55a32u,
    0x7f05b87543072eb8u, 0x2281c456455c4a6du}},
  {{0x053ff7e4e8581163u, 0x0b4df9e68366344au,
    0x259022fe05f4023eu, 0x2432aaa71d816e63u}},
  {{0xfc89e47923390d01u, 0x81690de70406c5b2u,
    0xdcdf361320fa2c0bu, 0x065e8192b0d9e2abu}},
  {{0x54ae81c77079738du, 0xe3da1faabf2f681du,
    0xfac68c11fe1e596cu, 0x6f46880c9915650eu}},
  {{0x9350f3f8897dc5ccu, 0x3ac1fea4d54d0710u,
    0x70f4ef60d5dd3890u, 0x8de6f3aa90cec548u}},
  {{0xe7b23f10622b3386u, 0xc22f28a3d0afc80bu,
    0xcb5512bde4e7bf59u, 0xf930e902851defa3u}},
  {{0xcaefa30f55ce5c0fu, 0x7bf0fe15bdc9337fu,
    0x7a55e55bbd72fb81u, 0xb05640b794289f31u}},
  {{0x30121e7a60194d6au, 0xb8b27bb7572d2871u,
    0x61d6cf653e616a08u, 0x0fa65f166fbb0db4u}},
  {{0x646fe4bfa600d564u, 0x3444a78d93dffc9au,
    0x1c46fb7ea0484857u, 0x7a974830be953c4au}},
  {{0x0ffabb6c5ce8d644u, 0xbe489e3f8ac41534u,
    0xb8f35b514eb14767u, 0x7691957a691df817u}},
  {{0x5b16024d0563a65au, 0x83f997e75e88067fu,
    0xa9c11c5aaf2cab97u, 0x57f44892a2ad86eau}},
  {{0xa6c7eee290c62375u, 0x7fe5c232f064f464u,
    0x947c9b3af027e791u, 0x6062e8c7dc309cb2u}},
  {{0x038e07e40a2812e1u, 0x52a29a371c84710fu,
    0x4c5bac1c57856ed7u, 0x2629bab11c98b6aeu}},
  {{0x637242c48b99b633u, 0x3e3494a05f161ecdu,
    0xc3f6fbf07e464327u, 0xaaa38210dde97c64u}},
  {{0xc4d01c7eb078fd29u, 0xc188ca2c76798705u,
    0x81d165297d239d2au, 0xd6e3b368fb2a3110u}},
  {{0x7f90ffb775c02726u, 0xacfe2b03b09803d0u,
    0x5a70368075759194u, 0x6309de7dbb3bf59du}},
  {{0xf0f03027dfdc22d5u, 0x902b0ee66222acc7u,
    0x78a3e873f00291edu, 0xdb9d6b2d354321b4u}},
};

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

/* Advance the state by k 2^128 outputs: the product of JUMPS[b] over the
** bits b of k (popcount(k) - 1 products mod P; JUMP^k either way, so the
** same polynomial as square-and-multiply, bit for bit). */
static void jumps (ol_rng *r, uint64_t k)
{
  gf2poly q;
  int b = 0, first = 1;
  if (k == 0) return;
  for (; k != 0; k >>= 1, b++) {
    if (!(k & 1)) continue;
    if (first) q = JUMPS[b];
    else q = polymulmod(&q, &JUMPS[b]);
    first = 0;
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
