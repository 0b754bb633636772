/*
** core/problem.c -- problem lifetime, the true oracle, game helpers.
**
** ol_problem_eval is the one place an oracle is called for its true value:
** it adds central finite differences for value-only problems and rejects
** non-finite results (OL_EDOM), so every caller above sees finite numbers
** or an error.  ol_problem_fdhess differences that gradient for problems
** without a Hessian.  ol_problem_new checks a created problem's invariants
** (n >= 1, an oracle, a start point, a consistent set and payoff) so
** methods and metrics may rely on them, including the catalog's own noise
** model, l1 weight and matrix shape (check_extra).  The checked setters
** (ol_problem_set_*) complete a problem after it is made and are the one
** place a user's x0, noise, set and l1 are validated; the first run
** freezes the problem and they refuse from then on.  ol_problem_aniso
** factors the Hessian at x0 for anisotropic noise.  The registry of
** problem types (ol_problem_types, ol_problem_type_find) lives in
** core/registry.c.
*/
#include "penalty.h"
#include "problem.h"
#include "rng.h"

#include "vec.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* True oracle at x.  f and g may each be NULL.  With p->fd_grad the
** gradient is (f(x + h e_i) - f(x - h e_i)) / (2h) over the exact
** representable step, h = cbrt(eps) max(1, |x_i|); work needs n doubles
** then (unused otherwise).  Returns OL_OK, the oracle's own code, or
** OL_EDOM when the value or gradient is not finite. */
int ol_problem_eval (const ol_problem *p, const double *x, double *f,
                     double *g, double *work, ol_err *e)
{
  int rc, i, n = p->n;
  if (!p->fd_grad || g == NULL) {
    rc = p->fdf(p->ud, x, f, p->fd_grad ? NULL : g, e);
    if (rc != OL_OK) return rc;
  } else {
    double h0 = cbrt(DBL_EPSILON);
    if (f != NULL) {
      rc = p->fdf(p->ud, x, f, NULL, e);
      if (rc != OL_OK) return rc;
    }
    memcpy(work, x, (size_t)n * sizeof *x);
    for (i = 0; i < n; i++) {
      double xi = x[i], fp, fm, xp, xm;
      double h = h0 * (fabs(xi) > 1 ? fabs(xi) : 1);
      xp = work[i] = xi + h;
      rc = p->fdf(p->ud, work, &fp, NULL, e);
      if (rc != OL_OK) return rc;
      xm = work[i] = xi - h;
      rc = p->fdf(p->ud, work, &fm, NULL, e);
      work[i] = xi;
      if (rc != OL_OK) return rc;
      g[i] = (fp - fm) / (xp - xm);
    }
  }
  if (f != NULL && !isfinite(*f))
    return ol_err_set(e, OL_EDOM, "non-finite value (f = %g)",
                      ol_shown(*f));
  if (g != NULL && !ol_allfinite(g, n))
    return ol_err_set(e, OL_EDOM, "non-finite gradient");
  return OL_OK;
}

/* See problem.h.  Row i of H first holds g(x + h e_i), then the
** difference quotient (the i-th column of the Hessian, stored as a row:
** the symmetrisation makes the orientation irrelevant). */
int ol_problem_fdhess (const ol_problem *p, const double *x, double *H,
                       double *work, ol_err *e)
{
  int rc, i, j, n = p->n;
  double h0 = cbrt(DBL_EPSILON), *xs = work, *gm = work + n;
  double *fw = p->fd_grad ? work + 2 * n : NULL;
  memcpy(xs, x, (size_t)n * sizeof *x);
  for (i = 0; i < n; i++) {
    double xi = x[i], xp, xm, d, *row = H + (size_t)i * n;
    double h = h0 * (fabs(xi) > 1 ? fabs(xi) : 1);
    /* 2n gradients in all, each of any cost: Ctrl-C is looked at before
    ** each pair (a bcd run's Hessian of an MDP with 200 states took
    ** seconds here with no way out) */
    if (ol_interrupted())
      return ol_err_set(e, OL_EINTR, "finite-difference Hessian: "
                        "interrupted at column %d of %d", i + 1, n);
    /* (1) gradients on both sides of x along e_i */
    xp = xs[i] = xi + h;
    rc = ol_problem_eval(p, xs, NULL, row, fw, e);
    if (rc != OL_OK) return rc;
    xm = xs[i] = xi - h;
    rc = ol_problem_eval(p, xs, NULL, gm, fw, e);
    xs[i] = xi;
    if (rc != OL_OK) return rc;
    /* (2) difference quotient over the step actually taken */
    d = xp - xm;
    for (j = 0; j < n; j++) row[j] = (row[j] - gm[j]) / d;
  }
  /* (3) symmetrise */
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      double a = 0.5 * (H[(size_t)i * n + j] + H[(size_t)j * n + i]);
      H[(size_t)i * n + j] = H[(size_t)j * n + i] = a;
    }
  if (!ol_allfinite(H, n * n))
    return ol_err_set(e, OL_EDOM, "non-finite finite-difference Hessian");
  return OL_OK;
}

