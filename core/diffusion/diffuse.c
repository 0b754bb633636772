/*
** core/diffusion/diffuse.c -- the machinery the diffusion samplers on a
** Gaussian mixture share (diffuse.h): schedules, particles, the exact
** score with its injected error, and the particles' metrics.
**
** Metrics of the N particles against the target p = sum_k w_k N(mu_k, S_k):
**   kl, tv       (n = 1 or 2; NaN above) on a grid of OL_DFS_BINS1 bins
**                (1-D) or OL_DFS_BINS2^2 (2-D) spanning, per axis,
**                [min_k (mu_kj - 5 sd_kj), max_k (mu_kj + 5 sd_kj)], plus
**                one cell for everything outside.  p_b: the target's exact
**                mass of bin b (1-D: normal cdfs; 2-D: the midpoint rule on
**                8 x 8 points per bin), the outside cell 1 - sum_b p_b; q_b:
**                the particles' share.  kl = sum_b q_b log(q_b / p_b)
**                (KL(q || p), finite for every sample; its plug-in bias
**                is about (bins occupied - 1) / 2N), tv = 1/2 sum_b |q_b - p_b|.
**   w2           between Gaussians: the particles' mean m and covariance
**                S (divisor N - 1) against the target's exact moments
**                mu, Sigma: sqrt(||m - mu||^2 + tr S + tr Sigma
**                - 2 tr (Sigma^1/2 S Sigma^1/2)^1/2).
**   modeweights  max_k |r_k - w_k|, r_k = (1/N) sum_i w_k N_k(x_i) / p(x_i)
**                the mean responsibility (unbiased for w_k under p); the
**                shares r_k and their standard errors sd_i(...) / sqrt N
**                are the results "shares", "shares_se".
**   entropy      Kozachenko & Leonenko (1987): H = psi(N) - psi(1)
**                + log V_n + (n / N) sum_i log rho_i, rho_i the distance
**                to particle i's nearest neighbour (k = 1), V_n the volume
**                of the unit n-ball; particles at distance 0 are left out
**                of the sum (N counts the rest).  Neighbours by a sweep
**                over the particles sorted by their first coordinate.
**                Of the first OL_DFS_HMAX = 32768 particles only (the
**                particles are independent, so these are a random
**                sample of the N): the sweep costs about N^1.5 distances
**                in 2-D, minutes at N = 10^7; the estimate is that of a
**                sample of min(N, 32768), its standard error about
**                n / sqrt(min(N, 32768)) nats.
** All are computed on the first probe after a step and kept until the next.
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diffuse.h"
#include "vec.h"

#define DFS_PI 3.14159265358979323846
#define DFS_COS_S 0.008
#define DFS_COS_END 1e-4   /* abar(1) of the cosine schedule */
#define DFS_SUB 8          /* midpoint points per bin and axis (2-D) */
#define OL_DFS_HMAX 32768  /* entropy: particles used (see above) */

static double cos_f (double u)
{
  double c = cos((u + DFS_COS_S) / (1 + DFS_COS_S) * DFS_PI / 2);
  return c * c;
}

/* abar(t) of a VP schedule */
static double abar (const ol_dfs *D, double t)
{
  if (D->sched == OL_DFS_LINEAR) return exp(-0.1 * t - 9.95 * t * t);
  return cos_f(D->tau * t) / cos_f(0);
}

static void level (const ol_dfs *D, double t, double *s, double *sig)
{
  if (D->sched == OL_DFS_VE) {
    *s = 1;
    *sig = OL_DFS_VEMIN * pow(OL_DFS_VEMAX / OL_DFS_VEMIN, t);
  }
  else {
    double a = abar(D, t);
    *s = sqrt(a);
    *sig = sqrt((1 - a) / a);
  }
}

double ol_dfs_g2 (const ol_dfs *D, double t)
{
  double s, sig;
  if (D->sched == OL_DFS_LINEAR) return 0.1 + 19.9 * t;
  if (D->sched == OL_DFS_COSINE)
    return D->tau * DFS_PI / (1 + DFS_COS_S)
      * tan((D->tau * t + DFS_COS_S) / (1 + DFS_COS_S) * DFS_PI / 2);
  level(D, t, &s, &sig);
  return 2 * sig * sig * log(OL_DFS_VEMAX / OL_DFS_VEMIN);
}

