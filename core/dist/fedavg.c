/*
** core/dist/fedavg.c -- federated averaging, with server momentum and
** client-level momentum.
**
** McMahan, Moore, Ramage, Hampson & Aguera y Arcas 2017,
** "Communication-efficient learning of deep networks from decentralized
** data", AISTATS, Algorithm 1 (FederatedAveraging), with the server step
** size on the averaged update of Reddi et al. 2021 ("Adaptive federated
** optimization", ICLR, Algorithm 1 with a plain server step), the server
** momentum of Hsu, Qi & Brown 2019 ("Measuring the effects of non-identical
** data distribution for federated visual classification", FedAvgM), and
** the client-level momentum of Xu, Wang, Wang & Yao 2021 (FedCM) that
** Cheng, Huang, Wu & Yuan 2024 ("Momentum benefits non-IID federated
** learning simply and provably", ICLR) analyse as FedAvg-M: each local
** direction mixes the local gradient with the last round's global one.
**
** One run iteration is one round r.  The participants S (ol_dist_sample:
** a fraction p->workers.participation of the workers, drawn from the
** run's generator; all of them by default) each start from the server's
** x and take K local steps, a = lr * schedule:
**   d = beta g_w(y) + (1 - beta) G      (beta = 1: d = g_w(y), plain FedAvg)
**   y <- y - a d                        (K times; y_w its end)
** g_w the mean gradient over batch components of client w's shard drawn
** with replacement (batch = 0: the whole shard), all drawn from the run's
** generator client by client, step by step.  Then the server, with
** ybar = (1/|S|) sum_{w in S} y_w and the pseudo-gradient D = x - ybar:
**   v <- momentum v + D,  x <- x - server_lr v     (v_0 = 0)
**   G <- D / (a K)                                  (G_0 = 0)
** With momentum = 0 and server_lr = 1 the server takes x <- ybar as it
** is, so K = 1 on one worker is minibatch SGD bit for bit (gd with noise
** {kind = "batch", order = "replace"}).
**
** Heterogeneity bias: on quadratic clients FedAvg's fixed point with K > 1
** is not x* (problems/fedquad.h gives it); server momentum does not move
** the fixed point (D = 0 there whatever v), client momentum makes it the
** fixed point of FedAvg at local step beta lr, so the bias shrinks with
** beta but stays for a constant beta > 0.  SCAFFOLD (scaffold.c) removes
** it.
**
** Workers: p->workers when set (problem.workers, fedquad's clients), else
** the `workers` parameter's contiguous shards, full participation
** (dist.h).  Probes: drift (1/|S|) sum ||y_w - x||^2, consensus
** (1/|S|) sum ||y_w - ybar||^2, rounds; the last local iterates y_w are
** kept per worker.
**
** Compressed uploads (compress = ..., compress.h's ol_cupload): each
** participant sends C(y_w - x) and the server's y_w is x + C(y_w - x)
** (FedPAQ, Reisizadeh et al. 2020, Algorithm 1, with its quantizer any of
** compress.h's), so drift, consensus and the workers' view are of what
** the server received; the compressor's draws come from the run's
** generator after the client's local steps.  Probes bits (one message
** per participant per round) and compress_err.
*/
#include <math.h>

#include "compress.h"
#include "dist.h"
#include "vec.h"

typedef struct fedavg_state {
  ol_dist_fed fed;  /* first: iterates, split, participants, ybar, probes */
  ol_cupload up;    /* the uploads' compressor and bits */
  int K, batch;
  double lr, slr, mom, beta;
  double *g, *tmp, *d, *v, *G;   /* n each */
} fedavg_state;

static const ol_param fedavg_params[] = {
  {"K", OL_P_INT, 5, 1, 1e6, "local steps per round", NULL},
  {"lr", OL_P_REAL, 0.05, OL_GT0, OL_FINITE, "local step size", NULL},
  {"server_lr", OL_P_REAL, 1, OL_GT0, OL_FINITE, "server step size on the "
   "averaged update", NULL},
  {"momentum", OL_P_REAL, 0, 0, 0.9999999999999999, "server momentum "
   "(FedAvgM, Hsu et al. 2019)", NULL},
  {"beta", OL_P_REAL, 1, OL_GT0, 1, "client-level momentum: local direction "
   "beta g + (1 - beta) G_prev (1: none; FedCM, Cheng et al. 2024)", NULL},
  {"batch", OL_P_INT, 0, 0, 1e9, "components per local gradient, drawn "
   "with replacement (0: the whole shard)", NULL},
  {"workers", OL_P_INT, 10, 1, 1e6, "workers of the default split when "
   "the problem has none", NULL},
  OL_COMPRESS_PARAMS(OL_CMP_NONE),
};

