/*
** core/plot/canvas.c -- dot canvas (braille or ASCII), stable axis scales
** and nice ticks.  See canvas.h.  Pure C: no curses, no Lua, no I/O, so it
** can be unit-tested and reused by a text or SVG renderer.
**
** Braille dot numbering (Unicode): in a cell, dot (dx, dy) has bit
**   dx=0: dy 0..3 -> 0x01 0x02 0x04 0x40;  dx=1: dy 0..3 -> 0x08 0x10 0x20 0x80
** and the glyph is U+2800 + bits.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "palette.h"

static const unsigned char braille_bit[2][4] = {
  {0x01, 0x02, 0x04, 0x40},
  {0x08, 0x10, 0x20, 0x80}
};

/* Empty every cell: no dot lit, no series (cv_init's last step). */
static void cv_clear (cv_canvas *c);

int cv_init (cv_canvas *c, int w, int h, int mode)
{
  size_t n;
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  n = (size_t)w * (size_t)h;
  if (c->bits == NULL || (size_t)c->w * (size_t)c->h < n) {
    unsigned char *b = realloc(c->bits, n);
    signed char *s;
    unsigned long long *o;
    if (b == NULL) goto fail;
    c->bits = b;
    s = realloc(c->series, n);
    if (s == NULL) goto fail;
    c->series = s;
    o = realloc(c->own, n * sizeof *o);
    if (o == NULL) goto fail;
    c->own = o;
  }
  c->w = w;
  c->h = h;
  c->mode = mode;
  cv_clear(c);
  return 0;
fail:
  cv_fini(c);
  return -1;
}

void cv_fini (cv_canvas *c)
{
  free(c->bits);
  free(c->series);
  free(c->own);
  memset(c, 0, sizeof *c);
}

static void cv_clear (cv_canvas *c)
{
  size_t n = (size_t)c->w * (size_t)c->h;
  if (c->bits == NULL) return;
  memset(c->bits, 0, n);
  memset(c->series, -1, n);
  memset(c->own, 0, n * sizeof *c->own);
}

int cv_dotw (const cv_canvas *c)
{
  return c->mode == CV_BRAILLE ? 2 * c->w : c->w;
}

int cv_doth (const cv_canvas *c)
{
  return c->mode == CV_BRAILLE ? 4 * c->h : c->h;
}

void cv_dot (cv_canvas *c, int x, int y, int s)
{
  int col, row;
  size_t i;
  if (c->bits == NULL || x < 0 || y < 0 || x >= cv_dotw(c) || y >= cv_doth(c))
    return;
  if (c->mode == CV_BRAILLE) {
    col = x / 2;
    row = y / 4;
    i = (size_t)row * (size_t)c->w + (size_t)col;
    c->bits[i] |= braille_bit[x % 2][y % 4];
  } else {
    i = (size_t)y * (size_t)c->w + (size_t)x;
    c->bits[i] = 1;
  }
  c->series[i] = (signed char)s;
  if (s >= 0 && s < 64) c->own[i] |= 1ull << s;
}

