/*
** core/problems/kmeans.c -- K-means on Gaussian blobs (catalog T17) in the
** nonnegative Burer-Monteiro form of the Peng-Wei SDP, as a smooth
** problem on a submanifold (the setting of A16: Xu, Hou, Chen & Zhang
** 2025, "Scalable second-order Riemannian optimization for K-means
** clustering", arXiv 2509.21675).
**
** Data: x_i = c_{l_i} + z_i in R^d, z_i ~ N(0, I), planted labels
** l_i = i mod K, centers c_k = (sep / sqrt 2) e_k (pairwise distance sep,
** so d >= K), then centred.  With A = X X' (n x n) and a partition
** matrix Z (Z_ij = 1/|C_k| when i, j lie in cluster C_k, else 0), the
** Lloyd objective is sum_i ||x_i - mean of its cluster||^2 =
** tr(A) - <A, Z>.
**
** Relaxation.  Peng & Wei 2007 (SIAM J. Optim. 18(1)) relax the partition
** matrices to {Z >= 0, Z PSD, Z 1 = 1, tr Z = K}; Zhuang, Chen, Yang &
** Zhang 2024 (ICLR, "Statistically optimal K-means clustering via
** nonnegative low-rank semidefinite programming", NLR) restrict it to
** Z = U U' with U in R^{n x r}, U >= 0 (r = 2K in their code):
**   min  tr(A) - <A, U U'>   s.t.  U U' 1 = 1,  ||U||_F^2 = K,  U >= 0.
** A16 writes such a problem as a smooth one over a submanifold; its full
** text (the exact formulation, retraction and linear-time subproblem
** solver) could not be read here, so this file states its own choices:
**   M = {U : h(U) = 0},  h(U) = (U U' 1 - 1,  (||U||_F^2 - K) / 2)
** (the NLR equalities; n + 1 equations), and U >= 0 by a log barrier,
**   f(U) = tr(A) - <A, U U'> - mu sum_ij log U_ij      (U > 0),
**   nabla f = -2 A U - mu / U,   nabla^2 f[V] = -2 A V + mu V / U^2.
** For r > K the open set M ∩ {U > 0} is not empty (for r = K it is: the
** only feasible U >= 0 are the partition matrices' factors, since a
** doubly stochastic PSD Z of rank K with trace K is a projection), and
** at a barrier point the relaxed objective exceeds the relaxation's
** optimum by about the interior-point gap n r mu.
**
** Riemannian structure (the Euclidean metric, core/manifold.h), w = U'1:
**   Dh(U)[V] = (V w + U V'1, <U, V>),  Dh^*(y, t) = y w' + 1 y'U + t U.
** On M (U w = 1, ||w||^2 = n) the Gram matrix Dh Dh^* is
**   [[n I + U (n I_r + 2 w w') U',  2 1], [2 1',  ||U||^2]],
** solved in O(n r^2) by Woodbury's identity and a Schur complement on t
** (the block's inverse maps 1 to 1/(4n), so the Schur complement is
** K - 1 > 0): the projection costs time linear in n.
**   sum_i lam_i nabla^2 h_i[V] = y (1'V) + 1 (y'V) + t V.
** Retraction: R_U(V) = Pi(U + V), Pi(Y) = (1/n) 1 w' + S with
** w = sqrt(n) Y'1 / ||Y'1||, S = (I - 11'/n) Y (I - w w'/n) scaled to
** ||S||_F^2 = K - 1.  Pi is smooth near M and the identity on M (there
** Y'1 = w, ||w||^2 = n and S = U - 1w'/n), so Pi(U + V) is a retraction
** (a projection-like one, Absil & Malick 2012, SIAM J. Optim. 22(1));
** Pi(Y) satisfies h = 0 up to rounding (U'1 = w, U w = 1,
** ||U||^2 = 1 + K - 1).
**
** x0: a random partition into r nonempty groups (indicator G), mixed
** with the uniform assignment, P = (1 - s) G + s/r, then U = P D^{-1/2}
** (D the column sums of P) satisfies U U'1 = 1 for every s; s in (0, 1)
** is bisected to ||U||^2 = K (r at s = 0, 1 at s = 1), then Pi polishes.
** U > 0.
**
** Read-outs (the manifold's results): the partition of a U is rounded
** from its rows (at the planted optimum rows of one cluster coincide):
** farthest-first seeds among the rows, then Lloyd on the rows; misclass =
** n minus the best agreement with the planted labels over the K!
** relabellings; fkmeans its Lloyd objective; frelax = tr(A) - <A, UU'>;
** lloyd / lloyd_miss the best Lloyd objective over 'starts' k-means++
** starts (Arthur & Vassilvitskii 2007) drawn from seed, and its
** misclassification (the baseline; fixed at creation).
**
** The dense Hessian oracle ((n r)^2 doubles) is offered for n r <= 4096.
** The oracle and the manifold's hooks use scratch kept in the problem:
** not for two threads at once (runs are single-threaded; see run.h).
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifold.h"
#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "sliced.h"
#include "vec.h"

#define KM_MAXK 8            /* K! relabellings in misclass */
#define KM_MAXN 2000
#define KM_MAXITER 300       /* Lloyd */
#define KM_MAXDENSE 4096     /* the Hessian oracle: (n r)^2 doubles */

