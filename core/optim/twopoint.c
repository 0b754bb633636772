/*
** core/optim/twopoint.c -- the two-point gradient estimator on the sphere
** (Duchi, Jordan, Wainwright & Wibisono 2015, "Optimal Rates for
** Zero-Order Convex Optimization: The Power of Two Function Evaluations",
** the two-point estimator with directions uniform on the sphere;
** Nesterov & Spokoiny 2017, "Random Gradient-Free Minimization of
** Convex Functions").
**
**   g_t = n/(2 mu m) sum_{k=1}^{m} (f(x_t + mu u_k) - f(x_t - mu u_k)) u_k,
**         u_k uniform on the unit sphere S^{n-1} (a normalised N(0, I))
**   x_{t+1} = x_t - lr_t g_t,   lr_t = lr * sched_t
**
** m = 1 is the papers' estimator; m > 1 averages independent ones.  g_t
** is unbiased for the gradient of the ball smoothing f_mu(x) = E f(x + mu
** v), v uniform in the unit ball (Flaxman, Kalai & McMahan 2005, Lemma 1);
** on a quadratic f_mu = f + const, so unbiased for grad f, with per
** coordinate variance (n (||g||^2 + 2 g_i^2) / (n + 2) - g_i^2) / m.
** Function values only: 2m evaluations (nfev) per step.  State, init and
** fini are zo.h's.
*/
#include <math.h>

#include "method.h"
#include "vec.h"
#include "zo.h"

typedef ol_zo_state twopoint_state;

static const ol_param twopoint_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, OL_FINITE, "step size", NULL},
  {"mu", OL_P_REAL, 1e-2, OL_GT0, OL_FINITE,
   "smoothing radius of the two evaluation points", NULL},
  {"m", OL_P_INT, 1, 1, 1e6, "directions averaged per step (2m "
   "evaluations)", NULL},
};

static int twopoint_step (void *st, ol_ctx *c, ol_err *e)
{
  twopoint_state *s = st;
  int n = c->n, k, i, rc;
  double fp, fm, nu;
  ol_vec_set(s->g, 0, n);
  for (k = 0; k < s->m; k++) {
    /* m reaches 1e6 evaluations a step: Ctrl-C ends the run, this step
    ** dropped (x unchanged) */
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "twopoint: interrupted");
    /* (1) a direction uniform on the sphere: z / ||z||, z ~ N(0, I) */
    do {
      ol_rng_normals(c->rng, s->u, n);
      nu = ol_vec_nrm2(s->u, n);
    } while (nu == 0);
    ol_vec_scal(1 / nu, s->u, n);
    /* (2) the two values */
    for (i = 0; i < n; i++) s->xp[i] = c->x[i] + s->mu * s->u[i];
    if ((rc = ol_ctx_value(c, s->xp, &fp, e)) != OL_OK) return rc;
    for (i = 0; i < n; i++) s->xp[i] = c->x[i] - s->mu * s->u[i];
    if ((rc = ol_ctx_value(c, s->xp, &fm, e)) != OL_OK) return rc;
    ol_vec_axpy(fp - fm, s->u, s->g, n);
  }
  /* (3) move along n/(2 mu m) sum (f+ - f-) u */
  ol_vec_axpy(-s->lr * c->sched * n / (2 * s->mu * s->m), s->g, c->x, n);
  return OL_OK;
}

const ol_method_type ol_optim_twopoint = {
  .name = "twopoint",
  .family = OL_OPTIM,
  .doc = "two-point estimator on the sphere: x <- x - lr n/(2 mu) "
    "(f(x+mu u) - f(x-mu u)) u",
  .ref = "Duchi, Jordan, Wainwright & Wibisono 2015; Nesterov & Spokoiny 2017",
  .params = twopoint_params,
  .nparams = (int)(sizeof twopoint_params / sizeof twopoint_params[0]),
  .size = sizeof(twopoint_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = ol_zo_init,
  .step = twopoint_step,
  .fini = ol_zo_fini,
  .probes = OL_MSET_NONE,
};
