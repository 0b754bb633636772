/*
** core/sample/mass.h -- the mass matrix M of the gradient samplers (hmc,
** nuts, mala): unit, diagonal or dense, kept as its inverse M^-1 (the
** "inverse metric" of Stan, the covariance the warmup estimates).
**
** Diagonal: minv = diag(M^-1).  Dense: A = M^-1 (n x n, row-major,
** symmetric positive definite) and its Cholesky factor A = L L' (L lower,
** LAPACK dpotrf), minv then holding diag(A) for readers of the diagonal.
** The operations, for either form:
**   sharp     M^-1 p                               (A p, dsymv)
**   kinetic   1/2 p' M^-1 p
**   momentum  p ~ N(0, M):   p = L^-T xi           (Stan's dense_e_metric)
**   noise     v ~ N(0, M^-1): v = L xi              (MALA's proposal)
**   quad      r' M r = ||L^-1 r||^2                 (MALA's proposal density)
** with xi ~ N(0, I); on the diagonal L = diag(sqrt(minv)).
**
** Ownership: minv is borrowed (the sampler head's array, which outlives
** the mass); A, L and the scratch are owned, allocated by ol_mass_init
** only when dense; the operations never allocate.
*/
#ifndef OL_SAMPLE_MASS_H
#define OL_SAMPLE_MASS_H

#include "ol.h"
#include "rng.h"

typedef struct ol_mass {
  int n;
  int dense;            /* 1: A and L are used */
  int unit;             /* 1: M = I (diagonal, every minv 1): the
                           operations skip their products (same values) */
  double *minv;         /* diag(M^-1), n (borrowed) */
  double *A, *L;        /* dense: M^-1 and its Cholesky factor, n x n */
  double *w;            /* dense: n of scratch */
} ol_mass;

/* A mass over minv (n entries, set to ones here); dense = 1 makes it dense
** with A = L = I.  OL_ENOMEM with e set (ol_mass_fini then frees what was
** made). */
int ol_mass_init (ol_mass *m, int n, double *minv, int dense, ol_err *e);
void ol_mass_fini (ol_mass *m);     /* copes with a zeroed struct */
/* Dense: A becomes a copy of a (n x n, symmetric), factorised; minv gets
** its diagonal.  OL_ENUMERIC when a is not positive definite or not
** finite, OL_EINTR when Ctrl-C came during a large factorisation (the
** mass is then unchanged); OL_ENOMEM.  Diagonal: minv becomes diag(a). */
int ol_mass_set (ol_mass *m, const double *a, ol_err *e);
/* After minv was written directly (ol_sampler_set_metric, a diagonal
** window): a dense mass becomes diag(minv); unit is recomputed. */
void ol_mass_from_diag (ol_mass *m);

void ol_mass_sharp (const ol_mass *m, const double *p, double *ps);
double ol_mass_kinetic (const ol_mass *m, const double *p);
/* Both in one pass (one dsymv when dense): ps = M^-1 p, returns
** 1/2 p' ps. */
double ol_mass_sharp_kinetic (const ol_mass *m, const double *p, double *ps);
void ol_mass_momentum (const ol_mass *m, ol_rng *r, double *p);
/* v = L xi for a given xi (n each; v and xi distinct). */
void ol_mass_noise (const ol_mass *m, const double *xi, double *v);
/* r' M r; w: n of scratch (may be m's own when the caller does not use
** it meanwhile: pass NULL). */
double ol_mass_quad (const ol_mass *m, const double *r, double *w);

#endif
