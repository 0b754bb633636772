/*
** core/dist/scaffold.c -- SCAFFOLD: federated averaging with control
** variates that cancel client drift (option II), with server momentum.
**
** Karimireddy, Kale, Mohri, Reddi, Stich & Suresh 2020, "SCAFFOLD:
** stochastic controlled averaging for federated learning", ICML,
** Algorithm 1 with option II for the clients' control variates; server
** momentum as in FedAvgM (Hsu, Qi & Brown 2019) on the averaged update.
**
** One run iteration is one round.  Client controls c_w and the server's c
** start at 0.  The participants S (ol_dist_sample; all by default) each,
** a = lr * schedule:
**   y <- x;  K times: y <- y - a (g_w(y) - c_w + c)
**   c_w+ = c_w - c + (x - y) / (K a)                          (option II)
** g_w the mean gradient over batch components of client w's shard drawn
** with replacement from the run's generator (batch = 0: the whole shard).
** Server, ybar = (1/|S|) sum_S y_w, N the number of workers:
**   v <- momentum v + (x - ybar),  x <- x - server_lr v      (v_0 = 0)
**   c <- c + (1/N) sum_S (c_w+ - c_w)
** (momentum = 0: x <- x + server_lr (ybar - x), Algorithm 1's server step
** with global step server_lr.)  With full gradients and full
** participation the fixed point is x* itself: there c_w = grad F_w(x*)
** and c = 0, so each local step is a step on f; FedAvg's heterogeneity
** bias (fedavg.c) is gone.  The first round (c_w = c = 0) is FedAvg's.
**
** Workers and probes as in fedavg.c: p->workers or the `workers`
** parameter's shards; drift (1/|S|) sum ||y_w - x||^2, consensus
** (1/|S|) sum ||y_w - ybar||^2, rounds.
*/
#include <math.h>
#include <stdlib.h>

#include "dist.h"
#include "vec.h"

typedef struct scaffold_state {
  ol_dist_view view;   /* first: the workers' iterates (dist.h) */
  ol_dist_split sp;
  int K, batch;
  double lr, slr, mom;
  int *who;         /* participants, sp.n */
  double *Y;        /* sp.n x n: each worker's last local iterate */
  double *C;        /* sp.n x n: client control variates c_w */
  double *cs;       /* n: server control variate c */
  double *g, *tmp, *ybar, *v, *dc;   /* n each */
  double drift, cons;
  long rounds;
} scaffold_state;

static const ol_param scaffold_params[] = {
  {"K", OL_P_INT, 5, 1, 1e6, "local steps per round", NULL},
  {"lr", OL_P_REAL, 0.05, OL_GT0, OL_FINITE, "local step size eta_l", NULL},
  {"server_lr", OL_P_REAL, 1, OL_GT0, OL_FINITE, "global step size eta_g",
   NULL},
  {"momentum", OL_P_REAL, 0, 0, 0.9999999999999999, "server momentum on "
   "the averaged update", NULL},
  {"batch", OL_P_INT, 0, 0, 1e9, "components per local gradient, drawn "
   "with replacement (0: the whole shard)", NULL},
  {"workers", OL_P_INT, 10, 1, 1e6, "workers of the default split when "
   "the problem has none", NULL},
};

