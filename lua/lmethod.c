/*
** lua/lmethod.c -- method objects: optim.<name>{...}, sample.<name>{...},
** game.<name>{...}.
**
** One constructor per registered method (ol_methods[]), a C closure whose
** upvalue is the method type.  A method object ("optlab.method") holds
** the type and its full parameter vector with defaults filled in; it owns
** no C resource, so it needs no __gc.  Parameters are checked against the
** type's ol_param table: unknown keys and out-of-range values raise with
** the valid keys or the range.
*/
#include <stdio.h>
#include <string.h>

#include "lbind.h"
#include "dist/compress.h"

static void registermethod (lua_State *L, int core, const ol_method_type *t,
                            int fresh);

/* The family's Lua namespace ("method" for none: core/family.c). */
static const char *familyname (int f)
{
  return ol_family_get(f)->ns;
}

/* The method at arg; a constructor passed by mistake (optim.adam for
** optim.adam{}) gets an error saying so. */
lmethod *olua_checkmethod (lua_State *L, int arg)
{
  if (lua_type(L, arg) == LUA_TFUNCTION)
    luaL_argerror(L, arg, "a method expected, got a function (a "
                  "constructor? write optim.adam{} or optim.adam{lr = ...})");
  return luaL_checkudata(L, arg, OLUA_METHOD);
}

/* Push "adam{lr=0.01, beta1=0.9, beta2=0.999, eps=1e-08}". */
void olua_pushmethodstr (lua_State *L, const ol_method_type *t,
                         const double *par)
{
  luaL_Buffer b;
  char v[64];
  int i;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, t->name);
  luaL_addchar(&b, '{');
  for (i = 0; i < t->nparams; i++) {
    if (i > 0) luaL_addstring(&b, ", ");
    luaL_addstring(&b, t->params[i].name);
    luaL_addchar(&b, '=');
    olua_fmtparam(&t->params[i], par[i], v, sizeof v);
    luaL_addstring(&b, v);
  }
  luaL_addchar(&b, '}');
  luaL_pushresult(&b);
}

/* Push "gd lr=0.001": the name and the parameters that differ from their
** defaults, or the first parameter when none does. */
void olua_pushlabel (lua_State *L, const ol_method_type *t,
                     const double *par)
{
  luaL_Buffer b;
  char v[64];
  int i, shown = 0;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, t->name);
  for (i = 0; i < t->nparams; i++) {
    if (par[i] == t->params[i].def) continue;
    olua_fmtparam(&t->params[i], par[i], v, sizeof v);
    luaL_addchar(&b, ' ');
    luaL_addstring(&b, t->params[i].name);
    luaL_addchar(&b, '=');
    luaL_addstring(&b, v);
    shown++;
  }
  if (shown == 0 && t->nparams > 0) {
    olua_fmtparam(&t->params[0], par[0], v, sizeof v);
    luaL_addchar(&b, ' ');
    luaL_addstring(&b, t->params[0].name);
    luaL_addchar(&b, '=');
    luaL_addstring(&b, v);
  }
  luaL_pushresult(&b);
}

/* A choice given as a table, compress = {kind = "topk", k = 2} (the
** compressors of core/dist/compress.h): kind is the choice of parameter
** k, each other key one of the method's own parameters (k, s, clip).
** The table is on top of the stack. */
static void readkind (lua_State *L, const char *who,
                      const ol_method_type *t, int k, double *par)
{
  int top = lua_gettop(L), j;
  if (lua_getfield(L, top, "kind") == LUA_TNIL)
    luaL_error(L, "%s: %s = {...} needs kind = (%s)", who, t->params[k].name,
               t->params[k].choices);
  olua_readparam(L, -1, who, &t->params[k], &par[k]);
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, top) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING)
      luaL_error(L, "%s: %s = {...}: names must be strings", who,
                 t->params[k].name);
    if (strcmp(lua_tostring(L, -2), "kind") != 0) {
      j = ol_param_find(t->params, t->nparams, lua_tostring(L, -2));
      if (j < 0 || j == k)
        olua_unknownparam(L, who, lua_tostring(L, -2), t->params,
                          t->nparams);
      olua_readparam(L, -1, who, &t->params[j], &par[j]);
    }
    lua_pop(L, 1);
  }
}

