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

/* The multipliers a method keeps (m = p->con.m entries, in the order of
** the constraints), or NULL when method m keeps none (every method but
** auglag and sqp).  st is the method's state. */
const double *ol_constr_lambda (const struct ol_method_type *m,
                                const void *st);
/* auglag's (core/optim/auglag.c) and sqp's (core/optim/sqp.c). */
const double *ol_auglag_lambda (const void *st);
const double *ol_sqp_lambda (const void *st);

#endif
