/*
** lua/ljob.c -- background jobs: start(problem, method or {methods},
** opts), jobs(), and job objects ("optlab.job").
**
** A job owns one run (or a race of runs): one experiment (lua/lexp.c,
** the same object run and race drive in the foreground) that is stepped
** later, through olua_exp_slice only: by the program between keystrokes
** (olua_jobs_tick, see optlab.h; paced at the job's speed while the
** dashboard shows it), or at once, at full speed, by j:step(n) and
** j:wait().  start() itself takes no step, so a script without a prompt
** decides when its jobs move; start(..., {paused = true}) opens paused.
**
** States: running -> paused -> running (j:pause, j:resume), and done when
** every run stopped (budget, tolerance, j:stop() = "stopped", Ctrl-C in
** j:wait() = "interrupted", a closed run).  Jobs not done are kept by the
** record; a done job is kept while it is one of the KEEPDONE most recently
** started, and after that only while the program refers to it, so
** finished jobs and their runs are collected.  jobs() lists the jobs
** still alive.  A job's own callbacks may not step, wait for or stop it
** (an error: the job is being stepped).
**
** Bookkeeping lives in one registry record (key: the address of jskey):
** the id counter, the not-done jobs as C pointers (so a tick walks an
** array and allocates nothing, hence never raises), and as its user
** values 1: the jobs by id, weak (for jobs()), 2: the jobs kept, by id
** (pruned by start and jobs, never while a job is being stepped, since a
** tick holds C pointers to jobs).  A job box's user values:
** 1 = its runs as a race table (j.runs), 2 = a table of label strings
** ("#3 adam lr=0.01" per run, and "label"), which anchors the C pointers
** handed to the dashboard.
*/
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexp.h"
#include "lprint.h"

#define OLUA_JOB "optlab.job"
#define MAXACTIVE 64
#define KEEPDONE 16     /* done jobs kept regardless: the latest started */

typedef struct jstate jstate;

typedef struct ljob {
  jstate *js;           /* the record */
  int id;
  int state;            /* OLUA_JOB_RUNNING, _PAUSED, _DONE */
  int nruns;
  olua_exp x;           /* the runs as one experiment (lua/lexp.c) */
  double speed;         /* steps per second when watched, or _MAX */
  long quota;           /* steps left in the current frame */
  double carry;         /* the fraction of a step owed from frames past
                           (below OLUA_FPS steps a second) */
  double filled;        /* when the quota was last refilled (0: never) */
  double due;           /* when the next frame starts (wall clock) */
  double t1;            /* wall clock when done */
  lrun **boxes;         /* nruns run boxes (anchored by user value 1) */
  ol_run **runs;        /* their runs, refreshed before each use */
  const char **labels;  /* "#id label" per run (anchored by value 2) */
  char title[160];
} ljob;

struct jstate {
  int nextid;
  int nact;
  int stepping;          /* advance calls in progress */
  ljob *act[MAXACTIVE];  /* jobs not done, in start order */
};

static const char jskey = 'j';

/* The record (never allocates; NULL before olua_openjobs). */
static jstate *getjs (lua_State *L)
{
  jstate *js;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &jskey);
  js = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return js;
}

static const char *const statenames[] = {"running", "paused", "done"};

/* -- state changes -------------------------------------------------------- */

static void deactivate (jstate *js, ljob *j)
{
  int i;
  for (i = 0; i < js->nact; i++)
    if (js->act[i] == j) {
      memmove(&js->act[i], &js->act[i + 1],
              (size_t)(js->nact - i - 1) * sizeof js->act[0]);
      js->nact--;
      return;
    }
}

/* Refresh j->runs from the boxes; the job is done when every run stopped
** or one was closed.  Returns 1 while not done. */
static int refresh (jstate *js, ljob *j)
{
  if (j->state == OLUA_JOB_DONE) return 0;
  if (olua_exp_live(&j->x) > 0) return 1;
  j->state = OLUA_JOB_DONE;
  j->t1 = ol_now();
  if (js != NULL) deactivate(js, j);
  return 0;
}

