/*
** core/dist/compress.h -- the compressors of the compressed distributed
** methods (ef14, ef21, and any dist method "where it applies"): a worker's
** message v in R^n becomes C(v), and each message costs a documented
** number of bits.  Not a method: a small object a method owns.  Also
** ol_cworkers, the workers' split, streams and accounts that ef14 and
** ef21 keep alike (one place for their init, fini, round close, probe).
**
** The kinds (ties in top-k go to the lower index; sign(0) = +1):
**   none      C(v) = v                                     32 n bits
**   topk      keep the k entries largest in |v_i|, zero the rest
**             (Stich, Cordonnier & Jaggi 2018)       k (32 + ceil(log2 n))
**   randk     keep a uniform k-subset S, scaled: C(v)_i = (n/k) v_i on S,
**             unbiased, E||C(v) - v||^2 = (n/k - 1) ||v||^2 (Stich et al.
**             2018; Konecny & Richtarik 2018)        k (32 + ceil(log2 n))
**   sign      C(v)_i = sign(v_i) (signSGD, Bernstein et al. 2018)    n
**   ssign     C(v) = (||v||_1 / n) sign(v), the scaled sign of
**             Karimireddy, Rebjock, Stich & Jaggi 2019 (EF-SignSGD)  n + 32
**   qsgd      C(v)_i = ||v||_2 sign(v_i) xi_i / s, xi_i = l + 1 with
**             probability p_i = s |v_i| / ||v||_2 - l, else l, l =
**             floor(s |v_i| / ||v||_2): s levels, unbiased, E||C(v) -
**             v||^2 = (||v||^2 / s^2) sum_i p_i (1 - p_i), which Lemma 3.1
**             of QSGD (Alistarh, Grubic, Li, Tomioka & Vojnovic 2017)
**             bounds by min(n / s^2, sqrt(n) / s) ||v||^2
**                                            32 + n (1 + ceil(log2(s + 1)))
**   terngrad  with clipping (clip = c finite) first u_i = max(-c sd,
**             min(c sd, v_i)), sd the standard deviation of v's entries
**             (TernGrad's gradient clipping, Wen, Xu, Yan, Wu, Wang, Chen
**             & Li 2017; the paper takes c = 2.5), else u = v; then S =
**             max_i |u_i| and C(v)_i = S sign(u_i) b_i, b_i ~
**             Bernoulli(|u_i| / S) (the paper's ternarize), unbiased
**             for u, E||C(v) - u||^2 = S ||u||_1 - ||u||^2      2 n + 32
**
** Bits per message (uplink; the count of one message of n coordinates,
** ol_compress_bits): 32 bits per float sent, ceil(log2 n) per index sent
** (rand-k sends its indices too, as if no seed were shared), one bit per
** sign.  QSGD is counted with the naive fixed-length code (a sign bit and
** a level 0..s per coordinate plus the norm), not the paper's Elias code,
** which is shorter for small s; TernGrad with 2 bits per ternary
** coordinate plus the scale S (log2 3 = 1.58 bits would need a block
** code).  The rand-k, QSGD and TernGrad draws come from the generator
** handed to ol_compress_apply.
**
** In a method: put OL_COMPRESS_PARAMS(default kind) in its ol_param table
** (four entries: compress, k, s, clip), hand ol_compress_init a pointer
** to those four values, then ol_compress_apply per message.  k > n keeps
** all n coordinates (top-k and rand-k are then the identity).  In Lua the
** four are method parameters (dist.ef14{compress = "topk", k = 2}); the
** table form compress = {kind = "topk", k = 2} is flattened into them by
** the binding (lua/lmethod.c).
*/
#ifndef OL_COMPRESS_H
#define OL_COMPRESS_H

#include "dist.h"
#include "ol.h"
#include "rng.h"

enum { OL_CMP_NONE, OL_CMP_TOPK, OL_CMP_RANDK, OL_CMP_SIGN, OL_CMP_SSIGN,
       OL_CMP_QSGD, OL_CMP_TERNGRAD, OL_NCMP };

#define OL_COMPRESS_CHOICES "none|topk|randk|sign|ssign|qsgd|terngrad"

/* The four parameter-table entries of a method that compresses, in this
** order; def is the default kind (OL_CMP_*). */
#define OL_COMPRESS_PARAMS(def)                                             \
  {"compress", OL_P_ENUM, (def), 0, OL_NCMP - 1, "compressor C of each "    \
   "worker message (help(dist.compress))", OL_COMPRESS_CHOICES},              \
  {"k", OL_P_INT, 1, 1, 1e9, "topk, randk: coordinates kept (at most n)",   \
   NULL},                                                                   \
  {"s", OL_P_INT, 2, 1, 1e6, "qsgd: quantization levels s", NULL},         \
  {"clip", OL_P_REAL, INFINITY, OL_GT0, INFINITY, "terngrad: clip at clip "  \
   "times the entries' standard deviation (inf: none; the paper's 2.5)",    \
   NULL}
