/*
** core/problems/logreg.c -- synthetic L2-regularised logistic regression.
**
**   f(x) = (1/n) sum_i log(1 + exp(-y_i a_i'x)) + lambda/2 ||x||^2
**   grad f(x) = -(1/n) A' (y .* sigma(-y .* Ax)) + lambda x
**   Hess f(x) = (1/n) A' D A + lambda I,  D = diag(s_i (1 - s_i)),
**               s = sigma(Ax)
**
** Data (seeded): A (n x d) iid N(0, 1), w_true ~ N(0, I/d), y_i = +1 with
** probability sigma(a_i'w_true), else -1.  The problem dimension is d.
** log(1 + exp(-m)) and sigma are evaluated on the branch that cannot
** overflow.  The oracle uses scratch kept in the problem (n doubles, and
** n x d for the Hessian), so a problem must not be evaluated from two
** threads at once (runs are single-threaded; see run.h).
** x0 = 0; x* and f* are unknown (NULL / NAN).
*/
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "sliced.h"

#define LOGREG_MAXDENSE 4096

typedef struct logreg {
  int n, d;
  double lambda;
  double *A;        /* n x d row-major (owned) */
  double *y;        /* n labels in {-1, +1} (owned) */
  double *z;        /* n scratch: margins, then weights */
  double *B;        /* n x d scratch for the Hessian, or NULL */
} logreg;

static void logreg_free (void *ud)
{
  logreg *L = ud;
  if (L == NULL) return;
  free(L->A);
  free(L->y);
  free(L->z);
  free(L->B);
  free(L);
}

/* log(1 + exp(-m)) without overflow. */
static double softplus_neg (double m)
{
  return m > 0 ? log1p(exp(-m)) : -m + log1p(exp(m));
}

/* sigma(-m) = 1 / (1 + exp(m)) without overflow. */
static double sigmoid_neg (double m)
{
  if (m >= 0) {
    double t = exp(-m);
    return t / (1 + t);
  }
  return 1 / (1 + exp(m));
}

static int logreg_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  const logreg *L = ud;
  int i, n = L->n, d = L->d;
  double s = 0;
  (void)e;
  /* (1) margins z = A x */
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, L->A, d, x, 1,
              0.0, L->z, 1);
  /* (2) loss, and z_i <- -y_i sigma(-y_i a_i'x) / n for the gradient */
  for (i = 0; i < n; i++) {
    double m = L->y[i] * L->z[i];
    if (f != NULL) s += softplus_neg(m);
    L->z[i] = -L->y[i] * sigmoid_neg(m) / n;
  }
  if (f != NULL)
    *f = s / n + 0.5 * L->lambda * cblas_ddot(d, x, 1, x, 1);
  /* (3) g = A' z + lambda x */
  if (g != NULL) {
    cblas_dcopy(d, x, 1, g, 1);
    cblas_dgemv(CblasRowMajor, CblasTrans, n, d, 1.0, L->A, d, L->z, 1,
                L->lambda, g, 1);
  }
  return OL_OK;
}

static int logreg_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const logreg *L = ud;
  int i, j, n = L->n, d = L->d;
  (void)e;
  /* (1) B = diag(sqrt(s_i (1 - s_i) / n)) A */
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, L->A, d, x, 1,
              0.0, L->z, 1);
  for (i = 0; i < n; i++) {
    double si = sigmoid_neg(-L->z[i]);
    double w = sqrt(si * (1 - si) / n);
    const double *a = L->A + (size_t)i * d;
    double *b = L->B + (size_t)i * d;
    for (j = 0; j < d; j++) b[j] = w * a[j];
  }
  /* (2) H = B'B + lambda I, upper triangle by dsyrk, then mirrored */
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, d, n, 1.0, L->B, d,
              0.0, H, d);
  for (i = 0; i < d; i++) {
    H[(size_t)i * d + i] += L->lambda;
    for (j = 0; j < i; j++) H[(size_t)i * d + j] = H[(size_t)j * d + i];
  }
  return OL_OK;
}

static const ol_param logreg_params[] = {
  {"n", OL_P_INT, 200, 1, 1e8, "number of samples", NULL},
  {"d", OL_P_INT, 10, 1, 1e6, "number of features (problem dimension)",
   NULL},
  {"lambda", OL_P_REAL, 1e-3, 0, 1e6, "L2 regularisation weight", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the data", NULL},
};

static int logreg_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int i, j, rc, n = (int)v[0].num, d = (int)v[1].num;
  size_t nd = (size_t)n * d;
  double *w;
  ol_rng rng;
  logreg *L;
  if ((double)n * d > 1e9)
    return ol_err_set(e, OL_EINVAL, "logreg needs n*d <= 1e9");
  if ((L = calloc(1, sizeof *L)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = L;
  p->free_ud = logreg_free;
  L->n = n;
  L->d = d;
  L->lambda = v[2].num;
  L->A = malloc(sizeof(double) * nd);
  L->y = malloc(sizeof(double) * (size_t)n);
  L->z = malloc(sizeof(double) * (size_t)n);
  if (d <= LOGREG_MAXDENSE) L->B = malloc(sizeof(double) * nd);
  if (L->A == NULL || L->y == NULL || L->z == NULL
      || (d <= LOGREG_MAXDENSE && L->B == NULL))
    return ol_err_set(e, OL_ENOMEM, "logreg: out of memory for the data");
  if ((p->x0 = ol_problem_alloc(d, e)) == NULL) return OL_ENOMEM;
  /* (1) data: A, then w_true (kept in x0 for the moment), then labels */
  ol_rng_seed(&rng, (uint64_t)v[3].num, 0);
  /* (the rows in turn, in pieces that look at Ctrl-C: n d reaches 1e9) */
  if ((rc = ol_sl_normals(&rng, L->A, nd, "logreg", e)) != OL_OK) return rc;
  w = p->x0;
  ol_rng_normals(&rng, w, d);
  for (j = 0; j < d; j++) w[j] /= sqrt((double)d);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, L->A, d, w, 1,
              0.0, L->z, 1);
  for (i = 0; i < n; i++)
    L->y[i] = ol_rng_uniform(&rng) < sigmoid_neg(-L->z[i]) ? 1.0 : -1.0;
  for (j = 0; j < d; j++) w[j] = 0;
  snprintf(p->name, sizeof p->name, "logreg");
  p->kind = OL_OBJECTIVE;
  p->n = d;
  p->fdf = logreg_fdf;
  p->hess = L->B != NULL ? logreg_hess : NULL;
  snprintf(p->desc, sizeof p->desc, "logreg{n=%d, d=%d, lambda=%g, seed=%.0f}",
           n, d, L->lambda, v[3].num);
  return OL_OK;
}

const ol_problem_type ol_problem_logreg = {
  .name = "logreg",
  .kind = OL_OBJECTIVE,
  .doc = "synthetic L2-regularised logistic regression (n samples, d "
         "features)",
  .params = logreg_params,
  .nparams = (int)(sizeof logreg_params / sizeof logreg_params[0]),
  .create = logreg_create,
};
