/*
** tests/c/t_efg.c -- user game trees (problems/efg.h) through the C API.
**
** Kuhn poker written as a preorder node list here is checked against the
** hand-coded tree of problems/kuhn.c (itself checked by brute force in
** t_kuhn.c), information set by information set through the names the
** tree gives: value, both best-response values, NashConv and the walk's
** counterfactual values and own reaches on 50 random profiles (seed 27,
** some entries pure so some sets go unreached), to 1e-14; the oracle's
** gradient is the walk's.  A hidden-move 2 x 2 game: value at the closed
** form equilibrium 1/5 and NashConv 0 there, NashConv of (heads, heads)
** = 3 by hand.  Refusals return OL_EINVAL with the node's path.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "olt.h"
#include "problems/efg.h"
#include "problems/kuhn.h"
#include "tap.h"

static const char *const card[3] = {"J", "Q", "K"};
static char names[12][8];

static ol_efg_node *add (ol_efg_node *v, int *n, int who, int nkids,
                         const char *I, const char *a0, const char *a1)
{
  ol_efg_node *d = v + (*n)++;
  memset(d, 0, sizeof *d);
  d->who = who;
  d->nkids = nkids;
  d->infoset = I;
  d->act[0] = a0;
  d->act[1] = a1;
  return d;
}

static void leaf (ol_efg_node *v, int *n, double u)
{
  add(v, n, OL_EFG_LEAF, 0, NULL, NULL, NULL)->payoff = u;
}

/* Kuhn poker in preorder; set names "1J" (opens), "1cbJ", "2cJ", "2bJ". */
static int kuhn_nodes (ol_efg_node *v)
{
  int n = 0, c1, c2, c;
  for (c = 0; c < 3; c++) {
    snprintf(names[c], 8, "1%s", card[c]);
    snprintf(names[3 + c], 8, "1cb%s", card[c]);
    snprintf(names[6 + c], 8, "2c%s", card[c]);
    snprintf(names[9 + c], 8, "2b%s", card[c]);
  }
  add(v, &n, OL_EFG_CHANCE, 6, NULL, NULL, NULL);
  for (c1 = 0; c1 < 3; c1++)
    for (c2 = 0; c2 < 3; c2++) {
      double s = c1 > c2 ? 1 : -1;
      if (c1 == c2) continue;
      add(v, &n, 0, 2, names[c1], "check", "bet");
      add(v, &n, 1, 2, names[6 + c2], "check", "bet");
      leaf(v, &n, s);
      add(v, &n, 0, 2, names[3 + c1], "fold", "call");
      leaf(v, &n, -1);
      leaf(v, &n, 2 * s);
      add(v, &n, 1, 2, names[9 + c2], "fold", "call");
      leaf(v, &n, 1);
      leaf(v, &n, 2 * s);
    }
  return n;
}

static void test_kuhn (void)
{
  ol_efg_node v[64];
  ol_err e;
  ol_problem *p = ol_problem_efg(v, kuhn_nodes(v), &e);
  const ol_tree *T;
  ol_rng g;
  double x[12], y[12], cu[24], ru[12], ck[24], rk[12], gr[12], f;
  double wv = 0, wb = 0, wc = 0, wg = 0;
  int map[12], I, J, k;
  if (!ok(p != NULL, "efg: Kuhn as a node list is accepted (%s)",
          p == NULL ? e.msg : "ok"))
    return;
  T = ol_tree_of(p);
  ok(T != NULL && T->n == 12 && T->n1 == 6 && p->n == 12 && p->kind ==
     OL_GAME, "efg: a game tree of 12 sets, 6 of player 1");
  /* Kuhn's coordinate I is the user's map[I], by name */
  for (I = 0; I < 12; I++) {
    map[I] = -1;
    for (J = 0; J < 12; J++)
      if (strcmp(T->name[J], names[I]) == 0) map[I] = J;
  }
  for (I = 0; I < 12 && map[I] >= 0; I++) {}
  if (!ok(I == 12, "efg: every Kuhn set is found by name")) goto out;
  ok(map[0] == 0 && map[3] == 1 && map[1] == 2 && map[6] >= 6,
     "efg: player 1's sets come first, in order of appearance (one "
     "heading: 1J, 1cbJ, 1Q, ...)");
  ok(strcmp(T->act[map[3]][0], "fold") == 0 &&
     strcmp(T->act[map[3]][1], "call") == 0 &&
     strcmp(T->where[0], "player 1") == 0,
     "efg: actions kept in order, the default heading \"player 1\"");
  ol_rng_seed(&g, 27, 0);
  diag("efg: random profiles, seed 27");
  for (k = 0; k < 50; k++) {
    for (I = 0; I < 12; I++) x[I] = ol_rng_uniform(&g);
    if (k % 5 == 0) x[k % 12] = k % 10 == 0 ? 1 : 0;
    for (I = 0; I < 12; I++) y[map[I]] = x[I];
    wv = fmax(wv, fabs(T->value(T, y) - ol_kuhn_value(x)));
    wb = fmax(wb, fabs(T->brvalue(T, y, 0) - ol_kuhn_brvalue(x, 0)));
    wb = fmax(wb, fabs(T->brvalue(T, y, 1) - ol_kuhn_brvalue(x, 1)));
    wb = fmax(wb, fabs(T->nashconv(T, y) - ol_kuhn_nashconv(x)));
    T->walk(T, y, cu, ru);
    ol_kuhn_walk(x, ck, rk);
    p->fdf(p->ud, y, &f, gr, &e);
    for (I = 0; I < 12; I++) {
      J = map[I];
      wc = fmax(wc, fabs(cu[2 * J] - ck[2 * I]));
      wc = fmax(wc, fabs(cu[2 * J + 1] - ck[2 * I + 1]));
      wc = fmax(wc, fabs(ru[J] - rk[I]));
      wg = fmax(wg, fabs(gr[J] + rk[I] * (ck[2 * I + 1] - ck[2 * I])));
    }
    wg = fmax(wg, fabs(f - ol_kuhn_value(x)));
  }
  ok(wv < 1e-14, "efg: value = Kuhn's on 50 profiles (max diff %.3g)", wv);
  ok(wb < 1e-14, "efg: best responses and NashConv = Kuhn's (max diff "
     "%.3g)", wb);
  ok(wc < 1e-14, "efg: counterfactual values and reaches = Kuhn's (max "
     "diff %.3g)", wc);
  ok(wg < 1e-14, "efg: the oracle's f and gradient = Kuhn's (max diff "
     "%.3g)", wg);
out:
  ol_problem_free(p);
}

