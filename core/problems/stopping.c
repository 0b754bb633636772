/*
** core/problems/stopping.c -- optimal stopping of an i.i.d. price as a
** tabular finite-horizon MDP (seed catalog T23 (a); Klein, Weissmann &
** Doring 2024, seed B007, name optimal stopping as their example; the
** classical house-selling problem, Chow, Robbins & Siegmund 1971,
** "Great expectations: the theory of optimal stopping").
**
** Instance: at each stage h = 0 .. H-1 a price is drawn i.i.d. uniformly
** from the grid {1/K, 2/K, ..., 1}; the state is its index s (price
** (s + 1)/K, mu uniform).  Action 0 stops: reward the price, the episode
** ends; action 1 continues: reward 0, the next price is drawn (after
** stage H-1 the episode ends with nothing).  Backward induction:
**   V*_{H-1}(s) = price_s,   V*_h(s) = max(price_s, c_{h+1}),
**   c_h = mean_s V*_h(s),    V* = c_0,
** a threshold rule: stop at stage h when the price is at least c_{h+1}.
** x: the softmax logits of the H K 2 (stage, price, action) triples,
** f = -J (core/rl/mdp.h), x0 = 0 (stop or continue with 1/2 each),
** f* = -V*.
*/
#include <stdio.h>

#include "ol.h"
#include "problem.h"
#include "rl/mdp.h"

static const ol_param stopping_params[] = {
  {"H", OL_P_INT, 10, 1, 64, "horizon: the number of stages", NULL},
  {"K", OL_P_INT, 10, 2, 200, "price levels: prices 1/K, 2/K, ..., 1 "
   "(the transitions are dense: a gradient costs 2 H K^2)", NULL},
};

static int stopping_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int H = (int)v[0].num, K = (int)v[1].num, s, t, rc;
  ol_mdp *M = ol_mdp_new(H, K, 2, e);
  if (M == NULL) return OL_ENOMEM;
  for (s = 0; s < K; s++) {
    M->mu[s] = 1.0 / K;
    M->R[s * 2] = (s + 1.0) / K;                    /* stop */
    for (t = 0; t < K; t++)
      M->P[((size_t)s * 2 + 1) * K + t] = 1.0 / K;  /* continue */
  }
  if ((rc = ol_mdp_setup(p, M, "stopping", e)) != OL_OK) return rc;
  snprintf(p->desc, sizeof p->desc, "stopping{H=%d, K=%d}", H, K);
  return OL_OK;
}

const ol_problem_type ol_problem_stopping = {
  .name = "stopping",
  .kind = OL_OBJECTIVE,
  .doc = "optimal stopping of i.i.d. uniform grid prices over H stages (an "
         "MDP)",
  .ref = "Chow, Robbins & Siegmund 1971; Klein, Weissmann & Doring 2024",
  .params = stopping_params,
  .nparams = (int)(sizeof stopping_params / sizeof stopping_params[0]),
  .create = stopping_create,
  .mdp = ol_mdp_ud,
};
