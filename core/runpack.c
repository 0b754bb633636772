/*
** core/runpack.c -- a run's results as bytes and back (runpack.h).
**
** Layout: the magic "OLRP1\0\0\0", then in order the scalars (n, tdim,
** len, offgrid, stride, next_rec, reason, t, nfev, ngev, nhev, accepted,
** mfev, mgev, metrics, seconds, drows, dthin, dseen, hasavg, mingrad,
** changes), the message (OL_ERRMAX bytes), x (n), xavg (n when hasavg),
** vmin (OL_NMETRICS), times, evals, secs (len each), each recorded
** metric's values (len each, in metric order), the trajectory (len x
** tdim when recorded) and the draws (drows x (OL_DRAW_COLS + n)).  Every
** field is a fixed-size copy of the struct member; unpack checks the
** magic, n, tdim and the recorded set against r's and the total length.
** This file reads the run's private layout (core/runpriv.h), as run.c and
** metrics.c do.
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runpack.h"
#include "runpriv.h"

#define MAGIC "OLRP1\0\0\0"

/* A cursor over the bytes: put copies in (buf may be NULL: only counts),
** get copies out and fails past the end. */
typedef struct cur {
  unsigned char *w;
  const unsigned char *r;
  size_t at, len;
  int bad;
} cur;

static void put (cur *c, const void *v, size_t k)
{
  if (c->w != NULL && k > 0) memcpy(c->w + c->at, v, k);
  c->at += k;
}

static void get (cur *c, void *v, size_t k)
{
  if (c->bad || k > c->len - c->at) {
    c->bad = 1;
    return;
  }
  if (k > 0) memcpy(v, c->r + c->at, k);
  c->at += k;
}

/* The scalars, in one place for both directions. */
#define SCALARS(X) \
  X(r->n) X(r->tdim) X(r->len) X(r->offgrid) X(r->stride) X(r->next_rec) \
  X(r->reason) X(r->c.t) X(r->c.nfev) X(r->c.ngev) X(r->c.nhev) \
  X(r->c.accepted) X(r->orc.mfev) X(r->orc.mgev) X(r->metrics) \
  X(r->seconds) X(r->drows) X(r->dthin) X(r->dseen) X(hasavg) \
  X(r->mem.mingrad) X(r->mem.changes)

static void packall (cur *c, const ol_run *r)
{
  int hasavg = r->xavg != NULL, k;
  size_t len = (size_t)r->len, dcols = (size_t)(OL_DRAW_COLS + r->n);
#define PUT(f) put(c, &(f), sizeof (f));
  put(c, MAGIC, 8);
  SCALARS(PUT)
#undef PUT
  put(c, r->msg, sizeof r->msg);
  put(c, r->x, (size_t)r->n * sizeof *r->x);
  if (hasavg) put(c, r->xavg, (size_t)r->n * sizeof *r->xavg);
  put(c, r->vmin, sizeof r->vmin);
  put(c, r->times, len * sizeof *r->times);
  put(c, r->evals, len * sizeof *r->evals);
  put(c, r->secs, len * sizeof *r->secs);
  for (k = 0; k < OL_NMETRICS; k++)
    if (r->vals[k] != NULL) put(c, r->vals[k], len * sizeof *r->vals[k]);
  if (r->traj != NULL)
    put(c, r->traj, len * (size_t)r->tdim * sizeof *r->traj);
  if (r->drows > 0)
    put(c, r->draws, (size_t)r->drows * dcols * sizeof *r->draws);
}

void *ol_run_pack (const ol_run *r, size_t *len, ol_err *e)
{
  cur c;
  memset(&c, 0, sizeof c);
  packall(&c, r);                      /* (1) count */
  c.w = malloc(c.at > 0 ? c.at : 1);
  if (c.w == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (a packed run of %zu bytes)",
               c.at);
    return NULL;
  }
  *len = c.at;
  c.at = 0;
  packall(&c, r);                      /* (2) copy */
  return c.w;
}

/* realloc *p to bytes; 1 when out of memory (*p stays valid). */
static int grow (void **p, size_t bytes)
{
  void *q = realloc(*p, bytes);
  if (q == NULL) return 1;
  *p = q;
  return 0;
}

