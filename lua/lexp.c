/*
** lua/lexp.c -- the one experiment (lexp.h): N runs in lock-step, their
** slices paced by time, interrupt and halt; the foreground driver of run,
** race and r:continue and the last frame it leaves; the pacing rule and
** options shared with start.
**
** Stepping.  Every step of every front end goes through olua_exp_slice:
** a slice is cut into chunks of an eighth, and the clock and the
** interrupt flag are read between chunks, so one slow step (a slow Lua
** objective) is never followed by many before the next frame or the next
** look at Ctrl-C.  The slice starts at one step, doubles while a full
** slice takes under a quarter of its target time and shrinks in
** proportion when it takes longer.  The foreground driver's target is a
** frame (1/OLUA_FPS s) with a view, 1/20 s without; a job's target is its
** share of the program's tick (ljob.c).
**
** Pacing (olua_pace_speed): see optlab.h.  The view decides how many steps
** a frame takes (frame's return value: the steps the clock owes at the
** speed) and the slice caps them; while it owes none the view has waited
** for the next one in its key wait, and this loop sleeps 10 ms.
**
** Once stepping starts nothing raises: Ctrl-C, a view's quit or a
** callback error stop the runs, which keep their traces and stop reasons.
**
** The last frame (view = "keep", olua_keepframe): after the view closed,
** the caller prints the object's plot (olua_plot, the renderer of
** r:plot(), sized from the view's size hook) and its summary (its
** __tostring), each under lua_pcall, so a plot that fails is left out
** and nothing raises.  Without a view nothing is printed.
*/
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lexp.h"
#include "plot.h"

#define MAXSLICE (1L << 30)

double olua_pace_speed (double speed, long budget)
{
  if (speed != OLUA_SPEED_AUTO) return speed;
  /* (the rule of optlab.h: the budget over about OLUA_PACE_FRAMES frames;
  ** a budget too large for that is full speed anyway) */
  if (budget <= 0 || budget / OLUA_PACE_FRAMES >= MAXSLICE)
    return OLUA_SPEED_MAX;
  return ceil((double)budget * OLUA_FPS / OLUA_PACE_FRAMES);
}

void olua_exp_init (olua_exp *x, lrun **boxes, ol_run **runs,
                    const char **labels, int nruns, const char *title,
                    double speed, int paused)
{
  int i;
  memset(x, 0, sizeof *x);
  x->nruns = nruns;
  x->boxes = boxes;
  x->runs = runs;
  for (i = 0; i < nruns; i++) runs[i] = boxes[i]->r;
  x->slice = 1;
  x->live.nruns = nruns;
  x->live.runs = runs;
  x->live.labels = labels;
  x->live.nwatch = boxes[0]->nwatch;
  x->live.watch = boxes[0]->watch;
  x->live.iters = runs[0] != NULL ? ol_run_budget(runs[0]) : 0;
  x->live.title = title;
  x->live.xaxis = boxes[0]->xaxis;
  x->live.win = boxes[0]->haswin ? boxes[0]->win : NULL;
  x->live.speed = speed;
  x->live.paused = paused;
}

int olua_exp_live (olua_exp *x)
{
  int i, live = 0;
  for (i = 0; i < x->nruns; i++) {
    x->runs[i] = x->boxes[i]->r;
    if (x->runs[i] == NULL) return 0;
    live += ol_run_reason(x->runs[i]) == OL_STOP_NONE;
  }
  return live;
}

void olua_exp_halt (olua_exp *x, int reason)
{
  int i;
  for (i = 0; i < x->nruns; i++)
    if (x->boxes[i]->r != NULL) ol_run_halt(x->boxes[i]->r, reason);
}

/* Every live run by k steps; the box, not x->runs: a callback may close a
** sibling run. */
static void advance (olua_exp *x, long k)
{
  int i;
  if (x->t0 == 0) x->t0 = ol_now();
  if (x->busy != NULL) (*x->busy)++;
  for (i = 0; i < x->nruns; i++)
    if (x->boxes[i]->r != NULL
        && ol_run_reason(x->boxes[i]->r) == OL_STOP_NONE)
      ol_run_advance(x->boxes[i]->r, k);
  if (x->busy != NULL) (*x->busy)--;
}

long olua_exp_slice (olua_exp *x, long cap, double target,
                     volatile sig_atomic_t *intr)
{
  long take = cap < x->slice ? cap : x->slice, done = 0, chunk;
  double t0 = ol_now(), dt;
  if (take < 1) return 0;
  chunk = take / 8 > 0 ? take / 8 : 1;
  /* (1) the slice, in chunks, until done, late or interrupted */
  while (done < take) {
    long c = take - done < chunk ? take - done : chunk;
    advance(x, c);
    done += c;
    if (ol_now() - t0 >= target || (intr != NULL && *intr)) break;
  }
  dt = ol_now() - t0;
  /* (2) the next slice: in proportion when slow, doubled while fast */
  if (dt > target) {
    double k = (double)done * target / dt;
    x->slice = k >= 1 ? (long)k : 1;
  }
  else if (take == x->slice && done == take && dt < target / 4
           && x->slice < MAXSLICE)
    x->slice *= 2;
  return done;
}

