/*
** core/plot/plotpanel.c -- what the panel kinds share (see plotpanel.h
** and panel.h): the kind table and its lookups (pn_kind_of, pn_name,
** pn_find, pn_available), a run's default panels, the points of trace and
** cloud panels, and the x axes.
** The kinds themselves are one file each: line.c (metrics, traces),
** landscape.c, cloud.c, simplex.c, workers.c (workers, mixing), with the
** pooled rhat/ess curve in bands.c and the shared cell pieces in
** legend.c.  The numbers come from core (run series, draws,
** ol_problem_grid, ol_grid_window, ol_diag_*); here and in the kind files
** they are only mapped to dots, shades and labels.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "ol.h"
#include "panelpriv.h"

/* -- the table ------------------------------------------------------------ */

/* The entries of panels.h's kinds, by id (metric ids share
** pn_kind_metric). */
static const pn_kind *const kinds[] = {
#define PN_KIND(ID, name) [PN_##ID - OL_NMETRICS] = &pn_kind_##name,
#include "panels.h"
#undef PN_KIND
};

const pn_kind *pn_kind_of (int kind)
{
  if (kind >= 0 && kind < OL_NMETRICS) return &pn_kind_metric;
  kind = pn_base(kind);
  if (kind >= OL_NMETRICS && kind < PN_TRACEJ)
    return kinds[kind - OL_NMETRICS];
  return NULL;
}

const char *pn_name (int kind)
{
  if (kind >= 0 && kind < OL_NMETRICS) return ol_metric_types[kind]->name;
  if (kind >= OL_NMETRICS && kind < PN_TRACEJ)
    return kinds[kind - OL_NMETRICS]->name;
  return NULL;
}

int pn_find (const char *name)
{
  int k, a, b, len;
  for (k = 0; k < PN_TRACEJ; k++)
    if ((k >= OL_NMETRICS || ol_metric_defined(k)) &&
        strcmp(pn_name(k), name) == 0) return k;
  /* "trace:j", "cloud:a,b": 1-based coordinates, nothing after them */
  len = -1;
  if (sscanf(name, "trace:%d%n", &a, &len) == 1 && len > 0
      && name[len] == '\0' && strspn(name + 6, "0123456789") + 6
      == (size_t)len)
    return pn_trace_kind(a - 1);
  len = -1;
  if (sscanf(name, "cloud:%d,%d%n", &a, &b, &len) == 2 && len > 0
      && name[len] == '\0' && strspn(name + 6, "0123456789,") + 6
      == (size_t)len)
    return pn_cloud_kind(a - 1, b - 1);
  return -1;
}

int pn_trace_kind (int j)
{
  if (j < 0 || j >= PN_MAXTRACE) return -1;
  return j == 0 ? PN_TRACE : PN_TRACEJ + j;
}

int pn_cloud_kind (int a, int b)
{
  if (a < 0 || b < 0 || a == b || a >= PN_MAXCLOUD || b >= PN_MAXCLOUD)
    return -1;
  return a == 0 && b == 1 ? PN_CLOUD : PN_CLOUDJ + a * PN_MAXCLOUD + b;
}

int pn_base (int kind)
{
  if (kind >= PN_TRACEJ && kind < PN_CLOUDJ) return PN_TRACE;
  if (kind >= PN_CLOUDJ && kind < PN_NKINDS) return PN_CLOUD;
  return kind;
}

void pn_coords (int kind, int *a, int *b)
{
  *a = 0;
  if (b != NULL) *b = 1;
  if (kind >= PN_TRACEJ && kind < PN_CLOUDJ) *a = kind - PN_TRACEJ;
  else if (kind >= PN_CLOUDJ && kind < PN_NKINDS) {
    *a = (kind - PN_CLOUDJ) / PN_MAXCLOUD;
    if (b != NULL) *b = (kind - PN_CLOUDJ) % PN_MAXCLOUD;
  }
}

int pn_log_prone (int m)
{
  return m == OL_MET_LOSS || m == OL_MET_GRADNORM || m == OL_MET_KKT
    || m == OL_MET_SUBOPT || m == OL_MET_DIST || m == OL_MET_EXPLOIT
    || m == OL_MET_MINGRADNORM || m == OL_MET_BIAS || m == OL_MET_VARIANCE
    || m == OL_MET_NASHCONV || m == OL_MET_NASHCONV_AVG
    || m == OL_MET_EXPLOIT_AVG || m == OL_MET_REGRET || m == OL_MET_CCEGAP
    || m == OL_MET_MEANERR || m == OL_MET_KL || m == OL_MET_W2
    || m == OL_MET_STATIONARITY || m == OL_MET_FEASIBILITY
    || m == OL_MET_COMPLEMENTARITY;
}

