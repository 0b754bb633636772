/*
** lua/lproblem.c -- problem objects: problem.<type>{...}, problem.new and
** problem.density.
**
** A problem object ("optlab.problem") owns one ol_problem; runs that use
** it keep the object alive (their user value) and hold a use of it
** (olua_problem_ref), so closing the object only marks it closed while
** runs or calls still use it, and the ol_problem is freed with its last
** use (see lbind.h).  Built-in types get one constructor each
** (ol_problem_types[]), checked against the type's ol_param table.  The
** generic keys (x0, and for objectives noise, set, l1) and problem.new's
** name, kind, hess, xstar and fstar are handed to the core's checked
** setters (ol_problem_set_*), which validate them once: this file reads
** the parsed Lua values and writes no ol_problem field (make lint).
** problem.new wraps Lua functions: the trampolines lua_fdf and lua_hess
** below call them in a callback thread, one per nesting level (a callback
** may evaluate or run its own problem), whose stack holds, at fixed slots,
** the traceback handler, f, grad, fdf, hess and the x, g and H tables
** reused across calls (so a call allocates nothing once the level's
** thread exists).  A Lua error never crosses core frames: the
** trampolines run under lua_pcall and return OL_ECALLBACK with the message
** and traceback in the ol_err.  What a callback hands back is checked
** before the core sees it: g and H are cleared to nil before each call,
** so a callback that fills nothing (g = {...} rebinds its local), too
** little or too much, or returns something that is neither nil nor a
** table of the right shape, fails with a message naming the callback and
** what was expected; entries must be numbers (NaN passes through: the
** core's finite checks stop the run as "non-finite").
*/
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"
#include "penalty.h"
#include "problems/game.h"
#include "problems/kuhn.h"

static void gradcheck_step (lproblem *b, lua_State *T, const double *x,
                            const double *g);

/* Fixed slots of a callback thread's stack; the template thread Z has
** the first five, then the table anchoring the threads. */
enum { S_MSGH = 1, S_F, S_GRAD, S_FDF, S_HESS, S_X, S_G, S_H, S_TOP = S_H };
enum { Z_THREADS = S_HESS + 1 };

void olua_problem_ref (lproblem *b)
{
  b->refs++;
}

void olua_problem_unref (lproblem *b)
{
  if (--b->refs > 0 || !b->closed || b->depth > 0) return;
  ol_problem_free(b->p);
  b->p = NULL;
}

/* Raise the error of a problem whose callbacks nested too deep. */
static int overflowerror (lua_State *L)
{
  return luaL_error(L, "problem: its callbacks are nested %d deep (a "
                    "callback that evaluates or runs its own problem "
                    "without end?)", OLUA_MAXDEPTH);
}

lproblem *olua_checkproblem (lua_State *L, int arg)
{
  lproblem *b;
  if (lua_type(L, arg) == LUA_TFUNCTION)
    luaL_argerror(L, arg, "a problem expected, got a function (a "
                  "constructor? write problem.rosenbrock{} or "
                  "problem.rosenbrock{n = ...})");
  b = luaL_checkudata(L, arg, OLUA_PROBLEM);
  if (b->closed) luaL_error(L, "problem is closed");
  if (b->overflow) overflowerror(L);
  olua_ad_notraced(L, "a problem");
  return b;
}

/* "rosenbrock{n=2}" or the problem's own description. */
const char *olua_problemdesc (const ol_problem *p, char *buf, size_t sz)
{
  size_t k;
  if (p->desc[0] != '\0') snprintf(buf, sz, "%s", p->desc);
  else snprintf(buf, sz, "%s{n=%d}", p->name, p->n);
  /* a shape other than the l1 norm is named (its weight is l1) */
  if (p->pen != NULL && ol_penalty_of(p)->adef != 0 && (k = strlen(buf)) < sz)
    snprintf(buf + k, sz - k, " penalty=%s(a=%g)", ol_penalty_of(p)->name,
             p->pen_a);
  return buf;
}


/* Call the function in slot fn of T with nargs arguments (already pushed
** after it) and one result; OL_OK or OL_ECALLBACK with e filled. */
static int tcall (lua_State *T, int nargs, ol_err *e)
{
  if (lua_pcall(T, nargs, 1, S_MSGH) != LUA_OK) {
    const char *msg = lua_tostring(T, -1);
    ol_err_set(e, OL_ECALLBACK, "%s", msg ? msg : "(error object)");
    lua_settop(T, S_TOP);
    return OL_ECALLBACK;
  }
  return OL_OK;
}

/* The tape's calls for a traced callback (lua/lad.c) under a protected
** call on T: a re-trace calls f, and lad.c raises Ctrl-C's "interrupted!"
** again after it.  Raised on T, which has no protected call of its own
** there, Lua throws the error on to the main thread across the core's C
** frames: the run being stepped was left "being stepped" for good (it
** could not be closed and its memory was lost), the callback depth and
** thread not given back (found by the fuzzer: a Ctrl-C during a MALA run
** on a density whose tape is re-traced as x moves). */
enum { AD_EVAL, AD_HESS, AD_FDGRAD };

typedef struct adcall {
  int kind;
  olua_ad *ad;
  const double *x;
  double *f, *out;      /* f; g (eval, fdgrad) or H (hess) */
  ol_err *e;
  int st;
} adcall;

static int adcall_run (lua_State *T)
{
  adcall *a = lua_touserdata(T, 1);
  if (a->kind == AD_HESS)
    a->st = olua_ad_hess(T, a->ad, 2, a->x, a->out, a->e);
  else if (a->kind == AD_FDGRAD)
    a->st = olua_ad_fdgrad(T, a->ad, 2, a->x, a->f, a->out, a->e);
  else a->st = olua_ad_eval(T, a->ad, 2, a->x, a->f, a->out, a->e);
  return 0;
}

/* kind of call of the tape ad of the function at fidx of T; T's top is
** as it was. */
static int adprotect (lua_State *T, int kind, olua_ad *ad, int fidx,
                      const double *x, double *f, double *out, ol_err *e)
{
  adcall a;
  int top = lua_gettop(T);
  a.kind = kind;
  a.ad = ad;
  a.x = x;
  a.f = f;
  a.out = out;
  a.e = e;
  a.st = OL_OK;
  fidx = lua_absindex(T, fidx);
  lua_pushcfunction(T, adcall_run);
  lua_pushlightuserdata(T, &a);
  lua_pushvalue(T, fidx);
  if (lua_pcall(T, 2, 0, S_MSGH) != LUA_OK) {
    const char *msg = lua_tostring(T, -1);
    ol_err_set(e, OL_ECALLBACK, "%s", msg ? msg : "(error object)");
    lua_settop(T, top);
    return OL_ECALLBACK;
  }
  return a.st;
}

/* OL_ECALLBACK with the message in e (may be NULL); T back at S_TOP. */
static int tfail (lua_State *T, ol_err *e, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
static int tfail (lua_State *T, ol_err *e, const char *fmt, ...)
{
  va_list ap;
  lua_settop(T, S_TOP);
  if (e == NULL) return OL_ECALLBACK;
  va_start(ap, fmt);
  e->code = OL_ECALLBACK;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return OL_ECALLBACK;
}

/* "nil" or "a string": a type name as the messages use it. */
static const char *atype (const char *ty, char *buf, size_t sz)
{
  snprintf(buf, sz, "%s%s", strcmp(ty, "nil") == 0 ? "" : "a ", ty);
  return buf;
}

/* The number on top of T (the call's result) as *f, not popped. */
static int tvalue (lua_State *T, const char *fname, double *f, ol_err *e)
{
  char b[24];
  if (lua_type(T, -1) != LUA_TNUMBER)
    return tfail(T, e, "%s returned %s (expected a number)", fname,
                 atype(luaL_typename(T, -1), b, sizeof b));
  *f = lua_tonumber(T, -1);
  return OL_OK;
}

#define GCHUNK 32   /* entries read per batch (T has room for them) */

/* Entries 1..n of the table at index t of T into v, T's top being top;
** with beyond, entry n + 1 is fetched too and must be nil.  Returns 0 when
** all are numbers (strings are not converted), else the index of the
** first that is not (n + 1: entry n + 1 is set) with its type in *ty.
** Leaves T at top on an error, at done once all are read (the caller's
** next top: one call fewer on the hot path).  Entries are fetched GCHUNK
** at a time, so a small problem sets the top once; the types come from
** lua_rawgeti, so a number costs two API calls. */
static int tnums (lua_State *T, int t, int n, int beyond, double *v,
                  int *ty, int top, int done)
{
  int types[GCHUNK], i, j, total = n + (beyond != 0);
  for (i = 0; i < total; i += GCHUNK) {
    int m = total - i < GCHUNK ? total - i : GCHUNK;
    for (j = 0; j < m; j++) types[j] = lua_rawgeti(T, t, i + j + 1);
    for (j = 0; j < m; j++) {
      int k = i + j;
      if (k == n ? types[j] != LUA_TNIL : types[j] != LUA_TNUMBER) {
        *ty = types[j];
        lua_settop(T, top);
        return k + 1;
      }
      if (k < n) v[k] = lua_tonumber(T, top + 1 + j);
    }
    lua_settop(T, i + m >= total ? done : top);
  }
  return 0;
}

/* 1 when entries 1..n of the table at t are all nil. */
static int tempty (lua_State *T, int t, int n)
{
  int i;
  for (i = 1; i <= n; i++) {
    int ty = lua_rawgeti(T, t, i);
    lua_pop(T, 1);
    if (ty != LUA_TNIL) return 0;
  }
  return 1;
}

/* Clear entries n + 1 .. of the table at t (set by a callback that
** filled too much), so the next call starts clean; returns the length it
** had (at least n + 1). */
static int tclearbeyond (lua_State *T, int t, int n)
{
  int len = (int)lua_rawlen(T, t), i;
  if (len <= n) len = n + 1;
  for (i = n + 1; i <= len; i++) {
    lua_pushnil(T);
    lua_rawseti(T, t, i);
  }
  return len;
}

/* The gradient of callback fname into g (n numbers).  res is the stack
** index of grad's result, or 0 for fdf (whose result is the value, so g
** must be filled in place).  g was cleared to nil before the call, so an
** entry still nil was not set: a callback that rebinds g (g = {...})
** instead of filling it is caught here, not run on stale numbers.
** Leaves T at S_TOP. */
static int tgrad (lua_State *T, const char *fname, int res, int n, double *g,
                  ol_err *e)
{
  int t = S_G, bad, len, ty, rt = res ? lua_type(T, res) : LUA_TNIL;
  char b[24];
  if (rt == LUA_TTABLE && !lua_rawequal(T, res, S_G)) {
    len = (int)lua_rawlen(T, res);
    if (len != n)
      return tfail(T, e, "%s returned a table of %d number%s (expected %d)",
                   fname, len, len == 1 ? "" : "s", n);
    t = res;
  }
  else if (rt != LUA_TNIL && rt != LUA_TTABLE)
    return tfail(T, e, "%s returned %s (expected a table of %d numbers, or "
                 "nil with g filled in place)", fname,
                 atype(luaL_typename(T, res), b, sizeof b), n);
  bad = tnums(T, t, n, t == S_G, g, &ty, S_TOP + 1, S_TOP);
  if (bad == 0) return OL_OK;
  if (bad > n)
    return tfail(T, e, "%s: filled g[1..%d] (expected g[1..%d], n = %d)",
                 fname, tclearbeyond(T, S_G, n), n, n);
  if (t == S_G && tempty(T, S_G, n))
    return res ? tfail(T, e, "%s: filled no entry of g and returned nil; "
                       "fill g[1..%d] in place (g[i] = ...) or return a "
                       "table of %d numbers", fname, n, n)
               : tfail(T, e, "%s: filled no entry of g; fill g[1..%d] in "
                       "place (g[i] = ...) when g is not nil", fname, n);
  return tfail(T, e, "%s: g[%d] is %s (expected a number)", fname, bad,
               atype(lua_typename(T, ty), b, sizeof b));
}

/* Set entries 1..n of the table at t of T (at its top S_TOP) to nil,
** GCHUNK at a time: one lua_settop pushes the chunk's nils, each
** lua_rawseti pops one (one API call per entry, not two). */
static void tclear (lua_State *T, int t, int n)
{
  int i = 1;
  while (i <= n) {
    int m = n - i + 1 < GCHUNK ? n - i + 1 : GCHUNK;
    lua_settop(T, S_TOP + m);
    for (; m > 0; m--) lua_rawseti(T, t, i++);
  }
}

/* The oracle of a Lua problem b, called in thread T.  One lua_pcall per
** call (two when f and grad are separate functions and both are wanted).
** x is copied into the thread's one x table, and the g table is cleared
** to nil before a gradient call (tgrad): a call costs the pcall plus
** about five API calls per coordinate and allocates nothing, so a
** callback must not keep x or g past its return (the next call
** overwrites them; copy what it wants to keep). */
static int fdf_at (lproblem *b, lua_State *T, const double *x, double *f,
                   double *g, ol_err *e)
{
  int i, n = b->n, st;
  if (b->ad != NULL && b->ad->ntape > 0)    /* traced (issue 15) */
    return adprotect(T, AD_EVAL, b->ad, S_F, x, f, g, e);
  for (i = 0; i < n; i++) {
    lua_pushnumber(T, x[i]);
    lua_rawseti(T, S_X, i + 1);
  }
  if (g != NULL && (b->hasfdf || b->hasgrad)) tclear(T, S_G, n);
  if (g != NULL && b->hasfdf) {
    lua_pushvalue(T, S_FDF);
    lua_pushvalue(T, S_X);
    lua_pushvalue(T, S_G);
    if ((st = tcall(T, 2, e)) != OL_OK) return st;
    if (f != NULL && (st = tvalue(T, "fdf", f, e)) != OL_OK) return st;
    return tgrad(T, "fdf", 0, n, g, e);
  }
  if (g != NULL && b->hasgrad) {
    lua_pushvalue(T, S_GRAD);
    lua_pushvalue(T, S_X);
    lua_pushvalue(T, S_G);
    if ((st = tcall(T, 2, e)) != OL_OK) return st;
    if ((st = tgrad(T, "grad", S_TOP + 1, n, g, e)) != OL_OK) return st;
    if (b->gck != NULL && b->gck->pending) gradcheck_step(b, T, x, g);
  }
  else if (g != NULL)
    return ol_err_set(e, OL_ECALLBACK, "no gradient function");
  if (f == NULL) return OL_OK;
  if (b->hasf) {
    lua_pushvalue(T, S_F);
    lua_pushvalue(T, S_X);
    if ((st = tcall(T, 1, e)) != OL_OK) return st;
    st = tvalue(T, b->fname != NULL ? b->fname : "f", f, e);
  }
  else {
    lua_pushvalue(T, S_FDF);
    lua_pushvalue(T, S_X);
    lua_pushnil(T);
    if ((st = tcall(T, 2, e)) != OL_OK) return st;
    st = tvalue(T, "fdf", f, e);
  }
  lua_settop(T, S_TOP);
  return st;
}

/* protected on Z: make one more callback thread (T[nt]) from the
** functions passed as arguments 2..6, anchored in the table at 7. */
static int mkthread (lua_State *L)
{
  lproblem *b = lua_touserdata(L, 1);
  lua_State *T = lua_newthread(L);
  int i, n = b->n;
  lua_rawseti(L, 7, (lua_Integer)b->nt + 1);
  if (!lua_checkstack(T, GCHUNK + 16))
    return luaL_error(L, "out of memory");
  for (i = 2; i <= 6; i++) {
    lua_pushvalue(L, i);
    lua_xmove(L, T, 1);
  }
  /* the tables are made here, on the running thread, then moved: an out
  ** of memory in T, which is not running, would jump past this call's
  ** protected caller to the main thread's, leaving the run that asked
  ** for T busy and never freed (the fuzzer's leak) */
  if (!lua_checkstack(L, 4)) return luaL_error(L, "out of memory");
  lua_createtable(L, n, 0);                            /* S_X */
  for (i = 1; i <= n; i++) {
    if ((i & 0xffff) == 0 && ol_interrupted())
      return luaL_error(L, "interrupted!");
    lua_pushnumber(L, 0);
    lua_rawseti(L, -2, i);
  }
  lua_createtable(L, n, 0);                            /* S_G */
  lua_createtable(L, 0, 0);      /* S_H: its rows made by the first call
                                    (hclear), not n^2 slots ahead */
  lua_xmove(L, T, 3);
  b->T[b->nt++] = T;
  return 0;
}

/* The callback thread for a call made while b->depth others are in
** progress, made on first use; NULL with e set when the calls nest too
** deep or memory runs out. */
static lua_State *tenter (lproblem *b, ol_err *e)
{
  int i;
  if (b->depth >= OLUA_MAXDEPTH) {
    b->overflow = 1;
    ol_err_set(e, OL_ECALLBACK, "the problem's callbacks are nested %d "
               "deep (a callback that evaluates or runs its own problem "
               "without end?)", b->depth);
    return NULL;
  }
  while (b->nt <= b->depth) {
    lua_State *Z = b->Z;
    lua_pushcfunction(Z, mkthread);
    lua_pushlightuserdata(Z, b);
    for (i = S_MSGH; i <= Z_THREADS; i++) lua_pushvalue(Z, i);
    if (lua_pcall(Z, 7, 0, 0) != LUA_OK) {
      ol_err_set(e, OL_ECALLBACK, "callback thread: %s",
                 lua_tostring(Z, -1) ? lua_tostring(Z, -1) : "error");
      lua_settop(Z, Z_THREADS);
      return NULL;
    }
  }
  return b->T[b->depth++];
}

/* The oracle of a Lua problem: ud is its box; one callback thread per
** nesting level (tenter). */
static int lua_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  lproblem *b = ud;
  lua_State *T = tenter(b, e), *prev = b->S->cb;
  int st;
  if (T == NULL) return OL_ECALLBACK;
  b->S->cb = T;              /* for the SIGINT hook (olua_cbthread) */
  st = fdf_at(b, T, x, f, g, e);
  b->S->cb = prev;
  if (--b->depth == 0) b->overflow = 0;
  return st;
}

