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
  lua_setfield(L, LUA_REGISTRYINDEX, STATEKEY);
  return s;
}

/* Keep v (borrowed until replaced; NULL for none) as the live view. */
void olua_setview (lua_State *L, const olua_view *v)
{
  olua_getstate(L)->view = v;
}

/* Keep flag (borrowed for the life of L; NULL for none): run and race
** poll it between slices and clear it when they stop for it. */
void olua_setintr (lua_State *L, volatile sig_atomic_t *flag)
{
  olua_getstate(L)->intr = flag;
}

lua_State *volatile *olua_cbthread (lua_State *L)
{
  return &olua_getstate(L)->cb;
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

/* Open the library: globals plus the returned table 'optlab'
** {version, problem, optim, sample, game, run, race, help, ...}. */
int luaopen_optlab (lua_State *L)
{
  static const char *const globals[] = {
    "problem", "optim", "sample", "game", "vi", "diffusion", "rl", "dist",
    "run",
    "race", "help", "pretty",
    "metrics", "start", "jobs", "blas_threads", "grad", "hessian", "hvp",
    "tape", NULL
  };
  int core, i;
  olua_getstate(L);
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
  olua_openrun(L);
  olua_openjobs(L);
  olua_opensample(L);
  olua_openad(L);
  olua_opentask(L);
  olua_loadembedded(L, core);
  lua_newtable(L);
  lua_pushliteral(L, OL_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushstring(L, LUA_RELEASE);
  lua_setfield(L, -2, "lua");
  for (i = 0; globals[i] != NULL; i++) {
    lua_getglobal(L, globals[i]);
    lua_setfield(L, -2, globals[i]);
  }
  lua_getfield(L, core, "format");
  lua_setfield(L, -2, "format");
  lua_pushcfunction(L, l_now);
  lua_setfield(L, -2, "now");
  return 1;
}

