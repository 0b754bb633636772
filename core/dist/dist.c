/*
** core/dist/dist.c -- the helpers the distributed methods share (dist.h):
** the workers' split, a round's participants, per-worker streams, a
** worker's local gradient, the consensus error and the federated
** methods' rounds (ol_dist_fed).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "vec.h"

int ol_dist_split_init (ol_dist_split *s, const ol_problem *p, int dflt,
                        const char *who, ol_err *e)
{
  long N = p->nsum, i, *own;
  int w;
  if (N < 1 || p->fdfi == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs a finite sum (components "
                      "f_i to give its workers)", who);
  if (p->workers.n > 0) {
    s->n = p->workers.n;
    s->participation = p->workers.participation;
    s->start = p->workers.start;
    s->idx = p->workers.perm;
    return OL_OK;
  }
  if (dflt < 1)
    return ol_err_set(e, OL_EINVAL, "%s: workers = %d is below 1", who,
                      dflt);
  if (dflt > N) dflt = (int)N;
  if ((own = malloc(sizeof *own * (size_t)(N + dflt + 1))) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  for (i = 0; i < N; i++) own[i] = i;
  for (w = 0; w <= dflt; w++) own[N + w] = (long)((double)N * w / dflt);
  s->own = own;
  s->n = dflt;
  s->participation = 1;
  s->idx = own;
  s->start = own + N;
  return OL_OK;
}

void ol_dist_split_fini (ol_dist_split *s)
{
  free(s->own);
  s->own = NULL;
}

/* Participants per round: m = max(1, round(participation n)). */
static int ol_dist_nsample (const ol_dist_split *s)
{
  int m = (int)floor(s->participation * s->n + 0.5);
  return m < 1 ? 1 : m > s->n ? s->n : m;
}

int ol_dist_sample (const ol_dist_split *s, ol_rng *r, int *who)
{
  int m = ol_dist_nsample(s), n = s->n, w, k = 0;
  if (m == n) {
    for (w = 0; w < n; w++) who[w] = w;
    return n;
  }
  /* Algorithm S: take w with probability (m - k) / (n - w) */
  for (w = 0; w < n && k < m; w++)
    if ((double)(n - w) * ol_rng_uniform(r) < (double)(m - k)) who[k++] = w;
  return m;
}

void ol_dist_streams (ol_rng *rw, int n, ol_rng *parent)
{
  uint64_t seed = ol_rng_u64(parent);
  int w;
  for (w = 0; w < n; w++) ol_rng_seed(&rw[w], seed, (uint64_t)w + 1);
}

int ol_dist_grad (ol_ctx *c, const ol_dist_split *s, int w, const double *x,
                  int batch, ol_rng *r, double *g, double *tmp, ol_err *e)
{
  const ol_problem *p = c->p;
  long lo = s->start[w], m = ol_dist_size(s, w), k, cnt;
  int j, n = c->n, rc;
  double inv, fin = 0;
  cnt = batch <= 0 || batch >= m ? m : batch;
  /* every distributed method's work is these calls (workers x local steps
  ** a step, each up to 1e9 components): Ctrl-C is looked at in each, and
  ** every 4096 components */
  if (ol_interrupted()) return ol_err_set(e, OL_EINTR, "interrupted");
  for (j = 0; j < n; j++) g[j] = 0;
  /* (1) the sum, straight from the component oracle (the indices are the
  ** split's, in range); counted as ol_ctx_gradi counts.  The whole shard
  ** in one call when the problem sums components itself. */
  if (cnt == m && p->gsumi != NULL) {
    if ((rc = p->gsumi(p->ud, s->idx + lo, m, x, g, e)) != OL_OK) return rc;
  }
  else for (k = 0; k < cnt; k++) {
    long i = cnt == m ? s->idx[lo + k] : s->idx[lo + ol_rng_below(r, m)];
    if ((k & 4095) == 4095 && ol_interrupted())
      return ol_err_set(e, OL_EINTR, "interrupted");
    if ((rc = p->fdfi(p->ud, i, x, NULL, tmp, e)) != OL_OK) return rc;
    for (j = 0; j < n; j++) g[j] += tmp[j];
  }
  c->ngev += cnt;
  /* (2) the mean, checked once: a non-finite term leaves it non-finite */
  inv = 1 / (double)cnt;
  for (j = 0; j < n; j++) {
    g[j] *= inv;
    fin += g[j] * 0;
  }
  if (fin != 0)
    return ol_err_set(e, OL_EDOM, "non-finite gradient of worker %d's "
                      "components", w + 1);
  return OL_OK;
}

double ol_dist_consensus (const double *X, int m, int n, const double *xbar)
{
  double sum = 0;
  int w, j;
  for (w = 0; w < m; w++)
    for (j = 0; j < n; j++) {
      double d = X[(size_t)w * n + j] - xbar[j];
      sum += d * d;
    }
  return m > 0 ? sum / m : 0;
}

int ol_dist_fedresult (const void *st, const char *name, const double **v,
                       int *rows, int *cols)
{
  const ol_dist_view *s = st;
  if (strcmp(name, "workers") != 0 || s->X == NULL) return 0;
  *v = s->X;
  *rows = s->m;
  *cols = s->d;
  return 1;
}

int ol_dist_fed_init (ol_dist_fed *f, const ol_ctx *c, int dflt,
                      const char *who, ol_err *e)
{
  int rc, n = c->n, w;
  f->drift = f->cons = NAN;
  if ((rc = ol_dist_split_init(&f->sp, c->p, dflt, who, e)) != OL_OK)
    return rc;
  f->who = malloc(sizeof *f->who * (size_t)f->sp.n);
  f->view.X = malloc(sizeof *f->view.X * (size_t)f->sp.n * n);
  if (f->who == NULL || f->view.X == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  if ((f->ybar = ol_vec_new(n, e)) == NULL) return OL_ENOMEM;
  for (w = 0; w < f->sp.n; w++)
    ol_vec_copy(c->x, f->view.X + (size_t)w * n, n);
  f->view.m = f->sp.n;
  f->view.d = n;
  return OL_OK;
}

void ol_dist_fed_fini (ol_dist_fed *f)
{
  ol_dist_split_fini(&f->sp);
  free(f->who);
  free(f->view.X);
  ol_vec_free(f->ybar);
  f->who = NULL;
  f->view.X = f->ybar = NULL;
}

void ol_dist_fed_close (ol_dist_fed *f, int m, const double *x)
{
  int n = f->view.d, i, j;
  double inv = 1 / (double)m, drift = 0, cons = 0;
  /* (1) ybar and the drift from x */
  for (j = 0; j < n; j++) f->ybar[j] = 0;
  for (i = 0; i < m; i++) {
    const double *y = f->view.X + (size_t)f->who[i] * n;
    for (j = 0; j < n; j++) {
      double t = y[j] - x[j];
      f->ybar[j] += y[j];
      drift += t * t;
    }
  }
  for (j = 0; j < n; j++) f->ybar[j] *= inv;
  /* (2) the spread around ybar */
  for (i = 0; i < m; i++) {
    const double *y = f->view.X + (size_t)f->who[i] * n;
    for (j = 0; j < n; j++) {
      double t = y[j] - f->ybar[j];
      cons += t * t;
    }
  }
  f->drift = drift * inv;
  f->cons = cons * inv;
  f->rounds++;
}

double ol_dist_fed_probe (const ol_dist_fed *f, int metric)
{
  if (metric == OL_MET_DRIFT) return f->drift;
  if (metric == OL_MET_CONSENSUS) return f->cons;
  if (metric == OL_MET_ROUNDS) return (double)f->rounds;
  return NAN;
}
