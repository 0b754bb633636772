/*
** core/sample/stats.c -- the accessors of stats.h: a sampler's
** ol_sampler_head, found through its stats hook (method.h), and reading
** it.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mass.h"
#include "stats.h"

/* The head of m's state st, or NULL when m keeps none (its stats hook,
** method.h). */
static ol_sampler_head *head (const ol_method_type *m, const void *st)
{
  if (m == NULL || st == NULL || m->stats == NULL) return NULL;
  return m->stats(st);
}

ol_sampler_head *ol_sampler_head_of (const void *st)
{
  return (ol_sampler_head *)st;
}

int ol_sampler_stats (const ol_method_type *m, const void *st,
                      ol_sampler_stat *out)
{
  const ol_sampler_head *h = head(m, st);
  if (h == NULL || out == NULL) return OL_EINVAL;
  *out = h->stat;
  return OL_OK;
}

const double *ol_sampler_metric (const ol_method_type *m, const void *st)
{
  const ol_sampler_head *h = head(m, st);
  return h != NULL ? h->minv : NULL;
}

int ol_sampler_set_metric (const ol_method_type *m, void *st,
                           const double *minv, int n, ol_err *e)
{
  ol_sampler_head *h = head(m, st);
  int i;
  if (h == NULL || h->minv == NULL)
    return ol_err_set(e, OL_EINVAL, "%s has no metric to set",
                      m != NULL ? m->name : "(no method)");
  if (minv == NULL || n != h->n)
    return ol_err_set(e, OL_EINVAL, "%s: the metric needs %d entries, got "
                      "%d", m->name, h->n, minv == NULL ? 0 : n);
  for (i = 0; i < n; i++)
    if (!(minv[i] > 0) || !isfinite(minv[i]))
      return ol_err_set(e, OL_EINVAL, "%s: metric entry %d is %g, not a "
                        "finite positive number", m->name, i + 1, minv[i]);
  memcpy(h->minv, minv, (size_t)n * sizeof *minv);
  if (h->mass != NULL) ol_mass_from_diag(h->mass);
  return OL_OK;
}

long ol_sampler_warmup (const ol_method_type *m, const void *st)
{
  const ol_sampler_head *h = head(m, st);
  return h != NULL ? h->warmup : 0;
}

void ol_sampler_nonfinite (ol_sampler_head *h, const double *x, double U)
{
  h->stat.nonfinite = 1;
  if (h->nfx != NULL || h->n < 1) return;
  h->nfx = malloc((size_t)h->n * sizeof *h->nfx);
  if (h->nfx == NULL) return;           /* the point is a nicety only */
  memcpy(h->nfx, x, (size_t)h->n * sizeof *x);
  h->nfU = U;
}

const double *ol_sampler_nonfinite_at (const ol_method_type *m,
                                       const void *st, double *U)
{
  const ol_sampler_head *h = head(m, st);
  if (h == NULL || h->nfx == NULL) return NULL;
  if (U != NULL) *U = h->nfU;
  return h->nfx;
}

void ol_sampler_head_fini (ol_sampler_head *h)
{
  free(h->nfx);
  h->nfx = NULL;
}
