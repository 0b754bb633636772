/*
** core/optim/es.c -- antithetic evolution strategies (Salimans, Ho, Chen,
** Sidor & Sutskever 2017, "Evolution Strategies as a Scalable Alternative
** to Reinforcement Learning", Algorithm 1 with mirrored sampling).
**
**   g_t = 1/(2 sigma m) sum_{k=1}^{m} (f(x_t + sigma u_k)
**                                      - f(x_t - sigma u_k)) u_k,
**         u_k ~ N(0, I) from the run's generator
**   x_{t+1} = x_t - lr_t g_t,   lr_t = lr * sched_t
**
** g_t is an unbiased estimate of the gradient of the Gaussian smoothing
** f_sigma(x) = E f(x + sigma u) (Nesterov & Spokoiny 2017); on a
** quadratic f_sigma = f + sigma^2/2 tr(A), so it is unbiased for grad f,
** with covariance (g g' + ||g||^2 I) / m.  Salimans et al. ascend a
** reward; this descends f.  Function values only: 2m evaluations (nfev)
** per step, no gradient calls.  State, init and fini are zo.h's.
*/
#include <math.h>

#include "method.h"
#include "vec.h"
#include "zo.h"

typedef ol_zo_state es_state;   /* sigma kept as its mu */

static const ol_param es_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, OL_FINITE, "step size", NULL},
  {"sigma", OL_P_REAL, 1e-2, OL_GT0, OL_FINITE,
   "smoothing scale of the perturbations", NULL},
  {"m", OL_P_INT, 4, 1, 1e6, "antithetic pairs per step (2m evaluations)",
   NULL},
};

static int es_step (void *st, ol_ctx *c, ol_err *e)
{
  es_state *s = st;
  int n = c->n, k, i, rc;
  double fp, fm, sigma = s->mu;
  ol_vec_set(s->g, 0, n);
  for (k = 0; k < s->m; k++) {
    /* m reaches 1e6 evaluations a step: Ctrl-C ends the run, this step
    ** dropped (x unchanged) */
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "es: interrupted");
    /* (1) a Gaussian direction and the mirrored pair of values */
    ol_rng_normals(c->rng, s->u, n);
    for (i = 0; i < n; i++) s->xp[i] = c->x[i] + sigma * s->u[i];
    if ((rc = ol_ctx_value(c, s->xp, &fp, e)) != OL_OK) return rc;
    for (i = 0; i < n; i++) s->xp[i] = c->x[i] - sigma * s->u[i];
    if ((rc = ol_ctx_value(c, s->xp, &fm, e)) != OL_OK) return rc;
    /* (2) accumulate (f+ - f-) u */
    ol_vec_axpy(fp - fm, s->u, s->g, n);
  }
  /* (3) move along the estimate 1/(2 sigma m) sum (f+ - f-) u */
  ol_vec_axpy(-s->lr * c->sched / (2 * sigma * s->m), s->g, c->x, n);
  return OL_OK;
}

const ol_method_type ol_optim_es = {
  .name = "es",
  .family = OL_OPTIM,
  .doc = "antithetic evolution strategies: x <- x - lr/(2 sigma m) "
    "sum (f(x+sigma u) - f(x-sigma u)) u",
  .ref = "Salimans, Ho, Chen, Sidor & Sutskever 2017",
  .params = es_params,
  .nparams = (int)(sizeof es_params / sizeof es_params[0]),
  .size = sizeof(es_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = ol_zo_init,
  .step = es_step,
  .fini = ol_zo_fini,
  .probes = OL_MSET_NONE,
};
