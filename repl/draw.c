/*
** repl/draw.c -- draw the live view: the panel grid, each panel's axes,
** ticks, series and legend, the title and status lines, the help overlay.
**
** Output goes through screen.c's put helpers (colour roles, ASCII
** fallbacks); the dot work is canvas.c's.  Glyphs: in a UTF-8 screen with
** colours, braille series and box-drawing borders; otherwise ASCII
** markers per run ('.', '*', 'o', '+', 'x', ...) and '+', '-', '|' borders,
** so every byte is ASCII under --ascii or LANG=C.
**
** Panel layout (inside the border):
**   YLAB columns of y tick labels, an axis column, then the plot;
**   the plot rows, then the x axis row, then the x tick label row.
** The legend (one line per run: marker, label, latest value, minimum)
** sits at the plot's top-right corner, where decaying curves are not.
** The x axis (iterations, gradient evaluations or seconds: dr_runs.xaxis)
** is named in the bottom border, at the right.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "screen.h"

#define YLAB 7           /* y tick label width */
#define MAXTICKS 16

const char dr_keys[] =
  "q stop  space pause  n step  +/- speed  l log  Tab focus  z zoom  ? help";

/* Box glyphs: Unicode code point and ASCII fallback. */
enum { G_H, G_V, G_TL, G_TR, G_BL, G_BR, G_YTICK, G_XTICK, G_DOT };
static const unsigned gl_u[] = {
  0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518, 0x2524, 0x2534, 0x25CF
};
static const char gl_a[] = { '-', '|', '+', '+', '+', '+', '+', '+', '#' };

static void glyph (int y, int x, int g, int role, int attr)
{
  screen_putc(y, x, gl_u[g], gl_a[g], role, attr);
}

static int series_role (int k)
{
  return SC_SERIES + k % SC_NSERIES;
}

void dr_panel_init (dr_panel *p, int metric)
{
  memset(p, 0, sizeof *p);
  p->metric = metric;
  p->ymode = DR_AUTO;
  p->xmax = 1;
}

/* Metrics that decay over decades and read best on a log axis. */
static int log_prone (int m)
{
  return m == OL_MET_LOSS || m == OL_MET_GRADNORM || m == OL_MET_KKT
    || m == OL_MET_SUBOPT || m == OL_MET_DIST || m == OL_MET_EXPLOIT;
}

/* Data extent of a panel's metric over all runs. */
typedef struct extent {
  int any;             /* finite values seen */
  int neg;             /* some finite value < 0 */
  double min, max;     /* over finite values */
  double pmin;         /* smallest positive value */
  double xmax;         /* largest recorded x (rs->xaxis) */
} extent;

static void scan (const dr_runs *rs, int metric, extent *e)
{
  int k, i;
  e->any = e->neg = 0;
  e->min = e->pmin = INFINITY;
  e->max = -INFINITY;
  e->xmax = 0;
  for (k = 0; k < rs->n; k++) {
    const ol_run *r = rs->runs[k];
    const double *v = ol_run_series(r, metric);
    int len = ol_run_len(r);
    if (v == NULL || len <= 0) continue;
    if (pn_xat(r, rs->xaxis, len - 1) > e->xmax)
      e->xmax = pn_xat(r, rs->xaxis, len - 1);
    for (i = 0; i < len; i++) {
      double x = v[i];
      if (!isfinite(x)) continue;
      e->any = 1;
      if (x < e->min) e->min = x;
      if (x > e->max) e->max = x;
      if (x > 0 && x < e->pmin) e->pmin = x;
      if (x < 0) e->neg = 1;
    }
  }
}

static void draw_border (int y, int x, int h, int w, int role)
{
  int i;
  glyph(y, x, G_TL, role, 0);
  glyph(y, x + w - 1, G_TR, role, 0);
  glyph(y + h - 1, x, G_BL, role, 0);
  glyph(y + h - 1, x + w - 1, G_BR, role, 0);
  for (i = 1; i < w - 1; i++) {
    glyph(y, x + i, G_H, role, 0);
    glyph(y + h - 1, x + i, G_H, role, 0);
  }
  for (i = 1; i < h - 1; i++) {
    glyph(y + i, x, G_V, role, 0);
    glyph(y + i, x + w - 1, G_V, role, 0);
  }
}

