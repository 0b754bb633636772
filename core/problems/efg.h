/*
** core/problems/efg.h -- a user's two-player zero-sum extensive-form game
** (Lua: problem.efg{root = ...}) converted once into a game tree
** (problems/kuhn.h's ol_tree), so the extensive-form dynamics (game.cfr,
** game.cfrplus), the exploitability metrics and the policy printing run
** on it as on Kuhn poker.
**
** The game is handed over as its nodes in preorder (a node, then each of
** its children's subtrees in order): a decision of player 1 or 2 with an
** information set and exactly two actions (x_I, the coordinate of the
** behavioural strategy, is the probability of the second), a chance node
** with its children's probabilities, or a leaf with player 1's payoff
** (player 2's is its negative).  A choice among k > 2 actions is written
** as a chain of two-action decisions (each its own information set).
**
** Validated at construction (OL_EINVAL, the message naming the node by
** its path "root.children[2].children[1]" and the fix):
**   - every decision has two distinct action names; nodes of one
**     information set belong to one player and list the same actions;
**   - perfect recall: the nodes of one information set are reached after
**     the same last own (information set, action) of their player (which
**     by induction is the same own history);
**   - chance probabilities are finite, >= 0 and sum to 1 within 1e-9;
**   - payoffs are finite;
**   - at most OL_EFG_MAXNODES nodes, depth at most OL_EFG_MAXDEPTH, at
**     least one decision.
** Information sets are numbered player 1's first, then player 2's; within
** a player by the first appearance (in preorder) of their heading
** (where), then of the set itself.
*/
#ifndef OL_EFG_H
#define OL_EFG_H

#include "problem.h"

#define OL_EFG_MAXNODES 2000000
#define OL_EFG_MAXDEPTH 400
#define OL_EFG_CHANCE (-1)   /* ol_efg_node.who of a chance node */
#define OL_EFG_LEAF (-2)     /* ... of a leaf */

/* One node of the preorder description (everything borrowed for the
** call of ol_problem_efg, which copies what it keeps). */
typedef struct ol_efg_node {
  int who;                  /* 0, 1: that player's decision; OL_EFG_CHANCE;
                               OL_EFG_LEAF */
  int nkids;                /* 2 for a decision, >= 1 for chance, 0 leaf */
  const char *infoset;      /* decision: its information set's name */
  const char *where;        /* decision: the heading it is printed under
                               (NULL: "player 1" / "player 2") */
  const char *act[2];       /* decision: its two actions */
  const double *probs;      /* chance: nkids probabilities (NULL:
                               uniform) */
  double payoff;            /* leaf: player 1's payoff */
} ol_efg_node;

/* The type of the problems ol_problem_efg makes (not in the registry: no
** create), with the tree hook. */
extern const ol_problem_type ol_problem_efg_type;

/* A game problem (kind OL_GAME, x in [0, 1]^n, x0 = 1/2, one coordinate
** per information set; oracle as problem.kuhn's: f = u_1, g_I = -d u_i /
** d x_I) from nnodes nodes in preorder.  NULL on error with e set.  Owned
** by the caller: ol_problem_free. */
ol_problem *ol_problem_efg (const ol_efg_node *node, int nnodes,
                            ol_err *e);

#endif
