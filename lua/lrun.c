/*
** lua/lrun.c -- run(problem, method, opts), race(problem, methods, opts)
** and run objects ("optlab.run").
**
** A run object owns one ol_run and keeps its problem and method objects
** alive (user values 1 and 2).  run and race build the run objects and
** hand them to the one experiment driver (olua_exp_drive, lua/lexp.c),
** which steps them in lock-step with the live view or progress lines, and
** polls Ctrl-C; once stepping starts nothing raises.  The options speed
** and paused (olua_readpace) set the view's pacing.
*/
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lexp.h"
#include "ltask.h"
#include "lprint.h"
#include "plotpanel.h"
#include "runpack.h"
#include "problems/game.h"
#include "problems/kuhn.h"

static const char *const optkeys[] = {
  "iters", "tol", "time", "seed", "stream", "x0", "metrics", "watch", "cap",
  "record_x", "schedule", "progress", "view", "xaxis", "xlog", "average",
  "f_abstol", "f_reltol", "x_abstol", "x_reltol", "xlimit", "flimit",
  "stop_below", "chains", "warmup", "max_draws", "speed", "paused",
  "samples", "changes", NULL
};


lrun *olua_checkrun (lua_State *L, int arg)
{
  lrun *b = luaL_checkudata(L, arg, OLUA_RUN);
  if (b->r == NULL) luaL_error(L, "attempt to use a closed run");
  olua_ad_notraced(L, "a run");
  return b;
}

void olua_checkhistory (lua_State *L, const ol_run *r, const char *who)
{
  if (ol_run_remote(r))
    luaL_error(L, "%s: this run's history is on rank 0 (under mpirun the "
               "other ranks keep each task's summary: x, the stop reason, "
               "the counts, the last and smallest value of each metric, "
               "the draws); read it on rank 0 (if optlab.rank == 0 then "
               "... end), or send every rank the histories "
               "(OPTLAB_MPI_HISTORIES=all)", who);
}

/* Raise "<who>: unknown metric 'name' (valid: ...)" for every metric. */
static int unknownmetric (lua_State *L, const char *who, const char *name)
{
  const char *names[OL_NMETRICS + 1];
  int i, k = 0;
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_metric_defined(i)) names[k++] = ol_metric_types[i]->name;
  names[k] = NULL;
  return olua_unknownkey(L, who, "metric", name, names);
}

/* A list of metric names at idx -> bit set; ids in order into ids (may be
** NULL), count in *nids.  With ids (watch lists) the panel names
** "landscape" and "simplex" are accepted too (ids PN_LANDSCAPE, PN_SIMPLEX,
** no bit). */
static ol_mset readmetrics (lua_State *L, int idx, const char *who,
                             const char *key, int *ids, int *nids)
{
  ol_mset bits = OL_MSET_NONE;
  lua_Integer i, n;
  int k = 0, j;
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: %s must be a list of metric names, got a %s", who,
               key, luaL_typename(L, idx));
  n = (lua_Integer)lua_rawlen(L, idx);
  for (i = 1; i <= n; i++) {
    int m;
    lua_rawgeti(L, idx, i);
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "%s: %s[%d] must be a metric name", who, key, (int)i);
    m = ids != NULL ? pn_find(lua_tostring(L, -1))
                    : ol_metric_find(lua_tostring(L, -1));
    if (m < 0 && ids != NULL) {
      const char *names[PN_NKINDS + 1];
      int nn = 0;
      for (j = 0; j < PN_NKINDS; j++)
        if (j >= OL_NMETRICS || ol_metric_defined(j)) names[nn++] = pn_name(j);
      names[nn] = NULL;
      olua_unknownkey(L, who, "metric or panel", lua_tostring(L, -1), names);
    }
    if (m < 0) unknownmetric(L, who, lua_tostring(L, -1));
    if (m >= OL_NMETRICS) {
      for (j = 0; j < k && ids[j] != m; j++) {}
      if (j == k && k < OL_NMETRICS) ids[k++] = m;
      lua_pop(L, 1);
      continue;
    }
    if (!ol_mset_has(bits, m) && ids != NULL && k < OL_NMETRICS) ids[k++] = m;
    ol_mset_add(&bits, m);
    lua_pop(L, 1);
  }
  if (nids != NULL) *nids = k;
  return bits;
}

static lua_Integer getint (lua_State *L, int idx, const char *who,
                           const char *key, lua_Integer lo)
{
  int isint;
  lua_Integer v = lua_tointegerx(L, idx, &isint);
  if (lua_type(L, idx) != LUA_TNUMBER)
    luaL_error(L, "%s: %s must be an integer, got a %s", who, key,
               luaL_typename(L, idx));
  if (!isint)
    luaL_error(L, "%s: %s must be an integer, got %s", who, key,
               luaL_tolstring(L, idx, NULL));
  if (v < lo)
    luaL_error(L, "%s: %s = %I is out of range [%I, inf]", who, key, v, lo);
  return v;
}

static double getnum (lua_State *L, int idx, const char *who,
                      const char *key)
{
  double v;
  if (lua_type(L, idx) != LUA_TNUMBER)
    luaL_error(L, "%s: %s must be a number, got a %s", who, key,
               luaL_typename(L, idx));
  v = lua_tonumber(L, idx);
  if (!(v >= 0))
    luaL_error(L, "%s: %s = %f is out of range [0, inf]", who, key, v);
  return v;
}

/* schedule = {kind = "step", gamma = 0.5, period = 100}. */
static void readsched (lua_State *L, int idx, const char *who, ol_sched *s)
{
  static const char *const kinds[] = {
    "const", "step", "inv", "invsqrt", "cosine", "warmup", NULL
  };
  static const char *const keys[] = {"kind", "gamma", "period", NULL};
  int i;
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: schedule must be a table {kind=, gamma=, period=}",
               who);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                   : "?";
    for (i = 0; keys[i] != NULL && strcmp(keys[i], k) != 0; i++) {}
    if (keys[i] == NULL)
      olua_unknownkey(L, "run: schedule", "key", k, keys);
    lua_pop(L, 1);
  }
  s->kind = OL_SCHED_CONST;
  s->gamma = 0.5;
  s->period = 100;
  if (lua_getfield(L, idx, "kind") != LUA_TNIL) {
    const char *k = lua_tostring(L, -1);
    for (i = 0; kinds[i] != NULL && (k == NULL || strcmp(kinds[i], k)); i++) {}
    if (kinds[i] == NULL)
      olua_unknownkey(L, "run: schedule", "kind", k ? k : "?", kinds);
    s->kind = i;
  }
  if (lua_getfield(L, idx, "gamma") != LUA_TNIL) {
    s->gamma = getnum(L, -1, who, "schedule.gamma");
    if (!(s->gamma > 0 && s->gamma <= 1))
      luaL_error(L, "%s: schedule.gamma = %f is out of range (0, 1]", who,
                 s->gamma);
  }
  if (lua_getfield(L, idx, "period") != LUA_TNIL)
    s->period = (long)getint(L, -1, who, "schedule.period", 1);
  lua_pop(L, 3);
}

