/*
** core/plot/svg.c -- the SVG figure of r:plot{file = ...}: a title, a
** legend of one swatch per run above the panels (never over data), then
** the panels in one or two columns, each a <g class="panel">, with one
** <path class="series"> per run.  Rendered into a pl_buf (see plot.h);
** lua/lplot.c writes the file.
**
** Ticks: one notation per axis (pl_ticksci), the x axis of seconds in ms,
** s or min (pl_timeunit).  Log axes: values a log y axis cannot show (<= 0,
** below PN_TINY) are triangles on the bottom edge (class "floor"), and
** a log x axis starts at 1.  The simplex panel stars a game's known
** equilibria (class "nash", keyed "Nash" beside the panel's title) and is
** the unit square (x1, y1) for two 2-action players (data-view="square").
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "plot.h"
#include "problems/game.h"

static const char *const palette[] = {
  "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
  "#e377c2", "#17becf"
};
#define NPAL 8

int pl_ticksci (const double *tv, int n)
{
  int i;
  for (i = 0; i < n; i++) {
    double a = fabs(tv[i]);
    if (a != 0 && (a < 1e-4 || a >= 1e6)) return 1;
  }
  return 0;
}

void pl_tickfmt (double v, int sci, char *buf, size_t size)
{
  char m[32], *e, *z;
  if (!sci || v == 0) {
    if (fabs(v) < 1e-300) v = 0;
    snprintf(buf, size, "%.6g", v);
    if (strchr(buf, 'e') != NULL) snprintf(buf, size, "%.10f", v);
    if (strchr(buf, '.') != NULL && strchr(buf, 'e') == NULL) {
      z = buf + strlen(buf) - 1;
      while (*z == '0') *z-- = '\0';
      if (*z == '.') *z = '\0';
    }
    if (strcmp(buf, "-0") == 0) snprintf(buf, size, "0");
    return;
  }
  /* mantissa without trailing zeros, exponent without '+' or zeros */
  snprintf(m, sizeof m, "%.3e", v);
  e = strchr(m, 'e');
  if (e == NULL) {
    snprintf(buf, size, "%s", m);
    return;
  }
  *e = '\0';
  z = e - 1;
  while (*z == '0') *z-- = '\0';
  if (*z == '.') *z = '\0';
  snprintf(buf, size, "%se%d", m, (int)strtol(e + 1, NULL, 10));
}

const char *pl_timeunit (double hi, double *per)
{
  if (hi < 1) {
    *per = 1e-3;
    return "ms";
  }
  if (hi < 120) {
    *per = 1;
    return "s";
  }
  *per = 60;
  return "min";
}

/* Plot area of a panel cell. */
typedef struct box {
  double x, y, w, h;
} box;

static void title (pl_buf *f, box b, const char *t)
{
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", b.x,
              b.y - 8);
  pl_buf_addxml(f, t);
  pl_buf_adds(f, "</text>\n");
}

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

/* The mark of a divergent transition at (x, y). */
static void divmark (pl_buf *f, double x, double y)
{
  pl_buf_addf(f, "<path class=\"divergent\" d=\"M%.1f %.1fl6 6m0 -6l-6 6\" "
              "stroke=\"#d00\" stroke-width=\"1.5\"/>\n", x - 3, y - 3);
}

static void svg_line (pl_buf *f, const pl_plot *pl, int full, box b)
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
    xs.lo = 0;
    xs.hi = cv_nice_up(e.xmax / 5);
    xs.hi *= ceil(e.xmax / xs.hi);
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
  title(f, b, t);
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
                pool != NULL ? "#333333" : palette[k % NPAL]);
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
                  "l-3 -5 h6 z\"/>\n", palette[k % NPAL], fx, b.y + b.h);
    }
    /* divergent transitions: a red cross at their iteration and value */
    for (i = 0; open && kind == PN_TRACE && ax.ys.valid && i < s.n; i++) {
      double xp, pos;
      if (!pn_pts_divergent(&s.pt, i)) continue;
      xp = cv_scale_pos(&xs, pn_src_x(&s, i));
      pos = cv_scale_pos(&ax.ys, pn_src_y(&s, i));
      if (isnan(xp) || isnan(pos)) continue;
      divmark(f, b.x + xp * b.w, b.y + (1 - pos) * b.h);
    }
  }
  pl_buf_adds(f, "</g>\n");
  free(pool);
}

