/*
** core/problems/kuhn.h -- Kuhn poker (Kuhn 1950, "A simplified two-person
** poker", Contributions to the Theory of Games I) as an explicit game
** tree: the tree walk shared by problems/kuhn.c, the extensive-form
** dynamics (games/cfr.c, games/cfrplus.c) and the metrics.
**
** Three cards J < Q < K, one to each player (6 equally likely deals),
** ante 1 each, one bet of 1.  Player 1 checks (pass) or bets; after a
** check player 2 checks (showdown for 1) or bets, and player 1 then folds
** or calls (showdown for 2); after a bet player 2 folds or calls.
** Twelve information sets, six per player; coordinate I of the joint
** behavioural strategy x (n = 12, each in [0, 1]) is the probability of
** the aggressive action (bet or call) there, card c = 0 (J), 1 (Q), 2 (K):
**   x[c]      player 1, first move:           P(bet)
**   x[3 + c]  player 1, after check and bet:  P(call)
**   x[6 + c]  player 2, after a check:        P(bet)
**   x[9 + c]  player 2, after a bet:          P(call)
** Player 1 owns x[0..5], player 2 x[6..11]; payoffs are player 1's
** (zero-sum).  The equilibria form one family (Kuhn 1950), alpha in
** [0, 1/3]:
**   x = (alpha, 0, 3 alpha,  0, alpha + 1/3, 1,  1/3, 0, 1,  0, 1/3, 1)
** and the value of the game for player 1 is -1/18.
*/
#ifndef OL_KUHN_H
#define OL_KUHN_H

#include "problem.h"

#define OL_KUHN_N 12   /* information sets = coordinates */

/* An extensive-form game's tree as its problem type's tree hook
** (ol_problem_type.tree) gives it, Kuhn poker's (below) or a user's
** (problems/efg.h): n information sets (the coordinates of the
** behavioural strategy x), player 1's the first n1 of them (0 .. n1 - 1)
** and player 2's the rest, every one with two actions; the walks over it,
** as the functions below are Kuhn poker's, each handed the tree itself;
** and the names a printed policy reads by (lua/lprint.c): information set
** I is called name[I] ("J", the card the player holds) within the
** situation where[I] ("player 1 opens"), the information sets of one
** situation consecutive, and its two actions are act[I][1] (the one of
** probability x_I: "bet", "call") and act[I][0] ("check", "fold").
** The sampling methods (games/ixomd.c) play the game instead of walking it: sample, when the tree has it (NULL: it cannot be
** sampled), plays one game at x with every random choice (chance's and
** both players', a = 1 with probability x_I) drawn from rng, writes the
** moves in order -- information set I[k], action a[k] (0 or 1), its
** player who[k] (0 or 1) -- into arrays of at least n entries (a play
** visits an information set at most once: perfect recall), sets *u1 to
** player 1's payoff at the terminal reached and returns the number of
** moves; umax bounds |payoff| (the sampling methods' loss scale). */
struct ol_rng;
typedef struct ol_tree {
  int n, n1;
  double (*value) (const struct ol_tree *T, const double *x);
  double (*walk) (const struct ol_tree *T, const double *x, double *cfv,
                  double *reach);
  double (*brvalue) (const struct ol_tree *T, const double *x, int i);
  double (*nashconv) (const struct ol_tree *T, const double *x);
  const char *const *name;
  const char *const *where;
  const char *const (*act)[2];
  int (*sample) (const struct ol_tree *T, const double *x,
                 struct ol_rng *rng, int *I, int *a, int *who, double *u1);
  double umax;
} ol_tree;

/* The game tree of p (its type's tree hook), or NULL when p has none:
** what the extensive-form dynamics (cfr, cfrplus), the exploitability
** metrics and the policy printing ask. */
const ol_tree *ol_tree_of (const ol_problem *p);

/* 1 when p is the Kuhn poker problem (its type's tree is Kuhn's). */
int ol_kuhn_is (const ol_problem *p);
/* The player (0 or 1) acting at information set I. */
static inline int ol_kuhn_player (int I) { return I < 6 ? 0 : 1; }

/* Expected payoff of player 1 under the profile x (12 entries). */
double ol_kuhn_value (const double *x);
/* One walk of the tree at x.  For every information set I, with i its
** player: cfv[2I + a] = sum over the histories h in I of (chance times
** the opponent's reach of h) times i's expected payoff after action a
** (a = 0 pass/fold, 1 bet/call) -- the counterfactual values of Zinkevich
** et al. 2007, eq. (7)-(8) unnormalised -- and reach[I] = i's own
** probability of reaching I (the same for every h in I: perfect recall).
** Returns the value for player 1. */
double ol_kuhn_walk (const double *x, double *cfv, double *reach);
/* Player i's (0 or 1) best-response payoff against the other player's
** part of x, by a walk per depth (deepest information sets first). */
double ol_kuhn_brvalue (const double *x, int i);
/* NashConv: the sum over both players of the best-response gain, zero
** exactly at an equilibrium; OpenSpiel's exploitability is half of it. */
double ol_kuhn_nashconv (const double *x);

#endif
