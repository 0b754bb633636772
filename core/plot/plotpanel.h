/*
** core/plot/plotpanel.h -- the insides of plot panels, drawn through a
** callback so the live view (repl/, curses) and the text plots of r:plot
** (lua/ through core/plot/textplot.c) share them: a metric panel (axes,
** ticks, one line per run, legend), a coordinate trace, the sample cloud,
** the landscape (heat map of f with the trajectories on top) and the
** simplex (triangle with each player's strategy path; for a game of two
** 2-action players the unit square of their joint strategy), with the
** game's known equilibria starred.
**
** Plain C under the core's rules: no curses, no Lua, no printing.  Panel
** kinds extend the metric ids: watch lists hold OL_MET_* ids or one of
** the PN_* kinds listed in panels.h (PN_LANDSCAPE, PN_SIMPLEX, PN_TRACE,
** PN_CLOUD, PN_WORKERS, PN_MIXING; names from pn_name).  Each kind is an
** entry of the panel-kind table (panel.h: its name, when runs can show
** it, its cell and SVG drawers), defined in a file of its own; panel.h
** says how to add one.
**
** Glyphs go out as put(ud, y, x, u, ascii, role): the code point u to
** draw when the output may be UTF-8, ascii otherwise, and a role: a
** run index (>= 0: run k, drawn in palette.h's colour k in every panel
** and legend; the simplex's players of run k share it) or one of PN_AXIS,
** PN_TITLE, PN_HEAT.
**
** Legend rule (every panel kind): the legend is never drawn over data.
** Metric and trace panels put it below the x axis, outside the plot, in
** as many columns as fit; landscape, cloud and simplex panels put it in a
** corner of the plot whose canvas cells are empty, else below.  Labels
** that do not fit are shortened by whole space- or comma-separated tokens
** from the end, marked with an ellipsis, never cut inside a number.
**
** Log axes: values <= 0 or below PN_TINY (denormals) do not set the
** range; they are drawn on the bottom row with PN_FLOOR ('v' in ASCII).
** A log x axis starts at 1 (iteration 0 is not drawable).
*/
#ifndef OL_PLOTPANEL_H
#define OL_PLOTPANEL_H

#include "run.h"
#include "canvas.h"

/* Trace and cloud panels of chosen coordinates are kinds of their own
** (watch = {"trace:3", "cloud:1,3"}, names parsed by pn_find): the trace
** of coordinate j (0-based, j < PN_MAXTRACE) is PN_TRACEJ + j, x1's being
** PN_TRACE; the cloud of coordinates (a, b) (a != b < PN_MAXCLOUD) is
** PN_CLOUDJ + a PN_MAXCLOUD + b, (x1, x2)'s being PN_CLOUD.  pn_name gives
** NULL for them (a list of names ends at PN_TRACEJ); pn_base maps them
** to PN_TRACE / PN_CLOUD, pn_coords to their coordinates. */
#define PN_MAXTRACE 64
#define PN_MAXCLOUD 16
enum {
  PN_METRICS_END = OL_NMETRICS - 1,   /* the kinds follow the metric ids */
#define PN_KIND(ID, name) PN_##ID,
#include "panels.h"
#undef PN_KIND
  PN_TRACEJ,
  PN_CLOUDJ = PN_TRACEJ + PN_MAXTRACE,
  PN_NKINDS = PN_CLOUDJ + PN_MAXCLOUD * PN_MAXCLOUD
};
/* Roles: PN_DIVERGENT marks a divergent transition (U+00D7 / 'X', drawn
** in a warning colour by the views); PN_NASH a known equilibrium of a game
** on the simplex panel (PN_NASHMARK U+2605 / '*', in a colour of its own,
** legend entry "Nash"). */
enum { PN_AXIS = -1, PN_TITLE = -2, PN_HEAT = -3, PN_DIVERGENT = -4,
       PN_NASH = -5 };
#define PN_DIVMARK 0x00D7
#define PN_NASHMARK 0x2605
/* Y axis mode of a metric panel: log for decaying positive metrics. */
enum { PN_YAUTO, PN_YLOG, PN_YLIN };

/* Smallest value a log axis ranges over; below it (and <= 0) a value is
** drawn at the floor with the marker PN_FLOOR (U+25BC) / 'v'. */
#define PN_TINY 1e-300
#define PN_FLOOR 0x25BC

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

