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
** H v = xbar'.  The second-order sweep runs over the recorded
** instructions and asks one function for the five partials.
**
** The unary partials keep their relative accuracy where the op saturates
** (issue 22): tanh' = sech^2 = 4 e / (1 + e)^2, e = exp(-2|a|) (not
** 1 - tanh^2, 0 from a = 19.1); expm1' = exp(a) (not y + 1); atan' =
** r^2 / (1 + r^2), r = 1/a, for |a| > 1; lgamma' = psi and lgamma'' =
** psi' (ol_digamma, ol_trigamma at the end: the recurrence psi(x + 1) =
** psi(x) + 1/x to x >= 12, then the asymptotic series, Abramowitz &
** Stegun 6.3.5, 6.3.18, 6.4.6, 6.4.12, and the reflection formulas
** 6.3.7, 6.4.7 for x <= 0).
**
** Nodes are numbered in the order they are recorded, so every operand
** precedes its result and a sweep in instruction order is a topological
** order.  Constants and inputs hold their values in val[] and are not
** instructions.
**
** The value and gradient sweeps run a second form of the instructions,
** the program, compiled by ol_tape_finish (see "compiling" below): slots
** renumber the nodes (slot i is input i, then the constants, then one
** slot per program instruction, so a result's slot is implicit), op
** codes are a byte array and operands int32 arrays (a struct of arrays),
** an operand that is a constant has its own op codes (its value kept in
** the instruction, its adjoint never formed), instructions whose result
** has no other use are fused into their user ((a - b)^2, a - b^2,
** (a - b^2)^2, a + b c, a + b^2, (a + b c) + e), and the chain of a sum
** s = s + term runs through a register.  The program's values and
** gradients are the recorded instructions' bit for bit: each fused form
** rounds the same operations in the same order and adds to each adjoint
** in the same order (an intermediate adjoint may differ in the sign of a
** zero, which reaches no gradient).  hvp runs the recorded instructions
** on values it recomputes from the program's inputs when they are stale.
*/
#include <limits.h>
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
  int maxnodes;          /* ol_tape_limit */
  char why[96];
  unsigned *hash;        /* CSE table: node + 1, 0 = empty (recording) */
  unsigned hcap, hcount;
  double *adj, *dot, *adjd;   /* work (nnodes each, from finish) */
  int flipped;
  /* the program (ol_tape_finish): nprog instructions; instruction i has
  ** op code code[i], operand slots pa[i] .. pd[i] (-1 when unused)
  ** and result slot base + i; slot i < n is input i (used or not), then
  ** the constants up to base.  cv and cw are the slots' values and adjoints. */
  int nslot, base, nprog;
  unsigned char *code;
  int32_t *pa, *pb, *pc, *pd;
  double *pk;            /* the constant operand's value (codes ..C..) */
  int32_t *gslot;        /* 2 nguards: the guards' operand slots */
  int oslot;             /* slot of the output */
  double *cv, *cw;
  const void **fip, **rip;    /* threaded code: the sweeps' labels */
  int fready, rready;         /* fip, rip filled in */
  int stale;             /* val[] is not at the last forward sweep's x */
};

static const char *const opnames[OL_AD_NOPS] = {
  "const", "var", "add", "sub", "mul", "div", "pow", "powc", "neg", "sqr",
  "exp", "log", "sqrt", "sin", "cos", "tan", "atan", "tanh", "log1p",
  "expm1", "lgamma"
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
  t->maxnodes = OL_TAPE_MAXNODES;
  return t;
}

const char *ol_tape_why (const ol_tape *t)
{
  return t->failed ? t->why : "";
}

