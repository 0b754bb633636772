/*
** core/optim/bilevel.c -- the value-function penalty method for bilevel
** problems (core/problems/bilevel.h: problem.ridgehyper).
**
** Kwon, Kwon, Wright & Nowak 2024, "On penalty methods for nonconvex
** bilevel optimization and first-order stochastic approximation" (ICLR):
** for min_x F(x) = f(x, y*(x)), y*(x) = argmin_y g(x, y), the penalty
**   psi_sigma(x) = (l(x, sigma) - l(x, 0)) / sigma,
**   l(x, sigma) = min_y h_sigma(x, y),  h_sigma = sigma f + g,
** is O(sigma)-close to F in values and derivatives, and its gradient needs
** first-order oracles only:
**   grad psi_sigma(x) = grad_x f(x, y_s) + (grad_x g(x, y_s)
**                       - grad_x g(x, y*)) / sigma,
** y_s = argmin h_sigma(x, .), y* = argmin g(x, .).  The method is their
** deterministic double loop with warm starts (the standard form; the
** paper's stochastic batches and step schedules are not needed for exact
** oracles): per step,
**   (1) K gradient steps on y for h_sigma:
**         y <- y - beta / (sigma L_f + L_g) grad_y h_sigma(x, y)
**   (2) K gradient steps on z for g:  z <- z - beta / L_g grad_y g(x, z)
**   (3) v = grad_x f(x, y) + (grad_x g(x, y) - grad_x g(x, z)) / sigma
**   (4) x <- x - lr_t v,   lr_t = lr * sched_t
** with L_f, L_g the problem's smoothness bounds in y at x (bilevel.h), y
** and z kept from step to step (y_0 = z_0 = the problem's lower start);
** K = 1 is the single-loop variant.  Every partial oracle call counts one
** gradient evaluation (3K + 3 per step; the exact hypergradient of
** hypergrad_err is not counted); the problem's gradient noise is
** not used (the partial oracles are exact), and like gd the method
** ignores a constraint set or l1 term put on the problem.
**
** hypergrad_err: |v - dF/dx| (2-norm) at the x where step (3) took v, with
** the problem's exact hypergradient (bilevel.h, hyper).  With exact inner
** solutions it is the penalty's own O(sigma) gap.
*/
#include <math.h>
#include <stdlib.h>

#include "method.h"
#include "problems/bilevel.h"
#include "vec.h"

typedef struct bilevel_state {
  const ol_bilevel *b;
  double sigma, lr, beta;
  long K;
  double *y, *z;    /* the two lower iterates (ny) */
  double *gy, *gf;  /* ny scratch: gradients in y */
  double *v;        /* nx: the hypergradient estimate */
  double *gx, *hx;  /* nx scratch: partial gradients in x */
  double err;       /* hypergrad_err of the last step (NAN before) */
} bilevel_state;

static const ol_param bilevel_params[] = {
  {"sigma", OL_P_REAL, 1e-2, OL_GT0, OL_FINITE,
   "penalty parameter (weight of f in sigma f + g)", NULL},
  {"lr", OL_P_REAL, 1e-2, 0, INFINITY, "upper step size", NULL},
  {"K", OL_P_INT, 20, 1, 1e9, "inner gradient steps per step (each level)",
   NULL},
  {"beta", OL_P_REAL, 1, OL_GT0, 1.9999999999999998,
   "inner step size in units of 1/L, in (0, 2)", NULL},
};