/* The changes option at idx: a list of {iter = t, param = name, value = v}
** (the shape of r.changes), iter nondecreasing -> ro->chg, a buffer left
** on the stack.  Names are resolved per method by olua_mkrun, which
** leaves liveness and ranges to the core (ol_run_new). */
static void readchanges (lua_State *L, int idx, const char *who, ropts *ro)
{
  static const char *const keys[] = {"iter", "param", "value", NULL};
  lua_Integer n, i;
  olua_chg *c;
  char w[96];
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: changes must be a list of {iter = t, param = name, "
               "value = v} (as r.changes), got a %s", who,
               luaL_typename(L, idx));
  n = (lua_Integer)lua_rawlen(L, idx);
  if (n > (1 << 24))
    luaL_error(L, "%s: changes has %I entries, at most %d", who, n, 1 << 24);
  c = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *c, 0);
  for (i = 1; i <= n; i++) {
    int e = lua_gettop(L) + 1, isint;
    lua_Integer t;
    size_t len;
    const char *name;
    snprintf(w, sizeof w, "%s: changes[%lld]", who, (long long)i);
    if (lua_rawgeti(L, idx, i) != LUA_TTABLE)
      luaL_error(L, "%s is a %s, expected a table {iter = t, param = name, "
                 "value = v}", w, luaL_typename(L, e));
    lua_pushnil(L);
    while (lua_next(L, e) != 0) {
      const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                     : "?";
      int j;
      for (j = 0; keys[j] != NULL && strcmp(keys[j], k) != 0; j++) {}
      if (keys[j] == NULL) olua_unknownkey(L, w, "key", k, keys);
      lua_pop(L, 1);
    }
    /* a number only (lua_tointegerx alone would take "10") */
    t = lua_getfield(L, e, "iter") == LUA_TNUMBER
      ? lua_tointegerx(L, -1, &isint) : (isint = 0);
    if (!isint || t < 0 || t > OL_RUN_MAXITERS)
      luaL_error(L, "%s.iter must be an integer in [0, 2^62] (the steps "
                 "done when the change took effect), got %s", w,
                 lua_isnil(L, -1) ? "nothing" : luaL_tolstring(L, -1, NULL));
    if (i > 1 && (long)t < c[i - 2].t)
      luaL_error(L, "%s.iter = %I comes before changes[%I].iter = %I (the "
                 "list is in time order)", w, t, i - 1,
                 (lua_Integer)c[i - 2].t);
    if (lua_getfield(L, e, "param") != LUA_TSTRING)
      luaL_error(L, "%s.param must be a parameter name (a string), got %s",
                 w, lua_isnil(L, -1) ? "nothing"
                 : lua_pushfstring(L, "a %s", luaL_typename(L, -1)));
    name = lua_tolstring(L, -1, &len);
    if (len >= sizeof c->name || strlen(name) != len)
      luaL_error(L, "%s.param is no parameter name ('%s')", w, name);
    if (lua_getfield(L, e, "value") != LUA_TNUMBER)
      luaL_error(L, "%s.value must be a number, got %s", w,
                 lua_isnil(L, -1) ? "nothing"
                 : lua_pushfstring(L, "a %s", luaL_typename(L, -1)));
    c[i - 1].t = (long)t;
    c[i - 1].v = lua_tonumber(L, -1);
    memcpy(c[i - 1].name, name, len + 1);
    lua_settop(L, e - 1);
  }
  ro->chg = c;
  ro->nchg = (int)n;
}

void olua_readlim (lua_State *L, int idx, const char *who,
                   const char *prefix, const char *key, double *lim)
{
  int t = lua_getfield(L, idx, key), i;
  lim[0] = lim[1] = NAN;
  if (t != LUA_TNIL) {
    int ok = t == LUA_TTABLE && luaL_len(L, -1) == 2;
    for (i = 0; ok && i < 2; i++) {
      ok = lua_geti(L, -1, i + 1) == LUA_TNUMBER;
      if (ok) lim[i] = lua_tonumber(L, -1);
      lua_pop(L, 1);
    }
    if (!ok || !isfinite(lim[0]) || !isfinite(lim[1]) || !(lim[0] < lim[1]))
      luaL_error(L, "%s: %s%s must be {lo, hi}, two finite numbers with "
                 "lo < hi (the landscape's %s range)", who, prefix, key,
                 key[0] == 'x' ? "x1" : "x2");
  }
  lua_pop(L, 1);
}

/* The view option at idx (not nil) into ro->useview: false (no live
** view), true or "keep" (the last frame stays after the view), "clear";
** or a table {xlim = {a, b}, ylim = {c, d}}: a live view (its last frame
** kept) whose landscape keeps that window (a limit left out: that axis
** follows the runs).  Anything else raises naming the values. */
static void readview (lua_State *L, int idx, const char *who, ropts *ro)
{
  static const char *const modes[] = {"keep", "clear", NULL};
  static const char *const viewkeys[] = {"xlim", "ylim", NULL};
  int i;
  if (lua_type(L, idx) == LUA_TSTRING) {
    const char *v = lua_tostring(L, idx);
    if (strcmp(v, modes[0]) == 0) ro->useview = OLUA_VIEW_KEEP;
    else if (strcmp(v, modes[1]) == 0) ro->useview = OLUA_VIEW_CLEAR;
    else olua_unknownkey(L, who, "view mode", v, modes);
    return;
  }
  if (lua_isboolean(L, idx)) {
    ro->useview = lua_toboolean(L, idx) ? OLUA_VIEW_KEEP : OLUA_VIEW_NONE;
    return;
  }
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: view must be \"keep\", \"clear\", a boolean or "
               "{xlim = {a, b}, ylim = {c, d}}, got a %s", who,
               luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                   : "?";
    for (i = 0; viewkeys[i] != NULL && strcmp(viewkeys[i], k) != 0; i++) {}
    if (viewkeys[i] == NULL) olua_unknownkey(L, who, "view key", k, viewkeys);
    lua_pop(L, 1);
  }
  olua_readlim(L, idx, who, "view.", "xlim", ro->win);
  olua_readlim(L, idx, who, "view.", "ylim", ro->win + 2);
  ro->useview = OLUA_VIEW_KEEP;
  ro->haswin = 1;
}