/* Shade of level l (0 low .. PN_NLEVELS - 1 high): dark blue to yellow. */
static void shade (int l, char *buf, size_t sz)
{
  double t = l < 0 ? 1 : (double)l / (PN_NLEVELS - 1);
  snprintf(buf, sz, "#%02x%02x%02x", (int)(40 + 215 * t),
           (int)(40 + 190 * t), (int)(110 + 40 * (1 - t)));
}

static double sig4 (double v)
{
  char b[32];
  snprintf(b, sizeof b, "%.4g", v);
  return strtod(b, NULL);
}

/* Window bounds of a 2-D panel and the coordinate names. */
static void winaxes (pl_buf *f, box b, const double *win)
{
  char lab[4][32];
  double yv[2], xv[2];
  int sci;
  /* the bounds to 4 significant digits: labels, not data */
  yv[0] = sig4(win[3]);
  yv[1] = sig4(win[2]);
  xv[0] = sig4(win[0]);
  xv[1] = sig4(win[1]);
  sci = pl_ticksci(yv, 2);
  pl_tickfmt(yv[0], sci, lab[0], 32);
  pl_tickfmt(yv[1], sci, lab[1], 32);
  sci = pl_ticksci(xv, 2);
  pl_tickfmt(xv[0], sci, lab[2], 32);
  pl_tickfmt(xv[1], sci, lab[3], 32);
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
              "class=\"frame\"/>\n", b.x, b.y, b.w, b.h);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">%s</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">%s</text>\n",
              b.x - 4, b.y + 10, lab[0], b.x - 4, b.y + b.h, lab[1]);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">%s</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">%s</text>\n",
              b.x, b.y + b.h + 14, lab[2], b.x + b.w, b.y + b.h + 14,
              lab[3]);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">x1</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"ylabel\">x2</text>\n",
              b.x + b.w / 2, b.y + b.h + 28, b.x - 4, b.y + b.h / 2);
}

static void svg_landscape (pl_buf *f, const pl_plot *pl, box b)
{
  pn_cache c;
  int nx = 48, ny = 32, r, col, k, t;
  double cw, ch;
  char fill[16];
  memset(&c, 0, sizeof c);
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"landscape\">\n");
  title(f, b, "landscape x1,x2 [log f]");
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
  winaxes(f, b, c.win);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]), have = 0;
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    const double *xc = ol_run_x(pl->rs.runs[k]);
#define PX(a) (b.x + ((a) - c.win[0]) / (c.win[1] - c.win[0]) * b.w)
#define PY(a) (b.y + (c.win[3] - (a)) / (c.win[3] - c.win[2]) * b.h)
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                palette[k % NPAL]);
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
                  palette[k % NPAL]);
#undef PX
#undef PY
  }
  pl_buf_adds(f, "</g>\n");
  pn_cache_fini(&c);
}

/* Contour cells of a cloud: where the level of the grid of the density
** over win changes to the right or above, a light grey cell under the
** dots (nx x ny cells). */
static void svg_contours (pl_buf *f, const pl_plot *pl, int kind, box b,
                          const double *win)
{
  enum { NX = 96, NY = 64 };
  pn_cache c;
  int ca, cb, r, col;
  double cw = b.w / NX, ch = b.h / NY;
  memset(&c, 0, sizeof c);
  pn_coords(kind, &ca, &cb);
  if (pn_grid(ol_run_problem(pl->rs.runs[0]), win, ca, cb, NX, NY, &c) == 0) {
    pl_buf_adds(f, "<g class=\"contours\" fill=\"#c8c8c8\">\n");
    for (r = 0; r < NY; r++)
      for (col = 0; col < NX; col++) {
        int l = c.lev[r * NX + col];
        int lr = col + 1 < NX ? c.lev[r * NX + col + 1] : l;
        int lu = r + 1 < NY ? c.lev[(r + 1) * NX + col] : l;
        if (l < 0 || (lr == l && lu == l)) continue;
        pl_buf_addf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                    "height=\"%.2f\"/>\n", b.x + col * cw,
                    b.y + b.h - (r + 1) * ch, cw, ch);
      }
    pl_buf_adds(f, "</g>\n");
  }
  pn_cache_fini(&c);
}

