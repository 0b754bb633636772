/*
** repl/log.c -- debug log, only with -v, only to a file.
**
** The file is $OPTLAB_LOG or ./optlab.log, opened for appending by
** repl_log_open and line-buffered; each entry is one line prefixed with
** the seconds since the log was opened.  Without -v every call is a no-op,
** so log calls may stay in the code.  Nothing here writes to the terminal:
** a file that cannot be opened just leaves logging off.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "log.h"

static FILE *log_file;
static double t0;             /* ol_now() when the log opened */

void repl_log_open (const repl_opts *o)
{
  const char *path;
  if (log_file != NULL || o == NULL || !o->verbose) return;
  path = getenv("OPTLAB_LOG");
  if (path == NULL || *path == '\0') path = "optlab.log";
  log_file = fopen(path, "a");
  if (log_file == NULL) return;
  setvbuf(log_file, NULL, _IOLBF, 0);
  t0 = ol_now();
  repl_log("log opened");
}

void repl_log_close (void)
{
  if (log_file == NULL) return;
  fclose(log_file);
  log_file = NULL;
}

void repl_log (const char *fmt, ...)
{
  va_list ap;
  if (log_file == NULL) return;
  fprintf(log_file, "%10.3f ", ol_now() - t0);
  va_start(ap, fmt);
  vfprintf(log_file, fmt, ap);
  va_end(ap);
  fputc('\n', log_file);
}
