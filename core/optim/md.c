/*
** core/optim/md.c -- entropic mirror descent (exponentiated gradient)
** over a product of simplices.
**
** Nemirovski & Yudin 1983, "Problem Complexity and Method Efficiency in
** Optimization" (mirror descent); Beck & Teboulle 2003, "Mirror descent
** and nonlinear projected subgradient methods for convex optimization"
** (the entropic mirror descent algorithm EMDA, eq. 5.1 and Theorem 5.1);
** Kivinen & Warmuth 1997 (exponentiated gradient).  On each simplex block
** b, with the negative entropy as mirror map:
**
**   x_{t+1,b,i} = x_{t,b,i} exp(-eta_t g_{b,i}) / sum_j x_{t,b,j} exp(-eta_t g_{b,j})
**   eta_t = lr * sched_t                 (decay = "none")
**   eta_t = lr * sched_t / sqrt(t + 1)   (decay = "sqrt": Beck & Teboulle's
**                                         rate for nonsmooth f)
**
** kept as log-weights theta (x_b = softmax(theta_b), theta -= eta g), so
** an entry that underflows in x comes back when its gradient turns.  The
** iterates stay in the relative interior of the simplex; an entry of x0
** at 0 could never move, so when x0 has one, the method starts from
** (1 - mix) x0 + mix u, u the uniform point of each block (x0 strictly
** inside is used as is).
**
** A box with finite bounds is the product of n two-point simplices
** (u_i, 1 - u_i), x_i = lo_i + (hi_i - lo_i) u_i, and is treated as such
** (mirror descent with the bit entropy u log u + (1 - u) log(1 - u) per
** coordinate).  Other sets (l1 and l2 balls, unbounded boxes, none) are
** refused: use fw or pgd there.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "vec.h"

typedef struct md_state {
  double lr, mix;
  int decay;            /* 0 none, 1 sqrt */
  int box;              /* the set is a box: theta is one logit per x_i */
  double *theta;        /* log-weights (n) */
  double *g;            /* gradient (n) */
} md_state;

static const ol_param md_params[] = {
  {"lr", OL_P_REAL, 0.5, OL_GT0, OL_FINITE, "step size eta", NULL},
  {"decay", OL_P_ENUM, 0, 0, 1, "step decay: none (eta = lr) or sqrt "
   "(eta = lr / sqrt(t + 1))", "none|sqrt"},
  {"mix", OL_P_REAL, 0.01, 0, 0.9999999999999999, "weight of the uniform "
   "point mixed into an x0 on the boundary (entries at 0 cannot move)",
   NULL},
};

/* x_b = softmax(theta_b) over every block of the simplex set. */
static void md_tox (const ol_set *set, const double *theta, double *x,
                    int n)
{
  int nb = set->nblocks > 0 ? set->nblocks : 1, b, i, off;
  for (b = 0, off = 0; b < nb; b++) {
    int k = set->nblocks > 0 ? set->blocks[b] : n;
    double m = -INFINITY, s = 0;
    for (i = off; i < off + k; i++)
      if (theta[i] > m) m = theta[i];
    for (i = off; i < off + k; i++) s += (x[i] = exp(theta[i] - m));
    for (i = off; i < off + k; i++) x[i] /= s;
    off += k;
  }
}

/* x_i = lo_i + (hi_i - lo_i) sigmoid(theta_i). */
static void md_tobox (const ol_set *set, const double *theta, double *x,
                      int n)
{
  int i;
  for (i = 0; i < n; i++) {
    double u = theta[i] >= 0 ? 1 / (1 + exp(-theta[i]))
                             : exp(theta[i]) / (1 + exp(theta[i]));
    x[i] = set->lo[i] + (set->hi[i] - set->lo[i]) * u;
  }
}

