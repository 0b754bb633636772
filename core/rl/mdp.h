/*
** core/rl/mdp.h -- tabular finite-horizon MDPs under softmax policies: the
** structure behind problem.stopping, problem.inventory and problem.rlvr
** (core/problems/), its exact values and policy gradients, and what the
** RL methods (core/rl/) measure on it (entropy, its predicted change).
**
** Stages h = 0 .. H-1, states s = 0 .. S-1 at every stage, actions
** a = 0 .. A-1 in every state; time-homogeneous dynamics:
**   R(s, a)      expected reward of a in s
**   P(s'|s, a)   transition probabilities, summing over s' to at most 1:
**                the rest is the probability that the episode ends (a
**                stopped price, a verified response)
**   mu(s)        distribution of the state at stage 0.
** The policy is softmax in logits z, one block of A per (h, s):
**   pi_h(a|s) = exp z[(h S + s) A + a] / sum_b exp z[(h S + s) A + b],
** so x = z has n = H S A entries.  Its value (no discount, V_H = 0):
**   Q_h(s, a) = R(s, a) + sum_s' P(s'|s, a) V_{h+1}(s')
**   V_h(s)    = sum_a pi_h(a|s) Q_h(s, a),      J(z) = sum_s mu(s) V_0(s),
** and the exact policy gradient (policy gradient theorem, Sutton,
** McAllester, Singh & Mansour 2000; softmax form, Agarwal, Kakade, Lee &
** Mahajan 2021, section 4.1, undiscounted and per stage):
**   dJ/dz_{h,s,a} = d_h(s) pi_h(a|s) (Q_h(s, a) - V_h(s)),
** d_h the probability of being in s at stage h (d_0 = mu, forwards).
** V* by backward induction (Bellman 1957; Puterman 1994, section 4.5):
**   V*_h(s) = max_a R(s, a) + sum_s' P(s'|s, a) V*_{h+1}(s').
** The problems are objectives f(z) = -J(z), grad f = -dJ/dz, f* = -V*(mu):
** every optimizer runs on them and subopt = V* - J.
*/
#ifndef OL_MDP_H
#define OL_MDP_H

#include "problem.h"
#include "rng.h"

typedef struct ol_mdp {
  int H, S, A;
  double *P;       /* S A S, P[(s A + a) S + s'] (owned) */
  double *R;       /* S A, R[s A + a] (owned) */
  double *mu;      /* S (owned) */
  int binary;      /* H == 1, P == 0 and R in {0, 1}: a verifiable-reward
                      toy (rlvr), where J is mean pass@1 */
  double vstar;    /* V*(mu) = sum_s mu(s) V*_0(s) */
  double *vopt;    /* (H + 1) S optimal values V*_h(s), V*_H = 0 (owned) */
  int *pistar;     /* H S: the first optimal action of each (h, s) */
  double *work;    /* the oracle's scratch, ol_mdp_worksize (owned; the
                      core is single-threaded) */
} ol_mdp;

/* A zeroed MDP of H stages, S states and A actions (all >= 1); NULL with
** e set when out of memory.  ol_mdp_free(NULL) is a no-op. */
ol_mdp *ol_mdp_new (int H, int S, int A, ol_err *e);
void ol_mdp_free (ol_mdp *M);
/* Doubles of scratch that ol_mdp_eval and ol_mdp_stage need. */
size_t ol_mdp_worksize (const ol_mdp *M);

/* Fill p as the objective -J over the logits of M (P, R, mu filled by the
** caller): backward induction (vstar, vopt, pistar), the binary flag,
** name, kind, n = H S A, fdf + ud (p owns M from here on, also on
** failure), x0 = 0 (the uniform policy), fstar = -vstar.  desc is left
** to the caller.  OL_OK, or OL_EINVAL when a row of P sums to more than
** 1 (+1e-12) or an entry is negative or not finite, OL_ENOMEM, OL_EINTR
** (Ctrl-C: ol_interrupted, polled while S A S entries are checked). */
int ol_mdp_setup (ol_problem *p, ol_mdp *M, const char *name, ol_err *e);
/* The MDP of p, or NULL when p is not an MDP problem (its type has no
** mdp hook). */
const ol_mdp *ol_mdp_of (const ol_problem *p);
/* The mdp hook (ol_problem_type.mdp) of a type whose problems are made by
** ol_mdp_setup: p's ud (NULL until ol_mdp_setup has run). */
const ol_mdp *ol_mdp_ud (const ol_problem *p);

/* pi = softmax of each block of A logits in z (n = H S A entries each). */
void ol_mdp_policy (const ol_mdp *M, const double *z, double *pi);
/* J(z), and dJ/dz into g (n entries) when g is not NULL.  work: at least
** ol_mdp_worksize(M) doubles. */
double ol_mdp_eval (const ol_mdp *M, const double *z, double *g,
                    double *work);
/* One stage of dynamic policy gradient: with the policies of stages
** h+1 .. H-1 in z fixed, the gradient of J_h = sum_s w(s) V_h(s) in the
** logits of stage h into g (S A entries), where w = mu at h = 0 and the
** uniform 1/S otherwise; returns the stage's greedy gap
**   sum_s w(s) (max_a Q_h(s, a) - V_h(s)) >= 0,
** zero exactly when stage h is optimal against the later stages.  work:
** ol_mdp_worksize(M) doubles. */
double ol_mdp_stage (const ol_mdp *M, const double *z, int h, double *g,
                     double *work);
/* One episode under softmax(z), drawn with rng, added to g (n entries)
** as the REINFORCE estimate (Williams 1992) of dJ/dz:
**   sum_h grad_z log pi_h(a_h|s_h) G_h,   G_h = sum_{k >= h} r_k,
** grad log pi_h(a|s) = e_a - pi_h(.|s) in block (h, s).  pi: the policy
** (ol_mdp_policy); returns the episode's return G_0. */
double ol_mdp_episode (const ol_mdp *M, const double *pi, ol_rng *rng,
                       double *g);
/* Draw an index from the distribution q of k entries (summing to 1 up
** to rounding; the last index takes what rounding leaves). */
int ol_mdp_draw (const double *q, int k, ol_rng *rng);

/* Policy entropy, averaged uniformly over the H S decision points (h, s)
** (every query of an rlvr toy counts once):
**   (1 / (H S)) sum_{h,s} -sum_a pi_h(a|s) log pi_h(a|s). */
double ol_mdp_entropy (const ol_mdp *M, const double *z);
/* The first-order change of that average entropy when the logits move
** from z by dz (seed catalog M25; derivation: dH = -sum_a (log pi_a + 1)
** dpi_a with dpi_a = pi_a (dz_a - E_pi dz)):
**   (1 / (H S)) sum_{h,s} -Cov_{a ~ pi_h(.|s)}(log pi_h(a|s), dz_{h,s,a}).
** Exact to first order: the actual change differs by O(|dz|^2). */
double ol_mdp_dentropy_pred (const ol_mdp *M, const double *z,
                             const double *dz);

/* An rlvr toy's success probability of query s under softmax(z) block s:
** p_s = sum_a pi(a|s) R(s, a). */
double ol_mdp_pass (const ol_mdp *M, const double *z, int s);

#endif
