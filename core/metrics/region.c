/*
** core/metrics/region.c -- M28 of the seeds catalog, the size of the
** region linear SARSA chatters in (Zhang, Tachet des Combes & Laroche
** 2023, seed B055): the diameter of the bounding box of the late
** iterates, "the diameter of the late-trajectory bounding box" (the
** catalog's second reading).  It needs every iterate, not only the
** recorded ones, so it is a method's probe: rl.sarsa keeps the boxes of
** dyadic blocks of steps and reports the box over [2^(k-1), t] for
** 2^k <= t < 2^(k+1), the last half to three quarters of the run
** (core/rl/sarsa.c).
*/
#include <math.h>

#include "method.h"
#include "metrics.h"

static double m_region (const ol_mstate *s)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, OL_MET_REGION, s->c);
}

const ol_metric_type ol_metric_region = {
  .name = "region",
  .doc = "diameter of the bounding box of the iterates over the last half "
    "to three quarters of the steps (M28: where SARSA chatters)",
  .avail = ol_metric_by_probe,
  .eval = m_region,
  .unavailable_msg = "{metric}: {method} does not keep the region of its "
    "iterates (rl.sarsa on problem.linmdp does)",
};