/* Clear the H table of T (slot S_H) to n rows of n nils, replacing a row
** the callback rebound to something that is not a table. */
static void hclear (lua_State *T, int n)
{
  int i, j;
  for (i = 1; i <= n; i++) {
    if (lua_rawgeti(T, S_H, i) != LUA_TTABLE) {
      lua_pop(T, 1);
      lua_createtable(T, n, 0);
      lua_pushvalue(T, -1);
      lua_rawseti(T, S_H, i);
    }
    for (j = 1; j <= n; j++) {
      lua_pushnil(T);
      lua_rawseti(T, -2, j);
    }
    lua_pop(T, 1);
  }
}

/* The Hessian oracle of a Lua problem b, in thread T: hess(x, H) fills
** H[i][j] (i, j = 1..n) in place or returns a table of n rows of n
** numbers.  Checked like a gradient (shape, numbers, filled), and for
** symmetry: |H_ij - H_ji| <= 1e-8 max_kl |H_kl|, then H := (H + H')/2
** exactly (methods read one triangle).  Non-finite entries are left to
** the caller (ol_ctx_hess). */
static int hess_at (lproblem *b, lua_State *T, const double *x, double *H,
                    ol_err *e)
{
  int i, j, n = b->n, st, t = S_H, res = S_TOP + 1, rt, bad, len, ty;
  double hmax = 0;
  char tb[24];
  for (i = 0; i < n; i++) {
    lua_pushnumber(T, x[i]);
    lua_rawseti(T, S_X, i + 1);
  }
  hclear(T, n);
  lua_pushvalue(T, S_HESS);
  lua_pushvalue(T, S_X);
  lua_pushvalue(T, S_H);
  if ((st = tcall(T, 2, e)) != OL_OK) return st;
  /* (1) where the rows are: H itself, or a returned table */
  rt = lua_type(T, res);
  if (rt == LUA_TTABLE && !lua_rawequal(T, res, S_H)) {
    len = (int)lua_rawlen(T, res);
    if (len != n)
      return tfail(T, e, "hess returned a table of %d row%s (expected %d "
                   "rows of %d numbers)", len, len == 1 ? "" : "s", n, n);
    t = res;
  }
  else if (rt != LUA_TNIL && rt != LUA_TTABLE)
    return tfail(T, e, "hess returned %s (expected a table of %d rows of %d "
                 "numbers, or nil with H filled in place)",
                 atype(luaL_typename(T, res), tb, sizeof tb), n, n);
  /* (2) each row: a table of n numbers */
  for (i = 1; i <= n; i++) {
    int row = res + 1;
    if (lua_rawgeti(T, t, i) != LUA_TTABLE)
      return tfail(T, e, "hess: H[%d] is %s (expected a row: a table of %d "
                   "numbers)", i, atype(luaL_typename(T, row), tb,
                                        sizeof tb), n);
    if (t != S_H && (len = (int)lua_rawlen(T, row)) != n)
      return tfail(T, e, "hess: H[%d] has %d entr%s (expected %d)", i, len,
                   len == 1 ? "y" : "ies", n);
    bad = tnums(T, row, n, t == S_H, H + (size_t)(i - 1) * n, &ty, row,
                res);
    if (bad > n)
      return tfail(T, e, "hess: filled H[%d][1..%d] (expected H[%d][1..%d], "
                   "n = %d)", i, tclearbeyond(T, row, n), i, n, n);
    if (bad != 0) {
      if (t == S_H) {
        int k, empty = 1;
        for (k = 1; k <= n; k++) {
          if (lua_rawgeti(T, S_H, k) != LUA_TTABLE)
            return tfail(T, e, "hess: H[%d] is %s (expected a row: a table "
                         "of %d numbers)", k, atype(luaL_typename(T, -1), tb,
                                                    sizeof tb), n);
          empty = empty && tempty(T, lua_gettop(T), n);
          lua_pop(T, 1);
        }
        if (empty)
          return tfail(T, e, "hess: filled no entry of H and returned nil; "
                       "fill H[i][j] in place (H[i][j] = ..., i, j = 1..%d) "
                       "or return a table of %d rows of %d numbers", n, n,
                       n);
      }
      return tfail(T, e, "hess: H[%d][%d] is %s (expected a number)", i, bad,
                   atype(lua_typename(T, ty), tb, sizeof tb));
    }
  }
  if (t == S_H && lua_rawgeti(T, S_H, n + 1) != LUA_TNIL)
    return tfail(T, e, "hess: filled rows H[1..%d] (expected H[1..%d], "
                 "n = %d)", tclearbeyond(T, S_H, n), n, n);
  lua_settop(T, S_TOP);
  /* (3) symmetric to working accuracy, then exactly */
  for (i = 0; i < n * n; i++)
    if (fabs(H[i]) > hmax) hmax = fabs(H[i]);
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      double *u = H + (size_t)i * n + j, *l = H + (size_t)j * n + i;
      if (fabs(*u - *l) > 1e-8 * hmax)
        return ol_err_set(e, OL_ECALLBACK, "hess: H is not symmetric: "
                          "H[%d][%d] = %.17g but H[%d][%d] = %.17g", i + 1,
                          j + 1, *u, j + 1, i + 1, *l);
      *u = *l = 0.5 * (*u + *l);
    }
  return OL_OK;
}

static int lua_hess (void *ud, const double *x, double *H, ol_err *e)
{
  lproblem *b = ud;
  lua_State *T = tenter(b, e), *prev = b->S->cb;
  int st;
  if (T == NULL) return OL_ECALLBACK;
  b->S->cb = T;
  st = hess_at(b, T, x, H, e);
  b->S->cb = prev;
  if (--b->depth == 0) b->overflow = 0;
  return st;
}

/* The Hessian of a traced f: the tape's (lua/lad.c), in a callback thread
** (a re-trace calls f there). */
static int lua_adhess (void *ud, const double *x, double *H, ol_err *e)
{
  lproblem *b = ud;
  lua_State *T = tenter(b, e), *prev = b->S->cb;
  int st;
  if (T == NULL) return OL_ECALLBACK;
  b->S->cb = T;
  st = adprotect(T, AD_HESS, b->ad, S_F, x, NULL, H, e);
  b->S->cb = prev;
  if (--b->depth == 0) b->overflow = 0;
  return st;
}

/* New empty box (metatable set, user value 1 for the callback threads). */
static lproblem *newbox (lua_State *L)
{
  lproblem *b = lua_newuserdatauv(L, sizeof *b, 1);
  memset(b, 0, sizeof *b);
  b->S = olua_getstate(L);
  luaL_setmetatable(L, OLUA_PROBLEM);
  return b;
}

/* Raise "<who>: <message of e>". */
static int seterror (lua_State *L, const char *who, const ol_err *e)
{
  return luaL_error(L, "%s: %s", who, e->msg);
}

/* The bounds lo, hi at idx (a number: every coordinate; nil: unbounded on
** that side; a table of n numbers) into two buffers the GC owns, pushed
** (lo then hi) and stored in s.  key names the table in messages. */
static void readbox (lua_State *L, int lo, int hi, const char *who,
                     const char *key, int n, ol_set *s)
{
  int src[2], k, i;
  double *dst[2];
  src[0] = lua_absindex(L, lo);
  src[1] = lua_absindex(L, hi);
  for (k = 0; k < 2; k++) {
    int t = lua_type(L, src[k]);
    dst[k] = lua_newuserdatauv(L, (size_t)n * sizeof(double), 0);
    if (t == LUA_TNUMBER || t == LUA_TNIL || t == LUA_TNONE) {
      double v = t == LUA_TNUMBER ? lua_tonumber(L, src[k])
                                  : (k ? HUGE_VAL : -HUGE_VAL);
      for (i = 0; i < n; i++) dst[k][i] = v;
    }
    else if (t == LUA_TTABLE) {
      int len;
      char name[32];
      double *a;
      snprintf(name, sizeof name, "%s.%s", key, k ? "hi" : "lo");
      a = olua_checkarray(L, src[k], who, name, &len);
      if (len != n)
        luaL_error(L, "%s: %s has %d entries, expected n = %d", who, name,
                   len, n);
      memcpy(dst[k], a, (size_t)n * sizeof(double));
      lua_pop(L, 1);
    }
    else
      luaL_error(L, "%s: %s.%s must be a number or a table of n numbers, "
                 "got a %s", who, key, k ? "hi" : "lo", lua_typename(L, t));
  }
  s->kind = OL_SET_BOX;
  s->lo = dst[0];
  s->hi = dst[1];
}

/* Set p's set from the Lua description at idx (ol_problem_set_set checks
** sizes, bounds and radii):
**   {box = {lo, hi}}      lo, hi numbers or tables of n numbers (also
**                         {box = {lo = ..., hi = ...}}; nil: unbounded)
**   {simplex = {3, 3}}    a product of simplices, sizes summing to n
**                         ({simplex = n} or {simplex = true}: one)
**   {l1ball = r}, {l2ball = r}
** and the older spellings "simplex" (one simplex of all n coordinates)
** and {lo = ..., hi = ...} (a box). */
static void readset (lua_State *L, int idx, const char *who, ol_problem *p)
{
  static const char *const keys[] = {"box", "simplex", "l1ball", "l2ball",
                                     "lo", "hi", NULL};
  ol_set s;
  ol_err e;
  int i, n = p->n, top = lua_gettop(L);
  idx = lua_absindex(L, idx);
  memset(&s, 0, sizeof s);
  if (lua_type(L, idx) == LUA_TSTRING) {
    if (strcmp(lua_tostring(L, idx), "simplex") != 0)
      luaL_error(L, "%s: set = '%s' (valid: \"simplex\", {box = {lo, hi}}, "
                 "{simplex = {k1, k2, ...}}, {l1ball = r}, {l2ball = r})",
                 who, olua_pushshort(L, lua_tostring(L, idx)));
    s.kind = OL_SET_SIMPLEX;
    s.nblocks = 1;
    s.blocks[0] = n;
  }
  else if (!lua_istable(L, idx))
    luaL_error(L, "%s: set must be {box = {lo, hi}}, {simplex = {k1, k2, "
               "...}}, {l1ball = r} or {l2ball = r}, got a %s", who,
               luaL_typename(L, idx));
  else {
    /* (1) exactly one kind among the keys */
    const char *kind = NULL;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      const char *k;
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "%s: set has a %s key (valid keys: box, simplex, "
                   "l1ball, l2ball)", who, luaL_typename(L, -1));
      k = lua_tostring(L, -1);
      for (i = 0; keys[i] != NULL; i++)
        if (strcmp(keys[i], k) == 0) break;
      if (keys[i] == NULL) olua_unknownkey(L, who, "set key", k, keys);
      if (i >= 4) k = "box";                       /* {lo = , hi = } */
      if (kind != NULL && strcmp(kind, k) != 0)
        luaL_error(L, "%s: set has both %s and %s (one kind: box, simplex, "
                   "l1ball or l2ball)", who, kind, k);
      kind = keys[i >= 4 ? 0 : i];
    }
    if (kind == NULL)
      luaL_error(L, "%s: set is empty (valid keys: box, simplex, l1ball, "
                 "l2ball)", who);
    /* (2) the kind's value */
    if (strcmp(kind, "box") == 0) {
      if (lua_getfield(L, idx, "box") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_getfield(L, idx, "lo");
        lua_getfield(L, idx, "hi");
        readbox(L, -2, -1, who, "set", n, &s);
      }
      else if (!lua_istable(L, -1))
        luaL_error(L, "%s: set.box must be {lo, hi}, got a %s", who,
                   luaL_typename(L, -1));
      else {
        int t = lua_absindex(L, -1);
        if (lua_getfield(L, t, "lo") == LUA_TNIL) {
          lua_pop(L, 1);
          lua_rawgeti(L, t, 1);
        }
        if (lua_getfield(L, t, "hi") == LUA_TNIL) {
          lua_pop(L, 1);
          lua_rawgeti(L, t, 2);
        }
        readbox(L, -2, -1, who, "set.box", n, &s);
      }
    }
    else if (strcmp(kind, "simplex") == 0) {
      int t = lua_getfield(L, idx, "simplex");
      s.kind = OL_SET_SIMPLEX;
      if (t == LUA_TBOOLEAN && lua_toboolean(L, -1)) {
        s.nblocks = 1;
        s.blocks[0] = n;
      }
      else if (t == LUA_TNUMBER) {
        if (!lua_isinteger(L, -1))
          luaL_error(L, "%s: set.simplex = %s is not a whole number of "
                     "coordinates", who, lua_tostring(L, -1));
        s.nblocks = 1;
        s.blocks[0] = (int)lua_tointeger(L, -1);
        if (lua_tointeger(L, -1) != s.blocks[0]) s.blocks[0] = -1;
      }
      else if (t == LUA_TTABLE) {
        int len;
        double *a = olua_checkarray(L, -1, who, "set.simplex", &len);
        if (len < 1 || len > OL_MAXBLOCKS)
          luaL_error(L, "%s: set.simplex has %d blocks, out of range [1, "
                     "%d]", who, len, OL_MAXBLOCKS);
        for (i = 0; i < len; i++) {
          if (!(a[i] >= 1 && a[i] <= n && a[i] == floor(a[i]))) {
            char num[32];
            snprintf(num, sizeof num, "%.17g", a[i]);
            luaL_error(L, "%s: set.simplex[%d] = %s is not a block size "
                       "in [1, n = %d]", who, i + 1, num, n);
          }
          s.blocks[i] = (int)a[i];
        }
        s.nblocks = len;
        lua_pop(L, 1);
      }
      else
        luaL_error(L, "%s: set.simplex must be a table of block sizes "
                   "summing to n = %d (e.g. {3, 3}), got a %s", who, n,
                   luaL_typename(L, -1));
      lua_pop(L, 1);
    }
    else {
      int l1 = strcmp(kind, "l1ball") == 0;
      if (lua_getfield(L, idx, kind) != LUA_TNUMBER)
        luaL_error(L, "%s: set.%s must be a radius r > 0, got a %s", who,
                   kind, luaL_typename(L, -1));
      s.kind = l1 ? OL_SET_L1BALL : OL_SET_L2BALL;
      s.radius = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
  }
  /* (3) the core checks and copies */
  if (ol_problem_set_set(p, &s, &e) != OL_OK) seterror(L, who, &e);
  lua_settop(L, top);
}

/* Number field key of the table at idx, or def when absent; raises
** unless it is a number (its range is the core's: ol_problem_set_noise). */
static double noisenum (lua_State *L, int idx, const char *who,
                        const char *key, double def)
{
  double v = def;
  int ty = lua_getfield(L, idx, key);
  if (ty != LUA_TNIL) {
    if (!lua_isnumber(L, -1))
      luaL_error(L, "%s: noise.%s must be a number, got a %s", who, key,
                 luaL_typename(L, -1));
    v = lua_tonumber(L, -1);
  }
  lua_pop(L, 1);
  return v;
}

/* Index of name in the NULL-ended list valid, else raise
** "<who>: noise.<key> = 'name' (valid: a, b, c)". */
static int noisechoice (lua_State *L, const char *who, const char *key,
                        const char *name, const char *const *valid)
{
  int i;
  for (i = 0; valid[i] != NULL; i++)
    if (strcmp(valid[i], name) == 0) return i;
  lua_pushfstring(L, "%s: noise.%s = '%s'", who, key,
                  olua_pushshort(L, name));
  lua_remove(L, -2);
  return olua_choicerror(L, valid);
}

