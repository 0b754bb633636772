/*
** core/oracle.c -- the oracles a method sees (see oracle.h for the
** contract, the counting rules and the noise models).
**
** The ctx oracles count evaluations in the context, serve the driver's
** true-gradient cache when the requested point has the same contents as
** the cached one (memcmp), add the problem's gradient noise, and pass
** finite values only (ol_problem_eval rejects the rest).  Minibatch
** gradients draw their components from the stream in the oracle state.
** Scratch: the oracle's work[0, n) (free once the oracle returned) holds
** the noise draws and the component gradients.  Reads nothing of the run
** (runpriv.h): the driver's state is the ol_oracle it handed over.
**
** Order "grab" (OL_ORDER_GRAB): GraB, online gradient balancing with the
** stale mean (Lu, Guo & De Sa, "GraB: Finding Provably Better Data
** Permutations than Random Reshuffling", NeurIPS 2022, arXiv:2205.10733;
** the authors' reference code cites the paper's Algorithm 5 for the
** deterministic balancing step below; the number of the GraB algorithm
** itself was not checked here).  Epoch 1 visits a random permutation
** (Fisher-Yates, like "shuffle").  During epoch k,
** each component i visited, with its gradient g_i at the point it is
** evaluated at, is balanced:
**   c = g_i - m_{k-1}                (m_{k-1}: the mean of epoch k-1's
**                                     component gradients; m_0 = 0)
**   if ||s + c|| <= ||s - c||:  s += c, i takes the next free slot from
**                               the FRONT of epoch k+1's order
**   else:                       s -= c, i takes the next free slot from
**                               the BACK
** with s = 0 at each epoch's start.  ||s + c||^2 - ||s - c||^2 = 4 <s, c>,
** so the test is <s, c> <= 0 (one dot product; a tie, s = 0 first, goes
** to the front).  m_k is kept as a running sum, so the state is O(n + N)
** (the paper's point against herding, which stores the N x n
** gradients): N indices and 3n doubles a run.  Details left to the code,
** taken from the authors' reference sampler: m_0 = 0 (epoch 1 balances
** the raw gradients), ties to the front, and with batch > 1 each
** component of the minibatch is balanced on its own, in draw order.
** Choices made here: a value-only minibatch request still computes the
** component gradients (the order needs them; not counted in ngev), and
** an epoch cut short (an oracle error between its draws) keeps the
** previous order and mean rather than a partial one.  Deterministic at a
** fixed seed: the generator is used for epoch 1's permutation only.
*/
#include "oracle.h"
#include "penalty.h"

#include "vec.h"

#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ol_allfinite, inlined into the per-step path (same bit test). */
static inline int finite_vec (const double *x, int n)
{
  uint64_t bad = 0;
  int i;
  for (i = 0; i < n; i++) bad |= ol_fbit(x[i]);
  return OL_FBITS_OK(bad);
}

/* == GraB's balancing state (see the header) ============================== */

/* One allocation: the struct, then next[N], then s, mean, acc (n each). */
typedef struct ol_grab {
  long N;
  int n;
  long lo, hi;      /* next free slots of next[] from the front, the back */
  long *next;       /* N: the next epoch's order being built */
  double *s;        /* n: the running signed sum of centred gradients */
  double *mean;     /* n: m_{k-1}, the last epoch's mean gradient */
  double *acc;      /* n: the sum of this epoch's component gradients */
} ol_grab;

static ol_grab *grab_new (long N, int n, ol_err *e)
{
  /* N longs and 3n doubles, checked against size_t before multiplying */
  size_t nn = (size_t)(n > 0 ? n : 1), bytes;
  ol_grab *G;
  if ((size_t)N > (SIZE_MAX / 2 - sizeof *G) / sizeof(long) ||
      nn > (SIZE_MAX / 2 - sizeof *G - (size_t)N * sizeof(long)) /
           (3 * sizeof(double))) {
    ol_err_set(e, OL_ENOMEM, "order \"grab\": N = %ld components and n = "
               "%d coordinates exceed the addressable size (SIZE_MAX / 2 "
               "bytes of order state)", N, n);
    return NULL;
  }
  bytes = sizeof *G + (size_t)N * sizeof(long) + 3 * nn * sizeof(double);
  if ((G = calloc(1, bytes)) == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory (order \"grab\": %zu bytes "
               "for N = %ld components, n = %d)", bytes, N, n);
    return NULL;
  }
  G->N = N;
  G->n = n;
  G->next = (long *)(G + 1);
  /* the doubles after the longs: align them to a double */
  G->s = (double *)(void *)((char *)G + ((sizeof *G + (size_t)N *
         sizeof(long) + sizeof(double) - 1) / sizeof(double)) *
         sizeof(double));
  G->mean = G->s + nn;
  G->acc = G->mean + nn;
  G->hi = N - 1;
  return G;
}

