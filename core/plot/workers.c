/*
** core/plot/workers.c -- a distributed run's panels: its nodes' iterates
** around their average (pn_kind_workers, "workers") and a decentralized
** run's mixing matrix W (pn_kind_mixing, "mixing"), both read from the
** method's named results (ol_method_result: "workers", "mixing",
** "graph"); nothing numerical here beyond scaling.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "ol.h"
#include "panelpriv.h"

#define PATHID 123       /* canvas series id of the workers' average path */

const double *pn_workers_of (const ol_run *r, int *m)
{
  const double *v;
  int rows, cols;
  *m = 0;
  if (!ol_run_result(r, "workers", &v,
                        &rows, &cols) || cols < 2 || rows < 1)
    return NULL;
  *m = rows;
  return v;
}

int pn_workers_window (const pn_runs *rs, double win[4])
{
  int k, w, m, n, any = 0;
  win[0] = win[2] = INFINITY;
  win[1] = win[3] = -INFINITY;
  for (k = 0; k < rs->n; k++) {
    const double *X = pn_workers_of(rs->runs[k], &m), *tr;
    int len = ol_run_len(rs->runs[k]), dim = 0, t;
    n = ol_run_n(rs->runs[k]);
    tr = X != NULL ? ol_run_traj(rs->runs[k], &dim) : NULL;
    if (tr == NULL || dim < 2) len = 0;
    for (w = 0, t = 0; X != NULL && w <= m + len; w++) {
      /* the m nodes, the average, then the average's recorded path */
      const double *q = w < m ? X + (size_t)w * n : w == m
        ? ol_run_x(rs->runs[k]) : tr + (size_t)(t++) * dim;
      if (!isfinite(q[0]) || !isfinite(q[1])) continue;
      any = 1;
      if (w == m) {           /* and the start: the scale of the run */
        const double *x0 = ol_run_problem(rs->runs[k])->x0;
        win[0] = fmin(win[0], x0[0]);
        win[1] = fmax(win[1], x0[0]);
        win[2] = fmin(win[2], x0[1]);
        win[3] = fmax(win[3], x0[1]);
      }
      win[0] = fmin(win[0], q[0]);
      win[1] = fmax(win[1], q[0]);
      win[2] = fmin(win[2], q[1]);
      win[3] = fmax(win[3], q[1]);
    }
  }
  if (!any) return -1;
  pn_snap_axis(&win[0], &win[1]);
  pn_snap_axis(&win[2], &win[3]);
  return 0;
}

void pn_workers_title (const pn_runs *rs, char *title, size_t tsize)
{
  int k, m, total = 0;
  double cons = NAN;
  for (k = 0; k < rs->n; k++)
    if (pn_workers_of(rs->runs[k], &m) != NULL) total += m;
  if (rs->n > 0 && ol_mset_has(ol_run_metrics(rs->runs[0]), OL_MET_CONSENSUS))
    cons = ol_run_last(rs->runs[0], OL_MET_CONSENSUS);
  if (isfinite(cons))
    snprintf(title, tsize, "workers x1,x2: %d workers, consensus %.2e", total,
             cons);
  else snprintf(title, tsize, "workers x1,x2: %d workers", total);
}

