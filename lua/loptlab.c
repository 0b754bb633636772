/*
** lua/loptlab.c -- luaopen_optlab and the pieces the binding files share.
**
** Installs the globals problem, optim, sample, game, run, race (C) and
** help, pretty, metrics (pure Lua, lua/ *.lua, embedded).  The per-state
** record (live view, interrupt flag) is a userdata in the registry under
** "optlab.state"; olua_setview and olua_setintr may be called before or
** after luaopen_optlab.  The helpers the binding files share (key
** checking against ol_param tables, reading number arrays, the info
** tables of help) are in lua/lutil.c.
*/
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lbind.h"
#include "ltask.h"

#define STATEKEY "optlab.state"

/* The binding record of L, created on first use (never NULL: raises on
** memory errors only). */
olua_state *olua_getstate (lua_State *L)
{
  olua_state *s;
  if (lua_getfield(L, LUA_REGISTRYINDEX, STATEKEY) == LUA_TUSERDATA) {
    s = lua_touserdata(L, -1);
    lua_pop(L, 1);
    return s;
  }
  lua_pop(L, 1);
  s = lua_newuserdatauv(L, sizeof *s, 0);
  s->view = NULL;
  s->intr = NULL;
  s->cb = NULL;
  s->nco = 0;
  s->cdebt = 0;
  lua_setfield(L, LUA_REGISTRYINDEX, STATEKEY);
  return s;
}

/* Keep v (borrowed until replaced; NULL for none) as the live view. */
void olua_setview (lua_State *L, const olua_view *v)
{
  olua_getstate(L)->view = v;
}

/* Keep flag (borrowed for the life of L; NULL for none): run and race
** poll it between slices; the program clears it. */
void olua_setintr (lua_State *L, volatile sig_atomic_t *flag)
{
  olua_getstate(L)->intr = flag;
}

lua_State *volatile *olua_cbthread (lua_State *L)
{
  return &olua_getstate(L)->cb;
}

lua_State *volatile *olua_cothreads (lua_State *L, volatile int **n)
{
  olua_state *s = olua_getstate(L);
  *n = &s->nco;
  return s->co;
}

#define CDEBT_MIN ((size_t)16 << 20)

void olua_gcdebt (lua_State *L, size_t bytes)
{
  olua_state *s = olua_getstate(L);
  size_t heap = (size_t)lua_gc(L, LUA_GCCOUNT) << 10;
  s->cdebt += bytes;
  if (s->cdebt >= (heap > CDEBT_MIN ? heap : CDEBT_MIN)) {
    s->cdebt = 0;
    lua_gc(L, LUA_GCCOLLECT);
  }
  else lua_gc(L, LUA_GCSTEP, (int)(bytes >> 10));
}

void olua_checkintr (lua_State *L)
{
  olua_state *s = olua_getstate(L);
  if (s->intr != NULL && *s->intr) luaL_error(L, "interrupted!");
}

/* -- coroutines, in the chain the SIGINT handler sees ---------------------- */

/* coroutine.resume and the functions of coroutine.wrap as Lua 5.4's
** lcorolib.c, but co is kept in the state's chain of coroutines being
** resumed (olua_cothreads) while it runs: a count hook is per thread, and
** the program's SIGINT handler arms it on each thread of the chain. */
static int coresume (lua_State *L, lua_State *co, int narg)
{
  olua_state *s = olua_getstate(L);
  int status, nres, d;
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  if (s->intr != NULL && *s->intr == 1) {
    /* Ctrl-C pending: the resumer's hook raises at once; do not start a
    ** coroutine that the handler has not armed */
    lua_pushliteral(L, "interrupted!");
    return -1;
  }
  lua_xmove(L, co, narg);
  d = s->nco;
  if (d < OLUA_MAXCO) s->co[d] = co;
  s->nco = d + 1;                    /* after the slot: the handler reads
                                        nco, then the slots below it */
  status = lua_resume(co, L, narg, &nres);
  s->nco = d;
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushliteral(L, "too many results to resume");
      return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1);               /* the error message */
  return -1;
}

static int co_resume (lua_State *L)
{
  lua_State *co = lua_tothread(L, 1);
  int r;
  luaL_argexpected(L, co != NULL, 1, "coroutine");
  r = coresume(L, co, lua_gettop(L) - 1);
  if (r < 0) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_insert(L, -(r + 1));
  return r + 1;
}

static int co_auxwrap (lua_State *L)
{
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  int r = coresume(L, co, lua_gettop(L));
  if (r < 0) {
    int stat = lua_status(co);
    if (stat != LUA_OK && stat != LUA_YIELD) {   /* an error in co */
      stat = lua_resetthread(co);                 /* close its tbc vars */
      lua_xmove(co, L, 1);
    }
    if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return r;
}

static int co_wrap (lua_State *L)
{
  lua_State *co;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  co = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, co, 1);
  lua_pushcclosure(L, co_auxwrap, 1);
  return 1;
}

static void opencoroutines (lua_State *L)
{
  if (lua_getglobal(L, "coroutine") == LUA_TTABLE) {
    lua_pushcfunction(L, co_resume);
    lua_setfield(L, -2, "resume");
    lua_pushcfunction(L, co_wrap);
    lua_setfield(L, -2, "wrap");
  }
  lua_pop(L, 1);
}

