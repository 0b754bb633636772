/*
** lua/lad.c -- tracing Lua functions into tapes (core/ad/tape.h): exact
** gradients and Hessians of Lua objectives, densities and constraints,
** and the prompt's grad, hessian, hvp and tape.
**
** A trace calls the function once with x a table of tracers: userdata
** ("optlab.tracer") whose arithmetic metamethods record each operation
** into the tape and return a new tracer (or a plain number when the
** result is a constant, so constants fold in Lua too).  During the trace
** the fields of the global math table are tracer-aware versions (exp,
** log, sqrt, sin, cos, tan, atan, tanh, abs, max, min, floor, ceil, pow,
** log1p, expm1, type; put back after), so helpers of other chunks are
** traced too, and the function's _ENV upvalue is a proxy of its
** environment in which type(t) is "number" and tostring, tonumber and
** writes to globals are refused (its __index is the real environment,
** put back after).  A math function captured in a local before the trace
** (local exp = math.exp) traces too: the library's math.exp, log, sqrt,
** ... are wrappers (m_wrap) that call Lua's own function unless handed a
** tracer during a trace.
** Piecewise operations record guards: a comparison of tracers (__lt,
** __le, __eq: Lua 5.4 calls them when an operand is a userdata; t == 0
** with a number is plainly false and never reaches the tracer), abs
** (0 <= x), max and min (a < b), floor (k <= x < k + 1), math.tointeger
** (x == k, or k < x < k + 1): the branch taken at the trace point is
** recorded, not the branch.
**
** Because t == c never reaches the tracer, every trace ends with one call
** of the function on numbers at the trace point, and a tape whose value
** differs from that call's (beyond the rounding of ops the tape records
** another way) is not used: the function falls back to differences with
** the two values in the reason (issue 22).  olua_ad_verify repeats the
** check later at a tape's trace point (p:eval, a run being made) and
** re-traces when the function changed since (a global it reads).
**
** A function cannot be traced when it converts a tracer (tostring,
** tonumber), hands one to a C function that needs a number, writes a
** global or one of its upvalues (a side effect the tape cannot replay),
** or fails on tracers: the reason is kept, said once in the run summary,
** and the function is called with numbers and differentiated by central
** differences instead.  The upvalues are compared before and after the
** trace (rawequal) and put back when changed.
**
** An olua_ad holds the tapes of one function: up to OLUA_AD_CACHE, one per
** guard pattern met; evaluation uses the current one while its guards hold
** at x, else another cached one whose guards hold, else re-traces at x (one
** Lua call), at most OLUA_AD_MAXRETRACE times, then falls back to finite
** differences with that said.  An olua_ad is a userdata
** ("optlab.adcache") whose __gc frees its tapes.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"
#include "ad/tape.h"

#define TRACER "optlab.tracer"
#define ADCACHE "optlab.adcache"
#define ADSTATE "optlab.adstate"
#define ADMATH "optlab.admath"
#define PI 3.14159265358979323846

/* The trace in progress (one per Lua state; upvalue 1 of the tracer's
** metamethods and of the tracing math functions). */
typedef struct adstate {
  ol_tape *t;           /* NULL: no trace in progress */
  unsigned gen;         /* trace number: tracers of older traces refuse */
  char why[200];        /* set by what refuses a tracer */
} adstate;

typedef struct tracer {
  int node;
  unsigned gen;
} tracer;

/* == the tracer ========================================================== */

static int refuse (lua_State *L, adstate *st, const char *fmt, const char *a)
{
  snprintf(st->why, sizeof st->why, fmt, a);
  return luaL_error(L, "%s", st->why);
}

static adstate *getst (lua_State *L)
{
  return lua_touserdata(L, lua_upvalueindex(1));
}

/* The node of the value at idx: a number (a constant) or a tracer of the
** trace in progress; raises otherwise. */
static int tonode (lua_State *L, adstate *st, int idx)
{
  tracer *tr;
  if (lua_type(L, idx) == LUA_TNUMBER)
    return ol_tape_const(st->t, lua_tonumber(L, idx));
  tr = luaL_testudata(L, idx, TRACER);
  if (tr == NULL)
    return refuse(L, st, "it does arithmetic on a traced value and a %s",
                  luaL_typename(L, idx));
  if (st->t == NULL || tr->gen != st->gen)
    return luaL_error(L, "a traced value used outside its trace (kept "
                      "from a traced call of the function?)");
  return tr->node;
}

/* Push node k: a number when it is a constant, else a tracer. */
static int pushnode (lua_State *L, adstate *st, int k)
{
  tracer *tr;
  if (k < 0)
    return refuse(L, st, "its tape's recording failed (%s)",
                  ol_tape_why(st->t)[0] != '\0' ? ol_tape_why(st->t)
                  : "out of memory?");
  if (ol_tape_isconst(st->t, k)) {
    lua_pushnumber(L, ol_tape_value(st->t, k));
    return 1;
  }
  tr = lua_newuserdatauv(L, sizeof *tr, 0);
  tr->node = k;
  tr->gen = st->gen;
  luaL_setmetatable(L, TRACER);
  return 1;
}

static int isnum (lua_State *L, int idx)
{
  return lua_type(L, idx) == LUA_TNUMBER;
}

/* Binary metamethods: upvalue 2 is the op. */
static int t_arith2 (lua_State *L)
{
  adstate *st = getst(L);
  int op = (int)lua_tointeger(L, lua_upvalueindex(2));
  int a = tonode(L, st, 1), b = tonode(L, st, 2);
  return pushnode(L, st, ol_tape_op2(st->t, op, a, b));
}

static int t_unm (lua_State *L)
{
  adstate *st = getst(L);
  return pushnode(L, st, ol_tape_op1(st->t, OL_AD_NEG, tonode(L, st, 1)));
}

/* floor of node a: the constant k = floor(a) under k <= a < k + 1. */
static int floornode (adstate *st, int a)
{
  double k = floor(ol_tape_value(st->t, a));
  int kn = ol_tape_const(st->t, k), k1 = ol_tape_const(st->t, k + 1);
  ol_tape_guard(st->t, OL_AD_LE, kn, a);
  ol_tape_guard(st->t, OL_AD_LT, a, k1);
  return kn;
}

/* a // b = floor(a / b); a % b = a - floor(a / b) b. */
static int t_idiv (lua_State *L)
{
  adstate *st = getst(L);
  int a = tonode(L, st, 1), b = tonode(L, st, 2);
  return pushnode(L, st, floornode(st, ol_tape_op2(st->t, OL_AD_DIV, a, b)));
}

static int t_mod (lua_State *L)
{
  adstate *st = getst(L);
  int a = tonode(L, st, 1), b = tonode(L, st, 2);
  int q = floornode(st, ol_tape_op2(st->t, OL_AD_DIV, a, b));
  return pushnode(L, st, ol_tape_op2(st->t, OL_AD_SUB, a,
                                     ol_tape_op2(st->t, OL_AD_MUL, q, b)));
}

/* Comparisons: upvalue 2 is the relation; the outcome is a guard. */
static int t_compare (lua_State *L)
{
  adstate *st = getst(L);
  int rel = (int)lua_tointeger(L, lua_upvalueindex(2));
  int a = tonode(L, st, 1), b = tonode(L, st, 2);
  int out = ol_tape_guard(st->t, rel, a, b);
  if (out < 0) return luaL_error(L, "tape: recording failed");
  lua_pushboolean(L, out);
  return 1;
}

static int t_tostring (lua_State *L)
{
  return refuse(L, getst(L), "it converts a traced value to a string (%s)",
                "tostring, string.format or .. of x[i]");
}

static int t_concat (lua_State *L)
{
  return refuse(L, getst(L), "it converts a traced value to a string (%s)",
                "..");
}