static int scaffold_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  scaffold_state *s = st;
  int rc, n = c->n, w;
  size_t nn;
  s->K = (int)par[0];
  s->lr = par[1];
  s->slr = par[2];
  s->mom = par[3];
  s->batch = (int)par[4];
  s->drift = s->cons = NAN;
  if ((rc = ol_dist_split_init(&s->sp, c->p, (int)par[5], "scaffold", e))
      != OL_OK)
    return rc;
  nn = (size_t)s->sp.n * n;
  s->who = malloc(sizeof *s->who * (size_t)s->sp.n);
  s->Y = malloc(sizeof *s->Y * nn);
  s->C = calloc(nn, sizeof *s->C);
  if (s->who == NULL || s->Y == NULL || s->C == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  if ((s->cs = ol_vec_new(n, e)) == NULL || (s->g = ol_vec_new(n, e)) == NULL
      || (s->tmp = ol_vec_new(n, e)) == NULL
      || (s->ybar = ol_vec_new(n, e)) == NULL
      || (s->v = ol_vec_new(n, e)) == NULL
      || (s->dc = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  for (w = 0; w < s->sp.n; w++)
    ol_vec_copy(c->x, s->Y + (size_t)w * n, n);
  s->view.X = s->Y;
  s->view.m = s->sp.n;
  s->view.d = n;
  return OL_OK;
}

static int scaffold_step (void *st, ol_ctx *c, ol_err *e)
{
  scaffold_state *s = st;
  int n = c->n, m, i, j, k, rc;
  double a = s->lr * c->sched, *x = c->x, inv, drift = 0, cons = 0;
  /* (1) the round's participants */
  m = ol_dist_sample(&s->sp, c->rng, s->who);
  for (j = 0; j < n; j++) s->ybar[j] = s->dc[j] = 0;
  for (i = 0; i < m; i++) {
    int w = s->who[i];
    double *y = s->Y + (size_t)w * n, *cw = s->C + (size_t)w * n;
    /* (2) K corrected local steps from x */
    ol_vec_copy(x, y, n);
    for (k = 0; k < s->K; k++) {
      rc = ol_dist_grad(c, &s->sp, w, y, s->batch, c->rng, s->g, s->tmp, e);
      if (rc != OL_OK) return rc;
      for (j = 0; j < n; j++) y[j] -= a * (s->g[j] - cw[j] + s->cs[j]);
    }
    /* (3) the client's new control variate (option II) */
    for (j = 0; j < n; j++) {
      double cn = cw[j] - s->cs[j] + (x[j] - y[j]) / (s->K * a), t;
      s->dc[j] += cn - cw[j];
      cw[j] = cn;
      t = y[j] - x[j];
      s->ybar[j] += y[j];
      drift += t * t;
    }
  }
  inv = 1 / (double)m;
  for (j = 0; j < n; j++) s->ybar[j] *= inv;
  for (i = 0; i < m; i++) {
    const double *y = s->Y + (size_t)s->who[i] * n;
    for (j = 0; j < n; j++) {
      double t = y[j] - s->ybar[j];
      cons += t * t;
    }
  }
  s->drift = drift * inv;
  s->cons = cons * inv;
  /* (4) the server's model and control variate */
  for (j = 0; j < n; j++) {
    s->v[j] = s->mom * s->v[j] + (x[j] - s->ybar[j]);
    x[j] -= s->slr * s->v[j];
    s->cs[j] += s->dc[j] / s->sp.n;
  }
  s->rounds++;
  return OL_OK;
}

static void scaffold_fini (void *st)
{
  scaffold_state *s = st;
  ol_dist_split_fini(&s->sp);
  free(s->who);
  free(s->Y);
  s->view.X = NULL;
  free(s->C);
  ol_vec_free(s->cs);
  ol_vec_free(s->g);
  ol_vec_free(s->tmp);
  ol_vec_free(s->ybar);
  ol_vec_free(s->v);
  ol_vec_free(s->dc);
  s->who = NULL;
  s->Y = s->C = s->cs = s->g = s->tmp = s->ybar = s->v = s->dc = NULL;
}

static double scaffold_probe (const void *st, int metric, const ol_ctx *c)
{
  const scaffold_state *s = st;
  (void)c;
  if (metric == OL_MET_DRIFT) return s->drift;
  if (metric == OL_MET_CONSENSUS) return s->cons;
  if (metric == OL_MET_ROUNDS) return (double)s->rounds;
  return NAN;
}

const ol_method_type ol_dist_scaffold = {
  "scaffold", OL_DIST,
  "SCAFFOLD: local steps corrected by control variates (option II)",
  "Karimireddy et al. 2020 (Alg. 1, option II)",
  scaffold_params, (int)(sizeof scaffold_params / sizeof scaffold_params[0]),
  sizeof(scaffold_state), OL_M_NEEDSUM, OL_KIND(OL_OBJECTIVE),
  scaffold_init, scaffold_step, scaffold_fini, scaffold_probe,
  OL_MBIT(OL_MET_DRIFT) | OL_MBIT(OL_MET_CONSENSUS) | OL_MBIT(OL_MET_ROUNDS)
};
