/*
** core/dist/gtnsgdm.c -- normalized stochastic gradient descent with
** momentum and gradient tracking, GT-NSGDm (Yu, Jakovetic & Kar 2025,
** "Decentralized nonconvex optimization under heavy-tailed noise:
** normalization and optimal convergence", arXiv 2505.03736, Algorithm 1).
**
** Node w (graph.h: the nodes, their weights W and stochastic gradients
** g_w) keeps its iterate x_w, a momentum m_w and a tracker v_w of the
** average momentum, m_w = v_w = g_w(x_w) at the start; each round, all
** nodes at once:
**
**   x_w <- sum_v W_wv (x_v - lr v_v / ||v_v||)
**   m_w' = beta m_w + (1 - beta) g_w(x_w new)
**   v_w <- sum_v W_wv (v_v + m_v' - m_v),   m_w <- m_w'
**
** The normalized step has length lr whatever the noise, so a heavy-tailed
** draw (noise = {kind = "student", nu <= 2}: infinite variance) moves a
** node by lr at most, and the momentum averages the draws; D-SGD (dsgd.c)
** moves by lr times the draw.  The paper proves E ||grad f(xbar)|| =
** O(T^{-(p-1)/(3p-2)}) for noise with a p-th moment, p in (1, 2], with lr
** ~ T^{-(2p-1)/(3p-2)} and 1 - beta ~ T^{-p/(3p-2)}.  Order: a published
** summary of the paper's Algorithm 1 gives, per round, momentum at the
** current iterate, then the tracker update mixed, then the normalized step
** along the tracker and the iterates mixed; the loop above is that round
** shifted by half a round (step and mix first, then momenta and
** trackers), the same sequence of iterates (scripts/gt_rate.lua).  The
** catalog's composition (mix x first, then step; only the tracker mixed)
** is not the paper's.  The start (m = v = the first gradient, unweighted
** and unmixed) could not be checked against the paper's full text.  A
** zero tracker does not move its
** node.  lr is scaled by the run's schedule.  One gradient per node per
** round (two in the first).  The run's x is the average.
*/
#include <math.h>
#include <stdlib.h>

#include "graph.h"
#include "vec.h"

typedef struct gtn_state {
  ol_dec dec;       /* first: nodes, probe, workers result */
  double lr, beta;
  int started;
  double *M, *Mn;   /* m x d momenta, old and new */
  double *V;        /* m x d trackers */
} gtn_state;

static const ol_param gtn_params[] = {
  {"lr", OL_P_REAL, 0.01, OL_GT0, OL_FINITE, "length of the normalized "
   "step", NULL},
  {"beta", OL_P_REAL, 0.9, 0, 0.9999999999999999, "momentum: m <- beta m "
   "+ (1 - beta) g", NULL},
  OL_DEC_PARAMS
};

static int gtn_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  gtn_state *s = st;
  int rc, md;
  s->lr = par[0];
  s->beta = par[1];
  if ((rc = ol_dec_init(&s->dec, par + 2, c, "gtnsgdm", e)) != OL_OK)
    return rc;
  md = s->dec.m * c->n;
  if ((s->M = ol_vec_new(md, e)) == NULL || (s->Mn = ol_vec_new(md, e))
      == NULL || (s->V = ol_vec_new(md, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int gtn_step (void *st, ol_ctx *c, ol_err *e)
{
  gtn_state *s = st;
  ol_dec *dc = &s->dec;
  double *tmp, lr = s->lr * c->sched;
  int rc, w, d = dc->d, md = dc->m * dc->d;
  /* (0) momenta and trackers start at the first gradients */
  if (!s->started) {
    if ((rc = ol_dec_grads(dc, c, dc->X, s->M, e)) != OL_OK) return rc;
    ol_vec_copy(s->M, s->V, md);
    s->started = 1;
  }
  /* (1) normalized local steps, then gossip */
  for (w = 0; w < dc->m; w++) {
    double *x = dc->X + (size_t)w * d, *v = s->V + (size_t)w * d;
    double nv = ol_vec_nrm2(v, d);
    if (nv > 0) ol_vec_axpy(-lr / nv, v, x, d);
  }
  ol_graph_mix(&dc->g, dc->X, dc->T, d);
  ol_vec_copy(dc->T, dc->X, md);
  /* (2) momenta at the new iterates */
  if ((rc = ol_dec_grads(dc, c, dc->X, s->Mn, e)) != OL_OK) return rc;
  ol_vec_scal(1 - s->beta, s->Mn, md);
  ol_vec_axpy(s->beta, s->M, s->Mn, md);
  /* (3) trackers: add the momenta's change, then gossip */
  ol_vec_axpy(1, s->Mn, s->V, md);
  ol_vec_axpy(-1, s->M, s->V, md);
  ol_graph_mix(&dc->g, s->V, dc->T, d);
  ol_vec_copy(dc->T, s->V, md);
  tmp = s->M;
  s->M = s->Mn;
  s->Mn = tmp;
  ol_dec_average(dc, c->x);
  return OL_OK;
}

static void gtn_fini (void *st)
{
  gtn_state *s = st;
  ol_dec_fini(&s->dec);
  ol_vec_free(s->M);
  ol_vec_free(s->Mn);
  ol_vec_free(s->V);
  s->M = s->Mn = s->V = NULL;
}

const ol_method_type ol_dist_gtnsgdm = {
  .name = "gtnsgdm",
  .family = OL_DIST,
  .doc =
    "GT-NSGDm: normalized momentum steps with gradient tracking (heavy tails)",
  .ref = "Yu, Jakovetic & Kar 2025 (arXiv 2505.03736)",
  .params = gtn_params,
  .nparams = (int)(sizeof gtn_params / sizeof gtn_params[0]),
  .size = sizeof(gtn_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = gtn_init,
  .step = gtn_step,
  .fini = gtn_fini,
  .probe = ol_dec_probe,
  .result = ol_dec_result,
  .probes = OL_PROBES_DEC,
};
