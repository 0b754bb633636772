/*
** lua/embed/luadump.c -- a build tool: compiles the pure-Lua library files
** named on the command line to Lua bytecode and writes them to stdout as
** the C initialisers of lua/lualib.inc, one entry {name, length, bytes}
** per file, in the order given (lua/lembed.c loads them in that order).
**
** Why: parsing ~100 KB of Lua source at every start-up was a seventh of
** optlab's start-up time; loading bytecode skips the lexer and parser.
** The bytecode keeps its debug information (lua_dump with strip = 0) and
** the chunk name "@lua/x.lua" (luaL_loadfile's, run from the top of the
** tree), so errors and tracebacks name the source
** file and line as before.  It is made by the liblua the program links,
** at build time, so its format is always the one the program loads.
** Exit status 1, with the reason on stderr, if a file cannot be read or
** does not compile.
*/
#include <stdio.h>
#include <stdlib.h>

#include "lua.h"
#include "lauxlib.h"

static size_t col;

/* lua_Writer: the bytes as "0x1b," items, 16 to a line. */
static int writer (lua_State *L, const void *p, size_t n, void *ud)
{
  const unsigned char *b = p;
  size_t i;
  (void)L;
  (void)ud;
  for (i = 0; i < n; i++) {
    printf("0x%02x,%s", b[i], ++col % 16 == 0 ? "\n" : "");
  }
  return 0;
}

/* lua_Writer: only counts. */
static int counter (lua_State *L, const void *p, size_t n, void *ud)
{
  (void)L;
  (void)p;
  *(size_t *)ud += n;
  return 0;
}

int main (int argc, char **argv)
{
  lua_State *L = luaL_newstate();
  int i;
  if (L == NULL) {
    fprintf(stderr, "luadump: out of memory\n");
    return 1;
  }
  for (i = 1; i < argc; i++) {
    size_t len = 0;
    if (luaL_loadfilex(L, argv[i], "t") != LUA_OK) {
      fprintf(stderr, "luadump: %s\n", lua_tostring(L, -1));
      lua_close(L);
      return 1;
    }
    lua_dump(L, counter, &len, 0);
    printf("{\"%s\", %zu, (const unsigned char[]){\n", argv[i], len);
    col = 0;
    lua_dump(L, writer, NULL, 0);
    printf("0}},\n");
    lua_pop(L, 1);
  }
  lua_close(L);
  return ferror(stdout) || fflush(stdout) != 0;
}
