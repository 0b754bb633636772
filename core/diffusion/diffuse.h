/*
** core/diffusion/diffuse.h -- what the diffusion samplers on a Gaussian
** mixture share (ddpm.c, ddim.c, pfode.c, sde.c): the particles, the noise
** schedules and their time grid, the exact score with its injected error,
** and the metrics of the particles against the target (diffuse.c).
**
** Forward processes, written as x_t = s(t) (x_0 + sigma(t) z) (Karras et
** al. 2022, eq. 4), t in [0, 1]:
**   linear  VP, beta(t) = 0.1 + 19.9 t (Song et al. 2021, VP SDE),
**           abar(t) = exp(-0.1 t - 9.95 t^2);
**   cosine  VP, abar(t) = f(tau t) / f(0), f(u) = cos^2((u + 0.008) /
**           1.008 pi / 2) (Nichol & Dhariwal 2021, eq. 17), tau < 1 set so
**           that abar(1) = 1e-4 (their clipping of beta near t = 1);
**           beta(t) = -d log abar / dt;
**   ve      VE, sigma(t) = 0.01 (20 / 0.01)^t (Song et al. 2021, VE SDE),
**           s = 1, g(t)^2 = d sigma^2 / dt = 2 sigma^2 log 2000.
** VP has s = sqrt(abar), sigma^2 = (1 - abar) / abar.  The reverse run
** starts at t = 1 from N(0, I) (VP) or N(0, 20^2 I) (VE) and takes
** 'steps' equal steps in t down to t = delta (early stopping: the output
** then follows p_delta, the target blurred by the forward process).
**
** Score: the exact grad log p_t of the target's diffused marginal (gmm.h)
** plus, with score_error = eps > 0, the injected error
**   s^(x, t) = grad log p_t(x) + eps (b + xi) / sqrt 2,
**   b = (1, ..., 1) / sqrt n (a fixed bias),  xi ~ N(0, I / n) drawn anew
** for every particle and evaluation, so E ||s^ - grad log p_t||^2 = eps^2
** (half bias, half noise).  eps = 0 draws nothing.
**
** c->x is the particles' mean after each step.  The run stops after
** 'steps' iterations (ol_ctx_converged: "reached t = delta after N steps").
*/
#ifndef OL_DIFFUSE_H
#define OL_DIFFUSE_H

#include "method.h"
#include "problems/gmm.h"

enum { OL_DFS_LINEAR, OL_DFS_COSINE, OL_DFS_VE };

#define OL_DFS_SCHEDULES "linear|cosine|ve"
#define OL_DFS_VEMIN 0.01
#define OL_DFS_VEMAX 20.0

/* Grid of the kl and tv metrics: bins per axis (n = 1, n = 2). */
#define OL_DFS_BINS1 64
#define OL_DFS_BINS2 32

typedef struct ol_dfs_kv { double k; int i; } ol_dfs_kv;

typedef struct ol_dfs {
  const ol_gmm *G;
  int n, N, K;          /* dimension, particles, components */
  int steps, sched, i;  /* steps done: i */
  double delta, eps, tau;
  double *x;            /* N x n particles, row-major */
  double *lv, *lv2;     /* level constants at t and at the next time */
  double *work, *sc, *sc2, *bias, *y;
  /* metrics, computed on demand and kept for the step they belong to */
  long mt;              /* c->t they were computed at, -1: none */
  double met[5];        /* kl tv w2 modeweights entropy */
  int nb;               /* bins per axis (0: n > 2, no kl / tv) */
  double lo[2], wd[2];  /* grid origin and bin width per axis */
  double *pmass;        /* nb^n bins then the outside: exact masses */
  double *cnt;          /* particle counts per bin (and outside) */
  double *lv0;          /* level of the target itself (s = 1, sigma = 0) */
  double *resp, *share, *shse;    /* K each */
  double *m, *S, *R, *B, *lam;    /* w2: particle moments, Sigma^1/2 */
  int *isuppz;
  ol_dfs_kv *ord;                 /* entropy: particles by x_1 (N) */
  int next;             /* the first particle the current step has not
                           moved (0 between steps; > 0 after Ctrl-C came
                           inside a step, which ends the run) */
} ol_dfs;

