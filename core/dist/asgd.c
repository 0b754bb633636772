/*
** core/dist/asgd.c -- asynchronous SGD: workers send gradients computed
** at stale copies of the model, under a simulated worker-speed model.
**
** Recht, Re, Wright & Niu 2011 (Hogwild!, the lock-free update with
** stale reads); Lian, Huang, Li & Liu 2015, "Asynchronous parallel
** stochastic gradient for nonconvex optimization", NeurIPS (AsySG-con,
** the server-worker form analysed here): the standard form
**   x_{k+1} = x_k - lr_k g_{w_k}(x_{k - tau_k})
** where worker w_k is the k-th to finish and tau_k the number of updates
** the server made since it read its copy.
**
** Simulation (exact and seeded; no threads).  Worker w works in jobs:
** it reads x, computes g_w at that copy (the mean gradient over batch
** components of its shard drawn with replacement from its own stream,
** dist.h ol_dist_streams; batch = 0: the whole shard) and sends it; the
** job lasts
**   speeds = fixed    1
**            hetero   tau_w = spread^(w / (N - 1))   (1 ... spread)
**            random   tau_w E, E ~ Exp(1) from worker w's stream
** in simulated time.  One run iteration is one server update: the worker
** whose job ends first (ties: the lowest index) delivers, the server
** applies its gradient, a = lr * schedule:
**   x <- x - a g_w(x_read(w))
** and that worker reads the new x and starts its next job.  All N workers
** read x0 at time 0.  With fixed speeds the updates go round the workers
** in order, each gradient N - 1 updates stale; with one worker it is SGD.
** p->workers' participation is not used: every worker keeps working.
**
** Workers: p->workers or the `workers` parameter's shards (dist.h).
** Probes: rounds (server updates), consensus (1/N) sum_w ||x_read(w) -
** xbar||^2 of the workers' copies around their mean.
*/
#include <math.h>
#include <stdlib.h>

#include "dist.h"
#include "vec.h"

enum { ASGD_FIXED, ASGD_HETERO, ASGD_RANDOM };

typedef struct asgd_state {
  ol_dist_view view;   /* first: the workers' iterates (dist.h) */
  ol_dist_split sp;
  int batch, speeds;
  double lr, spread;
  ol_rng *rw;       /* sp.n per-worker streams */
  double *X;        /* sp.n x n: each worker's copy of x */
  double *due;      /* sp.n: simulated time its job ends */
  double *tau;      /* sp.n: mean job length */
  long *ver;        /* sp.n: the server update its copy was read at */
  double *g, *tmp, *xbar;   /* n each */
  double now;       /* simulated time of the last update */
  long rounds, stale;
} asgd_state;

static const ol_param asgd_params[] = {
  {"lr", OL_P_REAL, 0.05, OL_GT0, OL_FINITE, "step size of the server's "
   "update", NULL},
  {"batch", OL_P_INT, 1, 0, 1e9, "components per worker gradient, drawn "
   "with replacement (0: the whole shard)", NULL},
  {"speeds", OL_P_ENUM, 1, 0, 2, "worker-speed model: fixed (equal), "
   "hetero (tau_w = spread^(w/(N-1))), random (tau_w Exp(1))",
   "fixed|hetero|random"},
  {"spread", OL_P_REAL, 4, 1, 1e6, "slowest over fastest worker's mean job "
   "time", NULL},
  {"workers", OL_P_INT, 10, 1, 1e6, "workers of the default split when "
   "the problem has none", NULL},
};

static double asgd_job (asgd_state *s, int w)
{
  return s->speeds == ASGD_RANDOM ? s->tau[w] * ol_rng_exp(&s->rw[w])
                                  : s->tau[w];
}

