/*
** core/optim/rmplus.c -- regret matching+ as a first-order optimizer over a
** product of simplices (or a bounded box), for min f(x).
**
** Tammelin 2014, "Solving large imperfect information games using CFR+"
** (arXiv:1407.5042: regret matching+); Anagnostides, Tewolde, Zhang,
** Panageas, Conitzer & Sandholm (the RM+ eps-KKT paper, research/
** seeds-catalog.md A01: RM+ "converges to an eps-KKT point after
** O(1/eps^4) iterations", O(1/eps^2) "when regrets are bounded", RM+
** proposed as a constrained optimizer over products of simplices);
** Farina, Kroer & Sandholm 2021, AAAI, Algorithm 2 (predictive RM+,
** prediction m_t = r_{t-1}).  Every block i of the set is a player
** whose utility is the negative partial gradient, u_i = -grad_i f(z_t) at
** the point z_t it plays:
**
**   r_i = u_i - <u_i, z_i> 1                  (instantaneous regret)
**   Q_i <- [Q_i + r_i]^+                      (Q_i starts at 0)
**   z_i <- Q_i / ||Q_i||_1                    (uniform when Q_i = 0)
**   predictive: z_i <- [Q_i + r_i]^+ / ||[Q_i + r_i]^+||_1
**
** alternate = false: every block uses the gradient at z_t, one gradient
** per step.  alternate = true: the blocks move in order, block i seeing
** the new blocks < i, so one gradient per block per step (nb gradients a
** step, counted as such; as for every method, a call at the point the
** oracle's cache holds is free, which happens here once a block stops
** moving).  The first step plays x0.
**
** Output: c->x is z_t (avg = "none"), or the average of the points
** played z_0 .. z_{t-1}, with weights 1 (uniform) or s + 1 (linear) for
** z_s; the iterate being played is then kept here.  For a convex f, by
** convexity and the definition of regret,
**   f(zbar_T) - f* <= (1/T) sum_t <g_t, z_t - x*> <= sum_i R_i,T / T
** with R_i,T block i's external regret over the T steps (uniform average,
** simultaneous updates), so the average converges at RM+'s O(1/sqrt(T))
** regret rate; for a nonconvex f use the last iterate (A01's setting).
**
** A box with finite bounds is n two-point simplices (w_lo, w_hi),
** x_i = lo_i w_lo + hi_i w_hi, each coordinate a block with utilities
** (0, -(hi_i - lo_i) g_i) (a constant shift of (-lo_i g_i, -hi_i g_i),
** which changes no regret).  Other sets are refused: use fw or pgd.
**
** The regret metric (probe): max over blocks of (max_a U_ia - S_i) / T,
** U_i the sum of the utility vectors block i used, S_i the sum of its
** payoffs <u_i, z_i>; with alternation, the utilities each block saw.
** The kkt metric is the run's Frank-Wolfe gap at c->x (core/metrics.c).
*/
#include <math.h>
#include <stdlib.h>

#include "method.h"
#include "vec.h"

enum { RMP_AVG_NONE, RMP_AVG_UNIFORM, RMP_AVG_LINEAR };

typedef struct rmp_state {
  int alternate, avg, predictive;
  int box;              /* the set is a box: block b is coordinate b */
  int m, nb;            /* weight space dimension, number of blocks */
  int *bsize;           /* block sizes in weight space (nb) */
  double *w;            /* weights of the point played (m) */
  double *Q;            /* clipped cumulative regrets (m) */
  double *gw;           /* utilities' negative, per weight (m) */
  double *U;            /* cumulative utilities (m) */
  double *S;            /* cumulative payoffs (nb) */
  double *g;            /* gradient (n) */
  double *z;            /* the point played, x = A w (n) */
  double *xbar;         /* the weighted average of the points played (n) */
  double wsum;          /* sum of the averaging weights */
  long T;               /* steps observed */
} rmp_state;

static const ol_param rmp_params[] = {
  {"alternate", OL_P_BOOL, 0, 0, 1,
   "false: all blocks use the gradient at z_t (one gradient a step); "
   "true: blocks move in order, each seeing the new earlier blocks (one "
   "gradient per block)", NULL},
  {"avg", OL_P_ENUM, RMP_AVG_NONE, 0, 2,
   "output x: the last point played (none), or the average of the points "
   "played with weights 1 (uniform) or t (linear)", "none|uniform|linear"},
  {"predictive", OL_P_BOOL, 0, 0, 1,
   "predictive RM+ (Farina, Kroer & Sandholm 2021): play "
   "[Q + r]^+ normalised, the last regret r as the prediction", NULL},
};

/* Offsets of block b + 1 in w and x from those of block b. */
static void rmp_next (const rmp_state *s, int b, int *woff, int *xoff)
{
  *woff += s->bsize[b];
  *xoff += s->box ? 1 : s->bsize[b];
}

