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

/* What a live view is shown: N runs stepped in lock-step on one problem. */
typedef struct olua_live {
  int nruns;
  ol_run *const *runs;
  const char *const *labels;   /* per run: "adam lr=0.01" */
  int nwatch;
  const int *watch;            /* metric ids to plot, one panel each */
  long iters;                  /* budget per run */
  const char *title;           /* problem description */
} olua_live;

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
} olua_view;

/* Install the view (kept by pointer until replaced; NULL for none). */
void olua_setview (lua_State *L, const olua_view *v);

/* A flag the program's SIGINT handler sets; run and race poll it between
** slices of steps, stop with "interrupted" and clear it. */
void olua_setintr (lua_State *L, volatile sig_atomic_t *flag);

#endif