/* Axes of a metric or trace panel: what to draw (x axis kind, log x, y
** mode) and, when stable is set, the ranges kept between draws so a live
** plot does not jitter (the y scale snaps to nice bounds, the x range only
** grows while xaxis and xlog stay).  pn_axes_init gives a fresh state. */
typedef struct pn_axes {
  int xaxis;          /* PN_X_* */
  int xlog;           /* log10 x axis */
  int ymode;          /* PN_YAUTO, PN_YLOG, PN_YLIN */
  int stable;         /* keep ys and xmax between draws */
  struct pn_pool *pool;  /* rhat, ess panels of a chain set: its pooled
                            points, kept by the caller (NULL: computed
                            for the draw, without a budget) */
  double poolbudget;  /* seconds a draw may spend on pool points, 0: no
                         limit */
  int shown_log;      /* out: the last draw's y axis was log */
  cv_scale ys;        /* y scale */
  double xmax;        /* x range high end, data units (0: none yet) */
  int kept_xaxis, kept_xlog;   /* what xmax is for */
  /* the landscape panel's window and marks */
  int marks;          /* mark each run's start and x* (the live view) */
  int winfix;         /* draw in win, not the runs' window (frozen, or the
                         view = {xlim, ylim} option) */
  double win[4];      /* the window (xlo, xhi, ylo, yhi): the fixed one
                         (NAN, NAN for an axis left to the runs), else
                         the one drawn last (what a freeze keeps) */
} pn_axes;
void pn_axes_init (pn_axes *a, int xaxis, int xlog);

/* Name of a panel kind ("loss", "landscape", "simplex", "trace",
** "cloud"); NULL if none. */
const char *pn_name (int kind);
/* Kind of a name (metric names too; "trace:j" and "cloud:a,b" with
** 1-based coordinates), -1 if unknown. */
int pn_find (const char *name);
/* PN_TRACE for every trace kind, PN_CLOUD for every cloud kind, else
** kind itself. */
int pn_base (int kind);
/* The 0-based coordinates a trace (*a) or cloud (*a, *b) kind shows. */
void pn_coords (int kind, int *a, int *b);
/* The kinds of the trace of coordinate j, the cloud of (a, b); -1 when
** out of range. */
int pn_trace_kind (int j);
int pn_cloud_kind (int a, int b);

/* 1 when a metric reads best on a log axis (decaying, positive). */
int pn_log_prone (int metric);
/* 1 when a metric reads best against log x by default: a game's regret
** and equilibrium gaps, whose rate claims (~ T^-1/2, ~ 1/T) are
** straight lines on log-log axes.  The xlog option and the x key act on
** top of it (the key flips what is shown). */
int pn_xlog_prone (int metric);

/* The panels a run of a method of family (OL_OPTIM, OL_SAMPLER,
** OL_DYNAMIC) on p watches by default, given the recorded metric set:
** optimizers loss and gradnorm; samplers accept, trace x1 and the sample
** cloud (over the density's contours for a 2-D density), then stepsize
** when it is recorded (lua/lrun.c records it for a sampler that adapts;
** lua/lsample.c adds rhat for several chains); game dynamics exploitability
** and entropy (the simplex is added beside them by the views when the game
** has 3-action blocks or is 2 x 2, pn_simplex_blocks); for variational,
** diffusion and RL methods (OL_VI on) their recorded metrics in metric
** order; distributed methods loss, gradnorm, then consensus when
** recorded; any other recorded metrics when none of those is.
** At most max kinds into out; returns the count. */
int pn_defaults (const ol_problem *p, int family, ol_mset recorded,
                 int *out, int max);

/* 1 when the runs can show panel kind (a metric recorded by one run, the
** data of a landscape, simplex, trace or cloud); else 0 and a reason
** into why. */
int pn_available (const pn_runs *rs, int kind, char *why, size_t wsize);

/* -- landscape ------------------------------------------------------------ */

/* Levels of the landscape ramp, ASCII ' .:-=+*#%@' from low to high. */
#define PN_NLEVELS 10
extern const char pn_ramp[];

/* 1 when p can have a landscape (objective or density, n >= 2). */
int pn_has_landscape (const ol_problem *p);

