/*
** core/problems/linmdp.c -- a discounted MDP with linear features
** (linmdp.h), given or seeded: the test problem of projected linear SARSA
** (seed catalog T24 with features; Zhang, Tachet des Combes & Laroche
** 2023, seed B055, study SARSA on such a "finite MDP with a feature
** matrix").
**
** Random instance (stream 0 of the seeded generator, in this order):
**   P(.|s, a) = 0.8 Dirichlet(1, ..., 1) + 0.2 uniform, so pmin >= 0.2/S
**             and every policy visits every state;
**   R(s, a)   uniform on [-scale, scale);
**   phi(s, a) random: N(0, I_d) scaled to unit length (xmax = 1);
**             onehot: the indicator of (s, a), d = S A (tabular SARSA,
**             x* = Q*).
** Given: P (S A x S, row s A + a) with R (S x A), and/or phi (S A x d).
** f, x*, f* as linmdp.h says; x0 = 0; the Hessian Phi'Phi / (S A) is
** constant (quadratic).  Q* by value iteration from Q = 0 until a sweep
** moves it by at most 1e-15 S (1 + max |Q|), a few roundings of a sum of
** S terms (the error is then below gamma / (1 - gamma) times that).
*/
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problems/linmdp.h"

static const ol_param linmdp_params[] = {
  {"S", OL_P_INT, 5, 1, 200, "random instance: states", NULL},
  {"A", OL_P_INT, 2, 1, 20, "random instance: actions per state", NULL},
  {"d", OL_P_INT, 3, 1, 400, "random features: their dimension (onehot: "
   "d = S A)", NULL},
  {"gamma", OL_P_REAL, 0.9, 0, 0.99, "discount factor", NULL},
  {"scale", OL_P_REAL, 1, 0, 1e6, "random rewards: uniform on [-scale, "
   "scale)", NULL},
  {"features", OL_P_ENUM, 0, 0, 0, "random unit-length features, or "
   "one-hot (tabular)", "random|onehot"},
  {"seed", OL_P_INT, 1, 0, 1e9, "random instance: seed", NULL},
  {"P", OL_P_MATRIX, 0, 0, 0, "given transitions, S A x S (row s A + a "
   "is P(.|s, a)); needs R", NULL},
  {"R", OL_P_MATRIX, 0, 0, 0, "given rewards, S x A; needs P", NULL},
  {"phi", OL_P_MATRIX, 0, 0, 0, "given features, S A x d, of full column "
   "rank", NULL},
};
#define NPARAMS (int)(sizeof linmdp_params / sizeof linmdp_params[0])

static void linmdp_free (void *ud)
{
  ol_linmdp *M = ud;
  if (M == NULL) return;
  free(M->P);
  free(M->R);
  free(M->phi);
  free(M->qstar);
  free(M->work);
  free(M);
}

static const ol_linmdp *linmdp_ud (const ol_problem *p)
{
  return p->ud;
}

const ol_linmdp *ol_linmdp_of (const ol_problem *p)
{
  if (p == NULL || p->type->linmdp == NULL) return NULL;
  return p->type->linmdp(p);
}

int ol_linmdp_next (const ol_linmdp *M, int s, int a, ol_rng *rng)
{
  const double *q = M->P + ((size_t)s * M->A + a) * M->S;
  double u = ol_rng_uniform(rng);
  int t;
  for (t = 0; t < M->S - 1; t++) {
    u -= q[t];
    if (u < 0) return t;
  }
  return M->S - 1;
}

double ol_linmdp_bound (const ol_linmdp *M, double eps)
{
  if (!(eps > 0)) return INFINITY;
  return M->rmax / ((1 - M->gamma) * sqrt(eps / M->A * M->pmin * M->lmin));
}

