/*
** core/dist/scaffold.c -- SCAFFOLD: federated averaging with control
** variates that cancel client drift (option II), with server momentum.
**
** Karimireddy, Kale, Mohri, Reddi, Stich & Suresh 2020, "SCAFFOLD:
** stochastic controlled averaging for federated learning", ICML,
** Algorithm 1 with option II for the clients' control variates; server
** momentum as in FedAvgM (Hsu, Qi & Brown 2019) on the averaged update.
**
** One run iteration is one round.  Client controls c_w and the server's c
** start at 0.  The participants S (ol_dist_sample; all by default) each,
** a = lr * schedule:
**   y <- x;  K times: y <- y - a (g_w(y) - c_w + c)
**   c_w+ = c_w - c + (x - y) / (K a)                          (option II)
** g_w the mean gradient over batch components of client w's shard drawn
** with replacement from the run's generator (batch = 0: the whole shard).
** Server, ybar = (1/|S|) sum_S y_w, N the number of workers:
**   v <- momentum v + (x - ybar),  x <- x - server_lr v      (v_0 = 0)
**   c <- c + (1/N) sum_S (c_w+ - c_w)
** (momentum = 0: x <- x + server_lr (ybar - x), Algorithm 1's server step
** with global step server_lr.)  With full gradients and full
** participation the fixed point is x* itself: there c_w = grad F_w(x*)
** and c = 0, so each local step is a step on f; FedAvg's heterogeneity
** bias (fedavg.c) is gone.  The first round (c_w = c = 0) is FedAvg's.
**
** Workers and probes as in fedavg.c: p->workers or the `workers`
** parameter's shards; drift (1/|S|) sum ||y_w - x||^2, consensus
** (1/|S|) sum ||y_w - ybar||^2, rounds.
**
** Compressed uploads (compress = ..., compress.h's ol_cupload): a
** participant sends C(c_w+ - c_w), then C(y_w - x) (two messages), its
** own c_w+ kept exact; the server's sums use what it received (FedPAQ's
** quantized updates, Reisizadeh et al. 2020, applied to both of
** SCAFFOLD's uploads).  Probes bits and compress_err.
*/
#include <math.h>
#include <stdlib.h>

#include "compress.h"
#include "dist.h"
#include "vec.h"

typedef struct scaffold_state {
  ol_dist_fed fed;  /* first: iterates, split, participants, ybar, probes */
  ol_cupload up;    /* the uploads' compressor and bits */
  int K, batch;
  double lr, slr, mom;
  double *C;        /* sp.n x n: client control variates c_w */
  double *cs;       /* n: server control variate c */
  double *g, *tmp, *v, *dc, *dcw;   /* n each */
} scaffold_state;

static const ol_param scaffold_params[] = {
  {"K", OL_P_INT, 5, 1, 1e6, "local steps per round", NULL},
  {"lr", OL_P_REAL, 0.05, OL_GT0, OL_FINITE, "local step size eta_l", NULL},
  {"server_lr", OL_P_REAL, 1, OL_GT0, OL_FINITE, "global step size eta_g",
   NULL},
  {"momentum", OL_P_REAL, 0, 0, 0.9999999999999999, "server momentum on "
   "the averaged update", NULL},
  {"batch", OL_P_INT, 0, 0, 1e9, "components per local gradient, drawn "
   "with replacement (0: the whole shard)", NULL},
  {"workers", OL_P_INT, 10, 1, 1e6, "workers of the default split when "
   "the problem has none", NULL},
  OL_COMPRESS_PARAMS(OL_CMP_NONE),
};

