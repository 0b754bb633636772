/*
** core/plot/sweep.c -- the figures of a parameter sweep (s:plot of
** lua/sweep.lua): the final value of each watched metric against one
** parameter, one curve per combination of the other parameters (the
** "xy" figure), and the heat map of the final value over the grid of two
** parameters (the "heat" figure), each as SVG and as text (pl_sweep_svg,
** pl_sweep_text; plot.h).  The numbers are the caller's (the runs' last
** values); here they are only placed.
**
** Axes.  x is log10 when every x value is positive and they span at least
** 10x; y (xy) and the colour scale (heat) are log10 when every finite value
** is positive and they span at least 100x; pl_sweep's xlog and ylog
** override (a log axis is never forced onto a value <= 0: it stays
** linear).  A configuration flagged diverged, or whose value is not
** finite, is not a point and never sets a range: on the xy figure it is a
** triangle on the top edge at its x in its curve's colour (class
** "diverged"; the curves' marks at one x side by side; text U+25B2 or
** '^'), on the heat map a grey crossed cell
** (text: "nan", "inf" or "div").
** The heat map's axes are its grid: one column per distinct x value, one
** row per distinct y value (smallest at the bottom), whatever their
** spacing.
**
** SVG hooks for tests and tools: each panel a <g class="panel"
** data-kind="sweep" | "heat" data-metric=...>; on the xy figure each curve
** a <path class="series" data-curve="(its label)">, each point a <circle
** class="point" data-x data-y> (%.17g); on the heat map each cell a <rect
** class="cell" data-x data-y data-value> and the best cell (the smallest
** finite value, the first configuration on ties: s:best's rule) a <rect
** class="best">.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "panelpriv.h"

#define MAXTICKS 16

/* One configuration in drawing order: curve g, then x, then build order. */
typedef struct ent {
  int g, i;
  double x;
} ent;

