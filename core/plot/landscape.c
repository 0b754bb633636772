/*
** core/plot/landscape.c -- the landscape panel (pn_kind_landscape): one
** grid cell per character cell, shaded by the level of log10(f - min +
** eps) (ramp ' .:-=+*#%@', low to high), trajectories on top (braille
** lines in the run's colour, or ASCII letters a, b, c, ... per run), the
** current point as a filled circle (ASCII: A, B, C, ...).  A cell that
** several paths pass through goes to the run with the fewest cells shown
** so far (cv_owners), so no path hides another.  The window is the runs'
** box without a run that strays (pn_landscape_window), or the caller's
** fixed one (pn_axes.winfix: the view option, the w key); the live view
** marks each start and x* (pn_axes.marks).  The grid of f
** (pn_cache, computed by ol_problem_grid within a time budget) is shared
** with the cloud's contours.  In SVG: contour lines of f (marching
** squares on a grid of about 6000 nodes, levels evenly spaced in log f),
** ticks at nice numbers on both axes, each run's path with its start (an
** open square) and current point (a filled circle), and x* (a star) when
** the problem knows it, keyed right of the panel's title.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "method.h"
#include "ol.h"
#include "panelpriv.h"

const char pn_ramp[] = " .:-=+*#%@";

/* -- landscape ------------------------------------------------------------ */

int pn_has_landscape (const ol_problem *p)
{
  return p != NULL && p->n >= 2 && p->kind != OL_GAME;
}

/* Map n values to levels 0..nlev-1 on a log scale of f - min + eps, eps a
** 1e-3 of the span (NAN values get -1). */
static void pn_levels (const double *v, int n, int nlev, int *lev)
{
  double lo = INFINITY, hi = -INFINITY, eps, l0, l1, q;
  int i;
  for (i = 0; i < n; i++)
    if (isfinite(v[i])) {
      if (v[i] < lo) lo = v[i];
      if (v[i] > hi) hi = v[i];
    }
  eps = hi > lo ? 1e-3 * (hi - lo) : 1;
  l0 = log10(eps);
  l1 = log10(hi - lo + eps);
  for (i = 0; i < n; i++) {
    int k;
    if (!isfinite(v[i])) {
      lev[i] = -1;
      continue;
    }
    /* clamped as a double: with a span of inf (values near DBL_MAX) the
    ** ratio is NaN, which no int conversion may see (found by the fuzzer) */
    q = (log10(v[i] - lo + eps) - l0) / (l1 - l0) * nlev;
    k = !(q > 0) ? 0 : q >= nlev ? nlev - 1 : (int)q;
    lev[i] = k;
  }
}

void pn_cache_fini (pn_cache *c)
{
  double budget = c->budget, maxsec = c->maxsec;
  int oneshot = c->oneshot;
  free(c->val);
  free(c->lev);
  free(c->work);
  memset(c, 0, sizeof *c);
  c->budget = budget;
  c->maxsec = maxsec;
  c->oneshot = oneshot;
}

/* Cells c->done.. of the grid, as ol_problem_grid computes them (the same
** points, NAN where f is not finite), until all are done (0) or the
** budget is spent (PN_GRID_PART, or PN_GRID_SLOW when the whole grid would
** take more than PN_MAPMAX seconds); -1 when f fails. */
static int grid_part (const ol_problem *p, const double *x0, pn_cache *c)
{
  int nx = c->nx, ny = c->ny, k, first = c->done;
  double *x = c->work, *w2 = c->work + p->n, t0 = ol_now(), el;
  const double *win = c->win;
  ol_err e;
  memcpy(x, x0, (size_t)p->n * sizeof *x);
  for (k = first; k < nx * ny; k++) {
    int r = k / nx, col = k % nx, rc;
    double f = NAN;
    x[c->cb] = win[2] + (r + 0.5) * (win[3] - win[2]) / ny;
    x[c->ca] = win[0] + (col + 0.5) * (win[1] - win[0]) / nx;
    rc = ol_problem_eval(p, x, &f, NULL, w2, &e);
    if (rc == OL_EDOM) f = NAN;
    else if (rc != OL_OK) {
      c->done = 0;
      return -1;
    }
    c->val[k] = f;
    if (((k - first) & 7) == 7 || k == first) {
      el = ol_now() - t0;
      if (el >= c->budget) {
        c->cellsec = el / (k - first + 1);
        c->done = k + 1;
        if (c->cellsec * nx * ny > (c->maxsec > 0 ? c->maxsec : PN_MAPMAX)) {
          c->slow = p;
          c->done = 0;
          return PN_GRID_SLOW;
        }
        return c->done < nx * ny ? PN_GRID_PART : 0;
      }
    }
  }
  c->done = 0;
  return 0;
}

