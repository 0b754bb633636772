/*
** core/plot/line.c -- line panels: a metric of every run against the x
** axis (pn_kind_metric, every metric id), or a coordinate of the draws or
** trajectory against iteration (pn_kind_trace, "trace", "trace:j").
** YLAB columns of y tick labels, an axis column, the plot; then the x axis
** row, the x tick label row, and the legend rows (one entry per run:
** marker, label, latest value, minimum (not of a sampler's acceptance or
** step size); a chain set's entries are "chain k": pn_label), laid out in
** columns, and where runs share a cell they own it by turns, so every
** run's colour shows.  An acceptance axis is [0, 1]; a trace of draws
** starts at the first kept draw (pn_trace_xlo).  Values a
** log axis cannot show (<= 0, below PN_TINY) are PN_FLOOR marks on the
** bottom row, so an underflowed loss does not stretch the range and
** flatten the other curves.  A trace marks divergent draws in role
** PN_DIVERGENT.  A chain set's rhat and ess panels draw one pooled curve
** (bands.c) in the title colour.  In SVG: one <path class="series"> per
** run, floor triangles, divergent crosses.  Both read the points through
** pn_src and scale them with pn_scan (plotpanel.h).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "ol.h"
#include "panelpriv.h"

#define MAXTICKS 16

/* -- sources and extents (shared with the SVG drawer) --------------------- */

int pn_src_open (pn_src *s, int kind, int xaxis, const ol_run *r)
{
  s->kind = pn_base(kind);
  s->xaxis = xaxis;
  s->r = r;
  s->n = 0;
  s->px = s->py = NULL;
  pn_coords(kind, &s->coord, NULL);
  if (s->kind == PN_TRACE) {
    if (!pn_points(r, &s->pt) || s->coord >= s->pt.dim) return 0;
    s->n = s->pt.n;
  } else {
    s->v = ol_run_series(r, kind);
    if (s->v == NULL) return 0;
    s->n = ol_run_len(r);
  }
  return s->n > 0;
}

int pn_src_pool (pn_src *s, int kind, const pn_pool *pl)
{
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->px = pl->it;
  s->py = kind == OL_MET_ESS ? pl->ess : pl->rhat;
  s->n = pl->n;
  return s->n > 0;
}

double pn_src_x (const pn_src *s, long i)
{
  if (s->px != NULL) return s->px[i];
  if (s->kind == PN_TRACE) return pn_pts_iter(&s->pt, i);
  return pn_xat(s->r, s->xaxis, (int)i);
}

double pn_src_y (const pn_src *s, long i)
{
  if (s->py != NULL) return s->py[i];
  if (s->kind == PN_TRACE) return s->pt.x[i * s->pt.stride + s->coord];
  return s->v[i];
}

/* Extent of the points of s into e (e initialised by the caller). */
static void scan_src (const pn_src *s, pn_extent *e)
{
  long i;
  if (pn_src_x(s, s->n - 1) > e->xmax) e->xmax = pn_src_x(s, s->n - 1);
  for (i = 0; i < s->n; i++) {
    double y = pn_src_y(s, i), x = pn_src_x(s, i);
    if (x > 0 && x < e->xminpos) e->xminpos = x;
    if (!isfinite(y)) continue;
    e->any = 1;
    if (y < e->min) e->min = y;
    if (y > e->max) e->max = y;
    if (y >= PN_TINY && y < e->pmin) e->pmin = y;
    if (y < 0) e->neg = 1;
  }
}

static void extent_init (pn_extent *e)
{
  e->any = e->neg = 0;
  e->min = e->pmin = e->xminpos = INFINITY;
  e->max = -INFINITY;
  e->xmax = 0;
}

void pn_scan_pool (const pn_pool *pl, int m, pn_extent *e)
{
  pn_src s;
  extent_init(e);
  if (pn_src_pool(&s, m, pl)) scan_src(&s, e);
}

void pn_scan (const pn_runs *rs, int m, int xaxis, pn_extent *e)
{
  int k;
  pn_src s;
  extent_init(e);
  for (k = 0; k < rs->n; k++)
    if (pn_src_open(&s, m, xaxis, rs->runs[k])) scan_src(&s, e);
}

int pn_ylog (int m, int ymode, const pn_extent *e)
{
  if (ymode == PN_YLOG) return e->pmin < INFINITY || !e->any;
  if (ymode == PN_YLIN) return 0;
  return m < OL_NMETRICS && pn_log_prone(m) && !e->neg
    && e->pmin < INFINITY;
}

/* -- cells ---------------------------------------------------------------- */

