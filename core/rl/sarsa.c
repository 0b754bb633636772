/*
** core/rl/sarsa.c -- projected linear SARSA on a discounted MDP with
** features (problem.linmdp, core/problems/linmdp.h), one transition per
** step along a single trajectory (Rummery & Niranjan 1994, SARSA; its
** projected linear form as studied by Zhang, Tachet des Combes & Laroche
** 2023, "On the convergence of SARSA with linear function approximation",
** ICML, seed B055, whose abstract says it "chatters": it "does not
** diverge but oscillates in a bounded region", "much smaller than the
** region that we project into, provided that the magnitude of the reward
** is not too large").
**
** The rule (the standard projected linear SARSA; the paper's own text was
** not at hand, so this is the form the abstract names, to be checked
** against its algorithm box): in state s_t with action a_t,
**   (1) r_t = R(s_t, a_t),  s_{t+1} ~ P(.|s_t, a_t);
**   (2) a_{t+1} ~ pi_{w_t}(.|s_{t+1}), the policy improvement operator
**       applied to Q_w = phi'w:
**         egreedy  eps / A + (1 - eps) [a = the first argmax_a Q_w(s, a)]
**         softmax  eps / A + (1 - eps) softmax(Q_w(s, .) / tau)
**                  (Lipschitz in w with constant ~ xmax / tau: the
**                  paper's "arbitrary Lipschitz constants");
**   (3) delta_t = r_t + gamma phi(s_{t+1}, a_{t+1})'w_t - phi(s_t, a_t)'w_t,
**       w_{t+1} = Pi_R(w_t + alpha_t delta_t phi(s_t, a_t)),
**       Pi_R the projection onto the ball ||w|| <= radius (R = inf: none),
**       alpha_t = lr times the run's schedule (kind "inv" gives the
**       diminishing steps of the convergence theory).
** s_0 is uniform and a_0 ~ pi_{w_0}(.|s_0), drawn at init from the run's
** generator.  Left open by the abstract, chosen here: rewards are
** deterministic, the behaviour policy is eps-greedy or eps-softmax, the
** step size is the run's schedule, the projection is Euclidean.
**
** The bound (not the paper's constants, which we could not read: the
** standard mean-field argument of Gordon 2000, "Reinforcement learning
** with function approximation converges to a region", NeurIPS, and
** Melo, Meyn & Ribeiro 2008, made explicit).  The expected update at w
** is b_pi - A_pi w with pi = pi_w, d_pi its stationary law on pairs,
** D = diag(d_pi):  b_pi = Phi'D R,  A_pi = Phi'D (I - gamma P_pi) Phi.
** Stationarity gives ||P_pi v||_D <= ||v||_D, so with v = Phi w
**   w'(b_pi - A_pi w) <= ||v||_D (rmax - (1 - gamma) ||v||_D),
** negative once ||v||_D > rmax / (1 - gamma).  Every policy here puts
** eps / A on each action and every state has probability >= pmin, so
** d_pi >= (eps / A) pmin and ||v||_D^2 >= (eps / A) pmin lmin ||w||^2:
** outside the ball of radius
**   rho = rmax / ((1 - gamma) sqrt((eps / A) pmin lmin))
** the flow (for egreedy, every element of the differential inclusion)
** points inwards, so the iterates with diminishing steps end in it
** (stochastic approximation of a differential inclusion: Benaim,
** Hofbauer & Sorin 2005, SIAM J. Control Optim. 44) and
** the chattering region has diameter <= 2 rho (r.bound is rho); rho
** scales with rmax while the projection radius R does not: with R > rho
** the projection is inactive in the end and the region is "much smaller
** than the region that we project into" when rmax is small.
**
** Metric region (M28): the diameter ||hi - lo|| of the bounding box of
** the iterates w_u for u in [2^(k-1), t], 2^k <= t < 2^(k+1): at least
** the last half, at most the last three quarters of the run (dyadic
** blocks, so no history is kept).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "problems/linmdp.h"
#include "vec.h"

typedef struct sarsa_state {
  const ol_linmdp *M;   /* borrowed from the problem */
  double lr, eps, tau, radius;
  int softmax;
  int s, a;             /* the pair whose reward comes next */
  long t;               /* steps taken */
  long block;           /* the first step of the next dyadic block */
  double *q, *pi;       /* A each */
  double *lo, *hi;      /* d: the box of the current block */
  double *plo, *phi;    /* d: the box of the previous one */
  double bound;         /* rho for eps (header) */
} sarsa_state;

