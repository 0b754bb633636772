/*
** core/sample/sgld.c -- stochastic gradient Langevin dynamics (Welling &
** Teh 2011, ICML, eq. 4 with the step sizes of section 3) on finite sums.
**
** Target p(x) ~ exp(-U(x)) with U = f = (1/N) sum_i f_i, the problem's own
** value (a posterior sum_i l_i(x) - log p0(x) is the finite sum with
** f_i = N l_i - log p0).  With a minibatch B_t of b components drawn
** uniformly with replacement, xi ~ N(0, I) and
**
**   eps_t = sched_t * a (b0 + t)^(-gamma)      (t = steps before this one)
**   ghat  = (1/b) sum_{i in B_t} grad f_i(x)    (unbiased for grad U)
**   x <- x - eps_t / 2 ghat + sqrt(eps_t) xi
**
** Welling & Teh take gamma in (0.5, 1] so that sum eps_t = inf and
** sum eps_t^2 < inf; gamma = 0 gives the constant-step variant, whose
** stationary law is biased by the discretisation and by the minibatch
** noise (for a quadratic f_i = 1/2 (x - a_i)'A(x - a_i): covariance S
** solving S = B S B' + eps I + eps^2/4 A C A / b, B = I - eps/2 A, C the
** covariance of the a_i; see tests/c/t_samplers.c).  batch = 0 uses the
** problem's own gradient (ol_ctx_grad: full, or its noise model, e.g. a
** minibatch by random reshuffling).  No accept/reject; no value is
** evaluated, so the run evaluates at x itself when it records.
**
** Cost: b component gradients per step (ol_ctx_gradi, each counted in
** ngev), or one gradient with batch = 0.  Probe: lrmin = lrmed = lrmax =
** eps_t / 2, the drift's coefficient on the gradient.
*/
#include <math.h>

#include "method.h"
#include "stats.h"
#include "vec.h"

typedef struct sgld_state {
  ol_sampler_head h;    /* first (stats.h) */
  double a, b0, gamma;
  long batch;
  double *g, *gi, *xi;
} sgld_state;

static const ol_param sgld_params[] = {
  {"a", OL_P_REAL, 0.01, OL_GT0, OL_FINITE,
   "step size scale: eps_t = a (b + t)^-gamma", NULL},
  {"b", OL_P_REAL, 1, OL_GT0, OL_FINITE, "step size offset (> 0)", NULL},
  {"gamma", OL_P_REAL, 0.55, 0, 1,
   "step size decay, (0.5, 1] in Welling & Teh; 0: constant", NULL},
  {"batch", OL_P_INT, 10, 0, 1e9,
   "minibatch size (with replacement); 0: the problem's gradient", NULL},
};

static int sgld_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  sgld_state *s = st;
  int n = c->n;
  s->a = par[0];
  s->b0 = par[1];
  s->gamma = par[2];
  s->batch = (long)par[3];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((s->g = ol_vec_new(n, e)) == NULL
      || (s->gi = ol_vec_new(n, e)) == NULL
      || (s->xi = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int sgld_step (void *st, ol_ctx *c, ol_err *e)
{
  sgld_state *s = st;
  double eps = c->sched * s->a * pow(s->b0 + (double)s->h.stat.iter,
                                     -s->gamma);
  double hd = 0.5 * eps, sq = sqrt(eps), *x = c->x;
  int i, n = c->n, rc;
  long k;
  /* (1) the minibatch gradient */
  if (s->batch == 0) {
    if ((rc = ol_ctx_grad(c, x, NULL, s->g, e)) != OL_OK) return rc;
  }
  else {
    ol_vec_set(s->g, 0, n);
    for (k = 0; k < s->batch; k++) {
      long j;
      if ((k & 0xffff) == 0xffff && ol_interrupted())   /* batch to 1e9 */
        return ol_err_set(e, OL_EINTR, "sgld: interrupted in a minibatch");
      j = ol_rng_below(c->rng, c->p->nsum);
      if ((rc = ol_ctx_gradi(c, j, x, NULL, s->gi, e)) != OL_OK) return rc;
      ol_vec_axpy(1, s->gi, s->g, n);
    }
    ol_vec_scal(1 / (double)s->batch, s->g, n);
  }
  /* (2) drift and injected noise */
  ol_rng_normals(c->rng, s->xi, n);
  for (i = 0; i < n; i++) x[i] += -hd * s->g[i] + sq * s->xi[i];
  c->accepted++;
  s->h.stat.stepsize = eps;
  ol_sampler_count(&s->h);
  return OL_OK;
}

static void sgld_fini (void *st)
{
  sgld_state *s = st;
  ol_vec_free(s->g);
  ol_vec_free(s->gi);
  ol_vec_free(s->xi);
  s->g = s->gi = s->xi = NULL;
}

static double sgld_probe (const void *st, int metric, const ol_ctx *c)
{
  const sgld_state *s = st;
  (void)c;
  if (s->h.stat.iter == 0) return NAN;
  switch (metric) {
  case OL_MET_LRMIN: case OL_MET_LRMED: case OL_MET_LRMAX:
    return 0.5 * s->h.stat.stepsize;
  default:
    return NAN;
  }
}

const ol_method_type ol_sample_sgld = {
  .name = "sgld",
  .family = OL_SAMPLER,
  .doc = "stochastic gradient Langevin dynamics on a finite sum (minibatches)",
  .ref = "Welling & Teh 2011 (eq. 4)",
  .params = sgld_params,
  .nparams = (int)(sizeof sgld_params / sizeof sgld_params[0]),
  .size = sizeof(sgld_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE),
  .init = sgld_init,
  .step = sgld_step,
  .fini = sgld_fini,
  .probe = sgld_probe,
  .stats = ol_sampler_head_of,
  .probes = OL_PROBES_LR,
};
