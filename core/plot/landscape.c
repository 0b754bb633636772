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
** with the cloud's contours.  In SVG: a rect per grid cell, shaded dark
** blue to yellow.
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
  double lo = INFINITY, hi = -INFINITY, eps, l0, l1;
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
    k = (int)((log10(v[i] - lo + eps) - l0) / (l1 - l0) * nlev);
    lev[i] = k < 0 ? 0 : k >= nlev ? nlev - 1 : k;
  }
}

void pn_cache_fini (pn_cache *c)
{
  double budget = c->budget;
  free(c->val);
  free(c->lev);
  free(c->work);
  memset(c, 0, sizeof *c);
  c->budget = budget;
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
        if (c->cellsec * nx * ny > PN_MAPMAX) {
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
    if ((rc = grid_part(p, x0, c)) != 0) return rc;
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
    int rc = grid_part(p, x0, c);
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

/* Shade of level l (0 low .. PN_NLEVELS - 1 high): dark blue to yellow. */
static void shade (int l, char *buf, size_t sz)
{
  double t = l < 0 ? 1 : (double)l / (PN_NLEVELS - 1);
  snprintf(buf, sz, "#%02x%02x%02x", (int)(40 + 215 * t),
           (int)(40 + 190 * t), (int)(110 + 40 * (1 - t)));
}

static void svg_landscape (pl_buf *f, const pl_plot *pl, pl_box b)
{
  pn_cache c;
  int nx = 48, ny = 32, r, col, k, t;
  double cw, ch;
  char fill[16];
  memset(&c, 0, sizeof c);
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"landscape\">\n");
  pl_title(f, b, "landscape x1,x2 [log f]");
  if (pn_landscape_grid(&pl->rs, nx, ny, &c) != 0) {
    pn_cache_fini(&c);
    for (k = 0; k < pl->rs.n; k++)
      pl_buf_adds(f, "<path class=\"series\" d=\"\"/>\n");
    pl_buf_adds(f, "</g>\n");
    return;
  }
  cw = b.w / nx;
  ch = b.h / ny;
  for (r = 0; r < ny; r++)
    for (col = 0; col < nx; col++) {
      shade(c.lev[r * nx + col], fill, sizeof fill);
      pl_buf_addf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                  "height=\"%.2f\" fill=\"%s\"/>\n", b.x + col * cw,
                  b.y + b.h - (r + 1) * ch, cw + 0.3, ch + 0.3, fill);
    }
  pl_winaxes(f, b, c.win);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]), have = 0;
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    const double *xc = ol_run_x(pl->rs.runs[k]);
#define PX(a) (b.x + ((a) - c.win[0]) / (c.win[1] - c.win[0]) * b.w)
#define PY(a) (b.y + (c.win[3] - (a)) / (c.win[3] - c.win[2]) * b.h)
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                pl_palette[k % PL_NPAL]);
    for (t = 0; x != NULL && dim >= 2 && t < len; t++) {
      if (!isfinite(x[t * dim]) || !isfinite(x[t * dim + 1])) {
        have = 0;
        continue;
      }
      pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", PX(x[t * dim]),
                  PY(x[t * dim + 1]));
      have = 1;
    }
    pl_buf_adds(f, "\"/>\n");
    if (isfinite(xc[0]) && isfinite(xc[1]) && xc[0] >= c.win[0]
        && xc[0] <= c.win[1] && xc[1] >= c.win[2] && xc[1] <= c.win[3])
      pl_buf_addf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\" "
                  "stroke=\"white\"/>\n", PX(xc[0]), PY(xc[1]),
                  pl_palette[k % PL_NPAL]);
#undef PX
#undef PY
  }
  pl_buf_adds(f, "</g>\n");
  pn_cache_fini(&c);
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
