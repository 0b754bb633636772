/*
** core/problems/fedquad.c -- heterogeneous quadratic clients: the model
** problem of federated optimization (client drift, FedAvg's bias; e.g.
** Karimireddy et al. 2020, SCAFFOLD, sec. 3 and their quadratic
** experiments; Charles & Konecny 2021 for local GD's fixed point).
**
** W clients of m components each (N = W m), dimension d; client w's
** components share one diagonal curvature H_w = diag(h_w):
**   f(x) = (1/N) sum_i f_i(x),  f_i(x) = 1/2 (x - c_i)' H_w (x - c_i)
**   F_w(x) = (1/m) sum_{i of w} f_i = 1/2 (x - cbar_w)' H_w (x - cbar_w)
**            + const,   cbar_w = mean of client w's centres
**   x*_j = sum_w h_wj cbar_wj / sum_w h_wj          (f = (1/W) sum F_w)
** Data, all but the within-client spread given by formulas (so a script
** can recompute the closed forms):
**   h_wj   = cond^(-t),  t = ((w + j) mod W) / (W - 1)   (1 when W = 1)
**   cbar_wj = 2 heterogeneity cos(2 pi w / W + j)         (w, j from 0)
**   c_i    = cbar_w + spread (z_i - zbar_w),  z_i ~ N(0, I) (seeded),
**            zbar_w the mean of client w's z (so cbar_w is their mean)
** heterogeneity 0 gives every client the same optimum; the clients'
** optima then differ only through the spread of their components.
**
** FedAvg's bias.  K local steps of gradient descent with step lr on F_w
** from x give y_w = cbar_w + (I - lr H_w)^K (x - cbar_w); with full
** participation the server's average is a fixed point when
**   x_j = sum_w (1 - (1 - lr h_wj)^K) cbar_wj / sum_w (1 - (1 - lr h_wj)^K)
** (ol_fedquad_fixed, fedquad.h), which is x* when K = 1, when the H_w
** are equal or when the cbar_w are; else it lies off x* whatever the
** server's step size or momentum.
**
** Shards: client w holds components [w m, (w + 1) m) (set as the
** problem's workers, ol_problem_set_shards, with participation as
** given).  f* = f(x*) summed term by term.  x0 = (3, ..., 3).  No noise
** by default; the Hessian (1/W) sum H_w is offered for d <= 4096.  The
** component arithmetic is diagquad.h's (shared with fsquad).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "diagquad.h"
#include "fedquad.h"

#define FEDQUAD_MAXDENSE 4096
#define FEDQUAD_PI 3.14159265358979323846

typedef struct fedquad {
  int W, d;
  long m, N;
  double *h;        /* W x d curvatures (owned) */
  double *cbar;     /* W x d client optima (owned) */
  double *c;        /* N x d component centres (owned) */
  double *hbar;     /* d: (1/W) sum_w h_w (owned) */
} fedquad;

static void fedquad_free (void *ud)
{
  fedquad *q = ud;
  if (q == NULL) return;
  free(q->h);
  free(q->cbar);
  free(q->c);
  free(q->hbar);
  free(q);
}

static int fedquad_fdfi (void *ud, long i, const double *x, double *f,
                         double *g, ol_err *e)
{
  const fedquad *q = ud;
  int d = q->d;
  (void)e;
  ol_diagquad_fdfi(q->h + (size_t)(i / q->m) * d, q->c + (size_t)i * d, x, f,
                   g, d);
  return OL_OK;
}

/* The indices come in runs of consecutive components (a shard of the
** default split is one run): each run's part of one client is summed as
** fedquad_fdf sums it, the centres read in order. */
static int fedquad_gsumi (void *ud, const long *idx, long cnt,
                          const double *x, double *g, ol_err *e)
{
  const fedquad *q = ud;
  int d = q->d;
  long k = 0;
  (void)e;
  while (k < cnt) {
    long i = idx[k], end = (i / q->m + 1) * q->m, r = 1;
    while (k + r < cnt && idx[k + r] == i + r && i + r < end) r++;
    ol_diagquad_gblock(q->h + (size_t)(i / q->m) * d, q->c + (size_t)i * d,
                       r, x, g, d);
    k += r;
  }
  return OL_OK;
}

