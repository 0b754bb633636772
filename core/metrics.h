/*
** core/metrics.h -- metric registry: named scalars computed from a run's
** state, each with a precise definition (DESIGN.md, "Metrics").
**
** The list below is the single place a metric is declared (X-macro):
**   OL_METRIC(id, "name", "definition")
** The implementations live in core/metrics.c, one function per metric,
** plus an availability test (dist needs x*, entropy a simplex, ...).
*/
#ifndef OL_METRICS_H
#define OL_METRICS_H

#include "problem.h"

#define OL_METRIC_LIST \
  OL_METRIC(LOSS, "loss", "f(x_t): objective value (potential -log p + c for densities, x'Ay for games)") \
  OL_METRIC(GRADNORM, "gradnorm", "||grad f(x_t)||_2 of the true gradient, also when the method sees a noisy one") \
  OL_METRIC(DIST, "dist", "||x_t - x*||_2 (needs a known x*); a game: the distance to the nearest of its known equilibria") \
  OL_METRIC(SUBOPT, "subopt", "f(x_t) - f* (needs a known f*)") \
  OL_METRIC(KKT, "kkt", "KKT gap: with general constraints IPOPT's overall NLP error max(stationarity / s_d, feasibility, complementarity / s_c) (Waechter & Biegler 2006, eqs. 5-6); else gradnorm unconstrained; ||x - P(x - grad f)|| on a box or a ball; Frank-Wolfe gap sum_i (<g_i,x_i> - min_a g_ia) on simplices") \
  OL_METRIC(ENTROPY, "entropy", "Shannon entropy -sum p log p of each simplex block (each player's strategy) of x_t, summed over the blocks; a method's own where it defines one: a variational Gaussian's (exact), diffusion particles' (Kozachenko-Leonenko), an RL policy's (averaged over decision points)") \
  OL_METRIC(EXPLOIT, "exploitability", "NashConv / 2 of the last iterate (OpenSpiel's exploitability, NashConv / num_players, of two-player constant-sum games; kept as NashConv / 2 for general-sum ones)") \
  OL_METRIC(ACCEPT, "accept", "acceptance rate of a sampler: accepted proposals / steps") \
  OL_METRIC(MINGRADNORM, "mingradnorm", "min over recorded s <= t of ||grad f(x_s)||") \
  OL_METRIC(LRMIN, "lrmin", "effective learning rate of an adaptive method, min over coordinates") \
  OL_METRIC(LRMED, "lrmed", "effective learning rate of an adaptive method, median over coordinates") \
  OL_METRIC(LRMAX, "lrmax", "effective learning rate of an adaptive method, max over coordinates") \
  OL_METRIC(ORTHERR, "ortherr", "||O'O - I||_F of the approximate polar factor O of a Muon step") \
  OL_METRIC(NUCNORM, "nucnorm", "nuclear norm ||grad f(W)||_* of a matrix gradient (sum of singular values)") \
  OL_METRIC(SUPPORT, "support", "support changes: coordinates whose sign pattern changed since the previous record, summed over the run") \
  OL_METRIC(BIAS, "bias", "f(xbar_t) - f* on a quadratic: xbar_t is the same method run without gradient noise (= E x_t for methods linear in g)") \
  OL_METRIC(VARIANCE, "variance", "1/2 (x_t - xbar_t)' H (x_t - xbar_t) on a quadratic: E loss - f* = bias + E variance for methods linear in g") \
  OL_METRIC(STEPSIZE, "stepsize", "a sampler's step size at its last step (adapted during warmup; NaN for samplers without statistics)") \
  OL_METRIC(DIVERGENCES, "divergences", "post-warmup divergent transitions so far (energy error > 1000: hmc, nuts)") \
  OL_METRIC(ESS, "ess", "min over coordinates of the bulk-ESS (Vehtari et al. 2021, core/diag.c) of this run's kept post-warmup draws; recomputed when they grew by 10% since the last computation, else that value") \
  OL_METRIC(RHAT, "rhat", "max over coordinates of the rank-normalised split-R-hat of this run's kept post-warmup draws (its two halves); the same 10% rule") \
  OL_METRIC(MEANERR, "meanerr", "||m - mu||_2: mean m of the kept post-warmup draws against the target's known mean mu") \
  OL_METRIC(KL, "kl", "samplers: KL(N(m, S) || N(mu, Sigma)) of the Gaussian fit of the kept draws (mean m, covariance S with divisor k - 1) to the target's known mean and covariance; vi: KL(q || p) exact for a Gaussian target; diffusion: KL of the particles' histogram to the target's bin masses (masked: exact by enumeration)") \
  OL_METRIC(W2, "w2", "2-Wasserstein distance of the Gaussian fit N(m, S) of the kept draws to N(mu, Sigma): sqrt(||m - mu||^2 + tr(S + Sigma - 2 (Sigma^1/2 S Sigma^1/2)^1/2))") \
  OL_METRIC(NASHCONV, "nashconv", "NashConv of the last iterate: sum over the players of the best-response gain max_a u_i(a, x_-i) - u_i(x)") \
  OL_METRIC(NASHCONV_AVG, "nashconv_avg", "NashConv of the average iterate (the method's average: uniform, or linear / quadratic weights)") \
  OL_METRIC(EXPLOIT_AVG, "exploitability_avg", "NashConv / 2 of the average iterate") \
  OL_METRIC(REGRET, "regret", "max over players of external regret / T: (max_a sum_t u_i(a, x_-i,t) - sum_t u_i(x_t)) / T over the T strategies played") \
  OL_METRIC(CCEGAP, "ccegap", "CCE gap of the empirical joint distribution of play (1/T) sum_t x_t (x) y_t: max(0, regret)") \
  OL_METRIC(POTENTIAL, "potential", "x_t' Phi y_t, an exact potential Phi of the game (potential and identical-interest games)") \
  OL_METRIC(VALUE, "value", "row player's value estimate: xbar' A ybar at the average iterate") \
  OL_METRIC(STATIONARITY, "stationarity", "general constraints: ||grad f - sum_i lambda_i grad c_i - z_l + z_u||_inf with the method's multipliers (auglag), z_j = |r_j| / (1 + gap to the bound r pushes against) (IPOPT's dual infeasibility)") \
  OL_METRIC(FEASIBILITY, "feasibility", "general constraints: max of |c_i| (eq), max(0, -c_i) (ineq) and the bound violations") \
  OL_METRIC(COMPLEMENTARITY, "complementarity", "general constraints: max of |lambda_i c_i| (ineq) and z_l (x - lo), z_u (hi - x) on the bounds") \
  OL_METRIC(REGRET1, "regret1", "player 1's external regret / T: (max_a sum_t u_1(a, x_2,t) - sum_t u_1(x_t)) / T (regret is the larger of the two)") \
  OL_METRIC(REGRET2, "regret2", "player 2's external regret / T, as regret1") \
  OL_METRIC(ELBO, "elbo", "variational methods: Monte Carlo ELBO E_q[-U(z)] + H(q) at the current q over the method's fresh draws (evals; the ELBO of exp(-U), so log Z - KL(q || p))") \
  OL_METRIC(ELBO_SE, "elbo_se", "variational methods: standard error of elbo, sd of -U(z_k) over the fresh draws / sqrt(evals)") \
  OL_METRIC(GRADVAR, "gradvar", "variational methods: E||g||^2 of the one-draw ELBO gradient estimator (all parameters) at the current q, the mean over the fresh draws") \
  OL_METRIC(GAP, "gap", "RL methods: V* - V^pi of the softmax policy of x_t, exact (backward induction and policy evaluation, core/rl/mdp.h)") \
  OL_METRIC(DENTROPY_PRED, "dentropy_pred", "RL methods: first-order predicted change of entropy by the last step, the average over decision points of -Cov_pi(log pi, dz) (dz its logit change)") \
  OL_METRIC(DENTROPY, "dentropy", "RL methods: actual change of entropy (the average over decision points) by the last step") \
  OL_METRIC(ZEROADV, "zeroadv", "group-sampling RL methods: fraction of the last batch's responses whose advantage is exactly 0") \
  OL_METRIC(ZEROADV_PRED, "zeroadv_pred", "group-sampling RL methods: expected zeroadv at the policy of the last step, E over k ~ Bin(G, p_q) of the zero fraction of a group with k successes, averaged over queries") \
  OL_METRIC(PASS1, "pass1", "RLVR: mean over queries of pass@1, the policy's probability of a correct response") \
  OL_METRIC(TV, "tv", "diffusion samplers: total variation 1/2 sum_b |q_b - p_b| between the particles' histogram q on a grid (1-D or 2-D) and the target's exact bin masses p (the grid of kl)") \
  OL_METRIC(MODEWEIGHTS, "modeweights", "diffusion samplers: max_k |r_k - w_k|, r_k the particles' mean responsibility w_k N_k(x) / p(x) of mixture component k (E r_k = w_k under the target)") \
  OL_METRIC(EPSILON, "epsilon", "private methods: epsilon of the (epsilon, delta)-DP spent by the steps so far at the method's delta (dpsgd: RDP accountant of the Poisson-sampled Gaussian mechanism, core/optim/rdp.h)") \
  OL_METRIC(CONSENSUS, "consensus", "distributed methods: (1/n) sum_w ||x_w - xbar||^2, the workers' mean squared distance to their average") \
  OL_METRIC(DRIFT, "drift", "federated methods: client drift, (1/n) sum_w ||x_w - x||^2 of the clients' local iterates after their local steps from the server's x") \
  OL_METRIC(BITS, "bits", "distributed methods: bits sent by the workers so far (cumulative; per compressor, documented with each); an x axis (xaxis = \"bits\")") \
  OL_METRIC(COMPRESS_ERR, "compress_err", "compressed methods: ||C(v) - v||^2 / ||v||^2 of the last compressed vectors") \
  OL_METRIC(ROUNDS, "rounds", "distributed methods: communication rounds so far (an x axis: xaxis = \"rounds\")") \
  OL_METRIC(HYPERGRAD_ERR, "hypergrad_err", "bilevel methods: ||hypergradient estimate - exact hypergradient|| where the exact one is known")