static int t_index (lua_State *L)
{
  return refuse(L, getst(L), "it indexes a traced value as a %s", "table");
}

static int t_len (lua_State *L)
{
  return refuse(L, getst(L), "it takes the length of a traced %s", "value");
}

/* == tracing math functions ============================================== */

/* math.<f>(x) for a unary op (upvalue 2) in the traced environment: a
** number folds to a number, a tracer records the op. */
static int m_unary (lua_State *L)
{
  adstate *st = getst(L);
  int op = (int)lua_tointeger(L, lua_upvalueindex(2));
  luaL_checkany(L, 1);
  if (st->t == NULL)
    return luaL_error(L, "a traced math function called outside its "
                      "trace");
  return pushnode(L, st, ol_tape_op1(st->t, op, tonode(L, st, 1)));
}

/* The permanent math.tanh, log1p, expm1 and pow (Lua 5.4 has none): the
** libm values for numbers; tracers while a trace is in progress. */
static int m_tanh (lua_State *L)
{
  if (isnum(L, 1)) {
    lua_pushnumber(L, tanh(lua_tonumber(L, 1)));
    return 1;
  }
  return m_unary(L);
}

static int m_log1p (lua_State *L)
{
  if (isnum(L, 1)) {
    lua_pushnumber(L, log1p(lua_tonumber(L, 1)));
    return 1;
  }
  return m_unary(L);
}

static int m_expm1 (lua_State *L)
{
  if (isnum(L, 1)) {
    lua_pushnumber(L, expm1(lua_tonumber(L, 1)));
    return 1;
  }
  return m_unary(L);
}

static int m_lgamma (lua_State *L)
{
  if (isnum(L, 1)) {
    lua_pushnumber(L, lgamma(lua_tonumber(L, 1)));
    return 1;
  }
  return m_unary(L);
}

static int m_pow (lua_State *L)
{
  adstate *st = getst(L);
  if (isnum(L, 1) && isnum(L, 2)) {
    lua_pushnumber(L, pow(lua_tonumber(L, 1), lua_tonumber(L, 2)));
    return 1;
  }
  if (st->t == NULL) luaL_checknumber(L, isnum(L, 1) ? 2 : 1);
  return pushnode(L, st, ol_tape_op2(st->t, OL_AD_POW, tonode(L, st, 1),
                                     tonode(L, st, 2)));
}

/* math.log(x [, base]). */
static int m_log (lua_State *L)
{
  adstate *st = getst(L);
  int a, k;
  if (isnum(L, 1) && (lua_isnoneornil(L, 2) || isnum(L, 2))) {
    double x = lua_tonumber(L, 1), b = luaL_optnumber(L, 2, 0);
    lua_pushnumber(L, lua_isnoneornil(L, 2) ? log(x) : b == 2 ? log2(x)
                   : b == 10 ? log10(x) : log(x) / log(b));
    return 1;
  }
  a = tonode(L, st, 1);
  k = ol_tape_op1(st->t, OL_AD_LOG, a);
  if (!lua_isnoneornil(L, 2))
    k = ol_tape_op2(st->t, OL_AD_DIV, k, ol_tape_op1(st->t, OL_AD_LOG,
                                                     tonode(L, st, 2)));
  return pushnode(L, st, k);
}

/* math.atan(y [, x]): atan(y / x), plus or minus pi when x < 0 (guards
** 0 < x, then 0 <= y); x = 0 cannot be traced. */
static int m_atan (lua_State *L)
{
  adstate *st = getst(L);
  int y, x, z, r;
  if (isnum(L, 1) && (lua_isnoneornil(L, 2) || isnum(L, 2))) {
    lua_pushnumber(L, atan2(lua_tonumber(L, 1), luaL_optnumber(L, 2, 1)));
    return 1;
  }
  y = tonode(L, st, 1);
  if (lua_isnoneornil(L, 2))
    return pushnode(L, st, ol_tape_op1(st->t, OL_AD_ATAN, y));
  x = tonode(L, st, 2);
  z = ol_tape_const(st->t, 0);
  if (ol_tape_guard(st->t, OL_AD_EQ, x, z) == 1)
    return refuse(L, st, "it takes math.atan(y, x) at %s", "x = 0");
  r = ol_tape_op1(st->t, OL_AD_ATAN, ol_tape_op2(st->t, OL_AD_DIV, y, x));
  if (ol_tape_guard(st->t, OL_AD_LT, z, x) == 0)
    r = ol_tape_op2(st->t, ol_tape_guard(st->t, OL_AD_LE, z, y) == 1
                    ? OL_AD_ADD : OL_AD_SUB, r, ol_tape_const(st->t, PI));
  return pushnode(L, st, r);
}

/* math.abs(x) = x under 0 <= x, else -x (the right-hand derivative 1 at
** the kink). */
static int m_abs (lua_State *L)
{
  adstate *st = getst(L);
  int a, z;
  if (isnum(L, 1)) {
    if (lua_isinteger(L, 1)) {
      lua_Integer i = lua_tointeger(L, 1);
      lua_pushinteger(L, i < 0 ? (lua_Integer)(0u - (lua_Unsigned)i) : i);
    }
    else lua_pushnumber(L, fabs(lua_tonumber(L, 1)));
    return 1;
  }
  a = tonode(L, st, 1);
  z = ol_tape_const(st->t, 0);
  return pushnode(L, st, ol_tape_guard(st->t, OL_AD_LE, z, a) == 1
                  ? a : ol_tape_op1(st->t, OL_AD_NEG, a));
}

/* math.max and math.min as Lua computes them: the first argument, replaced
** by each later one that is larger (smaller): a guard per argument.
** upvalue 2: 1 for max. */
static int m_maxmin (lua_State *L)
{
  adstate *st = getst(L);
  int ismax = (int)lua_tointeger(L, lua_upvalueindex(2));
  int n = lua_gettop(L), i, best = 1;
  luaL_argcheck(L, n >= 1, 1, "number expected");
  for (i = 2; i <= n; i++) {
    int later;
    if (isnum(L, best) && isnum(L, i))
      later = ismax ? lua_compare(L, best, i, LUA_OPLT)
                    : lua_compare(L, i, best, LUA_OPLT);
    else {
      int a = tonode(L, st, best), b = tonode(L, st, i);
      later = ismax ? ol_tape_guard(st->t, OL_AD_LT, a, b)
                    : ol_tape_guard(st->t, OL_AD_LT, b, a);
    }
    if (later) best = i;
  }
  if (!isnum(L, best)) tonode(L, st, best);
  lua_pushvalue(L, best);
  return 1;
}

/* math.floor and math.ceil: upvalue 2 is 1 for ceil. */
static int m_floorceil (lua_State *L)
{
  adstate *st = getst(L);
  int ceil_ = (int)lua_tointeger(L, lua_upvalueindex(2)), a;
  double k;
  if (isnum(L, 1)) {
    lua_Number v = lua_tonumber(L, 1);
    if (lua_isinteger(L, 1)) lua_settop(L, 1);
    else {
      lua_Number f = ceil_ ? ceil(v) : floor(v);
      lua_Integer i;
      if (lua_numbertointeger(f, &i)) lua_pushinteger(L, i);
      else lua_pushnumber(L, f);
    }
    return 1;
  }
  a = tonode(L, st, 1);
  if (!ceil_) {
    lua_pushnumber(L, ol_tape_value(st->t, floornode(st, a)));
    return 1;
  }
  k = ceil(ol_tape_value(st->t, a));
  ol_tape_guard(st->t, OL_AD_LT, ol_tape_const(st->t, k - 1), a);
  ol_tape_guard(st->t, OL_AD_LE, a, ol_tape_const(st->t, k));
  lua_pushnumber(L, k);
  return 1;
}