/* Parse the options table at idx (may be none/nil).  Leaves buffers (x0,
** changes) on the stack: callers must not rely on the stack top
** afterwards. */
void olua_readopts (lua_State *L, int idx, const char *who, ropts *ro)
{
  int i;
  memset(ro, 0, sizeof *ro);
  ol_run_opts_default(&ro->o);
  ro->o.record_x = -1;                 /* auto, decided by mkrun */
  ro->useview = OLUA_VIEW_KEEP;
  ro->progress = 1;
  ro->chains = 1;
  ro->warmup = -1;                     /* the sampler's own */
  ro->maxdraws = 100000;
  if (lua_isnoneornil(L, idx)) return;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: options must be a table, got a %s", who,
               luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                   : "?";
    for (i = 0; optkeys[i] != NULL && strcmp(optkeys[i], k) != 0; i++) {}
    if (optkeys[i] == NULL) olua_unknownkey(L, who, "option", k, optkeys);
    lua_pop(L, 1);
  }
  if (lua_getfield(L, idx, "iters") != LUA_TNIL) {
    ro->o.iters = (long)getint(L, -1, who, "iters", 0);
    ro->iters_given = 1;
  }
  if (lua_getfield(L, idx, "tol") != LUA_TNIL)
    ro->o.tol = getnum(L, -1, who, "tol");
  if (lua_getfield(L, idx, "time") != LUA_TNIL)
    ro->o.time_limit = getnum(L, -1, who, "time");
  if (lua_getfield(L, idx, "seed") != LUA_TNIL)
    ro->o.seed = (uint64_t)getint(L, -1, who, "seed", 0);
  if (lua_getfield(L, idx, "stream") != LUA_TNIL)
    ro->o.stream = (uint64_t)getint(L, -1, who, "stream", 0);
  if (lua_getfield(L, idx, "cap") != LUA_TNIL)
    ro->o.cap = (int)getint(L, -1, who, "cap", 16);
  if (lua_getfield(L, idx, "record_x") != LUA_TNIL)
    ro->o.record_x = lua_toboolean(L, -1);
  if (lua_getfield(L, idx, "progress") != LUA_TNIL)
    ro->progress = lua_toboolean(L, -1);
  if (lua_getfield(L, idx, "view") != LUA_TNIL)
    readview(L, lua_gettop(L), who, ro);
  lua_pop(L, 9);
  if (lua_getfield(L, idx, "metrics") != LUA_TNIL)
    ro->metrics = readmetrics(L, lua_gettop(L), who, "metrics", NULL, NULL);
  if (lua_getfield(L, idx, "watch") != LUA_TNIL)
    ro->watchbits = readmetrics(L, lua_gettop(L), who, "watch", ro->watch,
                                &ro->nwatch);
  if (lua_getfield(L, idx, "schedule") != LUA_TNIL)
    readsched(L, lua_gettop(L), who, &ro->o.sched);
  lua_pop(L, 3);
  {
    static const char *const tols[] = {"f_abstol", "f_reltol", "x_abstol",
                                       "x_reltol", "xlimit", "flimit"};
    double *dst[6];
    dst[0] = &ro->o.f_abstol;
    dst[1] = &ro->o.f_reltol;
    dst[2] = &ro->o.x_abstol;
    dst[3] = &ro->o.x_reltol;
    dst[4] = &ro->o.xlimit;
    dst[5] = &ro->o.flimit;
    for (i = 0; i < 6; i++) {
      if (lua_getfield(L, idx, tols[i]) != LUA_TNIL)
        *dst[i] = getnum(L, -1, who, tols[i]);
      lua_pop(L, 1);
    }
  }
  if (lua_getfield(L, idx, "chains") != LUA_TNIL)
    ro->chains = (int)getint(L, -1, who, "chains", 1);
  if (ro->chains > 64)
    luaL_error(L, "%s: chains = %d is out of range [1, 64]", who,
               ro->chains);
  if (lua_getfield(L, idx, "warmup") != LUA_TNIL) {
    lua_Integer w = getint(L, -1, who, "warmup", 0);
    /* past 2^62 it would not survive the sampler's parameter (a double)
    ** on its way back to a step count */
    if (w > OL_RUN_MAXITERS)
      luaL_error(L, "%s: warmup = %I is out of range [0, 2^62]", who, w);
    ro->warmup = (long)w;
  }
  if (lua_getfield(L, idx, "max_draws") != LUA_TNIL)
    ro->maxdraws = (long)getint(L, -1, who, "max_draws", 2);
  lua_pop(L, 3);
  if (lua_getfield(L, idx, "samples") != LUA_TNIL)
    ro->samples = (long)getint(L, -1, who, "samples", 1);
  lua_pop(L, 1);
  if (lua_getfield(L, idx, "stop_below") != LUA_TNIL) {
    /* stop_below = {metric = value}: one metric */
    int t = lua_gettop(L), cnt = 0;
    if (!lua_istable(L, t))
      luaL_error(L, "%s: stop_below must be a table {metric = value}, got "
                 "a %s", who, luaL_typename(L, t));
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
      const char *mk = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                      : NULL;
      int m = mk != NULL ? ol_metric_find(mk) : -1;
      if (m < 0) unknownmetric(L, who, mk != NULL ? mk : "?");
      if (lua_type(L, -1) != LUA_TNUMBER)
        luaL_error(L, "%s: stop_below.%s must be a number, got a %s", who,
                   mk, luaL_typename(L, -1));
      ro->o.stop_metric = m;
      ro->o.stop_value = lua_tonumber(L, -1);
      ol_mset_add(&ro->watchbits, m);
      cnt++;
      lua_pop(L, 1);
    }
    if (cnt != 1)
      luaL_error(L, "%s: stop_below takes one metric, got %d", who, cnt);
  }
  lua_pop(L, 1);
  if (lua_getfield(L, idx, "xaxis") != LUA_TNIL)
    ro->xaxis = olua_checkxaxis(L, -1, who);
  if (lua_getfield(L, idx, "average") != LUA_TNIL)
    ro->o.average = lua_toboolean(L, -1);
  lua_pop(L, 2);
  /* xlog: a log x axis, kept as a flag of xaxis (core/plot/plotpanel.h) */
  if (lua_getfield(L, idx, "xlog") != LUA_TNIL) {
    if (!lua_isboolean(L, -1))
      luaL_error(L, "%s: xlog must be a boolean, got a %s", who,
                 luaL_typename(L, -1));
    if (lua_toboolean(L, -1)) ro->xaxis |= PN_X_LOG;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, idx, "x0") != LUA_TNIL) {
    ro->o.x0 = olua_checkarray(L, -1, who, "x0", &ro->x0len);
    lua_remove(L, -2);                 /* the buffer stays on the stack */
  }
  else lua_pop(L, 1);
  if (lua_getfield(L, idx, "changes") != LUA_TNIL) {
    readchanges(L, -1, who, ro);
    lua_remove(L, -2);                 /* the buffer stays on the stack */
  }
  else lua_pop(L, 1);
}

int olua_checkxaxis (lua_State *L, int idx, const char *who)
{
  const char *names[PN_NXAXES + 1];
  const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx)
                                                  : NULL;
  int k = s != NULL ? pn_xaxis_find(s) : -1;
  if (k >= 0) return k;
  for (k = 0; k < PN_NXAXES; k++) names[k] = pn_xaxis_name(k);
  names[k] = NULL;
  return olua_unknownkey(L, who, "xaxis", s != NULL ? s
                         : lua_type(L, idx) == LUA_TNUMBER
                         ? luaL_tolstring(L, idx, NULL)
                         : lua_pushfstring(L, "(a %s)", luaL_typename(L, idx)),
                         names);
}

