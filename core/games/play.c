/*
** core/games/play.c -- the averaging and regret accounting shared by the
** game dynamics (see play.h).
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "play.h"
#include "vec.h"

int ol_play_init (ol_play *pl, ol_ctx *c, int avg, const char *who,
                  ol_err *e)
{
  const ol_problem *p = c->p;
  int b, sum = 0;
  pl->avg = avg;
  pl->T = 0;
  pl->wsum = 0;
  pl->U = NULL;
  if (p->set.kind == OL_SET_SIMPLEX) {
    pl->simplex = 1;
    pl->nb = p->set.nblocks;
    for (b = 0; b < pl->nb; b++) sum += pl->blk[b] = p->set.blocks[b];
  }
  else if (p->kind == OL_GAME && p->rows > 0 && p->cols > 0) {
    pl->simplex = 0;
    pl->nb = 2;
    sum = (pl->blk[0] = p->rows) + (pl->blk[1] = p->cols);
  }
  else
    return ol_err_set(e, OL_EINVAL, "%s needs a game or a product of "
                      "simplices", who);
  if (sum != c->n)
    return ol_err_set(e, OL_EINVAL, "%s: blocks sum to %d, dimension is %d",
                      who, sum, c->n);
  for (b = 0; b < pl->nb; b++) pl->S[b] = 0;
  if (pl->simplex && (pl->U = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  if (c->xavg != NULL) ol_vec_copy(c->x, c->xavg, c->n);
  return OL_OK;
}

void ol_play_fini (ol_play *pl)
{
  ol_vec_free(pl->U);
  pl->U = NULL;
}

int ol_regret_init (ol_regret *s, ol_ctx *c, int avg, const char *who,
                    ol_err *e)
{
  int rc;
  if (c->p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "%s needs a product of simplices", who);
  if ((rc = ol_play_init(&s->play, c, avg, who, e)) != OL_OK) return rc;
  if ((s->R = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

void ol_regret_fini (void *st)
{
  ol_regret *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->R);
  ol_vec_free(s->g);
  s->R = s->g = NULL;
}

void ol_play_observe (ol_play *pl, ol_ctx *c, const double *z,
                      const double *g)
{
  int b, i, off, n = c->n;
  double w, t1 = (double)(pl->T + 1);
  /* (1) utilities u = -g: U += u, S_i += <u_i, z_i> */
  if (pl->U != NULL)
    for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
      double s = 0;
      for (i = off; i < off + pl->blk[b]; i++) {
        pl->U[i] -= g[i];
        s -= g[i] * z[i];
      }
      pl->S[b] += s;
    }
  pl->T++;
  /* (2) weighted average: xavg += (w / sum w) (z - xavg) */
  w = pl->avg == OL_AVG_LINEAR ? t1 : pl->avg == OL_AVG_QUADRATIC ? t1 * t1
    : 1.0;
  pl->wsum += w;
  if (c->xavg != NULL) {
    double f = w / pl->wsum;
    for (i = 0; i < n; i++) c->xavg[i] += f * (z[i] - c->xavg[i]);
  }
}

/* The largest average external regret (NaN before the first step or
** without simplices). */
static double ol_play_regret (const ol_play *pl)
{
  double worst = -INFINITY;
  int b, i, off;
  if (pl->U == NULL || pl->T == 0) return NAN;
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    double hi = -INFINITY;
    for (i = off; i < off + pl->blk[b]; i++)
      if (pl->U[i] > hi) hi = pl->U[i];
    if (hi - pl->S[b] > worst) worst = hi - pl->S[b];
  }
  return worst / (double)pl->T;
}

/* Player b's external regret / T (b = 0, 1), NaN when there is none. */
static double block_regret (const ol_play *pl, int b)
{
  double hi = -INFINITY;
  int i, off = 0, k;
  if (pl->U == NULL || pl->T == 0 || b >= pl->nb) return NAN;
  for (k = 0; k < b; k++) off += pl->blk[k];
  for (i = off; i < off + pl->blk[b]; i++)
    if (pl->U[i] > hi) hi = pl->U[i];
  return (hi - pl->S[b]) / (double)pl->T;
}

double ol_play_probe (const void *st, int metric, const ol_ctx *c)
{
  (void)c;
  if (metric == OL_MET_REGRET1) return block_regret(st, 0);
  if (metric == OL_MET_REGRET2) return block_regret(st, 1);
  return metric == OL_MET_REGRET ? ol_play_regret(st) : NAN;
}

void ol_play_exp (const double *restrict a, double *restrict y, int n)
{
  static const double log2e = 1.4426950408889634074;
  static const double ln2hi = 6.93147180369123816490e-01;
  static const double ln2lo = 1.90821492927058770002e-10;
  static const double shift = 0x1.8p52;   /* adding it rounds to integer */
  int i;
  /* (1) one branch-free pass the compiler vectorizes (a clamp or a test
  ** inside it keeps GCC from vectorizing under -ftrapping-math) */
  for (i = 0; i < n; i++) {
    double v = a[i], kf, r, q, b, sc;
    uint64_t bits;
    /* a = k ln 2 + r, k = round(a / ln 2), |r| <= ln 2 / 2 (ln 2 in two
    ** parts, the high one with trailing zeros so k ln2hi is exact) */
    kf = (v * log2e + shift) - shift;
    r = (v - kf * ln2hi) - kf * ln2lo;
    /* exp(r) = sum_{j <= 13} r^j / j! by Horner */
    q = 1.0 / 6227020800.0;
    q = q * r + 1.0 / 479001600.0;
    q = q * r + 1.0 / 39916800.0;
    q = q * r + 1.0 / 3628800.0;
    q = q * r + 1.0 / 362880.0;
    q = q * r + 1.0 / 40320.0;
    q = q * r + 1.0 / 5040.0;
    q = q * r + 1.0 / 720.0;
    q = q * r + 1.0 / 120.0;
    q = q * r + 1.0 / 24.0;
    q = q * r + 1.0 / 6.0;
    q = q * r + 0.5;
    q = q * r + 1.0;
    q = q * r + 1.0;
    /* 2^k: k + 1023 sits in the low bits of 2^52 + k + 1023; shifted into
    ** the exponent field (a normal number for k >= -1022) */
    b = kf + (0x1p52 + 1023.0);
    memcpy(&bits, &b, sizeof bits);
    bits <<= 52;
    memcpy(&sc, &bits, sizeof sc);
    y[i] = q * sc;
  }
  /* (2) below -708 (k < -1021, where the bits above are garbage): 0 */
  for (i = 0; i < n; i++)
    if (a[i] < -708) y[i] = 0;
}
