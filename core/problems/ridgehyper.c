/*
** core/problems/ridgehyper.c -- the ridge-regression hyperparameter
** problem: a bilevel toy with its exact hypergradient in closed form
** (the seeds catalog's T15(a); a bilevel problem, core/problems/bilevel.h).
**
**   upper   f(w)    = 1/2 ||V w - v||^2              (validation loss)
**   lower   g(x, w) = 1/2 ||X w - y||^2 + lambda/2 ||w||^2,  lambda = e^x
**   F(x)    = f(w*(x)),  w*(x) = (X'X + lambda I)^-1 X'y
**
** The upper variable is x = log lambda (n = 1), the lower one the weights
** w (d).  Implicit differentiation of (X'X + lambda I) w* = X'y gives
**   d w* / d lambda = -(X'X + lambda I)^-1 w*,
**   dF/dx = lambda dF/dlambda = -lambda (V'(V w* - v))' (X'X + lambda I)^-1 w*
** (one Cholesky factorisation, dpotrf, and two solves).
**
** sigma > 0 makes the objective the value-function penalty instead (Kwon,
** Kwon, Wright & Nowak 2024, "On penalty methods for nonconvex bilevel
** optimization and first-order stochastic approximation", ICLR):
**   psi_sigma(x) = (l(x, sigma) - l(x, 0)) / sigma,
**   l(x, sigma) = min_w sigma f(w) + g(x, w),  so
**   psi_sigma(x) = f(w_s) + (g(x, w_s) - g(x, w*)) / sigma,
**   w_s = (sigma V'V + X'X + lambda I)^-1 (sigma V'v + X'y),
**   dpsi_sigma/dx = (lambda/2) (||w_s||^2 - ||w*||^2) / sigma
** (Danskin: the partial x-derivatives at the two minimisers), which they
** show O(sigma)-close to F and dF/dx in values and derivatives; sigma = 0
** is F itself.  The partial oracles and the exact F, dF/dx (hyper) are
** those of the bilevel problem whatever sigma is.
**
** Data (seeded): X (n x d) and V (m x d) iid N(0, 1), w_true ~ N(0, I_d /
** d), y = X w_true + sd e, v = V w_true + sd e'.  x0 = 0 (lambda = 1).  x*
** and f* are the minimiser of the objective found on the grid x = -12,
** -11.75, .., 12 and refined by bisection on its derivative, or unknown
** when the grid's minimum lies on its end.  The oracle keeps scratch in
** the problem: not for two threads at once.  d <= 1024.
*/
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "bilevel.h"
#include "rng.h"
#include "sliced.h"

#define RH_MAXD 1024
#define RH_XLO -12.0      /* the grid of the search for x* */
#define RH_XHI 12.0
#define RH_XSTEP 0.25

typedef struct ridgehyper {
  ol_bilevel b;     /* first: the bilevel structure */
  int n, m, d;
  double sigma;     /* 0: F; > 0: the penalty psi_sigma */
  double *X, *y;    /* n x d row-major, n (owned) */
  double *V, *v;    /* m x d row-major, m (owned) */
  double *A, *Av;   /* X'X and V'V, d x d (owned) */
  double *b0, *bv;  /* X'y and V'v, d (owned) */
  double la, lav;   /* largest eigenvalues of X'X and V'V */
  double *M;        /* d x d scratch: a factored system matrix */
  double *w, *ws, *u, *r;   /* d, d, d and max(n, m) scratch */
  double *y0;       /* d zeros: the lower start (owned) */
} ridgehyper;

static void rh_free (void *ud)
{
  ridgehyper *R = ud;
  if (R == NULL) return;
  free(R->X);
  free(R->y);
  free(R->V);
  free(R->v);
  free(R->A);
  free(R->Av);
  free(R->b0);
  free(R->bv);
  free(R->M);
  free(R->w);
  free(R->ws);
  free(R->u);
  free(R->r);
  free(R->y0);
  free(R);
}