/* The series of every run, as lines between consecutive recorded points
** (a gap where a value cannot be shown). */
static void plot_series (const dr_panel *p, const dr_runs *rs, cv_canvas *cv)
{
  int dw = cv_dotw(cv), dh = cv_doth(cv), k, i;
  for (k = 0; k < rs->n; k++) {
    const ol_run *r = rs->runs[k];
    const double *v = ol_run_series(r, p->metric);
    int len = ol_run_len(r), have = 0, lx = 0, ly = 0;
    if (v == NULL) continue;
    for (i = 0; i < len; i++) {
      double pos = cv_scale_pos(&p->ys, v[i]);
      int px, py;
      if (isnan(pos)) {
        have = 0;
        continue;
      }
      if (pos < 0) pos = 0;
      if (pos > 1) pos = 1;
      px = (int)lround(pn_xat(r, rs->xaxis, i) / p->xmax * (dw - 1));
      py = (int)lround((1 - pos) * (dh - 1));
      if (!have) cv_dot(cv, px, py, k);
      else if (px != lx || py != ly) cv_line(cv, lx, ly, px, py, k);
      have = 1;
      lx = px;
      ly = py;
    }
  }
}

static void draw_yaxis (const dr_panel *p, const cv_canvas *cv, int py,
                        int ax, int ph)
{
  double tv[MAXTICKS];
  int nt, i, last = -1;
  int per = cv_doth(cv) / ph;
  int max = ph / 2 > 2 ? ph / 2 : 2;
  for (i = 0; i < ph; i++) glyph(py + i, ax, G_V, SC_AXIS, 0);
  if (max > MAXTICKS) max = MAXTICKS;
  nt = cv_ticks(&p->ys, max, tv);
  for (i = 0; i < nt; i++) {
    double pos = cv_scale_pos(&p->ys, tv[i]);
    int dot, row;
    char lab[16];
    if (isnan(pos)) continue;
    dot = (int)lround((1 - pos) * (cv_doth(cv) - 1));
    row = dot / per;
    if (row < 0 || row >= ph || row == last) continue;
    last = row;
    cv_fmt(tv[i], lab, sizeof lab, YLAB);
    screen_puts(py + row, ax - (int)strlen(lab), lab, YLAB, SC_AXIS, 0);
    glyph(py + row, ax, G_YTICK, SC_AXIS, 0);
  }
}

static void draw_xaxis (const dr_panel *p, const cv_canvas *cv, int y,
                        int ax, int pw)
{
  cv_scale xs;
  double tv[MAXTICKS];
  int nt, i, end = ax;
  int max = pw / 10 > 2 ? pw / 10 : 2;
  int per = cv_dotw(cv) / pw;
  glyph(y, ax, G_BL, SC_AXIS, 0);
  for (i = 0; i < pw; i++) glyph(y, ax + 1 + i, G_H, SC_AXIS, 0);
  if (max > MAXTICKS) max = MAXTICKS;
  xs.valid = 1;
  xs.log = 0;
  xs.lo = 0;
  xs.hi = p->xmax;
  nt = cv_ticks(&xs, max, tv);
  for (i = 0; i < nt; i++) {
    char lab[16];
    int dot = (int)lround(tv[i] / p->xmax * (cv_dotw(cv) - 1));
    int col = dot / per, len, lx;
    if (col < 0 || col >= pw) continue;
    glyph(y, ax + 1 + col, G_XTICK, SC_AXIS, 0);
    pn_xfmt(p->xaxis, tv[i], lab, sizeof lab, 6);
    len = (int)strlen(lab);
    lx = ax + 1 + col - len / 2;
    if (lx + len > ax + 1 + pw) lx = ax + 1 + pw - len;
    if (lx < ax + 1) lx = ax + 1;
    if (lx <= end) continue;
    screen_puts(y + 1, lx, lab, len, SC_AXIS, 0);
    end = lx + len;
  }
}

