/*
** core/problems/blogreg.c -- Bayesian logistic regression: the posterior
** of the weights on problem.logreg's synthetic data.
**
**   x ~ N(0, sigma^2 I),  P(y_i = +1 | x) = 1 / (1 + exp(-a_i'x))
**   U(x) = sum_i log(1 + exp(-y_i a_i'x)) + ||x||^2 / (2 sigma^2)
**        = N f_logreg(x)  with lambda = 1 / (N sigma^2)
**
** so the oracle is logreg's own (core/problems/logreg.c: the same data A,
** y for the same n, d and seed, and its overflow-free evaluation) scaled
** by N = n, and so is its Hessian N (A'DA / N + lambda I).  The posterior
** is log-concave with a unique mode; its moments have no closed form
** (mean, cov, x*, f* unknown).  x0 = 0.
*/
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"

typedef struct blogreg {
  ol_problem *lr;   /* the logreg objective (owned) */
  double N;         /* its number of samples */
} blogreg;

static void blogreg_free (void *ud)
{
  blogreg *B = ud;
  if (B == NULL) return;
  ol_problem_free(B->lr);
  free(B);
}

static int blogreg_fdf (void *ud, const double *x, double *f, double *g,
                        ol_err *e)
{
  const blogreg *B = ud;
  int i, rc, d = B->lr->n;
  rc = B->lr->fdf(B->lr->ud, x, f, g, e);
  if (rc != OL_OK) return rc;
  if (f != NULL) *f *= B->N;
  if (g != NULL)
    for (i = 0; i < d; i++) g[i] *= B->N;
  return OL_OK;
}

static int blogreg_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const blogreg *B = ud;
  int i, rc, d = B->lr->n;
  rc = B->lr->hess(B->lr->ud, x, H, e);
  if (rc != OL_OK) return rc;
  for (i = 0; i < d * d; i++) H[i] *= B->N;
  return OL_OK;
}

static const ol_param blogreg_params[] = {
  {"n", OL_P_INT, 200, 1, 1e8, "number of samples (as logreg)", NULL},
  {"d", OL_P_INT, 10, 1, 1e6, "number of features (problem dimension)",
   NULL},
  {"sigma", OL_P_REAL, 1, 1e-8, 1e8, "prior standard deviation of each "
   "weight", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the data (as "
   "logreg)", NULL},
};

static int blogreg_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  const ol_problem_type *t = ol_problem_type_find("logreg");
  double n = v[0].num, sigma = v[2].num;
  ol_pval lv[4];
  blogreg *B;
  if (t == NULL || t->nparams != 4)
    return ol_err_set(e, OL_EINVAL, "blogreg: no logreg problem type");
  if ((B = calloc(1, sizeof *B)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = B;
  p->free_ud = blogreg_free;
  /* logreg's parameters: n, d, lambda, seed */
  lv[0] = v[0];
  lv[1] = v[1];
  lv[2] = v[2];
  lv[2].num = 1 / (n * sigma * sigma);
  lv[3] = v[3];
  if ((B->lr = ol_problem_new(t, lv, e)) == NULL) return e->code;
  B->N = n;
  snprintf(p->name, sizeof p->name, "blogreg");
  p->kind = OL_DENSITY;
  p->n = B->lr->n;
  p->fdf = blogreg_fdf;
  p->hess = B->lr->hess != NULL ? blogreg_hess : NULL;
  if ((p->x0 = ol_problem_alloc(p->n, e)) == NULL) return OL_ENOMEM;
  snprintf(p->desc, sizeof p->desc, "blogreg{n=%.0f, d=%d, sigma=%g, "
           "seed=%.0f}", n, p->n, sigma, v[3].num);
  return OL_OK;
}

const ol_problem_type ol_problem_blogreg = {
  .name = "blogreg",
  .kind = OL_DENSITY,
  .doc = "Bayesian logistic regression on logreg's data, prior N(0, sigma^2 "
         "I)",
  .params = blogreg_params,
  .nparams = (int)(sizeof blogreg_params / sizeof blogreg_params[0]),
  .create = blogreg_create,
};
