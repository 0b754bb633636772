/*
** core/optim/lmem.h -- the limited memory of the L-BFGS methods (lbfgs.c,
** and auglag.c's inner solver): m pairs s = x_k+1 - x_k, y = g_k+1 - g_k
** in ring buffers, the two-loop recursion (Nocedal & Wright 2006,
** Algorithm 7.4) with H_0 = gamma I, gamma = s'y / y'y of the newest pair
** (eq. 7.20), and the pair update that skips a pair whose curvature
** s'y <= skip sqrt(s's y'y) (section 7.2).
*/
#ifndef OL_LMEM_H
#define OL_LMEM_H

#include "ol.h"

typedef struct ol_lmem {
  int m, cnt, head;     /* memory size, pairs held, newest slot */
  double gamma;         /* s'y / y'y of the newest pair */
  double *S, *Y;        /* m x n each */
  double *rho, *al;     /* m each: 1 / s'y, the recursion's alphas */
} ol_lmem;

/* m pairs of n-vectors, none held; OL_ENOMEM (partial allocations are
** freed by ol_lmem_fini). */
int ol_lmem_init (ol_lmem *L, int m, int n, ol_err *e);
void ol_lmem_fini (ol_lmem *L);
/* d := H d by the two-loop recursion (d is unchanged when no pair is
** held). */
void ol_lmem_apply (ol_lmem *L, double *d, int n);
/* The slots the next pair is written into before ol_lmem_push. */
double *ol_lmem_snext (const ol_lmem *L, int n);
double *ol_lmem_ynext (const ol_lmem *L, int n);
/* Keep the pair written into the next slots unless its curvature is too
** small; 1 when kept. */
int ol_lmem_push (ol_lmem *L, int n, double skip);

#endif