/* grid_part, and for a picture drawn once the rest of the grid at once
** (each further part with the same budget: a grid that turns out slow
** is still given up). */
static int grid_more (const ol_problem *p, const double *x0, pn_cache *c)
{
  int rc = grid_part(p, x0, c);
  while (c->oneshot && rc == PN_GRID_PART) rc = grid_part(p, x0, c);
  return rc;
}

/* The grid of p over win in coordinates (ca, cb) into c (see
** pn_landscape_grid for the returns). */
int pn_grid_at (const ol_problem *p, const double *win, int ca, int cb,
                int nx, int ny, pn_cache *c)
{
  const double *x0;
  ol_err e;
  int same = c->p == p && c->nx == nx && c->ny == ny && c->ca == ca
    && c->cb == cb && memcmp(c->win, win, sizeof c->win) == 0;
  if (c->ok && same) return 0;
  if (c->budget > 0 && c->slow == p) return PN_GRID_SLOW;
  if (c->budget > 0 && c->done > 0 && same) {
    int rc;
    x0 = p->xstar != NULL ? p->xstar : p->x0;
    if ((rc = grid_more(p, x0, c)) != 0) return rc;
    pn_levels(c->val, nx * ny, PN_NLEVELS, c->lev);
    c->ok = 1;
    return 0;
  }
  c->ok = 0;
  c->done = 0;
  if (c->nx * c->ny < nx * ny || c->val == NULL) {
    double *v = realloc(c->val, (size_t)nx * (size_t)ny * sizeof *v);
    int *l;
    if (v == NULL) return -1;
    c->val = v;
    l = realloc(c->lev, (size_t)nx * (size_t)ny * sizeof *l);
    if (l == NULL) return -1;
    c->lev = l;
  }
  if (c->nwork < 2 * p->n) {
    double *w = realloc(c->work, 2 * (size_t)p->n * sizeof *w);
    if (w == NULL) return -1;
    c->work = w;
    c->nwork = 2 * p->n;
  }
  c->p = p;
  c->nx = nx;
  c->ny = ny;
  c->ca = ca;
  c->cb = cb;
  memcpy(c->win, win, sizeof c->win);
  /* other coordinates at x* when known, else at the default start */
  x0 = p->xstar != NULL ? p->xstar : p->x0;
  if (c->budget > 0) {
    int rc = grid_more(p, x0, c);
    if (rc != 0) return rc;
  }
  else if (ol_problem_grid(p, x0, ca, cb, win[0], win[1], win[2], win[3],
                           nx, ny, c->val, c->work, &e) != OL_OK)
    return -1;
  pn_levels(c->val, nx * ny, PN_NLEVELS, c->lev);
  c->ok = 1;
  return 0;
}

int pn_grid (const ol_problem *p, const double *win, int ca, int cb, int nx,
             int ny, pn_cache *c)
{
  if (p == NULL || !pn_has_landscape(p) || ca == cb || ca < 0 || cb < 0
      || ca >= p->n || cb >= p->n || nx < 1 || ny < 1)
    return -1;
  return pn_grid_at(p, win, ca, cb, nx, ny, c);
}

/* A run strays when the span of its points (with x*) is over PN_STRAY
** times the median run's. */
#define PN_STRAY 10

/* The larger side of the box of run r's finite points in coordinates
** (0, 1), x* included when known; 0 when it has none. */
static double run_span (const ol_run *r)
{
  const ol_problem *p = ol_run_problem(r);
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  int dim = 0, len = ol_run_len(r), t, j;
  const double *x = ol_run_traj(r, &dim);
  if (x == NULL || dim < 2) return 0;
  for (t = 0; t <= len; t++) {
    const double *z = t < len ? x + (size_t)t * dim : p->xstar;
    if (z == NULL) continue;
    for (j = 0; j < 2; j++)
      if (isfinite(z[j])) {
        if (z[j] < lo[j]) lo[j] = z[j];
        if (z[j] > hi[j]) hi[j] = z[j];
      }
  }
  if (!(lo[0] <= hi[0]) || !(lo[1] <= hi[1])) return 0;
  return hi[0] - lo[0] > hi[1] - lo[1] ? hi[0] - lo[0] : hi[1] - lo[1];
}

