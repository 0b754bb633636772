/*
** lua/lmetric.c -- metrics written in Lua: the global table metric, with
** metric.new{name = "...", doc = "...", eval = function(r) ... end} and
** metric.list().
**
** metric.new binds one of the core's user slots (core/metrics/user.c) to
** the name, so the metric is recorded, printed, plotted, saved and watched
** like a built-in one; redefining a name this state bound rebinds it in
** place (same id: runs already made keep their numbers under it).  The
** slots are released when the state closes (the record's __gc), so a
** process that opens many states (the fuzzer) never runs out of them.
**
** Calls.  The core's hook (mhook) calls eval(r) under lua_pcall with the
** traceback handler, in a callback thread, one per nesting level (eval
** may itself run something that records a metric of the user's), as
** lua/lproblem.c does for objectives.  Each thread's stack holds at fixed
** slots the handler, the table of eval functions by id, and its r: a
** userdata reused across calls, whose fields are read on demand (r.x and
** r.g fill a table the thread keeps, once per call), so a call allocates
** nothing once the level's thread exists.  r is valid during its call
** only: a stored r raises when used later.  What eval returns must be a
** number (NaN and infinities are recorded as such); anything else, or an
** error, stops the run with reason "callback error" and the message and
** traceback, as a failing objective does.
*/
#include <string.h>

#include "lbind.h"
#include "plotpanel.h"

#define OLUA_MREC "optlab.metric.record"
#define OLUA_MR   "optlab.metric.r"

/* Fixed slots of a callback thread's stack; the template thread Z has
** the first two, then the table anchoring the threads. */
enum { S_MSGH = 1, S_FNS, S_R, S_TOP = S_R };
enum { Z_THREADS = S_FNS + 1 };

/* The state's record (a userdata in the registry under reckey). */
typedef struct mrec {
  lua_State *Z;                   /* template thread (never called on) */
  lua_State *T[OLUA_MAXDEPTH];    /* callback threads, nt made */
  int nt;
  int depth;                      /* eval calls in progress */
  olua_state *S;                  /* S->cb while calling back */
} mrec;

/* r: what eval sees.  User values: 1 = the x table, 2 = the g table. */
typedef struct rbox {
  const ol_mstate *s;   /* the state recorded, NULL outside a call */
  int nx, ng;           /* entries the x and g tables hold now */
  int xfresh, gfresh;   /* filled during this call */
} rbox;

static const char reckey = 'm';

static const char *const newkeys[] = {"name", "doc", "eval", NULL};

/* -- r -------------------------------------------------------------------- */

/* Fill the table at user value uv of r (index 1) with the n entries of v,
** clearing those past n that an earlier, longer call left; pushes it. */
static void filltable (lua_State *L, int uv, const double *v, int n,
                       int *have)
{
  int i;
  lua_getiuservalue(L, 1, uv);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
  for (i = n; i < *have; i++) {
    lua_pushnil(L);
    lua_rawseti(L, -2, i + 1);
  }
  *have = n;
}

/* Push the names of the method's probes, comma-separated, or "none". */
static const char *pushprobes (lua_State *L, const ol_method_type *m)
{
  luaL_Buffer bf;
  int k, first = 1;
  luaL_buffinit(L, &bf);
  if (m != NULL && m->probe != NULL)
    OL_MSET_FOR(k, m->probes)
      if (ol_metric_defined(k)) {
        if (!first) luaL_addstring(&bf, ", ");
        luaL_addstring(&bf, ol_metric_types[k]->name);
        first = 0;
      }
  if (first) luaL_addstring(&bf, "none");
  luaL_pushresult(&bf);
  return lua_tostring(L, -1);
}