/* The sum over components, term by term, client by client. */
static int fedquad_fdf (void *ud, const double *x, double *f, double *g,
                        ol_err *e)
{
  const fedquad *q = ud;
  long i, since = 0;
  int j, w, d = q->d;
  double s = 0;
  if (g != NULL)
    for (j = 0; j < d; j++) g[j] = 0;
  for (w = 0; w < q->W; w++) {
    const double *h = q->h + (size_t)w * d;
    for (i = w * q->m; i < (w + 1) * q->m; i++) {
      /* up to 10^9 numbers in all: Ctrl-C every 2^16 of them */
      if ((since += d) >= 65536) {
        since = 0;
        if (ol_interrupted())
          return ol_err_set(e, OL_EINTR, "fedquad: interrupted");
      }
      s = ol_diagquad_add(s, h, q->c + (size_t)i * d, x, g, d);
    }
  }
  ol_diagquad_mean(s, q->N, f, g, d);
  return OL_OK;
}

static int fedquad_hess (void *ud, const double *x, double *H, ol_err *e)
{
  const fedquad *q = ud;
  (void)x; (void)e;
  ol_diagquad_hess(q->hbar, q->d, H);
  return OL_OK;
}

static const fedquad *fedquad_of (const ol_problem *p)
{
  return p != NULL && p->fdfi == fedquad_fdfi ? p->ud : NULL;
}

const double *ol_fedquad_centre (const ol_problem *p, int w)
{
  const fedquad *q = fedquad_of(p);
  return q != NULL && w >= 0 && w < q->W ? q->cbar + (size_t)w * q->d : NULL;
}

const double *ol_fedquad_curv (const ol_problem *p, int w)
{
  const fedquad *q = fedquad_of(p);
  return q != NULL && w >= 0 && w < q->W ? q->h + (size_t)w * q->d : NULL;
}

const double *ol_fedquad_points (const ol_problem *p)
{
  const fedquad *q = fedquad_of(p);
  return q != NULL ? q->c : NULL;
}

int ol_fedquad_fixed (const ol_problem *p, int K, double lr, double *x,
                      ol_err *e)
{
  const fedquad *q = fedquad_of(p);
  int w, j;
  if (q == NULL)
    return ol_err_set(e, OL_EINVAL, "fedquad_fixed: not a fedquad problem");
  if (K < 1 || !(lr > 0))
    return ol_err_set(e, OL_EINVAL, "fedquad_fixed: K = %d, lr = %g: need "
                      "K >= 1, lr > 0", K, lr);
  for (j = 0; j < q->d; j++) {
    double num = 0, den = 0;
    for (w = 0; w < q->W; w++) {
      double a = 1 - pow(1 - lr * q->h[(size_t)w * q->d + j], K);
      num += a * q->cbar[(size_t)w * q->d + j];
      den += a;
    }
    x[j] = num / den;
  }
  return OL_OK;
}

static const ol_param fedquad_params[] = {
  {"n", OL_P_INT, 2, 1, 1e5, "dimension d", NULL},
  {"workers", OL_P_INT, 4, 1, 1e6, "clients W (the problem's workers)",
   NULL},
  {"per", OL_P_INT, 10, 1, 1e8, "components per client m (N = W m)", NULL},
  {"heterogeneity", OL_P_REAL, 1, 0, 1, "the clients' optima cbar_w = "
   "2 heterogeneity cos(2 pi w / W + j) (0: all at 0)", NULL},
  {"cond", OL_P_REAL, 10, 1, 1e12, "curvatures h_wj = cond^-t, t in [0, 1] "
   "staggered over the clients", NULL},
  {"spread", OL_P_REAL, 1, 0, 1e6, "s.d. of a client's component centres "
   "around its optimum", NULL},
  {"participation", OL_P_REAL, 1, OL_GT0, 1, "fraction of the clients in "
   "each round", NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the components' "
   "spread", NULL},
};