/* noise = {kind = "gauss"|"aniso"|"student"|"asym"|"affine"|"batch"|
** "none", sigma =, nu =, batch =, order = "replace"|"shuffle"|"once"|
** "cyclic"|"grab", sigma0 =, sigma1 =}.  The affine kind reads sigma0 (into
** ol_noise.sigma) and sigma1, and refuses sigma, which it would ignore.
** An omitted kind keeps the problem's own (gauss when it has none); an
** omitted field keeps the problem's value when the kind is unchanged, else
** takes the default: sigma 1, nu 3, batch 1, order replace, sigma0 1,
** sigma1 1.  The core checks the model (ol_problem_set_noise: ranges,
** aniso factors the Hessian at x0, batch needs a finite sum). */
static void readnoise (lua_State *L, int idx, const char *who, ol_problem *p)
{
  static const char *const keys[] = {"kind", "sigma", "nu", "batch",
                                     "order", "sigma0", "sigma1", NULL};
  static const char *const kinds[] = {"none", "gauss", "aniso", "student",
                                      "asym", "affine", "batch", NULL};
  static const char *const orders[] = {"replace", "shuffle", "once",
                                       "cyclic", "grab", NULL};
  ol_noise nz = p->noise;
  int kind = p->noise.kind != OL_NOISE_NONE ? p->noise.kind : OL_NOISE_GAUSS;
  int i, same;
  ol_err e;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: noise must be a table {kind=, sigma=, nu=, batch=, "
               "order=, sigma0=, sigma1=}, got a %s", who,
               luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                   : "?";
    for (i = 0; keys[i] != NULL && strcmp(keys[i], k) != 0; i++) {}
    if (keys[i] == NULL) olua_unknownkey(L, who, "noise key", k, keys);
    lua_pop(L, 1);
  }
  if (lua_getfield(L, idx, "kind") != LUA_TNIL) {
    const char *ks = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                    : luaL_typename(L, -1);
    kind = noisechoice(L, who, "kind", ks, kinds);  /* OL_NOISE_* order */
  }
  lua_pop(L, 1);
  same = kind == p->noise.kind;
  nz.kind = kind;
  if (kind == OL_NOISE_AFFINE) {
    if (lua_getfield(L, idx, "sigma") != LUA_TNIL)
      luaL_error(L, "%s: noise kind \"affine\" reads sigma0 and sigma1, "
                 "not sigma", who);
    lua_pop(L, 1);
    nz.sigma = noisenum(L, idx, who, "sigma0", same ? p->noise.sigma : 1);
    nz.sigma1 = noisenum(L, idx, who, "sigma1", same ? p->noise.sigma1 : 1);
  }
  else
    nz.sigma = noisenum(L, idx, who, "sigma", same ? p->noise.sigma : 1);
  nz.nu = noisenum(L, idx, who, "nu", same && p->noise.nu > 0
                   ? p->noise.nu : 3);
  {
    double b = noisenum(L, idx, who, "batch", same && p->noise.batch >= 1
                        ? p->noise.batch : 1);
    if (b != floor(b) || b > 2147483647.0 || b < -2147483647.0) {
      char bs[32];
      snprintf(bs, sizeof bs, "%g", b);
      luaL_error(L, "%s: noise.batch = %s must be an integer", who, bs);
    }
    nz.batch = (int)b;
  }
  nz.order = same ? p->noise.order : OL_ORDER_REPLACE;
  if (lua_getfield(L, idx, "order") != LUA_TNIL) {
    const char *os = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                    : luaL_typename(L, -1);
    nz.order = noisechoice(L, who, "order", os, orders);  /* OL_ORDER_* */
  }
  lua_pop(L, 1);
  if (ol_problem_set_noise(p, &nz, &e) != OL_OK) seterror(L, who, &e);
}

/* l1 = lambda: the composite weight of F = f + lambda ||x||_1 (checked
** by ol_problem_set_l1). */
static void readl1 (lua_State *L, int idx, const char *who, ol_problem *p)
{
  ol_err e;
  if (!lua_isnumber(L, idx))
    luaL_error(L, "%s: l1 must be a number, got a %s", who,
               luaL_typename(L, idx));
  if (ol_problem_set_l1(p, lua_tonumber(L, idx), &e) != OL_OK)
    seterror(L, who, &e);
}

/* penalty = "scad" | {kind = "scad", a = 3.7}: the composite term's shape
** (core/penalty.h; its weight is l1), checked by ol_problem_set_penalty. */
static void readpenalty (lua_State *L, int idx, const char *who,
                         ol_problem *p)
{
  static const char *const keys[] = {"kind", "a", NULL};
  const char *name;
  double a = NAN, *pa = NULL;
  ol_err e;
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TSTRING) name = lua_tostring(L, idx);
  else if (lua_istable(L, idx)) {
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING
          || (strcmp(lua_tostring(L, -1), "kind") != 0
              && strcmp(lua_tostring(L, -1), "a") != 0)) {
        const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                       : "?";
        olua_unknownkey(L, who, "penalty key", k, keys);
      }
    }
    if (lua_getfield(L, idx, "kind") != LUA_TSTRING)
      luaL_error(L, "%s: penalty needs kind = \"l1\" or \"scad\"", who);
    name = lua_tostring(L, -1);
    if (lua_getfield(L, idx, "a") != LUA_TNIL) {
      if (!lua_isnumber(L, -1))
        luaL_error(L, "%s: penalty a must be a number, got a %s", who,
                   luaL_typename(L, -1));
      a = lua_tonumber(L, -1);
      pa = &a;
    }
    lua_pop(L, 1);       /* a; kind stays below until the setter ran */
  }
  else {
    luaL_error(L, "%s: penalty must be \"l1\", \"scad\" or {kind = "
               "\"scad\", a = 3.7}, got a %s", who, luaL_typename(L, idx));
    return;
  }
  if (ol_problem_set_penalty(p, name, pa, &e) != OL_OK) seterror(L, who, &e);
  if (lua_istable(L, idx)) lua_pop(L, 1);
}

/* Copy the table at idx into dst (n numbers). */
static void readvec (lua_State *L, int idx, const char *who, const char *key,
                     double *dst, int n)
{
  int len;
  double *a = olua_checkarray(L, idx, who, key, &len);
  if (len != n)
    luaL_error(L, "%s: %s has %d entries, expected n = %d", who, key, len, n);
  memcpy(dst, a, (size_t)n * sizeof(double));
  lua_pop(L, 1);
}

/* The table at idx (n numbers) as a buffer the GC owns, left on the
** stack. */
static double *readbuf (lua_State *L, int idx, const char *who,
                        const char *key, int n)
{
  double *v;
  idx = lua_absindex(L, idx);
  v = lua_newuserdatauv(L, (size_t)n * sizeof *v, 0);
  readvec(L, idx, who, key, v, n);
  return v;
}

/* Set the generic keys x0, noise, set, l1 of the argument table at 1
** through the core's setters (x0 first: aniso noise factors the Hessian
** at x0); they override what the problem's constructor set. */
static void generic (lua_State *L, const char *who, ol_problem *p)
{
  ol_err e;
  if (lua_getfield(L, 1, "x0") != LUA_TNIL) {
    double *x0 = readbuf(L, -1, who, "x0", p->n);
    if (ol_problem_set_x0(p, x0, p->n, &e) != OL_OK) seterror(L, who, &e);
    lua_pop(L, 1);
  }
  if (lua_getfield(L, 1, "noise") != LUA_TNIL) {
    /* a game tree's dynamics walk the tree, never the noisy oracle */
    if (ol_tree_of(p) != NULL)
      luaL_error(L, "%s: noise does not apply to a game tree (cfr, cfrplus "
                 "and ixomd walk the tree, not the operator); use it on a "
                 "normal-form game", who);
    readnoise(L, -1, who, p);
  }
  if (lua_getfield(L, 1, "set") != LUA_TNIL) readset(L, -1, who, p);
  if (lua_getfield(L, 1, "l1") != LUA_TNIL) readl1(L, -1, who, p);
  if (lua_getfield(L, 1, "penalty") != LUA_TNIL) readpenalty(L, -1, who, p);
  lua_pop(L, 5);
}

static int isgeneric (const char *k)
{
  return strcmp(k, "x0") == 0 || strcmp(k, "noise") == 0
      || strcmp(k, "set") == 0 || strcmp(k, "l1") == 0
      || strcmp(k, "penalty") == 0;
}

/* The generic keys a problem of kind takes, NULL-ended: an objective
** every one; a game (its set fixed by the payoffs) a start and operator
** noise (stochastic game dynamics: game.clipseg, game.clipsgda); a
** density (sampled, its potential fixed by p) only a start. */
static const char *const *generickeys (int kind)
{
  static const char *const all[] = {"x0", "set", "l1", "noise", "penalty",
                                    NULL};
  static const char *const game[] = {"x0", "noise", NULL};
  static const char *const start[] = {"x0", NULL};
  return kind == OL_OBJECTIVE ? all : kind == OL_GAME ? game : start;
}

static int appliesto (int kind, const char *k)
{
  const char *const *g = generickeys(kind);
  for (; *g != NULL; g++)
    if (strcmp(*g, k) == 0) return 1;
  return 0;
}

/* Raise "<who>: unknown parameter '<key>' (valid: <t's names>, x0)" for
** a generic key that does not apply to t's kind. */
static int notapplicable (lua_State *L, const char *who, const char *key,
                          const ol_problem_type *t)
{
  const char *names[72];
  const char *const *g = generickeys(t->kind);
  int i, k = 0;
  for (i = 0; i < t->nparams && k < 64; i++) names[k++] = t->params[i].name;
  for (; *g != NULL; g++) names[k++] = *g;
  names[k] = NULL;
  return olua_unknownkey(L, who, "parameter", key, names);
}


/* matrixgame{u = function (i, j) return a, b end, m =, n =}: the payoffs
** tabulated from a Lua function of the pure actions (i, j), 1-based,
** returning the row player's a and the column player's b (b absent:
** zero-sum, b = -a), into va (A) and vb (B, left alone when zero-sum);
** the buffers are anchored in the table at index anchors.  The function
** is at index fi. */
static void tabulate_u (lua_State *L, int fi, const char *who, ol_pval *va,
                        ol_pval *vb, int m, int n, int anchors)
{
  double *A = lua_newuserdatauv(L, (size_t)2 * m * n * sizeof(double), 0);
  double *B = A + (size_t)m * n;
  int i, j, zerosum = 1;
  lua_rawsetp(L, anchors, A);
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      lua_pushvalue(L, fi);
      lua_pushinteger(L, i + 1);
      lua_pushinteger(L, j + 1);
      lua_call(L, 2, 2);         /* an error in u propagates as it is */
      if (!lua_isnumber(L, -2) || !(lua_isnil(L, -1) || lua_isnumber(L, -1)))
        luaL_error(L, "%s: u(%d, %d) returned %s, %s; expected one or two "
                   "numbers (the row player's payoff, then the column "
                   "player's)", who, i + 1, j + 1, luaL_typename(L, -2),
                   luaL_typename(L, -1));
      A[(size_t)i * n + j] = lua_tonumber(L, -2);
      if (!lua_isnil(L, -1)) zerosum = 0;
      B[(size_t)i * n + j] = lua_isnil(L, -1) ? -lua_tonumber(L, -2)
                                              : lua_tonumber(L, -1);
      if (!isfinite(A[(size_t)i * n + j]) || !isfinite(B[(size_t)i * n + j]))
        luaL_error(L, "%s: u(%d, %d) is not finite", who, i + 1, j + 1);
      lua_pop(L, 2);
    }
  va->arr = A;
  va->rows = m;
  va->cols = n;
  if (!zerosum) {
    vb->arr = B;
    vb->rows = m;
    vb->cols = n;
  }
}

/* The payoffs of a type with a payoff function (t->payoff_fn, at index
** fi): none of t's matrix parameters may be given too ("give the payoffs
** as u or as A, B, potential, not both"); tabulated over t's params m x n
** into its A and B (buffers anchored at index anchors). */
static void payoff_fn (lua_State *L, int fi, const char *who,
                       const ol_problem_type *t, ol_pval *v, int anchors)
{
  int i, given = 0, np = t->nparams, ia = ol_param_find(t->params, np, "A"),
    ib = ol_param_find(t->params, np, "B"),
    im = ol_param_find(t->params, np, "m"),
    in = ol_param_find(t->params, np, "n");
  char names[160] = "";
  if (ia < 0 || ib < 0 || im < 0 || in < 0)
    luaL_error(L, "%s: %s needs the parameters A, B, m and n", who,
               t->payoff_fn);
  for (i = 0; i < np; i++)
    if (t->params[i].kind == OL_P_MATRIX) {
      size_t l = strlen(names);
      snprintf(names + l, sizeof names - l, "%s, ", t->params[i].name);
      given |= v[i].arr != NULL;
    }
  if (given)
    luaL_error(L, "%s: give the payoffs as %s or as %snot both", who,
               t->payoff_fn, names);
  tabulate_u(L, fi, who, &v[ia], &v[ib], (int)v[im].num, (int)v[in].num,
             anchors);
}

/* problem.<type>{...}: upvalue 1 is the ol_problem_type. */
static int problem_make (lua_State *L)
{
  const ol_problem_type *t = lua_touserdata(L, lua_upvalueindex(1));
  int np = t->nparams, i;
  char who[80];
  ol_pval *v;
  ol_err e;
  lproblem *b;
  snprintf(who, sizeof who, "problem.%s", t->name);
  if (lua_isnoneornil(L, 1)) {
    lua_settop(L, 0);
    lua_newtable(L);
  }
  if (!lua_istable(L, 1))
    return luaL_error(L, "%s: expected a table of parameters, got a %s", who,
                      luaL_typename(L, 1));
  lua_settop(L, 1);
  v = lua_newuserdatauv(L, (size_t)(np > 0 ? np : 1) * sizeof *v, 0);
  for (i = 0; i < np; i++) {
    v[i].num = t->params[i].def;
    v[i].arr = NULL;
    v[i].rows = v[i].cols = 0;
  }
  lua_newtable(L);                     /* 3: anchors the array buffers */
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    const ol_param *pd;
    int k;
    if (lua_type(L, -2) != LUA_TSTRING)
      return luaL_error(L, "%s: parameter names must be strings", who);
    if (t->payoff_fn != NULL
        && strcmp(lua_tostring(L, -2), t->payoff_fn) == 0) {
      if (!lua_isfunction(L, -1))
        return luaL_error(L, "%s: %s must be a function (i, j) returning "
                          "the payoffs, got a %s", who, t->payoff_fn,
                          luaL_typename(L, -1));
      lua_pop(L, 1);
      continue;
    }
    if (isgeneric(lua_tostring(L, -2))) {
      if (!appliesto(t->kind, lua_tostring(L, -2)))
        return notapplicable(L, who, lua_tostring(L, -2), t);
      lua_pop(L, 1);
      continue;
    }
    k = ol_param_find(t->params, np, lua_tostring(L, -2));
    if (k < 0)
      return olua_unknownparam(L, who, lua_tostring(L, -2), t->params, np);
    pd = &t->params[k];
    if (pd->kind == OL_P_VECTOR) {
      int len;
      v[k].arr = olua_checkarray(L, -1, who, pd->name, &len);
      v[k].rows = 1;
      v[k].cols = len;
      lua_rawsetp(L, 3, v[k].arr);
    }
    else if (pd->kind == OL_P_MATRIX) {
      int rows, cols = 0, r, len;
      double *m;
      if (!lua_istable(L, -1))
        return luaL_error(L, "%s: %s must be a table of rows", who, pd->name);
      rows = (int)lua_rawlen(L, -1);
      olua_checkseq(L, -1, who, pd->name, rows);
      if (rows > 0) {
        lua_rawgeti(L, -1, 1);
        cols = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
        lua_pop(L, 1);
      }
      if (rows == 0 || cols == 0)
        return luaL_error(L, "%s: %s must be a non-empty table of rows", who,
                          pd->name);
      m = lua_newuserdatauv(L, (size_t)rows * cols * sizeof(double), 0);
      for (r = 0; r < rows; r++) {
        double *row;
        lua_rawgeti(L, -2, r + 1);
        row = olua_checkarray(L, -1, who, pd->name, &len);
        if (len != cols)
          return luaL_error(L, "%s: %s row %d has %d entries, expected %d",
                            who, pd->name, r + 1, len, cols);
        memcpy(m + (size_t)r * cols, row, (size_t)cols * sizeof(double));
        lua_pop(L, 2);
      }
      v[k].arr = m;
      v[k].rows = rows;
      v[k].cols = cols;
      lua_rawsetp(L, 3, m);
    }
    else olua_readparam(L, -1, who, pd, &v[k].num);
    lua_pop(L, 1);
  }
  if (t->payoff_fn != NULL
      && lua_getfield(L, 1, t->payoff_fn) == LUA_TFUNCTION)
    payoff_fn(L, lua_gettop(L), who, t, v, 3);
  lua_settop(L, 3);
  b = newbox(L);
  b->p = ol_problem_new(t, v, &e);
  if (b->p == NULL) {            /* the core's "name: ..." said once */
    const char *m = e.msg;
    size_t l = strlen(t->name);
    if (strncmp(m, t->name, l) == 0 && m[l] == ':' && m[l + 1] == ' ')
      m += l + 2;
    return luaL_error(L, "%s: %s", who, m);
  }
  b->n = b->p->n;
  generic(L, who, b->p);
  return 1;
}