/* optim.<name>{key = value, ...} -> method object.  The argument may be
** omitted.  Upvalue 1: the ol_method_type (light userdata). */
int olua_method_new (lua_State *L)
{
  const ol_method_type *t = lua_touserdata(L, lua_upvalueindex(1));
  int np = t->nparams, i;
  char who[80];
  lmethod *m;
  snprintf(who, sizeof who, "%s.%s", familyname(t->family), t->name);
  lua_settop(L, 1);
  m = lua_newuserdatauv(L, sizeof *m + (size_t)np * sizeof(double), 0);
  m->t = t;
  for (i = 0; i < np; i++) m->par[i] = t->params[i].def;
  luaL_setmetatable(L, OLUA_METHOD);
  if (lua_isnoneornil(L, 1)) return 1;
  if (!lua_istable(L, 1))
    return luaL_error(L, "%s: expected a table of parameters, got a %s", who,
                      luaL_typename(L, 1));
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    int k;
    if (lua_type(L, -2) != LUA_TSTRING)
      return luaL_error(L, "%s: parameter names must be strings, got a %s",
                        who, luaL_typename(L, -2));
    k = ol_param_find(t->params, np, lua_tostring(L, -2));
    if (k < 0)
      return olua_unknownparam(L, who, lua_tostring(L, -2), t->params, np);
    if (lua_istable(L, -1) && t->params[k].kind == OL_P_ENUM)
      readkind(L, who, t, k, m->par);
    else olua_readparam(L, -1, who, &t->params[k], &m->par[k]);
    lua_pop(L, 1);
  }
  return 1;
}

/* Push the Lua value of parameter i: number, integer, boolean or choice. */
static void pushparam (lua_State *L, const ol_param *pd, double v)
{
  char buf[64];
  switch (pd->kind) {
  case OL_P_BOOL: lua_pushboolean(L, v != 0); break;
  case OL_P_INT: lua_pushinteger(L, (lua_Integer)v); break;
  case OL_P_ENUM:
    olua_fmtparam(pd, v, buf, sizeof buf);
    lua_pushstring(L, buf);
    break;
  default: lua_pushnumber(L, v);
  }
}

/* m.name, m.family, m.doc, m.params (table of values), m.<param>. */
static int method_index (lua_State *L)
{
  lmethod *m = olua_checkmethod(L, 1);
  const char *k = luaL_checkstring(L, 2);
  int i;
  if (strcmp(k, "name") == 0) lua_pushstring(L, m->t->name);
  else if (strcmp(k, "family") == 0)
    lua_pushstring(L, familyname(m->t->family));
  else if (strcmp(k, "doc") == 0) lua_pushstring(L, m->t->doc);
  else if (strcmp(k, "params") == 0) {
    lua_createtable(L, 0, m->t->nparams);
    for (i = 0; i < m->t->nparams; i++) {
      pushparam(L, &m->t->params[i], m->par[i]);
      lua_setfield(L, -2, m->t->params[i].name);
    }
  }
  else if ((i = ol_param_find(m->t->params, m->t->nparams, k)) >= 0)
    pushparam(L, &m->t->params[i], m->par[i]);
  else lua_pushnil(L);
  return 1;
}

static int method_tostring (lua_State *L)
{
  lmethod *m = olua_checkmethod(L, 1);
  olua_pushmethodstr(L, m->t, m->par);
  return 1;
}

static const luaL_Reg method_meta[] = {
  {"__index", method_index},
  {"__tostring", method_tostring},
  {NULL, NULL}
};

