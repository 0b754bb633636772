/*
** core/games/cfr.c -- counterfactual regret minimisation (Zinkevich,
** Johanson, Bowling & Piccione 2007, "Regret Minimization in Games with
** Incomplete Information", NIPS; eq. (4)-(8)) in self-play on a game
** tree (problems/kuhn.h: Kuhn poker).
**
** x_I = sigma_t(I, 1), the probability of bet / call at information set
** I.  Each step, one walk of the tree at sigma_t gives the counterfactual
** values cfv(I, a) (eq. (7), unnormalised by the opponent's total reach)
** and each player's own reach pi_i(I); then for every I:
**
**   R(I,a)  += cfv(I,a) - sum_b sigma_t(I,b) cfv(I,b)   (eq. (7))
**   S(I,a)  += w_t pi_i(I) sigma_t(I,a)                 (eq. (4))
**   sigma_{t+1}(I,a) = R+(I,a) / sum_b R+(I,b)          (eq. (8);
**              1/2 each when no regret is positive)
**
** Simultaneous updates (both players' regrets from the walk at sigma_t)
** by default, as in the paper; alternate = true updates player 2 against
** player 1's new strategy (a second walk).  c->xavg is the average
** strategy S(I,1) / sum_a S(I,a) (reach-weighted, the behavioural form of
** the average mixed strategy; its exploitability goes to 0 like
** O(1/sqrt(T)), Theorem 4), weights w_t = 1 (avg = uniform), t + 1 or
** (t + 1)^2.  Refuses matrix games (method.c: OL_M_TREE).
*/
#include <string.h>

#include "play.h"
#include "problems/kuhn.h"

typedef struct cfr_state {
  int alternate, avg;
  double R[2 * OL_KUHN_N];    /* cumulative counterfactual regrets */
  double S[2 * OL_KUHN_N];    /* reach-weighted strategy sums */
  double cfv[2 * OL_KUHN_N], reach[OL_KUHN_N];
} cfr_state;

static const ol_param cfr_params[] = {
  {"alternate", OL_P_BOOL, 0, 0, 1,
   "false: simultaneous updates (Zinkevich et al. 2007); true: player 2 "
   "responds to player 1's new strategy", NULL},
  {"avg", OL_P_ENUM, OL_AVG_UNIFORM, 0, 2, OL_AVG_DOC, OL_AVG_CHOICES},
};

static int cfr_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  cfr_state *s = st;
  if (!ol_kuhn_is(c->p) || c->n != OL_KUHN_N)
    return ol_err_set(e, OL_EINVAL, "cfr needs an extensive-form game "
                      "(problem.kuhn{})");
  s->alternate = par[0] != 0;
  s->avg = (int)par[1];
  memset(s->R, 0, sizeof s->R);
  memset(s->S, 0, sizeof s->S);
  if (c->xavg != NULL) memcpy(c->xavg, c->x, sizeof *c->x * OL_KUHN_N);
  return OL_OK;
}

/* The averaging weight of step t (0-based). */
static double cfr_weight (int avg, long t)
{
  double t1 = (double)(t + 1);
  return avg == OL_AVG_LINEAR ? t1 : avg == OL_AVG_QUADRATIC ? t1 * t1 : 1;
}

static int cfr_step (void *st, ol_ctx *c, ol_err *e)
{
  cfr_state *s = st;
  double w = cfr_weight(s->avg, c->t);
  int i;
  (void)e;
  for (i = 0; i < 2; i++) {
    int lo = 6 * i, hi = lo + 6;
    /* (1) counterfactual values and reaches at the current profile (both
    ** players' from one walk when simultaneous) */
    if (i == 0 || s->alternate) {
      ol_kuhn_walk(c->x, s->cfv, s->reach);
      c->ngev++;
    }
    /* (2) the average strategy, (3) regrets */
    ol_tree_average(s->S, s->reach, c->x, w, lo, hi, c->xavg);
    ol_tree_regret(s->R, s->cfv, c->x, lo, hi, 0);
    /* (4) regret matching (player 1 at once when alternating) */
    if (s->alternate) ol_tree_match(s->R, c->x, lo, hi);
  }
  if (!s->alternate) ol_tree_match(s->R, c->x, 0, OL_KUHN_N);
  return OL_OK;
}

static void cfr_fini (void *st)
{
  (void)st;
}

const ol_method_type ol_game_cfr = {
  "cfr", OL_DYNAMIC,
  "counterfactual regret minimisation on a game tree (Kuhn poker)",
  "Zinkevich, Johanson, Bowling & Piccione 2007, eq. (4)-(8)",
  cfr_params, (int)(sizeof cfr_params / sizeof cfr_params[0]),
  sizeof(cfr_state), OL_M_OWNAVG | OL_M_TREE, OL_KIND(OL_GAME),
  cfr_init, cfr_step, cfr_fini, NULL, 0
};
