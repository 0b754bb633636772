/*
** core/games/logbarrier.c -- online mirror descent with the log-barrier
** regulariser, in self-play with bandit feedback (Fiegel, Menard, Kozuno,
** Valko & Perchet 2026, "Optimal last-iterate convergence in matrix games
** with bandit feedback using the log-barrier", arXiv:2604.15242; the
** seeds catalog's B085).  Log-barrier OMD for bandits: Foster, Li,
** Lykouris, Sridharan & Tardos 2016 ("Learning in games: robustness of
** fast convergence", NeurIPS) and Wei & Luo 2018 ("More adaptive
** algorithms for adversarial bandits", COLT, the OMD step of algorithm
** 1); the composite (proximal) step for the regulariser as in Duchi,
** Shalev-Shwartz, Singer & Tewari 2010 (COMID, eq. (3)).
**
** With psi(x) = -sum_a log x_a and each player's loss estimate lhat_t
** (games/bandit.h: one sampled action, importance weighted), each player
** takes, on its own simplex,
**
**   x_{t+1} = argmin_x  eta_t <lhat_t, x> + eta_t tau_t psi(x) + D_psi(x, x_t)
**
** whose first-order condition is
**
**   1 / x_{t+1,a} = (1 / x_{t,a} + eta_t lhat_t,a + lambda) / (1 + eta_t tau_t)
**
** with lambda the one number that makes x_{t+1} sum to 1 (a 1-D root:
** sum_a s / (c_a + lambda) = 1 is decreasing and convex in lambda >
** -min c, so Newton's method from lambda = s - min c, where the sum is >=
** 1, climbs to the root without overshooting; s = 1 + eta tau).  The
** schedules are
**
**   eta_t = lr / (t + 1)^lrpow,   tau_t = tau / (t + 1)^taupow
**
** (t = 0, 1, ...; eta also scaled by the run's schedule).  tau = 0 is the
** plain log-barrier OMD of the catalog's rule (a no-regret bandit
** algorithm; with lrpow = 1/2 its average converges at ~ T^-1/2); tau > 0
** regularises each player's loss by tau_t psi, which makes the
** regularised game strongly monotone relative to psi: the iterates track
** its equilibrium, which is O(tau_t) from the game's and keeps every
** probability above ~ tau_t / (1 + k tau_t), so the estimates' local
** norm sum_a x_a^2 lhat_a^2 = l^2 <= 1 stays bounded (what the log
** barrier buys over entropy, where it is l^2 / x_a).  The defaults lrpow =
** 3/4, taupow = 1/4 balance the two errors: eta_t tau_t = lr tau / (t + 1)
** (contraction faster than the target moves when lr tau > 1), the noise
** leaves a Bregman distance ~ eta_t / tau_t = t^-1/2 around the
** regularised equilibrium, and the bias is tau_t: exploitability of the
** last iterate ~ t^-1/4, the rate of the paper's abstract and the lower
** bound of Fiegel et al. 2025 for uncoupled players.  The defaults lr = 8,
** tau = 0.15 (lr tau = 1.2) are tuned on random 3 x 3 zero-sum games with
** losses in [0, 1]: the log barrier's pull tau / x_a is strong, and the
** regularised equilibrium's exploitability is linear in tau only below
** tau ~ 0.03 (0.13 at tau = 0.1, 0.017 at 0.01 on matrixgame seed 16), so
** a larger tau leaves the measured slope flatter than -1/4 up to T = 10^5
** (-0.1 .. -0.18 at tau = 1, lr = 4), a smaller one leaves the noise,
** ~ sqrt(lr / tau) t^-1/4, dominant.
**
** What the abstract leaves open, and the choices here: the abstract says
** only "log-barrier regularization, along with a dual-focused analysis";
** the paper's algorithm box was not at hand.  Its step and exploration
** schedules, whether the regulariser enters the loss (as here) or only
** the geometry, and whether the estimate uses implicit exploration are
** this file's choices from the standard literature (above), to be
** checked against the paper's algorithm 1.  feedback = "full" replaces
** the estimate by the expected losses (for checks).  The constants of
** its theorem are not relied on: tests/lua/logbarrier.lua checks the
** step against a hand computation and the rate with measured slopes.
** r.x is the strategy played; the average and the regret metric use the
** expected payoffs at it (one oracle call at x, for the records; bandit
** mode adds one at the pure profile played).  A start on the boundary of
** a simplex (shapley's pure x0), where psi is infinite, is moved inside:
** that player's x0 mixed with 1e-3 of the uniform strategy.
*/
#include <math.h>

#include "bandit.h"
#include "problems/game.h"
#include "vec.h"

typedef struct logbarrier_state {
  ol_play play;     /* first: averaging, regret (play.h) */
  double lr, tau, lrpow, taupow, M;
  int feedback;     /* OL_FEEDBACK_* */
  double *g0;       /* oracle output at x, n */
  double *g;        /* oracle output at the pure profile, n */
  double *z;        /* the pure profile played, n */
  double *d;        /* loss estimates, n */
} logbarrier_state;

