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
  int winfix;           /* the landscape in win, not the runs' window (the
                           runs' view = {xlim, ylim}, or plot's own) */
  double win[4];        /* xlo, xhi, ylo, yhi; NAN, NAN: that axis the
                           runs' */
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

/* The figures of a parameter sweep (sweep.c; s:plot of lua/sweep.lua):
** n configurations, each with the value of the x parameter, of the y
** parameter for a heat map (y non-NULL), its curve (group: the
** combination of the other parameters, labelled glabel[g]) and its final
** values of nm metrics, one panel each.  With y NULL, the "xy" figure:
** per metric the final value against x, one curve per group, points in
** x order; with y, the heat map of the final value over the grid of the
** distinct x and y values, with a colour key and the best cell outlined.
** Configurations flagged in div (a diverged run) or whose value is not
** finite are marks on the top edge (xy) or grey crossed cells (heat), not
** points.  Borrowed for the call. */
typedef struct pl_sweep {
  int n;                      /* configurations */
  const double *x;            /* [n] value of the x parameter */
  const double *y;            /* [n] value of the y parameter, or NULL */
  const int *group;           /* [n] curve 0..ngroups-1 (NULL: all 0) */
  int ngroups;
  const char *const *glabel;  /* [ngroups] legend labels ("mu=0.9"); no
                                 legend for one curve labelled "" */
  const unsigned char *div;   /* [n] 1: diverged (NULL: none) */
  int nm;                     /* metrics: panels, 1..PL_MAXPANELS */
  const char *const *mname;   /* [nm] metric names */
  const double *v;            /* [nm * n]: metric j of configuration i at
                                 v[j * n + i] */
  const char *xname, *yname;  /* the parameters' names */
  const char *title;          /* figure title (the sweep), or NULL */
  int xlog, ylog;             /* log x, log y (xy) or colour scale (heat):
                                 -1 auto, 0 or 1 */
} pl_sweep;

/* The sweep figure as text (panels framed as pl_text's: the title names
** the metric, the bottom border the x parameter) or SVG (as pl_svg's:
** title, legend of the curves, panels in one or two columns).  0, or -1
** out of memory. */
int pl_sweep_text (const pl_sweep *s, int width, int height, int utf8,
                   pl_buf *out);
int pl_sweep_svg (const pl_sweep *s, int width, int height, pl_buf *out);

/* Tick label notation of an axis: 1 when ticks tv[0..n) need scientific
** notation (a nonzero |v| below 1e-4 or at least 1e6), then all are;
** pl_tickfmt writes v in that notation ("0.25", "1500"; "1e-8", "2.5e6"). */
int pl_ticksci (const double *tv, int n);
void pl_tickfmt (double v, int sci, char *buf, size_t size);
/* Unit of a time axis whose range ends at hi seconds: "ms" (hi < 1),
** "s" (hi < 120), "min"; its scale (seconds per unit) into *per. */
const char *pl_timeunit (double hi, double *per);

#endif
