/*
** core/dist/gt.c -- gradient tracking over a mixing matrix (DIGing:
** Nedic, Olshevsky & Shi 2017, "Achieving geometric convergence for
** distributed optimization over time-varying graphs", SIOPT 27, eq. (3);
** Qu & Li 2018, "Harnessing smoothness to accelerate distributed
** optimization", IEEE TCNS 5, eq. (3)).
**
** Node w (graph.h: the nodes, their weights W and stochastic gradients
** g_w) keeps its iterate x_w and a tracker y_w of the average gradient,
** y_w = g_w(x_w) at the start; each round, all nodes at once:
**
**   x_w <- sum_v W_wv x_v - lr y_w
**   y_w <- sum_v W_wv y_v + g_w(x_w new) - g_w(x_w old)
**
** Since W is doubly stochastic, the trackers' average stays the average
** of the latest gradients, so with exact gradients every node converges
** to the optimum of (1/m) sum_w f_w at a constant lr (below a bound set by
** the smoothness and the spectral gap), where D-SGD (dsgd.c) stops at a
** bias: heterogeneous nodes' gradients do not vanish at the optimum, the
** tracked average does.  lr is scaled by the run's schedule.  One gradient
** per node per round (two in the first).  The run's x is the average.
*/
#include <stdlib.h>

#include "graph.h"
#include "vec.h"

typedef struct gt_state {
  ol_dec dec;       /* first: nodes, probe, workers result */
  double lr;
  int started;
  double *G, *Gn;   /* m x d: gradients at the old and new iterates */
  double *Y;        /* m x d trackers */
} gt_state;

static const ol_param gt_params[] = {
  {"lr", OL_P_REAL, 0.05, OL_GT0, OL_FINITE, "step size along the "
   "tracked gradient", NULL},
  OL_DEC_PARAMS
};

static int gt_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  gt_state *s = st;
  int rc, md;
  s->lr = par[0];
  if ((rc = ol_dec_init(&s->dec, par + 1, c, "gt", e)) != OL_OK) return rc;
  md = s->dec.m * c->n;
  if ((s->G = ol_vec_new(md, e)) == NULL || (s->Gn = ol_vec_new(md, e))
      == NULL || (s->Y = ol_vec_new(md, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int gt_step (void *st, ol_ctx *c, ol_err *e)
{
  gt_state *s = st;
  ol_dec *dc = &s->dec;
  double *tmp;
  int rc, md = dc->m * dc->d;
  /* (0) the trackers start at the first gradients */
  if (!s->started) {
    if ((rc = ol_dec_grads(dc, c, dc->X, s->G, e)) != OL_OK) return rc;
    ol_vec_copy(s->G, s->Y, md);
    s->started = 1;
  }
  /* (1) gossip the iterates, step along the trackers */
  ol_graph_mix(&dc->g, dc->X, dc->T, dc->d);
  ol_vec_axpy(-s->lr * c->sched, s->Y, dc->T, md);
  ol_vec_copy(dc->T, dc->X, md);
  /* (2) new gradients; gossip the trackers and add the change */
  if ((rc = ol_dec_grads(dc, c, dc->X, s->Gn, e)) != OL_OK) return rc;
  ol_graph_mix(&dc->g, s->Y, dc->T, dc->d);
  ol_vec_axpy(1, s->Gn, dc->T, md);
  ol_vec_axpy(-1, s->G, dc->T, md);
  ol_vec_copy(dc->T, s->Y, md);
  tmp = s->G;
  s->G = s->Gn;
  s->Gn = tmp;
  ol_dec_average(dc, c->x);
  return OL_OK;
}

static void gt_fini (void *st)
{
  gt_state *s = st;
  ol_dec_fini(&s->dec);
  ol_vec_free(s->G);
  ol_vec_free(s->Gn);
  ol_vec_free(s->Y);
  s->G = s->Gn = s->Y = NULL;
}

const ol_method_type ol_dist_gt = {
  .name = "gt",
  .family = OL_DIST,
  .doc = "gradient tracking: gossip, step along a tracked average gradient",
  .ref = "Nedic, Olshevsky & Shi 2017 (DIGing); Qu & Li 2018",
  .params = gt_params,
  .nparams = (int)(sizeof gt_params / sizeof gt_params[0]),
  .size = sizeof(gt_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = gt_init,
  .step = gt_step,
  .fini = gt_fini,
  .probe = ol_dec_probe,
  .result = ol_dec_result,
  .probes = OL_PROBES_DEC,
};
