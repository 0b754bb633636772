/*
** core/games/play.h -- what every game dynamic keeps besides its own
** update: the players' blocks, the average of the strategies played
** (uniform, linear or quadratic weights) and the regret accounting behind
** the regret and ccegap metrics.
**
** A dynamic's state struct starts with an ol_play (first member), so that
** ol_play_probe can serve as its probe.  Each step calls ol_play_observe
** once with the strategy profile z_t it plays at that step (c->x at the
** start of the step) and the oracle's g at z_t (g = minus each player's
** utility vector, problem.h), before it moves c->x.  Then, after T steps:
**   c->xavg  = sum_t w_t z_t / sum_t w_t,  w_t = 1, t + 1 or (t + 1)^2
**              (uniform, linear, quadratic; t = 0 .. T-1)
**   U_i      = sum_t u_i,t              (cumulative utility vector)
**   S_i      = sum_t <u_i,t, z_i,t>     (cumulative payoff)
**   regret   = max_i (max_a U_ia - S_i) / T
** Blocks: the simplices of p->set, or for an unconstrained game the two
** players (p->rows, p->cols), where no regret is defined (NaN).  The
** arrays are allocated by ol_play_init and freed by ol_play_fini.
*/
#ifndef OL_PLAY_H
#define OL_PLAY_H

#include "method.h"
#include "problems/kuhn.h"

enum { OL_AVG_UNIFORM, OL_AVG_LINEAR, OL_AVG_QUADRATIC };
#define OL_AVG_CHOICES "uniform|linear|quadratic"
#define OL_AVG_DOC "weights of the average strategy: 1, t or t^2 for the " \
  "t-th strategy played (Tammelin et al. 2015; Brown & Sandholm 2019)"

typedef struct ol_play {
  int nb;                       /* players (blocks) */
  int blk[OL_MAXBLOCKS];        /* their sizes */
  int simplex;                  /* strategies on simplices (regret defined) */
  int avg;                      /* OL_AVG_* */
  double *U;                    /* n: cumulative utilities, or NULL */
  double S[OL_MAXBLOCKS];       /* cumulative payoffs */
  double wsum;                  /* sum of the averaging weights */
  long T;                       /* observations */
} ol_play;

#define OL_PROBES_PLAY OL_MSET(OL_MET_REGRET, OL_MET_REGRET1, \
                               OL_MET_REGRET2)

/* Set pl up for the run in c (its blocks from the problem), averaging
** kind avg; xavg := x0.  OL_EINVAL naming who when the problem has
** neither simplices nor two players; OL_ENOMEM. */
int ol_play_init (ol_play *pl, ol_ctx *c, int avg, const char *who,
                  ol_err *e);
void ol_play_fini (ol_play *pl);

/* The state of the regret-matching dynamics (rm, prmplus): the play
** record, a regret vector R and the oracle's output g (n entries each). */
typedef struct ol_regret {
  ol_play play;     /* first */
  double *R;
  double *g;
} ol_regret;
/* Set s up on a product of simplices (OL_EINVAL naming who otherwise),
** averaging kind avg. */
int ol_regret_init (ol_regret *s, ol_ctx *c, int avg, const char *who,
                    ol_err *e);
/* A method's fini for a state that starts with an ol_regret. */
void ol_regret_fini (void *st);
/* Account for the profile z (n entries) played at this step with oracle
** output g at z, and fold z into c->xavg. */
void ol_play_observe (ol_play *pl, ol_ctx *c, const double *z,
                      const double *g);
/* A probe for a state that starts with an ol_play: OL_MET_REGRET, and
** REGRET1 / REGRET2 (each player's). */
double ol_play_probe (const void *st, int metric, const ol_ctx *c);

/* Offset of block b. */
static inline int ol_play_off (const ol_play *pl, int b)
{
  int i, off = 0;
  for (i = 0; i < b; i++) off += pl->blk[i];
  return off;
}

/* Index of the largest of u[0 .. k) (the first on ties). */
static inline int ol_play_argmax (const double *u, int k)
{
  int a, best = 0;
  for (a = 1; a < k; a++)
    if (u[a] > u[best]) best = a;
  return best;
}

/* y_i = exp(a_i) for a_i <= 0 (n entries; y must not overlap a), as the Hedge
** family needs it for log-weights shifted to maximum 0: range reduction
** a = k ln 2 + r, |r| <= ln 2 / 2, Taylor polynomial of degree 13
** (truncation below 1e-17 relative), 2^k put in the exponent bits; a loop
** the compiler vectorizes, where libm's exp is one call per entry (200
** calls were 60% of an MWU step on a 100 x 100 game).  Relative error
** within a few ulp of exp for a_i in [-708, 0]; 0 below -708 (exp < 3.1e-308
** there), NaN for NaN; a_i > 0 is outside its contract. */
void ol_play_exp (const double *restrict a, double *restrict y, int n);

/* The state of CFR on a game tree (cfr.c, shared with cfrplus.c): plus = 1
** clips the cumulative regrets at 0 after each update (regret
** matching+).  The arrays are the tree's size (n information sets),
** allocated by ol_cfr_init and freed by ol_cfr_fini. */
typedef struct ol_cfr {
  int alternate, avg, plus;
  const struct ol_tree *T;   /* borrowed from the problem */
  double *R;                 /* 2n: cumulative counterfactual regrets */
  double *S;                 /* 2n: weighted strategy sums */
  double *cfv, *reach;       /* 2n and n: one walk's */
} ol_cfr;
/* par = {alternate, avg}; OL_EINVAL naming who unless c's problem is a
** game tree, OL_ENOMEM. */
int ol_cfr_init (ol_cfr *s, const double *par, int plus, ol_ctx *c,
                 const char *who, ol_err *e);
/* One step, for player 1 then 2: counterfactual values at the current
** profile (one walk per player when alternating, one for both when
** simultaneous), the average, the regrets, regret matching. */
int ol_cfr_step (void *st, ol_ctx *c, ol_err *e);
/* Frees what ol_cfr_init allocated (a partly initialised state too). */
void ol_cfr_fini (void *st);

/* The Hedge step on one block of k entries (mwu.c, shared with omwu.c):
** L += eta d, then x = softmax(L), and L shifted to maximum 0. */
void ol_mwu_block (double *L, const double *d, double eta, double *x, int k);

/* The check hooks of the dynamics (method.h; core/games/check.c): a
** normal-form dynamic needs a game or a problem over simplices, not a game
** tree; an extensive-form one (cfr, cfrplus) a game tree. */
int ol_game_check (const ol_method_type *m, const ol_problem *p, ol_err *e);
int ol_game_check_tree (const ol_method_type *m, const ol_problem *p,
                        ol_err *e);

#endif