typedef struct kmeans {
  int n, K, d, r;
  double sep, mu, trA;
  double *X;                 /* n x d centred data (owned) */
  double *A;                 /* n x n, X X' (owned) */
  int *label;                /* planted labels (owned) */
  double lloyd, lloyd_miss;  /* k-means++ baseline */
  ol_manifold M;
  /* scratch (owned): the oracle's and the hooks' */
  double *B, *AU;            /* d x r, n x r */
  double *y, *q, *w, *Kc;    /* n, n, r, r x r */
  double *c, *cs;            /* K x d centers (Lloyd), K x r row centers */
  int *lab, *cnt;            /* n, K */
} kmeans;

static void kmeans_free (void *ud)
{
  kmeans *s = ud;
  if (s == NULL) return;
  free(s->X);
  free(s->A);
  free(s->label);
  free(s->B);
  free(s->AU);
  free(s->y);
  free(s->q);
  free(s->w);
  free(s->Kc);
  free(s->c);
  free(s->cs);
  free(s->lab);
  free(s->cnt);
  free(s);
}

/* AU = A U = X (X'U) in O(n d r). */
static void kmeans_AU (kmeans *s, const double *U)
{
  int i, j, k, n = s->n, d = s->d, r = s->r;
  for (k = 0; k < d * r; k++) s->B[k] = 0;
  for (i = 0; i < n; i++)
    for (k = 0; k < d; k++) {
      double xik = s->X[(size_t)i * d + k];
      for (j = 0; j < r; j++) s->B[k * r + j] += xik * U[(size_t)i * r + j];
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) {
      double v = 0;
      for (k = 0; k < d; k++) v += s->X[(size_t)i * d + k] * s->B[k * r + j];
      s->AU[(size_t)i * r + j] = v;
    }
}

static int kmeans_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  kmeans *s = ud;
  int i, N = s->n * s->r;
  double uau = 0, lg = 0;
  for (i = 0; i < N; i++)
    if (!(x[i] > 0))
      return ol_err_set(e, OL_EDOM, "kmeans: U[%d][%d] = %g is not > 0 "
                        "(the log barrier needs U > 0)", i / s->r + 1,
                        i % s->r + 1, x[i]);
  kmeans_AU(s, x);
  for (i = 0; i < N; i++) {
    uau += x[i] * s->AU[i];
    lg += log(x[i]);
  }
  if (f != NULL) *f = s->trA - uau - s->mu * lg;
  if (g != NULL)
    for (i = 0; i < N; i++) g[i] = -2 * s->AU[i] - s->mu / x[i];
  return OL_OK;
}

/* H[(i,j),(k,l)] = -2 A_ik [j == l] + [i == k][j == l] mu / U_ij^2. */
static int kmeans_hess (void *ud, const double *x, double *H, ol_err *e)
{
  kmeans *s = ud;
  int i, j, k, n = s->n, r = s->r, N = n * r;
  (void)e;
  for (i = 0; i < N * N; i++) H[i] = 0;
  for (i = 0; i < n; i++)
    for (k = 0; k < n; k++)
      for (j = 0; j < r; j++)
        H[(size_t)(i * r + j) * N + k * r + j] = -2 * s->A[(size_t)i * n + k];
  for (i = 0; i < N; i++) H[(size_t)i * N + i] += s->mu / (x[i] * x[i]);
  return OL_OK;
}