extern const ol_method_type ol_rl_sarsa;

static const ol_param sarsa_params[] = {
  {"lr", OL_P_REAL, 0.1, OL_GT0, OL_FINITE, "step size alpha (times the "
   "run's schedule; kind \"inv\" gives diminishing steps)", NULL},
  {"eps", OL_P_REAL, 0.1, 0, 1, "exploration: every action has "
   "probability at least eps / A", NULL},
  {"policy", OL_P_ENUM, 0, 0, 1, "policy improvement operator on "
   "Q = phi'w: eps-greedy or eps-softmax", "egreedy|softmax"},
  {"tau", OL_P_REAL, 1, OL_GT0, OL_FINITE, "softmax temperature (its "
   "Lipschitz constant grows as 1 / tau)", NULL},
  {"radius", OL_P_REAL, 1000, OL_GT0, INFINITY, "projection radius R: "
   "w stays in ||w|| <= R (inf: no projection)", NULL},
};

/* The policy pi_w(.|s) into st->pi. */
static void policy (sarsa_state *st, const double *w, int s)
{
  const ol_linmdp *M = st->M;
  int A = M->A, d = M->d, a, j, best = 0;
  double sum = 0, m;
  for (a = 0; a < A; a++) {
    const double *ph = M->phi + ((size_t)s * A + a) * d;
    double q = 0;
    for (j = 0; j < d; j++) q += ph[j] * w[j];
    st->q[a] = q;
    if (q > st->q[best]) best = a;
  }
  if (!st->softmax) {
    for (a = 0; a < A; a++) st->pi[a] = st->eps / A;
    st->pi[best] += 1 - st->eps;
    return;
  }
  m = st->q[best];
  for (a = 0; a < A; a++) sum += st->pi[a] = exp((st->q[a] - m) / st->tau);
  for (a = 0; a < A; a++)
    st->pi[a] = st->eps / A + (1 - st->eps) * st->pi[a] / sum;
}

static int draw (const double *pi, int A, ol_rng *rng)
{
  double u = ol_rng_uniform(rng);
  int a;
  for (a = 0; a < A - 1; a++) {
    u -= pi[a];
    if (u < 0) return a;
  }
  return A - 1;
}

static int sarsa_check (const ol_method_type *m, const ol_problem *p,
                        ol_err *e)
{
  if (ol_linmdp_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "rl.%s needs a discounted MDP with "
                      "features (problem.linmdp); %s is not one", m->name,
                      p->name);
  return OL_OK;
}

