/*
** core/diffusion/masked.c -- masked (absorbing-state) discrete diffusion
** on problem.tokens, with the exact conditional marginals: every sequence
** starts fully masked, and in each of T = steps rounds a random set of
** still-masked positions is unmasked, each token drawn independently
** from its conditional given the tokens unmasked in earlier rounds
** ("parallel token sampling": the catalogue's B063, after Austin et al.
** 2021's absorbing-state D3PM).
**
** Rounds: L = T q + r tokens, the first r rounds unmask q + 1, the others
** q (T <= L; T = L is one token a round, which samples p exactly by the
** chain rule; T = 1 draws every token from its marginal).  The output law
** q_T(x) = E over the positions' order [prod_rounds prod_{i in round}
** p(x_i | tokens of earlier rounds)] is enumerated exactly over the L!
** orders and the V^L sequences when the run starts, and the metrics are
** its own, constant over the run:
**   kl       KL(p || q_T) = sum_x p(x) log(p(x) / q_T(x)) (0 for mi = 0;
**            mi for T = 1: q_1 is the product of the marginals);
**   tv       1/2 sum_x |p(x) - q_T(x)|;
**   entropy  H(q_T) = -sum_x q_T(x) log q_T(x).
** Particles (samples: N sequences, symbols 1..V, 0 still masked) follow
** the same rounds; one run iteration = one round for all of them; c->x is
** their mean symbol.  The run stops after T rounds.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diffuse.h"
#include "problems/tokens.h"
#include "vec.h"

typedef struct masked_state {
  const ol_tokens *T;
  int L, V, steps, r, N, nst;
  int next;             /* first sequence the round has not drawn (> 0
                           after Ctrl-C inside a round: resumed there) */
  int *size;            /* tokens unmasked in each round (steps) */
  double *x;            /* N x L symbols 1..V, 0 masked */
  int *seq, *known, *perm, *free_;   /* L scratch each */
  double *pv;           /* V scratch */
  double *q;            /* V^L: q_T */
  double kl, tv, ent;
} masked_state;

static const ol_param masked_params[] = {
  {"steps", OL_P_INT, 2, 1, 6, "unmasking rounds T (<= L)", NULL},
  {"samples", OL_P_INT, 1000, 1, 1e7, "sequences (the run option samples "
   "sets it)", NULL},
};

/* state index -> symbols (base V, first token most significant) */
static void decode (int s, int L, int V, int *x)
{
  int j;
  for (j = L - 1; j >= 0; j--) {
    x[j] = s % V;
    s /= V;
  }
}

/* Next permutation in lexicographic order; 0 after the last. */
static int nextperm (int *a, int L)
{
  int i = L - 2, j, t;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return 0;
  for (j = L - 1; a[j] <= a[i]; j--) {}
  t = a[i]; a[i] = a[j]; a[j] = t;
  for (i++, j = L - 1; i < j; i++, j--) {
    t = a[i]; a[i] = a[j]; a[j] = t;
  }
  return 1;
}

/* (1) q_T by enumeration over the orders and the sequences */
static void enumerate (masked_state *S)
{
  int L = S->L, st, j, r, k, nperm = 0;
  for (st = 0; st < S->nst; st++) S->q[st] = 0;
  for (j = 0; j < L; j++) S->perm[j] = j;
  do {
    nperm++;
    for (st = 0; st < S->nst; st++) {
      double pr = 1;
      decode(st, L, S->V, S->seq);
      for (j = 0; j < L; j++) S->known[j] = 0;
      for (r = 0, k = 0; r < S->steps; r++) {
        int a;
        for (a = 0; a < S->size[r]; a++) {
          ol_tokens_cond(S->T, S->seq, S->known, S->pv);
          pr *= S->pv[S->seq[S->perm[k + a]]];
        }
        for (a = 0; a < S->size[r]; a++) S->known[S->perm[k + a]] = 1;
        k += S->size[r];
      }
      S->q[st] += pr;
    }
  } while (nextperm(S->perm, L));
  for (st = 0; st < S->nst; st++) S->q[st] /= nperm;
  /* (2) the metrics of q_T against p */
  S->kl = S->tv = S->ent = 0;
  for (st = 0; st < S->nst; st++) {
    double p, q = S->q[st];
    decode(st, L, S->V, S->seq);
    p = ol_tokens_prob(S->T, S->seq);
    if (p > 0) S->kl += p * log(p / q);
    S->tv += fabs(p - q);
    if (q > 0) S->ent -= q * log(q);
  }
  S->kl = fmax(S->kl, 0);
  S->tv *= 0.5;
}

static int masked_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  masked_state *S = st;
  int j, L, r;
  S->T = ol_tokens_of(c->p);
  if (S->T == NULL)
    return ol_err_set(e, OL_EINVAL, "masked needs a token-sequence target "
                      "made by problem.tokens{} (%s is not one)",
                      c->p->name);
  S->L = L = S->T->L;
  S->V = S->T->V;
  S->steps = (int)par[0];
  S->N = (int)par[1];
  if (S->steps > L)
    return ol_err_set(e, OL_EINVAL, "masked: steps = %d is above L = %d "
                      "(each round unmasks at least one token)", S->steps,
                      L);
  if ((double)S->N * L > 1e8)
    return ol_err_set(e, OL_EINVAL, "masked: samples L is above 1e8");
  S->nst = (int)pow(S->V, L);
  if ((S->size = calloc((size_t)S->steps, sizeof *S->size)) == NULL
      || (S->seq = calloc((size_t)L, sizeof(int))) == NULL
      || (S->known = calloc((size_t)L, sizeof(int))) == NULL
      || (S->perm = calloc((size_t)L, sizeof(int))) == NULL
      || (S->free_ = calloc((size_t)L, sizeof(int))) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  if ((S->x = ol_vec_new(S->N * L, e)) == NULL
      || (S->pv = ol_vec_new(S->V, e)) == NULL
      || (S->q = ol_vec_new(S->nst, e)) == NULL)
    return OL_ENOMEM;
  for (r = 0; r < S->steps; r++)
    S->size[r] = L / S->steps + (r < L % S->steps);
  enumerate(S);
  for (j = 0; j < L; j++) c->x[j] = 0;
  return OL_OK;
}

