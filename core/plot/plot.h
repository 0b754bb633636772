/*
** core/plot/plot.h -- whole figures from the panels of plotpanel.h: the
** text plot of r:plot{text = true} (a character grid, UTF-8 braille or
** ASCII) and the SVG document of r:plot{file = ...}, both rendered into a
** caller-owned pl_buf (the caller writes it out: lua/lplot.c).
**
** A figure is a list of panel kinds (metric ids or PN_*) over the runs
** of pn_runs, metric panels against one x axis (xaxis, xlog).  Renderers
** never fail on the data (a panel without data says so); they return 0,
** or -1 when the buffer ran out of memory.
*/
#ifndef OL_PLOT_H
#define OL_PLOT_H

#include "buf.h"
#include "plotpanel.h"

#define PL_MAXPANELS (PN_NKINDS + 2)

typedef struct pl_plot {
  pn_runs rs;
  int npanels;
  int panels[PL_MAXPANELS];
  int xaxis;            /* PN_X_* of the metric panels */
  int xlog;             /* log10 x axis on the metric and trace panels */
  const char *title;    /* figure title (the problem), or NULL */
} pl_plot;

/* The default panel list of a figure into pl: the watch list (nwatch
** kinds), then pn_auto_panel's panel when the list has no 2-D panel. */
void pl_default_panels (pl_plot *pl, const int *watch, int nwatch);

/* Text: panels of height rows each stacked, width columns, each framed
** with its title in the top border and its x axis title in the bottom
** one; lines end in '\n'.  utf8: braille, box drawing and marks, else
** ASCII only. */
int pl_text (const pl_plot *pl, int width, int height, int utf8, pl_buf *out);

/* SVG: width x height pixels, one or two columns of panels, a legend
** line per run under the title; one <path class="series"> per run and
** panel; each panel a <g class="panel" data-kind="name">.  Tick labels use
** one notation per axis (plain, or all scientific when a tick needs it);
** a time axis is in ms, s or min chosen from its range (unit in the axis
** title). */
int pl_svg (const pl_plot *pl, int width, int height, pl_buf *out);

/* Tick label notation of an axis: 1 when ticks tv[0..n) need scientific
** notation (a nonzero |v| below 1e-4 or at least 1e6), then all are;
** pl_tickfmt writes v in that notation ("0.25", "1500"; "1e-8", "2.5e6"). */
int pl_ticksci (const double *tv, int n);
void pl_tickfmt (double v, int sci, char *buf, size_t size);
/* Unit of a time axis whose range ends at hi seconds: "ms" (hi < 1),
** "s" (hi < 120), "min"; its scale (seconds per unit) into *per. */
const char *pl_timeunit (double hi, double *per);

#endif
