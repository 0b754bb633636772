/*
** core/problems/rlvr.c -- the RLVR toy of the seed catalog (T26, for the
** QAE paper, seed A03): Q queries, each answered by a softmax policy
** over M candidate responses, with a binary verifier (a fixed correct
** subset of the responses per query).  A one-stage MDP (core/rl/mdp.h:
** H = 1, the queries are its states, mu uniform, reward 1 for a correct
** response, the episode ends), so J = mean pass@1 and V* = 1.
**
** Instance (seeded, ol_rng stream 0): query q has c_q correct responses,
** c_q uniform in 1 .. M-1, at positions drawn by a shuffle; its start
** logits are b_q on the correct responses and 0 on the others, with b_q
** chosen so that the start pass rate is p_q = (q + 1/2) / Q:
**   e^b_q = p_q (M - c_q) / (c_q (1 - p_q)),
** so the queries' difficulties spread evenly over (0, 1) (hard queries
** first).  x: the Q M logits, f = -mean_q p_q, f* = -1.
*/
#include <math.h>
#include <stdio.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"
#include "rl/mdp.h"

#define RLVR_MAXP 1.25e8   /* queries^2 responses: 1 GB of doubles */

static const ol_param rlvr_params[] = {
  {"queries", OL_P_INT, 8, 1, 10000, "number of queries Q", NULL},
  {"responses", OL_P_INT, 8, 2, 1000, "candidate responses M per query",
   NULL},
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "seed of the correct "
   "subsets", NULL},
};

static int rlvr_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int Q = (int)v[0].num, M = (int)v[1].num, q, a, rc, cq, perm[1000];
  ol_rng rng;
  ol_mdp *D;
  /* the MDP's transition table has Q^2 M entries (all 0: one stage) */
  if ((double)Q * Q * M > RLVR_MAXP)
    return ol_err_set(e, OL_EINVAL, "rlvr: queries^2 x responses = %.0f is "
                      "out of range [2, %.0f] (its MDP's transition table "
                      "would take %.1f GB); use fewer queries or responses",
                      (double)Q * Q * M, RLVR_MAXP, (double)Q * Q * M * 8e-9);
  if ((D = ol_mdp_new(1, Q, M, e)) == NULL) return OL_ENOMEM;
  ol_rng_seed(&rng, (uint64_t)v[2].num, 0);
  for (q = 0; q < Q; q++) {
    if ((q & 255) == 0 && ol_interrupted()) {
      ol_mdp_free(D);
      return ol_err_set(e, OL_EINTR, "rlvr: interrupted");
    }
    D->mu[q] = 1.0 / Q;
    for (a = 0; a < M; a++) perm[a] = a;
    for (a = M - 1; a > 0; a--) {
      int j = (int)ol_rng_below(&rng, a + 1), t = perm[a];
      perm[a] = perm[j];
      perm[j] = t;
    }
    cq = 1 + (int)ol_rng_below(&rng, M - 1);
    for (a = 0; a < cq; a++) D->R[(size_t)q * M + perm[a]] = 1;
  }
  if ((rc = ol_mdp_setup(p, D, "rlvr", e)) != OL_OK) return rc;
  for (q = 0; q < Q; q++) {
    double pq = (q + 0.5) / Q, c = 0, b;
    for (a = 0; a < M; a++) c += D->R[(size_t)q * M + a];
    b = log(pq * (M - c) / (c * (1 - pq)));
    for (a = 0; a < M; a++)
      p->x0[(size_t)q * M + a] = D->R[(size_t)q * M + a] > 0 ? b : 0;
  }
  snprintf(p->desc, sizeof p->desc, "rlvr{queries=%d, responses=%d, "
           "seed=%.0f}", Q, M, v[2].num);
  return OL_OK;
}

const ol_problem_type ol_problem_rlvr = {
  .name = "rlvr",
  .kind = OL_OBJECTIVE,
  .doc = "RLVR toy: Q queries, softmax over M responses, a correct subset "
         "each",
  .ref = "seed catalog T26 (the QAE paper's setting, Wu et al. 2025)",
  .params = rlvr_params,
  .nparams = (int)(sizeof rlvr_params / sizeof rlvr_params[0]),
  .create = rlvr_create,
  .mdp = ol_mdp_ud,
};