static void halt (jstate *js, ljob *j, int reason)
{
  if (!refresh(js, j)) return;
  olua_exp_halt(&j->x, reason);
  refresh(js, j);
}

/* Step j by n steps (n < 0: until done), full speed, in slices paced by
** time (50 ms), polling the interrupt flag between them and between the
** chunks of a slice; Ctrl-C stops the job with "interrupted", also when
** it arrived inside a Lua objective (the program's hook raised
** "interrupted!" there). */
static void drive (lua_State *L, ljob *j, long n)
{
  olua_state *S = olua_getstate(L);
  jstate *js = getjs(L);
  int seen = 0;
  while (refresh(js, j) && n != 0) {
    long done;
    if (S->intr != NULL && *S->intr) {
      seen = 1;
      break;
    }
    done = olua_exp_slice(&j->x, n > 0 ? n : LONG_MAX, 0.05, S->intr);
    if (n > 0) n -= done;
  }
  if (olua_exp_settle(&j->x, S->intr, seen)) halt(js, j, OL_STOP_INTERRUPTED);
}

/* -- the program's side (optlab.h) ---------------------------------------- */

/* The steps j may take now: all it wants unwatched or at full speed;
** watched at a finite speed, what is left of the current frame's quota
** (a new frame, every 1/OLUA_FPS s, refills it with the steps the clock
** owes at the speed since the last refill, the fraction carried to the
** next, so 0.5 steps a second is one step every 2 s; steps a slow frame
** did not take are dropped, so slow steps go at full speed). */
static long allowance (ljob *j, int paced, double t)
{
  if (!paced || j->speed >= OLUA_SPEED_MAX) return LONG_MAX;
  if (t >= j->due) {
    /* the seconds since the last refill (one frame at the first), at
    ** most two frames' steps owed: no burst after a wait */
    double el = j->filled > 0 ? t - j->filled : 1.0 / OLUA_FPS;
    double cap = j->speed * 2 / OLUA_FPS, q;
    q = j->carry + j->speed * el;
    if (q > (cap > 1 ? cap : 1)) q = cap > 1 ? cap : 1;
    j->quota = (long)q;
    j->carry = q - (double)j->quota;
    j->filled = t;
    j->due = t - j->due < 1.0 / OLUA_FPS ? j->due + 1.0 / OLUA_FPS
                                         : t + 1.0 / OLUA_FPS;
  }
  return j->quota;
}

/* The program's flag (a Ctrl-C while it steps the jobs) ends the slices
** at their next chunk; a job whose callback it interrupted ("interrupted!"
** raised by the program's hook) stops with reason "interrupted". */
int olua_jobs_tick (lua_State *L, double budget_s, int paced)
{
  jstate *js = getjs(L);
  volatile sig_atomic_t *intr = olua_getstate(L)->intr;
  ljob *act[MAXACTIVE];
  double end = ol_now() + budget_s, per;
  int i, n;
  if (js == NULL || js->nact == 0) return 0;
  /* a share of the budget per slice, at least 0.5 ms */
  per = budget_s / (2 * js->nact);
  if (per < 5e-4) per = 5e-4;
  for (;;) {
    int stepped = 0;
    n = js->nact;
    memcpy(act, js->act, (size_t)n * sizeof act[0]);
    for (i = 0; i < n; i++) {
      ljob *j = act[i];
      long cap, done;
      if (j->state != OLUA_JOB_RUNNING || !refresh(js, j)) continue;
      if ((cap = allowance(j, paced, ol_now())) <= 0) continue;
      done = olua_exp_slice(&j->x, cap, per, intr);
      if (cap != LONG_MAX) j->quota -= done;
      stepped = 1;
      if (olua_exp_settle(&j->x, NULL, 0)) halt(js, j, OL_STOP_INTERRUPTED);
      refresh(js, j);
      if (intr != NULL && *intr) break;
    }
    if (!stepped || ol_now() >= end || (intr != NULL && *intr)) break;
  }
  return js->nact;
}

