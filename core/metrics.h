/*
** core/metrics.h -- metric registry: named scalars computed from a run's
** state, each with a precise definition (DESIGN.md, "Metrics").
**
** A metric is one line in core/metrics/list.h (its id) plus one const
** ol_metric_type entry (its name, definition, availability test,
** evaluation function and the message a run that cannot have it gives):
** the built-in ones in core/metrics.c, a new one in a file of its own,
** core/metrics/<name>.c; nothing else names it.  A set of metrics is an
** ol_mset of any size.
*/
#ifndef OL_METRICS_H
#define OL_METRICS_H

#include <stdint.h>

#include "problem.h"

/* The ids, from core/metrics/list.h, in the order metrics are listed and
** stored (run packs keep their values in this order). */
enum {
#define OL_METRIC(ID, name) OL_MET_##ID,
#include "metrics/list.h"
#undef OL_METRIC
  OL_NMETRICS
};

/* == metric sets ==========================================================
** A set of metrics is a bitset of OL_MSET_WORDS 64-bit words, bit k of
** word k / 64 for metric k: at least OL_MSET_INIT_WORDS words, more as
** OL_NMETRICS grows.  A value type (copy it, return it); the operations
** below are the only way in.  Constants:
**   static const ol_mset s = OL_MSET(OL_MET_LOSS, OL_MET_DIST);
**   x.probes = OL_MSET_NONE  (an initialiser: the empty set)
**   ol_mset_or(a, OL_MSET_OF(OL_MET_KL, OL_MET_W2))  (an expression)
**   r.metrics = OL_MSET_EMPTY  (an expression: the empty set)
** OL_MSET takes 1 to 16 constant ids below 64 * OL_MSET_INIT_WORDS, the
** words it writes (a compile error otherwise: when the ids reach 128,
** raise OL_MSET_INIT_WORDS and give OL_MSET a third word); at run time
** ids of any size go through ol_mset_add. */
#define OL_MSET_INIT_WORDS 2
enum {
  OL_MSET_WORDS = (OL_NMETRICS + 63) / 64 > OL_MSET_INIT_WORDS
                  ? (OL_NMETRICS + 63) / 64 : OL_MSET_INIT_WORDS
};

typedef struct ol_mset {
  uint64_t w[OL_MSET_WORDS];
} ol_mset;

/* Word w's bit of id k, a constant expression; k = -1 pads (no bit), an
** id past the initialiser's words does not compile (negative array). */
#define OL_MSET_BIT_(w, k) \
  (((k) >= 0 && (k) / 64 == (w) ? (uint64_t)1 << ((k) & 63) : 0) + \
   0 * sizeof(char[(k) < 64 * OL_MSET_INIT_WORDS ? 1 : -1]))
#define OL_MSET_W_(w, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, \
                   ...) \
  (OL_MSET_BIT_(w, a) | OL_MSET_BIT_(w, b) | OL_MSET_BIT_(w, c) | \
   OL_MSET_BIT_(w, d) | OL_MSET_BIT_(w, e) | OL_MSET_BIT_(w, f) | \
   OL_MSET_BIT_(w, g) | OL_MSET_BIT_(w, h) | OL_MSET_BIT_(w, i) | \
   OL_MSET_BIT_(w, j) | OL_MSET_BIT_(w, k) | OL_MSET_BIT_(w, l) | \
   OL_MSET_BIT_(w, m) | OL_MSET_BIT_(w, n) | OL_MSET_BIT_(w, o) | \
   OL_MSET_BIT_(w, p) | 0 * sizeof(char[(q) == -1 ? 1 : -1]))
#define OL_MSET_WORD_(w, ...) \
  OL_MSET_W_(w, __VA_ARGS__, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, \
             -1, -1, -1, -1, -1, -1)
#define OL_MSET(...) \
  {{OL_MSET_WORD_(0, __VA_ARGS__), OL_MSET_WORD_(1, __VA_ARGS__)}}
#define OL_MSET_NONE {{0}}
#define OL_MSET_OF(...) ((ol_mset)OL_MSET(__VA_ARGS__))
#define OL_MSET_EMPTY ((ol_mset)OL_MSET_NONE)

static inline int ol_mset_has (ol_mset s, int k)
{
  return k >= 0 && k < 64 * OL_MSET_WORDS &&
    (s.w[k / 64] >> (k % 64) & 1) != 0;
}