/* Duality gap of z = (x, y) in the zero-sum game with payoff A (rows x
** cols): max_i (A y)_i - min_j (A'x)_j.  work needs rows + cols doubles.
** NAN when p is not a game with a payoff matrix. */
double ol_game_gap (const ol_problem *p, const double *z, double *work)
{
  int m, k, i;
  double *ay, *atx, hi, lo;
  if (p == NULL || p->kind != OL_GAME || p->payoff == NULL) return NAN;
  m = p->rows;
  k = p->cols;
  ay = work;
  atx = work + m;
  ol_mat_gemv(m, k, 1, p->payoff, z + m, 0, ay);
  ol_mat_gemv_t(m, k, 1, p->payoff, z, 0, atx);
  hi = -INFINITY;
  lo = INFINITY;
  for (i = 0; i < m; i++)
    if (ay[i] > hi) hi = ay[i];
  for (i = 0; i < k; i++)
    if (atx[i] < lo) lo = atx[i];
  return hi - lo;
}

double *ol_problem_alloc (int n, ol_err *e)
{
  double *x;
  if (n < 0) {
    ol_err_set(e, OL_EINVAL, "array length %d is negative", n);
    return NULL;
  }
  x = calloc(n > 0 ? (size_t)n : 1, sizeof *x);
  if (x == NULL) ol_err_set(e, OL_ENOMEM, "out of memory (%d doubles)", n);
  return x;
}

static int check_extra (const ol_problem *p, ol_err *e);

/* Invariants every problem keeps after creation; OL_EINVAL naming the
** problem otherwise. */
static int check (const ol_problem *p, ol_err *e)
{
  int b, sum = 0;
  if (p->n < 1)
    return ol_err_set(e, OL_EINVAL, "%s: dimension n = %d is out of range "
                      "[1, inf]", p->name, p->n);
  if (!p->fdf)
    return ol_err_set(e, OL_EINVAL, "%s: no oracle", p->name);
  if (p->kind < OL_OBJECTIVE || p->kind > OL_GAME)
    return ol_err_set(e, OL_EINVAL, "%s: unknown kind %d", p->name,
                      p->kind);
  switch (p->set.kind) {
  case OL_SET_NONE:
    break;
  case OL_SET_BOX:
    if (p->set.lo == NULL || p->set.hi == NULL)
      return ol_err_set(e, OL_EINVAL, "%s: box set without bounds",
                        p->name);
    for (b = 0; b < p->n; b++)
      if (!(p->set.lo[b] <= p->set.hi[b]))
        return ol_err_set(e, OL_EINVAL, "%s: box bound lo[%d] = %g > "
                          "hi[%d] = %g", p->name, b + 1, p->set.lo[b],
                          b + 1, p->set.hi[b]);
    break;
  case OL_SET_SIMPLEX:
    if (p->set.nblocks < 1 || p->set.nblocks > OL_MAXBLOCKS)
      return ol_err_set(e, OL_EINVAL, "%s: %d simplex blocks is out of "
                        "range [1, %d]", p->name, p->set.nblocks,
                        OL_MAXBLOCKS);
    for (b = 0; b < p->set.nblocks; b++) {
      if (p->set.blocks[b] < 1)
        return ol_err_set(e, OL_EINVAL, "%s: simplex block %d is empty",
                          p->name, b + 1);
      sum += p->set.blocks[b];
    }
    if (sum != p->n)
      return ol_err_set(e, OL_EINVAL, "%s: simplex blocks sum to %d, "
                        "not n = %d", p->name, sum, p->n);
    break;
  case OL_SET_L1BALL:
  case OL_SET_L2BALL:
    if (!(p->set.radius > 0) || !isfinite(p->set.radius))
      return ol_err_set(e, OL_EINVAL, "%s: ball radius r = %g is out of "
                        "range (0, inf)", p->name, ol_shown(p->set.radius));
    break;
  default:
    return ol_err_set(e, OL_EINVAL, "%s: unknown set kind %d", p->name,
                      p->set.kind);
  }
  if (p->payoff != NULL &&
      (p->rows < 1 || p->cols < 1 || p->rows + p->cols != p->n))
    return ol_err_set(e, OL_EINVAL, "%s: payoff shape %d x %d does not "
                      "match n = %d", p->name, p->rows, p->cols, p->n);
  return check_extra(p, e);
}

