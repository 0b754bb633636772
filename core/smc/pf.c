/*
** core/smc/pf.c -- the bootstrap particle filter pass with PaRIS
** statistics, unconditional or conditional, and the path draw (pf.h has
** the algorithm and its references).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "smc/pf.h"

#define KMAX 32   /* accept-reject proposals for one particle's draws
                     before its backward kernel is computed in full */

int ol_smc_check (const ol_method_type *m, const ol_problem *p, ol_err *e)
{
  if (ol_ssm_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "smc.%s needs a state-space model "
                      "(problem.ssm{kind = \"lg\"} or {kind = \"sv\"}); %s "
                      "is not one", m->name, p->name);
  return OL_OK;
}

int ol_pf_init (ol_pf *f, const ol_ssm *M, int N, int nt, int h, int keep,
                const char *who, ol_err *e)
{
  size_t n = (size_t)N;
  memset(f, 0, sizeof *f);
  f->M = M;
  f->N = N;
  f->nt = nt;
  f->h = h;
  f->keep = keep;
  if (keep && (double)M->T * N * (8.0 + 4.0 * nt) > 1e9)
    return ol_err_set(e, OL_EINVAL, "%s keeps every particle and backward "
                      "index: T = %d, N = %d, Ntilde = %d need %.0f MB "
                      "(at most 1000): use a smaller N or T", who, M->T, N,
                      nt, (double)M->T * N * (8.0 + 4.0 * nt) / 1e6);
  if ((f->xp = malloc(n * sizeof *f->xp)) == NULL
      || (f->xc = malloc(n * sizeof *f->xc)) == NULL
      || (f->tp = malloc(n * sizeof *f->tp)) == NULL
      || (f->tc = malloc(n * sizeof *f->tc)) == NULL
      || (f->lw = malloc(n * sizeof *f->lw)) == NULL
      || (f->w = malloc(n * sizeof *f->w)) == NULL
      || (f->ap = malloc(n * sizeof *f->ap)) == NULL
      || (f->al = malloc(n * sizeof *f->al)) == NULL
      || (f->stk = malloc(n * sizeof *f->stk)) == NULL
      || (f->bw = malloc(n * sizeof *f->bw)) == NULL
      || (keep && (f->X = malloc(n * (size_t)M->T * sizeof *f->X)) == NULL)
      || (keep && (f->B = malloc(n * (size_t)M->T * (size_t)nt
                                 * sizeof *f->B)) == NULL))
    return ol_err_set(e, OL_ENOMEM, "%s: out of memory for N = %d "
                      "particles", who, N);
  return OL_OK;
}

void ol_pf_fini (ol_pf *f)
{
  free(f->xp);
  free(f->xc);
  free(f->tp);
  free(f->tc);
  free(f->lw);
  free(f->w);
  free(f->ap);
  free(f->al);
  free(f->stk);
  free(f->bw);
  free(f->X);
  free(f->B);
  f->xp = f->xc = f->tp = f->tc = f->lw = f->w = f->ap = f->bw = f->X = NULL;
  f->al = f->stk = f->B = NULL;
}