/* Right end of a fresh x range: a nice multiple of a nice step above the
** largest x (a default when there is none). */
static double xhigh (double xmax, int xaxis)
{
  double hi;
  if (!(xmax > 0)) xmax = xaxis == PN_X_TIME ? 1e-3 : 1;
  hi = cv_nice_up(xmax / 5);
  return hi * ceil(xmax / hi);
}

/* The x scale of a panel from its kept range: linear [xlo, xmax] (xlo 0,
** or a trace's first kept draw: pn_trace_xlo), or log from 1 (iterations)
** or the smallest positive x, in whole decades. */
static void xscale (const pn_axes *ax, int xaxis, const pn_extent *e,
                    double xlo, cv_scale *xs)
{
  xs->valid = 1;
  xs->log = ax->xlog;
  if (!ax->xlog) {
    xs->lo = xlo < ax->xmax ? xlo : 0;
    xs->hi = ax->xmax;
    return;
  }
  xs->lo = xaxis == PN_X_ITER || !(e->xminpos < INFINITY) ? 0
    : floor(log10(e->xminpos) + 1e-9);
  xs->hi = ceil(log10(ax->xmax > 1e-300 ? ax->xmax : 1) - 1e-9);
  if (xs->hi <= xs->lo) xs->hi = xs->lo + 1;
}