/* ---- the manifold ---- */

/* Cholesky of the r x r SPD matrix a in place (lower); 0 on success. */
static int chol (double *a, int r)
{
  int i, j, k;
  for (j = 0; j < r; j++) {
    double v = a[j * r + j];
    for (k = 0; k < j; k++) v -= a[j * r + k] * a[j * r + k];
    if (!(v > 0)) return -1;
    a[j * r + j] = sqrt(v);
    for (i = j + 1; i < r; i++) {
      double u = a[i * r + j];
      for (k = 0; k < j; k++) u -= a[i * r + k] * a[j * r + k];
      a[i * r + j] = u / a[j * r + j];
    }
  }
  return 0;
}

static void cholsolve (const double *L, int r, double *b)
{
  int i, k;
  for (i = 0; i < r; i++) {
    for (k = 0; k < i; k++) b[i] -= L[i * r + k] * b[k];
    b[i] /= L[i * r + i];
  }
  for (i = r - 1; i >= 0; i--) {
    for (k = i + 1; k < r; k++) b[i] -= L[k * r + i] * b[k];
    b[i] /= L[i * r + i];
  }
}

/* q := S^{-1} q, S = a I + U C U', C = n I + 2 w w', by Woodbury:
** S^{-1} = (I - U Kc^{-1} U') / a with Kc = a C^{-1} + U'U (factored). */
static void ssolve (const kmeans *s, const double *U, double a, double *q,
                    double *t)
{
  int i, j, n = s->n, r = s->r;
  for (j = 0; j < r; j++) t[j] = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) t[j] += U[(size_t)i * r + j] * q[i];
  cholsolve(s->Kc, r, t);
  for (i = 0; i < n; i++) {
    double v = 0;
    for (j = 0; j < r; j++) v += U[(size_t)i * r + j] * t[j];
    q[i] = (q[i] - v) / a;
  }
}

static void km_proj (const ol_manifold *M, const double *U, const double *v,
                     double *out, double *lam)
{
  kmeans *s = M->data;
  int i, j, k, n = s->n, r = s->r, N = n * r;
  double a = 0, nu = 0, t, c = 0, o1 = 0, oS1 = 0, tmp[2 * 64];
  double *w = s->w, *y = s->y, *q = s->q, *Kc = s->Kc;
  double wv[64], uty[64];
  /* w = U'1, a = ||w||^2, ||U||^2 */
  for (j = 0; j < r; j++) w[j] = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) w[j] += U[(size_t)i * r + j];
  for (j = 0; j < r; j++) a += w[j] * w[j];
  for (i = 0; i < N; i++) nu += U[i] * U[i];
  /* Kc = a C^{-1} + U'U, C^{-1} = (I - 2 w w' / (n + 2 a)) / n */
  for (j = 0; j < r; j++)
    for (k = 0; k < r; k++) {
      double v2 = 0;
      for (i = 0; i < n; i++)
        v2 += U[(size_t)i * r + j] * U[(size_t)i * r + k];
      Kc[j * r + k] = v2 + a / n * ((j == k) - 2 * w[j] * w[k] / (n + 2 * a));
    }
  (void)chol(Kc, r);
  /* b = Dh(v): first block v w + U v'1, then c = <U, v> */
  for (j = 0; j < r; j++) wv[j] = 0;         /* v'1 */
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) wv[j] += v[(size_t)i * r + j];
  for (i = 0; i < n; i++) {
    double b = 0;
    for (j = 0; j < r; j++)
      b += v[(size_t)i * r + j] * w[j] + U[(size_t)i * r + j] * wv[j];
    y[i] = b;
    q[i] = 1;
  }
  for (i = 0; i < N; i++) c += U[i] * v[i];
  /* y = S^{-1}(b - 2 t 1), t = (c - 2 1'S^{-1}b) / (||U||^2 - 4 1'S^{-1}1) */
  ssolve(s, U, a, y, tmp);
  ssolve(s, U, a, q, tmp);
  for (i = 0; i < n; i++) {
    o1 += y[i];
    oS1 += q[i];
  }
  t = (c - 2 * o1) / (nu - 4 * oS1);
  for (i = 0; i < n; i++) y[i] -= 2 * t * q[i];
  /* out = v - y w' - 1 (U'y)' - t U */
  for (j = 0; j < r; j++) uty[j] = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) uty[j] += U[(size_t)i * r + j] * y[i];
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) {
      size_t ij = (size_t)i * r + j;
      out[ij] = v[ij] - y[i] * w[j] - uty[j] - t * U[ij];
    }
  if (lam != NULL) {
    for (i = 0; i < n; i++) lam[i] = y[i];
    lam[n] = t;
  }
}