enum {
#define OL_METRIC(id, name, doc) OL_MET_##id,
  OL_METRIC_LIST
#undef OL_METRIC
  OL_NMETRICS
};

/* A set of metrics: bit OL_MBIT(id) for each (64 bits: OL_NMETRICS must
** stay below 64, checked below). */
typedef uint64_t ol_mset;
#define OL_MBIT(m) ((ol_mset)1 << (m))

/* What a metric sees: the state at the recorded time. */
typedef struct ol_mstate {
  const ol_problem *p;
  int n;
  const double *x;      /* x_t */
  const double *xavg;   /* average iterate */
  const double *xbar;   /* the noise-free shadow iterate (bias, variance)
                           or NULL */
  double f;             /* true f(x_t) */
  const double *g;      /* true grad f(x_t) */
  long t;               /* steps done */
  long accepted;        /* sampler acceptances */
  double *work;         /* 2n doubles of scratch */
  const struct ol_method_type *m;   /* the method, for probes */
  const void *st;       /* its state */
  const struct ol_ctx *c;
  void *mem;            /* the run's per-metric memory (mingradnorm,
                           support), see metrics.c */
} ol_mstate;

typedef struct ol_metric_type {
  const char *name;
  const char *doc;
  int (*avail) (const ol_problem *p, int family);   /* 1 if defined */
  double (*eval) (const ol_mstate *s);
} ol_metric_type;

extern const ol_metric_type ol_metric_types[OL_NMETRICS];
int ol_metric_find (const char *name);   /* id or -1 */
/* 1 when metric i exists only as a method's probe (method.h: probe,
** probes); a method that probes any metric gives its own value of it. */
int ol_metric_byprobe (int i);
/* Default set recorded for a problem kind and method family. */
ol_mset ol_metric_defaults (const ol_problem *p, int family);

#endif
