/*
** core/ad/tape.c -- recording and evaluating a tape (see tape.h).
**
** Reverse-mode differentiation of a straight-line program: Griewank &
** Walther 2008, "Evaluating Derivatives" (2nd ed.), sec. 3.2 (the
** incremental adjoint recursion, table 3.5) and sec. 5.2 (second-order
** adjoints: forward over reverse, table 5.5).  For node y = phi(a, b):
**
**   forward   y = phi(a, b)                           (values)
**   tangent   y' = phi_a a' + phi_b b'                (along v: a' = v_i)
**   reverse   abar += ybar phi_a,  bbar += ybar phi_b
**   2nd order abar' += ybar' phi_a + ybar (phi_aa a' + phi_ab b')
**             bbar' += ybar' phi_b + ybar (phi_ab a' + phi_bb b')
**
** started from ybar = 1, ybar' = 0 at the output; then grad f = xbar and
** H v = xbar'.  The value sweep and the gradient sweep are a switch over
** the compact instruction array (the partials written out per op); the
** second-order sweep asks one function for the five partials.
**
** Nodes are numbered in the order they are recorded, so every operand
** precedes its result and a sweep in instruction order is a topological
** order.  Constants and inputs hold their values in val[] and are not
** instructions.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ad/tape.h"

typedef struct adnode { int op, a, b; } adnode;
typedef struct adins { int op, dst, a, b; } adins;
typedef struct adguard { int rel, a, b, out; } adguard;

struct ol_tape {
  int n;
  int nnodes, capnodes;
  adnode *node;          /* nnodes: what each node is */
  double *val;           /* nnodes: values (at x0 while recording; the
                            last forward sweep's afterwards) */
  double *val0;          /* nnodes: values at the trace point (finish) */
  int *var;              /* n: node of input i, -1 until asked for */
  adins *ins;            /* the non-constant, non-input nodes in order */
  int nins, capins;
  adguard *guard;
  int nguards, capguards;
  int out;               /* output node, -1 before ol_tape_finish */
  int failed;            /* recording failed: OL_ENOMEM or OL_EINVAL */
  char why[96];
  unsigned *hash;        /* CSE table: node + 1, 0 = empty (recording) */
  unsigned hcap, hcount;
  double *adj, *dot, *adjd;   /* work (nnodes each, from finish) */
  int flipped;
};

static const char *const opnames[OL_AD_NOPS] = {
  "const", "var", "add", "sub", "mul", "div", "pow", "powc", "neg", "sqr",
  "exp", "log", "sqrt", "sin", "cos", "tan", "atan", "tanh", "log1p",
  "expm1"
};

const char *ol_tape_opname (int op)
{
  return op >= 0 && op < OL_AD_NOPS ? opnames[op] : "?";
}

const char *ol_tape_relname (int rel)
{
  return rel == OL_AD_LT ? "<" : rel == OL_AD_LE ? "<=" : rel == OL_AD_EQ
         ? "==" : "?";
}

ol_tape *ol_tape_new (int n, ol_err *e)
{
  ol_tape *t;
  int i;
  if (n < 1 || n > OL_TAPE_MAXNODES) {
    ol_err_set(e, OL_EINVAL, "tape: n = %d is out of range [1, %d]", n,
               OL_TAPE_MAXNODES);
    return NULL;
  }
  t = calloc(1, sizeof *t);
  if (t == NULL || (t->var = malloc((size_t)n * sizeof *t->var)) == NULL) {
    free(t);
    ol_err_set(e, OL_ENOMEM, "tape: out of memory");
    return NULL;
  }
  for (i = 0; i < n; i++) t->var[i] = -1;
  t->n = n;
  t->out = -1;
  t->flipped = -1;
  return t;
}

void ol_tape_free (ol_tape *t)
{
  if (t == NULL) return;
  free(t->node);
  free(t->val);
  free(t->val0);
  free(t->var);
  free(t->ins);
  free(t->guard);
  free(t->hash);
  free(t->adj);
  free(t->dot);
  free(t->adjd);
  free(t);
}

/* -- recording ------------------------------------------------------------ */

static int fail (ol_tape *t, int code, const char *why)
{
  if (!t->failed) {
    t->failed = code;
    snprintf(t->why, sizeof t->why, "%s", why);
  }
  return -1;
}

