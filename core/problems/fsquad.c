/*
** core/problems/fsquad.c -- a finite sum of diagonal quadratics with
** distinct centres: the model problem for SGD with and without
** replacement (random reshuffling, Gurbuzbalaban, Ozdaglar & Parrilo
** 2021; Mishchenko, Khaled & Richtarik 2020).
**
**   f(x) = (1/N) sum_i f_i(x),  f_i(x) = 1/2 (x - c_i)' H_i (x - c_i)
**   grad f_i = H_i (x - c_i),   Hess f = (1/N) sum_i H_i
**   x* = (sum_i H_i)^(-1) sum_i H_i c_i   (componentwise: H_i diagonal)
**
** Data (seeded): H_i = diag(h_i), h_ij = cond^(-u_ij), u_ij ~ U[0, 1)
** (log-uniform in (1/cond, 1]); centres c_i ~ N(0, I_d).  The centres
** differ, so the component gradients do not vanish at x* (the gradient
** noise at the optimum, sigma*^2 = (1/N) sum ||H_i (x* - c_i)||^2, is
** positive).  f* = f(x*), exact up to rounding.  x0 = (2, ..., 2).
** Default noise: minibatches of one component drawn by random
** reshuffling (OL_NOISE_BATCH, batch 1, OL_ORDER_SHUFFLE), i.e. SGD
** without replacement; a noise = {...} key overrides it.  The Hessian is
** offered for d <= 4096.  The component arithmetic is diagquad.h's
** (shared with fedquad).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "diagquad.h"

#define FSQUAD_MAXDENSE 4096

typedef struct fsquad {
  long N;
  int d;
  double *h;        /* N x d diagonals of H_i (owned) */
  double *c;        /* N x d centres c_i (owned) */
  double *hbar;     /* d: diagonal of (1/N) sum H_i (owned) */
} fsquad;

static void fsquad_free (void *ud)
{
  fsquad *q = ud;
  if (q == NULL) return;
  free(q->h);
  free(q->c);
  free(q->hbar);
  free(q);
}

static int fsquad_fdfi (void *ud, long i, const double *x, double *f,
                        double *g, ol_err *e)
{
  const fsquad *q = ud;
  int d = q->d;
  (void)e;
  ol_diagquad_fdfi(q->h + (size_t)i * d, q->c + (size_t)i * d, x, f, g, d);
  return OL_OK;
}

static int fsquad_gsumi (void *ud, const long *idx, long cnt,
                         const double *x, double *g, ol_err *e)
{
  const fsquad *q = ud;
  int d = q->d;
  long k;
  (void)e;
  for (k = 0; k < cnt; k++)
    ol_diagquad_gadd(q->h + (size_t)idx[k] * d, q->c + (size_t)idx[k] * d, x,
                     g, d);
  return OL_OK;
}

/* The sum over components, term by term (no expanded form, so f(x*) is
** not spoiled by cancellation). */
static int fsquad_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  const fsquad *q = ud;
  long i;
  int j, d = q->d;
  double s = 0;
  (void)e;
  if (g != NULL)
    for (j = 0; j < d; j++) g[j] = 0;
  for (i = 0; i < q->N; i++)
    s = ol_diagquad_add(s, q->h + (size_t)i * d, q->c + (size_t)i * d, x, g,
                        d);
  ol_diagquad_mean(s, q->N, f, g, d);
  return OL_OK;
}

static int fsquad_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const fsquad *q = ud;
  (void)x; (void)e;
  ol_diagquad_hess(q->hbar, q->d, H);
  return OL_OK;
}

static const ol_param fsquad_params[] = {
  {"N", OL_P_INT, 10, 1, 1e8, "number of components f_i", NULL},
  {"d", OL_P_INT, 5, 1, 1e6, "dimension", NULL},
  {"cond", OL_P_REAL, 10, 1, 1e12,
   "spread of the curvatures: H_i entries in (1/cond, 1]", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of H_i and c_i", NULL},
};

static int fsquad_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  long i, N = (long)v[0].num;
  int j, d = (int)v[1].num;
  double cond = v[2].num, *num;
  size_t nd = (size_t)N * d;
  ol_rng rng;
  fsquad *q;
  if ((double)N * d > 1e9)
    return ol_err_set(e, OL_EINVAL, "fsquad needs N*d <= 1e9");
  if ((q = calloc(1, sizeof *q)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = q;
  p->free_ud = fsquad_free;
  q->N = N;
  q->d = d;
  q->h = malloc(sizeof(double) * nd);
  q->c = malloc(sizeof(double) * nd);
  q->hbar = calloc((size_t)d, sizeof(double));
  if (q->h == NULL || q->c == NULL || q->hbar == NULL)
    return ol_err_set(e, OL_ENOMEM, "fsquad: out of memory for the data");
  if ((p->x0 = ol_problem_alloc(d, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(d, e)) == NULL) return OL_ENOMEM;
  /* (1) curvatures, then centres; in chunks of 2^16 between which a
  ** Ctrl-C (ol_interrupted) stops the build: N d can reach 1e9 */
  ol_rng_seed(&rng, (uint64_t)v[3].num, 0);
  for (i = 0; i < (long)nd; i++) {
    if ((i & 0xffff) == 0 && ol_interrupted())
      return ol_err_set(e, OL_EINTR, "fsquad: interrupted while drawing "
                        "the data");
    q->h[i] = pow(cond, -ol_rng_uniform(&rng));
  }
  for (i = 0; i < (long)nd; i += 0x10000) {
    long k = (long)nd - i < 0x10000 ? (long)nd - i : 0x10000;
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "fsquad: interrupted while drawing "
                        "the data");
    ol_rng_normals(&rng, q->c + i, (int)k);
  }
  /* (2) x* = (sum H_i)^-1 sum H_i c_i; numerators kept in x0 for now */
  num = p->x0;
  for (i = 0; i < N; i++)
    for (j = 0; j < d; j++) {
      q->hbar[j] += q->h[(size_t)i * d + j];
      num[j] += q->h[(size_t)i * d + j] * q->c[(size_t)i * d + j];
    }
  for (j = 0; j < d; j++) {
    p->xstar[j] = num[j] / q->hbar[j];
    q->hbar[j] /= (double)N;
    p->x0[j] = 2;
  }
  fsquad_fdf(q, p->xstar, &p->fstar, NULL, e);
  snprintf(p->name, sizeof p->name, "fsquad");
  p->kind = OL_OBJECTIVE;
  p->n = d;
  p->fdf = fsquad_fdf;
  p->quadratic = 1;
  p->hess = d <= FSQUAD_MAXDENSE ? fsquad_hess : NULL;
  p->nsum = N;
  p->fdfi = fsquad_fdfi;
  p->gsumi = fsquad_gsumi;
  p->noise.kind = OL_NOISE_BATCH;
  p->noise.batch = 1;
  p->noise.order = OL_ORDER_SHUFFLE;
  snprintf(p->desc, sizeof p->desc, "fsquad{N=%ld, d=%d, cond=%g, seed=%.0f}",
           N, d, cond, v[3].num);
  return OL_OK;
}

const ol_problem_type ol_problem_fsquad = {
  .name = "fsquad",
  .kind = OL_OBJECTIVE,
  .doc = "(1/N) sum 1/2 (x-c_i)'H_i(x-c_i), diagonal H_i, SGD w/o replacement",
  .ref = "Mishchenko, Khaled & Richtarik 2020 (random reshuffling)",
  .params = fsquad_params,
  .nparams = (int)(sizeof fsquad_params / sizeof fsquad_params[0]),
  .create = fsquad_create,
};