static int byent (const void *pa, const void *pb)
{
  const ent *a = pa, *b = pb;
  if (a->g != b->g) return a->g < b->g ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* Value of metric j at configuration i. */
static double val (const pl_sweep *s, int j, int i)
{
  return s->v[(size_t)j * (size_t)s->n + (size_t)i];
}

/* 1 when configuration i is drawn as a point (value finite, not
** diverged, coordinates finite). */
static int isok (const pl_sweep *s, int j, int i)
{
  return isfinite(val(s, j, i)) && (s->div == NULL || !s->div[i])
    && isfinite(s->x[i]) && (s->y == NULL || isfinite(s->y[i]));
}

/* Axis kind for values in [lo, hi]: want (-1 auto, 0, 1), log needing
** lo > 0, auto log when hi >= ratio * lo. */
static int uselog (int want, double lo, double hi, double ratio)
{
  if (!(lo > 0) || !isfinite(hi)) return 0;
  if (want >= 0) return want;
  return hi >= ratio * lo;
}

/* Extent of the x values (every configuration with a finite x). */
static int xextent (const pl_sweep *s, const double *x, double *lo,
                    double *hi)
{
  int i, any = 0;
  *lo = INFINITY;
  *hi = -INFINITY;
  for (i = 0; i < s->n; i++) {
    if (!isfinite(x[i])) continue;
    any = 1;
    if (x[i] < *lo) *lo = x[i];
    if (x[i] > *hi) *hi = x[i];
  }
  return any;
}

/* Extent of the drawn values of metric j; the count of configurations
** not drawn (diverged or non-finite) into *ndiv. */
static int yextent (const pl_sweep *s, int j, double *lo, double *hi,
                    int *ndiv)
{
  int i, any = 0;
  *lo = INFINITY;
  *hi = -INFINITY;
  *ndiv = 0;
  for (i = 0; i < s->n; i++) {
    double v = val(s, j, i);
    if (!isok(s, j, i)) {
      *ndiv += isfinite(s->x[i]);
      continue;
    }
    any = 1;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
  return any;
}

/* The configurations in drawing order (caller frees); NULL out of memory. */
static ent *order (const pl_sweep *s)
{
  ent *e = malloc((size_t)(s->n > 0 ? s->n : 1) * sizeof *e);
  int i;
  if (e == NULL) return NULL;
  for (i = 0; i < s->n; i++) {
    e[i].g = s->group != NULL ? s->group[i] : 0;
    e[i].i = i;
    e[i].x = s->x[i];
  }
  qsort(e, (size_t)s->n, sizeof *e, byent);
  return e;
}

/* Scale of an axis over [lo, hi] as cv_scale_fit snaps it. */
static void fitscale (cv_scale *sc, int log, double lo, double hi)
{
  memset(sc, 0, sizeof *sc);
  cv_scale_fit(sc, log, lo, hi);
}

/* The best configuration of metric j: smallest drawn value, the first on
** ties; -1 when none is drawn. */
static int best (const pl_sweep *s, int j)
{
  int i, b = -1;
  for (i = 0; i < s->n; i++)
    if (isok(s, j, i) && (b < 0 || val(s, j, i) < val(s, j, b))) b = i;
  return b;
}

static int bydouble (const void *pa, const void *pb)
{
  double a = *(const double *)pa, b = *(const double *)pb;
  return a < b ? -1 : a > b;
}

/* Sorted distinct finite values of v[0..n) into u (n slots): the count. */
static int uniq (const double *v, int n, double *u)
{
  int i, k = 0, m = 0;
  for (i = 0; i < n; i++)
    if (isfinite(v[i])) u[k++] = v[i];
  qsort(u, (size_t)k, sizeof *u, bydouble);
  for (i = 0; i < k; i++)
    if (m == 0 || u[i] != u[m - 1]) u[m++] = u[i];
  return m;
}

/* Index of v in the sorted distinct values u[0..n), -1 if absent. */
static int slot (const double *u, int n, double v)
{
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (u[mid] == v) return mid;
    if (u[mid] < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* The colour of t in [0, 1] on viridis (9 stops, linear between them:
** dark blue-violet low, yellow high; readable in grey and by the colour
** blind). */
static unsigned ramp_rgb (double t)
{
  static const unsigned stop[9] = {
    0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962,
    0xaddc30, 0xfde725
  };
  double u;
  int k, c;
  unsigned out = 0;
  if (!(t > 0)) t = 0;
  if (t > 1) t = 1;
  u = t * 8;
  k = (int)u;
  if (k > 7) k = 7;
  u -= k;
  for (c = 16; c >= 0; c -= 8) {
    double a = (stop[k] >> c) & 0xff, b = (stop[k + 1] >> c) & 0xff;
    out |= (unsigned)lround(a + u * (b - a)) << c;
  }
  return out;
}

/* Position of v in [0, 1] on the colour scale sc (clamped). */
static double rampos (const cv_scale *sc, double v)
{
  double t = cv_scale_pos(sc, v);
  return isnan(t) ? 0 : t < 0 ? 0 : t > 1 ? 1 : t;
}

/* The colour scale of metric j: exactly the drawn values' range (log or
** not), so the colours use the whole ramp. */
static int colourscale (const pl_sweep *s, int j, cv_scale *sc, int *ndiv)
{
  double lo, hi;
  memset(sc, 0, sizeof *sc);
  if (!yextent(s, j, &lo, &hi, ndiv)) return 0;
  sc->valid = 1;
  sc->log = uselog(s->ylog, lo, hi, 100);
  sc->lo = sc->log ? log10(lo) : lo;
  sc->hi = sc->log ? log10(hi) : hi;
  if (!(sc->hi > sc->lo)) sc->hi = sc->lo + (sc->log ? 1 : sc->lo != 0
                                             ? fabs(sc->lo) * 0.1 : 1);
  return 1;
}

/* "lr=0.5 mu=0.9": configuration i's x (and y) for a note. */
static void cfgname (const pl_sweep *s, int i, char *buf, size_t size)
{
  char a[32], b[32];
  if (s->y != NULL)
    snprintf(buf, size, "%s=%s %s=%s", s->xname, ol_fmtnum(a, sizeof a,
             s->x[i], 4), s->yname, ol_fmtnum(b, sizeof b, s->y[i], 4));
  else snprintf(buf, size, "%s=%s", s->xname, ol_fmtnum(a, sizeof a, s->x[i],
                                                          4));
}

/* Labels of the ticks tv[0..n) in one notation. */
static void ticklabs (const double *tv, int n, char lab[][32])
{
  int i, sci = pl_ticksci(tv, n);
  for (i = 0; i < n; i++) pl_tickfmt(tv[i], sci, lab[i], 32);
}

/* -- SVG ------------------------------------------------------------------ */

/* x of curve g's top-edge mark at x: the ngroups marks spread px apart,
** centred on x, kept inside the frame b. */
static double sidestep (double x, int g, int ngroups, double spread,
                        pl_box b)
{
  double w = (ngroups - 1) * spread, lo = x - w / 2;
  if (lo + w > b.x + b.w) lo = b.x + b.w - w;
  if (lo < b.x) lo = b.x;
  return lo + g * spread;
}

static void svg_xy (pl_buf *f, const pl_sweep *s, int j, const ent *e,
                    pl_box b)
{
  cv_scale xs, ys;
  double lo, hi, tv[MAXTICKS], spread;
  char lab[MAXTICKS][32], t[128];
  int i, k, nt, ndiv, xl = 0, yl = 0, anyy;
  anyy = yextent(s, j, &lo, &hi, &ndiv);
  if (anyy) {
    yl = uselog(s->ylog, lo, hi, 100);
    fitscale(&ys, yl, lo, hi);
  } else memset(&ys, 0, sizeof ys);
  if (xextent(s, s->x, &lo, &hi)) {
    xl = uselog(s->xlog, lo, hi, 10);
    fitscale(&xs, xl, lo, hi);
  } else memset(&xs, 0, sizeof xs);
  snprintf(t, sizeof t, "final %s [%s%s]", s->mname[j], yl ? "log" : "lin",
           xl ? ", log x" : "");
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"sweep\" data-metric=\"");
  pl_buf_addxml(f, s->mname[j]);
  pl_buf_addf(f, "\" data-xlog=\"%d\" data-ylog=\"%d\">\n", xl, yl);
  pl_title(f, b, t);
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
              "class=\"frame\"/>\n", b.x, b.y, b.w, b.h);
  /* (1) ticks: y, then x, each in one notation */
  nt = ys.valid ? cv_ticks(&ys, 6, tv) : 0;
  ticklabs(tv, nt, lab);
  for (i = 0; i < nt; i++) {
    double y = b.y + (1 - cv_scale_pos(&ys, tv[i])) * b.h;
    pl_buf_addf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">"
                "%s</text>\n", b.x, y, b.x + b.w, y, b.x - 4, y + 4, lab[i]);
  }
  nt = xs.valid ? cv_ticks(&xs, 7, tv) : 0;
  ticklabs(tv, nt, lab);
  for (i = 0; i < nt; i++) {
    double x = b.x + cv_scale_pos(&xs, tv[i]) * b.w;
    pl_buf_addf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                "class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">"
                "%s</text>\n", x, b.y, x, b.y + b.h, x, b.y + b.h + 14,
                lab[i]);
  }
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">", b.x + b.w,
              b.y + b.h + 28);
  pl_buf_addxml(f, s->xname);
  pl_buf_addf(f, "%s</text>\n", xl ? " (log)" : "");
  if (!anyy)
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">no finite "
                "final value</text>\n", b.x + 8, b.y + 16);
  if (ndiv > 0)
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\" "
                "style=\"text-anchor:end\">\xe2\x96\xb2 %d diverged (top "
                "edge)</text>\n", b.x + b.w, b.y - 8, ndiv);
  /* (2) per curve: a path through its points in x order (a gap at a
  ** diverged one), a disc at each point, a triangle on the top edge at
  ** each diverged one, set off sideways by curve (spread px apart) so
  ** that curves diverging at one x all show */
  spread = s->ngroups > 1 ? 60.0 / s->ngroups : 0;
  if (spread > 9) spread = 9;
  for (k = 0; k < s->n;) {
    int g = e[k].g, end = k, have = 0;
    const char *col = pl_pal_hex(g);
    while (end < s->n && e[end].g == g) end++;
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" data-curve=\"", col);
    pl_buf_addxml(f, s->glabel != NULL && g < s->ngroups ? s->glabel[g] : "");
    pl_buf_adds(f, "\" d=\"");
    for (i = k; anyy && xs.valid && i < end; i++) {
      int c = e[i].i;
      if (!isok(s, j, c)) {
        have = 0;
        continue;
      }
      pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", b.x
                  + cv_scale_pos(&xs, s->x[c]) * b.w, b.y
                  + (1 - cv_scale_pos(&ys, val(s, j, c))) * b.h);
      have = 1;
    }
    pl_buf_adds(f, "\"/>\n");
    for (i = k; xs.valid && i < end; i++) {
      int c = e[i].i;
      double x = b.x + cv_scale_pos(&xs, s->x[c]) * b.w;
      if (!isfinite(s->x[c])) continue;
      if (isok(s, j, c) && anyy)
        pl_buf_addf(f, "<circle class=\"point\" cx=\"%.2f\" cy=\"%.2f\" "
                    "r=\"3\" fill=\"%s\" data-x=\"%.17g\" data-y=\"%.17g\"/>"
                    "\n", x, b.y + (1 - cv_scale_pos(&ys, val(s, j, c)))
                    * b.h, col, s->x[c], val(s, j, c));
      else if (!isok(s, j, c))
        pl_buf_addf(f, "<path class=\"diverged\" fill=\"%s\" stroke=\"#222\" "
                    "stroke-width=\"0.6\" d=\"M%.2f %.2f l-4.5 8 h9 z\" "
                    "data-x=\"%.17g\" data-value=\"%.17g\"/>\n", col,
                    sidestep(x, g, s->ngroups, spread, b), b.y, s->x[c],
                    val(s, j, c));
    }
    k = end;
  }
  pl_buf_adds(f, "</g>\n");
}

