/*
** lua/lembed.c -- the pure-Lua part of the library, compiled in.
**
** The Makefile compiles each file of its LUA_LIB list (every lua/ *.lua,
** in an order that matters, see there) to bytecode (lua/embed/luadump.c)
** as an entry {name, length, bytes} of lua/lualib.inc; here they are
** loaded in that order when the library is opened (binary chunks only:
** no parsing at start-up), each chunk called with the internal 'core'
** table (registry data and helpers from C) as its only argument.  The
** bytecode keeps its debug information and chunk name "@lua/x.lua", so
** errors and tracebacks point at the source file and line.
*/
#include <stddef.h>

#include "lbind.h"

static const struct {
  const char *name;
  size_t len;
  const unsigned char *bytes;
} chunks[] = {
#include "lualib.inc"
  {NULL, 0, NULL}
};

/* Load and run each chunk with the core table (stack index core). */
void olua_loadembedded (lua_State *L, int core)
{
  int i;
  for (i = 0; chunks[i].name != NULL; i++) {
    lua_pushfstring(L, "@%s", chunks[i].name);
    if (luaL_loadbufferx(L, (const char *)chunks[i].bytes, chunks[i].len,
                         lua_tostring(L, -1), "b") != LUA_OK)
      lua_error(L);
    lua_remove(L, -2);
    lua_pushvalue(L, core);
    lua_call(L, 1, 0);
  }
}