/* Grow *p (elements of size sz, capacity *cap) to hold need. */
static int grow (void **p, int *cap, int need, size_t sz)
{
  int c = *cap > 0 ? *cap : 64;
  void *q;
  if (need <= *cap) return 1;
  while (c < need) c *= 2;
  if ((q = realloc(*p, (size_t)c * sz)) == NULL) return 0;
  *p = q;
  *cap = c;
  return 1;
}

static unsigned hkey (int op, int a, int b, double c)
{
  uint64_t h = (uint64_t)(unsigned)op * 0x9e3779b97f4a7c15u;
  if (op == OL_AD_CONST) {
    uint64_t u;
    memcpy(&u, &c, sizeof u);
    h ^= u;
  }
  else h ^= (uint64_t)(unsigned)a * 0xc2b2ae3d27d4eb4fu
          + (uint64_t)(unsigned)b * 0x165667b19e3779f9u;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9u;
  h ^= h >> 32;
  return (unsigned)h;
}

/* The node equal to (op, a, b, c) already recorded, or -1; *slot gets
** where a new one goes. */
static int lookup (ol_tape *t, int op, int a, int b, double c, unsigned *slot)
{
  unsigned m = t->hcap - 1, i = hkey(op, a, b, c) & m;
  for (;; i = (i + 1) & m) {
    unsigned k = t->hash[i];
    const adnode *d;
    if (k == 0) {
      *slot = i;
      return -1;
    }
    d = &t->node[k - 1];
    if (d->op == op && (op == OL_AD_CONST
                        ? memcmp(&t->val[k - 1], &c, sizeof c) == 0
                        : d->a == a && d->b == b))
      return (int)k - 1;
  }
}

static int rehash (ol_tape *t)
{
  unsigned cap = t->hcap ? 2 * t->hcap : 256, i;
  unsigned *h = calloc(cap, sizeof *h), *old = t->hash, oc = t->hcap;
  if (h == NULL) return 0;
  t->hash = h;
  t->hcap = cap;
  for (i = 0; i < oc; i++)
    if (old[i] != 0) {
      const adnode *d = &t->node[old[i] - 1];
      unsigned m = cap - 1, j = hkey(d->op, d->a, d->b, t->val[old[i] - 1])
                                & m;
      while (h[j] != 0) j = (j + 1) & m;
      h[j] = old[i];
    }
  free(old);
  return 1;
}

/* Record node (op, a, b) of value v, shared with an equal one (inputs
** are asked for by index, ol_tape_var, and never hashed). */
static int record (ol_tape *t, int op, int a, int b, double v)
{
  unsigned slot = 0;
  int k;
  double *q;
  if (t->failed) return -1;
  if (t->out >= 0) return fail(t, OL_EINVAL, "recording after finish");
  if (op != OL_AD_VAR) {
    if (2 * (t->hcount + 1) > t->hcap && !rehash(t))
      return fail(t, OL_ENOMEM, "out of memory");
    if ((k = lookup(t, op, a, b, v, &slot)) >= 0) return k;
  }
  if (t->nnodes >= OL_TAPE_MAXNODES)
    return fail(t, OL_EINVAL, "more than 2^26 nodes");
  k = t->nnodes;
  if (k >= t->capnodes) {
    int cap = t->capnodes;
    if (!grow((void **)&t->node, &cap, k + 1, sizeof *t->node))
      return fail(t, OL_ENOMEM, "out of memory");
    if ((q = realloc(t->val, (size_t)cap * sizeof *q)) == NULL)
      return fail(t, OL_ENOMEM, "out of memory");
    t->val = q;
    t->capnodes = cap;
  }
  if (op != OL_AD_CONST && op != OL_AD_VAR) {
    if (!grow((void **)&t->ins, &t->capins, t->nins + 1, sizeof *t->ins))
      return fail(t, OL_ENOMEM, "out of memory");
    t->ins[t->nins].op = op;
    t->ins[t->nins].dst = k;
    t->ins[t->nins].a = a;
    t->ins[t->nins].b = b;
    t->nins++;
  }
  t->node[k].op = op;
  t->node[k].a = a;
  t->node[k].b = b;
  t->val[k] = v;
  t->nnodes++;
  if (op != OL_AD_VAR) {
    t->hash[slot] = (unsigned)k + 1;
    t->hcount++;
  }
  return k;
}

