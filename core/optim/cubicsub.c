/*
** core/optim/cubicsub.c -- the cubic-regularized Newton subproblem
** (cubicsub.h; the method is described in cubic.c's header).
*/
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "cubicsub.h"
#include "vec.h"

#define SUB_NEWTON 200

/* ||s(r)|| and d||s||/dr over the components with a nonzero gt_i. */
static double sub_norm (const double *ev, const double *gt, int n, double M,
                         double r, double *dn)
{
  double q = 0, q3 = 0, h = 0.5 * M * r, nn;
  int i;
  for (i = 0; i < n; i++) {
    double d, u;
    if (gt[i] == 0) continue;
    d = ev[i] + h;
    u = gt[i] / d;
    q += u * u;
    q3 += u * u / d;
  }
  nn = sqrt(q);
  if (dn != NULL) *dn = nn > 0 ? -0.5 * M * q3 / nn : 0;
  return nn;
}

double ol_cubic_subproblem (const double *ev, const double *gt, int n,
                            double M, double *st, double *gs_out,
                            double *shs_out)
{
  double lmin = ev[0], gn = ol_vec_nrm2(gt, n), lo, hi, r, phi, dn;
  double gs = 0, shs = 0;
  int i, k;
  lo = lmin < 0 ? -2 * lmin / M : 0;
  hi = lo + 1.01 * sqrt(2 * gn / M) + DBL_MIN;
  /* (1) hard case: phi already <= 0 just above r_lo */
  r = lo * (1 + 1e-12);
  if (gn == 0 || (lmin < 0 && sub_norm(ev, gt, n, M, r, NULL) <= r)) {
    double h = 0.5 * M * lo, q = 0, tau;
    double thr = 1e-12 * (fabs(lmin) + fabs(ev[n - 1]));
    for (i = 0; i < n; i++) {
      double d = ev[i] + h;
      if (d <= thr)
        st[i] = 0;
      else {
        st[i] = -gt[i] / d;
        q += st[i] * st[i];
      }
    }
    tau = lo * lo > q ? sqrt(lo * lo - q) : 0;
    st[0] = gt[0] > 0 ? -tau : tau;
    r = lo;
  } else {
    /* (2) safeguarded Newton on phi(r) = ||s(r)|| - r from r_hi */
    r = hi;
    for (k = 0; k < SUB_NEWTON; k++) {
      double rn;
      phi = sub_norm(ev, gt, n, M, r, &dn) - r;
      if (fabs(phi) <= 4 * DBL_EPSILON * r) break;
      if (phi > 0) lo = r;
      else hi = r;
      if (hi - lo <= 4 * DBL_EPSILON * hi) break;
      rn = r - phi / (dn - 1);
      r = rn > lo && rn < hi ? rn : 0.5 * (lo + hi);
    }
    for (i = 0; i < n; i++)
      st[i] = -gt[i] / (ev[i] + 0.5 * M * r);
  }
  /* (3) model terms g's = gt'st, s'Hs = sum lambda st^2, ||s|| */
  for (i = 0; i < n; i++) {
    gs += gt[i] * st[i];
    shs += ev[i] * st[i] * st[i];
  }
  *gs_out = gs;
  *shs_out = shs;
  return ol_vec_nrm2(st, n);
}