double pn_change_x (const ol_run *r, int xaxis, long t)
{
  const long *tm = ol_run_times(r);
  int lo = 0, hi = ol_run_len(r) - 1;
  if (PN_XKIND(xaxis) == PN_X_ITER) return (double)t;
  if (hi < 0) return NAN;
  if (tm[hi] <= t) return pn_xat(r, xaxis, hi);
  while (lo < hi) {               /* the first record at or after t */
    int mid = lo + (hi - lo) / 2;
    if (tm[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return pn_xat(r, xaxis, lo);
}

/* Changes of the runs shown on a line panel (none for a pooled curve). */
static int nchanges (const pn_runs *rs, const pn_pool *pl)
{
  int k, n, total = 0;
  for (k = 0; pl == NULL && k < rs->n; k++) {
    ol_run_changes(rs->runs[k], &n);
    total += n;
  }
  return total;
}

/* Column (0 .. pw-1) of x on the panel's x scale, -1 when off it. */
static int change_col (const cv_scale *xs, int dw, int pw, double x)
{
  double xp = cv_scale_pos(xs, x);
  int c;
  if (isnan(xp) || xp < 0 || xp > 1) return -1;
  c = (int)lround(xp * (dw - 1)) / (dw / pw);
  return c >= 0 && c < pw ? c : -1;
}

double pn_trace_xlo (const pn_runs *rs, int kind)
{
  double lo = INFINITY;
  int k;
  pn_pts pt;
  if (pn_base(kind) != PN_TRACE) return 0;
  for (k = 0; k < rs->n; k++) {
    if (!pn_points(rs->runs[k], &pt)) continue;
    if (!pt.draws) return 0;
    if ((double)pt.warmup < lo) lo = (double)pt.warmup;
  }
  return lo < INFINITY ? lo : 0;
}

/* A rate (the acceptance) is shown on its whole range [0, 1] on a linear
** axis: 1 at the top, no room below 0 for values it cannot take. */
static void unit_range (int kind, cv_scale *ys)
{
  if (kind != OL_MET_ACCEPT || ys->log) return;
  ys->valid = 1;
  ys->lo = 0;
  ys->hi = 1;
}

/* Series k of a line panel: run k's, or the pooled curve (pl). */
static int open_k (const pn_runs *rs, int kind, int xaxis, const pn_pool *pl,
                   int k, pn_src *s)
{
  if (pl != NULL) return k == 0 && pn_src_pool(s, kind, pl);
  return pn_src_open(s, kind, xaxis, rs->runs[k]);
}

/* Dot of (x, y) on the line panel's canvas, 0 when it has none. */
static int line_dot (const cv_scale *xs, const cv_scale *ys, int dw, int dh,
                     double x, double y, int *qx, int *qy)
{
  double xp = cv_scale_pos(xs, x), pos = cv_scale_pos(ys, y);
  if (isnan(xp) || isnan(pos)) return 0;
  xp = xp < 0 ? 0 : xp > 1 ? 1 : xp;
  pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
  *qx = (int)lround(xp * (dw - 1));
  *qy = (int)lround((1 - pos) * (dh - 1));
  return 1;
}

/* Series k of a line panel on cv (cleared by the caller): lines between
** consecutive points, a gap where a value cannot be shown; a column where
** a log axis cannot reach a value gets floor_s[col] = k. */
static void draw_series (const pn_runs *rs, int full, int xaxis,
                         const pn_pool *pool, int k, const cv_scale *xs,
                         const cv_scale *ys, cv_canvas *cv, int *floor_s)
{
  pn_src s;
  int have = 0, lx = 0, ly = 0, dw = cv_dotw(cv), dh = cv_doth(cv);
  int pw = cv->w;
  long step, i;
  if (!open_k(rs, full, xaxis, pool, k, &s)) return;
  step = s.n > 8L * dw ? s.n / (4L * dw) : 1;
  for (i = 0; i < s.n; i += step) {
    double y = pn_src_y(&s, i), xp = cv_scale_pos(xs, pn_src_x(&s, i));
    double pos = cv_scale_pos(ys, y);
    int qx, qy;
    if (isnan(xp)) {
      have = 0;
      continue;
    }
    xp = xp < 0 ? 0 : xp > 1 ? 1 : xp;
    qx = (int)lround(xp * (dw - 1));
    if (ys->log && !isnan(y) && !(y >= PN_TINY)) {
      if (qx / (dw / pw) < 1024) floor_s[qx / (dw / pw)] = k;
      have = 0;
      continue;
    }
    if (isnan(pos)) {
      have = 0;
      continue;
    }
    pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
    qy = (int)lround((1 - pos) * (dh - 1));
    if (!have) cv_dot(cv, qx, qy, k);
    else if (qx != lx || qy != ly) cv_line(cv, lx, ly, qx, qy, k);
    have = 1;
    lx = qx;
    ly = qy;
  }
}

/* The series shown in a cell that several series pass through (bit k of
** mask: series k): the (turn mod n)-th of those n, so that along a line
** the chains share (four chains' acceptance near 1) the cells go round
** their colours instead of all showing the last one drawn; last when the
** cell has a single series. */
static int by_turns (uint64_t mask, int turn, int last)
{
  int n = 0, k, j;
  for (k = 0; k < 64; k++) n += (int)((mask >> k) & 1);
  if (n < 2) return last;
  j = turn % n;
  for (k = 0; k < 64; k++)
    if (((mask >> k) & 1) && j-- == 0) return k;
  return last;
}

static void line_panel (const pn_runs *rs, int full, pn_axes *ax,
                        const pn_out *o, char *title, size_t tsize)
{
  pn_axes fresh;
  pn_extent e;
  pn_legend lg;
  pn_pool tmp, *pool = NULL;
  int kind = pn_base(full), coord, ns = rs->n;
  long ndiv = 0;
  cv_scale xs;
  double tv[MAXTICKS];
  int k, i, log, xaxis, axc = o->x + YLAB, px = axc + 1, last = -1, end;
  int pw = o->x + o->w - px, ph, nt, row, col, lrows = 0, ncols = 1;
  int colw = 0, dw, dh, corner = 0, nchg;
  int floor_s[1024], chains;
  uint64_t *owners;
  char lab[24], names[MAXLEG][16];
  if (ax == NULL) {
    pn_axes_init(&fresh, PN_X_ITER, 0);
    ax = &fresh;
  }
  pn_coords(full, &coord, NULL);
  xaxis = kind == PN_TRACE ? PN_X_ITER : ax->xaxis;
  /* (0) a chain set's rhat and ess: one pooled curve against iteration */
  if (pn_pooled(rs, kind)) {
    if (ax->pool != NULL) pool = ax->pool;
    else {
      memset(&tmp, 0, sizeof tmp);
      pool = &tmp;
    }
    pn_pool_update(pool, rs, ax->pool != NULL ? ax->poolbudget : 0);
    xaxis = PN_X_ITER;
    ns = 1;
  }
  /* (1) extent, axis kinds, stable ranges */
  if (pool != NULL) pn_scan_pool(pool, kind, &e);
  else pn_scan(rs, full, xaxis, &e);
  log = pn_ylog(kind, ax->ymode, &e);
  ax->shown_log = log;
  if (kind == PN_TRACE) {
    char nb[16];
    snprintf(title, tsize, "trace %s [%s%s]", ol_problem_coordname(rs->n > 0
             ? ol_run_problem(rs->runs[0]) : NULL, coord, nb, sizeof nb),
             log ? "log" : "lin", ax->xlog ? ", log x" : "");
  }
  else
    snprintf(title, tsize, "%s%s [%s%s]", pn_name(kind), pool != NULL
             ? ", chains pooled" : "", log ? "log" : "lin", ax->xlog
             ? ", log x" : "");
  if (!ax->stable) memset(&ax->ys, 0, sizeof ax->ys);
  if (e.any) {
    if (log && e.pmin < INFINITY) cv_scale_fit(&ax->ys, 1, e.pmin, e.max);
    else if (!log) cv_scale_fit(&ax->ys, 0, e.min, e.max);
    unit_range(kind, &ax->ys);
  }
  if (ax->stable && ax->xmax > 0 && ax->kept_xaxis == xaxis
      && ax->kept_xlog == ax->xlog) {
    if (e.xmax > ax->xmax) ax->xmax = cv_nice_up(e.xmax);
  } else {
    ax->xmax = ax->xlog ? cv_nice_up(e.xmax > 1 ? e.xmax : 1)
      : xhigh(e.xmax, xaxis);
    ax->kept_xaxis = xaxis;
    ax->kept_xlog = ax->xlog;
  }
  xscale(ax, xaxis, &e, pn_trace_xlo(rs, full), &xs);
  /* (2) legend entries and the rows they take below the x tick labels */
  memset(&lg, 0, sizeof lg);
  lg.extra[0] = '\0';
  chains = pool == NULL && pn_chainset(rs);
  for (k = 0; k < ns && k < MAXLEG; k++) {
    char a[32], b[32], v[48];
    pn_src s;
    if (!open_k(rs, full, xaxis, pool, k, &s))
      snprintf(v, sizeof v, "(not defined)");
    else if (kind == PN_TRACE || pool != NULL || kind == OL_MET_ACCEPT
             || kind == OL_MET_STEPSIZE)   /* a sampler's: no minimum */
      snprintf(v, sizeof v, "%s", ol_fmtnum(a, sizeof a, pn_src_y(&s, s.n - 1),
                                             4));
    else
      snprintf(v, sizeof v, "%s\tmin %s", ol_fmtnum(a, sizeof a,
               ol_run_last(rs->runs[k], kind), 4), ol_fmtnum(b, sizeof b,
               ol_run_min(rs->runs[k], kind), 4));
    if (pool != NULL) {
      snprintf(lg.extra, sizeof lg.extra, "%d chains pooled %.20s", rs->n,
               v);
      break;
    }
    pn_leg_add(&lg, pn_label(rs, chains, k, names[k], sizeof names[k]), v,
               DOT, cv_marker(k), k);
  }
  /* a step size adapted in the warmup: whether it is done (the values are
  ** then the adapted ones, not the parameter's start) */
  if (kind == OL_MET_STEPSIZE && pool == NULL && rs->n > 0
      && ol_run_warmup(rs->runs[0]) > 0) {
    long w = ol_run_warmup(rs->runs[0]), t = ol_run_iter(rs->runs[0]);
    char ex[96];
    if (t >= w) snprintf(ex, sizeof ex, "adapted (warmup %ld)", w);
    else snprintf(ex, sizeof ex, "adapting (warmup %ld/%ld)", t, w);
    snprintf(lg.extra, sizeof lg.extra, "%.40s", ex);
    lg.xrole = PN_AXIS;
  }
  /* divergent draws, counted for the pn_legend */
  for (k = 0; kind == PN_TRACE && k < rs->n; k++) {
    pn_pts pt;
    long j;
    if (!pn_points(rs->runs[k], &pt) || !pt.draws) continue;
    for (j = 0; j < pt.n; j++) ndiv += pn_pts_divergent(&pt, j);
  }
  if (ndiv > 0) {
    snprintf(lg.extra, sizeof lg.extra, "%s %ld divergent", o->utf8
             ? "\xc3\x97" : "X", ndiv);
    lg.xrole = PN_DIVERGENT;
  }
  nchg = nchanges(rs, pool);
  if (nchg > 0 && lg.extra[0] == '\0') {
    snprintf(lg.extra, sizeof lg.extra, "%s %d change%s", o->utf8
             ? "\xe2\x96\xb2" : "^", nchg, nchg == 1 ? "" : "s");
    lg.xrole = PN_AXIS;
  }
  /* at most a third of the rows (entries shortened into columns beyond
  ** that); a panel too small for any goes to an empty corner */
  if (o->h - 2 - 3 >= 1) {
    int maxrows = (o->h - 2) / 3;
    if (maxrows < 2 && o->h - 2 - 2 >= 3) maxrows = 2;
    lrows = pn_leg_layout(&lg, o->w - 1, maxrows > 1 ? maxrows : 1, &ncols,
                          &colw);
  }
  else corner = 1;
  ph = o->h - 2 - lrows;
  if (pw < 4 || ph < 1 || cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE
                                  : CV_ASCII) != 0)
    return;
  dw = cv_dotw(o->cv);
  dh = cv_doth(o->cv);
  for (col = 0; col < pw && col < 1024; col++) floor_s[col] = -1;
  /* (3) series: lines between consecutive points, a gap where a value
  ** cannot be shown, a floor mark where a log axis cannot reach it; where
  ** several runs pass through one cell, they own it by turns (owners) */
  owners = ns > 1 && ns <= 64 && ax->ys.valid
    ? calloc((size_t)pw * (size_t)ph, sizeof *owners) : NULL;
  for (k = 0; owners != NULL && k < ns; k++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0) {
      free(owners);
      owners = NULL;
      break;
    }
    draw_series(rs, full, xaxis, pool, k, &xs, &ax->ys, o->cv, floor_s);
    for (row = 0; row < ph; row++)
      for (col = 0; col < pw; col++) {
        int sr;
        if (cv_cell(o->cv, col, row, &sr) != 0)
          owners[(size_t)row * (size_t)pw + (size_t)col] |= (uint64_t)1 << k;
      }
  }
  if (owners != NULL && cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE
                                : CV_ASCII) != 0) {
    free(owners);
    return;
  }
  for (col = 0; col < pw && col < 1024; col++) floor_s[col] = -1;
  for (k = 0; ax->ys.valid && k < ns; k++)
    draw_series(rs, full, xaxis, pool, k, &xs, &ax->ys, o->cv, floor_s);
  for (row = 0; row < ph; row++)
    for (col = 0; col < pw; col++) {
      int sr;
      unsigned u = cv_cell(o->cv, col, row, &sr);
      if (u == 0) continue;
      if (owners != NULL)
        sr = by_turns(owners[(size_t)row * (size_t)pw + (size_t)col],
                      col + row, sr);
      o->put(o->ud, o->y + row, px + col, u, cv_marker(sr),
             pool != NULL ? PN_TITLE : sr);
    }
  free(owners);
  for (col = 0; col < pw && col < 1024; col++)
    if (floor_s[col] >= 0)
      o->put(o->ud, o->y + ph - 1, px + col, PN_FLOOR, 'v', floor_s[col]);
  /* (3a) parameter changes: a dotted line up through the empty cells */
  for (k = 0; nchg > 0 && k < rs->n; k++) {
    int n, j, s;
    const ol_change *ch = ol_run_changes(rs->runs[k], &n);
    for (j = 0; j < n; j++) {
      col = change_col(&xs, dw, pw, pn_change_x(rs->runs[k], xaxis,
                                                  ch[j].t));
      for (row = 0; col >= 0 && row < ph; row++)
        if (cv_cell(o->cv, col, row, &s) == 0)
          o->put(o->ud, o->y + row, px + col, 0x250A, ':', PN_HEAT);
    }
  }
  /* (3b) divergent transitions where they happened: iteration, value */
  for (k = 0; ndiv > 0 && ax->ys.valid && k < rs->n; k++) {
    pn_src s;
    long j;
    int qx, qy;
    if (!pn_src_open(&s, full, xaxis, rs->runs[k]) || !s.pt.draws) continue;
    for (j = 0; j < s.n; j++)
      if (pn_pts_divergent(&s.pt, j)
          && line_dot(&xs, &ax->ys, dw, dh, pn_src_x(&s, j), pn_src_y(&s, j),
                      &qx, &qy))
        o->put(o->ud, o->y + qy / (dh / ph), px + qx / (dw / pw), PN_DIVMARK,
               'X', PN_DIVERGENT);
  }
  /* (4) y axis */
  for (i = 0; i < ph; i++) o->put(o->ud, o->y + i, axc, 0x2502, '|', PN_AXIS);
  nt = ax->ys.valid ? cv_ticks(&ax->ys, ph / 2 > 2 ? (ph / 2 < MAXTICKS
                                 ? ph / 2 : MAXTICKS) : 2, tv) : 0;
  for (i = 0; i < nt; i++) {
    double pos = cv_scale_pos(&ax->ys, tv[i]);
    if (isnan(pos)) continue;
    row = (int)lround((1 - pos) * (dh - 1)) / (dh / ph);
    if (row < 0 || row >= ph || row == last) continue;
    last = row;
    cv_fmt(tv[i], lab, sizeof lab, YLAB - 1);
    pn_puts_at(o, o->y + row, axc - (int)strlen(lab), lab, YLAB, PN_AXIS);
    o->put(o->ud, o->y + row, axc, 0x2524, '+', PN_AXIS);
  }
  if (!ax->ys.valid) pn_puts_at(o, o->y, px + 1, "no data", pw - 1, PN_AXIS);
  /* (5) x axis: tick labels, none cut (the axis title goes in the
  ** caller's bottom border: pn_xtitle) */
  o->put(o->ud, o->y + ph, axc, 0x2514, '+', PN_AXIS);
  for (i = 0; i < pw; i++)
    o->put(o->ud, o->y + ph, px + i, 0x2500, '-', PN_AXIS);
  nt = cv_ticks(&xs, pw / 10 > 2 ? (pw / 10 < MAXTICKS ? pw / 10 : MAXTICKS)
                : 2, tv);
  end = axc;
  for (i = 0; i < nt; i++) {
    double xp = cv_scale_pos(&xs, tv[i]);
    int c, len, lx;
    if (isnan(xp)) continue;
    c = (int)lround(xp * (dw - 1)) / (dw / pw);
    if (c < 0 || c >= pw) continue;
    o->put(o->ud, o->y + ph, px + c, 0x2534, '+', PN_AXIS);
    pn_xfmt(xaxis, tv[i], lab, sizeof lab, 6);
    len = (int)strlen(lab);
    lx = px + c - len / 2;
    if (lx + len > px + pw) lx = px + pw - len;
    if (lx < px) lx = px;
    if (lx <= end) continue;
    pn_puts_at(o, o->y + ph + 1, lx, lab, len, PN_AXIS);
    end = lx + len;
  }
  /* (5b) parameter changes: a mark on the x axis in the run's colour */
  for (k = 0; nchg > 0 && k < rs->n; k++) {
    int n, j;
    const ol_change *ch = ol_run_changes(rs->runs[k], &n);
    for (j = 0; j < n; j++) {
      col = change_col(&xs, dw, pw, pn_change_x(rs->runs[k], xaxis,
                                                  ch[j].t));
      if (col >= 0)
        o->put(o->ud, o->y + ph, px + col, PN_CHGMARK, '^', k);
    }
  }
  /* (6) legend: below, or in an empty corner of a tiny panel */
  if (lrows > 0)
    pn_leg_draw(o, &lg, o->y + ph + 2, o->x + 1, lrows, ncols, colw, 1);
  else if (corner) pn_leg_corner(o, &lg, o->cv, o->y, px, ph, pw);
}