int pn_landscape_window (const pn_runs *rs, double win[4])
{
  const ol_run *keep[MAXLEG];
  double span[MAXLEG], sorted[MAXLEG], med;
  int n = rs->n, k, i, nk = 0;
  /* (1) a run's span against the (lower) median span: with fewer than two
  ** runs, or more than MAXLEG, every run counts */
  if (n >= 2 && n <= MAXLEG) {
    for (k = 0; k < n; k++) {
      double v = span[k] = run_span(rs->runs[k]);
      for (i = k; i > 0 && sorted[i - 1] > v; i--) sorted[i] = sorted[i - 1];
      sorted[i] = v;
    }
    med = sorted[(n - 1) / 2];
    for (k = 0; k < n; k++)
      if (!(med > 0) || !(span[k] > PN_STRAY * med))
        keep[nk++] = rs->runs[k];
    /* (2) the box of the others (and x*): a straying run leaves it */
    if (nk > 0 && nk < n)
      return ol_grid_window(keep, nk, 0, 1, 0, win);
  }
  return ol_grid_window((const ol_run *const *)rs->runs, rs->n, 0, 1, 0,
                        win);
}

int pn_landscape_grid (const pn_runs *rs, int nx, int ny, pn_cache *c)
{
  const ol_problem *p;
  double win[4];
  if (rs->n < 1 || nx < 1 || ny < 1) return -1;
  p = ol_run_problem(rs->runs[0]);
  if (!pn_has_landscape(p)) return -1;
  if (ol_grid_window((const ol_run *const *)rs->runs, rs->n, 0, 1, 0, win)
      != 0)
    return -1;
  return pn_grid_at(p, win, 0, 1, nx, ny, c);
}

/* Clip the segment (a0, b0)-(a1, b1) to win (Liang-Barsky): 0 when none
** of it is inside. */
static int clip (const double *win, double *a0, double *b0, double *a1,
                 double *b1)
{
  double t0 = 0, t1 = 1, da = *a1 - *a0, db = *b1 - *b0;
  double pp[4], qq[4];
  int i;
  pp[0] = -da; qq[0] = *a0 - win[0];
  pp[1] = da;  qq[1] = win[1] - *a0;
  pp[2] = -db; qq[2] = *b0 - win[2];
  pp[3] = db;  qq[3] = win[3] - *b0;
  for (i = 0; i < 4; i++) {
    if (pp[i] == 0) {
      if (qq[i] < 0) return 0;
      continue;
    }
    {
      double r = qq[i] / pp[i];
      if (pp[i] < 0) {
        if (r > t1) return 0;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return 0;
        if (r < t1) t1 = r;
      }
    }
  }
  /* an end inside stays exactly where it was (the same dot as unclipped) */
  if (t1 < 1) {
    *a1 = *a0 + t1 * da;
    *b1 = *b0 + t1 * db;
  }
  if (t0 > 0) {
    *a0 += t0 * da;
    *b0 += t0 * db;
  }
  return 1;
}

static int inside (const double *win, double a, double b)
{
  return a >= win[0] && a <= win[1] && b >= win[2] && b <= win[3];
}

/* Run k's path on the canvas, clipped to win (a point far outside, of a
** diverging run or out of a fixed window, is never mapped). */
static void draw_path (cv_canvas *cv, const double *win, const ol_run *r,
                       int k)
{
  int dim = 0, len = ol_run_len(r), t, have = 0;
  double la = 0, lb = 0;
  const double *x = ol_run_traj(r, &dim);
  if (x == NULL || dim < 2) return;
  for (t = 0; t < len; t++) {
    double a = x[(size_t)t * dim], b = x[(size_t)t * dim + 1];
    double a0 = la, b0 = lb, a1 = a, b1 = b;
    int qx, qy, px, py;
    if (!isfinite(a) || !isfinite(b)) continue;
    if (!have) {
      if (inside(win, a, b)) {
        pn_todot(cv, win, a, b, &qx, &qy);
        cv_dot(cv, qx, qy, k);
      }
    } else if (clip(win, &a0, &b0, &a1, &b1)) {
      pn_todot(cv, win, a0, b0, &px, &py);
      pn_todot(cv, win, a1, b1, &qx, &qy);
      cv_line(cv, px, py, qx, qy, k);
    }
    have = 1;
    la = a;
    lb = b;
  }
}

/* The run a cell shows, when several runs' paths pass through it: the one
** with the fewest cells shown so far (its own cells, then the shared ones
** it was given, counted in shown[]), the later run on a tie; so a path
** that runs under another keeps every other shared cell, and none is
** hidden.  A cell of one run, or of a series >= 64, is its last writer. */
static int cell_owner (const cv_canvas *cv, int col, int row, int s,
                       int *shown, int n)
{
  unsigned long long m = cv_owners(cv, col, row);
  int k, best = -1;
  if (s < 0 || s >= 64 || (m & (m - 1)) == 0) return s;
  for (k = 0; k < n && k < 64; k++)
    if ((m >> k & 1) && (best < 0 || shown[k] <= shown[best])) best = k;
  if (best < 0) return s;
  shown[best]++;
  return best;
}