static int asgd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  asgd_state *s = st;
  int rc, n = c->n, w, N;
  s->lr = par[0];
  s->batch = (int)par[1];
  s->speeds = (int)par[2];
  s->spread = par[3];
  if ((rc = ol_dist_split_init(&s->sp, c->p, (int)par[4], "asgd", e))
      != OL_OK)
    return rc;
  N = s->sp.n;
  s->rw = malloc(sizeof *s->rw * (size_t)N);
  s->X = malloc(sizeof *s->X * (size_t)N * n);
  s->due = malloc(sizeof *s->due * (size_t)N);
  s->tau = malloc(sizeof *s->tau * (size_t)N);
  s->ver = calloc((size_t)N, sizeof *s->ver);
  if (s->rw == NULL || s->X == NULL || s->due == NULL || s->tau == NULL
      || s->ver == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  if ((s->g = ol_vec_new(n, e)) == NULL || (s->tmp = ol_vec_new(n, e)) == NULL
      || (s->xbar = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  /* (1) streams, speeds, and every worker's first job from x0 */
  ol_dist_streams(s->rw, N, c->rng);
  for (w = 0; w < N; w++) {
    s->tau[w] = s->speeds == ASGD_FIXED || N == 1 ? 1
                : pow(s->spread, (double)w / (N - 1));
    ol_vec_copy(c->x, s->X + (size_t)w * n, n);
    s->due[w] = asgd_job(s, w);
  }
  s->view.X = s->X;
  s->view.m = N;
  s->view.d = n;
  return OL_OK;
}

static int asgd_step (void *st, ol_ctx *c, ol_err *e)
{
  asgd_state *s = st;
  int n = c->n, N = s->sp.n, w, j, rc;
  double a = s->lr * c->sched, *xw;
  /* (1) the first job to end */
  for (w = 0, j = 1; j < N; j++)
    if (s->due[j] < s->due[w]) w = j;
  xw = s->X + (size_t)w * n;
  /* (2) its gradient at its stale copy, applied to x */
  rc = ol_dist_grad(c, &s->sp, w, xw, s->batch, &s->rw[w], s->g, s->tmp, e);
  if (rc != OL_OK) return rc;
  for (j = 0; j < n; j++) c->x[j] -= a * s->g[j];
  s->stale = s->rounds - s->ver[w];
  s->rounds++;
  /* (3) the worker reads the new x and starts again */
  s->now = s->due[w];
  ol_vec_copy(c->x, xw, n);
  s->ver[w] = s->rounds;
  s->due[w] = s->now + asgd_job(s, w);
  return OL_OK;
}

static void asgd_fini (void *st)
{
  asgd_state *s = st;
  ol_dist_split_fini(&s->sp);
  free(s->rw);
  free(s->X);
  s->view.X = NULL;
  free(s->due);
  free(s->tau);
  free(s->ver);
  ol_vec_free(s->g);
  ol_vec_free(s->tmp);
  ol_vec_free(s->xbar);
  s->rw = NULL;
  s->X = s->due = s->tau = s->g = s->tmp = s->xbar = NULL;
  s->ver = NULL;
}

static double asgd_probe (const void *st, int metric, const ol_ctx *c)
{
  const asgd_state *s = st;
  int w, j, n = c->n;
  if (metric == OL_MET_ROUNDS) return (double)s->rounds;
  if (metric != OL_MET_CONSENSUS || s->X == NULL) return NAN;
  for (j = 0; j < n; j++) s->xbar[j] = 0;
  for (w = 0; w < s->sp.n; w++)
    for (j = 0; j < n; j++) s->xbar[j] += s->X[(size_t)w * n + j];
  for (j = 0; j < n; j++) s->xbar[j] /= s->sp.n;
  return ol_dist_consensus(s->X, s->sp.n, n, s->xbar);
}

const ol_method_type ol_dist_asgd = {
  .name = "asgd",
  .family = OL_DIST,
  .doc = "asynchronous SGD: stale gradients from simulated workers of given "
    "speeds",
  .ref = "Recht et al. 2011; Lian et al. 2015 (AsySG-con)",
  .params = asgd_params,
  .nparams = (int)(sizeof asgd_params / sizeof asgd_params[0]),
  .size = sizeof(asgd_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = asgd_init,
  .step = asgd_step,
  .fini = asgd_fini,
  .probe = asgd_probe,
  .result = ol_dist_fedresult,
  .probes = OL_MSET(OL_MET_CONSENSUS, OL_MET_ROUNDS),
};