int ol_tape_var (ol_tape *t, int i, double x)
{
  if (i < 0 || i >= t->n) return fail(t, OL_EINVAL, "input out of range");
  if (t->var[i] < 0) t->var[i] = record(t, OL_AD_VAR, i, -1, x);
  return t->var[i];
}

int ol_tape_const (ol_tape *t, double c)
{
  return record(t, OL_AD_CONST, -1, -1, c);
}

static int bad (const ol_tape *t, int k)
{
  return k < 0 || k >= t->nnodes;
}

/* The value of a unary op at a. */
static double apply1 (int op, double a)
{
  switch (op) {
  case OL_AD_NEG: return -a;
  case OL_AD_SQR: return a * a;
  case OL_AD_EXP: return exp(a);
  case OL_AD_LOG: return log(a);
  case OL_AD_SQRT: return sqrt(a);
  case OL_AD_SIN: return sin(a);
  case OL_AD_COS: return cos(a);
  case OL_AD_TAN: return tan(a);
  case OL_AD_ATAN: return atan(a);
  case OL_AD_TANH: return tanh(a);
  case OL_AD_LOG1P: return log1p(a);
  case OL_AD_EXPM1: return expm1(a);
  default: return NAN;
  }
}

static double apply2 (int op, double a, double b)
{
  switch (op) {
  case OL_AD_ADD: return a + b;
  case OL_AD_SUB: return a - b;
  case OL_AD_MUL: return a * b;
  case OL_AD_DIV: return a / b;
  case OL_AD_POW: case OL_AD_POWC: return pow(a, b);
  default: return NAN;
  }
}

int ol_tape_op1 (ol_tape *t, int op, int a)
{
  if (t->failed) return -1;
  if (op < OL_AD_NEG || op >= OL_AD_NOPS || bad(t, a))
    return fail(t, OL_EINVAL, "bad unary operation");
  if (t->node[a].op == OL_AD_CONST)                    /* fold */
    return ol_tape_const(t, apply1(op, t->val[a]));
  if (op == OL_AD_NEG && t->node[a].op == OL_AD_NEG)   /* -(-x) */
    return t->node[a].a;
  return record(t, op, a, -1, apply1(op, t->val[a]));
}

int ol_tape_op2 (ol_tape *t, int op, int a, int b)
{
  int ca, cb;
  double va, vb;
  if (t->failed) return -1;
  if (op < OL_AD_ADD || op > OL_AD_POWC || bad(t, a) || bad(t, b))
    return fail(t, OL_EINVAL, "bad binary operation");
  ca = t->node[a].op == OL_AD_CONST;
  cb = t->node[b].op == OL_AD_CONST;
  va = t->val[a];
  vb = t->val[b];
  if (ca && cb) return ol_tape_const(t, apply2(op, va, vb));
  /* identities (exact up to the sign of a zero result) */
  switch (op) {
  case OL_AD_ADD:
    if (ca && va == 0) return b;
    if (cb && vb == 0) return a;
    if (a > b) {                                  /* one order for CSE */
      int s = a;
      a = b;
      b = s;
      va = t->val[a];
      vb = t->val[b];
    }
    break;
  case OL_AD_SUB:
    if (cb && vb == 0) return a;
    if (ca && va == 0) return ol_tape_op1(t, OL_AD_NEG, b);
    break;
  case OL_AD_MUL:
    if (ca && va == 1) return b;
    if (cb && vb == 1) return a;
    if (ca && va == -1) return ol_tape_op1(t, OL_AD_NEG, b);
    if (cb && vb == -1) return ol_tape_op1(t, OL_AD_NEG, a);
    if (a == b) return ol_tape_op1(t, OL_AD_SQR, a);
    if (a > b) {
      int s = a;
      a = b;
      b = s;
      va = t->val[a];
      vb = t->val[b];
    }
    break;
  case OL_AD_DIV:
    if (cb && vb == 1) return a;
    break;
  case OL_AD_POW: case OL_AD_POWC:
    if (cb) {
      if (vb == 1) return a;
      if (vb == 0) return ol_tape_const(t, 1);
      if (vb == 2) return ol_tape_op1(t, OL_AD_SQR, a);
      op = OL_AD_POWC;
    }
    else if (op == OL_AD_POWC)
      return fail(t, OL_EINVAL, "powc with a non-constant exponent");
    break;
  default:
    break;
  }
  return record(t, op, a, b, apply2(op, va, vb));
}