/* dist.compress(v, {kind =, k =, s =, clip =, seed =, draws =}) (kind or,
** as in the methods, compress) ->
** C(v) (a list) or, with draws = m, m independent draws C(v) (a list of
** lists), and the bits of one message (core/dist/compress.h).  The
** draws come from the generator seeded (seed, stream 0), seed 1 unless
** given. */
static int dist_compress (lua_State *L)
{
  static const ol_param cp_params0[] = {
    OL_COMPRESS_PARAMS(OL_CMP_NONE),
    {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the draws", NULL},
    {"draws", OL_P_INT, 0, 0, 1e7, "draws (0: one, as a list)", NULL},
  };
  const int np = (int)(sizeof cp_params0 / sizeof cp_params0[0]);
  /* the compressor's key is "kind" here (the methods' "compress" is
  ** accepted too): messages name it so, and list it among the valid */
  ol_param cp_params[sizeof cp_params0 / sizeof cp_params0[0]];
  double par[OL_COMPRESS_NPARAMS + 2], *v, *out, bits;
  int n, i, j, k, m;
  ol_compress cp = {0};
  ol_rng r;
  ol_err e;
  memcpy(cp_params, cp_params0, sizeof cp_params);
  cp_params[0].name = "kind";
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  n = (int)lua_rawlen(L, 1);
  if (n < 1) return luaL_error(L, "dist.compress: v must be a nonempty list");
  for (i = 0; i < np; i++) par[i] = cp_params[i].def;
  lua_pushnil(L);
  while (lua_next(L, 2) != 0) {
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                      : "?";
    k = strcmp(key, "compress") == 0 ? 0 : ol_param_find(cp_params, np, key);
    if (k < 0)
      return olua_unknownparam(L, "dist.compress", key, cp_params, np);
    olua_readparam(L, -1, "dist.compress", &cp_params[k], &par[k]);
    lua_pop(L, 1);
  }
  m = (int)par[OL_COMPRESS_NPARAMS + 1];
  /* the message and every draw in a box, so no Lua error leaks cp */
  v = lua_newuserdatauv(L, sizeof *v * (size_t)n * (size_t)(m + 2), 0);
  out = v + n;
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 1, i + 1);
    if (!lua_isnumber(L, -1))
      return luaL_error(L, "dist.compress: v[%d] is not a number", i + 1);
    v[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  if (ol_compress_init(&cp, par, n, "dist.compress", &e) != OL_OK) {
    ol_compress_fini(&cp);
    return luaL_error(L, "%s", e.msg);
  }
  ol_rng_seed(&r, (uint64_t)par[OL_COMPRESS_NPARAMS], 0);
  for (j = 0; j < (m > 0 ? m : 1); j++)
    ol_compress_apply(&cp, v, out + (size_t)j * n, &r);
  bits = cp.bits;
  ol_compress_fini(&cp);
  if (m == 0) lua_createtable(L, n, 0);
  else lua_createtable(L, m, 0);
  for (j = 0; j < (m > 0 ? m : 1); j++) {
    if (m > 0) lua_createtable(L, n, 0);
    for (i = 0; i < n; i++) {
      lua_pushnumber(L, out[(size_t)j * n + i]);
      lua_rawseti(L, -2, i + 1);
    }
    if (m > 0) lua_rawseti(L, -2, j + 1);
  }
  lua_pushnumber(L, bits);
  return 2;
}

/* Create the family globals (optim, sample, game, ...: core/family.c)
** and fill core.families, core.methods (list of info tables) and
** core.ctors[constructor] = info.  Core table on top of the stack. */
void olua_openmethod (lua_State *L)
{
  int core = lua_gettop(L), i, f;
  luaL_newmetatable(L, OLUA_METHOD);
  luaL_setfuncs(L, method_meta, 0);
  lua_newtable(L);                     /* __fields, for REPL completion */
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "name");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "family");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "doc");
  lua_newtable(L);
  lua_setfield(L, -2, "params");
  lua_setfield(L, -2, "__fields");
  lua_pop(L, 1);
  lua_newtable(L);                             /* core.methods */
  lua_getfield(L, core, "ctors");
  /* core.families: {fam, what, plural, methods} per family in family
  ** order (core/family.c), also under its namespace, for help and sweep */
  lua_createtable(L, OL_NFAMILY, OL_NFAMILY);
  for (f = 0; f < OL_NFAMILY; f++) {
    lua_newtable(L);
    lua_setglobal(L, ol_families[f].ns);
    lua_createtable(L, 0, 4);
    lua_pushstring(L, ol_families[f].ns);
    lua_setfield(L, -2, "fam");
    lua_pushstring(L, ol_families[f].what);
    lua_setfield(L, -2, "what");
    lua_pushstring(L, ol_families[f].plural);
    lua_setfield(L, -2, "plural");
    lua_newtable(L);
    lua_setfield(L, -2, "methods");
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, ol_families[f].ns);
    lua_rawseti(L, -2, f + 1);
  }
  lua_setfield(L, core, "families");
  lua_pop(L, 1);
  lua_pushvalue(L, -1);
  lua_setfield(L, core, "methods");
  for (i = 0; ol_methods[i] != NULL; i++)
    registermethod(L, core, ol_methods[i], 1);
  lua_pop(L, 1);
  lua_getglobal(L, "dist");
  lua_pushcfunction(L, dist_compress);
  lua_setfield(L, -2, "compress");
  lua_pop(L, 1);
}

