/*
** core/rl/grpo.c -- group relative policy optimisation on a
** verifiable-reward toy (problem.rlvr): group sampling with the group
** mean as baseline (Shao et al. 2024, "DeepSeekMath: pushing the limits
** of mathematical reasoning in open language models", arXiv:2402.03300,
** section 4.1.2, outcome supervision: A_i = (r_i - mean(r)) / std(r)),
** here without the clipped ratio or the KL term: one on-policy softmax
** policy-gradient step per batch (Williams 1992), as in the RLVR toy of
** the seed catalog (T26).
**
** Per step, for every query q: G responses a_i ~ pi_q, rewards r_i in
** {0, 1}, A_i = (r_i - mean r) / sd(r) (scale = "std"; 0 when all r_i
** are equal) or r_i - mean r (scale = "none", Dr. GRPO's choice), and
**
**   z_q <- z_q + lr (1/G) sum_i A_i (e_{a_i} - pi_q)
**
** (probe.h, ol_rl_group_step; lr scaled by the run's schedule).  Zero
** advantages come only from groups that are all right or all wrong:
** zeroadv_pred = mean_q p_q^G + (1 - p_q)^G.
*/
#include <stdlib.h>

#include "rl/probe.h"
#include "vec.h"

typedef struct grpo_state {
  ol_rl rl;          /* first: probe.h */
  double lr;
  int G, scale;
  double *work;      /* 3 G + A */
  int *iw;           /* G */
} grpo_state;

static const ol_param grpo_params[] = {
  {"lr", OL_P_REAL, 1, OL_GT0, OL_FINITE, "step size on each query's "
   "logits", NULL},
  {"G", OL_P_INT, 8, 1, 4096, "responses sampled per query (group size)",
   NULL},
  {"scale", OL_P_ENUM, 0, 0, 1, "advantages divided by the group's sd "
   "(GRPO) or not (Dr. GRPO)", "std|none"},
};

static int grpo_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  grpo_state *s = st;
  int rc;
  s->lr = par[0];
  s->G = (int)par[1];
  s->scale = (int)par[2] == 0;
  if ((rc = ol_rl_init(&s->rl, c, "rl.grpo", 1, e)) != OL_OK) return rc;
  if ((s->work = ol_vec_new(3 * s->G + s->rl.M->A, e)) == NULL)
    return OL_ENOMEM;
  if ((s->iw = malloc((size_t)s->G * sizeof *s->iw)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  return OL_OK;
}

static int grpo_step (void *st, ol_ctx *c, ol_err *e)
{
  grpo_state *s = st;
  (void)e;
  ol_rl_group_step(&s->rl, c, s->G, 0, 0, s->scale, s->lr * c->sched,
                   s->work, s->iw);
  return OL_OK;
}

static void grpo_fini (void *st)
{
  grpo_state *s = st;
  ol_rl_fini(&s->rl);
  ol_vec_free(s->work);
  free(s->iw);
  s->work = NULL;
  s->iw = NULL;
}

const ol_method_type ol_rl_grpo = {
  .name = "grpo",
  .family = OL_RL,
  .doc = "GRPO: group sampling, mean-baseline advantages, softmax PG on logits",
  .ref = "Shao et al. 2024 (DeepSeekMath), sec. 4.1.2; Williams 1992",
  .params = grpo_params,
  .nparams = (int)(sizeof grpo_params / sizeof grpo_params[0]),
  .size = sizeof(grpo_state),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = grpo_init,
  .step = grpo_step,
  .fini = grpo_fini,
  .probe = ol_rl_probe,
  .check = ol_rl_check_binary,
  .probes = OL_PROBES_GROUP,
};