int olua_jobs_busy (lua_State *L)
{
  jstate *js = getjs(L);
  int i, n = 0;
  if (js == NULL) return 0;
  for (i = 0; i < js->nact; i++) {
    ljob *j = js->act[i];
    if (j->state == OLUA_JOB_RUNNING
        && (j->speed >= OLUA_SPEED_MAX || j->quota > 0))
      n++;
  }
  return n;
}

int olua_jobs_setspeed (lua_State *L, int id, double speed)
{
  jstate *js = getjs(L);
  int i, n = 0;
  if (js == NULL) return 0;
  if (!(speed >= OLUA_SPEED_MIN)) speed = OLUA_SPEED_MIN;
  if (speed > OLUA_SPEED_MAX) speed = OLUA_SPEED_MAX;
  for (i = 0; i < js->nact; i++)
    if (id == 0 || js->act[i]->id == id) {
      double q = ceil(speed / OLUA_FPS);
      js->act[i]->speed = speed;
      if (js->act[i]->quota > q) js->act[i]->quota = (long)q;
      n++;
    }
  return n;
}

int olua_jobs_count (lua_State *L, int *running)
{
  jstate *js = getjs(L);
  int i, r = 0;
  if (js == NULL) {
    if (running != NULL) *running = 0;
    return 0;
  }
  for (i = js->nact - 1; i >= 0; i--)
    if (refresh(js, js->act[i]) && js->act[i]->state == OLUA_JOB_RUNNING)
      r++;
  if (running != NULL) *running = r;
  return js->nact;
}

int olua_jobs_list (lua_State *L, olua_job *out, int max)
{
  jstate *js = getjs(L);
  int i, n = 0;
  if (js == NULL) return 0;
  for (i = 0; i < js->nact; i++) {
    ljob *j = js->act[i];
    if (!refresh(js, j)) {
      i--;
      continue;
    }
    if (n == max) break;
    out[n].id = j->id;
    out[n].state = j->state;
    out[n].live = j->x.live;
    out[n].live.iters = j->runs[0] != NULL ? ol_run_budget(j->runs[0]) : 0;
    out[n].live.speed = j->speed;
    out[n].live.paused = j->state == OLUA_JOB_PAUSED;
    out[n].method = ol_run_method(j->runs[0])->name;
    n++;
  }
  return n;
}

int olua_jobs_ctl (lua_State *L, int id, int op)
{
  jstate *js = getjs(L);
  int i, n = 0;
  if (js == NULL) return 0;
  for (i = js->nact - 1; i >= 0; i--) {
    ljob *j = js->act[i];
    if (id != 0 && j->id != id) continue;
    if (!refresh(js, j)) continue;
    n++;
    switch (op) {
    case OLUA_JOB_PAUSE: j->state = OLUA_JOB_PAUSED; break;
    case OLUA_JOB_RESUME: j->state = OLUA_JOB_RUNNING; break;
    case OLUA_JOB_STEP:
      j->state = OLUA_JOB_PAUSED;
      olua_exp_slice(&j->x, 1, 1e30, NULL);
      refresh(js, j);
      break;
    case OLUA_JOB_STOP: halt(js, j, OL_STOP_STOPPED); break;
    default: break;
    }
  }
  return n;
}

/* -- Lua side ------------------------------------------------------------- */

static ljob *checkjob (lua_State *L, int arg)
{
  olua_ad_notraced(L, "a job");
  return luaL_checkudata(L, arg, OLUA_JOB);
}

/* Raise unless j is idle: none of its runs is being stepped (who is the
** method, its callback the caller). */
static void checkidle (lua_State *L, const ljob *j, const char *who)
{
  int i;
  for (i = 0; i < j->nruns; i++)
    if (j->boxes[i]->r != NULL && ol_run_busy(j->boxes[i]->r))
      luaL_error(L, "%s: job #%d is being stepped (its own callback cannot "
                 "step, wait for or stop it)", who, j->id);
}

/* Drop from the kept table (the record's user value 2, on top) the done
** jobs older than the KEEPDONE latest; not while a job is being stepped. */
static void prune (lua_State *L, jstate *js)
{
  int t = lua_gettop(L);
  if (js->stepping > 0) return;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    ljob *j = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (j != NULL && j->state == OLUA_JOB_DONE
        && j->id <= js->nextid - KEEPDONE) {
      lua_pushvalue(L, -1);
      lua_pushnil(L);
      lua_rawset(L, t);                /* clearing a field: next goes on */
    }
  }
}

