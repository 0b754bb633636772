/*
** tests/c/t_err.c -- error structs and parameter checking (core/err.c).
**
** Truth: the messages the binding shows must name the parameter and its
** range or choices; these pin their wording.
*/
#include "ol.h"
#include "tap.h"

#include <math.h>
#include <string.h>

int main (void)
{
  static const ol_param pt[] = {
    {"lr", OL_P_REAL, 0.1, 0, INFINITY, "step size", NULL},
    {"m", OL_P_INT, 5, 1, 100, "memory", NULL},
    {"nesterov", OL_P_BOOL, 0, 0, 1, "look ahead", NULL},
    {"sched", OL_P_ENUM, 0, 0, 0, "schedule", "const|step|cosine"},
    {"A", OL_P_MATRIX, 0, 0, 0, "payoff", NULL}
  };
  ol_err e;
  const char *s;

  is_int(ol_err_set(&e, OL_EDOM, "x = %d", 3), OL_EDOM,
         "err: set returns the code");
  ok(e.code == OL_EDOM && strcmp(e.msg, "x = 3") == 0,
     "err: set fills code and message");
  ol_err_set(&e, OL_EINVAL, "wrapped: %s", e.msg);
  is_str(e.msg, "wrapped: x = 3", "err: a message may wrap the previous one");
  ol_err_clear(&e);
  ok(e.code == OL_OK && e.msg[0] == '\0', "err: clear resets");
  is_int(ol_err_set(NULL, OL_ENOMEM, "x"), OL_ENOMEM,
         "err: set accepts a NULL error");
  is_str(ol_strerror(OL_ENOMEM), "out of memory", "err: strerror names codes");
  s = ol_strerror(12345);
  ok(s != NULL && *s, "err: strerror of an unknown code is still a string");

  ok(ol_param_check(&pt[0], -1, &e) == OL_EINVAL &&
     strcmp(e.msg, "lr = -1 is out of range [0, inf]") == 0,
     "param: \"lr = -1 is out of range [0, inf]\"");
  ok(ol_param_check(&pt[0], NAN, &e) == OL_EINVAL &&
     strcmp(e.msg, "lr = nan is out of range [0, inf]") == 0,
     "param: NaN is out of every range (\"%s\")", e.msg);
  {
    /* open bounds are stored as the nearest double inside them */
    const ol_param beta = {"beta1", OL_P_REAL, 0.9, 0, 0.9999999999999999,
                           "decay", NULL};
    const ol_param b0 = {"b0", OL_P_REAL, 1, 0x1p-1022, 5, "start", NULL};
    char buf[80];
    ok(ol_param_check(&beta, 1, &e) == OL_EINVAL &&
       strcmp(e.msg, "beta1 = 1 is out of range [0, 1)") == 0,
       "param: an open upper bound is shown as ')' (\"%s\")", e.msg);
    ok(ol_param_check(&beta, 0.9999999999999999, &e) == OL_OK,
       "param: the double just below an open bound is inside");
    is_str(ol_param_range(&b0, buf, sizeof buf), "(2.22507e-308, 5]",
           "param: a lower bound that prints above itself is open");
    is_str(ol_param_range(&pt[1], buf, sizeof buf), "[1, 100]",
           "param: integer ranges are closed");
  }
  ok(ol_param_check(&pt[0], 0.5, &e) == OL_OK, "param: 0.5 is a fine lr");
  ok(ol_param_check(&pt[1], 2.5, &e) == OL_EINVAL &&
     strstr(e.msg, "m = 2.5 is not an integer") != NULL &&
     strstr(e.msg, "[1, 100]") != NULL,
     "param: an integer parameter rejects 2.5 and gives the range");
  ok(ol_param_check(&pt[1], 101, &e) == OL_EINVAL &&
     strstr(e.msg, "m = 101 is out of range [1, 100]") != NULL,
     "param: an integer above its range names it");
  ok(ol_param_check(&pt[1], 100, &e) == OL_OK,
     "param: integer bounds are closed");
  ok(ol_param_check(&pt[2], 2, &e) == OL_EINVAL &&
     strstr(e.msg, "nesterov") != NULL && strstr(e.msg, "0 or 1") != NULL,
     "param: a boolean accepts only 0 or 1");
  ok(ol_param_check(&pt[2], 1, &e) == OL_OK, "param: 1 is a boolean");
  ok(ol_param_check(&pt[3], 3, &e) == OL_EINVAL &&
     strstr(e.msg, "sched") != NULL &&
     strstr(e.msg, "const|step|cosine") != NULL,
     "param: an enum index out of range lists the choices");
  ok(ol_param_check(&pt[3], 2, &e) == OL_OK &&
     ol_param_check(&pt[3], 1.5, &e) == OL_EINVAL,
     "param: enum indices are integral and in range");
  ok(ol_param_check(&pt[4], 0, &e) == OL_OK,
     "param: array parameters pass the scalar check");
  is_int(ol_param_find(pt, 5, "nesterov"), 2, "param: find by name");
  is_int(ol_param_find(pt, 5, "beta"), -1, "param: unknown name is -1");

  {
    double v[3] = {1, 2, 3};
    ok(ol_allfinite(v, 3), "allfinite: finite vector");
    v[1] = INFINITY;
    ok(!ol_allfinite(v, 3), "allfinite: Inf is caught");
    v[1] = NAN;
    ok(!ol_allfinite(v, 3), "allfinite: NaN is caught");
    ok(ol_allfinite(v, 0), "allfinite: an empty vector is finite");
  }
  return done();
}
