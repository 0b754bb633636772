/*
** core/games/ixomd.c -- implicit-exploration online mirror descent
** (IXOMD: Kozuno, Menard, Munos & Valko 2021, "Learning in two-player
** zero-sum partially observable Markov games with perfect recall",
** NeurIPS; arXiv:2106.06279, "Model-free learning for ...": algorithm
** IXOMD) in self-play on a game tree (problems/kuhn.h: Kuhn poker), from
** sampled plays only (bandit feedback: the seeds catalog's B173).
**
** Each step plays one game with the current profile (mu_t, nu_t), chance
** included (the tree's sample hook, the run's seeded generator), and
** sees only the moves made and the payoff reached.  For each player,
** with its moves (x_1, a_1), ..., (x_H, a_H) in that game (its own
** information sets and actions, in order), its loss l = (M - u_i) /
** (2 M) in [0, 1] (u_i its payoff, M = the tree's umax) and its own
** realization probability mu_{1:h} = prod_{k <= h} mu(a_k | x_k):
**
**   (1) the implicit-exploration estimate of the sequence-form loss,
**       l~(x, a) = [(x, a) = (x_H, a_H)] l / (mu_{1:H}(x_H, a_H) + gamma)
**       (the terminal's loss belongs to the player's last sequence before
**       it; Neu 2015's IX, biased low: E l~ = l_seq mu / (mu + gamma));
**   (2) the OMD step with the dilated entropy,
**       mu_{t+1} = argmin_mu eta <mu, l~> + D(mu, mu_t),  D the Bregman
**       divergence of sum_{x,a} mu_{1:h}(x, a) log mu(a | x),
**       in closed form from the last move up, log Z_{H+1} = 0:
**         Z_h = 1 - mu(a_h | x_h) + mu(a_h | x_h)
**                 exp(-eta l~(x_h, a_h) + log Z_{h+1})
**         mu_{t+1}(a | x_h) = mu(a | x_h)
**                 exp([a = a_h] (-eta l~(x_h, a_h) + log Z_{h+1})) / Z_h
**       and mu_{t+1} = mu_t at every information set off the play (their
**       estimated loss is 0, so their Z is 1): the update touches only
**       the sampled trajectory.
** The output is the average profile in sequence form, mubar_{1:h}(x, a)
** = sum_t mu_t,{1:h}(x, a) / T, kept as the behavioural strategy
** c->xavg_x = sum_t mu_t,{1:h}(x, 1) / sum_t mu_t,{1:h-1}(x) (as cfr.c's
** average; the own reaches from one walk per step, which costs one pass
** over the tree: the update itself does not).  Its exploitability
** (NashConv / 2) falls like 1/sqrt(T) with high probability for rates
** tuned to T (the abstract; the seeds print "1/T", a typesetting loss),
** O~(H sqrt(X A / T)) in the game's size as the seeds catalog reads it.
** ngev counts the plays (one a step).
**
** Rates: eta_t = lr (t + 1)^-lrpow (times the run's schedule), gamma_t =
** gamma (t + 1)^-lrpow.  lrpow = 0 is the paper's form: constant rates
** chosen for the horizon T.  The tests and scripts/ixomd_kuhn.lua use
** the usual OMD balance of the dilated entropy's range (X log A over a
** player's X information sets of A actions) against the estimates'
** second moment (~ H A a step, H the depth): eta = sqrt(2 X log A / (H A
** T)), 1.44 / sqrt(T) on Kuhn poker (X = 6, A = 2, H = 2), and gamma =
** eta / 2 (Neu 2015's choice for Exp3-IX); the defaults lr = 0.01,
** gamma = 0.005 are that for T ~ 2 10^4.  (Measured on Kuhn over T =
** 10^3 .. 10^5: eta from 1.5 to 3 / sqrt(T) does about equally well, 10 /
** sqrt(T) worse; gamma from eta / 10 to eta / 2 alike.)  lrpow = 1/2 is
** an anytime variant (lr = 1: about as good at T = 10^5), a choice here,
** not the paper's.
**
** What the abstract leaves open, and the choices here: the abstract
** names the method, its feedback and its rate only, and the paper's
** algorithm box and theorem were not at hand.  The loss-to-[0, 1] map,
** where a terminal's loss enters (the player's last move before it), the
** IX denominator (the player's own realization probability of that last
** sequence plus gamma), the dilated-entropy OMD in closed form along the
** play (as in Hoda, Gilpin, Pena & Sandholm 2010, "Smoothing techniques
** for computing Nash equilibria of sequential games"; public
** implementations of IXOMD, e.g. LiteEFG's, take the same step) and the
** sequence-form average are the standard forms; to check against the
** paper: its algorithm box (whether both players learn from the same
** play, as here, and the initial policy, uniform at x0 = 1/2 here) and
** its theorem's eta and gamma as functions of X, A, H, T and the
** confidence delta.  tests/lua/ixomd.lua checks the step against the OMD
** minimiser found by bisection, the estimator's bias against its closed
** form and the rate by measured slopes.  Refuses matrix games and trees
** that cannot be sampled.  An information set whose policy is pure (in
** x0, or after exp underflows at a huge lr) stays pure: the entropy's
** step cannot leave the boundary.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"
#include "problems/kuhn.h"
#include "vec.h"

typedef struct ixomd_state {
  const ol_tree *T;
  double lr, gamma, lrpow, M;
  double *S;        /* sum_t mu_t,{1:h}(x, a), 2n: [2I + a] */
  double *cfv;      /* the walk's counterfactual values, 2n (unused) */
  double *reach;    /* own reaches pi_i(I) at mu_t, n */
  double *lhat;     /* the last step's l~, 2n: [2I + a] */
  double *episode;  /* the last play: (I + 1, a) per move, 2n */
  int *I, *a, *who; /* the last play's moves, n each */
  int len;          /* its number of moves */
  double u1;        /* its payoff to player 1 */
} ixomd_state;

