/*
** core/problems/diagquad.h -- the arithmetic of the finite sums of
** diagonal quadratics f_i(x) = 1/2 (x - c_i)' diag(h_i) (x - c_i) that
** fsquad and fedquad share (they differ in how h_i and c_i are drawn and
** stored): one component's value and gradient, a component's term added
** into a running sum, the 1/N of the mean, and the diagonal Hessian.
** Every term is summed as it comes (no expanded form), so f(x*) is not
** spoiled by cancellation.
*/
#ifndef OL_DIAGQUAD_H
#define OL_DIAGQUAD_H

#include <stddef.h>

/* f_i(x) into *f and grad f_i = h (x - c) into g (d entries), either
** NULL to skip it; h, c, x are d-vectors.  Without f the value is not
** computed at all. */
static inline void ol_diagquad_fdfi (const double *h, const double *c,
                                     const double *x, double *f, double *g,
                                     int d)
{
  double s = 0;
  int j;
  if (f == NULL && g != NULL) {
    for (j = 0; j < d; j++) g[j] = h[j] * (x[j] - c[j]);
    return;
  }
  for (j = 0; j < d; j++) {
    double t = x[j] - c[j], ht = h[j] * t;
    s += ht * t;
    if (g != NULL) g[j] = ht;
  }
  if (f != NULL) *f = 0.5 * s;
}

/* g += h (x - c): the gradient term ol_diagquad_fdfi computes, added. */
static inline void ol_diagquad_gadd (const double *h, const double *c,
                                     const double *x, double *g, int d)
{
  int j;
  for (j = 0; j < d; j++) g[j] += h[j] * (x[j] - c[j]);
}

/* g += sum_k h (x - c_k) over r centres c_0..c_{r-1} stored one after
** the other (d entries each), one term at a time as ol_diagquad_gadd. */
static inline void ol_diagquad_gblock (const double *h, const double *c,
                                       long r, const double *x, double *g,
                                       int d)
{
  long k;
  for (k = 0; k < r; k++) ol_diagquad_gadd(h, c + (size_t)k * d, x, g, d);
}

/* s + (x - c)' diag(h) (x - c), summed coordinate by coordinate; h (x -
** c) added into g unless g is NULL. */
static inline double ol_diagquad_add (double s, const double *h,
                                      const double *c, const double *x,
                                      double *g, int d)
{
  int j;
  for (j = 0; j < d; j++) {
    double ht = h[j] * (x[j] - c[j]);
    s += ht * (x[j] - c[j]);
    if (g != NULL) g[j] += ht;
  }
  return s;
}

/* The mean of N components from the sums of ol_diagquad_add: f = s / (2
** N) into *f and g /= N, either NULL to skip it. */
static inline void ol_diagquad_mean (double s, long N, double *f, double *g,
                                     int d)
{
  int j;
  if (f != NULL) *f = 0.5 * s / (double)N;
  if (g != NULL)
    for (j = 0; j < d; j++) g[j] /= (double)N;
}

/* H (d x d) := diag(hbar). */
static inline void ol_diagquad_hess (const double *hbar, int d, double *H)
{
  size_t k, nn = (size_t)d * d;
  int i;
  for (k = 0; k < nn; k++) H[k] = 0;
  for (i = 0; i < d; i++) H[(size_t)i * d + i] = hbar[i];
}

#endif