/* math.tointeger(x) of a tracer: Lua's result at the trace point, under
** guards that hold exactly where Lua's result stays the same: x == k
** (the integer k; the tape then holds at that one point, and a re-trace
** follows at any other), or k < x < k + 1 with k = floor(x) (fail). */
static int m_tointeger (lua_State *L)
{
  adstate *st = getst(L);
  int a, kn;
  double v, k;
  if (luaL_testudata(L, 1, TRACER) == NULL) {          /* Lua's own */
    int valid;
    lua_Integer i = lua_tointegerx(L, 1, &valid);
    luaL_checkany(L, 1);
    if (valid) lua_pushinteger(L, i);
    else luaL_pushfail(L);
    return 1;
  }
  a = tonode(L, st, 1);
  v = ol_tape_value(st->t, a);
  k = floor(v);
  kn = ol_tape_const(st->t, k);
  if (v == k && k >= -0x1p63 && k < 0x1p63) {
    ol_tape_guard(st->t, OL_AD_EQ, a, kn);
    lua_pushinteger(L, (lua_Integer)k);
    return 1;
  }
  if (!isfinite(v))
    return refuse(L, st, "it takes math.tointeger of a traced value that "
                  "is %s", isnan(v) ? "nan" : "infinite");
  ol_tape_guard(st->t, OL_AD_LE, kn, a);
  ol_tape_guard(st->t, OL_AD_LT, a, ol_tape_const(st->t, k + 1));
  ol_tape_guard(st->t, OL_AD_EQ, a, kn);
  luaL_pushfail(L);
  return 1;
}

/* tostring, tonumber, type and math.type in the traced environment. */
static int e_tostring (lua_State *L)
{
  if (luaL_testudata(L, 1, TRACER) != NULL)
    return refuse(L, getst(L), "it converts a traced value to a string (%s)",
                  "tostring");
  lua_getglobal(L, "tostring");
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

static int e_tonumber (lua_State *L)
{
  if (luaL_testudata(L, 1, TRACER) != NULL)
    return refuse(L, getst(L), "it converts a traced value to a number (%s)",
                  "tonumber");
  lua_getglobal(L, "tonumber");
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

static int e_type (lua_State *L)
{
  luaL_checkany(L, 1);
  if (luaL_testudata(L, 1, TRACER) != NULL) lua_pushliteral(L, "number");
  else lua_pushstring(L, luaL_typename(L, 1));
  return 1;
}

static int e_mathtype (lua_State *L)
{
  luaL_checkany(L, 1);
  if (luaL_testudata(L, 1, TRACER) != NULL) lua_pushliteral(L, "float");
  else if (lua_type(L, 1) != LUA_TNUMBER) luaL_pushfail(L);
  else if (lua_isinteger(L, 1)) lua_pushliteral(L, "integer");
  else lua_pushliteral(L, "float");
  return 1;
}

static int e_newindex (lua_State *L)
{
  const char *k = lua_tostring(L, 2);
  return refuse(L, getst(L), "it writes the global '%s' (a side effect the "
                "tape cannot replay)", k != NULL ? k : "?");
}

/* The permanent math.exp, log, sqrt, ... (the names of the tracing table
** that Lua's math library has): upvalue 1 the state, 2 Lua's own C
** function, 3 the tracing one.  With no tracer among the arguments, Lua's
** function on the same stack (its results and errors to the bit); with
** one during a trace, the tracing function -- so that a math function
** captured in a local before the trace (local exp = math.exp, at the top
** of a file) traces too. */
static int m_wrap (lua_State *L)
{
  adstate *st = getst(L);
  int i, n = lua_gettop(L);
  for (i = 1; i <= n; i++)
    if (lua_type(L, i) == LUA_TUSERDATA && luaL_testudata(L, i, TRACER))
      break;
  if (i > n || st->t == NULL)
    return lua_tocfunction(L, lua_upvalueindex(2))(L);
  lua_pushvalue(L, lua_upvalueindex(3));
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  return lua_gettop(L);
}

/* == tracing ============================================================= */

/* Push the tracing math functions (a table; upvalue st at stidx). */
static void pushmath (lua_State *L, int stidx)
{
  static const struct { const char *name; int op; } un[] = {
    {"exp", OL_AD_EXP}, {"sqrt", OL_AD_SQRT}, {"sin", OL_AD_SIN},
    {"cos", OL_AD_COS}, {"tan", OL_AD_TAN}, {"tanh", OL_AD_TANH},
    {"log1p", OL_AD_LOG1P}, {"expm1", OL_AD_EXPM1},
    {"lgamma", OL_AD_LGAMMA},
  };
  size_t i;
  lua_createtable(L, 0, 16);
  for (i = 0; i < sizeof un / sizeof un[0]; i++) {
    lua_pushvalue(L, stidx);
    lua_pushinteger(L, un[i].op);
    lua_pushcclosure(L, m_unary, 2);
    lua_setfield(L, -2, un[i].name);
  }
#define SETF(name, fn, up2) \
  lua_pushvalue(L, stidx); lua_pushinteger(L, up2); \
  lua_pushcclosure(L, fn, 2); lua_setfield(L, -2, name)
  SETF("log", m_log, 0);
  SETF("atan", m_atan, 0);
  SETF("abs", m_abs, 0);
  SETF("max", m_maxmin, 1);
  SETF("min", m_maxmin, 0);
  SETF("floor", m_floorceil, 0);
  SETF("ceil", m_floorceil, 1);
  SETF("pow", m_pow, 0);
  SETF("type", e_mathtype, 0);
  SETF("tointeger", m_tointeger, 0);
#undef SETF
}

/* Swap the fields of the global math table with those of the tracing
** table at tm (both ways: called once before the trace, once after), so
** that math.exp is tracer-aware wherever the traced code looks it up (in
** f, or in a helper of another chunk); saved (a table) holds the
** originals, false for an absent one. */
static void swapmath (lua_State *L, int tm, int saved, int before)
{
  int m;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  if (lua_getfield(L, -1, "math") != LUA_TTABLE) {
    lua_pop(L, 2);
    return;
  }
  m = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, tm) != 0) {
    lua_pop(L, 1);                                 /* key on top */
    if (before) {
      lua_pushvalue(L, -1);
      if (lua_rawget(L, m) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushboolean(L, 0);
      }
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, saved);                        /* saved[k] = math[k] */
      lua_pushvalue(L, -1);
      lua_pushvalue(L, -1);
      lua_rawget(L, tm);
      lua_rawset(L, m);                            /* math[k] = tm[k] */
    }
    else {
      lua_pushvalue(L, -1);
      lua_pushvalue(L, -1);
      lua_rawget(L, saved);
      if (lua_type(L, -1) == LUA_TBOOLEAN) {
        lua_pop(L, 1);
        lua_pushnil(L);
      }
      lua_rawset(L, m);                            /* math[k] = saved[k] */
    }
  }
  lua_pop(L, 2);
}

/* Push the proxy of the environment at env: tostring, tonumber and type
** replaced; reads fall through to env; writes refuse. */
static void pushproxy (lua_State *L, int stidx, int env)
{
  lua_createtable(L, 0, 4);
  lua_pushvalue(L, stidx);
  lua_pushcclosure(L, e_tostring, 1);
  lua_setfield(L, -2, "tostring");
  lua_pushvalue(L, stidx);
  lua_pushcclosure(L, e_tonumber, 1);
  lua_setfield(L, -2, "tonumber");
  lua_pushcfunction(L, e_type);
  lua_setfield(L, -2, "type");
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, env);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, stidx);
  lua_pushcclosure(L, e_newindex, 1);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, -2);
}

void olua_ad_notraced (lua_State *L, const char *what)
{
  adstate *st;
  lua_getfield(L, LUA_REGISTRYINDEX, ADSTATE);
  st = lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (st != NULL && st->t != NULL)
    refuse(L, st, "it uses %s (optlab objects act at trace time only, a "
           "tape would not replay them)", what);
}

