/*
** core/method.c -- which methods can run on which problems.
**
** ol_method_check matches a method's accepted problem kinds and flags
** against a problem, then asks the method's check hook, and says what is
** missing; ol_method_result hands a method's named results (a variational
** mean, diffusion samples) from its result hook to the binding.  The
** registry (ol_methods, ol_method_find) is in core/registry.c; the
** oracles a method sees (ol_ctx_*) in core/oracle.c.
*/
#include "method.h"
#include "problems/bilevel.h"

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
    static const char *const fam[OL_NFAMILY] = {
      "optim", "sample", "game", "vi", "diffusion", "rl", "dist", "smc"
    };
    return ol_err_set(e, OL_EINVAL, "%s%s%s needs %s (%s is %s)%s",
                      m->family >= 0 && m->family < OL_NFAMILY
                      ? fam[m->family] : "", m->family >= 0 &&
                      m->family < OL_NFAMILY ? "." : "", m->name,
                      first ? "no problem kind" : need, p->name,
                      p->kind >= OL_OBJECTIVE && p->kind <= OL_GAME
                      ? kind_names[p->kind] : "of unknown kind",
                      p->kind == OL_GAME && m->family != OL_DYNAMIC
                      ? ": a game runs with game dynamics, game.<name>{} "
                        "(help(game))" : "");
  }
  if (p->con.m > 0 && !(m->flags & OL_M_CONSTR))
    return ol_err_set(e, OL_EINVAL, "%s ignores general constraints; %s "
                      "has %d (constraints = {...}): use optim.auglag or "
                      "optim.sqp",
                      m->name, p->name, p->con.m);
  if ((m->flags & OL_M_NEEDSET) && p->set.kind == OL_SET_NONE)
    return ol_err_set(e, OL_EINVAL, "%s needs a constrained problem (set); "
                      "%s is unconstrained", m->name, p->name);
  if ((m->flags & OL_M_NEEDHESS) && p->hess == NULL && p->kind == OL_GAME)
    return ol_err_set(e, OL_EINVAL, "%s needs a Hessian; %s has none",
                      m->name, p->name);
  if ((m->flags & OL_M_NEEDMAT) && (p->mrows < 1 || p->mcols < 1))
    return ol_err_set(e, OL_EINVAL, "%s needs a matrix-shaped problem "
                      "(mrows x mcols); %s is a plain vector", m->name,
                      p->name);
  if ((m->flags & OL_M_NEEDSUM) && (p->nsum < 1 || p->fdfi == NULL))
    return ol_err_set(e, OL_EINVAL, "%s needs a finite-sum problem "
                      "(components f_i); %s has none", m->name, p->name);
  if ((m->flags & OL_M_BILEVEL) && ol_bilevel_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs a bilevel problem "
                      "(problem.ridgehyper); %s is not one", m->name,
                      p->name);
  /* what the method needs beyond kinds and flags (an MDP, a game tree,
  ** a Gaussian-mixture target): its own check */
  if (m->check != NULL) return m->check(m, p, e);
  return OL_OK;
}


int ol_method_result (const ol_method_type *m, const void *st,
                      const char *name, const double **v, int *rows,
                      int *cols)
{
  *v = NULL;
  *rows = *cols = 0;
  if (m == NULL || st == NULL || name == NULL) return 0;
  if (m->result == NULL) return 0;
  /* a result without its numbers is none: a state whose init stopped
  ** early (a callback error at its first evaluation) answers with the
  ** arrays it never made (found: print of such a mixflow run segfaulted) */
  if (m->result(st, name, v, rows, cols) && *v != NULL) return 1;
  *v = NULL;
  *rows = *cols = 0;
  return 0;
}
