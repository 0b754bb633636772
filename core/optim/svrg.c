/*
** core/optim/svrg.c -- stochastic variance reduced gradient (Johnson &
** Zhang 2013, "Accelerating stochastic gradient descent using predictive
** variance reduction", NIPS, Procedure SVRG with option I) on a finite
** sum f = (1/N) sum_i f_i.
**
**   every `inner` steps:  x~ = x_t,  mu = grad f(x~) = (1/N) sum_i
**                         grad f_i(x~)        (N component gradients)
**   each step:            i ~ uniform{0..N-1} (the run's generator)
**                         v = grad f_i(x_t) - grad f_i(x~) + mu
**                         x_{t+1} = x_t - lr_t v,   lr_t = lr * sched_t
**
** v is unbiased for grad f(x_t), and its variance vanishes as x_t and x~
** approach x*, so a constant step converges linearly on a strongly convex
** sum (Johnson & Zhang, Theorem 1: lr < 1/(4L) and inner large enough);
** plain SGD's constant step stalls at a noise floor.  Option I (the
** snapshot is the last iterate) is what the paper runs in practice; the
** paper's epoch length is m = 2N for convex problems, the default
** inner = 0 here.  One run iteration is one inner step; the step that
** starts an epoch also pays the N gradients of the snapshot (counted in
** the run's gradient evaluations).  The component gradients are exact:
** the problem's gradient noise model does not apply.  Needs a finite sum
** (p->nsum, p->fdfi): built-in ones, or problem.finitesum in Lua.
*/
#include <math.h>

#include "method.h"
#include "vec.h"

typedef struct svrg_state {
  double lr;
  long N, inner, left;   /* components, epoch length, steps left in it */
  double *xs, *mu;       /* snapshot x~ and grad f(x~) (n each) */
  double *gi, *gs;       /* grad f_i at x_t and at x~ (n each) */
} svrg_state;

static const ol_param svrg_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, OL_FINITE, "step size (the paper: < 1/(4L))",
   NULL},
  {"inner", OL_P_INT, 0, 0, 1e12,
   "steps per snapshot m (0: 2N, the paper's choice for convex sums)",
   NULL},
};

static int svrg_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  svrg_state *s = st;
  s->lr = par[0];
  s->N = c->p->nsum;
  s->inner = par[1] > 0 ? (long)par[1] : 2 * s->N;
  s->left = 0;            /* the first step takes the snapshot */
  if ((s->xs = ol_vec_new(c->n, e)) == NULL ||
      (s->mu = ol_vec_new(c->n, e)) == NULL ||
      (s->gi = ol_vec_new(c->n, e)) == NULL ||
      (s->gs = ol_vec_new(c->n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

static int svrg_step (void *st, ol_ctx *c, ol_err *e)
{
  svrg_state *s = st;
  int n = c->n, rc;
  long i;
  /* (1) a new epoch: snapshot and its full gradient, term by term */
  if (s->left == 0) {
    ol_vec_copy(c->x, s->xs, n);
    ol_vec_set(s->mu, 0, n);
    for (i = 0; i < s->N; i++) {
      if ((i & 4095) == 4095 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "svrg: interrupted");
      if ((rc = ol_ctx_gradi(c, i, s->xs, NULL, s->gi, e)) != OL_OK)
        return rc;
      ol_vec_axpy(1.0, s->gi, s->mu, n);
    }
    ol_vec_scal(1.0 / (double)s->N, s->mu, n);
    s->left = s->inner;
  }
  /* (2) one component at x_t and at the snapshot */
  i = ol_rng_below(c->rng, s->N);
  if ((rc = ol_ctx_gradi(c, i, c->x, NULL, s->gi, e)) != OL_OK) return rc;
  if ((rc = ol_ctx_gradi(c, i, s->xs, NULL, s->gs, e)) != OL_OK) return rc;
  /* (3) x <- x - lr (g_i(x) - g_i(x~) + mu) */
  {
    double a = s->lr * c->sched;
    int j;
    for (j = 0; j < n; j++) c->x[j] -= a * (s->gi[j] - s->gs[j] + s->mu[j]);
  }
  s->left--;
  return OL_OK;
}

static void svrg_fini (void *st)
{
  svrg_state *s = st;
  ol_vec_free(s->xs);
  ol_vec_free(s->mu);
  ol_vec_free(s->gi);
  ol_vec_free(s->gs);
  s->xs = s->mu = s->gi = s->gs = NULL;
}

const ol_method_type ol_optim_svrg = {
  .name = "svrg",
  .family = OL_OPTIM,
  .doc = "SVRG: component steps corrected by a snapshot's full gradient, "
         "g_i(x) - g_i(x~) + grad f(x~)",
  .ref = "Johnson & Zhang 2013",
  .params = svrg_params,
  .nparams = (int)(sizeof svrg_params / sizeof svrg_params[0]),
  .size = sizeof(svrg_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE),
  .init = svrg_init,
  .step = svrg_step,
  .fini = svrg_fini,
  .probes = OL_MSET_NONE,
};
