/*
** repl/prompt.c -- placeholder interactive loop (replaced by the readline
** callback loop).  Reads lines with fgets and runs them.
*/
#include <stdio.h>
#include <string.h>

#include "lauxlib.h"
#include "repl.h"

void repl_loop (lua_State *L, const repl_opts *o)
{
  char line[4096];
  (void)o;
  while (fputs("> ", stdout), fflush(stdout), fgets(line, sizeof line, stdin)) {
    if (luaL_loadstring(L, line) == LUA_OK)
      repl_report(L, repl_docall(L, 0, 0));
    else
      repl_report(L, LUA_ERRSYNTAX);
  }
}
