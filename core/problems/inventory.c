/*
** core/problems/inventory.c -- a small inventory (stochastic demand)
** problem as a tabular finite-horizon MDP (seed catalog T23 (b): "supply
** chain problems", seed B007), the numerical example of Puterman 1994,
** "Markov decision processes", section 3.2.2, solved by backward
** induction in section 4.6.1: V*_0 = (67, 129, 194, 227) / 16 for stock
** 0 .. 3, orders 3, 2, 0 from an empty store at the three epochs.
**
** Stock s = 0 .. M (capacity M), order a = 0 .. M delivered at once (an
** order beyond the capacity fills it: a := min(a, M - s)); demand D in
** {0, 1, 2} with probabilities 1/4, 1/2, 1/4, lost when the stock is
** short (no backlog); next stock max(s + a - D, 0).  Expected reward
**   r(s, a) = F(u) - O(a) - hold u,    u = s + a,
**   F(u) = sum_{j < u} price j P(D = j) + price u P(D >= u),
**   O(a) = fixed + cost a for a > 0, O(0) = 0,
** no terminal reward, start empty (mu = delta_0).  Defaults: Puterman's
** M = 3, price 8, fixed 4, cost 2, hold 1, over H = 3 decision epochs
** (his N = 4).  x: softmax logits of the H (M+1)^2 (stage, stock, order)
** triples, f = -J (core/rl/mdp.h), x0 = 0, f* = -V* by backward
** induction (tests/c/t_rl.c checks it against every deterministic
** policy).
*/
#include <math.h>
#include <stdio.h>

#include "ol.h"
#include "problem.h"
#include "rl/mdp.h"

static const ol_param inventory_params[] = {
  {"H", OL_P_INT, 3, 1, 64, "horizon: decision epochs", NULL},
  {"M", OL_P_INT, 3, 1, 50, "capacity of the store", NULL},
  {"price", OL_P_REAL, 8, 0, OL_FINITE, "revenue per unit sold", NULL},
  {"fixed", OL_P_REAL, 4, 0, OL_FINITE, "fixed cost of an order", NULL},
  {"cost", OL_P_REAL, 2, 0, OL_FINITE, "cost per unit ordered", NULL},
  {"hold", OL_P_REAL, 1, 0, OL_FINITE, "holding cost per unit in stock",
   NULL},
};

static int inventory_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  static const double pd[3] = {0.25, 0.5, 0.25};
  int H = (int)v[0].num, Mc = (int)v[1].num, S = Mc + 1, s, a, j, rc;
  double price = v[2].num, fixed = v[3].num, cost = v[4].num;
  double hold = v[5].num;
  ol_mdp *M = ol_mdp_new(H, S, S, e);
  if (M == NULL) return OL_ENOMEM;
  M->mu[0] = 1;
  for (s = 0; s < S; s++)
    for (a = 0; a < S; a++) {
      int b = a < Mc - s ? a : Mc - s, u = s + b;
      double F = 0, tail = 1;
      double *P = M->P + ((size_t)s * S + a) * S;
      for (j = 0; j < u && j < 3; j++) {
        F += price * j * pd[j];
        tail -= pd[j];
      }
      F += price * u * (tail > 0 ? tail : 0);
      M->R[(size_t)s * S + a] = F - (b > 0 ? fixed + cost * b : 0)
        - hold * u;
      for (j = 0; j < 3; j++) P[u - j > 0 ? u - j : 0] += pd[j];
    }
  if ((rc = ol_mdp_setup(p, M, "inventory", e)) != OL_OK) return rc;
  snprintf(p->desc, sizeof p->desc, "inventory{H=%d, M=%d, price=%g, "
           "fixed=%g, cost=%g, hold=%g}", H, Mc, price, fixed, cost, hold);
  return OL_OK;
}

const ol_problem_type ol_problem_inventory = {
  .name = "inventory",
  .kind = OL_OBJECTIVE,
  .doc = "an inventory MDP: stock 0..M, orders, demand 0, 1, 2 w.p. 1/4, 1/2, "
         "1/4",
  .ref = "Puterman 1994, sections 3.2.2 and 4.6.1",
  .params = inventory_params,
  .nparams = (int)(sizeof inventory_params / sizeof inventory_params[0]),
  .create = inventory_create,
  .mdp = ol_mdp_ud,
};
