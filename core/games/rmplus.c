/*
** core/games/rmplus.c -- regret matching+ in self-play (Tammelin 2014,
** arXiv:1407.5042; Farina, Kroer & Sandholm 2021, AAAI, Algorithm 1).
**
** On a product of simplices, for every block (player) i with utility
** u_i = -g_i, g = grad from ol_ctx_grad at the strategy played x_t:
**
**   r_i = u_i - <u_i, x_i> 1               (instantaneous regret)
**   Q_i <- max(0, Q_i + r_i)               (Q_i starts at 0)
**   x_i <- Q_i / sum(Q_i)                  (uniform if the sum is 0)
**
** Simultaneous (alternate = 0): all blocks use the utilities at x_t, one
** oracle call.  Alternating (alternate = 1): block i uses the utilities at
** the profile where blocks < i already moved (player 2 responds to player
** 1's new strategy), one oracle call per block.  The first step plays the
** given x0.  The method keeps c->xavg itself: the uniform average of the
** strategies played, x_0 .. x_t after step t.  Games, and objectives over
** a product of simplices (u = -grad f).
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct rmplus_state {
  int alternate;
  double *Q;        /* cumulative clipped regrets, n */
  double *g;        /* oracle output, n */
  double *z;        /* alternating: the profile being updated, n */
} rmplus_state;

static const ol_param rmplus_params[] = {
  {"alternate", OL_P_BOOL, 0, 0, 1,
   "false: simultaneous updates; true: alternating (player 2 sees "
   "player 1's new strategy)", NULL},
};

static int rmplus_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rmplus_state *s = st;
  const ol_set *set = &c->p->set;
  int b, sum = 0;
  s->alternate = par[0] != 0;
  if (set->kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL,
                      "rmplus needs a product of simplices (a game)");
  for (b = 0; b < set->nblocks; b++) sum += set->blocks[b];
  if (sum != c->n)
    return ol_err_set(e, OL_EINVAL, "rmplus: simplex blocks sum to %d, "
                      "dimension is %d", sum, c->n);
  if ((s->Q = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL
      || (s->z = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  if (c->xavg != NULL) ol_vec_copy(c->x, c->xavg, c->n);
  return OL_OK;
}

/* Regret-matching+ update of one block: x (k entries) from utilities
** u = -g at the profile, accumulating into Q. */
static void rmplus_block (double *Q, const double *g, double *x, int k)
{
  double ux = 0, sum = 0;
  int a;
  /* (1) expected utility <u, x> */
  for (a = 0; a < k; a++) ux -= g[a] * x[a];
  /* (2) Q <- max(0, Q + u - <u, x>) */
  for (a = 0; a < k; a++) {
    double q = Q[a] - g[a] - ux;
    Q[a] = q > 0 ? q : 0;
    sum += Q[a];
  }
  /* (3) next strategy proportional to Q */
  for (a = 0; a < k; a++) x[a] = sum > 0 ? Q[a] / sum : 1.0 / k;
}

static int rmplus_step (void *st, ol_ctx *c, ol_err *e)
{
  rmplus_state *s = st;
  const ol_set *set = &c->p->set;
  double *x = c->x, w;
  int b, off, rc, n = c->n;
  /* (1) average of the strategies played: x_t joins x_0 .. x_{t-1} */
  if (c->xavg != NULL && c->t > 0) {
    w = 1.0 / (double)(c->t + 1);
    for (b = 0; b < n; b++) c->xavg[b] += w * (x[b] - c->xavg[b]);
  }
  /* (2) regret-matching+ updates, block by block */
  if (!s->alternate) {
    if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
    for (b = 0, off = 0; b < set->nblocks; off += set->blocks[b++])
      rmplus_block(s->Q + off, s->g + off, x + off, set->blocks[b]);
    return OL_OK;
  }
  ol_vec_copy(x, s->z, n);
  for (b = 0, off = 0; b < set->nblocks; off += set->blocks[b++]) {
    rc = ol_ctx_grad(c, b == 0 ? x : s->z, NULL, s->g, e);
    if (rc != OL_OK) return rc;
    rmplus_block(s->Q + off, s->g + off, s->z + off, set->blocks[b]);
  }
  ol_vec_copy(s->z, x, n);
  return OL_OK;
}

static void rmplus_fini (void *st)
{
  rmplus_state *s = st;
  ol_vec_free(s->Q);
  ol_vec_free(s->g);
  ol_vec_free(s->z);
  s->Q = s->g = s->z = NULL;
}

const ol_method_type ol_game_rmplus = {
  "rmplus", OL_DYNAMIC,
  "regret matching+ self-play on a product of simplices",
  "Tammelin 2014; Farina, Kroer & Sandholm 2021",
  rmplus_params, (int)(sizeof rmplus_params / sizeof rmplus_params[0]),
  sizeof(rmplus_state), OL_M_NEEDSET | OL_M_OWNAVG,
  OL_KIND(OL_GAME) | OL_KIND(OL_OBJECTIVE),
  rmplus_init, rmplus_step, rmplus_fini, NULL, 0u
};