/* 1 when cell (cy, cx) is one of used[0 .. n). */
static int cell_taken (int used[][2], int n, int cy, int cx)
{
  int j;
  for (j = 0; j < n; j++)
    if (used[j][0] == cy && used[j][1] == cx) return 1;
  return 0;
}

int pn_landscape (const pn_runs *rs, const pn_out *o, pn_cache *c,
                  pn_axes *ax, char *title, size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, r, col;
  int below = 0, pass, have, marks = ax != NULL && ax->marks;
  int shown[64], used[MAXLEG][2], nused = 0;
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  double win[4];
  pn_legend lg;
  snprintf(title, tsize, "landscape x1,x2%s [log f]%s",
           p != NULL && p->n > 2 ? " slice" : "",
           ax != NULL && ax->winfix ? " fixed" : "");
  if (pw < 4 || ph < 2) return -1;
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n && k < MAXLEG; k++)
    pn_leg_add(&lg, rs->labels[k], NULL, DOT, (char)('a' + k % 26), k);
  if (marks)
    snprintf(lg.extra, sizeof lg.extra, o->utf8 ? "\xe2\x97\x8b start%s"
             : "o start%s", p != NULL && p->xstar != NULL ? (o->utf8
             ? "  \xe2\x98\x85 x*" : "  x x*") : "");
  lg.xrole = PN_NASH;
  /* (1) the window: the fixed one, else the runs' (a straying run left
  ** out, pn_landscape_window), kept in ax for a freeze */
  if (ax != NULL && ax->winfix) {
    double aw[4];
    memcpy(win, ax->win, sizeof win);
    have = 1;
    if (isnan(win[0]) || isnan(win[2])) {   /* one axis left to the runs */
      have = pn_landscape_window(rs, aw) == 0;
      if (isnan(win[0])) memcpy(win, aw, 2 * sizeof *win);
      if (isnan(win[2])) memcpy(win + 2, aw + 2, 2 * sizeof *win);
    }
  } else {
    have = pn_landscape_window(rs, win) == 0;
    if (have && ax != NULL) memcpy(ax->win, win, sizeof win);
  }
  have = have && pn_has_landscape(p);
  /* (2) trajectories onto the canvas, in the window; (3) where the
  ** legend goes: an empty corner, else below (the map then takes fewer
  ** rows); the grid is computed once, at its final size, so the cache
  ** holds from frame to frame */
  for (pass = 0; have && pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    for (k = 0; k < rs->n; k++) draw_path(o->cv, win, rs->runs[k], k);
    if (!pn_leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  if ((k = have ? pn_grid_at(p, win, 0, 1, pw, ph, c) : -1) != 0) {
    char msg[96];
    if (k == PN_GRID_PART)
      snprintf(msg, sizeof msg, "mapping f: %d of %d points", c->done,
               pw * ph);
    else if (k == PN_GRID_SLOW)
      snprintf(msg, sizeof msg, "no landscape: f takes %.2g ms a point, "
               "%d points", c->cellsec * 1e3, pw * ph);
    else
      snprintf(msg, sizeof msg, "%s", pn_has_landscape(p)
               ? "no landscape (trajectory not recorded)"
               : "no landscape for this problem");
    pn_puts_at(o, o->y, o->x + 1, msg, o->w - 1, PN_AXIS);
    return -1;
  }
  /* (4) heat map under the paths; row 0 of the grid is the bottom; a cell
  ** several paths pass through shows them in turn (cell_owner) */
  memset(shown, 0, sizeof shown);
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned u = cv_cell(o->cv, col, r, &s);
      unsigned long long m = cv_owners(o->cv, col, r);
      if (u != 0 && s >= 0 && s < 64 && (m & (m - 1)) == 0) shown[s]++;
    }
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s, lev = c->lev[(size_t)(ph - 1 - r) * pw + col];
      unsigned u = cv_cell(o->cv, col, r, &s);
      if (u != 0) {
        s = cell_owner(o->cv, col, r, s, shown, rs->n);
        o->put(o->ud, o->y + r, px0 + col, o->utf8 ? u : (unsigned)('a'
               + s % 26), (char)('a' + s % 26), s);
      } else
        o->put(o->ud, o->y + r, px0 + col, (unsigned char)pn_ramp[lev < 0
               ? 0 : lev], lev < 0 ? '?' : pn_ramp[lev], PN_HEAT);
    }
  /* (5) the legend in its empty corner (on top of the map, never on a
  ** path), or below */
  if (below) pn_leg_below2d(o, &lg, ph, below);
  else pn_leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  /* (6) the marks (live view): x*, then each run's start, under the
  ** current points */
