/*
** repl/log.h -- the program's debug log (tmux's log_debug): silent unless
** -v opened it, and then only a file ($OPTLAB_LOG or ./optlab.log), never
** the terminal.  repl_log itself is declared in repl.h.
*/
#ifndef REPL_LOG_H
#define REPL_LOG_H

#include "repl.h"

/* Open the log file when o->verbose is set (appending); later calls are
** no-ops.  Safe to call from several entry points (loop, view). */
void repl_log_open (const repl_opts *o);
void repl_log_close (void);

#endif