/* The options table at 1 of a user-problem constructor: every key one of
** keys (else the error naming the valid ones), and n an integer in
** [1, 1e8] (an integer-valued float such as 1e3 counts, as for the
** built-ins), returned; n is left on the stack. */
static int userkeys (lua_State *L, const char *who,
                     const char *const *keys)
{
  int i;
  lua_Integer nn;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                   : "?";
    for (i = 0; keys[i] != NULL && strcmp(keys[i], k) != 0; i++) {}
    if (keys[i] == NULL) olua_unknownkey(L, who, "parameter", k, keys);
    lua_pop(L, 1);
  }
  lua_getfield(L, 1, "n");
  if (lua_type(L, -1) != LUA_TNUMBER)
    luaL_error(L, "%s: n must be a positive integer, got %s", who,
               lua_isnil(L, -1) ? "nothing"
               : lua_pushfstring(L, "a %s", luaL_typename(L, -1)));
  nn = lua_tointegerx(L, -1, &i);
  if (!i || nn < 1 || nn > 100000000)
    luaL_error(L, "%s: n = %s must be an integer in [1, 100000000]", who,
               luaL_tolstring(L, -1, NULL));
  return (int)nn;
}

/* == general constraints (issue 12) ======================================
** problem.new{..., constraints = {{kind = "ineq", c = f, grad = g}, ...},
** lower = , upper = }: kind "eq" (c(x) = 0) or "ineq" (c(x) >= 0, SciPy's
** convention); grad(x, g) fills g (or returns a table) and is optional
** (the core differences c then).  The functions are kept, as {c = ...,
** grad = ...} per constraint, in the anchor table's "constraints" field
** (the box's user value, which Z holds at Z_THREADS), and called in the
** callback threads as f is, with the same checks of what they return. */

/* Push constraint i's {c, grad} table of b onto T. */
static void conspec (lproblem *b, lua_State *T, int i)
{
  lua_pushvalue(b->Z, Z_THREADS);
  lua_xmove(b->Z, T, 1);
  lua_getfield(T, -1, "constraints");
  lua_rawgeti(T, -1, i + 1);
  lua_replace(T, -3);
  lua_pop(T, 1);
}

static int con_at (lproblem *b, lua_State *T, int i, const double *x,
                   double *c, double *g, ol_err *e)
{
  int j, n = b->n, st;
  char name[48];
  if (b->cad != NULL && b->cad[i] != NULL && b->cad[i]->ntape > 0) {
    conspec(b, T, i);                         /* traced (issue 15) */
    lua_getfield(T, -1, "c");
    lua_remove(T, -2);
    st = adprotect(T, AD_EVAL, b->cad[i], lua_gettop(T), x, c, g, e);
    lua_settop(T, S_TOP);
    return st;
  }
  for (j = 0; j < n; j++) {
    lua_pushnumber(T, x[j]);
    lua_rawseti(T, S_X, j + 1);
  }
  if (c != NULL) {
    snprintf(name, sizeof name, "constraints[%d].c", i + 1);
    conspec(b, T, i);
    lua_getfield(T, -1, "c");
    lua_remove(T, -2);
    lua_pushvalue(T, S_X);
    if ((st = tcall(T, 1, e)) != OL_OK) return st;
    st = tvalue(T, name, c, e);
    lua_settop(T, S_TOP);
    if (st != OL_OK) return st;
  }
  if (g != NULL) {
    snprintf(name, sizeof name, "constraints[%d].grad", i + 1);
    tclear(T, S_G, n);
    conspec(b, T, i);
    lua_getfield(T, -1, "grad");
    lua_remove(T, -2);
    lua_pushvalue(T, S_X);
    lua_pushvalue(T, S_G);
    if ((st = tcall(T, 2, e)) != OL_OK) return st;
    return tgrad(T, name, S_TOP + 1, n, g, e);
  }
  return OL_OK;
}

/* The constraint oracle of a Lua problem (ol_con_fn): ud is its box. */
static int lua_con (void *ud, int i, const double *x, double *c, double *g,
                    ol_err *e)
{
  lproblem *b = ud;
  lua_State *T = tenter(b, e), *prev = b->S->cb;
  int st;
  if (T == NULL) return OL_ECALLBACK;
  b->S->cb = T;
  st = con_at(b, T, i, x, c, g, e);
  b->S->cb = prev;
  if (--b->depth == 0) b->overflow = 0;
  return st;
}

static double *readbound (lua_State *L, const char *who, const char *key,
                          int n);

/* The ad option of the argument table at 1: 0 (ad = false), 1 (absent or
** true: trace), 2 ("check"). */
static int readad (lua_State *L, const char *who)
{
  int ty = lua_getfield(L, 1, "ad"), mode = 1;
  if (ty == LUA_TBOOLEAN) mode = lua_toboolean(L, -1);
  else if (ty == LUA_TSTRING && strcmp(lua_tostring(L, -1), "check") == 0)
    mode = 2;
  else if (ty != LUA_TNIL)
    luaL_error(L, "%s: ad must be true, false or \"check\", got %s", who,
               ty == LUA_TSTRING ? lua_tostring(L, -1)
                                 : luaL_typename(L, -1));
  lua_pop(L, 1);
  return mode;
}

/* Trace the constraints without a gradient (hasg[i] == 0) at x0, unless
** ad = false: each traced one gets its tape (b->cad[i]) and hasg[i] = 1,
** so the core asks lua_con for its gradient.  The constraints' {c, grad}
** specs are the anchor table's "constraints". */
static void tracecons (lua_State *L, lproblem *b, int m, int *hasg)
{
  int i, top = lua_gettop(L);
  if (readad(L, "problem.new") == 0) return;
  b->cad = lua_newuserdatauv(L, (size_t)m * sizeof *b->cad, 0);
  lua_getiuservalue(L, 2, 1);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "cad");                     /* anchored */
  lua_getfield(L, -1, "constraints");
  for (i = 0; i < m; i++) {
    b->cad[i] = NULL;
    if (hasg[i]) continue;
    const char *nm = lua_pushfstring(L, "constraints[%d].c", i + 1);
    b->cad[i] = olua_ad_new(L, b->n, nm);
    lua_rawsetp(L, top + 2, b->cad[i]);           /* anchored by pointer */
    lua_rawsetp(L, top + 2, (char *)b->cad[i] + 1);   /* and its name */
    lua_rawgeti(L, top + 3, i + 1);
    lua_getfield(L, -1, "c");
    if (olua_ad_trace(L, b->cad[i], -1, b->p->x0)) hasg[i] = 1;
    else {                                   /* said once, here (issue 22) */
      lua_getglobal(L, "print");
      lua_pushfstring(L, "problem.new: constraints[%d].c cannot be traced: "
                      "%s; its gradient is by finite differences (2n calls "
                      "each, counted in r.nfev, or r.mfev for the run's "
                      "records)", i + 1, b->cad[i]->why);
      lua_call(L, 1, 0);
    }
    lua_pop(L, 2);
  }
  lua_settop(L, top);
}

/* The constraints, lower and upper keys of the argument table at 1 for
** the problem in box b (at index 2, its anchor table at 3). */
static void readconstraints (lua_State *L, const char *who, lproblem *b)
{
  ol_err e;
  int top = lua_gettop(L), m, i, n = b->n;
  double *lo, *hi;
  for (i = 0; b->p->kind != OL_OBJECTIVE && i < 3; i++) {
    static const char *const ck[] = {"constraints", "lower", "upper"};
    if (lua_getfield(L, 1, ck[i]) != LUA_TNIL)
      luaL_error(L, "%s: %s applies to an objective only", who, ck[i]);
    lua_pop(L, 1);
  }
  lo = readbound(L, who, "lower", n);
  hi = readbound(L, who, "upper", n);
  if (lo != NULL || hi != NULL) {
    ol_set s;
    double *inf;
    if (lua_getfield(L, 1, "set") != LUA_TNIL)
      luaL_error(L, "%s: lower and upper are a box: give them or set, "
                 "not both", who);
    lua_pop(L, 1);
    inf = lua_newuserdatauv(L, (size_t)n * sizeof *inf, 0);
    memset(&s, 0, sizeof s);
    s.kind = OL_SET_BOX;
    s.lo = lo != NULL ? lo : inf;
    s.hi = hi != NULL ? hi : inf;
    for (i = 0; i < n; i++) inf[i] = lo != NULL ? HUGE_VAL : -HUGE_VAL;
    if (ol_problem_set_set(b->p, &s, &e) != OL_OK) seterror(L, who, &e);
  }
  lua_settop(L, top);
  if (lua_getfield(L, 1, "constraints") == LUA_TNIL) {
    lua_settop(L, top);
    return;
  }
  if (!lua_istable(L, -1))
    luaL_error(L, "%s: constraints must be a table of constraints "
               "({kind = \"ineq\", c = function (x) ... end}, ...), got a "
               "%s", who, luaL_typename(L, -1));
  m = (int)lua_rawlen(L, -1);
  if (m < 1 || m > OL_MAXCON)
    luaL_error(L, "%s: constraints has %d entries (expected 1..%d)", who,
               m, OL_MAXCON);
  {
    int *kind = lua_newuserdatauv(L, 2 * (size_t)m * sizeof *kind, 0);
    int *hasg = kind + m, ct = top + 1;
    lua_createtable(L, m, 0);                       /* normalized specs */
    for (i = 1; i <= m; i++) {
      const char *ks;
      int sp;
      if (lua_rawgeti(L, ct, i) != LUA_TTABLE)
        luaL_error(L, "%s: constraints[%d] must be a table {kind = "
                   "\"eq\" or \"ineq\", c = , grad = }, got a %s", who, i,
                   luaL_typename(L, -1));
      sp = lua_gettop(L);
      lua_pushnil(L);
      while (lua_next(L, sp) != 0) {
        const char *k = lua_type(L, -2) == LUA_TSTRING
                          ? lua_tostring(L, -2) : NULL;
        if (k == NULL || (strcmp(k, "kind") != 0 && strcmp(k, "c") != 0 &&
                          strcmp(k, "grad") != 0))
          luaL_error(L, "%s: constraints[%d]: unknown key '%s' (valid: "
                     "kind, c, grad)", who, i,
                     k != NULL ? k : luaL_typename(L, -2));
        lua_pop(L, 1);
      }
      lua_getfield(L, sp, "kind");
      ks = lua_tostring(L, -1);
      if (ks != NULL && strcmp(ks, "eq") == 0) kind[i - 1] = OL_CON_EQ;
      else if (ks != NULL && strcmp(ks, "ineq") == 0)
        kind[i - 1] = OL_CON_INEQ;
      else
        luaL_error(L, "%s: constraints[%d].kind must be \"eq\" or "
                   "\"ineq\" (c(x) >= 0)", who, i);
      lua_pop(L, 1);
      lua_createtable(L, 0, 2);
      if (lua_getfield(L, sp, "c") != LUA_TFUNCTION)
        luaL_error(L, "%s: constraints[%d].c must be a function, got a %s",
                   who, i, luaL_typename(L, -1));
      lua_setfield(L, -2, "c");
      lua_getfield(L, sp, "grad");
      if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
        luaL_error(L, "%s: constraints[%d].grad must be a function, got a "
                   "%s", who, i, luaL_typename(L, -1));
      hasg[i - 1] = !lua_isnil(L, -1);
      lua_setfield(L, -2, "grad");
      lua_rawseti(L, -3, i);
      lua_pop(L, 1);
    }
    lua_getiuservalue(L, 2, 1);                     /* the anchor */
    lua_insert(L, -2);
    lua_setfield(L, -2, "constraints");
    tracecons(L, b, m, hasg);
    if (ol_problem_set_constraints(b->p, m, kind, hasg, lua_con, b, &e)
        != OL_OK)
      seterror(L, who, &e);
  }
  lua_settop(L, top);
}

/* Trace f of the problem.new table at 1 (box b, anchor table at anchor)
** when it has neither grad nor fdf, at x0 (zeros when not given), unless
** ad = false; ad = "check" prints the tape's error against central
** differences there.  Returns 1 when f is traced (its tape in b->ad). */
static int traceobjective (lua_State *L, const char *who, lproblem *b,
                           int anchor)
{
  int mode, top = lua_gettop(L), ok, n = b->n;
  double *x0, t0;
  mode = readad(L, who);                          /* checked always */
  if (!b->hasf || b->hasgrad || b->hasfdf) return 0;
  b->ad = olua_ad_new(L, n, "f");
  lua_setfield(L, anchor, "ad");                  /* anchored */
  if (mode == 0) {
    olua_ad_refuse(b->ad, "ad = false");
    return 0;
  }
  if (lua_getfield(L, 1, "x0") != LUA_TNIL) x0 = readbuf(L, -1, who, "x0", n);
  else {
    x0 = lua_newuserdatauv(L, (size_t)n * sizeof *x0, 0);
    memset(x0, 0, (size_t)n * sizeof *x0);
  }
  lua_getfield(L, 1, "f");
  t0 = ol_now();
  ok = olua_ad_trace(L, b->ad, -1, x0);
  b->ad->tracetime = ol_now() - t0;
  if (!ok) {                                   /* said once, here */
    lua_getglobal(L, "print");
    lua_pushfstring(L, "%s: %s cannot be traced: %s; its gradient is by "
                    "finite differences (ad = false: the same, without this notice)", who,
                    b->fname != NULL ? b->fname : "f", b->ad->why);
    lua_call(L, 1, 0);
  }
  if (ok && mode == 2) {
    ol_err e;
    double err = olua_ad_checkgrad(L, b->ad, lua_gettop(L), x0, &e);
    char line[1200], num[32];
    if (isnan(err))
      snprintf(line, sizeof line, "%s: ad check: the evaluation at x0 "
               "failed: %.1000s", who, e.msg);
    else
      snprintf(line, sizeof line, "%s: ad check at x0: the tape's gradient "
               "against central differences, max error %s (relative to "
               "max(1, |g|))%s", who, ol_fmtnum(num, sizeof num, err, 3),
               err > 1e-5 ? ": too large, the tape may be wrong" : "");
    lua_getglobal(L, "print");
    lua_pushstring(L, line);
    lua_call(L, 1, 0);
  }
  lua_settop(L, top);
  return ok;
}

/* == named parameters (issue 22, item 7) ==================================
** problem.new{params = ..., f = function (p) ... end, ...} and
** problem.density{params = ..., logp = function (p) ... end, ...}: the
** coordinates are named parameters, each a scalar or a vector, with its
** own bounds.  Two forms:
**   list   params = {{"mu"}, {"tau", lower = 0}, {"theta", 8}}   (the
**          written order; a bare string "mu" is a scalar too)
**   map    params = {mu = 1, tau = {lower = 0}, theta = 8}        (sorted
**          by name: a Lua table keeps no order)
** A size of 1 is a scalar, k > 1 a vector of k; lower / upper are a number
** or a table of k numbers.  withparams rewrites the call into the plain
** one: n = the sum of the sizes, lower / upper the concatenated bounds
** (-inf / inf where none is given), x0 flattened when it is named, and
** every callback wrapped so that it receives the named table (p.mu,
** p.theta[j]; g and H stay flat, in the order of the names).  The
** problem's anchor table keeps names (flat: "mu", "theta[1]", ...),
** params (the spec) and unflatten (flat array -> named table), which
** lsample.c reads for summaries, draws and CSV headers. */