static void svg_heat (pl_buf *f, const pl_sweep *s, int j, const double *ux,
                      int nx, const double *uy, int ny, pl_box b)
{
  cv_scale sc;
  pl_box h = b;
  double tv[MAXTICKS], cw, rh;
  char lab[MAXTICKS][32], t[160], v[32];
  int i, nt, ndiv, bi, step, any, sci;
  any = colourscale(s, j, &sc, &ndiv);
  bi = best(s, j);
  h.w = b.w - 74;
  cw = h.w / nx;
  rh = h.h / ny;
  snprintf(t, sizeof t, "final %s [%s]", s->mname[j], sc.log ? "log"
           : "lin");
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"heat\" data-metric=\"");
  pl_buf_addxml(f, s->mname[j]);
  pl_buf_addf(f, "\" data-clog=\"%d\">\n", sc.log);
  pl_title(f, b, t);
  /* (1) cells: colour of the value, its value written when it fits */
  for (i = 0; i < s->n; i++) {
    int cx = slot(ux, nx, s->x[i]), cy = slot(uy, ny, s->y[i]);
    double x, y, val_ = val(s, j, i);
    if (cx < 0 || cy < 0) continue;
    x = h.x + cx * cw;
    y = h.y + (ny - 1 - cy) * rh;
    if (isok(s, j, i)) {
      double p = rampos(&sc, val_);
      pl_buf_addf(f, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" "
                  "width=\"%.2f\" height=\"%.2f\" fill=\"#%06x\" "
                  "data-x=\"%.17g\" data-y=\"%.17g\" data-value=\"%.17g\"/>\n",
                  x, y, cw, rh, ramp_rgb(p), s->x[i], s->y[i], val_);
      if (cw >= 44 && rh >= 15)
        pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\" "
                    "style=\"text-anchor:middle\" fill=\"%s\">%s</text>\n",
                    x + cw / 2, y + rh / 2 + 3.5, p < 0.6 ? "#fff" : "#000",
                    ol_fmtnum(v, sizeof v, val_, 3));
    }
    else {
      pl_buf_addf(f, "<rect class=\"cell diverged\" x=\"%.2f\" y=\"%.2f\" "
                  "width=\"%.2f\" height=\"%.2f\" fill=\"#ccc\" "
                  "data-x=\"%.17g\" data-y=\"%.17g\" data-value=\"%.17g\"/>"
                  "<path d=\"M%.2f %.2fl%.2f %.2fm0 %.2fl%.2f %.2f\" "
                  "stroke=\"#888\"/>\n", x, y, cw, rh, s->x[i], s->y[i],
                  val_, x, y, cw, rh, -rh, -cw, rh);
    }
  }
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
              "class=\"frame\"/>\n", h.x, h.y, h.w, h.h);
  /* (2) the best cell outlined, named in a note */
  if (bi >= 0) {
    char nm[96];
    int cx = slot(ux, nx, s->x[bi]), cy = slot(uy, ny, s->y[bi]);
    pl_buf_addf(f, "<rect class=\"best\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                "height=\"%.2f\" fill=\"none\" stroke=\"#e00\" "
                "stroke-width=\"2.5\" data-x=\"%.17g\" data-y=\"%.17g\" "
                "data-value=\"%.17g\"/>\n", h.x + cx * cw + 1.25, h.y
                + (ny - 1 - cy) * rh + 1.25, cw - 2.5, rh - 2.5, s->x[bi],
                s->y[bi], val(s, j, bi));
    cfgname(s, bi, nm, sizeof nm);
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\" "
                "fill=\"#e00\">best %s at ", h.x, h.y + h.h + 28,
                ol_fmtnum(v, sizeof v, val(s, j, bi), 4));
    pl_buf_addxml(f, nm);
    pl_buf_addf(f, "%s</text>\n", ndiv > 0 ? " (grey: diverged)" : "");
  }
  /* (3) axes: a label per column and row (every step-th when crowded) */
  sci = pl_ticksci(ux, nx);
  step = (int)ceil(44 / cw);
  for (i = 0; i < nx; i += step > 0 ? step : 1) {
    pl_tickfmt(ux[i], sci, lab[0], sizeof lab[0]);
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">%s</text>\n",
                h.x + (i + 0.5) * cw, h.y + h.h + 14, lab[0]);
  }
  sci = pl_ticksci(uy, ny);
  step = (int)ceil(14 / rh);
  for (i = 0; i < ny; i += step > 0 ? step : 1) {
    pl_tickfmt(uy[i], sci, lab[0], sizeof lab[0]);
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">%s</text>\n",
                h.x - 4, h.y + (ny - 1 - i + 0.5) * rh + 4, lab[0]);
  }
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">", h.x + h.w,
              h.y + h.h + 28);
  pl_buf_addxml(f, s->xname);
  pl_buf_addf(f, "</text>\n<text x=\"%.1f\" y=\"%.1f\" class=\"ylabel\" "
              "style=\"text-anchor:middle\" transform=\"rotate(-90 %.1f "
              "%.1f)\">", h.x - 48, h.y + h.h / 2, h.x - 48, h.y + h.h / 2);
  pl_buf_addxml(f, s->yname);
  pl_buf_adds(f, "</text>\n");
  /* (4) colour key: the ramp in 32 bands, ticks at nice values */
  if (any) {
    double kx = h.x + h.w + 14, kw = 12;
    pl_buf_adds(f, "<g class=\"key\">\n");
    for (i = 0; i < 32; i++)
      pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" "
                  "height=\"%.2f\" fill=\"#%06x\"/>\n", kx, h.y + h.h
                  - (i + 1) * h.h / 32, kw, h.h / 32 + 0.3,
                  ramp_rgb((i + 0.5) / 32));
    pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                "class=\"frame\"/>\n", kx, h.y, kw, h.h);
    nt = cv_ticks(&sc, 6, tv);
    ticklabs(tv, nt, lab);
    for (i = 0; i < nt; i++) {
      double y = h.y + (1 - rampos(&sc, tv[i])) * h.h;
      pl_buf_addf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                  "stroke=\"#444\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                  kx + kw, y, kx + kw + 3, y, kx + kw + 5, y + 4, lab[i]);
    }
    pl_buf_adds(f, "</g>\n");
  }
  pl_buf_adds(f, "</g>\n");
}