static long maxiter (const ljob *j)
{
  long m = 0;
  int i;
  for (i = 0; i < j->nruns; i++)
    if (j->boxes[i]->r != NULL && ol_run_iter(j->boxes[i]->r) > m)
      m = ol_run_iter(j->boxes[i]->r);
  return m;
}

/* start(problem, method or {methods} [, opts]) -> job. */
static int job_start (lua_State *L)
{
  jstate *js = getjs(L);
  ropts ro;
  ljob *j;
  char who[64];
  int n, i, race, jidx, rt, lt, paused;
  double speed;
  olua_checkintr(L);
  olua_checkproblem(L, 1);
  race = lua_istable(L, 2);
  if (!race) olua_checkmethod(L, 2);
  lua_settop(L, 3);
  n = race ? (int)lua_rawlen(L, 2) : 1;
  if (n < 1) return luaL_error(L, "start: needs a method or a non-empty "
                               "list of methods");
  if (js->nact == MAXACTIVE)
    return luaL_error(L, "start: too many jobs at once (%d)", MAXACTIVE);
  olua_readopts(L, 3, "start", &ro);
  olua_readpace(L, 3, "start", &speed, &paused);
  j = lua_newuserdatauv(L, sizeof *j + (size_t)n * (sizeof(lrun *)
                        + sizeof(ol_run *) + sizeof(char *)), 2);
  memset(j, 0, sizeof *j);
  j->js = js;
  j->boxes = (lrun **)(j + 1);
  j->runs = (ol_run **)(j->boxes + n);
  j->labels = (const char **)(j->runs + n);
  j->nruns = 0;
  j->state = OLUA_JOB_DONE;            /* until fully built */
  luaL_setmetatable(L, OLUA_JOB);
  jidx = lua_gettop(L);
  lua_createtable(L, n, 1);
  rt = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, OLUA_RACE);
  lua_setmetatable(L, rt);
  lua_createtable(L, n, 1);
  lt = lua_gettop(L);
  for (i = 0; i < n; i++) {
    if (race) {
      lua_rawgeti(L, 2, i + 1);
      if (luaL_testudata(L, -1, OLUA_METHOD) == NULL)
        return luaL_error(L, "start: methods[%d] is a %s, expected a method",
                          i + 1, luaL_typename(L, -1));
      snprintf(who, sizeof who, "start: methods[%d]", i + 1);
    }
    else {
      lua_pushvalue(L, 2);
      snprintf(who, sizeof who, "start");
    }
    j->boxes[i] = olua_mkrun(L, 1, -1, &ro, who);
    j->runs[i] = j->boxes[i]->r;
    lua_rawseti(L, rt, i + 1);
    lua_pop(L, 1);
    j->nruns++;
  }
  j->id = ++js->nextid;
  for (i = 0; i < n; i++) {
    olua_pushlabel(L, ol_run_method(j->runs[i]), ol_run_params(j->runs[i]));
    lua_pushfstring(L, "#%d %s", j->id, lua_tostring(L, -1));
    j->labels[i] = lua_tostring(L, -1);
    lua_rawseti(L, lt, i + 1);
    lua_pop(L, 1);
  }
  if (race) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "race of %d (", n);
    luaL_addvalue(&b);
    for (i = 0; i < n; i++) {
      if (i > 0) luaL_addstring(&b, ", ");
      luaL_addstring(&b, ol_run_method(j->runs[i])->name);
    }
    luaL_addchar(&b, ')');
    luaL_pushresult(&b);
  }
  else olua_pushlabel(L, ol_run_method(j->runs[0]), ol_run_params(j->runs[0]));
  lua_setfield(L, lt, "label");
  lua_setiuservalue(L, jidx, 2);
  lua_setiuservalue(L, jidx, 1);
  olua_problemdesc(ol_run_problem(j->runs[0]), j->title, sizeof j->title);
  olua_exp_init(&j->x, j->boxes, j->runs, j->labels, n, j->title, speed,
                paused);
  j->x.busy = &js->stepping;
  j->speed = olua_pace_speed(speed, ol_run_budget(j->runs[0]));
  j->state = paused ? OLUA_JOB_PAUSED : OLUA_JOB_RUNNING;
  /* again: making the runs calls the problem's callbacks, which may have
  ** started jobs of their own since the check at the top (the job, not
  ** yet listed, is left to the collector) */
  if (js->nact == MAXACTIVE)
    return luaL_error(L, "start: too many jobs at once (%d)", MAXACTIVE);
  js->act[js->nact++] = j;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &jskey);
  lua_getiuservalue(L, -1, 1);         /* by id, weak */
  lua_pushvalue(L, jidx);
  lua_rawseti(L, -2, j->id);
  lua_getiuservalue(L, -2, 2);         /* kept */
  prune(L, js);
  lua_pushvalue(L, jidx);
  lua_rawseti(L, -2, j->id);
  lua_pop(L, 3);
  refresh(js, j);                      /* a run may stop at x0 */
  lua_pushvalue(L, jidx);
  return 1;
}