static int masked_step (void *st, ol_ctx *c, ol_err *e)
{
  masked_state *S = st;
  int i, j, a, L = S->L;
  for (i = S->next; i < S->N; i++) {
    double *x = S->x + (size_t)i * L;
    int nf = 0;
    /* N up to 1e7: Ctrl-C inside a round ends the run there */
    if ((i & 4095) == 0 && i > S->next && ol_interrupted()) {
      S->next = i;
      return ol_err_set(e, OL_EINTR, "interrupted in round %d after %d of "
                        "%d sequences: the samples are of two consecutive "
                        "rounds", S->r + 1, i, S->N);
    }
    /* (1) the tokens known before this round, and the masked positions */
    for (j = 0; j < L; j++) {
      S->known[j] = x[j] > 0;
      S->seq[j] = x[j] > 0 ? (int)x[j] - 1 : 0;
      if (!S->known[j]) S->free_[nf++] = j;
    }
    /* (2) size[r] of them uniformly (partial Fisher-Yates), each drawn
    ** from its conditional given the earlier rounds' tokens */
    for (a = 0; a < S->size[S->r]; a++) {
      int b = a + (int)(ol_rng_uniform(c->rng) * (nf - a)), t, v;
      double u, cum = 0;
      if (b >= nf) b = nf - 1;
      t = S->free_[a]; S->free_[a] = S->free_[b]; S->free_[b] = t;
      ol_tokens_cond(S->T, S->seq, S->known, S->pv);
      u = ol_rng_uniform(c->rng);
      for (v = 0; v < S->V - 1 && (cum += S->pv[v]) <= u; v++) {}
      x[S->free_[a]] = v + 1;
    }
  }
  S->next = 0;
  for (j = 0; j < L; j++) {
    double m = 0;
    for (i = 0; i < S->N; i++) m += S->x[(size_t)i * L + j];
    c->x[j] = m / S->N;
  }
  S->r++;
  if (S->r >= S->steps) {
    char why[96];
    snprintf(why, sizeof why, "all %d tokens unmasked in %d rounds", L,
             S->steps);
    ol_ctx_converged(c, why);
  }
  return OL_OK;
}

static void masked_fini (void *st)
{
  masked_state *S = st;
  free(S->size);
  free(S->seq);
  free(S->known);
  free(S->perm);
  free(S->free_);
  ol_vec_free(S->x);
  ol_vec_free(S->pv);
  ol_vec_free(S->q);
  S->x = S->pv = S->q = NULL;
}

static double masked_probe (const void *st, int metric, const ol_ctx *c)
{
  const masked_state *S = st;
  (void)c;
  if (S->q == NULL) return NAN;
  return metric == OL_MET_KL ? S->kl : metric == OL_MET_TV ? S->tv
    : metric == OL_MET_ENTROPY ? S->ent : NAN;
}

/* The named results (method.h's result hook): samples (N x L symbols, 0
** still masked) and q (1 x V^L: the exact output law, sequences in
** base-V order, first token most significant). */
static int masked_result (const void *st, const char *name, const double **v,
                          int *rows, int *cols)
{
  const masked_state *S = st;
  if (S->x == NULL) return 0;
  if (strcmp(name, "samples") == 0) {
    *v = S->x;
    *rows = S->N;
    *cols = S->L;
    return 1;
  }
  if (strcmp(name, "q") == 0) {        /* q_T over the V^L sequences */
    *v = S->q;
    *rows = 1;
    *cols = S->nst;
    return 1;
  }
  return 0;
}

/* Its target is a token-sequence law (method.h's check hook). */
static int masked_check (const ol_method_type *m, const ol_problem *p,
                         ol_err *e)
{
  (void)m;
  if (ol_tokens_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "masked needs a token-sequence target "
                      "made by problem.tokens{} (%s is not one)", p->name);
  return OL_OK;
}

const ol_method_type ol_diffusion_masked = {
  .name = "masked",
  .family = OL_DIFFUSION,
  .doc = "masked (absorbing-state) diffusion on token sequences: T unmasking "
    "rounds with the exact conditionals; exact KL by enumeration",
  .ref =
    "Austin et al. 2021 (absorbing D3PM); the catalogue's B063 (KL ~ mi / T)",
  .params = masked_params,
  .nparams = (int)(sizeof masked_params / sizeof masked_params[0]),
  .size = sizeof(masked_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = masked_init,
  .step = masked_step,
  .fini = masked_fini,
  .probe = masked_probe,
  .result = masked_result,
  .check = masked_check,
  .probes = OL_MSET(OL_MET_KL, OL_MET_TV, OL_MET_ENTROPY),
};
