/*
** core/constr.h -- general constraints: evaluation with finite
** differences, and IPOPT's optimality error (Waechter & Biegler 2006,
** "On the implementation of an interior-point filter line-search
** algorithm for large-scale nonlinear programming", Math. Program. 106,
** eqs. (5)-(6)) for
**
**   min f(x)  s.t.  c_i(x) = 0 (i in E),  c_i(x) >= 0 (i in I),
**                   lo <= x <= hi  (the problem's box set, if any)
**
** with multipliers lambda (lambda_i >= 0 for i in I) and bound
** multipliers z_l, z_u >= 0 such that
**   grad f - sum_i lambda_i grad c_i - z_l + z_u = 0.
*/
#ifndef OL_CONSTR_H
#define OL_CONSTR_H

#include "problem.h"

struct ol_method_type;

/* Constraint i of p at x: value into *c (c may be NULL), gradient into g
** (n entries, may be NULL).  A constraint without a gradient oracle
** (p->con.fd[i]) gets central differences of its value, step h_j =
** cbrt(eps) max(1, |x_j|) over the exact representable step (as
** ol_problem_eval), 2n value calls; work needs n doubles then.  *nval and
** *ngrad (may be NULL) are increased by the value calls made and by 1
** per gradient.  OL_EDOM when a result is not finite. */
int ol_problem_ceval (const ol_problem *p, int i, const double *x,
                      double *c, double *g, double *work, long *nval,
                      long *ngrad, ol_err *e);

/* The parts of IPOPT's overall NLP error E_0 at (x, lambda, z), eq. (5)
** with mu = 0, the bound multipliers z fitted to the given lambda: with
** r = grad f - sum_i lambda_i grad c_i, z_l,i = r_i / (1 + x_i - lo_i)
** where r_i > 0 and lo_i is finite, z_u,i = -r_i / (1 + hi_i - x_i)
** where r_i < 0 and hi_i is finite, 0 otherwise (the z that makes the
** coordinate's stationarity and complementarity residuals equal, both
** |r_i| d / (1 + d) at gap d: 0 on an active bound, |r_i| far from
** one), so
**   stat = ||r - z_l + z_u||_inf                (dual infeasibility)
**   feas = max(max_E |c_i|, max_I max(0, -c_i), bound violation)
**   comp = max(max_I |lambda_i c_i|, max_j z_l,j (x_j - lo_j),
**              max_j z_u,j (hi_j - x_j))
**   err  = max(stat / s_d, feas, comp / s_c), eq. (5), with eq. (6)
**   s_d = max(s_max, (||lambda||_1 + ||z_l||_1 + ||z_u||_1) / (m + n))
**         / s_max,
**   s_c = max(s_max, (||z_l||_1 + ||z_u||_1 + ||lambda_I||_1)
**         / (n + m_I)) / s_max,   s_max = 100
** (the inequalities' multipliers play the part of IPOPT's slack
** multipliers).  lambda NULL: unknown, and stat, comp, err are NAN. */
typedef struct ol_kkt {
  double stat, feas, comp, err, sd, sc;
  long nval, ngrad;     /* constraint value calls (a finite-difference
                           gradient's 2n included) and gradients it made:
                           the caller counts them (issue 22) */
} ol_kkt;
/* g = grad f(x); work needs 3n doubles.  OL_OK or the constraint
** oracle's code. */
int ol_constr_kkt (const ol_problem *p, const double *x, const double *g,
                   const double *lambda, ol_kkt *k, double *work,
                   ol_err *e);

/* ol_constr_kkt of the scaled problem min sf f(x) s.t. sc_i c_i(x) = 0
** or >= 0 (gradient-based scaling, Waechter & Biegler 2006, sec. 3.8):
** g and lambda are the scaled problem's (g = sf grad f); sc NULL: all 1.
** ol_constr_kkt(p, ...) is ol_constr_kkt_scaled(p, ..., NULL, ...). */
int ol_constr_kkt_scaled (const ol_problem *p, const double *x,
                          const double *g, const double *lambda,
                          const double *sc, ol_kkt *k, double *work,
                          ol_err *e);

