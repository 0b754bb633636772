/*
** core/optim/fw.c -- Frank-Wolfe (conditional gradient) with the standard
** step or a line search, and its away-step and pairwise variants.
**
** Frank & Wolfe 1956, "An algorithm for quadratic programming"; Jaggi
** 2013, "Revisiting Frank-Wolfe: Projection-Free Sparse Convex
** Optimization" (Algorithm 1, step 2/(t+2), Theorems 1-2); Guelat &
** Marcotte 1986, "Some comments on Wolfe's 'away step'"; Lacoste-Julien
** & Jaggi 2015, "On the Global Linear Convergence of Frank-Wolfe
** Optimization Variants" (Algorithm 1: away steps, Algorithm 2: pairwise
** steps).
**
** Standard (any bounded set: box with finite bounds, product of
** simplices, l1 ball, l2 ball):
**   s_t = argmin_{s in C} <g_t, s>            (ol_set_lmo)
**   gap_t = <g_t, x_t - s_t>                  (the Frank-Wolfe gap)
**   x_{t+1} = x_t + gamma_t (s_t - x_t),  gamma_t = 2 / (t + 2)
** or, with linesearch = true, gamma_t minimising the quadratic through
** f(x_t), <g_t, d_t> and f(x_t + gamma_max d_t) on [0, gamma_max]: exact
** on a quadratic f; on other f the step is halved until f does not rise.
** The run's step-size schedule is not used: the step rule is FW's own.
**
** Away / pairwise (polytopes: box, simplices, l1 ball).  The iterate is
** kept as convex weights w over the polytope's vertices, a product of
** simplices in weight space: simplex blocks w = x; a box coordinate is
** the two-point simplex (w_lo, w_hi), x_i = lo_i w_lo + hi_i w_hi; the
** l1 ball one simplex over its 2n vertices +-r e_i, x_i = r (w_i+ - w_i-)
** (x0's leftover weight 1 - ||x0||_1 / r spread evenly over all 2n, so it
** cancels).  With g_w = A'g the gradient in weight space, per block b the
** FW vertex s_b = argmin g_w and the away vertex v_b = argmax g_w over
** the support w_b > 0 (the active set):
**   away:     FW step d = s - x if <g, x - s> >= <g, v - x>, gamma_max = 1;
**             else away step d = x - v, gamma_max = a / (1 - a)
**   pairwise: d = s - v, gamma_max = a
** with a = min_b w_{b, v_b} (a product vertex's weight in a valid
** decomposition of x), and the line search above always (both variants
** need it for their step bound).  gamma = gamma_max drops v from the
** active set (its weight is set to 0 exactly).  On a strongly convex f
** over a polytope both converge linearly (Lacoste-Julien & Jaggi 2015,
** Theorem 1), where the standard step is O(1/t) and zig-zags when the
** solution lies on a face.
**
** The gap max(<g, x - s>, 0) is the run's kkt metric on simplices
** (core/metrics.c); ol_set_fwgap gives it on every set.  A gap of exactly
** 0 means x minimises the linearisation over C: the run stops as
** converged.  Refused: an unbounded box, away or pairwise on the l2 ball
** (not a polytope), away and pairwise together.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "vec.h"

#define FW_HALVINGS 40   /* line-search halvings before giving up (no move) */

typedef struct fw_state {
  int variant;          /* 0 standard, 1 away, 2 pairwise */
  int ls;               /* line search */
  int m, nb;            /* weight space dimension and number of blocks */
  int *bsize;           /* block sizes in weight space (nb) */
  double *w;            /* weights (m) */
  double *gw;           /* gradient in weight space (m) */
  int *sv, *av;         /* FW and away vertex per block (offsets in w) */
  double *g, *s, *d, *xt;   /* gradient, FW vertex, direction, trial (n) */
} fw_state;

static const ol_param fw_params[] = {
  {"away", OL_P_BOOL, 0, 0, 1,
   "away steps (Guelat & Marcotte 1986; Lacoste-Julien & Jaggi 2015, "
   "Alg. 1): linear convergence on polytopes", NULL},
  {"pairwise", OL_P_BOOL, 0, 0, 1,
   "pairwise steps (Lacoste-Julien & Jaggi 2015, Alg. 2): weight moves "
   "from the away vertex to the FW vertex", NULL},
  {"linesearch", OL_P_BOOL, 0, 0, 1,
   "step by line search (exact on quadratics) instead of 2/(t+2); always "
   "on with away or pairwise", NULL},
};

