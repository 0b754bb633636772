/*
** core/dist/ef14.c -- compressed distributed gradient descent with error
** feedback (EF14: Seide, Fu, Droppo, Li & Yu 2014, "1-bit stochastic
** gradient descent and its application to data-parallel distributed
** training of speech DNNs", Interspeech, where the quantization error is
** carried to the next minibatch; in the form of Stich, Cordonnier & Jaggi
** 2018, "Sparsified SGD with memory", NeurIPS, Algorithm 1, and
** Karimireddy, Rebjock, Stich & Jaggi 2019, "Error feedback fixes SignSGD
** and other gradient compression schemes", ICML, Algorithm 2, with one
** error memory per worker).
**
** Worker w of the round's participants S (dist.h), local gradient g_w at
** the server's x (its shard's mean, or a minibatch of `batch` from its
** own stream), error memory e_w (0 at the start), compressor C
** (compress.h):
**
**   p_w = lr g_w + e_w,   D_w = C(p_w),   e_w <- p_w - D_w   (sent: D_w)
**   x  <- x - sum_{w in S} (m_w / M_S) D_w
**
** m_w the shard sizes, M_S their sum over S (the plain mean for equal
** shards; with every worker taking part and no compression this is
** gradient descent on f = (1/N) sum_i f_i).  feedback = false is the naive
** compressed method without memory: D_w = lr C(g_w), e_w = 0 (top-k then
** stalls away from x* on heterogeneous workers: its fixed points are not
** x*; scripts/topk_ef.lua).  lr is scaled by the run's schedule.  The
** feedback analysis wants a contraction, ||C(v) - v||^2 <= (1 - delta)
** ||v||^2: topk, ssign (and qsgd, terngrad only in expectation); the
** scaled randk and the plain sign are not, and the memory can grow.
**
** Workers: p->workers when set, else the parameter workers (at most N)
** contiguous shards in index order, all taking part (dist.h).  Per-worker
** streams from the run's generator draw the minibatches and the
** compressor's randomness; the participants are drawn from c->rng.
** Metrics (probe): bits, the uplink bits sum_rounds |S| bits(C)
** (compress.h; the server's broadcast of x is not counted); compress_err,
** sum_S ||D_w - p_w||^2 / sum_S ||p_w||^2 of the last round (0 when
** every p_w = 0); rounds, the rounds done.
*/
#include <math.h>

#include "compress.h"
#include "dist.h"
#include "vec.h"

typedef struct ef14_state {
  double lr;
  int feedback, batch;
  ol_cworkers cw;        /* split, compressor, streams, accounts */
  double *E;             /* cw.sp.n x n error memories */
  double *g, *p, *d, *tmp, *agg;   /* n each */
} ef14_state;

static const ol_param ef14_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size", NULL},
  OL_COMPRESS_PARAMS(OL_CMP_TOPK),
  {"feedback", OL_P_BOOL, 1, 0, 1, "error feedback (false: the naive "
   "compressed method, x -= lr mean C(g_w))", NULL},
  {"workers", OL_P_INT, 10, 1, 1e6, "workers when the problem has none "
   "(problem.workers): contiguous shards, at most N", NULL},
  {"batch", OL_P_INT, 0, 0, 1e9, "local minibatch per worker (0: its "
   "whole shard)", NULL},
};

static int ef14_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ef14_state *s = st;
  int n = c->n, nw, rc;
  s->lr = par[0];
  s->feedback = par[5] != 0;
  s->batch = (int)par[7];
  nw = (int)fmin(par[6], (double)c->p->nsum);
  if ((rc = ol_cworkers_init(&s->cw, par + 1, nw, c, "ef14", e)) != OL_OK)
    return rc;
  nw = s->cw.sp.n;
  if ((s->E = ol_mat_new(nw, n, e)) == NULL
      || (s->g = ol_vec_new(n, e)) == NULL
      || (s->p = ol_vec_new(n, e)) == NULL
      || (s->d = ol_vec_new(n, e)) == NULL
      || (s->tmp = ol_vec_new(n, e)) == NULL
      || (s->agg = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int ef14_step (void *st, ol_ctx *c, ol_err *e)
{
  ef14_state *s = st;
  ol_cworkers *cw = &s->cw;
  int n = c->n, m, k, w, rc;
  double lr = s->lr * c->sched, msum = 0, num = 0, den = 0;
  /* (1) the round's participants and their weights' total */
  m = ol_dist_sample(&cw->sp, c->rng, cw->who);
  for (k = 0; k < m; k++) msum += (double)ol_dist_size(&cw->sp, cw->who[k]);
  ol_vec_set(s->agg, 0, n);
  for (k = 0; k < m; k++) {
    double *ew, a;
    w = cw->who[k];
    ew = s->E + (size_t)w * n;
    a = (double)ol_dist_size(&cw->sp, w) / msum;
    /* (2) the local gradient at the server's x */
    if ((rc = ol_dist_grad(c, &cw->sp, w, c->x, s->batch, &cw->rw[w], s->g,
                           s->tmp, e)) != OL_OK)
      return rc;
    /* (3) the message: C(lr g + e) with feedback, else C(g) */
    if (s->feedback) {
      ol_vec_copy(ew, s->p, n);
      ol_vec_axpy(lr, s->g, s->p, n);
    }
    else ol_vec_copy(s->g, s->p, n);
    num += ol_compress_apply(&cw->cp, s->p, s->d, &cw->rw[w]);
    den += ol_vec_dot(s->p, s->p, n);
    /* (4) the memory keeps what was not sent */
    if (s->feedback) {
      ol_vec_copy(s->p, ew, n);
      ol_vec_axpy(-1, s->d, ew, n);
      ol_vec_axpy(a, s->d, s->agg, n);
    }
    else ol_vec_axpy(a * lr, s->d, s->agg, n);
  }
  /* (5) the server's step and the accounts */
  ol_vec_axpy(-1, s->agg, c->x, n);
  ol_cworkers_close(cw, m, num, den);
  return OL_OK;
}

static void ef14_fini (void *st)
{
  ef14_state *s = st;
  ol_cworkers_fini(&s->cw);
  ol_vec_free(s->E);
  ol_vec_free(s->g);
  ol_vec_free(s->p);
  ol_vec_free(s->d);
  ol_vec_free(s->tmp);
  ol_vec_free(s->agg);
  s->E = s->g = s->p = s->d = s->tmp = s->agg = NULL;
}

static double ef14_probe (const void *st, int metric, const ol_ctx *c)
{
  const ef14_state *s = st;
  (void)c;
  return ol_cworkers_probe(&s->cw, metric);
}

const ol_method_type ol_dist_ef14 = {
  .name = "ef14",
  .family = OL_DIST,
  .doc = "compressed distributed GD with error feedback (per-worker memory)",
  .ref = "Seide et al. 2014; Stich et al. 2018; Karimireddy et al. 2019",
  .params = ef14_params,
  .nparams = (int)(sizeof ef14_params / sizeof ef14_params[0]),
  .size = sizeof(ef14_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = ef14_init,
  .step = ef14_step,
  .fini = ef14_fini,
  .probe = ef14_probe,
  .probes = OL_MSET(OL_MET_BITS, OL_MET_COMPRESS_ERR, OL_MET_ROUNDS),
};
