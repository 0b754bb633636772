/*
** core/plot/cloud.c -- the cloud panel (pn_kind_cloud, "cloud",
** "cloud:a,b"): the sampler draws (or trajectory points) in two
** coordinates as dots, one colour per run, divergent draws marked in role
** PN_DIVERGENT, over the contours of log p (cells where the landscape's
** level changes; in SVG contour lines, pl_contours) for a 2-D target or
** chosen coordinates of a larger one.  Its window snaps to whole nice
** steps so it changes rarely.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "method.h"
#include "ol.h"
#include "panelpriv.h"

#define CONTOUR 0x00B7   /* middle dot */

int pn_cloud_contours (const pn_runs *rs, int kind, char *title,
                       size_t tsize)
{
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  int ca, cb, contours;
  pn_coords(kind, &ca, &cb);
  /* contours of log p on a 2-D target, of its slice for chosen coordinates
  ** of a larger one (the default x1, x2 of a larger target shows none: a
  ** slice is not the marginal the cloud is of) */
  contours = p != NULL && pn_has_landscape(p) && ca < p->n && cb < p->n
    && (p->n == 2 || kind != PN_CLOUD);
  if (title != NULL) {
    char na[16], nb[16];
    snprintf(title, tsize, "cloud %s,%s%s", ol_problem_coordname(p, ca, na,
             sizeof na), ol_problem_coordname(p, cb, nb, sizeof nb),
             !contours ? ""
             : p->n == 2 ? (p->kind == OL_DENSITY ? " over log p contours"
                            : " over f contours")
             : (p->kind == OL_DENSITY ? " over a log p slice"
                : " over an f slice"));
  }
  return contours;
}

int pn_cloud_window (const pn_runs *rs, int kind, double win[4])
{
  int k, ca, cb, any = 0;
  pn_pts pt;
  long i;
  pn_coords(kind, &ca, &cb);
  win[0] = win[2] = INFINITY;
  win[1] = win[3] = -INFINITY;
  /* the points' extent, padded, in whole nice steps */
  for (k = 0; k < rs->n; k++) {
    if (!pn_points(rs->runs[k], &pt) || pt.dim <= ca || pt.dim <= cb)
      continue;
    for (i = 0; i < pt.n; i++) {
      const double *q = pt.x + i * pt.stride;
      if (!isfinite(q[ca]) || !isfinite(q[cb])) continue;
      any = 1;
      if (q[ca] < win[0]) win[0] = q[ca];
      if (q[ca] > win[1]) win[1] = q[ca];
      if (q[cb] < win[2]) win[2] = q[cb];
      if (q[cb] > win[3]) win[3] = q[cb];
    }
  }
  if (!any) return -1;
  pn_snap_axis(&win[0], &win[1]);
  pn_snap_axis(&win[2], &win[3]);
  return 0;
}

int pn_cloud (const pn_runs *rs, int kind, const pn_out *o, pn_cache *c,
              char *title, size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, r, col;
  int below = 0, pass, ca, cb, contours, chains = pn_chainset(rs);
  double win[4];
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  char names[MAXLEG][16];
  pn_legend lg;
  pn_pts pt;
  long i, ndiv = 0;
  pn_coords(kind, &ca, &cb);
  contours = pn_cloud_contours(rs, kind, title, tsize) && c != NULL;
  if (pw < 4 || ph < 2) return -1;
  /* (1) window, and the divergent draws for the pn_legend */
  if (pn_cloud_window(rs, kind, win) != 0) {
    pn_puts_at(o, o->y, o->x + 1, "no draws yet", o->w - 1, PN_AXIS);
    return -1;
  }
  for (k = 0; k < rs->n; k++)
    if (pn_points(rs->runs[k], &pt) && pt.dim > ca && pt.dim > cb)
      for (i = 0; i < pt.n; i++) ndiv += pn_pts_divergent(&pt, i);
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n && k < MAXLEG; k++)
    pn_leg_add(&lg, pn_label(rs, chains, k, names[k], sizeof names[k]), NULL,
               DOT, cv_marker(k), k);
  if (ndiv > 0) {
    snprintf(lg.extra, sizeof lg.extra, "%s %ld divergent", o->utf8
             ? "\xc3\x97" : "X", ndiv);
    lg.xrole = PN_DIVERGENT;
  }
  for (pass = 0; pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    /* (2) the points as dots, at most ~20 per dot column per run */
    for (k = 0; k < rs->n; k++) {
      long step;
      if (!pn_points(rs->runs[k], &pt) || pt.dim <= ca || pt.dim <= cb)
        continue;
      step = pt.n > 20L * cv_dotw(o->cv) * cv_doth(o->cv)
        ? pt.n / (20L * cv_dotw(o->cv) * cv_doth(o->cv)) : 1;
      for (i = 0; i < pt.n; i += step) {
        const double *q = pt.x + i * pt.stride;
        int qx, qy;
        if (!isfinite(q[ca]) || !isfinite(q[cb])) continue;
        pn_todot(o->cv, win, q[ca], q[cb], &qx, &qy);
        cv_dot(o->cv, qx, qy, k);
      }
    }
    if (!pn_leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  /* (3) the contours under the dots, on the grid of the final plot size
  ** (row 0 of the grid is the bottom); none while the grid is partial */
  if (contours && pn_grid_at(p, win, ca, cb, pw, ph, c) == 0)
    for (r = 0; r < ph; r++)
      for (col = 0; col < pw; col++) {
        int l = c->lev[(size_t)(ph - 1 - r) * pw + col], s;
        int lr = col + 1 < pw ? c->lev[(size_t)(ph - 1 - r) * pw + col + 1]
          : l;
        int lb = r + 1 < ph ? c->lev[(size_t)(ph - 2 - r) * pw + col] : l;
        if (l < 0 || (lr == l && lb == l)) continue;
        if (cv_cell(o->cv, col, r, &s) != 0) continue;
        o->put(o->ud, o->y + r, px0 + col, o->utf8 ? CONTOUR : ':', ':',
               PN_HEAT);
      }
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned u = cv_cell(o->cv, col, r, &s);
      if (u != 0) o->put(o->ud, o->y + r, px0 + col, u, cv_marker(s), s);
    }
  /* (4) divergent transitions where they landed */
  for (k = 0; ndiv > 0 && k < rs->n; k++) {
    if (!pn_points(rs->runs[k], &pt) || pt.dim <= ca || pt.dim <= cb)
      continue;
    for (i = 0; i < pt.n; i++) {
      const double *q = pt.x + i * pt.stride;
      int qx, qy;
      if (!pn_pts_divergent(&pt, i) || !isfinite(q[ca]) || !isfinite(q[cb]))
        continue;
      pn_todot(o->cv, win, q[ca], q[cb], &qx, &qy);
      o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx
             / (cv_dotw(o->cv) / pw), PN_DIVMARK, 'X', PN_DIVERGENT);
    }
  }
  if (below) pn_leg_below2d(o, &lg, ph, below);
  else pn_leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  pn_win_axes(o, win, px0, ph, pw);
  return 0;
}