int pl_sweep_svg (const pl_sweep *s, int width, int height, pl_buf *f)
{
  int ncol, nrow, i, k, lrows = 0, legend;
  double cw, ch, top, lx;
  double *ux = NULL, *uy = NULL;
  int nx = 0, ny = 0;
  ent *e = order(s);
  if (s->y != NULL) {
    ux = malloc((size_t)(s->n + 1) * sizeof *ux);
    uy = malloc((size_t)(s->n + 1) * sizeof *uy);
    if (ux != NULL && uy != NULL) {
      nx = uniq(s->x, s->n, ux);
      ny = uniq(s->y, s->n, uy);
    }
  }
  if (e == NULL || (s->y != NULL && (ux == NULL || uy == NULL))) {
    free(e);
    free(ux);
    free(uy);
    return -1;
  }
  ncol = s->nm > 1 && width >= 600 ? 2 : 1;
  nrow = (s->nm + ncol - 1) / ncol;
  /* a legend of the curves when there are several (or a named one) */
  legend = s->y == NULL && s->glabel != NULL && (s->ngroups > 1
           || (s->ngroups == 1 && s->glabel[0][0] != '\0'));
  lx = 10;
  for (k = 0; legend && k < s->ngroups; k++) {
    double w = 44 + 6.5 * (double)strlen(s->glabel[k]);
    if (lx + w > width - 10 && lx > 10) {
      lrows++;
      lx = 10;
    }
    lx += w;
  }
  top = 34 + 16 * lrows;
  cw = (double)width / ncol;
  ch = (height - top) / nrow;
  pl_svg_head(f, width, height);
  pl_buf_adds(f, "<text x=\"10\" y=\"16\" class=\"title\">");
  pl_buf_addxml(f, s->title != NULL ? s->title : "");
  pl_buf_adds(f, "</text>\n");
  lx = 10;
  lrows = 0;
  for (k = 0; legend && k < s->ngroups; k++) {
    double w = 44 + 6.5 * (double)strlen(s->glabel[k]), ly;
    if (lx + w > width - 10 && lx > 10) {
      lrows++;
      lx = 10;
    }
    ly = 27 + 16 * lrows;
    pl_buf_addf(f, "<g class=\"legend\"><line x1=\"%.1f\" y1=\"%.1f\" "
                "x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>"
                "<text x=\"%.1f\" y=\"%.1f\">", lx, ly, lx + 18, ly,
                pl_pal_hex(k), lx + 22, ly + 4);
    pl_buf_addxml(f, s->glabel[k]);
    pl_buf_adds(f, "</text></g>\n");
    lx += w;
  }
  for (i = 0; i < s->nm; i++) {
    pl_box b;
    b.x = (i % ncol) * cw + 62;
    b.y = top + (i / ncol) * ch + 24;
    b.w = cw - 62 - 18;
    b.h = ch - 24 - 36;
    if (s->y != NULL && nx > 0 && ny > 0)
      svg_heat(f, s, i, ux, nx, uy, ny, b);
    else if (s->y == NULL) svg_xy(f, s, i, e, b);
  }
  pl_buf_adds(f, "</svg>\n");
  free(e);
  free(ux);
  free(uy);
  return f->oom ? -1 : 0;
}

