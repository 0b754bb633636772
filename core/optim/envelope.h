/*
** core/optim/envelope.h -- the effective-learning-rate envelope shared by
** the adaptive optimizers' probes (metrics lrmin, lrmed, lrmax), and the
** dynamic bounds of AdaBound and AMSBound (Luo, Xiong, Liu & Sun 2019)
** that clip those rates.
*/
#ifndef OL_ENVELOPE_H
#define OL_ENVELOPE_H

#include <math.h>

/* min (OL_MET_LRMIN), median (OL_MET_LRMED; the mean of the two middle
** values for an even n) or max (OL_MET_LRMAX) of w[0..n), which it
** reorders; NAN for any other metric.  O(n), never allocates. */
double ol_envelope (double *w, int n, int metric);

/* AdaBound's band for step t >= 1, with the bound functions of the
** authors' reference code:
**   eta_l(t) = final_lr (1 - 1 / (gamma t + 1))
**   eta_u(t) = final_lr (1 + 1 / (gamma t))     (+inf when gamma = 0). */
static inline void ol_bound_band (double final_lr, double gamma, double t,
                                  double *lo, double *hi)
{
  *lo = final_lr * (1 - 1 / (gamma * t + 1));
  *hi = gamma > 0 ? final_lr * (1 + 1 / (gamma * t)) : INFINITY;
}

/* One coordinate's rate clip(lr / (sqrt(v) + eps), lo, hi) k, where v is
** the second moment that divides (AdaBound's v_t, AMSBound's vhat_t) and
** k the factor sched_t / sqrt(t). */
static inline double ol_bound_rate (double lr, double eps, double v,
                                    double lo, double hi, double k)
{
  double r = lr / (sqrt(v) + eps);
  if (r < lo) r = lo;
  if (r > hi) r = hi;
  return r * k;
}

#endif