void ol_tape_limit (ol_tape *t, int maxnodes)
{
  t->maxnodes = maxnodes >= 1 && maxnodes <= OL_TAPE_MAXNODES ? maxnodes
                : OL_TAPE_MAXNODES;
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
  free(t->code);
  free(t->pa);
  free(t->pb);
  free(t->pc);
  free(t->pd);
  free(t->pk);
  free(t->gslot);
  free(t->cv);
  free(t->cw);
  free(t->fip);
  free(t->rip);
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
  if (t->nnodes >= t->maxnodes) {
    char why[64];
    snprintf(why, sizeof why, "more than %d nodes", t->maxnodes);
    return fail(t, OL_EINVAL, why);
  }
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
  case OL_AD_LGAMMA: return lgamma(a);
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

/* -- compiling ------------------------------------------------------------ */

/* Program op codes.  The recorded ops keep their codes (OL_AD_ADD ..
** OL_AD_EXPM1, on slots a and b); the others are forms with a constant
** operand, the constant in b (its value kept in the instruction, pk;
** its adjoint is not formed):
**   ADDC a + c   SUBC a - c   CSUB c - a   MULC a c   DIVC a / c
**   CDIV c / a
** and fused ones, recorded as d = ..., y = f(d) where d has no other use
** (not a guard's operand, not the output):
**   SUBSQR  (a - b)^2       from d = a - b, y = d^2 (and SUBCSQR
**                           (a - c)^2, CSUBSQR (c - a)^2 from SUBC, CSUB)
**   ADDMUL  a + b c         from d = b c, y = a + d or d + a (ADDMULC
**                           when c is a constant)
**   ADDSQR  a + b^2         from d = b^2, y = a + d or d + a
**   SUBSQ   a - b^2         from d = b^2, y = a - d
**   SUBSQSQR (a - b^2)^2    from d = SUBSQ(a, b), y = d^2 (a term of
**                           Rosenbrock's function, one instruction)
**   ADDMULADD (a + b c) + e from d = ADDMUL(a, b, c), y = d + e or e + d
**                           (ADDMULCADD from ADDMULC): a sum's chain
**                           s = s + 100 u + r is one instruction a term
** A fused form computes d exactly as d's instructions did (d itself is
** not kept) and, in the reverse sweep, adds y's own partials to its
** operands' adjoints, then d's in d's order: what the instructions added,
** in the same order, provided no instruction between d's and y uses an
** operand of d (fuse() checks that).
**
** Sums: the forms y = a + ... (ADD of two nodes and the fused ADD forms,
** the family below) are how a sum s = s + term is recorded, and s is a
** chain through every term.  When a family instruction's a is the result
** of the family instruction before it and has no other use, it takes the
** value from a register instead of val (the forward sweep keeps the last
** family result in one; code _I, "in"), and in the reverse sweep hands
** its adjoint over in a register (the one before reads it: code _O,
** "out"; _IO both), so the chain runs through no memory.  The adjoint
** handed over is y's partial itself, not 0 + it as the unfused sweep
** formed it: they differ only in the sign of a zero, which reaches no
** gradient (inputs' adjoints start at +0 and sums with +0 drop it). */
#define FAMILY(X) X(ADD) X(ADDMUL) X(ADDMULC) X(ADDSQR) X(ADDMULADD) \
  X(ADDMULCADD)
#define FLAGGED(f) P_##f##_I, P_##f##_O, P_##f##_IO,
enum {
  P_ADDC = OL_AD_NOPS, P_SUBC, P_CSUB, P_MULC, P_DIVC, P_CDIV,
  P_SUBSQR, P_SUBCSQR, P_CSUBSQR, P_ADDMUL, P_ADDMULC, P_ADDSQR,
  P_ADDMULADD, P_ADDMULCADD, P_SUBSQ, P_SUBSQSQR,
  FAMILY(FLAGGED)
  P_NCODES
};

/* The family index of op code k (ADD 0 .. ADDMULCADD 5), or -1. */
static int family (int k)
{
  return k == OL_AD_ADD ? 0 : k >= P_ADDMUL && k <= P_ADDMULCADD
         ? k - P_ADDMUL + 1 : -1;
}

/* What compile() knows of the recorded instructions: per node its
** instruction (-1 for an input or constant) and number of uses (operand
** places, the output and guards' operands); per instruction its program
** op code, up to 4 operand nodes (o, -1 when unused) with, for each, the
** next instruction after the one the operand came from that uses it
** (nx, INT_MAX when none), whether it was fused into a later one, and
** its register flags (1 in, 2 out; see "Sums"). */
typedef struct compwork {
  int *insof, *uses, *nxa, *nxb, *o, *nx;     /* o, nx: 4 a instruction */
  unsigned char *kind, *fused, *flag;
} compwork;

static int isconst (const ol_tape *t, int k)
{
  return k >= 0 && t->node[k].op == OL_AD_CONST;
}

/* Node k as a candidate d to fuse into instruction y: its instruction's
** index, or -1 when it is not one or cannot be fused. */
static int fuse (const ol_tape *t, const compwork *c, int k, int y)
{
  int j = t->node[k].op == OL_AD_VAR ? -1 : c->insof[k], i;
  if (j < 0 || c->uses[k] != 1 || c->fused[j]) return -1;
  for (i = 0; i < 4; i++) {
    int p = c->o[4 * j + i];
    if (p >= 0 && !isconst(t, p) && c->nx[4 * j + i] < y) return -1;
  }
  return j;
}

/* Instruction j takes d's operands after its own first n. */
static void absorb (compwork *c, int j, int n, int d)
{
  int i;
  for (i = 0; n + i < 4 && i < 4; i++) {
    c->o[4 * j + n + i] = c->o[4 * d + i];
    c->nx[4 * j + n + i] = c->nx[4 * d + i];
  }
  c->fused[d] = 1;
}

/* A binary op whose first operand is the constant: the variable operand
** (and its next use) moves to the front, the constant to the second slot
** (the constant-operand codes read the variable from o[0]). */
static void constfirst (int *o, int *nx)
{
  int a = o[0];
  o[0] = o[1];
  o[1] = a;
  nx[0] = nx[1];
}

/* The program op code and operands of instruction j (c->kind, c->o,
** c->nx), fusing an operand's instruction into it when a pattern
** applies. */
static void choose (const ol_tape *t, compwork *c, int j)
{
  const adins *p = &t->ins[j];
  int a = p->a, b = p->b, *o = &c->o[4 * j], *nx = &c->nx[4 * j], d, k;
  unsigned char kind = (unsigned char)p->op;
  o[0] = a;
  o[1] = b;
  o[2] = o[3] = -1;
  nx[0] = c->nxa[j];
  nx[1] = c->nxb[j];
  nx[2] = nx[3] = INT_MAX;
  switch (p->op) {
  case OL_AD_SQR:
    if ((d = fuse(t, c, a, j)) >= 0 && (c->kind[d] == OL_AD_SUB ||
        c->kind[d] == P_SUBC || c->kind[d] == P_CSUB)) {
      kind = c->kind[d] == OL_AD_SUB ? P_SUBSQR : c->kind[d] == P_SUBC
             ? P_SUBCSQR : P_CSUBSQR;
      absorb(c, j, 0, d);
    }
    else if (d >= 0 && c->kind[d] == P_SUBSQ) {
      kind = P_SUBSQSQR;
      absorb(c, j, 0, d);
    }
    break;
  case OL_AD_ADD:
    for (k = 1; k >= 0; k--) {                /* b first, then a */
      int m = k ? b : a, other = k ? a : b, knx = k ? nx[0] : nx[1];
      unsigned char dk;
      if ((d = fuse(t, c, m, j)) < 0) continue;
      dk = c->kind[d];
      if (dk == OL_AD_MUL || dk == P_MULC)
        kind = dk == OL_AD_MUL ? P_ADDMUL : P_ADDMULC;
      else if (dk == OL_AD_SQR)
        kind = P_ADDSQR;
      else if (dk == P_ADDMUL || dk == P_ADDMULC) {
        /* (a + b c) + e: e is the last operand, its update the first */
        kind = dk == P_ADDMUL ? P_ADDMULADD : P_ADDMULCADD;
        absorb(c, j, 0, d);
        o[3] = other;
        nx[3] = knx;
        break;
      }
      else
        continue;
      o[0] = other;
      nx[0] = knx;
      absorb(c, j, 1, d);
      break;
    }
    if (kind != OL_AD_ADD) break;
    if (isconst(t, a)) {
      kind = P_ADDC;
      o[0] = b;
      o[1] = a;
    }
    else if (isconst(t, b))
      kind = P_ADDC;
    break;
  case OL_AD_SUB:
    if ((d = fuse(t, c, b, j)) >= 0 && c->kind[d] == OL_AD_SQR) {
      kind = P_SUBSQ;
      absorb(c, j, 1, d);
    }
    else if (isconst(t, b)) kind = P_SUBC;
    else if (isconst(t, a)) {
      kind = P_CSUB;
      constfirst(o, nx);
    }
    break;
  case OL_AD_MUL:
    if (isconst(t, b)) kind = P_MULC;
    else if (isconst(t, a)) {
      kind = P_MULC;
      constfirst(o, nx);
    }
    break;
  case OL_AD_DIV:
    if (isconst(t, b)) kind = P_DIVC;
    else if (isconst(t, a)) {
      kind = P_CDIV;
      constfirst(o, nx);
    }
    break;
  default:
    break;
  }
  c->kind[j] = kind;
}

/* Build the program from the recorded instructions (see tape.c's header
** and the op codes above): 1 on success, 0 out of memory. */
static int compile (ol_tape *t)
{
  compwork c;
  int nn = t->nnodes, ni = t->nins, *last, *slot, i, j, ok = 0;
  size_t ni1 = (size_t)(ni > 0 ? ni : 1);
  memset(&c, 0, sizeof c);
  c.insof = malloc((size_t)nn * sizeof *c.insof);
  c.uses = calloc((size_t)nn, sizeof *c.uses);
  c.nxa = malloc(ni1 * sizeof *c.nxa);
  c.nxb = malloc(ni1 * sizeof *c.nxb);
  c.o = malloc(4 * ni1 * sizeof *c.o);
  c.nx = malloc(4 * ni1 * sizeof *c.nx);
  c.kind = malloc(ni1);
  c.fused = calloc(ni1, 1);
  c.flag = calloc(ni1, 1);
  if (c.insof == NULL || c.uses == NULL || c.nxa == NULL || c.nxb == NULL
      || c.o == NULL || c.nx == NULL || c.kind == NULL || c.fused == NULL
      || c.flag == NULL)
    goto done;
  last = c.insof;                 /* (1) next uses, backwards */
  for (i = 0; i < nn; i++) last[i] = INT_MAX;
  for (j = ni - 1; j >= 0; j--) {
    const adins *p = &t->ins[j];
    c.nxa[j] = last[p->a];
    c.nxb[j] = p->b >= 0 ? last[p->b] : INT_MAX;
    last[p->a] = j;
    if (p->b >= 0) last[p->b] = j;
    c.uses[p->a]++;
    if (p->b >= 0) c.uses[p->b]++;
  }
  c.uses[t->out]++;
  for (i = 0; i < t->nguards; i++) {
    c.uses[t->guard[i].a]++;
    c.uses[t->guard[i].b]++;
  }
  for (i = 0; i < nn; i++) c.insof[i] = -1;
  for (j = 0; j < ni; j++) c.insof[t->ins[j].dst] = j;
  for (j = 0; j < ni; j++) choose(t, &c, j);   /* (2) op codes, fusion */
  {                               /* (3) sums' chains in registers */
    int prev = -1, pj = -1;       /* the last family instruction */
    unsigned char *fl = c.flag;
    for (j = 0; j < ni; j++) {
      int *o = &c.o[4 * j];
      if (c.fused[j] || family(c.kind[j]) < 0) continue;
      if (prev >= 0 && c.uses[prev] == 1 && c.kind[j] == OL_AD_ADD &&
          o[1] == prev) {
        o[1] = o[0];              /* a + b = b + a, and a != b here */
        o[0] = prev;
      }
      if (prev >= 0 && c.uses[prev] == 1 && o[0] == prev) {
        fl[j] |= 1;
        fl[pj] |= 2;
      }
      prev = t->ins[j].dst;
      pj = j;
    }
    for (j = 0; j < ni; j++)
      if (fl[j])
        c.kind[j] = (unsigned char)(P_ADD_I + 3 * family(c.kind[j])
                                    + (fl[j] == 1 ? 0 : fl[j] == 2 ? 1 : 2));
  }
  slot = c.uses;                  /* (4) slots */
  t->base = t->n;                 /* input i is slot i, used or not */
  for (i = 0; i < nn; i++) {
    int op = t->node[i].op;
    slot[i] = op == OL_AD_VAR ? t->node[i].a : op == OL_AD_CONST
              ? t->base++ : -1;
  }
  t->nprog = 0;
  for (j = 0; j < ni; j++)
    if (!c.fused[j]) slot[t->ins[j].dst] = t->base + t->nprog++;
  t->nslot = t->base + t->nprog;
  i = t->nprog > 0 ? t->nprog : 1;   /* (5) the arrays */
  t->code = malloc((size_t)i);
  t->pa = malloc((size_t)i * sizeof *t->pa);
  t->pb = malloc((size_t)i * sizeof *t->pb);
  t->pc = malloc((size_t)i * sizeof *t->pc);
  t->pd = malloc((size_t)i * sizeof *t->pd);
  t->pk = malloc((size_t)i * sizeof *t->pk);
  t->fip = malloc((size_t)i * sizeof *t->fip);
  t->rip = malloc((size_t)i * sizeof *t->rip);
  t->gslot = malloc(2 * (size_t)(t->nguards > 0 ? t->nguards : 1)
                    * sizeof *t->gslot);
  t->cv = malloc((size_t)t->nslot * sizeof *t->cv);
  t->cw = malloc((size_t)t->nslot * sizeof *t->cw);
  if (t->code == NULL || t->pa == NULL || t->pb == NULL || t->pc == NULL
      || t->pd == NULL || t->pk == NULL || t->fip == NULL || t->rip == NULL
      || t->gslot == NULL || t->cv == NULL || t->cw == NULL)
    goto done;
  for (i = j = 0; j < ni; j++) {
    const int *o = &c.o[4 * j];
    if (c.fused[j]) continue;
    t->code[i] = c.kind[j];
    t->pa[i] = slot[o[0]];
    t->pb[i] = o[1] >= 0 ? slot[o[1]] : -1;
    t->pc[i] = o[2] >= 0 ? slot[o[2]] : -1;
    t->pd[i] = o[3] >= 0 ? slot[o[3]] : -1;
    t->pk[i] = isconst(t, o[1]) ? t->val[o[1]] : isconst(t, o[2])
               ? t->val[o[2]] : 0;
    i++;
  }
  for (i = 0; i < t->nguards; i++) {
    t->gslot[2 * i] = slot[t->guard[i].a];
    t->gslot[2 * i + 1] = slot[t->guard[i].b];
  }
  for (i = 0; i < t->n; i++) t->cv[i] = 0;
  for (i = 0; i < nn; i++)
    if (slot[i] >= 0) t->cv[slot[i]] = t->val[i];
  t->oslot = slot[t->out];
  ok = 1;
done:
  free(c.insof);
  free(c.uses);
  free(c.nxa);
  free(c.nxb);
  free(c.o);
  free(c.nx);
  free(c.kind);
  free(c.fused);
  free(c.flag);
  return ok;
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
  t->out = k;
  if (t->val0 == NULL || t->adj == NULL || t->dot == NULL ||
      t->adjd == NULL || !compile(t)) {
    t->out = -1;
    t->failed = OL_ENOMEM;
    snprintf(t->why, sizeof t->why, "out of memory");
    return ol_err_set(e, OL_ENOMEM, "tape: out of memory");
  }
  memcpy(t->val0, t->val, sz);
  return OL_OK;
}

/* -- evaluation ----------------------------------------------------------- */

/* The value and gradient sweeps dispatch on the op code once per program
** instruction i.  With GCC or Clang they jump to label addresses
** (threaded code: one indirect jump per instruction, each at its own
** site, which the branch predictor learns; twice as fast as the switch
** on a 1000-d Rosenbrock); elsewhere, or with -DOL_AD_SWITCH, a switch.
** GCC is asked not to merge the ops' identical tails (crossjumping),
** which would share those sites again (5% on the same function).  In
** both, CASE(op) starts an op's body, OTHER the unary functions', and
** NEXT(cond) moves on while cond holds (cond moves i). */
#if defined(__GNUC__) && !defined(OL_AD_SWITCH)
#define OL_AD_THREADED 1
#define BEGIN(cond) if (!(cond)) goto done; goto *ip[i]; {
#define CASE(op) l_##op:
#define OTHER l_other:
#define NEXT(cond) do { if (cond) goto *ip[i]; goto done; } while (0)
#define DONE done: (void)0
/* The jump table: every op code's label (inputs and constants are never
** instructions, the unary functions share one). */
#define JUMPTABLE \
  static const void *const jt[P_NCODES] = { \
    &&l_other, &&l_other, &&l_OL_AD_ADD, &&l_OL_AD_SUB, &&l_OL_AD_MUL, \
    &&l_OL_AD_DIV, &&l_OL_AD_POW, &&l_OL_AD_POWC, &&l_OL_AD_NEG, \
    &&l_OL_AD_SQR, &&l_other, &&l_other, &&l_other, &&l_other, &&l_other, \
    &&l_other, &&l_other, &&l_other, &&l_other, &&l_other, &&l_other, \
    &&l_P_ADDC, &&l_P_SUBC, &&l_P_CSUB, &&l_P_MULC, &&l_P_DIVC, \
    &&l_P_CDIV, &&l_P_SUBSQR, &&l_P_SUBCSQR, &&l_P_CSUBSQR, &&l_P_ADDMUL, \
    &&l_P_ADDMULC, &&l_P_ADDSQR, &&l_P_ADDMULADD, &&l_P_ADDMULCADD, \
    &&l_P_SUBSQ, &&l_P_SUBSQSQR, \
    FAMILY(JTFLAGGED) \
  }
/* Direct threading: ip[i] is instruction i's label, looked up in the
** table once, on a sweep's first run (one load a dispatch, not two). */
#define ADDRESSES(ip, ready) \
  if (!(ready)) { \
    ptrdiff_t k_; \
    for (k_ = 0; k_ < nc; k_++) (ip)[k_] = jt[code[k_]]; \
    (ready) = 1; \
  }
#define JTFLAGGED(f) &&l_P_##f##_I, &&l_P_##f##_O, &&l_P_##f##_IO,
#if defined(__GNUC__) && !defined(__clang__)
#define SWEEP __attribute__((optimize("no-crossjumping")))
#endif
#else
#define CASE(op) case op:
#define OTHER default:
#define NEXT(cond) break
#define DONE (void)0
#endif
#ifndef SWEEP
#define SWEEP
#endif

/* A family op's forward body: a from the register (in) or val; the
** result into the register and val.  FWD4: the four codes of op f. */
#define FWD(k, in, expr) CASE(k) { \
    double a = (in) ? acc : v[A[i]]; \
    acc = y[i] = (expr); \
    NEXT(++i < nc); \
  }