/* The catalog's noise model, l1 weight and matrix shape, as a create
** function set them. */
static int check_extra (const ol_problem *p, ol_err *e)
{
  const ol_noise *nz = &p->noise;
  int b, sum = 0;
  if (nz->kind < OL_NOISE_NONE || nz->kind > OL_NOISE_BATCH)
    return ol_err_set(e, OL_EINVAL, "%s: unknown noise kind %d", p->name,
                      nz->kind);
  if (nz->kind != OL_NOISE_NONE && nz->kind != OL_NOISE_BATCH &&
      (!(nz->sigma >= 0) || isinf(nz->sigma)))
    return ol_err_set(e, OL_EINVAL, "%s: noise sigma = %g is out of range "
                      "[0, inf)", p->name, ol_shown(nz->sigma));
  if (nz->kind == OL_NOISE_AFFINE &&
      (!(nz->sigma1 >= 0) || isinf(nz->sigma1)))
    return ol_err_set(e, OL_EINVAL, "%s: noise sigma1 = %g is out of range "
                      "[0, inf) (affine noise)", p->name,
                      ol_shown(nz->sigma1));
  if (nz->kind == OL_NOISE_STUDENT && (!(nz->nu > 0) || isinf(nz->nu)))
    return ol_err_set(e, OL_EINVAL, "%s: noise nu = %g is out of range "
                      "(0, inf) (student noise)", p->name,
                      ol_shown(nz->nu));
  if (nz->kind == OL_NOISE_ANISO) {
    if (nz->batch < 1)
      return ol_err_set(e, OL_EINVAL, "%s: noise batch = %d is out of range "
                        "[1, inf] (anisotropic noise)", p->name, nz->batch);
    if (nz->chol == NULL)
      return ol_err_set(e, OL_EINVAL, "%s: anisotropic noise without its "
                        "Cholesky factor (ol_problem_aniso)", p->name);
  }
  if (nz->kind == OL_NOISE_BATCH) {
    if (p->nsum < 1 || p->fdfi == NULL)
      return ol_err_set(e, OL_EINVAL, "%s: batch noise needs a finite-sum "
                        "problem (%s has no components)", p->name, p->name);
    if (nz->batch < 1 || nz->batch > p->nsum)
      return ol_err_set(e, OL_EINVAL, "%s: noise batch = %d is out of range "
                        "[1, %ld] (N = %ld components)", p->name, nz->batch,
                        p->nsum, p->nsum);
    if (nz->order < OL_ORDER_REPLACE || nz->order > OL_ORDER_GRAB)
      return ol_err_set(e, OL_EINVAL, "%s: unknown noise order %d", p->name,
                        nz->order);
  }
  if (!(p->l1 >= 0) || isinf(p->l1))
    return ol_err_set(e, OL_EINVAL, "%s: l1 = %g is out of range [0, inf)",
                      p->name, ol_shown(p->l1));
  if (p->mrows != 0 || p->mcols != 0) {
    if (p->mrows < 1 || p->mcols < 1 ||
        (long)p->mrows * p->mcols != (long)p->n)
      return ol_err_set(e, OL_EINVAL, "%s: matrix shape %d x %d does not "
                        "match n = %d", p->name, p->mrows, p->mcols, p->n);
    for (b = 0; b < 4 && p->mblocks[b] > 0; b++) sum += p->mblocks[b];
    if ((b > 0 || p->mblocks[0] < 0) && sum != p->mrows)
      return ol_err_set(e, OL_EINVAL, "%s: matrix blocks sum to %d rows, "
                        "not mrows = %d", p->name, sum, p->mrows);
  }
  return OL_OK;
}

/* Lower Cholesky factor of the Hessian at x0 into p->noise.chol (row-major,
** strict upper triangle zeroed); replaces a previous factor. */
int ol_problem_aniso (ol_problem *p, ol_err *e)
{
  int n, i, j, rc;
  lapack_int info;
  double *H;
  if (p == NULL) return ol_err_set(e, OL_EINVAL, "no problem");
  if (p->hess == NULL)
    return ol_err_set(e, OL_EINVAL, "%s: anisotropic noise needs a Hessian; "
                      "%s has none", p->name, p->name);
  n = p->n;
  if ((H = ol_problem_alloc(n * n, e)) == NULL) return e->code;
  rc = p->hess(p->ud, p->x0, H, e);
  if (rc != OL_OK) {
    free(H);
    return rc;
  }
  if (!ol_allfinite(H, n * n)) {
    free(H);
    return ol_err_set(e, OL_EDOM, "%s: non-finite Hessian at x0", p->name);
  }
  info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, H, n);
  if (info != 0) {
    free(H);
    return ol_err_set(e, OL_ENUMERIC, "%s: Cholesky factorisation of the "
                      "Hessian at x0 failed (dpotrf info %d: %s)", p->name,
                      (int)info, info > 0 ? "not positive definite"
                      : "bad argument");
  }
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) H[(size_t)i * n + j] = 0;
  free(p->noise.chol);
  p->noise.chol = H;
  return OL_OK;
}

/* Zeroed problem with fstar = NAN, or NULL with e set. */
static ol_problem *blank (ol_err *e)
{
  ol_problem *p = calloc(1, sizeof *p);
  if (p == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (problem)");
    return NULL;
  }
  p->fstar = NAN;
  return p;
}

