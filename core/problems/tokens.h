/*
** core/problems/tokens.h -- the token-sequence target of the masked
** diffusion toy (problems/tokens.c, diffusion/masked.c).
**
** L tokens over the symbols 1..V, jointly
**   p(x) = lam copy(x) + (1 - lam) V^-L,
**   copy(x) = 1/V when x_1 = ... = x_L, else 0,
** so every token is uniform and exchangeable; the total correlation
** (multi-information) sum_i H(x_i) - H(x) = L log V - H(p), in nats, is
** the problem's mi, with lam solved for it.  Marginals of a set of m
** known tokens u: p(u) = lam [u constant] / V + (1 - lam) V^-m (1 for
** m = 0), which gives every conditional in closed form.
*/
#ifndef OL_TOKENS_H
#define OL_TOKENS_H

#include "problem.h"

typedef struct ol_tokens {
  int L, V;
  double lam, mi;
} ol_tokens;

/* The target behind a problem made by problem.tokens, borrowed for the
** problem's life; NULL for every other problem. */
const ol_tokens *ol_tokens_of (const ol_problem *p);
/* p(x) of a full sequence x (L symbols in 0..V-1). */
double ol_tokens_prob (const ol_tokens *T, const int *x);
/* The conditional distribution of one more token given the known ones
** (known[j] != 0: x[j] is known): pv[v] = p(x_i = v | x_known), v in
** 0..V-1. */
void ol_tokens_cond (const ol_tokens *T, const int *x, const int *known,
                     double *pv);

#endif
