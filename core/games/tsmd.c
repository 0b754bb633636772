/*
** core/games/tsmd.c -- two-step mirror descent in self-play with bandit
** feedback (Fiegel, Menard, Kozuno, Valko & Perchet 2025, "The harder
** path: last iterate convergence for uncoupled learning in zero-sum
** games with bandit feedback", ICML, arXiv:2604.16087; the seeds
** catalog's B111, its second algorithm).  Entropic mirror descent with
** importance-weighted estimates and implicit exploration as in Exp3-IX
** (Neu 2015) and the entropy-regularised loss of Cai, Luo, Wei & Zheng
** 2023 ("Uncoupled and convergent learning in two-player zero-sum Markov
** games with bandit feedback", NeurIPS, the O(T^-1/8) predecessor the
** abstract improves on), taken here as two mirror steps.
**
** Each player, with its loss estimate lhat_t (games/bandit.h: one sampled
** action, lhat_a = l [a = a_t] / (x_a + gamma_t)) and KL the
** Kullback-Leibler divergence on its simplex, u the uniform strategy:
**
**   y_{t+1} = argmin_y  eta_t <lhat_t, y> + KL(y, x_t)           (learn)
**   x_{t+1} = argmin_x  eta_t tau_t KL(x, u) + KL(x, y_{t+1})    (regularise)
**
** in closed form y ~ x_t exp(-eta_t lhat_t) and x_{t+1} ~ y_{t+1}^(1 / (1 +
** eta_t tau_t)), kept as log weights (shifted to maximum 0).  Schedules
**
**   eta_t = lr / (t + 1)^lrpow,  tau_t = tau / (t + 1)^taupow,
**   gamma_t = eta_t / 2 when ix (Neu's choice), else 0
**
** (eta also scaled by the run's schedule).  The second step is a
** contraction towards u by the factor 1 / (1 + eta_t tau_t) in the log
** weights: the equilibrium of the tau-regularised game (entropy bonus
** tau) is O(tau) from the game's and its probabilities are bounded away
** from 0, so the estimates stay controlled; the first step alone is
** Exp3-IX (tau = 0), a no-regret learner whose last iterate cycles.
** With the defaults lrpow = 3/4, taupow = 1/4 (eta_t tau_t = lr tau / (t +
** 1)) the last iterate's exploitability falls like t^-1/4 up to logs, the
** optimal rate for uncoupled bandit play (the abstract's Omega(T^-1/4)).
**
** What the abstract leaves open, and the choices here: it says only "a
** regularization technique based on a two-step mirror descent approach";
** the paper's algorithm box was not at hand.  The order of the two steps,
** the regularisation centre (uniform here), the schedules' exponents and
** constants and the implicit exploration are this file's choices from
** the standard literature (above), to be checked against the paper's
** second algorithm.  The first algorithm of the abstract (an explicit
** exploration/exploitation trade-off) is not implemented.  feedback =
** "full" replaces the estimate by the expected losses (for checks).  r.x
** is the strategy played; the average and the regret metric use the
** expected payoffs at it (one oracle call at x, for the records; bandit
** mode adds one at the pure profile played).
*/
#include <math.h>

#include "bandit.h"
#include "problems/game.h"
#include "vec.h"

typedef struct tsmd_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr, tau, lrpow, taupow, M;
  int ix, feedback;
  double *L;        /* log weights, n */
  double *g0;       /* oracle output at x, n */
  double *g;        /* oracle output at the pure profile, n */
  double *z;        /* the pure profile played, n */
  double *d;        /* loss estimates, n */
} tsmd_state;

