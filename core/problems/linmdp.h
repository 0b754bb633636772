/*
** core/problems/linmdp.h -- a discounted MDP with linear action-value
** features: the structure behind problem.linmdp (linmdp.c) and what
** rl.sarsa (core/rl/sarsa.c) learns on.
**
** States s = 0 .. S-1, actions a = 0 .. A-1, discount gamma in [0, 1):
**   P(s'|s, a)   transition probabilities, each row summing to 1
**   R(s, a)      the (deterministic) reward of a in s
**   phi(s, a)    a feature vector in R^d; Q_w(s, a) = phi(s, a)'w.
** Q* is the fixed point of the Bellman optimality operator
**   (T Q)(s, a) = R(s, a) + gamma sum_s' P(s'|s, a) max_a' Q(s', a')
** (Bellman 1957; Puterman 1994, section 6.3), found by value iteration.
** The problem made of it is the least-squares fit of Q* by the features,
**   f(w) = (1 / (2 S A)) sum_{s,a} (phi(s, a)'w - Q*(s, a))^2,
** so x* = (Phi'Phi)^-1 Phi'Q* (= Q* itself with one-hot features), and
** dist is ||w - x*||.  Phi (S A x d) must have full column rank.
**
** The constants of the chattering bound (sarsa.c): rmax = max |R|,
** pmin = min P(s'|s, a), xmax = max ||phi(s, a)||, lmin = the smallest
** eigenvalue of Phi'Phi.
*/
#ifndef OL_LINMDP_H
#define OL_LINMDP_H

#include "problem.h"
#include "rng.h"

typedef struct ol_linmdp {
  int S, A, d;
  double gamma;
  double *P;       /* S A S, P[(s A + a) S + s'] (owned) */
  double *R;       /* S A, R[s A + a] (owned) */
  double *phi;     /* S A d, phi[(s A + a) d + j] (owned) */
  double *qstar;   /* S A: Q* (owned) */
  double rmax, pmin, xmax, lmin;
  double *work;    /* S A: the oracle's residuals (owned; the core is
                      single-threaded) */
} ol_linmdp;

/* The linear-feature MDP of p, or NULL when p is not one (its type has
** no linmdp hook). */
const ol_linmdp *ol_linmdp_of (const ol_problem *p);

/* A next state drawn from P(.|s, a) with rng. */
int ol_linmdp_next (const ol_linmdp *M, int s, int a, ol_rng *rng);

/* The radius rho of the ball that attracts the mean-field (ODE) flow of
** linear SARSA whose policies put probability at least eps / A on every
** action (sarsa.c's header derives it):
**   rho = rmax / ((1 - gamma) sqrt((eps / A) pmin lmin)).
** INFINITY when eps = 0 (no exploration: no bound). */
double ol_linmdp_bound (const ol_linmdp *M, double eps);

#endif
