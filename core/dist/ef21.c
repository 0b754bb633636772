/*
** core/dist/ef21.c -- EF21, error feedback through compressed gradient
** differences (Richtarik, Sokolov & Fatkhullin 2021, "EF21: a new,
** simpler, theoretically better, and practically faster error feedback",
** NeurIPS, Algorithm 1; partial participation as in EF21-PP of
** Fatkhullin, Sokolov, Gorbunov, Li & Richtarik 2021).
**
** Worker w keeps an estimate g_w of its local gradient, the server their
** weighted mean gbar = sum_w (m_w / N) g_w (m_w the shard sizes).  In each
** round every participant w of S (dist.h) sends the compressed
** difference, then the server steps:
**
**   c_w  = C(grad f_w(x) - g_w),   g_w <- g_w + c_w   (sent: c_w)
**   gbar <- gbar + sum_{w in S} (m_w / N) c_w
**   x    <- x - lr gbar
**
** The paper's order is x^{t+1} = x^t - lr g^t, then the workers' messages
** at x^{t+1}, with g_w^0 = C(grad f_w(x^0)); here g_w starts at 0, so the
** first round's message is that g_w^0 and the iterates are the paper's.
** grad f_w is the shard's mean gradient (or a minibatch of `batch` from
** the worker's own stream).  With a contractive C (topk, ssign) EF21
** converges on heterogeneous workers at a constant lr; without
** compression (none) it is gradient descent.  lr is scaled by the run's
** schedule.
**
** Workers: p->workers when set, else the parameter workers (at most N)
** contiguous shards, all taking part.  Per-worker streams from the run's
** generator draw the minibatches and the compressor's randomness; the
** participants are drawn from c->rng.  Metrics (probe): bits, the uplink
** bits sum_rounds |S| bits(C) (compress.h; the broadcast of x not
** counted); compress_err, sum_S ||c_w - v_w||^2 / sum_S ||v_w||^2, v_w =
** grad f_w(x) - g_w, of the last round (0 when every v_w = 0); rounds.
*/
#include <math.h>

#include "compress.h"
#include "dist.h"
#include "vec.h"

typedef struct ef21_state {
  double lr;
  int batch;
  double N;              /* components over all workers */
  ol_cworkers cw;        /* split, compressor, streams, accounts */
  double *G;             /* cw.sp.n x n gradient estimates g_w */
  double *gbar, *v, *d, *tmp;   /* n each */
} ef21_state;

static const ol_param ef21_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size", NULL},
  OL_COMPRESS_PARAMS(OL_CMP_TOPK),
  {"workers", OL_P_INT, 10, 1, 1e6, "workers when the problem has none "
   "(problem.workers): contiguous shards, at most N", NULL},
  {"batch", OL_P_INT, 0, 0, 1e9, "local minibatch per worker (0: its "
   "whole shard)", NULL},
};

static int ef21_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ef21_state *s = st;
  int n = c->n, nw, rc;
  s->lr = par[0];
  s->batch = (int)par[6];
  nw = (int)fmin(par[5], (double)c->p->nsum);
  if ((rc = ol_cworkers_init(&s->cw, par + 1, nw, c, "ef21", e)) != OL_OK)
    return rc;
  nw = s->cw.sp.n;
  s->N = (double)(s->cw.sp.start[nw] - s->cw.sp.start[0]);
  if ((s->G = ol_mat_new(nw, n, e)) == NULL
      || (s->gbar = ol_vec_new(n, e)) == NULL
      || (s->v = ol_vec_new(n, e)) == NULL
      || (s->d = ol_vec_new(n, e)) == NULL
      || (s->tmp = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int ef21_step (void *st, ol_ctx *c, ol_err *e)
{
  ef21_state *s = st;
  ol_cworkers *cw = &s->cw;
  int n = c->n, m, k, w, rc;
  double num = 0, den = 0;
  /* (1) the round's participants */
  m = ol_dist_sample(&cw->sp, c->rng, cw->who);
  for (k = 0; k < m; k++) {
    double *gw;
    w = cw->who[k];
    gw = s->G + (size_t)w * n;
    /* (2) the local gradient's change since the estimate */
    if ((rc = ol_dist_grad(c, &cw->sp, w, c->x, s->batch, &cw->rw[w], s->v,
                           s->tmp, e)) != OL_OK)
      return rc;
    ol_vec_axpy(-1, gw, s->v, n);
    /* (3) compressed, added to the worker's and the server's estimates */
    num += ol_compress_apply(&cw->cp, s->v, s->d, &cw->rw[w]);
    den += ol_vec_dot(s->v, s->v, n);
    ol_vec_axpy(1, s->d, gw, n);
    ol_vec_axpy((double)ol_dist_size(&cw->sp, w) / s->N, s->d, s->gbar, n);
  }
  /* (4) the server's step and the accounts */
  ol_vec_axpy(-s->lr * c->sched, s->gbar, c->x, n);
  ol_cworkers_close(cw, m, num, den);
  return OL_OK;
}

static void ef21_fini (void *st)
{
  ef21_state *s = st;
  ol_cworkers_fini(&s->cw);
  ol_vec_free(s->G);
  ol_vec_free(s->gbar);
  ol_vec_free(s->v);
  ol_vec_free(s->d);
  ol_vec_free(s->tmp);
  s->G = s->gbar = s->v = s->d = s->tmp = NULL;
}

static double ef21_probe (const void *st, int metric, const ol_ctx *c)
{
  const ef21_state *s = st;
  (void)c;
  return ol_cworkers_probe(&s->cw, metric);
}

const ol_method_type ol_dist_ef21 = {
  .name = "ef21",
  .family = OL_DIST,
  .doc = "EF21: workers send compressed changes of their gradient estimates",
  .ref = "Richtarik, Sokolov & Fatkhullin 2021",
  .params = ef21_params,
  .nparams = (int)(sizeof ef21_params / sizeof ef21_params[0]),
  .size = sizeof(ef21_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = ef21_init,
  .step = ef21_step,
  .fini = ef21_fini,
  .probe = ef21_probe,
  .probes = OL_MSET(OL_MET_BITS, OL_MET_COMPRESS_ERR, OL_MET_ROUNDS),
};
