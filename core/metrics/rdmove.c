/*
** core/metrics/rdmove.c -- the two half-steps of diffusion.rd (Chen,
** Daras & Dimakis 2023, seed B009; core/diffusion/rd.c): restoration, the
** particles' mean distance from the current point to the restored one
** (Tweedie's posterior mean of an earlier state), and degradation, their
** mean distance from the restored point to the next iterate (the forward
** process driven by the noise pointing back).  Each is of the step just
** taken, which only the method sees, so they are its probes.
*/
#include <math.h>

#include "method.h"
#include "metrics.h"

static double m_restoration (const ol_mstate *s)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, OL_MET_RESTORATION, s->c);
}

static double m_degradation (const ol_mstate *s)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, OL_MET_DEGRADATION, s->c);
}

const ol_metric_type ol_metric_restoration = {
  .name = "restoration",
  .doc = "diffusion.rd's restoration half-step: the particles' mean "
    "||x_r - x||, x_r = E[x_(t_r) | x_t] the pull towards the data",
  .avail = ol_metric_by_probe,
  .eval = m_restoration,
  .unavailable_msg = "{metric}: {method} has no restoration half-step "
    "(diffusion.rd on problem.gmm has)",
};

const ol_metric_type ol_metric_degradation = {
  .name = "degradation",
  .doc = "diffusion.rd's degradation half-step: the particles' mean "
    "||x' - x_r||, the noise added back by the forward process",
  .avail = ol_metric_by_probe,
  .eval = m_degradation,
  .unavailable_msg = "{metric}: {method} has no degradation half-step "
    "(diffusion.rd on problem.gmm has)",
};
