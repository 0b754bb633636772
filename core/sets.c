/*
** core/sets.c -- constraint sets: Euclidean projection and membership.
**
** Box: componentwise clamp (a NULL bound array means unbounded on that
** side).  Product of simplices: each block is projected on its own
** probability simplex by the sort-based algorithm (Held, Wolfe & Crowder
** 1974; Duchi, Shalev-Shwartz, Singer & Chandra 2008, fig. 1):
**   u = sort(v) decreasing, rho = max { j : u_j - (sum_{r<=j} u_r - 1)/j > 0 },
**   tau = (sum_{r<=rho} u_r - 1) / rho,   x = max(v - tau, 0).
** The sort is an in-place heapsort on the caller's work array, so
** projection never allocates (it runs inside method steps).  A simplex set
** with no blocks is treated as one block of all n coordinates.
*/
#include "problem.h"

#include <math.h>
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

/* Project the k entries of x on the probability simplex; work holds k. */
static void project_simplex (double *x, int k, double *work)
{
  double sum = 0, tau = 0;
  int j;
  if (k <= 0) return;
  memcpy(work, x, (size_t)k * sizeof *x);
  sort_decreasing(work, k);
  for (j = 0; j < k; j++) {
    double t;
    sum += work[j];
    t = (sum - 1) / (j + 1);
    if (work[j] - t > 0) tau = t;
  }
  for (j = 0; j < k; j++) x[j] = x[j] > tau ? x[j] - tau : 0;
}

/* In-place projection of x (n entries) on s; work needs n doubles (only
** simplex sets use it).  A NULL or empty set leaves x unchanged. */
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
  default:
    break;
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
  return ol_err_set(e, OL_EINVAL, "x0 is outside the constraint set");
}
