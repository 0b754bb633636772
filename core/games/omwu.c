/*
** core/games/omwu.c -- optimistic multiplicative weights in self-play
** (Rakhlin & Sridharan 2013, "Optimization, learning, and games with
** predictable sequences", NeurIPS; last-iterate convergence: Daskalakis &
** Panageas 2019, "Last-iterate convergence: zero-sum games and constrained
** min-max optimization", ITCS, eq. (OMWU)).
**
** On a product of simplices, every block (player) i, u_i,t = -g_i at the
** profile played x_t, one oracle call (simultaneous):
**
**   x_i,a <- x_i,a exp(lr (2 u_i,a,t - u_i,a,t-1)) / Z_i
**
** with u_{-1} = u_0 (the first step is an MWU step), in the log domain as
** mwu.c.  In a zero-sum game with a unique equilibrium the last iterate
** converges to it for small enough lr (Daskalakis & Panageas 2019,
** Theorem 1.1), where MWU's spirals out.  Averaging and the regret metric
** as in games/play.h (uniform).
*/
#include <math.h>

#include "play.h"
#include "vec.h"

typedef struct omwu_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr;
  double *L;        /* log weights, n */
  double *g;        /* oracle output at x_t, n */
  double *gp;       /* at x_{t-1}, then the optimistic 2 g - gp, n */
} omwu_state;

static const ol_param omwu_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size eta of the "
   "optimistic exponential update", NULL},
};

static int omwu_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  omwu_state *s = st;
  int rc, i;
  s->lr = par[0];
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "omwu needs a product of simplices");
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "omwu", e)) != OL_OK)
    return rc;
  if ((s->L = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL
      || (s->gp = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < c->n; i++) s->L[i] = log(c->x[i]);
  return OL_OK;
}

static int omwu_step (void *st, ol_ctx *c, ol_err *e)
{
  omwu_state *s = st;
  const ol_play *pl = &s->play;
  int b, off, rc, i, n = c->n;
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g);
  /* (1) the optimistic direction 2 g_t - g_{t-1} into gp; g_t kept */
  for (i = 0; i < n; i++) {
    double gi = s->g[i];
    s->gp[i] = c->t == 0 ? gi : 2 * gi - s->gp[i];
  }
  /* (2) multiplicative step with u = -(2 g_t - g_{t-1}) */
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++])
    ol_mwu_block(s->L + off, s->gp + off, -s->lr * c->sched, c->x + off,
                 pl->blk[b]);
  /* (3) g_t becomes the previous gradient */
  ol_vec_copy(s->g, s->gp, n);
  return OL_OK;
}

static void omwu_fini (void *st)
{
  omwu_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->L);
  ol_vec_free(s->g);
  ol_vec_free(s->gp);
  s->L = s->g = s->gp = NULL;
}

const ol_method_type ol_game_omwu = {
  .name = "omwu",
  .family = OL_DYNAMIC,
  .doc =
    "optimistic multiplicative weights self-play on a product of simplices",
  .ref = "Rakhlin & Sridharan 2013; Daskalakis & Panageas 2019",
  .params = omwu_params,
  .nparams = (int)(sizeof omwu_params / sizeof omwu_params[0]),
  .size = sizeof(omwu_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = omwu_init,
  .step = omwu_step,
  .fini = omwu_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
