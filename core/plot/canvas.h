/*
** core/plot/canvas.h -- a dot canvas for terminal plots, plus axis scaling
** and "nice" tick computation.  No curses: the view (repl/) turns cells into
** glyphs, and a text renderer (or a test) can read the same cells.
**
** A canvas is w x h character cells.  In braille mode each cell holds a
** 2 x 4 grid of dots (Unicode U+2800 block), so the dot grid is 2w x 4h;
** in ASCII mode each cell is one dot and shows a per-series marker
** ('.', '*', 'o', '+', 'x', ...).  Dot (0, 0) is the top-left corner.
** Every lit cell remembers the series that drew it last (its colour),
** and which of the series 0..63 drew there at all (cv_owners).
**
** A scale maps data values to dot rows, linear or log10, and is "stable":
** it snaps to nice bounds and only changes when the data leave the range
** or shrink to a small part of it, so plots do not jitter frame to frame.
*/
#ifndef OLUA_CANVAS_H
#define OLUA_CANVAS_H

#include <stddef.h>

enum { CV_BRAILLE, CV_ASCII };

typedef struct cv_canvas {
  int w, h;               /* cells */
  int mode;               /* CV_BRAILLE or CV_ASCII */
  unsigned char *bits;    /* w * h braille dot masks (ASCII: 0 or 1) */
  signed char *series;    /* w * h: last series drawn there, -1 none */
  unsigned long long *own; /* w * h: bit s set when series s < 64 drew
                              there (cv_owners) */
} cv_canvas;

/* Set c up for w x h cells (w, h >= 1), reusing its memory; returns 0, or
** -1 out of memory (c is then empty).  A zeroed cv_canvas is valid input;
** cv_fini releases the memory. */
int cv_init (cv_canvas *c, int w, int h, int mode);
void cv_fini (cv_canvas *c);

/* Size of the dot grid. */
int cv_dotw (const cv_canvas *c);
int cv_doth (const cv_canvas *c);

/* Light one dot for series s (0..127); dots outside are ignored. */
void cv_dot (cv_canvas *c, int x, int y, int s);
/* A straight line of dots from (x0, y0) to (x1, y1) inclusive (Bresenham),
** clipped to the canvas. */
void cv_line (cv_canvas *c, int x0, int y0, int x1, int y1, int s);

/* The glyph of cell (col, row) as a Unicode code point (0 when empty) and
** its series (*s, -1 when empty).  ASCII mode gives cv_marker(series). */
unsigned cv_cell (const cv_canvas *c, int col, int row, int *s);
/* The series 0..63 that lit dots in cell (col, row), bit s for series s
** (0 outside or empty): a panel can share a cell among several runs. */
unsigned long long cv_owners (const cv_canvas *c, int col, int row);
/* The ASCII marker of series s (palette.h's pl_pal_glyph: PL_NPAL
** distinct marks, one per run colour). */
char cv_marker (int s);
/* UTF-8 encoding of code point u into buf (>= 4 bytes); returns length. */
int cv_utf8 (unsigned u, char *buf);

/* -- scales and ticks ---------------------------------------------------- */

typedef struct cv_scale {
  int valid;              /* 0 until the first fit */
  int log;                /* log10 axis */
  double lo, hi;          /* bounds, in axis units (log10 of data if log) */
} cv_scale;

/* Fit s to data in [dmin, dmax] (data units; both > 0 when log).  The
** first fit, a switch of log, or data spanning under a quarter of the
** range snap the range to nice bounds around the data; data outside the
** range expand it (to nice bounds); otherwise the range is kept. */
void cv_scale_fit (cv_scale *s, int log, double dmin, double dmax);
/* Map v (data units) to [0, 1] along the axis: 0 at lo, 1 at hi; NAN for
** a value the axis cannot show (non-finite, or <= 0 on a log axis). */
double cv_scale_pos (const cv_scale *s, double v);

/* Up to max tick values (data units) between lo and hi (axis units of a
** scale): multiples of 1, 2 or 5 x 10^k on a linear axis, whole decades
** (every k-th when there are too many) on a log axis.  Returns the count. */
int cv_ticks (const cv_scale *s, int max, double *out);
/* A nice number >= x (> 0): 1, 2, 5 x 10^k. */
double cv_nice_up (double x);

/* Short %g-style label of v in buf (at most width chars, width >= 5):
** "0", "0.25", "1.5e-5", "12000", "1e+12" -> "1e12". */
void cv_fmt (double v, char *buf, size_t size, int width);

#endif