static int fedquad_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int d = (int)v[0].num, W = (int)v[1].num, w, j;
  long m = (long)v[2].num, N, k, *start, since = 0;
  double het = v[3].num, cond = v[4].num, spread = v[5].num, *z, *hsum;
  ol_rng rng;
  fedquad *q;
  int rc;
  if ((double)W * m > 1e8 || (double)W * m * d > 1e9)
    return ol_err_set(e, OL_EINVAL, "fedquad needs workers * per <= 1e8 "
                      "and workers * per * n <= 1e9");
  N = (long)W * m;
  if ((q = calloc(1, sizeof *q)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = q;
  p->free_ud = fedquad_free;
  q->W = W;
  q->d = d;
  q->m = m;
  q->N = N;
  q->h = malloc(sizeof(double) * (size_t)W * d);
  q->cbar = malloc(sizeof(double) * (size_t)W * d);
  q->c = malloc(sizeof(double) * (size_t)N * d);
  q->hbar = calloc((size_t)d, sizeof(double));
  if (q->h == NULL || q->cbar == NULL || q->c == NULL || q->hbar == NULL)
    return ol_err_set(e, OL_ENOMEM, "fedquad: out of memory for the data");
  if ((p->x0 = ol_problem_alloc(d, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(d, e)) == NULL) return OL_ENOMEM;
  /* (1) curvatures and optima by formula (W d up to 10^9: Ctrl-C is
  ** looked at every client; found by the fuzzer, seconds without) */
  for (w = 0; w < W; w++)
    for (j = 0; j < d; j++) {
      if (j == 0 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "fedquad: interrupted while making "
                          "the curvatures");
      double t = W > 1 ? (double)((w + j) % W) / (W - 1) : 0;
      q->h[(size_t)w * d + j] = pow(cond, -t);
      q->cbar[(size_t)w * d + j] = 2 * het * cos(2 * FEDQUAD_PI * w / W + j);
    }
  /* (2) the components: seeded spread, centred on each client's optimum */
  ol_rng_seed(&rng, (uint64_t)v[7].num, 0);
  z = p->x0;        /* d doubles of scratch: the client's mean of z */
  for (w = 0; w < W; w++) {
    double *cw = q->c + (size_t)w * m * d;
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "fedquad: interrupted while drawing "
                        "the data");
    for (k = 0; k < m; k++) {
      if ((since += d) >= 65536) {
        since = 0;
        if (ol_interrupted())
          return ol_err_set(e, OL_EINTR, "fedquad: interrupted while "
                            "drawing the data");
      }
      ol_rng_normals(&rng, cw + (size_t)k * d, d);
    }
    for (j = 0; j < d; j++) z[j] = 0;
    for (k = 0; k < m; k++)
      for (j = 0; j < d; j++) z[j] += cw[(size_t)k * d + j];
    for (j = 0; j < d; j++) z[j] /= (double)m;
    for (k = 0; k < m; k++)
      for (j = 0; j < d; j++)
        cw[(size_t)k * d + j] = q->cbar[(size_t)w * d + j]
                                + spread * (cw[(size_t)k * d + j] - z[j]);
  }
  /* (3) x* = (sum H_w)^-1 sum H_w cbar_w; numerators in x0 for now */
  hsum = q->hbar;
  for (j = 0; j < d; j++) p->x0[j] = 0;
  for (w = 0; w < W; w++)
    for (j = 0; j < d; j++) {
      if (j == 0 && (w & 1023) == 1023 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "fedquad: interrupted");
      hsum[j] += q->h[(size_t)w * d + j];
      p->x0[j] += q->h[(size_t)w * d + j] * q->cbar[(size_t)w * d + j];
    }
  for (j = 0; j < d; j++) {
    p->xstar[j] = p->x0[j] / hsum[j];
    q->hbar[j] = hsum[j] / W;
    p->x0[j] = 3;
  }
  if ((rc = fedquad_fdf(q, p->xstar, &p->fstar, NULL, e)) != OL_OK)
    return rc;
  snprintf(p->name, sizeof p->name, "fedquad");
  p->kind = OL_OBJECTIVE;
  p->n = d;
  p->fdf = fedquad_fdf;
  p->quadratic = 1;
  p->hess = d <= FEDQUAD_MAXDENSE ? fedquad_hess : NULL;
  p->nsum = N;
  p->fdfi = fedquad_fdfi;
  p->gsumi = fedquad_gsumi;
  snprintf(p->desc, sizeof p->desc, "fedquad{n=%d, workers=%d, per=%ld, "
           "heterogeneity=%g, cond=%g}", d, W, m, het, cond);
  /* (4) the clients as the problem's workers */
  if ((start = malloc(sizeof *start * (size_t)(W + 1))) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  for (w = 0; w <= W; w++) start[w] = (long)w * m;
  rc = ol_problem_set_shards(p, W, start, het, v[6].num, e);
  free(start);
  return rc;
}

const ol_problem_type ol_problem_fedquad = {
  .name = "fedquad",
  .kind = OL_OBJECTIVE,
  .doc = "heterogeneous quadratic clients 1/2 (x-c_i)'H_w(x-c_i), shards set",
  .ref = "Karimireddy et al. 2020 (SCAFFOLD: client drift on quadratics)",
  .params = fedquad_params,
  .nparams = (int)(sizeof fedquad_params / sizeof fedquad_params[0]),
  .create = fedquad_create,
};