void pn_metric (const pn_runs *rs, int m, pn_axes *ax, const pn_out *o,
                char *title, size_t tsize)
{
  line_panel(rs, m, ax, o, title, tsize);
}

void pn_trace (const pn_runs *rs, int kind, pn_axes *ax, const pn_out *o,
               char *title, size_t tsize)
{
  line_panel(rs, pn_base(kind) == PN_TRACE ? kind : PN_TRACE, ax, o, title,
             tsize);
}

const char *pn_xtitle (int kind, const pn_axes *ax, char *buf, size_t size)
{
  int xaxis = ax != NULL ? ax->xaxis : PN_X_ITER;
  kind = pn_base(kind);
  if (kind >= OL_NMETRICS && kind != PN_TRACE) {
    buf[0] = '\0';
    return buf;
  }
  if (kind == PN_TRACE) xaxis = PN_X_ITER;
  snprintf(buf, size, "%s%s", pn_xaxis_label(xaxis), ax != NULL && ax->xlog
           ? " (log)" : "");
  return buf;
}

/* -- SVG ------------------------------------------------------------------ */

/* Ticks tv[0..n) of one axis as labels, in one notation. */
static void ticklabels (const double *tv, int n, double per, char lab[][32])
{
  double sv[16] = {0};
  int i, sci;
  if (n > 16) n = 16;
  for (i = 0; i < n; i++) sv[i] = tv[i] / per;
  sci = pl_ticksci(sv, n);
  for (i = 0; i < n; i++) pl_tickfmt(sv[i], sci, lab[i], 32);
}

