/*
** tests/lib/tap.h -- a minimal TAP producer for the C unit tests.
**
** Plan at the end (done()), so tests need not count.  Every check prints
** "ok N - description" or "not ok N - description" plus diagnostics
** showing what was wanted and what came.  Links with the core only.
*/
#ifndef TAP_H
#define TAP_H

int  ok (int cond, const char *fmt, ...);
/* |got - want| <= tol (absolute); NaN never passes. */
int  is_near (double got, double want, double tol, const char *fmt, ...);
/* |got - want| <= rtol * max(1, |want|). */
int  is_close (double got, double want, double rtol, const char *fmt, ...);
int  is_int (long got, long want, const char *fmt, ...);
int  is_str (const char *got, const char *want, const char *fmt, ...);
void diag (const char *fmt, ...);      /* "# ..." line */
int  done (void);                      /* prints the plan; exit status */

#endif
