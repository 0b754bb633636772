/*
** lua/optlab.h -- the Lua binding as the program (repl/) sees it.
**
** luaopen_optlab installs the optlab library into a lua_State: the
** tables problem, optim, sample, game and the functions run, race, help
** (see man/optlab.1).  The program supplies the live view through
** olua_setview: lua/ never touches the terminal itself, so without a view
** (no terminal, --no-tui) run and race print progress lines to stderr.
*/
#ifndef OLUA_H
#define OLUA_H

#include <signal.h>

#include "lua.h"
#include "run.h"

int luaopen_optlab (lua_State *L);

/* The traceback message handler for lua_pcall (as lua.c's): the error
** message with a stack traceback, for error objects without one too. */
int olua_msghandler (lua_State *L);

/* What a live view is shown: N runs stepped in lock-step on one problem. */
typedef struct olua_live {
  int nruns;
  ol_run *const *runs;
  const char *const *labels;   /* per run: "adam lr=0.01" */
  int nwatch;
  const int *watch;            /* metric ids to plot, one panel each */
  long iters;                  /* budget per run */
  const char *title;           /* problem description */
  int xaxis;                   /* x of the metric panels, PN_X_* of
                                  core/plot/plotpanel.h: 0 iterations, 1
                                  gradient evaluations, 2 each run's
                                  own stepping seconds */
  const double *win;           /* the landscape's window (xlo, xhi, ylo,
                                  yhi; NAN: that axis the runs'), from
                                  the view option, or NULL */
  double speed;                /* what a view opens with: steps per
                                  second, or OLUA_SPEED_MAX / _AUTO */
  int paused;                  /* open paused (paused=true) */
  const char *state;           /* the header's state when not NULL (a
                                  bulk operation's "running" while its
                                  tasks go on, though the runs shown
                                  have stopped) */
} olua_live;

/* Pacing.  A view shows an experiment at a speed of steps per second,
** from OLUA_SPEED_MIN (one step every 4 s, slow enough to narrate) up,
** fractions allowed, or at OLUA_SPEED_MAX: as many steps as fit in a
** frame's time.  Steps are owed by the clock (speed times the seconds
** elapsed) and taken between frames, OLUA_FPS a second; below OLUA_FPS
** steps a second a frame takes one step or none, and the view waits for
** the next one in the terminal's key wait, not in a loop.  The default,
** OLUA_SPEED_AUTO, is watchable: olua_pace_speed turns it into
** ceil(budget * OLUA_FPS / OLUA_PACE_FRAMES) steps a second, so a run
** whose budget would finish in a blink at full speed lasts about
** OLUA_PACE_FRAMES frames (3 s), while a longer one, whose steps a frame
** at full speed are fewer than that, runs at full speed (the steps of a
** frame are also capped by its time).  Headless stepping (no view,
** j:wait, j:step) is never paced. */
#define OLUA_SPEED_MAX 1099511627776.0       /* 2^40 */
#define OLUA_SPEED_MIN 0.25
#define OLUA_SPEED_AUTO 0.0
#define OLUA_FPS 30
#define OLUA_PACE_FRAMES 90
double olua_pace_speed (double speed, long budget);

/* The registry field where olua_keepframe leaves the object whose last
** frame and summary it printed: the prompt does not print that object
** again when it is the statement's one result (`run(...)` typed bare). */
#define OLUA_SHOWN "optlab.shown"

/* Hooks of a live view.  All pointers in lv are valid during each call. */
typedef struct olua_view {
  void *ud;
  /* Start showing lv: 0 when shown, non-zero to decline (the binding then
  ** prints progress lines instead). */
  int (*open) (void *ud, const olua_live *lv);
  /* Redraw (rate-limited by the view) and poll input.  Returns the number
  ** of steps each run may take before the next call (> 0), 0 to take none
  ** now (paused), or -1 to stop the experiment (q, Ctrl-C). */
  long (*frame) (void *ud, const olua_live *lv);
  /* The experiment is over (all runs stopped, or frame returned -1):
  ** restore the terminal. */
  void (*close) (void *ud, const olua_live *lv);
  /* The terminal's size (may be NULL: 80 x 24), for the last frame the
  ** binding prints after close (view = "keep"). */
  void (*size) (void *ud, int *rows, int *cols);
} olua_view;

/* Install the view (kept by pointer until replaced; NULL for none). */
void olua_setview (lua_State *L, const olua_view *v);

