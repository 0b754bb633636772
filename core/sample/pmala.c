/*
** core/sample/pmala.c -- preconditioned Langevin with a Hessian-based
** metric: the simplified manifold MALA of Girolami & Calderhead 2011 (JRSS
** B 73(2), section 5, eq. 10: the position-dependent metric without its
** derivative terms), with the metric made positive definite by Betancourt
** 2013's SoftAbs map ("A general metric for Riemannian manifold
** Hamiltonian Monte Carlo", GSI 2013, eq. 4-5).
**
** With U = -log p, H(x) its Hessian = V diag(lambda) V' (LAPACK dsyevr),
** the metric
**   G(x) = V diag(f(lambda)) V',   f(l) = l coth(alpha l)  (SoftAbs)
** (f(l) -> |l| for |alpha l| >> 1, f(0) = 1/alpha: an eigenvalue floor
** of about 1/alpha and the absolute value of negative curvature).  With
** step h (eps^2 / 2 in Girolami & Calderhead's notation), xi ~ N(0, I):
**   mu(x) = x - h G(x)^-1 grad U(x)
**   y     = mu(x) + sqrt(2 h) G(x)^-1/2 xi,  G^-1/2 = V diag(f^-1/2) V'
**   log q(y | x) = 1/2 log det G(x)
**                  - (y - mu(x))' G(x) (y - mu(x)) / (4 h) + const
**   log alpha = U(x) - U(y) + log q(x | y) - log q(y | x)
** The proposal density ratio keeps both log det terms: G changes with x.
** fixed = 1: G is computed once, at the start (put it at the mode for
** the Laplace approximation's metric), and the sampler is MALA with the
** constant metric G^-1; then log det cancels.
** On a Gaussian with precision P (U'' = P everywhere) G = P (alpha
** large), and in the whitened coordinates P^1/2 x the proposal is y =
** (1 - h) x + sqrt(2 h) xi, the same AR(1) in every direction whatever
** the conditioning (t_pmala: bulk-ESS ~ S / 4 at h = 0.5, condition
** 100).
**
** Cost per step: one gradient and one Hessian (at y; finite differences
** of the gradient when the problem has no Hessian, 2n gradients) and one
** symmetric eigendecomposition, O(n^3).  Densities only (kind density):
** the objectives read as exp(-f) include matrix problems of n = 512,
** where 200 steps take a minute (the registry sweep's budget).  U, grad U and the metric's
** factors at the state are kept; U and grad U handed to the run.  The
** LAPACK workspace is sized once in init; a step never allocates.
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "method.h"
#include "stats.h"
#include "vec.h"

/* The metric's factors at one point. */
typedef struct pm_geo {
  double *V;            /* eigenvectors, columns of the row-major n x n */
  double *f;            /* SoftAbs eigenvalues f(lambda) */
  double *drift;        /* G^-1 grad U */
  double logdet;        /* log det G = sum log f */
} pm_geo;

typedef struct pmala_state {
  ol_sampler_head h;    /* first (stats.h); no diagonal metric */
  double step, alpha;
  int fixed;
  double U;             /* U(x) */
  double *g, *gy;       /* grad U at x and y */
  pm_geo gx, gyo;       /* the metric at x and at y */
  double *y, *xi, *r, *w, *H, *lam;
  double *work;
  lapack_int *iwork, *isuppz;
  lapack_int lwork, liwork;
} pmala_state;

static const ol_param pmala_params[] = {
  {"h", OL_P_REAL, 0.5, OL_GT0, OL_FINITE,
   "step size (eps^2 / 2 of Girolami & Calderhead)", NULL},
  {"alpha", OL_P_REAL, 1e4, OL_GT0, 1e300,
   "SoftAbs sharpness: eigenvalues below ~1/alpha are lifted to it", NULL},
  {"fixed", OL_P_BOOL, 0, 0, 1,
   "true: the metric at the start only (constant: MALA preconditioned by "
   "the Hessian there)", NULL},
};

/* l coth(alpha l), continuous at 0 (1/alpha). */
static double softabs (double l, double alpha)
{
  double a = alpha * l;
  if (fabs(a) < 1e-6) return 1 / alpha + a * l / 3;
  if (fabs(a) > 20) return fabs(l);
  return l / tanh(a);
}

