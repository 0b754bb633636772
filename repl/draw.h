/*
** repl/draw.h -- drawing the live view: the grid of panels (metric series,
** trace, cloud, landscape, simplex), each framed with its titles.
**
** Drawing reads run series (core/run.h) and a dr_view describing what to
** show; the panels' insides are core/plot/plotpanel.c's (shared with the
** text and SVG plots); the only state it changes is each panel's display
** state (stable scales, the pooled R-hat / ESS points of a chain set,
** which core/plot computes within a budget a frame), and the only numbers
** it computes are scales and decimation.
** Every function draws inside the rectangle or screen it is given, so a
** later dashboard can place the same panels beside a prompt.
*/
#ifndef REPL_DRAW_H
#define REPL_DRAW_H

#include "run.h"
#include "canvas.h"
#include "plotpanel.h"

/* Y axis mode of a panel (plotpanel.h's PN_Y*). */
enum { DR_AUTO = PN_YAUTO, DR_LOG = PN_YLOG, DR_LIN = PN_YLIN };

/* One panel: a metric of every run (or a panel kind: landscape, simplex,
** trace, cloud), its settings and its display state.  ymode and xlog are
** the user's (keys); shown_log says what the last draw used (for
** toggling ymode); ax keeps the stable ranges between frames. */
typedef struct dr_panel {
  int metric;          /* OL_MET_*, or PN_LANDSCAPE / PN_SIMPLEX /
                          PN_TRACE / PN_CLOUD */
  int ymode;           /* DR_AUTO: log for positive "decay" metrics */
  int shown_log;       /* what the last draw used (for toggling) */
  int xlog;            /* log10 x axis (metric and trace panels; from 1:
                          iteration 0 is not drawn), toggled by
                          dr_panel_toggle_xlog; the runs' xlog option
                          (PN_X_LOG in dr_runs.xaxis) inverts it */
  pn_axes ax;          /* display state: stable y scale, x range */
  pn_pool pool;        /* rhat, ess of chains shown together: the pooled
                          points so far (plotpanel.h) */
  int winset;          /* the landscape took dr_runs.win (its first draw) */
} dr_panel;

/* Reset p to show metric with default settings. */
void dr_panel_init (dr_panel *p, int metric);
/* Switch p's x axis between linear and log10 (the 'x' key). */
void dr_panel_toggle_xlog (dr_panel *p);
/* Freeze a landscape panel's window where it is drawn now, or let it
** follow the runs again (the 'w' key); no-op on other panels. */
void dr_panel_toggle_freeze (dr_panel *p);

/* The runs shown (borrowed for the call), and the x axis of the metric
** panels: PN_X_ITER, PN_X_EVALS or PN_X_TIME (each run its own clock),
** labelled in the panel's bottom border. */
typedef struct dr_runs {
  int n;
  ol_run *const *runs;
  const char *const *labels;
  int xaxis;           /* PN_X_*, with PN_X_LOG for a log x axis */
  const double *win;   /* the landscape's window from the view option
                          (NAN: that axis the runs'), or NULL */
} dr_runs;

/* Everything drawn on one frame. */
typedef struct dr_view {
  const char *title;   /* problem description (for the caller's header) */
  long iter, iters;    /* progress (max over runs) and budget */
  const char *state;   /* "running", "paused", "stopped" */
  const char *speed;   /* "max", "690/s" or "0.5/s" */
  dr_runs runs;
  int npanels;
  dr_panel *panels;    /* the automatic 2-D panel included, when shown
                          (the view model adds it: dr_auto_panel) */
  int focus;           /* index into panels */
  int zoom;            /* show the focused panel alone (any kind) */
} dr_view;

/* Smallest screen the panels are drawn on; below it a message shows. */
#define DR_MIN_COLS 40
#define DR_MIN_ROWS 10
/* Rows a panel gets at least, border included (a line panel: 5 plot rows
** or more with its axis, tick labels and a legend of up to 2 rows -- the
** most core/plot/line.c gives a legend below 12 rows; a 2-D panel: 5
** rows of map or more); panels are dropped rather than squeezed below
** them. */
#define DR_PANEL_ROWS 11
#define DR_MAP_ROWS 10
#define DR_SHOWN 64

/* Draw the panel grid of v on rows 1 .. rows - 2 of the rows x cols
** screen, or the "terminal too small" message; rows 0 and rows - 1 (the
** header and the key line) and the help overlay are the caller's
** (repl/model.c).  The focused panel (v->focus) has a highlighted frame;
** zoomed, it is drawn alone -- a landscape or simplex panel as well as a
** metric.  Panels that would get fewer rows than DR_PANEL_ROWS (a 2-D
** one: DR_MAP_ROWS) go to two columns (60 columns or more), then are
** left out, least needed first (the metrics after the first; never the
** focused panel, so Tab brings one back), and the bottom border says how
** many ("2 more panels: Tab or z"). */
void dr_view_draw (dr_view *v, int rows, int cols, cv_canvas *cv);

/* The panel added by default beside the metrics: PN_LANDSCAPE for a 2-D
** objective, PN_SIMPLEX for a game over 3-action simplices (trajectory
** recorded), else -1. */
int dr_auto_panel (const dr_runs *rs);

#endif