double ol_tape_value (const ol_tape *t, int k)
{
  if (bad(t, k)) return NAN;
  return t->out >= 0 ? t->val0[k] : t->val[k];
}

int ol_tape_isconst (const ol_tape *t, int k)
{
  return !bad(t, k) && t->node[k].op == OL_AD_CONST;
}

static int holds (int rel, double a, double b)
{
  return rel == OL_AD_LT ? a < b : rel == OL_AD_LE ? a <= b : a == b;
}

int ol_tape_guard (ol_tape *t, int rel, int a, int b)
{
  int out, i;
  adguard *gd;
  if (t->failed) return -1;
  if (rel < OL_AD_LT || rel > OL_AD_EQ || bad(t, a) || bad(t, b))
    return fail(t, OL_EINVAL, "bad guard");
  out = holds(rel, t->val[a], t->val[b]);
  if (t->node[a].op == OL_AD_CONST && t->node[b].op == OL_AD_CONST)
    return out;
  for (i = t->nguards - 1; i >= 0 && i >= t->nguards - 8; i--) {
    gd = &t->guard[i];
    if (gd->rel == rel && gd->a == a && gd->b == b) return out;
  }
  if (!grow((void **)&t->guard, &t->capguards, t->nguards + 1,
            sizeof *t->guard))
    return fail(t, OL_ENOMEM, "out of memory");
  gd = &t->guard[t->nguards++];
  gd->rel = rel;
  gd->a = a;
  gd->b = b;
  gd->out = out;
  return out;
}

int ol_tape_finish (ol_tape *t, int k, ol_err *e)
{
  size_t sz;
  if (!t->failed && t->out >= 0) fail(t, OL_EINVAL, "finished twice");
  if (!t->failed && bad(t, k)) fail(t, OL_EINVAL, "bad output node");
  if (t->failed)
    return ol_err_set(e, t->failed, "tape: recording failed: %s", t->why);
  free(t->hash);
  t->hash = NULL;
  t->hcap = t->hcount = 0;
  sz = (size_t)t->nnodes * sizeof(double);
  t->val0 = malloc(sz);
  t->adj = malloc(sz);
  t->dot = malloc(sz);
  t->adjd = malloc(sz);
  if (t->val0 == NULL || t->adj == NULL || t->dot == NULL ||
      t->adjd == NULL) {
    t->failed = OL_ENOMEM;
    snprintf(t->why, sizeof t->why, "out of memory");
    return ol_err_set(e, OL_ENOMEM, "tape: out of memory");
  }
  memcpy(t->val0, t->val, sz);
  t->out = k;
  return OL_OK;
}

/* -- evaluation ----------------------------------------------------------- */

/* The value and gradient sweeps dispatch on the op once per instruction.
** With GCC or Clang they jump through a table of label addresses
** (threaded code: one indirect jump per instruction, each at its own
** site, which the branch predictor learns; twice as fast as the switch on
** a 1000-d Rosenbrock); elsewhere, or with -DOL_AD_SWITCH, a switch.  In
** both, CASE(op) starts an op's body, OTHER the unary functions', and
** NEXT(cond) moves on while cond holds (cond advances p). */
#if defined(__GNUC__) && !defined(OL_AD_SWITCH)
#define OL_AD_THREADED 1
#define BEGIN(cond) if (!(cond)) goto done; goto *jt[p->op]; {
#define CASE(op) l_##op:
#define OTHER l_other:
#define NEXT(cond) do { if (cond) goto *jt[p->op]; goto done; } while (0)
#define DONE done: (void)0
#else
#define CASE(op) case op:
#define OTHER default:
#define NEXT(cond) break
#define DONE (void)0
#endif