/* lambda = e^x, refused when it is not a positive finite number. */
static int rh_lambda (double x, double *lam, ol_err *e)
{
  *lam = exp(x);
  if (!(*lam > 0) || !isfinite(*lam))
    return ol_err_set(e, OL_EDOM, "ridgehyper: lambda = exp(%g) is not a "
                      "positive finite number", x);
  return OL_OK;
}

/* Factor M = a V'V + X'X + lambda I (Cholesky, lower) and solve
** M w = a V'v + X'y into w.  OL_ENUMERIC when M is not positive
** definite in floating point. */
static int rh_solve (ridgehyper *R, double a, double lam, double *w,
                     ol_err *e)
{
  int i, j, d = R->d;
  lapack_int info;
  for (i = 0; i < d; i++) {
    for (j = 0; j < d; j++)
      R->M[(size_t)i * d + j] = R->A[(size_t)i * d + j]
                                + a * R->Av[(size_t)i * d + j];
    R->M[(size_t)i * d + i] += lam;
    w[i] = R->b0[i] + a * R->bv[i];
  }
  info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', d, R->M, d);
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "ridgehyper: the lower-level system "
                      "is not positive definite at lambda = %g (dpotrf "
                      "info %d)", lam, (int)info);
  LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'L', d, 1, R->M, d, w, 1);
  return OL_OK;
}

/* f(w) = 1/2 ||V w - v||^2, and V'(V w - v) into gw when not NULL. */
static double rh_f (ridgehyper *R, const double *w, double *gw)
{
  int m = R->m, d = R->d;
  cblas_dcopy(m, R->v, 1, R->r, 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, m, d, 1.0, R->V, d, w, 1, -1.0,
              R->r, 1);
  if (gw != NULL)
    cblas_dgemv(CblasRowMajor, CblasTrans, m, d, 1.0, R->V, d, R->r, 1, 0.0,
                gw, 1);
  return 0.5 * cblas_ddot(m, R->r, 1, R->r, 1);
}

/* g(x, w) with lambda = lam; X'(X w - y) + lam w into gw when not NULL. */
static double rh_g (ridgehyper *R, double lam, const double *w, double *gw)
{
  int n = R->n, d = R->d;
  double ww = cblas_ddot(d, w, 1, w, 1);
  cblas_dcopy(n, R->y, 1, R->r, 1);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, R->X, d, w, 1, -1.0,
              R->r, 1);
  if (gw != NULL) {
    cblas_dgemv(CblasRowMajor, CblasTrans, n, d, 1.0, R->X, d, R->r, 1, 0.0,
                gw, 1);
    cblas_daxpy(d, lam, w, 1, gw, 1);
  }
  return 0.5 * cblas_ddot(n, R->r, 1, R->r, 1) + 0.5 * lam * ww;
}

/* The exact F(x) and dF/dx (the header's implicit differentiation). */
static int rh_hyper (const ol_bilevel *b, const double *x, double *F,
                     double *dF, ol_err *e)
{
  ridgehyper *R = (ridgehyper *)b;
  double lam, fv;
  int rc;
  if ((rc = rh_lambda(x[0], &lam, e)) != OL_OK) return rc;
  /* (1) w* and the factor of X'X + lambda I */
  if ((rc = rh_solve(R, 0.0, lam, R->w, e)) != OL_OK) return rc;
  /* (2) F = f(w*), u = grad f(w*) */
  fv = rh_f(R, R->w, R->u);
  if (F != NULL) *F = fv;
  /* (3) dF/dx = -lambda u' (X'X + lambda I)^-1 w* */
  if (dF != NULL) {
    LAPACKE_dpotrs(LAPACK_ROW_MAJOR, 'L', R->d, 1, R->M, R->d, R->u, 1);
    dF[0] = -lam * cblas_ddot(R->d, R->u, 1, R->w, 1);
  }
  return OL_OK;
}