/* Grid cache: the landscape is recomputed only when the problem, window
** or size change.  Zero-initialise; pn_cache_fini frees.  budget (set by
** the owner; 0: none) bounds the seconds one pn_landscape_grid call spends
** evaluating f: a grid that takes longer is finished over the next calls
** (done cells kept), and one whose whole would take more than
** PN_MAPMAX seconds of f is given up for that problem (slow, with the
** measured seconds per cell), so a slow Lua objective never stalls a
** live view.  A picture drawn once (the text plot, the frame a live view
** leaves) sets oneshot: the budget only measures, and the grid is then
** finished in the same call or given up when it would take more than
** maxsec. */
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
  double maxsec;         /* give up past this whole (0: PN_MAPMAX) */
  int oneshot;           /* finish in one call (a picture drawn once) */
  int done;              /* cells done of the grid in progress */
  const ol_problem *slow;  /* given up for this problem */
  double cellsec;        /* its measured seconds per cell */
  int ca, cb;            /* the coordinates of the grid's axes */
} pn_cache;
void pn_cache_fini (pn_cache *c);

/* The landscape's default window over coordinates (0, 1) into win:
** ol_grid_window's box of the runs' points and x* (padded, nice bounds),
** leaving out a run whose points span over 10 times the median run's
** (with x*), so a diverging run does not shrink the others to dots (its
** path leaves the window).  0, or -1 when no run has a point. */
int pn_landscape_window (const pn_runs *rs, double win[4]);

/* The window of every run's points (ol_grid_window over coordinates 0,
** 1: the SVG's, whose paths are not clipped; the live view's and the text
** plot's is pn_landscape_window) and the grid of
** nx x ny values and levels into c; -1 when not available (no recorded
** trajectory, oracle failure), PN_GRID_PART when c->budget ran out first
** (call again), PN_GRID_SLOW when given up (see pn_cache), else 0. */
enum { PN_GRID_PART = 1, PN_GRID_SLOW = 2 };
int pn_landscape_grid (const pn_runs *rs, int nx, int ny, pn_cache *c);

/* Draw the landscape inside o; title (for the caller's border) into
** title.  ax (may be NULL) gives a fixed window (winfix, win; "fixed" in
** the title) or keeps the window drawn in win, and asks for the start
** and x* marks (marks).  A cell several runs' paths pass through shows
** them in turn (the run with the fewest cells shown so far takes it), so
** no path hides another; a current point that would cover an earlier
** run's moves a cell aside.  Returns 0, or -1 when there is nothing to draw
** (a message is drawn instead). */
int pn_landscape (const pn_runs *rs, const pn_out *o, pn_cache *c,
                  pn_axes *ax, char *title, size_t tsize);

/* -- simplex -------------------------------------------------------------- */

/* 1 when p's strategies are two 2-action simplex blocks (n = 4: pennies,
** coordination, prisoners, a 2 x 2 matrixgame): the simplex panel shows
** the unit square (x1, y1) = (z_1, z_3) instead of triangles. */
int pn_square (const ol_problem *p);
/* The blocks the simplex panel shows, their first coordinates into first
** (at most max): the 3-action simplex blocks of p whose coordinates are
** all in the recorded trajectory (dim = min(n, 8)), or for a pn_square
** problem both blocks (0 and 2); 0 when none. */
int pn_simplex_blocks (const ol_problem *p, int *first, int max);
/* Barycentric (p1, p2, p3) -> unit-triangle coordinates: vertex 1 at
** (0, 0), 2 at (1, 0), 3 at (1/2, sqrt(3)/2). */
void pn_bary (const double *p, double *u, double *v);
/* The triangle with every run's and player's path, each player's current
** point in its own shape and colour (a later player's mark moved one
** cell aside when it would cover an earlier one), a "P1 ● P2 ◆" key.
** Every known equilibrium of the game (ol_game_equilibria) is a star
** PN_NASHMARK in role PN_NASH at each player's strategy, drawn last (a
** current point on its cell moves aside), with a legend entry "Nash".
** For a pn_square problem: the unit square instead, framed, x1 (player
** 1's probability of its first action) across and y1 (player 2's) up, 0
** and 1 at the edges, one path and one current point (a disc) per run,
** the equilibria starred at (x1, y1); title "unit square x1,y1 ...". */
int pn_simplex (const pn_runs *rs, const pn_out *o, char *title,
                size_t tsize);

/* -- workers -------------------------------------------------------------- */