/* Create a run object (pushed) of the method at midx on the problem at
** pidx with options ro.  Raises on invalid input. */
lrun *olua_mkrun (lua_State *L, int pidx, int midx, const ropts *ro,
                  const char *who)
{
  lproblem *pb = olua_checkproblem(L, pidx);
  lmethod *mb = olua_checkmethod(L, midx);
  const ol_family *fam = ol_family_of(mb->t);
  ol_run_opts o = ro->o;
  ol_err e;
  ol_mset rec, dropped = OL_MSET_NONE;
  double par[64];
  int i, chgidx = 0;
  long cols;
  lrun *b;
  pidx = lua_absindex(L, pidx);
  midx = lua_absindex(L, midx);
  if (o.x0 != NULL && ro->x0len != pb->p->n)
    luaL_error(L, "%s: x0 has %d entries, expected n = %d", who, ro->x0len,
               pb->p->n);
  /* the replayed changes, by this method's parameter indices (a buffer
  ** below the run box, removed at the end) */
  if (ro->nchg > 0) {
    ol_change *ch = lua_newuserdatauv(L, (size_t)ro->nchg * sizeof *ch, 0);
    chgidx = lua_gettop(L);
    for (i = 0; i < ro->nchg; i++) {
      int k = ol_param_find(mb->t->params, mb->t->nparams, ro->chg[i].name);
      if (k < 0) {
        char w[128];
        snprintf(w, sizeof w, "%s: changes[%d] (%s)", who, i + 1,
                 mb->t->name);
        olua_unknownparam(L, w, ro->chg[i].name, mb->t->params,
                          mb->t->nparams);
      }
      ch[i].t = ro->chg[i].t;
      ch[i].param = k;
      ch[i].value = ro->chg[i].v;
    }
    o.changes = ch;
    o.nchanges = ro->nchg;
  }
  b = lua_newuserdatauv(L, sizeof *b, 2);
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, OLUA_RUN);
  lua_pushvalue(L, pidx);
  lua_setiuservalue(L, -2, 1);
  lua_pushvalue(L, midx);
  lua_setiuservalue(L, -2, 2);
  o.metrics = ol_mset_or(!ol_mset_empty(ro->metrics) ? ro->metrics
                         : ol_method_metrics(pb->p, mb->t), ro->watchbits);
  /* record x when a landscape or simplex panel can show it */
  if (o.record_x < 0) {
    int first[1];
    o.record_x = pb->p->n <= 3 || pn_simplex_blocks(pb->p, first, 1) > 0;
    for (i = 0; i < ro->nwatch; i++)
      if (ro->watch[i] >= OL_NMETRICS) o.record_x = 1;
  }
  /* a race watches a metric for the methods that define it */
  if (ro->lenient)
    for (i = 0; i < OL_NMETRICS; i++) {
      /* the method's own value of a metric counts (a diffusion sampler's
      ** kl and entropy, a variational Gaussian's) */
      int own = mb->t->probe != NULL && ol_mset_has(mb->t->probes, i);
      if (ol_mset_has(o.metrics, i) && !own &&
          (!ol_metric_types[i]->avail(pb->p, mb->t->family) ||
           ol_metric_byprobe(i))) {
        ol_mset_del(&o.metrics, i);
        ol_mset_add(&dropped, i);
      }
    }
  if (ol_mset_empty(o.metrics)) o.metrics = ol_method_metrics(pb->p, mb->t);
  /* a sampler: its warmup (the option, else the method's own), then iters
  ** kept draws */
  if (fam->draws) {
    int np = mb->t->nparams;
    for (i = 0; i < np && i < 64; i++) par[i] = mb->par[i];
    for (i = 0; i < np && strcmp(mb->t->params[i].name, "warmup"); i++) {}
    if (i < np && ro->warmup >= 0) par[i] = (double)ro->warmup;
    o.warmup = i < np ? (long)par[i] : ro->warmup > 0 ? ro->warmup : 0;
    /* one that adapts records its step size (a default panel) */
    if (i < np && par[i] > 0 && ol_mset_empty(ro->metrics))
      ol_mset_add(&o.metrics, OL_MET_STEPSIZE);
    if (o.iters > OL_RUN_MAXITERS - o.warmup)
      luaL_error(L, "%s: warmup + iters is out of range [0, 2^62]", who);
    o.iters += o.warmup;
    /* max_draws past what a long can count in doubles is "all" (found
    ** by the fuzzer: max_draws = math.maxinteger overflowed) */
    cols = (long)(OL_DRAW_COLS + pb->p->n);
    o.draws = ro->maxdraws > LONG_MAX / cols ? LONG_MAX / cols * cols
      : ro->maxdraws * cols;
  }
  /* a diffusion sampler's particles: the option sets its samples */
  if (ro->samples > 0) {
    int np = mb->t->nparams;
    if (!fam->draws)
      for (i = 0; i < np && i < 64; i++) par[i] = mb->par[i];
    for (i = 0; i < np && strcmp(mb->t->params[i].name, "samples"); i++) {}
    if (i == np)
      luaL_error(L, "%s: samples is the number of a diffusion sampler's "
                 "particles; %s has none", who, mb->t->name);
    if (ol_param_check(&mb->t->params[i], (double)ro->samples, &e) != OL_OK)
      luaL_error(L, "%s: %s", who, e.msg);
    par[i] = (double)ro->samples;
  }
  /* a family whose run length is a parameter (a diffusion sampler's
  ** steps) runs that many iterations unless told */
  if (fam->iters_param != NULL && !ro->iters_given) {
    int np = mb->t->nparams;
    for (i = 0; i < np && strcmp(mb->t->params[i].name, fam->iters_param);
         i++) {}
    if (i < np) o.iters = (long)mb->par[i];
  }
  olua_problem_adverify(L, pb);        /* f changed since its trace? */
  olua_problem_ref(pb);                /* given back by run_gc */
  b->r = ol_run_new(pb->p, mb->t, fam->draws || ro->samples > 0 ? par
                    : mb->par, &o, &e);
  if (b->r == NULL) {
    olua_problem_unref(pb);
    luaL_error(L, "%s: %s", who, e.msg);
  }
  /* the collector counts the run's C memory too, so that dropped runs
  ** (about 70 kB at the default 1000 iterations, little of it Lua's) are
  ** collected at the pace they are made, whatever the Lua heap's size */
  olua_gcdebt(L, ol_run_memory(b->r));
  b->useview = ro->useview;
  b->progress = ro->progress;
  b->dropped = dropped;
  b->xaxis = ro->xaxis;
  b->haswin = ro->haswin;
  memcpy(b->win, ro->win, sizeof b->win);
  rec = ol_run_metrics(b->r);
  if (PN_XKIND(b->xaxis) == PN_X_BITS && !ol_mset_has(rec, OL_MET_BITS))
    luaL_error(L, "%s: xaxis = \"bits\" needs a method that counts the bits "
               "it sends (a dist method; %s does not)", who, mb->t->name);
  if (ro->nwatch > 0) {
    b->nwatch = ro->nwatch;
    memcpy(b->watch, ro->watch, sizeof b->watch);
  }
  else   /* the family's panels (core/plot: pn_defaults) */
    b->nwatch = pn_defaults(pb->p, mb->t->family, rec, b->watch,
                            OL_NMETRICS);
  if (chgidx > 0) lua_remove(L, chgidx);   /* (ol_run_new copied it) */
  return b;
}

/* -- live parameters (issue 24) ------------------------------------------- */

/* Parameter k of m named by the key on top - 1, or raise (unknown: the
** method's parameters listed; the value on top not a number). */
static int setkey (lua_State *L, const ol_method_type *m, const char *who,
                   int nruns)
{
  const char *key = lua_tostring(L, -2);
  int k = ol_param_find(m->params, m->nparams, key);
  if (k < 0) {
    char w[128];
    if (nruns > 1) snprintf(w, sizeof w, "%s (%s)", who, m->name);
    else snprintf(w, sizeof w, "%s", who);
    olua_unknownparam(L, w, key, m->params, m->nparams);
  }
  return k;
}

int olua_setparams (lua_State *L, int idx, ol_run *const *runs, int n,
                    const char *who)
{
  int pass, i, nset = 0;
  ol_err e;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: expected a table {param = value, ...}, got %s", who,
               lua_isnoneornil(L, idx) ? "nothing"
               : lua_pushfstring(L, "a %s", luaL_typename(L, idx)));
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_error(L, "%s: parameter names must be strings, got a %s", who,
                 luaL_typename(L, -2));
    if (lua_type(L, -1) != LUA_TNUMBER)
      luaL_error(L, "%s: %s must be a number, got a %s", who,
                 lua_tostring(L, -2), luaL_typename(L, -1));
    lua_pop(L, 1);
  }
  /* pass 0 checks every change on every run; pass 1 makes them, in each
  ** method's parameter order (the log's order does not depend on the
  ** table's traversal) */
  for (pass = 0; pass < 2; pass++)
    for (i = 0; i < n; i++) {
      const ol_method_type *m;
      double v[32];
      int have[32], k;
      if (runs[i] == NULL ||
          (n > 1 && ol_run_reason(runs[i]) != OL_STOP_NONE))
        continue;
      m = ol_run_method(runs[i]);
      memset(have, 0, sizeof have);
      lua_pushnil(L);
      while (lua_next(L, idx) != 0) {
        k = setkey(L, m, who, n);
        if (ol_run_setcheck(runs[i], k, lua_tonumber(L, -1), &e) != OL_OK)
          luaL_error(L, "%s: %s", who, e.msg);
        if (k < 32) {          /* always: a live parameter has k < 32 */
          have[k] = 1;
          v[k] = lua_tonumber(L, -1);
        }
        lua_pop(L, 1);
      }
      if (pass == 0) continue;
      for (k = 0; k < 32; k++)
        if (have[k] && ol_run_set(runs[i], k, v[k], &e) != OL_OK)
          luaL_error(L, "%s: %s", who, e.msg);
      nset++;
    }
  return nset;
}