static void svg_line (pl_buf *f, const pl_plot *pl, int full, pl_box b)
{
  pn_extent e;
  pn_axes ax;
  cv_scale xs;
  double tv[16], per = 1;
  char lab[16][32], t[96], xt[64];
  int kind = pn_base(full), coord, ns = pl->rs.n;
  int k, i, log, nt, xa = kind == PN_TRACE ? PN_X_ITER : pl->xaxis;
  const char *unit = NULL;
  int xlog = pl->xlog || pn_xlog_prone(kind);
  pn_pool *pool = NULL;
  pn_coords(full, &coord, NULL);
  if (pn_pooled(&pl->rs, kind)) {
    /* a chain set's rhat, ess: the one pooled curve (plotpanel.h) */
    pool = calloc(1, sizeof *pool);
    if (pool != NULL) {
      pn_pool_update(pool, &pl->rs, 0);
      xa = PN_X_ITER;
      ns = 1;
    }
  }
  pn_axes_init(&ax, xa, xlog);
  if (pool != NULL) pn_scan_pool(pool, kind, &e);
  else pn_scan(&pl->rs, full, xa, &e);
  log = pn_ylog(kind, PN_YAUTO, &e);
  if (e.any) {
    if (log) cv_scale_fit(&ax.ys, 1, e.pmin, e.max);
    else cv_scale_fit(&ax.ys, 0, e.min, e.max);
    unit_range(kind, &ax.ys);
  }
  xs.valid = 1;
  xs.log = xlog;
  if (!(e.xmax > 0)) e.xmax = xa == PN_X_TIME ? 1e-3 : 1;
  if (xlog) {
    xs.lo = xa == PN_X_ITER || !(e.xminpos < INFINITY) ? 0
      : floor(log10(e.xminpos) + 1e-9);
    xs.hi = ceil(log10(e.xmax) - 1e-9);
    if (xs.hi <= xs.lo) xs.hi = xs.lo + 1;
  } else {
    xs.hi = cv_nice_up(e.xmax / 5);
    xs.hi *= ceil(e.xmax / xs.hi);
    xs.lo = pn_trace_xlo(&pl->rs, full);
    if (!(xs.lo < xs.hi)) xs.lo = 0;
  }
  if (xa == PN_X_TIME)
    unit = pl_timeunit(xs.log ? pow(10, xs.hi) : xs.hi, &per);
  if (kind == PN_TRACE) {
    char nb[16];
    snprintf(t, sizeof t, "trace %s [%s%s]", ol_problem_coordname(ns > 0 ?
             ol_run_problem(pl->rs.runs[0]) : NULL, coord, nb, sizeof nb),
             log ? "log" : "lin", xlog ? ", log x" : "");
  }
  else
    snprintf(t, sizeof t, "%s%s [%s%s]", pn_name(kind), pool != NULL
             ? ", chains pooled" : "", log ? "log" : "lin", xlog
             ? ", log x" : "");
  pl_buf_addf(f, "<g class=\"panel\" data-kind=\"%s\">\n", pn_name(kind));
  pl_title(f, b, t);
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
              "class=\"frame\"/>\n", b.x, b.y, b.w, b.h);
  /* (1) y ticks */
  nt = ax.ys.valid ? cv_ticks(&ax.ys, 6, tv) : 0;
  ticklabels(tv, nt, 1, lab);
  for (i = 0; i < nt; i++) {
    double y = b.y + (1 - cv_scale_pos(&ax.ys, tv[i])) * b.h;
    pl_buf_addf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">"
                "%s</text>\n", b.x, y, b.x + b.w, y, b.x - 4, y + 4, lab[i]);
  }
  /* (2) x ticks, one notation, time in one unit */
  nt = cv_ticks(&xs, 6, tv);
  ticklabels(tv, nt, per, lab);
  for (i = 0; i < nt; i++) {
    double x = b.x + cv_scale_pos(&xs, tv[i]) * b.w;
    pl_buf_addf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">"
                "%s</text>\n", x, b.y, x, b.y + b.h, x, b.y + b.h + 14,
                lab[i]);
  }
  if (unit != NULL)
    snprintf(xt, sizeof xt, "time [%s]%s", unit, xlog ? " (log)" : "");
  else pn_xtitle(kind, &ax, xt, sizeof xt);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">", b.x + b.w,
              b.y + b.h + 28);
  pl_buf_addxml(f, xt);
  pl_buf_adds(f, "</text>\n");
  /* (3) one path per run; floor marks for what the log axis cannot show */
  for (k = 0; k < ns; k++) {
    pn_src s;
    int have = 0, nfl = 0;
    long step = 1;
    double lastfx = -1e300;
    int open = pool != NULL ? pn_src_pool(&s, kind, pool)
      : pn_src_open(&s, full, xa, pl->rs.runs[k]);
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                pool != NULL ? "#333333" : pl_palette[k % PL_NPAL]);
    if (open && s.n > 4000) step = s.n / 2000;
    for (i = 0; open && ax.ys.valid && i < s.n; i += (int)step) {
      double y = pn_src_y(&s, i), xp = cv_scale_pos(&xs, pn_src_x(&s, i));
      double pos = cv_scale_pos(&ax.ys, y);
      if (isnan(xp) || isnan(pos) || (ax.ys.log && !(y >= PN_TINY))) {
        have = 0;
        continue;
      }
      pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
      xp = xp < 0 ? 0 : xp > 1 ? 1 : xp;
      pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", b.x + xp * b.w,
                  b.y + (1 - pos) * b.h);
      have = 1;
    }
    pl_buf_adds(f, "\"/>\n");
    for (i = 0; open && ax.ys.log && i < s.n; i += (int)step) {
      double y = pn_src_y(&s, i), xp = cv_scale_pos(&xs, pn_src_x(&s, i));
      double fx;
      if (isnan(xp) || isnan(y) || y >= PN_TINY) continue;
      fx = b.x + (xp < 0 ? 0 : xp > 1 ? 1 : xp) * b.w;
      if (fx - lastfx < 4 || nfl > 400) continue;
      lastfx = fx;
      nfl++;
      pl_buf_addf(f, "<path class=\"floor\" fill=\"%s\" d=\"M%.1f %.1f "
                  "l-3 -5 h6 z\"/>\n", pl_palette[k % PL_NPAL], fx, b.y + b.h);
    }
    /* parameter changes: a dashed line in the run's colour at each, with
    ** the new value at its top */
    if (pool == NULL) {
      int nc, j;
      const ol_change *ch = ol_run_changes(pl->rs.runs[k], &nc);
      const ol_method_type *mt = ol_run_method(pl->rs.runs[k]);
      for (j = 0; j < nc; j++) {
        char v[32];
        double xp = cv_scale_pos(&xs, pn_change_x(pl->rs.runs[k], xa,
                                                    ch[j].t));
        if (isnan(xp) || xp < 0 || xp > 1) continue;
        pl_buf_addf(f, "<line class=\"change\" x1=\"%.1f\" y1=\"%.1f\" "
                    "x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                    "stroke-dasharray=\"4 3\"/><text x=\"%.1f\" "
                    "y=\"%.1f\" class=\"note\" fill=\"%s\">",
                    b.x + xp * b.w, b.y, b.x + xp * b.w, b.y + b.h,
                    pl_palette[k % PL_NPAL], b.x + xp * b.w + 2,
                    b.y + 10 + 10 * (j % 3), pl_palette[k % PL_NPAL]);
        pl_buf_addxml(f, ch[j].param < mt->nparams
                      ? mt->params[ch[j].param].name : "?");
        pl_buf_addf(f, "=%s</text>\n", ol_fmtnum(v, sizeof v, ch[j].value,
                                                  4));
      }
    }
    /* divergent transitions: a red cross at their iteration and value */
    for (i = 0; open && kind == PN_TRACE && ax.ys.valid && i < s.n; i++) {
      double xp, pos;
      if (!pn_pts_divergent(&s.pt, i)) continue;
      xp = cv_scale_pos(&xs, pn_src_x(&s, i));
      pos = cv_scale_pos(&ax.ys, pn_src_y(&s, i));
      if (isnan(xp) || isnan(pos)) continue;
      pl_divmark(f, b.x + xp * b.w, b.y + (1 - pos) * b.h);
    }
  }
  pl_buf_adds(f, "</g>\n");
  free(pool);
}

