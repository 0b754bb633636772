/*
** core/runpack.c -- a run's results as bytes and back (runpack.h).
**
** Layout: the magic "OLRP2\0\0\0", then in order the scalars (n, tdim,
** len, offgrid, stride, next_rec, reason, t, nfev, ngev, nhev, accepted,
** mfev, mgev, metrics, seconds, drows, dthin, dseen, hasavg, mingrad,
** changes, the metric set's second word, the number of live parameter
** changes), the message (OL_ERRMAX bytes), x (n), xavg (n when hasavg),
** vmin (OL_NMETRICS), times, evals, secs (len each), each recorded
** metric's values (len each, in metric order), the trajectory (len x
** tdim when recorded), the draws (drows x (OL_DRAW_COLS + n)) and the
** log of live parameter changes (nchg x (t, param, value), field by
** field: no struct padding in the bytes).  Every field is a fixed-size
** copy of the struct member.  Unpack trusts none of it (the bytes may
** come from a damaged or hostile task file): the
** magic, n, tdim, the recorded set and the average against r's; every
** scalar against what a run made like r can hold (counts >= 0, t in
** [0, 2^62], a known stop reason, the history's stride and the draws'
** thinning powers of two, len <= t + 1, drows within dcap and the draws
** seen, nchg in [0, 2^24]); the total length the scalars imply before
** anything is allocated; then the history (times strictly increasing in
** [0, t], the next record within a stride of the last, evaluations and
** seconds finite and ordered) and the changes (times nondecreasing in
** [0, t], a live parameter of r's method, a value in its range).  A
** failure names the field and its range.
** This file reads the run's private layout (core/runpriv.h), as run.c and
** metrics.c do.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runpack.h"
#include "runpriv.h"

/* 2: the metric set's second word and the change log (issue 24) */
#define MAGIC "OLRP2\0\0\0"
#define SUMMAGIC "OLRS1\0\0\0"   /* a summary (ol_run_pack_summary) */
#define CHGBYTES (sizeof(long) + sizeof(int) + sizeof(double))

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

/* The scalars, in one place for both directions.  Of the metric set the
** first word where it always was, and (magic OLRP2) the second after the
** other scalars: the user slots (core/metrics/user.c) took the ids past
** 64. */
_Static_assert(OL_NMETRICS <= 128, "a packed run keeps the first 128 bits "
               "of its metric set: widen the layout (and its magic) first");

#define SCALARS(X) \
  X(r->n) X(r->tdim) X(r->len) X(r->offgrid) X(r->stride) X(r->next_rec) \
  X(r->reason) X(r->c.t) X(r->c.nfev) X(r->c.ngev) X(r->c.nhev) \
  X(r->c.accepted) X(r->orc.mfev) X(r->orc.mgev) X(r->metrics.w[0]) \
  X(r->seconds) X(r->drows) X(r->dthin) X(r->dseen) X(hasavg) \
  X(r->mem.mingrad) X(r->mem.changes) X(r->metrics.w[1]) X(r->nchg)

/* The draws and the change log, the end of both forms (field by field:
** no struct padding in the bytes). */
static void puttail (cur *c, const ol_run *r)
{
  int k;
  if (r->drows > 0)
    put(c, r->draws, (size_t)r->drows * (size_t)(OL_DRAW_COLS + r->n)
        * sizeof *r->draws);
  for (k = 0; k < r->nchg; k++) {
    put(c, &r->changes[k].t, sizeof r->changes[k].t);
    put(c, &r->changes[k].param, sizeof r->changes[k].param);
    put(c, &r->changes[k].value, sizeof r->changes[k].value);
  }
}

static void packall (cur *c, const ol_run *r)
{
  int hasavg = r->xavg != NULL, k;
  size_t len = (size_t)r->len;
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
  puttail(c, r);
}

