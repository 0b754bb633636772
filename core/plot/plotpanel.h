/*
** lua/plotpanel.h -- the insides of plot panels, drawn through a callback
** so the live view (repl/, curses) and the text plots of r:plot (lua/,
** stdout) share them: a metric panel (axes, ticks, one line per run,
** legend), the landscape (heat map of f with the trajectories on top) and
** the simplex (triangle with each player's strategy path).
**
** Plain C: no curses, no Lua.  Panel kinds extend the metric ids: watch
** lists hold OL_MET_* ids, PN_LANDSCAPE or PN_SIMPLEX.
**
** Glyphs go out as put(ud, y, x, u, ascii, role): the code point u to
** draw when the output may be UTF-8, ascii otherwise, and a role: a
** series index (>= 0: run k, or run k's player b as k * nblocks + b in
** the simplex) or one of PN_AXIS, PN_TITLE, PN_HEAT.
*/
#ifndef OLUA_PLOTPANEL_H
#define OLUA_PLOTPANEL_H

#include "run.h"
#include "canvas.h"

enum { PN_LANDSCAPE = OL_NMETRICS, PN_SIMPLEX, PN_NKINDS };
enum { PN_AXIS = -1, PN_TITLE = -2, PN_HEAT = -3 };

typedef void (*pn_put) (void *ud, int y, int x, unsigned u, char ascii,
                        int role);

/* Where and how to draw: the rectangle of the panel's inside (no
** border), UTF-8 glyphs allowed (braille, block marks), scratch canvas. */
typedef struct pn_out {
  pn_put put;
  void *ud;
  int y, x, h, w;
  int utf8;
  cv_canvas *cv;
} pn_out;

/* The runs shown. */
typedef struct pn_runs {
  int n;
  ol_run *const *runs;
  const char *const *labels;
} pn_runs;

/* Name of a panel kind ("loss", "landscape", "simplex"); NULL if none. */
const char *pn_name (int kind);
/* Kind of a name (metric names too), -1 if unknown. */
int pn_find (const char *name);

/* 1 when a metric reads best on a log axis (decaying, positive). */
int pn_log_prone (int metric);

/* -- landscape ------------------------------------------------------------ */

/* Levels of the landscape ramp, ASCII ' .:-=+*#%@' from low to high. */
#define PN_NLEVELS 10
extern const char pn_ramp[];

/* 1 when p can have a landscape (objective or density, n >= 2). */
int pn_has_landscape (const ol_problem *p);
/* Map n values to levels 0..nlev-1 on a log scale of f - min + eps, eps a
** 1e-3 of the span (NAN values get -1). */
void pn_levels (const double *v, int n, int nlev, int *lev);

/* Grid cache: the landscape is recomputed only when the problem, window
** or size change.  Zero-initialise; pn_cache_fini frees.  budget (set by
** the owner; 0: none) bounds the seconds one pn_landscape_grid call spends
** evaluating f: a grid that takes longer is finished over the next calls
** (done cells kept), and one whose whole would take more than
** PN_MAPMAX seconds of f is given up for that problem (slow, with the
** measured seconds per cell), so a slow Lua objective never stalls a
** live view. */
#define PN_MAPMAX 2.0
typedef struct pn_cache {
  const ol_problem *p;
  double win[4];
  int nx, ny;
  double *val;
  int *lev;
  int ok;                /* values valid */
  double *work;
  int nwork;
  double budget;         /* seconds per call, 0: compute it all */
  int done;              /* cells done of the grid in progress */
  const ol_problem *slow;  /* given up for this problem */
  double cellsec;        /* its measured seconds per cell */
} pn_cache;
void pn_cache_fini (pn_cache *c);

/* The window (ol_grid_window over coordinates 0, 1) and the grid of
** nx x ny values and levels into c; -1 when not available (no recorded
** trajectory, oracle failure), PN_GRID_PART when c->budget ran out first
** (call again), PN_GRID_SLOW when given up (see pn_cache), else 0. */
enum { PN_GRID_PART = 1, PN_GRID_SLOW = 2 };
int pn_landscape_grid (const pn_runs *rs, int nx, int ny, pn_cache *c);

/* Draw the landscape inside o; title (for the caller's border) into
** title.  Returns 0, or -1 when there is nothing to draw (a message is
** drawn instead). */
int pn_landscape (const pn_runs *rs, const pn_out *o, pn_cache *c,
                  char *title, size_t tsize);

/* -- simplex -------------------------------------------------------------- */

/* Number of 3-action simplex blocks of p whose coordinates are all in
** the recorded trajectory (dim = min(n, 8)); 0 when none. */
int pn_simplex_blocks (const ol_problem *p, int *first, int max);
/* Barycentric (p1, p2, p3) -> unit-triangle coordinates: vertex 1 at
** (0, 0), 2 at (1, 0), 3 at (1/2, sqrt(3)/2). */
void pn_bary (const double *p, double *u, double *v);
int pn_simplex (const pn_runs *rs, const pn_out *o, char *title,
                size_t tsize);

/* -- x axis --------------------------------------------------------------- */

/* What metric series are plotted against (the xaxis option): iterations
** (ol_run_times), gradient evaluations (ol_run_evals) or stepping seconds
** (ol_run_secs, each run its own clock). */
enum { PN_X_ITER, PN_X_EVALS, PN_X_TIME, PN_NXAXES };

/* Option name ("iter", "evals", "time") and axis label ("iteration",
** "gradient evaluations", "seconds") of xaxis; NULL if out of range. */
const char *pn_xaxis_name (int xaxis);
const char *pn_xaxis_label (int xaxis);
/* Kind of an option name, -1 if unknown. */
int pn_xaxis_find (const char *name);
/* x of recorded point i of r on that axis. */
double pn_xat (const ol_run *r, int xaxis, int i);
/* Tick label of x value v in buf (at most width + 1 chars): cv_fmt, with
** an "s" appended on the seconds axis ("0.5s", "2s"). */
void pn_xfmt (int xaxis, double v, char *buf, size_t size, int width);

/* -- metric panel --------------------------------------------------------- */

/* Draw metric m of every run inside o against xaxis (PN_X_*) with a fresh
** scale (log when pn_log_prone and every value > 0), the axis label at
** the right of the tick row; title "loss [log]" into title. */
void pn_metric (const pn_runs *rs, int m, int xaxis, const pn_out *o,
                char *title, size_t tsize);

#endif