/* -- SVG ------------------------------------------------------------------ */
/* Contour lines of the density over win under the dots (pl_contours),
** in a <g class="contours">. */
static void svg_contours (pl_buf *f, const pl_plot *pl, int kind, pl_box b,
                          const double *win)
{
  int ca, cb, nx, ny;
  pn_coords(kind, &ca, &cb);
  pl_buf_adds(f, "<g class=\"contours\">\n");
  pl_contours(f, ol_run_problem(pl->rs.runs[0]), win, ca, cb, b, &nx, &ny);
  pl_buf_adds(f, "</g>\n");
}

static void svg_cloud (pl_buf *f, const pl_plot *pl, int kind, pl_box b)
{
  int ca, cb, k, contours;
  char t[64];
  double win[4];
  long i;
  pn_pts pt;
  pn_coords(kind, &ca, &cb);
  contours = pn_cloud_contours(&pl->rs, kind, t, sizeof t);
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"cloud\">\n");
  pl_title(f, b, t);
  /* the text cloud's window (whole nice steps), [-1, 1] without points */
  if (pn_cloud_window(&pl->rs, kind, win) != 0) {
    win[0] = win[2] = -1;
    win[1] = win[3] = 1;
    contours = 0;
  }
  if (contours) svg_contours(f, pl, kind, b, win);
  pl_winaxes(f, b, win);
  for (k = 0; k < pl->rs.n; k++) {
    long step = 1;
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                pl_palette[k % PL_NPAL]);
    if (pn_points(pl->rs.runs[k], &pt) && pt.dim > (ca > cb ? ca : cb)) {
      if (pt.n > 3000) step = pt.n / 3000;
      for (i = 0; i < pt.n; i += step) {
        const double *q = pt.x + i * pt.stride;
        if (!isfinite(q[ca]) || !isfinite(q[cb])) continue;
        pl_buf_addf(f, "M%.2f %.2fh0.1 ",
                    b.x + (q[ca] - win[0]) / (win[1] - win[0]) * b.w,
                    b.y + (win[3] - q[cb]) / (win[3] - win[2]) * b.h);
      }
    }
    pl_buf_adds(f, "\" style=\"stroke-linecap:round;stroke-width:3\"/>\n");
    for (i = 0; pn_points(pl->rs.runs[k], &pt) && pt.dim > (ca > cb ? ca : cb)
         && i < pt.n; i++) {
      const double *q = pt.x + i * pt.stride;
      if (pn_pts_divergent(&pt, i) && isfinite(q[ca]) && isfinite(q[cb]))
        pl_divmark(f, b.x + (q[ca] - win[0]) / (win[1] - win[0]) * b.w,
                   b.y + (win[3] - q[cb]) / (win[3] - win[2]) * b.h);
    }
  }
  pl_buf_adds(f, "</g>\n");
}

/* -- the table entry ------------------------------------------------------ */

static int cloud_available (const pn_runs *rs, int kind, const ol_problem *p,
                            char *why, size_t wsize)
{
  if (p->n < 2) {
    snprintf(why, wsize, "no cloud for %s (needs n >= 2)", p->desc);
    return 0;
  }
  return pn_need_points(rs, kind, 1, why, wsize);
}

static void cloud_cells (const pn_runs *rs, int kind, pn_axes *ax,
                         pn_cache *c, const pn_out *o, char *title,
                         size_t tsize)
{
  (void)ax;
  pn_cloud(rs, kind, o, c, title, tsize);
}

const pn_kind pn_kind_cloud = {
  .name = "cloud",
  .cache = PN_CACHE_CONTOURS,
  .available = cloud_available,
  .draw_cells = cloud_cells,
  .draw_svg = svg_cloud,
};