int ol_tape_forward (ol_tape *t, const double *x, double *f)
{
  double *v = t->val;
  /* no arithmetic on a NULL ins (an empty tape) */
  const adins *p = t->ins,
              *end = t->nins > 0 ? t->ins + t->nins : t->ins;
  int i;
  for (i = 0; i < t->n; i++)
    if (t->var[i] >= 0) v[t->var[i]] = x[i];
#ifdef OL_AD_THREADED
  static const void *const jt[OL_AD_NOPS] = {
    &&l_other, &&l_other, &&l_OL_AD_ADD, &&l_OL_AD_SUB, &&l_OL_AD_MUL,
    &&l_OL_AD_DIV, &&l_OL_AD_POW, &&l_OL_AD_POWC, &&l_OL_AD_NEG,
    &&l_OL_AD_SQR, &&l_other, &&l_other, &&l_other, &&l_other, &&l_other,
    &&l_other, &&l_other, &&l_other, &&l_other, &&l_other
  };
  BEGIN(p < end);
#else
  for (; p < end; p++) switch (p->op) {
#endif
  CASE(OL_AD_ADD) v[p->dst] = v[p->a] + v[p->b]; NEXT(++p < end);
  CASE(OL_AD_SUB) v[p->dst] = v[p->a] - v[p->b]; NEXT(++p < end);
  CASE(OL_AD_MUL) v[p->dst] = v[p->a] * v[p->b]; NEXT(++p < end);
  CASE(OL_AD_DIV) v[p->dst] = v[p->a] / v[p->b]; NEXT(++p < end);
  CASE(OL_AD_POWC)
  CASE(OL_AD_POW) v[p->dst] = pow(v[p->a], v[p->b]); NEXT(++p < end);
  CASE(OL_AD_NEG) v[p->dst] = -v[p->a]; NEXT(++p < end);
  CASE(OL_AD_SQR) v[p->dst] = v[p->a] * v[p->a]; NEXT(++p < end);
  OTHER v[p->dst] = apply1(p->op, v[p->a]); NEXT(++p < end);
  }
  DONE;
  for (i = 0; i < t->nguards; i++) {
    const adguard *gd = &t->guard[i];
    if (holds(gd->rel, v[gd->a], v[gd->b]) != gd->out) {
      t->flipped = i;
      return 0;
    }
  }
  t->flipped = -1;
  if (f != NULL) *f = v[t->out];
  return 1;
}

int ol_tape_flipped (const ol_tape *t)
{
  return t->flipped;
}

/* The first partial of a unary op at a with value y. */
static double d1 (int op, double a, double y)
{
  switch (op) {
  case OL_AD_NEG: return -1;
  case OL_AD_SQR: return 2 * a;
  case OL_AD_EXP: return y;
  case OL_AD_LOG: return 1 / a;
  case OL_AD_SQRT: return 0.5 / y;
  case OL_AD_SIN: return cos(a);
  case OL_AD_COS: return -sin(a);
  case OL_AD_TAN: return 1 + y * y;
  case OL_AD_ATAN: return 1 / (1 + a * a);
  case OL_AD_TANH: return 1 - y * y;
  case OL_AD_LOG1P: return 1 / (1 + a);
  case OL_AD_EXPM1: return y + 1;
  default: return NAN;
  }
}

/* d/da of a ^ b (value y): b a^(b - 1), exact at a = 0 for b >= 1. */
static double dpow_a (double a, double b)
{
  return b == 0 ? 0 : b * pow(a, b - 1);
}

/* The reverse sweep's step: the instruction before p, if any (p is moved
** only while it is above beg, so it never points before the array). */
#define BACK (p > beg && (--p, 1))

/* d/db of a ^ b = y log a (0 where y = 0: a = 0 with b > 0). */
static double dpow_b (double a, double y)
{
  return y == 0 ? 0 : y * log(a);
}