static adstate *pushstate (lua_State *L)
{
  adstate *st;
  lua_getfield(L, LUA_REGISTRYINDEX, ADSTATE);
  st = lua_touserdata(L, -1);
  return st;
}

static ol_tape *trace1 (lua_State *L, int fidx, int n, const double *x,
                        char *why, size_t wsz, int maxnodes);

/* f at fidx called with a table of the n numbers x: OL_OK with the value
** in *f, else the reason in why (*intr set when it was a Ctrl-C). */
static int plaincall (lua_State *L, int fidx, int n, const double *x,
                      double *f, char *why, size_t wsz, int *intr)
{
  int i, top = lua_gettop(L);
  if (!lua_checkstack(L, 8)) {
    snprintf(why, wsz, "out of stack space");
    return OL_ECALLBACK;
  }
  lua_pushvalue(L, fidx);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, x[i]);
    lua_rawseti(L, -2, i + 1);
  }
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    if (msg != NULL && strstr(msg, "interrupted!") != NULL) *intr = 1;
    snprintf(why, wsz, "it fails on numbers where it traced: %.150s",
             msg != NULL ? msg : "(error object)");
    lua_settop(L, top);
    return OL_ECALLBACK;
  }
  if (lua_type(L, -1) != LUA_TNUMBER) {
    snprintf(why, wsz, "it returns a %s on numbers where it traced",
             luaL_typename(L, -1));
    lua_settop(L, top);
    return OL_ECALLBACK;
  }
  *f = lua_tonumber(L, -1);
  lua_settop(L, top);
  return OL_OK;
}

/* 1 when f's value on numbers, a, is the tape's, b, up to the rounding of
** operations the tape records another way (math.log(x, 10) as log x /
** log 10, atan(y, x), a % b): 1024 eps relative to the largest value on
** the tape, mag; NaN is NaN, an infinity itself. */
static int samevalue (double a, double b, double mag)
{
  if (a == b || (isnan(a) && isnan(b))) return 1;
  if (!isfinite(a) || !isfinite(b)) return 0;
  return fabs(a - b) <= 1024 * DBL_EPSILON * fmax(mag, fmax(fabs(a),
                                                            fabs(b)));
}

/* why := "at x = (...) its value on numbers, a, is not its traced value,
** b" and the likely cause. */
static void mismatch (char *why, size_t wsz, const double *x, int n,
                      double a, double b, const char *cause)
{
  char na[32], nb[32], nx[32];
  int k = snprintf(why, wsz, "at x = (");
  int i;
  for (i = 0; i < n && i < 3 && k > 0 && (size_t)k < wsz; i++)
    k += snprintf(why + k, wsz - (size_t)k, "%s%s", i ? ", " : "",
                  ol_fmtnum(nx, sizeof nx, x[i], 6));
  if (k > 0 && (size_t)k < wsz)
    snprintf(why + k, wsz - (size_t)k, "%s) its value on numbers, %s, is "
             "not its traced value, %s: %s", n > 3 ? ", ..." : "",
             ol_fmtnum(na, sizeof na, a, 6), ol_fmtnum(nb, sizeof nb, b, 6),
             cause);
}

/* Trace the function at fidx of L at x (n entries): a finished tape, or
** NULL with the reason in why (the function is untraceable there).  The
** tape's value at x is checked against f called on numbers there (one
** more call): Lua compares a tracer and a number with == or ~= without
** asking the tracer (always unequal), so a branch on x == c takes the
** wrong side unseen; a tape whose value differs is not used. */
static ol_tape *trace (lua_State *L, int fidx, int n, const double *x,
                       char *why, size_t wsz, int maxnodes)
{
  int intr = 0;
  double v;
  ol_tape *t = trace1(L, fidx, n, x, why, wsz, maxnodes);
  if (t == NULL) return NULL;
  if (plaincall(L, fidx, n, x, &v, why, wsz, &intr) != OL_OK) {
    ol_tape_free(t);
    if (intr) luaL_error(L, "interrupted!");
    return NULL;
  }
  if (!samevalue(v, ol_tape_value(t, ol_tape_output(t)),
                 ol_tape_magnitude(t))) {
    mismatch(why, wsz, x, n, v, ol_tape_value(t, ol_tape_output(t)),
             "it tests x in a way a tracer cannot follow (x == c or x ~= c "
             "with a number c: Lua compares a tracer and a number without "
             "asking it), or is not a function of x alone (math.random, "
             "state it updates)");
    ol_tape_free(t);
    return NULL;
  }
  return t;
}