/* The penalty psi_sigma(x) and its derivative (the header's closed form). */
static int rh_penalty (ridgehyper *R, double x, double *f, double *g,
                       ol_err *e)
{
  double lam, s = R->sigma, gs, gst;
  int d = R->d, rc;
  if ((rc = rh_lambda(x, &lam, e)) != OL_OK) return rc;
  /* (1) the two minimisers: w* of g, w_s of sigma f + g */
  if ((rc = rh_solve(R, 0.0, lam, R->w, e)) != OL_OK) return rc;
  if ((rc = rh_solve(R, s, lam, R->ws, e)) != OL_OK) return rc;
  /* (2) psi = f(w_s) + (g(w_s) - g(w*)) / sigma */
  gs = rh_g(R, lam, R->ws, NULL);
  gst = rh_g(R, lam, R->w, NULL);
  if (f != NULL) *f = rh_f(R, R->ws, NULL) + (gs - gst) / s;
  /* (3) dpsi/dx = lambda/2 (||w_s||^2 - ||w*||^2) / sigma */
  if (g != NULL)
    g[0] = 0.5 * lam * (cblas_ddot(d, R->ws, 1, R->ws, 1)
                        - cblas_ddot(d, R->w, 1, R->w, 1)) / s;
  return OL_OK;
}

static int rh_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  ridgehyper *R = ud;
  if (R->sigma > 0) return rh_penalty(R, x[0], f, g, e);
  return rh_hyper(&R->b, x, f, g, e);
}

static int rh_upper (const ol_bilevel *b, const double *x, const double *w,
                     double *v, double *gx, double *gw, ol_err *e)
{
  ridgehyper *R = (ridgehyper *)b;
  double fv = rh_f(R, w, gw);
  (void)x; (void)e;
  if (v != NULL) *v = fv;
  if (gx != NULL) gx[0] = 0.0;
  return OL_OK;
}

static int rh_lower (const ol_bilevel *b, const double *x, const double *w,
                     double *v, double *gx, double *gw, ol_err *e)
{
  ridgehyper *R = (ridgehyper *)b;
  double lam, gv;
  int rc;
  if ((rc = rh_lambda(x[0], &lam, e)) != OL_OK) return rc;
  gv = rh_g(R, lam, w, gw);
  if (v != NULL) *v = gv;
  /* dg/dx = dg/dlambda dlambda/dx = lambda/2 ||w||^2 */
  if (gx != NULL) gx[0] = 0.5 * lam * cblas_ddot(R->d, w, 1, w, 1);
  return OL_OK;
}

static void rh_smooth (const ol_bilevel *b, const double *x, double *lf,
                       double *lg)
{
  const ridgehyper *R = (const ridgehyper *)b;
  *lf = R->lav;
  *lg = R->la + exp(x[0]);
}

/* Largest eigenvalue of the symmetric d x d S (dsyev on a copy in M). */
static int rh_maxeig (ridgehyper *R, const double *S, double *lmax,
                      ol_err *e)
{
  int d = R->d;
  lapack_int info;
  memcpy(R->M, S, sizeof(double) * (size_t)d * d);
  info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', d, R->M, d, R->u);
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "ridgehyper: dsyev info %d",
                      (int)info);
  *lmax = fmax(R->u[d - 1], 0.0);
  return OL_OK;
}