/* r:set{param = value, ...} -> r: live parameters changed from the next
** step on (olua_setparams). */
static int run_set (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  olua_setparams(L, 2, &b->r, 1, "run:set");
  lua_settop(L, 1);
  return 1;
}

/* r.changes: {{iter = t, param = name, value = v}, ...}, the log. */
static void pushchanges (lua_State *L, const ol_run *r)
{
  int n, i;
  const ol_change *c = ol_run_changes(r, &n);
  const ol_method_type *m = ol_run_method(r);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 0, 3);
    lua_pushinteger(L, (lua_Integer)c[i].t);
    lua_setfield(L, -2, "iter");
    lua_pushstring(L, m->params[c[i].param].name);
    lua_setfield(L, -2, "param");
    lua_pushnumber(L, c[i].value);
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, i + 1);
  }
}

void olua_pushrunlabel (lua_State *L, const lrun *b)
{
  olua_pushlabel(L, ol_run_method(b->r), ol_run_params(b->r));
  if (b->chain > 0) {
    lua_pushfstring(L, "%s chain %d", lua_tostring(L, -1), b->chain);
    lua_remove(L, -2);
  }
}

void olua_progressline (const char *label, const lrun *b)
{
  int i;
  fprintf(stderr, "%s  iter %ld/%ld", label, ol_run_iter(b->r),
          ol_run_budget(b->r));
  for (i = 0; i < b->nwatch; i++)
    if (b->watch[i] < OL_NMETRICS)
      fprintf(stderr, "  %s %.1e", ol_metric_types[b->watch[i]]->name,
              ol_run_last(b->r, b->watch[i]));
  fputc('\n', stderr);
  fflush(stderr);
}

/* Say on stderr, also for a run that ended normally, what acceptnote
** says about it; and why a run stopped when it did not end normally (a
** failing objective, a non-finite value, a numerical failure), with the
** full message (a Lua traceback), so that `r = run(...)` at the prompt
** does not fail silently.  The run keeps its trace either way. */
void olua_failnote (const char *label, const lrun *b)
{
  int why = ol_run_reason(b->r);
  char note[200];
  char cnote[400];
  if (olua_acceptnote(b->r, note, sizeof note) != NULL) {
    fprintf(stderr, "optlab: %s: note: %s\n", label, note);
    fflush(stderr);
  }
  /* constrained runs: a start moved inside its bounds, a budget spent
  ** with the constraints violated */
  if (ol_run_notice(b->r)[0] != '\0')
    fprintf(stderr, "optlab: %s: note: %s\n", label, ol_run_notice(b->r));
  if (!b->intr && olua_constrnote(b->r, cnote, sizeof cnote) != NULL)
    fprintf(stderr, "optlab: %s: %s\n", label, cnote);
  fflush(stderr);
  if (b->intr || (why != OL_STOP_CALLBACK && why != OL_STOP_NONFINITE
                  && why != OL_STOP_FAILED && why != OL_STOP_DIVERGED
                  && why != OL_STOP_INFEASIBLE))
    return;
  fprintf(stderr, "optlab: %s stopped by %s at iteration %ld: %s\n", label,
          ol_stop_name(why), ol_run_iter(b->r), ol_run_message(b->r));
  fflush(stderr);
}

/* The problem object of run box at idx, raising if it was closed. */
static lproblem *runproblem (lua_State *L, int idx)
{
  lproblem *pb;
  lua_getiuservalue(L, idx, 1);
  pb = lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (pb == NULL || pb->closed)
    luaL_error(L, "run:continue: problem is closed");
  return pb;
}

/* run(problem, method [, opts]) -> run object. */
static int run_run (lua_State *L)
{
  ropts ro;
  lrun *b;
  char title[160];
  double speed;
  int paused;
  olua_checkintr(L);
  olua_checkproblem(L, 1);
  olua_checkmethod(L, 2);
  lua_settop(L, 3);
  olua_readopts(L, 3, "run", &ro);
  olua_readpace(L, 3, "run", &speed, &paused);
  if (ro.chains > 1) {
    if (!ol_family_of(olua_checkmethod(L, 2)->t)->draws)
      return luaL_error(L, "run: chains = %d needs a sampler (%s is not "
                        "one)", ro.chains, olua_checkmethod(L, 2)->t->name);
    if (olua_task_chains(L)) return 1;
    return olua_runchains(L, &ro, olua_problemdesc(olua_checkproblem(L,
                          1)->p, title, sizeof title), speed, paused);
  }
  b = ol_family_of(olua_checkmethod(L, 2)->t)->draws
    ? olua_mksampler(L, &ro) : olua_mkrun(L, 1, 2, &ro, "run");
  if (olua_exp_drive(L, &b, 1, olua_problemdesc(ol_run_problem(b->r), title,
                                                sizeof title),
                     ro.useview, ro.progress, speed, paused))
    olua_keepframe(L, lua_gettop(L));
  return 1;
}

/* A race's metrics that only some of its methods define: raise the
** core's reason when none does; otherwise say on stderr which methods lack
** it (they are plotted for the others) and keep the note in
** race.notes. */
static void racenotes (lua_State *L, lrun **boxes, int n, int rt,
                       const ropts *ro)
{
  ol_mset all = ol_mset_all(), any = OL_MSET_NONE;
  int i, k, nn = 0;
  for (i = 0; i < n; i++) {
    all = ol_mset_and(all, boxes[i]->dropped);
    any = ol_mset_or(any, boxes[i]->dropped);
  }
  if (!ol_mset_empty(all)) {
    /* nobody defines it: the first method's own error */
    ropts strict = *ro;
    strict.lenient = 0;
    lua_rawgeti(L, rt, 1);
    lua_getiuservalue(L, -1, 2);
    olua_mkrun(L, 1, -1, &strict, "race: methods[1]");
  }
  lua_newtable(L);
  for (k = 0; k < OL_NMETRICS; k++) {
    luaL_Buffer bf;
    int first = 1;
    if (!ol_mset_has(any, k)) continue;
    luaL_buffinit(L, &bf);
    luaL_addstring(&bf, ol_metric_types[k]->name);
    luaL_addstring(&bf, " is not defined for ");
    for (i = 0; i < n; i++)
      if (ol_mset_has(boxes[i]->dropped, k)) {
        if (!first) luaL_addstring(&bf, ", ");
        olua_pushlabel(L, ol_run_method(boxes[i]->r),
                       ol_run_params(boxes[i]->r));
        luaL_addvalue(&bf);
        first = 0;
      }
    luaL_addstring(&bf, " (shown for the others)");
    luaL_pushresult(&bf);
    if (ro->progress) {
      fprintf(stderr, "race: %s\n", lua_tostring(L, -1));
      fflush(stderr);
    }
    lua_rawseti(L, -2, ++nn);
  }
  lua_setfield(L, rt, "notes");
}

