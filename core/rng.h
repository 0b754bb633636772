/*
** core/rng.h -- seeded, reproducible random numbers.
**
** xoshiro256** (Blackman & Vigna 2018) seeded through splitmix64 from a
** (seed, stream) pair, so parallel chains and multi-seed sweeps get
** independent streams.  The generator is a plain value owned by whoever
** uses it (a run, a chain); there is no global state.  Output depends only
** on the seed and the call sequence, never on the platform.
*/
#ifndef OL_RNG_H
#define OL_RNG_H

#include <stdint.h>

typedef struct ol_rng {
  uint64_t s[4];
  double spare;         /* second normal deviate of the polar method */
  int has_spare;
} ol_rng;

/* Seed r: any seed, any stream 0 .. 2^64 - 1 (stream k starts k 2^128
** draws into the seed's sequence; O(log stream) work, see rng.c). */
void     ol_rng_seed (ol_rng *r, uint64_t seed, uint64_t stream);
uint64_t ol_rng_u64 (ol_rng *r);
double   ol_rng_uniform (ol_rng *r);            /* in [0, 1), 53 bits */
double   ol_rng_normal (ol_rng *r);             /* N(0, 1) */
double   ol_rng_gamma (ol_rng *r, double a);    /* Gamma(a, 1), a > 0 */
double   ol_rng_student (ol_rng *r, double nu); /* Student-t, nu > 0 dof */
double   ol_rng_exp (ol_rng *r);                /* Exp(1), mean 1 */
long     ol_rng_below (ol_rng *r, long n);      /* uniform in 0..n-1 */
void     ol_rng_normals (ol_rng *r, double *z, int n);  /* n N(0,1) */

#endif
