/*
** core/rl/pg.c -- simultaneous softmax policy gradient on a tabular
** finite-horizon MDP: every stage's logits move at once along the policy
** gradient of J (REINFORCE, Williams 1992, "Simple statistical
** gradient-following algorithms for connectionist reinforcement
** learning", Machine Learning 8; the policy gradient theorem, Sutton,
** McAllester, Singh & Mansour 2000, NeurIPS; tabular softmax, Agarwal,
** Kakade, Lee & Mahajan 2021, JMLR 22, section 4.1, the gradient
** d(s) pi(a|s) A(s, a) undiscounted; in finite
** horizon the "simultaneous" training of Klein, Weissmann & Doring 2024,
** "Beyond stationarity: convergence analysis of stochastic softmax policy
** gradient methods", ICLR, seed B007).
**
**   z <- z + lr grad J(z),
**   exact:      grad J from the problem's oracle (core/rl/mdp.h:
**               d_h(s) pi_h(a|s) (Q_h(s, a) - V_h(s)), one gradient
**               evaluation per step);
**   reinforce:  the mean over `samples` episodes drawn with the run's
**               generator of sum_h (e_{a_h} - pi_h(.|s_h)) G_h in block
**               (h, s_h), G_h the reward to go: unbiased, no oracle call.
** lr is scaled by the run's schedule.  With the exact gradient and a
** small enough lr, J never decreases and the policy approaches an optimal
** deterministic one at rate O(1/t) (Mei, Xiao, Szepesvari & Schuurmans
** 2020); the entropy falls to 0 with it.
*/
#include <math.h>

#include "rl/probe.h"
#include "vec.h"

typedef struct pg_state {
  ol_rl rl;          /* first: probe.h */
  double lr;
  int reinforce;
  int samples;
  double *pi;        /* n: the policy (reinforce) */
} pg_state;

static const ol_param pg_params[] = {
  {"lr", OL_P_REAL, 1, OL_GT0, OL_FINITE, "step size of the ascent on the "
   "logits", NULL},
  {"estimator", OL_P_ENUM, 0, 0, 1, "exact policy gradient, or the "
   "REINFORCE estimate from sampled episodes", "exact|reinforce"},
  {"samples", OL_P_INT, 16, 1, 1e6, "episodes per REINFORCE estimate",
   NULL},
};

static int pg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  pg_state *s = st;
  int rc;
  s->lr = par[0];
  s->reinforce = (int)par[1] == 1;
  s->samples = (int)par[2];
  if ((rc = ol_rl_init(&s->rl, c, "rl.pg", 0, e)) != OL_OK) return rc;
  if ((s->pi = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

static int pg_step (void *st, ol_ctx *c, ol_err *e)
{
  pg_state *s = st;
  double *g = s->rl.g, lr = s->lr * c->sched;
  int i, k, n = c->n, rc;
  ol_rl_begin(&s->rl, c);
  if (!s->reinforce) {
    /* (1) exact: the oracle's gradient of f = -J */
    if ((rc = ol_ctx_grad(c, c->x, NULL, g, e)) != OL_OK) return rc;
    for (i = 0; i < n; i++) c->x[i] -= lr * g[i];
    return OL_OK;
  }
  /* (1) reinforce: episodes under the current policy */
  ol_mdp_policy(s->rl.M, c->x, s->pi);
  for (i = 0; i < n; i++) g[i] = 0;
  for (k = 0; k < s->samples; k++)
    ol_mdp_episode(s->rl.M, s->pi, c->rng, g);
  /* (2) ascend the mean estimate */
  for (i = 0; i < n; i++) c->x[i] += lr * g[i] / s->samples;
  return OL_OK;
}

static void pg_fini (void *st)
{
  pg_state *s = st;
  ol_rl_fini(&s->rl);
  ol_vec_free(s->pi);
  s->pi = NULL;
}

const ol_method_type ol_rl_pg = {
  .name = "pg",
  .family = OL_RL,
  .doc = "simultaneous softmax policy gradient on an MDP (exact or REINFORCE)",
  .ref = "Williams 1992; Sutton et al. 2000; Agarwal et al. 2021, sec. 4.1",
  .params = pg_params,
  .nparams = (int)(sizeof pg_params / sizeof pg_params[0]),
  .size = sizeof(pg_state),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = pg_init,
  .step = pg_step,
  .fini = pg_fini,
  .probe = ol_rl_probe,
  .check = ol_rl_check,
  .probes = OL_PROBES_RL,
};