static int cmpid (const void *a, const void *b)
{
  lua_Integer x = *(const lua_Integer *)a, y = *(const lua_Integer *)b;
  return (x > y) - (x < y);
}

/* jobs() -> list of the jobs alive, by id (a table whose tostring is a
** summary). */
static int job_list (lua_State *L)
{
  jstate *js;
  lua_Integer *ids;
  int i, n = 0, cap = 0;
  lua_settop(L, 0);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &jskey);         /* 1 */
  js = lua_touserdata(L, 1);
  lua_getiuservalue(L, 1, 2);
  prune(L, js);
  lua_pop(L, 1);
  lua_getiuservalue(L, 1, 1);                        /* 2: by id, weak */
  lua_pushnil(L);
  while (lua_next(L, 2) != 0) {
    cap++;
    lua_pop(L, 1);
  }
  ids = lua_newuserdatauv(L, (size_t)(cap > 0 ? cap : 1) * sizeof *ids, 0);
  lua_pushnil(L);
  while (lua_next(L, 2) != 0) {
    if (n < cap && lua_isinteger(L, -2)) ids[n++] = lua_tointeger(L, -2);
    lua_pop(L, 1);
  }
  qsort(ids, (size_t)n, sizeof *ids, cmpid);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 2, ids[i]);
    lua_rawseti(L, -2, i + 1);
  }
  luaL_setmetatable(L, "optlab.joblist");
  return 1;
}

/* j:pause() and j:resume() -> j: set the state of a job not done. */
static int setstate (lua_State *L, int state)
{
  ljob *j = checkjob(L, 1);
  if (refresh(getjs(L), j)) j->state = state;
  lua_settop(L, 1);
  return 1;
}

static int job_pause (lua_State *L)
{
  return setstate(L, OLUA_JOB_PAUSED);
}

static int job_resume (lua_State *L)
{
  return setstate(L, OLUA_JOB_RUNNING);
}

/* j:step([n]) -> j: n steps (default 1) now, also while paused. */
static int job_step (lua_State *L)
{
  ljob *j = checkjob(L, 1);
  lua_Integer n = luaL_optinteger(L, 2, 1);
  luaL_argcheck(L, n >= 0, 2, "steps must be >= 0");
  checkidle(L, j, "job:step");
  olua_checkintr(L);
  lua_settop(L, 1);
  drive(L, j, (long)n);
  return 1;
}

/* j:wait() -> j: step until done (Ctrl-C stops it as "interrupted"). */
static int job_wait (lua_State *L)
{
  ljob *j = checkjob(L, 1);
  checkidle(L, j, "job:wait");
  olua_checkintr(L);
  lua_settop(L, 1);
  if (j->state == OLUA_JOB_PAUSED) j->state = OLUA_JOB_RUNNING;
  drive(L, j, -1);
  return 1;
}