static void km_curv (const ol_manifold *M, const double *U, const double *lam,
                     const double *v, double *out)
{
  const kmeans *s = M->data;
  int i, j, n = s->n, r = s->r;
  double v1[64], yv[64], t = lam[n];
  (void)U;
  for (j = 0; j < r; j++) v1[j] = yv[j] = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) {
      v1[j] += v[(size_t)i * r + j];
      yv[j] += lam[i] * v[(size_t)i * r + j];
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) {
      size_t ij = (size_t)i * r + j;
      out[ij] = lam[i] * v1[j] + yv[j] + t * v[ij];
    }
}

/* out = Pi(Y) (see the header); OL_EDOM when Y'1 or S vanishes. */
static int km_pi (const kmeans *s, const double *Y, double *out, ol_err *e)
{
  int i, j, n = s->n, r = s->r, N = n * r;
  double w[64], m[64], ww = 0, sw[64], ss = 0, sc;
  for (j = 0; j < r; j++) w[j] = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) w[j] += Y[(size_t)i * r + j];
  for (j = 0; j < r; j++) ww += w[j] * w[j];
  if (!(ww > 0) || !isfinite(ww))
    return ol_err_set(e, OL_EDOM, "kmeans: the retraction needs U'1 != 0");
  for (j = 0; j < r; j++) {
    w[j] *= sqrt(n / ww);
    m[j] = 0;
  }
  /* S = (Y - 1 m') (I - w w'/n), m = column means of Y */
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) m[j] += Y[(size_t)i * r + j] / n;
  for (i = 0; i < n; i++) {
    double p = 0;
    for (j = 0; j < r; j++) {
      sw[j] = Y[(size_t)i * r + j] - m[j];
      p += sw[j] * w[j];
    }
    for (j = 0; j < r; j++) out[(size_t)i * r + j] = sw[j] - p * w[j] / n;
  }
  for (i = 0; i < N; i++) ss += out[i] * out[i];
  if (!(ss > 0) || !isfinite(ss))
    return ol_err_set(e, OL_EDOM, "kmeans: the retraction needs a point "
                      "with rows not all equal");
  sc = sqrt((s->K - 1) / ss);
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++)
      out[(size_t)i * r + j] = out[(size_t)i * r + j] * sc + w[j] / n;
  return OL_OK;
}

static int km_retract (const ol_manifold *M, const double *U, const double *v,
                       double *out, ol_err *e)
{
  const kmeans *s = M->data;
  int i, N = s->n * s->r;
  for (i = 0; i < N; i++) out[i] = U[i] + v[i];
  return km_pi(s, out, out, e);
}

static double km_violation (const ol_manifold *M, const double *U)
{
  const kmeans *s = M->data;
  int i, j, n = s->n, r = s->r;
  double w[64], v = 0, nu = 0;
  for (j = 0; j < r; j++) w[j] = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) w[j] += U[(size_t)i * r + j];
  for (i = 0; i < n; i++) {
    double z = 0;
    for (j = 0; j < r; j++) {
      z += U[(size_t)i * r + j] * w[j];
      nu += U[(size_t)i * r + j] * U[(size_t)i * r + j];
    }
    v = fmax(v, fabs(z - 1));
  }
  return fmax(v, fabs(nu - s->K) / 2);
}