/* Bresenham over the whole segment; cv_dot clips.  Segments are at most a
** few hundred dots long (both ends are clamped by the caller's mapping),
** so clipping per dot is cheap enough. */
void cv_line (cv_canvas *c, int x0, int y0, int x1, int y1, int s)
{
  int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
  int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
  int err = dx + dy;
  for (;;) {
    int e2;
    cv_dot(c, x0, y0, s);
    if (x0 == x1 && y0 == y1) break;
    e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

unsigned long long cv_owners (const cv_canvas *c, int col, int row)
{
  if (c->own == NULL || col < 0 || row < 0 || col >= c->w || row >= c->h)
    return 0;
  return c->own[(size_t)row * (size_t)c->w + (size_t)col];
}

char cv_marker (int s)
{
  if (s < 0) return ' ';
  return pl_pal_glyph(s);
}

unsigned cv_cell (const cv_canvas *c, int col, int row, int *s)
{
  size_t i;
  *s = -1;
  if (c->bits == NULL || col < 0 || row < 0 || col >= c->w || row >= c->h)
    return 0;
  i = (size_t)row * (size_t)c->w + (size_t)col;
  if (c->bits[i] == 0) return 0;
  *s = c->series[i];
  if (c->mode == CV_BRAILLE) return 0x2800u + c->bits[i];
  return (unsigned char)cv_marker(*s);
}

int cv_utf8 (unsigned u, char *buf)
{
  if (u < 0x80) {
    buf[0] = (char)u;
    return 1;
  } else if (u < 0x800) {
    buf[0] = (char)(0xC0 | (u >> 6));
    buf[1] = (char)(0x80 | (u & 0x3F));
    return 2;
  } else if (u < 0x10000) {
    buf[0] = (char)(0xE0 | (u >> 12));
    buf[1] = (char)(0x80 | ((u >> 6) & 0x3F));
    buf[2] = (char)(0x80 | (u & 0x3F));
    return 3;
  }
  buf[0] = (char)(0xF0 | (u >> 18));
  buf[1] = (char)(0x80 | ((u >> 12) & 0x3F));
  buf[2] = (char)(0x80 | ((u >> 6) & 0x3F));
  buf[3] = (char)(0x80 | (u & 0x3F));
  return 4;
}

/* -- scales and ticks ---------------------------------------------------- */

double cv_nice_up (double x)
{
  double p, m;
  if (!(x > 0) || !isfinite(x)) return 1;
  p = pow(10, floor(log10(x)));
  m = x / p;
  if (m <= 1 + 1e-9) m = 1;
  else if (m <= 2 + 1e-9) m = 2;
  else if (m <= 5 + 1e-9) m = 5;
  else m = 10;
  return m * p;
}

/* Nice bounds around [a, b] in axis units. */
static void snap (const cv_scale *s, double a, double b, double *lo,
                  double *hi)
{
  if (s->log) {
    *lo = floor(a);
    *hi = ceil(b);
    if (*hi <= *lo) *hi = *lo + 1;
  } else {
    double step;
    if (b <= a) {
      double d = a != 0 ? fabs(a) * 0.1 : 1;
      a -= d;
      b += d;
    }
    step = cv_nice_up((b - a) / 4);
    *lo = floor(a / step) * step;
    *hi = ceil(b / step) * step;
    if (*hi <= *lo) *hi = *lo + step;
  }
}

void cv_scale_fit (cv_scale *s, int log, double dmin, double dmax)
{
  double a, b;
  if (!isfinite(dmin) || !isfinite(dmax) || dmin > dmax) return;
  if (log) {
    if (!(dmin > 0)) return;
    a = log10(dmin);
    b = log10(dmax);
  } else {
    a = dmin;
    b = dmax;
  }
  if (!s->valid || s->log != log) {
    s->valid = 1;
    s->log = log;
    snap(s, a, b, &s->lo, &s->hi);
  } else if (a < s->lo || b > s->hi) {
    snap(s, a < s->lo ? a : s->lo, b > s->hi ? b : s->hi, &s->lo, &s->hi);
  } else if (b - a < 0.25 * (s->hi - s->lo) && (!log || s->hi - s->lo > 2)) {
    snap(s, a, b, &s->lo, &s->hi);
  }
}

double cv_scale_pos (const cv_scale *s, double v)
{
  double u;
  if (!isfinite(v) || !s->valid) return NAN;
  if (s->log) {
    if (!(v > 0)) return NAN;
    u = log10(v);
  } else {
    u = v;
  }
  return (u - s->lo) / (s->hi - s->lo);
}

int cv_ticks (const cv_scale *s, int max, double *out)
{
  int n = 0;
  if (!s->valid || max < 1) return 0;
  if (s->log) {
    long d0 = (long)ceil(s->lo - 1e-9), d1 = (long)floor(s->hi + 1e-9), d;
    long k = (long)cv_nice_up((double)((d1 - d0) / max + 1));
    for (d = d0; d <= d1 && n < max; d++)
      if (((d % k) + k) % k == 0) out[n++] = pow(10, (double)d);
  } else {
    double step = cv_nice_up((s->hi - s->lo) / max);
    long k0, k1, k;
    for (;;) {
      k0 = (long)ceil(s->lo / step - 1e-9);
      k1 = (long)floor(s->hi / step + 1e-9);
      if (k1 - k0 + 1 <= max) break;
      step = cv_nice_up(step * 1.5);
    }
    for (k = k0; k <= k1; k++) out[n++] = (double)k * step;
  }
  return n;
}

/* Drop the exponent's '+' and leading zeros: "1e+05" -> "1e5". */
static void squeeze_exponent (char *b)
{
  char *e = strchr(b, 'e'), *p, *q;
  if (e == NULL) return;
  p = e + 1;
  q = p;
  if (*q == '+') q++;
  else if (*q == '-') *p++ = *q++;
  while (*q == '0' && q[1] != '\0') q++;
  memmove(p, q, strlen(q) + 1);
}

void cv_fmt (double v, char *buf, size_t size, int width)
{
  int prec;
  if (v == 0) v = 0;   /* no "-0" */
  for (prec = 4; prec >= 1; prec--) {
    snprintf(buf, size, "%.*g", prec, v);
    squeeze_exponent(buf);
    if ((int)strlen(buf) <= width) return;
  }
  if ((int)strlen(buf) > width && (size_t)width < size) buf[width] = '\0';
}