static int bilevel_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  bilevel_state *s = st;
  int ny;
  if ((s->b = ol_bilevel_of(c->p)) == NULL)
    return ol_err_set(e, OL_EINVAL, "bilevel needs a bilevel problem "
                      "(problem.ridgehyper); %s is not one", c->p->name);
  s->sigma = par[0];
  s->lr = par[1];
  s->K = (long)par[2];
  s->beta = par[3];
  s->err = NAN;
  ny = s->b->ny;
  if ((s->y = ol_vec_new(ny, e)) == NULL) return OL_ENOMEM;
  if ((s->z = ol_vec_new(ny, e)) == NULL) return OL_ENOMEM;
  if ((s->gy = ol_vec_new(ny, e)) == NULL) return OL_ENOMEM;
  if ((s->gf = ol_vec_new(ny, e)) == NULL) return OL_ENOMEM;
  if ((s->v = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->gx = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->hx = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  ol_vec_copy(s->b->y0, s->y, ny);
  ol_vec_copy(s->b->y0, s->z, ny);
  return OL_OK;
}

static int bilevel_step (void *st, ol_ctx *c, ol_err *e)
{
  bilevel_state *s = st;
  const ol_bilevel *b = s->b;
  int i, ny = b->ny, n = c->n, rc;
  long k;
  double lf, lg, sg = s->sigma, ay, az;
  b->smooth(b, c->x, &lf, &lg);
  ay = s->beta / (sg * lf + lg);
  az = s->beta / lg;
  /* (1) y toward argmin sigma f + g; K reaches 1e9, so Ctrl-C is looked
  ** at every inner step, each an oracle call whose cost is the problem's
  ** (the step is dropped, x unchanged) */
  for (k = 0; k < s->K; k++) {
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "bilevel: interrupted");
    if ((rc = b->upper(b, c->x, s->y, NULL, NULL, s->gf, e)) != OL_OK)
      return rc;
    if ((rc = b->lower(b, c->x, s->y, NULL, NULL, s->gy, e)) != OL_OK)
      return rc;
    for (i = 0; i < ny; i++) s->y[i] -= ay * (sg * s->gf[i] + s->gy[i]);
  }
  /* (2) z toward argmin g */
  for (k = 0; k < s->K; k++) {
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "bilevel: interrupted");
    if ((rc = b->lower(b, c->x, s->z, NULL, NULL, s->gy, e)) != OL_OK)
      return rc;
    for (i = 0; i < ny; i++) s->z[i] -= az * s->gy[i];
  }
  c->ngev += 3 * s->K;
  /* (3) v = grad_x f(x, y) + (grad_x g(x, y) - grad_x g(x, z)) / sigma */
  if ((rc = b->upper(b, c->x, s->y, NULL, s->v, NULL, e)) != OL_OK)
    return rc;
  if ((rc = b->lower(b, c->x, s->y, NULL, s->gx, NULL, e)) != OL_OK)
    return rc;
  if ((rc = b->lower(b, c->x, s->z, NULL, s->hx, NULL, e)) != OL_OK)
    return rc;
  c->ngev += 3;
  for (i = 0; i < n; i++) s->v[i] += (s->gx[i] - s->hx[i]) / sg;
  if (!ol_allfinite(s->v, n))
    return ol_err_set(e, OL_EDOM, "bilevel: non-finite hypergradient "
                      "estimate");
  /* (4) the error against the exact hypergradient, then the move */
  s->err = NAN;
  if (b->hyper != NULL &&
      b->hyper(b, c->x, NULL, s->hx, NULL) == OL_OK) {
    double d2 = 0;
    for (i = 0; i < n; i++) d2 += (s->v[i] - s->hx[i]) * (s->v[i] - s->hx[i]);
    s->err = sqrt(d2);
  }
  for (i = 0; i < n; i++) c->x[i] -= s->lr * c->sched * s->v[i];
  return OL_OK;
}

static void bilevel_fini (void *st)
{
  bilevel_state *s = st;
  ol_vec_free(s->y);
  ol_vec_free(s->z);
  ol_vec_free(s->gy);
  ol_vec_free(s->gf);
  ol_vec_free(s->v);
  ol_vec_free(s->gx);
  ol_vec_free(s->hx);
  s->y = s->z = s->gy = s->gf = s->v = s->gx = s->hx = NULL;
}

static double bilevel_probe (const void *st, int metric, const ol_ctx *c)
{
  const bilevel_state *s = st;
  (void)c;
  return metric == OL_MET_HYPERGRAD_ERR ? s->err : NAN;
}

const ol_method_type ol_optim_bilevel = {
  .name = "bilevel",
  .family = OL_OPTIM,
  .doc = "value-function penalty: x <- x - lr grad psi_sigma, inner loops on "
    "sigma f + g and g",
  .ref = "Kwon, Kwon, Wright & Nowak 2024 (ICLR)",
  .params = bilevel_params,
  .nparams = (int)(sizeof bilevel_params / sizeof bilevel_params[0]),
  .size = sizeof(bilevel_state),
  .flags = OL_M_BILEVEL,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = bilevel_init,
  .step = bilevel_step,
  .fini = bilevel_fini,
  .probe = bilevel_probe,
  .probes = OL_MSET(OL_MET_HYPERGRAD_ERR),
};
