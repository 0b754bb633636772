/*
** core/plot/hist.c -- panel kind "hist": a histogram of the final iterate's
** coordinates, pooled over the runs shown (the histogram of Pearson 1895,
** "Contributions to the mathematical theory of evolution II", Phil. Trans.
** A 186): HIST_BINS equal bins over [min, max] of the finite coordinates,
** one bar per bin.  It reads x from the runs (ol_run_x) and only sorts it
** into bins, the cells' and bars' positions.  Available whenever there is
** a run.  (An example of the plug-in contract: tests/extend/ adds it to a
** copy of the tree.)
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ol.h"
#include "panelpriv.h"

#define HIST_BINS 10

/* The counts of the runs' final coordinates in HIST_BINS bins over
** [*lo, *hi] (widened by 1/2 each side when all are equal); the number
** of finite coordinates counted, 0 when there is none. */
static int hist_bin (const pn_runs *rs, int count[HIST_BINS], double *lo,
                     double *hi)
{
  int k, i, total = 0;
  *lo = INFINITY;
  *hi = -INFINITY;
  memset(count, 0, HIST_BINS * sizeof *count);
  for (k = 0; k < rs->n; k++) {
    const double *x = ol_run_x(rs->runs[k]);
    for (i = 0; i < ol_run_n(rs->runs[k]); i++)
      if (isfinite(x[i])) {
        *lo = fmin(*lo, x[i]);
        *hi = fmax(*hi, x[i]);
      }
  }
  if (!(*lo <= *hi)) return 0;
  if (*lo == *hi) {
    *lo -= 0.5;
    *hi += 0.5;
  }
  for (k = 0; k < rs->n; k++) {
    const double *x = ol_run_x(rs->runs[k]);
    for (i = 0; i < ol_run_n(rs->runs[k]); i++)
      if (isfinite(x[i])) {
        int b = (int)((x[i] - *lo) / (*hi - *lo) * HIST_BINS);
        count[b < HIST_BINS ? b : HIST_BINS - 1]++;
        total++;
      }
  }
  return total;
}

static void hist_title (int total, char *title, size_t tsize)
{
  snprintf(title, tsize, "hist of x: %d coordinates, %d bins", total,
           HIST_BINS);
}

static int hist_available (const pn_runs *rs, int kind, const ol_problem *p,
                           char *why, size_t wsize)
{
  (void)kind;
  (void)p;
  if (rs->n > 0) return 1;
  snprintf(why, wsize, "no run to show");
  return 0;
}

/* One bar of '#' per bin, as high as its count relative to the largest;
** the largest count left of the top row, the range under the bars. */
static void hist_cells (const pn_runs *rs, int kind, pn_axes *ax,
                        pn_cache *c, const pn_out *o, char *title,
                        size_t tsize)
{
  int count[HIST_BINS], cmax = 0, b, r, ph = o->h - 1, pw = o->w - YLAB;
  int bw = pw / HIST_BINS, total;
  double lo, hi;
  char lab[32];
  (void)kind;
  (void)ax;
  (void)c;
  total = hist_bin(rs, count, &lo, &hi);
  hist_title(total, title, tsize);
  if (total == 0 || ph < 2 || bw < 1) {
    pn_puts_at(o, o->y, o->x + 1, "no finite coordinates", o->w - 1, PN_AXIS);
    return;
  }
  for (b = 0; b < HIST_BINS; b++) cmax = count[b] > cmax ? count[b] : cmax;
  snprintf(lab, sizeof lab, "%d", cmax);
  pn_puts_at(o, o->y, o->x, lab, YLAB - 1, PN_AXIS);
  for (b = 0; b < HIST_BINS; b++) {
    int h = (int)floor((double)count[b] / cmax * ph + 0.5), col;
    for (r = 0; r < h; r++)
      for (col = b * bw; col < (b + 1) * bw - (bw > 1); col++)
        o->put(o->ud, o->y + ph - 1 - r, o->x + YLAB + col, 0x2588, '#', 0);
  }
  snprintf(lab, sizeof lab, "%.3g", lo);
  pn_puts_at(o, o->y + ph, o->x + YLAB, lab, pw / 2, PN_AXIS);
  snprintf(lab, sizeof lab, "%.3g", hi);
  pn_puts_at(o, o->y + ph, o->x + YLAB + HIST_BINS * bw - (int)strlen(lab),
             lab, (int)strlen(lab), PN_AXIS);
}

/* A <rect> per bin, heights relative to the largest count, in a frame. */
static void hist_svg (pl_buf *f, const pl_plot *pl, int kind, pl_box b)
{
  int count[HIST_BINS], cmax = 0, k, total;
  double lo, hi, bw = b.w / HIST_BINS;
  char t[96];
  (void)kind;
  total = hist_bin(&pl->rs, count, &lo, &hi);
  hist_title(total, t, sizeof t);
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"hist\">\n");
  pl_title(f, b, t);
  for (k = 0; k < HIST_BINS; k++) cmax = count[k] > cmax ? count[k] : cmax;
  for (k = 0; k < HIST_BINS && cmax > 0; k++) {
    double h = (double)count[k] / cmax * b.h;
    pl_buf_addf(f, "<rect class=\"bin\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                "height=\"%.2f\" fill=\"%s\"/>\n", b.x + k * bw + 1,
                b.y + b.h - h, bw - 2, h, pl_palette[0]);
  }
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
              "class=\"frame\"/>\n", b.x, b.y, b.w, b.h);
  if (total > 0)
    pl_buf_addf(f, "<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\">%.3g</text>\n"
                "<text class=\"xtick\" x=\"%.1f\" y=\"%.1f\" "
                "text-anchor=\"end\">%.3g</text>\n", b.x, b.y + b.h + 14, lo,
                b.x + b.w, b.y + b.h + 14, hi);
  pl_buf_adds(f, "</g>\n");
}

const pn_kind pn_kind_hist = {
  .name = "hist",
  .available = hist_available,
  .draw_cells = hist_cells,
  .draw_svg = hist_svg,
};