#define CELLY(qy) (o->y + (qy) / (cv_doth(o->cv) / ph))
#define CELLX(qx) (px0 + (qx) / (cv_dotw(o->cv) / pw))
  if (marks) {
    int qx, qy;
    if (p->xstar != NULL && inside(win, p->xstar[0], p->xstar[1])) {
      pn_todot(o->cv, win, p->xstar[0], p->xstar[1], &qx, &qy);
      o->put(o->ud, CELLY(qy), CELLX(qx), PN_NASHMARK, 'x', PN_NASH);
    }
    for (k = 0; k < rs->n; k++) {
      int dim = 0;
      const double *x = ol_run_traj(rs->runs[k], &dim);
      if (x == NULL || dim < 2 || ol_run_len(rs->runs[k]) < 1
          || !inside(win, x[0], x[1]))
        continue;
      pn_todot(o->cv, win, x[0], x[1], &qx, &qy);
      o->put(o->ud, CELLY(qy), CELLX(qx), 0x25CB, 'o', PN_NASH);
    }
  }
  /* (7) current points; one that would cover an earlier run's moves a
  ** cell right (left at the edge), so runs that met at x* all show */
  for (k = 0; k < rs->n && k < MAXLEG; k++) {
    const double *x = ol_run_x(rs->runs[k]);
    int qx, qy, cy, cx, x0;
    if (!isfinite(x[0]) || !isfinite(x[1]) || !inside(win, x[0], x[1]))
      continue;
    pn_todot(o->cv, win, x[0], x[1], &qx, &qy);
    cy = CELLY(qy);
    cx = x0 = CELLX(qx);
    while (cell_taken(used, nused, cy, cx) && cx < px0 + pw - 1) cx++;
    if (cell_taken(used, nused, cy, cx))
      for (cx = x0; cell_taken(used, nused, cy, cx) && cx > px0; cx--) {}
    used[nused][0] = cy;
    used[nused++][1] = cx;
    o->put(o->ud, cy, cx, DOT, (char)('A' + k % 26), k);
  }
#undef CELLY
#undef CELLX
  /* (8) axes: window bounds and coordinate names */
  pn_win_axes(o, win, px0, ph, pw);
  return 0;
}

/* -- SVG ------------------------------------------------------------------ */

/* The SVG's map: about SVG_NODES grid nodes in the panel's aspect ratio,
** the nodes on the window's edges (so contours reach them); contour
** lines at SVG_NLINES levels evenly spaced in log10(f - min + eps), eps a
** 1e-3 of the span (the shading's scale: pn_levels), denser near the
** minimum. */
#define SVG_NODES 6000
#define SVG_NLINES 12