/* Make a problem of type t.  On any failure the partial problem is freed
** (ud through free_ud when create set it) and NULL is returned. */
ol_problem *ol_problem_new (const ol_problem_type *t, const ol_pval *v,
                            ol_err *e)
{
  ol_problem *p;
  if (t == NULL || t->create == NULL) {
    ol_err_set(e, OL_EINVAL, "no problem type");
    return NULL;
  }
  p = blank(e);
  if (p == NULL) return NULL;
  p->type = t;
  snprintf(p->name, sizeof p->name, "%s", t->name);
  p->kind = t->kind;
  if (t->create(p, v, e) != OL_OK) goto fail;
  if (p->n >= 1 && p->x0 == NULL && (p->x0 = ol_problem_alloc(p->n, e))
      == NULL)
    goto fail;
  if (p->n >= 1 && p->noise.kind == OL_NOISE_ANISO && p->noise.chol == NULL
      && ol_problem_aniso(p, e) != OL_OK)
    goto fail;
  if (check(p, e) != OL_OK) goto fail;
  return p;
fail:
  ol_problem_free(p);
  return NULL;
}

const ol_problem_type ol_problem_custom_type = {
  .name = "custom",
  .kind = OL_OBJECTIVE,
  .doc = "a user objective from an oracle (ol_problem_custom; Lua: "
         "problem.new), a density after ol_problem_set_kind",
};

/* A user objective.  On success the problem owns ud (freed by
** ol_problem_free through free_ud); on failure (NULL) ud is left alone and
** stays the caller's. */
ol_problem *ol_problem_custom (int n, ol_fdf_fn fdf, int fd_grad, void *ud,
                               void (*free_ud) (void *), ol_err *e)
{
  ol_problem *p;
  if (n < 1) {
    ol_err_set(e, OL_EINVAL, "n = %d is out of range [1, inf]", n);
    return NULL;
  }
  if (!fdf) {
    ol_err_set(e, OL_EINVAL, "custom problem without an oracle");
    return NULL;
  }
  p = blank(e);
  if (p == NULL) return NULL;
  p->x0 = ol_problem_alloc(n, e);
  if (p->x0 == NULL) {
    free(p);
    return NULL;
  }
  p->type = &ol_problem_custom_type;
  snprintf(p->name, sizeof p->name, "custom");
  snprintf(p->desc, sizeof p->desc, "user objective, n = %d%s", n,
           fd_grad ? ", finite-difference gradient" : "");
  p->kind = OL_OBJECTIVE;
  p->n = n;
  p->fdf = fdf;
  p->fd_grad = fd_grad != 0;
  p->ud = ud;
  p->free_ud = free_ud;
  return p;
}

void ol_problem_free (ol_problem *p)
{
  if (p == NULL) return;
  free(p->x0);
  free(p->xstar);
  free(p->mean);
  free(p->cov);
  free(p->payoff);
  free(p->set.lo);
  free(p->set.hi);
  free(p->noise.chol);
  free(p->con.kind);
  free(p->con.fd);
  free(p->workers.start);
  free(p->workers.perm);
  ol_problem_set_names(p, NULL, NULL);
  if (p->free_ud != NULL) p->free_ud(p->ud);
  free(p);
}

/* == checked setters (problem.h) ========================================== */

static int refuse_frozen (const ol_problem *p, ol_err *e)
{
  if (p == NULL) return ol_err_set(e, OL_EINVAL, "no problem");
  if (p->frozen)
    return ol_err_set(e, OL_EINVAL, "%s is in use by a run: its x0, noise, "
                      "set and l1 are fixed", p->name);
  return OL_OK;
}