static int md_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  md_state *s = st;
  const ol_set *set = &c->p->set;
  int n = c->n, i, b, off, nb, zero = 0;
  char buf[64];
  s->lr = par[0];
  s->decay = (int)par[1];
  s->mix = par[2];
  /* (1) the set: simplices, or a bounded box */
  if (set->kind == OL_SET_BOX) {
    for (i = 0; i < n; i++)
      if (set->lo == NULL || set->hi == NULL || !isfinite(set->lo[i])
          || !isfinite(set->hi[i]))
        return ol_err_set(e, OL_EINVAL, "md needs a product of simplices "
                          "(set = {simplex = {...}}) or a bounded box; the "
                          "box is unbounded at x[%d]", i + 1);
    s->box = 1;
  }
  else if (set->kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "md needs a product of simplices (set = "
                      "{simplex = {...}}) or a bounded box; %s's set is %s "
                      "(use fw or pgd)", c->p->name,
                      ol_set_describe(set, buf, sizeof buf));
  if ((s->theta = ol_vec_new(n, e)) == NULL
      || (s->g = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  /* (2) log-weights of the start, moved inside when on the boundary */
  if (s->box) {
    for (i = 0; i < n; i++) {
      double span = set->hi[i] - set->lo[i];
      double u = span > 0 ? (c->x[i] - set->lo[i]) / span : 0.5;
      if (!(u > 0 && u < 1)) zero = 1;
    }
    for (i = 0; i < n; i++) {
      double span = set->hi[i] - set->lo[i];
      double u = span > 0 ? (c->x[i] - set->lo[i]) / span : 0.5;
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      if (zero) u = (1 - s->mix) * u + s->mix * 0.5;
      s->theta[i] = log(u) - log1p(-u);
    }
    md_tobox(set, s->theta, c->x, n);
    return OL_OK;
  }
  for (i = 0; i < n; i++)
    if (!(c->x[i] > 0)) zero = 1;
  nb = set->nblocks > 0 ? set->nblocks : 1;
  for (b = 0, off = 0; b < nb; b++) {
    int k = set->nblocks > 0 ? set->blocks[b] : n;
    for (i = off; i < off + k; i++) {
      double v = c->x[i] > 0 ? c->x[i] : 0;
      if (zero) v = (1 - s->mix) * v + s->mix / k;
      s->theta[i] = log(v);
    }
    off += k;
  }
  md_tox(set, s->theta, c->x, n);
  return OL_OK;
}

static int md_step (void *st, ol_ctx *c, ol_err *e)
{
  md_state *s = st;
  const ol_set *set = &c->p->set;
  int n = c->n, i, rc;
  double eta = s->lr * c->sched;
  /* (1) gradient at x_t */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g, e)) != OL_OK) return rc;
  if (s->decay == 1) eta /= sqrt((double)c->t + 1);
  /* (2) mirror step in log-weights: theta -= eta A'g (the box's logit
  ** theta_hi - theta_lo moves by -eta g (hi - lo)) */
  if (s->box)
    for (i = 0; i < n; i++)
      s->theta[i] -= eta * s->g[i] * (set->hi[i] - set->lo[i]);
  else
    for (i = 0; i < n; i++) s->theta[i] -= eta * s->g[i];
  /* (3) back to x: normalisation (softmax) per block */
  if (s->box) md_tobox(set, s->theta, c->x, n);
  else {
    md_tox(set, s->theta, c->x, n);
    /* keep theta bounded: shift each block so its max is 0 (x unchanged) */
    {
      int nb = set->nblocks > 0 ? set->nblocks : 1, b, off;
      for (b = 0, off = 0; b < nb; b++) {
        int k = set->nblocks > 0 ? set->blocks[b] : n;
        double m = -INFINITY;
        for (i = off; i < off + k; i++)
          if (s->theta[i] > m) m = s->theta[i];
        for (i = off; i < off + k; i++) s->theta[i] -= m;
        off += k;
      }
    }
  }
  return OL_OK;
}

static void md_fini (void *st)
{
  md_state *s = st;
  ol_vec_free(s->theta);
  ol_vec_free(s->g);
  s->theta = s->g = NULL;
}

const ol_method_type ol_optim_md = {
  .name = "md",
  .family = OL_OPTIM,
  .doc = "entropic mirror descent (exponentiated gradient) on simplices: "
    "x <- x exp(-eta g) / normalisation, per block",
  .ref = "Nemirovski & Yudin 1983; Beck & Teboulle 2003, eq. 5.1",
  .params = md_params,
  .nparams = (int)(sizeof md_params / sizeof md_params[0]),
  .size = sizeof(md_state),
  .flags = OL_M_NEEDSET,
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = md_init,
  .step = md_step,
  .fini = md_fini,
  .probes = OL_MSET_NONE,
};
