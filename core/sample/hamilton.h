/*
** core/sample/hamilton.h -- Hamiltonian dynamics shared by hmc and nuts:
** phase-space points, the Euclidean kinetic energy with a unit, diagonal
** or dense metric (mass.h), the leapfrog integrator and Stan's heuristic
** for a first step size.
**
** With potential U(q) = -log p(q) and a mass matrix M (inverse metric
** M^-1: its diagonal minv, or dense, mass.h) the Hamiltonian is
**   H(q, p) = U(q) + 1/2 p' M^-1 p,      p ~ N(0, M)
** and one leapfrog step of size eps (Neal 2011, "MCMC using Hamiltonian
** dynamics", Handbook of MCMC ch. 5, eq. 5.18-5.20) is
**   p <- p - eps/2 grad U(q);  q <- q + eps M^-1 p;  p <- p - eps/2 grad U(q)
** It is symplectic and time-reversible: steps with -eps undo steps with
** eps up to rounding.  Each step costs one oracle call (value and
** gradient at the new q, through ol_ctx_grad).
**
** A point keeps q, p, grad U(q) and U(q); the gradient on entry to a
** leapfrog step must be the one at q.  Points own their arrays.
*/
#ifndef OL_SAMPLE_HAMILTON_H
#define OL_SAMPLE_HAMILTON_H

#include "adapt.h"
#include "mass.h"
#include "method.h"
#include "stats.h"

typedef struct ol_hpoint {
  double *q, *p, *g;    /* position, momentum, grad U(q); n each */
  double U;             /* U(q); +inf after a non-finite evaluation */
  double Ubad;          /* after one: the value the oracle gave (NaN,
                           +-inf; finite when the gradient was not) */
} ol_hpoint;

/* Arrays for a point of dimension n (zeroed).  OL_ENOMEM with e set; the
** arrays made so far stay for ol_hpoint_fini. */
int ol_hpoint_init (ol_hpoint *z, int n, ol_err *e);
void ol_hpoint_fini (ol_hpoint *z);   /* copes with a zeroed point */
void ol_hpoint_copy (ol_hpoint *dst, const ol_hpoint *src, int n);
/* Exchange the contents (arrays included) of two points: O(1). */
static inline void ol_hpoint_swap (ol_hpoint *a, ol_hpoint *b)
{
  ol_hpoint t = *a;
  *a = *b;
  *b = t;
}

/* H = U + 1/2 p' M^-1 p; +inf when it is not finite (NaN included), so
** that a broken state has zero weight. */
double ol_ham_energy (const ol_hpoint *z, const ol_mass *m);

/* One leapfrog step of size eps (negative: backwards in time) on z.
** OL_OK; OL_EDOM with e set and z->U = +inf when the oracle gives a
** non-finite value or gradient (z's arrays are then unspecified); any
** other oracle code passed through. */
int ol_ham_leapfrog (ol_ctx *c, ol_hpoint *z, const ol_mass *m,
                     double eps, ol_err *e);

/* Stan's init_stepsize (base_hmc.hpp): from the state z0 (q, g, U; its p
** is not read), double *eps while one leapfrog step from a fresh momentum
** keeps exp(H0 - H) above 0.8, or halve it while it stays below, and stop
** at the first step size that crosses; z is scratch.  Skipped when *eps
** is 0, NaN or above 1e7.  OL_ENUMERIC when eps passes 1e7 ("improper
** posterior") or reaches 0; oracle errors other than non-finite values
** (which count as H = +inf) are passed through. */
int ol_ham_init_stepsize (ol_ctx *c, const ol_hpoint *z0, ol_hpoint *z,
                          const ol_mass *m, double *eps, ol_err *e);

/* The end of an HMC-family step at the chain's state cur: during warmup,
** adapt the step size *eps to the step's acceptance statistic accept and,
** at the end of a metric window, set the new metric in h->mass (diagonal
** or dense) and restart from a new heuristic step size (z: scratch);
** count the step in h; hand U and grad U at cur to the run.  OL_OK, an
** oracle's error, or OL_ENUMERIC for a dense estimate that is not
** positive definite (it cannot be, regularised; kept for safety). */
int ol_ham_step_end (ol_ctx *c, ol_sampler_head *h, ol_adapt *ad,
                     const ol_hpoint *cur, ol_hpoint *z, double *eps,
                     double accept, ol_err *e);

#endif