static inline void ol_mset_add (ol_mset *s, int k)
{
  s->w[k / 64] |= (uint64_t)1 << (k % 64);
}

static inline void ol_mset_del (ol_mset *s, int k)
{
  s->w[k / 64] &= ~((uint64_t)1 << (k % 64));
}

static inline ol_mset ol_mset_or (ol_mset a, ol_mset b)
{
  int i;
  for (i = 0; i < OL_MSET_WORDS; i++) a.w[i] |= b.w[i];
  return a;
}

static inline ol_mset ol_mset_and (ol_mset a, ol_mset b)
{
  int i;
  for (i = 0; i < OL_MSET_WORDS; i++) a.w[i] &= b.w[i];
  return a;
}

/* a without b's members. */
static inline ol_mset ol_mset_minus (ol_mset a, ol_mset b)
{
  int i;
  for (i = 0; i < OL_MSET_WORDS; i++) a.w[i] &= ~b.w[i];
  return a;
}

static inline int ol_mset_empty (ol_mset s)
{
  int i;
  for (i = 0; i < OL_MSET_WORDS; i++)
    if (s.w[i] != 0) return 0;
  return 1;
}

/* 1 when a and b share a member. */
static inline int ol_mset_any (ol_mset a, ol_mset b)
{
  return !ol_mset_empty(ol_mset_and(a, b));
}

static inline int ol_mset_eq (ol_mset a, ol_mset b)
{
  int i;
  for (i = 0; i < OL_MSET_WORDS; i++)
    if (a.w[i] != b.w[i]) return 0;
  return 1;
}

static inline int ol_mset_count (ol_mset s)
{
  int i, k = 0;
  uint64_t v;
  for (i = 0; i < OL_MSET_WORDS; i++)
    for (v = s.w[i]; v != 0; v &= v - 1) k++;
  return k;
}

/* The least member >= k, or -1: iterate with OL_MSET_FOR. */
static inline int ol_mset_next (ol_mset s, int k)
{
  int i;
  uint64_t v;
  if (k < 0) k = 0;
  for (i = k / 64; i < OL_MSET_WORDS; i++) {
    v = s.w[i];
    if (i == k / 64) v &= ~(uint64_t)0 << (k % 64);
    if (v != 0) {
      int b = 0;
      while (!(v & 1)) {
        v >>= 1;
        b++;
      }
      return 64 * i + b;
    }
  }
  return -1;
}

/* for each member k of s, in increasing order */
#define OL_MSET_FOR(k, s) \
  for ((k) = ol_mset_next((s), 0); (k) >= 0; (k) = ol_mset_next((s), (k) + 1))

/* Every metric id 0 .. OL_NMETRICS - 1. */
static inline ol_mset ol_mset_all (void)
{
  ol_mset s = OL_MSET_NONE;
  int k;
  for (k = 0; k < OL_NMETRICS; k++) ol_mset_add(&s, k);
  return s;
}

/* What a metric sees: the state at the recorded time. */
typedef struct ol_mstate {
  const ol_problem *p;
  int n;
  const double *x;      /* x_t */
  const double *xavg;   /* average iterate */
  const double *xbar;   /* the noise-free shadow iterate (bias, variance)
                           or NULL */
  double f;             /* true f(x_t) */
  const double *g;      /* true grad f(x_t) */
  const double *gn;     /* ||g||_2 when the run has it (the same bits as
                           ol_vec_nrm2), or NULL */
  long t;               /* steps done */
  long accepted;        /* sampler acceptances */
  double *work;         /* 2n doubles of scratch */
  const struct ol_method_type *m;   /* the method, for probes */
  const void *st;       /* its state */
  const struct ol_ctx *c;
  void *mem;            /* the run's per-metric memory (mingradnorm,
                           support), see metrics.c */
} ol_mstate;

/* What a metric needs beyond its avail() test (ol_metric_type.needs). */
enum {
  OL_MNEED_OPTIM = 1u << 0,     /* an optimizer (else .method_msg) */
  OL_MNEED_SAMPLER = 1u << 1,   /* a sampler (else .method_msg) */
  OL_MNEED_DRAWS = 1u << 2,     /* the run's kept draws: the diagnostics'
                                   cache (metrics.c, ol_mmem) */
  OL_MNEED_COV = 1u << 3        /* the target's mean and covariance, whose
                                   inverse and root the cache keeps */
};

