/*
** core/optim/dpsgd.c -- differentially private SGD (Abadi, Chu,
** Goodfellow, McMahan, Mironov, Talwar & Zhang 2016, "Deep Learning with
** Differential Privacy", Algorithm 1) on a finite sum f = (1/N) sum_i f_i.
**
**   B_t       a batch: Poisson (each i joins with probability q = B/N) or
**             shuffle (the next B indices of a random permutation)
**   gbar_i    = g_i min(1, C / ||g_i||),   g_i = grad f_i(x_t)
**   g_t       = (sum_{i in B_t} gbar_i + sigma C z) / B,   z ~ N(0, I)
**   x_{t+1}   = x_t - lr_t g_t,   lr_t = lr * sched_t
**
** B is the expected batch size (q N with Poisson sampling); batch > N
** is taken as N.  With clip = inf nothing is clipped (then sigma must be
** 0: the noise is sigma C).  With sigma = 0, clip = inf and batch = N
** the step is gradient descent's.  Shuffle: each epoch is a fresh
** permutation (the run's generator) cut into floor(N / B) batches of B;
** the N mod B indices left over wait for the next epoch's draw.
**
** Privacy (metric epsilon): the RDP accountant of the Poisson-sampled
** Gaussian mechanism with q = B/N and noise multiplier sigma over the
** steps so far, converted to (epsilon, delta) at the parameter delta
** (core/optim/rdp.h: Mironov, Talwar & Zhang 2019, integer orders 2..256;
** the conversion of Balle et al. 2020).  Add-or-remove-one adjacency on
** the records.  With sampling = "shuffle" the same number is reported, as
** practitioners do, but it is not a guarantee: the Poisson accountant
** can understate the loss of shuffled batches (Chua, Ghazi, Kamath, Kumar,
** Manurangsi, Sinha & Zhang 2024; the shuffled DP-SGD lower bounds of the seeds
** catalog's B153).  The component gradients are exact: the problem's
** gradient noise model does not apply.
*/
#include <math.h>
#include <stdlib.h>

#include "method.h"
#include "rdp.h"
#include "vec.h"

enum { DPSGD_POISSON, DPSGD_SHUFFLE };

typedef struct dpsgd_state {
  double lr, clip, sigma, delta, q;
  int sampling;
  long N, B;             /* components, (expected) batch size */
  long steps;            /* steps done (the accountant's T) */
  long *perm, pos;       /* shuffle: permutation of 0..N-1, next position */
  double *gi, *g;        /* a component's gradient, the batch sum (n) */
  double rdp[OL_RDP_NORD];   /* per-step RDP at each order */
} dpsgd_state;

static const ol_param dpsgd_params[] = {
  {"lr", OL_P_REAL, 0.1, 0, OL_FINITE, "step size", NULL},
  {"clip", OL_P_REAL, 1, OL_GT0, INFINITY,
   "per-example clipping norm C (inf: no clipping)", NULL},
  {"sigma", OL_P_REAL, 1, 0, OL_FINITE,
   "noise multiplier: noise sd sigma C on the batch sum", NULL},
  {"batch", OL_P_INT, 10, 1, 1e12,
   "expected batch size B (Poisson rate q = B/N; at most N)", NULL},
  {"sampling", OL_P_ENUM, DPSGD_POISSON, 0, 1,
   "batches: Poisson (rate B/N) or shuffle (B per batch, epochs)",
   "poisson|shuffle"},
  {"delta", OL_P_REAL, 1e-5, OL_GT0, 0.9999999999999999,
   "delta of the reported (epsilon, delta)", NULL},
};