/* x = A w (n entries) for the polytope in s (see the header). */
static void fw_tox (const ol_set *set, const double *w, double *x, int n)
{
  int i;
  switch (set->kind) {
  case OL_SET_SIMPLEX:
    memcpy(x, w, (size_t)n * sizeof *x);
    break;
  case OL_SET_BOX:
    for (i = 0; i < n; i++)
      x[i] = set->lo[i] * w[2 * i] + set->hi[i] * w[2 * i + 1];
    break;
  case OL_SET_L1BALL:
    for (i = 0; i < n; i++) x[i] = set->radius * (w[i] - w[n + i]);
    break;
  default:
    break;
  }
}

/* g_w = A'g. */
static void fw_togw (const ol_set *set, const double *g, double *gw, int n)
{
  int i;
  switch (set->kind) {
  case OL_SET_SIMPLEX:
    memcpy(gw, g, (size_t)n * sizeof *g);
    break;
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      gw[2 * i] = g[i] * set->lo[i];
      gw[2 * i + 1] = g[i] * set->hi[i];
    }
    break;
  case OL_SET_L1BALL:
    for (i = 0; i < n; i++) {
      gw[i] = set->radius * g[i];
      gw[n + i] = -set->radius * g[i];
    }
    break;
  default:
    break;
  }
}

/* Weights of x0 (in the set): simplex x itself; box (1 - u, u) with
** u = (x - lo) / (hi - lo) ((1, 0) when lo = hi); l1 ball the positive and
** negative parts over r plus the leftover spread evenly. */
static void fw_weights (const ol_set *set, const double *x, double *w,
                        int n)
{
  int i;
  double a = 0, rest;
  switch (set->kind) {
  case OL_SET_SIMPLEX:
    for (i = 0; i < n; i++) w[i] = x[i] > 0 ? x[i] : 0;
    break;
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      double span = set->hi[i] - set->lo[i];
      double u = span > 0 ? (x[i] - set->lo[i]) / span : 0;
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      w[2 * i] = 1 - u;
      w[2 * i + 1] = u;
    }
    break;
  case OL_SET_L1BALL:
    for (i = 0; i < n; i++) a += fabs(x[i]);
    rest = a < set->radius ? (1 - a / set->radius) / (2 * n) : 0;
    for (i = 0; i < n; i++) {
      w[i] = (x[i] > 0 ? x[i] / set->radius : 0) + rest;
      w[n + i] = (x[i] < 0 ? -x[i] / set->radius : 0) + rest;
    }
    break;
  default:
    break;
  }
}