int pn_workers (const pn_runs *rs, const pn_out *o, char *title,
                size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, w, m = 0, n;
  int below = 0, pass, total = 0;
  double win[4];
  char lab[32];
  pn_legend lg;
  pn_workers_title(rs, title, tsize);
  for (k = 0; k < rs->n; k++)
    if (pn_workers_of(rs->runs[k], &m) != NULL) total += m;
  if (pw < 4 || ph < 2) return -1;
  if (pn_workers_window(rs, win) != 0) {
    pn_puts_at(o, o->y, o->x + 1, "no workers' iterates", o->w - 1, PN_AXIS);
    return -1;
  }
  memset(&lg, 0, sizeof lg);
  snprintf(lab, sizeof lab, "workers (%d)", total);
  pn_leg_add(&lg, lab, NULL, PN_WORKMARK, cv_marker(0), 0);
  pn_leg_add(&lg, "average", NULL, PN_AVGMARK, '+', PN_TITLE);
  /* (1) the nodes as canvas dots (so the legend finds an empty corner);
  ** (2) the legend's place */
  for (pass = 0; pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    for (k = 0; k < rs->n; k++) {
      const double *X = pn_workers_of(rs->runs[k], &m), *tr;
      int len = ol_run_len(rs->runs[k]), dim = 0, t, lx = 0, ly = 0, qx, qy;
      n = ol_run_n(rs->runs[k]);
      tr = X != NULL ? ol_run_traj(rs->runs[k], &dim) : NULL;
      for (t = 0; tr != NULL && dim >= 2 && t < len; t++) {
        if (!isfinite(tr[t * dim]) || !isfinite(tr[t * dim + 1])) continue;
        pn_todot(o->cv, win, tr[t * dim], tr[t * dim + 1], &qx, &qy);
        if (t == 0) cv_dot(o->cv, qx, qy, PATHID);
        else cv_line(o->cv, lx, ly, qx, qy, PATHID);
        lx = qx;
        ly = qy;
      }
      for (w = 0; X != NULL && w <= m; w++) {
        const double *q = w < m ? X + (size_t)w * n : ol_run_x(rs->runs[k]);
        if (!isfinite(q[0]) || !isfinite(q[1])) continue;
        pn_todot(o->cv, win, q[0], q[1], &qx, &qy);
        cv_dot(o->cv, qx, qy, w % PATHID);
      }
    }
    if (!pn_leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  /* (3) the average's path, faint, under the marks */
  for (k = 0; k < ph; k++)
    for (w = 0; w < pw; w++) {
      int sid;
      unsigned u = cv_cell(o->cv, w, k, &sid);
      if (u != 0 && sid == PATHID)
        o->put(o->ud, o->y + k, px0 + w, o->utf8 ? u : '.', '.', PN_AXIS);
    }
  if (below) pn_leg_below2d(o, &lg, ph, below);
  else pn_leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  /* (4) a mark per node in its colour, then the averages on top */
  for (pass = 0; pass < 2; pass++)
    for (k = 0; k < rs->n; k++) {
      const double *X = pn_workers_of(rs->runs[k], &m);
      n = ol_run_n(rs->runs[k]);
      for (w = pass == 0 ? 0 : m; X != NULL && w < (pass == 0 ? m : m + 1);
           w++) {
        const double *q = w < m ? X + (size_t)w * n : ol_run_x(rs->runs[k]);
        int qx, qy;
        if (!isfinite(q[0]) || !isfinite(q[1])) continue;
        pn_todot(o->cv, win, q[0], q[1], &qx, &qy);
        if (w < m)
          o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx /
                 (cv_dotw(o->cv) / pw), PN_WORKMARK, cv_marker(w), w);
        else
          o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx /
                 (cv_dotw(o->cv) / pw), PN_AVGMARK, '+', PN_TITLE);
      }
    }
  pn_win_axes(o, win, px0, ph, pw);
  return 0;
}

const double *pn_mixing_of (const pn_runs *rs, int *m, double *gap)
{
  const double *W, *g;
  int k, rows, cols;
  *m = 0;
  *gap = NAN;
  for (k = 0; k < rs->n; k++) {
    const ol_run *r = rs->runs[k];
    if (!ol_run_result(r, "mixing", &W,
                          &rows, &cols) || rows != cols || rows < 1)
      continue;
    if (ol_run_result(r, "graph", &g,
                         &k, &cols) && cols >= 1)
      *gap = g[0];
    *m = rows;
    return W;
  }
  return NULL;
}

