/*
** repl/view.c -- placeholder live view (replaced by the ncurses view).
*/
#include <stdarg.h>

#include "repl.h"

const olua_view *repl_view (const repl_opts *o)
{
  (void)o;
  return NULL;
}

void repl_log (const char *fmt, ...)
{
  (void)fmt;
}