void ol_dfs_times (ol_dfs *D, int both, double *t, double *tp, double *s,
                   double *sig, double *sp, double *sigp)
{
  double h = (1 - D->delta) / D->steps;
  *t = 1 - D->i * h;
  *tp = D->i + 1 == D->steps ? D->delta : 1 - (D->i + 1) * h;
  level(D, *t, s, sig);
  level(D, *tp, sp, sigp);
  ol_gmm_level(D->G, *s, *sig * *sig, D->lv);
  if (both) ol_gmm_level(D->G, *sp, *sigp * *sigp, D->lv2);
}

void ol_dfs_score (ol_dfs *D, const double *lv, double s, const double *x,
                   double *out, ol_rng *rng)
{
  int j, n = D->n;
  ol_gmm_eval(D->G, lv, s, x, out, NULL, D->work);
  if (D->eps > 0) {
    double a = D->eps / sqrt(2.0), b = 1 / sqrt((double)n);
    for (j = 0; j < n; j++)
      out[j] += a * (D->bias[j] + b * ol_rng_normal(rng));
  }
}

/* 1 every 4096th particle i when Ctrl-C was pressed: the loops over the
** N particles (N up to what memory holds) poll it. */
static int stopped (int i)
{
  return (i & 4095) == 4095 && ol_interrupted();
}

/* The particles' mean into x; on Ctrl-C the mean of those summed so far
** (returns 1). */
static int setmean (ol_dfs *D, double *x)
{
  int i, j, n = D->n, stop = 0;
  for (j = 0; j < n; j++) x[j] = 0;
  for (i = 0; i < D->N && !(stop = stopped(i)); i++)
    for (j = 0; j < n; j++) x[j] += D->x[(size_t)i * n + j];
  for (j = 0; j < n; j++) x[j] /= i > 0 ? i : 1;
  return stop;
}

int ol_dfs_pause (ol_dfs *D, int i, ol_err *e)
{
  if ((i & 4095) != 0 || i <= D->next || !ol_interrupted()) return OL_OK;
  D->next = i;
  return ol_err_set(e, OL_EINTR, "interrupted in step %d after %d of %d "
                    "particles moved: the samples are of two consecutive "
                    "times", D->i + 1, i, D->N);
}

void ol_dfs_end (ol_dfs *D, ol_ctx *c)
{
  D->next = 0;
  setmean(D, c->x);
  D->i++;
  if (D->i >= D->steps) {
    char why[96];
    snprintf(why, sizeof why, "reached t = delta = %g after %d steps",
             D->delta, D->steps);
    ol_ctx_converged(c, why);
  }
}

/* Standard normal cdf. */
static double ncdf (double z)
{
  return 0.5 * erfc(-z / sqrt(2.0));
}

/* (1) the grid and the target's exact bin masses */
static int setgrid (ol_dfs *D, ol_err *e)
{
  const ol_gmm *G = D->G;
  int n = D->n, j, k, b, nb, nc;
  if (n > 2) return OL_OK;
  D->nb = nb = n == 1 ? OL_DFS_BINS1 : OL_DFS_BINS2;
  nc = n == 1 ? nb : nb * nb;
  for (j = 0; j < n; j++) {
    double lo = INFINITY, hi = -INFINITY;
    for (k = 0; k < G->K; k++) {
      double m = G->mu[(size_t)k * n + j];
      double sd = sqrt(G->cov[(size_t)k * n * n + (size_t)j * n + j]);
      if (m - 5 * sd < lo) lo = m - 5 * sd;
      if (m + 5 * sd > hi) hi = m + 5 * sd;
    }
    D->lo[j] = lo;
    D->wd[j] = (hi - lo) / nb;
  }
  if ((D->pmass = ol_vec_new(nc + 1, e)) == NULL
      || (D->cnt = ol_vec_new(nc + 1, e)) == NULL)
    return OL_ENOMEM;
  if (n == 1)
    for (b = 0; b < nb; b++) {
      double a = D->lo[0] + b * D->wd[0], z = a + D->wd[0], m = 0;
      for (k = 0; k < G->K; k++) {
        double sd = sqrt(G->cov[k]);
        m += G->w[k] * (ncdf((z - G->mu[k]) / sd) - ncdf((a - G->mu[k]) / sd));
      }
      D->pmass[b] = m;
    }
  else {
    double x[2], h0 = D->wd[0] / DFS_SUB, h1 = D->wd[1] / DFS_SUB;
    int b0, b1, u, v;
    for (b0 = 0; b0 < nb; b0++)
      for (b1 = 0; b1 < nb; b1++) {
        double m = 0;
        for (u = 0; u < DFS_SUB; u++)
          for (v = 0; v < DFS_SUB; v++) {
            x[0] = D->lo[0] + b0 * D->wd[0] + (u + 0.5) * h0;
            x[1] = D->lo[1] + b1 * D->wd[1] + (v + 0.5) * h1;
            m += exp(ol_gmm_eval(G, D->lv0, 1, x, NULL, NULL, D->work));
          }
        D->pmass[b0 * nb + b1] = m * h0 * h1;
      }
  }
  {
    double sum = 0;
    for (b = 0; b < nc; b++) sum += D->pmass[b];
    D->pmass[nc] = fmax(1 - sum, 0);
  }
  return OL_OK;
}

