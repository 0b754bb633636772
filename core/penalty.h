/*
** core/penalty.h -- the separable composite term h(x) = sum_i phi(|x_i|)
** of F = f + h: its kinds (a table each), value and exact proximal map.
**
** A problem's composite term is its weight p->l1 = lambda (0: none) and
** its shape p->pen (NULL: the l1 norm, phi(t) = lambda t) with the shape
** parameter p->pen_a.  Every composite method and metric asks these
** functions, never the shape by name:
**   l1    phi(t) = lambda t                            (Tibshirani 1996)
**   scad  phi(t) = lambda t                     t <= lambda
**                = (2 a lambda t - t^2 - lambda^2) / (2 (a - 1))
**                                               lambda < t <= a lambda
**                = lambda^2 (a + 1) / 2         t > a lambda
**         a > 2 (Fan & Li 2001, JASA 96, Section 2; a = 3.7 their
**         choice), a
**         nonconvex penalty: continuous, C^1 for t > 0, phi'' >= -1/(a-1).
** The prox of step s is argmin_u (u - v)^2 / (2 s) + phi(|u|), coordinate
** by coordinate.  For SCAD with s < a - 1 the objective is strictly convex
** on each piece and the minimiser is Fan & Li's thresholding rule (their
** Section 2, for s = 1) written for a step s:
**   u = sign(v) max(|v| - s lambda, 0)                |v| <= (1 + s) lambda
**     = sign(v) ((a - 1)|v| - s a lambda) / (a - 1 - s)
**                                      (1 + s) lambda < |v| <= a lambda
**     = v                                             |v| > a lambda
** For s >= a - 1 the middle piece is concave (or linear) and the map can
** jump; the prox is then the best of the candidate minimisers of the
** three pieces (each piece's stationary point clamped to it, and the
** break points), the smallest |u| on a tie.
*/
#ifndef OL_PENALTY_H
#define OL_PENALTY_H

#include "problem.h"

typedef struct ol_penalty {
  const char *name;      /* Lua: penalty = "<name>" */
  const char *doc;       /* one line */
  const char *ref;       /* paper, year, equation */
  double adef;           /* default shape parameter a (0: takes none) */
  double alo;            /* a must exceed alo */
  /* phi(t; lam, a) for t = |x_i| >= 0 */
  double (*value) (double t, double lam, double a);
  /* argmin_u (u - v)^2 / (2 step) + phi(|u|; lam, a), step > 0 */
  double (*prox) (double v, double lam, double a, double step);
  /* sum_i phi(|x_i|) and the prox on a vector in place: the loops, so
  ** the l1 kind keeps its arithmetic (lam times the sum of |x_i|) */
  double (*sum) (const double *x, int n, double lam, double a);
  void (*proxv) (double *x, int n, double lam, double a, double step);
  /* The derivative at t > 0 of the concave part q(t) = phi(t) - lam t,
  ** for a penalty that is lam |t| plus a smooth concave q (SCAD: q' =
  ** (lam - t)/(a - 1) on (lam, a lam], -lam beyond, 0 below; |q''| <=
  ** 1/(a - 1)); NULL when phi is lam t itself. */
  double (*dconcave) (double t, double lam, double a);
  /* That q'' bound, 1/(a - 1) for SCAD: the Lipschitz constant q' adds
  ** to grad f's */
  double (*lconcave) (double a);
} ol_penalty;

extern const ol_penalty ol_penalty_l1;
extern const ol_penalty ol_penalty_scad;
/* Every kind, NULL-ended, in the order help lists them. */
extern const ol_penalty *const ol_penalties[];

/* The kind called name, or NULL. */
const ol_penalty *ol_penalty_find (const char *name);
/* p's kind (ol_penalty_l1 when p->pen is NULL), never NULL. */
const ol_penalty *ol_penalty_of (const ol_problem *p);

/* h(x) = sum_i phi(|x_i|) of p's composite term; 0 when p->l1 == 0.  For
** the l1 kind computed as l1 * sum |x_i| (the sum in index order). */
double ol_penalty_sum (const ol_problem *p, const double *x, int n);
/* The prox of step * h on x in place (x_i <- prox(x_i)); no-op when
** p->l1 == 0 or step == 0.  The l1 kind is soft thresholding at
** step * l1. */
void ol_penalty_prox (const ol_problem *p, double *x, int n, double step);
/* One coordinate's prox, as ol_penalty_prox does it. */
double ol_penalty_prox1 (const ol_problem *p, double v, double step);

/* The difference-of-convex split h = l1 ||x||_1 + Q(x), Q = sum_i
** q(|x_i|) smooth and concave: g += grad Q(x) (x_i = 0 adds 0); returns
** the Lipschitz constant of grad Q (0 for the l1 kind, which adds
** nothing). */
double ol_penalty_concave_grad (const ol_problem *p, const double *x, int n,
                                double *g);

/* SCAD itself (t >= 0, lam >= 0, a > 2) and its prox for any step > 0
** (the closed form for step < a - 1, the piece comparison otherwise). */
double ol_scad (double t, double lam, double a);
double ol_scad_prox (double v, double lam, double a, double step);
/* The same prox always by the piece comparison (tests compare the two). */
double ol_scad_prox_pieces (double v, double lam, double a, double step);

#endif