/* Trace the function at fidx of L at x (n entries): a finished tape, or
** NULL with the reason in why (the function is untraceable there). */
static ol_tape *trace1 (lua_State *L, int fidx, int n, const double *x,
                        char *why, size_t wsz, int maxnodes)
{
  adstate *st;
  ol_tape *t;
  ol_err e;
  int top, stidx, envup = 0, nup = 0, i, rc, out = -1, tm, intr = 0;
  const char *name;
  fidx = lua_absindex(L, fidx);
  if (!lua_checkstack(L, 64)) {
    snprintf(why, wsz, "out of stack space");
    return NULL;
  }
  top = lua_gettop(L);
  st = pushstate(L);
  stidx = top + 1;
  if (st->t != NULL) {
    snprintf(why, wsz, "it traces another function while traced (grad, "
             "hessian or a problem made inside it)");
    lua_settop(L, top);
    return NULL;
  }
  if ((t = ol_tape_new(n, &e)) == NULL) {
    snprintf(why, wsz, "%.180s", e.msg);
    lua_settop(L, top);
    return NULL;
  }
  if (maxnodes > 0) ol_tape_limit(t, maxnodes);
  /* (1) the upvalues as they are, and the proxy environment */
  if (lua_isfunction(L, fidx) && !lua_iscfunction(L, fidx))
    for (i = 1; (name = lua_getupvalue(L, fidx, i)) != NULL; i++) {
      if (strcmp(name, "_ENV") == 0) envup = i;
      nup = i;
      if (!lua_checkstack(L, 8)) break;
    }
  st->t = t;
  st->gen++;
  st->why[0] = '\0';
  if (envup > 0) {
    pushproxy(L, stidx, stidx + envup);
    lua_setupvalue(L, fidx, envup);
  }
  lua_getfield(L, LUA_REGISTRYINDEX, ADMATH);        /* tm */
  tm = lua_gettop(L);
  lua_newtable(L);                                   /* saved */
  swapmath(L, tm, tm + 1, 1);
  /* (2) f(x) with x a table of tracers */
  lua_pushvalue(L, fidx);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    int k = ol_tape_var(t, i, x[i]);
    if (k < 0) break;    /* the tape's limit: no raise with the state set */
    pushnode(L, st, k);
    lua_rawseti(L, -2, i + 1);
  }
  if (i < n) {
    snprintf(why, wsz, "its %d inputs alone fill the tape (%.120s)", n,
             ol_tape_why(t));
    lua_pop(L, 2);
    lua_pushnil(L);
    rc = LUA_OK;
  }
  else
    rc = lua_pcall(L, 1, 1, 0);
  /* (3) what it returned; a Ctrl-C (the prompt's "interrupted!") is no
  ** reason to fall back: it is raised again once the state is back */
  if (i < n)
    ;                    /* why is said */
  else if (rc != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    if (msg != NULL && strstr(msg, "interrupted!") != NULL) intr = 1;
    if (st->why[0] != '\0') snprintf(why, wsz, "%s", st->why);
    else snprintf(why, wsz, "it fails on traced values: %s",
                  msg != NULL ? msg : "(error object)");
  }
  else if (lua_type(L, -1) == LUA_TNUMBER)
    out = ol_tape_const(t, lua_tonumber(L, -1));
  else {
    tracer *tr = luaL_testudata(L, -1, TRACER);
    if (tr != NULL && tr->gen == st->gen) out = tr->node;
    else snprintf(why, wsz, "it returned %s %s, not a number",
                  tr != NULL ? "a traced value of another" : "a",
                  tr != NULL ? "trace" : luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  st->t = NULL;
  swapmath(L, tm, tm + 1, 0);
  /* (4) the environment back; upvalues it wrote put back too */
  if (envup > 0) {
    lua_pushvalue(L, stidx + envup);
    lua_setupvalue(L, fidx, envup);
  }
  for (i = 1; i <= nup; i++) {
    if (i == envup) continue;
    name = lua_getupvalue(L, fidx, i);
    if (!lua_rawequal(L, -1, stidx + i)) {
      if (out >= 0)
        snprintf(why, wsz, "it writes its upvalue '%s' (a side effect the "
                 "tape cannot replay)", name != NULL ? name : "?");
      out = -1;
      lua_pushvalue(L, stidx + i);
      lua_setupvalue(L, fidx, i);
    }
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  if (intr) {
    ol_tape_free(t);
    luaL_error(L, "interrupted!");
  }
  if (out < 0 || ol_tape_finish(t, out, &e) != OL_OK) {
    if (out >= 0) snprintf(why, wsz, "%.180s", e.msg);
    ol_tape_free(t);
    return NULL;
  }
  return t;
}

/* == the cache of tapes of one function ================================== */

static int adcache_gc (lua_State *L)
{
  olua_ad *ad = luaL_checkudata(L, 1, ADCACHE);
  int i;
  for (i = 0; i < ad->ntape; i++) {
    ol_tape_free(ad->tape[i]);
    ad->tape[i] = NULL;
    free(ad->tx[i]);
    ad->tx[i] = NULL;
  }
  ad->ntape = 0;
  if (ad->mode == OLUA_AD_TAPE) ad->mode = OLUA_AD_FD;
  free(ad->work);
  ad->work = NULL;
  return 0;
}

/* Drop ad's tapes. */
static void droptapes (olua_ad *ad)
{
  int k;
  for (k = 0; k < ad->ntape; k++) {
    ol_tape_free(ad->tape[k]);
    ad->tape[k] = NULL;
    free(ad->tx[k]);
    ad->tx[k] = NULL;
  }
  ad->ntape = ad->cur = 0;
}

/* Tape k := t, traced at x (kept for olua_ad_verify; without memory for
** it, that tape is not verified). */
static void settape (olua_ad *ad, int k, ol_tape *t, const double *x)
{
  ol_tape_free(ad->tape[k]);
  ad->tape[k] = t;
  if (ad->tx[k] == NULL)
    ad->tx[k] = malloc((size_t)ad->n * sizeof *x);
  if (ad->tx[k] != NULL)
    memmove(ad->tx[k], x, (size_t)ad->n * sizeof *x);
}

olua_ad *olua_ad_new (lua_State *L, int n, const char *fname)
{
  olua_ad *ad = lua_newuserdatauv(L, sizeof *ad, 0);
  memset(ad, 0, sizeof *ad);
  ad->n = n;
  ad->mode = OLUA_AD_FD;
  ad->fname = fname != NULL ? fname : "f";
  ad->check = NAN;
  luaL_setmetatable(L, ADCACHE);
  ad->work = malloc(4 * (size_t)n * sizeof *ad->work);
  if (ad->work == NULL) luaL_error(L, "out of memory");
  return ad;
}

int olua_ad_trace (lua_State *L, olua_ad *ad, int fidx, const double *x)
{
  ol_tape *t = trace(L, fidx, ad->n, x, ad->why, sizeof ad->why,
                   ad->maxnodes);
  if (t == NULL) {
    ad->mode = OLUA_AD_FD;
    return 0;
  }
  droptapes(ad);
  settape(ad, 0, t, x);
  ad->ntape = 1;
  ad->cur = 0;
  ad->mode = OLUA_AD_TAPE;
  memmove(ad->work + 3 * (size_t)ad->n, x, (size_t)ad->n * sizeof *x);
  return 1;
}

void olua_ad_release (olua_ad *ad, const char *why)
{
  droptapes(ad);
  ad->mode = OLUA_AD_FD;
  snprintf(ad->why, sizeof ad->why, "%s", why);
}

void olua_ad_refuse (olua_ad *ad, const char *why)
{
  ad->mode = OLUA_AD_FD;
  snprintf(ad->why, sizeof ad->why, "%s", why);
}

/* A tape of ad whose guards hold at x (forward swept there), re-tracing
** in L when none does; NULL when ad falls back to differences. */
static ol_tape *select_tape (lua_State *L, olua_ad *ad, int fidx,
                             const double *x, double *f)
{
  ol_tape *t;
  char why[200];
  int k;
  if (ad->mode != OLUA_AD_TAPE) return NULL;
  if (ol_tape_forward(ad->tape[ad->cur], x, f)) return ad->tape[ad->cur];
  for (k = 0; k < ad->ntape; k++)
    if (k != ad->cur && ol_tape_forward(ad->tape[k], x, f)) {
      ad->cur = k;
      return ad->tape[k];
    }
  if (ad->retraces >= OLUA_AD_MAXRETRACE) {
    snprintf(ad->why, sizeof ad->why, "its branches changed more than %d "
             "times (a re-trace each)", OLUA_AD_MAXRETRACE);
    ad->mode = OLUA_AD_FD;
    return NULL;
  }
  ad->retraces++;
  if ((t = trace(L, fidx, ad->n, x, why, sizeof why, ad->maxnodes))
      == NULL) {
    snprintf(ad->why, sizeof ad->why, "re-traced where a branch changed: "
             "%.160s", why);
    ad->mode = OLUA_AD_FD;
    return NULL;
  }
  k = ad->ntape < OLUA_AD_CACHE ? ad->ntape++ : (int)(ad->retraces %
                                                      OLUA_AD_CACHE);
  settape(ad, k, t, x);
  ad->cur = k;
  if (!ol_tape_forward(t, x, f)) {   /* cannot happen: traced at x */
    snprintf(ad->why, sizeof ad->why, "a re-traced tape's guards fail "
             "where it was traced");
    ad->mode = OLUA_AD_FD;
    return NULL;
  }
  return t;
}

/* f(x) called in L with numbers: OL_OK or OL_ECALLBACK with e set. */
static int callf (lua_State *L, olua_ad *ad, int fidx, const double *x,
                  double *f, ol_err *e)
{
  int i, n = ad->n, top = lua_gettop(L);
  if (!lua_checkstack(L, 8))
    return ol_err_set(e, OL_ECALLBACK, "%s: out of stack space", ad->fname);
  lua_pushcfunction(L, olua_msghandler);
  lua_pushvalue(L, fidx);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, x[i]);
    lua_rawseti(L, -2, i + 1);
  }
  if (lua_pcall(L, 1, 1, top + 1) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    ol_err_set(e, OL_ECALLBACK, "%s", msg != NULL ? msg : "(error object)");
    lua_settop(L, top);
    return OL_ECALLBACK;
  }
  if (lua_type(L, -1) != LUA_TNUMBER) {
    ol_err_set(e, OL_ECALLBACK, "%s returned %s%s (expected a number)",
               ad->fname, lua_isnil(L, -1) ? "" : "a ",
               luaL_typename(L, -1));
    lua_settop(L, top);
    return OL_ECALLBACK;
  }
  *f = lua_tonumber(L, -1);
  lua_settop(L, top);
  return OL_OK;
}

