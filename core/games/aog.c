/*
** core/games/aog.c -- the accelerated optimistic gradient (AOG) of Cai &
** Zheng 2023, "Doubly optimal no-regret learning in monotone games", ICML:
** optimistic gradient (Popov 1980) with Halpern's anchoring to the start
** (Halpern 1967; the extra-anchored gradient of Yoon & Ryu 2021, ICML,
** with its second gradient call replaced by the previous one).
**
** With g(z) = minus each player's utility gradient (problem.h), P the
** projection onto the problem's set (identity when unconstrained), z_0
** the start, w_0 = z_0, g_{-1} = 0 and b_t = 1 / (t + 1), each player
** plays and then updates its own block of
**
**   z_t     = P(w_t - lr g_{t-1} + b_t (z_0 - w_t))      (played)
**   g_t     = g(z_t)                                      (its feedback)
**   w_{t+1} = P(w_t - lr g_t + b_t (z_0 - w_t))
**
** one oracle call per step, no communication between the players (each
** uses only its own block of g and of z_0).  Without the anchor terms
** this is optimistic gradient in its two-sequence form; the anchor pulls
** the iterates back to the start with a weight 1 / (t + 1), which is what
** brings the last-iterate rate from EG's and OG's O(1/sqrt(T)) (tight for
** them) to O(1/T) on smooth monotone games (the paper's Theorem on the
** tangent residual and the gap; Yoon & Ryu 2021 for the matching lower
** bound).  As a consequence each player's worst-case dynamic regret
**   DR_i(T) = sum_{t < T} (max_{x in X_i} u_i(x, z_-i,t) - u_i(z_t))
** is O(log T) (the catalog's M16): on simplices the max is the best
** pure action, so DR_i sums player i's per-step exploitability.  The
** probe gives dynregret = max_i DR_i(T) (NaN without simplices, where
** X_i is unbounded).
**
** What the abstract leaves open, and the choices here: the abstract
** names the method and its rates only, and the paper's algorithm box was
** not at hand when this was written.  A summary of the paper describes
** AOG as optimism combined with Halpern iteration; the update above is
** that combination in its standard single-call form (Popov's step with
** EAG's anchor weight 1 / (t + 1)), to be checked against the paper.
** The constants of its theorems (the step bound, the constant of O(1/T))
** are not relied on: tests/lua/aog.lua checks the rate with a measured
** constant, and against a per-mode recursion.  The paper's step-size
** adaptation for the adversarial setting (it keeps O(sqrt(T)) regret
** against arbitrary losses when the other players do not run AOG) is not
** implemented: lr is a constant (scaled by the run's schedule), which is
** the setting of the last-iterate theorem when every player runs AOG
** with lr at most a constant over the game's smoothness L (here: lr <
** 1 / (2 L) for OGDA's own stability is a safe choice).  The iterate c->x
** is the profile z_t played; w_t is kept in the state.  Averaging
** (uniform, of the z_t) and regret as in games/play.h.
*/
#include <math.h>

#include "play.h"
#include "vec.h"

typedef struct aog_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr;
  double *z0;       /* the anchor, n */
  double *w;        /* the second sequence w_t, n */
  double *g;        /* g(z_t), n */
  double *dr;       /* each player's dynamic regret so far (nb), or NULL */
} aog_state;

static const ol_param aog_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size (below 1 / (2 L), "
   "L the game's smoothness)", NULL},
};

static int aog_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  aog_state *s = st;
  int rc, n = c->n;
  s->lr = par[0];
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "aog", e)) != OL_OK)
    return rc;
  if ((s->z0 = ol_vec_new(n, e)) == NULL
      || (s->w = ol_vec_new(n, e)) == NULL
      || (s->g = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  if (s->play.simplex && (s->dr = ol_vec_new(s->play.nb, e)) == NULL)
    return OL_ENOMEM;
  ol_vec_copy(c->x, s->z0, n);
  ol_vec_copy(c->x, s->w, n);
  return OL_OK;
}

/* Add each player's exploitability at the profile z (oracle output g at
** z) to its dynamic regret: max_a u_a - <u, z_i>, u = -g on its block. */
static void aog_dynregret (aog_state *s, const double *z)
{
  int b, i, off;
  for (b = 0, off = 0; b < s->play.nb; off += s->play.blk[b++]) {
    double hi = -INFINITY, pay = 0;
    for (i = off; i < off + s->play.blk[b]; i++) {
      if (-s->g[i] > hi) hi = -s->g[i];
      pay -= s->g[i] * z[i];
    }
    s->dr[b] += hi - pay;
  }
}

static int aog_step (void *st, ol_ctx *c, ol_err *e)
{
  aog_state *s = st;
  double eta = s->lr * c->sched, *x = c->x;
  double b = 1.0 / (double)(c->t + 1), b1 = 1.0 / (double)(c->t + 2);
  int rc, i, n = c->n;
  /* (1) the feedback at the profile played, z_t = c->x */
  if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, x, s->g);
  if (s->dr != NULL) aog_dynregret(s, x);
  /* (2) w_{t+1} = P(w_t - lr g_t + b_t (z_0 - w_t)) */
  for (i = 0; i < n; i++)
    s->w[i] += b * (s->z0[i] - s->w[i]) - eta * s->g[i];
  ol_ctx_project(c, s->w);
  /* (3) the next profile, optimistic with g_t as the guess of g_{t+1}:
  ** z_{t+1} = P(w_{t+1} - lr g_t + b_{t+1} (z_0 - w_{t+1})) */
  for (i = 0; i < n; i++)
    x[i] = s->w[i] + b1 * (s->z0[i] - s->w[i]) - eta * s->g[i];
  ol_ctx_project(c, x);
  return OL_OK;
}

static void aog_fini (void *st)
{
  aog_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->z0);
  ol_vec_free(s->w);
  ol_vec_free(s->g);
  ol_vec_free(s->dr);
  s->z0 = s->w = s->g = s->dr = NULL;
}

/* dynregret (the largest DR_i, NaN without simplices), else the play's
** regret metrics. */
static double aog_probe (const void *st, int metric, const ol_ctx *c)
{
  const aog_state *s = st;
  if (metric == OL_MET_DYNREGRET) {
    double worst = -INFINITY;
    int b;
    if (s->dr == NULL) return NAN;
    for (b = 0; b < s->play.nb; b++)
      if (s->dr[b] > worst) worst = s->dr[b];
    return worst;
  }
  return ol_play_probe(st, metric, c);
}

const ol_method_type ol_game_aog = {
  .name = "aog",
  .family = OL_DYNAMIC,
  .doc = "accelerated optimistic gradient: optimism anchored to the start "
    "with weight 1/(t+1), O(1/T) last iterate",
  .ref = "Cai & Zheng 2023",
  .params = aog_params,
  .nparams = (int)(sizeof aog_params / sizeof aog_params[0]),
  .size = sizeof(aog_state),
  .flags = OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = aog_init,
  .step = aog_step,
  .fini = aog_fini,
  .probe = aog_probe,
  .check = ol_game_check,
  .probes = OL_MSET(OL_MET_REGRET, OL_MET_REGRET1, OL_MET_REGRET2,
                    OL_MET_DYNREGRET),
};
