/*
** core/metrics/dynregret.c -- M16 of the seeds catalog, each player's
** worst-case dynamic regret (Cai & Zheng 2023, "Doubly optimal no-regret
** learning in monotone games", ICML, sec. 2):
**
**   DR_i(T) = sum_{t < T} (max_{x in X_i} u_i(x, z_-i,t) - u_i(z_t))
**
** the regret against the best response to each round's play, summed over
** the T profiles z_t played; the metric is max_i DR_i(T) (cumulative,
** not divided by T: O(log T) for game.aog, O(sqrt(T)) for EG and OG in
** the worst case).  On simplices the max is the best pure action, so each
** term is player i's exploitability of z_t.  It needs every profile
** played, not only the recorded ones, so it is a method's probe
** (game.aog keeps the sums; core/games/aog.c).
*/
#include <math.h>

#include "method.h"
#include "metrics.h"

static double m_dynregret (const ol_mstate *s)
{
  if (s->m == NULL || s->m->probe == NULL || s->st == NULL) return NAN;
  return s->m->probe(s->st, OL_MET_DYNREGRET, s->c);
}

const ol_metric_type ol_metric_dynregret = {
  .name = "dynregret",
  .doc = "largest individual worst-case dynamic regret over players, sum_t "
    "(max_a u_i(a, z_-i,t) - u_i(z_t)) over the profiles played (M16)",
  .avail = ol_metric_by_probe,
  .eval = m_dynregret,
  .unavailable_msg = "{metric}: {method} does not keep the dynamic regret "
    "(game.aog on a game over simplices does)",
};
