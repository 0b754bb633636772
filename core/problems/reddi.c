/*
** core/problems/reddi.c -- the online counterexample on which Adam fails
** to converge (Reddi, Kale & Kumar 2018, "On the Convergence of Adam and
** Beyond", ICLR, Section 3), as a cyclic finite sum.
**
**   f_t(x) = C x  if t mod 3 == 1,  -x otherwise,  x in [-1, 1],  C > 2
**
** With the paper's t = 1, 2, 3, ... and the components i = 0, 1, 2 drawn
** in cyclic order 0, 1, 2, 0, ... (step t uses i = (t - 1) mod 3), the
** C x step comes first, as in the paper:
**
**   f_0(x) = C x,  f_1(x) = f_2(x) = -x
**   f(x) = (1/3) sum_i f_i(x) = (C - 2) x / 3,  grad f = (C - 2) / 3
**
** x* = -1, f* = -(C - 2)/3 (a box-constrained optimum: the gradient does
** not vanish there).  x0 = 1, the start used in the proof of the paper's
** Theorem 1 (any start can be translated there).  Default noise: batch 1,
** OL_ORDER_CYCLIC; with beta1 = 0, beta2 = 1/(1 + C^2) and lr / sqrt(t),
** Adam keeps returning to x = +1 (Theorem 1); AMSGrad reaches -1.
** Hessian: 0.
*/
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

static int reddi_fdf (void *ud, const double *x, double *f, double *g,
                      ol_err *e)
{
  double C = *(const double *)ud;
  (void)e;
  if (f != NULL) *f = (C - 2) * x[0] / 3;
  if (g != NULL) g[0] = (C - 2) / 3;
  return OL_OK;
}

static int reddi_fdfi (void *ud, long i, const double *x, double *f,
                       double *g, ol_err *e)
{
  double a = i == 0 ? *(const double *)ud : -1.0;
  (void)e;
  if (f != NULL) *f = a * x[0];
  if (g != NULL) g[0] = a;
  return OL_OK;
}

static int reddi_hess (void *ud, const double *x, double *H, ol_err *e)
{
  (void)ud; (void)x; (void)e;
  H[0] = 0;
  return OL_OK;
}

/* C > 2: the open lower bound is the double just above 2. */
static const ol_param reddi_params[] = {
  {"C", OL_P_REAL, 3, 2 + 0x1p-51, 1e6,
   "weight of the rare large gradient (C > 2)", NULL},
};

static int reddi_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  double *C = malloc(sizeof *C);
  if (C == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  *C = v[0].num;
  p->ud = C;
  p->free_ud = free;
  snprintf(p->name, sizeof p->name, "reddi");
  p->kind = OL_OBJECTIVE;
  p->n = 1;
  p->fdf = reddi_fdf;
  p->hess = reddi_hess;
  p->nsum = 3;
  p->fdfi = reddi_fdfi;
  if ((p->x0 = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  if ((p->set.lo = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  if ((p->set.hi = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  p->set.kind = OL_SET_BOX;
  p->set.lo[0] = -1;
  p->set.hi[0] = 1;
  p->x0[0] = 1;
  p->xstar[0] = -1;
  p->fstar = -(*C - 2) / 3;
  p->noise.kind = OL_NOISE_BATCH;
  p->noise.batch = 1;
  p->noise.order = OL_ORDER_CYCLIC;
  snprintf(p->desc, sizeof p->desc, "reddi{C=%g} (f_t = Cx, -x, -x on "
           "[-1, 1])", *C);
  return OL_OK;
}

const ol_problem_type ol_problem_reddi = {
  .name = "reddi",
  .kind = OL_OBJECTIVE,
  .doc = "online Cx, -x, -x on [-1, 1] (cyclic), where Adam fails; x* = -1",
  .ref = "Reddi, Kale & Kumar 2018 (ICLR), Section 3",
  .params = reddi_params,
  .nparams = (int)(sizeof reddi_params / sizeof reddi_params[0]),
  .create = reddi_create,
};