/* The summary of r (runpack.h): the scalars with len at most 1, the
** message as its length and bytes, x (and the average), the smallest
** value of each recorded metric only, the last history point, the draws
** and the changes. */
static void packsum (cur *c, const ol_run *rr)
{
  ol_run h = *rr;                      /* the scalars as packed */
  const ol_run *r = &h;
  int hasavg = r->xavg != NULL, k, mlen = (int)strlen(rr->msg);
  size_t last = rr->len > 0 ? (size_t)rr->len - 1 : 0;
  h.len = rr->len > 0 ? 1 : 0;
#define PUT(f) put(c, &(f), sizeof (f));
  put(c, SUMMAGIC, 8);
  SCALARS(PUT)
#undef PUT
  put(c, &mlen, sizeof mlen);
  put(c, r->msg, (size_t)mlen);
  put(c, r->x, (size_t)r->n * sizeof *r->x);
  if (hasavg) put(c, r->xavg, (size_t)r->n * sizeof *r->xavg);
  for (k = 0; k < OL_NMETRICS; k++)
    if (r->vals[k] != NULL) put(c, &r->vmin[k], sizeof r->vmin[k]);
  if (h.len > 0) {
    put(c, r->times + last, sizeof *r->times);
    put(c, r->evals + last, sizeof *r->evals);
    put(c, r->secs + last, sizeof *r->secs);
    for (k = 0; k < OL_NMETRICS; k++)
      if (r->vals[k] != NULL) put(c, r->vals[k] + last, sizeof *r->vals[k]);
    if (r->traj != NULL)
      put(c, r->traj + last * (size_t)r->tdim,
          (size_t)r->tdim * sizeof *r->traj);
  }
  puttail(c, r);
}

/* Count, allocate, copy: the bytes of one of the two forms. */
static void *packwith (void (*fn) (cur *, const ol_run *), const ol_run *r,
                       size_t *len, ol_err *e)
{
  cur c;
  memset(&c, 0, sizeof c);
  fn(&c, r);                           /* (1) count */
  c.w = malloc(c.at > 0 ? c.at : 1);
  if (c.w == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (a packed run of %zu bytes)",
               c.at);
    return NULL;
  }
  *len = c.at;
  c.at = 0;
  fn(&c, r);                           /* (2) copy */
  return c.w;
}

void *ol_run_pack (const ol_run *r, size_t *len, ol_err *e)
{
  return packwith(packall, r, len, e);
}

void *ol_run_pack_summary (const ol_run *r, size_t *len, ol_err *e)
{
  return packwith(packsum, r, len, e);
}

size_t ol_run_packed_size (const ol_run *r)
{
  cur c;
  memset(&c, 0, sizeof c);
  packall(&c, r);                      /* the count pass alone */
  return c.at;
}