/* core.typeof(v): "problem", "method", "run", "race" or nil. */
static int core_typeof (lua_State *L)
{
  static const char *const tn[] = {OLUA_PROBLEM, OLUA_METHOD, OLUA_RUN, NULL};
  static const char *const sn[] = {"problem", "method", "run"};
  int i;
  for (i = 0; tn[i] != NULL; i++)
    if (luaL_testudata(L, 1, tn[i]) != NULL) {
      lua_pushstring(L, sn[i]);
      return 1;
    }
  if (lua_getmetatable(L, 1)) {
    luaL_getmetatable(L, OLUA_RACE);
    if (lua_rawequal(L, -1, -2)) {
      lua_pushliteral(L, "race");
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

/* blas_threads([n]) -> the number of OpenBLAS threads (before setting it
** to n, 1 <= n <= 256, when given). */
static int l_blas_threads (lua_State *L)
{
  int old = openblas_get_num_threads();
  if (!lua_isnoneornil(L, 1)) {
    lua_Integer n = luaL_checkinteger(L, 1);
    luaL_argcheck(L, n >= 1 && n <= 256, 1, "out of range [1, 256]");
    openblas_set_num_threads((int)n);
  }
  lua_pushinteger(L, old);
  return 1;
}

/* optlab.now() -> seconds on a monotonic wall clock (core/clock.c), for
** timing a part of a script: differences are meaningful, the origin is
** not.  os.clock is the process's CPU time, which a blocked or spinning
** process does not reflect. */
static int l_now (lua_State *L)
{
  lua_pushnumber(L, ol_now());
  return 1;
}

/* optlab.sleep(seconds): wait that long on the monotonic clock, in
** slices of at most 10 ms with Ctrl-C checked after each (a signal ends a
** slice early), for pacing a demo or a script's stand-in for slow work;
** seconds in [0, 86400]. */
static int l_sleep (lua_State *L)
{
  lua_Number s = luaL_checknumber(L, 1);
  struct timespec end, slice;
  if (!(s >= 0 && s <= 86400))
    return luaL_argerror(L, 1, s != s ? "nan is not a number of seconds"
                         : lua_pushfstring(L, "%f s is out of range "
                                           "[0, 86400]", s));
  clock_gettime(CLOCK_MONOTONIC, &end);
  end.tv_sec += (time_t)s;
  end.tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
  if (end.tv_nsec >= 1000000000L) {
    end.tv_sec++;
    end.tv_nsec -= 1000000000L;
  }
  for (;;) {
    struct timespec now;
    olua_checkintr(L);
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > end.tv_sec ||
        (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) break;
    slice = now;
    slice.tv_nsec += 10000000L;
    if (slice.tv_nsec >= 1000000000L) {
      slice.tv_sec++;
      slice.tv_nsec -= 1000000000L;
    }
    if (slice.tv_sec > end.tv_sec ||
        (slice.tv_sec == end.tv_sec && slice.tv_nsec > end.tv_nsec))
      slice = end;
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &slice, NULL);
  }
  return 0;
}

/* Open the library: globals plus the returned table 'optlab'
** {version, problem, optim, sample, game, run, race, help, ...}. */
int luaopen_optlab (lua_State *L)
{
  /* after "problem" and the family tables (core/family.c) */
  static const char *const globals[] = {
    "run", "race", "help", "pretty",
    "metrics", "start", "jobs", "blas_threads", "grad", "hessian", "hvp",
    "tape", "metric", NULL
  };
  int core, i;
  olua_getstate(L);
  opencoroutines(L);
  lua_newtable(L);
  core = lua_gettop(L);
  lua_newtable(L);
  lua_setfield(L, core, "ctors");
  lua_pushcfunction(L, core_typeof);
  lua_setfield(L, core, "typeof");
  lua_pushcfunction(L, l_blas_threads);
  lua_setglobal(L, "blas_threads");
  olua_openproblem(L);
  olua_openmethod(L);
  olua_openusermethod(L);
  olua_openrun(L);
  olua_openjobs(L);
  olua_opensample(L);
  olua_openad(L);
  olua_opentask(L);
  olua_openmetric(L, core);
  olua_openlesson(L, core);
  olua_loadembedded(L, core);
  lua_newtable(L);
  lua_pushliteral(L, OL_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushstring(L, LUA_RELEASE);
  lua_setfield(L, -2, "lua");
  lua_getglobal(L, "problem");
  lua_setfield(L, -2, "problem");
  for (i = 0; i < OL_NFAMILY; i++) {
    lua_getglobal(L, ol_families[i].ns);
    lua_setfield(L, -2, ol_families[i].ns);
  }
  for (i = 0; globals[i] != NULL; i++) {
    lua_getglobal(L, globals[i]);
    lua_setfield(L, -2, globals[i]);
  }
  lua_getfield(L, core, "format");
  lua_setfield(L, -2, "format");
  lua_pushcfunction(L, l_now);
  lua_setfield(L, -2, "now");
  lua_pushcfunction(L, l_sleep);
  lua_setfield(L, -2, "sleep");
  return 1;
}

