/*
** core/method.c -- method applicability and the oracles a method sees.
**
** ol_method_check matches a method's family, accepted problem kinds and
** flags against a problem.  The ctx oracles count evaluations in the ctx,
** serve the run's true-gradient cache when the requested point has the
** same contents as the cached one (memcmp), add the problem's gradient
** noise, and pass finite values only (ol_problem_eval rejects the rest).
** Counting: nfev / ngev / nhev count oracle computations actually made,
** by the method and by the run (which evaluates x_t for its metrics and
** stop rules); cache hits are free.  A finite-difference gradient counts
** as one gradient evaluation.  The registry (ol_methods, ol_method_find)
** is in core/registry.c.
*/
#include "method.h"

#include "runpriv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {"an objective", "a density",
                                         "a game"};

/* OL_OK when m can run on p; otherwise OL_EINVAL with a message naming the
** method and what it needs. */
int ol_method_check (const ol_method_type *m, const ol_problem *p,
                     ol_err *e)
{
  char need[64] = "";
  int k, first = 1;
  if (m == NULL || p == NULL)
    return ol_err_set(e, OL_EINVAL, "no %s", m == NULL ? "method"
                      : "problem");
  if (p->kind < OL_OBJECTIVE || p->kind > OL_GAME ||
      !(m->kinds & OL_KIND(p->kind))) {
    for (k = OL_OBJECTIVE; k <= OL_GAME; k++) {
      if (!(m->kinds & OL_KIND(k))) continue;
      snprintf(need + strlen(need), sizeof need - strlen(need), "%s%s",
               first ? "" : " or ", kind_names[k]);
      first = 0;
    }
    return ol_err_set(e, OL_EINVAL, "%s needs %s (%s is %s)", m->name,
                      first ? "no problem kind" : need, p->name,
                      p->kind >= OL_OBJECTIVE && p->kind <= OL_GAME
                      ? kind_names[p->kind] : "of unknown kind");
  }
  if ((m->flags & OL_M_NEEDSET) && p->set.kind == OL_SET_NONE)
    return ol_err_set(e, OL_EINVAL, "%s needs a constrained problem (set); "
                      "%s is unconstrained", m->name, p->name);
  if ((m->flags & OL_M_NEEDHESS) && p->hess == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs a Hessian; %s has none",
                      m->name, p->name);
  if (m->family == OL_DYNAMIC && p->kind != OL_GAME &&
      p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "%s needs a game or a problem over "
                      "simplices (set = \"simplex\")", m->name);
  return OL_OK;
}

/* Shared by value and gradient requests.  noisy: add the problem's noise
** to g. */
static int oracle (ol_ctx *c, const double *x, double *f, double *g,
                   int noisy, ol_err *e)
{
  ol_run *r = c->priv;
  const ol_problem *p = c->p;
  int n = c->n, i;
  if (r != NULL && r->gvalid &&
      memcmp(x, r->xg, (size_t)n * sizeof *x) == 0) {
    if (f != NULL) *f = r->f;
    if (g != NULL) memcpy(g, r->g, (size_t)n * sizeof *g);
  } else {
    int rc;
    if (r == NULL && p->fd_grad && g != NULL)
      return ol_err_set(e, OL_EINVAL, "finite-difference gradient needs "
                        "a run's workspace");
    if (f != NULL) c->nfev++;
    if (g != NULL) c->ngev++;
    if (p->fd_grad) {
      rc = ol_problem_eval(p, x, f, g, r != NULL ? r->work : NULL, e);
      if (rc != OL_OK) return rc;
    } else {
      /* the common case inline: one call to the oracle, then the checks
      ** ol_problem_eval would make */
      rc = p->fdf(p->ud, x, f, g, e);
      if (rc != OL_OK) return rc;
      if (f != NULL && !isfinite(*f))
        return ol_err_set(e, OL_EDOM, "non-finite value (f = %g)", *f);
      if (g != NULL && !ol_run_finite(g, n))
        return ol_err_set(e, OL_EDOM, "non-finite gradient");
    }
  }
  if (noisy && g != NULL && p->noise.kind == OL_NOISE_GAUSS) {
    double s = p->noise.sigma;
    for (i = 0; i < n; i++) g[i] += s * ol_rng_normal(c->rng);
  }
  return OL_OK;
}

/* The hot path first: no cache to consult, exact gradients, no noise. */
int ol_ctx_grad (ol_ctx *c, const double *x, double *f, double *g, ol_err *e)
{
  const ol_problem *p = c->p;
  const ol_run *r = c->priv;
  int rc;
  if ((r == NULL || !r->gvalid) && !p->fd_grad &&
      p->noise.kind == OL_NOISE_NONE) {
    c->nfev += f != NULL;
    c->ngev += g != NULL;
    rc = p->fdf(p->ud, x, f, g, e);
    if (rc != OL_OK) return rc;
    if (f != NULL && !isfinite(*f))
      return ol_err_set(e, OL_EDOM, "non-finite value (f = %g)", *f);
    if (g != NULL && !ol_run_finite(g, c->n))
      return ol_err_set(e, OL_EDOM, "non-finite gradient");
    return OL_OK;
  }
  return oracle(c, x, f, g, 1, e);
}

int ol_ctx_value (ol_ctx *c, const double *x, double *f, ol_err *e)
{
  return oracle(c, x, f, NULL, 0, e);
}

/* Dense Hessian; OL_EINVAL when the problem has none. */
int ol_ctx_hess (ol_ctx *c, const double *x, double *H, ol_err *e)
{
  const ol_problem *p = c->p;
  int rc;
  if (p->hess == NULL)
    return ol_err_set(e, OL_EINVAL, "%s has no Hessian", p->name);
  c->nhev++;
  rc = p->hess(p->ud, x, H, e);
  if (rc != OL_OK) return rc;
  if (!ol_allfinite(H, c->n * c->n))
    return ol_err_set(e, OL_EDOM, "non-finite Hessian");
  return OL_OK;
}

/* Projection on the problem's set with the run's scratch (work[n, 2n)).
** Outside a run (priv NULL) only box sets can be projected. */
void ol_ctx_project (ol_ctx *c, double *x)
{
  ol_run *r = c->priv;
  const ol_set *s = &c->p->set;
  if (s->kind == OL_SET_NONE) return;
  if (r == NULL && s->kind != OL_SET_BOX) return;
  ol_set_project(s, x, c->n, r != NULL ? r->work + c->n : NULL);
}