/* r.x (a table of n numbers), r.g (the gradient at x, likewise), r.f,
** r.iter (= r.t, steps done), r.n, and r.<probe> for the metrics the
** method computes itself (its probes: lrmax, ...); anything else raises,
** naming what there is. */
static int r_index (lua_State *L)
{
  rbox *rb = luaL_checkudata(L, 1, OLUA_MR);
  const char *k = luaL_checkstring(L, 2);
  const ol_mstate *s = rb->s;
  const ol_method_type *m;
  int id;
  if (s == NULL)
    return luaL_error(L, "metric: r is valid only during the eval call it "
                      "was given to (copy what you keep: r.x is reused)");
  m = s->m;
  if (strcmp(k, "x") == 0) {
    if (!rb->xfresh) filltable(L, 1, s->x, s->n, &rb->nx);
    else lua_getiuservalue(L, 1, 1);
    rb->xfresh = 1;
    return 1;
  }
  if (strcmp(k, "g") == 0) {
    if (s->g == NULL) return 0;
    if (!rb->gfresh) filltable(L, 2, s->g, s->n, &rb->ng);
    else lua_getiuservalue(L, 1, 2);
    rb->gfresh = 1;
    return 1;
  }
  if (strcmp(k, "f") == 0) {
    lua_pushnumber(L, s->f);
    return 1;
  }
  if (strcmp(k, "iter") == 0 || strcmp(k, "t") == 0) {
    lua_pushinteger(L, (lua_Integer)s->t);
    return 1;
  }
  if (strcmp(k, "n") == 0) {
    lua_pushinteger(L, s->n);
    return 1;
  }
  id = ol_metric_find(k);
  if (id >= 0 && m != NULL && m->probe != NULL && s->st != NULL &&
      ol_mset_has(m->probes, id)) {
    lua_pushnumber(L, m->probe(s->st, id, s->c));
    return 1;
  }
  {
    /* one push after the other (argument order is unspecified) */
    const char *key = olua_pushshort(L, k);
    const char *probes = pushprobes(L, m);
    return luaL_error(L, "metric: r has no field '%s' (it has x, g, f, "
                      "iter, t, n and the method's probes: %s)", key, probes);
  }
}

static int r_tostring (lua_State *L)
{
  rbox *rb = luaL_checkudata(L, 1, OLUA_MR);
  if (rb->s == NULL) lua_pushliteral(L, "metric r (outside its call)");
  else lua_pushfstring(L, "metric r (n = %d, iter = %I)", rb->s->n,
                       (lua_Integer)rb->s->t);
  return 1;
}

/* -- calls ---------------------------------------------------------------- */

/* protected on Z: make one more callback thread (T[nt]): the handler and
** the functions' table (arguments 2, 3), a new r; anchored in the table
** at 4. */
static int mkthread (lua_State *L)
{
  mrec *mr = lua_touserdata(L, 1);
  lua_State *T;
  rbox *rb;
  if (!lua_checkstack(L, 8)) return luaL_error(L, "out of memory");
  T = lua_newthread(L);
  lua_rawseti(L, 4, (lua_Integer)mr->nt + 1);
  if (!lua_checkstack(T, 16)) return luaL_error(L, "out of memory");
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  /* r and its tables are made here, on the running thread, then moved
  ** (an out of memory in T, not running, would escape this pcall) */
  rb = lua_newuserdatauv(L, sizeof *rb, 2);
  rb->s = NULL;
  rb->nx = rb->ng = 0;
  rb->xfresh = rb->gfresh = 0;
  luaL_setmetatable(L, OLUA_MR);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 2);
  lua_xmove(L, T, 3);
  mr->T[mr->nt++] = T;
  return 0;
}

/* The thread for a call made while mr->depth others are in progress, made
** on first use; NULL with e set when calls nest too deep or memory runs
** out. */
static lua_State *tenter (mrec *mr, ol_err *e)
{
  lua_State *Z = mr->Z;
  if (mr->depth >= OLUA_MAXDEPTH) {
    ol_err_set(e, OL_ECALLBACK, "metric: eval calls are nested %d deep (an "
               "eval that runs something recording itself without end?)",
               mr->depth);
    return NULL;
  }
  while (mr->nt <= mr->depth) {
    lua_pushcfunction(Z, mkthread);
    lua_pushlightuserdata(Z, mr);
    lua_pushvalue(Z, S_MSGH);
    lua_pushvalue(Z, S_FNS);
    lua_pushvalue(Z, Z_THREADS);
    if (lua_pcall(Z, 4, 0, 0) != LUA_OK) {
      ol_err_set(e, OL_ECALLBACK, "metric: callback thread: %s",
                 lua_tostring(Z, -1) ? lua_tostring(Z, -1) : "error");
      lua_settop(Z, Z_THREADS);
      return NULL;
    }
  }
  return mr->T[mr->depth++];
}

/* The core's hook (ol_metric_hook): eval(r) of metric id in a callback
** thread; OL_OK with *v, or OL_ECALLBACK with the message in e. */
static int mhook (void *ud, int id, const ol_mstate *s, double *v,
                  ol_err *e)
{
  mrec *mr = ud;
  lua_State *T = tenter(mr, e), *prev = mr->S->cb;
  const char *name = ol_metric_types[id]->name;
  rbox *rb;
  int rc = OL_OK;
  if (T == NULL) return OL_ECALLBACK;
  rb = lua_touserdata(T, S_R);
  rb->s = s;
  rb->xfresh = rb->gfresh = 0;
  mr->S->cb = T;            /* for the SIGINT hook (olua_cbthread) */
  lua_rawgeti(T, S_FNS, id);
  lua_pushvalue(T, S_R);
  if (lua_pcall(T, 1, 1, S_MSGH) != LUA_OK) {
    const char *msg = lua_tostring(T, -1);
    rc = ol_err_set(e, OL_ECALLBACK, "metric %s: %s", name,
                    msg != NULL ? msg : "(error object)");
  }
  else if (lua_type(T, -1) != LUA_TNUMBER)
    rc = ol_err_set(e, OL_ECALLBACK, "metric %s: eval returned %s%s "
                    "(expected a number)", name,
                    lua_isnil(T, -1) ? "" : "a ", luaL_typename(T, -1));
  else
    *v = lua_tonumber(T, -1);
  lua_settop(T, S_TOP);
  rb->s = NULL;
  mr->S->cb = prev;
  mr->depth--;
  return rc;
}