/* Central differences of f at x, step h_i = cbrt(eps) max(1, |x_i|) over
** the representable step (as ol_problem_eval): 2n calls, plus one for f. */
static int fdgrad (lua_State *L, olua_ad *ad, int fidx, const double *x,
                   double *f, double *g, ol_err *e)
{
  double *y = ad->work, fp, fm;
  int i, n = ad->n, st;
  if (f != NULL && (st = callf(L, ad, fidx, x, f, e)) != OL_OK) return st;
  if (g == NULL) return OL_OK;
  memcpy(y, x, (size_t)n * sizeof *y);
  for (i = 0; i < n; i++) {
    volatile double xp = x[i] + cbrt(DBL_EPSILON) * fmax(1, fabs(x[i]));
    double h = xp - x[i];
    y[i] = x[i] + h;
    if ((st = callf(L, ad, fidx, y, &fp, e)) != OL_OK) return st;
    y[i] = x[i] - h;
    if ((st = callf(L, ad, fidx, y, &fm, e)) != OL_OK) return st;
    y[i] = x[i];
    g[i] = (fp - fm) / (2 * h);
  }
  return OL_OK;
}

int olua_ad_fdgrad (lua_State *L, olua_ad *ad, int fidx, const double *x,
                    double *f, double *g, ol_err *e)
{
  return fdgrad(L, ad, fidx, x, f, g, e);
}

int olua_ad_verify (lua_State *L, olua_ad *ad, int fidx)
{
  double v, fv, *xt;
  char why[320];
  int intr = 0, k;
  ol_tape *t;
  if (ad->mode != OLUA_AD_TAPE || ad->ntape == 0) return 0;
  fidx = lua_absindex(L, fidx);
  xt = lua_newuserdatauv(L, (size_t)ad->n * sizeof *xt, 0);
  for (k = 0; k < ad->ntape; k++) {
    if (ad->tx[k] == NULL) continue;
    memcpy(xt, ad->tx[k], (size_t)ad->n * sizeof *xt);
    if (!ol_tape_forward(ad->tape[k], xt, &v)) continue;   /* cannot be */
    if (plaincall(L, fidx, ad->n, xt, &fv, why, sizeof why, &intr)
        != OL_OK) {
      lua_pop(L, 1);
      if (intr) luaL_error(L, "interrupted!");
      snprintf(ad->why, sizeof ad->why, "%s", why);
      ad->mode = OLUA_AD_FD;
      return 1;
    }
    if (samevalue(fv, v, ol_tape_magnitude(ad->tape[k]))) continue;
    mismatch(why, sizeof why, xt, ad->n, fv, v, "the tape was made before "
             "(a global or a table it reads changed since)");
    ad->retraces++;
    t = trace(L, fidx, ad->n, xt, ad->why, sizeof ad->why,
              ad->maxnodes);
    if (t == NULL) {
      char tmp[320];
      lua_pop(L, 1);
      snprintf(tmp, sizeof tmp, "%s", ad->why);
      snprintf(ad->why, sizeof ad->why, "%.150s; re-traced there: %.150s",
               why, tmp);
      ad->mode = OLUA_AD_FD;
      return 1;
    }
    droptapes(ad);                   /* the others were made before too */
    settape(ad, 0, t, xt);
    ad->ntape = 1;
    ad->cur = 0;
    snprintf(ad->note, sizeof ad->note, "re-traced %.280s", why);
    lua_pop(L, 1);
    return 1;
  }
  lua_pop(L, 1);
  return 0;
}

int olua_ad_eval (lua_State *L, olua_ad *ad, int fidx, const double *x,
                  double *f, double *g, ol_err *e)
{
  double v;
  ol_tape *t = select_tape(L, ad, fidx, x, &v);
  if (t == NULL) return fdgrad(L, ad, fidx, x, f, g, e);
  if (f != NULL) *f = v;
  if (g != NULL) ol_tape_reverse(t, g);
  return OL_OK;
}

int olua_ad_hess (lua_State *L, olua_ad *ad, int fidx, const double *x,
                  double *H, ol_err *e)
{
  double v, *gp, *gm;
  ol_tape *t = select_tape(L, ad, fidx, x, &v);
  int i, j, n = ad->n, st;
  if (t != NULL) {
    if (ol_tape_hessian(t, H) != OL_OK)
      return ol_err_set(e, OL_EINTR, "interrupted!");
    return OL_OK;
  }
  /* differences of the difference gradient (work: y, then g+, g-) */
  gp = malloc(2 * (size_t)n * sizeof *gp);
  if (gp == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  gm = gp + n;
  for (i = 0; i < n; i++) {
    double *y = ad->work + n, h;
    volatile double xp = x[i] + cbrt(DBL_EPSILON) * fmax(1, fabs(x[i]));
    h = xp - x[i];
    memcpy(y, x, (size_t)n * sizeof *y);
    y[i] = x[i] + h;
    if ((st = fdgrad(L, ad, fidx, y, NULL, gp, e)) != OL_OK) goto fail;
    y[i] = x[i] - h;
    if ((st = fdgrad(L, ad, fidx, y, NULL, gm, e)) != OL_OK) goto fail;
    for (j = 0; j < n; j++) H[(size_t)j * n + i] = (gp[j] - gm[j]) / (2 * h);
  }
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      double s = 0.5 * (H[(size_t)i * n + j] + H[(size_t)j * n + i]);
      H[(size_t)i * n + j] = H[(size_t)j * n + i] = s;
    }
  free(gp);
  return OL_OK;
fail:
  free(gp);
  return st;
}

double olua_ad_checkgrad (lua_State *L, olua_ad *ad, int fidx,
                          const double *x, ol_err *e)
{
  double *gt = malloc(2 * (size_t)ad->n * sizeof *gt), *gf, f, err = 0,
         scale = 1;
  int i;
  if (gt == NULL) return NAN;
  gf = gt + ad->n;
  if (olua_ad_eval(L, ad, fidx, x, &f, gt, e) != OL_OK ||
      fdgrad(L, ad, fidx, x, NULL, gf, e) != OL_OK) {
    free(gt);
    return NAN;
  }
  for (i = 0; i < ad->n; i++) scale = fmax(scale, fabs(gf[i]));
  for (i = 0; i < ad->n; i++) err = fmax(err, fabs(gt[i] - gf[i]) / scale);
  free(gt);
  ad->check = err;
  return err;
}

int olua_ad_onkink (const olua_ad *ad)
{
  return ad->mode == OLUA_AD_TAPE && ad->ntape > 0 &&
         ol_tape_ontie(ad->tape[ad->cur]);
}

const char *olua_ad_note (const olua_ad *ad, char *buf, size_t sz)
{
  int i, ops = 0, guards = 0;
  if (ad == NULL) return NULL;
  if (ad->mode != OLUA_AD_TAPE) {
    snprintf(buf, sz, "finite differences (%s)", ad->why);
    return buf;
  }
  ops = ol_tape_nops(ad->tape[ad->cur]);
  guards = ol_tape_nguards(ad->tape[ad->cur]);
  i = snprintf(buf, sz, "traced (tape of %d ops, %d guard%s", ops, guards,
               guards == 1 ? "" : "s");
  if (ad->retraces > 0 && i > 0 && (size_t)i < sz)
    i += snprintf(buf + i, sz - (size_t)i, "; %ld traces, %d tape%s kept",
                  ad->retraces + 1, ad->ntape, ad->ntape == 1 ? "" : "s");
  if (!isnan(ad->check) && i > 0 && (size_t)i < sz) {
    char num[32];
    i += snprintf(buf + i, sz - (size_t)i, "; ad check at x0: error %s "
                  "against differences", ol_fmtnum(num, sizeof num,
                                                   ad->check, 3));
  }
  if (ad->note[0] != '\0' && i > 0 && (size_t)i < sz)
    i += snprintf(buf + i, sz - (size_t)i, "; %s", ad->note);
  if (i > 0 && (size_t)i < sz) snprintf(buf + i, sz - (size_t)i, ")");
  return buf;
}

