/*
** core/optim/gsmooth.c -- random gradient-free descent by Gaussian
** smoothing with forward differences (Nesterov & Spokoiny 2017, "Random
** Gradient-Free Minimization of Convex Functions", Found. Comput. Math.
** 17: the random gradient-free oracle g_mu and its method RS_mu).
**
**   g_t = 1/(mu m) sum_{k=1}^{m} (f(x_t + mu u_k) - f(x_t)) u_k,
**         u_k ~ N(0, I)
**   x_{t+1} = x_t - lr_t g_t,   lr_t = lr * sched_t
**
** E g_t = grad f_mu(x_t), f_mu(x) = E f(x + mu u) the Gaussian smoothing
** of their paper; on a quadratic f_mu = f + mu^2/2 tr(A) and the forward
** difference's extra term mu/2 (u'Au) u has mean 0, so g_t is unbiased
** for grad f.  That term does not vanish at x*, so a constant step stalls
** at a loss floor of order mu^2 (1e-10 to 1e-8 with mu = 1e-4 on a 4-D
** quadratic, tests/c/t_zo.c).  Their step for smooth convex f is
** lr = 1/(4 (n + 4) L).
** Function values only: m + 1 evaluations (nfev) per step, f(x_t) once
** (from the run's cache when it holds it).  State, init and fini are
** zo.h's.
*/
#include <math.h>

#include "method.h"
#include "vec.h"
#include "zo.h"

typedef ol_zo_state gsmooth_state;

static const ol_param gsmooth_params[] = {
  {"lr", OL_P_REAL, 1e-3, 0, OL_FINITE, "step size", NULL},
  {"mu", OL_P_REAL, 1e-4, OL_GT0, OL_FINITE,
   "smoothing scale (forward-difference step)", NULL},
  {"m", OL_P_INT, 1, 1, 1e6, "directions averaged per step (m + 1 "
   "evaluations)", NULL},
};

static int gsmooth_step (void *st, ol_ctx *c, ol_err *e)
{
  gsmooth_state *s = st;
  int n = c->n, k, i, rc;
  double f0, fp;
  /* (1) f(x_t), shared by the m differences */
  if ((rc = ol_ctx_value(c, c->x, &f0, e)) != OL_OK) return rc;
  ol_vec_set(s->g, 0, n);
  for (k = 0; k < s->m; k++) {
    /* m reaches 1e6 evaluations a step: Ctrl-C ends the run, this step
    ** dropped (x unchanged) */
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "gsmooth: interrupted");
    /* (2) a Gaussian direction and its forward difference */
    ol_rng_normals(c->rng, s->u, n);
    for (i = 0; i < n; i++) s->xp[i] = c->x[i] + s->mu * s->u[i];
    if ((rc = ol_ctx_value(c, s->xp, &fp, e)) != OL_OK) return rc;
    ol_vec_axpy(fp - f0, s->u, s->g, n);
  }
  /* (3) move along 1/(mu m) sum (f(x + mu u) - f(x)) u */
  ol_vec_axpy(-s->lr * c->sched / (s->mu * s->m), s->g, c->x, n);
  return OL_OK;
}

const ol_method_type ol_optim_gsmooth = {
  .name = "gsmooth",
  .family = OL_OPTIM,
  .doc = "Gaussian smoothing, forward differences: "
    "x <- x - lr/mu (f(x+mu u) - f(x)) u",
  .ref = "Nesterov & Spokoiny 2017",
  .params = gsmooth_params,
  .nparams = (int)(sizeof gsmooth_params / sizeof gsmooth_params[0]),
  .size = sizeof(gsmooth_state),
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = ol_zo_init,
  .step = gsmooth_step,
  .fini = ol_zo_fini,
  .probes = OL_MSET_NONE,
};