/* Contour lines of v (nx x ny nodes, row-major, row 0 at the bottom) at
** level lev, by marching squares: a crossing on each grid edge whose
** ends lie on either side of lev (linear interpolation), two crossings
** of a cell joined by a segment (a saddle cell split by its centre's
** mean), segments chained through the edges they share into polylines,
** open ones first (they end on the window's edge or at a NAN node), then
** the closed ones (path ending in "Z").  Node (i, j) is drawn at (b.x +
** i b.w / (nx - 1), b.y + b.h - j b.h / (ny - 1)).  Each path is <path
** class="contour" data-level="lev">.  link (2 per edge) and px, py (1
** per edge) are work arrays of the edge count: (nx - 1) ny horizontal
** edges, then nx (ny - 1) vertical ones. */
static void contour_level (pl_buf *f, const double *v, int nx, int ny,
                           double lev, pl_box b, const char *stroke,
                           int *link, double *px, double *py)
{
  int nh = (nx - 1) * ny, ne = nh + nx * (ny - 1), i, j, e, pass;
  double sx = b.w / (nx - 1), sy = b.h / (ny - 1);
  /* (1) crossings: px NAN where an edge has none */
  for (e = 0; e < ne; e++) {
    int a, c;
    double va, vc, t;
    if (e < nh) {
      j = e / (nx - 1);
      i = e % (nx - 1);
      a = j * nx + i;
      c = a + 1;
    } else {
      j = (e - nh) / nx;
      i = (e - nh) % nx;
      a = j * nx + i;
      c = a + nx;
    }
    link[2 * e] = link[2 * e + 1] = -1;
    px[e] = NAN;
    va = v[a];
    vc = v[c];
    if (!isfinite(va) || !isfinite(vc) || (va > lev) == (vc > lev))
      continue;
    t = (lev - va) / (vc - va);
    if (e < nh) {
      px[e] = b.x + (i + t) * sx;
      py[e] = b.y + b.h - j * sy;
    } else {
      px[e] = b.x + i * sx;
      py[e] = b.y + b.h - (j + t) * sy;
    }
  }
  /* (2) segments: the edges of cell (i, j) are bottom, right, top, left;
  ** corner k (bl, br, tr, tl) is cut off by edges k - 1 and k */
  for (j = 0; j + 1 < ny; j++)
    for (i = 0; i + 1 < nx; i++) {
      int ed[4], q[4], k, n = 0, in[4], cen;
      const double *c0 = v + j * nx + i;
      double cv[4];
      cv[0] = c0[0];
      cv[1] = c0[1];
      cv[2] = c0[nx + 1];
      cv[3] = c0[nx];
      ed[0] = j * (nx - 1) + i;
      ed[1] = nh + j * nx + i + 1;
      ed[2] = (j + 1) * (nx - 1) + i;
      ed[3] = nh + j * nx + i;
      for (k = 0; k < 4; k++) {
        if (!isfinite(cv[k])) break;
        in[k] = cv[k] > lev;
        if (!isnan(px[ed[k]])) q[n++] = ed[k];
      }
      if (k < 4 || n == 0) continue;
      if (n == 4) {
        /* a saddle: cut off the corners on the other side than the
        ** centre */
        cen = (cv[0] + cv[1] + cv[2] + cv[3]) / 4 > lev;
        n = 0;
        for (k = 0; k < 4; k++)
          if (in[k] != cen) {
            q[n++] = ed[(k + 3) % 4];
            q[n++] = ed[k];
          }
      }
      for (k = 0; k + 1 < n; k += 2) {
        int x = q[k], y = q[k + 1];
        link[2 * x + (link[2 * x] >= 0)] = y;
        link[2 * y + (link[2 * y] >= 0)] = x;
      }
    }
  /* (3) chains: from each free end (pass 0), then around each loop;
  ** link[2e] = -2 marks a drawn crossing */
  for (pass = 0; pass < 2; pass++)
    for (e = 0; e < ne; e++) {
      int prev = -1, cur = e, nxt;
      if (isnan(px[e]) || link[2 * e] == -2 || link[2 * e] < 0
          || (pass == 0 && link[2 * e + 1] >= 0))
        continue;
      pl_buf_addf(f, "<path class=\"contour\" data-level=\"%.10g\" "
                  "fill=\"none\" stroke=\"%s\" stroke-width=\"0.8\" "
                  "d=\"M%.2f %.2f", lev, stroke, px[e], py[e]);
      for (;;) {
        int l0 = link[2 * cur], l1 = link[2 * cur + 1];
        link[2 * cur] = -2;
        nxt = l0 != prev && l0 >= 0 ? l0 : l1;
        if (nxt < 0 || nxt == prev || link[2 * nxt] == -2) break;
        pl_buf_addf(f, "L%.2f %.2f", px[nxt], py[nxt]);
        prev = cur;
        cur = nxt;
      }
      pl_buf_adds(f, pass == 1 ? "Z\"/>\n" : "\"/>\n");
    }
}

/* Every level's contour lines of the node grid v (see contour_level),
** lower levels darker. */
static void contour_lines (pl_buf *f, const double *v, int nx, int ny,
                           pl_box b)
{
  double lo = INFINITY, hi = -INFINITY, eps, l0, l1;
  int ne = (nx - 1) * ny + nx * (ny - 1), k, i;
  int *link;
  double *px, *py;
  for (i = 0; i < nx * ny; i++)
    if (isfinite(v[i])) {
      if (v[i] < lo) lo = v[i];
      if (v[i] > hi) hi = v[i];
    }
  if (!(hi > lo)) return;
  eps = 1e-3 * (hi - lo);
  l0 = log10(eps);
  l1 = log10(hi - lo + eps);
  link = malloc(2 * (size_t)ne * sizeof *link);
  px = malloc(2 * (size_t)ne * sizeof *px);
  if (link == NULL || px == NULL) {
    free(link);
    free(px);
    f->oom = 1;
    return;
  }
  py = px + ne;
  for (k = 1; k <= SVG_NLINES; k++) {
    double lev = lo - eps + pow(10, l0 + (l1 - l0) * k / (SVG_NLINES + 1));
    char stroke[16];
    int g = 80 + 110 * (k - 1) / (SVG_NLINES - 1);
    snprintf(stroke, sizeof stroke, "#%02x%02x%02x", g, g, g + 12);
    contour_level(f, v, nx, ny, lev, b, stroke, link, px, py);
  }
  free(link);
  free(px);
}