static int sarsa_init (void *vs, const double *par, ol_ctx *c, ol_err *e)
{
  sarsa_state *st = vs;
  const ol_linmdp *M = ol_linmdp_of(c->p);
  int d;
  if (M == NULL) return sarsa_check(&ol_rl_sarsa, c->p, e);
  st->M = M;
  d = M->d;
  st->lr = par[0];
  st->eps = par[1];
  st->softmax = (int)par[2] == 1;
  st->tau = par[3];
  st->radius = par[4];
  st->bound = ol_linmdp_bound(M, st->eps);
  if ((st->q = malloc(sizeof *st->q * (size_t)M->A)) == NULL
      || (st->pi = malloc(sizeof *st->pi * (size_t)M->A)) == NULL
      || (st->lo = ol_vec_new(d, e)) == NULL
      || (st->hi = ol_vec_new(d, e)) == NULL
      || (st->plo = ol_vec_new(d, e)) == NULL
      || (st->phi = ol_vec_new(d, e)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  /* (0) s_0 uniform, a_0 from the start's policy */
  st->s = (int)ol_rng_below(c->rng, M->S);
  policy(st, c->x, st->s);
  st->a = draw(st->pi, M->A, c->rng);
  st->block = 1;
  return OL_OK;
}

static int sarsa_step (void *vs, ol_ctx *c, ol_err *e)
{
  sarsa_state *st = vs;
  const ol_linmdp *M = st->M;
  const double *f0 = M->phi + ((size_t)st->s * M->A + st->a) * M->d;
  double *w = c->x, r, delta, nn, alpha = st->lr * c->sched;
  int d = M->d, s1, a1, j;
  (void)e;
  /* (1) reward and next state */
  r = M->R[(size_t)st->s * M->A + st->a];
  s1 = ol_linmdp_next(M, st->s, st->a, c->rng);
  /* (2) next action from the current policy */
  policy(st, w, s1);
  a1 = draw(st->pi, M->A, c->rng);
  /* (3) TD error (q[a1] = phi(s1, a1)'w from the policy), move,
  ** project */
  delta = r + M->gamma * st->q[a1];
  for (j = 0; j < d; j++) delta -= f0[j] * w[j];
  for (j = 0; j < d; j++) w[j] += alpha * delta * f0[j];
  nn = ol_vec_nrm2(w, d);            /* scaled: no overflow near 1e154 */
  if (nn > st->radius)
    for (j = 0; j < d; j++) w[j] *= st->radius / nn;
  st->s = s1;
  st->a = a1;
  /* (4) the dyadic boxes of the region metric */
  st->t++;
  if (st->t == st->block) {
    for (j = 0; j < d; j++) {
      st->plo[j] = st->lo[j];
      st->phi[j] = st->hi[j];
      st->lo[j] = st->hi[j] = w[j];
    }
    if (st->t == 1)
      for (j = 0; j < d; j++) st->plo[j] = st->phi[j] = w[j];
    st->block *= 2;
  }
  for (j = 0; j < d; j++) {
    st->lo[j] = fmin(st->lo[j], w[j]);
    st->hi[j] = fmax(st->hi[j], w[j]);
  }
  return OL_OK;
}

static double sarsa_probe (const void *vs, int metric, const ol_ctx *c)
{
  const sarsa_state *st = vs;
  double s = 0;
  int j;
  (void)c;
  if (metric != OL_MET_REGION || st->t < 1) return NAN;
  for (j = 0; j < st->M->d; j++) {
    double u = fmax(st->hi[j], st->phi[j]) - fmin(st->lo[j], st->plo[j]);
    s += u * u;
  }
  return sqrt(s);
}

static int sarsa_result (const void *vs, const char *name, const double **v,
                         int *rows, int *cols)
{
  const sarsa_state *st = vs;
  if (strcmp(name, "bound") != 0) return 0;
  *v = &st->bound;
  *rows = *cols = 1;
  return 1;
}

static void sarsa_fini (void *vs)
{
  sarsa_state *st = vs;
  free(st->q);
  free(st->pi);
  ol_vec_free(st->lo);
  ol_vec_free(st->hi);
  ol_vec_free(st->plo);
  ol_vec_free(st->phi);
  st->q = st->pi = st->lo = st->hi = st->plo = st->phi = NULL;
}

const ol_method_type ol_rl_sarsa = {
  .name = "sarsa",
  .family = OL_RL,
  .doc = "projected linear SARSA on a discounted MDP with features "
         "(eps-greedy or eps-softmax behaviour, ball of radius R)",
  .ref = "Rummery & Niranjan 1994; Zhang, Tachet des Combes & Laroche 2023",
  .params = sarsa_params,
  .nparams = (int)(sizeof sarsa_params / sizeof sarsa_params[0]),
  .size = sizeof(sarsa_state),
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = sarsa_init,
  .step = sarsa_step,
  .fini = sarsa_fini,
  .probe = sarsa_probe,
  .probes = OL_MSET(OL_MET_REGION),
  .result = sarsa_result,
  .check = sarsa_check,
};