/* The data of the header, the Gram matrices and their top eigenvalues. */
static int rh_data (ridgehyper *R, double sd, uint64_t seed, ol_err *e)
{
  int n = R->n, m = R->m, d = R->d, rc;
  ol_rng rng;
  ol_rng_seed(&rng, seed, 0);
  /* (1) w_true ~ N(0, I/d) (kept in ws until the end) */
  ol_rng_normals(&rng, R->ws, d);
  cblas_dscal(d, 1.0 / sqrt((double)d), R->ws, 1);
  /* (2) X, y = X w_true + sd e; V, v likewise */
  /* n d and m d reach 10^9: Ctrl-C is looked at between slices (the same
  ** draws) */
  if ((rc = ol_sl_normals(&rng, R->X, (size_t)n * d, "ridgehyper", e))
      != OL_OK)
    return rc;
  ol_rng_normals(&rng, R->y, n);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, d, 1.0, R->X, d, R->ws, 1, sd,
              R->y, 1);
  if ((rc = ol_sl_normals(&rng, R->V, (size_t)m * d, "ridgehyper", e))
      != OL_OK)
    return rc;
  ol_rng_normals(&rng, R->v, m);
  cblas_dgemv(CblasRowMajor, CblasNoTrans, m, d, 1.0, R->V, d, R->ws, 1, sd,
              R->v, 1);
  /* (3) X'X, V'V (both triangles), X'y, V'v */
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, d, d, n, 1.0, R->X,
              d, R->X, d, 0.0, R->A, d);
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, d, d, m, 1.0, R->V,
              d, R->V, d, 0.0, R->Av, d);
  cblas_dgemv(CblasRowMajor, CblasTrans, n, d, 1.0, R->X, d, R->y, 1, 0.0,
              R->b0, 1);
  cblas_dgemv(CblasRowMajor, CblasTrans, m, d, 1.0, R->V, d, R->v, 1, 0.0,
              R->bv, 1);
  if ((rc = rh_maxeig(R, R->A, &R->la, e)) != OL_OK) return rc;
  return rh_maxeig(R, R->Av, &R->lav, e);
}

