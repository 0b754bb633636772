/*
** core/games/mwu.c -- multiplicative weights / Hedge in self-play
** (Freund & Schapire 1997, "A decision-theoretic generalization of on-line
** learning and an application to boosting", JCSS 55, the Hedge update of
** section 2; Freund & Schapire 1999 for games).
**
** On a product of simplices, every block (player) i, u_i = -g_i at the
** profile played x_t, one oracle call (simultaneous):
**
**   x_i,a <- x_i,a exp(lr u_i,a) / sum_b x_i,b exp(lr u_i,b)
**
** kept in the log domain (L = log x up to a constant per block, shifted so
** that its maximum is 0), so strategies that approach a face of the
** simplex stay representable.  lr is scaled by the run's schedule.  In a
** zero-sum game the averages converge (regret O(sqrt(T log k)) at lr ~
** 1/sqrt(T)); the last iterate spirals out towards the boundary (Bailey &
** Piliouras 2018, "Multiplicative weights update in zero-sum games", EC).
** Averaging and the regret metric as in games/play.h (uniform).
*/
#include <math.h>

#include "play.h"
#include "vec.h"

typedef struct mwu_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr;
  double *L;        /* log weights, n */
  double *g;        /* oracle output, n */
} mwu_state;

static const ol_param mwu_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size eta of the "
   "exponential update", NULL},
};

static int mwu_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  mwu_state *s = st;
  int rc, i;
  s->lr = par[0];
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "mwu needs a product of simplices");
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "mwu", e)) != OL_OK)
    return rc;
  if ((s->L = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < c->n; i++) s->L[i] = log(c->x[i]);
  return OL_OK;
}

/* L += eta d on one block of k entries, then x = softmax(L) and L shifted
** to max 0.  Shared with omwu.c. */
void ol_mwu_block (double *L, const double *d, double eta, double *x, int k)
{
  double hi = -INFINITY, sum = 0;
  int a;
  /* (1) log weights */
  for (a = 0; a < k; a++) {
    L[a] += eta * d[a];
    if (L[a] > hi) hi = L[a];
  }
  /* (2) exponentiate relative to the maximum, normalise */
  for (a = 0; a < k; a++) L[a] -= hi;
  ol_play_exp(L, x, k);
  for (a = 0; a < k; a++) sum += x[a];
  sum = 1 / sum;
  for (a = 0; a < k; a++) x[a] *= sum;
}

static int mwu_step (void *st, ol_ctx *c, ol_err *e)
{
  mwu_state *s = st;
  const ol_play *pl = &s->play;
  int b, off, rc;
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g);
  /* u = -g: L += lr u */
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++])
    ol_mwu_block(s->L + off, s->g + off, -s->lr * c->sched, c->x + off,
                 pl->blk[b]);
  return OL_OK;
}

static void mwu_fini (void *st)
{
  mwu_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->L);
  ol_vec_free(s->g);
  s->L = s->g = NULL;
}

const ol_method_type ol_game_mwu = {
  .name = "mwu",
  .family = OL_DYNAMIC,
  .doc = "multiplicative weights (Hedge) self-play on a product of simplices",
  .ref = "Freund & Schapire 1997",
  .params = mwu_params,
  .nparams = (int)(sizeof mwu_params / sizeof mwu_params[0]),
  .size = sizeof(mwu_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = mwu_init,
  .step = mwu_step,
  .fini = mwu_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
