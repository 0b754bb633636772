/*
** core/metrics/pfess.c -- the mean over time of the particle filter's
** effective sample size (sum w)^2 / sum w^2 over N, in (0, 1], of an SMC
** method's last pass (core/smc/pf.h).  A method's probe.
*/
#include <math.h>

#include "method.h"
#include "metrics.h"

static double m_pfess (const ol_mstate *s)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, OL_MET_PFESS, s->c);
}

const ol_metric_type ol_metric_pfess = {
  .name = "pfess",
  .doc = "mean over t of the particle filter's effective sample size "
    "(sum w)^2 / sum w^2 over N, in (0, 1], of the SMC method's last pass",
  .avail = ol_metric_by_probe,
  .eval = m_pfess,
  .unavailable_msg = "{metric}: {method} does not keep it "
    "(smc.paris and smc.ppg on problem.ssm do)",
};
