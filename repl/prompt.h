/*
** repl/prompt.h -- hooks into the interactive loop (repl_loop in repl.h).
**
** The loop select()s on stdin with a timeout; while at least one tick hook
** is registered it wakes every REPL_TICK_MS milliseconds and calls each
** hook (background jobs step a bounded slice, a dashboard redraws).  A
** hook runs between keystrokes with readline's line intact; to print, it
** must go through repl_prompt_print so the prompt is redrawn after.
*/
#ifndef REPL_PROMPT_H
#define REPL_PROMPT_H

#include "lua.h"

#define REPL_TICK_MS 33

typedef void (*repl_tick_fn) (lua_State *L, void *ud);

/* Register fn(L, ud) to run on every tick; 0, or -1 when the table (8
** hooks) is full.  The same (fn, ud) pair is registered once. */
int repl_tick_add (repl_tick_fn fn, void *ud);
void repl_tick_remove (repl_tick_fn fn, void *ud);

/* Print s above the prompt line, keeping what the user is typing. */
void repl_prompt_print (const char *s);

#endif
