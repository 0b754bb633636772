/*
** core/plot/legend.c -- what the panel kinds draw alike in cells (see
** panelpriv.h): clipped text, labels shortened by whole tokens, legends
** laid out in columns below a plot or in an empty corner of it, and the
** 2-D panels' window axes.
**
** Legend rule (every panel kind): the legend is never drawn over data.
** Line panels put it below the x axis; the 2-D panels in a corner of the
** plot whose canvas cells are empty (checked), else below the plot, which
** then gives up rows, but keeps MAPROWS of them when it has more (a small
** screen: the entries are shortened into more columns instead).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "panelpriv.h"

#define MAPROWS 5        /* rows a 2-D panel's map keeps under its legend */

/* -- text pieces ---------------------------------------------------------- */

/* Next code point of UTF-8 s at *i (advanced); malformed bytes are
** taken one at a time. */
static unsigned u8next (const char *s, int *i)
{
  const unsigned char *p = (const unsigned char *)s + *i;
  unsigned u = p[0];
  int n = u < 0x80 ? 1 : u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : u >= 0xC0 ? 2 : 1;
  int k;
  if (n > 1) {
    u &= 0x3Fu >> (n - 1);
    for (k = 1; k < n; k++) {
      if ((p[k] & 0xC0) != 0x80) {
        *i += 1;
        return p[0];
      }
      u = (u << 6) | (p[k] & 0x3F);
    }
  }
  *i += n;
  return u;
}

int pn_cols (const char *s)
{
  int i = 0, n = 0;
  while (s[i] != '\0') {
    u8next(s, &i);
    n++;
  }
  return n;
}

/* s (UTF-8) at (y, x), at most maxw columns, clipped to o. */
void pn_puts_at (const pn_out *o, int y, int x, const char *s, int maxw,
                 int role)
{
  int i = 0, c = 0;
  while (s[i] != '\0' && c < maxw) {
    unsigned u = u8next(s, &i);
    char a = u < 0x80 ? (char)u : u == 0x2026 ? '.' : '~';
    if (x + c >= o->x && x + c < o->x + o->w)
      o->put(o->ud, y, x + c, o->utf8 ? u : (unsigned char)a, a, role);
    c++;
  }
}

void pn_blank (const pn_out *o, int y, int x, int w)
{
  int i;
  for (i = 0; i < w; i++) o->put(o->ud, y, x + i, ' ', ' ', PN_AXIS);
}

/* Byte offsets where the tokens of s end (before a separator: space or
** comma, runs of them one separator); count returned, at most max. */
static int token_ends (const char *s, const char *seps, int *end, int max)
{
  int n = 0, i = 0;
  while (s[i] != '\0' && n < max) {
    while (s[i] != '\0' && strchr(seps, s[i]) != NULL) i++;
    if (s[i] == '\0') break;
    while (s[i] != '\0' && strchr(seps, s[i]) == NULL) i++;
    end[n++] = i;
  }
  return n;
}

/* vals groups are separated by '\t' (shown as a space). */
static void addvals (char *buf, size_t size, const char *vals, int upto)
{
  size_t l = strlen(buf);
  int i;
  if (vals == NULL || upto <= 0) return;
  if (l + 1 < size) {
    buf[l++] = ' ';
    buf[l] = '\0';
  }
  for (i = 0; i < upto && l + 1 < size; i++) {
    buf[l++] = vals[i] == '\t' ? ' ' : vals[i];
    buf[l] = '\0';
  }
}

int pn_shorten (const char *label, const char *vals, int width, int utf8,
                char *buf, size_t size)
{
  const char *ell = utf8 ? "\xe2\x80\xa6" : "...";
  int lend[32], vend[16], nl, nv, t, v;
  nl = token_ends(label, " ,", lend, 32);
  nv = vals != NULL ? token_ends(vals, "\t", vend, 16) : 0;
  if (size == 0) return 0;
  /* (1) value groups dropped from the end, the label whole (which run
  ** it is matters more than its numbers); (2) then label tokens dropped
  ** from the end; (3) only a first token longer than the room is cut */
  for (v = nv; v >= 0; v--) {
    snprintf(buf, size, "%s", label);
    addvals(buf, size, vals, v > 0 ? vend[v - 1] : 0);
    if (pn_cols(buf) <= width) return pn_cols(buf);
  }
  for (t = nl - 1; t >= 1; t--) {
    snprintf(buf, size, "%.*s%s", lend[t - 1], label, ell);
    if (pn_cols(buf) <= width) return pn_cols(buf);
  }
  /* a first token longer than the room (a method name, no number) */
  {
    int i = 0, c = 0;
    while (label[i] != '\0' && c < width) {
      int j = i;
      u8next(label, &j);
      if ((size_t)j >= size) break;
      i = j;
      c++;
    }
    snprintf(buf, size, "%.*s", i, label);
    return c;
  }
}

