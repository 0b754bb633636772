/*
** tests/c/t_ptype.c -- every problem carries its type (core/problem.h:
** p->type), and its structure is told by the type's hooks alone.
**
** (1) Every registered type, made with its defaults, points at its own
**     registry entry and has the entry's kind.
** (2) Each structure accessor (ol_game_of, ol_kuhn_is, ol_gmm_of,
**     ol_tokens_of, ol_mdp_of, ol_bilevel_of) answers exactly for the
**     types with that hook, and for the ones expected (the nine bimatrix
**     games, kuhn, gmm, tokens, the three MDPs, ridgehyper).
** (3) A type with a payoff function (matrixgame's u) has the parameters
**     the binding tabulates it into: A, B (matrices), m, n.
** (4) A problem made as lua/lproblem.c makes a user problem
**     (ol_problem_custom, then its kind and name) has the custom type, a
**     density wrapped from it (ol_problem_density) the density type; no
**     structure on either, even with a game's oracle and ud borrowed: a
**     function pointer no longer identifies a problem.
** (5) ol_problem_new refuses the types without create; they are not in
**     the registry.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "olt.h"
#include "problem.h"
#include "problems/bilevel.h"
#include "problems/game.h"
#include "problems/gmm.h"
#include "problems/kuhn.h"
#include "problems/tokens.h"
#include "rl/mdp.h"
#include "tap.h"

/* The structures p shows through the accessors, one bit each. */
static unsigned shown (const ol_problem *p)
{
  return (ol_game_of(p) != NULL) | (unsigned)ol_kuhn_is(p) << 1
    | (ol_gmm_of(p) != NULL) << 2 | (ol_tokens_of(p) != NULL) << 3
    | (ol_mdp_of(p) != NULL) << 4 | (ol_bilevel_of(p) != NULL) << 5;
}

/* The structures t's hooks promise, in the bits of shown. */
static unsigned hooked (const ol_problem_type *t)
{
  return (t->game != NULL) | (t->tree != NULL) << 1
    | (t->mixture != NULL) << 2 | (t->tokens != NULL) << 3
    | (t->mdp != NULL) << 4 | (t->bilevel != NULL) << 5;
}

static void test_registered (void)
{
  static const char *const games[] = {"matrixgame", "rps", "biasedrps",
                                      "pennies", "shapley", "coordination",
                                      "climbing", "prisoners", "bilinear",
                                      "bilineardiag",
                                      NULL};
  static const char *const mdps[] = {"stopping", "inventory", "rlvr", NULL};
  int i, k, ntypes = 0, nbad = 0, nwrong = 0;
  for (i = 0; ol_problem_types[i] != NULL; i++) {
    const ol_problem_type *t = ol_problem_types[i];
    ol_err e;
    ol_problem *p = olt_problem(t->name, &e, (char *)NULL);
    unsigned want = 0;
    ntypes++;
    /* (1) the type record */
    if (!ok(p != NULL && p->type == t && p->kind == t->kind,
            "%s: made with its defaults, p->type is its registry entry "
            "(kind %d)", t->name, t->kind)) {
      if (p == NULL) diag("%s: %s", t->name, e.msg);
      nbad++;
      ol_problem_free(p);
      continue;
    }
    /* (2) the structures: as hooked, and as expected */
    for (k = 0; games[k] != NULL; k++)
      if (strcmp(games[k], t->name) == 0) want |= 1u;
    if (strcmp(t->name, "kuhn") == 0) want |= 2u;
    if (strcmp(t->name, "gmm") == 0) want |= 4u;
    if (strcmp(t->name, "tokens") == 0) want |= 8u;
    for (k = 0; mdps[k] != NULL; k++)
      if (strcmp(mdps[k], t->name) == 0) want |= 16u;
    if (strcmp(t->name, "ridgehyper") == 0) want |= 32u;
    if (shown(p) != want || hooked(t) != want) {
      diag("%s: structures shown %#x, hooked %#x, expected %#x", t->name,
           shown(p), hooked(t), want);
      nwrong++;
    }
    /* (3) the payoff function's parameters */
    if (t->payoff_fn != NULL) {
      int ia = ol_param_find(t->params, t->nparams, "A"),
        ib = ol_param_find(t->params, t->nparams, "B");
      ok(ia >= 0 && ib >= 0 && t->params[ia].kind == OL_P_MATRIX
         && t->params[ib].kind == OL_P_MATRIX
         && ol_param_find(t->params, t->nparams, "m") >= 0
         && ol_param_find(t->params, t->nparams, "n") >= 0,
         "%s: its payoff function %s has A, B, m and n to fill", t->name,
         t->payoff_fn);
    }
    ol_problem_free(p);
  }
  ok(ntypes >= 40 && nbad == 0, "all %d registered types made", ntypes);
  ok(nwrong == 0, "every type's structures are its hooks' and the expected "
     "ones (%d differ)", nwrong);
  ok(ol_problem_type_find("matrixgame")->payoff_fn != NULL
     && strcmp(ol_problem_type_find("matrixgame")->payoff_fn, "u") == 0,
     "matrixgame: its payoff function is u");
}