/* x of block b from its weights. */
static void rmp_tox (const rmp_state *s, const ol_set *set, int b, int woff,
                     int xoff, double *x)
{
  int a;
  if (s->box) {
    x[xoff] = set->lo[xoff] * s->w[woff] + set->hi[xoff] * s->w[woff + 1];
    if (x[xoff] < set->lo[xoff]) x[xoff] = set->lo[xoff];
    if (x[xoff] > set->hi[xoff]) x[xoff] = set->hi[xoff];
    return;
  }
  for (a = 0; a < s->bsize[b]; a++) x[xoff + a] = s->w[woff + a];
}

/* The weight-space gradient of block b from g. */
static void rmp_togw (rmp_state *s, const ol_set *set, int b, int woff,
                      int xoff)
{
  int a;
  if (s->box) {
    s->gw[woff] = 0;
    s->gw[woff + 1] = s->g[xoff] * (set->hi[xoff] - set->lo[xoff]);
    return;
  }
  for (a = 0; a < s->bsize[b]; a++) s->gw[woff + a] = s->g[xoff + a];
}

/* One RM+ update of block b (k weights at woff) from u = -gw, with its
** regret account. */
static void rmp_block (rmp_state *s, int b, int woff)
{
  int k = s->bsize[b], a;
  double *w = s->w + woff, *Q = s->Q + woff, *U = s->U + woff;
  const double *gw = s->gw + woff;
  double uw = 0, sum = 0;
  /* (1) payoff <u, w> and the regret account */
  for (a = 0; a < k; a++) uw -= gw[a] * w[a];
  for (a = 0; a < k; a++) U[a] -= gw[a];
  s->S[b] += uw;
  /* (2) Q <- [Q + r]^+, r = u - <u, w> 1 */
  for (a = 0; a < k; a++) {
    double q = Q[a] - gw[a] - uw;
    Q[a] = q > 0 ? q : 0;
  }
  /* (3) next play: Q, or Q + r (predictive), normalised */
  for (a = 0; a < k; a++) {
    double v = s->predictive ? Q[a] - gw[a] - uw : Q[a];
    w[a] = v > 0 ? v : 0;
    sum += w[a];
  }
  for (a = 0; a < k; a++) w[a] = sum > 0 ? w[a] / sum : 1.0 / k;
}