/* ---- partitions ---- */

/* Lloyd objective of labels lab (centers recomputed as means). */
static double km_obj (kmeans *s, const int *lab)
{
  int i, k, n = s->n, d = s->d, K = s->K;
  double v = 0;
  for (k = 0; k < K * d; k++) s->c[k] = 0;
  for (k = 0; k < K; k++) s->cnt[k] = 0;
  for (i = 0; i < n; i++) {
    s->cnt[lab[i]]++;
    for (k = 0; k < d; k++) s->c[lab[i] * d + k] += s->X[(size_t)i * d + k];
  }
  for (k = 0; k < K * d; k++)
    if (s->cnt[k / d] > 0) s->c[k] /= s->cnt[k / d];
  for (i = 0; i < n; i++)
    for (k = 0; k < d; k++) {
      double u = s->X[(size_t)i * d + k] - s->c[lab[i] * d + k];
      v += u * u;
    }
  return v;
}

/* n minus the best agreement of lab with the planted labels over the K!
** relabellings (Heap's algorithm over perm). */
static int km_misclass (const kmeans *s, const int *lab)
{
  int conf[KM_MAXK][KM_MAXK] = {{0}}, perm[KM_MAXK], cc[KM_MAXK] = {0};
  int i, K = s->K, best = 0, cur;
  for (i = 0; i < s->n; i++) conf[lab[i]][s->label[i]]++;
  for (i = 0; i < K; i++) perm[i] = i;
  for (cur = 0, i = 0; i < K; i++) cur += conf[i][perm[i]];
  best = cur;
  i = 0;
  while (i < K) {
    if (cc[i] < i) {
      int a = i % 2 == 0 ? 0 : cc[i], t = perm[a];
      perm[a] = perm[i];
      perm[i] = t;
      for (cur = 0, a = 0; a < K; a++) cur += conf[a][perm[a]];
      if (cur > best) best = cur;
      cc[i]++;
      i = 0;
    }
    else cc[i++] = 0;
  }
  return s->n - best;
}

/* Lloyd's iterations on the rows of P (n x m) from the centers cen (K x m,
** updated): labels into lab. */
static void lloyd_rows (const double *P, int n, int m, int K, double *cen,
                        int *lab, int *cnt)
{
  int i, k, j, it;
  for (i = 0; i < n; i++) lab[i] = -1;
  for (it = 0; it < KM_MAXITER; it++) {
    int moved = 0;
    for (i = 0; i < n; i++) {
      double bd = INFINITY;
      int bk = 0;
      for (k = 0; k < K; k++) {
        double dd = 0;
        for (j = 0; j < m; j++) {
          double u = P[(size_t)i * m + j] - cen[k * m + j];
          dd += u * u;
        }
        if (dd < bd) {
          bd = dd;
          bk = k;
        }
      }
      if (lab[i] != bk) moved = 1;
      lab[i] = bk;
    }
    if (!moved) break;
    for (k = 0; k < K; k++) cnt[k] = 0;
    for (i = 0; i < n; i++) cnt[lab[i]]++;
    for (k = 0; k < K; k++) {
      if (cnt[k] == 0) continue;          /* an empty cluster keeps its center */
      for (j = 0; j < m; j++) cen[k * m + j] = 0;
    }
    for (i = 0; i < n; i++)
      for (j = 0; j < m; j++)
        cen[lab[i] * m + j] += P[(size_t)i * m + j] / cnt[lab[i]];
  }
}

/* k-means++ seeding (Arthur & Vassilvitskii 2007): the first center a
** uniform point, each next one a point drawn with probability D(x)^2. */
static void kmpp (kmeans *s, ol_rng *rng, double *cen, double *D)
{
  int i, k, j, n = s->n, d = s->d;
  int c0 = (int)ol_rng_below(rng, n);
  for (j = 0; j < d; j++) cen[j] = s->X[(size_t)c0 * d + j];
  for (i = 0; i < n; i++) D[i] = INFINITY;
  for (k = 1; k < s->K; k++) {
    double tot = 0, u;
    int pick = n - 1;
    for (i = 0; i < n; i++) {
      double dd = 0;
      for (j = 0; j < d; j++) {
        double v = s->X[(size_t)i * d + j] - cen[(k - 1) * d + j];
        dd += v * v;
      }
      if (dd < D[i]) D[i] = dd;
      tot += D[i];
    }
    u = ol_rng_uniform(rng) * tot;
    for (i = 0; i < n; i++) {
      u -= D[i];
      if (u < 0) {
        pick = i;
        break;
      }
    }
    for (j = 0; j < d; j++) cen[k * d + j] = s->X[(size_t)pick * d + j];
  }
}