#define GROW(p, bytes) do { \
    if (grow((void **)&(p), (bytes))) goto nomem; \
  } while (0)

/* Room for at least len history points and drows draws. */
static int reserve (ol_run *r, long len, long drows, ol_err *e)
{
  size_t m = (size_t)(len > 0 ? len : 1);
  int k;
  if (len > r->alloc) {
    GROW(r->times, m * sizeof *r->times);
    GROW(r->evals, m * sizeof *r->evals);
    GROW(r->secs, m * sizeof *r->secs);
    for (k = 0; k < OL_NMETRICS; k++)
      if (r->vals[k] != NULL) GROW(r->vals[k], m * sizeof *r->vals[k]);
    if (r->traj != NULL) GROW(r->traj, m * (size_t)r->tdim * sizeof *r->traj);
    r->alloc = (int)len;
  }
  if (drows > r->dalloc) {
    GROW(r->draws, (size_t)drows * (size_t)(OL_DRAW_COLS + r->n)
         * sizeof *r->draws);
    r->dalloc = drows;
  }
  return OL_OK;
nomem:
  return ol_err_set(e, OL_ENOMEM, "out of memory (restoring %ld history "
                    "points, %ld draws)", len, drows);
}

int ol_run_unpack (ol_run *r, const void *buf, size_t len, ol_err *e)
{
  cur c;
  char magic[8];
  struct ol_run h;                     /* the packed scalars */
  int hasavg = 0, k;
  size_t hl, dcols;
  memset(&c, 0, sizeof c);
  memset(&h, 0, sizeof h);
  c.r = buf;
  c.len = len;
  /* (1) the scalars, into h, checked against r */
  get(&c, magic, 8);
  {
    ol_run *keep = r;
    r = &h;
#define GET(f) get(&c, &(f), sizeof (f));
    SCALARS(GET)
#undef GET
    r = keep;
  }
  if (c.bad || memcmp(magic, MAGIC, 8) != 0)
    return ol_err_set(e, OL_EINVAL, "not a packed run (%zu bytes)", len);
  if (h.n != r->n || h.tdim != r->tdim ||
      h.metrics != r->metrics || (hasavg != 0) != (r->xavg != NULL) ||
      h.len < 0 || h.drows < 0 || (h.drows > 0 && r->dcap == 0))
    return ol_err_set(e, OL_EINVAL, "the packed run does not match this "
                      "run (another problem, method or options)");
  hl = (size_t)h.len;
  dcols = (size_t)(OL_DRAW_COLS + r->n);
  if (reserve(r, h.len, h.drows, e) != OL_OK) return e->code;
  /* (2) the arrays, straight into r */
  get(&c, r->msg, sizeof r->msg);
  r->msg[sizeof r->msg - 1] = '\0';
  get(&c, r->x, (size_t)r->n * sizeof *r->x);
  if (hasavg) get(&c, r->xavg, (size_t)r->n * sizeof *r->xavg);
  get(&c, r->vmin, sizeof r->vmin);
  get(&c, r->times, hl * sizeof *r->times);
  get(&c, r->evals, hl * sizeof *r->evals);
  get(&c, r->secs, hl * sizeof *r->secs);
  for (k = 0; k < OL_NMETRICS; k++)
    if (r->vals[k] != NULL) get(&c, r->vals[k], hl * sizeof *r->vals[k]);
  if (r->traj != NULL) get(&c, r->traj, hl * (size_t)r->tdim
                           * sizeof *r->traj);
  if (h.drows > 0) get(&c, r->draws, (size_t)h.drows * dcols
                       * sizeof *r->draws);
  if (c.bad || c.at != len)
    return ol_err_set(e, OL_EINVAL, "a packed run of %zu bytes is "
                      "truncated or too long", len);
  /* (3) the scalars */
  r->len = h.len;
  r->offgrid = h.offgrid;
  r->stride = h.stride;
  r->next_rec = h.next_rec;
  r->reason = h.reason;
  r->c.t = h.c.t;
  r->c.nfev = h.c.nfev;
  r->c.ngev = h.c.ngev;
  r->c.nhev = h.c.nhev;
  r->c.accepted = h.c.accepted;
  r->orc.mfev = h.orc.mfev;
  r->orc.mgev = h.orc.mgev;
  r->seconds = h.seconds;
  r->drows = h.drows;
  r->dthin = h.dthin;
  r->dseen = h.dseen;
  r->mem.mingrad = h.mem.mingrad;
  r->mem.changes = h.mem.changes;
  return OL_OK;
}

