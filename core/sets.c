/*
** core/sets.c -- constraint sets: Euclidean projection, the linear
** minimisation oracle of Frank-Wolfe, the Frank-Wolfe gap, membership.
**
** Box: componentwise clamp (a NULL bound array means unbounded on that
** side).  Product of simplices: each block is projected on its own
** probability simplex by the sort-based algorithm (Held, Wolfe & Crowder
** 1974; Duchi, Shalev-Shwartz, Singer & Chandra 2008, "Efficient
** Projections onto the l1-Ball for Learning in High Dimensions", fig. 1;
** Condat 2016, "Fast projection onto the simplex and the l1 ball",
** Algorithm 1):
**   u = sort(v) decreasing, rho = max { j : u_j - (sum_{r<=j} u_r - z)/j > 0 },
**   tau = (sum_{r<=rho} u_r - z) / rho,   x = max(v - tau, 0)
** (z = 1 for a probability simplex).  l1 ball of radius r (Duchi et al.
** 2008, sec. 4): x itself when ||x||_1 <= r, else sign(v) w with w the
** projection of |v| on the simplex {w >= 0, sum w = r}.  l2 ball of
** radius r: x min(1, r / ||x||_2) (the closed form).  The sort is an
** in-place heapsort on the caller's work array, so projection never
** allocates (it runs inside method steps).  A simplex set with no blocks
** is treated as one block of all n coordinates.
**
** The linear minimisation oracle argmin_{v in C} <g, v> (Frank & Wolfe
** 1956; Jaggi 2013, "Revisiting Frank-Wolfe", sec. 2 and table 1) is a
** corner of a box, a vertex of each simplex block, a signed scaled basis
** vector for the l1 ball and -r g / ||g|| for the l2 ball; the
** Frank-Wolfe gap <g, x - v> is computed in closed form from it.
*/
#include "problem.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Sift a[i] down the min-heap a[0..n) (min at the root, so the heapsort
** below leaves the array in decreasing order). */
static void sift (double *a, int i, int n)
{
  double v = a[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && a[c + 1] < a[c]) c++;
    if (!(a[c] < v)) break;
    a[i] = a[c];
    i = c;
  }
  a[i] = v;
}

static void sort_decreasing (double *a, int n)
{
  int i;
  for (i = n / 2 - 1; i >= 0; i--) sift(a, i, n);
  for (i = n - 1; i > 0; i--) {
    double t = a[0];
    a[0] = a[i];
    a[i] = t;
    sift(a, 0, i);
  }
}

/* Project the k entries of x on the simplex {w >= 0, sum w = z}; work
** holds k.  A point already in it up to rounding (entries >= 0, |sum -
** z| <= 2 k eps z) is left as it is: the sort-based formula would shift it
** by tau ~ eps and zero its entries below tau, so the tiny positive entries
** of an interior-point method (md) would hit the boundary. */
static void project_simplex_z (double *x, int k, double z, double *work)
{
  double sum = 0, tau = 0;
  int j, neg = 0;
  if (k <= 0) return;
  for (j = 0; j < k; j++) {
    sum += x[j];
    neg |= !(x[j] >= 0);
  }
  if (!neg && fabs(sum - z) <= 2 * k * DBL_EPSILON * z) return;
  sum = 0;
  memcpy(work, x, (size_t)k * sizeof *x);
  sort_decreasing(work, k);
  for (j = 0; j < k; j++) {
    double t;
    sum += work[j];
    t = (sum - z) / (j + 1);
    if (work[j] - t > 0) tau = t;
  }
  for (j = 0; j < k; j++) x[j] = x[j] > tau ? x[j] - tau : 0;
}

static void project_simplex (double *x, int k, double *work)
{
  project_simplex_z(x, k, 1, work);
}

/* l1 ball of radius r: |x| on the r-simplex when outside, signs kept. */
static void project_l1ball (double *x, int n, double r, double *work)
{
  double nrm = 0;
  int i;
  for (i = 0; i < n; i++) nrm += fabs(x[i]);
  if (nrm <= r) return;
  /* (1) the magnitudes into work (the projection keeps each sign) */
  for (i = 0; i < n; i++) work[i] = fabs(x[i]);
  {
    double sum = 0, tau = 0;
    int j;
    /* (2) tau from the sorted magnitudes (project_simplex_z's rule) */
    sort_decreasing(work, n);
    for (j = 0; j < n; j++) {
      double t;
      sum += work[j];
      t = (sum - r) / (j + 1);
      if (work[j] - t > 0) tau = t;
    }
    /* (3) shrink each magnitude by tau, sign restored */
    for (i = 0; i < n; i++) {
      double a = fabs(x[i]) - tau;
      x[i] = a > 0 ? (x[i] > 0 ? a : -a) : 0;
    }
  }
}

static void project_l2ball (double *x, int n, double r)
{
  double nrm = 0;
  int i;
  for (i = 0; i < n; i++) nrm += x[i] * x[i];
  nrm = sqrt(nrm);
  if (nrm <= r) return;
  for (i = 0; i < n; i++) x[i] *= r / nrm;
}