/* A flag the program's SIGINT handler sets to 1; run and race poll it
** between slices of steps, stop with "interrupted" and set it to 2
** (taken: the program's hook then lets plain Lua code go on, so that the
** statement keeps the run it returns); new runs, races and jobs raise
** "interrupted!" while it is not 0.  The program clears it when the
** statement is over. */
void olua_setintr (lua_State *L, volatile sig_atomic_t *flag);

/* Where the binding keeps the Lua thread that is running a callback (a
** problem.new function, called from C) right now, NULL when none; valid
** for the life of L.  A count hook is per thread, so the program's SIGINT
** handler arms its hook on *olua_cbthread(L) as well as on L, and an
** objective stuck in a Lua loop is interrupted too. */
lua_State *volatile *olua_cbthread (lua_State *L);

/* The coroutines being resumed right now (coroutine.resume and the
** functions of coroutine.wrap, replaced by the binding so that they keep
** this chain), outermost first: *n of them, at most OLUA_MAXCO kept.  The
** program's SIGINT handler arms its hook on each, so that Lua code
** looping inside a coroutine is interrupted too. */
#define OLUA_MAXCO 64
lua_State *volatile *olua_cothreads (lua_State *L, volatile int **n);

/* Background jobs (start() in Lua).  The program steps them between
** keystrokes with olua_jobs_tick and shows the active ones (not done)
** from olua_jobs_list; none of these raise or allocate. */
enum { OLUA_JOB_RUNNING, OLUA_JOB_PAUSED, OLUA_JOB_DONE };
enum { OLUA_JOB_PAUSE, OLUA_JOB_RESUME, OLUA_JOB_STEP, OLUA_JOB_STOP };

typedef struct olua_job {
  int id;
  int state;                   /* OLUA_JOB_RUNNING or _PAUSED */
  olua_live live;              /* labels are "#id method params";
                                  live.speed is the job's speed now */
  const char *method;          /* the first run's method name */
} olua_job;

/* Step the running jobs, round robin, for about budget_s seconds (at
** least one slice each).  paced (a view shows the jobs): each job takes
** at most the steps its speed owes a frame (1/OLUA_FPS s of wall clock);
** otherwise every job goes at full speed.  Returns the number of jobs not
** done. */
int olua_jobs_tick (lua_State *L, double budget_s, int paced);
/* Jobs not done; *running (may be NULL) gets those not paused. */
int olua_jobs_count (lua_State *L, int *running);
/* Running jobs that have steps to take now (at full speed, or with steps
** of the current frame left): the program then polls instead of waiting. */
int olua_jobs_busy (lua_State *L);
/* Set the speed (steps per second or OLUA_SPEED_MAX) of job id, or of
** every job not done when id is 0.  Returns the number of jobs set. */
int olua_jobs_setspeed (lua_State *L, int id, double speed);
/* Fill out[0 .. max-1] with the jobs not done, in start order; the
** pointers stay valid until the next step or Lua call.  Returns the count. */
int olua_jobs_list (lua_State *L, olua_job *out, int max);
/* Apply op (OLUA_JOB_PAUSE, _RESUME, _STEP: pause then one step, _STOP:
** reason "stopped") to job id, or to every job not done when id is 0.
** Returns the number of jobs it applied to. */
int olua_jobs_ctl (lua_State *L, int id, int op);

/* Lesson scripts (lesson.say, lesson.pause, lesson.ask: lua/lesson.lua)
** on a terminal.  The program installs these hooks when it has a
** terminal to talk to (as it does the view); without them (a pipe,
** --no-tui) the lesson functions print their text and return at once. */
enum { OLUA_KEY_INTR = -1, OLUA_KEY_LEFT = -2, OLUA_KEY_RIGHT = -3,
       OLUA_KEY_BACK = -4 };
typedef struct olua_lesson {
  void *ud;
  /* Columns of the terminal now. */
  int (*width) (void *ud);
  /* Show text (copied; NULL or "" for none) as the live view's caption
  ** from now on, until the next call. */
  void (*caption) (void *ud, const char *text);
  /* Show prompt (a one-line hint, "[press space to go on]") on the
  ** terminal's current line, wait for one key, erase the prompt and
  ** return the key: a byte (' ', 'a', '\n' for Return), or
  ** OLUA_KEY_LEFT, _RIGHT (arrows), _BACK (backspace), _INTR (Ctrl-C,
  ** end of input); the terminal is back in its mode on return. */
  int (*key) (void *ud, const char *prompt);
} olua_lesson;

/* Install the lesson hooks (kept by pointer until replaced; NULL for
** none). */
void olua_setlesson (lua_State *L, const olua_lesson *h);

#endif
