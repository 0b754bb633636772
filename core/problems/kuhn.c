/*
** core/problems/kuhn.c -- Kuhn poker (Kuhn 1950) as an explicit game
** tree: problem.kuhn{} and the tree walk of problems/kuhn.h (which lists
** the coordinates, one per information set, and the equilibrium family).
**
** x is the joint behavioural strategy on [0, 1]^12 (a box: coordinate I
** is P(bet or call) at information set I).  Oracle, in problem.h's sign:
**   f(x)   = u_1(x), player 1's expected payoff (value -1/18 at every
**            equilibrium: fstar)
**   g_I(x) = -d u_i / d x_I = -pi_i(I) (cfv(I, bet) - cfv(I, pass))
**            for i the player of I (u is multilinear in x; cfv and pi_i
**            from the walk, kuhn.h)
** The tree: for a deal (c1, c2) a history is a string of actions, bit k
** of h the k-th action (1 bet/call, 0 pass/fold), len its length;
** terminals pp (showdown 1), bp (player 2 folds: +1), bb (showdown 2),
** pbp (player 1 folds: -1), pbb (showdown 2).  No equilibrium is stored
** as xstar: they are a one-parameter family.
*/
#include <stdio.h>
#include <string.h>

#include "kuhn.h"
#include "rng.h"

/* Information set at history h of length len, or -1 at a terminal. */
static int kuhn_infoset (int h, int len, const int *c)
{
  switch (len) {
  case 0: return c[0];
  case 1: return (h & 1) ? 9 + c[1] : 6 + c[1];
  case 2: return h == 2 ? 3 + c[0] : -1;   /* pb: player 1 again */
  default: return -1;
  }
}

/* Player 1's payoff at the terminal history h. */
static double kuhn_payoff (int h, int len, const int *c)
{
  double s = c[0] > c[1] ? 1 : -1;
  if (len == 2) return h == 0 ? s : h == 1 ? 1 : 2 * s;   /* pp bp bb */
  return (h & 4) ? 2 * s : -1;                            /* pbb pbp */
}

/* Player 1's expected payoff below h; pi[2] the players' reaches of h,
** pc the chance reach.  Accumulates cfv and records reach (NULL: not). */
static double kuhn_rec (const double *x, const int *c, int h, int len,
                        const double *pi, double pc, double *cfv,
                        double *reach)
{
  int I = kuhn_infoset(h, len, c), i;
  double q, v[2], p2[2];
  if (I < 0) return kuhn_payoff(h, len, c);
  i = ol_kuhn_player(I);
  q = x[I];
  /* (1) pass / fold, then bet / call, each with i's reach scaled */
  p2[0] = pi[0];
  p2[1] = pi[1];
  p2[i] = pi[i] * (1 - q);
  v[0] = kuhn_rec(x, c, h, len + 1, p2, pc, cfv, reach);
  p2[i] = pi[i] * q;
  v[1] = kuhn_rec(x, c, h | 1 << len, len + 1, p2, pc, cfv, reach);
  /* (2) counterfactual values in i's own payoff (-u_1 for player 2) */
  if (cfv != NULL) {
    double w = pc * pi[1 - i] * (i == 0 ? 1 : -1);
    cfv[2 * I] += w * v[0];
    cfv[2 * I + 1] += w * v[1];
    reach[I] = pi[i];
  }
  return (1 - q) * v[0] + q * v[1];
}

double ol_kuhn_walk (const double *x, double *cfv, double *reach)
{
  static const int deal[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0},
                                 {2, 1}};
  const double one[2] = {1, 1};
  double v = 0;
  int d;
  if (cfv != NULL) {
    memset(cfv, 0, sizeof *cfv * 2 * OL_KUHN_N);
    memset(reach, 0, sizeof *reach * OL_KUHN_N);
  }
  for (d = 0; d < 6; d++)
    v += kuhn_rec(x, deal[d], 0, 0, one, 1.0 / 6, cfv, reach) / 6;
  return v;
}

double ol_kuhn_value (const double *x)
{
  return ol_kuhn_walk(x, NULL, NULL);
}

double ol_kuhn_brvalue (const double *x, int i)
{
  double y[OL_KUHN_N], cfv[2 * OL_KUHN_N], reach[OL_KUHN_N], v;
  int I, pass, lo = i == 0 ? 0 : 6;
  memcpy(y, x, sizeof y);
  /* (1) player 1's second move (x[3..5]) lies below its first: fix it
  ** first; player 2's six information sets are all at depth one */
  for (pass = 0; pass < (i == 0 ? 2 : 1); pass++) {
    int from = i == 0 ? (pass == 0 ? 3 : 0) : lo, to = from + (i == 0 ? 3
                                                                   : 6);
    ol_kuhn_walk(y, cfv, reach);
    for (I = from; I < to; I++) y[I] = cfv[2 * I + 1] > cfv[2 * I] ? 1 : 0;
  }
  /* (2) i's payoff against the other's strategy */
  v = ol_kuhn_value(y);
  return i == 0 ? v : -v;
}

double ol_kuhn_nashconv (const double *x)
{
  return ol_kuhn_brvalue(x, 0) + ol_kuhn_brvalue(x, 1);
}