static const ol_param ixomd_params[] = {
  {"lr", OL_P_REAL, 0.01, 0, OL_FINITE, "step size eta of the mirror "
   "descent step (the paper's: ~ 1/sqrt(T) for T games)", NULL},
  {"gamma", OL_P_REAL, 0.005, 0, OL_FINITE, "implicit exploration: "
   "l / (mu_{1:h} + gamma) (the paper's: eta / 2)", NULL},
  {"lrpow", OL_P_REAL, 0, 0, 1, "eta_t = lr (t + 1)^-lrpow, gamma_t "
   "likewise: 0 the paper's constant rates, 1/2 anytime", NULL},
};

static int ixomd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ixomd_state *s = st;
  const ol_tree *T = c->p->type->tree != NULL ? c->p->type->tree(c->p)
    : NULL;
  int n, i;
  if (T == NULL || T->sample == NULL || c->n != T->n)
    return ol_err_set(e, OL_EINVAL, "ixomd needs an extensive-form game "
                      "it can play (problem.kuhn{})");
  n = T->n;
  s->T = T;
  s->lr = par[0];
  s->gamma = par[1];
  s->lrpow = par[2];
  s->M = T->umax > 0 ? T->umax : 1;
  s->len = 0;
  s->u1 = NAN;
  if ((s->S = ol_vec_new(2 * n, e)) == NULL
      || (s->cfv = ol_vec_new(2 * n, e)) == NULL
      || (s->reach = ol_vec_new(n, e)) == NULL
      || (s->lhat = ol_vec_new(2 * n, e)) == NULL
      || (s->episode = ol_vec_new(2 * n, e)) == NULL)
    return OL_ENOMEM;
  if ((s->I = calloc((size_t)n, 3 * sizeof *s->I)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "ixomd: out of memory for %d "
                      "information sets", n);
  s->a = s->I + n;
  s->who = s->I + 2 * n;
  for (i = 0; i < 2 * n; i++) s->S[i] = s->lhat[i] = s->episode[i] = 0;
  if (c->xavg != NULL) memcpy(c->xavg, c->x, sizeof *c->x * (size_t)n);
  return OL_OK;
}

/* mu(a | I) under the behavioural strategy x (x_I = P(action 1)). */
static double prob (const double *x, int I, int a)
{
  return a ? x[I] : 1 - x[I];
}

/* The update of player i along the play (moves 0 .. len - 1), loss l,
** rates eta, gamma: (1) the IX estimate at its last move, (2) the
** dilated-entropy OMD step back up its moves.  Writes l~ into lhat. */
static void player_step (ixomd_state *s, double *x, int i, double l,
                         double eta, double gamma_)
{
  double mu = 1, logz = 0;
  int k, last = -1;
  for (k = 0; k < s->len; k++)
    if (s->who[k] == i) {
      mu *= prob(x, s->I[k], s->a[k]);
      last = k;
    }
  if (last < 0) return;                 /* i never moved: nothing to learn */
  /* (1) l~(x_H, a_H) = l / (mu_{1:H} + gamma) */
  s->lhat[2 * s->I[last] + s->a[last]] = mu + gamma_ > 0
    ? l / (mu + gamma_) : 0;
  /* (2) from the last move up: Z_h and mu_{t+1}(. | x_h) */
  for (k = last; k >= 0; k--) {
    double p, w, ew, z, q;
    int I = s->I[k], a = s->a[k];
    if (s->who[k] != i) continue;
    p = prob(x, I, a);
    w = (k == last ? -eta * s->lhat[2 * I + a] : 0) + logz;
    ew = exp(w);
    z = 1 - p + p * ew;
    if (z > 0) {
      q = p * ew / z;
      logz = log(z);
    } else {            /* p = 1 and exp(w) underflowed: a pure policy */
      q = p;            /* stays pure (the KL step cannot leave it) */
      logz = log(p) + w;
    }
    x[I] = a ? q : 1 - q;
  }
}