/* Latest value of run r's metric and its minimum over every record (also
** those the history no longer keeps). */
static void last_min (const ol_run *r, int metric, double *last, double *min)
{
  *last = ol_run_last(r, metric);
  *min = ol_run_min(r, metric);
}

static void draw_legend (const dr_panel *p, const dr_runs *rs, int y, int x,
                         int h, int w, int braille)
{
  char item[160];
  int k, width = 0, cap = w - 2;
  if (cap < 12) return;
  for (k = 0; k < rs->n && k < h; k++) {
    char a[16], b[16];
    double last, min;
    int len;
    last_min(rs->runs[k], p->metric, &last, &min);
    cv_fmt(last, a, sizeof a, 8);
    cv_fmt(min, b, sizeof b, 8);
    len = snprintf(item, sizeof item, " %s %s min %s ",
                   rs->labels[k] ? rs->labels[k] : "?", a, b);
    if (len + 2 > width) width = len + 2;
  }
  if (width > cap) width = cap;
  for (k = 0; k < rs->n && k < h; k++) {
    char a[16], b[16], vals[40];
    double last, min;
    int room, lx = x + w - width;
    const char *lab = rs->labels[k] ? rs->labels[k] : "?";
    last_min(rs->runs[k], p->metric, &last, &min);
    cv_fmt(last, a, sizeof a, 8);
    cv_fmt(min, b, sizeof b, 8);
    snprintf(vals, sizeof vals, " %s min %s ", a, b);
    room = width - 3 - (int)strlen(vals);
    if (room < 1) room = 1;
    snprintf(item, sizeof item, "%.*s%s", room, lab, vals);
    screen_blank(y + k, lx, width, SC_DEFAULT, 0);
    if (braille) glyph(y + k, lx + 1, G_DOT, series_role(k), SA_BOLD);
    else screen_putc(y + k, lx + 1, (unsigned char)cv_marker(k),
                     cv_marker(k), series_role(k), SA_BOLD);
    screen_puts(y + k, lx + 3, item, width - 3, series_role(k), 0);
  }
}

void dr_frame (int y, int x, int h, int w, int focused, const char *title)
{
  char t[128];
  draw_border(y, x, h, w, focused ? SC_FOCUS : SC_AXIS);
  snprintf(t, sizeof t, " %s%s ", focused ? "* " : "", title);
  screen_puts(y, x + 2, t, w - 4, focused ? SC_FOCUS : SC_TITLE, SA_BOLD);
}

void dr_put (void *ud, int y, int x, unsigned u, char ascii, int role)
{
  (void)ud;
  if (role >= 0) screen_putc(y, x, u, ascii, series_role(role), 0);
  else if (role == PN_HEAT) screen_putc(y, x, u, ascii, SC_AXIS, SA_DIM);
  else screen_putc(y, x, u, ascii, role == PN_TITLE ? SC_TITLE : SC_AXIS,
                   role == PN_TITLE ? SA_BOLD : 0);
}

void dr_pn_setup (const dr_runs *rs, int y, int x, int h, int w,
                  cv_canvas *cv, pn_runs *prs, pn_out *o)
{
  prs->n = rs->n;
  prs->runs = rs->runs;
  prs->labels = rs->labels;
  o->put = dr_put;
  o->ud = NULL;
  o->y = y + 1;
  o->x = x + 1;
  o->h = h - 2;
  o->w = w - 2;
  o->utf8 = screen_utf8() && screen_colors();
  o->cv = cv;
}

int dr_auto_panel (const dr_runs *rs)
{
  const ol_problem *p;
  int dim, first[1];
  if (rs->n < 1 || ol_run_traj(rs->runs[0], &dim) == NULL) return -1;
  p = ol_run_problem(rs->runs[0]);
  if (p->n == 2 && pn_has_landscape(p)) return PN_LANDSCAPE;
  if (p->kind == OL_GAME && pn_simplex_blocks(p, first, 1) > 0)
    return PN_SIMPLEX;
  return -1;
}