/* -- text ----------------------------------------------------------------- */

typedef struct textfig {
  const pl_sweep *s;
  ent *e;                 /* owned: order(s) */
  const double *ux, *uy;
  int nx, ny;
} textfig;

/* Dot of (x, v) on a canvas of dw x dh dots; 0 when not drawable. */
static int todot (const cv_scale *xs, const cv_scale *ys, int dw, int dh,
                  double x, double v, int *dx, int *dy)
{
  double px = cv_scale_pos(xs, x), py = ys != NULL ? cv_scale_pos(ys, v) : 1;
  if (isnan(px) || isnan(py)) return 0;
  px = px < 0 ? 0 : px > 1 ? 1 : px;
  py = py < 0 ? 0 : py > 1 ? 1 : py;
  *dx = (int)lround(px * (dw - 1));
  *dy = (int)lround((1 - py) * (dh - 1));
  return 1;
}

static void cells_xy (const textfig *tf, int j, const pn_out *o,
                      char *title, size_t tsize, char *xt, size_t xsize)
{
  const pl_sweep *s = tf->s;
  const ent *e = tf->e;
  cv_scale xs, ys;
  pn_legend lg;
  double lo, hi, tv[MAXTICKS];
  char lab[24];
  int i, k, nt, ndiv, xl = 0, yl = 0, anyy, lrows = 0, ncols = 1, colw = 0;
  int axc = o->x + YLAB, px = axc + 1, pw = o->x + o->w - px, ph, dw, dh;
  int row, col, last = -1, end;
  anyy = yextent(s, j, &lo, &hi, &ndiv);
  memset(&ys, 0, sizeof ys);
  memset(&xs, 0, sizeof xs);
  if (anyy) {
    yl = uselog(s->ylog, lo, hi, 100);
    fitscale(&ys, yl, lo, hi);
  }
  if (xextent(s, s->x, &lo, &hi)) {
    xl = uselog(s->xlog, lo, hi, 10);
    fitscale(&xs, xl, lo, hi);
  }
  snprintf(title, tsize, "final %s [%s%s]", s->mname[j], yl ? "log" : "lin",
           xl ? ", log x" : "");
  snprintf(xt, xsize, " %s%s ", s->xname, xl ? " (log)" : "");
  /* (1) legend: the curves (when several or named), the diverged count */
  memset(&lg, 0, sizeof lg);
  for (k = 0; s->glabel != NULL && k < s->ngroups
       && (s->ngroups > 1 || s->glabel[0][0] != '\0'); k++)
    pn_leg_add(&lg, s->glabel[k], "", DOT, cv_marker(k), k);
  if (ndiv > 0) {
    snprintf(lg.extra, sizeof lg.extra, "%s %d diverged (top edge)", o->utf8
             ? "\xe2\x96\xb2" : "^", ndiv);
    lg.xrole = PN_DIVERGENT;
  }
  if (o->h - 2 - 3 >= 1)
    lrows = pn_leg_layout(&lg, o->w - 1, (o->h - 2) / 3 > 1 ? (o->h - 2) / 3
                          : 1, &ncols, &colw);
  ph = o->h - 2 - lrows;
  if (pw < 4 || ph < 1 || cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE
                                  : CV_ASCII) != 0)
    return;
  dw = cv_dotw(o->cv);
  dh = cv_doth(o->cv);
  /* (2) curves: lines between consecutive points, then a mark at each
  ** point and a triangle on the top row for each diverged one */
  for (k = 0; anyy && xs.valid && k < s->n;) {
    int g = e[k].g, have = 0, qx = 0, qy = 0, ax, ay;
    for (end = k; end < s->n && e[end].g == g; end++) {
      int c = e[end].i;
      if (!isok(s, j, c) || !todot(&xs, &ys, dw, dh, s->x[c], val(s, j, c),
                                   &ax, &ay)) {
        have = 0;
        continue;
      }
      if (have) cv_line(o->cv, qx, qy, ax, ay, g);
      else cv_dot(o->cv, ax, ay, g);
      qx = ax;
      qy = ay;
      have = 1;
    }
    k = end;
  }
  for (row = 0; row < ph; row++)
    for (col = 0; col < pw; col++) {
      int sr;
      unsigned u = cv_cell(o->cv, col, row, &sr);
      if (u != 0) o->put(o->ud, o->y + row, px + col, u, cv_marker(sr), sr);
    }
  for (k = 0; xs.valid && k < s->n; k++) {
    int c = e[k].i, ax, ay;
    if (isok(s, j, c) && anyy
        && todot(&xs, &ys, dw, dh, s->x[c], val(s, j, c), &ax, &ay))
      o->put(o->ud, o->y + ay / (dh / ph), px + ax / (dw / pw), DOT,
             cv_marker(e[k].g), e[k].g);
    else if (!isok(s, j, c)
             && todot(&xs, NULL, dw, dh, s->x[c], 0, &ax, &ay))
      o->put(o->ud, o->y, px + ax / (dw / pw), PN_CHGMARK, '^',
             PN_DIVERGENT);
  }
  /* (3) y axis */
  for (i = 0; i < ph; i++) o->put(o->ud, o->y + i, axc, 0x2502, '|', PN_AXIS);
  nt = ys.valid ? cv_ticks(&ys, ph / 2 > 2 ? (ph / 2 < MAXTICKS ? ph / 2
                                              : MAXTICKS) : 2, tv) : 0;
  for (i = 0; i < nt; i++) {
    double pos = cv_scale_pos(&ys, tv[i]);
    if (isnan(pos)) continue;
    row = (int)lround((1 - pos) * (dh - 1)) / (dh / ph);
    if (row < 0 || row >= ph || row == last) continue;
    last = row;
    cv_fmt(tv[i], lab, sizeof lab, YLAB - 1);
    pn_puts_at(o, o->y + row, axc - (int)strlen(lab), lab, YLAB, PN_AXIS);
    o->put(o->ud, o->y + row, axc, 0x2524, '+', PN_AXIS);
  }
  if (!anyy)
    pn_puts_at(o, o->y + (ph > 1 ? 1 : 0), px + 1, "no finite final value",
               pw - 1, PN_AXIS);
  /* (4) x axis: ticks at nice values, no label cut or overlapping */
  o->put(o->ud, o->y + ph, axc, 0x2514, '+', PN_AXIS);
  for (i = 0; i < pw; i++)
    o->put(o->ud, o->y + ph, px + i, 0x2500, '-', PN_AXIS);
  nt = xs.valid ? cv_ticks(&xs, pw / 10 > 2 ? (pw / 10 < MAXTICKS ? pw / 10
                                               : MAXTICKS) : 2, tv) : 0;
  end = axc;
  for (i = 0; i < nt; i++) {
    double xp = cv_scale_pos(&xs, tv[i]);
    int c, len, lx;
    if (isnan(xp)) continue;
    c = (int)lround(xp * (dw - 1)) / (dw / pw);
    if (c < 0 || c >= pw) continue;
    o->put(o->ud, o->y + ph, px + c, 0x2534, '+', PN_AXIS);
    cv_fmt(tv[i], lab, sizeof lab, 6);
    len = (int)strlen(lab);
    lx = px + c - len / 2;
    if (lx + len > px + pw) lx = px + pw - len;
    if (lx < px) lx = px;
    if (lx <= end) continue;
    pn_puts_at(o, o->y + ph + 1, lx, lab, len, PN_AXIS);
    end = lx + len;
  }
  if (lrows > 0)
    pn_leg_draw(o, &lg, o->y + ph + 2, o->x + 1, lrows, ncols, colw, 1);
}