/* OL_EINVAL unless x has n == p->n entries, all finite. */
static int check_vec (const ol_problem *p, const char *what, const double *x,
                      int n, ol_err *e)
{
  int i;
  if (x == NULL) return ol_err_set(e, OL_EINVAL, "%s: no array", what);
  if (n != p->n)
    return ol_err_set(e, OL_EINVAL, "%s has %d entries, expected n = %d",
                      what, n, p->n);
  for (i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return ol_err_set(e, OL_EINVAL, "%s[%d] = %g is not finite", what,
                        i + 1, ol_shown(x[i]));
  return OL_OK;
}

int ol_problem_set_x0 (ol_problem *p, const double *x, int n, ol_err *e)
{
  double *old;
  int rc;
  if ((rc = refuse_frozen(p, e)) != OL_OK ||
      (rc = check_vec(p, "x0", x, n, e)) != OL_OK)
    return rc;
  if (p->noise.kind != OL_NOISE_ANISO) {
    memcpy(p->x0, x, (size_t)n * sizeof *x);
    return OL_OK;
  }
  /* (1) the anisotropic noise is the Hessian at x0: factor it there, and
  ** keep the old x0 and factor when that fails */
  if ((old = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
  memcpy(old, p->x0, (size_t)n * sizeof *x);
  memcpy(p->x0, x, (size_t)n * sizeof *x);
  if ((rc = ol_problem_aniso(p, e)) != OL_OK) {
    memcpy(p->x0, old, (size_t)n * sizeof *x);
    free(old);
    return rc;
  }
  free(old);
  return OL_OK;
}

/* "%g" of v into a static-free buffer for the range messages. */
static const char *gnum (char *buf, size_t size, double v)
{
  snprintf(buf, size, "%g", ol_shown(v));
  return buf;
}

int ol_problem_set_noise (ol_problem *p, const ol_noise *spec, ol_err *e)
{
  ol_noise nz, old;
  char b[32];
  int rc;
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (spec == NULL) return ol_err_set(e, OL_EINVAL, "noise: no spec");
  nz = *spec;
  nz.chol = NULL;
  /* (1) the numbers, whatever the kind reads */
  if (nz.kind < OL_NOISE_NONE || nz.kind > OL_NOISE_BATCH)
    return ol_err_set(e, OL_EINVAL, "unknown noise kind %d", nz.kind);
  if (!(nz.sigma >= 0) || isinf(nz.sigma))
    return ol_err_set(e, OL_EINVAL, "noise.%s = %s is out of range "
                      "[0, inf)", nz.kind == OL_NOISE_AFFINE ? "sigma0"
                      : "sigma", gnum(b, sizeof b, nz.sigma));
  if (!(nz.sigma1 >= 0) || isinf(nz.sigma1))
    return ol_err_set(e, OL_EINVAL, "noise.sigma1 = %s is out of range "
                      "[0, inf)", gnum(b, sizeof b, nz.sigma1));
  if (!(nz.nu > 0) || isinf(nz.nu))
    return ol_err_set(e, OL_EINVAL, "noise.nu = %s is out of range "
                      "(0, inf)", gnum(b, sizeof b, nz.nu));
  if (nz.batch < 1)
    return ol_err_set(e, OL_EINVAL, "noise.batch = %d is out of range "
                      "[1, inf]", nz.batch);
  /* (2) what the kind needs of the problem */
  if (nz.kind == OL_NOISE_BATCH) {
    if (p->nsum < 1 || p->fdfi == NULL)
      return ol_err_set(e, OL_EINVAL, "noise kind \"batch\" needs a "
                        "finite-sum problem (%s has no components)",
                        p->name);
    if (nz.batch > p->nsum)
      return ol_err_set(e, OL_EINVAL, "noise.batch = %d is out of range "
                        "[1, %ld] (N = %ld components)", nz.batch, p->nsum,
                        p->nsum);
    if (nz.order < OL_ORDER_REPLACE || nz.order > OL_ORDER_GRAB)
      return ol_err_set(e, OL_EINVAL, "unknown noise order %d", nz.order);
  }
  /* (3) store; aniso factors the Hessian at x0, else p is restored */
  old = p->noise;
  p->noise = nz;
  p->noise.chol = old.chol;
  if (nz.kind == OL_NOISE_ANISO) {
    p->noise.chol = NULL;
    rc = ol_problem_aniso(p, e);
    if (rc != OL_OK) {
      free(p->noise.chol);
      p->noise = old;
      return e != NULL ? ol_err_set(e, rc, "noise kind \"aniso\": %s",
                                    e->msg) : rc;
    }
    free(old.chol);
  }
  return OL_OK;
}

int ol_problem_set_l1 (ol_problem *p, double lam, ol_err *e)
{
  char b[32];
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (!(lam >= 0) || isinf(lam))
    return ol_err_set(e, OL_EINVAL, "l1 = %s is out of range [0, inf)",
                      gnum(b, sizeof b, lam));
  p->l1 = lam;
  return OL_OK;
}

int ol_problem_set_penalty (ol_problem *p, const char *name,
                            const double *pa, ol_err *e)
{
  double a;
  const ol_penalty *k;
  char b[32], valid[64] = "";
  int i;
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if ((k = ol_penalty_find(name)) == NULL) {
    for (i = 0; ol_penalties[i] != NULL; i++)
      snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
               i > 0 ? ", " : "", ol_penalties[i]->name);
    return ol_err_set(e, OL_EINVAL, "penalty \"%s\" is unknown (valid: "
                      "%s)", name, valid);
  }
  if (pa == NULL) a = k->adef;
  else if (a = *pa, k->adef == 0)
    return ol_err_set(e, OL_EINVAL, "penalty \"%s\" takes no a", name);
  else if (!(a > k->alo) || isinf(a))
    return ol_err_set(e, OL_EINVAL, "%s a = %s is out of range (%g, inf)",
                      name, gnum(b, sizeof b, a), k->alo);
  p->pen = k;
  p->pen_a = a;
  return OL_OK;
}

int ol_problem_set_set (ol_problem *p, const ol_set *s, ol_err *e)
{
  ol_set ns;
  int i, sum = 0, n;
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (s == NULL) return ol_err_set(e, OL_EINVAL, "set: no spec");
  n = p->n;
  memset(&ns, 0, sizeof ns);
  ns.kind = s->kind;
  switch (s->kind) {
  case OL_SET_NONE:
    break;
  case OL_SET_BOX:
    if (s->lo == NULL || s->hi == NULL)
      return ol_err_set(e, OL_EINVAL, "set: a box needs lo and hi");
    for (i = 0; i < n; i++) {
      if (isnan(s->lo[i]) || isnan(s->hi[i]))
        return ol_err_set(e, OL_EINVAL, "set: %s[%d] is nan",
                          isnan(s->lo[i]) ? "lo" : "hi", i + 1);
      if (!(s->lo[i] <= s->hi[i]))
        return ol_err_set(e, OL_EINVAL, "set: lo[%d] = %g > hi[%d] = %g",
                          i + 1, s->lo[i], i + 1, s->hi[i]);
    }
    if ((ns.lo = ol_problem_alloc(n, e)) == NULL) return OL_ENOMEM;
    if ((ns.hi = ol_problem_alloc(n, e)) == NULL) {
      free(ns.lo);
      return OL_ENOMEM;
    }
    memcpy(ns.lo, s->lo, (size_t)n * sizeof *ns.lo);
    memcpy(ns.hi, s->hi, (size_t)n * sizeof *ns.hi);
    break;
  case OL_SET_SIMPLEX:
    if (s->nblocks < 1 || s->nblocks > OL_MAXBLOCKS)
      return ol_err_set(e, OL_EINVAL, "set: %d simplex blocks is out of "
                        "range [1, %d]", s->nblocks, OL_MAXBLOCKS);
    for (i = 0; i < s->nblocks; i++) {
      if (s->blocks[i] < 1)
        return ol_err_set(e, OL_EINVAL, "set: simplex block %d is empty",
                          i + 1);
      sum += s->blocks[i];
    }
    if (sum != n)
      return ol_err_set(e, OL_EINVAL, "set: simplex blocks sum to %d, not "
                        "n = %d", sum, n);
    ns.nblocks = s->nblocks;
    memcpy(ns.blocks, s->blocks, sizeof ns.blocks);
    break;
  case OL_SET_L1BALL:
  case OL_SET_L2BALL:
    if (!(s->radius > 0) || !isfinite(s->radius))
      return ol_err_set(e, OL_EINVAL, "set: %s radius r = %g is out of "
                        "range (0, inf)", s->kind == OL_SET_L1BALL
                        ? "l1ball" : "l2ball", ol_shown(s->radius));
    ns.radius = s->radius;
    break;
  default:
    return ol_err_set(e, OL_EINVAL, "set: unknown kind %d (valid: box, "
                      "simplex, l1ball, l2ball)", s->kind);
  }
  free(p->set.lo);
  free(p->set.hi);
  p->set = ns;
  return OL_OK;
}

int ol_problem_set_matrix (ol_problem *p, int mrows, int mcols,
                           const int *blocks, ol_err *e)
{
  int b, sum = 0, nb[4] = {0, 0, 0, 0};
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (mrows == 0 && mcols == 0 && blocks == NULL) {
    p->mrows = p->mcols = 0;
    memset(p->mblocks, 0, sizeof p->mblocks);
    return OL_OK;
  }
  if (mrows < 1 || mcols < 1 || (long)mrows * mcols != (long)p->n)
    return ol_err_set(e, OL_EINVAL, "matrix shape %d x %d does not match "
                      "n = %d", mrows, mcols, p->n);
  for (b = 0; blocks != NULL && b < 4 && blocks[b] != 0; b++) {
    if (blocks[b] < 0)
      return ol_err_set(e, OL_EINVAL, "matrix block %d has %d rows", b + 1,
                        blocks[b]);
    nb[b] = blocks[b];
    sum += blocks[b];
  }
  if (b > 0 && sum != mrows)
    return ol_err_set(e, OL_EINVAL, "matrix blocks sum to %d rows, not "
                      "mrows = %d", sum, mrows);
  p->mrows = mrows;
  p->mcols = mcols;
  memcpy(p->mblocks, nb, sizeof nb);
  return OL_OK;
}

int ol_problem_set_kind (ol_problem *p, int kind, ol_err *e)
{
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (kind != OL_OBJECTIVE && kind != OL_DENSITY)
    return ol_err_set(e, OL_EINVAL, "kind %d: a problem made from an "
                      "oracle is an objective or a density", kind);
  p->kind = kind;
  return OL_OK;
}

int ol_problem_set_hess (ol_problem *p, ol_hess_fn hess, ol_err *e)
{
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  p->hess = hess;
  return OL_OK;
}

int ol_problem_set_name (ol_problem *p, const char *name, ol_err *e)
{
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (name == NULL || name[0] == '\0')
    return ol_err_set(e, OL_EINVAL, "name: an empty name");
  snprintf(p->name, sizeof p->name, "%s", name);
  snprintf(p->desc, sizeof p->desc, "%s{n=%d}", p->name, p->n);
  return OL_OK;
}

int ol_problem_set_names (ol_problem *p, const char *const *names,
                          ol_err *e)
{
  char **nm = NULL;
  int j;
  if (p == NULL) return ol_err_set(e, OL_EINVAL, "no problem");
  if (names != NULL) {
    for (j = 0; j < p->n; j++)
      if (names[j] == NULL || names[j][0] == '\0')
        return ol_err_set(e, OL_EINVAL, "names: coordinate %d has no name",
                          j + 1);
    if (p->n < 1 || (nm = calloc((size_t)p->n, sizeof *nm)) == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory");
    for (j = 0; j < p->n; j++) {
      size_t l = strlen(names[j]) + 1;
      if ((nm[j] = malloc(l)) == NULL) {
        while (j-- > 0) free(nm[j]);
        free(nm);
        return ol_err_set(e, OL_ENOMEM, "out of memory");
      }
      memcpy(nm[j], names[j], l);
    }
  }
  if (p->names != NULL) {
    for (j = 0; j < p->n; j++) free(p->names[j]);
    free(p->names);
  }
  p->names = nm;
  return OL_OK;
}

const char *ol_problem_coordname (const ol_problem *p, int j, char *buf,
                                  size_t sz)
{
  if (p != NULL && p->names != NULL && j >= 0 && j < p->n)
    return p->names[j];
  snprintf(buf, sz, "x%d", j + 1);
  return buf;
}

int ol_problem_set_xstar (ol_problem *p, const double *x, int n, ol_err *e)
{
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (x == NULL) {
    free(p->xstar);
    p->xstar = NULL;
    return OL_OK;
  }
  if (check_vec(p, "xstar", x, n, e) != OL_OK) return OL_EINVAL;
  if (p->xstar == NULL && (p->xstar = ol_problem_alloc(n, e)) == NULL)
    return OL_ENOMEM;
  memcpy(p->xstar, x, (size_t)n * sizeof *x);
  return OL_OK;
}

int ol_problem_set_fstar (ol_problem *p, double fstar, ol_err *e)
{
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (isinf(fstar))
    return ol_err_set(e, OL_EINVAL, "fstar = %g is not finite", fstar);
  p->fstar = fstar;
  return OL_OK;
}

int ol_problem_set_constraints (ol_problem *p, int m, const int *kind,
                                const int *hasgrad, ol_con_fn fn, void *ud,
                                ol_err *e)
{
  int i, meq = 0, *k2, *fd2;
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (m == 0) {
    free(p->con.kind);
    free(p->con.fd);
    memset(&p->con, 0, sizeof p->con);
    return OL_OK;
  }
  if (p->kind != OL_OBJECTIVE)
    return ol_err_set(e, OL_EINVAL, "constraints apply to an objective "
                      "only");
  if (m < 0 || m > OL_MAXCON)
    return ol_err_set(e, OL_EINVAL, "constraints: %d of them (expected "
                      "0..%d)", m, OL_MAXCON);
  if (kind == NULL || fn == NULL)
    return ol_err_set(e, OL_EINVAL, "constraints: no kinds or no oracle");
  for (i = 0; i < m; i++) {
    if (kind[i] != OL_CON_EQ && kind[i] != OL_CON_INEQ)
      return ol_err_set(e, OL_EINVAL, "constraints[%d]: kind %d is "
                        "neither eq nor ineq", i + 1, kind[i]);
    meq += kind[i] == OL_CON_EQ;
  }
  k2 = malloc((size_t)m * sizeof *k2);
  fd2 = malloc((size_t)m * sizeof *fd2);
  if (k2 == NULL || fd2 == NULL) {
    free(k2);
    free(fd2);
    return ol_err_set(e, OL_ENOMEM, "out of memory (%d constraints)", m);
  }
  for (i = 0; i < m; i++) {
    k2[i] = kind[i];
    fd2[i] = hasgrad == NULL || !hasgrad[i];
  }
  free(p->con.kind);
  free(p->con.fd);
  p->con.m = m;
  p->con.meq = meq;
  p->con.mineq = m - meq;
  p->con.kind = k2;
  p->con.fd = fd2;
  p->con.fn = fn;
  p->con.ud = ud;
  return OL_OK;
}

/* == workers (problem.h) ==================================================== */

static int check_workers (ol_problem *p, int n, double h, double part,
                          ol_err *e)
{
  if (refuse_frozen(p, e) != OL_OK) return OL_EINVAL;
  if (p->nsum < 1 || p->fdfi == NULL)
    return ol_err_set(e, OL_EINVAL, "workers: %s is not a finite sum "
                      "(components f_i to split)", p->name);
  if (n < 1 || n > p->nsum)
    return ol_err_set(e, OL_EINVAL, "workers: n = %d is out of range [1, "
                      "%ld] (the components of %s)", n, p->nsum, p->name);
  if (!(h >= 0 && h <= 1))
    return ol_err_set(e, OL_EINVAL, "workers: heterogeneity = %g is out "
                      "of range [0, 1]", h);
  if (!(part > 0 && part <= 1))
    return ol_err_set(e, OL_EINVAL, "workers: participation = %g is out "
                      "of range (0, 1]", part);
  return OL_OK;
}

static int set_split (ol_problem *p, int n, double h, double part,
                      long *start, long *perm)
{
  free(p->workers.start);
  free(p->workers.perm);
  p->workers.n = n;
  p->workers.heterogeneity = h;
  p->workers.participation = part;
  p->workers.start = start;
  p->workers.perm = perm;
  return OL_OK;
}

int ol_problem_set_shards (ol_problem *p, int n, const long *start,
                           double heterogeneity, double participation,
                           ol_err *e)
{
  long *st, *perm, i;
  int w;
  if (check_workers(p, n, heterogeneity, participation, e) != OL_OK)
    return OL_EINVAL;
  if (start == NULL || start[0] != 0 || start[n] != p->nsum)
    return ol_err_set(e, OL_EINVAL, "workers: shards must run from 0 to "
                      "%ld", p->nsum);
  for (w = 0; w < n; w++)
    if (start[w + 1] <= start[w])
      return ol_err_set(e, OL_EINVAL, "workers: shard %d is empty or out "
                        "of order", w + 1);
  st = malloc(sizeof *st * (size_t)(n + 1));
  perm = malloc(sizeof *perm * (size_t)p->nsum);
  if (st == NULL || perm == NULL) {
    free(st);
    free(perm);
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  }
  memcpy(st, start, sizeof *st * (size_t)(n + 1));
  for (i = 0; i < p->nsum; i++) perm[i] = i;
  return set_split(p, n, heterogeneity, participation, st, perm);
}

typedef struct wkey {
  double k;
  long i;
} wkey;

static int wkey_cmp (const void *a, const void *b)
{
  const wkey *x = a, *y = b;
  if (x->k != y->k) return x->k < y->k ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

int ol_problem_set_workers (ol_problem *p, int n, double heterogeneity,
                            double participation, uint64_t seed, ol_err *e)
{
  long N, i, *st = NULL, *perm = NULL;
  int w, d, j, rc = OL_OK;
  double *u = NULL, *g = NULL, mean = 0, var = 0, sd;
  wkey *key = NULL;
  ol_rng rng;
  if (check_workers(p, n, heterogeneity, participation, e) != OL_OK)
    return OL_EINVAL;
  N = p->nsum;
  d = p->n;
  u = malloc(sizeof *u * (size_t)d);
  g = malloc(sizeof *g * (size_t)d);
  key = malloc(sizeof *key * (size_t)N);
  st = malloc(sizeof *st * (size_t)(n + 1));
  perm = malloc(sizeof *perm * (size_t)N);
  if (u == NULL || g == NULL || key == NULL || st == NULL || perm == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "out of memory");
    goto done;
  }
  /* (1) the direction u and each component's pull along it at x0 */
  ol_rng_seed(&rng, seed, 0);
  for (j = 0; j < d; j++) u[j] = ol_rng_normal(&rng);
  for (i = 0; i < N; i++) {
    double f, z = 0;
    if ((i & 0xfff) == 0 && ol_interrupted()) {
      rc = ol_err_set(e, OL_EINTR, "workers: interrupted");
      goto done;
    }
    if ((rc = p->fdfi(p->ud, i, p->x0, &f, g, e)) != OL_OK) goto done;
    for (j = 0; j < d; j++) z += g[j] * u[j];
    if (!isfinite(z)) {
      rc = ol_err_set(e, OL_EDOM, "workers: component %ld's gradient at "
                      "x0 is not finite", i + 1);
      goto done;
    }
    key[i].k = z;
    key[i].i = i;
    mean += z;
  }
  /* (2) keys: standardised pull, mixed with noise by heterogeneity */
  mean /= (double)N;
  for (i = 0; i < N; i++) var += (key[i].k - mean) * (key[i].k - mean);
  sd = sqrt(var / (double)N);
  for (i = 0; i < N; i++) {
    double z = sd > 0 ? (key[i].k - mean) / sd : 0;
    key[i].k = heterogeneity * z
               + (1 - heterogeneity) * ol_rng_normal(&rng);
  }
  qsort(key, (size_t)N, sizeof *key, wkey_cmp);
  for (i = 0; i < N; i++) perm[i] = key[i].i;
  /* (3) contiguous shards of near-equal size */
  for (w = 0; w <= n; w++) st[w] = (long)((double)N * w / n);
  rc = set_split(p, n, heterogeneity, participation, st, perm);
  st = perm = NULL;
done:
  free(u);
  free(g);
  free(key);
  free(st);
  free(perm);
  return rc;
}