/* -- legends -------------------------------------------------------------- */

void pn_leg_add (pn_legend *lg, const char *label, const char *vals,
                 unsigned mark, char asc, int role)
{
  int k = lg->n;
  if (k >= MAXLEG) return;
  lg->label[k] = label != NULL ? label : "?";
  snprintf(lg->vals[k], sizeof lg->vals[k], "%s", vals != NULL ? vals : "");
  lg->mark[k] = mark;
  lg->asc[k] = asc;
  lg->role[k] = role;
  lg->n++;
}

/* Columns an entry wants: marker, space, label, values. */
static int leg_want (const pn_legend *lg, int k)
{
  int w = 2 + pn_cols(lg->label[k]);
  if (lg->vals[k][0] != '\0') w += 1 + pn_cols(lg->vals[k]);
  return w;
}

/* Layout of the legend in a band w columns wide and at most maxrows rows
** (row-major entries in ncols columns of colw each): rows used. */
int pn_leg_layout (const pn_legend *lg, int w, int maxrows, int *ncols,
                   int *colw)
{
  int nat = 0, k, nc, rows, n = lg->n + (lg->extra[0] != '\0');
  if (n == 0 || maxrows < 1 || w < 8) return 0;
  for (k = 0; k < lg->n; k++)
    if (leg_want(lg, k) + 2 > nat) nat = leg_want(lg, k) + 2;
  if (lg->extra[0] != '\0' && pn_cols(lg->extra) + 2 > nat)
    nat = pn_cols(lg->extra) + 2;
  if (nat > w) nat = w;
  nc = w / nat;
  if (nc < 1) nc = 1;
  if (nc > n) nc = n;
  rows = (n + nc - 1) / nc;
  if (rows > maxrows) {
    rows = maxrows;
    nc = (n + rows - 1) / rows;
    if (nc > w / 12) nc = w / 12 > 0 ? w / 12 : 1;
    if ((n + nc - 1) / nc < rows) rows = (n + nc - 1) / nc;
    *colw = w / nc;
  } else {
    *colw = nc > 1 ? w / nc : w;
    if (*colw > nat) *colw = nat;
  }
  *ncols = nc;
  return rows;
}

/* Draw the legend in the band at (y, x), rows x (ncols * colw); entries
** that do not fit are summed up as "+k more". */
void pn_leg_draw (const pn_out *o, const pn_legend *lg, int y, int x,
                  int rows, int ncols, int colw, int clear)
{
  int n = lg->n + (lg->extra[0] != '\0'), shown = rows * ncols, k;
  char buf[160];
  if (clear)
    for (k = 0; k < rows; k++) pn_blank(o, y + k, x, ncols * colw);
  for (k = 0; k < n && k < shown; k++) {
    int ry = y + k / ncols, cx = x + (k % ncols) * colw;
    if (k == shown - 1 && n > shown) {
      snprintf(buf, sizeof buf, "+%d more", n - shown + 1);
      pn_puts_at(o, ry, cx + 2, buf, colw - 2, PN_AXIS);
      break;
    }
    if (k == lg->n) {
      pn_puts_at(o, ry, cx + 2, lg->extra, colw - 2, lg->xrole != 0
                 ? lg->xrole : PN_TITLE);
      continue;
    }
    o->put(o->ud, ry, cx, o->utf8 ? lg->mark[k] : (unsigned char)lg->asc[k],
           lg->asc[k], lg->role[k]);
    pn_shorten(lg->label[k], lg->vals[k][0] ? lg->vals[k] : NULL,
               colw - 3, o->utf8, buf, sizeof buf);
    pn_puts_at(o, ry, cx + 2, buf, colw - 3, lg->role[k]);
  }
}

/* Cells of canvas cv (its cell (0, 0) at screen (cy, cx)) lit inside the
** screen rectangle (y, x, h, w). */
static int lit_in (const cv_canvas *cv, int cy, int cx, int y, int x, int h,
                   int w)
{
  int r, c, s;
  for (r = y; r < y + h; r++)
    for (c = x; c < x + w; c++)
      if (cv_cell(cv, c - cx, r - cy, &s) != 0) return 1;
  return 0;
}