/* -- metric.new, metric.list ---------------------------------------------- */

/* The record, its template thread made when make is set and there is
** none yet: by the first metric.new, on the thread running it, so the
** callback threads inherit that thread's hooks as a Lua problem's do
** (the fuzzer's instruction limit). */
static mrec *getrec (lua_State *L, int make)
{
  mrec *mr;
  lua_State *Z;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &reckey);
  mr = lua_touserdata(L, -1);
  if (mr == NULL) luaL_error(L, "metric: the library is not open");
  if (mr->Z != NULL || !make) {
    lua_pop(L, 1);
    return mr;
  }
  Z = lua_newthread(L);
  if (!lua_checkstack(Z, 8)) luaL_error(L, "metric: out of memory");
  /* made on L, the running thread, then moved */
  lua_pushcfunction(L, olua_msghandler);                /* S_MSGH */
  lua_newtable(L);                                      /* S_FNS */
  lua_newtable(L);                                      /* Z_THREADS */
  lua_xmove(L, Z, 3);
  lua_setiuservalue(L, -2, 1);
  mr->Z = Z;
  lua_pop(L, 1);
  return mr;
}

/* Set core.metrics' entry of name (upvalue 1 is core) to doc, appending
** one ({name, doc, user = true}) when there is none. */
static void setlisted (lua_State *L, const char *name, const char *doc)
{
  lua_Integer i, n;
  lua_getfield(L, lua_upvalueindex(1), "metrics");
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    return;
  }
  n = (lua_Integer)lua_rawlen(L, -1);
  for (i = 1; i <= n; i++) {
    int same;
    lua_rawgeti(L, -1, i);
    lua_getfield(L, -1, "name");
    same = lua_type(L, -1) == LUA_TSTRING &&
           strcmp(lua_tostring(L, -1), name) == 0;
    lua_pop(L, 1);
    if (same) {
      lua_pushstring(L, doc);
      lua_setfield(L, -2, "doc");
      lua_pop(L, 2);
      return;
    }
    lua_pop(L, 1);
  }
  lua_createtable(L, 0, 3);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "name");
  lua_pushstring(L, doc);
  lua_setfield(L, -2, "doc");
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "user");
  lua_rawseti(L, -2, n + 1);
  lua_pop(L, 1);
}

/* 1 when name is a column the CSV files give (lua/lrun.c, race.lua,
** sweep.lua): iter, run, method, stream, or x followed by digits. */
static int reserved (const char *name)
{
  static const char *const cols[] = {"iter", "run", "method", "stream",
                                     NULL};
  int i;
  for (i = 0; cols[i] != NULL; i++)
    if (strcmp(name, cols[i]) == 0) return 1;
  return name[0] == 'x' && name[1] != '\0' &&
         strspn(name + 1, "0123456789") == strlen(name + 1);
}