void dr_panel_draw (dr_panel *p, const dr_runs *rs, int y, int x, int h,
                    int w, int focused, cv_canvas *cv)
{
  extent e;
  char title[64];
  int log, ax, px, pw, ph, row, col;
  int braille = screen_utf8() && screen_colors();
  if (h < 4 || w < 12) return;
  if (p->metric == PN_LANDSCAPE) {
    dr_landscape_draw(rs, y, x, h, w, focused, cv);
    return;
  }
  if (p->metric == PN_SIMPLEX) {
    dr_simplex_draw(rs, y, x, h, w, focused, cv);
    return;
  }
  draw_border(y, x, h, w, focused ? SC_FOCUS : SC_AXIS);
  scan(rs, p->metric, &e);
  /* (1) axis kind: auto = log for decaying metrics while no value is
  ** negative; exact zeros (a loss that underflowed) leave a gap */
  if (p->ymode == DR_LOG) log = e.pmin < INFINITY || !e.any;
  else if (p->ymode == DR_LIN) log = 0;
  else log = log_prone(p->metric) && !e.neg && e.pmin < INFINITY;
  p->shown_log = log;
  snprintf(title, sizeof title, " %s%s [%s] ", focused ? "* " : "",
           ol_metric_types[p->metric].name, log ? "log" : "lin");
  screen_puts(y, x + 2, title, w - 4, focused ? SC_FOCUS : SC_TITLE,
              SA_BOLD);
  /* (2) stable ranges */
  if (e.any) {
    if (log && e.pmin < INFINITY) cv_scale_fit(&p->ys, 1, e.pmin, e.max);
    else if (!log) cv_scale_fit(&p->ys, 0, e.min, e.max);
  }
  if (p->xaxis != rs->xaxis) {
    p->xaxis = rs->xaxis;
    p->xmax = p->xaxis == PN_X_TIME ? 1e-3 : 1;
  }
  if (e.xmax > p->xmax) p->xmax = cv_nice_up(e.xmax);
  /* (3) geometry */
  ax = x + 1 + YLAB;
  px = ax + 1;
  pw = x + w - 1 - px;
  ph = h - 4;
  if (pw < 4 || ph < 1) return;
  if (cv_init(cv, pw, ph, braille ? CV_BRAILLE : CV_ASCII) != 0) return;
  /* (4) series onto the canvas, canvas onto the screen */
  if (p->ys.valid) plot_series(p, rs, cv);
  for (row = 0; row < ph; row++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned u = cv_cell(cv, col, row, &s);
      if (u != 0)
        screen_putc(y + 1 + row, px + col, u, cv_marker(s), series_role(s),
                    0);
    }
  /* (5) axes and legend */
  if (p->ys.valid) draw_yaxis(p, cv, y + 1, ax, ph);
  else screen_puts(y + 1, px + 1, "no data", pw - 1, SC_AXIS, 0);
  draw_xaxis(p, cv, y + 1 + ph, ax, pw);
  draw_legend(p, rs, y + 1, px, ph, pw, braille);
  /* (6) the x axis name in the bottom border */
  {
    char xl[32];
    int len = snprintf(xl, sizeof xl, " %s ", pn_xaxis_label(p->xaxis));
    if (len + 4 < w)
      screen_puts(y + h - 1, x + w - 2 - len, xl, len, SC_AXIS, 0);
  }
}

static void draw_help (int rows, int cols)
{
  static const char *const lines[] = {
    "keys",
    "",
    "q, Ctrl-C  stop the experiment",
    "space      pause / resume",
    "n          one step (pauses first)",
    "+ / -      faster / slower (steps per frame)",
    "l          log / linear y axis of the focused panel",
    "Tab        focus the next panel (Shift-Tab: back)",
    "z          zoom the focused panel / restore",
    "?          this help (any key closes it)"
  };
  int n = (int)(sizeof lines / sizeof lines[0]), w = 0, i, y, x;
  for (i = 0; i < n; i++)
    if ((int)strlen(lines[i]) > w) w = (int)strlen(lines[i]);
  w += 4;
  if (w > cols) w = cols;
  y = (rows - n - 2) / 2;
  x = (cols - w) / 2;
  if (y < 0) y = 0;
  for (i = 0; i < n + 2; i++) screen_blank(y + i, x, w, SC_DEFAULT, 0);
  draw_border(y, x, n + 2, w, SC_FOCUS);
  for (i = 0; i < n; i++)
    screen_puts(y + 1 + i, x + 2, lines[i], w - 4, i == 0 ? SC_TITLE : 0,
                i == 0 ? SA_BOLD : 0);
}

