/*
** core/dist/compress.c -- the compressors of compress.h: top-k, rand-k,
** sign, scaled sign, QSGD and TernGrad, and the bits of their messages;
** and ol_cworkers, the workers of ef14 and ef21.
**
** top-k keeps a min-heap of the k best indices so far (better: larger
** |v_i|, then lower i), O(n log k); rand-k draws its subset by k steps of
** a Fisher-Yates shuffle of a permutation kept across calls (any
** permutation gives a uniform k-subset), O(k) draws.  QSGD and TernGrad
** draw one uniform per coordinate, in coordinate order.  TernGrad's
** clipping bound c sd is not applied when sd = 0 (a constant message is
** sent as it is, not clipped to zero).
*/
#include <math.h>
#include <stdlib.h>

#include "compress.h"

/* ceil(log2 n): the bits of an index in 0..n-1 (0 when n = 1) */
static double index_bits (int n)
{
  double b = 0;
  long m = 1;
  while (m < n) {
    m *= 2;
    b++;
  }
  return b;
}

double ol_compress_bits (int kind, int k, int s, int n)
{
  if (k > n) k = n;
  switch (kind) {
  case OL_CMP_TOPK:
  case OL_CMP_RANDK: return (double)k * (32 + index_bits(n));
  case OL_CMP_SIGN: return n;
  case OL_CMP_SSIGN: return (double)n + 32;
  case OL_CMP_QSGD: return 32 + (double)n * (1 + index_bits(s + 1));
  case OL_CMP_TERNGRAD: return 2 * (double)n + 32;
  default: return 32 * (double)n;
  }
}