/* In-place projection of x (n entries) on s; work needs n doubles (only
** simplex and l1-ball sets use it).  A NULL or empty set leaves x
** unchanged. */
void ol_set_project (const ol_set *s, double *x, int n, double *work)
{
  int i, b, off;
  if (s == NULL) return;
  switch (s->kind) {
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      if (s->lo != NULL && x[i] < s->lo[i]) x[i] = s->lo[i];
      if (s->hi != NULL && x[i] > s->hi[i]) x[i] = s->hi[i];
    }
    break;
  case OL_SET_SIMPLEX:
    if (s->nblocks <= 0) {
      project_simplex(x, n, work);
      break;
    }
    for (b = 0, off = 0; b < s->nblocks && off < n; b++) {
      int k = s->blocks[b];
      if (k > n - off) k = n - off;
      project_simplex(x + off, k, work);
      off += k;
    }
    break;
  case OL_SET_L1BALL:
    project_l1ball(x, n, s->radius, work);
    break;
  case OL_SET_L2BALL:
    project_l2ball(x, n, s->radius);
    break;
  default:
    break;
  }
}

int ol_set_lmo (const ol_set *s, const double *g, double *v, int n,
                ol_err *e)
{
  int i, b, off, nb, k, a;
  double m;
  if (s == NULL || s->kind == OL_SET_NONE)
    return ol_err_set(e, OL_EINVAL, "no constraint set: a linear "
                      "minimisation oracle needs a bounded set");
  switch (s->kind) {
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      double lo = s->lo != NULL ? s->lo[i] : -INFINITY;
      double hi = s->hi != NULL ? s->hi[i] : INFINITY;
      v[i] = g[i] < 0 ? hi : lo;
      if (!isfinite(v[i]))
        return ol_err_set(e, OL_EINVAL, "the box is unbounded: x[%d] has "
                          "no %s bound", i + 1, g[i] < 0 ? "upper"
                          : "lower");
    }
    return OL_OK;
  case OL_SET_SIMPLEX:
    nb = s->nblocks > 0 ? s->nblocks : 1;
    for (b = 0, off = 0; b < nb && off < n; b++) {
      k = s->nblocks > 0 ? s->blocks[b] : n;
      if (k > n - off) k = n - off;
      for (i = off, a = off, m = g[off]; i < off + k; i++) {
        v[i] = 0;
        if (g[i] < m) {
          m = g[i];
          a = i;
        }
      }
      v[a] = 1;
      off += k;
    }
    return OL_OK;
  case OL_SET_L1BALL:
    for (i = 0, a = 0, m = -1; i < n; i++) {
      v[i] = 0;
      if (fabs(g[i]) > m) {
        m = fabs(g[i]);
        a = i;
      }
    }
    v[a] = g[a] > 0 ? -s->radius : s->radius;
    return OL_OK;
  case OL_SET_L2BALL:
    for (i = 0, m = 0; i < n; i++) m += g[i] * g[i];
    m = sqrt(m);
    for (i = 0; i < n; i++) v[i] = m > 0 ? -s->radius * g[i] / m : 0;
    return OL_OK;
  default:
    return ol_err_set(e, OL_EINVAL, "unknown set kind %d", s->kind);
  }
}

double ol_set_fwgap (const ol_set *s, const double *x, const double *g,
                     int n)
{
  double dot = 0, acc = 0, m;
  int i, b, off, nb, k;
  if (s == NULL) return NAN;
  for (i = 0; i < n; i++) dot += g[i] * x[i];
  switch (s->kind) {
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      double lo = s->lo != NULL ? s->lo[i] : -INFINITY;
      double hi = s->hi != NULL ? s->hi[i] : INFINITY;
      /* min over [lo, hi] of g_i v: g_i lo when g_i > 0, g_i hi when < 0 */
      acc += g[i] * x[i] - (g[i] > 0 ? g[i] * lo : g[i] < 0 ? g[i] * hi
                            : 0);
    }
    return acc;
  case OL_SET_SIMPLEX:
    nb = s->nblocks > 0 ? s->nblocks : 1;
    for (b = 0, off = 0; b < nb && off < n; b++) {
      double bd = 0;
      k = s->nblocks > 0 ? s->blocks[b] : n;
      if (k > n - off) k = n - off;
      for (i = off, m = INFINITY; i < off + k; i++) {
        bd += g[i] * x[i];
        if (g[i] < m) m = g[i];
      }
      acc += bd - m;
      off += k;
    }
    return acc;
  case OL_SET_L1BALL:
    for (i = 0, m = 0; i < n; i++)
      if (fabs(g[i]) > m) m = fabs(g[i]);
    return dot + s->radius * m;
  case OL_SET_L2BALL:
    for (i = 0, m = 0; i < n; i++) m += g[i] * g[i];
    return dot + s->radius * sqrt(m);
  default:
    return NAN;
  }
}

