/*
** repl/draw.c -- draw the live view: the panel grid (every panel kind's
** insides come from its entry of core/plot/panel.h's table, draw_cells,
** through dr_put), each panel's border with its title and x axis title.
** The header, the key line and the help overlay are the view model's
** (repl/model.c).
**
** Output goes through screen.c's put helpers (colour roles, ASCII
** fallbacks); a game's equilibrium stars (PN_NASH) are bold in the
** terminal's own foreground colour, which no series uses.  Glyphs: in a
** UTF-8 screen with colours, braille series and box-drawing borders;
** otherwise ASCII markers per run ('.', '*', 'o', '+', 'x', ...) and '+',
** '-', '|' borders, so every byte is ASCII under --ascii or LANG=C.
**
** Panel layout (inside the border) is core/plot's: y tick labels, the
** plot, the x axis and its tick labels, the legend below them (never over
** data); the x axis title (iterations, gradient evaluations or seconds:
** dr_runs.xaxis, "(log)" on a log x axis) is in the bottom border, at the
** right.  The landscape panel keeps one grid cache here (the cloud's
** contours another: the kind's cache field); a frame spends at
** most MAP_BUDGET seconds evaluating f for it (a slow objective's map is
** finished over several frames, or given up).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "panel.h"
#include "screen.h"

#define MAP_BUDGET 0.01
#define POOL_BUDGET 0.02

static pn_cache cache, cloudcache;

/* Box glyphs: Unicode code point and ASCII fallback. */
enum { G_H, G_V, G_TL, G_TR, G_BL, G_BR };
static const unsigned gl_u[] = {
  0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518
};
static const char gl_a[] = { '-', '|', '+', '+', '+', '+' };

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
  pn_axes_init(&p->ax, PN_X_ITER, 0);
  p->ax.stable = 1;
  p->ax.marks = 1;      /* the landscape marks each start and x* */
}

void dr_panel_toggle_xlog (dr_panel *p)
{
  p->xlog = !p->xlog;
}