/* A new epoch of order grab: the order built during the epoch that ended
** (when it placed all N components) becomes perm, its mean gradient the
** stale mean; the sums restart. */
static void grab_epoch (ol_grab *G, long *perm)
{
  int j;
  if (G->lo == G->hi + 1) {
    memcpy(perm, G->next, (size_t)G->N * sizeof *perm);
    for (j = 0; j < G->n; j++) G->mean[j] = G->acc[j] / (double)G->N;
  }
  memset(G->s, 0, (size_t)G->n * sizeof *G->s);
  memset(G->acc, 0, (size_t)G->n * sizeof *G->acc);
  G->lo = 0;
  G->hi = G->N - 1;
}

/* Balance component i with gradient gi (n entries): its sign, and so its
** slot in the next epoch's order. */
static void grab_place (ol_grab *G, long i, const double *gi)
{
  double dot = 0, *s = G->s;
  const double *m = G->mean;
  int j, n = G->n;
  if (G->lo > G->hi) return;    /* the epoch is full (not reached: a new
                                   epoch starts every N draws) */
  for (j = 0; j < n; j++) {
    dot += s[j] * (gi[j] - m[j]);
    G->acc[j] += gi[j];
  }
  if (dot <= 0) {
    for (j = 0; j < n; j++) s[j] += gi[j] - m[j];
    G->next[G->lo++] = i;
  } else {
    for (j = 0; j < n; j++) s[j] -= gi[j] - m[j];
    G->next[G->hi--] = i;
  }
}

/* == the driver's side ===================================================== */