void olua_ad_pushinfo (lua_State *L, const olua_ad *ad)
{
  lua_createtable(L, 0, 8);
  lua_pushstring(L, ad->mode == OLUA_AD_TAPE ? "traced" : "fd");
  lua_setfield(L, -2, "mode");
  if (ad->mode == OLUA_AD_TAPE) {
    const ol_tape *t = ad->tape[ad->cur];
    lua_pushinteger(L, ol_tape_nops(t));
    lua_setfield(L, -2, "ops");
    lua_pushinteger(L, ol_tape_nguards(t));
    lua_setfield(L, -2, "guards");
    lua_pushinteger(L, ol_tape_nnodes(t));
    lua_setfield(L, -2, "nodes");
  }
  else {
    lua_pushstring(L, ad->why);
    lua_setfield(L, -2, "reason");
  }
  lua_pushinteger(L, ad->retraces);
  lua_setfield(L, -2, "retraces");
  lua_pushinteger(L, ad->ntape > 0 ? ad->retraces + 1 : 0);
  lua_setfield(L, -2, "traces");
  lua_pushinteger(L, ad->ntape);
  lua_setfield(L, -2, "tapes");
  if (!isnan(ad->check)) {
    lua_pushnumber(L, ad->check);
    lua_setfield(L, -2, "check");
  }
  lua_pushnumber(L, ad->tracetime);
  lua_setfield(L, -2, "time");
  if (ad->note[0] != '\0') {
    lua_pushstring(L, ad->note);
    lua_setfield(L, -2, "note");
  }
}

/* == the prompt's grad, hessian, hvp, tape =============================== */

/* f at 1 (a function), x at 2: a new olua_ad pushed, traced at x (copied
** into *xp, a buffer on the stack). */
/* Raise "<who>: <what>[i] = nan is not finite" for the first such entry. */
static void checkfinite (lua_State *L, const char *who, const char *what,
                         const double *v, int n)
{
  int i;
  for (i = 0; i < n; i++)
    if (!isfinite(v[i]))
      luaL_error(L, "%s: %s[%d] = %s is not finite", who, what, i + 1,
                 isnan(v[i]) ? "nan" : v[i] > 0 ? "inf" : "-inf");
}

static olua_ad *prompt_trace (lua_State *L, const char *who, double **xp)
{
  int n;
  double *x;
  olua_ad *ad;
  if (!lua_isfunction(L, 1) && !luaL_getmetafield(L, 1, "__call"))
    luaL_error(L, "%s: f must be a function, got a %s", who,
               luaL_typename(L, 1));
  x = olua_checkarray(L, 2, who, "x", &n);
  if (n < 1) luaL_error(L, "%s: x is empty (a table of n >= 1 numbers)",
                        who);
  checkfinite(L, who, "x", x, n);
  ad = olua_ad_new(L, n, "f");
  {
    double t0 = ol_now();
    olua_ad_trace(L, ad, 1, x);
    ad->tracetime = ol_now() - t0;
  }
  *xp = x;
  return ad;
}

/* grad(f, x) -> g, and a second result, the reason, when f could not be
** traced (g is then by central differences). */
static int ad_grad (lua_State *L)
{
  double *x, f;
  olua_ad *ad = prompt_trace(L, "grad", &x);
  double *g = lua_newuserdatauv(L, (size_t)ad->n * sizeof *g, 0);
  ol_err e;
  if (olua_ad_eval(L, ad, 1, x, &f, g, &e) != OL_OK)
    return luaL_error(L, "grad: %s", e.msg);
  olua_pushvec(L, g, ad->n);
  if (ad->mode == OLUA_AD_TAPE) return 1;
  lua_pushfstring(L, "finite differences (%s)", ad->why);
  return 2;
}

/* hessian(f, x) -> H (n rows of n numbers), and the reason as grad. */
static int ad_hessian (lua_State *L)
{
  double *x;
  olua_ad *ad = prompt_trace(L, "hessian", &x);
  int n = ad->n, i;
  double *H;
  ol_err e;
  if (n > 10000) return luaL_error(L, "hessian: n = %d is too large for a "
                                   "dense Hessian (use hvp)", n);
  H = lua_newuserdatauv(L, (size_t)n * n * sizeof *H, 0);
  if (olua_ad_hess(L, ad, 1, x, H, &e) != OL_OK)
    return luaL_error(L, "hessian: %s", e.msg);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    olua_pushvec(L, H + (size_t)i * n, n);
    lua_rawseti(L, -2, i + 1);
  }
  if (ad->mode == OLUA_AD_TAPE) return 1;
  lua_pushfstring(L, "finite differences (%s)", ad->why);
  return 2;
}

/* hvp(f, x, v) -> H v; by differences of the gradient along v when f
** cannot be traced (and the reason). */
static int ad_hvp (lua_State *L)
{
  double *x, *v, f, *hv;
  olua_ad *ad;
  int n, len, i;
  ol_tape *t;
  ol_err e;
  lua_settop(L, 3);
  v = olua_checkarray(L, 3, "hvp", "v", &len);
  ad = prompt_trace(L, "hvp", &x);
  n = ad->n;
  if (len != n)
    return luaL_error(L, "hvp: v has %d entries, expected n = %d", len, n);
  checkfinite(L, "hvp", "v", v, n);
  hv = lua_newuserdatauv(L, 3 * (size_t)n * sizeof *hv, 0);
  t = select_tape(L, ad, 1, x, &f);
  if (t != NULL) ol_tape_hvp(t, v, hv, NULL);
  else {
    double *y = hv + n, *gp = hv + 2 * n, vn = 0, h;
    for (i = 0; i < n; i++) vn = fmax(vn, fabs(v[i]));
    h = vn > 0 ? cbrt(DBL_EPSILON) / vn : 1;
    for (i = 0; i < n; i++) y[i] = x[i] + h * v[i];
    if (fdgrad(L, ad, 1, y, NULL, gp, &e) != OL_OK)
      return luaL_error(L, "hvp: %s", e.msg);
    for (i = 0; i < n; i++) y[i] = x[i] - h * v[i];
    if (fdgrad(L, ad, 1, y, NULL, hv, &e) != OL_OK)
      return luaL_error(L, "hvp: %s", e.msg);
    for (i = 0; i < n; i++) hv[i] = (gp[i] - hv[i]) / (2 * h);
  }
  olua_pushvec(L, hv, n);
  if (ad->mode == OLUA_AD_TAPE) return 1;
  lua_pushfstring(L, "finite differences (%s)", ad->why);
  return 2;
}

/* The listing of a tape: one line per node that is not an input. */
static int tape_listing (lua_State *L)
{
  lua_getfield(L, 1, "text");
  return 1;
}