static int half (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  int *n = ud, i;
  (void)e;
  if (f != NULL) *f = 0;
  for (i = 0; i < *n; i++) {
    if (f != NULL) *f -= 0.5 * x[i] * x[i];      /* log p: N(0, I) */
    if (g != NULL) g[i] = -x[i];
  }
  return OL_OK;
}

static void test_custom (void)
{
  static int n2 = 2;
  static const double lo[2] = {0, -INFINITY};
  ol_err e;
  ol_problem *p, *d, *rps, *q;
  /* (4) as lua/lproblem.c's problem.new: custom, then kind and name */
  p = ol_problem_custom(2, half, 0, &n2, NULL, &e);
  ok(p != NULL && p->type == &ol_problem_custom_type
     && p->type->kind == OL_OBJECTIVE && p->type->create == NULL,
     "custom: the custom type");
  if (p == NULL) return;
  ok(ol_problem_set_kind(p, OL_DENSITY, &e) == OL_OK
     && ol_problem_set_name(p, "lua", &e) == OL_OK
     && p->type == &ol_problem_custom_type && p->kind == OL_DENSITY,
     "custom: its kind and name set, the type stays");
  ok(shown(p) == 0 && hooked(p->type) == 0, "custom: no structure");
  /* as problem.density: the custom log p wrapped, with a bound */
  d = ol_problem_density(p, lo, NULL, NULL, &e);
  ok(d != NULL && d->type == &ol_problem_density_type
     && d->kind == OL_DENSITY && d->type->kind == OL_DENSITY,
     "density: the density type");
  ok(d != NULL && shown(d) == 0 && hooked(d->type) == 0,
     "density: no structure");
  if (d != NULL) ol_problem_free(d);     /* and p with it */
  else ol_problem_free(p);
  /* a game's own oracle and ud in a custom problem: no game */
  rps = olt_problem("rps", NULL, (char *)NULL);
  q = ol_problem_custom(6, rps != NULL ? rps->fdf : half, 0,
                        rps != NULL ? rps->ud : NULL, NULL, &e);
  if (q != NULL) q->kind = OL_GAME;
  ok(rps != NULL && q != NULL && ol_game_of(rps) != NULL
     && ol_game_of(q) == NULL && q->fdf == rps->fdf,
     "a custom problem with rps's oracle is no game: the type tells");
  ol_problem_free(q);
  ol_problem_free(rps);
}

static void test_unregistered (void)
{
  ol_err e;
  int i, found = 0;
  /* (5) */
  ok(ol_problem_new(&ol_problem_custom_type, NULL, &e) == NULL
     && ol_problem_new(&ol_problem_density_type, NULL, &e) == NULL,
     "ol_problem_new refuses the types without create (%s)", e.msg);
  for (i = 0; ol_problem_types[i] != NULL; i++)
    if (ol_problem_types[i] == &ol_problem_custom_type
        || ol_problem_types[i] == &ol_problem_density_type)
      found++;
  ok(found == 0 && strcmp(ol_problem_custom_type.name, "custom") == 0
     && strcmp(ol_problem_density_type.name, "density") == 0,
     "custom and density are not registered types");
}

int main (void)
{
  test_registered();
  test_custom();
  test_unregistered();
  return done();
}
