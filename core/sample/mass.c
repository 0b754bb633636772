/*
** core/sample/mass.c -- unit, diagonal and dense mass matrices of the
** gradient samplers (definitions in mass.h).  Dense products go to CBLAS
** (dsymv, dtrsv, dtrmv) and the factorisation to LAPACK (dpotrf, through
** core/bg.h so that Ctrl-C reaches it).
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bg.h"
#include "mass.h"
#include "vec.h"

static void identity (double *a, int n)
{
  int i;
  memset(a, 0, (size_t)n * (size_t)n * sizeof *a);
  for (i = 0; i < n; i++) a[(size_t)i * n + i] = 1;
}

int ol_mass_init (ol_mass *m, int n, double *minv, int dense, ol_err *e)
{
  size_t nn = (size_t)n * (size_t)n;
  m->n = n;
  m->dense = dense;
  m->minv = minv;
  m->A = m->L = m->w = NULL;
  m->unit = !dense;
  ol_vec_set(minv, 1, n);
  if (!dense) return OL_OK;
  m->A = malloc(nn * sizeof *m->A);
  m->L = malloc(nn * sizeof *m->L);
  m->w = malloc((size_t)n * sizeof *m->w);
  if (m->A == NULL || m->L == NULL || m->w == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (dense metric, n = %d)",
                      n);
  identity(m->A, n);
  identity(m->L, n);
  return OL_OK;
}

void ol_mass_fini (ol_mass *m)
{
  free(m->A);
  free(m->L);
  free(m->w);
  m->A = m->L = m->w = NULL;
}

/* The factorisation is dpotrf on a column-major copy of a's lower
** triangle, as LAPACKE's row-major dpotrf does it (so the factor is bit
** for bit the one a direct call gives), made on a thread of its own when
** big (core/bg.h), so that Ctrl-C at a warmup window's end does not wait
** for O(n^3) work (~0.3 s at n = 3000). */
int ol_mass_set (ol_mass *m, const double *a, ol_err *e)
{
  int i, j, n = m->n;
  size_t nn = (size_t)n * (size_t)n;
  lapack_int info;
  double *t;
  if (!m->dense) {
    for (i = 0; i < n; i++) m->minv[i] = a[(size_t)i * n + i];
    ol_mass_from_diag(m);
    return OL_OK;
  }
  /* (1) t (column-major) := the lower triangle of a, and finite */
  if ((t = malloc(nn * sizeof *t)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (dense metric, n = %d)",
                      n);
  for (j = 0; j < n; j++)
    for (i = j; i < n; i++) {
      double v = a[(size_t)i * n + j];
      if (!isfinite(v)) {
        free(t);
        return ol_err_set(e, OL_ENUMERIC, "dense metric: the estimate has "
                          "a non-finite entry (%g at %d, %d)", v, i + 1,
                          j + 1);
      }
      t[(size_t)j * n + i] = v;
    }
  /* (2) factorise; the mass is unchanged unless it succeeds */
  info = ol_bg_potrf(n, t);
  if (info != 0) {
    free(t);
    if (info == OL_BG_EINTR)
      return ol_err_set(e, OL_EINTR, "dense metric: interrupted while "
                        "factorising the estimate (n = %d)", n);
    return ol_err_set(e, OL_ENUMERIC, "dense metric: the estimate is not "
                      "positive definite (dpotrf info %d)", (int)info);
  }
  /* (3) L (row-major) := t's lower triangle, its upper cleared; A := a */
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++) m->L[(size_t)i * n + j] = t[(size_t)j * n + i];
    for (j = i + 1; j < n; j++) m->L[(size_t)i * n + j] = 0;
  }
  free(t);
  memcpy(m->A, a, nn * sizeof *a);
  for (i = 0; i < n; i++) m->minv[i] = a[(size_t)i * n + i];
  return OL_OK;
}

void ol_mass_from_diag (ol_mass *m)
{
  int i, n = m->n;
  if (!m->dense) {
    m->unit = 1;
    for (i = 0; i < n; i++)
      if (m->minv[i] != 1) m->unit = 0;
    return;
  }
  memset(m->A, 0, (size_t)n * (size_t)n * sizeof *m->A);
  memset(m->L, 0, (size_t)n * (size_t)n * sizeof *m->L);
  for (i = 0; i < n; i++) {
    m->A[(size_t)i * n + i] = m->minv[i];
    m->L[(size_t)i * n + i] = sqrt(m->minv[i]);
  }
}