static const char params_lua[] =
  "local spec = ...\n"
  "local n = 0\n"
  "for _, e in ipairs(spec) do e.off = n; n = n + e.size end\n"
  "local function unflatten (x)\n"
  "  local p = {}\n"
  "  for i = 1, #spec do\n"
  "    local e = spec[i]\n"
  "    if e.scalar then p[e.name] = x[e.off + 1]\n"
  "    else\n"
  "      local v = {}\n"
  "      for j = 1, e.size do v[j] = x[e.off + j] end\n"
  "      p[e.name] = v\n"
  "    end\n"
  "  end\n"
  "  return p\n"
  "end\n"
  "local function wrap (f)\n"
  "  if f == nil then return nil end\n"
  "  return function (x, ...) return f(unflatten(x), ...) end\n"
  "end\n"
  "local function flatten (p, who, key)\n"
  "  local x = {}\n"
  "  for _, e in ipairs(spec) do\n"
  "    local v = p[e.name]\n"
  "    if e.scalar then\n"
  "      if type(v) ~= 'number' then\n"
  "        error(string.format('%s: %s.%s must be a number, got %s', who,\n"
  "              key, e.name, v == nil and 'nothing' or 'a ' .. type(v)), 0)\n"
  "      end\n"
  "      x[e.off + 1] = v\n"
  "    else\n"
  "      if type(v) ~= 'table' or #v ~= e.size then\n"
  "        error(string.format('%s: %s.%s must be a table of %d numbers', who,\n"
  "              key, e.name, e.size), 0)\n"
  "      end\n"
  "      for j = 1, e.size do x[e.off + j] = v[j] end\n"
  "    end\n"
  "  end\n"
  "  for k in pairs(p) do\n"
  "    local known = false\n"
  "    for _, e in ipairs(spec) do known = known or e.name == k end\n"
  "    if not known then\n"
  "      error(string.format('%s: %s.%s is not a parameter', who, key,\n"
  "            tostring(k)), 0)\n"
  "    end\n"
  "  end\n"
  "  return x\n"
  "end\n"
  "return unflatten, wrap, flatten\n";

/* A parameter's name (at idx) checked: a non-empty string of letters,
** digits and _ (the names appear as p.name and in "name[j]"). */
static const char *paramname (lua_State *L, int idx, const char *who)
{
  const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx)
                                                  : NULL, *c;
  if (s == NULL || *s == '\0')
    luaL_error(L, "%s: a parameter's name must be a non-empty string, got "
               "%s", who, s != NULL ? "\"\"" : luaL_typename(L, idx));
  for (c = s; *c != '\0'; c++)
    if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')
          || (c > s && *c >= '0' && *c <= '9')))
      luaL_error(L, "%s: parameter name \"%s\" must be letters, digits and "
                 "_ (not starting with a digit)", who, s);
  return s;
}

/* One parameter: name at nidx, its declaration (a size number, or a table
** {[1] = name in the list form, [2] or [1] = size, lower =, upper =}) at
** didx; appended to the spec table at sidx as {name, size, scalar, lower,
** upper}.  list: the list form (the table's [1] is the name). */
static void oneparam (lua_State *L, const char *who, int sidx, int nidx,
                      int didx, int list)
{
  static const char *const pk[] = {"size", "lower", "upper", NULL};
  const char *name = paramname(L, nidx, who);
  lua_Integer size = 1;
  int isnum, szat = list ? 2 : 1, i;
  sidx = lua_absindex(L, sidx);
  didx = lua_absindex(L, didx);
  lua_createtable(L, 0, 5);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "name");
  if (lua_type(L, didx) == LUA_TNUMBER) {
    size = lua_tointegerx(L, didx, &isnum);
    if (!isnum) size = -1;
  }
  else if (lua_type(L, didx) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, didx) != 0) {               /* keys checked */
      if (lua_type(L, -2) == LUA_TSTRING) {
        for (i = 0; pk[i] != NULL && strcmp(pk[i], lua_tostring(L, -2));
             i++) {}
        if (pk[i] == NULL) {
          /* the key before the push below moves it (argument order is
          ** unspecified: clang read the value at -2, NULL for a table) */
          const char *key = lua_tostring(L, -2);
          olua_unknownkey(L, who, lua_pushfstring(L, "key of parameter %s",
                                                   name), key, pk);
        }
      }
      else if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 ||
               lua_tointeger(L, -2) > szat)
        luaL_error(L, "%s: parameter %s: {%sk, lower = , upper = } takes "
                   "%s, k and the bounds", who, name, list ? "name, " : "",
                   list ? "the name" : "the size");
      lua_pop(L, 1);
    }
    if (lua_rawgeti(L, didx, szat) != LUA_TNIL ||
        (lua_pop(L, 1), lua_getfield(L, didx, "size")) != LUA_TNIL) {
      size = lua_tointegerx(L, -1, &isnum);
      if (!isnum) size = -1;
    }
    lua_pop(L, 1);
    for (i = 1; i <= 2; i++) {
      const char *key = i == 1 ? "lower" : "upper";
      int ty = lua_getfield(L, didx, key);
      if (ty != LUA_TNIL && ty != LUA_TNUMBER && ty != LUA_TTABLE)
        luaL_error(L, "%s: parameter %s: %s must be a number or a table of "
                   "its size's numbers, got a %s", who, name, key,
                   luaL_typename(L, -1));
      lua_setfield(L, -2, key);
    }
  }
  else
    luaL_error(L, "%s: parameter %s must be declared by a size (1: a "
               "scalar) or a table {k, lower = , upper = }, got a %s", who,
               name, luaL_typename(L, didx));
  if (size < 1 || size > 100000000)
    luaL_error(L, "%s: parameter %s: its size must be an integer in [1, "
               "100000000]", who, name);
  /* scalar bounds named by the parameter (the core names x[k]); a
  ** density's must leave an interval, an objective may fix a variable */
  {
    int top = lua_gettop(L), fix = strcmp(who, "problem.new") == 0;
    if (lua_getfield(L, top, "lower") == LUA_TNUMBER &&
        lua_getfield(L, top, "upper") == LUA_TNUMBER) {
      double lo = lua_tonumber(L, top + 1), hi = lua_tonumber(L, top + 2);
      if (isnan(lo) || isnan(hi))
        luaL_error(L, "%s: parameter %s: %s is NaN", who, name,
                   isnan(lo) ? "lower" : "upper");
      if (fix ? lo > hi : lo >= hi)
        luaL_error(L, "%s: parameter %s: lower = %s must be %s upper = %s",
                   who, name, lua_tostring(L, top + 1),
                   fix ? "at most" : "below", lua_tostring(L, top + 2));
    }
    lua_settop(L, top);
  }
  lua_pushinteger(L, size);
  lua_setfield(L, -2, "size");
  lua_pushboolean(L, size == 1);
  lua_setfield(L, -2, "scalar");
  lua_rawseti(L, sidx, (lua_Integer)lua_rawlen(L, sidx) + 1);
}

static int cmpname (const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The spec of the params table at pidx, pushed: a list of {name, size,
** scalar, lower, upper}.  Raises on a malformed declaration or a repeated
** name. */
static void readparams (lua_State *L, int pidx, const char *who)
{
  int sidx, k, nk = 0;
  pidx = lua_absindex(L, pidx);
  if (lua_type(L, pidx) != LUA_TTABLE)
    luaL_error(L, "%s: params must be a table ({{\"mu\"}, {\"theta\", 8}} or "
               "{mu = 1, theta = 8}), got a %s", who, luaL_typename(L, pidx));
  lua_newtable(L);
  sidx = lua_gettop(L);
  if (lua_rawlen(L, pidx) > 0) {                      /* the list form */
    int len = (int)lua_rawlen(L, pidx);
    lua_pushnil(L);
    while (lua_next(L, pidx) != 0) {
      if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) < 1 ||
          lua_tointeger(L, -2) > len)
        luaL_error(L, "%s: params mixes the list form ({{\"mu\"}, ...}) "
                   "with a key %s: use one form", who,
                   luaL_tolstring(L, -2, NULL));
      lua_pop(L, 1);
    }
    for (k = 1; k <= len; k++) {
      int ty = lua_rawgeti(L, pidx, k);
      if (ty == LUA_TSTRING) {
        lua_pushinteger(L, 1);
        oneparam(L, who, sidx, -2, -1, 0);
        lua_pop(L, 2);
      }
      else if (ty == LUA_TTABLE) {
        lua_rawgeti(L, -1, 1);
        oneparam(L, who, sidx, -1, -2, 1);
        lua_pop(L, 2);
      }
      else
        luaL_error(L, "%s: params[%d] must be {\"name\", k, lower = , upper "
                   "= } or \"name\", got a %s", who, k, luaL_typename(L, -1));
    }
  }
  else {                                  /* the map form, sorted by name */
    const char **names;
    lua_pushnil(L);
    while (lua_next(L, pidx) != 0) {
      paramname(L, -2, who);
      nk++;
      lua_pop(L, 1);
    }
    if (nk == 0)
      luaL_error(L, "%s: params declares no parameter", who);
    names = lua_newuserdatauv(L, (size_t)nk * sizeof *names, 0);
    k = 0;
    lua_pushnil(L);
    while (lua_next(L, pidx) != 0) {
      names[k++] = lua_tostring(L, -2);     /* anchored by params */
      lua_pop(L, 1);
    }
    qsort(names, (size_t)nk, sizeof *names, cmpname);
    for (k = 0; k < nk; k++) {
      lua_pushstring(L, names[k]);
      lua_getfield(L, pidx, names[k]);
      oneparam(L, who, sidx, -2, -1, 0);
      lua_pop(L, 2);
    }
    lua_pop(L, 1);
  }
  /* repeated names (the list form can repeat one) */
  for (k = 1; k <= (int)lua_rawlen(L, sidx); k++) {
    int j;
    lua_rawgeti(L, sidx, k);
    lua_getfield(L, -1, "name");
    for (j = 1; j < k; j++) {
      lua_rawgeti(L, sidx, j);
      lua_getfield(L, -1, "name");
      if (lua_rawequal(L, -1, -3))
        luaL_error(L, "%s: parameter %s is declared twice", who,
                   lua_tostring(L, -1));
      lua_pop(L, 2);
    }
    lua_pop(L, 2);
  }
}

/* The bound key (lower or upper) of the spec at sidx, n entries in all,
** as a table of n numbers (inf of the sign where none is given), pushed;
** nil when no parameter has one. */
static void specbounds (lua_State *L, int sidx, const char *key, int n,
                        const char *who)
{
  int k, len = (int)lua_rawlen(L, sidx), at = 0, any = 0, j;
  double none = key[0] == 'l' ? -HUGE_VAL : HUGE_VAL;
  lua_createtable(L, n, 0);
  for (k = 1; k <= len; k++) {
    int size, ty;
    const char *name;
    lua_rawgeti(L, sidx, k);
    lua_getfield(L, -1, "size");
    size = (int)lua_tointeger(L, -1);
    lua_getfield(L, -2, "name");
    name = lua_tostring(L, -1);
    ty = lua_getfield(L, -3, key);
    if (ty == LUA_TTABLE && (int)lua_rawlen(L, -1) != size)
      luaL_error(L, "%s: parameter %s: %s has %d entries, its size is %d",
                 who, name, key, (int)lua_rawlen(L, -1), size);
    for (j = 1; j <= size; j++) {
      double v = none;
      if (ty == LUA_TNUMBER) v = lua_tonumber(L, -1);
      else if (ty == LUA_TTABLE) {
        int isnum;
        lua_rawgeti(L, -1, j);
        v = lua_tonumberx(L, -1, &isnum);
        if (!isnum)
          luaL_error(L, "%s: parameter %s: %s[%d] must be a number", who,
                     name, key, j);
        lua_pop(L, 1);
      }
      any |= ty != LUA_TNIL;
      lua_pushnumber(L, v);
      lua_rawseti(L, -6, ++at);
    }
    lua_pop(L, 4);
  }
  if (!any) {
    lua_pop(L, 1);
    lua_pushnil(L);
  }
}

/* problem.new / problem.density with params = (at 1): the plain call of
** ctor on a rewritten copy of the arguments, then the names kept in the
** problem's anchor table.  Returns ctor's result (the problem). */
static int withparams (lua_State *L, lua_CFunction ctor, const char *who,
                       const char *const *fkeys)
{
  int sidx, aidx, n = 0, k, len;
  lua_settop(L, 1);
  lua_getfield(L, 1, "params");
  readparams(L, 2, who);                                /* 3: spec */
  sidx = 3;
  len = (int)lua_rawlen(L, sidx);
  for (k = 1; k <= len; k++) {
    lua_rawgeti(L, sidx, k);
    lua_getfield(L, -1, "size");
    n += (int)lua_tointeger(L, -1);
    lua_pop(L, 2);
    if (n > 100000000)
      luaL_error(L, "%s: the parameters have more than 100000000 entries",
                 who);
  }
  /* (1) unflatten, wrap, flatten from the spec */
  if (luaL_loadbufferx(L, params_lua, sizeof params_lua - 1, "=params", "t")
      != LUA_OK)
    return lua_error(L);
  lua_pushvalue(L, sidx);
  lua_call(L, 1, 3);                              /* 4, 5, 6 */
  /* (2) the rewritten arguments */
  lua_newtable(L);                                      /* 7 */
  aidx = 7;
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, aidx);
  }
  lua_pushnil(L);
  lua_setfield(L, aidx, "params");
  if (lua_getfield(L, 1, "n") != LUA_TNIL &&
      !(lua_isinteger(L, -1) && lua_tointeger(L, -1) == n))
    luaL_error(L, "%s: n = %s, but params declare %d %s (leave n out "
               "with params)", who, luaL_tolstring(L, -1, NULL), n,
               n == 1 ? "entry" : "entries");
  lua_pop(L, 1);
  lua_pushinteger(L, n);
  lua_setfield(L, aidx, "n");
  for (k = 0; fkeys[k] != NULL; k++) {           /* the callbacks */
    lua_pushvalue(L, 5);
    lua_getfield(L, 1, fkeys[k]);
    lua_call(L, 1, 1);
    lua_setfield(L, aidx, fkeys[k]);
  }
  for (k = 0; k < 2; k++) {                      /* bounds */
    const char *key = k == 0 ? "lower" : "upper";
    specbounds(L, sidx, key, n, who);
    if (!lua_isnil(L, -1)) {
      if (lua_getfield(L, 1, key) != LUA_TNIL)
        luaL_error(L, "%s: give the bounds in params ({\"tau\", lower = 0}), "
                   "not %s as well", who, key);
      lua_pop(L, 1);
      lua_setfield(L, aidx, key);
    }
    else lua_pop(L, 1);
  }
  if (lua_getfield(L, 1, "x0") == LUA_TTABLE && lua_rawlen(L, -1) == 0) {
    lua_pushvalue(L, 6);                         /* a named x0 */
    lua_insert(L, -2);
    lua_pushstring(L, who);
    lua_pushliteral(L, "x0");
    lua_call(L, 3, 1);
    lua_setfield(L, aidx, "x0");
  }
  else lua_pop(L, 1);
  /* (3) the plain constructor, then the names in the anchor table */
  lua_pushcfunction(L, ctor);
  lua_pushvalue(L, aidx);
  lua_call(L, 1, 1);                                    /* 8: problem */
  lua_getiuservalue(L, 8, 1);                           /* 9: anchor */
  lua_createtable(L, n, 0);
  {
    int at = 0, j;
    for (k = 1; k <= len; k++) {
      int size, scalar;
      const char *name;
      lua_rawgeti(L, sidx, k);
      lua_getfield(L, -1, "size");
      size = (int)lua_tointeger(L, -1);
      lua_getfield(L, -2, "scalar");
      scalar = lua_toboolean(L, -1);
      lua_getfield(L, -3, "name");
      name = lua_tostring(L, -1);
      for (j = 1; j <= size; j++) {
        if (scalar) lua_pushstring(L, name);
        else lua_pushfstring(L, "%s[%d]", name, j);
        lua_rawseti(L, -6, ++at);
      }
      lua_pop(L, 4);
    }
  }
  {                                    /* the core's copy, for plots */
    const char **nm = lua_newuserdatauv(L, (size_t)n * sizeof *nm, 0);
    lproblem *b = lua_touserdata(L, 8);
    ol_err e;
    for (k = 0; k < n; k++) {
      lua_rawgeti(L, -2, k + 1);
      nm[k] = lua_tostring(L, -1);     /* anchored by the names table */
      lua_pop(L, 1);
    }
    if (ol_problem_set_names(b->p, nm, &e) != OL_OK)
      return luaL_error(L, "%s: %s", who, e.msg);
    lua_pop(L, 1);
  }
  lua_setfield(L, 9, "names");
  lua_pushvalue(L, sidx);
  lua_setfield(L, 9, "params");
  lua_pushvalue(L, 4);
  lua_setfield(L, 9, "unflatten");
  lua_settop(L, 8);
  return 1;
}