#define FWD4(f, k, expr) FWD(k, 0, expr) FWD(P_##f##_O, 0, expr) \
  FWD(P_##f##_I, 1, expr) FWD(P_##f##_IO, 1, expr)

SWEEP int ol_tape_forward (ol_tape *t, const double *x, double *f)
{
  double acc = 0;
  double *v = t->cv, *y = t->cv + t->base;
  const unsigned char *code = t->code;
  const int32_t *A = t->pa, *B = t->pb, *C = t->pc, *D = t->pd;
  const double *K = t->pk;
  ptrdiff_t i, nc = t->nprog;
  memcpy(v, x, (size_t)t->n * sizeof *v);
  t->stale = 1;
  i = 0;
#ifdef OL_AD_THREADED
  const void *const *ip = t->fip;
  JUMPTABLE;
  ADDRESSES(t->fip, t->fready);
  BEGIN(i < nc);
#else
  for (; i < nc; i++) switch (code[i]) {
#endif
  FWD4(ADD, OL_AD_ADD, a + v[B[i]])
  FWD4(ADDMUL, P_ADDMUL, a + v[B[i]] * v[C[i]])
  FWD4(ADDMULC, P_ADDMULC, a + v[B[i]] * K[i])
  FWD4(ADDSQR, P_ADDSQR, a + v[B[i]] * v[B[i]])
  FWD4(ADDMULADD, P_ADDMULADD, a + v[B[i]] * v[C[i]] + v[D[i]])
  FWD4(ADDMULCADD, P_ADDMULCADD, a + v[B[i]] * K[i] + v[D[i]])
  CASE(OL_AD_SUB) y[i] = v[A[i]] - v[B[i]]; NEXT(++i < nc);
  CASE(OL_AD_MUL) y[i] = v[A[i]] * v[B[i]]; NEXT(++i < nc);
  CASE(OL_AD_DIV) y[i] = v[A[i]] / v[B[i]]; NEXT(++i < nc);
  CASE(OL_AD_POWC)
  CASE(OL_AD_POW) y[i] = pow(v[A[i]], v[B[i]]); NEXT(++i < nc);
  CASE(OL_AD_NEG) y[i] = -v[A[i]]; NEXT(++i < nc);
  CASE(OL_AD_SQR) y[i] = v[A[i]] * v[A[i]]; NEXT(++i < nc);
  CASE(P_ADDC) y[i] = v[A[i]] + K[i]; NEXT(++i < nc);
  CASE(P_SUBC) y[i] = v[A[i]] - K[i]; NEXT(++i < nc);
  CASE(P_CSUB) y[i] = K[i] - v[A[i]]; NEXT(++i < nc);
  CASE(P_MULC) y[i] = v[A[i]] * K[i]; NEXT(++i < nc);
  CASE(P_DIVC) y[i] = v[A[i]] / K[i]; NEXT(++i < nc);
  CASE(P_CDIV) y[i] = K[i] / v[A[i]]; NEXT(++i < nc);
  CASE(P_SUBSQR) {
    double d = v[A[i]] - v[B[i]];
    y[i] = d * d;
    NEXT(++i < nc);
  }
  CASE(P_SUBCSQR) {
    double d = v[A[i]] - K[i];
    y[i] = d * d;
    NEXT(++i < nc);
  }
  CASE(P_CSUBSQR) {
    double d = K[i] - v[A[i]];
    y[i] = d * d;
    NEXT(++i < nc);
  }
  CASE(P_SUBSQ) y[i] = v[A[i]] - v[B[i]] * v[B[i]]; NEXT(++i < nc);
  CASE(P_SUBSQSQR) {
    double d = v[A[i]] - v[B[i]] * v[B[i]];
    y[i] = d * d;
    NEXT(++i < nc);
  }
  OTHER y[i] = apply1(code[i], v[A[i]]); NEXT(++i < nc);
  }
  DONE;
  for (i = 0; i < t->nguards; i++) {
    const adguard *gd = &t->guard[i];
    if (holds(gd->rel, v[t->gslot[2 * i]], v[t->gslot[2 * i + 1]])
        != gd->out) {
      t->flipped = i;
      return 0;
    }
  }
  t->flipped = -1;
  if (f != NULL) *f = v[t->oslot];
  return 1;
}

int ol_tape_ontie (const ol_tape *t)
{
  int i;
  for (i = 0; i < t->nguards; i++)
    if (t->cv[t->gslot[2 * i]] == t->cv[t->gslot[2 * i + 1]]) return 1;
  return 0;
}

int ol_tape_flipped (const ol_tape *t)
{
  return t->flipped;
}

/* d/da tanh(a) = sech(a)^2 = 4 e / (1 + e)^2 with e = exp(-2 |a|): to a
** few eps relative at every a (1 - tanh(a)^2 loses it as tanh saturates:
** 1.7e-4 relative at a = 15, 0 from a = 19.1). */
static double sech2 (double a)
{
  double e = exp(-2 * fabs(a));
  return 4 * e / ((1 + e) * (1 + e));
}

/* d/da atan(a) = 1 / (1 + a^2), as r^2 / (1 + r^2) with r = 1/a for
** |a| > 1 (a^2 overflows from 1.3e154, where the derivative is still
** representable down to 4.9e-324). */
static double datan (double a)
{
  double r;
  if (fabs(a) <= 1) return 1 / (1 + a * a);
  r = 1 / a;
  return r * r / (1 + r * r);
}

/* The first partial of a unary op at a with value y.  Each keeps its
** relative accuracy where the op's value saturates: tanh above, expm1 by
** exp(a) (y + 1 is 0 below a = -37.4). */
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
  case OL_AD_ATAN: return datan(a);
  case OL_AD_TANH: return sech2(a);
  case OL_AD_LOG1P: return 1 / (1 + a);
  case OL_AD_EXPM1: return exp(a);
  case OL_AD_LGAMMA: return ol_digamma(a);
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

/* A family op's reverse body: u, y's adjoint, from the register (out) or
** the adjoints; a's share into the register (in) or a's adjoint, then
** the others' in the order the recorded instructions added them.  REV4:
** the four codes of op f, RB_f its updates. */
#define REV(k, in, out, rb) CASE(k) { \
    double u = (out) ? racc : wy[i]; \
    rb(in) \
    NEXT(--i >= 0); \
  }