int pl_contours (pl_buf *f, const ol_problem *p, const double *win, int ca,
                 int cb, pl_box b, int *nx, int *ny)
{
  pn_cache c;
  double gw[4], hx, hy;
  int rc;
  /* nodes on the window's edges: the grid's cells centred on them */
  *nx = (int)(sqrt(SVG_NODES * b.w / (b.h > 1 ? b.h : 1)) + 0.5);
  *nx = *nx < 8 ? 8 : *nx > SVG_NODES / 8 ? SVG_NODES / 8 : *nx;
  *ny = SVG_NODES / *nx;
  hx = (win[1] - win[0]) / (*nx - 1) / 2;
  hy = (win[3] - win[2]) / (*ny - 1) / 2;
  gw[0] = win[0] - hx;
  gw[1] = win[1] + hx;
  gw[2] = win[2] - hy;
  gw[3] = win[3] + hy;
  memset(&c, 0, sizeof c);
  rc = pn_grid(p, gw, ca, cb, *nx, *ny, &c);
  if (rc == 0) contour_lines(f, c.val, *nx, *ny, b);
  pn_cache_fini(&c);
  return rc == 0 ? 0 : -1;
}

/* A five-pointed star at (x, y): x* (class "xstar"; "xstar key" in the
** key above the panel). */
static void xstarmark (pl_buf *f, double x, double y, int key)
{
  const double pi = 3.14159265358979323846;
  int i;
  pl_buf_addf(f, "<path class=\"xstar%s\" fill=\"#111\" stroke=\"#fff\" "
              "stroke-width=\"0.8\" d=\"", key ? " key" : "");
  for (i = 0; i < 10; i++) {
    double a = pi / 2 + i * pi / 5, r = i % 2 ? 2.9 : 7;
    pl_buf_addf(f, "%s%.2f %.2f ", i ? "L" : "M", x + r * cos(a),
                y - r * sin(a));
  }
  pl_buf_adds(f, "Z\"/>\n");
}

/* A run's start at (x, y): an open square in its colour (class "start"). */
static void startmark (pl_buf *f, double x, double y, const char *col,
                       int key)
{
  pl_buf_addf(f, "<rect class=\"start%s\" x=\"%.2f\" y=\"%.2f\" width=\"7\" "
              "height=\"7\" fill=\"white\" stroke=\"%s\" "
              "stroke-width=\"1.6\"/>\n", key ? " key" : "", x - 3.5,
              y - 3.5, col);
}

/* A fixed window (pl->winfix: view = {xlim, ylim} or plot's own) over
** the runs' window win, axis by axis. */
static void fixwin (const pl_plot *pl, double *win)
{
  int k;
  for (k = 0; pl->winfix && k < 2; k++)
    if (!isnan(pl->win[2 * k])) {
      win[2 * k] = pl->win[2 * k];
      win[2 * k + 1] = pl->win[2 * k + 1];
    }
}

/* A path coordinate: clamped far outside the box (a diverging run's
** 1e300 would reach the renderer as is); the clip path hides it. */
static double clampc (double v)
{
  return v < -1e5 ? -1e5 : v > 1e5 ? 1e5 : v;
}

static void svg_landscape (pl_buf *f, const pl_plot *pl, pl_box b)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  int nx, ny, k, t;
  double win[4];
  int ok;
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"landscape\">\n");
  pl_title(f, b, pl->winfix ? "landscape x1,x2 [log f] fixed"
           : "landscape x1,x2 [log f]");
  /* (1) contour lines over the paths' window, then the frame, ticks and
  ** the window and grid (the data's numbers, for a reader: data-window is
  ** xlo xhi ylo yhi, data-grid the nodes across and up, on the window's
  ** edges) */
  ok = pn_has_landscape(p)
    && ol_grid_window((const ol_run *const *)pl->rs.runs, pl->rs.n, 0, 1, 0,
                      win) == 0;
  if (ok) fixwin(pl, win);
  if (!ok || pl_contours(f, p, win, 0, 1, b, &nx, &ny) != 0) {
    for (k = 0; k < pl->rs.n; k++)
      pl_buf_adds(f, "<path class=\"series\" d=\"\"/>\n");
    pl_buf_adds(f, "</g>\n");
    return;
  }
  pl_buf_addf(f, "<g class=\"window\" data-window=\"%.17g %.17g %.17g "
              "%.17g\" data-grid=\"%d %d\"/>\n", win[0], win[1], win[2],
              win[3], nx, ny);
  pl_winaxes(f, b, win);
  /* (2) the key of the marks, right of the title */
  if (b.w >= 200) {
    startmark(f, b.x + b.w - 96, b.y - 12, "#444", 1);
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">start</text>"
                "\n", b.x + b.w - 88, b.y - 8);
    if (p->xstar != NULL) {
      xstarmark(f, b.x + b.w - 34, b.y - 12, 1);
      pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">x*</text>"
                  "\n", b.x + b.w - 24, b.y - 8);
    }
  }
  /* (3) x* (the slice holds the other coordinates at x*), under the
  ** paths, so a run's current point on it shows */