/* IPOPT's gradient-based scaling factor of a function whose gradient at
** the start has max norm gmax: min(1, 100 / gmax) (nlp_scaling_max_gradient
** = 100; 1 when gmax is 0 or not finite). */
double ol_constr_scale (double gmax);

/* The bound multipliers z_l, z_u >= 0 (n each) fitted to the residual r =
** grad f - sum lambda_i grad c_i at x as ol_constr_kkt fits them: z_l,j =
** r_j / (1 + x_j - lo_j) where r_j > 0 and lo_j is finite, z_u,j = -r_j /
** (1 + hi_j - x_j) where r_j < 0 and hi_j is finite, else 0 (at an active
** bound z is r_j itself, IPOPT's z_L, z_U). */
void ol_constr_zfit (const ol_problem *p, const double *x, const double *r,
                     double *zl, double *zu);

/* IPOPT's bound push (Waechter & Biegler 2006, sec. 3.6; options
** bound_push = bound_frac = 1e-2) applied to a start outside the box:
** a coordinate below lo_j (above hi_j) is moved to lo_j + p_L (hi_j -
** p_U), p_L = min(k1 max(1, |lo_j|), k2 (hi_j - lo_j)), p_U =
** min(k1 max(1, |hi_j|), k2 (hi_j - lo_j)), k1 = k2 = 1e-2.  Coordinates
** on or inside their bounds are kept (an active-set or penalty method
** needs no interior start).  Returns the number of coordinates moved and
** names the first in note (size bytes; "" when none). */
int ol_constr_push (const ol_problem *p, double *x, char *note, size_t size);

/* Feasibility restoration: minimise h(x) = 1/2 sum_E (sc_i c_i)^2 + 1/2
** sum_I min(0, sc_i c_i)^2 over the box (p's set, if any) from x by the
** spectral projected gradient method (Birgin, Martinez & Raydan 2000,
** "Nonmonotone spectral projected gradient methods on convex sets", SIAM
** J. Optim. 10, Algorithm SPG2 with the monotone Armijo test), at most
** maxit iterations; it stops at h = 0, at a projected gradient
** ||P(x - grad h) - x||_inf <= 1e-10 max(1, its value at the start), or
** when h decreases by less than 1e-14 h relative over 20 iterations.  x
** is replaced by the point reached; *viol gets its violation max(max_E
** |c_i|, max_I max(0, -c_i)), unscaled.  sc NULL: 1.  work: 6n doubles.
** *nval, *ngrad count the constraint calls as ol_problem_ceval.  OL_OK or
** the constraint oracle's code. */
int ol_constr_restore (const ol_problem *p, double *x, const double *sc,
                       int maxit, double *viol, double *work, long *nval,
                       long *ngrad, ol_err *e);
/* The violation a restoration must leave for a problem to be called
** infeasible: a minimum of the violation above it is positive. */
#define OL_CONSTR_INFEAS 1e-6

/* The multipliers a method keeps (m = p->con.m entries, in the order of
** the constraints), or NULL when method m keeps none (every method but
** auglag and sqp).  st is the method's state. */
const double *ol_constr_lambda (const struct ol_method_type *m,
                                const void *st);
/* auglag's (core/optim/auglag.c) and sqp's (core/optim/sqp.c). */
const double *ol_auglag_lambda (const void *st);
const double *ol_sqp_lambda (const void *st);
/* The bound multipliers z_l (which = 0) or z_u (which = 1) at the method's
** current x, n entries, or NULL as ol_constr_lambda. */
const double *ol_constr_z (const struct ol_method_type *m, const void *st,
                           int which);
const double *ol_auglag_z (const void *st, int which);
const double *ol_sqp_z (const void *st, int which);

#endif