int ol_oracle_init (ol_oracle *o, const ol_problem *p, double *work,
                    ol_err *e)
{
  size_t n = (size_t)p->n;
  long k;
  o->work = work;
  o->gnok = 0;
  o->g = calloc(n, sizeof *o->g);
  o->xg = calloc(n, sizeof *o->xg);
  if (o->g == NULL || o->xg == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (%zu doubles)", 2 * n);
  if (p->noise.kind == OL_NOISE_BATCH &&
      p->noise.order != OL_ORDER_REPLACE) {
    o->perm = calloc((size_t)p->nsum, sizeof *o->perm);
    if (o->perm == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory (%ld minibatch "
                        "indices)", p->nsum);
    for (k = 0; k < p->nsum; k++) o->perm[k] = k;
    o->pos = p->nsum;
    if (p->noise.order == OL_ORDER_GRAB &&
        (o->grab = grab_new(p->nsum, p->n, e)) == NULL)
      return e != NULL ? e->code : OL_ENOMEM;
  }
  return OL_OK;
}

void ol_oracle_fini (ol_oracle *o)
{
  free(o->g);
  free(o->xg);
  free(o->perm);
  free(o->grab);
  o->g = o->xg = NULL;
  o->perm = NULL;
  o->grab = NULL;
}

int ol_oracle_here (ol_oracle *o, const ol_problem *p, const double *x,
                    ol_err *e)
{
  int rc, n = p->n;
  if (ol_oracle_at(o, x, n)) return OL_OK;
  o->gvalid = 0;
  o->gnok = 0;
  o->mfev++;
  o->mgev++;
  rc = ol_problem_eval(p, x, &o->f, o->g, o->work, e);
  if (rc != OL_OK) return rc;
  memcpy(o->xg, x, (size_t)n * sizeof *x);
  o->gvalid = 1;
  o->unclaimed = 3;
  return OL_OK;
}

/* == the method's side ===================================================== */

/* A step uses the driver's cache: what the driver evaluated for itself
** and no step used yet becomes the method's evaluation (counted once). */
static void claim (ol_oracle *r, ol_ctx *c, int wantf, int wantg)
{
  if (wantf && (r->unclaimed & 1u)) {
    c->nfev++;
    r->mfev--;
    r->unclaimed &= ~1u;
  }
  if (wantg && (r->unclaimed & 2u)) {
    c->ngev++;
    r->mgev--;
    r->unclaimed &= ~2u;
  }
}

/* Shared by value and gradient requests.  noisy: add the problem's noise
** to g. */
static int oracle (ol_ctx *c, const double *x, double *f, double *g,
                   int noisy, ol_err *e)
{
  ol_oracle *r = c->orc;
  const ol_problem *p = c->p;
  int n = c->n, i;
  double s;
  if (r != NULL && r->gvalid &&
      memcmp(x, r->xg, (size_t)n * sizeof *x) == 0) {
    if (f != NULL) *f = r->f;
    if (g != NULL) memcpy(g, r->g, (size_t)n * sizeof *g);
    claim(r, c, f != NULL, g != NULL);
  } else {
    int rc;
    if (r == NULL && p->fd_grad && g != NULL)
      return ol_err_set(e, OL_EINVAL, "finite-difference gradient needs "
                        "a driver's workspace (ol_oracle)");
    if (f != NULL) c->nfev++;
    if (g != NULL) c->ngev++;
    if (p->fd_grad) {
      rc = ol_problem_eval(p, x, f, g, r != NULL ? r->work : NULL, e);
      if (rc != OL_OK) return rc;
    } else {
      /* the common case inline: one call to the oracle, then the checks
      ** ol_problem_eval would make */
      rc = p->fdf(p->ud, x, f, g, e);
      if (rc != OL_OK) return rc;
      if (f != NULL && !isfinite(*f))
        return ol_err_set(e, OL_EDOM, "non-finite value (f = %g)",
                          ol_shown(*f));
      if (g != NULL && !finite_vec(g, n))
        return ol_err_set(e, OL_EDOM, "non-finite gradient");
    }
  }
  if (!noisy || g == NULL) return OL_OK;
  switch (p->noise.kind) {
  case OL_NOISE_GAUSS:
    s = p->noise.sigma;
    for (i = 0; i < n; i++) g[i] += s * ol_rng_normal(c->rng);
    break;
  case OL_NOISE_ANISO:
    if (r == NULL || p->noise.chol == NULL || p->noise.batch < 1)
      return ol_err_set(e, OL_EINVAL, "%s: anisotropic noise needs a run "
                        "and the Cholesky factor of ol_problem_aniso",
                        p->name);
    ol_rng_normals(c->rng, r->work, n);
    cblas_dtrmv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, n,
                p->noise.chol, n, r->work, 1);
    ol_vec_axpy(p->noise.sigma / sqrt((double)p->noise.batch), r->work, g,
                n);
    break;
  case OL_NOISE_STUDENT:
    s = p->noise.sigma;
    for (i = 0; i < n; i++) g[i] += s * ol_rng_student(c->rng, p->noise.nu);
    break;
  case OL_NOISE_ASYM:
    s = p->noise.sigma;
    for (i = 0; i < n; i++) g[i] += s * (ol_rng_exp(c->rng) - 1);
    break;
  case OL_NOISE_AFFINE: {
    /* each coordinate's scale from the true g_i it is added to */
    double s0 = p->noise.sigma * p->noise.sigma / n, s1 = p->noise.sigma1;
    for (i = 0; i < n; i++)
      g[i] += sqrt(s0 + s1 * s1 * g[i] * g[i]) * ol_rng_normal(c->rng);
    break;
  }
  default:
    break;
  }
  return OL_OK;
}

/* Next component index of the minibatch stream (oracle.h). */
static long next_component (ol_oracle *r, const ol_problem *p, ol_rng *rng)
{
  const ol_noise *nz = &p->noise;
  long N = p->nsum, i, j, t;
  if (nz->order == OL_ORDER_REPLACE || r->perm == NULL)
    return ol_rng_below(rng, N);
  if (r->pos >= N) {
    /* (1) a new epoch: Fisher-Yates with the context's generator; grab
    ** after its first epoch takes the order it balanced */
    if (nz->order == OL_ORDER_GRAB && r->grab != NULL) {
      if (r->permdrawn) grab_epoch(r->grab, r->perm);
      else {
        r->grab->lo = 0;
        r->grab->hi = N - 1;
      }
    }
    if (nz->order == OL_ORDER_SHUFFLE ||
        ((nz->order == OL_ORDER_ONCE || nz->order == OL_ORDER_GRAB) &&
         !r->permdrawn)) {
      for (i = N - 1; i > 0; i--) {
        j = ol_rng_below(rng, i + 1);
        t = r->perm[i];
        r->perm[i] = r->perm[j];
        r->perm[j] = t;
      }
      r->permdrawn = 1;
    }
    r->pos = 0;
  }
  return r->perm[r->pos++];
}

/* Kept out of line so the noise-free fast path of ol_ctx_grad stays as
** small as before. */
#if defined(__GNUC__)
#define OL_NOINLINE __attribute__((noinline))
#else
#define OL_NOINLINE
#endif

/* Minibatch value and gradient: means over noise.batch components. */
static OL_NOINLINE int minibatch (ol_ctx *c, const double *x, double *f,
                                  double *g, ol_err *e)
{
  ol_oracle *r = c->orc;
  const ol_problem *p = c->p;
  int b = p->noise.batch, k, rc, n = c->n;
  double fi, fsum = 0, *gi;
  if (r == NULL || p->fdfi == NULL || b < 1 || b > p->nsum)
    return ol_err_set(e, OL_EINVAL, "%s: batch noise needs a run on a "
                      "finite-sum problem with 1 <= batch <= N", p->name);
  gi = r->work;
  c->nfev += f != NULL;
  c->ngev += g != NULL;
  if (g != NULL) memset(g, 0, (size_t)n * sizeof *g);
  for (k = 0; k < b; k++) {
    long i = next_component(r, p, c->rng);
    rc = p->fdfi(p->ud, i, x, f != NULL ? &fi : NULL,
                 g != NULL || r->grab != NULL ? gi : NULL, e);
    if (rc != OL_OK) return rc;
    if (r->grab != NULL) {
      /* the order balances finite gradients only: a non-finite one fails
      ** the step below, or here when only the value was asked for */
      if (!finite_vec(gi, n))
        return ol_err_set(e, OL_EDOM, "non-finite gradient of component "
                          "%ld (order \"grab\")", i);
      grab_place(r->grab, i, gi);
    }
    if (f != NULL) fsum += fi;
    if (g != NULL) ol_vec_axpy(1, gi, g, n);
  }
  if (f != NULL) {
    *f = fsum / b;
    if (!isfinite(*f))
      return ol_err_set(e, OL_EDOM, "non-finite minibatch value (f = %g)",
                        ol_shown(*f));
  }
  if (g != NULL) {
    if (b > 1) ol_vec_scal(1.0 / b, g, n);
    if (!finite_vec(g, n))
      return ol_err_set(e, OL_EDOM, "non-finite minibatch gradient");
  }
  return OL_OK;
}

int ol_ctx_blocks_start (ol_ctx *c)
{
  const ol_problem *p = c->p;
  ol_oracle *r = c->orc;
  if (p->fd_grad || p->noise.kind != OL_NOISE_NONE) return 0;
  /* At a step's start a valid cache is the gradient at c->x (the run
  ** evaluated there after the last step).  The blocks recompute it, which
  ** is cheaper than copying it and bit for bit the same (gsep = fdf's
  ** gradient), and not counted as a new evaluation. */
  if (r == NULL || !r->gvalid) c->ngev++;
  else claim(r, c, 0, 1);
  return 1;
}

/* The hot path first: no cache to consult, exact gradients, no noise. */
int ol_ctx_grad (ol_ctx *c, const double *x, double *f, double *g, ol_err *e)
{
  const ol_problem *p = c->p;
  const ol_oracle *r = c->orc;
  int rc;
  if ((r == NULL || !r->gvalid) && !p->fd_grad &&
      p->noise.kind == OL_NOISE_NONE) {
    c->nfev += f != NULL;
    c->ngev += g != NULL;
    rc = p->fdf(p->ud, x, f, g, e);
    if (rc != OL_OK) return rc;
    if (f != NULL && !isfinite(*f))
      return ol_err_set(e, OL_EDOM, "non-finite value (f = %g)",
                        ol_shown(*f));
    if (g != NULL && !finite_vec(g, c->n))
      return ol_err_set(e, OL_EDOM, "non-finite gradient");
    return OL_OK;
  }
  if (p->noise.kind == OL_NOISE_BATCH) return minibatch(c, x, f, g, e);
  return oracle(c, x, f, g, 1, e);
}

int ol_ctx_value (ol_ctx *c, const double *x, double *f, ol_err *e)
{
  return oracle(c, x, f, NULL, 0, e);
}

/* Dense Hessian: the problem's, or central differences of its gradient
** (ol_problem_fdhess, 2n gradient evaluations counted in ngev) when it has
** none; either way one Hessian in nhev.  Scratch: the oracle's work[n, 4n)
** (free during a step: projection and metric scratch). */
int ol_ctx_hess (ol_ctx *c, const double *x, double *H, ol_err *e)
{
  const ol_problem *p = c->p;
  ol_oracle *r = c->orc;
  int rc;
  c->nhev++;
  if (p->hess == NULL) {
    if (r == NULL)
      return ol_err_set(e, OL_EINVAL, "%s has no Hessian (a finite-"
                        "difference one needs a driver's workspace)", p->name);
    c->ngev += 2 * (long)c->n;
    rc = ol_problem_fdhess(p, x, H, r->work + c->n, e);
    if (rc != OL_OK) return rc;
    return OL_OK;
  }
  rc = p->hess(p->ud, x, H, e);
  if (rc != OL_OK) return rc;
  if (!ol_allfinite(H, c->n * c->n))
    return ol_err_set(e, OL_EDOM, "non-finite Hessian");
  return OL_OK;
}

void ol_ctx_known (ol_ctx *c, double f, const double *g)
{
  ol_oracle *r = c->orc;
  size_t sz = (size_t)c->n * sizeof *g;
  if (r == NULL || c->p->noise.kind != OL_NOISE_NONE) return;
  r->f = f;
  if (g != r->g) memcpy(r->g, g, sz);
  memcpy(r->xg, c->x, sz);
  r->gnok = 0;
  r->gvalid = 1;
  r->unclaimed = 0;
  r->handed = 1;
}

double ol_oracle_gnorm (ol_oracle *o, int n)
{
  if (!o->gnok) {
    o->gn = ol_vec_nrm2(o->g, n);
    o->gnok = 1;
  }
  return o->gn;
}

double ol_ctx_gnorm (const ol_ctx *c, const double *g)
{
  const ol_oracle *r = c->orc;
  size_t sz = (size_t)c->n * sizeof *g;
  if (r != NULL && r->gvalid && r->gnok
      && (g == r->g || memcmp(g, r->g, sz) == 0))
    return r->gn;
  return ol_vec_nrm2(g, c->n);
}

void ol_ctx_converged (ol_ctx *c, const char *why)
{
  ol_oracle *r = c->orc;
  if (r == NULL) return;
  r->conv = 1;
  snprintf(r->convmsg, sizeof r->convmsg, "%s", why);
}

void ol_ctx_infeasible (ol_ctx *c, const char *why)
{
  ol_oracle *r = c->orc;
  if (r == NULL) return;
  r->conv = 2;
  snprintf(r->convmsg, sizeof r->convmsg, "%s", why);
}

int ol_ctx_fp_stationary (const ol_ctx *c, const double *x, double f,
                          const double *g)
{
  double gm = 0, xm = 1, a;
  int i;
  if (c->p->noise.kind != OL_NOISE_NONE) return 0;   /* g is not the true
                                                        gradient */
  for (i = 0; i < c->n; i++) {
    a = fabs(g[i]);
    gm = a > gm ? a : gm;
    a = fabs(x[i]);
    xm = a > xm ? a : xm;
  }
  /* eps^(2/3) = 3.67e-11 */
  return gm * xm <= 3.6706e-11 * fmax(1, fabs(f));
}

/* Projection on the problem's set with the oracle's scratch (work[n,
** 2n)).  Without an oracle state (orc NULL) only box sets can be
** projected. */
void ol_ctx_project (ol_ctx *c, double *x)
{
  ol_oracle *r = c->orc;
  const ol_set *s = &c->p->set;
  if (s->kind == OL_SET_NONE) return;
  if (r == NULL && s->kind != OL_SET_BOX) return;
  ol_set_project(s, x, c->n, r != NULL ? r->work + c->n : NULL);
}

/* Component i of a finite sum, exact, checked like ol_problem_eval. */
int ol_ctx_gradi (ol_ctx *c, long i, const double *x, double *f, double *g,
                  ol_err *e)
{
  const ol_problem *p = c->p;
  int rc;
  if (p->fdfi == NULL || p->nsum < 1)
    return ol_err_set(e, OL_EINVAL, "%s is not a finite sum (no component "
                      "oracle)", p->name);
  if (i < 0 || i >= p->nsum)
    return ol_err_set(e, OL_EINVAL, "component %ld is out of range [0, %ld]",
                      i, p->nsum - 1);
  c->nfev += f != NULL;
  c->ngev += g != NULL;
  rc = p->fdfi(p->ud, i, x, f, g, e);
  if (rc != OL_OK) return rc;
  if (f != NULL && !isfinite(*f))
    return ol_err_set(e, OL_EDOM, "non-finite value of component %ld "
                      "(f = %g)", i, ol_shown(*f));
  if (g != NULL && !finite_vec(g, c->n))
    return ol_err_set(e, OL_EDOM, "non-finite gradient of component %ld", i);
  return OL_OK;
}

/* The prox of step * h (core/penalty.h: soft thresholding at step * l1
** for the l1 norm), then the projection on the set. */
void ol_ctx_prox (ol_ctx *c, double *x, double step)
{
  ol_penalty_prox(c->p, x, c->n, step);
  ol_ctx_project(c, x);
}
