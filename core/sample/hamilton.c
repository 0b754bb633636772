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

double ol_ham_energy (const ol_hpoint *z, const ol_mass *m)
{
  double h = z->U + ol_mass_kinetic(m, z->p);
  return isfinite(h) ? h : INFINITY;
}

int ol_ham_leapfrog (ol_ctx *c, ol_hpoint *z, const ol_mass *m,
                     double eps, ol_err *e)
{
  double *q = z->q, *p = z->p, *g = z->g, h = 0.5 * eps;
  const double *minv = m->minv;
  int i, n = c->n, rc;
  /* (1) half kick, (2) drift */
  if (m->dense) {
    for (i = 0; i < n; i++) p[i] -= h * g[i];
    ol_mass_sharp(m, p, m->w);
    for (i = 0; i < n; i++) q[i] += eps * m->w[i];
  }
  else if (m->unit)
    for (i = 0; i < n; i++) {
      p[i] -= h * g[i];
      q[i] += eps * p[i];
    }
  else
    for (i = 0; i < n; i++) {
      p[i] -= h * g[i];
      q[i] += eps * minv[i] * p[i];
    }
  /* (3) potential and gradient at the new position */
  rc = ol_ctx_grad(c, q, &z->U, g, e);
  if (rc != OL_OK) {
    if (rc == OL_EDOM) {
      z->Ubad = z->U;
      z->U = INFINITY;
    }
    return rc;
  }
  /* (4) half kick */
  for (i = 0; i < n; i++) p[i] -= h * g[i];
  return OL_OK;
}

/* exp(H0 - H) after one leapfrog step of size eps from z0 with a fresh
** momentum, as log: H0 - H (-inf when the step met a non-finite value). */
static int trial (ol_ctx *c, const ol_hpoint *z0, ol_hpoint *z,
                  const ol_mass *m, double eps, double *dH, ol_err *e)
{
  int n = c->n, rc;
  double H0;
  ol_hpoint_copy(z, z0, n);
  ol_mass_momentum(m, c->rng, z->p);
  H0 = ol_ham_energy(z, m);
  rc = ol_ham_leapfrog(c, z, m, eps, e);
  if (rc == OL_EDOM) {
    ol_err_clear(e);
    *dH = -INFINITY;
    return OL_OK;
  }
  if (rc != OL_OK) return rc;
  *dH = H0 - ol_ham_energy(z, m);
  return OL_OK;
}

int ol_ham_init_stepsize (ol_ctx *c, const ol_hpoint *z0, ol_hpoint *z,
                          const ol_mass *m, double *eps, ol_err *e)
{
  const double lo = log(0.8);
  double dH;
  int dir, rc;
  if (*eps == 0 || *eps > 1e7 || isnan(*eps)) return OL_OK;
  /* (1) which way to go: up while the acceptance is above 0.8 */
  if ((rc = trial(c, z0, z, m, *eps, &dH, e)) != OL_OK) return rc;
  dir = dH > lo ? 1 : -1;
  /* (2) double or halve until the acceptance crosses 0.8 */
  for (;;) {
    if ((rc = trial(c, z0, z, m, *eps, &dH, e)) != OL_OK) return rc;
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
    if (h->mass->dense) {
      if ((rc = ol_mass_set(h->mass, ad->wv.cov, e)) != OL_OK) return rc;
    }
    else ol_mass_from_diag(h->mass);
    rc = ol_ham_init_stepsize(c, cur, z, h->mass, eps, e);
    if (rc != OL_OK) return rc;
    ol_adapt_restart(ad, *eps);
  }
  ol_sampler_count(h);
  ol_ctx_known(c, cur->U, cur->g);
  return OL_OK;
}