static int scaffold_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  scaffold_state *s = st;
  int rc, n = c->n;
  s->K = (int)par[0];
  s->lr = par[1];
  s->slr = par[2];
  s->mom = par[3];
  s->batch = (int)par[4];
  if ((rc = ol_dist_fed_init(&s->fed, c, (int)par[5], "scaffold", e))
      != OL_OK
      || (rc = ol_cupload_init(&s->up, par + 6, n, "scaffold", e)) != OL_OK)
    return rc;
  if ((s->C = calloc((size_t)s->fed.sp.n * n, sizeof *s->C)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  if ((s->cs = ol_vec_new(n, e)) == NULL || (s->g = ol_vec_new(n, e)) == NULL
      || (s->tmp = ol_vec_new(n, e)) == NULL
      || (s->v = ol_vec_new(n, e)) == NULL
      || (s->dc = ol_vec_new(n, e)) == NULL
      || (s->dcw = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int scaffold_step (void *st, ol_ctx *c, ol_err *e)
{
  scaffold_state *s = st;
  ol_dist_fed *f = &s->fed;
  int n = c->n, m, i, j, k, rc;
  double a = s->lr * c->sched, *x = c->x;
  /* (1) the round's participants */
  m = ol_dist_sample(&f->sp, c->rng, f->who);
  for (j = 0; j < n; j++) s->dc[j] = 0;
  for (i = 0; i < m; i++) {
    int w = f->who[i];
    double *y = f->view.X + (size_t)w * n, *cw = s->C + (size_t)w * n;
    /* (2) K corrected local steps from x */
    ol_vec_copy(x, y, n);
    for (k = 0; k < s->K; k++) {
      rc = ol_dist_grad(c, &f->sp, w, y, s->batch, c->rng, s->g, s->tmp, e);
      if (rc != OL_OK) return rc;
      for (j = 0; j < n; j++) y[j] -= a * (s->g[j] - cw[j] + s->cs[j]);
    }
    /* (3) the client's new control variate (option II) */
    for (j = 0; j < n; j++) {
      double cn = cw[j] - s->cs[j] + (x[j] - y[j]) / (s->K * a);
      s->dcw[j] = cn - cw[j];
      cw[j] = cn;
    }
    /* (4) its uploads, as the server receives them */
    ol_cupload_send(&s->up, s->dcw, c->rng);
    for (j = 0; j < n; j++) s->dc[j] += s->dcw[j];
    ol_cupload_delta(&s->up, x, y, c->rng);
  }
  ol_cupload_close(&s->up);
  /* (5) ybar, drift, consensus (dist.h) */
  ol_dist_fed_close(f, m, x);
  /* (6) the server's model and control variate */
  for (j = 0; j < n; j++) {
    s->v[j] = s->mom * s->v[j] + (x[j] - f->ybar[j]);
    x[j] -= s->slr * s->v[j];
    s->cs[j] += s->dc[j] / f->sp.n;
  }
  return OL_OK;
}

static void scaffold_fini (void *st)
{
  scaffold_state *s = st;
  ol_dist_fed_fini(&s->fed);
  ol_cupload_fini(&s->up);
  free(s->C);
  ol_vec_free(s->cs);
  ol_vec_free(s->g);
  ol_vec_free(s->tmp);
  ol_vec_free(s->v);
  ol_vec_free(s->dc);
  ol_vec_free(s->dcw);
  s->C = s->cs = s->g = s->tmp = s->v = s->dc = s->dcw = NULL;
}

static double scaffold_probe (const void *st, int metric, const ol_ctx *c)
{
  const scaffold_state *s = st;
  (void)c;
  if (metric == OL_MET_BITS || metric == OL_MET_COMPRESS_ERR)
    return ol_cupload_probe(&s->up, metric);
  return ol_dist_fed_probe(&s->fed, metric);
}

const ol_method_type ol_dist_scaffold = {
  .name = "scaffold",
  .family = OL_DIST,
  .doc = "SCAFFOLD: local steps corrected by control variates (option II)",
  .ref = "Karimireddy et al. 2020 (Alg. 1, option II)",
  .params = scaffold_params,
  .nparams = (int)(sizeof scaffold_params / sizeof scaffold_params[0]),
  .size = sizeof(scaffold_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = scaffold_init,
  .step = scaffold_step,
  .fini = scaffold_fini,
  .probe = scaffold_probe,
  .result = ol_dist_fedresult,
  .probes =
    OL_MSET(OL_MET_DRIFT, OL_MET_CONSENSUS, OL_MET_ROUNDS, OL_MET_BITS,
            OL_MET_COMPRESS_ERR),
};