/* (H,H) 2, (H,T) -1, (T,H) -1, (T,T) 1, player 2 not seeing player 1's
** coin: value 1/5 at P(tails) = 3/5 for both.  At (heads, heads) player 1
** already gets 2 (gain 0) and player 2's best reply, tails, gives -(-1) =
** 1 against -2 (gain 3): NashConv 3. */
static void test_hidden (void)
{
  ol_efg_node v[8];
  ol_err e;
  ol_problem *p;
  const ol_tree *T;
  double x[2] = {0.6, 0.6}, h[2] = {0, 0};
  int n = 0;
  add(v, &n, 0, 2, "p1", "heads", "tails");
  add(v, &n, 1, 2, "p2", "heads", "tails");
  leaf(v, &n, 2);
  leaf(v, &n, -1);
  add(v, &n, 1, 2, "p2", "heads", "tails");
  leaf(v, &n, -1);
  leaf(v, &n, 1);
  p = ol_problem_efg(v, n, &e);
  if (!ok(p != NULL, "efg: the hidden 2 x 2 game is accepted")) return;
  T = ol_tree_of(p);
  is_near(T->value(T, x), 0.2, 1e-15, "efg: hidden 2 x 2: value 1/5 at "
          "(3/5, 3/5)");
  is_near(T->nashconv(T, x), 0, 1e-15, "efg: hidden 2 x 2: NashConv 0 "
          "there");
  is_near(T->nashconv(T, h), 3, 1e-15, "efg: hidden 2 x 2: NashConv 3 at "
          "(heads, heads)");
  ol_problem_free(p);
}

/* A refusal: OL_EINVAL and a message containing want. */
static void refuse (const ol_efg_node *v, int n, const char *want,
                    const char *what)
{
  ol_err e;
  ol_problem *p;
  memset(&e, 0, sizeof e);
  p = ol_problem_efg(v, n, &e);
  ok(p == NULL && e.code == OL_EINVAL && strstr(e.msg, want) != NULL,
     "efg: refuses %s (%s)", what, e.msg);
  ol_problem_free(p);
}

static void test_refusals (void)
{
  ol_efg_node v[16];
  double pr[2] = {0.5, 0.6};
  int n = 0;
  add(v, &n, OL_EFG_CHANCE, 2, NULL, NULL, NULL)->probs = pr;
  add(v, &n, 0, 2, "a", "l", "r");
  leaf(v, &n, 1);
  leaf(v, &n, 2);
  leaf(v, &n, 0);
  refuse(v, n, "sum to 1.1000000000000001, not 1", "probabilities "
         "summing to 1.1");
  v[0].probs = NULL;
  refuse(v, n - 1, "the description ends inside root.children[2]",
         "a truncated list");
  refuse(v, n + 0 * (v[4].payoff = NAN, 0), "at root.children[2] is not "
         "finite", "a NaN payoff");
  v[4].payoff = 0;
  v[1].act[1] = "l";
  refuse(v, n, "names both actions 'l'", "equal action names");
  v[1].act[1] = "r";
  v[2].who = 5;
  refuse(v, n, "who = 5 is not a player", "an unknown mover");
  v[2].who = OL_EFG_LEAF;
  n = 0;
  add(v, &n, 0, 2, "a", "l", "r");
  add(v, &n, 1, 2, "b", "l", "r");
  leaf(v, &n, 1);
  leaf(v, &n, 2);
  add(v, &n, 0, 2, "b", "l", "r");
  leaf(v, &n, 1);
  leaf(v, &n, 2);
  refuse(v, n, "information set 'b' at root.children[2] is player 1's, "
         "but its first node is player 2's", "a set held by two players");
  v[4].who = 1;
  v[4].act[1] = "x";
  refuse(v, n, "has actions {'l', 'x'}, but {'l', 'r'}", "a set with two "
         "action lists");
  v[4].who = 0;
  v[4].act[1] = "r";
  v[1].who = 0;
  refuse(v, n, "perfect recall fails at information set 'b' "
         "(root.children[2]): player 1 reaches it there after 'r' at a, "
         "at its first node after 'l' at a", "forgetting one's own move");
  n = 0;
  leaf(v, &n, 1);
  refuse(v, n, "no decision", "a tree without decisions");
  refuse(v, 0, "between 1 and", "an empty tree");
}

int main (void)
{
  test_kuhn();
  test_hidden();
  test_refusals();
  return done();
}