int pn_mixing (const pn_runs *rs, const pn_out *o, char *title,
               size_t tsize)
{
  int m, r, c, ph, pw, cw;
  double gap, wmax = 0;
  const double *W = pn_mixing_of(rs, &m, &gap);
  if (W == NULL) {
    snprintf(title, tsize, "mixing W");
    pn_puts_at(o, o->y, o->x + 1, "no mixing matrix", o->w - 1, PN_AXIS);
    return -1;
  }
  snprintf(title, tsize, "mixing W: %d nodes, gap %.3g", m, gap);
  /* (1) the picture's size: a row per node, two columns, when they fit */
  ph = m <= o->h ? m : o->h;
  cw = 2 * m <= o->w ? 2 : 1;
  pw = cw * m <= o->w ? cw * m : o->w;
  for (r = 0; r < m * m; r++) wmax = fmax(wmax, W[r]);
  if (ph < 1 || pw < 1 || !(wmax > 0)) return -1;
  /* (2) each cell: the largest entry of its block of rows and columns */
  for (r = 0; r < ph; r++)
    for (c = 0; c < pw; c++) {
      int i0 = (int)((long)r * m / ph), i1 = (int)((long)(r + 1) * m / ph);
      int j0 = (int)((long)c * m / pw), j1 = (int)((long)(c + 1) * m / pw);
      int i, j, lev;
      double v = 0;
      if (j1 == j0) j1 = j0 + 1;
      for (i = i0; i < i1; i++)
        for (j = j0; j < j1 && j < m; j++) v = fmax(v, W[(size_t)i * m + j]);
      lev = v > 0 ? 1 + (int)floor(v / wmax * (PN_NLEVELS - 2) + 0.5) : 0;
      o->put(o->ud, o->y + r, o->x + (o->w - pw) / 2 + c,
             (unsigned char)pn_ramp[lev], pn_ramp[lev], PN_HEAT);
    }
  return 0;
}

/* -- SVG ------------------------------------------------------------------ */

/* The nodes of a distributed run (plotpanel.h, pn_workers): a dot per
** node in the palette's colour of its index, the average as a circled
** cross over them and over its recorded path (grey), in the text panel's
** window. */
static void svg_workers (pl_buf *f, const pl_plot *pl, pl_box b)
{
  char t[96];
  double win[4];
  int k, w, m, n;
  pn_workers_title(&pl->rs, t, sizeof t);
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"workers\">\n");
  pl_title(f, b, t);
  if (pn_workers_window(&pl->rs, win) != 0) {
    win[0] = win[2] = -1;
    win[1] = win[3] = 1;
  }
  pl_winaxes(f, b, win);
  for (k = 0; k < pl->rs.n; k++) {
    const double *X = pn_workers_of(pl->rs.runs[k], &m), *tr;
    int dim = 0, len = ol_run_len(pl->rs.runs[k]), i, pen = 'M';
    n = ol_run_n(pl->rs.runs[k]);
    /* the average's recorded path, grey, under the marks */
    tr = X != NULL ? ol_run_traj(pl->rs.runs[k], &dim) : NULL;
    pl_buf_adds(f, "<path class=\"series\" stroke=\"#bbb\" d=\"");
    for (i = 0; tr != NULL && dim >= 2 && i < len; i++) {
      const double *q = tr + (size_t)i * dim;
      if (!isfinite(q[0]) || !isfinite(q[1])) continue;
      pl_buf_addf(f, "%c%.2f %.2f ", pen,
                  b.x + (q[0] - win[0]) / (win[1] - win[0]) * b.w,
                  b.y + (win[3] - q[1]) / (win[3] - win[2]) * b.h);
      pen = 'L';
    }
    pl_buf_adds(f, "\"/>\n");
    for (w = 0; X != NULL && w <= m; w++) {
      const double *q = w < m ? X + (size_t)w * n : ol_run_x(pl->rs.runs[k]);
      double x = b.x + (q[0] - win[0]) / (win[1] - win[0]) * b.w;
      double y = b.y + (win[3] - q[1]) / (win[3] - win[2]) * b.h;
      if (!isfinite(q[0]) || !isfinite(q[1])) continue;
      if (w < m)
        pl_buf_addf(f, "<circle class=\"worker\" cx=\"%.2f\" cy=\"%.2f\" "
                    "r=\"3\" fill=\"%s\"/>\n", x, y, pl_palette[w % PL_NPAL]);
      else
        pl_buf_addf(f, "<g class=\"average\"><circle cx=\"%.2f\" "
                    "cy=\"%.2f\" r=\"5\" fill=\"none\" stroke=\"#111\" "
                    "stroke-width=\"1.4\"/><path d=\"M%.2f %.2fh10M%.2f "
                    "%.2fv10\" stroke=\"#111\" stroke-width=\"1.4\"/></g>\n",
                    x, y, x - 5, y, x, y - 5);
    }
  }
  pl_buf_adds(f, "</g>\n");
}