/* metric.new{name = "...", doc = "...", eval = function(r) ... end} ->
** name: define (or redefine) a metric; see the file's header. */
static int metric_new (lua_State *L)
{
  static const char *who = "metric.new";
  mrec *mr;
  const char *name, *doc = "a metric written in Lua";
  ol_err e;
  int id, fty;
  if (!lua_istable(L, 1))
    return luaL_error(L, "%s: expects a table {name = \"...\", doc = "
                      "\"...\", eval = function(r) ... end}, got %s", who,
                      lua_isnoneornil(L, 1) ? "nothing"
                      : lua_pushfstring(L, "a %s", luaL_typename(L, 1)));
  lua_settop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    int j;
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      return luaL_error(L, "%s: keys must be names (name, doc, eval), got "
                        "a %s", who, luaL_typename(L, -1));
    for (j = 0; newkeys[j] != NULL; j++)
      if (strcmp(newkeys[j], lua_tostring(L, -1)) == 0) break;
    if (newkeys[j] == NULL)
      return olua_unknownkey(L, who, "key", lua_tostring(L, -1), newkeys);
  }
  if (lua_getfield(L, 1, "name") != LUA_TSTRING)       /* 2 */
    return luaL_error(L, "%s: name must be a string (an identifier), got "
                      "%s", who, lua_isnil(L, 2) ? "nothing"
                      : lua_pushfstring(L, "a %s", luaL_typename(L, 2)));
  name = lua_tostring(L, 2);
  if (strlen(name) != lua_rawlen(L, 2))
    return luaL_error(L, "%s: the name contains a NUL character", who);
  fty = lua_getfield(L, 1, "eval");                    /* 3 */
  if (fty != LUA_TFUNCTION) {
    int callable = fty != LUA_TNIL && luaL_getmetafield(L, 3, "__call");
    if (callable) lua_pop(L, 1);
    else
      return luaL_error(L, "%s: eval must be a function(r) returning a "
                        "number, got %s", who, fty == LUA_TNIL ? "nothing"
                        : lua_pushfstring(L, "a %s", luaL_typename(L, 3)));
  }
  if (lua_getfield(L, 1, "doc") != LUA_TNIL) {         /* 4 */
    if (lua_type(L, 4) != LUA_TSTRING)
      return luaL_error(L, "%s: doc must be a string, got a %s", who,
                        luaL_typename(L, 4));
    doc = lua_tostring(L, 4);
    if (strlen(doc) != lua_rawlen(L, 4) || strchr(doc, '\n') != NULL)
      return luaL_error(L, "%s: doc must be one line of text", who);
  }
  /* names the panels and the CSV files use for something else */
  if (pn_find(name) >= OL_NMETRICS)
    return luaL_error(L, "%s: '%s' is a panel kind (watch = {\"%s\"}): "
                      "choose another name", who, name, name);
  if (reserved(name))
    return luaL_error(L, "%s: '%s' names a column of the CSV files (iter, "
                      "run, method, stream, x1, x2, ...): choose another "
                      "name", who, name);
  mr = getrec(L, 1);
  id = ol_metric_user_bind(name, doc, mhook, mr, &e);
  if (id < 0) return luaL_error(L, "%s: %s", who, e.msg);
  /* the function, where every callback thread finds it (the table is
  ** written on L, the running thread) */
  lua_pushvalue(mr->Z, S_FNS);
  lua_xmove(mr->Z, L, 1);
  lua_pushvalue(L, 3);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  setlisted(L, name, doc);
  lua_pushvalue(L, 2);
  return 1;
}

/* metric.list() -> the names of the metrics this state defined, in id
** order. */
static int metric_list (lua_State *L)
{
  mrec *mr = getrec(L, 0);
  int id, k = 0;
  if (mr->Z == NULL) {
    lua_newtable(L);
    return 1;
  }
  lua_pushvalue(mr->Z, S_FNS);
  lua_xmove(mr->Z, L, 1);
  lua_newtable(L);
  for (id = 0; id < OL_NMETRICS; id++) {
    /* bound, and bound by this state (its function is here) */
    if (!ol_metric_user(id) || !ol_metric_defined(id)) continue;
    if (lua_rawgeti(L, -2, id) != LUA_TNIL) {
      lua_pushstring(L, ol_metric_types[id]->name);
      lua_rawseti(L, -3, ++k);
    }
    lua_pop(L, 1);
  }
  return 1;
}

/* The record's __gc: the state goes away, and its slots with it. */
static int rec_gc (lua_State *L)
{
  mrec *mr = lua_touserdata(L, 1);
  ol_metric_user_release(mr);
  mr->nt = 0;
  return 0;
}

/* Global metric = {new, list}; the record (its threads, functions and
** __gc) in the registry.  core is the index of the internal table. */
void olua_openmetric (lua_State *L, int core)
{
  static const luaL_Reg r_meta[] = {
    {"__index", r_index},
    {"__tostring", r_tostring},
    {NULL, NULL}
  };
  mrec *mr;
  core = lua_absindex(L, core);
  luaL_newmetatable(L, OLUA_MR);
  luaL_setfuncs(L, r_meta, 0);
  lua_pushliteral(L, "metric r");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 1);
  mr = lua_newuserdatauv(L, sizeof *mr, 1);
  memset(mr, 0, sizeof *mr);
  mr->S = olua_getstate(L);
  luaL_newmetatable(L, OLUA_MREC);
  lua_pushcfunction(L, rec_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &reckey);
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, core);
  lua_pushcclosure(L, metric_new, 1);
  lua_setfield(L, -2, "new");
  lua_pushcfunction(L, metric_list);
  lua_setfield(L, -2, "list");
  lua_setglobal(L, "metric");
}
