/*
** repl/repl.h -- the parts of the program shared between its files.
**
** main.c      argument handling, the Lua state, running scripts/chunks,
**             SIGINT handling, and the docall/report helpers below.
** prompt.c    the interactive loop: readline's callback interface inside
**             one select() loop (history, completion, multi-line input,
**             value printing).
** model.c     the one view model and key table of both live displays.
** view.c etc. the ncurses full-screen live view behind olua_view.
** dash.c      the dashboard of background jobs beside the prompt.
*/
#ifndef REPL_H
#define REPL_H

#include "lua.h"
#include "optlab.h"

typedef struct repl_opts {
  int ascii;            /* --ascii: no braille / Unicode in the view */
  int notui;            /* --no-tui: never open the live view */
  int verbose;          /* -v: debug log to $OPTLAB_LOG or ./optlab.log */
  int mpitty;           /* rank 0 of an mpirun job: the view draws on
                           /dev/tty, keys come through mpirun's stdin */
} repl_opts;

/* Run the function on top of the stack with narg arguments under a
** traceback message handler and the SIGINT hook; status as lua_pcall. */
int repl_docall (lua_State *L, int narg, int nres);
/* Around the prompt's stepping of background jobs: repl_intr_tick
** clears the interrupt flag (before and after); repl_intr_tick_signal,
** called from the prompt's SIGINT handler while it steps them
** (async-signal-safe), sets it, so that the slice ends, and interrupts a
** job's Lua callback still running 20 ms later. */
void repl_intr_tick (int on);
void repl_intr_tick_signal (void);
/* Note the time of a Ctrl-C (async-signal-safe; the first one only until
** it is answered); repl_intr_answered: milliseconds since then, once (a
** fresh prompt is up), or -1.  The prompt logs it with -v. */
void repl_intr_mark (void);
double repl_intr_answered (void);
/* Print a non-OK status's message (on top of the stack) to stderr as
** "optlab: <msg>" and pop it; returns status. */
int repl_report (lua_State *L, int status);

/* The interactive loop; returns when the user types Ctrl-D or calls
** os.exit.  History in $OPTLAB_HISTORY or ~/.optlab_history. */
void repl_loop (lua_State *L, const repl_opts *o);

/* The live view for run/race on a terminal; NULL when it cannot be
** used (stdout or stdin not a terminal, TERM unusable). */
const olua_view *repl_view (const repl_opts *o);

/* Debug log, only with -v, only to a file. */
void repl_log (const char *fmt, ...);

#endif
