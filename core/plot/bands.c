/*
** core/plot/bands.c -- the pooled curve of a chain set's rhat and ess
** panels (plotpanel.h, pn_pool): which runs are a chain set, and when a
** point is due (every 10% more draws, within a time budget a frame).  The
** values are the core's: ol_diag_runs (core/diag.c) pools the chains'
** kept draws; here they are only kept and thinned for drawing (line.c).
*/
#include <math.h>
#include <string.h>

#include "diag.h"
#include "method.h"
#include "ol.h"
#include "panelpriv.h"

int pn_chainset (const pn_runs *rs)
{
  const ol_run *r0;
  const ol_method_type *m;
  int k, j;
  if (rs->n < 2) return 0;
  r0 = rs->runs[0];
  m = ol_run_method(r0);
  if (!ol_family_of(m)->draws || ol_run_draws(r0, NULL, NULL, NULL) == NULL)
    return 0;
  for (k = 1; k < rs->n; k++) {
    const ol_run *r = rs->runs[k];
    const double *a = ol_run_params(r0), *b = ol_run_params(r);
    if (ol_run_method(r) != m || ol_run_problem(r) != ol_run_problem(r0)
        || ol_run_warmup(r) != ol_run_warmup(r0)
        || ol_run_budget(r) != ol_run_budget(r0)
        || ol_run_draws(r, NULL, NULL, NULL) == NULL)
      return 0;
    for (j = 0; j < m->nparams; j++)
      if (a[j] != b[j] && !(isnan(a[j]) && isnan(b[j]))) return 0;
  }
  return 1;
}

int pn_pooled (const pn_runs *rs, int kind)
{
  kind = pn_base(kind);
  return (kind == OL_MET_RHAT || kind == OL_MET_ESS) && pn_chainset(rs);
}

/* One point of pl at P kept draws per chain (P <= every chain's rows):
** the core's pooled diagnostics of the chains' first P draws. */
static int pool_point (pn_pool *pl, const pn_runs *rs, long P, long seen)
{
  long thin = 1;
  double rh, es;
  ol_err e;
  ol_run_draws(rs->runs[0], NULL, &thin, NULL);
  if (ol_diag_runs((const ol_run *const *)rs->runs, rs->n, P, &rh, &es, &e)
      != OL_OK) {
    pl->fail = 1;
    return -1;
  }
  /* (full: every other point dropped, the last kept, growth squared) */
  if (pl->n == PN_POOLMAX) {
    int a, b;
    for (a = 0, b = 0; a < pl->n; a++)
      if (a % 2 == 1 || a == pl->n - 1) {
        pl->seen[b] = pl->seen[a];
        pl->it[b] = pl->it[a];
        pl->rhat[b] = pl->rhat[a];
        pl->ess[b++] = pl->ess[a];
      }
    pl->n = b;
    pl->grow *= pl->grow;
  }
  pl->seen[pl->n] = seen;
  pl->it[pl->n] = (double)ol_run_warmup(rs->runs[0]) + (double)P * thin;
  pl->rhat[pl->n] = rh;
  pl->ess[pl->n] = es;
  pl->n++;
  return 0;
}

int pn_pool_update (pn_pool *pl, const pn_runs *rs, double budget)
{
  long rows = -1, seen = -1, thin = 1, r, s, th;
  int k, stopped = 1;
  double t0 = ol_now();
  if (!pn_chainset(rs)) return 0;
  if (pl->first != rs->runs[0] || pl->nruns != rs->n || pl->grow < 1.1) {
    memset(pl, 0, sizeof *pl);
    pl->first = rs->runs[0];
    pl->nruns = rs->n;
    pl->grow = 1.1;
    pl->next = PN_POOLFIRST;
  }
  /* (1) what every chain has: kept rows, draws made, thinning */
  for (k = 0; k < rs->n; k++) {
    ol_run_draws(rs->runs[k], &r, &th, &s);
    if (rows < 0 || r < rows) rows = r;
    if (seen < 0 || s < seen) seen = s;
    if (th > thin) thin = th;
    if (ol_run_reason(rs->runs[k]) == OL_STOP_NONE) stopped = 0;
  }
  if (pl->final && !stopped) pl->final = 0;    /* continued */
  if (pl->fail || pl->final) return pl->n;
  /* (2) the points due, in order, within the budget */
  while (seen >= pl->next) {
    long P = pl->next / thin, nx;
    if (P > rows) P = rows;
    if (P >= 4 && pool_point(pl, rs, P, pl->next) != 0) return pl->n;
    nx = (long)ceil(pl->grow * (double)pl->next);
    pl->next = nx > pl->next ? nx : pl->next + 1;
    if (budget > 0 && ol_now() - t0 >= budget) return pl->n;
  }
  /* (3) the end: every kept draw, as r:summary() takes them */
  if (stopped && rows >= 4) {
    if (pl->n == 0 || pl->it[pl->n - 1]
        != (double)ol_run_warmup(rs->runs[0]) + (double)rows * thin)
      pool_point(pl, rs, rows, seen);
    pl->final = 1;
  }
  return pl->n;
}
