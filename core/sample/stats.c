/*
** core/sample/stats.c -- the accessors of stats.h: which samplers keep
** an ol_sampler_head at the start of their state, and reading it.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mass.h"
#include "stats.h"

extern const ol_method_type ol_sample_rwmh, ol_sample_ula, ol_sample_hmc,
  ol_sample_nuts, ol_sample_sgld, ol_sample_mala, ol_sample_pmala;

/* The samplers whose state starts with an ol_sampler_head. */
static const ol_method_type *const with_head[] = {
  &ol_sample_rwmh, &ol_sample_ula, &ol_sample_hmc, &ol_sample_nuts,
  &ol_sample_sgld, &ol_sample_mala, &ol_sample_pmala, NULL
};

static int has_head (const ol_method_type *m)
{
  int i;
  for (i = 0; with_head[i] != NULL; i++)
    if (with_head[i] == m) return 1;
  return 0;
}

int ol_sampler_stats (const ol_method_type *m, const void *st,
                      ol_sampler_stat *out)
{
  if (m == NULL || st == NULL || out == NULL || !has_head(m))
    return OL_EINVAL;
  *out = ((const ol_sampler_head *)st)->stat;
  return OL_OK;
}

const double *ol_sampler_metric (const ol_method_type *m, const void *st)
{
  if (m == NULL || st == NULL || !has_head(m)) return NULL;
  return ((const ol_sampler_head *)st)->minv;
}

int ol_sampler_set_metric (const ol_method_type *m, void *st,
                           const double *minv, int n, ol_err *e)
{
  ol_sampler_head *h = st;
  int i;
  if (m == NULL || st == NULL || !has_head(m) || h->minv == NULL)
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
  if (m == NULL || st == NULL || !has_head(m)) return 0;
  return ((const ol_sampler_head *)st)->warmup;
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
  const ol_sampler_head *h = st;
  if (m == NULL || st == NULL || !has_head(m) || h->nfx == NULL) return NULL;
  if (U != NULL) *U = h->nfU;
  return h->nfx;
}

void ol_sampler_head_fini (ol_sampler_head *h)
{
  free(h->nfx);
  h->nfx = NULL;
}
