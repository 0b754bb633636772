/*
** core/problems/tokens.c -- problem.tokens: L tokens over V symbols with
** a tunable total mutual information, the target of the masked-diffusion
** toy (tokens.h; the catalogue's T32, after its B063, a convergence
** analysis of diffusion language models: KL ~ mi / T).
**
** p = lam copy + (1 - lam) uniform (tokens.h).  The total correlation
**   mi(lam) = L log V - H(p_lam),
**   H(p_lam) = -V a log a - (V^L - V) b log b,
**   a = lam / V + (1 - lam) V^-L (constant sequences),
**   b = (1 - lam) V^-L (the others),
** rises from 0 (lam = 0) to (L - 1) log V (lam = 1); lam is found by
** bisection to 1e-15.  As a density on R^L, x is rounded to the nearest
** sequence in {1..V}^L (coordinates clamped): U(x) = -log p(round(x)),
** grad U = 0 (only diffusion.masked uses the target's structure).
** x0 = (1, ..., 1).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ol.h"
#include "problem.h"
#include "problems/tokens.h"

#define TOK_MAXSTATES 4096

typedef struct tok_ud {
  ol_tokens T;
  int *seq;      /* L scratch */
} tok_ud;

double ol_tokens_prob (const ol_tokens *T, const int *x)
{
  int j, same = 1;
  for (j = 1; j < T->L; j++) same &= x[j] == x[0];
  return T->lam * same / T->V + (1 - T->lam) * pow(T->V, -T->L);
}

void ol_tokens_cond (const ol_tokens *T, const int *x, const int *known,
                     double *pv)
{
  int j, v, m = 0, same = 1, c = -1;
  double pu, V = T->V;
  for (j = 0; j < T->L; j++)
    if (known[j]) {
      if (c < 0) c = x[j];
      same &= x[j] == c;
      m++;
    }
  if (m == 0) {
    for (v = 0; v < T->V; v++) pv[v] = 1 / V;
    return;
  }
  pu = T->lam * same / V + (1 - T->lam) * pow(V, -m);
  for (v = 0; v < T->V; v++)
    pv[v] = (T->lam * (same && v == c) / V
             + (1 - T->lam) * pow(V, -(m + 1))) / pu;
}

/* mi(lam) in nats */
static double tok_mi (int L, int V, double lam)
{
  double N = pow(V, L), a = lam / V + (1 - lam) / N, b = (1 - lam) / N;
  double H = -V * a * log(a) - (b > 0 ? (N - V) * b * log(b) : 0);
  return L * log((double)V) - H;
}

static int tok_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  tok_ud *M = ud;
  int j;
  (void)e;
  for (j = 0; j < M->T.L; j++) {
    double r = floor(x[j] + 0.5);
    if (!(r >= 1)) r = 1;                  /* nan too */
    if (r > M->T.V) r = M->T.V;
    M->seq[j] = (int)r - 1;
    if (g != NULL) g[j] = 0;
  }
  if (f != NULL) *f = -log(ol_tokens_prob(&M->T, M->seq));
  return OL_OK;
}

/* The tokens hook of problem.tokens: the target in its ud. */
static const ol_tokens *tok_of (const ol_problem *p)
{
  return p->ud != NULL ? &((const tok_ud *)p->ud)->T : NULL;
}

const ol_tokens *ol_tokens_of (const ol_problem *p)
{
  if (p == NULL || p->type->tokens == NULL) return NULL;
  return p->type->tokens(p);
}

static void tok_free (void *ud)
{
  tok_ud *M = ud;
  if (M == NULL) return;
  free(M->seq);
  free(M);
}

static const ol_param tok_params[] = {
  {"L", OL_P_INT, 4, 1, 6, "sequence length", NULL},
  {"V", OL_P_INT, 3, 2, 16, "vocabulary size (V^L <= 4096)", NULL},
  {"mi", OL_P_REAL, 0.5, 0, 1e3, "total mutual information sum_i H(x_i) "
   "- H(x) in nats, in [0, (L - 1) log V]", NULL},
};

static int tok_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int L = (int)v[0].num, V = (int)v[1].num, j, it;
  double mi = v[2].num, lo = 0, hi = 1, mx;
  tok_ud *M;
  if (pow(V, L) > TOK_MAXSTATES)
    return ol_err_set(e, OL_EINVAL, "tokens: V^L = %.0f states is above %d",
                      pow(V, L), TOK_MAXSTATES);
  mx = (L - 1) * log((double)V);
  if (mi > mx * (1 + 1e-12))
    return ol_err_set(e, OL_EINVAL, "tokens: mi = %g is above (L - 1) log V "
                      "= %.6g, the most L = %d tokens over V = %d can share",
                      mi, mx, L, V);
  /* (1) lam with mi(lam) = mi: mi rises with lam */
  for (it = 0; it < 200 && hi - lo > 1e-15; it++) {
    double mid = 0.5 * (lo + hi);
    if (tok_mi(L, V, mid) < mi) lo = mid;
    else hi = mid;
  }
  if ((M = calloc(1, sizeof *M)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  p->ud = M;
  p->free_ud = tok_free;
  M->T.L = L;
  M->T.V = V;
  M->T.lam = mi == 0 ? 0 : mi >= mx ? 1 : 0.5 * (lo + hi);
  M->T.mi = mi;
  if ((M->seq = malloc((size_t)L * sizeof *M->seq)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  if ((p->x0 = ol_problem_alloc(L, e)) == NULL) return OL_ENOMEM;
  for (j = 0; j < L; j++) p->x0[j] = 1;
  snprintf(p->name, sizeof p->name, "tokens");
  p->kind = OL_DENSITY;
  p->n = L;
  p->fdf = tok_fdf;
  snprintf(p->desc, sizeof p->desc, "tokens{L=%d, V=%d, mi=%g}", L, V, mi);
  return OL_OK;
}

const ol_problem_type ol_problem_tokens = {
  .name = "tokens",
  .kind = OL_DENSITY,
  .doc = "L tokens over V symbols, copy + independent mixture with total "
         "mutual information mi: masked diffusion's target",
  .ref = "a toy after the catalogue's B063 (diffusion LMs: KL ~ mi / T)",
  .params = tok_params,
  .nparams = (int)(sizeof tok_params / sizeof tok_params[0]),
  .create = tok_create,
  .tokens = tok_of,
};
