/*
** lua/lefg.c -- problem.efg{root = ..., name = ..., value = ...}: a user's
** two-player zero-sum extensive-form game written as a tree of Lua
** tables, read into the core's preorder description (problems/efg.h) and
** converted there once.  A node is one of
**   {player = 1 or 2, infoset = "name", actions = {"a", "b"},
**    children = {node_a, node_b}, where = "heading" (optional)}
**   {player = "chance", children = {...}, probs = {...} (optional:
**    uniform)}
**   {payoff = u1}                      (a leaf: player 1's payoff)
** Table shapes are checked here (unknown keys named with the valid ones,
** types, counts); the game's own rules (perfect recall, one player and
** one action list per information set, probabilities summing to 1, finite
** payoffs, size limits) by the core, whose messages name the node by the
** same path ("root.children[2].children[1]").  Fields are read raw (no
** metamethods run), so the strings borrowed from the tables stay valid
** while the tree, anchored at the argument, is read.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lbind.h"
#include "problems/efg.h"

static const char *const node_keys[] = {
  "player", "infoset", "where", "actions", "children", "probs", "payoff",
  NULL
};

typedef struct reader {
  lua_State *L;
  const char *who;
  int fill;                 /* 0: count (and check); 1: fill */
  int n, np;                /* nodes, chance probabilities so far */
  ol_efg_node *node;        /* fill: the nodes (GC-owned buffer) */
  double *prob;             /* fill: the probabilities (GC-owned) */
  int path[OL_EFG_MAXDEPTH + 2];
} reader;

/* "root.children[2].children[1]" for depth d, on the stack. */
static const char *rpath (reader *R, int d)
{
  luaL_Buffer bf;
  int j;
  luaL_buffinit(R->L, &bf);
  luaL_addstring(&bf, "root");
  for (j = 0; j < d && j < OL_EFG_MAXDEPTH + 1; j++) {
    char s[32];
    if (d > 8 && j == 3) {
      luaL_addstring(&bf, "...");
      j = d - 5;
      continue;
    }
    snprintf(s, sizeof s, ".children[%d]", R->path[j] + 1);
    luaL_addstring(&bf, s);
  }
  luaL_pushresult(&bf);
  return lua_tostring(R->L, -1);
}

/* t[key] (raw) pushed; its type. */
static int rawfield (lua_State *L, int t, const char *key)
{
  lua_pushstring(L, key);
  return lua_rawget(L, t);
}

/* The list at the top of the stack: its length, every entry of type
** want, else the error naming key and the node. */
static int rlist (reader *R, int d, const char *key, int want)
{
  lua_State *L = R->L;
  int t = lua_gettop(L), k, len;
  if (lua_type(L, t) != LUA_TTABLE)
    return luaL_error(L, "%s: %s at %s must be a list, got %s", R->who, key,
                      rpath(R, d), luaL_typename(L, t));
  len = (int)lua_rawlen(L, t);
  for (k = 1; k <= len; k++) {
    if (lua_rawgeti(L, t, k) != want)
      return luaL_error(L, "%s: %s[%d] at %s must be a %s, got %s", R->who,
                        key, k, rpath(R, d), lua_typename(L, want),
                        luaL_typename(L, -1));
    lua_pop(L, 1);
  }
  return len;
}

