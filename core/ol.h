/*
** core/ol.h -- common definitions of the optlab numeric core.
**
** Error codes, the caller-owned error struct, parameter descriptors shared
** by every plug-in family (methods and problems), and small helpers.
** Layer rule: core/ includes only libc, libm, <cblas.h> and <lapacke.h>;
** it never includes Lua, curses or readline, never prints, exits or aborts,
** and keeps no writable globals but two: ol_intr, the interrupt flag below,
** and bg.c's count (under its mutex) of factorisations left running after
** a Ctrl-C.
*/
#ifndef OL_H
#define OL_H

#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OL_VERSION "0.1.0"

/* Status codes.  Every fallible core function returns one of these and,
** when it is not OL_OK, fills the caller's ol_err with a message. */
enum {
  OL_OK = 0,
  OL_ENOMEM,     /* out of memory */
  OL_EINVAL,     /* invalid argument (bad parameter, size mismatch) */
  OL_EDOM,       /* non-finite value (NaN or Inf) produced or received */
  OL_ENUMERIC,   /* numerical failure: LAPACK info > 0, line search */
  OL_ECALLBACK,  /* a user callback (Lua objective) failed */
  OL_EINTR       /* interrupted by the caller */
};

#define OL_ERRMAX 1024

/* Caller-owned error: code plus a human-readable message.  A callback
** failure keeps the callback's own message (a Lua traceback) here. */
typedef struct ol_err {
  int code;
  char msg[OL_ERRMAX];
} ol_err;

/* Set e (may be NULL) to code and a printf-style message; returns code. */
int ol_err_set (ol_err *e, int code, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;
void ol_err_clear (ol_err *e);
const char *ol_strerror (int code);   /* "out of memory", ... */

/* Parameter descriptors.  One table per plug-in (method or problem type),
** in the order the plug-in reads its values.  The binding checks user input
** against it (unknown key -> error listing valid keys; out of [lo, hi] ->
** error giving the range) and help() prints it. */
enum {
  OL_P_REAL,     /* double in [lo, hi] */
  OL_P_INT,      /* integer in [lo, hi] (stored as double) */
  OL_P_BOOL,     /* 0 or 1 */
  OL_P_ENUM,     /* index into choices "a|b|c" (stored as double) */
  OL_P_VECTOR,   /* problems only: array of doubles (ol_pval.arr, cols) */
  OL_P_MATRIX    /* problems only: row-major rows x cols (ol_pval.arr) */
};

/* Open bounds, written as the double next to the bound, so that the
** closed check v >= lo is exactly the open one (ol_param_range shows them
** as open): OL_GT0 for "> 0" (the least double above 0, so 0 is out and
** every positive double in), OL_FINITE for "< inf" (inf is out).  An
** open bound at 1 is 0.9999999999999999, the double below it. */
#define OL_GT0    0x1p-1074
#define OL_FINITE 0x1.fffffffffffffp+1023

typedef struct ol_param {
  const char *name;     /* Lua key, named as in the cited paper */
  int kind;             /* OL_P_* */
  double def;           /* default (index for OL_P_ENUM) */
  double lo, hi;        /* closed bounds for REAL / INT (an open one is
                           the double next to it: OL_GT0, OL_FINITE);
                           +-1e300 and beyond mean none */
  const char *doc;      /* one line */
  const char *choices;  /* OL_P_ENUM: "const|step|cosine"; else NULL */
} ol_param;

/* A parameter value as handed to a problem constructor.  For scalar kinds
** only num is used; arrays are borrowed for the duration of the call. */
typedef struct ol_pval {
  double num;
  const double *arr;    /* NULL when the optional array was not given */
  int rows, cols;
} ol_pval;

/* Check v against the table entry pd: OL_OK or OL_EINVAL with a message
** that names the parameter and its range or choices. */
int ol_param_check (const ol_param *pd, double v, ol_err *e);

/* The range of a REAL or INT parameter as text, "[0, 1)", "(0, inf)" or
** "(-inf, inf)": a bound is shown open when it is the double next to the
** one shown: a lo of OL_GT0 ("(0"), +-1e300 or beyond
** (shown as inf: no bound, or OL_FINITE), or one that prints (%g) as a
** different number (0.9999999999999999 as "1)").  Writes at most size
** bytes to buf and returns buf. */
char *ol_param_range (const ol_param *pd, char *buf, size_t size);

/* Index of name in a parameter table of np entries, or -1. */
int ol_param_find (const ol_param *pt, int np, const char *name);

/* Return 1 if every one of the n doubles is finite. */
int ol_allfinite (const double *x, int n);

/* The bit test behind ol_allfinite, to fold into a loop that already
** visits the values: bad |= ol_fbit(v) for each v, then OL_FBITS_OK(bad)
** is 1 when all were finite (bit 63 is set by an all-ones exponent). */
static inline uint64_t ol_fbit (double v)
{
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return (u & 0x7ff0000000000000u) + 0x0010000000000000u;
}
#define OL_FBITS_OK(bad) (((bad) >> 63) == 0)

/* v for a message: a NaN without its sign bit, so that %g shows "nan"
** (x86's 0/0 is a negative NaN, which printf writes "-nan"). */
static inline double ol_shown (double v)
{
  return v != v ? (double)NAN : v;
}

/* Seconds on a monotonic clock (CLOCK_MONOTONIC), for pacing and elapsed
** times; the one clock of every layer (core/clock.c). */
double ol_now (void);

/* The one number format of optlab's output (legends, summaries, tables,
** progress lines; core/fmt.c): v with sig significant digits (1..17) as
** %g writes it, but "nan" for any NaN (never "-nan"), "inf" / "-inf",
** and 0 for a negative zero (never "-0").  Writes at most size bytes
** to buf and returns buf. */
char *ol_fmtnum (char *buf, size_t size, double v, int sig);

/* The interrupt flag: NULL (the default), or a flag the program's SIGINT
** handler sets (repl/main.c points it at its own before running any Lua).
** The core cannot see signals; work that is not sliced into steps and may
** take long (building a dense random rotation of n up to 4096) polls it
** with ol_interrupted() every few milliseconds and then stops with
** OL_EINTR ("interrupted"), its partial results freed.  The core only
** reads the flag; whoever set it clears it. */
extern volatile sig_atomic_t *ol_intr;

static inline int ol_interrupted (void)
{
  return ol_intr != NULL && *ol_intr != 0;
}

#endif