/* A distributed run's nodes or workers (PN_WORKERS, "workers": the
** decentralized methods' nodes, the federated methods' last local
** iterates, asgd's workers' copies of x): each node's current
** iterate (x1, x2) as a mark PN_WORKMARK (U+2022 / cv_marker(w)) in role
** w, the worker's colour, and their average, the run's x, as PN_AVGMARK
** (U+2295 / '+') in role PN_TITLE, drawn over them and over the
** average's recorded path (braille / '.', role PN_AXIS), which sets the
** scale: the marks gather on the average as the nodes agree.  Window:
** pn_workers_window.  Legend
** ("workers (m)", "average") in an empty corner, else below; title
** "workers x1,x2: m workers, consensus c" (c the first run's last recorded
** consensus, left out when not recorded).  Nothing numerical beyond
** scaling: the iterates are the method's named result "workers"
** (ol_method_result). */
#define PN_WORKMARK 0x2022
#define PN_AVGMARK 0x2295
/* Run r's nodes' iterates, *m rows of ol_run_n(r) (borrowed until its
** next step); NULL when its method keeps none or n < 2. */
const double *pn_workers_of (const ol_run *r, int *m);
/* The extent of every run's nodes, average, the average's recorded path
** and the problem's x0 in (x1, x2), padded and
** widened to whole nice steps (as the cloud's window); -1 when no run has
** nodes or none is finite. */
int pn_workers_window (const pn_runs *rs, double win[4]);
/* Its title (above) into title. */
void pn_workers_title (const pn_runs *rs, char *title, size_t tsize);
/* The panel inside o, its title into title; 0, or -1 with a message drawn
** when there is nothing to show. */
int pn_workers (const pn_runs *rs, const pn_out *o, char *title,
                size_t tsize);

/* A decentralized run's mixing matrix W (PN_MIXING, "mixing", the
** method's named result "mixing", m x m) as a small picture: row i of W
** down, column j across, one text row per node and two columns when they
** fit, else blocks of nodes, each cell shaded by the largest W_ij of its
** block relative to the largest entry of W (pn_ramp's levels 1..9; a
** block of zeros blank), in role PN_HEAT; a ring is a band on the
** diagonal with its corners lit, a complete graph an even field.  Title
** "mixing W: m nodes, gap g" (g from the result "graph"). */
int pn_mixing (const pn_runs *rs, const pn_out *o, char *title,
               size_t tsize);
/* The first run's W (*m rows of *m) and gap (NAN when unknown); NULL when
** no run has a mixing matrix. */
const double *pn_mixing_of (const pn_runs *rs, int *m, double *gap);

/* -- sampler panels ------------------------------------------------------- */

/* Points of run r for the trace and cloud panels: the kept sampler draws
** (ol_run_draws) when there are any, else the recorded trajectory; *n
** points, coordinate j of point i at pts[i * stride + j], with dim
** coordinates; its iteration number from pn_pts_iter.  NULL when r has
** neither. */
typedef struct pn_pts {
  const double *x;
  long n;
  int stride, dim;
  int draws;            /* 1: sampler draws, 0: trajectory */
  int particles;        /* 1: a diffusion sampler's particles (x of
                           point i: its index) */
  long thin, warmup;    /* draws: every thin-th post-warmup draw */
  const long *times;    /* trajectory: iteration of each row */
} pn_pts;
int pn_points (const ol_run *r, pn_pts *pt);
double pn_pts_iter (const pn_pts *pt, long i);

/* 1 when draw i of pt (sampler draws) was a divergent transition (the
** divergent__ column); 0 for trajectory points. */
int pn_pts_divergent (const pn_pts *pt, long i);

/* The x axis of a trace of sampler draws starts at the first kept draw:
** the least warmup of the runs (0 when a run shows its trajectory, or for
** other kinds); the warmup is left out, as the draws leave it out. */
double pn_trace_xlo (const pn_runs *rs, int kind);

/* The coordinate of a trace kind (PN_TRACE: x1) of every run against
** iteration, one line per run or chain, each divergent draw marked
** PN_DIVMARK in role PN_DIVERGENT at its iteration and value (the legend
** counts them); axes as a metric panel's (ax may be NULL: fresh). */
void pn_trace (const pn_runs *rs, int kind, pn_axes *ax, const pn_out *o,
               char *title, size_t tsize);
/* The draws (or trajectory points) of a cloud kind's two coordinates as
** dots, one colour per run, divergent draws marked as in the trace;
** window from their extent, widened to whole steps of a nice size so it
** changes rarely.  Under them, when p has a landscape and c is not NULL,
** the contours of log p (of f for an objective): cells where the level of
** pn_levels changes to the right or below, U+00B7 / ':' in role PN_HEAT,
** on the 2-D target itself or, for chosen coordinates of a larger one,
** on the slice through x* (else x0) -- said in the title.  A grid that
** c's budget has not finished yet is left out for that frame. */
int pn_cloud (const pn_runs *rs, int kind, const pn_out *o, pn_cache *c,
              char *title, size_t tsize);
