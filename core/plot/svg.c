/*
** core/plot/svg.c -- the SVG figure of r:plot{file = ...}: a title, a
** legend of one swatch per run above the panels (never over data), then
** the panels in one or two columns, each a <g class="panel"> drawn by its
** kind's draw_svg (panel.h), with one <path class="series"> per run.
** Rendered into a pl_buf (see plot.h); lua/lplot.c writes the file.
** Here: the figure and the pieces the kinds' SVG drawers share (tick
** labels, titles, 2-D window axes; panelpriv.h).
**
** Ticks: one notation per axis (pl_ticksci), the x axis of seconds in ms,
** s or min (pl_timeunit).  Log axes: values a log y axis cannot show (<= 0,
** below PN_TINY) are triangles on the bottom edge (class "floor"), and
** a log x axis starts at 1 (line.c).  The simplex panel stars a game's
** known equilibria (class "nash", keyed "Nash" beside the panel's title)
** and is the unit square (x1, y1) for two 2-action players
** (data-view="square"; simplex.c).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ol.h"
#include "panelpriv.h"

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

void pl_title (pl_buf *f, pl_box b, const char *t)
{
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", b.x,
              b.y - 8);
  pl_buf_addxml(f, t);
  pl_buf_adds(f, "</text>\n");
}

/* The mark of a divergent transition at (x, y). */
void pl_divmark (pl_buf *f, double x, double y)
{
  pl_buf_addf(f, "<path class=\"divergent\" d=\"M%.1f %.1fl6 6m0 -6l-6 6\" "
              "stroke=\"#d00\" stroke-width=\"1.5\"/>\n", x - 3, y - 3);
}

/* Frame, ticks and coordinate names of a 2-D panel over win: ticks at
** nice numbers (cv_ticks: multiples of 1, 2 or 5 x 10^k inside the
** window), at most one per 45 units across and per 28 up, one notation per
** axis; "x1" below, "x2" upright left of the tick labels. */
void pl_winaxes (pl_buf *f, pl_box b, const double *win)
{
  double tv[16];
  char lab[32];
  int a, i, n, sci;
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
              "class=\"frame\"/>\n", b.x, b.y, b.w, b.h);
  for (a = 0; a < 2; a++) {
    cv_scale s;
    int max = (int)(a == 0 ? b.w / 45 : b.h / 28);
    s.valid = 1;
    s.log = 0;
    s.lo = win[2 * a];
    s.hi = win[2 * a + 1];
    n = cv_ticks(&s, max < 2 ? 2 : max > 16 ? 16 : max, tv);
    sci = pl_ticksci(tv, n);
    for (i = 0; i < n; i++) {
      double u = (tv[i] - s.lo) / (s.hi - s.lo);
      pl_tickfmt(tv[i], sci, lab, sizeof lab);
      if (a == 0)
        pl_buf_addf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                    "y2=\"%.1f\" stroke=\"#444\"/><text x=\"%.1f\" "
                    "y=\"%.1f\" class=\"xtick\">%s</text>\n", b.x + u * b.w,
                    b.y + b.h, b.x + u * b.w, b.y + b.h + 4, b.x + u * b.w,
                    b.y + b.h + 15, lab);
      else
        pl_buf_addf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                    "y2=\"%.1f\" stroke=\"#444\"/><text x=\"%.1f\" "
                    "y=\"%.1f\" class=\"ytick\">%s</text>\n", b.x - 4,
                    b.y + (1 - u) * b.h, b.x, b.y + (1 - u) * b.h, b.x - 6,
                    b.y + (1 - u) * b.h + 4, lab);
    }
  }
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\" "
              "style=\"text-anchor:middle\">x1</text><text x=\"%.1f\" "
              "y=\"%.1f\" class=\"ylabel\" style=\"text-anchor:middle\" "
              "transform=\"rotate(-90 %.1f %.1f)\">x2</text>\n",
              b.x + b.w / 2, b.y + b.h + 30, b.x - 48, b.y + b.h / 2,
              b.x - 48, b.y + b.h / 2);
}

void pl_svg_head (pl_buf *f, int width, int height)
{
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
  pl_svg_head(f, width, height);
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
                pl_palette[k % PL_NPAL], lx + 22, ly + 4);
    pl_buf_addxml(f, lab);
    pl_buf_adds(f, "</text></g>\n");
    lx += w;
  }
  /* (2) panels */
  for (i = 0; i < pl->npanels; i++) {
    pl_box b;
    int kind = pl->panels[i];
    const pn_kind *pk;
    b.x = (i % ncol) * cw + 62;
    b.y = top + (i / ncol) * ch + 24;
    b.w = cw - 62 - 18;
    b.h = ch - 24 - 36;
    pk = pn_kind_of(kind);
    if (pk != NULL) pk->draw_svg(f, pl, kind, b);
  }
  pl_buf_adds(f, "</svg>\n");
  return f->oom ? -1 : 0;
}