/* The partition of U's rows: farthest-first seeds, then Lloyd. */
static void km_round (kmeans *s, const double *U, int *lab)
{
  int i, k, j, n = s->n, r = s->r, K = s->K, pick = 0;
  double *D = s->q;
  for (i = 0; i < n; i++) D[i] = INFINITY;
  for (k = 0; k < K; k++) {
    double far = -1;
    for (j = 0; j < r; j++) s->cs[k * r + j] = U[(size_t)pick * r + j];
    for (i = 0; i < n; i++) {
      double dd = 0;
      for (j = 0; j < r; j++) {
        double v = U[(size_t)i * r + j] - s->cs[k * r + j];
        dd += v * v;
      }
      if (dd < D[i]) D[i] = dd;
      if (D[i] > far) {
        far = D[i];
        pick = i;
      }
    }
  }
  lloyd_rows(U, n, r, K, s->cs, lab, s->cnt);
}

static const char *const km_resnames[] = {
  "misclass", "fkmeans", "frelax", "lloyd", "lloyd_miss", "gapbound",
};

static void km_results (const ol_manifold *M, const double *U, double *vals)
{
  kmeans *s = M->data;
  int i, N = s->n * s->r;
  double uau = 0;
  km_round(s, U, s->lab);
  vals[0] = km_misclass(s, s->lab);
  vals[1] = km_obj(s, s->lab);
  kmeans_AU(s, U);
  for (i = 0; i < N; i++) uau += U[i] * s->AU[i];
  vals[2] = s->trA - uau;
  vals[3] = s->lloyd;
  vals[4] = s->lloyd_miss;
  vals[5] = N * s->mu;
}

static const ol_manifold *kmeans_manifold (const ol_problem *p)
{
  return p->ud != NULL ? &((const kmeans *)p->ud)->M : NULL;
}

/* ---- creation ---- */

static const ol_param kmeans_params[] = {
  {"n", OL_P_INT, 60, 4, KM_MAXN, "points", NULL},
  {"K", OL_P_INT, 3, 2, KM_MAXK, "clusters", NULL},
  {"d", OL_P_INT, 3, 2, 100, "dimension (d >= K: center k on axis k)",
   NULL},
  {"sep", OL_P_REAL, 6, 0, 1e6, "distance between any two centers "
   "(noise N(0, I))", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "data, x0 and the "
   "k-means++ starts", NULL},
  {"mu", OL_P_REAL, 1e-3, OL_GT0, 1e3, "log-barrier weight on U > 0",
   NULL},
  {"r", OL_P_INT, 0, 0, 64, "columns of U (0: 2K as in NLR; needs r > K)",
   NULL},
  {"starts", OL_P_INT, 10, 1, 1000, "k-means++ starts of the Lloyd "
   "baseline", NULL},
};

/* Lloyd from 'starts' k-means++ seedings: the best objective and its
** misclassification.  OL_OK, or OL_EINTR when Ctrl-C came (looked at
** before each start: up to 1000 starts of O(n K d) each). */
static int kmeans_baseline (kmeans *s, ol_rng *rng, int starts, ol_err *e)
{
  int st, i, rc = OL_OK;
  double *cen = malloc(sizeof(double) * (size_t)s->K * s->d);
  int *lab = malloc(sizeof(int) * (size_t)s->n);
  s->lloyd = INFINITY;
  if (cen == NULL || lab == NULL) {
    free(cen);
    free(lab);
    s->lloyd = s->lloyd_miss = NAN;
    return OL_OK;
  }
  for (st = 0; st < starts; st++) {
    double v;
    if ((rc = ol_sl_intr("kmeans", e)) != OL_OK) break;
    kmpp(s, rng, cen, s->q);
    lloyd_rows(s->X, s->n, s->d, s->K, cen, lab, s->cnt);
    v = km_obj(s, lab);
    /* the first start is kept whatever its objective (inf or NaN on
    ** data that overflow), so that s->lab always holds labels */
    if (st == 0 || v < s->lloyd || isnan(s->lloyd)) {
      s->lloyd = v;
      for (i = 0; i < s->n; i++) s->lab[i] = lab[i];
    }
  }
  /* no start finished (Ctrl-C before the first): no labels to score */
  s->lloyd_miss = st > 0 ? km_misclass(s, s->lab) : NAN;
  if (st == 0) s->lloyd = NAN;
  free(cen);
  free(lab);
  return rc;
}