/* Square root R of the target's covariance (w2), by its eigenvectors. */
static int setroot (ol_dfs *D, const double *Sig, ol_err *e)
{
  int n = D->n, i, j, q;
  lapack_int m;
  memcpy(D->B, Sig, (size_t)n * n * sizeof *D->B);
  if (LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'V', 'A', 'L', n, D->B, n, 0, 0, 0,
                     0, 0, &m, D->lam, D->S, n, D->isuppz) != 0)
    return ol_err_set(e, OL_ENUMERIC, "diffusion: the target's covariance "
                      "has no eigendecomposition");
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      double a = 0;
      for (q = 0; q < n; q++)
        a += D->S[(size_t)i * n + q] * sqrt(fmax(D->lam[q], 0))
          * D->S[(size_t)j * n + q];
      D->R[(size_t)i * n + j] = a;
    }
  return OL_OK;
}

int ol_dfs_init (ol_dfs *D, const char *who, const double *par, ol_ctx *c,
                 ol_err *e)
{
  int n = c->n, N, j, rc;
  size_t i;
  D->G = ol_gmm_of(c->p);
  if (D->G == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs the exact score of its "
                      "target: a Gaussian mixture made by problem.gmm{} (%s "
                      "is not one)", who, c->p->name);
  D->n = n;
  D->K = D->G->K;
  D->steps = (int)par[0];
  D->sched = (int)par[1];
  D->delta = par[2];
  D->eps = par[3];
  D->N = N = (int)par[4];
  D->mt = -1;
  D->next = 0;
  if (D->sched == OL_DFS_COSINE)
    D->tau = (acos(sqrt(DFS_COS_END * cos_f(0))) * 2 / DFS_PI
              * (1 + DFS_COS_S) - DFS_COS_S);
  if ((double)N * n > 1e8)
    return ol_err_set(e, OL_EINVAL, "%s: samples n = %.0f is above 1e8",
                      who, (double)N * n);
  if ((D->x = ol_mat_new(N, n, e)) == NULL
      || (D->lv = ol_vec_new(ol_gmm_levelsize(D->G), e)) == NULL
      || (D->lv2 = ol_vec_new(ol_gmm_levelsize(D->G), e)) == NULL
      || (D->lv0 = ol_vec_new(ol_gmm_levelsize(D->G), e)) == NULL
      || (D->work = ol_vec_new(ol_gmm_worksize(D->G), e)) == NULL
      || (D->sc = ol_vec_new(n, e)) == NULL
      || (D->sc2 = ol_vec_new(n, e)) == NULL
      || (D->bias = ol_vec_new(n, e)) == NULL
      || (D->y = ol_vec_new(n, e)) == NULL
      || (D->resp = ol_vec_new(D->K, e)) == NULL
      || (D->share = ol_vec_new(D->K, e)) == NULL
      || (D->shse = ol_vec_new(D->K, e)) == NULL
      || (D->m = ol_vec_new(n, e)) == NULL
      || (D->S = ol_mat_new(n, n, e)) == NULL
      || (D->R = ol_mat_new(n, n, e)) == NULL
      || (D->B = ol_mat_new(n, n, e)) == NULL
      || (D->lam = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  if ((D->isuppz = malloc(2 * (size_t)n * sizeof *D->isuppz)) == NULL
      || (D->ord = malloc((size_t)N * sizeof *D->ord)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  for (j = 0; j < n; j++) D->bias[j] = 1 / sqrt((double)n);
  ol_gmm_level(D->G, 1, 0, D->lv0);
  if ((rc = setgrid(D, e)) != OL_OK || (rc = setroot(D, c->p->cov, e))
      != OL_OK)
    return rc;
  /* (2) the particles at t = 1: the forward process's limit */
  {
    double s0 = D->sched == OL_DFS_VE ? OL_DFS_VEMAX : 1;
    for (i = 0; i < (size_t)N * n; i++) {
      if ((i & 65535) == 65535 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "interrupted while drawing the %d "
                          "particles", N);
      D->x[i] = s0 * ol_rng_normal(c->rng);
    }
  }
  setmean(D, c->x);
  return OL_OK;
}

void ol_dfs_fini (ol_dfs *D)
{
  double **v[] = {&D->x, &D->lv, &D->lv2, &D->lv0, &D->work, &D->sc,
                  &D->sc2, &D->bias, &D->y, &D->resp, &D->share, &D->shse,
                  &D->m, &D->S, &D->R, &D->B, &D->lam, &D->pmass,
                  &D->cnt};
  size_t k;
  for (k = 0; k < sizeof v / sizeof v[0]; k++) {
    ol_vec_free(*v[k]);
    *v[k] = NULL;
  }
  free(D->isuppz);
  free(D->ord);
  D->isuppz = NULL;
  D->ord = NULL;
}

/* kl and tv of the histogram */
static void m_hist (ol_dfs *D)
{
  int n = D->n, nb = D->nb, nc = n == 1 ? nb : nb * nb, b, i, j;
  double kl = 0, tv = 0;
  if (nb == 0) {
    D->met[0] = D->met[1] = NAN;
    return;
  }
  for (b = 0; b <= nc; b++) D->cnt[b] = 0;
  for (i = 0; i < D->N; i++) {
    int cell = 0, out = 0;
    if (stopped(i)) {
      D->met[0] = D->met[1] = NAN;
      return;
    }
    for (j = 0; j < n; j++) {
      double u = (D->x[(size_t)i * n + j] - D->lo[j]) / D->wd[j];
      if (!(u >= 0 && u < nb)) out = 1;
      else cell = cell * nb + (int)u;
    }
    D->cnt[out ? nc : cell] += 1;
  }
  for (b = 0; b <= nc; b++) {
    double q = D->cnt[b] / D->N, p = D->pmass[b];
    if (q > 0) kl += q * log(q / fmax(p, 1e-300));
    tv += fabs(q - p);
  }
  D->met[0] = fmax(kl, 0);
  D->met[1] = 0.5 * tv;
}

static double m_w2 (ol_dfs *D, const double *mu, const double *Sig)
{
  int n = D->n, N = D->N, i, j, q;
  lapack_int m;
  double w = 0, trr = 0;
  if (N < 2 || setmean(D, D->m)) return NAN;
  for (i = 0; i < n * n; i++) D->S[i] = 0;
  for (q = 0; q < N; q++) {
    const double *x = D->x + (size_t)q * n;
    if (stopped(q)) return NAN;
    for (i = 0; i < n; i++)
      for (j = 0; j <= i; j++)
        D->S[(size_t)i * n + j] += (x[i] - D->m[i]) * (x[j] - D->m[j]);
  }
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      D->S[(size_t)i * n + j] /= N - 1;
      D->S[(size_t)j * n + i] = D->S[(size_t)i * n + j];
    }
  /* B = R S R, lower triangle */
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++) {
      double a = 0;
      int u, v;
      for (u = 0; u < n; u++)
        for (v = 0; v < n; v++)
          a += D->R[(size_t)i * n + u] * D->S[(size_t)u * n + v]
            * D->R[(size_t)v * n + j];
      D->B[(size_t)i * n + j] = a;
    }
  if (LAPACKE_dsyevr(LAPACK_ROW_MAJOR, 'N', 'A', 'L', n, D->B, n, 0, 0, 0,
                     0, 0, &m, D->lam, NULL, 1, D->isuppz) != 0)
    return NAN;
  for (i = 0; i < n; i++) {
    trr += sqrt(fmax(D->lam[i], 0));
    w += (D->m[i] - mu[i]) * (D->m[i] - mu[i]) + D->S[(size_t)i * n + i]
      + Sig[(size_t)i * n + i];
  }
  return sqrt(fmax(w - 2 * trr, 0));
}

static double m_modes (ol_dfs *D)
{
  int K = D->K, n = D->n, N = D->N, i, k;
  double worst = 0;
  for (k = 0; k < K; k++) D->share[k] = D->shse[k] = 0;
  for (i = 0; i < N; i++) {
    if (stopped(i)) return NAN;
    ol_gmm_eval(D->G, D->lv0, 1, D->x + (size_t)i * n, NULL, D->resp,
                D->work);
    for (k = 0; k < K; k++) {
      D->share[k] += D->resp[k];
      D->shse[k] += D->resp[k] * D->resp[k];
    }
  }
  for (k = 0; k < K; k++) {
    double m = D->share[k] / N, v = D->shse[k] / N - m * m;
    D->share[k] = m;
    D->shse[k] = N > 1 ? sqrt(fmax(v, 0) * N / (N - 1) / N) : NAN;
    if (fabs(m - D->G->w[k]) > worst) worst = fabs(m - D->G->w[k]);
  }
  return worst;
}

static int bykey (const void *a, const void *b)
{
  double u = ((const ol_dfs_kv *)a)->k, v = ((const ol_dfs_kv *)b)->k;
  return u < v ? -1 : u > v;
}

/* psi(m) for an integer m >= 1 */
static double digamma (double m)
{
  double r = 0;
  for (; m < 8; m++) r -= 1 / m;
  return r + log(m) - 1 / (2 * m) - 1 / (12 * m * m) + 1 / (120 * m * m * m * m);
}

static double m_entropy (ol_dfs *D)
{
  int n = D->n, N = D->N < OL_DFS_HMAX ? D->N : OL_DFS_HMAX, i, a,
    used = 0;
  double sum = 0, logv;
  if (N < 2) return NAN;
  for (i = 0; i < N; i++) {
    D->ord[i].k = D->x[(size_t)i * n];
    D->ord[i].i = i;
  }
  qsort(D->ord, (size_t)N, sizeof *D->ord, bykey);
  for (a = 0; a < N; a++) {
    const double *xa = D->x + (size_t)D->ord[a].i * n;
    double best = INFINITY;
    int b, dir;
    if ((a & 1023) == 0 && ol_interrupted()) return NAN;
    for (dir = -1; dir <= 1; dir += 2)
      for (b = a + dir; b >= 0 && b < N; b += dir) {
        const double *xb = D->x + (size_t)D->ord[b].i * n;
        double d0 = xb[0] - xa[0], d2 = d0 * d0;
        int j;
        if (d2 >= best) break;
        for (j = 1; j < n && d2 < best; j++)
          d2 += (xb[j] - xa[j]) * (xb[j] - xa[j]);
        if (d2 < best) best = d2;
      }
    if (best > 0 && isfinite(best)) {
      sum += 0.5 * log(best);
      used++;
    }
  }
  if (used < 2) return NAN;
  logv = 0.5 * n * log(DFS_PI) - lgamma(0.5 * n + 1);
  return digamma(used) - digamma(1) + logv + n * sum / used;
}

double ol_dfs_probe (const void *st, int metric, const ol_ctx *c)
{
  ol_dfs *D = (ol_dfs *)st;     /* the run's own memory: a cache */
  int slot = metric == OL_MET_KL ? 0 : metric == OL_MET_TV ? 1
    : metric == OL_MET_W2 ? 2 : metric == OL_MET_MODEWEIGHTS ? 3
    : metric == OL_MET_ENTROPY ? 4 : -1;
  if (slot < 0 || D->x == NULL) return NAN;
  if (D->mt != c->t) {
    D->met[2] = D->met[3] = D->met[4] = NAN;
    m_hist(D);
    if (!ol_interrupted()) D->met[2] = m_w2(D, c->p->mean, c->p->cov);
    if (!ol_interrupted()) D->met[3] = m_modes(D);
    if (!ol_interrupted()) D->met[4] = m_entropy(D);
    /* Ctrl-C while they were computed: not kept (the run stops) */
    if (!ol_interrupted()) D->mt = c->t;
  }
  return D->met[slot];
}

int ol_dfs_result (const void *st, const char *name, const double **v,
                   int *rows, int *cols)
{
  const ol_dfs *D = st;
  if (D->x == NULL) return 0;
  if (strcmp(name, "samples") == 0) {
    *v = D->x;
    *rows = D->N;
    *cols = D->n;
    return 1;
  }
  if (strcmp(name, "shares") == 0 || strcmp(name, "shares_se") == 0) {
    /* the state's own cache: fresh for the current particles */
    ol_dfs *W = (ol_dfs *)D;
    m_modes(W);
    *v = name[6] == '\0' ? D->share : D->shse;
    *rows = 1;
    *cols = D->K;
    return 1;
  }
  return 0;
}

int ol_dfs_check (const ol_method_type *m, const ol_problem *p, ol_err *e)
{
  if (ol_gmm_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs the exact score of its "
                      "target: a Gaussian mixture made by problem.gmm{} (%s "
                      "is not one)", m->name, p->name);
  return OL_OK;
}
