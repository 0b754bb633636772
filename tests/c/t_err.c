/*
** tests/c/t_err.c -- error structs and parameter checking (core/err.c).
**
** Truth: the messages the binding shows must name the parameter and its
** range or choices; these pin their wording.
*/
#include "method.h"
#include "ol.h"
#include "problem.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
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
    /* "> 0" and "< inf" are strict (OL_GT0, OL_FINITE); 1e300 and beyond
    ** is no bound; a closed inf bound still takes inf */
    const ol_param h = {"h", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step",
                        NULL};
    const ol_param mu = {"mu", OL_P_REAL, 0, -1e300, 1e300, "mean", NULL};
    const ol_param c = {"c", OL_P_REAL, 1, 0, INFINITY, "clip", NULL};
    const ol_param d = {"delta", OL_P_REAL, 0.8, OL_GT0, 0.9999999999999999,
                        "target", NULL};
    char buf[80];
    ok(ol_param_check(&h, 0, &e) == OL_EINVAL &&
       strcmp(e.msg, "h = 0 is out of range (0, inf)") == 0,
       "param: an open lower bound rejects its endpoint (\"%s\")", e.msg);
    ok(ol_param_check(&h, INFINITY, &e) == OL_EINVAL &&
       strcmp(e.msg, "h = inf is out of range (0, inf)") == 0,
       "param: an open upper bound at inf rejects inf (\"%s\")", e.msg);
    ok(ol_param_check(&h, 1e-320, &e) == OL_OK &&
       ol_param_check(&h, 1e308, &e) == OL_OK,
       "param: every positive finite double is > 0 and < inf");
    ok(ol_param_check(&h, -1e-320, &e) == OL_EINVAL,
       "param: a negative denormal is not > 0");
    is_str(ol_param_range(&mu, buf, sizeof buf), "(-inf, inf)",
           "param: +-1e300 is shown as no bound");
    is_str(ol_param_range(&c, buf, sizeof buf), "[0, inf]",
           "param: a closed inf bound stays closed");
    ok(ol_param_check(&c, INFINITY, &e) == OL_OK,
       "param: a closed inf bound takes inf (clipsgd c = inf: no clipping)");
    is_str(ol_param_range(&d, buf, sizeof buf), "(0, 1)",
           "param: open at both ends");
  }
  {
    /* every registered table says what it enforces: a doc "> 0" has an
    ** open lower bound; a 0/1 choice is a boolean (its doc does not read
    ** "0: ... 1: ..."), with a default of 0 or 1 */
    int i, k, bad = 0, nb = 0;
    char buf[80];
    for (k = 0; k < 2; k++) {
      int nt = 0;
      for (i = 0; k == 0 ? ol_methods[i] != NULL
                         : ol_problem_types[i] != NULL; i++, nt++) {}
      for (i = 0; i < nt; i++) {
        const ol_param *tab = k == 0 ? ol_methods[i]->params
                                     : ol_problem_types[i]->params;
        int np = k == 0 ? ol_methods[i]->nparams
                        : ol_problem_types[i]->nparams, j;
        const char *tn = k == 0 ? ol_methods[i]->name
                                : ol_problem_types[i]->name;
        for (j = 0; j < np; j++) {
          const ol_param *pd = &tab[j];
          const char *doc = pd->doc != NULL ? pd->doc : "";
          if (pd->kind == OL_P_REAL || pd->kind == OL_P_INT) {
            ol_param_range(pd, buf, sizeof buf);
            if (strstr(doc, "> 0") != NULL && strncmp(doc, "adaptation",
                                                      10) != 0 &&
                strstr(doc, "warmup > 0") == NULL && buf[0] != '(') {
              diag("%s.%s: doc says > 0, range %s", tn, pd->name, buf);
              bad++;
            }
            if (pd->lo == 0 && pd->hi == 1 && pd->kind == OL_P_INT) {
              diag("%s.%s: an integer in [0, 1] (a boolean?)", tn,
                   pd->name);
              bad++;
            }
            if (strncmp(doc, "1:", 2) == 0 || strncmp(doc, "0:", 2) == 0) {
              diag("%s.%s: doc reads as a 0/1 switch: %s", tn, pd->name,
                   doc);
              bad++;
            }
          }
          if (pd->kind == OL_P_BOOL) {
            nb++;
            if (!(pd->def == 0 || pd->def == 1)) bad++;
          }
        }
      }
    }
    ok(bad == 0, "tables: every '> 0' is an open bound and every 0/1 "
       "switch a boolean (%d booleans)", nb);
  }
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
