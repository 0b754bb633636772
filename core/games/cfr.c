/*
** core/games/cfr.c -- counterfactual regret minimisation (Zinkevich,
** Johanson, Bowling & Piccione 2007, "Regret Minimization in Games with
** Incomplete Information", NIPS; eq. (4)-(8)) in self-play on a game
** tree (problems/kuhn.h: Kuhn poker, or a user's game, problems/efg.h).
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
** (t + 1)^2.  Refuses matrix games (method.c: OL_M_TREE).  Its init and
** step (ol_cfr_init, ol_cfr_step in play.h) are CFR+'s too (cfrplus.c).
*/
#include <stdlib.h>
#include <string.h>

#include "play.h"
#include "problems/kuhn.h"

typedef ol_cfr cfr_state;

/* The three updates on a game tree (problems/kuhn.h: x_I = P(action 1)
** at information set I, cfv[2I + a] the counterfactual values of its two
** actions), over information sets [lo, hi); R and S hold two entries per
** information set (2 n).  cfrplus.c reaches them through
** ol_cfr_init (plus = 1) and ol_cfr_step. */

/* R(I,a) += cfv(I,a) - v(I),  v(I) = sum_a x(I,a) cfv(I,a)  (Zinkevich et
** al. 2007, eq. (7)); plus = 1 clips at 0 after adding (regret
** matching+, Tammelin 2014). */
static void tree_regret (double *R, const double *cfv, const double *x,
                         int lo, int hi, int plus)
{
  int I, a;
  for (I = lo; I < hi; I++) {
    double v = (1 - x[I]) * cfv[2 * I] + x[I] * cfv[2 * I + 1];
    for (a = 0; a < 2; a++) {
      R[2 * I + a] += cfv[2 * I + a] - v;
      if (plus && R[2 * I + a] < 0) R[2 * I + a] = 0;
    }
  }
}

/* x(I,a) = R+(I,a) / sum_b R+(I,b), 1/2 each when the sum is 0 (eq. (8)). */
static void tree_match (const double *R, double *x, int lo, int hi)
{
  int I;
  for (I = lo; I < hi; I++) {
    double r0 = R[2 * I] > 0 ? R[2 * I] : 0;
    double r1 = R[2 * I + 1] > 0 ? R[2 * I + 1] : 0;
    x[I] = r0 + r1 > 0 ? r1 / (r0 + r1) : 0.5;
  }
}

/* S(I,a) += w pi_i(I) x(I,a) and xavg_I = S(I,1) / (S(I,0) + S(I,1)),
** the reach-weighted average behavioural strategy (eq. (4)); xavg_I is
** left as it is while I has never been reached. */
static void tree_average (double *S, const double *reach, const double *x,
                          double w, int lo, int hi, double *xavg)
{
  int I;
  for (I = lo; I < hi; I++) {
    S[2 * I] += w * reach[I] * (1 - x[I]);
    S[2 * I + 1] += w * reach[I] * x[I];
    if (xavg != NULL && S[2 * I] + S[2 * I + 1] > 0)
      xavg[I] = S[2 * I + 1] / (S[2 * I] + S[2 * I + 1]);
  }
}

int ol_cfr_init (ol_cfr *s, const double *par, int plus, ol_ctx *c,
                 const char *who, ol_err *e)
{
  const ol_tree *T = ol_tree_of(c->p);
  size_t n;
  if (T == NULL || c->n != T->n)
    return ol_err_set(e, OL_EINVAL, "%s needs an extensive-form game "
                      "(problem.kuhn{} or problem.efg{...})", who);
  n = (size_t)T->n;
  s->T = T;
  s->alternate = par[0] != 0;
  s->avg = (int)par[1];
  s->plus = plus;
  if ((s->R = calloc(2 * n, sizeof *s->R)) == NULL ||
      (s->S = calloc(2 * n, sizeof *s->S)) == NULL ||
      (s->cfv = calloc(2 * n, sizeof *s->cfv)) == NULL ||
      (s->reach = calloc(n, sizeof *s->reach)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "%s: out of memory for %zu "
                      "information sets", who, n);
  if (c->xavg != NULL) memcpy(c->xavg, c->x, sizeof *c->x * n);
  return OL_OK;
}

void ol_cfr_fini (void *st)
{
  ol_cfr *s = st;
  free(s->R);
  free(s->S);
  free(s->cfv);
  free(s->reach);
  s->R = s->S = s->cfv = s->reach = NULL;
}

int ol_cfr_step (void *st, ol_ctx *c, ol_err *e)
{
  ol_cfr *s = st;
  const ol_tree *T = s->T;
  double t1 = (double)(c->t + 1);
  double w = s->avg == OL_AVG_LINEAR ? t1
    : s->avg == OL_AVG_QUADRATIC ? t1 * t1 : 1;
  int i;
  (void)e;
  for (i = 0; i < 2; i++) {
    int lo = i == 0 ? 0 : T->n1, hi = i == 0 ? T->n1 : T->n;
    /* (1) counterfactual values and reaches at the current profile (both
    ** players' from one walk when simultaneous) */
    if (i == 0 || s->alternate) {
      T->walk(T, c->x, s->cfv, s->reach);
      c->ngev++;
    }
    /* (2) the average strategy, (3) regrets (clipped for CFR+) */
    tree_average(s->S, s->reach, c->x, w, lo, hi, c->xavg);
    tree_regret(s->R, s->cfv, c->x, lo, hi, s->plus);
    /* (4) regret matching (player 1 at once when alternating) */
    if (s->alternate) tree_match(s->R, c->x, lo, hi);
  }
  if (!s->alternate) tree_match(s->R, c->x, 0, T->n);
  return OL_OK;
}

static const ol_param cfr_params[] = {
  {"alternate", OL_P_BOOL, 0, 0, 1,
   "false: simultaneous updates (Zinkevich et al. 2007); true: player 2 "
   "responds to player 1's new strategy", NULL},
  {"avg", OL_P_ENUM, OL_AVG_UNIFORM, 0, 2, OL_AVG_DOC, OL_AVG_CHOICES},
};

static int cfr_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_cfr_init(st, par, 0, c, "cfr", e);
}

const ol_method_type ol_game_cfr = {
  .name = "cfr",
  .family = OL_DYNAMIC,
  .doc = "counterfactual regret minimisation on a game tree (Kuhn poker)",
  .ref = "Zinkevich, Johanson, Bowling & Piccione 2007, eq. (4)-(8)",
  .params = cfr_params,
  .nparams = (int)(sizeof cfr_params / sizeof cfr_params[0]),
  .size = sizeof(cfr_state),
  .flags = OL_M_OWNAVG | OL_M_TREE,
  .kinds = OL_KIND(OL_GAME),
  .init = cfr_init,
  .step = ol_cfr_step,
  .fini = ol_cfr_fini,
  .check = ol_game_check_tree,
  .probes = OL_MSET_NONE,
};