static void draw_title (const dr_view *v, int cols)
{
  char right[96], left[256];
  int rl;
  screen_blank(0, 0, cols, SC_STATUS, SA_REVERSE);
  snprintf(right, sizeof right, " iter %ld/%ld  %s  speed %s ", v->iter,
           v->iters, v->state, v->speed);
  rl = (int)strlen(right);
  snprintf(left, sizeof left, " optlab  %s", v->title ? v->title : "");
  screen_puts(0, 0, left, cols - rl - 1 > 0 ? cols - rl - 1 : 0, SC_STATUS,
              SA_REVERSE | SA_BOLD);
  screen_puts(0, cols - rl > 0 ? cols - rl : 0, right, cols, SC_STATUS,
              SA_REVERSE);
}

static void too_small (int rows, int cols)
{
  char msg[64];
  int len;
  len = snprintf(msg, sizeof msg, "terminal too small (%dx%d)", cols, rows);
  if (len > cols) len = cols;
  screen_puts(rows / 2, (cols - len) / 2, msg, cols, SC_WARN, SA_BOLD);
  if (rows > 2) screen_puts(rows / 2 + 1, 0, "q stop", cols, SC_DEFAULT, 0);
}

void dr_view_draw (dr_view *v, int rows, int cols, cv_canvas *cv)
{
  static dr_panel extra;
  int n = v->zoom ? 1 : v->npanels, ncol, nrow, ph, pw, i, top = 1;
  int area = rows - 2, auto_kind = -1;
  if (cols < DR_MIN_COLS || rows < DR_MIN_ROWS) {
    too_small(rows, cols);
    return;
  }
  /* (1) a landscape or simplex panel by default when there is room */
  if (!v->zoom && cols >= 80 && rows >= 24) {
    auto_kind = dr_auto_panel(&v->runs);
    for (i = 0; i < v->npanels && auto_kind >= 0; i++)
      if (v->panels[i].metric >= OL_NMETRICS) auto_kind = -1;
    if (auto_kind >= 0) {
      dr_panel_init(&extra, auto_kind);
      n++;
    }
  }
  ncol = (cols >= 100 && n > 1) ? 2 : 1;
  nrow = n > 0 ? (n + ncol - 1) / ncol : 1;
  if (area / nrow < 6 && ncol == 1 && n > 1 && cols >= 60) {
    ncol = 2;
    nrow = (n + 1) / 2;
  }
  ph = area / nrow;
  pw = cols / ncol;
  if (n > 0 && ph < 5) {
    too_small(rows, cols);
    return;
  }
  draw_title(v, cols);
  for (i = 0; i < n; i++) {
    int k = v->zoom ? v->focus : i;
    int r = i / ncol, c = i % ncol;
    int h = r == nrow - 1 ? area - r * ph : ph;
    int w = c == ncol - 1 ? cols - c * pw : pw;
    if (i >= v->npanels && !v->zoom)
      dr_panel_draw(&extra, &v->runs, top + r * ph, c * pw, h, w, 0, cv);
    else
      dr_panel_draw(&v->panels[k], &v->runs, top + r * ph, c * pw, h, w,
                    k == v->focus && v->npanels > 1, cv);
  }
  if (n == 0)
    screen_puts(rows / 2, 2, "no metrics watched", cols - 4, SC_AXIS, 0);
  screen_blank(rows - 1, 0, cols - 1, SC_STATUS, SA_REVERSE);
  screen_puts(rows - 1, 0, dr_keys, cols - 1, SC_STATUS, SA_REVERSE);
  if (v->help) draw_help(rows, cols);
}