/* -- the table entries ---------------------------------------------------- */

static int metric_available (const pn_runs *rs, int kind,
                             const ol_problem *p, char *why, size_t wsize)
{
  int k;
  (void)p;
  if (pn_pooled(rs, kind)) return 1;
  for (k = 0; k < rs->n; k++)
    if (ol_mset_has(ol_run_metrics(rs->runs[k]), kind)) return 1;
  snprintf(why, wsize, "metric '%s' was not recorded", pn_name(kind));
  return 0;
}

static void metric_cells (const pn_runs *rs, int kind, pn_axes *ax,
                          pn_cache *c, const pn_out *o, char *title,
                          size_t tsize)
{
  (void)c;
  pn_metric(rs, kind, ax, o, title, tsize);
}

const pn_kind pn_kind_metric = {
  .name = NULL,
  .axes = 1,
  .available = metric_available,
  .draw_cells = metric_cells,
  .draw_svg = svg_line,
};

static int trace_available (const pn_runs *rs, int kind, const ol_problem *p,
                            char *why, size_t wsize)
{
  (void)p;
  return pn_need_points(rs, kind, 0, why, wsize);
}

static void trace_cells (const pn_runs *rs, int kind, pn_axes *ax,
                         pn_cache *c, const pn_out *o, char *title,
                         size_t tsize)
{
  (void)c;
  pn_trace(rs, kind, ax, o, title, tsize);
}

const pn_kind pn_kind_trace = {
  .name = "trace",
  .axes = 1,
  .available = trace_available,
  .draw_cells = trace_cells,
  .draw_svg = svg_line,
};