static void cells_heat (const textfig *tf, int j, const pn_out *o,
                        char *title, size_t tsize, char *xt, size_t xsize)
{
  const pl_sweep *s = tf->s;
  cv_scale sc;
  char lab[32], cell[32], key[320], nm[96], lo[32], hi[32];
  int i, ndiv, bi, lw = 0, cwid, r, c;
  colourscale(s, j, &sc, &ndiv);
  bi = best(s, j);
  snprintf(title, tsize, "final %s: %s across, %s up [%s]", s->mname[j],
           s->xname, s->yname, sc.log ? "log" : "lin");
  snprintf(xt, xsize, " %s ", s->xname);
  for (i = 0; i < tf->ny; i++) {
    cv_fmt(tf->uy[i], lab, sizeof lab, 6);
    if ((int)strlen(lab) > lw) lw = (int)strlen(lab);
  }
  lw += 1;
  cwid = (o->w - lw) / (tf->nx > 0 ? tf->nx : 1);
  if (cwid > 10) cwid = 10;
  if (tf->nx == 0 || cwid < 8 || tf->ny + 3 > o->h) {
    snprintf(cell, sizeof cell, "%d x %d cells", tf->nx, tf->ny);
    pn_puts_at(o, o->y, o->x + 1, cell, o->w - 1, PN_AXIS);
    pn_puts_at(o, o->y + 1, o->x + 1, "do not fit: give a larger width "
               "and height, or a file", o->w - 1, PN_AXIS);
    return;
  }
  /* (1) rows from the largest y down: label, then per cell a shade of
  ** the ramp, the value, '<' after the best (the ramp has '*') */
  for (r = 0; r < tf->ny; r++) {
    int yi = tf->ny - 1 - r;
    cv_fmt(tf->uy[yi], lab, sizeof lab, 6);
    pn_puts_at(o, o->y + r, o->x + lw - 1 - (int)strlen(lab), lab, lw,
               PN_AXIS);
    for (c = 0; c < tf->nx; c++)
      pn_puts_at(o, o->y + r, o->x + lw + c * cwid + cwid - 2, "-", 1,
                 PN_AXIS);
  }
  for (i = 0; i < s->n; i++) {
    int cx = slot(tf->ux, tf->nx, s->x[i]), cy = slot(tf->uy, tf->ny, s->y[i]);
    char v[16], shade;
    if (cx < 0 || cy < 0) continue;
    if (isok(s, j, i)) {
      int lev = (int)lround(rampos(&sc, val(s, j, i)) * (PN_NLEVELS - 1));
      shade = pn_ramp[lev];
      cv_fmt(val(s, j, i), v, sizeof v, cwid - 3);
    } else {
      shade = ' ';
      snprintf(v, sizeof v, "%s", isnan(val(s, j, i)) ? "nan"
               : isinf(val(s, j, i)) ? "inf" : "div");
    }
    snprintf(cell, sizeof cell, "%c%*s%c", shade, cwid - 2, v,
             i == bi ? '<' : ' ');
    pn_puts_at(o, o->y + tf->ny - 1 - cy, o->x + lw + cx * cwid, cell, cwid,
               PN_HEAT);
  }
  /* (2) the x values under their columns, then the key */
  for (c = 0; c < tf->nx; c++) {
    cv_fmt(tf->ux[c], lab, sizeof lab, cwid - 2);
    pn_puts_at(o, o->y + tf->ny, o->x + lw + c * cwid + cwid - 1
               - (int)strlen(lab), lab, cwid, PN_AXIS);
  }
  if (sc.valid) {
    cv_fmt(sc.log ? pow(10, sc.lo) : sc.lo, lo, sizeof lo, 8);
    cv_fmt(sc.log ? pow(10, sc.hi) : sc.hi, hi, sizeof hi, 8);
  } else snprintf(lo, sizeof lo, "-");
  nm[0] = '\0';
  if (bi >= 0) cfgname(s, bi, nm, sizeof nm);
  snprintf(key, sizeof key, "shade '%s' %s..%s%s; < best %s%s", pn_ramp + 1,
           lo, sc.valid ? hi : "-", sc.log ? " (log)" : "", nm,
           ndiv > 0 ? "; nan/inf/div: diverged" : "");
  pn_puts_at(o, o->y + tf->ny + 1, o->x + 1, key, o->w - 1, PN_AXIS);
}

