/*
** core/rl/dynpg.c -- dynamic policy gradient: softmax policy gradient
** trained backwards in time (Klein, Weissmann & Doring 2024, "Beyond
** stationarity: convergence analysis of stochastic softmax policy
** gradient methods", ICLR, seed B007: dynamic programming combined with
** policy gradient, the logits of stage H-1 trained first, then H-2 with
** the later stages fixed, ...).
**
** Stage h maximises J_h(z_h) = sum_s w_h(s) V_h(s) with the policies of
** stages h+1 .. H-1 fixed, w_0 = mu and w_h uniform (1/S) for h > 0 (a
** fixed state distribution per stage, so that every state is trained):
**
**   z_h <- z_h + lr w_h(s) pi_h(a|s) (Q_h(s, a) - V_h(s))     (every s, a)
**
** (ol_mdp_stage; one step = one gradient step of the current stage).  A
** stage is done when its greedy gap sum_s w_h(s) (max_a Q_h(s, a) -
** V_h(s)) is at most tol, or after `steps` steps (0: no cap); then h
** moves to h-1, and after stage 0 the run has converged.  By the
** performance difference lemma, V*_h(s) - V_h(s) <= sum_{k >= h} max_s'
** (max_a Q_k(s', a) - V_k(s')), so small stage gaps bound V* - V^pi
** (each at most S tol for the uniform w).  lr is scaled by the run's schedule.  No oracle call: the
** stage's exact gradient comes from the MDP's structure (mdp.h), so the
** engine's gradient counts stay 0; steps are the measure of work.
*/
#include <math.h>
#include <stdio.h>

#include "rl/probe.h"
#include "vec.h"

typedef struct dynpg_state {
  ol_rl rl;          /* first: probe.h */
  double lr, tol;
  long steps;        /* per-stage cap, 0: none */
  int stage;         /* stage being trained */
  long instage;      /* steps taken in it */
} dynpg_state;

static const ol_param dynpg_params[] = {
  {"lr", OL_P_REAL, 1, OL_GT0, OL_FINITE, "step size of the ascent on the "
   "current stage's logits", NULL},
  {"tol", OL_P_REAL, 1e-4, 0, OL_FINITE, "a stage is done when its greedy "
   "gap sum_s w(s) (max_a Q - V) <= tol", NULL},
  {"steps", OL_P_INT, 0, 0, 1e12, "at most this many steps per stage (0: "
   "until tol)", NULL},
};

static int dynpg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  dynpg_state *s = st;
  int rc;
  s->lr = par[0];
  s->tol = par[1];
  s->steps = (long)par[2];
  if (s->tol <= 0 && s->steps == 0)
    return ol_err_set(e, OL_EINVAL, "rl.dynpg needs tol > 0 or steps > 0 "
                      "(when is a stage done?)");
  if ((rc = ol_rl_init(&s->rl, c, "rl.dynpg", 0, e)) != OL_OK) return rc;
  s->stage = s->rl.M->H - 1;
  return OL_OK;
}

static int dynpg_step (void *st, ol_ctx *c, ol_err *e)
{
  dynpg_state *s = st;
  const ol_mdp *M = s->rl.M;
  int i, sa = M->S * M->A;
  double gap, *zh;
  (void)e;
  /* (1) the stage to train: the latest one not yet done */
  for (;;) {
    gap = ol_mdp_stage(M, c->x, s->stage, s->rl.g, s->rl.work);
    if (gap > s->tol && (s->steps == 0 || s->instage < s->steps)) break;
    if (s->stage == 0) {
      char why[96];
      snprintf(why, sizeof why, "every stage trained (stage 0's greedy "
               "gap %.3g)", gap);
      ol_ctx_converged(c, why);
      return OL_OK;
    }
    s->stage--;
    s->instage = 0;
  }
  /* (2) ascend its logits */
  ol_rl_begin(&s->rl, c);
  zh = c->x + (size_t)s->stage * sa;
  for (i = 0; i < sa; i++) zh[i] += s->lr * c->sched * s->rl.g[i];
  s->instage++;
  return OL_OK;
}

static void dynpg_fini (void *st)
{
  dynpg_state *s = st;
  ol_rl_fini(&s->rl);
}

const ol_method_type ol_rl_dynpg = {
  .name = "dynpg",
  .family = OL_RL,
  .doc =
    "dynamic policy gradient: the stages of an MDP trained backwards in time",
  .ref = "Klein, Weissmann & Doring 2024 (ICLR)",
  .params = dynpg_params,
  .nparams = (int)(sizeof dynpg_params / sizeof dynpg_params[0]),
  .size = sizeof(dynpg_state),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = dynpg_init,
  .step = dynpg_step,
  .fini = dynpg_fini,
  .probe = ol_rl_probe,
  .check = ol_rl_check,
  .probes = OL_PROBES_RL,
};