static const ol_param logbarrier_params[] = {
  {"lr", OL_P_REAL, 8, OL_GT0, OL_FINITE, "step size: eta_t = lr / (t + "
   "1)^lrpow", NULL},
  {"tau", OL_P_REAL, 0.15, 0, OL_FINITE, "regularisation: tau_t = tau / (t + "
   "1)^taupow times the log barrier in each player's loss (0: plain OMD)",
   NULL},
  {"lrpow", OL_P_REAL, 0.75, 0, 1, "decay exponent of eta_t", NULL},
  {"taupow", OL_P_REAL, 0.25, 0, 1, "decay exponent of tau_t", NULL},
  {"feedback", OL_P_ENUM, OL_FEEDBACK_BANDIT, 0, 1, OL_FEEDBACK_DOC,
   OL_FEEDBACK_CHOICES},
};

static int logbarrier_init (void *st, const double *par, ol_ctx *c,
                            ol_err *e)
{
  logbarrier_state *s = st;
  ol_game G;
  int rc, i, b, off;
  s->lr = par[0];
  s->tau = par[1];
  s->lrpow = par[2];
  s->taupow = par[3];
  s->feedback = (int)par[4];
  if (!ol_game_view(c->p, &G))
    return ol_err_set(e, OL_EINVAL, "logbarrier needs a two-player game (it "
                      "plays the joint action and reads its payoff)");
  s->M = G.amax > 0 ? G.amax : 1;
  if ((rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, "logbarrier", e))
      != OL_OK)
    return rc;
  if ((s->g0 = ol_vec_new(c->n, e)) == NULL
      || (s->g = ol_vec_new(c->n, e)) == NULL
      || (s->z = ol_vec_new(c->n, e)) == NULL
      || (s->d = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  /* a start on the boundary (a pure x0, as shapley's), where the barrier
  ** is infinite: that player's block mixed with 1e-3 of uniform */
  for (b = 0, off = 0; b < s->play.nb; off += s->play.blk[b++]) {
    int k = s->play.blk[b], inside = 1;
    for (i = off; i < off + k; i++) inside = inside && c->x[i] > 0;
    if (!inside)
      for (i = off; i < off + k; i++)
        c->x[i] = (1 - 1e-3) * c->x[i] + 1e-3 / k;
  }
  return OL_OK;
}

/* The log-barrier step on one block of k entries: x_a := s / (c_a +
** lambda), c_a = 1 / x_a + eta d_a, s = 1 + eta tau, lambda the root of
** sum_a x_a = 1 (Newton from the left, see the header). */
static void lb_block (double *x, const double *d, double eta, double s,
                      int k)
{
  double cmin = INFINITY, lam, sum;
  int a, it;
  for (a = 0; a < k; a++) {
    x[a] = 1 / x[a] + eta * d[a];          /* x holds c_a for now */
    if (x[a] < cmin) cmin = x[a];
  }
  lam = s - cmin;
  for (it = 0; it < 100; it++) {
    double h = -1, dh = 0, step;
    for (a = 0; a < k; a++) {
      double q = s / (x[a] + lam);
      h += q;
      dh += q * q / s;
    }
    step = h / dh;
    lam += step;
    if (!(fabs(step) > 1e-16 * (fabs(lam) + cmin))) break;
  }
  sum = 0;
  for (a = 0; a < k; a++) {
    x[a] = s / (x[a] + lam);
    sum += x[a];
  }
  for (a = 0; a < k; a++) x[a] /= sum;     /* the last rounding */
}

static int logbarrier_step (void *st, ol_ctx *c, ol_err *e)
{
  logbarrier_state *s = st;
  const ol_play *pl = &s->play;
  double t1 = (double)(c->t + 1);
  double eta = s->lr * c->sched / pow(t1, s->lrpow);
  double tau = s->tau / pow(t1, s->taupow);
  int b, off, rc;
  /* (1) the expected payoffs at x, for the records (regret, average) */
  if ((rc = ol_ctx_grad(c, c->x, NULL, s->g0, e)) != OL_OK) return rc;
  ol_play_observe(&s->play, c, c->x, s->g0);
  /* (2) the loss estimates (bandit.h) */
  if ((rc = ol_bandit_losses(c, pl, s->feedback, s->M, 0, s->g0, s->z,
                             s->g, s->d, e)) != OL_OK)
    return rc;
  /* (3) each player's log-barrier step */
  for (b = 0, off = 0; b < pl->nb; off += pl->blk[b++])
    lb_block(c->x + off, s->d + off, eta, 1 + eta * tau, pl->blk[b]);
  return OL_OK;
}

static void logbarrier_fini (void *st)
{
  logbarrier_state *s = st;
  ol_play_fini(&s->play);
  ol_vec_free(s->g0);
  ol_vec_free(s->g);
  ol_vec_free(s->z);
  ol_vec_free(s->d);
  s->g0 = s->g = s->z = s->d = NULL;
}

const ol_method_type ol_game_logbarrier = {
  .name = "logbarrier",
  .family = OL_DYNAMIC,
  .doc = "log-barrier online mirror descent with bandit feedback, "
    "regularised by tau_t psi: last-iterate exploitability ~ t^-1/4",
  .ref = "Fiegel, Menard, Kozuno, Valko & Perchet 2026 (arXiv:2604.15242)",
  .params = logbarrier_params,
  .nparams = (int)(sizeof logbarrier_params / sizeof logbarrier_params[0]),
  .size = sizeof(logbarrier_state),
  .flags = OL_M_NEEDSET | OL_M_OWNAVG,
  .kinds = OL_KIND(OL_GAME),
  .init = logbarrier_init,
  .step = logbarrier_step,
  .fini = logbarrier_fini,
  .probe = ol_play_probe,
  .check = ol_game_check,
  .probes = OL_PROBES_PLAY,
};