int pn_xlog_prone (int m)
{
  return m == OL_MET_REGRET || m == OL_MET_CCEGAP || m == OL_MET_NASHCONV
    || m == OL_MET_NASHCONV_AVG || m == OL_MET_EXPLOIT
    || m == OL_MET_EXPLOIT_AVG;
}

void pn_axes_init (pn_axes *a, int xaxis, int xlog)
{
  memset(a, 0, sizeof *a);
  a->xaxis = xaxis;
  a->xlog = xlog != 0;
  a->ymode = PN_YAUTO;
}

int pn_defaults (const ol_problem *p, int family, ol_mset rec, int *out,
                 int max)
{
  /* the family's list (core/family.c), item by item */
  const int *pl = ol_family_get(family)->panels;
  int game = p != NULL && p->kind == OL_GAME, n = 0, i, k;
#define ADD(k) do { if (n < max) out[n++] = (k); } while (0)
  for (k = 0; pl[k] != OL_PANEL_END; k++) {
    int what = pl[k];
    /* progress, or the recorded metrics, of a game are its gaps */
    if (game && (what == OL_PANEL_PROGRESS || what == OL_PANEL_RECORDED))
      what = OL_PANEL_GAPS;
    if (what == OL_PANEL_TRACE) ADD(PN_TRACE);
    else if (what == OL_PANEL_CLOUD) {
      if (p != NULL && p->n >= 2) ADD(PN_CLOUD);
    } else if (what == OL_PANEL_GAPS) {
      if (ol_mset_has(rec, OL_MET_EXPLOIT_AVG)) ADD(OL_MET_EXPLOIT_AVG);
      if (ol_mset_has(rec, OL_MET_EXPLOIT)) ADD(OL_MET_EXPLOIT);
      if (ol_mset_has(rec, OL_MET_ENTROPY)) ADD(OL_MET_ENTROPY);
    } else if (what == OL_PANEL_RECORDED) {
      for (i = 0; i < OL_NMETRICS; i++)
        if (ol_mset_has(rec, i)) ADD(i);
    } else if (what == OL_PANEL_PROGRESS && p != NULL && p->con.m > 0) {
      /* general constraints: the loss and the three parts of the KKT
      ** error (||grad f|| is not what goes to 0 at a constrained
      ** optimum) */
      static const int kk[] = {OL_MET_LOSS, OL_MET_STATIONARITY,
                               OL_MET_FEASIBILITY, OL_MET_COMPLEMENTARITY};
      for (i = 0; i < 4; i++)
        if (ol_mset_has(rec, kk[i])) ADD(kk[i]);
    } else if (what == OL_PANEL_PROGRESS) {
      if (ol_mset_has(rec, OL_MET_LOSS)) ADD(OL_MET_LOSS);
      if (ol_mset_has(rec, OL_MET_GRADNORM)) ADD(OL_MET_GRADNORM);
    } else if (what >= 0 && what < OL_NMETRICS && ol_mset_has(rec, what))
      ADD(what);
  }
  if (n == 0)
    for (i = 0; i < OL_NMETRICS; i++)
      if (ol_mset_has(rec, i)) ADD(i);
#undef ADD
  return n;
}

int pn_available (const pn_runs *rs, int kind, char *why, size_t wsize)
{
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  const pn_kind *pk = pn_kind_of(kind);
  why[0] = '\0';
  if (p == NULL) {
    snprintf(why, wsize, "no runs");
    return 0;
  }
  if (pk == NULL) {
    snprintf(why, wsize, "no panel kind %d", kind);
    return 0;
  }
  return pk->available(rs, kind, p, why, wsize);
}

int pn_need_traj (const pn_runs *rs, int kind, char *why, size_t wsize)
{
  int k, dim;
  for (k = 0; k < rs->n; k++)
    if (ol_run_traj(rs->runs[k], &dim) != NULL) return 1;
  snprintf(why, wsize, "%s needs the trajectory (run with record_x = true)",
           pn_name(pn_base(kind)));
  return 0;
}

int pn_need_points (const pn_runs *rs, int kind, int pair, char *why,
                    size_t wsize)
{
  const ol_problem *p = ol_run_problem(rs->runs[0]);
  int k, ca, cb;
  pn_pts pt;
  pn_coords(kind, &ca, &cb);
  if (!pair) cb = ca;
  if (ca >= p->n || cb >= p->n) {
    snprintf(why, wsize, "no coordinate x%d in %s (n = %d)", (ca >= p->n
             ? ca : cb) + 1, p->desc, p->n);
    return 0;
  }
  for (k = 0; k < rs->n; k++)
    if (pn_points(rs->runs[k], &pt) && ca < pt.dim && cb < pt.dim)
      return 1;
  if (ca >= 8 || cb >= 8) {
    snprintf(why, wsize, "x%d is in a sampler's draws only (the trajectory "
             "keeps x1..x8)", (ca > cb ? ca : cb) + 1);
    return 0;
  }
  snprintf(why, wsize, "%s needs the trajectory (run with record_x = true)"
           " or a sampler's draws", pn_name(pn_base(kind)));
  return 0;
}