/* x* of the objective: the grid's best point, then bisection on the
** derivative between its neighbours; none (OL_OK, xstar NULL) when the
** best is an end of the grid or the derivative does not change sign. */
static int rh_argmin (ol_problem *p, ol_err *e)
{
  double best = INFINITY, xb = NAN, a, b, ga, gb, xm, gm, fv;
  int k, kb = -1, nk = (int)((RH_XHI - RH_XLO) / RH_XSTEP) + 1, rc;
  for (k = 0; k < nk; k++) {
    double x = RH_XLO + k * RH_XSTEP;
    if (ol_interrupted())         /* each point is a d x d Cholesky */
      return ol_err_set(e, OL_EINTR, "ridgehyper: interrupted while "
                        "searching for x*");
    if ((rc = rh_fdf(p->ud, &x, &fv, NULL, e)) != OL_OK) return rc;
    if (fv < best) {
      best = fv;
      kb = k;
    }
  }
  if (kb <= 0 || kb >= nk - 1) return OL_OK;
  a = RH_XLO + (kb - 1) * RH_XSTEP;
  b = RH_XLO + (kb + 1) * RH_XSTEP;
  if ((rc = rh_fdf(p->ud, &a, NULL, &ga, e)) != OL_OK) return rc;
  if ((rc = rh_fdf(p->ud, &b, NULL, &gb, e)) != OL_OK) return rc;
  if (!(ga < 0 && gb > 0)) return OL_OK;
  /* 60 halvings of a 0.5 bracket: to the last bit */
  for (k = 0; k < 60; k++) {
    xm = 0.5 * (a + b);
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "ridgehyper: interrupted while "
                        "searching for x*");
    if ((rc = rh_fdf(p->ud, &xm, NULL, &gm, e)) != OL_OK) return rc;
    if (gm < 0) a = xm;
    else b = xm;
  }
  xb = 0.5 * (a + b);
  if ((p->xstar = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  p->xstar[0] = xb;
  return rh_fdf(p->ud, &xb, &p->fstar, NULL, e);
}

static const ol_param rh_params[] = {
  {"n", OL_P_INT, 30, 1, 1e6, "training samples (rows of X)", NULL},
  {"m", OL_P_INT, 30, 1, 1e6, "validation samples (rows of V)", NULL},
  {"d", OL_P_INT, 20, 1, RH_MAXD, "features (the lower variable w)", NULL},
  {"sd", OL_P_REAL, 1, 0, 1e6, "standard deviation of the label noise",
   NULL},
  {"sigma", OL_P_REAL, 0, 0, 1e6,
   "penalty parameter of psi_sigma, the objective for a positive sigma "
   "(sigma = 0 keeps the hyper-objective F)", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the data", NULL},
};

static int rh_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int n = (int)v[0].num, m = (int)v[1].num, d = (int)v[2].num, rc;
  size_t dd = (size_t)d * d;
  ridgehyper *R;
  if ((double)(n > m ? n : m) * d > 1e8)
    return ol_err_set(e, OL_EINVAL, "ridgehyper needs n*d, m*d <= 1e8");
  if ((R = calloc(1, sizeof *R)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = R;
  p->free_ud = rh_free;
  R->n = n;
  R->m = m;
  R->d = d;
  R->sigma = v[4].num;
  R->X = malloc(sizeof(double) * (size_t)n * d);
  R->y = malloc(sizeof(double) * (size_t)n);
  R->V = malloc(sizeof(double) * (size_t)m * d);
  R->v = malloc(sizeof(double) * (size_t)m);
  R->A = malloc(sizeof(double) * dd);
  R->Av = malloc(sizeof(double) * dd);
  R->M = malloc(sizeof(double) * dd);
  R->b0 = malloc(sizeof(double) * (size_t)d);
  R->bv = malloc(sizeof(double) * (size_t)d);
  R->w = malloc(sizeof(double) * (size_t)d);
  R->ws = malloc(sizeof(double) * (size_t)d);
  R->u = malloc(sizeof(double) * (size_t)d);
  R->r = malloc(sizeof(double) * (size_t)(n > m ? n : m));
  R->y0 = calloc((size_t)d, sizeof(double));
  if (R->X == NULL || R->y == NULL || R->V == NULL || R->v == NULL ||
      R->A == NULL || R->Av == NULL || R->M == NULL || R->b0 == NULL ||
      R->bv == NULL || R->w == NULL || R->ws == NULL || R->u == NULL ||
      R->r == NULL || R->y0 == NULL)
    return ol_err_set(e, OL_ENOMEM, "ridgehyper: out of memory for the "
                      "data");
  if ((rc = rh_data(R, v[3].num, (uint64_t)v[5].num, e)) != OL_OK)
    return rc;
  R->b.nx = 1;
  R->b.ny = d;
  R->b.upper = rh_upper;
  R->b.lower = rh_lower;
  R->b.smooth = rh_smooth;
  R->b.hyper = rh_hyper;
  R->b.y0 = R->y0;
  snprintf(p->name, sizeof p->name, "ridgehyper");
  p->kind = OL_OBJECTIVE;
  p->n = 1;
  p->fdf = rh_fdf;
  p->fstar = NAN;
  if ((p->x0 = ol_problem_alloc(1, e)) == NULL) return OL_ENOMEM;
  if ((rc = rh_argmin(p, e)) != OL_OK) return rc;
  snprintf(p->desc, sizeof p->desc, "ridgehyper{n=%d, m=%d, d=%d, sd=%g, "
           "sigma=%g, seed=%.0f}", n, m, d, v[3].num, R->sigma, v[5].num);
  return OL_OK;
}

const ol_problem_type ol_problem_ridgehyper = {
  .name = "ridgehyper",
  .kind = OL_OBJECTIVE,
  .doc = "bilevel: validation loss of ridge regression over x = log lambda, "
         "exact hypergradient",
  .ref = "Kwon, Kwon, Wright & Nowak 2024 (ICLR), the value-function penalty",
  .params = rh_params,
  .nparams = (int)(sizeof rh_params / sizeof rh_params[0]),
  .create = rh_create,
  .bilevel = ol_bilevel_ud,
};