static void svg_cloud (pl_buf *f, const pl_plot *pl, int kind, box b)
{
  int ca, cb, k, contours;
  char t[64];
  double win[4];
  long i;
  pn_pts pt;
  pn_coords(kind, &ca, &cb);
  contours = pn_cloud_contours(&pl->rs, kind, t, sizeof t);
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"cloud\">\n");
  title(f, b, t);
  /* the text cloud's window (whole nice steps), [-1, 1] without points */
  if (pn_cloud_window(&pl->rs, kind, win) != 0) {
    win[0] = win[2] = -1;
    win[1] = win[3] = 1;
    contours = 0;
  }
  if (contours) svg_contours(f, pl, kind, b, win);
  winaxes(f, b, win);
  for (k = 0; k < pl->rs.n; k++) {
    long step = 1;
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                palette[k % NPAL]);
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
        divmark(f, b.x + (q[ca] - win[0]) / (win[1] - win[0]) * b.w,
                b.y + (win[3] - q[cb]) / (win[3] - win[2]) * b.h);
    }
  }
  pl_buf_adds(f, "</g>\n");
}

/* The nodes of a distributed run (plotpanel.h, pn_workers): a dot per
** node in the palette's colour of its index, the average as a circled
** cross over them and over its recorded path (grey), in the text panel's
** window. */
static void svg_workers (pl_buf *f, const pl_plot *pl, box b)
{
  char t[96];
  double win[4];
  int k, w, m, n;
  pn_workers_title(&pl->rs, t, sizeof t);
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"workers\">\n");
  title(f, b, t);
  if (pn_workers_window(&pl->rs, win) != 0) {
    win[0] = win[2] = -1;
    win[1] = win[3] = 1;
  }
  winaxes(f, b, win);
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
                    "r=\"3\" fill=\"%s\"/>\n", x, y, palette[w % NPAL]);
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
static void svg_mixing (pl_buf *f, const pl_plot *pl, box b)
{
  int m, i, j;
  double gap, wmax = 0, side, x0, y0;
  const double *W = pn_mixing_of(&pl->rs, &m, &gap);
  char t[64];
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"mixing\">\n");
  if (W == NULL) {
    title(f, b, "mixing W");
    pl_buf_adds(f, "</g>\n");
    return;
  }
  snprintf(t, sizeof t, "mixing W: %d nodes, gap %.3g", m, gap);
  title(f, b, t);
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

/* A five-pointed star centred at (x, y): a known equilibrium (class
** "nash"), or the legend's key to them (key = 1: class "nash key"). */
static void nashmark (pl_buf *f, double x, double y, int key)
{
  const double pi = 3.14159265358979323846;
  int i;
  pl_buf_addf(f, "<path class=\"nash%s\" d=\"", key ? " key" : "");
  for (i = 0; i < 10; i++) {
    double a = pi / 2 + i * pi / 5, r = i % 2 ? 2.7 : 6.5;
    pl_buf_addf(f, "%s%.2f %.2f ", i ? "L" : "M", x + r * cos(a),
                y - r * sin(a));
  }
  pl_buf_adds(f, "z\"/>\n");
}

/* The key of the stars, right of the panel's title (outside the plot). */
static void nashkey (pl_buf *f, box b)
{
  nashmark(f, b.x + b.w - 34, b.y - 12, 1);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">Nash</text>\n",
              b.x + b.w - 26, b.y - 8);
}

/* The unit square of a game of two 2-action players (pn_square): x1 =
** z_1 across, y1 = z_3 up, one path per run, its current point a disc,
** the known equilibria starred. */
static void svg_square (pl_buf *f, const pl_plot *pl, box b)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  const double *eq = NULL;
  int neq = ol_game_equilibria(p, &eq), k, i, q;
  double s = b.w < b.h ? b.w : b.h, ox = b.x + (b.w - s) / 2;
  double oy = b.y + (b.h - s) / 2;