/* The first j with c[j] > u (c increasing, u < c[n - 1]). */
static int search (const double *c, int n, double u)
{
  int lo = 0, hi = n - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (c[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* The weights of time t from f->lw into f->w (max 1) and f->wsum, their
** alias table (Walker 1977, Vose's stable construction), the filtering
** mean into *xm, the log-likelihood increment and ESS / N accumulated. */
static void weigh (ol_pf *f, double *xm)
{
  int N = f->N, i, ns = 0, nl = N, s, l;
  double mx = -INFINITY, sum = 0, s2 = 0, m = 0;
  for (i = 0; i < N; i++) mx = fmax(mx, f->lw[i]);
  for (i = 0; i < N; i++) {
    double w = f->w[i] = exp(f->lw[i] - mx);
    sum += w;
    s2 += w * w;
    m += w * f->xc[i];
  }
  f->wsum = sum;
  f->loglik += mx + log(sum / N);
  f->ess += sum * sum / s2 / N;
  if (xm != NULL) *xm = m / sum;
  /* small ones from the bottom of stk, large ones from the top */
  for (i = 0; i < N; i++) {
    f->ap[i] = f->w[i] * N / sum;
    if (f->ap[i] < 1) f->stk[ns++] = i;
    else f->stk[--nl] = i;
  }
  while (ns > 0 && nl < N) {
    s = f->stk[--ns];
    l = f->stk[nl];
    f->al[s] = l;
    f->ap[l] -= 1 - f->ap[s];
    if (f->ap[l] < 1) {
      nl++;
      f->stk[ns++] = l;
    }
  }
  while (ns > 0) f->ap[f->stk[--ns]] = 1;     /* rounding leftovers */
  while (nl < N) f->ap[f->stk[nl++]] = 1;
}

/* A draw from W (the alias table of weigh). */
static int wdraw (const ol_pf *f, ol_rng *rng)
{
  double u = ol_rng_uniform(rng) * f->N;
  int i = (int)u;
  if (i >= f->N) i = f->N - 1;
  return u - i < f->ap[i] ? i : f->al[i];
}

/* (2)-(3) of the header for particle i at time t >= 1: its nt backward
** indices (into Bi when keeping) and its tau.  f->lw still holds the log
** weights of t - 1. */
static void backward (ol_pf *f, int t, int i, ol_rng *rng, int *Bi)
{
  const ol_ssm *M = f->M;
  int N = f->N, k, l, j, tries = 0, full = 0;
  double x = f->xc[i], acc = 0, r;
  for (k = 0; k < f->nt; k++) {
    j = -1;
    while (!full && j < 0) {
      if (tries == KMAX) {
        /* the full kernel, once for this particle */
        double mx = -INFINITY, s = 0;
        for (l = 0; l < N; l++) {
          r = x - M->a * f->xp[l];
          f->bw[l] = f->lw[l] - r * r / (2 * M->q);
          mx = fmax(mx, f->bw[l]);
        }
        for (l = 0; l < N; l++) f->bw[l] = s += exp(f->bw[l] - mx);
        full = 1;
        f->full++;
        break;
      }
      tries++;
      f->props++;
      l = wdraw(f, rng);
      r = x - M->a * f->xp[l];
      if (ol_rng_uniform(rng) < exp(-r * r / (2 * M->q))) j = l;
    }
    if (j < 0) j = search(f->bw, N, ol_rng_uniform(rng) * f->bw[N - 1]);
    if (Bi != NULL) Bi[k] = j;
    acc += f->tp[j] + ol_ssm_h(f->h, t, f->xp[j], x);
  }
  f->tc[i] = acc / f->nt;
}

int ol_pf_pass (ol_pf *f, const double *ref, ol_rng *rng, double *xmean,
                ol_err *e)
{
  const ol_ssm *M = f->M;
  int N = f->N, T = M->T, free_n = ref != NULL ? N - 1 : N, t, i;
  double sq = sqrt(M->q), *sw, s = 0;
  f->loglik = 0;
  f->ess = 0;
  /* t = 0 */
  for (i = 0; i < N; i++) {
    f->xc[i] = i < free_n ? M->m0 + sqrt(M->P0) * ol_rng_normal(rng)
                          : ref[0];
    f->tc[i] = ol_ssm_h(f->h, 0, 0, f->xc[i]);
    f->lw[i] = ol_ssm_logg(M, 0, f->xc[i]);
  }
  if (f->keep) memcpy(f->X, f->xc, sizeof *f->X * (size_t)N);
  weigh(f, xmean);
  for (t = 1; t < T; t++) {
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "smc: interrupted at t = %d of %d",
                        t, T);
    sw = f->xp; f->xp = f->xc; f->xc = sw;
    sw = f->tp; f->tp = f->tc; f->tc = sw;
    /* (1) resample and move */
    for (i = 0; i < free_n; i++) {
      f->xc[i] = M->a * f->xp[wdraw(f, rng)] + sq * ol_rng_normal(rng);
    }
    if (ref != NULL) f->xc[N - 1] = ref[t];
    /* (2)-(3) backward draws and tau (a particle whose draws fall back
    ** on its full kernel costs O(N): Ctrl-C is looked at within t too) */
    for (i = 0; i < N; i++) {
      if ((i & 1023) == 1023 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "smc: interrupted at t = %d of %d",
                          t, T);
      backward(f, t, i, rng, f->keep ? f->B + ((size_t)t * N + i) * f->nt
                                     : NULL);
    }
    for (i = 0; i < N; i++) f->lw[i] = ol_ssm_logg(M, t, f->xc[i]);
    if (f->keep) memcpy(f->X + (size_t)t * N, f->xc, sizeof *f->X * (size_t)N);
    weigh(f, xmean != NULL ? xmean + t : NULL);
  }
  for (i = 0; i < N; i++) s += f->w[i] * f->tc[i];
  f->est = s / f->wsum;
  f->ess /= T;
  return OL_OK;
}

void ol_pf_path (const ol_pf *f, ol_rng *rng, double *path)
{
  int N = f->N, T = f->M->T, t, i = wdraw(f, rng);
  for (t = T - 1; t >= 0; t--) {
    path[t] = f->X[(size_t)t * N + i];
    if (t > 0)
      i = f->B[((size_t)t * N + i) * f->nt + ol_rng_below(rng, f->nt)];
  }
}