/* == f's tape and grad= checked (issue 22) ================================
** A tape is checked against its function on numbers at its trace point
** (olua_ad_verify) at p:eval and whenever a run is made, so that a global
** f reads, changed after problem.new, re-traces f rather than giving the
** old function's gradient.  When grad= is given and f can be traced, the
** two gradients are compared at x0 (here, at problem.new) and at the next
** other point where a method asks for a gradient (its first step); ad =
** "check" also compares against central differences when f cannot be
** traced.  A coordinate differs when
**   |g_i - t_i| > 1e-6 (|t_i| + max_j |t_j|)        against the tape
**   |g_i - d_i| > 1e-4 (|d_i| + max_j |d_j|) + 1e-8 (1 + |f|)
**                                                   against differences
** (t the tape's gradient, exact to rounding: a correct formula agrees to
** about 1e-12 relative, a mistake -- a sign, a factor, a missing term --
** differs by the size of the entry; the max_j term keeps an entry that is
** near 0 by cancellation to the gradient's scale.  Central differences
** with h = eps^(1/3) max(1, |x_i|) err by about 1e-10 relative plus
** eps |f| / h, hence the looser second rule.  Where the tape's gradient is
** exactly 0 the first rule's floor is 1e-10.) */

#define GCK_MAXNODES (1 << 20)

/* Push f (the template thread's). */
static void pushf (lproblem *b, lua_State *L)
{
  lua_pushvalue(b->Z, S_F);
  lua_xmove(b->Z, L, 1);
}

/* print(msg), protected: also called in a callback thread under core
** frames (gradcheck_step), where an error must not unwind; a print that
** fails says nothing. */
static void say (lua_State *L, const char *msg)
{
  lua_getglobal(L, "print");
  lua_pushstring(L, msg);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
}

/* After a check that called the problem's own functions: they may have
** closed it (p:close() inside f), and the caller must not go on. */
static void stillopen (lua_State *L, const lproblem *b)
{
  if (b->closed || b->p == NULL)
    luaL_error(L, "problem is closed (its own function closed it while its "
               "tape was checked)");
}

void olua_problem_adverify (lua_State *L, lproblem *b)
{
  char line[800];
  int i, m = b->p != NULL && b->cad != NULL ? b->p->con.m : 0;
  if (b->ad != NULL && b->ad->mode == OLUA_AD_TAPE) {
    pushf(b, L);
    if (olua_ad_verify(L, b->ad, -1)) {
      snprintf(line, sizeof line, "%s: %s", b->fname != NULL ? b->fname
               : "f", b->ad->mode == OLUA_AD_TAPE ? b->ad->note : b->ad->why);
      if (b->ad->mode != OLUA_AD_TAPE)
        snprintf(line + strlen(line), sizeof line - strlen(line), "; its "
                 "gradient is by finite differences from now on");
      say(L, line);
    }
    lua_pop(L, 1);
    stillopen(L, b);
  }
  for (i = 0; i < m; i++) {
    olua_ad *c = b->cad[i];
    if (c == NULL || c->mode != OLUA_AD_TAPE) continue;
    conspec(b, L, i);
    lua_getfield(L, -1, "c");
    if (olua_ad_verify(L, c, -1)) {
      snprintf(line, sizeof line, "constraints[%d].c: %s%s", i + 1,
               c->mode == OLUA_AD_TAPE ? c->note : c->why,
               c->mode == OLUA_AD_TAPE ? "" : "; its gradient is by finite "
               "differences from now on");
      say(L, line);
    }
    lua_pop(L, 2);
    stillopen(L, b);
  }
}

/* Compare u (grad=) with r (the reference) at a point, n entries: the
** number of coordinates that differ (the rules above: rtol, and atol
** added), their worst three named in buf ("coordinate 2: grad= gives 4,
** the tape -4"). */
static int gradcompare (const double *u, const double *r, int n,
                        double rtol, double atol, const char *refname,
                        char *buf, size_t sz)
{
  double rmax = 0, worst[3] = {0, 0, 0};
  int i, j, bad = 0, wi[3] = {-1, -1, -1}, k = 0;
  char nu[32], nr[32];
  for (i = 0; i < n; i++)
    if (isfinite(r[i])) rmax = fmax(rmax, fabs(r[i]));
  if (rmax == 0 && atol == 0) atol = 1e-10;
  for (i = 0; i < n; i++) {
    double d = fabs(u[i] - r[i]), tol = rtol * (fabs(r[i]) + rmax) + atol,
           q = isnan(d) ? HUGE_VAL : d / (tol > 0 ? tol : DBL_MIN);
    if (!(d <= tol) && !(u[i] == r[i])) {
      bad++;
      for (j = 0; j < 3; j++)
        if (wi[j] < 0 || q > worst[j]) {
          int l;
          for (l = 2; l > j; l--) {
            worst[l] = worst[l - 1];
            wi[l] = wi[l - 1];
          }
          worst[j] = q;
          wi[j] = i;
          break;
        }
    }
  }
  buf[0] = '\0';
  for (j = 0; j < 3 && wi[j] >= 0 && k >= 0 && (size_t)k < sz; j++)
    k += snprintf(buf + k, sz - (size_t)k, "%scoordinate %d: grad= gives "
                  "%s, %s %s", j ? "; " : "", wi[j] + 1,
                  ol_fmtnum(nu, sizeof nu, u[wi[j]], 6), refname,
                  ol_fmtnum(nr, sizeof nr, r[wi[j]], 6));
  if (bad > 3 && k >= 0 && (size_t)k < sz)
    snprintf(buf + k, sz - (size_t)k, "; %d of %d coordinates differ", bad,
             n);
  return bad;
}

/* Check grad= at x (T: a thread to call f in, fidx its index there; g
** the gradient grad= gave there): against the tape of b->gck, or central
** differences when f is not traced and differences is set.  Records the
** outcome in b->gck and returns the words of a warning (NULL when they
** agree or nothing was compared).  *skipped is set when x is on a kink
** of the traced f (abs at 0, ...): the tape's derivative is one side's
** there and a subgradient grad= gives may differ, so none is compared. */
static const char *gradcheck_at (lproblem *b, lua_State *T, int fidx,
                                 const double *x, const double *g,
                                 int differences, const char *where,
                                 int *skipped)
{
  olua_ad *c = b->gck;
  int n = b->n, bad, traced = c->mode == OLUA_AD_TAPE;
  double *r = c->work + 2 * (size_t)n, f;   /* fdgrad uses work[0, n) */
  char det[360];
  ol_err e;
  *skipped = 0;
  if (!traced && !differences) return NULL;
  if (adprotect(T, traced ? AD_EVAL : AD_FDGRAD, c, fidx, x, &f, r, &e)
      != OL_OK) {
    snprintf(c->checkmsg, sizeof c->checkmsg, "grad= not checked at %s: f "
             "failed there: %.300s", where, e.msg);
    return c->checkmsg;
  }
  traced = c->mode == OLUA_AD_TAPE;          /* a re-trace may give up */
  if (traced && olua_ad_onkink(c)) {
    *skipped = 1;
    if (c->nchecked == 0)
      snprintf(c->checkmsg, sizeof c->checkmsg, "not compared at %s, a "
               "kink of f (a guard's two sides are equal there)", where);
    return NULL;
  }
  bad = traced ? gradcompare(g, r, n, 1e-6, 0, "the tape", det, sizeof det)
               : gradcompare(g, r, n, 1e-4, 1e-8 * (1 + fabs(f)),
                             "differences", det, sizeof det);
  if (c->nchecked++ == 0)
    snprintf(c->where1, sizeof c->where1, "%s", where);
  if (bad == 0) {
    if (c->nbad == 0)
      snprintf(c->checkmsg, sizeof c->checkmsg, "checked against %s at "
               "%s%s%s: agrees", traced ? "the traced f's gradient"
               : "central differences of f", c->nchecked > 1 ? c->where1
               : "", c->nchecked > 1 ? " and " : "", where);
    return NULL;
  }
  if (c->nbad++ > 0) {             /* the first difference's words stay */
    size_t l = strlen(c->checkmsg);
    snprintf(c->checkmsg + l, sizeof c->checkmsg - l, "; again at %s",
             where);
    return NULL;                   /* warned at the first */
  }
  snprintf(c->checkmsg, sizeof c->checkmsg, "grad= differs from %s at %s "
           "(beyond %s): %s", traced ? "the traced f's gradient"
           : "central differences of f", where, traced
           ? "1e-6 (|t_i| + max |t|)" : "1e-4 (|d_i| + max |d|) + 1e-8 "
           "(1 + |f|)", det);
  return c->checkmsg;
}

/* The warning line for w, a gradcheck_at outcome: a difference names the
** fix too. */
static void gradwarn (char *line, size_t sz, const char *who, const char *w)
{
  const char *fix = "";
  if (strncmp(w, "grad= differs from the traced", 29) == 0)
    fix = " (correct grad=, or leave it out: f's traced gradient is exact)";
  else if (strncmp(w, "grad= differs", 13) == 0)
    fix = " (correct grad=; if f is noisy or not smooth there, the "
          "differences may be what is off)";
  snprintf(line, sz, "%s%swarning: %s%s", who != NULL ? who : "",
           who != NULL ? ": " : "", w, fix);
}

/* At the end of problem.new (box at 2): when grad= is
** given with f, trace f (unless ad = false) and check grad= at x0; with
** ad = "check", against differences when f cannot be traced. */
static void gradcheck_new (lua_State *L, const char *who, lproblem *b)
{
  int mode = readad(L, who), n = b->n, top = lua_gettop(L), traced, skip;
  double *g, f;
  const char *w;
  ol_err e;
  char line[700];
  if (!b->hasgrad || !b->hasf || mode == 0) return;
  lua_getiuservalue(L, 2, 1);                      /* the anchor */
  b->gck = olua_ad_new(L, n, b->fname != NULL ? b->fname : "f");
  lua_setfield(L, -2, "gck");                      /* anchored */
  lua_pop(L, 1);
  /* a user who gives grad= may have an f too large to trace: the check's
  ** tape stops at GCK_MAXNODES (about 50 MB) unless ad = "check" */
  if (mode != 2) b->gck->maxnodes = GCK_MAXNODES;
  pushf(b, L);
  traced = olua_ad_trace(L, b->gck, -1, b->p->x0);
  if (!traced && mode != 2) {
    snprintf(b->gck->checkmsg, sizeof b->gck->checkmsg, "not checked: f "
             "cannot be traced (%.300s; ad = \"check\" compares with "
             "differences)", b->gck->why);
    lua_settop(L, top);
    return;
  }
  if (mode != 2) {                 /* at the first gradient asked for */
    b->gck->pending = 2;
    lua_settop(L, top);
    return;
  }
  g = lua_newuserdatauv(L, 2 * (size_t)n * sizeof *g, 0);
  olua_problem_ref(b);
  if (ol_problem_eval(b->p, b->p->x0, &f, g, g + n, &e) != OL_OK) {
    olua_problem_unref(b);
    snprintf(b->gck->checkmsg, sizeof b->gck->checkmsg, "not checked: "
             "grad= failed at x0: %.300s", e.msg);
    lua_settop(L, top);
    return;
  }
  olua_problem_unref(b);
  w = gradcheck_at(b, L, top + 1, b->p->x0, g, mode == 2, "x0", &skip);
  b->gck->pending = !traced ? 0 : skip ? 2 : 1;
  if (w != NULL) {
    gradwarn(line, sizeof line, who, w);
    say(L, line);
  }
  else if (mode == 2) {
    snprintf(line, sizeof line, "%s: ad check: grad= %s", who,
             b->gck->checkmsg);
    say(L, line);
  }
  memcpy(b->gck->work + 3 * (size_t)n, b->p->x0, (size_t)n * sizeof(double));
  lua_settop(L, top);
}

/* In a gradient call of fdf_at (thread T, grad= just gave g at x): the
** checks at the first point a gradient is asked for (pending 2: x0, as a
** rule) and at the next other point (pending 1), once each.  The first
** is not made at problem.new, so that grad= is called no more often than
** the user calls it (ad = "check" makes it there). */
static void gradcheck_step (lproblem *b, lua_State *T, const double *x,
                            const double *g)
{
  const char *w;
  char line[700];
  double *xc;
  int skip;
  if (b->gck == NULL || !b->gck->pending || b->p == NULL) return;
  xc = b->gck->work + 3 * (size_t)b->n;      /* the point checked last */
  if (b->gck->pending == 2) {
    char where[48] = "x0", num[24];
    int i, k;
    if (memcmp(x, b->p->x0, (size_t)b->n * sizeof *x) != 0) {
      k = snprintf(where, sizeof where, "x = (");
      for (i = 0; i < b->n && i < 3 && k > 0 && (size_t)k < sizeof where;
           i++)
        k += snprintf(where + k, sizeof where - (size_t)k, "%s%s", i ? ", "
                      : "", ol_fmtnum(num, sizeof num, x[i], 4));
      if (k > 0 && (size_t)k < sizeof where)
        snprintf(where + k, sizeof where - (size_t)k, "%s)", b->n > 3
                 ? ", ..." : "");
    }
    w = gradcheck_at(b, T, S_F, x, g, 0, where, &skip);
    if (!skip) b->gck->pending = 1;
    memcpy(xc, x, (size_t)b->n * sizeof *x);
    lua_settop(T, S_TOP);
    if (w != NULL) {
      gradwarn(line, sizeof line, NULL, w);
      say(T, line);
    }
    return;
  }
  if (memcmp(x, xc, (size_t)b->n * sizeof *x) == 0) return;  /* same */
  w = gradcheck_at(b, T, S_F, x, g, 0, "the first step", &skip);
  memcpy(xc, x, (size_t)b->n * sizeof *x);
  if (skip) return;                          /* on a kink: the next one */
  b->gck->pending = 0;
  olua_ad_release(b->gck, "checked");        /* its tapes are not needed */
  lua_settop(T, S_TOP);
  if (w != NULL) {
    gradwarn(line, sizeof line, NULL, w);
    say(T, line);
  }
}

const char *olua_problem_adnote (const lproblem *b, char *buf, size_t sz)
{
  char tmp[600];
  int i, k = 0, m = b->cad != NULL && b->p != NULL ? b->p->con.m : 0, nfd = 0,
      first = -1;
  buf[0] = '\0';
  if (b->ad != NULL && olua_ad_note(b->ad, tmp, sizeof tmp) != NULL)
    k = snprintf(buf, sz, "%s", tmp);
  else if (b->gck != NULL)
    k = snprintf(buf, sz, "given (grad=); %s", b->gck->checkmsg[0] != '\0'
                 ? b->gck->checkmsg : "not checked");
  for (i = 0; i < m; i++)
    if (b->cad[i] != NULL && b->cad[i]->mode != OLUA_AD_TAPE) {
      if (first < 0) first = i;
      nfd++;
    }
  if (nfd > 0 && k == 0)
    k = snprintf(buf, sz, "given (%s)", b->hasfdf ? "fdf=" : "grad=");
  if (nfd > 0 && k >= 0 && (size_t)k < sz)
    snprintf(buf + k, sz - (size_t)k, "%sconstraints: %d of %d by finite "
             "differences (constraints[%d].c: %.200s)", "\n  ",
             nfd, m, first + 1, b->cad[first]->why);
  return buf[0] != '\0' ? buf : NULL;
}

/* p.ad: f's (olua_ad_pushinfo), or {mode = "given", checked, check} when
** grad= is given; constraints = {{mode =, reason =}, ...} with
** constraints. */
static void pushadinfo (lua_State *L, lproblem *b)
{
  int i, m = b->cad != NULL && b->p != NULL ? b->p->con.m : 0;
  if (b->ad != NULL) olua_ad_pushinfo(L, b->ad);
  else {
    lua_createtable(L, 0, 4);
    lua_pushstring(L, b->hasgrad ? "given" : "fdf");
    lua_setfield(L, -2, "mode");
    if (b->gck != NULL) {
      lua_pushboolean(L, b->gck->nchecked > 0);
      lua_setfield(L, -2, "checked");
      if (b->gck->nchecked > 0) {
        lua_pushboolean(L, b->gck->nbad == 0);
        lua_setfield(L, -2, "agrees");
      }
      lua_pushstring(L, b->gck->checkmsg);
      lua_setfield(L, -2, "check");
    }
  }
  if (m == 0) return;
  lua_createtable(L, m, 0);
  for (i = 0; i < m; i++) {
    olua_ad *c = b->cad[i];
    if (c != NULL) olua_ad_pushinfo(L, c);
    else {
      lua_createtable(L, 0, 1);
      lua_pushliteral(L, "given");
      lua_setfield(L, -2, "mode");
    }
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "constraints");
}