#define SX(a) (ox + (a) * s)
#define SY(c) (oy + (1 - (c)) * s)
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"simplex\" "
              "data-view=\"square\">\n");
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">unit square "
              "x1,y1 (players' P(action 1))</text>\n", b.x, b.y - 8);
  if (neq > 0) nashkey(f, b);
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
              "height=\"%.1f\" class=\"frame\"/>\n", ox, oy, s, s);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">0</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">x1</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">1</text>\n",
              SX(0), SY(0) + 14, SX(0.5), SY(0) + 14, SX(1), SY(0) + 14);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">0</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">y1</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">1</text>\n",
              SX(0) - 5, SY(0) + 4, SX(0) - 5, SY(0.5) + 4, SX(0) - 5,
              SY(1) + 4);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]), have = 0;
    const double *x = ol_run_traj(pl->rs.runs[k], &dim), *z;
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                palette[k % NPAL]);
    for (i = 0; x != NULL && dim >= 4 && i < len; i++) {
      z = x + (size_t)i * dim;
      if (!isfinite(z[0]) || !isfinite(z[2])) {
        have = 0;
        continue;
      }
      pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", SX(z[0]), SY(z[2]));
      have = 1;
    }
    pl_buf_adds(f, "\"/>\n");
    z = ol_run_x(pl->rs.runs[k]);
    if (isfinite(z[0]) && isfinite(z[2]))
      pl_buf_addf(f, "<circle class=\"p1\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
                  "fill=\"%s\"/>\n", SX(z[0]), SY(z[2]), palette[k % NPAL]);
  }
  for (q = 0; q < neq; q++) nashmark(f, SX(eq[4 * q]), SY(eq[4 * q + 2]), 0);
  pl_buf_adds(f, "</g>\n");
#undef SX
#undef SY
}

static void svg_simplex (pl_buf *f, const pl_plot *pl, box b)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  int first[OL_MAXBLOCKS], nb = pn_simplex_blocks(p, first, OL_MAXBLOCKS);
  double h3 = 0.5 * sqrt(3.0), s = b.w, ox, oy, u, v;
  const double *eq = NULL;
  int k, bl, i, e, neq;
  if (pn_square(p)) {
    svg_square(f, pl, b);
    return;
  }
  neq = ol_game_equilibria(p, &eq);
  if (b.h / h3 < s) s = b.h / h3;
  ox = b.x + (b.w - s) / 2;
  oy = b.y + b.h - (b.h - s * h3) / 2;
#define TX(uu) (ox + (uu) * s)
#define TY(vv) (oy - (vv) * s)
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"simplex\">\n");
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">simplex</text>"
              "\n", b.x, b.y - 8);
  if (nb > 1)
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">P1 \xe2\x97"
                "\x8f  P2 \xe2\x97\x86</text>\n", b.x + b.w - 80, b.y + 10);
  pl_buf_addf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
              "class=\"frame\"/>\n", TX(0), TY(0), TX(1), TY(0), TX(0.5),
              TY(h3));
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">1</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">2</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">3</text>\n",
              TX(0) - 4, TY(0) + 4, TX(1) + 12, TY(0) + 4, TX(0.5),
              TY(h3) - 4);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]);
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                palette[k % NPAL]);
    for (bl = 0; x != NULL && bl < nb; bl++) {
      int have = 0;
      if (first[bl] + 3 > dim) continue;
      for (i = 0; i < len; i++) {
        const double *q = x + (size_t)i * dim + first[bl];
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) {
          have = 0;
          continue;
        }
        pn_bary(q, &u, &v);
        pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", TX(u), TY(v));
        have = 1;
      }
    }
    pl_buf_adds(f, "\"/>\n");
    /* current points: player 1 a disc, player 2 a diamond (drawn larger
    ** and hollow, so a coinciding disc shows inside it) */
    for (bl = 0; bl < nb; bl++) {
      const double *q = ol_run_x(pl->rs.runs[k]) + first[bl];
      if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) continue;
      pn_bary(q, &u, &v);
      if (bl == 0)
        pl_buf_addf(f, "<circle class=\"p1\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
                    "fill=\"%s\"/>", TX(u), TY(v), palette[k % NPAL]);
      else
        pl_buf_addf(f, "<path class=\"p%d\" d=\"M%.2f %.2f l7 7 l-7 7 l-7 -7 "
                    "z\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                    bl + 1, TX(u), TY(v) - 7, palette[k % NPAL]);
      if (nb > 1)
        pl_buf_addf(f, "<text x=\"%.2f\" y=\"%.2f\" class=\"note\">p%d"
                    "</text>", TX(u) + 9, TY(v) - 4 + 10 * bl, bl + 1);
      pl_buf_addc(f, '\n');
    }
  }
  /* the known equilibria: a star at each player's strategy */
  if (neq > 0) nashkey(f, b);
  for (e = 0; e < neq; e++)
    for (bl = 0; bl < nb; bl++) {
      pn_bary(eq + (size_t)e * p->n + first[bl], &u, &v);
      nashmark(f, TX(u), TY(v), 0);
    }
  pl_buf_adds(f, "</g>\n");