/* race(problem, {m1, m2, ...} [, opts]) -> race object {run1, run2, ...}
** stepped in lock-step, with one view. */
static int run_race (lua_State *L)
{
  ropts ro;
  lrun **boxes;
  char title[160], who[64];
  int n, i, rt, paused;
  double speed;
  olua_checkintr(L);
  olua_checkproblem(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 3);
  n = (int)lua_rawlen(L, 2);
  if (n < 1) return luaL_error(L, "race: needs a non-empty list of methods");
  olua_readopts(L, 3, "race", &ro);
  olua_readpace(L, 3, "race", &speed, &paused);
  ro.lenient = 1;
  boxes = lua_newuserdatauv(L, (size_t)n * sizeof *boxes, 0);
  lua_createtable(L, n, 1);
  rt = lua_gettop(L);
  luaL_setmetatable(L, OLUA_RACE);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 2, i + 1);
    if (luaL_testudata(L, -1, OLUA_METHOD) == NULL)
      return luaL_error(L, "race: methods[%d] is a %s, expected a method",
                        i + 1, luaL_typename(L, -1));
    snprintf(who, sizeof who, "race: methods[%d]", i + 1);
    boxes[i] = olua_mkrun(L, 1, -1, &ro, who);
    lua_rawseti(L, rt, i + 1);
    lua_pop(L, 1);
  }
  racenotes(L, boxes, n, rt, &ro);
  if (olua_task_race(L, rt)) {
    lua_pushvalue(L, rt);
    return 1;
  }
  if (olua_exp_drive(L, boxes, n,
                     olua_problemdesc(ol_run_problem(boxes[0]->r), title,
                                      sizeof title),
                     ro.useview, ro.progress, speed, paused))
    olua_keepframe(L, rt);
  lua_pushvalue(L, rt);
  return 1;
}

/* r:continue(iters) -> r: iters more iterations, stepped like run. */
static int run_continue (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  lua_Integer k = luaL_checkinteger(L, 2);
  char title[160];
  ol_err e;
  lproblem *pb = runproblem(L, 1);
  luaL_argcheck(L, k >= 0, 2, "iterations must be >= 0");
  olua_checkintr(L);
  if (ol_run_busy(b->r))
    return luaL_error(L, "run:continue: the run is being stepped (a "
                      "callback cannot continue its own run)");
  if (k > OL_RUN_MAXITERS - ol_run_iter(b->r))
    return luaL_error(L, "run:continue: %I more iterations after %I is out "
                      "of range (at most 2^62 in all)", k,
                      (lua_Integer)ol_run_iter(b->r));
  lua_settop(L, 1);
  olua_checkhistory(L, b->r, "run:continue");
  if (ol_run_shell(b->r)) {
    /* restored into a shell (lua/tasks.lua): made whole before it steps */
    ol_run *full = ol_run_unshell(b->r, &e);
    if (full == NULL) return luaL_error(L, "run:continue: %s", e.msg);
    ol_run_free(b->r);
    b->r = full;
  }
  if (ol_run_extend(b->r, ol_run_iter(b->r) + (long)k, &e) != OL_OK)
    return luaL_error(L, "run:continue: %s", e.msg);
  b->intr = 0;
  if (olua_drive(L, &b, 1, olua_problemdesc(pb->p, title, sizeof title),
                 b->useview, b->progress))
    olua_keepframe(L, 1);
  return 1;
}

/* Recorded metric names, comma-separated, pushed (for error messages). */
static const char *pushrecorded (lua_State *L, const ol_run *r)
{
  luaL_Buffer bf;
  ol_mset rec = ol_run_metrics(r);
  int i, k = 0;
  luaL_buffinit(L, &bf);
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_mset_has(rec, i)) {
      if (k++) luaL_addstring(&bf, ", ");
      luaL_addstring(&bf, ol_metric_types[i]->name);
    }
  luaL_pushresult(&bf);
  return lua_tostring(L, -1);
}

/* Metric id of the name at arg, recorded by r; raises otherwise. */
static int checkrecorded (lua_State *L, const ol_run *r, int arg,
                          const char *who)
{
  const char *name = luaL_checkstring(L, arg);
  int m = ol_metric_find(name);
  if (m < 0)
    return luaL_error(L, "%s: unknown metric '%s' (recorded: %s)", who,
                      olua_pushshort(L, name), pushrecorded(L, r));
  if (!ol_mset_has(ol_run_metrics(r), m))
    return luaL_error(L, "%s: metric '%s' was not recorded (recorded: %s)",
                      who, name, pushrecorded(L, r));
  return m;
}

/* r:series(name) -> values, times (iteration numbers), evals (gradient
** evaluations), seconds (stepping wall time): parallel lists, one entry
** per recorded point.  The seconds are measured, so they differ from run
** to run (the field r.seconds is the total). */
static int run_series (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  int m = checkrecorded(L, b->r, 2, "run:series");
  int n = ol_run_len(b->r), i;
  const double *v = ol_run_series(b->r, m);
  olua_checkhistory(L, b->r, "run:series");
  const long *t = ol_run_times(b->r);
  const double *ev = ol_run_evals(b->r), *sec = ol_run_secs(b->r);
  lua_createtable(L, n, 0);
  lua_createtable(L, n, 0);
  lua_createtable(L, n, 0);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, v[i]);
    lua_rawseti(L, -5, i + 1);
    lua_pushinteger(L, t[i]);
    lua_rawseti(L, -4, i + 1);
    lua_pushinteger(L, (lua_Integer)ev[i]);
    lua_rawseti(L, -3, i + 1);
    lua_pushnumber(L, sec[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 4;
}

/* r:traj() -> rows {x1, ..., xd} (first min(n, 8) coordinates) at the
** recorded times, and the times; raises unless the run had record_x. */
static int run_traj (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  int dim = 0, n = ol_run_len(b->r), i, j;
  const double *x = ol_run_traj(b->r, &dim);
  const long *t = ol_run_times(b->r);
  if (x == NULL)
    return luaL_error(L, "run:traj: the trajectory was not recorded "
                      "(run with record_x = true)");
  olua_checkhistory(L, b->r, "run:traj");
  lua_createtable(L, n, 0);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, dim, 0);
    for (j = 0; j < dim; j++) {
      lua_pushnumber(L, x[(size_t)i * dim + j]);
      lua_rawseti(L, -2, j + 1);
    }
    lua_rawseti(L, -3, i + 1);
    lua_pushinteger(L, t[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 2;
}

/* r:last(name) -> latest recorded value. */
static int run_last (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  int m = checkrecorded(L, b->r, 2, "run:last");
  lua_pushnumber(L, ol_run_last(b->r, m));
  return 1;
}

/* r:min(name) -> the smallest finite value over every record made (also
** those the history no longer keeps); nan when none. */
static int run_min (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  int m = checkrecorded(L, b->r, 2, "run:min");
  lua_pushnumber(L, ol_run_min(b->r, m));
  return 1;
}

/* r:metrics() -> list of recorded metric names. */
static int run_metrics (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  ol_mset rec = ol_run_metrics(b->r);
  int i, k = 0;
  lua_newtable(L);
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_mset_has(rec, i)) {
      lua_pushstring(L, ol_metric_types[i]->name);
      lua_rawseti(L, -2, ++k);
    }
  return 1;
}

/* A number for CSV: %.17g, with nan / inf / -inf spelled the same on
** every platform. */
static void addnum (luaL_Buffer *bf, double v)
{
  char buf[40];
  if (isnan(v)) snprintf(buf, sizeof buf, "nan");
  else if (isinf(v)) snprintf(buf, sizeof buf, v > 0 ? "inf" : "-inf");
  else snprintf(buf, sizeof buf, "%.17g", v);
  luaL_addstring(bf, buf);
}

/* Push the CSV text of r: a line "# change iter=T name=V" per live change
** (r.changes, none for most runs), "iter,<metric>,...[,x1,...]", then one
** row per recorded time.  Deterministic: no timings. */
static void pushcsv (lua_State *L, const ol_run *r)
{
  luaL_Buffer bf;
  ol_mset rec = ol_run_metrics(r);
  const double *ser[OL_NMETRICS];
  const long *t = ol_run_times(r);
  int n = ol_run_len(r), i, j, ns = 0, dim = 0;
  const double *traj = ol_run_traj(r, &dim);
  char buf[32];
  int nchg;
  const ol_change *chg = ol_run_changes(r, &nchg);
  luaL_buffinit(L, &bf);
  /* the live changes first, one comment line each (readers skip '#'
  ** lines, as in CmdStan's files) */
  for (i = 0; i < nchg; i++) {
    snprintf(buf, sizeof buf, "# change iter=%ld ", chg[i].t);
    luaL_addstring(&bf, buf);
    luaL_addstring(&bf, ol_run_method(r)->params[chg[i].param].name);
    luaL_addchar(&bf, '=');
    addnum(&bf, chg[i].value);
    luaL_addchar(&bf, '\n');
  }
  luaL_addstring(&bf, "iter");
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_mset_has(rec, i)) {
      luaL_addchar(&bf, ',');
      luaL_addstring(&bf, ol_metric_types[i]->name);
      ser[ns++] = ol_run_series(r, i);
    }
  if (traj == NULL) dim = 0;
  for (j = 0; j < dim; j++) {
    snprintf(buf, sizeof buf, ",x%d", j + 1);
    luaL_addstring(&bf, buf);
  }
  luaL_addchar(&bf, '\n');
  for (i = 0; i < n; i++) {
    snprintf(buf, sizeof buf, "%ld", t[i]);
    luaL_addstring(&bf, buf);
    for (j = 0; j < ns; j++) {
      luaL_addchar(&bf, ',');
      addnum(&bf, ser[j] ? ser[j][i] : NAN);
    }
    for (j = 0; j < dim; j++) {
      luaL_addchar(&bf, ',');
      addnum(&bf, traj[(size_t)i * dim + j]);
    }
    luaL_addchar(&bf, '\n');
  }
  luaL_pushresult(&bf);
}