/* Pieces of the cloud shared with the SVG renderer: its window (0, or -1
** when no point is drawable yet); whether it shows contours (1) and its
** title; the grid of p over win in coordinates (ca, cb), nx x ny cells,
** levels in c->lev (row 0 the bottom), with pn_landscape_grid's returns. */
int pn_cloud_window (const pn_runs *rs, int kind, double win[4]);
int pn_cloud_contours (const pn_runs *rs, int kind, char *title,
                       size_t tsize);
int pn_grid (const ol_problem *p, const double *win, int ca, int cb, int nx,
             int ny, pn_cache *c);

/* -- pooled diagnostics of chains shown together --------------------------- */

/* The runs shown are a chain set when there are at least two, all of one
** sampler on one problem with the same parameters, warmup and budget,
** keeping draws (lua/lsample.c's chains, or repeats of one sampler).  Then
** the rhat and ess panels draw one pooled curve instead of a curve per
** run: the max over coordinates of the rank-normalised split R-hat and the
** min bulk-ESS (ol_diag_worst) of all chains' first S kept draws.
**
** Bounded cost: points at S = PN_POOLFIRST draws per chain, then each
** time the draws made grew by 10% (s_{k+1} = max(s_k + 1, ceil(1.1 s_k))
** draws seen), plus one at the end, once every run has stopped, on all
** the draws kept (S the fewest any chain kept: exactly what r:summary()
** summarizes, so the last value is r:summary()'s max rhat and min
** ess_bulk).  The points depend on the draws only, never on the frame
** rate; a live view spends at most a budget of seconds a frame on them
** and catches up over later frames.  When PN_POOLMAX points are held,
** every other one is dropped and the growth factor squared. */
int pn_chainset (const pn_runs *rs);

#define PN_POOLMAX 96
#define PN_POOLFIRST 20
typedef struct pn_pool {
  const ol_run *first;  /* the runs the points are of: runs[0] and n */
  int nruns;
  int n;                /* points held */
  long seen[PN_POOLMAX];   /* draws made per chain at each point */
  double it[PN_POOLMAX];   /* iteration of the last draw used */
  double rhat[PN_POOLMAX], ess[PN_POOLMAX];
  double grow;          /* 1.1, squared each time the points are thinned */
  long next;            /* draws seen at the next point */
  int final;            /* the last point is the stopped runs' whole */
  int fail;             /* diagnostics failed (a non-finite draw) */
} pn_pool;
/* Add the points due for rs (rs not a chain set: nothing; other runs
** than last time: start over), spending at most budget seconds (0: no
** limit).  Returns the points held. */
int pn_pool_update (pn_pool *pl, const pn_runs *rs, double budget);

/* The legend label of run k: "chain k+1" when chains is set (the caller's
** pn_chainset(rs): the chains share the sampler and its parameters, so
** their labels would repeat them, and a start value such as eps=1 is not
** what adapted chains run with), else rs->labels[k] ("?" when none).
** buf (>= 16 bytes) holds a made label. */
const char *pn_label (const pn_runs *rs, int chains, int k, char *buf,
                      size_t size);

/* -- x axis --------------------------------------------------------------- */

/* What metric series are plotted against (the xaxis option): iterations
** (ol_run_times), gradient evaluations (ol_run_evals), stepping seconds
** (ol_run_secs, each run its own clock), bits sent (the recorded series of
** the bits metric: distributed methods) or communication rounds (the
** rounds metric's series, iterations when it is not recorded). */
enum { PN_X_ITER, PN_X_EVALS, PN_X_TIME, PN_X_BITS, PN_X_ROUNDS,
       PN_NXAXES };
/* A log x axis travels with the xaxis value as a flag (the run option
** xlog = true): PN_XKIND(v) is the axis kind, PN_XLOGGED(v) the flag. */
#define PN_X_LOG 0x100
#define PN_XKIND(v) ((v) & 0xff)
#define PN_XLOGGED(v) (((v) & PN_X_LOG) != 0)