void ol_mass_sharp (const ol_mass *m, const double *p, double *ps)
{
  int i, n = m->n;
  if (m->dense) {
    cblas_dsymv(CblasRowMajor, CblasLower, n, 1.0, m->A, n, p, 1, 0.0, ps,
                1);
    return;
  }
  if (m->unit) {
    memcpy(ps, p, (size_t)n * sizeof *ps);
    return;
  }
  for (i = 0; i < n; i++) ps[i] = m->minv[i] * p[i];
}

/* Eight partial sums, one per vector lane: on every leapfrog step. */
double ol_mass_kinetic (const ol_mass *m, const double *p)
{
  double k[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0;
  const double *minv = m->minv;
  int i, j, n = m->n, r = n - n % 8;
  if (m->dense) {
    cblas_dsymv(CblasRowMajor, CblasLower, n, 1.0, m->A, n, p, 1, 0.0,
                m->w, 1);
    return 0.5 * ol_vec_dot(p, m->w, n);
  }
  for (i = 0; i < r; i += 8)
    for (j = 0; j < 8; j++) k[j] += minv[i + j] * p[i + j] * p[i + j];
  for (i = r; i < n; i++) s += minv[i] * p[i] * p[i];
  for (j = 0; j < 8; j++) s += k[j];
  return 0.5 * s;
}

/* Four lanes of doubles (GCC and Clang vector extension): the
** vectoriser left to itself interleaves partial sums with permutes. */
typedef double mass_v4 __attribute__((vector_size(32)));

double ol_mass_sharp_kinetic (const ol_mass *m, const double *p, double *ps)
{
  mass_v4 k = {0, 0, 0, 0};
  const double *minv = m->minv;
  double s;
  int i, n = m->n, r = n - n % 4;
  if (m->dense) {
    ol_mass_sharp(m, p, ps);
    return 0.5 * ol_vec_dot(p, ps, n);
  }
  for (i = 0; i < r; i += 4) {
    mass_v4 a, b, c;
    memcpy(&a, minv + i, sizeof a);
    memcpy(&b, p + i, sizeof b);
    c = a * b;
    memcpy(ps + i, &c, sizeof c);
    k += c * b;
  }
  s = (k[0] + k[1]) + (k[2] + k[3]);
  for (i = r; i < n; i++) {
    ps[i] = minv[i] * p[i];
    s += ps[i] * p[i];
  }
  return 0.5 * s;
}

void ol_mass_momentum (const ol_mass *m, ol_rng *r, double *p)
{
  int i, n = m->n;
  ol_rng_normals(r, p, n);
  if (m->dense) {
    /* L' p = xi */
    cblas_dtrsv(CblasRowMajor, CblasLower, CblasTrans, CblasNonUnit, n,
                m->L, n, p, 1);
    return;
  }
  if (m->unit) return;
  for (i = 0; i < n; i++) p[i] /= sqrt(m->minv[i]);
}

void ol_mass_noise (const ol_mass *m, const double *xi, double *v)
{
  int i, n = m->n;
  if (m->dense || m->unit) {
    memcpy(v, xi, (size_t)n * sizeof *v);
    if (m->dense)
      cblas_dtrmv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, n,
                  m->L, n, v, 1);
    return;
  }
  for (i = 0; i < n; i++) v[i] = sqrt(m->minv[i]) * xi[i];
}

double ol_mass_quad (const ol_mass *m, const double *r, double *w)
{
  double s = 0;
  int i, n = m->n;
  if (m->dense) {
    if (w == NULL) w = m->w;
    memcpy(w, r, (size_t)n * sizeof *w);
    cblas_dtrsv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, n,
                m->L, n, w, 1);
    return ol_vec_dot(w, w, n);
  }
  if (m->unit) {
    for (i = 0; i < n; i++) s += r[i] * r[i];
    return s;
  }
  for (i = 0; i < n; i++) s += r[i] * r[i] / m->minv[i];
  return s;
}