static int fedavg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  fedavg_state *s = st;
  int rc, n = c->n;
  s->K = (int)par[0];
  s->lr = par[1];
  s->slr = par[2];
  s->mom = par[3];
  s->beta = par[4];
  s->batch = (int)par[5];
  if ((rc = ol_dist_fed_init(&s->fed, c, (int)par[6], "fedavg", e)) != OL_OK
      || (rc = ol_cupload_init(&s->up, par + 7, n, "fedavg", e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(n, e)) == NULL || (s->tmp = ol_vec_new(n, e)) == NULL
      || (s->d = ol_vec_new(n, e)) == NULL
      || (s->v = ol_vec_new(n, e)) == NULL
      || (s->G = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int fedavg_step (void *st, ol_ctx *c, ol_err *e)
{
  fedavg_state *s = st;
  ol_dist_fed *f = &s->fed;
  int n = c->n, m, i, j, k, rc;
  double a = s->lr * c->sched, *x = c->x, *ybar = f->ybar;
  /* (1) the round's participants */
  m = ol_dist_sample(&f->sp, c->rng, f->who);
  /* (2) each one's K local steps from x */
  for (i = 0; i < m; i++) {
    double *y = f->view.X + (size_t)f->who[i] * n, *d = s->g;
    ol_vec_copy(x, y, n);
    for (k = 0; k < s->K; k++) {
      rc = ol_dist_grad(c, &f->sp, f->who[i], y, s->batch, c->rng, s->g,
                        s->tmp, e);
      if (rc != OL_OK) return rc;
      if (s->beta < 1) {
        d = s->d;
        for (j = 0; j < n; j++)
          d[j] = s->beta * s->g[j] + (1 - s->beta) * s->G[j];
      }
      for (j = 0; j < n; j++) y[j] -= a * d[j];
    }
    /* its upload: y_w = x + C(y_w - x) as the server receives it */
    ol_cupload_delta(&s->up, x, y, c->rng);
  }
  ol_cupload_close(&s->up);
  /* (3) ybar, drift, consensus (dist.h) */
  ol_dist_fed_close(f, m, x);
  /* (4) the server: pseudo-gradient D = x - ybar, momentum, move */
  for (j = 0; j < n; j++) s->G[j] = (x[j] - ybar[j]) / (a * s->K);
  if (s->mom == 0 && s->slr == 1)
    ol_vec_copy(ybar, x, n);
  else
    for (j = 0; j < n; j++) {
      s->v[j] = s->mom * s->v[j] + (x[j] - ybar[j]);
      x[j] -= s->slr * s->v[j];
    }
  return OL_OK;
}

static void fedavg_fini (void *st)
{
  fedavg_state *s = st;
  ol_dist_fed_fini(&s->fed);
  ol_cupload_fini(&s->up);
  ol_vec_free(s->g);
  ol_vec_free(s->tmp);
  ol_vec_free(s->d);
  ol_vec_free(s->v);
  ol_vec_free(s->G);
  s->g = s->tmp = s->d = s->v = s->G = NULL;
}

static double fedavg_probe (const void *st, int metric, const ol_ctx *c)
{
  const fedavg_state *s = st;
  (void)c;
  if (metric == OL_MET_BITS || metric == OL_MET_COMPRESS_ERR)
    return ol_cupload_probe(&s->up, metric);
  return ol_dist_fed_probe(&s->fed, metric);
}

const ol_method_type ol_dist_fedavg = {
  .name = "fedavg",
  .family = OL_DIST,
  .doc = "federated averaging: K local steps per client, server averages "
    "(momentum: FedAvgM; beta: client momentum)",
  .ref =
    "McMahan et al. 2017 (Alg. 1); Hsu, Qi & Brown 2019; Cheng et al. 2024",
  .params = fedavg_params,
  .nparams = (int)(sizeof fedavg_params / sizeof fedavg_params[0]),
  .size = sizeof(fedavg_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = fedavg_init,
  .step = fedavg_step,
  .fini = fedavg_fini,
  .probe = fedavg_probe,
  .result = ol_dist_fedresult,
  .probes =
    OL_MSET(OL_MET_DRIFT, OL_MET_CONSENSUS, OL_MET_ROUNDS, OL_MET_BITS,
            OL_MET_COMPRESS_ERR),
};