void dr_panel_toggle_freeze (dr_panel *p)
{
  const double *w = p->ax.win;
  if (p->metric != PN_LANDSCAPE) return;
  if (p->ax.winfix) p->ax.winfix = 0;
  else if (w[0] < w[1] && w[2] < w[3]) p->ax.winfix = 1;   /* drawn once */
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

/* Border and title of a panel; focused ones are highlighted. */
static void dr_frame (int y, int x, int h, int w, int focused,
                      const char *title)
{
  char t[128];
  draw_border(y, x, h, w, focused ? SC_FOCUS : SC_AXIS);
  snprintf(t, sizeof t, " %s%s ", focused ? "* " : "", title);
  screen_puts(y, x + 2, t, w - 4, focused ? SC_FOCUS : SC_TITLE, SA_BOLD);
}

/* pn_put onto the screen: series roles -> run colours, PN_HEAT dim. */
static void dr_put (void *ud, int y, int x, unsigned u, char ascii, int role)
{
  (void)ud;
  if (role >= 0) screen_putc(y, x, u, ascii, series_role(role), 0);
  else if (role == PN_DIVERGENT) screen_putc(y, x, u, ascii, SC_WARN,
                                             SA_BOLD);
  else if (role == PN_HEAT) screen_putc(y, x, u, ascii, SC_AXIS, SA_DIM);
  else if (role == PN_NASH) screen_putc(y, x, u, ascii, SC_DEFAULT,
                                        SA_BOLD);
  else screen_putc(y, x, u, ascii, role == PN_TITLE ? SC_TITLE : SC_AXIS,
                   role == PN_TITLE ? SA_BOLD : 0);
}

/* The runs of rs and an output inside the border of the h x w panel at
** (y, x), drawn with dr_put, for a core/plot/plotpanel.c panel. */
static void dr_pn_setup (const dr_runs *rs, int y, int x, int h, int w,
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
  pn_runs prs;
  prs.n = rs->n;
  prs.runs = rs->runs;
  prs.labels = rs->labels;
  return pn_auto_panel(&prs);
}

/* Draw panel p in the rectangle at (y, x), h x w cells; focused panels
** have a highlighted title.  cv is scratch space kept by the caller. */
static void dr_panel_draw (dr_panel *p, const dr_runs *rs, int y, int x,
                           int h, int w, int focused, cv_canvas *cv)
{
  pn_runs prs;
  pn_out o;
  char title[96], xt[64];
  int kind = p->metric;
  const pn_kind *pk = pn_kind_of(kind);
  pn_cache *c = NULL;
  if (h < 4 || w < 12 || pk == NULL) return;
  dr_pn_setup(rs, y, x, h, w, cv, &prs, &o);
  xt[0] = '\0';
  if (pk->cache != PN_CACHE_NONE) {
    c = pk->cache == PN_CACHE_CONTOURS ? &cloudcache : &cache;
    c->budget = MAP_BUDGET;
  }
  if (pk->axes) {
    /* (1) the axes' display state follows the panel's settings; the
    ** ranges stay stable from frame to frame */
    p->ax.xaxis = PN_XKIND(rs->xaxis);
    /* option or the metric's default, flipped by the key */
    p->ax.xlog = p->xlog ^ (PN_XLOGGED(rs->xaxis)
                            || pn_xlog_prone(p->metric));
    p->ax.ymode = p->ymode;
    p->ax.stable = 1;
    p->ax.pool = &p->pool;          /* here, not at init: panels move */
    p->ax.poolbudget = POOL_BUDGET;
  }
  if (kind == PN_LANDSCAPE && rs->win != NULL && !p->winset) {
    /* the view option's window, once: the w key may free it */
    memcpy(p->ax.win, rs->win, sizeof p->ax.win);
    p->ax.winfix = 1;
    p->winset = 1;
  }
  pk->draw_cells(&prs, kind, &p->ax, c, &o, title, sizeof title);
  if (pk->axes) {
    p->shown_log = p->ax.shown_log;
    pn_xtitle(kind, &p->ax, xt, sizeof xt);
  }
  /* (2) border, title, and the x axis title at the bottom right */
  dr_frame(y, x, h, w, focused, title);
  if (xt[0] != '\0') {
    char b[72];
    int len = snprintf(b, sizeof b, " %s ", xt);
    if (len + 4 < w)
      screen_puts(y + h - 1, x + w - 2 - len, b, len, SC_AXIS, 0);
  }
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

/* Rows a panel of kind needs at least: a line panel DR_PANEL_ROWS (its
** plot, x axis, tick labels and legend rows), a 2-D one DR_MAP_ROWS
** (five rows of map, its axis labels and a legend row). */
static int need_rows (int kind)
{
  const pn_kind *pk = pn_kind_of(kind);
  return pk != NULL && !pk->axes ? DR_MAP_ROWS : DR_PANEL_ROWS;
}

/* 1 when the n panels show[] of v on a grid of ncol columns in area rows
** each get their need_rows (the last grid row takes the rows left over,
** as dr_view_draw places them); *nrow gets the grid's rows. */
static int fits (const dr_view *v, const int *show, int n, int ncol,
                 int area, int *nrow)
{
  int i, ph, last;
  *nrow = n > 0 ? (n + ncol - 1) / ncol : 1;
  ph = area / *nrow;
  last = area - (*nrow - 1) * ph;
  for (i = 0; i < n; i++)
    if ((i / ncol == *nrow - 1 ? last : ph)
        < need_rows(v->panels[show[i]].metric))
      return 0;
  return 1;
}

/* The panels of v to show, in order, into show (n of them, at most
** DR_SHOWN); dropped from the least needed while some would get fewer
** rows than need_rows: the focused panel stays, then the first one (the
** first watched metric), then the 2-D panels; the other metrics go
** first, the last first.  *ncol and *nrow get the grid; the count is
** negative when two columns were taken for the height (not the width). */
static int choose (const dr_view *v, int area, int cols, int focus,
                   int *show, int *ncol, int *nrow)
{
  int n = 0, i, k, forced = 0;
  if (v->zoom) show[n++] = focus;
  else
    for (i = 0; i < v->npanels && n < DR_SHOWN; i++) show[n++] = i;
  *ncol = (cols >= 100 && n > 1) ? 2 : 1;
  for (;;) {
    if (fits(v, show, n, *ncol, area, nrow) || n <= 1) break;
    if (*ncol == 1 && cols >= 60) {
      *ncol = 2;
      forced = 1;
      continue;
    }
    /* drop: the last metric panel that is neither focused nor first,
    ** else the last 2-D panel that is not focused */
    for (k = n - 1; k > 0; k--)
      if (show[k] != focus && need_rows(v->panels[show[k]].metric)
          == DR_PANEL_ROWS) break;
    if (k == 0)
      for (k = n - 1; k > 0 && show[k] == focus; k--) {}
    if (k == 0) k = show[0] == focus ? 1 : 0;
    for (i = k; i < n - 1; i++) show[i] = show[i + 1];
    n--;
  }
  if (*ncol == 2 && n == 1) *ncol = 1;
  *nrow = n > 0 ? (n + *ncol - 1) / *ncol : 1;
  return forced ? -n : n;
}

void dr_view_draw (dr_view *v, int rows, int cols, cv_canvas *cv)
{
  int total = v->npanels, focus, n, ncol, nrow, ph, pw, i, top = 1, span;
  int area = rows - 2, show[DR_SHOWN];
  if (cols < DR_MIN_COLS || rows < DR_MIN_ROWS) {
    too_small(rows, cols);
    return;
  }
  /* (1) the grid: every panel that fits (choose), or the focused one
  ** alone when zoomed; two columns forced by the height give the panels
  ** of a short last row the whole width */
  focus = v->focus >= 0 && v->focus < total ? v->focus : 0;
  n = choose(v, area, cols, focus, show, &ncol, &nrow);
  span = n < 0;
  if (n < 0) n = -n;
  ph = area / nrow;
  pw = cols / ncol;
  if (n > 0 && ph < 5) {
    too_small(rows, cols);
    return;
  }
  for (i = 0; i < n; i++) {
    int k = show[i];
    int r = i / ncol, c = i % ncol, inrow = ncol, cw = pw;
    int h = r == nrow - 1 ? area - r * ph : ph, w;
    if (span && r == nrow - 1) {
      inrow = n - r * ncol;
      cw = cols / inrow;
    }
    w = c == inrow - 1 ? cols - c * cw : cw;
    dr_panel_draw(&v->panels[k], &v->runs, top + r * ph, c * cw, h, w,
                  k == focus && total > 1, cv);
  }
  /* (2) what the height left out, in the last row's bottom border */
  if (!v->zoom && n < total) {
    char note[64];
    snprintf(note, sizeof note, " %d more panel%s: Tab or z ", total - n,
             total - n == 1 ? "" : "s");
    screen_puts(top + area - 1, 2, note, cols / 2, SC_WARN, 0);
  }
  if (n == 0)
    screen_puts(rows / 2, 2, "no metrics watched", cols - 4, SC_AXIS, 0);
}