static const ol_param tsmd_params[] = {
  {"lr", OL_P_REAL, 4, OL_GT0, OL_FINITE, "step size: eta_t = lr / (t + "
   "1)^lrpow", NULL},
  {"tau", OL_P_REAL, 1, 0, OL_FINITE, "regularisation towards uniform: "
   "tau_t = tau / (t + 1)^taupow (0: Exp3-IX)", NULL},
  {"lrpow", OL_P_REAL, 0.75, 0, 1, "decay exponent of eta_t", NULL},
  {"taupow", OL_P_REAL, 0.25, 0, 1, "decay exponent of tau_t", NULL},
  {"ix", OL_P_BOOL, 1, 0, 1, "implicit exploration gamma_t = eta_t / 2 in "
   "the estimate (Neu 2015); false: unbiased estimates", NULL},
  {"feedback", OL_P_ENUM, OL_FEEDBACK_BANDIT, 0, 1, OL_FEEDBACK_DOC,
   OL_FEEDBACK_CHOICES},
};

static int tsmd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  tsmd_state *s = st;
  ol_game G;
  int rc, i;
  s->lr = par[0];
  s->tau = par[1];
  s->lrpow = par[2];
  s->taupow = par[3];
  s->ix = par[4] != 0;
  s->feedback = (int)par[5];
  if (!ol_game_view(c->p, &G))
    return ol_err_set(e, OL_EINVAL, "tsmd needs a two-player game (it "
                      "plays the joint action and reads its payoff)");
  s->M = G.amax > 0 ? G.amax : 1;
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "tsmd", e)) != OL_OK)
    return rc;
  if ((s->L = ol_vec_new(c->n, e)) == NULL
      || (s->g0 = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL
      || (s->z = ol_vec_new(c->n, e)) == NULL
      || (s->d = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  for (i = 0; i < c->n; i++) s->L[i] = log(c->x[i]);
  return OL_OK;
}

static int tsmd_step (void *st, ol_ctx *c, ol_err *e)
{
  tsmd_state *s = st;
  const ol_play *pl = &s->play;
  double t1 = (double)(c->t + 1);
  double eta = s->lr * c->sched / pow(t1, s->lrpow);
  double tau = s->tau / pow(t1, s->taupow);
  int b, off, a, rc;
  /* (1) the expected payoffs at x, for the records (regret, average) */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g0, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g0);
  /* (2) the loss estimates (bandit.h) */
  if ((rc = ol_bandit_losses(c, pl, s->feedback, s->M,
                             s->ix ? eta / 2 : 0, s->g0, s->z, s->g, s->d,
                             e)) != OL_OK)
    return rc;
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++]) {
    int k = pl->blk[b];
    double *L = s->L + off, shrink = 1 / (1 + eta * tau);
    /* (3) learn: L -= eta lhat, shifted to maximum 0, x = softmax(L) */
    ol_mwu_block(L, s->d + off, -eta, c->x + off, k);
    /* (4) regularise: L /= 1 + eta tau (towards uniform; the maximum
    ** stays 0), x = softmax(L) */
    for (a = 0; a < k; a++) s->z[off + a] = 0;
    for (a = 0; a < k; a++) L[a] *= shrink;
    ol_mwu_block(L, s->z + off, 0, c->x + off, k);
  }
  return OL_OK;
}

static void tsmd_fini (void *st)
{
  tsmd_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->L);
  ol_vec_free(s->g0);
  ol_vec_free(s->g);
  ol_vec_free(s->z);
  ol_vec_free(s->d);
  s->L = s->g0 = s->g = s->z = s->d = NULL;
}

const ol_method_type ol_game_tsmd = {
  .name = "tsmd",
  .family = OL_DYNAMIC,
  .doc = "two-step mirror descent with bandit feedback: an Exp3-IX step, "
    "then a KL step towards uniform; last-iterate exploitability ~ t^-1/4",
  .ref = "Fiegel, Menard, Kozuno, Valko & Perchet 2025 (ICML)",
  .params = tsmd_params,
  .nparams = (int)(sizeof tsmd_params / sizeof tsmd_params[0]),
  .size = sizeof(tsmd_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = tsmd_init,
  .step = tsmd_step,
  .fini = tsmd_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