/* The cheap checks of the keys read late (x0, xstar, fstar, lower,
** upper: types and lengths), made before anything of size n is built, so
** that a wrong key is said at once even when n is 10^7. */
static void precheck (lua_State *L, const char *who, int n)
{
  static const char *const vk[] = {"x0", "xstar", "lower", "upper"};
  int i, ty;
  for (i = 0; i < 4; i++) {
    ty = lua_getfield(L, 1, vk[i]);
    if (ty == LUA_TTABLE) {
      lua_Unsigned len = lua_rawlen(L, -1);
      if (len != (lua_Unsigned)n)
        luaL_error(L, "%s: %s has %I entries, expected n = %d", who, vk[i],
                   (lua_Integer)len, n);
    }
    else if (ty != LUA_TNIL && !(i >= 2 && ty == LUA_TNUMBER)) {
      if (i >= 2)
        luaL_error(L, "%s: %s must be a number or a table of n = %d "
                   "numbers, got a %s", who, vk[i], n, luaL_typename(L, -1));
      luaL_error(L, "%s: %s must be a table of numbers, got a %s", who,
                 vk[i], luaL_typename(L, -1));
    }
    lua_pop(L, 1);
  }
  ty = lua_getfield(L, 1, "fstar");
  if (ty != LUA_TNIL && !lua_isnumber(L, -1))
    luaL_error(L, "%s: fstar must be a number", who);
  lua_pop(L, 1);
}

/* Set by problem.density right before it calls problem_new. */
#define DENSITYCALL "optlab.densitycall"

/* problem.new{n=, f=, grad=, fdf=, hess=, x0=, xstar=, fstar=, name=,
** kind=, set=, noise=, l1=, constraints=, lower=, upper=} -> a problem
** whose oracles call the Lua functions (lua_fdf, and lua_hess as p->hess
** when hess is given; lua_con for the constraints). */
static int problem_new (lua_State *L)
{
  static const char *const keys[] = {
    "n", "f", "grad", "fdf", "hess", "x0", "xstar", "fstar", "name", "kind",
    "set", "noise", "l1", "constraints", "lower", "upper", "ad", "params",
    "penalty", NULL
  };
  const char *who = "problem.new", *said = who;
  lproblem *b;
  lua_State *Z;
  ol_err e;
  int n, i, kind = OL_OBJECTIVE, traced, density;
  /* called by problem.density (the flag it set just before, taken at
  ** once): the notices of the trace and the grad= check name it and logp */
  density = lua_getfield(L, LUA_REGISTRYINDEX, DENSITYCALL) != LUA_TNIL;
  lua_pop(L, 1);
  if (density) {
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, DENSITYCALL);
    said = "problem.density";
  }
  if (lua_istable(L, 1) && lua_getfield(L, 1, "params") != LUA_TNIL) {
    static const char *const fk[] = {"f", "grad", "fdf", "hess", NULL};
    return withparams(L, problem_new, who, fk);
  }
  n = userkeys(L, who, keys);
  lua_settop(L, 1);
  lua_getfield(L, 1, "kind");
  if (!lua_isnil(L, -1)) {
    const char *ks = lua_tostring(L, -1);
    if (ks != NULL && strcmp(ks, "objective") == 0) kind = OL_OBJECTIVE;
    else if (ks != NULL && strcmp(ks, "density") == 0) kind = OL_DENSITY;
    else
      return luaL_error(L, "%s: kind must be \"objective\" or \"density\"",
                        who);
  }
  lua_pop(L, 1);
  b = newbox(L);                                       /* index 2 */
  lua_newtable(L);                                     /* index 3 */
  lua_pushvalue(L, 3);
  lua_setiuservalue(L, 2, 1);
  Z = lua_newthread(L);                                /* index 4 */
  lua_rawseti(L, 3, 0);
  if (!lua_checkstack(Z, 16))
    return luaL_error(L, "%s: out of memory", who);
  lua_pushcfunction(Z, olua_msghandler);
  {
    static const char *const fk[] = {"f", "grad", "fdf", "hess"};
    int *has[4];
    has[0] = &b->hasf;
    has[1] = &b->hasgrad;
    has[2] = &b->hasfdf;
    has[3] = &b->hashess;
    for (i = 0; i < 4; i++) {
      int ty = lua_getfield(L, 1, fk[i]);
      if (ty != LUA_TNIL && ty != LUA_TFUNCTION && !luaL_getmetafield(L, -1,
                                                                 "__call"))
        return luaL_error(L, "%s: %s must be a function, got a %s", who,
                          fk[i], luaL_typename(L, -1));
      if (ty != LUA_TNIL && ty != LUA_TFUNCTION) lua_pop(L, 1);
      *has[i] = ty != LUA_TNIL;
      lua_xmove(L, Z, 1);
    }
  }
  if (!b->hasf && !b->hasfdf)
    return luaL_error(L, "%s: needs f or fdf", who);
  precheck(L, who, n);
  lua_pushvalue(L, 3);
  lua_xmove(L, Z, 1);                                  /* Z_THREADS */
  b->Z = Z;
  b->n = n;
  /* the first callback thread, T[0] */
  lua_pushcfunction(L, mkthread);
  lua_pushlightuserdata(L, b);
  for (i = S_MSGH; i <= Z_THREADS; i++) {
    lua_pushvalue(Z, i);
    lua_xmove(Z, L, 1);
  }
  lua_call(L, 7, 0);
  if (density) b->fname = "logp";
  traced = traceobjective(L, said, b, 3);
  b->p = ol_problem_custom(n, lua_fdf, !b->hasgrad && !b->hasfdf && !traced,
                           b, NULL, &e);
  if (b->p == NULL) return luaL_error(L, "%s: %s", who, e.msg);
  if (ol_problem_set_kind(b->p, kind, &e) != OL_OK ||
      (b->hashess && ol_problem_set_hess(b->p, lua_hess, &e) != OL_OK) ||
      (!b->hashess && traced &&
       ol_problem_set_hess(b->p, lua_adhess, &e) != OL_OK))
    return seterror(L, who, &e);
  lua_getfield(L, 1, "name");
  if (ol_problem_set_name(b->p, lua_isnil(L, -1) ? "lua"
                          : luaL_tolstring(L, -1, NULL), &e) != OL_OK)
    return seterror(L, who, &e);
  if (lua_getfield(L, 1, "xstar") != LUA_TNIL) {
    double *xs = readbuf(L, -1, who, "xstar", n);
    if (ol_problem_set_xstar(b->p, xs, n, &e) != OL_OK)
      return seterror(L, who, &e);
  }
  if (lua_getfield(L, 1, "fstar") != LUA_TNIL) {
    if (!lua_isnumber(L, -1))
      return luaL_error(L, "%s: fstar must be a number", who);
    if (ol_problem_set_fstar(b->p, lua_tonumber(L, -1), &e) != OL_OK)
      return seterror(L, who, &e);
  }
  lua_settop(L, 2);
  /* a density takes x0 only of the generic keys, as the built-in ones */
  for (i = 0; kind == OL_DENSITY && i < 4; i++) {
    static const char *const other[] = {"noise", "set", "l1", "penalty"};
    if (lua_getfield(L, 1, other[i]) != LUA_TNIL)
      return luaL_error(L, "%s: %s does not apply to a density (kind = "
                        "\"density\" takes x0 only)", who, other[i]);
    lua_pop(L, 1);
  }
  generic(L, who, b->p);
  readconstraints(L, who, b);
  gradcheck_new(L, said, b);
  return 1;
}

/* The bound key of the argument table at 1 (a number for every
** coordinate, or a table of n numbers; -math.huge / math.huge: none) into
** a new buffer left on the stack; NULL (nothing pushed) when absent. */
static double *readbound (lua_State *L, const char *who, const char *key,
                          int n)
{
  double *v;
  int i, ty = lua_getfield(L, 1, key);
  if (ty == LUA_TNIL) {
    lua_pop(L, 1);
    return NULL;
  }
  if (ty != LUA_TNUMBER && ty != LUA_TTABLE)
    luaL_error(L, "%s: %s must be a number or a table of n = %d numbers, "
               "got a %s", who, key, n, luaL_typename(L, -1));
  v = lua_newuserdatauv(L, (size_t)n * sizeof *v, 0);
  if (ty == LUA_TNUMBER)
    for (i = 0; i < n; i++) v[i] = lua_tonumber(L, -2);
  else readvec(L, -2, who, key, v, n);
  lua_remove(L, -2);
  return v;
}


/* problem.workers(p, {n =, heterogeneity =, participation =, seed =}):
** split the finite sum of p among n workers (core: ol_problem_set_workers)
** and return p. */
static int problem_workers (lua_State *L)
{
  static const ol_param wp[] = {
    {"n", OL_P_INT, 10, 1, 1e8, "workers", NULL},
    {"heterogeneity", OL_P_REAL, 0, 0, 1, "0: components shuffled at "
     "random; 1: sorted by the pull of their gradients at x0", NULL},
    {"participation", OL_P_REAL, 1, OL_GT0, 1, "fraction of the workers "
     "in each round", NULL},
    {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the split",
     NULL},
  };
  const int np = (int)(sizeof wp / sizeof wp[0]);
  double v[4];
  lproblem *b = olua_checkproblem(L, 1);
  ol_err e;
  int k;
  for (k = 0; k < np; k++) v[k] = wp[k].def;
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING)
        return luaL_error(L, "problem.workers: option names must be "
                          "strings");
      k = ol_param_find(wp, np, lua_tostring(L, -2));
      if (k < 0)
        return olua_unknownparam(L, "problem.workers",
                                 lua_tostring(L, -2), wp, np);
      olua_readparam(L, -1, "problem.workers", &wp[k], &v[k]);
      lua_pop(L, 1);
    }
  }
  if (ol_problem_set_workers(b->p, (int)v[0], v[1], v[2], (uint64_t)v[3],
                             &e) != OL_OK)
    return luaL_error(L, "problem.%s", e.msg);   /* "workers: ..." */
  lua_settop(L, 1);
  return 1;
}

/* problem.density{n=, logp=, grad=, x0=, lower=, upper=, name=} -> a
** density from Lua functions with the sign users write: logp(x) returns
** log p(x) up to a constant, grad(x, g) fills g with grad log p (without
** it: central differences).  problem.new makes the problem from them, so
** its trampolines check what the callbacks hand back (the messages name
** logp and grad); ol_problem_density then wraps it into the potential U =
** -log p, with Stan's transforms for the bounds lower and upper (x0 is
** given on the constrained scale; p:constrain(u) maps back). */
static int problem_density (lua_State *L)
{
  static const char *const keys[] = {
    "n", "logp", "grad", "x0", "lower", "upper", "name", "ad", "params",
    NULL
  };
  static const char *const fk[] = {"logp", "grad"};
  const char *who = "problem.density";
  double *lo, *hi, *x0 = NULL;
  lproblem *b;
  ol_problem *q;
  ol_err e;
  int i, n;
  if (lua_istable(L, 1) && lua_getfield(L, 1, "params") != LUA_TNIL) {
    static const char *const pk[] = {"logp", "grad", NULL};
    return withparams(L, problem_density, who, pk);
  }
  /* (1) keys, n and the functions, in this constructor's words */
  n = userkeys(L, who, keys);
  for (i = 0; i < 2; i++) {
    int ty = lua_getfield(L, 1, fk[i]);
    if (ty == LUA_TNIL && i == 0)
      return luaL_error(L, "%s: needs logp (logp = function (x) return "
                        "log p(x) end)", who);
    if (ty != LUA_TNIL && ty != LUA_TFUNCTION
        && !luaL_getmetafield(L, -1, "__call"))
      return luaL_error(L, "%s: %s must be a function, got a %s", who, fk[i],
                        luaL_typename(L, -1));
  }
  lua_settop(L, 1);
  precheck(L, who, n);
  /* (2) problem.new{n =, f = logp, grad =, name =, kind = "density"} */
  lua_pushcfunction(L, problem_new);
  lua_createtable(L, 0, 5);
  lua_pushinteger(L, n);
  lua_setfield(L, -2, "n");
  lua_getfield(L, 1, "logp");
  lua_setfield(L, -2, "f");
  lua_getfield(L, 1, "grad");
  lua_setfield(L, -2, "grad");
  if (lua_getfield(L, 1, "name") == LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushliteral(L, "density");
  }
  lua_setfield(L, -2, "name");
  lua_pushliteral(L, "density");
  lua_setfield(L, -2, "kind");
  lua_getfield(L, 1, "ad");
  lua_setfield(L, -2, "ad");
  lua_getfield(L, 1, "x0");                  /* the trace point: x0 */
  lua_setfield(L, -2, "x0");
  lua_pushboolean(L, 1);                     /* taken by problem_new */
  lua_setfield(L, LUA_REGISTRYINDEX, DENSITYCALL);
  lua_call(L, 1, 1);                                   /* index 2: box */
  b = lua_touserdata(L, 2);
  b->fname = "logp";
  if (b->ad != NULL) b->ad->fname = "logp";
  /* (3) bounds and start on the constrained scale; the wrapped density */
  lo = readbound(L, who, "lower", n);
  hi = readbound(L, who, "upper", n);
  if (lua_getfield(L, 1, "x0") != LUA_TNIL) {
    x0 = lua_newuserdatauv(L, (size_t)n * sizeof *x0, 0);
    readvec(L, -2, who, "x0", x0, n);
  }
  if ((q = ol_problem_density(b->p, lo, hi, x0, &e)) == NULL)
    return luaL_error(L, "%s: %s", who, e.msg);
  b->p = q;
  lua_settop(L, 2);
  return 1;
}

/* == user finite sums (issue 27) ==========================================
** problem.finitesum{n =, m =, fi = function (i, x, g) ... end, x0 =,
** xstar =, fstar =, name =, noise =, set =, l1 =}: f = (1/m) sum_i f_i,
** fi(i, x, g) returning f_i(x) (i = 1..m) and, when g is not nil, filling
** g[1..n] with grad f_i(x) in place.  fi sits in the callback threads'
** fdf slot and is called there as fdf is (fi_at), with the same checks of
** what it hands back; an error in it is reported with the component's
** index before the message and traceback. */
static int fi_at (lproblem *b, lua_State *T, long i, const double *x,
                  double *f, double *g, ol_err *e)
{
  int j, n = b->n, st;
  char name[40];
  for (j = 0; j < n; j++) {
    lua_pushnumber(T, x[j]);
    lua_rawseti(T, S_X, j + 1);
  }
  if (g != NULL) tclear(T, S_G, n);
  lua_pushvalue(T, S_FDF);
  lua_pushinteger(T, (lua_Integer)i + 1);
  lua_pushvalue(T, S_X);
  if (g != NULL) lua_pushvalue(T, S_G);
  else lua_pushnil(T);
  snprintf(name, sizeof name, "fi(%ld, x, g)", i + 1);
  if ((st = tcall(T, 3, e)) != OL_OK) {
    char msg[sizeof e->msg];
    memcpy(msg, e->msg, sizeof msg);
    snprintf(e->msg, sizeof e->msg, "component i = %ld: %.*s", i + 1,
             (int)sizeof msg - 40, msg);
    return st;
  }
  if (f != NULL && (st = tvalue(T, name, f, e)) != OL_OK) return st;
  if (g != NULL) return tgrad(T, name, 0, n, g, e);
  lua_settop(T, S_TOP);
  return OL_OK;
}

/* The component oracle of a Lua finite sum: ud is its box. */
static int lua_fdfi (void *ud, long i, const double *x, double *f, double *g,
                     ol_err *e)
{
  lproblem *b = ud;
  lua_State *T = tenter(b, e), *prev = b->S->cb;
  int st;
  if (T == NULL) return OL_ECALLBACK;
  b->S->cb = T;
  st = fi_at(b, T, i, x, f, g, e);
  b->S->cb = prev;
  if (--b->depth == 0) b->overflow = 0;
  return st;
}

