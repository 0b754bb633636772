/*
** core/err.c -- error reporting and parameter checking (see ol.h).
**
** Holds ol_err_set / ol_err_clear / ol_strerror, the scalar parameter
** check shared by every plug-in table, and small helpers.  Messages name
** the parameter and its range or choices so the binding can show them as
** they are.  No state: everything here is a pure function of its inputs,
** but for the definition of the interrupt flag pointer ol_intr (ol.h).
*/
#include "ol.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile sig_atomic_t *ol_intr = NULL;

/* Fill e (when not NULL) with code and a formatted message; returns code.
** The message is formatted into a temporary first, so fmt arguments may
** point into e->msg itself. */
int ol_err_set (ol_err *e, int code, const char *fmt, ...)
{
  char buf[OL_ERRMAX];
  va_list ap;
  if (e == NULL) return code;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  e->code = code;
  memcpy(e->msg, buf, sizeof buf);
  return code;
}

/* Reset e (may be NULL) to OL_OK with an empty message. */
void ol_err_clear (ol_err *e)
{
  if (e == NULL) return;
  e->code = OL_OK;
  e->msg[0] = '\0';
}

/* Static text for a status code; never NULL. */
const char *ol_strerror (int code)
{
  switch (code) {
  case OL_OK: return "ok";
  case OL_ENOMEM: return "out of memory";
  case OL_EINVAL: return "invalid argument";
  case OL_EDOM: return "non-finite value";
  case OL_ENUMERIC: return "numerical failure";
  case OL_ECALLBACK: return "callback failed";
  case OL_EINTR: return "interrupted";
  default: return "unknown error";
  }
}

/* Number of '|'-separated choices in s (0 for NULL or ""). */
static int count_choices (const char *s)
{
  int k = 1;
  if (s == NULL || *s == '\0') return 0;
  for (; *s; s++)
    if (*s == '|') k++;
  return k;
}

/* %g of v, with inf / -inf spelled as Lua prints them in help, and a
** bound of 1e300 or beyond (no bound) as inf. */
static void fmt_bound (char *buf, size_t size, double v)
{
  if (isinf(v) || fabs(v) >= 1e300)
    snprintf(buf, size, "%s", v > 0 ? "inf" : "-inf");
  else snprintf(buf, size, "%g", v);
}

char *ol_param_range (const ol_param *pd, char *buf, size_t size)
{
  char lo[32], hi[32];
  int olo = 0, ohi;
  if (pd->lo == OL_GT0) {
    snprintf(lo, sizeof lo, "0");    /* OL_GT0: "> 0" */
    olo = 1;
  }
  else fmt_bound(lo, sizeof lo, pd->lo);
  fmt_bound(hi, sizeof hi, pd->hi);
  olo = olo || (!isinf(pd->lo) && pd->lo <= -1e300) ||
    strtod(lo, NULL) < pd->lo;
  ohi = (!isinf(pd->hi) && pd->hi >= 1e300) || strtod(hi, NULL) > pd->hi;
  snprintf(buf, size, "%s%s, %s%s", olo ? "(" : "[", lo, hi, ohi ? ")" : "]");
  return buf;
}

/* Check one scalar value against its descriptor.  VECTOR and MATRIX
** parameters carry arrays, not numbers, and always pass here. */
int ol_param_check (const ol_param *pd, double v, ol_err *e)
{
  char range[80];
  int k;
  if (pd == NULL)
    return ol_err_set(e, OL_EINVAL, "no parameter descriptor");
  switch (pd->kind) {
  case OL_P_REAL:
    if (isnan(v))
      return ol_err_set(e, OL_EINVAL, "%s = nan is out of range %s",
                        pd->name, ol_param_range(pd, range, sizeof range));
    if (v < pd->lo || v > pd->hi)
      return ol_err_set(e, OL_EINVAL, "%s = %g is out of range %s",
                        pd->name, v, ol_param_range(pd, range, sizeof range));
    return OL_OK;
  case OL_P_INT:
    if (!isfinite(v) || v != floor(v))
      return ol_err_set(e, OL_EINVAL,
                        "%s = %g is not an integer (range %s)",
                        pd->name, v, ol_param_range(pd, range, sizeof range));
    if (v < pd->lo || v > pd->hi)
      return ol_err_set(e, OL_EINVAL, "%s = %g is out of range %s",
                        pd->name, v, ol_param_range(pd, range, sizeof range));
    return OL_OK;
  case OL_P_BOOL:
    if (v != 0 && v != 1)
      return ol_err_set(e, OL_EINVAL,
                        "%s = %g is not a boolean (0 or 1, false or true)",
                        pd->name, v);
    return OL_OK;
  case OL_P_ENUM:
    k = count_choices(pd->choices);
    if (!isfinite(v) || v != floor(v) || v < 0 || v >= k)
      return ol_err_set(e, OL_EINVAL,
                        "%s = %g is not one of the choices %s "
                        "(index 0 to %d)", pd->name, v,
                        pd->choices ? pd->choices : "(none)", k - 1);
    return OL_OK;
  case OL_P_VECTOR:
  case OL_P_MATRIX:
    return OL_OK;
  default:
    return ol_err_set(e, OL_EINVAL, "%s has an unknown parameter kind %d",
                      pd->name, pd->kind);
  }
}

/* Linear search; tables are a handful of entries. */
int ol_param_find (const ol_param *pt, int np, const char *name)
{
  int i;
  if (pt == NULL || name == NULL) return -1;
  for (i = 0; i < np; i++)
    if (pt[i].name != NULL && strcmp(pt[i].name, name) == 0) return i;
  return -1;
}

/* 1 when all n entries are finite.  Branch-free on the bits so it
** vectorises for long vectors and stays a few cycles for short ones: the
** exponent field plus one reaches bit 63 exactly when it is all ones
** (Inf or NaN). */
int ol_allfinite (const double *x, int n)
{
  uint64_t bad = 0;
  int i;
  for (i = 0; i < n; i++) bad |= ol_fbit(x[i]);
  return OL_FBITS_OK(bad);
}
