/*
** core/sample/hamilton.c -- leapfrog, energies and the first step size
** of Hamiltonian Monte Carlo (definitions in hamilton.h).
*/
#include <math.h>
#include <string.h>

#include "hamilton.h"
#include "vec.h"

int ol_hpoint_init (ol_hpoint *z, int n, ol_err *e)
{
  z->U = 0;
  if ((z->q = ol_vec_new(n, e)) == NULL
      || (z->p = ol_vec_new(n, e)) == NULL
      || (z->g = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

void ol_hpoint_fini (ol_hpoint *z)
{
  ol_vec_free(z->q);
  ol_vec_free(z->p);
  ol_vec_free(z->g);
  z->q = z->p = z->g = NULL;
}

void ol_hpoint_copy (ol_hpoint *dst, const ol_hpoint *src, int n)
{
  size_t sz = (size_t)n * sizeof(double);
  memcpy(dst->q, src->q, sz);
  memcpy(dst->p, src->p, sz);
  memcpy(dst->g, src->g, sz);
  dst->U = src->U;
}

/* Eight partial sums, one per vector lane: the loop is on every leapfrog
** step's path. */
double ol_ham_kinetic (const double *p, const double *minv, int n)
{
  double k[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0;
  int i, j, m = n - n % 8;
  for (i = 0; i < m; i += 8)
    for (j = 0; j < 8; j++) k[j] += minv[i + j] * p[i + j] * p[i + j];
  for (i = m; i < n; i++) s += minv[i] * p[i] * p[i];
  for (j = 0; j < 8; j++) s += k[j];
  return 0.5 * s;
}

double ol_ham_energy (const ol_hpoint *z, const double *minv, int n)
{
  double h = z->U + ol_ham_kinetic(z->p, minv, n);
  return isfinite(h) ? h : INFINITY;
}

void ol_ham_momentum (ol_rng *r, const double *minv, double *p, int n)
{
  int i;
  ol_rng_normals(r, p, n);
  for (i = 0; i < n; i++) p[i] /= sqrt(minv[i]);
}

void ol_ham_sharp (const double *p, const double *minv, double *ps, int n)
{
  int i;
  for (i = 0; i < n; i++) ps[i] = minv[i] * p[i];
}

int ol_ham_leapfrog (ol_ctx *c, ol_hpoint *z, const double *minv,
                     double eps, ol_err *e)
{
  double *q = z->q, *p = z->p, *g = z->g, h = 0.5 * eps;
  int i, n = c->n, rc;
  /* (1) half kick, (2) drift */
  for (i = 0; i < n; i++) {
    p[i] -= h * g[i];
    q[i] += eps * minv[i] * p[i];
  }
  /* (3) potential and gradient at the new position */
  rc = ol_ctx_grad(c, q, &z->U, g, e);
  if (rc != OL_OK) {
    if (rc == OL_EDOM) z->U = INFINITY;
    return rc;
  }
  /* (4) half kick */
  for (i = 0; i < n; i++) p[i] -= h * g[i];
  return OL_OK;
}

/* exp(H0 - H) after one leapfrog step of size eps from z0 with a fresh
** momentum, as log: H0 - H (-inf when the step met a non-finite value). */
static int trial (ol_ctx *c, const ol_hpoint *z0, ol_hpoint *z,
                  const double *minv, double eps, double *dH, ol_err *e)
{
  int n = c->n, rc;
  double H0;
  ol_hpoint_copy(z, z0, n);
  ol_ham_momentum(c->rng, minv, z->p, n);
  H0 = ol_ham_energy(z, minv, n);
  rc = ol_ham_leapfrog(c, z, minv, eps, e);
  if (rc == OL_EDOM) {
    ol_err_clear(e);
    *dH = -INFINITY;
    return OL_OK;
  }
  if (rc != OL_OK) return rc;
  *dH = H0 - ol_ham_energy(z, minv, n);
  return OL_OK;
}

int ol_ham_init_stepsize (ol_ctx *c, const ol_hpoint *z0, ol_hpoint *z,
                          const double *minv, double *eps, ol_err *e)
{
  const double lo = log(0.8);
  double dH;
  int dir, rc;
  if (*eps == 0 || *eps > 1e7 || isnan(*eps)) return OL_OK;
  /* (1) which way to go: up while the acceptance is above 0.8 */
  if ((rc = trial(c, z0, z, minv, *eps, &dH, e)) != OL_OK) return rc;
  dir = dH > lo ? 1 : -1;
  /* (2) double or halve until the acceptance crosses 0.8 */
  for (;;) {
    if ((rc = trial(c, z0, z, minv, *eps, &dH, e)) != OL_OK) return rc;
    if (dir == 1 && !(dH > lo)) break;
    if (dir == -1 && !(dH < lo)) break;
    *eps = dir == 1 ? 2 * *eps : 0.5 * *eps;
    if (*eps > 1e7)
      return ol_err_set(e, OL_ENUMERIC, "step size above 1e7 still accepts"
                        " (the density looks improper: is it normalisable?)");
    if (*eps == 0)
      return ol_err_set(e, OL_ENUMERIC, "no acceptably small step size "
                        "(the density may not be continuous)");
  }
  return OL_OK;
}

int ol_ham_step_end (ol_ctx *c, ol_sampler_head *h, ol_adapt *ad,
                     const ol_hpoint *cur, ol_hpoint *z, double *eps,
                     double accept, ol_err *e)
{
  int rc;
  if (ol_adapt_active(ad) &&
      ol_adapt_step(ad, accept, cur->q, eps, h->minv) == OL_ADAPT_METRIC) {
    rc = ol_ham_init_stepsize(c, cur, z, h->minv, eps, e);
    if (rc != OL_OK) return rc;
    ol_adapt_restart(ad, *eps);
  }
  ol_sampler_count(h);
  ol_ctx_known(c, cur->U, cur->g);
  return OL_OK;
}
