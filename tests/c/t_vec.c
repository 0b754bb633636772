/*
** tests/c/t_vec.c -- vector and matrix helpers.
**
** Truth: hand-computed values on small vectors, the same values on long
** vectors (the CBLAS path), overflow-safe norms, and for the random
** orthogonal matrix Q'Q = I plus a moment of the Haar distribution that
** the Mezzadri sign fix is needed for (E[Q_11] = 0).
*/
#include "ol.h"
#include "rng.h"
#include "vec.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>

#define SEED 777u

int main (void)
{
  double x[3] = {1, 2, 3}, y[3] = {4, -5, 6}, z[3];
  double A[6] = {1, 2, 3, 4, 5, 6};   /* 2 x 3 */
  double big[100], big2[100], Q[16], s, s2;
  ol_err e;
  ol_rng r;
  double *v;
  int i, j, k, bad;

  is_near(ol_vec_dot(x, y, 3), 12, 0, "vec: dot of (1,2,3) and (4,-5,6) is 12");
  is_near(ol_vec_nrm2(y, 3), sqrt(77), 1e-15, "vec: nrm2 is sqrt(77)");
  is_near(ol_vec_nrminf(y, 3), 6, 0, "vec: nrminf is the largest |x_i|");
  is_near(ol_vec_dist(x, y, 3), sqrt(9 + 49 + 9), 1e-15,
          "vec: dist is ||x - y||");
  ol_vec_copy(y, z, 3);
  ol_vec_axpy(2, x, z, 3);
  ok(z[0] == 6 && z[1] == -1 && z[2] == 12, "vec: axpy computes y += a x");
  ol_vec_scal(-0.5, z, 3);
  ok(z[0] == -3 && z[1] == 0.5 && z[2] == -6, "vec: scal scales in place");
  ol_vec_set(z, 7, 3);
  ok(z[0] == 7 && z[1] == 7 && z[2] == 7, "vec: set fills");

  for (i = 0; i < 100; i++) {
    big[i] = i + 1;
    big2[i] = 1;
  }
  is_near(ol_vec_dot(big, big2, 100), 5050, 0,
          "vec: dot on 100 entries (CBLAS path) is 5050");
  is_close(ol_vec_nrm2(big, 100), sqrt(338350), 1e-14,
           "vec: nrm2 on 100 entries is sqrt(sum i^2)");
  ol_vec_axpy(-1, big2, big, 100);
  ok(big[0] == 0 && big[99] == 99, "vec: axpy on 100 entries");
  ol_vec_scal(2, big, 100);
  ok(big[99] == 198, "vec: scal on 100 entries");

  z[0] = 3e200; z[1] = 4e200; z[2] = 0;
  is_close(ol_vec_nrm2(z, 3), 5e200, 1e-14, "vec: nrm2 does not overflow");
  z[0] = 3e-200; z[1] = 4e-200;
  is_close(ol_vec_nrm2(z, 3) * 1e200, 5, 1e-14,
           "vec: nrm2 does not underflow");
  y[0] = y[1] = y[2] = 0;
  z[0] = 3e200; z[1] = -4e200; z[2] = 0;
  is_close(ol_vec_dist(z, y, 3), 5e200, 1e-14, "vec: dist does not overflow");

  /* A = [1 2 3; 4 5 6], A (1,1,1) = (6, 15), A' (1, -1) = (-3, -3, -3) */
  x[0] = x[1] = x[2] = 1;
  z[0] = 10; z[1] = 20;
  ol_mat_gemv(2, 3, 1, A, x, 0, z);
  ok(z[0] == 6 && z[1] == 15, "vec: gemv computes A x (row-major)");
  z[0] = 1; z[1] = 1;
  ol_mat_gemv(2, 3, 2, A, x, -1, z);
  ok(z[0] == 11 && z[1] == 29, "vec: gemv computes alpha A x + beta y");
  y[0] = 1; y[1] = -1;
  ol_mat_gemv_t(2, 3, 1, A, y, 0, z);
  ok(z[0] == -3 && z[1] == -3 && z[2] == -3, "vec: gemv_t computes A'x");

  v = ol_vec_new(5, &e);
  ok(v != NULL && v[0] == 0 && v[4] == 0, "vec: new is zero-filled");
  ol_vec_free(v);
  v = ol_vec_dup(A, 6, &e);
  ok(v != NULL && v[5] == 6 && v != A, "vec: dup copies");
  ol_vec_free(v);
  ol_vec_free(NULL);
  ok(1, "vec: free(NULL) is a no-op");
  ok(ol_vec_new(-1, &e) == NULL && e.code == OL_EINVAL,
     "vec: new with a negative length fails with EINVAL");

  /* random orthogonal */
  diag("seed %u", (unsigned)SEED);
  ol_rng_seed(&r, SEED, 0);
  ok(ol_mat_randorth(4, &r, Q, &e) == OL_OK, "vec: randorth succeeds");
  for (i = 0, bad = 0; i < 4; i++)
    for (j = 0; j < 4; j++) {
      double d = 0;
      for (k = 0; k < 4; k++) d += Q[k * 4 + i] * Q[k * 4 + j];
      if (fabs(d - (i == j)) > 1e-12) bad++;
    }
  is_int(bad, 0, "vec: randorth gives Q'Q = I to 1e-12");
  /* Haar on O(3): Q_11 has mean 0 and variance 1/3.  Without the sign fix
  ** Householder QR makes Q_11 = -|g_1| / ||g|| < 0 always. */
  for (i = 0, s = 0, s2 = 0; i < 4000; i++) {
    ol_mat_randorth(3, &r, Q, &e);
    s += Q[0];
    s2 += Q[0] * Q[0];
  }
  is_near(s / 4000, 0, 5 * sqrt(1.0 / 3 / 4000),
          "vec: randorth Q_11 has mean 0 (Haar, within 5 se)");
  is_near(s2 / 4000, 1.0 / 3, 5 * sqrt((0.2 - 1.0 / 9) / 4000),
          "vec: randorth Q_11^2 has mean 1/n (within 5 se)");
  ok(ol_mat_randorth(0, &r, Q, &e) == OL_EINVAL,
     "vec: randorth with n = 0 is EINVAL");
  return done();
}
