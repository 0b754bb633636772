/*
** core/rl/qae.c -- quantile advantage estimation on a verifiable-reward
** toy (problem.rlvr): GRPO's group sampling with the group mean replaced
** by the group's K-quantile as baseline (Wu, Huang, Wu, Zhang, Wang & He
** 2025, "Quantile advantage estimation for entropy-safe reasoning", seed
** A03: "replacing the mean with a group-wise K-quantile baseline").
**
** Per step, for every query q: G responses a_i ~ pi_q, rewards r_i in
** {0, 1}, the baseline b = r_(ceil(K G)) (the lower empirical K-quantile
** of the sorted rewards), A_i = r_i - b (scale = "none", the default:
** the abstract states no division) or (r_i - b) / sd(r) (scale = "std"),
** and the softmax policy-gradient step of grpo.c,
**
**   z_q <- z_q + lr (1/G) sum_i A_i (e_{a_i} - pi_q).
**
** With binary rewards and k successes (p = k/G) the baseline is 0 when
** p <= 1 - K, so only the successes move ("reinforces rare successes" on
** hard queries), and 1 when p > 1 - K, so only the failures move
** ("targets remaining failures" on easy ones): the fraction of zero
** advantages is 1 - p, resp. p (seed catalog M26; zeroadv_pred is its
** expectation over k ~ Bin(G, p_q), probe.h).  The paper's claim: with
** a tuned K "roughly 80% of responses receive zero advantage", and the
** entropy stays between two one-step bounds under first-order softmax
** updates (its "two-sided entropy safety").
*/
#include <stdlib.h>

#include "rl/probe.h"
#include "vec.h"

typedef struct qae_state {
  ol_rl rl;          /* first: probe.h */
  double lr, K;
  int G, scale;
  double *work;      /* 3 G + A */
  int *iw;           /* G */
} qae_state;

static const ol_param qae_params[] = {
  {"lr", OL_P_REAL, 1, OL_GT0, OL_FINITE, "step size on each query's "
   "logits", NULL},
  {"G", OL_P_INT, 8, 1, 4096, "responses sampled per query (group size)",
   NULL},
  {"K", OL_P_REAL, 0.6, OL_GT0, 0.9999999999999999, "quantile of the "
   "group's rewards taken as baseline", NULL},
  {"scale", OL_P_ENUM, 1, 0, 1, "advantages divided by the group's sd or "
   "not", "std|none"},
};

static int qae_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  qae_state *s = st;
  int rc;
  s->lr = par[0];
  s->G = (int)par[1];
  s->K = par[2];
  s->scale = (int)par[3] == 0;
  if ((rc = ol_rl_init(&s->rl, c, "rl.qae", 1, e)) != OL_OK) return rc;
  if ((s->work = ol_vec_new(3 * s->G + s->rl.M->A, e)) == NULL)
    return OL_ENOMEM;
  if ((s->iw = malloc((size_t)s->G * sizeof *s->iw)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  return OL_OK;
}

static int qae_step (void *st, ol_ctx *c, ol_err *e)
{
  qae_state *s = st;
  (void)e;
  ol_rl_group_step(&s->rl, c, s->G, 1, s->K, s->scale, s->lr * c->sched,
                   s->work, s->iw);
  return OL_OK;
}

static void qae_fini (void *st)
{
  qae_state *s = st;
  ol_rl_fini(&s->rl);
  ol_vec_free(s->work);
  free(s->iw);
  s->work = NULL;
  s->iw = NULL;
}

const ol_method_type ol_rl_qae = {
  .name = "qae",
  .family = OL_RL,
  .doc = "QAE: group sampling with a K-quantile baseline, softmax PG on logits",
  .ref = "Wu et al. 2025, quantile advantage estimation (seed A03)",
  .params = qae_params,
  .nparams = (int)(sizeof qae_params / sizeof qae_params[0]),
  .size = sizeof(qae_state),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = qae_init,
  .step = qae_step,
  .fini = qae_fini,
  .probe = ol_rl_probe,
  .check = ol_rl_check_binary,
  .probes = OL_PROBES_GROUP,
};