/* Membership up to tol: bounds within tol on a box; on each simplex block
** entries >= -tol and |sum - 1| <= tol.  Non-finite entries are never in a
** constrained set; the unconstrained set contains every finite x. */
int ol_set_contains (const ol_set *s, const double *x, int n, double tol)
{
  int i, b, off;
  for (i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  if (s == NULL) return 1;
  switch (s->kind) {
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      if (s->lo != NULL && x[i] < s->lo[i] - tol) return 0;
      if (s->hi != NULL && x[i] > s->hi[i] + tol) return 0;
    }
    return 1;
  case OL_SET_SIMPLEX: {
    int nb = s->nblocks > 0 ? s->nblocks : 1;
    for (b = 0, off = 0; b < nb; b++) {
      int k = s->nblocks > 0 ? s->blocks[b] : n;
      double sum = 0;
      if (k > n - off) return 0;
      for (i = off; i < off + k; i++) {
        if (x[i] < -tol) return 0;
        sum += x[i];
      }
      if (fabs(sum - 1) > tol) return 0;
      off += k;
    }
    return off == n;
  }
  case OL_SET_L1BALL: {
    double a = 0;
    for (i = 0; i < n; i++) a += fabs(x[i]);
    return a <= s->radius + tol;
  }
  case OL_SET_L2BALL: {
    double a = 0;
    for (i = 0; i < n; i++) a += x[i] * x[i];
    return sqrt(a) <= s->radius + tol;
  }
  default:
    return 1;
  }
}

/* Why x is not in s: OL_OK when it is (up to tol), else OL_EINVAL with a
** message naming the set and the first violation. */
int ol_set_explain (const ol_set *s, const double *x, int n, double tol,
                    ol_err *e)
{
  int i, b, off;
  if (s == NULL || ol_set_contains(s, x, n, tol)) return OL_OK;
  for (i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return ol_err_set(e, OL_EINVAL, "x0[%d] = %g is not finite", i + 1,
                        x[i]);
  if (s->kind == OL_SET_BOX) {
    for (i = 0; i < n; i++) {
      if (s->lo != NULL && x[i] < s->lo[i] - tol)
        return ol_err_set(e, OL_EINVAL, "x0 is outside the box: x0[%d] = "
                          "%g < lo[%d] = %g", i + 1, x[i], i + 1, s->lo[i]);
      if (s->hi != NULL && x[i] > s->hi[i] + tol)
        return ol_err_set(e, OL_EINVAL, "x0 is outside the box: x0[%d] = "
                          "%g > hi[%d] = %g", i + 1, x[i], i + 1, s->hi[i]);
    }
  }
  else if (s->kind == OL_SET_SIMPLEX) {
    int nb = s->nblocks > 0 ? s->nblocks : 1;
    for (b = 0, off = 0; b < nb; b++) {
      int k = s->nblocks > 0 ? s->blocks[b] : n;
      double sum = 0;
      for (i = off; i < off + k && i < n; i++) {
        if (x[i] < -tol)
          return ol_err_set(e, OL_EINVAL, "x0 is outside the simplex: "
                            "x0[%d] = %g < 0 (block %d, entries %d..%d)",
                            i + 1, x[i], b + 1, off + 1, off + k);
        sum += x[i];
      }
      if (fabs(sum - 1) > tol)
        return ol_err_set(e, OL_EINVAL, "x0 is outside the simplex: block "
                          "%d (entries %d..%d) sums to %.17g, not 1", b + 1,
                          off + 1, off + k, sum);
      off += k;
    }
  }
  else if (s->kind == OL_SET_L1BALL || s->kind == OL_SET_L2BALL) {
    double a = 0;
    for (i = 0; i < n; i++)
      a += s->kind == OL_SET_L1BALL ? fabs(x[i]) : x[i] * x[i];
    if (s->kind == OL_SET_L2BALL) a = sqrt(a);
    return ol_err_set(e, OL_EINVAL, "x0 is outside the %s ball: "
                      "||x0||_%d = %.17g > r = %g", s->kind == OL_SET_L1BALL
                      ? "l1" : "l2", s->kind == OL_SET_L1BALL ? 1 : 2, a,
                      s->radius);
  }
  return ol_err_set(e, OL_EINVAL, "x0 is outside the constraint set");
}

char *ol_set_describe (const ol_set *s, char *buf, size_t size)
{
  size_t len;
  int b;
  if (size == 0) return buf;
  buf[0] = '\0';
  if (s == NULL || s->kind == OL_SET_NONE) {
    snprintf(buf, size, "none");
    return buf;
  }
  switch (s->kind) {
  case OL_SET_BOX:
    snprintf(buf, size, "box");
    break;
  case OL_SET_SIMPLEX:
    snprintf(buf, size, "simplex");
    if (s->nblocks > 1) {
      for (b = 0; b < s->nblocks; b++) {
        len = strlen(buf);
        snprintf(buf + len, size - len, "%s%d", b ? ", " : " {",
                 s->blocks[b]);
      }
      len = strlen(buf);
      snprintf(buf + len, size - len, "}");
    }
    break;
  case OL_SET_L1BALL:
  case OL_SET_L2BALL:
    snprintf(buf, size, "%s %g", s->kind == OL_SET_L1BALL ? "l1ball"
             : "l2ball", s->radius);
    break;
  default:
    snprintf(buf, size, "unknown");
    break;
  }
  return buf;
}