static int job_stop (lua_State *L)
{
  ljob *j = checkjob(L, 1);
  checkidle(L, j, "job:stop");
  halt(getjs(L), j, OL_STOP_STOPPED);
  lua_settop(L, 1);
  return 1;
}

/* The labels of job j (its box at jidx) made again from the parameters
** in force ("#3 gd lr=0.5"; j.label too, for a one-run job), after a
** change.  The new strings replace the old in the label table (user value
** 2), which anchors them, before j->labels points at them; nothing keeps
** an old pointer across a call into Lua. */
static void relabel (lua_State *L, int jidx, ljob *j)
{
  int i;
  lua_getiuservalue(L, jidx, 2);
  for (i = 0; i < j->nruns; i++) {
    const ol_run *r = j->boxes[i]->r;
    if (r == NULL) continue;
    olua_pushlabel(L, ol_run_method(r), ol_run_params(r));
    lua_pushfstring(L, "#%d %s", j->id, lua_tostring(L, -1));
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, i + 1);
    j->labels[i] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  if (j->nruns == 1 && j->boxes[0]->r != NULL) {
    olua_pushlabel(L, ol_run_method(j->boxes[0]->r),
                   ol_run_params(j->boxes[0]->r));
    lua_setfield(L, -2, "label");
  }
  lua_pop(L, 1);
}

/* j:set{param = value, ...} -> j: the live parameters of every run of
** the job still running changed from its next step on (olua_setparams:
** all checked on every run before any is set).  A done job raises. */
static int job_set (lua_State *L)
{
  ljob *j = checkjob(L, 1);
  ol_run **rs;
  int i;
  if (!refresh(getjs(L), j))
    return luaL_error(L, "job:set: job #%d is done (its runs have "
                      "stopped): there is no step left to change", j->id);
  rs = lua_newuserdatauv(L, (size_t)j->nruns * sizeof *rs, 0);
  for (i = 0; i < j->nruns; i++) rs[i] = j->boxes[i]->r;
  olua_setparams(L, 2, rs, j->nruns, "job:set");
  relabel(L, 1, j);
  lua_settop(L, 1);
  return 1;
}

/* The job at idx as printed (lua/lprint.c); 0 if it is not a job. */
int olua_getjobrow (lua_State *L, int idx, olua_jobrow *row)
{
  ljob *j = luaL_testudata(L, idx, OLUA_JOB);
  if (j == NULL) return 0;
  refresh(getjs(L), j);
  row->id = j->id;
  row->state = statenames[j->state];
  /* ended by a Ctrl-C or a stop: say so, not "done" as if it finished */
  if (j->state == OLUA_JOB_DONE && j->boxes[0]->r != NULL) {
    int why = olua_runreason(j->boxes[0]);
    if (why == OL_STOP_INTERRUPTED) row->state = "interrupted";
    else if (why == OL_STOP_STOPPED) row->state = "stopped";
  }
  row->iter = maxiter(j);
  row->budget = j->boxes[0]->r ? ol_run_budget(j->boxes[0]->r) : 0L;
  row->title = j->title;
  /* the label is anchored by the job's label table (user value 2) */
  lua_getiuservalue(L, idx, 2);
  lua_getfield(L, -1, "label");
  row->label = lua_tostring(L, -1);
  lua_pop(L, 2);
  return 1;
}

/* j:plot(opts): r:plot over the job's runs (lua/lplot.c), live or done. */
static int job_plot (lua_State *L)
{
  checkjob(L, 1);
  lua_settop(L, 2);
  lua_getiuservalue(L, 1, 1);
  lua_replace(L, 1);
  return olua_plot(L);
}

static const luaL_Reg job_methods[] = {
  {"plot", job_plot},
  {"pause", job_pause},
  {"resume", job_resume},
  {"set", job_set},
  {"step", job_step},
  {"stop", job_stop},
  {"wait", job_wait},
  {NULL, NULL}
};

/* j.<name>: a job's fields, one entry each: push puts the value on the
** stack (the job is at index 1, refreshed); they are also the names the
** REPL completes (metatable .__fields). */
typedef struct job_field {
  const char *name;
  void (*push) (lua_State *L, ljob *j);
} job_field;