/* -- trace and cloud points ----------------------------------------------- */

int pn_points (const ol_run *r, pn_pts *pt)
{
  long rows = 0, thin = 1, seen = 0;
  const double *d = ol_run_draws(r, &rows, &thin, &seen);
  int dim = 0, prow, pcol;
  memset(pt, 0, sizeof *pt);
  /* a diffusion sampler's particles (method.h, ol_method_result) */
  if (ol_family_of(ol_run_method(r))->particles &&
      ol_run_result(r, "samples", &d, &prow, &pcol) && prow > 0 && pcol > 0) {
    pt->x = d;
    pt->n = prow;
    pt->stride = pt->dim = pcol;
    pt->particles = 1;
    return 1;
  }
  if (d != NULL && rows > 0) {
    pt->x = d + OL_DRAW_COLS;
    pt->n = rows;
    pt->stride = OL_DRAW_COLS + ol_run_problem(r)->n;
    pt->dim = ol_run_problem(r)->n;
    pt->draws = 1;
    pt->thin = thin > 0 ? thin : 1;
    pt->warmup = ol_run_warmup(r);
    return 1;
  }
  d = ol_run_traj(r, &dim);
  if (d == NULL || dim < 1 || ol_run_len(r) <= 0) return 0;
  pt->x = d;
  pt->n = ol_run_len(r);
  pt->stride = dim;
  pt->dim = dim;
  pt->times = ol_run_times(r);
  return 1;
}

int pn_pts_divergent (const pn_pts *pt, long i)
{
  return pt->draws && pt->x[i * pt->stride - OL_DRAW_COLS + 5] != 0;
}

double pn_pts_iter (const pn_pts *pt, long i)
{
  if (pt->particles) return (double)(i + 1);
  if (pt->draws) return (double)pt->warmup + (double)(i + 1) * pt->thin;
  return (double)pt->times[i];
}

const char *pn_label (const pn_runs *rs, int chains, int k, char *buf,
                      size_t size)
{
  if (chains) {
    snprintf(buf, size, "chain %d", k + 1);
    return buf;
  }
  return rs->labels != NULL && rs->labels[k] != NULL ? rs->labels[k] : "?";
}

/* -- x axis --------------------------------------------------------------- */

static const char *const xnames[PN_NXAXES] = {"iter", "evals", "time",
                                              "bits", "rounds"};
static const char *const xlabels[PN_NXAXES] = {
  "iteration", "gradient evaluations", "seconds", "bits sent",
  "communication rounds"
};

const char *pn_xaxis_name (int xaxis)
{
  return xaxis >= 0 && xaxis < PN_NXAXES ? xnames[xaxis] : NULL;
}

const char *pn_xaxis_label (int xaxis)
{
  return xaxis >= 0 && xaxis < PN_NXAXES ? xlabels[xaxis] : NULL;
}

int pn_xaxis_find (const char *name)
{
  int k;
  for (k = 0; k < PN_NXAXES; k++)
    if (strcmp(xnames[k], name) == 0) return k;
  return -1;
}

double pn_xat (const ol_run *r, int xaxis, int i)
{
  const double *s;
  if (xaxis == PN_X_EVALS) return ol_run_evals(r)[i];
  if (xaxis == PN_X_TIME) return ol_run_secs(r)[i];
  if (xaxis == PN_X_BITS)
    return (s = ol_run_series(r, OL_MET_BITS)) != NULL ? s[i] : NAN;
  if (xaxis == PN_X_ROUNDS && (s = ol_run_series(r, OL_MET_ROUNDS)) != NULL)
    return s[i];
  return (double)ol_run_times(r)[i];
}

void pn_xfmt (int xaxis, double v, char *buf, size_t size, int width)
{
  cv_fmt(v, buf, size, width);
  if (xaxis == PN_X_TIME && strlen(buf) + 1 < size) strcat(buf, "s");
}

int pn_auto_panel (const pn_runs *rs)
{
  const ol_problem *p;
  int dim, first[1];
  if (rs->n < 1 || ol_run_traj(rs->runs[0], &dim) == NULL) return -1;
  /* a diffusion sampler's x is its particles' mean: its cloud shows the
  ** target's contours instead (pn_defaults) */
  if (ol_family_of(ol_run_method(rs->runs[0]))->particles) return -1;
  p = ol_run_problem(rs->runs[0]);
  /* a 2-D distributed run: its workers around their average */
  if (p->n == 2 && pn_workers_of(rs->runs[0], &dim) != NULL)
    return PN_WORKERS;
  if (p->n == 2 && pn_has_landscape(p)) return PN_LANDSCAPE;
  if (p->kind == OL_GAME && pn_simplex_blocks(p, first, 1) > 0)
    return PN_SIMPLEX;
  return -1;
}