/* The metric at x from its gradient g: Hessian, eigendecomposition,
** SoftAbs, drift.  OL_ENUMERIC when dsyevr fails. */
static int geometry (pmala_state *s, ol_ctx *c, const double *x,
                     const double *g, pm_geo *G, ol_err *e)
{
  int n = c->n, i, j, rc;
  lapack_int m, info;
  /* (1) Hessian of U, (2) H = V diag(lambda) V' */
  if ((rc = ol_ctx_hess(c, x, s->H, e)) != OL_OK) return rc;
  info = LAPACKE_dsyevr_work(LAPACK_ROW_MAJOR, 'V', 'A', 'L', n, s->H, n,
                             0, 0, 0, 0, 0, &m, s->lam, G->V, n, s->isuppz,
                             s->work, s->lwork, s->iwork, s->liwork);
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "pmala: eigendecomposition of the "
                      "Hessian failed (dsyevr info %d)", (int)info);
  /* (3) SoftAbs, log det, drift = V diag(1/f) V' g */
  G->logdet = 0;
  for (i = 0; i < n; i++) {
    G->f[i] = softabs(s->lam[i], s->alpha);
    G->logdet += log(G->f[i]);
  }
  for (j = 0; j < n; j++) {
    double a = 0;
    for (i = 0; i < n; i++) a += G->V[(size_t)i * n + j] * g[i];
    s->w[j] = a / G->f[j];
  }
  for (i = 0; i < n; i++) {
    double a = 0;
    for (j = 0; j < n; j++) a += G->V[(size_t)i * n + j] * s->w[j];
    G->drift[i] = a;
  }
  return OL_OK;
}

/* r' G r = sum_j f_j (V' r)_j^2. */
static double quad (const pm_geo *G, const double *r, int n)
{
  double q = 0;
  int i, j;
  for (j = 0; j < n; j++) {
    double a = 0;
    for (i = 0; i < n; i++) a += G->V[(size_t)i * n + j] * r[i];
    q += G->f[j] * a * a;
  }
  return q;
}

static int geo_init (pm_geo *G, int n, ol_err *e)
{
  if ((G->V = ol_mat_new(n, n, e)) == NULL
      || (G->f = ol_vec_new(n, e)) == NULL
      || (G->drift = ol_vec_new(n, e)) == NULL)
    return e->code;
  return OL_OK;
}

static void geo_fini (pm_geo *G)
{
  ol_vec_free(G->V);
  ol_vec_free(G->f);
  ol_vec_free(G->drift);
  G->V = G->f = G->drift = NULL;
}

static int pmala_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  pmala_state *s = st;
  int n = c->n, rc;
  double wq;
  lapack_int iq, m, info;
  s->step = par[0];
  s->alpha = par[1];
  s->fixed = (int)par[2];
  s->h.n = n;
  s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  if ((rc = geo_init(&s->gx, n, e)) != OL_OK
      || (rc = geo_init(&s->gyo, n, e)) != OL_OK)
    return rc;
  if ((s->g = ol_vec_new(n, e)) == NULL || (s->gy = ol_vec_new(n, e)) == NULL
      || (s->y = ol_vec_new(n, e)) == NULL
      || (s->xi = ol_vec_new(n, e)) == NULL
      || (s->r = ol_vec_new(n, e)) == NULL
      || (s->w = ol_vec_new(n, e)) == NULL
      || (s->lam = ol_vec_new(n, e)) == NULL
      || (s->H = ol_mat_new(n, n, e)) == NULL)
    return e->code;
  /* (1) LAPACK workspace query */
  s->isuppz = malloc(sizeof *s->isuppz * (size_t)(2 * n));
  if (s->isuppz == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  info = LAPACKE_dsyevr_work(LAPACK_ROW_MAJOR, 'V', 'A', 'L', n, s->H, n,
                             0, 0, 0, 0, 0, &m, s->lam, s->gx.V, n,
                             s->isuppz, &wq, -1, &iq, -1);
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "pmala: dsyevr workspace query "
                      "failed (info %d)", (int)info);
  s->lwork = (lapack_int)wq;
  s->liwork = iq;
  s->work = malloc(sizeof *s->work * (size_t)s->lwork);
  s->iwork = malloc(sizeof *s->iwork * (size_t)s->liwork);
  if (s->work == NULL || s->iwork == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  /* (2) U, grad U and the metric at the start */
  if ((rc = ol_ctx_grad(c, c->x, &s->U, s->g, e)) != OL_OK) return rc;
  return geometry(s, c, c->x, s->g, &s->gx, e);
}