/* tape(f, x) prints the listing: the inputs, one line per instruction
** (node, op, operands, value at x), the guards with their outcomes, the
** output.  tape(f, x, true) prints nothing and returns a table {ops,
** guards, nodes, bytes, value, time, text} that prints as the listing.
** Raises when f cannot be traced at x, saying why. */
static int ad_tape (lua_State *L)
{
  double *x;
  int quiet = lua_toboolean(L, 3);
  olua_ad *ad;
  lua_settop(L, 2);
  ad = prompt_trace(L, "tape", &x);
  const ol_tape *t;
  luaL_Buffer b;
  char line[160], num[32], num2[32];
  int k, op, a, bb, rel, out, nn;
  double v;
  if (ad->mode != OLUA_AD_TAPE)
    return luaL_error(L, "tape: f cannot be traced: %s", ad->why);
  t = ad->tape[0];
  nn = ol_tape_nnodes(t);
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, ol_tape_nops(t));
  lua_setfield(L, -2, "ops");
  lua_pushinteger(L, ol_tape_nguards(t));
  lua_setfield(L, -2, "guards");
  lua_pushinteger(L, nn);
  lua_setfield(L, -2, "nodes");
  lua_pushinteger(L, (lua_Integer)nn * 20 + ol_tape_nguards(t) * 16);
  lua_setfield(L, -2, "bytes");
  lua_pushnumber(L, ol_tape_value(t, ol_tape_output(t)));
  lua_setfield(L, -2, "value");
  lua_pushnumber(L, ad->tracetime);
  lua_setfield(L, -2, "time");
  luaL_buffinit(L, &b);
  snprintf(line, sizeof line, "tape of %d ops, %d guards, %d nodes (%d "
           "inputs), about %d bytes", ol_tape_nops(t), ol_tape_nguards(t),
           nn, ol_tape_n(t), nn * 20 + ol_tape_nguards(t) * 16);
  luaL_addstring(&b, line);
  for (k = 0; k < nn && k < 2000; k++) {
    ol_tape_node(t, k, &op, &a, &bb, &v);
    ol_fmtnum(num, sizeof num, v, 6);
    if (op == OL_AD_VAR)
      snprintf(line, sizeof line, "\n  %%%-4d = x[%d]%*s%s", k, a + 1, 18,
               "", num);
    else if (op == OL_AD_CONST)
      snprintf(line, sizeof line, "\n  %%%-4d = const%*s%s", k, 17, "", num);
    else if (bb < 0)
      snprintf(line, sizeof line, "\n  %%%-4d = %-5s %%%-5d%*s%s", k,
               ol_tape_opname(op), a, 10, "", num);
    else
      snprintf(line, sizeof line, "\n  %%%-4d = %-5s %%%-5d %%%-5d   %s", k,
               ol_tape_opname(op), a, bb, num);
    luaL_addstring(&b, line);
  }
  if (nn > 2000) {
    snprintf(line, sizeof line, "\n  ... (%d more nodes)", nn - 2000);
    luaL_addstring(&b, line);
  }
  for (k = 0; k < ol_tape_nguards(t) && k < 200; k++) {
    ol_tape_guardinfo(t, k, &rel, &a, &bb, &out);
    ol_fmtnum(num, sizeof num, ol_tape_value(t, a), 6);
    ol_fmtnum(num2, sizeof num2, ol_tape_value(t, bb), 6);
    snprintf(line, sizeof line, "\n  guard %d: %%%d %s %%%d is %s (%s %s "
             "%s)", k + 1, a, ol_tape_relname(rel), bb, out ? "true" :
             "false", num, ol_tape_relname(rel), num2);
    luaL_addstring(&b, line);
  }
  snprintf(line, sizeof line, "\n  output: %%%d", ol_tape_output(t));
  luaL_addstring(&b, line);
  luaL_pushresult(&b);
  lua_setfield(L, -2, "text");
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, tape_listing);
  lua_setfield(L, -2, "__tostring");
  lua_setmetatable(L, -2);
  if (quiet) return 1;                         /* tape(f, x, true) */
  lua_getglobal(L, "print");
  lua_getfield(L, -2, "text");
  lua_call(L, 1, 0);
  return 0;
}

/* == opening ============================================================= */

void olua_openad (lua_State *L)
{
  static const struct { const char *ev; int op; } ar[] = {
    {"__add", OL_AD_ADD}, {"__sub", OL_AD_SUB}, {"__mul", OL_AD_MUL},
    {"__div", OL_AD_DIV}, {"__pow", OL_AD_POW},
  };
  static const struct { const char *ev; int rel; } cmp[] = {
    {"__lt", OL_AD_LT}, {"__le", OL_AD_LE}, {"__eq", OL_AD_EQ},
  };
  static const luaL_Reg one[] = {
    {"__unm", t_unm}, {"__idiv", t_idiv}, {"__mod", t_mod},
    {"__tostring", t_tostring}, {"__concat", t_concat},
    {"__index", t_index}, {"__len", t_len}, {NULL, NULL}
  };
  static const luaL_Reg globals[] = {
    {"grad", ad_grad}, {"hessian", ad_hessian}, {"hvp", ad_hvp},
    {"tape", ad_tape}, {NULL, NULL}
  };
  adstate *st;
  int sti;
  size_t i;
  st = lua_newuserdatauv(L, sizeof *st, 0);
  memset(st, 0, sizeof *st);
  sti = lua_gettop(L);
  lua_pushvalue(L, sti);
  lua_setfield(L, LUA_REGISTRYINDEX, ADSTATE);
  /* (1) the tracer's metatable */
  luaL_newmetatable(L, TRACER);
  for (i = 0; i < sizeof ar / sizeof ar[0]; i++) {
    lua_pushvalue(L, sti);
    lua_pushinteger(L, ar[i].op);
    lua_pushcclosure(L, t_arith2, 2);
    lua_setfield(L, -2, ar[i].ev);
  }
  for (i = 0; i < sizeof cmp / sizeof cmp[0]; i++) {
    lua_pushvalue(L, sti);
    lua_pushinteger(L, cmp[i].rel);
    lua_pushcclosure(L, t_compare, 2);
    lua_setfield(L, -2, cmp[i].ev);
  }
  lua_pushvalue(L, sti);
  luaL_setfuncs(L, one, 1);
  lua_pop(L, 1);
  pushmath(L, sti);
  lua_setfield(L, LUA_REGISTRYINDEX, ADMATH);
  /* (2) the cache's */
  luaL_newmetatable(L, ADCACHE);
  lua_pushcfunction(L, adcache_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  /* (3) math.tanh, log1p, expm1, pow (also for numbers) */
  if (lua_getglobal(L, "math") == LUA_TTABLE) {
    static const luaL_Reg mf[] = {
      {"tanh", m_tanh}, {"log1p", m_log1p}, {"expm1", m_expm1},
      {"lgamma", m_lgamma}, {"pow", m_pow}, {NULL, NULL}
    };
    static const int ops[] = {OL_AD_TANH, OL_AD_LOG1P, OL_AD_EXPM1,
                              OL_AD_LGAMMA, 0};
    for (i = 0; mf[i].name != NULL; i++) {
      lua_pushvalue(L, sti);
      lua_pushinteger(L, ops[i]);
      lua_pushcclosure(L, mf[i].func, 2);
      lua_setfield(L, -2, mf[i].name);
    }
  }
  lua_pop(L, 1);
  /* (3') math.exp, log, ... wrapped (m_wrap): tracer-aware where captured */
  if (lua_getglobal(L, "math") == LUA_TTABLE) {
    int m = lua_gettop(L), tm;
    lua_getfield(L, LUA_REGISTRYINDEX, ADMATH);
    tm = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, tm) != 0) {               /* key, tracing fn */
      const char *k = lua_tostring(L, -2);
      int plain;
      lua_getfield(L, m, k);                     /* Lua's own, or not */
      plain = strcmp(k, "type") != 0 && lua_tocfunction(L, -1) != NULL;
      if (plain && lua_getupvalue(L, -1, 1) != NULL) {
        lua_pop(L, 1);                           /* a closure: not Lua's */
        plain = 0;
      }
      if (plain) {
        lua_pushvalue(L, sti);
        lua_insert(L, -2);
        lua_pushvalue(L, -3);                    /* st, own, tracing */
        lua_pushcclosure(L, m_wrap, 3);
        lua_setfield(L, m, k);
      }
      else lua_pop(L, 1);
      lua_pop(L, 1);                             /* the tracing fn */
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  /* (4) the prompt's functions */
  for (i = 0; globals[i].name != NULL; i++) {
    lua_pushcfunction(L, globals[i].func);
    lua_setglobal(L, globals[i].name);
  }
  lua_settop(L, sti - 1);
}
