/*
** core/games/exp3.c -- Exp3 with bandit feedback in self-play: each player
** sees only the payoff of the joint action actually played (Auer,
** Cesa-Bianchi, Freund & Schapire 2002, "The nonstochastic multiarmed
** bandit problem", SIAM J. Comput. 32(1), algorithm Exp3, section 3), or
** with the implicit-exploration estimator Exp3-IX (Neu 2015, "Explore no
** more: improved high-probability regret bounds for non-stochastic
** bandits", NeurIPS, section 2).
**
** On a game (two simplex blocks), every player i with weights w_i = exp(L_i)
** and strategy x_i = w_i / sum w_i, per step:
**
**   p_i = (1 - gamma) x_i + gamma / k     (Exp3; p_i = x_i for Exp3-IX)
**   a_i ~ p_i                             (the run's seeded generator)
**   l_i = (M - u_i(a_1, a_2)) / (2 M)     (the realized payoff as a loss in
**                                          [0, 1], M = max |payoff|)
**   lhat_i,a = l_i [a = a_i] / p_i,a      (Exp3; / (p_i,a + gamma) for IX)
**   L_i,a <- L_i,a - lr lhat_i,a
**
** The realized payoff is read from the oracle at the pure profile (e_a1,
** e_a2), one entry per player and nothing else.  r.x is the strategy
** played, p; the regret metric and the average use the expected payoffs
** at p (one more oracle call at p, for the records: ngev counts both).
*/
#include <math.h>

#include "play.h"
#include "problems/game.h"
#include "vec.h"

typedef struct exp3_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr, gamma, M;
  int ix;
  double *L;        /* log weights, n */
  double *w;        /* x = softmax(L), n */
  double *g;        /* oracle output, n */
  double *z;        /* the pure profile played, n */
  double *d;        /* estimated losses, n */
} exp3_state;

static const ol_param exp3_params[] = {
  {"lr", OL_P_REAL, 0.01, OL_GT0, OL_FINITE, "step size eta of the "
   "exponential update on the estimated losses", NULL},
  {"gamma", OL_P_REAL, 0.01, 0, 1, "exploration: Exp3's uniform mixing "
   "weight, or Exp3-IX's implicit-exploration term", NULL},
  {"ix", OL_P_BOOL, 1, 0, 1, "true: Exp3-IX (Neu 2015); false: Exp3 "
   "(Auer et al. 2002)", NULL},
};

static int exp3_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  exp3_state *s = st;
  ol_game G;
  int rc, i;
  s->lr = par[0];
  s->gamma = par[1];
  s->ix = par[2] != 0;
  if (!ol_game_view(c->p, &G))
    return ol_err_set(e, OL_EINVAL, "exp3 needs a two-player game (it "
                      "plays the joint action and reads its payoff)");
  s->M = G.amax > 0 ? G.amax : 1;
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "exp3", e)) != OL_OK)
    return rc;
  if ((s->L = ol_vec_new(c->n, e)) == NULL
      || (s->w = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL
      || (s->z = ol_vec_new(c->n, e)) == NULL
      || (s->d = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < c->n; i++) {
    s->L[i] = log(c->x[i]);
    s->w[i] = c->x[i];
  }
  return OL_OK;
}

/* An index drawn from the k probabilities p. */
static int draw (ol_rng *rng, const double *p, int k)
{
  double u = ol_rng_uniform(rng), acc = 0;
  int a;
  for (a = 0; a < k - 1; a++) {
    acc += p[a];
    if (u < acc) return a;
  }
  return k - 1;
}

static int exp3_step (void *st, ol_ctx *c, ol_err *e)
{
  exp3_state *s = st;
  const ol_play *pl = &s->play;
  int b, off, a, rc, act[OL_MAXBLOCKS];
  /* (1) the expected payoffs at p, for the records (regret, average) */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g);
  /* (2) each player draws an action from p */
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    for (a = 0; a < pl->blk[b]; a++) s->z[off + a] = 0;
    act[b] = off + draw(c->rng, c->x + off, pl->blk[b]);
    s->z[act[b]] = 1;
  }
  /* (3) the payoffs of the joint action played: one entry each */
  if ((rc = ol_ctx_grad(c, s->z, NULL, s->g, e)) != OL_OK) return rc;
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    int k = pl->blk[b];
    double u = -s->g[act[b]], l = (s->M - u) / (2 * s->M);
    double pa = c->x[act[b]] + (s->ix ? s->gamma : 0);
    for (a = 0; a < k; a++) s->d[off + a] = 0;
    s->d[act[b]] = pa > 0 ? l / pa : 0;   /* (p_a = 0: drawn by rounding) */
    /* (4) L -= lr lhat; w = softmax(L); p from w */
    ol_mwu_block(s->L + off, s->d + off, -s->lr * c->sched, s->w + off, k);
    for (a = 0; a < k; a++)
      c->x[off + a] = s->ix ? s->w[off + a]
        : (1 - s->gamma) * s->w[off + a] + s->gamma / k;
  }
  return OL_OK;
}

static void exp3_fini (void *st)
{
  exp3_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->L);
  ol_vec_free(s->w);
  ol_vec_free(s->g);
  ol_vec_free(s->z);
  ol_vec_free(s->d);
  s->L = s->w = s->g = s->z = s->d = NULL;
}

const ol_method_type ol_game_exp3 = {
  .name = "exp3",
  .family = OL_DYNAMIC,
  .doc = "Exp3 / Exp3-IX self-play with bandit feedback (each player sees only "
    "its realized payoff)",
  .ref = "Auer, Cesa-Bianchi, Freund & Schapire 2002; Neu 2015",
  .params = exp3_params,
  .nparams = (int)(sizeof exp3_params / sizeof exp3_params[0]),
  .size = sizeof(exp3_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = exp3_init,
  .step = exp3_step,
  .fini = exp3_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