static int kuhn_fdf (void *ud, const double *x, double *f, double *g,
                     ol_err *e)
{
  double cfv[2 * OL_KUHN_N], reach[OL_KUHN_N], v;
  int I;
  (void)ud;
  (void)e;
  if (g == NULL) {
    if (f != NULL) *f = ol_kuhn_value(x);
    return OL_OK;
  }
  v = ol_kuhn_walk(x, cfv, reach);
  for (I = 0; I < OL_KUHN_N; I++)
    g[I] = -reach[I] * (cfv[2 * I + 1] - cfv[2 * I]);
  if (f != NULL) *f = v;
  return OL_OK;
}

/* The information sets' names (kuhn.h's order): the card held, the
** situation (the actions so far), the two actions. */
static const char *const kuhn_name[OL_KUHN_N] = {
  "J", "Q", "K", "J", "Q", "K", "J", "Q", "K", "J", "Q", "K"
};
static const char *const kuhn_where[OL_KUHN_N] = {
  "player 1 opens", "player 1 opens", "player 1 opens",
  "player 1 after check, bet", "player 1 after check, bet",
  "player 1 after check, bet",
  "player 2 after check", "player 2 after check", "player 2 after check",
  "player 2 after bet", "player 2 after bet", "player 2 after bet"
};
static const char *const kuhn_act[OL_KUHN_N][2] = {
  {"check", "bet"}, {"check", "bet"}, {"check", "bet"},
  {"fold", "call"}, {"fold", "call"}, {"fold", "call"},
  {"check", "bet"}, {"check", "bet"}, {"check", "bet"},
  {"fold", "call"}, {"fold", "call"}, {"fold", "call"}
};

/* The tree's walks (kuhn.h's contract, the tree argument unused). */
static double kt_value (const ol_tree *T, const double *x)
{
  (void)T;
  return ol_kuhn_value(x);
}

static double kt_walk (const ol_tree *T, const double *x, double *cfv,
                       double *reach)
{
  (void)T;
  return ol_kuhn_walk(x, cfv, reach);
}

static double kt_brvalue (const ol_tree *T, const double *x, int i)
{
  (void)T;
  return ol_kuhn_brvalue(x, i);
}

static double kt_nashconv (const ol_tree *T, const double *x)
{
  (void)T;
  return ol_kuhn_nashconv(x);
}

/* One game at x (kuhn.h's sample contract): a deal drawn uniformly from
** the 6, then each player's move drawn from its behavioural strategy
** until a terminal. */
static int kuhn_sample (const ol_tree *T, const double *x, ol_rng *rng,
                        int *I, int *a, int *who, double *u1)
{
  static const int deal[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0},
                                 {2, 1}};
  const int *c = deal[ol_rng_below(rng, 6)];
  int h = 0, len = 0, J;
  (void)T;
  while ((J = kuhn_infoset(h, len, c)) >= 0) {
    I[len] = J;
    who[len] = ol_kuhn_player(J);
    a[len] = ol_rng_uniform(rng) < x[J];
    h |= a[len] << len;
    len++;
  }
  *u1 = kuhn_payoff(h, len, c);
  return len;
}

/* Kuhn poker's tree: what problem.kuhn's tree hook gives. */
static const ol_tree kuhn = {
  .n = OL_KUHN_N,
  .n1 = OL_KUHN_N / 2,
  .value = kt_value,
  .walk = kt_walk,
  .brvalue = kt_brvalue,
  .nashconv = kt_nashconv,
  .name = kuhn_name,
  .where = kuhn_where,
  .act = kuhn_act,
  .sample = kuhn_sample,
  .umax = 2,
};

/* The tree hook of problem.kuhn. */
static const ol_tree *kuhn_tree (const ol_problem *p)
{
  (void)p;
  return &kuhn;
}

const ol_tree *ol_tree_of (const ol_problem *p)
{
  return p != NULL && p->type != NULL && p->type->tree != NULL
    ? p->type->tree(p) : NULL;
}

int ol_kuhn_is (const ol_problem *p)
{
  return p != NULL && p->type->tree != NULL && p->type->tree(p) == &kuhn;
}

static int kuhn_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int I;
  (void)v;
  strcpy(p->name, "kuhn");
  p->kind = OL_GAME;
  p->n = OL_KUHN_N;
  p->fdf = kuhn_fdf;
  if ((p->x0 = ol_problem_alloc(OL_KUHN_N, e)) == NULL ||
      (p->set.lo = ol_problem_alloc(OL_KUHN_N, e)) == NULL ||
      (p->set.hi = ol_problem_alloc(OL_KUHN_N, e)) == NULL)
    return OL_ENOMEM;
  p->set.kind = OL_SET_BOX;
  for (I = 0; I < OL_KUHN_N; I++) {
    p->x0[I] = 0.5;
    p->set.lo[I] = 0;
    p->set.hi[I] = 1;
  }
  p->fstar = -1.0 / 18;
  snprintf(p->desc, sizeof p->desc, "kuhn{} (Kuhn poker, 12 information "
           "sets, value -1/18)");
  return OL_OK;
}

const ol_problem_type ol_problem_kuhn = {
  .name = "kuhn",
  .kind = OL_GAME,
  .doc = "Kuhn poker: 3-card extensive-form game, behavioural strategies on "
         "12 information sets, value -1/18",
  .ref = "Kuhn 1950",
  .create = kuhn_create,
  .tree = kuhn_tree,
};