static int rmp_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rmp_state *s = st;
  const ol_set *set = &c->p->set;
  int n = c->n, i, b, a, woff, xoff;
  char buf[64];
  s->alternate = par[0] != 0;
  s->avg = (int)par[1];
  s->predictive = par[2] != 0;
  /* (1) the set: simplices, or a bounded box of n two-point simplices */
  if (set->kind == OL_SET_BOX) {
    for (i = 0; i < n; i++)
      if (set->lo == NULL || set->hi == NULL || !isfinite(set->lo[i])
          || !isfinite(set->hi[i]))
        return ol_err_set(e, OL_EINVAL, "rmplus needs a product of "
                          "simplices (set = {simplex = {...}}) or a bounded "
                          "box; the box is unbounded at x[%d]", i + 1);
    s->box = 1;
    s->nb = n;
    s->m = 2 * n;
  }
  else if (set->kind == OL_SET_SIMPLEX) {
    s->nb = set->nblocks > 0 ? set->nblocks : 1;
    s->m = n;
  }
  else
    return ol_err_set(e, OL_EINVAL, "rmplus needs a product of simplices "
                      "(set = {simplex = {...}}) or a bounded box; %s's set "
                      "is %s (use fw or pgd)", c->p->name,
                      ol_set_describe(set, buf, sizeof buf));
  if ((s->bsize = calloc((size_t)s->nb, sizeof *s->bsize)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (rmplus, %d blocks)",
                      s->nb);
  for (b = 0; b < s->nb; b++)
    s->bsize[b] = s->box ? 2 : set->nblocks > 0 ? set->blocks[b] : n;
  if ((s->w = ol_vec_new(s->m, e)) == NULL
      || (s->Q = ol_vec_new(s->m, e)) == NULL
      || (s->gw = ol_vec_new(s->m, e)) == NULL
      || (s->U = ol_vec_new(s->m, e)) == NULL
      || (s->S = ol_vec_new(s->nb, e)) == NULL
      || (s->g = ol_vec_new(n, e)) == NULL
      || (s->z = ol_vec_new(n, e)) == NULL
      || (s->xbar = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  /* (2) the weights of x0 (clipped into the set), played first */
  for (b = 0, woff = xoff = 0; b < s->nb; rmp_next(s, b++, &woff, &xoff)) {
    if (s->box) {
      double span = set->hi[xoff] - set->lo[xoff];
      double u = span > 0 ? (c->x[xoff] - set->lo[xoff]) / span : 0.5;
      u = u > 0 ? (u < 1 ? u : 1) : 0;
      s->w[woff] = 1 - u;
      s->w[woff + 1] = u;
    }
    else {
      double sum = 0;
      for (a = 0; a < s->bsize[b]; a++) {
        double v = c->x[xoff + a];
        sum += (s->w[woff + a] = v > 0 ? v : 0);
      }
      for (a = 0; a < s->bsize[b]; a++)
        s->w[woff + a] = sum > 0 ? s->w[woff + a] / sum
                                 : 1.0 / s->bsize[b];
    }
    rmp_tox(s, set, b, woff, xoff, s->z);
  }
  ol_vec_copy(s->z, c->x, n);
  ol_vec_copy(s->z, s->xbar, n);
  return OL_OK;
}

static int rmp_step (void *st, ol_ctx *c, ol_err *e)
{
  rmp_state *s = st;
  const ol_set *set = &c->p->set;
  int n = c->n, b, i, rc, woff, xoff;
  /* (1) gradient at the point played z_t */
  if ((rc = ol_ctx_grad(c, s->z, NULL, s->g, e)) != OL_OK) return rc;
  /* (2) z_t joins the average */
  if (s->avg != RMP_AVG_NONE) {
    double wt = s->avg == RMP_AVG_LINEAR ? (double)s->T + 1 : 1;
    s->wsum += wt;
    for (i = 0; i < n; i++)
      s->xbar[i] += wt / s->wsum * (s->z[i] - s->xbar[i]);
  }
  s->T++;
  /* (3) RM+ per block; alternating: a fresh gradient before every block
  ** after the first, at the point with the earlier blocks moved */
  for (b = 0, woff = xoff = 0; b < s->nb; rmp_next(s, b++, &woff, &xoff)) {
    if (s->alternate && b > 0
        && (rc = ol_ctx_grad(c, s->z, NULL, s->g, e)) != OL_OK)
      return rc;
    rmp_togw(s, set, b, woff, xoff);
    rmp_block(s, b, woff);
    if (s->alternate) rmp_tox(s, set, b, woff, xoff, s->z);
  }
  /* (4) back to x, and the output */
  if (!s->alternate)
    for (b = 0, woff = xoff = 0; b < s->nb; rmp_next(s, b++, &woff, &xoff))
      rmp_tox(s, set, b, woff, xoff, s->z);
  ol_vec_copy(s->avg != RMP_AVG_NONE ? s->xbar : s->z, c->x, n);
  return OL_OK;
}

/* regret: max over blocks of (max_a U_a - S) / T; NaN before a step. */
static double rmp_probe (const void *st, int metric, const ol_ctx *c)
{
  const rmp_state *s = st;
  double best = -INFINITY;
  int b, a, woff = 0;
  (void)c;
  if (metric != OL_MET_REGRET || s->T == 0 || s->U == NULL) return NAN;
  for (b = 0; b < s->nb; woff += s->bsize[b++]) {
    double mx = -INFINITY;
    for (a = 0; a < s->bsize[b]; a++)
      if (s->U[woff + a] > mx) mx = s->U[woff + a];
    if (mx - s->S[b] > best) best = mx - s->S[b];
  }
  return best / (double)s->T;
}

static void rmp_fini (void *st)
{
  rmp_state *s = st;
  free(s->bsize);
  ol_vec_free(s->w);
  ol_vec_free(s->Q);
  ol_vec_free(s->gw);
  ol_vec_free(s->U);
  ol_vec_free(s->S);
  ol_vec_free(s->g);
  ol_vec_free(s->z);
  ol_vec_free(s->xbar);
  s->bsize = NULL;
  s->w = s->Q = s->gw = s->U = s->S = s->g = s->z = s->xbar = NULL;
}

const ol_method_type ol_optim_rmplus = {
  .name = "rmplus",
  .family = OL_OPTIM,
  .doc =
    "regret matching+ on simplices (or a box): utilities -grad f per block, "
    "Q <- [Q + u - <u, x>]^+, x = Q / sum Q",
  .ref = "Tammelin 2014; Anagnostides, Tewolde, Zhang, Panageas, Conitzer & "
    "Sandholm (RM+ eps-KKT); Farina, Kroer & Sandholm 2021",
  .params = rmp_params,
  .nparams = (int)(sizeof rmp_params / sizeof rmp_params[0]),
  .size = sizeof(rmp_state),
  .flags = OL_M_NEEDSET,
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = rmp_init,
  .step = rmp_step,
  .fini = rmp_fini,
  .probe = rmp_probe,
  .probes = OL_MSET(OL_MET_REGRET),
};
