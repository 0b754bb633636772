/*
** tests/c/t_umetric.c -- metrics of the user's (core/metrics/user.c): the
** slots are invisible until bound, binding checks its name and names the
** limit, a bound metric is recorded by a run with the hook's values (the
** squared norm of the iterate, against the built-in dist on a problem
** whose minimizer is 0), a failing hook stops the run with its message,
** rebinding keeps the id and unbinding hides the slot again.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ol.h"
#include "metrics.h"
#include "run.h"
#include "tap.h"
#include "olt.h"

static int calls;

/* ||x||^2; ud points to the id expected */
static int sqnorm (void *ud, int id, const ol_mstate *s, double *v,
                   ol_err *e)
{
  double a = 0;
  int i;
  calls++;
  if (*(const int *)ud != id)
    return ol_err_set(e, OL_ECALLBACK, "hook called with id %d", id);
  for (i = 0; i < s->n; i++) a += s->x[i] * s->x[i];
  *v = a;
  return OL_OK;
}

/* fails once t reaches 3 */
static int failing (void *ud, int id, const ol_mstate *s, double *v,
                    ol_err *e)
{
  (void)ud;
  (void)id;
  if (s->t >= 3) return ol_err_set(e, OL_ECALLBACK, "boom at %ld", s->t);
  *v = (double)s->t;
  return OL_OK;
}

int main (void)
{
  ol_err e;
  ol_problem *p = olt_quadratic(3, 10, 1);
  const ol_method_type *gd;
  double par[8];
  int i, id, id2, hidden = 1, ud = -1, k;
  ol_run_opts o;
  ol_run *r;
  ol_mset ms = OL_MSET_NONE;

  /* (1) unbound slots: nameless, found by no name, not available */
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_metric_user(i) &&
        (ol_metric_defined(i) || ol_metric_types[i]->name[0] != '\0' ||
         ol_metric_types[i]->avail(p, OL_OPTIM)))
      hidden = 0;
  ok(hidden && ol_metric_find("") == -1 && ol_metric_find("user0") == -1,
     "umetric: the %d unbound slots are invisible", OL_METRIC_NUSER);
  ok(ol_metric_user(OL_MET_USER0) && !ol_metric_user(OL_MET_LOSS) &&
     ol_metric_defined(OL_MET_LOSS),
     "umetric: ol_metric_user tells the slots from the built-ins");

  /* (2) bad names */
  ok(ol_metric_user_bind("loss", "", sqnorm, &ud, &e) < 0 &&
     strstr(e.msg, "built-in") != NULL, "umetric: a built-in name is "
     "refused: %s", e.msg);
  ok(ol_metric_user_bind("2x", "", sqnorm, &ud, &e) < 0 &&
     strstr(e.msg, "identifier") != NULL, "umetric: a non-identifier is "
     "refused: %s", e.msg);
  ok(ol_metric_user_bind("", "", sqnorm, &ud, &e) < 0,
     "umetric: the empty name is refused");
  ok(ol_metric_user_bind("abcdefghijklmnopqrstuvwxyzabcdefg", "", sqnorm,
                         &ud, &e) < 0 && strstr(e.msg, "longer") != NULL,
     "umetric: a name of 33 characters is refused: %s", e.msg);

  /* (3) bind, record, compare with dist^2 (x* = 0) */
  id = ol_metric_user_bind("sqnorm", "||x||^2", sqnorm, &ud, &e);
  ud = id;
  ok(id == OL_MET_USER0 && ol_metric_find("sqnorm") == id &&
     ol_metric_defined(id) && strcmp(ol_metric_types[id]->doc, "||x||^2")
     == 0, "umetric: bound to the first slot, found by name (id %d)", id);
  gd = olt_method("gd", par, "lr", 0.05, NULL);
  ol_mset_add(&ms, OL_MET_DIST);
  ol_mset_add(&ms, id);
  o = olt_opts(40, 0, ms);
  r = olt_go(p, gd, par, &o);
  ok(r != NULL && ol_run_reason(r) == OL_STOP_BUDGET,
     "umetric: the run records it to its budget");
  if (r != NULL) {
    const double *v = ol_run_series(r, id), *d = ol_run_series(r, OL_MET_DIST);
    double worst = 0;
    for (k = 0; k < ol_run_len(r); k++)
      worst = fmax(worst, fabs(v[k] - d[k] * d[k]) / fmax(1, d[k] * d[k]));
    ok(v != NULL && ol_run_len(r) > 10 && worst <= 1e-12,
       "umetric: ||x||^2 = dist^2 at every record (worst rel. diff %.2g "
       "over %d records)", worst, ol_run_len(r));
    ok(calls >= ol_run_len(r), "umetric: the hook was called (%d calls)",
       calls);
  }
  ol_run_free(r);

  /* (4) rebinding by the same binder keeps the id; another is refused */
  id2 = ol_metric_user_bind("sqnorm", "squared norm", sqnorm, &ud, &e);
  ok(id2 == id && strcmp(ol_metric_types[id]->doc, "squared norm") == 0,
     "umetric: rebinding keeps the id and takes the new doc");
  ok(ol_metric_user_bind("sqnorm", "", sqnorm, &calls, &e) < 0 &&
     strstr(e.msg, "another") != NULL, "umetric: another binder is "
     "refused: %s", e.msg);

  /* (5) a failing hook stops the run with its message */
  id2 = ol_metric_user_bind("failing", "", failing, NULL, &e);
  ol_mset_add(&ms, id2);
  o = olt_opts(40, 0, ms);
  r = olt_go(p, gd, par, &o);
  ok(r != NULL && ol_run_reason(r) == OL_STOP_CALLBACK &&
     strstr(ol_run_message(r), "boom at 3") != NULL,
     "umetric: a failing hook stops the run: %s",
     r != NULL ? ol_run_message(r) : "(no run)");
  ok(r != NULL && ol_run_len(r) >= 1 && ol_run_len(r) <= 4 &&
     isnan(ol_run_series(r, id2)[ol_run_len(r) - 1]),
     "umetric: the failed record holds NaN");
  ol_run_free(r);
  ol_metric_user_unbind(id2);

  /* (6) the limit is named once every slot is taken */
  {
    char nm[16];
    int got = 1;
    for (i = 1; i < OL_METRIC_NUSER; i++) {
      snprintf(nm, sizeof nm, "m%d", i);
      if (ol_metric_user_bind(nm, "", sqnorm, &ud, &e) < 0) got = 0;
    }
    ok(got, "umetric: %d metrics bound", OL_METRIC_NUSER);
    ok(ol_metric_user_bind("onemore", "", sqnorm, &ud, &e) < 0 &&
       strstr(e.msg, "16 slots") != NULL && strstr(e.msg, "sqnorm") != NULL,
       "umetric: one more names the limit and the holders: %s", e.msg);
  }

  /* (7) releasing hides every slot again */
  ol_metric_user_release(&ud);
  for (i = 0, hidden = 1; i < OL_NMETRICS; i++)
    if (ol_metric_user(i) && ol_metric_defined(i)) hidden = 0;
  ok(hidden && ol_metric_find("sqnorm") == -1,
     "umetric: released, every slot is unbound");
  ol_problem_free(p);
  return done();
}
