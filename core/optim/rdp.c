/*
** core/optim/rdp.c -- Renyi-DP accountant of the Poisson-sampled Gaussian
** mechanism: formulas and references in core/optim/rdp.h.  Not a method
** (no vtable): dpsgd.c and the tests call it.
*/
#include <math.h>
#include <stddef.h>

#include "rdp.h"

double ol_rdp_sgm (double q, double sigma, int alpha)
{
  double lt[OL_RDP_AMAX + 1], mx = -INFINITY, s = 0;
  int k;
  if (q <= 0) return 0;
  if (sigma <= 0) return INFINITY;
  if (alpha < 2 || alpha > OL_RDP_AMAX) return NAN;
  /* (1) log of each term: log C(alpha, k) + (alpha - k) log(1 - q)
  **     + k log q + (k^2 - k) / (2 sigma^2) */
  for (k = 0; k <= alpha; k++) {
    double t = ((double)k * k - k) / (2 * sigma * sigma);
    if (q >= 1 && k < alpha) {
      lt[k] = -INFINITY;
      continue;
    }
    lt[k] = lgamma(alpha + 1.0) - lgamma(k + 1.0) - lgamma(alpha - k + 1.0)
      + (alpha - k > 0 ? (alpha - k) * log1p(-q) : 0) + k * log(q) + t;
    if (lt[k] > mx) mx = lt[k];
  }
  /* (2) log-sum-exp */
  for (k = 0; k <= alpha; k++) s += exp(lt[k] - mx);
  return (mx + log(s)) / (alpha - 1);
}

void ol_rdp_orders (double q, double sigma, double rdp[OL_RDP_NORD])
{
  int j;
  for (j = 0; j < OL_RDP_NORD; j++)
    rdp[j] = ol_rdp_sgm(q, sigma, OL_RDP_AMIN + j);
}

double ol_rdp_epsilon (const double rdp[OL_RDP_NORD], double steps,
                       double delta, int *order)
{
  double best = INFINITY;
  int j, bo = OL_RDP_AMIN;
  for (j = 0; j < OL_RDP_NORD; j++) {
    double a = OL_RDP_AMIN + j, r = steps * rdp[j], eps;
    if (!(r < INFINITY)) continue;
    /* total variation <= sqrt(1 - exp(-KL)) <= delta: (0, delta)-DP */
    if (delta * delta + expm1(-r) > 0) eps = 0;
    else eps = r + log1p(-1 / a) - log(delta * a) / (a - 1);
    if (eps < best) {
      best = eps;
      bo = (int)a;
    }
  }
  if (order != NULL) *order = bo;
  return best > 0 ? best : 0;
}
