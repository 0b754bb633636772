/*
** core/dist/dist.h -- what the distributed methods (core/dist/) share:
** the workers of a run, seeded sampling of a round's participants,
** per-worker random streams, a worker's local (minibatch) gradient, the
** consensus error of the workers' iterates and the rounds of the
** federated methods (ol_dist_fed: fedavg, scaffold).
**
** The split.  A dist method runs on a finite sum f = (1/N) sum_i f_i
** (p->nsum, p->fdfi; flag OL_M_NEEDSUM).  ol_dist_split_init takes the
** problem's workers (p->workers, problem.workers in Lua) when it has
** them; else it splits the N components in index order into
** n = min(dflt, N) contiguous shards of near-equal size (start[w] =
** floor(N w / n)), participation 1 -- each method documents where its default count comes
** from (e.g. its `workers` parameter).  Worker w then holds the
** components idx[start[w]] .. idx[start[w + 1] - 1].
**
** Randomness.  Every draw comes from c->rng or from streams seeded from
** it, so a run is reproducible from its seed: ol_dist_streams draws one
** seed from c->rng and gives worker w the stream (seed, w + 1) of
** core/rng.h; ol_dist_sample draws a round's participants from the
** generator it is handed (a method passes c->rng).
**
** This API is used by several method files; keep it small and stable.
*/
#ifndef OL_DIST_H
#define OL_DIST_H

#include "method.h"

typedef struct ol_dist_split {
  int n;                     /* workers, >= 1 */
  double participation;      /* (0, 1]: fraction of workers per round */
  const long *start;         /* n + 1 offsets into idx (borrowed or own) */
  const long *idx;           /* N component indices (borrowed or own) */
  long *own;                 /* the default split's storage, or NULL */
} ol_dist_split;

/* Fill s for problem p: p->workers when set (borrowed: the problem
** outlives the run), else min(dflt, N) contiguous shards (owned) with
** participation 1.  OL_EINVAL ("<who> needs a finite sum ...", dflt < 1)
** or OL_ENOMEM with e set; ol_dist_split_fini frees what it
** allocated, also after a failure (s zeroed before). */
int ol_dist_split_init (ol_dist_split *s, const ol_problem *p, int dflt,
                        const char *who, ol_err *e);
void ol_dist_split_fini (ol_dist_split *s);

/* Number of components of worker w. */
static inline long ol_dist_size (const ol_dist_split *s, int w)
{
  return s->start[w + 1] - s->start[w];
}

/* Draw m = max(1, round(participation n)) distinct workers uniformly from
** r into who[0, m), in increasing order (selection sampling, Knuth's
** Algorithm S: at most n uniforms).  With participation 1 all workers
** 0..n-1 in order and no draw.  Returns m. */
int ol_dist_sample (const ol_dist_split *s, ol_rng *r, int *who);

/* Seed n per-worker generators rw[0, n): one u64 seed from parent, then
** rw[w] = stream (seed, w + 1). */
void ol_dist_streams (ol_rng *rw, int n, ol_rng *parent);

/* Local gradient of worker w at x into g (c->n entries): the mean of the
** component gradients grad f_i(x) over
**   batch <= 0 or batch >= its size: the whole shard, in shard order;
**   else: batch components drawn uniformly with replacement from r.
** Each component gradient from the problem's component oracle p->fdfi
** (noise free), counted as ol_ctx_gradi counts (one gradient evaluation
** each); the mean is checked finite once (OL_EDOM "non-finite gradient of
** worker w's components" otherwise: a non-finite term or an overflow).
** tmp holds c->n doubles.  OL_OK or the oracle's code with e set. */
int ol_dist_grad (ol_ctx *c, const ol_dist_split *s, int w, const double *x,
                  int batch, ol_rng *r, double *g, double *tmp, ol_err *e);

/* The workers' iterates of a federated or asynchronous method, the first
** member of fedavg's, scaffold's and asgd's states: X holds m rows of d
** (owned by the state; fedavg, scaffold: each worker's last local iterate,
** asgd: each worker's copy of x), NULL before init. */
typedef struct ol_dist_view {
  double *X;
  int m, d;
} ol_dist_view;
/* The result hook (method.h) of those three methods, whose state begins
** with an ol_dist_view: "workers", X as m x d; 1 when it has it, else 0. */
int ol_dist_fedresult (const void *st, const char *name, const double **v,
                       int *rows, int *cols);

/* The round bookkeeping fedavg and scaffold share: the workers' last
** local iterates (view, first, so that ol_dist_fedresult answers), the
** split, the round's participants, and ybar, drift and consensus of the
** round (see fedavg.c).  The method's state holds it as its first
** member. */
typedef struct ol_dist_fed {
  ol_dist_view view;         /* X: sp.n x n local iterates y_w (owned) */
  ol_dist_split sp;
  int *who;                  /* the round's participants (sp.n; owned) */
  double *ybar;              /* n: (1/|S|) sum_{w in S} y_w (owned) */
  double drift, cons;        /* NAN before the first round */
  long rounds;
} ol_dist_fed;
/* Set f up for a run of c: the split (ol_dist_split_init with default
** count dflt, who naming the method), every y_w = c->x.  OL_EINVAL or
** OL_ENOMEM with e set; ol_dist_fed_fini frees a partial one (f zeroed
** before).  No random draws. */
int ol_dist_fed_init (ol_dist_fed *f, const ol_ctx *c, int dflt,
                      const char *who, ol_err *e);
void ol_dist_fed_fini (ol_dist_fed *f);
/* Close a round of the m participants who[0, m) whose local iterates
** y_w (rows of view.X) are final, x the server's model before its step:
** ybar, drift = (1/m) sum ||y_w - x||^2, cons = (1/m) sum ||y_w -
** ybar||^2, rounds + 1.  Sums in participant, then coordinate order. */
void ol_dist_fed_close (ol_dist_fed *f, int m, const double *x);
/* The probe of those accounts: OL_MET_DRIFT, OL_MET_CONSENSUS,
** OL_MET_ROUNDS; NAN for any other metric. */
double ol_dist_fed_probe (const ol_dist_fed *f, int metric);

/* Consensus error (1/m) sum_w ||X_w - xbar||^2 of m iterates X (m rows
** of n, row-major) around xbar (n). */
double ol_dist_consensus (const double *X, int m, int n, const double *xbar);

#endif
