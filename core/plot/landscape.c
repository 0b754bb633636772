/*
** core/plot/landscape.c -- the landscape panel (pn_kind_landscape): one
** grid cell per character cell, shaded by the level of log10(f - min +
** eps) (ramp ' .:-=+*#%@', low to high), trajectories on top (braille
** lines in the run's colour, or ASCII letters a, b, c, ... per run), the
** current point as a filled circle (ASCII: A, B, C, ...).  The grid of f
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

int pn_landscape (const pn_runs *rs, const pn_out *o, pn_cache *c,
                  char *title, size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, r, col;
  int below = 0, pass, have;
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  double win[4];
  pn_legend lg;
  snprintf(title, tsize, "landscape x1,x2%s [log f]",
           p != NULL && p->n > 2 ? " slice" : "");
  if (pw < 4 || ph < 2) return -1;
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n && k < MAXLEG; k++)
    pn_leg_add(&lg, rs->labels[k], NULL, DOT, (char)('a' + k % 26), k);
  /* (1) trajectories onto the canvas, in the grid's window; (2) where
  ** the legend goes: an empty corner, else below (the map then takes
  ** fewer rows); the grid is computed once, at its final size, so the
  ** cache holds from frame to frame */
  have = ol_grid_window((const ol_run *const *)rs->runs, rs->n, 0, 1, 0,
                        win) == 0 && pn_has_landscape(p);
  for (pass = 0; have && pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    for (k = 0; k < rs->n; k++) {
      int dim = 0, len = ol_run_len(rs->runs[k]), t, lx = 0, ly = 0;
      const double *x = ol_run_traj(rs->runs[k], &dim);
      if (x == NULL || dim < 2) continue;
      for (t = 0; t < len; t++) {
        int qx, qy;
        if (!isfinite(x[t * dim]) || !isfinite(x[t * dim + 1])) continue;
        pn_todot(o->cv, win, x[t * dim], x[t * dim + 1], &qx, &qy);
        if (t == 0) cv_dot(o->cv, qx, qy, k);
        else cv_line(o->cv, lx, ly, qx, qy, k);
        lx = qx;
        ly = qy;
      }
    }
    if (!pn_leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  if ((k = pn_landscape_grid(rs, pw, ph, c)) != 0) {
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
  /* (3) heat map under the paths; row 0 of the grid is the bottom */
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s, lev = c->lev[(size_t)(ph - 1 - r) * pw + col];
      unsigned u = cv_cell(o->cv, col, r, &s);
      if (u != 0)
        o->put(o->ud, o->y + r, px0 + col, o->utf8 ? u : (unsigned)('a'
               + s % 26), (char)('a' + s % 26), s);
      else
        o->put(o->ud, o->y + r, px0 + col, (unsigned char)pn_ramp[lev < 0
               ? 0 : lev], lev < 0 ? '?' : pn_ramp[lev], PN_HEAT);
    }
  /* (4) the legend in its empty corner (on top of the map, never on a
  ** path), or below */
  if (below) pn_leg_below2d(o, &lg, ph, below);
  else pn_leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  /* (5) current points */
  for (k = 0; k < rs->n; k++) {
    const double *x = ol_run_x(rs->runs[k]);
    int qx, qy;
    if (!isfinite(x[0]) || !isfinite(x[1])) continue;
    if (x[0] < c->win[0] || x[0] > c->win[1] || x[1] < c->win[2]
        || x[1] > c->win[3])
      continue;
    pn_todot(o->cv, c->win, x[0], x[1], &qx, &qy);
    o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx
           / (cv_dotw(o->cv) / pw), DOT, (char)('A' + k % 26), k);
  }
  /* (6) axes: window bounds and coordinate names */
  pn_win_axes(o, c->win, px0, ph, pw);
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

static void svg_landscape (pl_buf *f, const pl_plot *pl, pl_box b)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  int nx, ny, k, t;
  double win[4];
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"landscape\">\n");
  pl_title(f, b, "landscape x1,x2 [log f]");
  /* (1) contour lines over the paths' window, then the frame, ticks and
  ** the window and grid (the data's numbers, for a reader: data-window is
  ** xlo xhi ylo yhi, data-grid the nodes across and up, on the window's
  ** edges) */
  if (!pn_has_landscape(p)
      || ol_grid_window((const ol_run *const *)pl->rs.runs, pl->rs.n, 0, 1,
                        0, win) != 0
      || pl_contours(f, p, win, 0, 1, b, &nx, &ny) != 0) {
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
      pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", PX(x[t * dim]),
                  PY(x[t * dim + 1]));
      have = 1;
    }
    pl_buf_adds(f, "\"/>\n");
  }
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
  (void)ax;
  pn_landscape(rs, o, c, title, tsize);
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
