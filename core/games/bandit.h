/*
** core/games/bandit.h -- the loss estimates of the bandit-feedback
** dynamics with a regulariser (logbarrier.c, tsmd.c): one sampled action
** per player per round, drawn from its strategy with the run's seeded
** generator, and the importance-weighted estimate of its loss vector.
**
** Losses are the payoffs scaled into [0, 1], l = (M - u) / (2 M), M =
** max |payoff| (as exp3.c).  With the profile z = (x_1, x_2) played and
** the joint action (a_1, a_2) ~ x_1 x x_2, player i's estimate is
**
**   lhat_i,a = l_i(a_1, a_2) [a = a_i] / (x_i,a + gamma)
**
** unbiased for gamma = 0: E lhat_i,a = x_i,a E[l_i | a_i = a] / x_i,a =
** the expected loss of action a against the other's x_-i, which is
** (M + g_a) / (2 M) with g the oracle's output at z (problem.h's sign,
** minus the utility vector).  gamma > 0 is Neu's (2015) implicit
** exploration, biased low by gamma l / (x_a + gamma).  In full-information
** mode the estimate is that expectation itself, from g at z.
*/
#ifndef OL_BANDIT_H
#define OL_BANDIT_H

#include "play.h"

enum { OL_FEEDBACK_BANDIT, OL_FEEDBACK_FULL };
#define OL_FEEDBACK_CHOICES "bandit|full"
#define OL_FEEDBACK_DOC "bandit: each player sees only the payoff of the " \
  "joint action played (importance-weighted estimates); full: the " \
  "expected loss of every action (for checks)"

/* d (n entries) := each player's loss estimates at the profile c->x,
** whose oracle output g0 the caller already has; feedback OL_FEEDBACK_*,
** M the payoff scale, gamma_ the implicit-exploration term (0: unbiased).
** z and g are n-entry scratch arrays (the pure profile, its oracle
** output).  One oracle call in bandit mode, none in full. */
static inline int ol_bandit_losses (ol_ctx *c, const ol_play *pl,
                                    int feedback, double M, double gamma_,
                                    const double *g0, double *z, double *g,
                                    double *d, ol_err *e)
{
  int b, off, a, rc, act[OL_MAXBLOCKS];
  if (feedback == OL_FEEDBACK_FULL) {
    for (a = 0; a < c->n; a++) d[a] = (M + g0[a]) / (2 * M);
    return OL_OK;
  }
  /* (1) each player draws an action from its strategy */
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    double u = ol_rng_uniform(c->rng), acc = 0;
    int k = pl->blk[b];
    for (a = 0; a < k; a++) z[off + a] = 0;
    for (a = 0; a < k - 1; a++) {
      acc += c->x[off + a];
      if (u < acc) break;
    }
    act[b] = off + a;
    z[act[b]] = 1;
  }
  /* (2) the payoffs of the joint action played: one entry each */
  if ((rc = ol_ctx_grad(c, z, NULL, g, e)) != OL_OK) return rc;
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    double l = (M + g[act[b]]) / (2 * M), pa = c->x[act[b]] + gamma_;
    for (a = 0; a < pl->blk[b]; a++) d[off + a] = 0;
    d[act[b]] = pa > 0 ? l / pa : 0;     /* (p_a = 0: drawn by rounding) */
  }
  return OL_OK;
}

#endif