/* ||U(s)||^2 of the start U = P D^{-1/2}, P = (1 - m) G + m / r. */
static double start_norm (const kmeans *s, const int *grp, const double *csz,
                          double m, double *U)
{
  int i, j, n = s->n, r = s->r;
  double v = 0;
  for (i = 0; i < n; i++)
    for (j = 0; j < r; j++) {
      double pij = (1 - m) * (grp[i] == j) + m / r;
      double col = (1 - m) * csz[j] + m * n / r;
      U[(size_t)i * r + j] = pij / sqrt(col);
      v += U[(size_t)i * r + j] * U[(size_t)i * r + j];
    }
  return v;
}

static int kmeans_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int n = (int)v[0].num, K = (int)v[1].num, d = (int)v[2].num;
  int r = (int)v[6].num, i, j, k, rc, *grp = NULL;
  double sep = v[3].num, lo = 0, hi = 1, csz[64], mean;
  uint64_t seed = (uint64_t)v[4].num;
  ol_rng rng;
  kmeans *s;
  if (r == 0) r = 2 * K;
  if (d < K)
    return ol_err_set(e, OL_EINVAL, "kmeans: d = %d < K = %d: center k "
                      "lies on axis k, so d must be >= K", d, K);
  if (r <= K)
    return ol_err_set(e, OL_EINVAL, "kmeans: r = %d <= K = %d leaves no "
                      "U > 0 on the manifold; take r > K (0: 2K)", r, K);
  if (n < 2 * r)
    return ol_err_set(e, OL_EINVAL, "kmeans: n = %d < 2r = %d: the start "
                      "needs two points per column; raise n or lower r", n,
                      2 * r);
  s = calloc(1, sizeof *s);
  if (s == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = s;
  p->free_ud = kmeans_free;
  s->n = n;
  s->K = K;
  s->d = d;
  s->r = r;
  s->sep = sep;
  s->mu = v[5].num;
  s->X = malloc(sizeof(double) * (size_t)n * d);
  s->A = malloc(sizeof(double) * (size_t)n * n);
  s->label = malloc(sizeof(int) * (size_t)n);
  s->B = malloc(sizeof(double) * (size_t)d * r);
  s->AU = malloc(sizeof(double) * (size_t)n * r);
  s->y = malloc(sizeof(double) * (size_t)n);
  s->q = malloc(sizeof(double) * (size_t)n);
  s->w = malloc(sizeof(double) * (size_t)r);
  s->Kc = malloc(sizeof(double) * (size_t)r * r);
  s->c = malloc(sizeof(double) * (size_t)K * d);
  s->cs = malloc(sizeof(double) * (size_t)K * r);
  s->lab = malloc(sizeof(int) * (size_t)n);
  s->cnt = malloc(sizeof(int) * (size_t)(K > r ? K : r));
  grp = malloc(sizeof(int) * (size_t)n);
  if (s->X == NULL || s->A == NULL || s->label == NULL || s->B == NULL ||
      s->AU == NULL || s->y == NULL || s->q == NULL || s->w == NULL ||
      s->Kc == NULL || s->c == NULL || s->cs == NULL || s->lab == NULL ||
      s->cnt == NULL || grp == NULL) {
    free(grp);
    return ol_err_set(e, OL_ENOMEM, "kmeans: out of memory");
  }
  /* (1) blobs, centred; A = X X' */
  ol_rng_seed(&rng, seed, 0);
  for (i = 0; i < n; i++) {
    s->label[i] = i % K;
    for (k = 0; k < d; k++)
      s->X[(size_t)i * d + k] = ol_rng_normal(&rng)
        + (k == s->label[i] ? sep / sqrt(2.0) : 0);
  }
  for (k = 0; k < d; k++) {
    for (mean = 0, i = 0; i < n; i++) mean += s->X[(size_t)i * d + k];
    mean /= n;
    for (i = 0; i < n; i++) s->X[(size_t)i * d + k] -= mean;
  }
  s->trA = 0;
  for (i = 0; i < n; i++) {
    /* Ctrl-C between rows (n d flops each; n^2 d up to 4e8 in all) */
    if ((rc = ol_sl_intr("kmeans", e)) != OL_OK) {
      free(grp);
      return rc;
    }
    for (j = 0; j < n; j++) {
      double a = 0;
      for (k = 0; k < d; k++)
        a += s->X[(size_t)i * d + k] * s->X[(size_t)j * d + k];
      s->A[(size_t)i * n + j] = a;
      if (i == j) s->trA += a;
    }
  }
  /* (2) the Lloyd baseline */
  if ((rc = kmeans_baseline(s, &rng, (int)v[7].num, e)) != OL_OK) {
    free(grp);
    return rc;
  }
  /* (3) x0: a random partition into r nonempty groups (shuffled i mod r),
  ** mixed with the uniform assignment until ||U||^2 = K */
  for (i = 0; i < n; i++) grp[i] = i % r;
  for (i = n - 1; i > 0; i--) {
    int a = (int)ol_rng_below(&rng, i + 1), t = grp[i];
    grp[i] = grp[a];
    grp[a] = t;
  }
  for (j = 0; j < r; j++) csz[j] = 0;
  for (i = 0; i < n; i++) csz[grp[i]]++;
  if ((p->x0 = ol_problem_alloc(n * r, e)) == NULL) {
    free(grp);
    return OL_ENOMEM;
  }
  for (k = 0; k < 200 && hi - lo > 4 * DBL_EPSILON; k++) {
    double m = 0.5 * (lo + hi);
    if (start_norm(s, grp, csz, m, p->x0) > K) lo = m;
    else hi = m;
  }
  (void)start_norm(s, grp, csz, 0.5 * (lo + hi), p->x0);
  free(grp);
  if ((rc = km_pi(s, p->x0, p->x0, e)) != OL_OK) return rc;
  /* (4) the problem */
  s->M = (ol_manifold){.name = "kmeans", .n = n * r, .m = n + 1, .data = s,
                       .proj = km_proj, .curv = km_curv,
                       .retract = km_retract, .violation = km_violation,
                       .nres = (int)(sizeof km_resnames
                                     / sizeof km_resnames[0]),
                       .resnames = km_resnames, .results = km_results};
  snprintf(p->name, sizeof p->name, "kmeans");
  p->kind = OL_OBJECTIVE;
  p->n = n * r;
  p->fdf = kmeans_fdf;
  p->hess = n * r <= KM_MAXDENSE ? kmeans_hess : NULL;
  snprintf(p->desc, sizeof p->desc, "kmeans{n=%d, K=%d, d=%d, sep=%g, "
           "seed=%.0f, mu=%g, r=%d}", n, K, d, sep, v[4].num, s->mu, r);
  return OL_OK;
}

const ol_problem_type ol_problem_kmeans = {
  .name = "kmeans",
  .kind = OL_OBJECTIVE,
  .doc = "K-means on Gaussian blobs: tr A - <A, UU'> - mu sum log U on "
         "the manifold UU'1 = 1, ||U||^2 = K (NLR's Burer-Monteiro form)",
  .ref = "Peng & Wei 2007; Zhuang, Chen, Yang & Zhang 2024 (ICLR); A16: "
         "Xu, Hou, Chen & Zhang 2025 (arXiv 2509.21675)",
  .params = kmeans_params,
  .nparams = (int)(sizeof kmeans_params / sizeof kmeans_params[0]),
  .create = kmeans_create,
  .manifold = kmeans_manifold,
};
