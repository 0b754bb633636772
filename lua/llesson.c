/*
** lua/llesson.c -- the program's side of lesson scripts, for
** lua/lesson.lua: the terminal's width, the live view's caption and one
** key, through the hooks the program installs (olua_setlesson).
**
** The hooks are kept by pointer in the registry under "optlab.lesson";
** none installed means no terminal (a pipe, --no-tui): core.lesson_width
** then returns nil and lesson.lua prints and returns at once.
*/
#include "lbind.h"

#define LESSONKEY "optlab.lesson"

void olua_setlesson (lua_State *L, const olua_lesson *h)
{
  lua_pushlightuserdata(L, (void *)h);
  lua_setfield(L, LUA_REGISTRYINDEX, LESSONKEY);
}

/* The hooks, or NULL when none are installed. */
static const olua_lesson *hooks (lua_State *L)
{
  const olua_lesson *h;
  lua_getfield(L, LUA_REGISTRYINDEX, LESSONKEY);
  h = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return h;
}

/* core.lesson_width(): the terminal's columns, or nil without one. */
static int lesson_width (lua_State *L)
{
  const olua_lesson *h = hooks(L);
  if (h == NULL) return 0;
  lua_pushinteger(L, h->width(h->ud));
  return 1;
}

/* core.lesson_caption(text or nil): the view's caption from now on. */
static int lesson_caption (lua_State *L)
{
  const olua_lesson *h = hooks(L);
  if (h != NULL) h->caption(h->ud, luaL_optstring(L, 1, NULL));
  return 0;
}

/* core.lesson_key(prompt): show the prompt and return the next key as a
** string (one byte, or "left", "right", "back"), nil for Ctrl-C or the
** end of input; nil at once without a terminal. */
static int lesson_key (lua_State *L)
{
  const olua_lesson *h = hooks(L);
  int c;
  char b;
  if (h == NULL) return 0;
  c = h->key(h->ud, luaL_checkstring(L, 1));
  switch (c) {
  case OLUA_KEY_INTR: return 0;
  case OLUA_KEY_LEFT: lua_pushliteral(L, "left"); return 1;
  case OLUA_KEY_RIGHT: lua_pushliteral(L, "right"); return 1;
  case OLUA_KEY_BACK: lua_pushliteral(L, "back"); return 1;
  default:
    b = (char)c;
    lua_pushlstring(L, &b, 1);
    return 1;
  }
}

void olua_openlesson (lua_State *L, int core)
{
  static const luaL_Reg fns[] = {
    {"lesson_width", lesson_width},
    {"lesson_caption", lesson_caption},
    {"lesson_key", lesson_key},
    {NULL, NULL}
  };
  lua_pushvalue(L, core);
  luaL_setfuncs(L, fns, 0);
  lua_pop(L, 1);
}