static int dpsgd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  dpsgd_state *s = st;
  long i;
  s->lr = par[0];
  s->clip = par[1];
  s->sigma = par[2];
  s->B = (long)par[3];
  s->sampling = (int)par[4];
  s->delta = par[5];
  if (s->sigma > 0 && !(s->clip < INFINITY))
    return ol_err_set(e, OL_EINVAL, "dpsgd: sigma > 0 needs a finite clip "
                      "(the noise is sigma clip)");
  s->N = c->p->nsum;
  if (s->B > s->N) s->B = s->N;
  s->q = (double)s->B / (double)s->N;
  ol_rdp_orders(s->q, s->sigma, s->rdp);
  if ((s->gi = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if ((s->g = ol_vec_new(c->n, e)) == NULL) return OL_ENOMEM;
  if (s->sampling == DPSGD_SHUFFLE) {
    s->perm = malloc((size_t)s->N * sizeof *s->perm);
    if (s->perm == NULL)
      return ol_err_set(e, OL_ENOMEM, "dpsgd: out of memory (%ld indices)",
                        s->N);
    for (i = 0; i < s->N; i++) s->perm[i] = i;
    s->pos = s->N;      /* an epoch is due */
  }
  return OL_OK;
}

/* g += clip(grad f_i(x)); one component gradient. */
static int dpsgd_add (dpsgd_state *s, ol_ctx *c, long i, ol_err *e)
{
  double nrm, a;
  int rc;
  if ((rc = ol_ctx_gradi(c, i, c->x, NULL, s->gi, e)) != OL_OK) return rc;
  nrm = ol_vec_nrm2(s->gi, c->n);
  a = nrm > s->clip ? s->clip / nrm : 1;
  ol_vec_axpy(a, s->gi, s->g, c->n);
  return OL_OK;
}

static int dpsgd_step (void *st, ol_ctx *c, ol_err *e)
{
  dpsgd_state *s = st;
  int n = c->n, j, rc;
  long i, k;
  ol_vec_set(s->g, 0, n);
  /* (1) the batch's clipped per-example gradients, summed */
  if (s->sampling == DPSGD_POISSON) {
    for (i = 0; i < s->N; i++) {
      /* N and B reach 1e12: Ctrl-C is looked at every 4096 components */
      if ((i & 4095) == 4095 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "dpsgd: interrupted");
      if (s->q >= 1 || ol_rng_uniform(c->rng) < s->q)
        if ((rc = dpsgd_add(s, c, i, e)) != OL_OK) return rc;
    }
  }
  else {
    if (s->pos + s->B > s->N) {
      /* a new epoch: Fisher-Yates with the run's generator */
      for (i = s->N - 1; i > 0; i--) {
        long t;
        k = ol_rng_below(c->rng, i + 1);
        t = s->perm[i];
        s->perm[i] = s->perm[k];
        s->perm[k] = t;
      }
      s->pos = 0;
    }
    for (k = 0; k < s->B; k++) {
      if ((k & 4095) == 4095 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "dpsgd: interrupted");
      if ((rc = dpsgd_add(s, c, s->perm[s->pos++], e)) != OL_OK) return rc;
    }
  }
  /* (2) Gaussian noise sigma C z on the sum */
  if (s->sigma > 0)
    for (j = 0; j < n; j++)
      s->g[j] += s->sigma * s->clip * ol_rng_normal(c->rng);
  /* (3) move along the noisy sum over the expected batch size */
  ol_vec_axpy(-s->lr * c->sched / (double)s->B, s->g, c->x, n);
  s->steps++;
  return OL_OK;
}

static void dpsgd_fini (void *st)
{
  dpsgd_state *s = st;
  ol_vec_free(s->gi);
  ol_vec_free(s->g);
  free(s->perm);
  s->gi = s->g = NULL;
  s->perm = NULL;
}

/* epsilon spent by the steps so far at the run's delta. */
static double dpsgd_probe (const void *st, int metric, const ol_ctx *c)
{
  const dpsgd_state *s = st;
  (void)c;
  if (metric != OL_MET_EPSILON) return NAN;
  return ol_rdp_epsilon(s->rdp, (double)s->steps, s->delta, NULL);
}

const ol_method_type ol_optim_dpsgd = {
  .name = "dpsgd",
  .family = OL_OPTIM,
  .doc = "DP-SGD: per-example clipping, Gaussian noise sigma C, RDP accountant",
  .ref = "Abadi et al. 2016; Mironov, Talwar & Zhang 2019",
  .params = dpsgd_params,
  .nparams = (int)(sizeof dpsgd_params / sizeof dpsgd_params[0]),
  .size = sizeof(dpsgd_state),
  .flags = OL_M_NEEDSUM,
  .kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY),
  .init = dpsgd_init,
  .step = dpsgd_step,
  .fini = dpsgd_fini,
  .probe = dpsgd_probe,
  .probes = OL_MSET(OL_MET_EPSILON),
};