void ol_tape_reverse (ol_tape *t, double *g)
{
  double *v = t->val, *w = t->adj;
  const adins *p = t->nins > 0 ? t->ins + t->nins : t->ins,
              *beg = t->ins;
  int i;
  memset(w, 0, (size_t)t->nnodes * sizeof *w);
  w[t->out] = 1;
#ifdef OL_AD_THREADED
  static const void *const jt[OL_AD_NOPS] = {
    &&l_other, &&l_other, &&l_OL_AD_ADD, &&l_OL_AD_SUB, &&l_OL_AD_MUL,
    &&l_OL_AD_DIV, &&l_OL_AD_POW, &&l_OL_AD_POWC, &&l_OL_AD_NEG,
    &&l_OL_AD_SQR, &&l_other, &&l_other, &&l_other, &&l_other, &&l_other,
    &&l_other, &&l_other, &&l_other, &&l_other, &&l_other
  };
  BEGIN(BACK);
#else
  while (BACK) switch (p->op) {
#endif
  CASE(OL_AD_ADD) w[p->a] += w[p->dst]; w[p->b] += w[p->dst]; NEXT(BACK);
  CASE(OL_AD_SUB) w[p->a] += w[p->dst]; w[p->b] -= w[p->dst]; NEXT(BACK);
  CASE(OL_AD_MUL) {
    double y = w[p->dst];
    w[p->a] += y * v[p->b];
    w[p->b] += y * v[p->a];
    NEXT(BACK);
  }
  CASE(OL_AD_DIV) {
    double r = w[p->dst] / v[p->b];
    w[p->a] += r;
    w[p->b] -= r * v[p->dst];
    NEXT(BACK);
  }
  CASE(OL_AD_POW)
    w[p->a] += w[p->dst] * dpow_a(v[p->a], v[p->b]);
    w[p->b] += w[p->dst] * dpow_b(v[p->a], v[p->dst]);
    NEXT(BACK);
  CASE(OL_AD_POWC)
    w[p->a] += w[p->dst] * dpow_a(v[p->a], v[p->b]);
    NEXT(BACK);
  CASE(OL_AD_NEG) w[p->a] -= w[p->dst]; NEXT(BACK);
  CASE(OL_AD_SQR) w[p->a] += w[p->dst] * (v[p->a] + v[p->a]); NEXT(BACK);
  OTHER w[p->a] += w[p->dst] * d1(p->op, v[p->a], v[p->dst]); NEXT(BACK);
  }
  DONE;
  for (i = 0; i < t->n; i++) g[i] = t->var[i] >= 0 ? w[t->var[i]] : 0;
}

/* The partials of instruction p at the values v: first (pa, pb) and
** second (paa, pab, pbb); the b ones are 0 for a unary op. */
static void partials (const adins *p, const double *v, double *pa,
                      double *pb, double *paa, double *pab, double *pbb)
{
  double a = v[p->a], y = v[p->dst], b = p->b >= 0 ? v[p->b] : 0;
  *pb = *pab = *pbb = 0;
  switch (p->op) {
  case OL_AD_ADD: *pa = 1; *pb = 1; *paa = 0; return;
  case OL_AD_SUB: *pa = 1; *pb = -1; *paa = 0; return;
  case OL_AD_MUL: *pa = b; *pb = a; *paa = 0; *pab = 1; return;
  case OL_AD_DIV:
    *pa = 1 / b;
    *pb = -y / b;
    *paa = 0;
    *pab = -1 / (b * b);
    *pbb = 2 * y / (b * b);
    return;
  case OL_AD_POW: case OL_AD_POWC:
    *pa = dpow_a(a, b);
    *paa = b == 0 || b == 1 ? 0 : b * (b - 1) * pow(a, b - 2);
    if (p->op == OL_AD_POW) {
      double la = y == 0 ? 0 : log(a);
      *pb = y * la;
      *pab = pow(a, b - 1) * (1 + b * la);
      *pbb = y * la * la;
    }
    return;
  case OL_AD_NEG: *pa = -1; *paa = 0; return;
  case OL_AD_SQR: *pa = 2 * a; *paa = 2; return;
  case OL_AD_EXP: *pa = y; *paa = y; return;
  case OL_AD_LOG: *pa = 1 / a; *paa = -1 / (a * a); return;
  case OL_AD_SQRT: *pa = 0.5 / y; *paa = -0.25 / (y * y * y); return;
  case OL_AD_SIN: *pa = cos(a); *paa = -y; return;
  case OL_AD_COS: *pa = -sin(a); *paa = -y; return;
  case OL_AD_TAN: *pa = 1 + y * y; *paa = 2 * y * (1 + y * y); return;
  case OL_AD_ATAN: {
    double q = 1 / (1 + a * a);
    *pa = q;
    *paa = -2 * a * q * q;
    return;
  }
  case OL_AD_TANH: *pa = 1 - y * y; *paa = -2 * y * (1 - y * y); return;
  case OL_AD_LOG1P: {
    double q = 1 / (1 + a);
    *pa = q;
    *paa = -q * q;
    return;
  }
  case OL_AD_EXPM1: *pa = y + 1; *paa = y + 1; return;
  default: *pa = *paa = NAN; return;
  }
}