static int ixomd_step (void *st, ol_ctx *c, ol_err *e)
{
  ixomd_state *s = st;
  const ol_tree *T = s->T;
  double decay = s->lrpow > 0 ? pow((double)(c->t + 1), -s->lrpow) : 1;
  double eta = s->lr * c->sched * decay, gamma_ = s->gamma * decay;
  int k, n = T->n;
  (void)e;
  /* (1) the average in sequence form: S += mu_t,{1:h}, own reaches at
  ** mu_t from one walk */
  T->walk(T, c->x, s->cfv, s->reach);
  for (k = 0; k < n; k++) {
    s->S[2 * k] += s->reach[k] * (1 - c->x[k]);
    s->S[2 * k + 1] += s->reach[k] * c->x[k];
    if (c->xavg != NULL && s->S[2 * k] + s->S[2 * k + 1] > 0)
      c->xavg[k] = s->S[2 * k + 1] / (s->S[2 * k] + s->S[2 * k + 1]);
  }
  /* (2) one game played at mu_t, nu_t: the moves and the payoff only */
  s->len = T->sample(T, c->x, c->rng, s->I, s->a, s->who, &s->u1);
  c->ngev++;
  for (k = 0; k < 2 * n; k++) s->lhat[k] = s->episode[k] = 0;
  for (k = 0; k < s->len; k++) {
    s->episode[2 * k] = s->I[k] + 1;
    s->episode[2 * k + 1] = s->a[k];
  }
  /* (3) each player's IX estimate and OMD step (both from mu_t's play) */
  player_step(s, c->x, 0, (s->M - s->u1) / (2 * s->M), eta, gamma_);
  player_step(s, c->x, 1, (s->M + s->u1) / (2 * s->M), eta, gamma_);
  return OL_OK;
}

/* r.episode: the last play's moves, one row (information set, 1-based;
** action, 1 = the one of probability x_I) each; r.payoff: its payoff to
** player 1; r.lhat: the last step's estimates l~ (2n: information set I's
** action a at 2 I + a + 1 in Lua). */
static int ixomd_result (const void *st, const char *name, const double **v,
                         int *rows, int *cols)
{
  const ixomd_state *s = st;
  if (s->S == NULL) return 0;
  if (strcmp(name, "episode") == 0 && s->len > 0) {
    *v = s->episode;
    *rows = s->len;
    *cols = 2;
    return 1;
  }
  if (strcmp(name, "payoff") == 0 && s->len > 0) {
    *v = &s->u1;
    *rows = *cols = 1;
    return 1;
  }
  if (strcmp(name, "lhat") == 0) {
    *v = s->lhat;
    *rows = 1;
    *cols = 2 * s->T->n;
    return 1;
  }
  return 0;
}

static void ixomd_fini (void *st)
{
  ixomd_state *s = st;
  ol_vec_free(s->S);
  ol_vec_free(s->cfv);
  ol_vec_free(s->reach);
  ol_vec_free(s->lhat);
  ol_vec_free(s->episode);
  free(s->I);
  s->S = s->cfv = s->reach = s->lhat = s->episode = NULL;
  s->I = s->a = s->who = NULL;
}

/* A game tree whose tree can be played (method.h's check hook). */
static int ixomd_check (const ol_method_type *m, const ol_problem *p,
                        ol_err *e)
{
  int rc = ol_game_check_tree(m, p, e);
  if (rc != OL_OK) return rc;
  if (p->type->tree(p)->sample == NULL)
    return ol_err_set(e, OL_EINVAL, "%s plays the game it learns, and %s's "
                      "tree cannot be sampled: use game.cfr or "
                      "game.cfrplus", m->name, p->name);
  return OL_OK;
}

const ol_method_type ol_game_ixomd = {
  .name = "ixomd",
  .family = OL_DYNAMIC,
  .doc = "implicit-exploration OMD on a game tree from sampled plays only "
    "(bandit feedback)",
  .ref = "Kozuno, Menard, Munos & Valko 2021, algorithm IXOMD",
  .params = ixomd_params,
  .nparams = (int)(sizeof ixomd_params / sizeof ixomd_params[0]),
  .size = sizeof(ixomd_state),
  .flags = OL_M_OWNAVG | OL_M_TREE,
  .kinds = OL_KIND(OL_GAME),
  .init = ixomd_init,
  .step = ixomd_step,
  .fini = ixomd_fini,
  .result = ixomd_result,
  .check = ixomd_check,
  .probes = OL_MSET_NONE,
};
