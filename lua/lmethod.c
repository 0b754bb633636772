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

static const char *const famname[OL_NFAMILY] = {"optim", "sample", "game",
                                                "vi", "diffusion", "rl",
                                                "dist"};

static const char *familyname (int f)
{
  return f >= 0 && f < OL_NFAMILY ? famname[f] : "method";
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

/* optim.<name>{key = value, ...} -> method object.  The argument may be
** omitted.  Upvalue 1: the ol_method_type (light userdata). */
static int method_new (lua_State *L)
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
    olua_readparam(L, -1, who, &t->params[k], &m->par[k]);
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

/* Create the globals optim, sample and game and fill core.methods (list
** of info tables) and core.ctors[constructor] = info.  Core table on
** top of the stack. */
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
  for (f = OL_OPTIM; f < OL_NFAMILY; f++) {
    lua_newtable(L);
    lua_setglobal(L, famname[f]);
  }
  for (i = 0; ol_methods[i] != NULL; i++) {
    const ol_method_type *t = ol_methods[i];
    lua_getglobal(L, familyname(t->family));
    lua_pushlightuserdata(L, (void *)t);
    lua_pushcclosure(L, method_new, 1);
    olua_pushinfo(L, t->name, familyname(t->family), t->doc, t->ref,
                  t->params, t->nparams);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "ctor");
    lua_pushvalue(L, -1);
    lua_rawseti(L, core + 1, (lua_Integer)lua_rawlen(L, core + 1) + 1);
    lua_pushvalue(L, -2);                      /* ctors[fn] = info */
    lua_insert(L, -2);
    lua_rawset(L, core + 2);
    lua_setfield(L, -2, t->name);              /* family.name = fn */
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_setfield(L, core, "methods");
}