int ol_run_packed_summary (const void *buf, size_t len)
{
  return len >= 8 && memcmp(buf, SUMMAGIC, 8) == 0;
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

/* 1 when v is a power of two in [1, 2^62]. */
static int pow2 (long v)
{
  return v >= 1 && v <= OL_RUN_MAXITERS && (v & (v - 1)) == 0;
}

/* a * b + c into *out; 1 on overflow of size_t. */
static int muladd (size_t a, size_t b, size_t c, size_t *out)
{
  if (b != 0 && a > (SIZE_MAX - c) / b) return 1;
  *out = a * b + c;
  return 0;
}

#define BAD(...) ol_err_set(e, OL_EINVAL, __VA_ARGS__)

/* The scalars h (read from the bytes) against what a run made like r can
** hold; OL_OK or OL_EINVAL naming the field. */
static int check_scalars (const ol_run *r, const ol_run *h, int hasavg,
                          ol_err *e)
{
  if (h->n != r->n || h->tdim != r->tdim ||
      !ol_mset_eq(h->metrics, r->metrics) ||
      (hasavg != 0 && hasavg != 1) || hasavg != (r->xavg != NULL))
    return BAD("the packed run does not match this run (another problem, "
               "method or options: n %d, %d recorded metrics, trajectory "
               "width %d; this run's %d, %d, %d)", h->n,
               ol_mset_count(h->metrics), h->tdim, r->n,
               ol_mset_count(r->metrics), r->tdim);
  if (h->c.t < 0 || h->c.t > OL_RUN_MAXITERS)
    return BAD("iteration %ld is out of range [0, 2^62]", h->c.t);
  if (h->reason < OL_STOP_NONE || h->reason > OL_STOP_DIVERGED)
    return BAD("stop reason %d is out of range [%d, %d]", h->reason,
               OL_STOP_NONE, OL_STOP_DIVERGED);
  if (h->c.nfev < 0 || h->c.ngev < 0 || h->c.nhev < 0 || h->orc.mfev < 0 ||
      h->orc.mgev < 0)
    return BAD("a negative evaluation count (%ld, %ld, %ld, %ld, %ld)",
               h->c.nfev, h->c.ngev, h->c.nhev, h->orc.mfev, h->orc.mgev);
  if (h->c.accepted < 0 || h->c.accepted > h->c.t)
    return BAD("%ld accepted proposals is out of range [0, %ld] (the "
               "iterations)", h->c.accepted, h->c.t);
  if (!(h->seconds >= 0) || !isfinite(h->seconds))
    return BAD("stepping time %g s is not a finite number >= 0",
               h->seconds);
  if (h->len < 0 || h->len > h->c.t + 1 || h->len > (1L << 30))
    return BAD("%d history points is out of range [0, %ld] (the iterates)",
               h->len, h->c.t + 1 < (1L << 30) ? h->c.t + 1 : (1L << 30));
  if (h->offgrid != 0 && h->offgrid != 1)
    return BAD("offgrid = %d is neither 0 nor 1", h->offgrid);
  if (h->offgrid && h->len == 0)
    return BAD("offgrid = 1 with no history point");
  if (!pow2(h->stride))
    return BAD("history stride %ld is not a power of two in [1, 2^62]",
               h->stride);
  if (h->next_rec < 0 || h->next_rec - h->stride > OL_RUN_MAXITERS)
    return BAD("next record time %ld is out of range", h->next_rec);
  if (!(h->mem.mingrad >= 0))
    return BAD("mingradnorm memory %g is not >= 0", h->mem.mingrad);
  if (h->mem.changes < 0)
    return BAD("support changes %ld is negative", h->mem.changes);
  if (h->nchg < 0 || h->nchg > (1 << 24))
    return BAD("%d parameter changes is out of range [0, 2^24]", h->nchg);
  if (r->dcap == 0) {
    if (h->drows != 0 || h->dthin != 0 || h->dseen != 0)
      return BAD("draws (%ld rows, thinning %ld, %ld seen) in a run that "
                 "keeps none", h->drows, h->dthin, h->dseen);
  } else {
    if (!pow2(h->dthin))
      return BAD("draw thinning %ld is not a power of two in [1, 2^62]",
                 h->dthin);
    if (h->dseen < 0 || h->dseen > h->c.t)
      return BAD("%ld draws seen is out of range [0, %ld] (the "
                 "iterations)", h->dseen, h->c.t);
    if (h->drows < 0 || h->drows > r->dcap ||
        h->drows > (h->dseen + h->dthin - 1) / h->dthin)
      return BAD("%ld kept draws is out of range [0, %ld] (%ld seen, "
                 "every %ld-th kept, at most %ld)", h->drows,
                 (h->dseen + h->dthin - 1) / h->dthin, h->dseen, h->dthin,
                 r->dcap);
  }
  return OL_OK;
}

/* The arrays now in r (len points, from the bytes) against the scalars h:
** times strictly increasing in [0, t], the next record after the last
** within one stride, evaluations and seconds finite, >= 0 and not past
** the totals, the smallest values finite or NaN. */
static int check_arrays (const ol_run *r, const ol_run *h, ol_err *e)
{
  long i, last;
  int k;
  for (i = 0; i < h->len; i++) {
    if (r->times[i] < 0 || r->times[i] > h->c.t ||
        (i > 0 && r->times[i] <= r->times[i - 1]))
      return BAD("history time %ld (point %ld) is not in (%ld, %ld]",
                 r->times[i], i + 1, i > 0 ? r->times[i - 1] : -1L,
                 h->c.t);
    if (!(r->evals[i] >= 0 && r->evals[i] <= (double)h->c.ngev) ||
        (i > 0 && r->evals[i] < r->evals[i - 1]))
      return BAD("gradient count %g at history point %ld is out of range "
                 "[0, %ld] or decreasing", r->evals[i], i + 1, h->c.ngev);
    if (!(r->secs[i] >= 0) || !isfinite(r->secs[i]))
      return BAD("seconds %g at history point %ld are not a finite number "
                 ">= 0", r->secs[i], i + 1);
  }
  if (h->len > 0) {
    last = r->times[h->len - 1];
    if (h->next_rec <= last || h->next_rec - last > h->stride)
      return BAD("next record time %ld is not in (%ld, %ld + %ld] (after "
                 "the last record, within one stride)", h->next_rec, last,
                 last, h->stride);
    if (r->ucap > 0 && (last / h->stride >= r->ucap ||
                        (h->stride > 1 && last / (h->stride / 2) < r->ucap)))
      return BAD("history stride %ld does not fit the last record %ld (at "
                 "most %d multiples kept)", h->stride, last, r->ucap);
  }
  for (k = 0; k < OL_NMETRICS; k++)
    if (isinf(h->vmin[k]))
      return BAD("the smallest value of metric %d is infinite", k + 1);
  return OL_OK;
}

/* The packed change log (h->nchg entries at c) into r->changes, checked:
** times nondecreasing in [0, h->c.t], a live parameter of r's method, a
** value in its range.  The replayed ones the packed run had applied (due
** before its last step) are marked applied, so a continued run applies
** no change twice, and r's parameters end as the packed run's. */
static int unpack_changes (cur *c, ol_run *r, const ol_run *h, ol_err *e)
{
  const ol_method_type *m = r->m;
  int i;
  if (h->nchg > 0) {
    ol_change *q = realloc(r->changes, (size_t)h->nchg * sizeof *q);
    if (q == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory (%d changes)",
                        h->nchg);
    r->changes = q;
    r->chgalloc = h->nchg;
  }
  for (i = 0; i < h->nchg; i++) {
    ol_change *ch = &r->changes[i];
    get(c, &ch->t, sizeof ch->t);
    get(c, &ch->param, sizeof ch->param);
    get(c, &ch->value, sizeof ch->value);
    if (c->bad) return BAD("a packed run is truncated (change %d)", i + 1);
    if (ch->t < 0 || ch->t > h->c.t || (i > 0 && ch->t < ch[-1].t))
      return BAD("change %d: time %ld is out of range [%ld, %ld]", i + 1,
                 ch->t, i > 0 ? ch[-1].t : 0L, h->c.t);
    if (ch->param < 0 || ch->param >= m->nparams || ch->param >= 32 ||
        !(m->params_live & OL_LIVE(ch->param)))
      return BAD("change %d: parameter %d is not a live parameter of %s",
                 i + 1, ch->param + 1, m->name);
    if (ol_param_check(&m->params[ch->param], ch->value, e) != OL_OK) {
      char msg[OL_ERRMAX];
      snprintf(msg, sizeof msg, "%s", e->msg);
      return BAD("change %d: %s", i + 1, msg);
    }
  }
  /* the parameters end as the packed run's did */
  for (i = 0; i < h->nchg; i++) {
    r->par[r->changes[i].param] = r->changes[i].value;
    if (r->shadow != NULL)
      r->shadow->par[r->changes[i].param] = r->changes[i].value;
  }
  r->nchg = h->nchg;
  while (r->ireplay < r->nreplay && r->replay[r->ireplay].t < h->c.t)
    r->ireplay++;
  ol_run_replay_next(r);
  return OL_OK;
}

int ol_run_unpack (ol_run *r, const void *buf, size_t len, ol_err *e)
{
  cur c;
  char magic[8];
  struct ol_run h;                     /* the packed scalars */
  int hasavg = 0, k, nm = 0, sum, mlen = 0;
  size_t hl, dcols, want, per;
  memset(&c, 0, sizeof c);
  memset(&h, 0, sizeof h);
  c.r = buf;
  c.len = len;
  /* (1) the scalars, into h, checked against r and each other */
  get(&c, magic, 8);
  {
    ol_run *keep = r;
    r = &h;
#define GET(f) get(&c, &(f), sizeof (f));
    SCALARS(GET)
#undef GET
    r = keep;
  }
  sum = !c.bad && memcmp(magic, SUMMAGIC, 8) == 0;
  if (c.bad || (!sum && memcmp(magic, MAGIC, 8) != 0))
    return BAD("not a packed run (%zu bytes)", len);
  if (check_scalars(r, &h, hasavg, e) != OL_OK) return e->code;
  if (sum) {
    if (h.len > 1)
      return BAD("a summary holds %d history points (at most 1)", h.len);
    get(&c, &mlen, sizeof mlen);
    if (c.bad || mlen < 0 || mlen >= (int)sizeof r->msg)
      return BAD("a summary's message length %d is out of range [0, %d]",
                 mlen, (int)sizeof r->msg - 1);
  }
  /* (2) the length the scalars imply, before any allocation */
  hl = (size_t)h.len;
  dcols = (size_t)(OL_DRAW_COLS + r->n);
  for (k = 0; k < OL_NMETRICS; k++)
    if (r->vals[k] != NULL) nm++;
  per = (3 + (size_t)nm + (r->traj != NULL ? (size_t)r->tdim : 0)) * 8;
  want = c.at + (size_t)r->n * sizeof *r->x * (size_t)(1 + hasavg) +
    (sum ? (size_t)mlen + (size_t)nm * sizeof *r->vmin
         : sizeof r->msg + sizeof r->vmin);
  if (muladd(hl, per, want, &want) ||
      muladd((size_t)h.drows, dcols * sizeof *r->draws, want, &want) ||
      muladd((size_t)h.nchg, CHGBYTES, want, &want) || want != len)
    return BAD("a packed run of %zu bytes is truncated or too long (its "
               "fields say %zu)", len, want);
  if (reserve(r, h.len, h.drows, e) != OL_OK) return e->code;
  /* (3) the arrays, straight into r */
  if (sum) {
    get(&c, r->msg, (size_t)mlen);
    r->msg[mlen] = '\0';
  }
  else {
    get(&c, r->msg, sizeof r->msg);
    r->msg[sizeof r->msg - 1] = '\0';
  }
  get(&c, r->x, (size_t)r->n * sizeof *r->x);
  if (hasavg) get(&c, r->xavg, (size_t)r->n * sizeof *r->xavg);
  if (sum)
    for (k = 0; k < OL_NMETRICS; k++)
      h.vmin[k] = NAN;
  for (k = 0; k < OL_NMETRICS; k++)
    if (!sum || r->vals[k] != NULL)
      get(&c, &h.vmin[k], sizeof h.vmin[k]);
  get(&c, r->times, hl * sizeof *r->times);
  get(&c, r->evals, hl * sizeof *r->evals);
  get(&c, r->secs, hl * sizeof *r->secs);
  for (k = 0; k < OL_NMETRICS; k++)
    if (r->vals[k] != NULL) get(&c, r->vals[k], hl * sizeof *r->vals[k]);
  if (r->traj != NULL) get(&c, r->traj, hl * (size_t)r->tdim
                           * sizeof *r->traj);
  if (h.drows > 0) get(&c, r->draws, (size_t)h.drows * dcols
                       * sizeof *r->draws);
  if (unpack_changes(&c, r, &h, e) != OL_OK) return e->code;
  if (c.bad || c.at != len)
    return BAD("a packed run of %zu bytes is truncated or too long", len);
  if (check_arrays(r, &h, e) != OL_OK) return e->code;
  /* (4) the scalars */
  memcpy(r->vmin, h.vmin, sizeof r->vmin);
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
  r->remote = sum;
  r->restored = 1;
  return OL_OK;
}

#undef BAD

/* -- shells ---------------------------------------------------------------- */

ol_run *ol_run_unshell (const ol_run *r, ol_err *e)
{
  ol_run_opts o = r->o;
  ol_run *full;
  void *buf;
  size_t len;
  int rc;
  if (!r->shell) {
    ol_err_set(e, OL_EINVAL, "not a shell");
    return NULL;
  }
  o.shell = 0;
  o.x0 = r->x0;
  o.changes = r->replay;
  o.nchanges = r->nreplay;
  full = ol_run_new(r->p, r->m, r->par0, &o, e);
  if (full == NULL) return NULL;
  buf = ol_run_pack(r, &len, e);
  if (buf == NULL) {
    ol_run_free(full);
    return NULL;
  }
  rc = ol_run_unpack(full, buf, len, e);
  free(buf);
  if (rc != OL_OK) {
    ol_run_free(full);
    return NULL;
  }
  /* a bound push said when the shell was made (its x0 is pushed already) */
  memcpy(full->notice, r->notice, sizeof full->notice);
  return full;
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
    if (!ol_mset_eq(src[i]->metrics, dst[0]->metrics) ||
        src[i]->n != dst[0]->n)
      return ol_err_set(e, OL_EINVAL, "band: run %d records other metrics "
                        "than the band", i + 1);
    if (src[i]->len > t->len) t = src[i];
  }
  len = t->len;
  for (b = 0; b < nq; b++) {
    if (!ol_mset_eq(dst[b]->metrics, dst[0]->metrics) ||
        dst[b]->n != dst[0]->n)
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
