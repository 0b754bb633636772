/*
** repl/prompt.h -- hooks into the interactive loop (repl_loop in repl.h).
**
** The loop select()s on stdin with a timeout; while background jobs are
** not done it wakes every REPL_TICK_MS milliseconds to step them a bounded
** slice and redraw the dashboard.  Output between keystrokes must go
** through repl_prompt_print so the prompt is redrawn after.
*/
#ifndef REPL_PROMPT_H
#define REPL_PROMPT_H

#include "lua.h"

#define REPL_TICK_MS 33

/* Print s above the prompt line, keeping what the user is typing. */
void repl_prompt_print (const char *s);

#endif