static int problem_finitesum (lua_State *L)
{
  static const char *const keys[] = {
    "n", "m", "fi", "x0", "xstar", "fstar", "name", "noise", "set", "l1",
    "penalty", NULL
  };
  const char *who = "problem.finitesum";
  lproblem *b;
  lua_State *Z;
  ol_err e;
  lua_Integer m;
  int n, i, isint;
  n = userkeys(L, who, keys);
  lua_settop(L, 1);
  if (lua_getfield(L, 1, "m") != LUA_TNUMBER)
    return luaL_error(L, "%s: m (the number of components) must be a "
                      "positive integer, got %s", who, lua_isnil(L, -1)
                      ? "nothing" : luaL_typename(L, -1));
  m = lua_tointegerx(L, -1, &isint);
  if (!isint || m < 1 || m > 1000000000)
    return luaL_error(L, "%s: m = %s must be an integer in [1, 1000000000]",
                      who, luaL_tolstring(L, -1, NULL));
  if (lua_getfield(L, 1, "fi") != LUA_TFUNCTION)
    return luaL_error(L, "%s: fi must be a function (i, x, g) returning "
                      "f_i(x) and filling g with its gradient, got %s", who,
                      lua_isnil(L, -1) ? "nothing" : luaL_typename(L, -1));
  lua_settop(L, 1);
  precheck(L, who, n);
  b = newbox(L);                                       /* index 2 */
  lua_newtable(L);                                     /* index 3 */
  lua_pushvalue(L, 3);
  lua_setiuservalue(L, 2, 1);
  Z = lua_newthread(L);                                /* index 4 */
  lua_rawseti(L, 3, 0);
  if (!lua_checkstack(Z, 16))
    return luaL_error(L, "%s: out of memory", who);
  lua_pushcfunction(Z, olua_msghandler);               /* S_MSGH */
  lua_pushnil(Z);                                      /* S_F */
  lua_pushnil(Z);                                      /* S_GRAD */
  lua_getfield(L, 1, "fi");
  lua_xmove(L, Z, 1);                                  /* S_FDF: fi */
  lua_pushnil(Z);                                      /* S_HESS */
  lua_pushvalue(L, 3);
  lua_xmove(L, Z, 1);                                  /* Z_THREADS */
  b->Z = Z;
  b->n = n;
  lua_pushcfunction(L, mkthread);                      /* T[0] */
  lua_pushlightuserdata(L, b);
  for (i = S_MSGH; i <= Z_THREADS; i++) {
    lua_pushvalue(Z, i);
    lua_xmove(Z, L, 1);
  }
  lua_call(L, 7, 0);
  b->p = ol_problem_finitesum(n, (long)m, lua_fdfi, b, NULL, &e);
  if (b->p == NULL) return seterror(L, who, &e);
  if (lua_getfield(L, 1, "name") != LUA_TNIL &&
      ol_problem_set_name(b->p, luaL_tolstring(L, -1, NULL), &e) != OL_OK)
    return seterror(L, who, &e);
  lua_settop(L, 2);
  if (lua_getfield(L, 1, "xstar") != LUA_TNIL) {
    double *xs = readbuf(L, -1, who, "xstar", n);
    if (ol_problem_set_xstar(b->p, xs, n, &e) != OL_OK)
      return seterror(L, who, &e);
  }
  if (lua_getfield(L, 1, "fstar") != LUA_TNIL &&
      ol_problem_set_fstar(b->p, lua_tonumber(L, -1), &e) != OL_OK)
    return seterror(L, who, &e);
  lua_settop(L, 2);
  generic(L, who, b->p);
  return 1;
}

/* problem.efg{root = ..., name = ..., value = ...}: a user's
** extensive-form game (issue 27; the table's form and checks in
** lua/lefg.c, the tree in core/problems/efg.c). */
static int problem_efg (lua_State *L)
{
  const char *who = "problem.efg";
  lproblem *b;
  ol_err e;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  b = newbox(L);                                       /* index 2 */
  if ((b->p = olua_efg_new(L, 1, who, &e)) == NULL)
    return seterror(L, who, &e);
  b->n = b->p->n;
  lua_settop(L, 2);
  return 1;
}

/* p:constrain(u) -> x = T(u), the problem's transform (ol_problem_constrain:
** bounds, a non-centred parametrisation), or a copy of u without one. */
static int problem_constrain (lua_State *L)
{
  lproblem *b = olua_checkproblem(L, 1);
  int n = b->p->n, len;
  double *u = olua_checkarray(L, 2, "problem:constrain", "u", &len), *x;
  if (len != n)
    return luaL_error(L, "problem:constrain: u has %d entries, expected n = "
                      "%d", len, n);
  x = lua_newuserdatauv(L, (size_t)n * sizeof *x, 0);
  ol_problem_constrain(b->p, u, x);
  olua_pushvec(L, x, n);
  return 1;
}

/* p:unconstrain(x) -> u, the inverse; raises when x is outside the
** support (a bound). */
static int problem_unconstrain (lua_State *L)
{
  lproblem *b = olua_checkproblem(L, 1);
  int n = b->p->n, len;
  double *x = olua_checkarray(L, 2, "problem:unconstrain", "x", &len), *u;
  ol_err e;
  if (len != n)
    return luaL_error(L, "problem:unconstrain: x has %d entries, expected n "
                      "= %d", len, n);
  u = lua_newuserdatauv(L, (size_t)n * sizeof *u, 0);
  if (ol_problem_unconstrain(b->p, x, u, &e) != OL_OK)
    return luaL_error(L, "problem:unconstrain: %s", e.msg);
  olua_pushvec(L, u, n);
  return 1;
}

/* p:close() and __close: mark closed; the ol_problem goes with its
** last use (olua_problem_unref), at once when there is none and no
** callback of it is running (one may close its problem while the core
** evaluates it, before a run holds a use: ol_run_new at x0, aniso noise
** at construction).  A second close does nothing. */
static int problem_close (lua_State *L)
{
  lproblem *b = luaL_checkudata(L, 1, OLUA_PROBLEM);
  if (b->closed) return 0;
  b->closed = 1;
  b->refs++;
  olua_problem_unref(b);
  return 0;
}

/* __gc: nothing runs the problem's callbacks any more (they would hold
** the box); free it unless runs still use it (collected with it, they
** free it with their last give-back). */
static int problem_gc (lua_State *L)
{
  lproblem *b = luaL_checkudata(L, 1, OLUA_PROBLEM);
  b->closed = 1;
  if (b->refs == 0) {
    ol_problem_free(b->p);
    b->p = NULL;
  }
  return 0;
}


static const char *const kindname[] = {"objective", "density", "game"};

/* p:eval(x) -> f, g (table): the true oracle at x.  Oracle failures
** return nil, message. */
static int problem_eval (lua_State *L)
{
  lproblem *b = olua_checkproblem(L, 1);
  int n = b->p->n, len;
  double *x = olua_checkarray(L, 2, "problem:eval", "x", &len), f;
  double *g = lua_newuserdatauv(L, 2 * (size_t)n * sizeof(double), 0);
  ol_err e;
  int st;
  if (len != n)
    return luaL_error(L, "problem:eval: x has %d entries, expected n = %d",
                      len, n);
  olua_problem_adverify(L, b);        /* f changed since its trace? */
  /* a use for the call: f may close the problem */
  olua_problem_ref(b);
  st = ol_problem_eval(b->p, x, &f, g, g + n, &e);
  olua_problem_unref(b);
  if (st != OL_OK && b->overflow) return overflowerror(L);
  if (st != OL_OK) {
    lua_pushnil(L);
    lua_pushstring(L, e.msg);
    return 2;
  }
  lua_pushnumber(L, f);
  olua_pushvec(L, g, n);
  return 2;
}

/* p.noise: nil, or {kind=, sigma=, nu=, batch=, order=, sigma0=,
** sigma1=} with the fields that kind uses. */
static void pushnoise (lua_State *L, const ol_noise *nz)
{
  static const char *const kinds[] = {"none", "gauss", "aniso", "student",
                                      "asym", "affine", "batch"};
  static const char *const orders[] = {"replace", "shuffle", "once",
                                       "cyclic", "grab"};
  if (nz->kind <= OL_NOISE_NONE || nz->kind > OL_NOISE_BATCH) {
    lua_pushnil(L);
    return;
  }
  lua_newtable(L);
  lua_pushstring(L, kinds[nz->kind]);
  lua_setfield(L, -2, "kind");
  if (nz->kind == OL_NOISE_AFFINE) {
    lua_pushnumber(L, nz->sigma);
    lua_setfield(L, -2, "sigma0");
    lua_pushnumber(L, nz->sigma1);
    lua_setfield(L, -2, "sigma1");
  }
  else if (nz->kind != OL_NOISE_BATCH) {
    lua_pushnumber(L, nz->sigma);
    lua_setfield(L, -2, "sigma");
  }
  if (nz->kind == OL_NOISE_STUDENT) {
    lua_pushnumber(L, nz->nu);
    lua_setfield(L, -2, "nu");
  }
  if (nz->kind == OL_NOISE_ANISO || nz->kind == OL_NOISE_BATCH) {
    lua_pushinteger(L, nz->batch);
    lua_setfield(L, -2, "batch");
  }
  if (nz->kind == OL_NOISE_BATCH && nz->order >= OL_ORDER_REPLACE &&
      nz->order <= OL_ORDER_GRAB) {
    lua_pushstring(L, orders[nz->order]);
    lua_setfield(L, -2, "order");
  }
}

/* p.n, p.name, p.kind, p.desc, p.x0, p.xstar, p.fstar (nil if unknown),
** p.equilibria (a game's known equilibria, joint strategies; {} when none
** is known), p.degenerate (a bimatrix game: true when the computed list
** may miss continua of equilibria, nasheq.c), p.workers (the split: n, heterogeneity, participation, sizes;
** nil when none), p.l1, p.penalty ({kind =, a =}), p.noise, and the
** methods. */
static int problem_index (lua_State *L)
{
  const char *k = luaL_checkstring(L, 2);
  lproblem *b;
  const ol_problem *p;
  char buf[160];
  if (strcmp(k, "close") == 0) {       /* a second close is harmless */
    lua_pushcfunction(L, problem_close);
    return 1;
  }
  b = olua_checkproblem(L, 1);
  p = b->p;
  if (strcmp(k, "n") == 0) lua_pushinteger(L, p->n);
  else if (strcmp(k, "name") == 0) lua_pushstring(L, p->name);
  else if (strcmp(k, "kind") == 0)
    lua_pushstring(L, p->kind >= 0 && p->kind <= OL_GAME ? kindname[p->kind]
                                                         : "?");
  else if (strcmp(k, "desc") == 0)
    lua_pushstring(L, olua_problemdesc(p, buf, sizeof buf));
  else if (strcmp(k, "x0") == 0) olua_pushvec(L, p->x0, p->n);
  else if (strcmp(k, "xstar") == 0) {
    if (p->xstar != NULL) olua_pushvec(L, p->xstar, p->n);
    else lua_pushnil(L);
  }
  else if (strcmp(k, "fstar") == 0) {
    if (isnan(p->fstar)) lua_pushnil(L);
    else lua_pushnumber(L, p->fstar);
  }
  else if (strcmp(k, "equilibria") == 0 && p->kind == OL_GAME) {
    const double *eq;
    int neq = ol_game_equilibria(p, &eq), q;
    lua_createtable(L, neq, 0);
    for (q = 0; q < neq; q++) {
      olua_pushvec(L, eq + (size_t)q * p->n, p->n);
      lua_rawseti(L, -2, q + 1);
    }
  }
  else if (strcmp(k, "degenerate") == 0 && ol_game_of(p) != NULL)
    lua_pushboolean(L, ol_game_of(p)->degenerate);
  else if (strcmp(k, "workers") == 0 && p->workers.n > 0) {
    int w;
    lua_createtable(L, 0, 4);
    lua_pushinteger(L, p->workers.n);
    lua_setfield(L, -2, "n");
    lua_pushnumber(L, p->workers.heterogeneity);
    lua_setfield(L, -2, "heterogeneity");
    lua_pushnumber(L, p->workers.participation);
    lua_setfield(L, -2, "participation");
    lua_createtable(L, p->workers.n, 0);
    for (w = 0; w < p->workers.n; w++) {
      lua_pushinteger(L, p->workers.start[w + 1] - p->workers.start[w]);
      lua_rawseti(L, -2, w + 1);
    }
    lua_setfield(L, -2, "sizes");
  }
  else if (strcmp(k, "l1") == 0) lua_pushnumber(L, p->l1);
  else if (strcmp(k, "penalty") == 0) {
    const ol_penalty *pk = ol_penalty_of(p);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, pk->name);
    lua_setfield(L, -2, "kind");
    if (pk->adef != 0) {
      lua_pushnumber(L, p->pen_a);
      lua_setfield(L, -2, "a");
    }
  }
  else if (strcmp(k, "ad") == 0 && (b->ad != NULL || b->gck != NULL ||
                                     b->cad != NULL))
    pushadinfo(L, b);
  else if (strcmp(k, "noise") == 0) pushnoise(L, &p->noise);
  else if (strcmp(k, "eval") == 0) lua_pushcfunction(L, problem_eval);
  else if (strcmp(k, "constrain") == 0)
    lua_pushcfunction(L, problem_constrain);
  else if (strcmp(k, "unconstrain") == 0)
    lua_pushcfunction(L, problem_unconstrain);
  else if (strcmp(k, "names") == 0 && p->names != NULL) {   /* params= */
    int j;
    lua_createtable(L, p->n, 0);
    for (j = 0; j < p->n; j++) {
      lua_pushstring(L, p->names[j]);
      lua_rawseti(L, -2, j + 1);
    }
  }
  else lua_pushnil(L);
  return 1;
}

static int problem_tostring (lua_State *L)
{
  lproblem *b = luaL_checkudata(L, 1, OLUA_PROBLEM);
  char buf[160];
  if (b->p == NULL) lua_pushliteral(L, "problem (closed)");
  else if (b->closed)
    lua_pushfstring(L, "%s (closed)", olua_problemdesc(b->p, buf, sizeof buf));
  else lua_pushstring(L, olua_problemdesc(b->p, buf, sizeof buf));
  return 1;
}

static const luaL_Reg problem_meta[] = {
  {"__index", problem_index},
  {"__gc", problem_gc},
  {"__close", problem_close},
  {"__tostring", problem_tostring},
  {NULL, NULL}
};

/* Global 'problem' with one constructor per registered type plus new;
** core.problems (info list) and core.ctors entries.  Core on top. */
void olua_openproblem (lua_State *L)
{
  int core = lua_gettop(L), i;
  luaL_newmetatable(L, OLUA_PROBLEM);
  luaL_setfuncs(L, problem_meta, 0);
  lua_newtable(L);                     /* __fields, for REPL completion */
  for (i = 0; i < 5; i++) {
    static const char *const f[] = {"n", "name", "kind", "desc", "fstar"};
    lua_pushinteger(L, 0);
    lua_setfield(L, -2, f[i]);
  }
  lua_newtable(L);
  lua_setfield(L, -2, "x0");
  lua_newtable(L);
  lua_setfield(L, -2, "xstar");
  lua_pushcfunction(L, problem_eval);
  lua_setfield(L, -2, "eval");
  lua_pushcfunction(L, problem_close);
  lua_setfield(L, -2, "close");
  lua_pushcfunction(L, problem_constrain);
  lua_setfield(L, -2, "constrain");
  lua_pushcfunction(L, problem_unconstrain);
  lua_setfield(L, -2, "unconstrain");
  lua_setfield(L, -2, "__fields");
  lua_pop(L, 1);
  lua_newtable(L);                               /* problem */
  lua_newtable(L);                               /* core.problems */
  lua_getfield(L, core, "ctors");
  for (i = 0; ol_problem_types[i] != NULL; i++) {
    const ol_problem_type *t = ol_problem_types[i];
    lua_pushlightuserdata(L, (void *)t);
    lua_pushcclosure(L, problem_make, 1);
    olua_pushinfo(L, t->name, "problem", t->doc, t->ref, t->params,
                  t->nparams);
    lua_pushstring(L, kindname[t->kind >= 0 && t->kind <= OL_GAME ? t->kind
                                                                 : 0]);
    lua_setfield(L, -2, "kind");
    {
      const char *const *g = generickeys(t->kind);
      int k;
      lua_newtable(L);                 /* the generic keys that apply */
      for (k = 0; g[k] != NULL; k++) {
        lua_pushstring(L, g[k]);
        lua_rawseti(L, -2, k + 1);
      }
      lua_setfield(L, -2, "generic");
    }
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "ctor");
    lua_pushvalue(L, -1);
    lua_rawseti(L, core + 2, i + 1);
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, core + 3);                     /* ctors[fn] = info */
    lua_setfield(L, core + 1, t->name);
  }
  lua_pushcfunction(L, problem_new);
  lua_pushvalue(L, -1);
  lua_setfield(L, core + 1, "new");
  lua_pushliteral(L, "problem.new");
  lua_rawset(L, core + 3);
  lua_pushcfunction(L, problem_density);
  lua_pushvalue(L, -1);
  lua_setfield(L, core + 1, "density");
  lua_pushliteral(L, "problem.density");
  lua_rawset(L, core + 3);
  lua_pushcfunction(L, problem_finitesum);
  lua_pushvalue(L, -1);
  lua_setfield(L, core + 1, "finitesum");
  lua_pushliteral(L, "problem.finitesum");
  lua_rawset(L, core + 3);
  lua_pushcfunction(L, problem_efg);
  lua_pushvalue(L, -1);
  lua_setfield(L, core + 1, "efg");
  lua_pushliteral(L, "problem.efg");
  lua_rawset(L, core + 3);
  lua_pushcfunction(L, problem_workers);
  lua_pushvalue(L, -1);
  lua_setfield(L, core + 1, "workers");
  lua_pushliteral(L, "problem.workers");
  lua_rawset(L, core + 3);
  lua_pop(L, 1);
  lua_setfield(L, core, "problems");
  lua_setglobal(L, "problem");
}
