/*
** core/rl/probe.h -- what every RL method (core/rl/) shares: the MDP of
** its problem, the logits before its last step, and its metrics (probe):
**   gap            V* - J(z_t)                         (mdp.h, exact)
**   entropy        policy entropy averaged uniformly over the H S decision
**                  points (ol_mdp_entropy): over the states of every stage
**                  of an MDP, over the queries of an rlvr toy
**   dentropy_pred  ol_mdp_dentropy_pred(z_{t-1}, z_t - z_{t-1}) (M25)
**   dentropy       entropy(z_t) - entropy(z_{t-1})
**   zeroadv, zeroadv_pred, pass1   group-sampling methods (grpo, qae):
**                  kept by the method in the struct at each step.
** dentropy_pred and dentropy are NAN before the first step.  A method's
** state struct starts with an ol_rl, so ol_rl_probe reads it.
*/
#ifndef OL_RL_PROBE_H
#define OL_RL_PROBE_H

#include "method.h"
#include "rl/mdp.h"

typedef struct ol_rl {
  const ol_mdp *M;   /* borrowed from the problem */
  int n;             /* H S A */
  double *xprev;     /* n: z before the last step (owned) */
  double *g;         /* n: the method's gradient or estimate (owned) */
  double *work;      /* ol_mdp_worksize doubles (owned) */
  long steps;        /* steps taken */
  double zeroadv;    /* group methods: the last batch's zero fraction */
  double zeroadv_pred;   /* and its expectation at the policy sampled */
} ol_rl;

/* Set up r for method who on c's problem: OL_EINVAL naming the problems
** when it is not an MDP ("rl.pg needs an MDP problem ..."), or (needbin)
** when it is not a verifiable-reward toy; OL_ENOMEM.  ol_rl_fini frees
** a partial one. */
int ol_rl_init (ol_rl *r, ol_ctx *c, const char *who, int needbin,
                ol_err *e);
void ol_rl_fini (ol_rl *r);
/* The check hooks of the RL methods (method.h): ol_rl_check wants an MDP
** problem, ol_rl_check_binary (the group-sampling methods grpo, qae,
** which report pass1) one with 0/1 rewards (an rlvr toy). */
int ol_rl_check (const ol_method_type *m, const ol_problem *p, ol_err *e);
int ol_rl_check_binary (const ol_method_type *m, const ol_problem *p,
                        ol_err *e);
/* Keep z_t before a step changes it. */
void ol_rl_begin (ol_rl *r, const ol_ctx *c);
/* The metrics above for a state whose first member is an ol_rl. */
double ol_rl_probe (const void *st, int metric, const ol_ctx *c);

/* Group sampling (grpo.c, qae.c) on an rlvr toy (M->binary): for every
** query q, G responses a_i drawn from pi_q = softmax(z_q) with rewards
** r_i = R(q, a_i), a baseline b (the group mean; quantile: the lower
** K-quantile r_(ceil(K G)) of the sorted rewards), advantages
**   A_i = (r_i - b) / sd(r)   (scale, sd the population sd; 0 when sd
**                              is 0)    or    A_i = r_i - b,
** and the softmax policy-gradient step on the query's logits
**   z_q <- z_q + lr (1/G) sum_i A_i (e_{a_i} - pi_q).
** Sets r->zeroadv (fraction of the Q G advantages exactly 0) and
** r->zeroadv_pred: the mean over queries of E z(k), k ~ Bin(G, p_q) the
** group's successes at the policy sampled, z(k) the zero fraction of
** such a group: 1 at k = 0 and k = G, else 0 for the mean baseline; for
** the quantile one (1 - k/G) when ceil(K G) <= G - k (p <= 1 - K: the
** baseline is 0, failures get 0) else k/G (seed catalog M26).  work:
** 3 G + A doubles and G ints in iw. */
void ol_rl_group_step (ol_rl *r, ol_ctx *c, int G, int quantile, double K,
                       int scale, double lr, double *work, int *iw);

/* The metrics an RL method's probe defines (ids, then the sets), a
** group-sampling one's with three more. */
#define OL_RL_METRICS OL_MET_GAP, OL_MET_ENTROPY, OL_MET_DENTROPY_PRED, \
                      OL_MET_DENTROPY
#define OL_PROBES_RL OL_MSET(OL_RL_METRICS)
#define OL_PROBES_GROUP OL_MSET(OL_RL_METRICS, OL_MET_ZEROADV, \
                                OL_MET_ZEROADV_PRED, OL_MET_PASS1)

#endif