static int linmdp_fdf (void *ud, const double *x, double *f, double *g,
                       ol_err *e)
{
  ol_linmdp *M = ud;
  int sa = M->S * M->A, d = M->d, i, j;
  double sum = 0;
  (void)e;
  for (i = 0; i < sa; i++) {
    const double *ph = M->phi + (size_t)i * d;
    double q = 0;
    for (j = 0; j < d; j++) q += ph[j] * x[j];
    M->work[i] = q - M->qstar[i];
    sum += M->work[i] * M->work[i];
  }
  if (f != NULL) *f = sum / (2.0 * sa);
  if (g != NULL) {
    for (j = 0; j < d; j++) g[j] = 0;
    for (i = 0; i < sa; i++) {
      const double *ph = M->phi + (size_t)i * d;
      double r = M->work[i] / sa;
      for (j = 0; j < d; j++) g[j] += r * ph[j];
    }
  }
  return OL_OK;
}

static int linmdp_hess (void *ud, const double *x, double *H, ol_err *e)
{
  ol_linmdp *M = ud;
  int sa = M->S * M->A, d = M->d, i, j, k;
  (void)x;
  (void)e;
  for (j = 0; j < d * d; j++) H[j] = 0;
  for (i = 0; i < sa; i++) {
    const double *ph = M->phi + (size_t)i * d;
    for (j = 0; j < d; j++)
      for (k = 0; k < d; k++) H[j * d + k] += ph[j] * ph[k] / sa;
  }
  return OL_OK;
}

/* (1) the random dynamics and rewards, or the given ones, checked */
static int dynamics (ol_linmdp *M, const ol_pval *v, ol_rng *rng, ol_err *e)
{
  int S = M->S, A = M->A, i, t;
  double scale = v[4].num;
  for (i = 0; i < S * A; i++) {
    double *q = M->P + (size_t)i * S, sum = 0;
    if (v[7].arr == NULL) {
      for (t = 0; t < S; t++) sum += q[t] = -log1p(-ol_rng_uniform(rng));
      for (t = 0; t < S; t++) q[t] = 0.8 * q[t] / sum + 0.2 / S;
      continue;
    }
    for (t = 0; t < S; t++) {
      q[t] = v[7].arr[(size_t)i * S + t];
      if (!(q[t] >= 0) || !isfinite(q[t]))
        return ol_err_set(e, OL_EINVAL, "linmdp: P[%d][%d] = %g is not a "
                          "probability", i + 1, t + 1, q[t]);
      sum += q[t];
    }
    if (fabs(sum - 1) > 1e-12)
      return ol_err_set(e, OL_EINVAL, "linmdp: row %d of P sums to %.17g, "
                        "not 1", i + 1, sum);
  }
  for (i = 0; i < S * A; i++) {
    M->R[i] = v[8].arr == NULL ? scale * (2 * ol_rng_uniform(rng) - 1)
              : v[8].arr[i];
    if (!isfinite(M->R[i]))
      return ol_err_set(e, OL_EINVAL, "linmdp: R[%d][%d] is not finite",
                        i / A + 1, i % A + 1);
  }
  return OL_OK;
}

/* (2) the features: given, one-hot or random unit vectors */
static int features (ol_linmdp *M, const ol_pval *v, int onehot,
                     ol_rng *rng, ol_err *e)
{
  int sa = M->S * M->A, d = M->d, i, j;
  for (i = 0; i < sa; i++) {
    double *ph = M->phi + (size_t)i * d, nn = 0;
    if (v[9].arr != NULL)
      for (j = 0; j < d; j++) {
        ph[j] = v[9].arr[(size_t)i * d + j];
        if (!isfinite(ph[j]))
          return ol_err_set(e, OL_EINVAL, "linmdp: phi[%d][%d] is not "
                            "finite", i + 1, j + 1);
      }
    else if (onehot) ph[i] = 1;
    else {
      ol_rng_normals(rng, ph, d);
      for (j = 0; j < d; j++) nn += ph[j] * ph[j];
      nn = sqrt(nn);
      for (j = 0; j < d; j++) ph[j] /= nn;
    }
  }
  return OL_OK;
}