#define REV4(f, k, rb) REV(k, 0, 0, rb) REV(P_##f##_O, 0, 1, rb) \
  REV(P_##f##_I, 1, 0, rb) REV(P_##f##_IO, 1, 1, rb)
#define WA(in) if (in) racc = u; else w[A[i]] += u;
#define RB_ADD(in) WA(in) w[B[i]] += u;
#define RB_ADDMUL(in) WA(in) w[B[i]] += u * v[C[i]]; w[C[i]] += u * v[B[i]];
#define RB_ADDMULC(in) WA(in) w[B[i]] += u * K[i];
#define RB_ADDSQR(in) WA(in) w[B[i]] += u * (v[B[i]] + v[B[i]]);
#define RB_ADDMULADD(in) w[D[i]] += u; RB_ADDMUL(in)
#define RB_ADDMULCADD(in) w[D[i]] += u; RB_ADDMULC(in)

SWEEP void ol_tape_reverse (ol_tape *t, double *g)
{
  double racc = 0, *v = t->cv, *w = t->cw, *y = t->cv + t->base,
         *wy = t->cw + t->base;
  const unsigned char *code = t->code;
  const int32_t *A = t->pa, *B = t->pb, *C = t->pc, *D = t->pd;
  const double *K = t->pk;
  ptrdiff_t i = t->nprog;
  memset(w, 0, (size_t)t->nslot * sizeof *w);
  w[t->oslot] = 1;
#ifdef OL_AD_THREADED
  const void *const *ip = t->rip;
  ptrdiff_t nc = t->nprog;
  JUMPTABLE;
  ADDRESSES(t->rip, t->rready);
  BEGIN(--i >= 0);
#else
  while (--i >= 0) switch (code[i]) {
#endif
  REV4(ADD, OL_AD_ADD, RB_ADD)
  REV4(ADDMUL, P_ADDMUL, RB_ADDMUL)
  REV4(ADDMULC, P_ADDMULC, RB_ADDMULC)
  REV4(ADDSQR, P_ADDSQR, RB_ADDSQR)
  REV4(ADDMULADD, P_ADDMULADD, RB_ADDMULADD)
  REV4(ADDMULCADD, P_ADDMULCADD, RB_ADDMULCADD)
  CASE(OL_AD_SUB) w[A[i]] += wy[i]; w[B[i]] -= wy[i]; NEXT(--i >= 0);
  CASE(OL_AD_MUL) {
    double u = wy[i];
    w[A[i]] += u * v[B[i]];
    w[B[i]] += u * v[A[i]];
    NEXT(--i >= 0);
  }
  CASE(OL_AD_DIV) {
    double r = wy[i] / v[B[i]];
    w[A[i]] += r;
    w[B[i]] -= r * y[i];
    NEXT(--i >= 0);
  }
  CASE(OL_AD_POW)
    w[A[i]] += wy[i] * dpow_a(v[A[i]], v[B[i]]);
    w[B[i]] += wy[i] * dpow_b(v[A[i]], y[i]);
    NEXT(--i >= 0);
  CASE(OL_AD_POWC)
    w[A[i]] += wy[i] * dpow_a(v[A[i]], v[B[i]]);
    NEXT(--i >= 0);
  CASE(OL_AD_NEG) w[A[i]] -= wy[i]; NEXT(--i >= 0);
  CASE(OL_AD_SQR) w[A[i]] += wy[i] * (v[A[i]] + v[A[i]]); NEXT(--i >= 0);
  CASE(P_ADDC) CASE(P_SUBC) w[A[i]] += wy[i]; NEXT(--i >= 0);
  CASE(P_CSUB) w[A[i]] -= wy[i]; NEXT(--i >= 0);
  CASE(P_MULC) w[A[i]] += wy[i] * K[i]; NEXT(--i >= 0);
  CASE(P_DIVC) w[A[i]] += wy[i] / K[i]; NEXT(--i >= 0);
  CASE(P_CDIV) w[A[i]] -= wy[i] / v[A[i]] * y[i]; NEXT(--i >= 0);
  CASE(P_SUBSQR) {
    double d = v[A[i]] - v[B[i]], u = wy[i] * (d + d);
    w[A[i]] += u;
    w[B[i]] -= u;
    NEXT(--i >= 0);
  }
  CASE(P_SUBCSQR) {
    double d = v[A[i]] - K[i];
    w[A[i]] += wy[i] * (d + d);
    NEXT(--i >= 0);
  }
  CASE(P_CSUBSQR) {
    double d = K[i] - v[A[i]];
    w[A[i]] -= wy[i] * (d + d);
    NEXT(--i >= 0);
  }
  CASE(P_SUBSQ) {
    double u = wy[i];
    w[A[i]] += u;
    w[B[i]] -= u * (v[B[i]] + v[B[i]]);
    NEXT(--i >= 0);
  }
  CASE(P_SUBSQSQR) {
    double d = v[A[i]] - v[B[i]] * v[B[i]], u = wy[i] * (d + d);
    w[A[i]] += u;
    w[B[i]] -= u * (v[B[i]] + v[B[i]]);
    NEXT(--i >= 0);
  }
  OTHER w[A[i]] += wy[i] * d1(code[i], v[A[i]], y[i]); NEXT(--i >= 0);
  }
  DONE;
  memcpy(g, w, (size_t)t->n * sizeof *g);
}

/* The values of the recorded nodes (val) at the inputs of the last
** forward sweep, for hvp, which runs the recorded instructions. */
static void revalue (ol_tape *t)
{
  double *v = t->val;
  const adins *p = t->ins, *end = t->nins > 0 ? t->ins + t->nins : t->ins;
  int i;
  for (i = 0; i < t->n; i++)
    if (t->var[i] >= 0) v[t->var[i]] = t->cv[i];
  for (; p < end; p++)
    v[p->dst] = p->b >= 0 ? apply2(p->op, v[p->a], v[p->b])
                          : apply1(p->op, v[p->a]);
  t->stale = 0;
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
    double q = datan(a);
    *pa = q;
    *paa = -2 * a * q * q;
    return;
  }
  case OL_AD_TANH: *pa = sech2(a); *paa = -2 * y * *pa; return;
  case OL_AD_LOG1P: {
    double q = 1 / (1 + a);
    *pa = q;
    *paa = -q * q;
    return;
  }
  case OL_AD_EXPM1: *pa = *paa = exp(a); return;
  case OL_AD_LGAMMA: *pa = ol_digamma(a); *paa = ol_trigamma(a); return;
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
  if (t->stale) revalue(t);
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

int ol_tape_hessian (ol_tape *t, double *H)
{
  int n = t->n, i, j;
  for (i = 0; i < n; i++) {
    double *row = H + (size_t)i * n;
    /* n sweeps of the whole tape: Ctrl-C is looked at before each */
    if (ol_interrupted()) return OL_EINTR;
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
  return OL_OK;
}

/* -- inspection ----------------------------------------------------------- */

int ol_tape_n (const ol_tape *t) { return t->n; }
int ol_tape_nnodes (const ol_tape *t) { return t->nnodes; }
int ol_tape_nops (const ol_tape *t) { return t->nins; }
int ol_tape_nprog (const ol_tape *t) { return t->out >= 0 ? t->nprog : 0; }
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

double ol_tape_magnitude (const ol_tape *t)
{
  double m = 0;
  int i;
  if (t->out >= 0 && t->cv != NULL) {
    for (i = 0; i < t->nslot; i++)
      if (isfinite(t->cv[i])) m = fmax(m, fabs(t->cv[i]));
  }
  else
    for (i = 0; i < t->nnodes; i++)
      if (isfinite(t->val[i])) m = fmax(m, fabs(t->val[i]));
  return m;
}

/* -- special functions ---------------------------------------------------- */

#define PI_ 3.14159265358979323846

/* psi(x) for x >= 12: A & S 6.3.18, log x - 1/(2x) - sum_k B_2k /
** (2k x^2k), k = 1..7 (the next term is below 1e-18 there). */
static double digamma_asym (double x)
{
  double r = 1 / (x * x);
  return log(x) - 0.5 / x
         - r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240
           - r * (1.0 / 132 - r * (691.0 / 32760 - r / 12))))));
}

