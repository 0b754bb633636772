/*
** core/manifold.h -- a problem whose variable lives on an embedded
** submanifold M = {x : h(x) = 0} of R^n (h: R^n -> R^m, Dh(x) of full rank
** m on M), for the Riemannian methods (core/optim/rcubic.c).  A problem
** type offers one through its manifold hook (core/problem.h); methods ask
** ol_manifold_of(p).
**
** The Riemannian metric is the Euclidean one restricted to T_x M =
** ker Dh(x), so (Absil, Mahony & Sepulchre 2008, "Optimization
** Algorithms on Matrix Manifolds", ch. 3 and 5; Boumal 2023, "An
** Introduction to Optimization on Smooth Manifolds", ch. 5 and 7, the
** Hessian of a submanifold defined by h(x) = 0 through the Lagrangian):
**   grad f(x)    = P_x(nabla f(x)) = nabla f(x) - Dh(x)^* lam,
**                  lam = (Dh Dh^*)^{-1} Dh(x)[nabla f(x)]
**   Hess f(x)[v] = P_x(nabla^2 f(x)[v] - sum_i lam_i nabla^2 h_i(x)[v])
** for v in T_x M, with the multipliers lam of nabla f itself.  proj gives
** P_x v and the multipliers; curv gives sum_i lam_i nabla^2 h_i(x)[v];
** retract a retraction R_x(v) (R_x(0) = x, DR_x(0) = id).
**
** Hooks may use scratch kept in the manifold's data: not for two threads
** at once (runs are single-threaded; see run.h).
*/
#ifndef OL_MANIFOLD_H
#define OL_MANIFOLD_H

#include "ol.h"
#include "problem.h"

#define OL_MANIFOLD_MAXRES 8

typedef struct ol_manifold {
  const char *name;          /* "kmeans" */
  int n, m;                  /* ambient dimension (p->n), equations */
  void *data;                /* the problem's (borrowed) */
  /* out = P_x v (n entries; out may be v).  lam (m entries, or NULL) gets
  ** the multipliers: v - P_x v = Dh(x)^* lam.  x must lie on M. */
  void (*proj) (const struct ol_manifold *M, const double *x,
                const double *v, double *out, double *lam);
  /* out = sum_i lam_i nabla^2 h_i(x)[v] (n entries, out != v). */
  void (*curv) (const struct ol_manifold *M, const double *x,
                const double *lam, const double *v, double *out);
  /* out = R_x(v) (n entries, out != x, v).  OL_EDOM with e set when the
  ** retraction is not defined there. */
  int (*retract) (const struct ol_manifold *M, const double *x,
                  const double *v, double *out, ol_err *e);
  /* max_i |h_i(x)|: how far x is off M. */
  double (*violation) (const struct ol_manifold *M, const double *x);
  /* Optional: nres named scalars the problem reads off a point x of M
  ** (k-means: the misclassification of the rounded partition), into
  ** vals; NULL names: none. */
  int nres;
  const char *const *resnames;
  void (*results) (const struct ol_manifold *M, const double *x,
                   double *vals);
} ol_manifold;

/* p's manifold (borrowed from p for its life), or NULL when p has none. */
static inline const ol_manifold *ol_manifold_of (const ol_problem *p)
{
  return p != NULL && p->type->manifold != NULL ? p->type->manifold(p)
                                                : NULL;
}

#endif