static void f_id (lua_State *L, ljob *j)
{
  lua_pushinteger(L, j->id);
}

static void f_state (lua_State *L, ljob *j)
{
  lua_pushstring(L, statenames[j->state]);
}

static void f_run (lua_State *L, ljob *j)
{
  (void)j;
  lua_getiuservalue(L, 1, 1);
  lua_rawgeti(L, -1, 1);
}

static void f_runs (lua_State *L, ljob *j)
{
  (void)j;
  lua_getiuservalue(L, 1, 1);
}

static void f_label (lua_State *L, ljob *j)
{
  (void)j;
  lua_getiuservalue(L, 1, 2);
  lua_getfield(L, -1, "label");
}

static void f_iter (lua_State *L, ljob *j)
{
  lua_pushinteger(L, maxiter(j));
}

static void f_iters (lua_State *L, ljob *j)
{
  lua_pushinteger(L, j->boxes[0]->r ? ol_run_budget(j->boxes[0]->r) : 0);
}

static void f_elapsed (lua_State *L, ljob *j)
{
  lua_pushnumber(L, j->x.t0 == 0 ? 0
                 : (j->state == OLUA_JOB_DONE ? j->t1 : ol_now()) - j->x.t0);
}

static void f_problem (lua_State *L, ljob *j)
{
  (void)j;
  lua_getiuservalue(L, 1, 1);
  lua_rawgeti(L, -1, 1);
  lua_getfield(L, -1, "problem");
}

static const job_field job_fields[] = {
  {"id", f_id},
  {"state", f_state},
  {"run", f_run},
  {"runs", f_runs},
  {"label", f_label},
  {"iter", f_iter},
  {"iters", f_iters},
  {"elapsed", f_elapsed},
  {"problem", f_problem},
  {NULL, NULL}
};

/* j[i] is run i; j.<k> a field of job_fields, else a method above, else
** nil. */
static int job_index (lua_State *L)
{
  ljob *j = checkjob(L, 1);
  const job_field *f;
  const luaL_Reg *m;
  const char *k;
  refresh(getjs(L), j);
  if (lua_type(L, 2) == LUA_TNUMBER) {
    lua_getiuservalue(L, 1, 1);
    lua_rawgeti(L, -1, lua_tointeger(L, 2));
    return 1;
  }
  k = luaL_checkstring(L, 2);
  for (f = job_fields; f->name != NULL; f++)
    if (strcmp(f->name, k) == 0) {
      f->push(L, j);
      return 1;
    }
  for (m = job_methods; m->name != NULL; m++)
    if (strcmp(m->name, k) == 0) {
      lua_pushcfunction(L, m->func);
      return 1;
    }
  lua_pushnil(L);
  return 1;
}

static int job_len (lua_State *L)
{
  lua_pushinteger(L, checkjob(L, 1)->nruns);
  return 1;
}

static const luaL_Reg job_meta[] = {
  {"__index", job_index},
  {"__len", job_len},
  {"__tostring", olua_job_tostring},
  {NULL, NULL}
};

/* Globals start and jobs; the registry record. */
void olua_openjobs (lua_State *L)
{
  const job_field *f;
  const luaL_Reg *m;
  jstate *js;
  luaL_newmetatable(L, OLUA_JOB);
  luaL_setfuncs(L, job_meta, 0);
  lua_newtable(L);
  for (f = job_fields; f->name != NULL; f++) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, f->name);
  }
  for (m = job_methods; m->name != NULL; m++) {
    lua_pushcfunction(L, m->func);
    lua_setfield(L, -2, m->name);
  }
  lua_setfield(L, -2, "__fields");
  lua_pop(L, 1);
  luaL_newmetatable(L, "optlab.joblist");
  lua_pushcfunction(L, olua_joblist_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  js = lua_newuserdatauv(L, sizeof *js, 2);
  memset(js, 0, sizeof *js);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setiuservalue(L, -2, 1);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &jskey);
  lua_pushcfunction(L, job_start);
  lua_setglobal(L, "start");
  lua_pushcfunction(L, job_list);
  lua_setglobal(L, "jobs");
}