/* 1 when the info tables at a and b have the same field k. */
static int samefield (lua_State *L, int a, int b, const char *k)
{
  int same;
  lua_getfield(L, a, k);
  lua_getfield(L, b, k);
  same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

/* Replace the entry of list (at index list) with the name and family of
** info (on top) by info, or append it; pops info.  (A method defined
** again at the prompt replaces its entry; built-ins are all new.) */
static void putinfo (lua_State *L, int list)
{
  lua_Integer i, n = (lua_Integer)lua_rawlen(L, list);
  int info = lua_gettop(L), same = 0;
  for (i = 1; i <= n && !same; i++) {
    lua_rawgeti(L, list, i);
    same = samefield(L, -1, info, "name") && samefield(L, -1, info, "family");
    lua_pop(L, 1);
  }
  lua_rawseti(L, list, same ? i - 1 : n + 1);
}

/* olua_registermethod; fresh: t is a built-in registered at start, new
** by construction, so its info is appended without looking for an entry
** to replace (a scan of the list per method, quadratic in the catalog). */
static void registermethod (lua_State *L, int core, const ol_method_type *t,
                            int fresh)
{
  int top = lua_gettop(L);
  core = lua_absindex(L, core);
  lua_getfield(L, core, "methods");              /* top + 1 */
  lua_getfield(L, core, "ctors");                /* top + 2 */
  lua_getglobal(L, familyname(t->family));       /* top + 3 */
  lua_pushlightuserdata(L, (void *)t);
  lua_pushcclosure(L, olua_method_new, 1);       /* top + 4 */
  olua_pushinfo(L, t->name, familyname(t->family), t->doc, t->ref,
                t->params, t->nparams);          /* top + 5 */
  lua_pushvalue(L, top + 4);
  lua_setfield(L, top + 5, "ctor");
  lua_getfield(L, core, "families");             /* its family's methods */
  lua_rawgeti(L, -1, t->family + 1);
  lua_getfield(L, -1, "methods");
  lua_pushvalue(L, top + 5);
  if (fresh) lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  else putinfo(L, lua_gettop(L) - 1);
  lua_settop(L, top + 5);
  lua_pushvalue(L, top + 5);
  if (fresh) lua_rawseti(L, top + 1, (lua_Integer)lua_rawlen(L, top + 1) + 1);
  else putinfo(L, top + 1);
  lua_pushvalue(L, top + 4);                     /* ctors[fn] = info */
  lua_pushvalue(L, top + 5);
  lua_rawset(L, top + 2);
  lua_pushvalue(L, top + 4);
  lua_setfield(L, top + 3, t->name);             /* family.name = fn */
  lua_settop(L, top);
}

void olua_registermethod (lua_State *L, int core, const ol_method_type *t)
{
  registermethod(L, core, t, 0);
}