/* The legend in a corner of the plot rectangle (py, px, ph, pw) whose
** canvas cells are empty: top-right, top-left, bottom-right, bottom-left.
** Returns 1 when placed, 0 when every corner holds data. */
int pn_leg_corner (const pn_out *o, const pn_legend *lg, const cv_canvas *cv,
                   int py, int px, int ph, int pw)
{
  int rows = lg->n + (lg->extra[0] != '\0'), k, bw;
  if (rows == 0) return 0;
  if (rows > ph - 1) return 0;
  bw = 0;
  for (k = 0; k < lg->n; k++)
    if (leg_want(lg, k) + 1 > bw) bw = leg_want(lg, k) + 1;
  if (lg->extra[0] != '\0' && pn_cols(lg->extra) + 3 > bw)
    bw = pn_cols(lg->extra) + 3;
  if (bw > pw) return 0;
  for (k = 0; k < 4; k++) {
    int bx = k % 2 == 0 ? px + pw - bw : px;
    int by = k < 2 ? py : py + ph - rows;
    if (lit_in(cv, py, px, by, bx, rows, bw)) continue;
    pn_leg_draw(o, lg, by, bx, rows, 1, bw, 1);
    return 1;
  }
  return 0;
}

/* -- 2-D panels ----------------------------------------------------------- */

/* Dot of (a, b) in the window on canvas cv. */
void pn_todot (const cv_canvas *cv, const double *win, double a, double b,
               int *px, int *py)
{
  double u = (a - win[0]) / (win[1] - win[0]);
  double v = (win[3] - b) / (win[3] - win[2]);
  int dw = cv_dotw(cv), dh = cv_doth(cv);
  *px = (int)floor(u * dw);
  *py = (int)floor(v * dh);
  if (*px >= dw) *px = dw - 1;
  if (*py >= dh) *py = dh - 1;
}

/* Window bounds and coordinate names of a 2-D panel whose plot is at
** (o->y, px0), ph x pw. */
void pn_win_axes (const pn_out *o, const double *win, int px0, int ph,
                  int pw)
{
  char lab[16];
  cv_fmt(win[3], lab, sizeof lab, YLAB - 1);
  pn_puts_at(o, o->y, px0 - 1 - (int)strlen(lab), lab, YLAB, PN_AXIS);
  cv_fmt(win[2], lab, sizeof lab, YLAB - 1);
  pn_puts_at(o, o->y + ph - 1, px0 - 1 - (int)strlen(lab), lab, YLAB, PN_AXIS);
  pn_puts_at(o, o->y + ph / 2, px0 - 3, "x2", 2, PN_AXIS);
  pn_blank(o, o->y + ph, o->x, o->w);
  cv_fmt(win[0], lab, sizeof lab, 8);
  pn_puts_at(o, o->y + ph, px0, lab, 8, PN_AXIS);
  pn_puts_at(o, o->y + ph, px0 + pw / 2 - 1, "x1", 2, PN_AXIS);
  cv_fmt(win[1], lab, sizeof lab, 8);
  pn_puts_at(o, o->y + ph, px0 + pw - (int)strlen(lab), lab, 8, PN_AXIS);
}

/* The legend of a 2-D panel: an empty corner of its plot, else the rows
** below it (*ph shrinks; returns 1 when the plot must be redrawn). */
int pn_leg_place2d (const pn_out *o, const pn_legend *lg, int px0, int *ph,
                    int pw, int *below)
{
  int ncols, colw, rows, maxrows;
  if (*below) return 0;
  if (pn_leg_corner(o, lg, o->cv, o->y, px0, *ph, pw)) return 0;
  /* below: at most half the rows, and the map keeps MAPROWS of them
  ** when it has more (the entries then shortened into more columns) */
  maxrows = *ph - MAPROWS < *ph / 2 ? *ph - MAPROWS : *ph / 2;
  if (maxrows < 1) maxrows = *ph / 2;
  rows = pn_leg_layout(lg, o->w - 1, maxrows, &ncols, &colw);
  if (rows == 0 || *ph - rows < 3) return 0;
  *ph -= rows;
  *below = rows;
  return 1;
}

void pn_leg_below2d (const pn_out *o, const pn_legend *lg, int ph, int rows)
{
  int ncols, colw;
  rows = pn_leg_layout(lg, o->w - 1, rows, &ncols, &colw);
  if (rows > 0)
    pn_leg_draw(o, lg, o->y + ph + 1, o->x + 1, rows, ncols, colw, 1);
}

/* lo and hi of a cloud axis padded by 5%, then widened to whole steps of
** a nice size (an eighth of the extent, rounded up to 1, 2 or 5), so the
** window, and with it the contour grid, changes only now and then. */
void pn_snap_axis (double *lo, double *hi)
{
  double d = *hi - *lo, st;
  if (!(d > 0)) d = fabs(*lo) > 0 ? fabs(*lo) : 1;
  *lo -= 0.05 * d;
  *hi += 0.05 * d;
  st = cv_nice_up((*hi - *lo) / 8);
  if (st > 0 && isfinite(st)) {
    *lo = st * floor(*lo / st);
    *hi = st * ceil(*hi / st);
  }
}