static int pmala_step (void *st, ol_ctx *c, ol_err *e)
{
  pmala_state *s = st;
  double h = s->step * c->sched, sq = sqrt(2 * h), Uy = NAN, qf, qb, la, a = 0;
  double *x = c->x, *y = s->y, *t;
  pm_geo *Gx = &s->gx, *Gy = &s->gyo, tg;
  int i, j, n = c->n, rc;
  /* (1) y = x - h G^-1 g + sqrt(2h) V diag(f^-1/2) xi */
  ol_rng_normals(c->rng, s->xi, n);
  for (j = 0; j < n; j++) s->w[j] = s->xi[j] / sqrt(Gx->f[j]);
  for (i = 0; i < n; i++) {
    double v = 0;
    for (j = 0; j < n; j++) v += Gx->V[(size_t)i * n + j] * s->w[j];
    y[i] = x[i] - h * Gx->drift[i] + sq * v;
  }
  /* (2) U, grad U and (position-dependent) the metric at y */
  rc = ol_ctx_grad(c, y, &Uy, s->gy, e);
  if (rc == OL_OK && !s->fixed) rc = geometry(s, c, y, s->gy, Gy, e);
  s->h.stat.nonfinite = 0;
  if (rc == OL_EDOM) ol_sampler_nonfinite(&s->h, y, Uy);
  if (rc == OL_EDOM || rc == OL_ENUMERIC) ol_err_clear(e);
  else if (rc != OL_OK) return rc;
  else {
    const pm_geo *Gb = s->fixed ? Gx : Gy;
    double *dy = s->fixed ? s->w : Gy->drift;
    if (s->fixed) {
      /* constant metric: drift at y = V diag(1/f) V' grad U(y) */
      double *tmp = s->r;
      for (j = 0; j < n; j++) {
        double v = 0;
        for (i = 0; i < n; i++) v += Gx->V[(size_t)i * n + j] * s->gy[i];
        tmp[j] = v / Gx->f[j];
      }
      for (i = 0; i < n; i++) {
        double v = 0;
        for (j = 0; j < n; j++) v += Gx->V[(size_t)i * n + j] * tmp[j];
        dy[i] = v;
      }
    }
    /* (3) log alpha with both proposal densities and log dets */
    for (i = 0; i < n; i++) s->r[i] = x[i] - y[i] + h * dy[i];
    qb = quad(Gb, s->r, n);
    for (i = 0; i < n; i++) s->r[i] = y[i] - x[i] + h * Gx->drift[i];
    qf = quad(Gx, s->r, n);
    la = s->U - Uy + 0.5 * (Gb->logdet - Gx->logdet) - (qb - qf) / (4 * h);
    a = la >= 0 ? 1 : isnan(la) ? 0 : exp(la);
    /* (4) accept or reject */
    if (log(ol_rng_uniform(c->rng)) < la) {
      ol_vec_copy(y, x, n);
      s->U = Uy;
      t = s->g; s->g = s->gy; s->gy = t;
      if (s->fixed) ol_vec_copy(dy, Gx->drift, n);
      else {
        tg = *Gx; *Gx = *Gy; *Gy = tg;
      }
      c->accepted++;
    }
  }
  s->h.stat.lp = -s->U;
  s->h.stat.accept_stat = a;
  s->h.stat.stepsize = h;
  ol_sampler_count(&s->h);
  ol_ctx_known(c, s->U, s->g);
  return OL_OK;
}

static void pmala_fini (void *st)
{
  pmala_state *s = st;
  double **v[] = {&s->g, &s->gy, &s->y, &s->xi, &s->r, &s->w, &s->lam,
                  &s->H, &s->work};
  size_t k;
  ol_sampler_head_fini(&s->h);
  geo_fini(&s->gx);
  geo_fini(&s->gyo);
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    free(*v[k]);
    *v[k] = NULL;
  }
  free(s->iwork);
  free(s->isuppz);
  s->iwork = s->isuppz = NULL;
}

const ol_method_type ol_sample_pmala = {
  .name = "pmala",
  .family = OL_SAMPLER,
  .doc =
    "preconditioned Langevin: MALA with the SoftAbs Hessian of -log p as a "
    "position-dependent metric",
  .ref = "Girolami & Calderhead 2011 (eq. 10); Betancourt 2013 (SoftAbs)",
  .params = pmala_params,
  .nparams = (int)(sizeof pmala_params / sizeof pmala_params[0]),
  .size = sizeof(pmala_state),
  .flags = OL_M_MH,
  .kinds = OL_KIND(OL_DENSITY),
  .init = pmala_init,
  .step = pmala_step,
  .fini = pmala_fini,
  .stats = ol_sampler_head_of,
  .probes = OL_MSET_NONE,
};