int olua_exp_settle (olua_exp *x, volatile sig_atomic_t *intr, int seen)
{
  int i;
  for (i = 0; i < x->nruns; i++) {
    ol_run *r = x->boxes[i]->r;
    if (r != NULL && ol_run_reason(r) == OL_STOP_CALLBACK
        && ((intr != NULL && *intr)
            || strstr(ol_run_message(r), "interrupted!") != NULL)) {
      x->boxes[i]->intr = 1;
      seen = 1;
    }
    /* a step that stopped for Ctrl-C itself (a factorisation left to its
    ** thread, core/bg.h) */
    if (r != NULL && ol_run_reason(r) == OL_STOP_INTERRUPTED) seen = 1;
  }
  if (seen && intr != NULL && *intr) *intr = 2;  /* taken: see optlab.h */
  return seen;
}

void olua_readpace (lua_State *L, int idx, const char *who, double *speed,
                    int *paused)
{
  *speed = OLUA_SPEED_AUTO;
  *paused = 0;
  if (lua_isnoneornil(L, idx) || !lua_istable(L, idx)) return;
  idx = lua_absindex(L, idx);
  if (lua_getfield(L, idx, "speed") != LUA_TNIL) {
    if (lua_type(L, -1) == LUA_TSTRING
        && strcmp(lua_tostring(L, -1), "max") == 0)
      *speed = OLUA_SPEED_MAX;
    else if (lua_type(L, -1) == LUA_TNUMBER) {
      lua_Number v = lua_tonumber(L, -1);
      if (!(v >= OLUA_SPEED_MIN && v <= 1e12))
        luaL_error(L, "%s: speed must be a number of steps per second "
                   "in [0.25, 1e12] or \"max\", got %s", who,
                   luaL_tolstring(L, -1, NULL));
      *speed = v;
    }
    else
      luaL_error(L, "%s: speed must be a number of steps per second or "
                 "\"max\", got %s", who,
                 lua_type(L, -1) == LUA_TSTRING
                 ? lua_pushfstring(L, "'%s'", olua_pushshort(L,
                                   lua_tostring(L, -1)))
                 : luaL_typename(L, -1));
  }
  if (lua_getfield(L, idx, "paused") != LUA_TNIL) {
    if (!lua_isboolean(L, -1))
      luaL_error(L, "%s: paused must be a boolean, got a %s", who,
                 luaL_typename(L, -1));
    *paused = lua_toboolean(L, -1);
  }
  lua_pop(L, 2);
}

static void sleepms (long ms)
{
  struct timespec ts;
  ts.tv_sec = ms / 1000;
  ts.tv_nsec = (ms % 1000) * 1000000L;
  nanosleep(&ts, NULL);
}

int olua_drive (lua_State *L, lrun **boxes, int nruns, const char *title,
                int useview, int progress)
{
  return olua_exp_drive(L, boxes, nruns, title, useview, progress,
                        OLUA_SPEED_AUTO, 0);
}

/* Step the runs in lock-step until all stop.  Allocation (labels and the
** pointer arrays) happens first, while raising is still harmless. */
int olua_exp_drive (lua_State *L, lrun **boxes, int nruns,
                    const char *title, int useview, int progress,
                    double speed, int paused)
{
  olua_state *S = olua_getstate(L);
  ol_run **runs = lua_newuserdatauv(L, (size_t)nruns * sizeof *runs, 0);
  const char **labels = lua_newuserdatauv(L, (size_t)nruns * sizeof *labels,
                                          0);
  olua_exp x;
  int i, opened = 0, seen = 0, top = lua_gettop(L);
  double tprog, target;
  lua_checkstack(L, nruns + 4);
  for (i = 0; i < nruns; i++) {
    olua_pushrunlabel(L, boxes[i]);
    labels[i] = lua_tostring(L, -1);
  }
  olua_exp_init(&x, boxes, runs, labels, nruns, title, speed, paused);
  /* no view when nothing is left to step (stopped at x0, or Ctrl-C came
  ** while the runs were made: its first frame could call a looping f) */
  if (olua_exp_live(&x) > 0 && !(S->intr != NULL && *S->intr) && useview
      && S->view != NULL && S->view->open != NULL)
    opened = S->view->open(S->view->ud, &x.live) == 0;
  target = opened ? 1.0 / OLUA_FPS : 0.05;
  tprog = ol_now() + 1.0;
  for (;;) {
    long take = LONG_MAX;
    if (olua_exp_live(&x) == 0) break;
    if (S->intr != NULL && *S->intr) {
      seen = 1;
      olua_exp_halt(&x, OL_STOP_INTERRUPTED);
      break;
    }
    if (opened) {
      take = S->view->frame(S->view->ud, &x.live);
      if (take < 0) {
        olua_exp_halt(&x, OL_STOP_STOPPED);
        break;
      }
      if (take == 0) {
        sleepms(10);
        continue;
      }
    }
    olua_exp_slice(&x, take, target, S->intr);
    if (!opened && progress && ol_now() >= tprog) {
      for (i = 0; i < nruns; i++)
        olua_progressline(nruns == 1 ? ol_run_method(runs[i])->name
                          : labels[i], boxes[i]);
      tprog = ol_now() + 1.0;
    }
  }
  olua_exp_settle(&x, S->intr, seen);
  if (opened && S->view->close != NULL) S->view->close(S->view->ud, &x.live);
  if (progress)
    for (i = 0; i < nruns; i++) olua_failnote(labels[i], boxes[i]);
  lua_settop(L, top - 2);
  return opened && useview == OLUA_VIEW_KEEP;
}

