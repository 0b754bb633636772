/*
** core/games/clipvi.h -- what clipped SEG and clipped SGDA share
** (games/clipseg.c, games/clipsgda.c): the clipping level's schedule and
** parameters, and the clip factor min(1, lambda / ||v||) of
** clip(v, lambda) = min(1, lambda / ||v||) v.
*/
#ifndef OL_CLIPVI_H
#define OL_CLIPVI_H

#include <math.h>

#include "vec.h"

/* Parameters 1 and 2 of both methods (after lr); what lambda = inf stands
** for ("game.eg", "game.gda") is in the text. */
#define OL_CLIPVI_PARAMS(plain) \
  {"lambda", OL_P_REAL, 1, OL_GT0, INFINITY, "clipping level of each " \
   "operator sample (inf: no clipping, " plain ")", NULL}, \
  {"mu", OL_P_REAL, 0, 0, OL_FINITE, "level schedule lambda_k = lambda " \
   "exp(-lr mu k / 2) (0: constant; positive: the strongly monotone one)", NULL}

/* The level of step k: exactly lambda when mu = 0. */
static inline double ol_clipvi_level (double lambda, double lr, double mu,
                                      long k)
{
  return mu > 0 ? lambda * exp(-lr * mu * (double)k / 2) : lambda;
}

/* min(1, l / ||v||): the factor clip(v, l) scales v by. */
static inline double ol_clipvi_factor (const double *v, int n, double l)
{
  double vn = ol_vec_nrm2(v, n);
  return vn > l ? l / vn : 1;
}

#endif
