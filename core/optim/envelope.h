/*
** core/optim/envelope.h -- the effective-learning-rate envelope shared by
** the adaptive optimizers' probes (metrics lrmin, lrmed, lrmax), and the
** dynamic bounds of AdaBound and AMSBound (Luo, Xiong, Liu & Sun 2019)
** that clip those rates, with the parameter rows and the probe the two
** have word for word.
*/
#ifndef OL_ENVELOPE_H
#define OL_ENVELOPE_H

#include <math.h>

/* min (OL_MET_LRMIN), median (OL_MET_LRMED; the mean of the two middle
** values for an even n) or max (OL_MET_LRMAX) of w[0..n), which it
** reorders; NAN for any other metric.  O(n), never allocates. */
double ol_envelope (double *w, int n, int metric);

/* Parameter rows of AdaBound and AMSBound (the paper's alpha and the
** reference code's final_lr, gamma). */
#define OL_BOUND_P_LR \
  {"lr", OL_P_REAL, 1e-3, 0, INFINITY, "adaptive step size (alpha)", NULL}
#define OL_BOUND_P_FINAL_LR \
  {"final_lr", OL_P_REAL, 0.1, 0, INFINITY, \
   "SGD step size both bounds converge to", NULL}
#define OL_BOUND_P_GAMMA \
  {"gamma", OL_P_REAL, 1e-3, 0, INFINITY, \
   "convergence speed of the bounds", NULL}

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

/* The lrmin / lrmed / lrmax probe of AdaBound and AMSBound after t >= 1
** steps: ol_envelope of w_i = ol_bound_rate(lr, eps, v_i, eta_l(t),
** eta_u(t), sched / sqrt(t)), i < n, the rate the last step applied to
** m_t, with v the second moment that divides (v_t, vhat_t).  Overwrites
** w[0..n). */
static inline double ol_bound_envelope (double *w, const double *v, int n,
                                        double lr, double eps,
                                        double final_lr, double gamma,
                                        double t, double sched, int metric)
{
  double lo, hi, k;
  int i;
  ol_bound_band(final_lr, gamma, t, &lo, &hi);
  k = sched / sqrt(t);
  for (i = 0; i < n; i++) w[i] = ol_bound_rate(lr, eps, v[i], lo, hi, k);
  return ol_envelope(w, n, metric);
}

#endif