/* Inside a step's loop over the particles, before particle i: every 4096
** particles, OL_EINTR when Ctrl-C came (ol_interrupted), which ends the
** run with particles 0..i-1 moved and the others not (the message says
** so); OL_OK otherwise.  A step over 10^7 particles takes seconds. */
int ol_dfs_pause (ol_dfs *D, int i, ol_err *e);

/* The parameters every sampler on a gmm takes, in this order after its
** own: steps, schedule, delta, score_error, samples. */
#define OL_DFS_PARAMS \
  {"steps", OL_P_INT, 100, 1, 1e6, "reverse steps (the run's length)", \
   NULL}, \
  {"schedule", OL_P_ENUM, 0, 0, 2, "noise schedule: VP linear betas, VP " \
   "cosine (Nichol & Dhariwal 2021) or VE geometric sigmas", \
   OL_DFS_SCHEDULES}, \
  {"delta", OL_P_REAL, 1e-3, 0, 0.5, "early-stopping time: the last step " \
   "ends at t = delta", NULL}, \
  {"score_error", OL_P_REAL, 0, 0, 1e6, "injected score error eps: bias " \
   "+ noise with E ||s^ - s||^2 = eps^2", NULL}, \
  {"samples", OL_P_INT, 1000, 1, 1e7, "particles (the run option samples " \
   "sets it)", NULL}

#define OL_DFS_PROBES OL_MSET(OL_MET_KL, OL_MET_TV, OL_MET_W2, \
                              OL_MET_MODEWEIGHTS, OL_MET_ENTROPY)

/* Set up D from par (the OL_DFS_PARAMS values, in order) on c's problem,
** which must be a gmm (else OL_EINVAL naming who); draws the particles
** at t = 1 from c->rng and sets c->x to their mean. */
int ol_dfs_init (ol_dfs *D, const char *who, const double *par, ol_ctx *c,
                 ol_err *e);
void ol_dfs_fini (ol_dfs *D);
/* The step from t = ti to tp = t(i+1): s, sigma at both, and the level
** constants at t (D->lv) and, when both is set, at tp (D->lv2). */
void ol_dfs_times (ol_dfs *D, int both, double *t, double *tp, double *s,
                   double *sig, double *sp, double *sigp);
/* VP: beta(t) = -d log abar / dt; VE: g(t)^2 = d sigma^2 / dt. */
double ol_dfs_g2 (const ol_dfs *D, double t);
/* s^(x) at the level lv with scale s (the second level: lv = D->lv2) into
** out (n). */
void ol_dfs_score (ol_dfs *D, const double *lv, double s, const double *x,
                   double *out, ol_rng *rng);
/* After the particles moved: c->x = their mean, the step count, and the
** stop after the last step. */
void ol_dfs_end (ol_dfs *D, ol_ctx *c);
/* The probe of kl, tv, w2, modeweights and entropy (see the man page):
** computed for the current step on first use. */
double ol_dfs_probe (const void *st, int metric, const ol_ctx *c);
/* The result hook (method.h) of a state that starts with an ol_dfs:
**   samples    N x n particles
**   shares     1 x K: the particles' mean responsibility per mixture
**              component (modeweights is its largest error), shares_se
**              its standard errors */
int ol_dfs_result (const void *st, const char *name, const double **v,
                   int *rows, int *cols);
/* The check hook (method.h) of the samplers with an exact score: the
** target is a Gaussian mixture made by problem.gmm{}. */
int ol_dfs_check (const ol_method_type *m, const ol_problem *p, ol_err *e);

#endif