#define PX(a) (b.x + ((a) - win[0]) / (win[1] - win[0]) * b.w)
#define PY(a) (b.y + (win[3] - (a)) / (win[3] - win[2]) * b.h)
#define INWIN(u, w) (isfinite(u) && isfinite(w) && (u) >= win[0] \
                     && (u) <= win[1] && (w) >= win[2] && (w) <= win[3])
  if (p->xstar != NULL && INWIN(p->xstar[0], p->xstar[1]))
    xstarmark(f, PX(p->xstar[0]), PY(p->xstar[1]), 0);
  /* (4) paths, none hiding another: the first run's widest, each later
  ** one narrower on top, so where paths coincide every colour shows as a
  ** band (widths 1.4 plus up to 1.6 a run, 4.8 in all); then every run's
  ** start and current point on top of all paths */
  pl_buf_addf(f, "<clipPath id=\"lclip%d_%d\"><rect x=\"%.1f\" y=\"%.1f\" "
              "width=\"%.1f\" height=\"%.1f\"/></clipPath>\n<g clip-path=\""
              "url(#lclip%d_%d)\">\n", (int)b.x, (int)b.y, b.x, b.y, b.w, b.h,
              (int)b.x, (int)b.y);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]), have = 0;
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    double step = pl->rs.n > 1 ? 4.8 / (pl->rs.n - 1) : 0;
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" style=\""
                "stroke-width:%.2f;stroke-linejoin:round;stroke-linecap:"
                "round\" d=\"", pl_palette[k % PL_NPAL], 1.4 + (pl->rs.n
                - 1 - k) * (step < 1.6 ? step : 1.6));
    for (t = 0; x != NULL && dim >= 2 && t < len; t++) {
      if (!isfinite(x[t * dim]) || !isfinite(x[t * dim + 1])) {
        have = 0;
        continue;
      }
      pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M",
                  clampc(PX(x[t * dim])), clampc(PY(x[t * dim + 1])));
      have = 1;
    }
    pl_buf_adds(f, "\"/>\n");
  }
  pl_buf_adds(f, "</g>\n");
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]);
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    const double *xc = ol_run_x(pl->rs.runs[k]);
    const char *col = pl_palette[k % PL_NPAL];
    for (t = 0; x != NULL && dim >= 2 && t < len; t++)
      if (isfinite(x[t * dim]) && isfinite(x[t * dim + 1])) {
        if (INWIN(x[t * dim], x[t * dim + 1]))
          startmark(f, PX(x[t * dim]), PY(x[t * dim + 1]), col, 0);
        break;
      }
    if (INWIN(xc[0], xc[1]))
      pl_buf_addf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\" "
                  "stroke=\"white\"/>\n", PX(xc[0]), PY(xc[1]), col);
  }
#undef PX
#undef PY
#undef INWIN
  pl_buf_adds(f, "</g>\n");
}

/* -- the table entry ------------------------------------------------------ */

static int landscape_available (const pn_runs *rs, int kind,
                                const ol_problem *p, char *why,
                                size_t wsize)
{
  if (!pn_has_landscape(p)) {
    snprintf(why, wsize, "no landscape for %s (needs an objective or "
             "density with n >= 2)", p->desc);
    return 0;
  }
  return pn_need_traj(rs, kind, why, wsize);
}

static void landscape_cells (const pn_runs *rs, int kind, pn_axes *ax,
                             pn_cache *c, const pn_out *o, char *title,
                             size_t tsize)
{
  (void)kind;
  pn_landscape(rs, o, c, ax, title, tsize);
}

static void landscape_svg (pl_buf *f, const pl_plot *pl, int kind, pl_box b)
{
  (void)kind;
  svg_landscape(f, pl, b);
}

const pn_kind pn_kind_landscape = {
  .name = "landscape",
  .cache = PN_CACHE_MAP,
  .available = landscape_available,
  .draw_cells = landscape_cells,
  .draw_svg = landscape_svg,
};