/* A decentralized run's mixing matrix (plotpanel.h, pn_mixing): one
** square per entry, grey by W_ij relative to the largest entry (white:
** 0), row i down, column j across. */
static void svg_mixing (pl_buf *f, const pl_plot *pl, pl_box b)
{
  int m, i, j;
  double gap, wmax = 0, side, x0, y0;
  const double *W = pn_mixing_of(&pl->rs, &m, &gap);
  char t[64];
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"mixing\">\n");
  if (W == NULL) {
    pl_title(f, b, "mixing W");
    pl_buf_adds(f, "</g>\n");
    return;
  }
  snprintf(t, sizeof t, "mixing W: %d nodes, gap %.3g", m, gap);
  pl_title(f, b, t);
  for (i = 0; i < m * m; i++) wmax = fmax(wmax, W[i]);
  side = fmin(b.w, b.h) / m;
  x0 = b.x + (b.w - side * m) / 2;
  y0 = b.y;
  for (i = 0; i < m && wmax > 0; i++)
    for (j = 0; j < m; j++) {
      int grey = (int)(255 - 215 * W[(size_t)i * m + j] / wmax + 0.5);
      if (W[(size_t)i * m + j] <= 0) continue;
      pl_buf_addf(f, "<rect class=\"w\" x=\"%.2f\" y=\"%.2f\" "
                  "width=\"%.2f\" height=\"%.2f\" fill=\"rgb(%d,%d,%d)\"/>\n",
                  x0 + j * side, y0 + i * side, side, side, grey, grey, grey);
    }
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
              "class=\"frame\"/>\n", x0, y0, side * m, side * m);
  pl_buf_adds(f, "</g>\n");
}

/* -- the table entries ---------------------------------------------------- */

static int workers_available (const pn_runs *rs, int kind,
                              const ol_problem *p, char *why, size_t wsize)
{
  int k, dim;
  (void)kind;
  (void)p;
  for (k = 0; k < rs->n; k++)
    if (pn_workers_of(rs->runs[k], &dim) != NULL) return 1;
  snprintf(why, wsize, "no workers' iterates (needs a distributed run "
           "that keeps them, dist.dsgd, dist.fedavg, ..., on n >= 2)");
  return 0;
}

static void workers_cells (const pn_runs *rs, int kind, pn_axes *ax,
                           pn_cache *c, const pn_out *o, char *title,
                           size_t tsize)
{
  (void)kind;
  (void)ax;
  (void)c;
  pn_workers(rs, o, title, tsize);
}

static void workers_svg (pl_buf *f, const pl_plot *pl, int kind, pl_box b)
{
  (void)kind;
  svg_workers(f, pl, b);
}

const pn_kind pn_kind_workers = {
  .name = "workers",
  .available = workers_available,
  .draw_cells = workers_cells,
  .draw_svg = workers_svg,
};

static int mixing_available (const pn_runs *rs, int kind,
                             const ol_problem *p, char *why, size_t wsize)
{
  int dim;
  double gap;
  (void)kind;
  (void)p;
  if (pn_mixing_of(rs, &dim, &gap) != NULL) return 1;
  snprintf(why, wsize, "no mixing matrix (needs a decentralized run: "
           "dist.dsgd, dist.gt, dist.gtnsgdm)");
  return 0;
}

static void mixing_cells (const pn_runs *rs, int kind, pn_axes *ax,
                          pn_cache *c, const pn_out *o, char *title,
                          size_t tsize)
{
  (void)kind;
  (void)ax;
  (void)c;
  pn_mixing(rs, o, title, tsize);
}

static void mixing_svg (pl_buf *f, const pl_plot *pl, int kind, pl_box b)
{
  (void)kind;
  svg_mixing(f, pl, b);
}

const pn_kind pn_kind_mixing = {
  .name = "mixing",
  .available = mixing_available,
  .draw_cells = mixing_cells,
  .draw_svg = mixing_svg,
};