#define OL_COMPRESS_NPARAMS 4

/* A compressor for messages of n coordinates, with its scratch.
** Invariant: k in [1, n], s >= 1, bits = ol_compress_bits(kind, k, s, n). */
typedef struct ol_compress {
  int kind, n, k, s;
  double clip;
  double bits;               /* bits of one message */
  int *idx;                  /* n indices (topk: a heap, randk: a
                                permutation of 0..n-1; owned) */
} ol_compress;

/* Set cp up from par[0 .. OL_COMPRESS_NPARAMS) (kind, k, s, clip, as in
** OL_COMPRESS_PARAMS) for messages of n coordinates; allocates its
** scratch.  OL_EINVAL (who named) or OL_ENOMEM with e set;
** ol_compress_fini frees a partial one (cp zeroed before). */
int ol_compress_init (ol_compress *cp, const double *par, int n,
                      const char *who, ol_err *e);
void ol_compress_fini (ol_compress *cp);

/* out = C(v) (n entries each; out may not alias v); random draws from r
** (rand-k, qsgd, terngrad; r unused otherwise).  Never fails, never
** allocates.  Returns ||C(v) - v||^2 (TernGrad with clipping: against v,
** not its clipped u). */
double ol_compress_apply (ol_compress *cp, const double *v, double *out,
                          ol_rng *r);

/* Bits of one message of n coordinates (k clamped to n). */
double ol_compress_bits (int kind, int k, int s, int n);

/* The workers of a compressed method (ef14, ef21), which both keep in the
** same way: the split, the compressor, per-worker streams (they draw the
** minibatches and the compressor's randomness), the round's participants
** and the accounts their probes answer with (bits: the uplink bits
** sum_rounds |S| bits(C); compress_err: the last round's relative
** compression error; rounds). */
typedef struct ol_cworkers {
  ol_dist_split sp;
  ol_compress cp;
  ol_rng *rw;                /* per-worker streams (sp.n; owned) */
  int *who;                  /* the round's participants (sp.n; owned) */
  double bits, cerr;         /* cerr NAN before the first round */
  long rounds;
} ol_cworkers;

/* Set w up for a run of c: the split (ol_dist_split_init with default
** count nw), the compressor for c->n coordinates from cpar[0 ..
** OL_COMPRESS_NPARAMS), the streams (ol_dist_streams from c->rng, one
** u64 drawn) and the participants' buffer.  OL_EINVAL or OL_ENOMEM with
** e set ("<who>: ..."); ol_cworkers_fini frees a partial one (w zeroed
** before). */
int ol_cworkers_init (ol_cworkers *w, const double *cpar, int nw, ol_ctx *c,
                      const char *who, ol_err *e);
void ol_cworkers_fini (ol_cworkers *w);

/* A federated method's compressed uploads (fedavg, scaffold): each
** participant sends its model update y_w - x (and scaffold also its
** control-variate change) as C(.), the server averaging what it
** receives -- FedPAQ's quantized updates (Reisizadeh, Mokhtari, Hassani,
** Jadbabaie & Pedarsani 2020, "FedPAQ: a communication-efficient
** federated learning method with periodic averaging and quantization",
** AISTATS, Algorithm 1) with any compressor above.  Accounts: bits, the
** uplink bits sum_rounds (messages) bits(C), and compress_err, the last
** round's sum ||C(v) - v||^2 / sum ||v||^2 over its messages.  With
** compress = "none" nothing is changed (no draws, the iterates' bits as
** without it) and the bits are 32 n per message. */
typedef struct ol_cupload {
  ol_compress cp;
  double *v, *out;           /* n each (owned) */
  double bits, cerr;         /* cerr NAN before the first round */
  double num, den;           /* this round's error sums */
} ol_cupload;
int ol_cupload_init (ol_cupload *u, const double *cpar, int n,
                     const char *who, ol_err *e);
void ol_cupload_fini (ol_cupload *u);
/* msg := C(msg) in place, draws from r; counted as one message. */
void ol_cupload_send (ol_cupload *u, double *msg, ol_rng *r);
/* y := base + C(y - base), draws from r; counted as one message. */
void ol_cupload_delta (ol_cupload *u, const double *base, double *y,
                       ol_rng *r);
/* The round's end: compress_err from its sums. */
void ol_cupload_close (ol_cupload *u);
/* OL_MET_BITS, OL_MET_COMPRESS_ERR; NAN for any other metric. */
double ol_cupload_probe (const ol_cupload *u, int metric);
/* Close a round of m participants whose messages had sum_S ||C(v) - v||^2
** = num and sum_S ||v||^2 = den: bits += m bits(C), cerr = num / den (0
** when den = 0), rounds + 1. */
void ol_cworkers_close (ol_cworkers *w, int m, double num, double den);
/* The probe of those accounts: OL_MET_BITS, OL_MET_COMPRESS_ERR,
** OL_MET_ROUNDS; NAN for any other metric. */
double ol_cworkers_probe (const ol_cworkers *w, int metric);

#endif