/* psi'(x) for x >= 12: A & S 6.4.12, 1/x + 1/(2x^2) + sum_k B_2k /
** x^(2k+1), k = 1..7. */
static double trigamma_asym (double x)
{
  double r = 1 / (x * x);
  return 1 / x + 0.5 * r
         + r / x * (1.0 / 6 - r * (1.0 / 30 - r * (1.0 / 42 - r * (1.0 / 30
           - r * (5.0 / 66 - r * (691.0 / 2730 - r * 7.0 / 6))))));
}

double ol_digamma (double x)
{
  double s = 0;
  if (isnan(x) || x == -HUGE_VAL) return NAN;
  if (x == HUGE_VAL) return HUGE_VAL;
  if (x <= 0) {
    /* reflection (6.3.7): psi(x) = psi(1 - x) - pi / tan(pi x) */
    double fr = x - floor(x);
    if (fr == 0) return NAN;
    /* tan(pi x) from the fraction: exact argument reduction */
    return ol_digamma(1 - x) - PI_ / tan(PI_ * fr);
  }
  /* recurrence (6.3.5): psi(x) = psi(x + 1) - 1/x */
  for (; x < 12; x += 1) s += 1 / x;
  return digamma_asym(x) - s;
}

double ol_trigamma (double x)
{
  double s = 0;
  if (isnan(x) || x == -HUGE_VAL) return NAN;
  if (x == HUGE_VAL) return 0;
  if (x <= 0) {
    /* reflection (6.4.7): psi'(x) = pi^2 / sin^2(pi x) - psi'(1 - x) */
    double fr = x - floor(x), sn;
    if (fr == 0) return NAN;
    sn = sin(PI_ * fr);
    return PI_ * PI_ / (sn * sn) - ol_trigamma(1 - x);
  }
  for (; x < 12; x += 1) s += 1 / (x * x);
  return trigamma_asym(x) + s;
}