/* Read the node at the top of the stack, at depth d (popped). */
static void rnode (reader *R, int d)
{
  lua_State *L = R->L;
  int t = lua_gettop(L), k = R->n, nk = 0, isint, j, ch;
  ol_efg_node *nd = R->fill ? R->node + k : NULL;
  lua_Integer pl;
  luaL_checkstack(L, 12, "problem.efg: the tree is too deep");
  if (lua_type(L, t) != LUA_TTABLE)
    luaL_error(L, "%s: the node at %s must be a table ({player = ...} or "
               "{payoff = ...}), got %s", R->who, rpath(R, d),
               luaL_typename(L, t));
  if (d > OL_EFG_MAXDEPTH)
    luaL_error(L, "%s: the tree is deeper than %d levels at %s (a cycle, "
               "or a game too deep)", R->who, OL_EFG_MAXDEPTH, rpath(R, d));
  if (++R->n > OL_EFG_MAXNODES)
    luaL_error(L, "%s: the tree has more than %d nodes (the limit)",
               R->who, OL_EFG_MAXNODES);
  if (!R->fill) {                     /* keys, once */
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
      const char *key = lua_type(L, -2) == LUA_TSTRING
        ? lua_tostring(L, -2) : "?";
      for (j = 0; node_keys[j] != NULL && strcmp(node_keys[j], key) != 0;
           j++) {}
      if (node_keys[j] == NULL)
        olua_unknownkey(L, lua_pushfstring(L, "%s: the node at %s", R->who,
                                           rpath(R, d)), "key", key,
                        node_keys);
      lua_pop(L, 1);
    }
  }
  /* (1) a leaf */
  if (rawfield(L, t, "player") == LUA_TNIL) {
    if (rawfield(L, t, "payoff") != LUA_TNUMBER)
      luaL_error(L, "%s: the node at %s has neither player (1, 2 or "
                 "\"chance\") nor a number payoff", R->who, rpath(R, d));
    if (rawfield(L, t, "children") != LUA_TNIL)
      luaL_error(L, "%s: the leaf at %s (payoff) has children; a node is a "
                 "leaf or a move", R->who, rpath(R, d));
    if (nd != NULL) {
      nd->who = OL_EFG_LEAF;
      nd->nkids = 0;
      nd->payoff = lua_tonumber(L, t + 2);
    }
    lua_settop(L, t - 1);
    return;
  }
  if (rawfield(L, t, "payoff") != LUA_TNIL)
    luaL_error(L, "%s: the node at %s has both player and payoff; a node is "
               "a leaf (payoff) or a move (player)", R->who, rpath(R, d));
  lua_pop(L, 1);
  if (rawfield(L, t, "children") == LUA_TNIL)
    luaL_error(L, "%s: the move at %s has no children", R->who,
               rpath(R, d));
  nk = rlist(R, d, "children", LUA_TTABLE);          /* t + 2 */
  /* (2) chance */
  if (lua_type(L, t + 1) == LUA_TSTRING &&
      strcmp(lua_tostring(L, t + 1), "chance") == 0) {
    if (rawfield(L, t, "probs") != LUA_TNIL) {       /* t + 3 */
      if (rlist(R, d, "probs", LUA_TNUMBER) != nk)
        luaL_error(L, "%s: the chance node at %s has %d probs for %d "
                   "children", R->who, rpath(R, d),
                   (int)lua_rawlen(L, t + 3), nk);
      if (nd != NULL) {
        nd->probs = R->prob + R->np;
        for (j = 0; j < nk; j++) {
          lua_rawgeti(L, t + 3, j + 1);
          R->prob[R->np + j] = lua_tonumber(L, -1);
          lua_pop(L, 1);
        }
      }
      R->np += nk;
    }
    else if (nd != NULL) nd->probs = NULL;
    if (nd != NULL) nd->who = OL_EFG_CHANCE;
  }
  /* (3) a player's decision */
  else {
    pl = lua_tointegerx(L, t + 1, &isint);
    if (!isint || pl < 1 || pl > 2)
      luaL_error(L, "%s: player = %s at %s must be 1, 2 or \"chance\"",
                 R->who, luaL_tolstring(L, t + 1, NULL), rpath(R, d));
    if (rawfield(L, t, "infoset") != LUA_TSTRING)    /* t + 3 */
      luaL_error(L, "%s: the decision at %s needs infoset, a string naming "
                 "its information set, got %s", R->who, rpath(R, d),
                 luaL_typename(L, t + 3));
    if (rawfield(L, t, "actions") == LUA_TNIL ||     /* t + 4 */
        rlist(R, d, "actions", LUA_TSTRING) != 2)
      luaL_error(L, "%s: the decision at %s needs actions, a list of two "
                 "names (a choice among more is a chain of two-action "
                 "decisions)", R->who, rpath(R, d));
    if (nk != 2)
      luaL_error(L, "%s: the decision at %s has %d children for its 2 "
                 "actions", R->who, rpath(R, d), nk);
    ch = rawfield(L, t, "where");                    /* t + 5 */
    if (ch != LUA_TNIL && ch != LUA_TSTRING)
      luaL_error(L, "%s: where at %s must be a string (the heading the "
                 "policy is printed under), got %s", R->who, rpath(R, d),
                 luaL_typename(L, t + 5));
    if (rawfield(L, t, "probs") != LUA_TNIL)
      luaL_error(L, "%s: the decision at %s has probs; only a chance node "
                 "(player = \"chance\") has them", R->who, rpath(R, d));
    if (nd != NULL) {
      nd->who = (int)pl - 1;
      nd->infoset = lua_tostring(L, t + 3);
      lua_rawgeti(L, t + 4, 1);
      nd->act[0] = lua_tostring(L, -1);
      lua_rawgeti(L, t + 4, 2);
      nd->act[1] = lua_tostring(L, -1);
      nd->where = ch == LUA_TSTRING ? lua_tostring(L, t + 5) : NULL;
    }
  }
  if (nd != NULL) nd->nkids = nk;
  /* (4) the children, in order */
  for (j = 0; j < nk; j++) {
    lua_rawgeti(L, t + 2, j + 1);
    R->path[d] = j;
    rnode(R, d + 1);
  }
  lua_settop(L, t - 1);
}

