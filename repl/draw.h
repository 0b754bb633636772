/*
** repl/draw.h -- drawing the live view: panels of recorded metric series,
** the title and status lines, the help overlay.
**
** Drawing reads run series (core/run.h) and a dr_view describing what to
** show; the only state it changes is each panel's display state (stable
** scales), and the only numbers it computes are scales and decimation.
** Every function draws inside the rectangle or screen it is given, so a
** later dashboard can place the same panels beside a prompt.
*/
#ifndef REPL_DRAW_H
#define REPL_DRAW_H

#include "run.h"
#include "canvas.h"
#include "plotpanel.h"

/* Y axis mode of a panel. */
enum { DR_AUTO, DR_LOG, DR_LIN };

/* One panel: a metric of every run, and its display state. */
typedef struct dr_panel {
  int metric;          /* OL_MET_*, or PN_LANDSCAPE / PN_SIMPLEX */
  int ymode;           /* DR_AUTO: log for positive "decay" metrics */
  int shown_log;       /* what the last draw used (for toggling) */
  cv_scale ys;         /* stable y scale */
  double xmax;         /* x range [0, xmax] in units of xaxis, only grows
                          while xaxis stays */
  int xaxis;           /* PN_X_* the range is in */
} dr_panel;

/* Reset p to show metric with default settings. */
void dr_panel_init (dr_panel *p, int metric);

/* The runs shown (borrowed for the call), and the x axis of the metric
** panels: PN_X_ITER, PN_X_EVALS or PN_X_TIME (each run its own clock),
** labelled in the panel's bottom border. */
typedef struct dr_runs {
  int n;
  ol_run *const *runs;
  const char *const *labels;
  int xaxis;
} dr_runs;

/* Everything drawn on one frame. */
typedef struct dr_view {
  const char *title;   /* problem description */
  long iter, iters;    /* progress (max over runs) and budget */
  const char *state;   /* "running", "paused", "stopped" */
  const char *speed;   /* "max" or "64/frame" */
  dr_runs runs;
  int npanels;
  dr_panel *panels;
  int focus;           /* index into panels */
  int zoom;            /* show the focused panel alone */
  int help;            /* help overlay on top */
} dr_view;

/* Smallest screen the panels are drawn on; below it a message shows. */
#define DR_MIN_COLS 40
#define DR_MIN_ROWS 10

/* Draw panel p in the rectangle at (y, x), h x w cells; focused panels
** have a highlighted title.  cv is scratch space kept by the caller. */
void dr_panel_draw (dr_panel *p, const dr_runs *rs, int y, int x, int h,
                    int w, int focused, cv_canvas *cv);
/* Draw the whole view on the rows x cols screen (title line, panel grid,
** status line, overlay), or the "terminal too small" message. */
void dr_view_draw (dr_view *v, int rows, int cols, cv_canvas *cv);

/* Border and title of a panel; focused ones are highlighted. */
void dr_frame (int y, int x, int h, int w, int focused, const char *title);
/* pn_put onto the screen: series roles -> run colours, PN_HEAT dim. */
void dr_put (void *ud, int y, int x, unsigned u, char ascii, int role);
/* The runs of rs and an output inside the border of the h x w panel at
** (y, x), drawn with dr_put, for a lua/plotpanel.c panel. */
void dr_pn_setup (const dr_runs *rs, int y, int x, int h, int w,
                  cv_canvas *cv, pn_runs *prs, pn_out *o);
/* The landscape (repl/landscape.c) and simplex (repl/simplex.c) panels. */
void dr_landscape_draw (const dr_runs *rs, int y, int x, int h, int w,
                        int focused, cv_canvas *cv);
void dr_simplex_draw (const dr_runs *rs, int y, int x, int h, int w,
                      int focused, cv_canvas *cv);
/* The panel added by default beside the metrics: PN_LANDSCAPE for a 2-D
** objective, PN_SIMPLEX for a game over 3-action simplices (trajectory
** recorded), else -1. */
int dr_auto_panel (const dr_runs *rs);

/* The status line's key summary. */
extern const char dr_keys[];

#endif