/* -- the last frame kept -------------------------------------------------- */

/* Panels the plot method shows by default for the object at idx (its
** first run's watch list, then the 2-D panel: lplot.c's rule), 0 when it
** has no open run. */
static int plotpanels (lua_State *L, int idx)
{
  enum { MAXR = 64 };
  ol_run *runs[MAXR];
  const char *labels[MAXR];
  lrun *b0 = NULL;
  pl_plot pl;
  char why[160];
  int watch[PL_MAXPANELS], nw = 0, n, i, single;
  single = luaL_testudata(L, idx, OLUA_RUN) != NULL;
  n = single ? 1 : lua_istable(L, idx) ? (int)lua_rawlen(L, idx) : 0;
  if (n > MAXR) n = MAXR;
  for (i = 0; i < n; i++) {
    lrun *b;
    if (single) lua_pushvalue(L, idx);
    else lua_rawgeti(L, idx, i + 1);
    b = luaL_testudata(L, -1, OLUA_RUN);
    lua_pop(L, 1);
    if (b == NULL || b->r == NULL) return 0;
    if (i == 0) b0 = b;
    runs[i] = b->r;
    labels[i] = "";
  }
  if (b0 == NULL) return 0;
  memset(&pl, 0, sizeof pl);
  pl.rs.n = n;
  pl.rs.runs = runs;
  pl.rs.labels = labels;
  for (i = 0; i < b0->nwatch && nw < PL_MAXPANELS; i++)
    if (pn_available(&pl.rs, b0->watch[i], why, sizeof why))
      watch[nw++] = b0->watch[i];
  pl_default_panels(&pl, watch, nw);
  return pl.npanels;
}

/* (object, rows, cols): the plot, then the summary, on stdout. */
static int keepframe (lua_State *L)
{
  int rows = (int)lua_tointeger(L, 2), cols = (int)lua_tointeger(L, 3);
  int np = plotpanels(L, 1), nsum = 1, h;
  size_t len, i;
  const char *sum = luaL_tolstring(L, 1, &len);     /* index 4 */
  for (i = 0; i + 1 < len; i++) nsum += sum[i] == '\n';
  /* (1) the plot: the rows the summary, the prompt and the statement
  ** (one wrapped line) leave, shared */
  if (np > 0) {
    h = (rows - nsum - 3) / np;
    h = h < 8 ? 8 : h > 16 ? 16 : h;
    lua_pushcfunction(L, olua_plot);
    lua_pushvalue(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, cols < 40 ? 40 : cols > 1000 ? 1000 : cols);
    lua_setfield(L, -2, "width");
    lua_pushinteger(L, h);
    lua_setfield(L, -2, "height");
    if (lua_pcall(L, 2, 0, 0) != LUA_OK) lua_pop(L, 1);
  }
  /* (2) the summary */
  fwrite(sum, 1, len, stdout);
  if (len == 0 || sum[len - 1] != '\n') fputc('\n', stdout);
  fflush(stdout);
  return 0;
}

void olua_keepframe (lua_State *L, int idx)
{
  olua_state *S = olua_getstate(L);
  int rows = 24, cols = 80;
  idx = lua_absindex(L, idx);
  if (S->view != NULL && S->view->size != NULL)
    S->view->size(S->view->ud, &rows, &cols);
  lua_pushcfunction(L, keepframe);
  lua_pushvalue(L, idx);
  lua_pushinteger(L, rows);
  lua_pushinteger(L, cols);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) lua_pop(L, 1);
  else {
    lua_pushvalue(L, idx);
    lua_setfield(L, LUA_REGISTRYINDEX, OLUA_SHOWN);
  }
}
