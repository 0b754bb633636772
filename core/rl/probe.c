/*
** core/rl/probe.c -- the state and metrics every RL method shares
** (probe.h).  Not a method.
*/
#include <math.h>
#include <stdlib.h>

#include "rl/probe.h"
#include "vec.h"

int ol_rl_check (const ol_method_type *m, const ol_problem *p, ol_err *e)
{
  if (ol_mdp_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "rl.%s needs an MDP problem "
                      "(problem.stopping, problem.inventory, problem.rlvr); "
                      "%s is not one", m->name, p->name);
  return OL_OK;
}

int ol_rl_check_binary (const ol_method_type *m, const ol_problem *p,
                        ol_err *e)
{
  int rc = ol_rl_check(m, p, e);
  if (rc != OL_OK) return rc;
  if (!ol_mdp_of(p)->binary)
    return ol_err_set(e, OL_EINVAL, "rl.%s needs a verifiable-reward toy "
                      "(problem.rlvr); %s is not one: use rl.pg or "
                      "rl.dynpg", m->name, p->name);
  return OL_OK;
}

int ol_rl_init (ol_rl *r, ol_ctx *c, const char *who, int needbin,
                ol_err *e)
{
  r->M = ol_mdp_of(c->p);
  if (r->M == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs an MDP problem "
                      "(problem.stopping, problem.inventory, problem.rlvr); "
                      "%s is not one", who, c->p->name);
  if (needbin && !r->M->binary)
    return ol_err_set(e, OL_EINVAL, "%s needs a verifiable-reward toy "
                      "(problem.rlvr: one stage, rewards 0 or 1); %s is "
                      "not one: use rl.pg or rl.dynpg", who, c->p->name);
  r->n = c->n;
  r->zeroadv = r->zeroadv_pred = NAN;
  if ((r->xprev = ol_vec_new(c->n, e)) == NULL
      || (r->g = ol_vec_new(c->n, e)) == NULL
      || (r->work = malloc(ol_mdp_worksize(r->M) * sizeof *r->work))
         == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  return OL_OK;
}

void ol_rl_fini (ol_rl *r)
{
  ol_vec_free(r->xprev);
  ol_vec_free(r->g);
  free(r->work);
  r->xprev = r->g = r->work = NULL;
}

void ol_rl_begin (ol_rl *r, const ol_ctx *c)
{
  int i;
  for (i = 0; i < r->n; i++) r->xprev[i] = c->x[i];
  r->steps++;
}

double ol_rl_probe (const void *st, int metric, const ol_ctx *c)
{
  const ol_rl *r = st;
  const ol_mdp *M = r->M;
  int i;
  switch (metric) {
  case OL_MET_GAP:
    return M->vstar - ol_mdp_eval(M, c->x, NULL, r->work);
  case OL_MET_ENTROPY:
    return ol_mdp_entropy(M, c->x);
  case OL_MET_DENTROPY:
    if (r->steps == 0) return NAN;
    return ol_mdp_entropy(M, c->x) - ol_mdp_entropy(M, r->xprev);
  case OL_MET_DENTROPY_PRED:
    if (r->steps == 0) return NAN;
    for (i = 0; i < r->n; i++) r->work[i] = c->x[i] - r->xprev[i];
    return ol_mdp_dentropy_pred(M, r->xprev, r->work);
  case OL_MET_ZEROADV:
    return r->zeroadv;
  case OL_MET_ZEROADV_PRED:
    return r->zeroadv_pred;
  case OL_MET_PASS1:
    return M->binary ? ol_mdp_eval(M, c->x, NULL, r->work) : NAN;
  default:
    return NAN;
  }
}

/* ceil(K G) for K in (0, 1), G >= 1: in 1 .. G (K G rounds up by 1e-12
** at most, so 0.7 * 10 stays 7). */
static int qindex (double K, int G)
{
  int j = (int)ceil(K * G * (1 - 1e-12));
  return j < 1 ? 1 : j > G ? G : j;
}

/* Zero fraction of a group of G with k successes. */
static double zfrac (int k, int G, int quantile, double K)
{
  if (k == 0 || k == G) return 1;
  if (!quantile) return 0;
  return qindex(K, G) <= G - k ? 1 - (double)k / G : (double)k / G;
}

/* E zfrac(k), k ~ Bin(G, p). */
static double zexpect (double p, int G, int quantile, double K)
{
  double e = 0;
  int k;
  if (p <= 0) return zfrac(0, G, quantile, K);
  if (p >= 1) return zfrac(G, G, quantile, K);
  for (k = 0; k <= G; k++)
    e += exp(lgamma(G + 1.0) - lgamma(k + 1.0) - lgamma(G - k + 1.0)
             + k * log(p) + (G - k) * log1p(-p)) * zfrac(k, G, quantile, K);
  return e;
}

void ol_rl_group_step (ol_rl *r, ol_ctx *c, int G, int quantile, double K,
                       int scale, double lr, double *work, int *iw)
{
  const ol_mdp *M = r->M;
  int Q = M->S, A = M->A, q, i, a, zeros = 0;
  double *rw = work, *srt = rw + G, *adv = srt + G, *pi = adv + G;
  double zp = 0;
  ol_rl_begin(r, c);
  for (q = 0; q < Q; q++) {
    double *z = c->x + (size_t)q * A, b = 0, sd = 0, p = 0;
    const double *R = M->R + (size_t)q * A;
    /* (1) the policy and its group */
    double m = z[0], sum = 0;
    for (a = 1; a < A; a++)
      if (z[a] > m) m = z[a];
    for (a = 0; a < A; a++) sum += (pi[a] = exp(z[a] - m));
    for (a = 0; a < A; a++) {
      pi[a] /= sum;
      p += pi[a] * R[a];
    }
    zp += zexpect(p, G, quantile, K);
    for (i = 0; i < G; i++) {
      iw[i] = ol_mdp_draw(pi, A, c->rng);
      rw[i] = R[iw[i]];
      b += rw[i];
    }
    b /= G;
    /* (2) the baseline: mean, or the lower K-quantile */
    if (scale || quantile) {
      for (i = 0; i < G; i++) sd += (rw[i] - b) * (rw[i] - b);
      sd = sqrt(sd / G);
    }
    if (quantile) {
      int j, k;
      for (i = 0; i < G; i++) {          /* insertion sort */
        double v = rw[i];
        for (j = i; j > 0 && srt[j - 1] > v; j--) srt[j] = srt[j - 1];
        srt[j] = v;
      }
      k = qindex(K, G);
      b = srt[k - 1];
    }
    /* (3) advantages and the step z += lr/G sum_i A_i (e_{a_i} - pi) */
    for (i = 0; i < G; i++) {
      adv[i] = rw[i] - b;
      if (scale) adv[i] = sd > 0 ? adv[i] / sd : 0;
      if (adv[i] == 0) zeros++;
    }
    for (i = 0; i < G; i++) {
      double s = lr * adv[i] / G;
      if (adv[i] == 0) continue;
      for (a = 0; a < A; a++) z[a] -= s * pi[a];
      z[iw[i]] += s;
    }
  }
  r->zeroadv = (double)zeros / ((double)Q * G);
  r->zeroadv_pred = zp / Q;
}