static int fw_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  fw_state *s = st;
  const ol_set *set = &c->p->set;
  int n = c->n, i, b;
  s->variant = par[0] != 0 ? 1 : par[1] != 0 ? 2 : 0;
  s->ls = par[2] != 0 || s->variant != 0;
  if (par[0] != 0 && par[1] != 0)
    return ol_err_set(e, OL_EINVAL, "fw: away and pairwise are two "
                      "variants; choose one");
  /* (1) the set: bounded, and a polytope for the variants */
  if (set->kind == OL_SET_BOX)
    for (i = 0; i < n; i++)
      if (set->lo == NULL || set->hi == NULL || !isfinite(set->lo[i])
          || !isfinite(set->hi[i]))
        return ol_err_set(e, OL_EINVAL, "fw needs a bounded set: the box "
                          "is unbounded at x[%d] (its linear minimiser "
                          "does not exist)", i + 1);
  if (set->kind != OL_SET_BOX && set->kind != OL_SET_SIMPLEX
      && set->kind != OL_SET_L1BALL && set->kind != OL_SET_L2BALL)
    return ol_err_set(e, OL_EINVAL, "fw needs a set: box, simplex, l1ball "
                      "or l2ball");
  if (s->variant != 0 && set->kind == OL_SET_L2BALL)
    return ol_err_set(e, OL_EINVAL, "fw: %s steps need a polytope (box, "
                      "simplex, l1ball); the l2 ball has no vertices",
                      s->variant == 1 ? "away" : "pairwise");
  if ((s->g = ol_vec_new(n, e)) == NULL || (s->s = ol_vec_new(n, e)) == NULL
      || (s->d = ol_vec_new(n, e)) == NULL
      || (s->xt = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  if (s->variant == 0) return OL_OK;
  /* (2) the weight space of the variants: blocks, weights of x0 */
  if (set->kind == OL_SET_SIMPLEX) {
    s->m = n;
    s->nb = set->nblocks > 0 ? set->nblocks : 1;
  }
  else if (set->kind == OL_SET_BOX) {
    s->m = 2 * n;
    s->nb = n;
  }
  else {
    s->m = 2 * n;
    s->nb = 1;
  }
  if ((s->w = ol_vec_new(s->m, e)) == NULL
      || (s->gw = ol_vec_new(s->m, e)) == NULL)
    return OL_ENOMEM;
  s->bsize = calloc((size_t)s->nb * 3, sizeof *s->bsize);
  if (s->bsize == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (fw, %d blocks)", s->nb);
  s->sv = s->bsize + s->nb;
  s->av = s->sv + s->nb;
  for (b = 0; b < s->nb; b++)
    s->bsize[b] = set->kind == OL_SET_SIMPLEX
      ? (set->nblocks > 0 ? set->blocks[b] : n)
      : set->kind == OL_SET_BOX ? 2 : 2 * n;
  fw_weights(set, c->x, s->w, n);
  fw_tox(set, s->w, c->x, n);
  return OL_OK;
}

/* The step gamma in [0, gmax] along d from x (value f, slope dg =
** <g, d> < 0) into s->xt; x + gamma d is left in s->xt.  Standard step
** when the line search is off. */
static int fw_linesearch (fw_state *s, ol_ctx *c, double f, double dg,
                          double gmax, double *gamma, ol_err *e)
{
  int n = c->n, k, rc;
  double fm, ft, kappa, gm;
  if (!s->ls) {
    *gamma = 2.0 / (double)(c->t + 2);
    if (*gamma > gmax) *gamma = gmax;
    return OL_OK;
  }
  /* (1) the quadratic through f, the slope and f at gamma_max (a finite
  ** trial point: a huge away bound is capped at 1e6, beyond any useful
  ** step on a bounded set) */
  gm = gmax < 1e6 ? gmax : 1e6;
  ol_vec_copy(c->x, s->xt, n);
  ol_vec_axpy(gm, s->d, s->xt, n);
  if ((rc = ol_ctx_value(c, s->xt, &fm, e)) != OL_OK) return rc;
  kappa = (fm - f - gm * dg) / (gm * gm);
  *gamma = kappa > 0 ? -dg / (2 * kappa) : gm;
  if (*gamma > gm) *gamma = gm;
  if (*gamma == gm) {
    if (fm <= f) return OL_OK;
  }
  /* (2) safeguard for a non-quadratic f: halve until f does not rise */
  for (k = 0; k < FW_HALVINGS; k++) {
    ol_vec_copy(c->x, s->xt, n);
    ol_vec_axpy(*gamma, s->d, s->xt, n);
    if ((rc = ol_ctx_value(c, s->xt, &ft, e)) != OL_OK) return rc;
    if (ft <= f) return OL_OK;
    *gamma *= 0.5;
  }
  *gamma = 0;
  return OL_OK;
}

/* Away / pairwise step in weight space (see the header). */
static int fw_step_active (fw_state *s, ol_ctx *c, double f, ol_err *e)
{
  const ol_set *set = &c->p->set;
  int n = c->n, b, i, off, away = 0, rc, bmin = 0;
  double gap = 0, agap = 0, a = INFINITY, gmax, gamma, dg;
  /* (1) FW and away vertex per block from the weight-space gradient */
  fw_togw(set, s->g, s->gw, n);
  for (b = 0, off = 0; b < s->nb; off += s->bsize[b++]) {
    int k = s->bsize[b], lo = off, hi = -1;
    double dot = 0;
    for (i = off; i < off + k; i++) {
      dot += s->gw[i] * s->w[i];
      if (s->gw[i] < s->gw[lo]) lo = i;
      if (s->w[i] > 0 && (hi < 0 || s->gw[i] > s->gw[hi])) hi = i;
    }
    if (hi < 0) hi = lo;              /* cannot happen: weights sum to 1 */
    s->sv[b] = lo;
    s->av[b] = hi;
    gap += dot - s->gw[lo];
    agap += s->gw[hi] - dot;
    if (s->w[hi] < a) {
      a = s->w[hi];
      bmin = b;
    }
  }
  if (!(gap > 0)) {
    ol_ctx_converged(c, "Frank-Wolfe gap <g, x - s> = 0: x minimises the "
                     "linearisation over the set");
    return OL_OK;
  }
  /* (2) direction in weight space (into gw's place after use: d_w) and its
  ** step bound */
  if (s->variant == 1) {
    away = agap > gap;
    gmax = away ? (a < 1 ? a / (1 - a) : INFINITY) : 1;
    dg = away ? -agap : -gap;
  }
  else {
    gmax = a;
    dg = -(gap + agap);
  }
  for (i = 0; i < s->m; i++) s->gw[i] = 0;
  for (b = 0, off = 0; b < s->nb; off += s->bsize[b++]) {
    int k = s->bsize[b];
    if (s->variant == 2) {
      s->gw[s->sv[b]] += 1;
      s->gw[s->av[b]] -= 1;
    }
    else if (away) {
      for (i = off; i < off + k; i++) s->gw[i] = s->w[i];
      s->gw[s->av[b]] -= 1;
    }
    else {
      for (i = off; i < off + k; i++) s->gw[i] = -s->w[i];
      s->gw[s->sv[b]] += 1;
    }
  }
  /* d = A d_w (linear: A 1_b-combinations map vertices to vertices) */
  fw_tox(set, s->gw, s->d, n);
  /* (3) line search on [0, gmax], then the weights */
  if ((rc = fw_linesearch(s, c, f, dg, gmax, &gamma, e)) != OL_OK)
    return rc;
  for (i = 0; i < s->m; i++) {
    s->w[i] += gamma * s->gw[i];
    if (s->w[i] < 0) s->w[i] = 0;
  }
  if ((away || s->variant == 2) && gamma >= gmax)
    s->w[s->av[bmin]] = 0;    /* drop step: the away vertex leaves */
  /* (4) weights renormalised per block (rounding), then x = A w */
  for (b = 0, off = 0; b < s->nb; off += s->bsize[b++]) {
    double sum = 0;
    for (i = off; i < off + s->bsize[b]; i++) sum += s->w[i];
    for (i = off; i < off + s->bsize[b]; i++) s->w[i] /= sum;
  }
  fw_tox(set, s->w, c->x, n);
  return OL_OK;
}

static int fw_step (void *st, ol_ctx *c, ol_err *e)
{
  fw_state *s = st;
  const ol_set *set = &c->p->set;
  int n = c->n, rc;
  double f, gap, gamma;
  /* (1) value and gradient at x_t */
  if ((rc = ol_ctx_grad(c, c->x, &f, s->g, e)) != OL_OK) return rc;
  if (s->variant != 0) return fw_step_active(s, c, f, e);
  /* (2) the linear minimiser and the gap */
  if ((rc = ol_set_lmo(set, s->g, s->s, n, e)) != OL_OK) return rc;
  gap = ol_set_fwgap(set, c->x, s->g, n);
  if (!(gap > 0)) {
    ol_ctx_converged(c, "Frank-Wolfe gap <g, x - s> = 0: x minimises the "
                     "linearisation over the set");
    return OL_OK;
  }
  /* (3) step toward s */
  ol_vec_copy(s->s, s->d, n);
  ol_vec_axpy(-1, c->x, s->d, n);
  if ((rc = fw_linesearch(s, c, f, -gap, 1, &gamma, e)) != OL_OK) return rc;
  ol_vec_axpy(gamma, s->d, c->x, n);
  return OL_OK;
}

static void fw_fini (void *st)
{
  fw_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->s);
  ol_vec_free(s->d);
  ol_vec_free(s->xt);
  ol_vec_free(s->w);
  ol_vec_free(s->gw);
  free(s->bsize);
  memset(s, 0, sizeof *s);
}

const ol_method_type ol_optim_fw = {
  .name = "fw",
  .family = OL_OPTIM,
  .doc =
    "Frank-Wolfe: x <- x + gamma (s - x), s = argmin_{s in C} <grad f, s>; "
    "away or pairwise steps on polytopes",
  .ref = "Frank & Wolfe 1956; Jaggi 2013, Alg. 1; Guelat & Marcotte 1986; "
    "Lacoste-Julien & Jaggi 2015, Alg. 1-2",
  .params = fw_params,
  .nparams = (int)(sizeof fw_params / sizeof fw_params[0]),
  .size = sizeof(fw_state),
  .flags = OL_M_NEEDSET,
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = fw_init,
  .step = fw_step,
  .fini = fw_fini,
  .probes = OL_MSET_NONE,
};
