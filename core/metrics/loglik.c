/*
** core/metrics/loglik.c -- the log-likelihood estimate of an SMC method's
** last particle filter pass, log Z^ = sum_t log((1/N) sum_i w_t^i): Z^
** is unbiased for the likelihood p(y) (core/smc/pf.h).  A method's
** probe: smc.paris keeps it (smc.ppg's conditional passes estimate no
** likelihood).
*/
#include <math.h>

#include "method.h"
#include "metrics.h"

static double m_loglik (const ol_mstate *s)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, OL_MET_LOGLIK, s->c);
}

const ol_metric_type ol_metric_loglik = {
  .name = "loglik",
  .doc = "log-likelihood estimate log Z^ of the SMC method's last particle "
    "filter pass (Z^ is unbiased for the likelihood)",
  .avail = ol_metric_by_probe,
  .eval = m_loglik,
  .unavailable_msg = "{metric}: {method} does not keep it "
    "(smc.paris on problem.ssm does; smc.ppg does not)",
};
