/*
** core/plot/panel.h -- the panel-kind table: every kind of panel the
** views draw is one const entry of what it is called, when runs can show
** it, and how it draws itself in character cells (the live view,
** repl/draw.c, and the text plots, core/plot/textplot.c, through the put
** callback of plotpanel.h) and in SVG (core/plot/svg.c).  The views look
** a kind up (pn_kind_of) and call its hooks; they test for no kind.  (The
** text plot and the live view draw the same cells, so one hook serves
** both: the live view passes axes and grid caches kept between frames
** and a time budget, the text plot fresh ones.)
**
** The entries: pn_kind_metric for every metric id (line.c: a metric's
** line per run, or a chain set's pooled R-hat/ESS curve, bands.c), and one
** per line of panels.h: trace (line.c), landscape (landscape.c), cloud
** (cloud.c), simplex (simplex.c), workers and mixing (workers.c).  What
** the kind files share (legends, text, 2-D axes, SVG pieces) is in
** panelpriv.h.
**
** How to add a panel kind: write core/plot/<name>.c defining
**   const pn_kind pn_kind_<name> = {.name = "<name>", .available = ...,
**                                   .draw_cells = ..., .draw_svg = ...};
** and add the line PN_KIND(<ID>, <name>) at the end of panels.h (it makes
** the id PN_<ID>, the name valid in watch lists and r:plot{watch = ...}).
** The Makefile finds the file by its wildcard.  available says why the
** runs cannot show the kind (in why); draw_cells draws inside o and
** writes the panel's title, drawing a message when there is no data;
** draw_svg writes a <g class="panel"> into the plot box.  The numbers a
** panel draws come from the core (run series, draws, results, ol_diag_*):
** a kind file maps them to cells and paths, it computes no statistics.
*/
#ifndef OL_PANEL_H
#define OL_PANEL_H

#include "plot.h"

/* Plot area of an SVG panel cell, in pixels. */
typedef struct pl_box {
  double x, y, w, h;
} pl_box;

/* The grid caches of a view: a landscape and a cloud shown together keep
** their grids apart, so neither evicts the other's every frame. */
enum { PN_CACHE_NONE, PN_CACHE_MAP, PN_CACHE_CONTOURS };

typedef struct pn_kind {
  const char *name;     /* watch-list name; NULL for pn_kind_metric (a
                           metric panel is named by its metric) */
  int axes;             /* 1: drawn against an x axis with the caller's
                           pn_axes (kept between frames by the live view),
                           with an x axis title (pn_xtitle) */
  int cache;            /* PN_CACHE_*: the caller's grid cache it uses */
  /* 1 when the runs rs (at least one, of problem p) can show kind (a
  ** kind of this entry, e.g. "trace:3"); else 0 with the reason in why */
  int (*available) (const pn_runs *rs, int kind, const ol_problem *p,
                    char *why, size_t wsize);
  /* kind in the cells of o; ax: the axes (axes kinds), c: the grid cache
  ** (cache kinds, may be NULL otherwise); title into title */
  void (*draw_cells) (const pn_runs *rs, int kind, pn_axes *ax,
                      pn_cache *c, const pn_out *o, char *title,
                      size_t tsize);
  /* kind of the figure pl as SVG into f, plotted in b */
  void (*draw_svg) (pl_buf *f, const pl_plot *pl, int kind, pl_box b);
} pn_kind;

/* The entry of a panel kind (a metric id, a PN_* kind, a trace or cloud
** of chosen coordinates); NULL when kind is none. */
const pn_kind *pn_kind_of (int kind);

extern const pn_kind pn_kind_metric;
#define PN_KIND(ID, name) extern const pn_kind pn_kind_##name;
#include "panels.h"
#undef PN_KIND

#endif