#undef TX
#undef TY
}

int pl_svg (const pl_plot *pl, int width, int height, pl_buf *f)
{
  int ncol, nrow, i, k, lrows = 1;
  double cw, ch, top, lx;
  ncol = pl->npanels > 1 && width >= 600 ? 2 : 1;
  nrow = (pl->npanels + ncol - 1) / ncol;
  /* the legend's rows: entries wrap at the figure's width */
  lx = 10;
  for (k = 0; k < pl->rs.n; k++) {
    const char *lab = pl->rs.labels[k] ? pl->rs.labels[k] : "?";
    double w = 44 + 6.5 * (double)strlen(lab);
    if (lx + w > width - 10 && lx > 10) {
      lrows++;
      lx = 10;
    }
    lx += w;
  }
  top = 34 + 16 * (lrows - 1);
  cw = (double)width / ncol;
  ch = (height - top) / nrow;
  pl_buf_addf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
              "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
              "font-size=\"11\">\n<style>\n"
              ".series{fill:none;stroke-width:1.6}\n"
              ".frame{fill:none;stroke:#444}\n"
              ".grid{stroke:#ddd;stroke-width:0.7}\n"
              ".title{font-weight:bold;font-size:12px}\n"
              ".ytick{text-anchor:end}\n.ylabel{text-anchor:end}\n"
              ".xtick{text-anchor:middle}\n"
              ".xlabel{text-anchor:end}\n.note{font-size:10px}\n"
              ".nash{fill:#111;stroke:#fff;stroke-width:0.8}\n"
              "</style>\n<rect width=\"100%%\" height=\"100%%\" "
              "fill=\"white\"/>\n", width, height, width, height);
  /* (1) title and legend: one swatch and label per run, above the panels */
  pl_buf_adds(f, "<text x=\"10\" y=\"16\" class=\"title\">");
  pl_buf_addxml(f, pl->title != NULL ? pl->title : "");
  pl_buf_adds(f, "</text>\n");
  lx = 10;
  lrows = 0;
  for (k = 0; k < pl->rs.n; k++) {
    const char *lab = pl->rs.labels[k] ? pl->rs.labels[k] : "?";
    double w = 44 + 6.5 * (double)strlen(lab), ly;
    if (lx + w > width - 10 && lx > 10) {
      lrows++;
      lx = 10;
    }
    ly = 27 + 16 * lrows;
    pl_buf_addf(f, "<g class=\"legend\"><line x1=\"%.1f\" y1=\"%.1f\" "
                "x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>"
                "<text x=\"%.1f\" y=\"%.1f\">", lx, ly, lx + 18, ly,
                palette[k % NPAL], lx + 22, ly + 4);
    pl_buf_addxml(f, lab);
    pl_buf_adds(f, "</text></g>\n");
    lx += w;
  }
  /* (2) panels */
  for (i = 0; i < pl->npanels; i++) {
    box b;
    int kind = pl->panels[i];
    b.x = (i % ncol) * cw + 62;
    b.y = top + (i / ncol) * ch + 24;
    b.w = cw - 62 - 18;
    b.h = ch - 24 - 36;
    if (kind == PN_LANDSCAPE) svg_landscape(f, pl, b);
    else if (kind == PN_SIMPLEX) svg_simplex(f, pl, b);
    else if (kind == PN_WORKERS) svg_workers(f, pl, b);
    else if (kind == PN_MIXING) svg_mixing(f, pl, b);
    else if (pn_base(kind) == PN_CLOUD) svg_cloud(f, pl, kind, b);
    else svg_line(f, pl, kind, b);
  }
  pl_buf_adds(f, "</svg>\n");
  return f->oom ? -1 : 0;
}