static int run_csv (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  olua_checkhistory(L, b->r, "run:csv");
  pushcsv(L, b->r);
  return 1;
}

/* r:save(filename): the CSV written whole or not at all (olua_wopen);
** returns nothing, raises naming the file and the OS reason. */
static int run_save (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  const char *fname = olua_checkfilename(L, 2, "run:save");
  size_t len;
  const char *s;
  /* a summary exists only on a worker rank, which writes nothing (its
  ** files are /dev/null): rank 0 writes the file */
  if (ol_run_remote(b->r)) return 0;
  pushcsv(L, b->r);
  s = lua_tolstring(L, -1, &len);
  olua_writefile(L, "run:save", fname, s, len);
  return 0;
}

/* r:close(), __close and __gc: free the run and give back its use of
** the problem (whose memory may go with it).  A run being stepped (its
** own callback closing it) is left alone with an error. */
static int run_gc (lua_State *L)
{
  lrun *b = luaL_checkudata(L, 1, OLUA_RUN);
  lproblem *pb;
  if (b->r == NULL) return 0;
  if (ol_run_busy(b->r))
    return luaL_error(L, "run:close: the run is being stepped (a callback "
                      "cannot close its own run)");
  ol_run_free(b->r);
  b->r = NULL;
  lua_getiuservalue(L, 1, 1);
  pb = luaL_testudata(L, -1, OLUA_PROBLEM);
  if (pb != NULL) olua_problem_unref(pb);
  return 0;
}

/* rows x cols doubles: a vector when rows == 1, else a list of rows. */
static void pushrows (lua_State *L, const double *v, int rows, int cols)
{
  int i;
  if (rows == 1) {
    olua_pushvec(L, v, cols);
    return;
  }
  lua_createtable(L, rows, 0);
  for (i = 0; i < rows; i++) {
    olua_pushvec(L, v + (size_t)i * cols, cols);
    lua_rawseti(L, -2, i + 1);
  }
}

/* r:samples(): a diffusion sampler's particles, a list of rows of n. */
static int run_samples (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  const double *v;
  int rows, cols;
  if (ol_run_result(b->r, "samples", &v, &rows, &cols) == 0 &&
      ol_run_restored(b->r) &&
      ol_method_result(ol_run_method(b->r), ol_run_state(b->r), "samples",
                       &v, &rows, &cols))
    return luaL_error(L, "run:samples: not kept: the run was restored from "
                      "a task file or another rank, which carry its history "
                      "and final point but not its method's results");
  if (!ol_run_result(b->r, "samples", &v, &rows, &cols))
    return luaL_error(L, "run:samples: %s keeps no samples (a diffusion "
                      "sampler's particles; a sampler's draws are "
                      "r:draws())", ol_run_method(b->r)->name);
  if (rows == 1) {                     /* one particle is still a list */
    lua_createtable(L, 1, 0);
    olua_pushvec(L, v, cols);
    lua_rawseti(L, -2, 1);
    return 1;
  }
  pushrows(L, v, rows, cols);
  return 1;
}

static const luaL_Reg run_methods[] = {
  {"samples", run_samples},
  {"series", run_series},
  {"last", run_last},
  {"min", run_min},
  {"traj", run_traj},
  {"metrics", run_metrics},
  {"csv", run_csv},
  {"save", run_save},
  {"continue", run_continue},
  {"set", run_set},
  {"plot", olua_plot},
  {"close", run_gc},
  {NULL, NULL}
};

/* r.<name>: the fields every run has, one entry each: push puts the
** value on the stack (nil when the run has none); the run is at index 1.
** comp is the value the REPL's completion maps the name to (metatable
** .__fields): 'n' a number, 's' a string, 't' a table, 'b' true, 0 not
** listed.  A method's own outputs (r.mean, r.workers, ...) are not here:
** its result hook answers them (run_index). */
typedef struct run_field {
  const char *name;
  void (*push) (lua_State *L, lrun *b);
  char comp;
} run_field;

static void f_iter (lua_State *L, lrun *b)
{
  lua_pushinteger(L, ol_run_iter(b->r));
}

static void f_reason (lua_State *L, lrun *b)
{
  lua_pushstring(L, olua_runreason(b) == OL_STOP_NONE ? "running"
                 : ol_stop_name(olua_runreason(b)));
}

static void f_message (lua_State *L, lrun *b)
{
  const char *msg = ol_run_message(b->r);
  if (msg[0] != '\0') lua_pushstring(L, msg);
  else lua_pushnil(L);
}

static void f_seed (lua_State *L, lrun *b)
{
  lua_pushinteger(L, (lua_Integer)ol_run_options(b->r)->seed);
}

static void f_x (lua_State *L, lrun *b)
{
  olua_pushvec(L, ol_run_x(b->r), ol_run_n(b->r));
}

static void f_xavg (lua_State *L, lrun *b)
{
  if (ol_run_xavg(b->r) != NULL)
    olua_pushvec(L, ol_run_xavg(b->r), ol_run_n(b->r));
  else lua_pushnil(L);
}

/* a game's value estimate: the row player's payoff x'Ay at the average
** strategies (the last ones when the method keeps none) */
static void f_value (lua_State *L, lrun *b)
{
  const ol_run *r = b->r;
  ol_game G;
  const ol_tree *T = ol_tree_of(ol_run_problem(r));
  const double *z = ol_run_xavg(r) != NULL ? ol_run_xavg(r) : ol_run_x(r);
  if (T != NULL) lua_pushnumber(L, T->value(T, z));
  else if (ol_game_view(ol_run_problem(r), &G))
    lua_pushnumber(L, ol_game_value(&G, z));
  else lua_pushnil(L);
}

