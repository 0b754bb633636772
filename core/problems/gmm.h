/*
** core/problems/gmm.h -- a Gaussian mixture with full covariances and its
** diffused marginals in closed form, shared by problems/gmm.c (the
** density problem.gmm) and the diffusion samplers (core/diffusion/).
**
** The target p = sum_k w_k N(mu_k, S_k) (k = 1..K, x in R^n).  Under a
** forward process x_t = s (x_0 + sigma z), z ~ N(0, I) (Karras et al.
** 2022, eq. 1-4: VP has s = sqrt(abar), sigma^2 = (1 - abar) / abar; VE
** s = 1), the marginal is again a mixture,
**   p_t = sum_k w_k N(s mu_k, s^2 (S_k + sigma^2 I)),
** i.e. VP: N(sqrt(abar) mu_k, abar S_k + (1 - abar) I) and VE:
** N(mu_k, S_k + sigma^2 I).  Each S_k = U_k diag(lam_k) U_k' is
** diagonalised once (LAPACKE dsyevr) when the problem is made, so a
** noise level costs K n logarithms (ol_gmm_level) and a point K n^2
** multiply-adds per pass.
*/
#ifndef OL_GMM_H
#define OL_GMM_H

#include "problem.h"

typedef struct ol_gmm {
  int n, K;
  double *w;        /* K weights, sum 1 */
  double *mu;       /* K x n means */
  double *cov;      /* K x n x n covariances, row-major */
  double *U;        /* K x n x n: column j of U_k is S_k's j-th eigenvector */
  double *lam;      /* K x n eigenvalues (> 0) */
} ol_gmm;

/* The mixture behind a problem made by problem.gmm, borrowed for the
** problem's life; NULL for every other problem. */
const ol_gmm *ol_gmm_of (const ol_problem *p);

/* The per-level constants of p_t at (s, sigma^2): lv needs
** ol_gmm_levelsize(G) doubles, filled with the K n inverse variances
** 1 / (s^2 (lam_kj + sigma^2)) then the K log normalisers
** log w_k - 1/2 sum_j log(2 pi s^2 (lam_kj + sigma^2)). */
int ol_gmm_levelsize (const ol_gmm *G);
void ol_gmm_level (const ol_gmm *G, double s, double sig2, double *lv);
/* log p_t(x) at the level lv (from ol_gmm_level with this s); the score
** grad log p_t(x) into score (n) and the responsibilities
** w_k N_k(x) / p_t(x) into resp (K), each when not NULL.  work needs
** ol_gmm_worksize(G) doubles.  Never fails (log-sum-exp from the largest
** term). */
int ol_gmm_worksize (const ol_gmm *G);
double ol_gmm_eval (const ol_gmm *G, const double *lv, double s,
                    const double *x, double *score, double *resp,
                    double *work);

#endif
