/*
** tests/c/t_sweep.c -- the registry sweep: every method of every family
** on every built-in problem it accepts (ol_method_check), with default
** parameters, for a fixed budget.
**
** Expected behaviour, whatever the pair: the run starts, never crashes,
** and ends with a stated reason.  A normal end (budget, tolerance) leaves
** finite metrics; an abnormal one (non-finite, numerical failure) carries
** a message.  On the convex problems every optimizer must also lower the
** loss from its start with its default parameters (a default that
** diverges on a textbook problem is a bad default).  A method that no
** problem accepts fails.  New methods and problems join the sweep the
** moment they are registered.
*/
#include <math.h>
#include <string.h>

#include "olt.h"
#include "tap.h"

#define BUDGET 200

/* Convex problems: every optimizer's defaults must decrease f here. */
static int convex (const char *name)
{
  static const char *const c[] = {"quadratic", "linreg", "logreg", "lasso",
                                  "matlsq", "smoothabs", NULL};
  int i;
  for (i = 0; c[i] != NULL; i++)
    if (strcmp(c[i], name) == 0) return 1;
  return 0;
}

int main (void)
{
  ol_problem *probs[64];
  int np = 0, i, j, pairs = 0;
  for (i = 0; ol_problem_types[i] != NULL && np < 64; i++) {
    ol_err e;
    ol_problem *p = olt_problem(ol_problem_types[i]->name, &e, (char *)NULL);
    if (p != NULL) probs[np++] = p;
    else
      diag("sweep: %s has no default instance (%s)",
           ol_problem_types[i]->name, e.msg);
  }
  for (i = 0; ol_methods[i] != NULL; i++) {
    const ol_method_type *m = ol_methods[i];
    double par[64];
    int used = 0;
    olt_params(m, par, (char *)NULL);
    for (j = 0; j < np; j++) {
      const ol_problem *p = probs[j];
      ol_err e;
      ol_run_opts o;
      ol_run *r;
      int why;
      if (ol_method_check(m, p, &e) != OL_OK) continue;
      used++;
      pairs++;
      o = olt_opts(BUDGET, 0, OL_MSET_EMPTY);
      r = ol_run_new(p, m, par, &o, &e);
      if (r == NULL) {
        ok(0, "%s on %s: starts (%s)", m->name, p->name, e.msg);
        continue;
      }
      ol_run_advance(r, BUDGET);
      why = ol_run_reason(r);
      if (why == OL_STOP_CONVERGED) {
        /* a converged run is stationary: gradnorm (kkt when constrained)
        ** at working precision */
        double gk = ol_run_last(r, p->set.kind != OL_SET_NONE || p->l1 > 0
                                ? OL_MET_KKT : OL_MET_GRADNORM);
        double fl = ol_run_last(r, OL_MET_LOSS);
        ok(ol_run_message(r)[0] != '\0' &&
           (isnan(gk) || gk <= 1e-8 * fmax(1, fabs(fl))),
           "%s on %s: converged is true (%s; final %.3g)", m->name,
           p->name, ol_run_message(r), gk);
      }
      if (why == OL_STOP_BUDGET || why == OL_STOP_TOL ||
          why == OL_STOP_CONVERGED) {
        const double *s0 = ol_run_series(r, OL_MET_LOSS);
        if (s0 != NULL) {
          double f0 = s0[0], f1 = ol_run_last(r, OL_MET_LOSS);
          ok(isfinite(f1), "%s on %s: ends by %s with a finite loss",
             m->name, p->name, ol_stop_name(why));
          if (m->family == OL_OPTIM && convex(p->name))
            ok(f1 < f0 || f0 == 0, "%s on %s: defaults lower the loss "
               "(%.3g -> %.3g)", m->name, p->name, f0, f1);
        } else {
          /* vi, diffusion, rl record their own metrics, not the loss:
          ** the iterate must be finite */
          const double *x = ol_run_x(r);
          int k, fin = 1;
          for (k = 0; k < ol_run_n(r); k++) fin = fin && isfinite(x[k]);
          ok(fin, "%s on %s: ends by %s with a finite x", m->name,
             p->name, ol_stop_name(why));
        }
      }
      else
        ok((why == OL_STOP_NONFINITE || why == OL_STOP_FAILED ||
            why == OL_STOP_DIVERGED)
           && ol_run_message(r)[0] != '\0',
           "%s on %s: stops by %s and says why (%s)", m->name, p->name,
           ol_stop_name(why), ol_run_message(r));
      ol_run_free(r);
    }
    ok(used > 0, "%s: runs on at least one built-in problem", m->name);
  }
  diag("sweep: %d method-problem pairs", pairs);
  for (j = 0; j < np; j++) ol_problem_free(probs[j]);
  return done();
}