/* lambda (general constraints: the multipliers, in the order of the
** constraints), zl, zu (bound multipliers >= 0, IPOPT's z_L, z_U): the
** method's result hook under the field's own name, nil for a method that
** keeps none; listed here so that every run completes them */
/* The named result name of b's method (a vector for one row, else a
** list of rows), pushed; 0 and nothing pushed when the method has none.
** A restored run (a task file, another rank) raises: its method's state
** was never stepped, so it would answer with the values it started from
** (found: a gathered sqp run gave lambda = 0 where one process gives 1). */
static int pushresult (lua_State *L, lrun *b, const char *name)
{
  const double *v;
  int rows, cols;
  if (!ol_method_result(ol_run_method(b->r), ol_run_state(b->r), name, &v,
                        &rows, &cols))
    return 0;
  if (ol_run_restored(b->r))
    return luaL_error(L, "r.%s: not kept: the run was restored from a task "
                      "file or another rank, which carry its history and "
                      "final point but not its method's results (read r.%s "
                      "in one process)", name, name);
  pushrows(L, v, rows, cols);
  return 1;
}

static void f_result (lua_State *L, lrun *b, const char *name)
{
  if (!pushresult(L, b, name)) lua_pushnil(L);
}

static void f_lambda (lua_State *L, lrun *b)
{
  f_result(L, b, "lambda");
}

static void f_zl (lua_State *L, lrun *b)
{
  f_result(L, b, "zl");
}

static void f_zu (lua_State *L, lrun *b)
{
  f_result(L, b, "zu");
}

static void f_notice (lua_State *L, lrun *b)
{
  if (ol_run_notice(b->r)[0] != '\0') lua_pushstring(L, ol_run_notice(b->r));
  else lua_pushnil(L);
}

static void f_budget (lua_State *L, lrun *b)
{
  lua_pushinteger(L, ol_run_budget(b->r));
}

static void f_nfev (lua_State *L, lrun *b)
{
  lua_pushinteger(L, ol_run_nfev(b->r));
}

static void f_ngev (lua_State *L, lrun *b)
{
  lua_pushinteger(L, ol_run_ngev(b->r));
}

static void f_nhev (lua_State *L, lrun *b)
{
  lua_pushinteger(L, ol_run_nhev(b->r));
}

static void f_mfev (lua_State *L, lrun *b)
{
  lua_pushinteger(L, ol_run_mfev(b->r));
}

static void f_mgev (lua_State *L, lrun *b)
{
  lua_pushinteger(L, ol_run_mgev(b->r));
}

static void f_fdgrad (lua_State *L, lrun *b)
{
  lua_pushboolean(L, ol_run_problem(b->r)->fd_grad);
}

static void f_fdhess (lua_State *L, lrun *b)
{
  lua_pushboolean(L, ol_run_problem(b->r)->hess == NULL &&
                  ol_run_nhev(b->r) > 0);
}

static void f_seconds (lua_State *L, lrun *b)
{
  lua_pushnumber(L, ol_run_seconds(b->r));
}

static void f_label (lua_State *L, lrun *b)
{
  olua_pushrunlabel(L, b);
}

static void f_problem (lua_State *L, lrun *b)
{
  (void)b;
  lua_getiuservalue(L, 1, 1);
}

static void f_method (lua_State *L, lrun *b)
{
  (void)b;
  lua_getiuservalue(L, 1, 2);
}

static void f_changes (lua_State *L, lrun *b)
{
  pushchanges(L, b->r);
}

static const run_field run_fields[] = {
  {"changes", f_changes, 't'},
  {"iter", f_iter, 'n'},
  {"reason", f_reason, 's'},
  {"message", f_message, 's'},
  {"seed", f_seed, 'n'},
  {"x", f_x, 't'},
  {"xavg", f_xavg, 't'},
  {"value", f_value, 'n'},
  {"lambda", f_lambda, 't'},
  {"zl", f_zl, 't'},
  {"zu", f_zu, 't'},
  {"notice", f_notice, 's'},
  {"budget", f_budget, 'n'},
  {"nfev", f_nfev, 'n'},
  {"ngev", f_ngev, 'n'},
  {"nhev", f_nhev, 'n'},
  {"mfev", f_mfev, 'n'},
  {"mgev", f_mgev, 'n'},
  {"fdgrad", f_fdgrad, 0},
  {"fdhess", f_fdhess, 0},
  {"seconds", f_seconds, 'n'},
  {"label", f_label, 's'},
  {"problem", f_problem, 'b'},
  {"method", f_method, 'b'},
  {NULL, NULL, 0}
};

/* r.<k>: a field of run_fields; else a method of the run (r:last,
** r:samples, ...: these come first, so that no method's named result can
** hide one); else the method's named result (a variational mean, ...: a
** vector for one row, else a list of rows); else nil. */
static int run_index (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  const char *k = luaL_checkstring(L, 2);
  const run_field *f;
  const luaL_Reg *m;
  for (f = run_fields; f->name != NULL; f++)
    if (strcmp(f->name, k) == 0) {
      f->push(L, b);
      return 1;
    }
  for (m = run_methods; m->name != NULL; m++)
    if (strcmp(m->name, k) == 0) {
      lua_pushcfunction(L, m->func);
      return 1;
    }
  for (m = olua_sample_methods; m->name != NULL; m++)
    if (strcmp(m->name, k) == 0) {
      lua_pushcfunction(L, m->func);
      return 1;
    }
  if (!pushresult(L, b, k)) lua_pushnil(L);
  return 1;
}

static const luaL_Reg run_meta[] = {
  {"__index", run_index},
  {"__gc", run_gc},
  {"__close", run_gc},
  {"__tostring", olua_run_tostring},
  {NULL, NULL}
};

/* metatable.__fields (on top): names for the REPL's completion, mapped
** to a value of their type (run_fields' comp). */
static void setfields (lua_State *L)
{
  const run_field *f;
  const luaL_Reg *m;
  lua_newtable(L);
  for (f = run_fields; f->name != NULL; f++) {
    switch (f->comp) {
    case 'n': lua_pushinteger(L, 0); break;
    case 's': lua_pushliteral(L, ""); break;
    case 't': lua_newtable(L); break;
    case 'b': lua_pushboolean(L, 1); break;
    default: continue;
    }
    lua_setfield(L, -2, f->name);
  }
  for (m = run_methods; m->name != NULL; m++) {
    lua_pushcfunction(L, m->func);
    lua_setfield(L, -2, m->name);
  }
  for (m = olua_sample_methods; m->name != NULL; m++) {
    lua_pushcfunction(L, m->func);
    lua_setfield(L, -2, m->name);
  }
  lua_setfield(L, -2, "__fields");
}

/* Globals run and race; core.metrics = {{name=, doc=}, ...};
** core.race_mt = the race metatable (filled by lua/race.lua). */
void olua_openrun (lua_State *L)
{
  int core = lua_gettop(L), i, k;
  luaL_newmetatable(L, OLUA_RUN);
  luaL_setfuncs(L, run_meta, 0);
  setfields(L);
  lua_pop(L, 1);
  luaL_newmetatable(L, OLUA_RACE);
  lua_setfield(L, core, "race_mt");
  lua_pushcfunction(L, run_run);
  lua_setglobal(L, "run");
  lua_pushcfunction(L, run_race);
  lua_setglobal(L, "race");
  lua_pushcfunction(L, olua_plot);
  lua_setfield(L, core, "plot");
  lua_pushcfunction(L, olua_plotsweep);
  lua_setfield(L, core, "plotsweep");
  lua_createtable(L, OL_NMETRICS, 0);
  for (i = 0, k = 0; i < OL_NMETRICS; i++) {
    /* the built-in ones (metric.new adds the user's, lua/lmetric.c) */
    if (!ol_metric_defined(i) || ol_metric_user(i)) continue;
    lua_createtable(L, 0, 2);
    lua_pushstring(L, ol_metric_types[i]->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, ol_metric_types[i]->doc);
    lua_setfield(L, -2, "doc");
    lua_rawseti(L, -2, ++k);
  }
  lua_setfield(L, core, "metrics");
}