void ol_tape_hvp (ol_tape *t, const double *vv, double *hv, double *g)
{
  double *v = t->val, *d = t->dot, *w = t->adj, *wd = t->adjd;
  const adins *p, *beg = t->ins,
              *end = t->nins > 0 ? t->ins + t->nins : t->ins;
  size_t sz = (size_t)t->nnodes * sizeof *d;
  int i;
  /* (1) tangents along vv */
  memset(d, 0, sz);
  for (i = 0; i < t->n; i++)
    if (t->var[i] >= 0) d[t->var[i]] = vv[i];
  for (p = beg; p < end; p++) {
    double pa, pb, paa, pab, pbb;
    partials(p, v, &pa, &pb, &paa, &pab, &pbb);
    d[p->dst] = pa * d[p->a] + (p->b >= 0 ? pb * d[p->b] : 0);
  }
  /* (2) adjoints and their tangents, backwards */
  memset(w, 0, sz);
  memset(wd, 0, sz);
  w[t->out] = 1;
  for (p = end; BACK;) {
    double y = w[p->dst], yd = wd[p->dst], pa, pb, paa, pab, pbb, da, db;
    if (y == 0 && yd == 0) continue;
    partials(p, v, &pa, &pb, &paa, &pab, &pbb);
    da = d[p->a];
    db = p->b >= 0 ? d[p->b] : 0;
    w[p->a] += y * pa;
    wd[p->a] += yd * pa + y * (paa * da + pab * db);
    if (p->b >= 0 && t->node[p->b].op != OL_AD_CONST) {
      w[p->b] += y * pb;
      wd[p->b] += yd * pb + y * (pab * da + pbb * db);
    }
  }
  for (i = 0; i < t->n; i++) {
    int k = t->var[i];
    hv[i] = k >= 0 ? wd[k] : 0;
    if (g != NULL) g[i] = k >= 0 ? w[k] : 0;
  }
}

void ol_tape_hessian (ol_tape *t, double *H)
{
  int n = t->n, i, j;
  for (i = 0; i < n; i++) {
    double *row = H + (size_t)i * n;
    /* e_i in the row itself: hvp reads vv before it writes hv */
    memset(row, 0, (size_t)n * sizeof *row);
    row[i] = 1;
    ol_tape_hvp(t, row, row, NULL);
  }
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++) {
      double s = 0.5 * (H[(size_t)i * n + j] + H[(size_t)j * n + i]);
      H[(size_t)i * n + j] = H[(size_t)j * n + i] = s;
    }
}

/* -- inspection ----------------------------------------------------------- */

int ol_tape_n (const ol_tape *t) { return t->n; }
int ol_tape_nnodes (const ol_tape *t) { return t->nnodes; }
int ol_tape_nops (const ol_tape *t) { return t->nins; }
int ol_tape_nguards (const ol_tape *t) { return t->nguards; }
int ol_tape_output (const ol_tape *t) { return t->out; }

int ol_tape_node (const ol_tape *t, int k, int *op, int *a, int *b,
                  double *v)
{
  if (bad(t, k)) return 0;
  *op = t->node[k].op;
  *a = t->node[k].a;
  *b = t->node[k].b;
  *v = ol_tape_value(t, k);
  return 1;
}

int ol_tape_guardinfo (const ol_tape *t, int k, int *rel, int *a, int *b,
                       int *outcome)
{
  if (k < 0 || k >= t->nguards) return 0;
  *rel = t->guard[k].rel;
  *a = t->guard[k].a;
  *b = t->guard[k].b;
  *outcome = t->guard[k].out;
  return 1;
}