/* -- quantile bands ------------------------------------------------------- */

static int cmpd (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int ol_run_band (ol_run *const *dst, const double *q, int nq,
                 ol_run *const *src, int n, ol_err *e)
{
  const ol_run *t;
  double *v;
  int *at, i, k, m, b;
  long len;
  if (n < 1 || nq < 1)
    return ol_err_set(e, OL_EINVAL, "band: %d runs, %d quantiles", n, nq);
  for (b = 0; b < nq; b++)
    if (!(q[b] >= 0 && q[b] <= 1))
      return ol_err_set(e, OL_EINVAL, "band: q = %g is out of range [0, 1]",
                        q[b]);
  t = src[0];
  for (i = 0; i < n; i++) {
    if (src[i]->metrics != dst[0]->metrics || src[i]->n != dst[0]->n)
      return ol_err_set(e, OL_EINVAL, "band: run %d records other metrics "
                        "than the band", i + 1);
    if (src[i]->len > t->len) t = src[i];
  }
  len = t->len;
  for (b = 0; b < nq; b++) {
    if (dst[b]->metrics != dst[0]->metrics || dst[b]->n != dst[0]->n)
      return ol_err_set(e, OL_EINVAL, "band: the bands' runs differ");
    if (reserve(dst[b], len, 0, e) != OL_OK) return e->code;
  }
  v = malloc((size_t)n * sizeof *v);
  at = calloc((size_t)n, sizeof *at);
  if (v == NULL || at == NULL) {
    free(v);
    free(at);
    return ol_err_set(e, OL_ENOMEM, "band: out of memory");
  }
  for (k = 0; k < OL_NMETRICS; k++) {
    if (dst[0]->vals[k] == NULL) continue;
    for (b = 0; b < nq; b++) dst[b]->vmin[k] = NAN;
    memset(at, 0, (size_t)n * sizeof *at);
    for (m = 0; m < len; m++) {
      long tm = t->times[m];
      int c = 0;
      for (i = 0; i < n; i++) {
        const ol_run *s = src[i];
        double x;
        /* s's last record at or before tm (times increase, so at[i]
        ** only moves forward) */
        while (at[i] + 1 < s->len && s->times[at[i] + 1] <= tm) at[i]++;
        if (s->len == 0 || s->times[at[i]] > tm) continue;
        x = s->vals[k][at[i]];
        if (isfinite(x)) v[c++] = x;
      }
      if (c > 1) qsort(v, (size_t)c, sizeof *v, cmpd);
      for (b = 0; b < nq; b++) {
        ol_run *d = dst[b];
        double h = (c - 1) * q[b], y;
        int j = (int)h;
        if (c == 0) y = NAN;
        else y = j + 1 < c ? v[j] + (h - j) * (v[j + 1] - v[j]) : v[j];
        d->vals[k][m] = y;
        if (isfinite(y) && !(y >= d->vmin[k])) d->vmin[k] = y;
      }
    }
  }
  free(v);
  free(at);
  for (b = 0; b < nq; b++) {
    ol_run *d = dst[b];
    memcpy(d->times, t->times, (size_t)len * sizeof *t->times);
    memcpy(d->evals, t->evals, (size_t)len * sizeof *t->evals);
    memcpy(d->secs, t->secs, (size_t)len * sizeof *t->secs);
    d->len = (int)len;
    d->offgrid = t->offgrid;
    d->stride = t->stride;
    d->next_rec = t->next_rec;
    d->reason = t->reason;
    d->c.t = t->c.t;
    d->c.nfev = t->c.nfev;
    d->c.ngev = t->c.ngev;
    d->c.nhev = t->c.nhev;
    d->c.accepted = t->c.accepted;
    d->orc.mfev = t->orc.mfev;
    d->orc.mgev = t->orc.mgev;
    d->seconds = t->seconds;
    memcpy(d->x, t->x, (size_t)d->n * sizeof *d->x);
  }
  return OL_OK;
}
