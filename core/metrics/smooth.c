/*
** core/metrics/smooth.c -- an SMC method's estimate of the smoothed
** additive functional E[S_h | y], S_h = sum_t h_t(x_{t-1}, x_t)
** (core/smc/pf.h): smc.paris's last pass, smc.ppg's mean over its sweeps
** after burnin.  Its bias and variance against the Kalman/RTS truth
** (M34) are taken across replicate runs (scripts/paris_ppg.lua).  A
** method's probe.
*/
#include <math.h>

#include "method.h"
#include "metrics.h"

static double m_smooth (const ol_mstate *s)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, OL_MET_SMOOTH, s->c);
}

const ol_metric_type ol_metric_smooth = {
  .name = "smooth",
  .doc = "the SMC method's estimate of the smoothed additive functional "
    "E[sum_t h_t | y] (smc.paris: its last pass; smc.ppg: the mean over "
    "its sweeps after burnin)",
  .avail = ol_metric_by_probe,
  .eval = m_smooth,
  .unavailable_msg = "{metric}: {method} does not keep it (smc.paris and "
    "smc.ppg on problem.ssm do)",
};