int ol_compress_init (ol_compress *cp, const double *par, int n,
                      const char *who, ol_err *e)
{
  int i;
  cp->kind = (int)par[0];
  cp->k = (int)fmin(par[1], n);
  cp->s = (int)par[2];
  cp->clip = par[3];
  cp->n = n;
  if (cp->kind < 0 || cp->kind >= OL_NCMP || n < 1 || cp->k < 1
      || cp->s < 1 || !(cp->clip > 0))
    return ol_err_set(e, OL_EINVAL, "%s: bad compressor (compress %d, "
                      "k %d, s %d, clip %g, n %d)", who, cp->kind, cp->k,
                      cp->s, cp->clip, n);
  cp->bits = ol_compress_bits(cp->kind, cp->k, cp->s, n);
  if (cp->kind == OL_CMP_TOPK || cp->kind == OL_CMP_RANDK) {
    if ((cp->idx = malloc(sizeof *cp->idx * (size_t)n)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "%s: out of memory (%d indices)", who,
                        n);
    for (i = 0; i < n; i++) cp->idx[i] = i;
  }
  return OL_OK;
}

void ol_compress_fini (ol_compress *cp)
{
  free(cp->idx);
  cp->idx = NULL;
}

/* top-k's order: a is worse than b (smaller |v|, or equal and later) */
static int worse (const double *v, int a, int b)
{
  double x = fabs(v[a]), y = fabs(v[b]);
  return x < y || (x == y && a > b);
}

/* restore the min-heap h[0, k) (root: the worst kept) below position j */
static void sift (int *h, int k, int j, const double *v)
{
  for (;;) {
    int l = 2 * j + 1, m = j, t;
    if (l < k && worse(v, h[l], h[m])) m = l;
    if (l + 1 < k && worse(v, h[l + 1], h[m])) m = l + 1;
    if (m == j) return;
    t = h[j];
    h[j] = h[m];
    h[m] = t;
    j = m;
  }
}

static void topk (ol_compress *cp, const double *v, double *out)
{
  int *h = cp->idx, k = cp->k, n = cp->n, i, j;
  /* (1) heap of the first k, then each later index that beats the root */
  for (j = 0; j < k; j++) h[j] = j;
  for (j = k / 2 - 1; j >= 0; j--) sift(h, k, j, v);
  for (i = k; i < n; i++)
    if (worse(v, h[0], i)) {
      h[0] = i;
      sift(h, k, 0, v);
    }
  /* (2) keep them */
  for (i = 0; i < n; i++) out[i] = 0;
  for (j = 0; j < k; j++) out[h[j]] = v[h[j]];
}

static void randk (ol_compress *cp, const double *v, double *out,
                   ol_rng *r)
{
  int *p = cp->idx, k = cp->k, n = cp->n, i, j;
  double a = (double)n / k;
  for (i = 0; i < n; i++) out[i] = 0;
  for (j = 0; j < k; j++) {
    int m = j + (int)ol_rng_below(r, n - j), t = p[j];
    p[j] = p[m];
    p[m] = t;
    out[p[j]] = a * v[p[j]];
  }
}

static void qsgd (const ol_compress *cp, const double *v, double *out,
                  ol_rng *r)
{
  int n = cp->n, i;
  double s = cp->s, nrm = 0;
  for (i = 0; i < n; i++) nrm += v[i] * v[i];
  nrm = sqrt(nrm);
  for (i = 0; i < n; i++) {
    double a = nrm > 0 ? s * fabs(v[i]) / nrm : 0, l = floor(a);
    double xi = l + (ol_rng_uniform(r) < a - l ? 1 : 0);
    out[i] = nrm * (v[i] < 0 ? -xi : xi) / s;
  }
}

static void terngrad (const ol_compress *cp, const double *v, double *out,
                      ol_rng *r)
{
  int n = cp->n, i;
  double bound = INFINITY, smax = 0;
  /* (1) clipping at c sd, sd about the entries' mean */
  if (cp->clip < INFINITY) {
    double mean = 0, var = 0;
    for (i = 0; i < n; i++) mean += v[i];
    mean /= n;
    for (i = 0; i < n; i++) var += (v[i] - mean) * (v[i] - mean);
    if (var > 0) bound = cp->clip * sqrt(var / n);
  }
  for (i = 0; i < n; i++) {
    out[i] = fmax(-bound, fmin(bound, v[i]));
    smax = fmax(smax, fabs(out[i]));
  }
  /* (2) ternarize: S sign(u_i) with probability |u_i| / S */
  for (i = 0; i < n; i++) {
    double u = out[i];
    int b = ol_rng_uniform(r) * smax < fabs(u);
    out[i] = b ? (u < 0 ? -smax : smax) : 0;
  }
}

double ol_compress_apply (ol_compress *cp, const double *v, double *out,
                          ol_rng *r)
{
  int n = cp->n, i;
  double a = 0, err = 0;
  switch (cp->kind) {
  case OL_CMP_TOPK: topk(cp, v, out); break;
  case OL_CMP_RANDK: randk(cp, v, out, r); break;
  case OL_CMP_SIGN:
    for (i = 0; i < n; i++) out[i] = v[i] < 0 ? -1 : 1;
    break;
  case OL_CMP_SSIGN:
    for (i = 0; i < n; i++) a += fabs(v[i]);
    a /= n;
    for (i = 0; i < n; i++) out[i] = v[i] < 0 ? -a : a;
    break;
  case OL_CMP_QSGD: qsgd(cp, v, out, r); break;
  case OL_CMP_TERNGRAD: terngrad(cp, v, out, r); break;
  default:
    for (i = 0; i < n; i++) out[i] = v[i];
  }
  for (i = 0; i < n; i++) err += (out[i] - v[i]) * (out[i] - v[i]);
  return err;
}

int ol_cworkers_init (ol_cworkers *w, const double *cpar, int nw, ol_ctx *c,
                      const char *who, ol_err *e)
{
  int rc;
  w->cerr = NAN;
  if ((rc = ol_dist_split_init(&w->sp, c->p, nw, who, e)) != OL_OK)
    return rc;
  if ((rc = ol_compress_init(&w->cp, cpar, c->n, who, e)) != OL_OK)
    return rc;
  nw = w->sp.n;
  w->rw = malloc(sizeof *w->rw * (size_t)nw);
  w->who = malloc(sizeof *w->who * (size_t)nw);
  if (w->rw == NULL || w->who == NULL)
    return ol_err_set(e, OL_ENOMEM, "%s: out of memory (%d workers)", who,
                      nw);
  ol_dist_streams(w->rw, nw, c->rng);
  return OL_OK;
}

void ol_cworkers_fini (ol_cworkers *w)
{
  ol_dist_split_fini(&w->sp);
  ol_compress_fini(&w->cp);
  free(w->rw);
  free(w->who);
  w->rw = NULL;
  w->who = NULL;
}

void ol_cworkers_close (ol_cworkers *w, int m, double num, double den)
{
  w->bits += (double)m * w->cp.bits;
  w->cerr = den > 0 ? num / den : 0;
  w->rounds++;
}

double ol_cworkers_probe (const ol_cworkers *w, int metric)
{
  switch (metric) {
  case OL_MET_BITS: return w->bits;
  case OL_MET_COMPRESS_ERR: return w->cerr;
  case OL_MET_ROUNDS: return (double)w->rounds;
  default: return NAN;
  }
}

int ol_cupload_init (ol_cupload *u, const double *cpar, int n,
                     const char *who, ol_err *e)
{
  int rc;
  u->cerr = NAN;
  if ((rc = ol_compress_init(&u->cp, cpar, n, who, e)) != OL_OK) return rc;
  if (u->cp.kind == OL_CMP_NONE) return OL_OK;
  u->v = malloc(sizeof *u->v * (size_t)n);
  u->out = malloc(sizeof *u->out * (size_t)n);
  if (u->v == NULL || u->out == NULL)
    return ol_err_set(e, OL_ENOMEM, "%s: out of memory", who);
  return OL_OK;
}

void ol_cupload_fini (ol_cupload *u)
{
  ol_compress_fini(&u->cp);
  free(u->v);
  free(u->out);
  u->v = u->out = NULL;
}

void ol_cupload_send (ol_cupload *u, double *msg, ol_rng *r)
{
  int n = u->cp.n, j;
  u->bits += u->cp.bits;
  if (u->cp.kind == OL_CMP_NONE) return;
  u->num += ol_compress_apply(&u->cp, msg, u->out, r);
  for (j = 0; j < n; j++) {
    u->den += msg[j] * msg[j];
    msg[j] = u->out[j];
  }
}

void ol_cupload_delta (ol_cupload *u, const double *base, double *y,
                       ol_rng *r)
{
  int n = u->cp.n, j;
  if (u->cp.kind == OL_CMP_NONE) {
    u->bits += u->cp.bits;
    return;
  }
  for (j = 0; j < n; j++) u->v[j] = y[j] - base[j];
  ol_cupload_send(u, u->v, r);
  for (j = 0; j < n; j++) y[j] = base[j] + u->v[j];
}

void ol_cupload_close (ol_cupload *u)
{
  u->cerr = u->den > 0 ? u->num / u->den : 0;
  u->num = u->den = 0;
}

double ol_cupload_probe (const ol_cupload *u, int metric)
{
  switch (metric) {
  case OL_MET_BITS: return u->bits;
  case OL_MET_COMPRESS_ERR: return u->cerr;
  default: return NAN;
  }
}