/* (3) Q* by value iteration */
static int qstar (ol_linmdp *M, ol_err *e)
{
  int S = M->S, A = M->A, i, s, t, it;
  double *v = M->work;   /* S: max_a Q(s, a) */
  for (i = 0; i < S * A; i++) M->qstar[i] = 0;
  for (it = 0; it < 1000000; it++) {
    double delta = 0, big = 0;
    if ((it & 15) == 0 && ol_interrupted())
      return ol_err_set(e, OL_EINTR, "linmdp: interrupted");
    for (s = 0; s < S; s++) {
      v[s] = -INFINITY;
      for (i = 0; i < A; i++) v[s] = fmax(v[s], M->qstar[s * A + i]);
    }
    for (i = 0; i < S * A; i++) {
      const double *q = M->P + (size_t)i * S;
      double n = M->R[i];
      for (t = 0; t < S; t++) n += M->gamma * q[t] * v[t];
      delta = fmax(delta, fabs(n - M->qstar[i]));
      big = fmax(big, fabs(n));
      M->qstar[i] = n;
    }
    if (delta <= 1e-15 * S * (1 + big)) return OL_OK;
  }
  return ol_err_set(e, OL_ENUMERIC, "linmdp: value iteration did not "
                    "settle");
}

/* (4) x* from the normal equations, the bound's constants */
static int fit (ol_problem *p, ol_linmdp *M, ol_err *e)
{
  int sa = M->S * M->A, d = M->d, i, j;
  double *G = NULL, *ev = NULL, lmax;
  int rc = OL_OK;
  lapack_int info;
  if ((G = malloc(sizeof *G * (size_t)d * d * 2)) == NULL
      || (ev = malloc(sizeof *ev * (size_t)d)) == NULL
      || (p->xstar = ol_problem_alloc(d, e)) == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "out of memory");
    goto done;
  }
  linmdp_hess(M, NULL, G, e);
  for (j = 0; j < d * d; j++) G[j] *= sa;              /* Phi'Phi */
  memcpy(G + (size_t)d * d, G, sizeof *G * (size_t)d * d);
  info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', d, G + (size_t)d * d,
                       d, ev);
  lmax = info == 0 ? ev[d - 1] : 0;
  M->lmin = info == 0 ? ev[0] : 0;
  if (info != 0 || !(M->lmin > 1e-10 * lmax)) {
    rc = ol_err_set(e, OL_EINVAL, "linmdp: the features do not have full "
                    "column rank (smallest eigenvalue of phi'phi %g): use "
                    "d <= S A independent columns", M->lmin);
    goto done;
  }
  for (j = 0; j < d; j++) {
    p->xstar[j] = 0;
    for (i = 0; i < sa; i++)
      p->xstar[j] += M->phi[(size_t)i * d + j] * M->qstar[i];
  }
  info = LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', d, 1, G, d, p->xstar, 1);
  if (info != 0) {
    rc = ol_err_set(e, OL_ENUMERIC, "linmdp: dposv info %d", (int)info);
    goto done;
  }
  linmdp_fdf(M, p->xstar, &p->fstar, NULL, e);
done:
  free(G);
  free(ev);
  return rc;
}

