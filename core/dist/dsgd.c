/*
** core/dist/dsgd.c -- decentralized SGD over a mixing matrix (D-PSGD:
** Lian, Zhang, Zhang, Hsieh, Zhang & Liu 2017, "Can decentralized
** algorithms outperform centralized algorithms?", NeurIPS, Algorithm 1;
** the distributed subgradient method of Nedic & Ozdaglar 2009, IEEE TAC
** 54, eq. (2)).
**
** Node w (graph.h: the nodes, their weights W and stochastic gradients
** g_w) in each round, all nodes at once:
**
**   x_w <- sum_v W_wv x_v - lr g_w(x_w)
**
** (the gradient at the node's own iterate before mixing, as in D-PSGD).
** lr is scaled by the run's schedule.  The run's x is the average xbar.
** At a constant lr the nodes do not agree: with heterogeneous local
** gradients (bounded by G) the consensus error stays of order
** lr^2 G^2 / gap^2 (Lian et al. 2017, Lemma 5's bound; Yuan, Ling & Yin
** 2016, "On the convergence of decentralized gradient descent", SIOPT),
** and xbar settles at an O(lr / gap) bias from the optimum; gradient
** tracking (gt.c) removes both.
*/
#include <stdlib.h>

#include "graph.h"
#include "vec.h"

typedef struct dsgd_state {
  ol_dec dec;       /* first: nodes, probe, workers result */
  double lr;
  double *G;        /* m x d node gradients */
} dsgd_state;

static const ol_param dsgd_params[] = {
  {"lr", OL_P_REAL, 0.05, OL_GT0, OL_FINITE, "step size of the local "
   "gradient step", NULL},
  OL_DEC_PARAMS
};

static int dsgd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  dsgd_state *s = st;
  int rc;
  s->lr = par[0];
  if ((rc = ol_dec_init(&s->dec, par + 1, c, "dsgd", e)) != OL_OK) return rc;
  if ((s->G = ol_vec_new(s->dec.m * c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int dsgd_step (void *st, ol_ctx *c, ol_err *e)
{
  dsgd_state *s = st;
  ol_dec *dc = &s->dec;
  int rc, md = dc->m * dc->d;
  /* (1) local stochastic gradients at the nodes' iterates */
  if ((rc = ol_dec_grads(dc, c, dc->X, s->G, e)) != OL_OK) return rc;
  /* (2) gossip, then the local step */
  ol_graph_mix(&dc->g, dc->X, dc->T, dc->d);
  ol_vec_axpy(-s->lr * c->sched, s->G, dc->T, md);
  ol_vec_copy(dc->T, dc->X, md);
  ol_dec_average(dc, c->x);
  return OL_OK;
}

static void dsgd_fini (void *st)
{
  dsgd_state *s = st;
  ol_dec_fini(&s->dec);
  ol_vec_free(s->G);
  s->G = NULL;
}

const ol_method_type ol_dist_dsgd = {
  .name = "dsgd",
  .family = OL_DIST,
  .doc = "decentralized SGD: gossip over a graph, then a local gradient step",
  .ref = "Lian et al. 2017 (D-PSGD); Nedic & Ozdaglar 2009",
  .params = dsgd_params,
  .nparams = (int)(sizeof dsgd_params / sizeof dsgd_params[0]),
  .size = sizeof(dsgd_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = dsgd_init,
  .step = dsgd_step,
  .fini = dsgd_fini,
  .probe = ol_dec_probe,
  .result = ol_dec_result,
  .probes = OL_PROBES_DEC,
};