static void cells (void *ud, int i, const pn_out *o, pn_cache *c,
                   char *title, size_t tsize, char *xt, size_t xsize)
{
  const textfig *tf = ud;
  (void)c;
  if (tf->s->y != NULL) cells_heat(tf, i, o, title, tsize, xt, xsize);
  else cells_xy(tf, i, o, title, tsize, xt, xsize);
}

int pl_sweep_text (const pl_sweep *s, int width, int height, int utf8,
                   pl_buf *out)
{
  textfig tf;
  double *ux = NULL, *uy = NULL;
  int rc = -1;
  memset(&tf, 0, sizeof tf);
  tf.s = s;
  tf.e = order(s);
  if (tf.e == NULL) return -1;
  if (s->y != NULL) {
    ux = malloc((size_t)(s->n + 1) * sizeof *ux);
    uy = malloc((size_t)(s->n + 1) * sizeof *uy);
    if (ux == NULL || uy == NULL) goto done;
    tf.nx = uniq(s->x, s->n, ux);
    tf.ny = uniq(s->y, s->n, uy);
    tf.ux = ux;
    tf.uy = uy;
  }
  rc = pl_text_panels(s->nm, width, height, utf8, cells, &tf, out);
done:
  free(tf.e);
  free(ux);
  free(uy);
  return rc;
}