ol_problem *olua_efg_new (lua_State *L, int idx, const char *who,
                          ol_err *e)
{
  static const char *const keys[] = {"root", "name", "value", NULL};
  reader R;
  ol_problem *p;
  int pass, top;
  idx = lua_absindex(L, idx);
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                   : "?";
    int i;
    for (i = 0; keys[i] != NULL && strcmp(keys[i], k) != 0; i++) {}
    if (keys[i] == NULL) olua_unknownkey(L, who, "parameter", k, keys);
    lua_pop(L, 1);
  }
  if (rawfield(L, idx, "value") != LUA_TNIL && lua_type(L, -1)
      != LUA_TNUMBER)
    luaL_error(L, "%s: value must be a number (the game's value for player "
               "1), got %s", who, luaL_typename(L, -1));
  lua_pop(L, 1);
  if (rawfield(L, idx, "name") != LUA_TNIL && lua_type(L, -1)
      != LUA_TSTRING)
    luaL_error(L, "%s: name must be a string, got %s", who,
               luaL_typename(L, -1));
  lua_pop(L, 1);
  if (rawfield(L, idx, "root") != LUA_TTABLE)
    luaL_error(L, "%s: root must be the game's root node (a table: "
               "{player = ..., ...}), got %s", who, luaL_typename(L, -1));
  top = lua_gettop(L);
  memset(&R, 0, sizeof R);
  R.L = L;
  R.who = who;
  /* (1) count and check the shapes, (2) fill GC-owned buffers */
  for (pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      R.node = lua_newuserdatauv(L, sizeof *R.node * (size_t)R.n, 0);
      memset(R.node, 0, sizeof *R.node * (size_t)R.n);
      R.prob = lua_newuserdatauv(L, sizeof *R.prob
                                 * (size_t)(R.np > 0 ? R.np : 1), 0);
      R.fill = 1;
      R.n = R.np = 0;
    }
    lua_pushvalue(L, top);
    rnode(&R, 0);
  }
  p = ol_problem_efg(R.node, R.n, e);
  if (p == NULL) return NULL;
  if ((rawfield(L, idx, "name") != LUA_TNIL &&
       ol_problem_set_name(p, lua_tostring(L, -1), e) != OL_OK) ||
      (rawfield(L, idx, "value") != LUA_TNIL &&
       ol_problem_set_fstar(p, lua_tonumber(L, -1), e) != OL_OK)) {
    ol_problem_free(p);
    return NULL;
  }
  lua_settop(L, top - 1);
  return p;
}