/* One metric: an entry of ol_metric_types[], indexed by its id.
** The messages are templates (ol_metric_unavail, core/runpriv.h) with
**   {metric} its name, {method} the method's ("this method" without one),
**   {problem} the problem's, {kind} the problem's kind ("an objective",
**   "a density", "a game"), {why} what .why says. */
typedef struct ol_metric_type {
  const char *name;
  const char *doc;                      /* its definition, one line */
  unsigned needs;                       /* OL_MNEED_* */
  int (*avail) (const ol_problem *p, int family);   /* 1 if defined */
  double (*eval) (const ol_mstate *s);
  /* why a run cannot have it: .method_msg when the method is not of the
  ** family .needs names (and .method_msg is set), else .unavailable_msg
  ** (NULL: "{metric} is not available for {problem} run by {method}") */
  const char *unavailable_msg;
  const char *method_msg;
  /* optional: the part of the message that depends on p and m ({why}) */
  const char *(*why) (const ol_problem *p,
                      const struct ol_method_type *m);
  /* optional: an evaluation that can fail (a metric of the user's, whose
  ** Lua function may raise): OL_OK with *v, or a code with e set, and the
  ** run that records it stops with that error.  A run calls it instead of
  ** .eval when set; .eval (NaN on failure) serves the other callers. */
  int (*try_eval) (const ol_mstate *s, double *v, ol_err *e);
} ol_metric_type;

/* The entries (core/metrics/list.h) and the registry, by id. */
#define OL_METRIC(ID, name) extern const ol_metric_type ol_metric_##name;
#include "metrics/list.h"
#undef OL_METRIC
extern const ol_metric_type *const ol_metric_types[OL_NMETRICS];
/* 1 when id names a metric: a built-in one, or a user slot now bound.
** Every listing of metric names (help, completion, error messages, CSV)
** goes through it, so an unbound slot (name "") is seen nowhere. */
int ol_metric_defined (int id);
int ol_metric_find (const char *name);   /* defined id or -1 */
/* The avail of a metric that exists only as a method's probe (a metric
** file's .avail = ol_metric_by_probe): 1 for every problem and family. */
int ol_metric_by_probe (const ol_problem *p, int family);
/* 1 when metric i exists only as a method's probe (method.h: probe,
** probes); a method that probes any metric gives its own value of it. */
int ol_metric_byprobe (int i);
/* Default set recorded for a problem kind and method family. */
ol_mset ol_metric_defaults (const ol_problem *p, int family);

/* == metrics of the user's (core/metrics/user.c) ==========================
** OL_METRIC_NUSER slots, ids OL_MET_USER0 ..: a binding (Lua's metric.new)
** gives one a name, a one-line doc and a hook computing its value, and
** from then on it is a metric like the others (recorded, printed, plotted,
** saved, watched) for every run, of any family, on any problem.  The hook
** returns OL_OK with *v or a code with e set (the run stops with it: a
** Lua error is OL_ECALLBACK with its traceback); id says which slot, ud
** is the binder's pointer, kept as given.  The slots are the process's;
** binding and calls are meant for one thread. */
enum { OL_METRIC_NUSER = OL_MET_USER15 - OL_MET_USER0 + 1 };
#define OL_METRIC_NAMEMAX 32    /* longest name + 1 */
#define OL_METRIC_DOCMAX 240    /* longest doc + 1 */
typedef int (*ol_metric_hook) (void *ud, int id, const ol_mstate *s,
                               double *v, ol_err *e);
/* Bind name (an identifier, not a built-in metric's name) with doc (NULL:
** "") and hook.  A name ud has bound already is rebound in place (same id,
** new doc and hook); one another ud holds is refused, as is a name or doc
** too long, or a binding when every slot is taken (the message names the
** limit and the names holding them).  Returns the id, or -1 with e set.
** The strings are copied. */
int ol_metric_user_bind (const char *name, const char *doc,
                         ol_metric_hook hook, void *ud, ol_err *e);
/* Unbind slot id (a no-op unless it is a bound user slot): nameless and
** invisible again; runs that recorded it keep their numbers, nameless. */
void ol_metric_user_unbind (int id);
/* Unbind every slot ud holds (its binder goes away). */
void ol_metric_user_release (const void *ud);
/* 1 when id is a user slot (bound or not). */
int ol_metric_user (int id);

#endif