/* Option name ("iter", "evals", "time", "bits", "rounds") and axis label
** ("iteration", "gradient evaluations", "seconds", "bits sent",
** "communication rounds") of xaxis; NULL if out of range. */
const char *pn_xaxis_name (int xaxis);
const char *pn_xaxis_label (int xaxis);
/* Kind of an option name, -1 if unknown. */
int pn_xaxis_find (const char *name);
/* x of recorded point i of r on that axis. */
double pn_xat (const ol_run *r, int xaxis, int i);
/* Parameter changes (run.h: ol_change, ol_run_changes) on line panels:
** each marked at its x by PN_CHGMARK (U+25B2 / '^') on the x axis row in
** the run's role, with a dotted line (U+250A / ':', role PN_HEAT) up
** through the plot's empty cells, and a legend line "^ n changes"; in SVG
** a dashed vertical line in the run's colour (class "change") labelled
** with the new value ("lr=3").  A run without changes draws nothing new.
** pn_change_x: the x on xaxis of a change made after t steps of r: t on
** the iteration axis, else the x of the first recorded point at or after
** iteration t (the last one when none is); NAN when r has no record. */
#define PN_CHGMARK 0x25B2
double pn_change_x (const ol_run *r, int xaxis, long t);

/* Tick label of x value v in buf (at most width + 1 chars): cv_fmt, with
** an "s" appended on the seconds axis ("0.5s", "2s"). */
void pn_xfmt (int xaxis, double v, char *buf, size_t size, int width);

/* -- metric panel --------------------------------------------------------- */

/* Draw metric m of every run inside o with axes ax (NULL: fresh, x axis
** iterations, linear; y log when pn_log_prone and a value is positive and
** none negative), the x axis label at the right of the tick row, the
** legend below; title "loss [log]" into title. */
void pn_metric (const pn_runs *rs, int m, pn_axes *ax, const pn_out *o,
                char *title, size_t tsize);

/* -- pieces shared with the SVG renderer ---------------------------------- */

/* The x axis title of a panel of kind drawn with ax (NULL: iterations):
** "iteration", "gradient evaluations (log)", ...; "" for the 2-D panels.
** Callers put it in the panel's bottom border, where no tick label is. */
const char *pn_xtitle (int kind, const pn_axes *ax, char *buf, size_t size);

/* The panel added by default beside the watched metrics when none of them
** is a 2-D panel: PN_WORKERS for a 2-D run whose method keeps its nodes'
** iterates, PN_LANDSCAPE for a 2-D objective or density, PN_SIMPLEX
** for a game over 3-action simplices or of two 2-action players (the unit
** square; trajectory recorded), else -1. */
int pn_auto_panel (const pn_runs *rs);

/* The points of one run on a line panel of kind (a metric, or PN_TRACE:
** coordinate x1 of the draws or trajectory) against xaxis: n points,
** point i at (pn_src_x, pn_src_y).  pn_src_open returns 0 when the run
** has none. */
typedef struct pn_src {
  int kind, xaxis;
  const ol_run *r;
  const double *v;      /* metric series */
  pn_pts pt;            /* trace points */
  int coord;            /* trace: the coordinate shown */
  const double *px, *py;   /* pooled points (pn_src_pool) */
  long n;
} pn_src;
int pn_src_open (pn_src *s, int kind, int xaxis, const ol_run *r);
/* The pooled curve of a rhat or ess panel: 0 when pl holds no point. */
int pn_src_pool (pn_src *s, int kind, const pn_pool *pl);
/* 1 when a panel of kind over rs draws the pooled curve (kind rhat or
** ess and rs a chain set). */
int pn_pooled (const pn_runs *rs, int kind);
double pn_src_x (const pn_src *s, long i);
double pn_src_y (const pn_src *s, long i);

/* Extent of metric m (or PN_TRACE: coordinate x1) over the runs: finite
** values, smallest value >= PN_TINY (pmin), largest x on xaxis and
** smallest x > 0 (for a log x axis). */
typedef struct pn_extent {
  int any, neg;
  double min, max, pmin;
  double xmax, xminpos;
} pn_extent;
void pn_scan (const pn_runs *rs, int m, int xaxis, pn_extent *e);
/* The same over the pooled curve of pl. */
void pn_scan_pool (const pn_pool *pl, int m, pn_extent *e);
/* The y axis kind for ymode over that extent: 1 log, 0 linear. */
int pn_ylog (int m, int ymode, const pn_extent *e);

/* "label vals" shortened to at most width columns into buf: first the
** value groups of vals (may be NULL; groups separated by '\t', shown as
** spaces) are dropped from the end, then the label's space- or
** comma-separated tokens (an ellipsis, "…" in UTF-8 or "..." in ASCII,
** marks the cut); only a first token longer than width is cut, so no
** number is ever cut.  Returns the columns used. */
int pn_shorten (const char *label, const char *vals, int width, int utf8,
                char *buf, size_t size);
/* Display columns of a UTF-8 string. */
int pn_cols (const char *s);

#endif