static int linmdp_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  ol_pval def[NPARAMS];
  ol_linmdp *M;
  ol_rng rng;
  int S, A, d, onehot, i, rc;
  size_t sa;
  if (v == NULL) {
    memset(def, 0, sizeof def);
    for (i = 0; i < NPARAMS; i++) def[i].num = linmdp_params[i].def;
    v = def;
  }
  S = (int)v[0].num;
  A = (int)v[1].num;
  onehot = (int)v[5].num == 1;
  if ((v[7].arr == NULL) != (v[8].arr == NULL))
    return ol_err_set(e, OL_EINVAL, "linmdp: P and R go together (given "
                      "%s alone)", v[7].arr != NULL ? "P" : "R");
  if (v[7].arr != NULL) {
    S = v[8].rows;
    A = v[8].cols;
    if (S < 1 || A < 1 || v[7].rows != S * A || v[7].cols != S)
      return ol_err_set(e, OL_EINVAL, "linmdp: P is %d x %d but R is "
                        "%d x %d: P must be S A x S for R of S x A",
                        v[7].rows, v[7].cols, S, A);
  }
  sa = (size_t)S * A;
  d = v[9].arr != NULL ? v[9].cols : onehot ? (int)sa : (int)v[2].num;
  if (v[9].arr != NULL && (v[9].rows != (int)sa || d < 1))
    return ol_err_set(e, OL_EINVAL, "linmdp: phi is %d x %d, expected "
                      "S A = %d rows", v[9].rows, v[9].cols, (int)sa);
  if (d > (int)sa)
    return ol_err_set(e, OL_EINVAL, "linmdp: d = %d features for S A = %d "
                      "state-action pairs cannot have full rank: use d <= "
                      "%d", d, (int)sa, (int)sa);
  if ((M = calloc(1, sizeof *M)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = M;
  p->free_ud = linmdp_free;
  M->S = S;
  M->A = A;
  M->d = d;
  M->gamma = v[3].num;
  if ((M->P = calloc(sa * S, sizeof *M->P)) == NULL
      || (M->R = calloc(sa, sizeof *M->R)) == NULL
      || (M->phi = calloc(sa * d, sizeof *M->phi)) == NULL
      || (M->qstar = calloc(sa, sizeof *M->qstar)) == NULL
      || (M->work = calloc(sa, sizeof *M->work)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  ol_rng_seed(&rng, (uint64_t)v[6].num, 0);
  if ((rc = dynamics(M, v, &rng, e)) != OL_OK
      || (rc = features(M, v, onehot, &rng, e)) != OL_OK
      || (rc = qstar(M, e)) != OL_OK)
    return rc;
  M->pmin = INFINITY;
  for (i = 0; i < (int)(sa * S); i++) M->pmin = fmin(M->pmin, M->P[i]);
  for (i = 0; i < (int)sa; i++) {
    double nn = 0;
    int j;
    M->rmax = fmax(M->rmax, fabs(M->R[i]));
    for (j = 0; j < d; j++) nn += M->phi[(size_t)i * d + j]
                                  * M->phi[(size_t)i * d + j];
    M->xmax = fmax(M->xmax, sqrt(nn));
  }
  p->n = d;
  p->fdf = linmdp_fdf;
  p->hess = linmdp_hess;
  p->quadratic = 1;
  if ((rc = fit(p, M, e)) != OL_OK) return rc;
  if (v[7].arr != NULL || v[9].arr != NULL)
    snprintf(p->desc, sizeof p->desc, "linmdp{S = %d, A = %d, d = %d, "
             "gamma = %g, given %s}", S, A, d, M->gamma,
             v[7].arr == NULL ? "phi" : v[9].arr == NULL ? "P, R"
             : "P, R, phi");
  else
    snprintf(p->desc, sizeof p->desc, "linmdp{S = %d, A = %d, d = %d, "
             "gamma = %g, scale = %g, features = \"%s\", seed = %.0f}", S,
             A, d, M->gamma, v[4].num, onehot ? "onehot" : "random",
             v[6].num);
  return OL_OK;
}

const ol_problem_type ol_problem_linmdp = {
  .name = "linmdp",
  .kind = OL_OBJECTIVE,
  .doc = "discounted MDP with linear features phi(s, a), random or given; "
         "f = the least-squares fit of Q* (rl.sarsa learns on it)",
  .ref = "Puterman 1994, sec. 6.3; Zhang, Tachet des Combes & Laroche 2023",
  .params = linmdp_params,
  .nparams = NPARAMS,
  .create = linmdp_create,
  .linmdp = linmdp_ud,
};
