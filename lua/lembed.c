/*
** lua/lembed.c -- the pure-Lua part of the library, compiled in.
**
** The Makefile turns each file of its LUA_LIB list (every lua/ *.lua, in
** an order that matters, see there) into an entry {name, text} of
** lua/lualib.inc; here they are loaded in that order when the library is
** opened, each chunk called with the internal 'core' table (registry data
** and helpers from C) as its only argument.  Chunk names are "@lua/x.lua"
** so errors and tracebacks point at the source file.
*/
#include <stddef.h>
#include <string.h>

#include "lbind.h"

static const struct {
  const char *name;
  const char *text;
} chunks[] = {
#include "lualib.inc"
  {NULL, NULL}
};

/* Load and run each chunk with the core table (stack index core). */
void olua_loadembedded (lua_State *L, int core)
{
  int i;
  for (i = 0; chunks[i].name != NULL; i++) {
    lua_pushfstring(L, "@%s", chunks[i].name);
    if (luaL_loadbuffer(L, chunks[i].text, strlen(chunks[i].text),
                        lua_tostring(L, -1)) != LUA_OK)
      lua_error(L);
    lua_remove(L, -2);
    lua_pushvalue(L, core);
    lua_call(L, 1, 0);
  }
}
