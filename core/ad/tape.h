/*
** core/ad/tape.h -- a recorded scalar function of n variables: its value,
** gradient, Hessian-vector products and dense Hessian, in plain C.
**
** A tape is recorded once (by the binding's tracer, lua/lad.c, or by C
** code calling the recording functions below) at a trace point x0: every
** node is an input, a constant or one elementary operation on earlier
** nodes, and its value at x0 is computed as it is recorded.  Recording
** folds constants (an operation on constants is a constant), applies the
** identities x + 0, x - 0, x * 1, x / 1, x ^ 1, x ^ 0, -(-x), turns
** x ^ 2 into a square, and shares common subexpressions (the same
** operation on the same nodes is the same node; a hash table that lives
** while recording).  Only the non-constant nodes are instructions: a
** compact array of {op, dst, a, b}.  ol_tape_finish compiles them into
** the program the value and gradient sweeps run (tape.c): op codes in a
** byte array and operand slots in int32 arrays, with constant operands
** and a few pairs of instructions fused into one op each ((a - b)^2,
** a + b c, the terms of a sum), giving the same values and gradients
** bit for bit.
**
** Piecewise functions are recorded as guards, never as branches: a
** comparison of two nodes (rel: <, <=, ==) keeps the outcome seen at x0,
** and the caller records the branch taken (abs(x) = x or -x after the
** guard x >= 0; floor(x) = k, a constant, after k <= x and x < k + 1).
** The tape is then one smooth function on the region where every guard
** holds; ol_tape_forward says when x leaves it, and the caller records a
** new tape there (lua/lad.c keeps a few, one per guard pattern).
**
** Evaluation (after ol_tape_finish):
**   forward   values of every node at x, then the guards      (1 sweep)
**   reverse   adjoints, the gradient                          (1 sweep)
**   hvp       a forward tangent along v, then the reverse sweep of the
**             adjoints and of their tangents (forward-over-reverse):
**             H v and the gradient                            (2 sweeps)
**   hessian   n Hessian-vector products with e_1 .. e_n, symmetrised.
** The sweeps use work arrays inside the tape: one tape serves one
** evaluation at a time (it is not re-entrant), and reverse and hvp use the
** values of the last forward sweep.  No allocation after ol_tape_finish.
**
** Recording functions return a node index (>= 0), or -1 once recording
** has failed (out of memory, a bad operand, more than OL_TAPE_MAXNODES
** nodes): the failure sticks, and ol_tape_finish reports it.
*/
#ifndef OL_AD_TAPE_H
#define OL_AD_TAPE_H

#include "ol.h"

/* Operations.  Unary ones use a; POWC is a ^ c with c the constant node b;
** POW is a ^ b for two nodes (defined for a > 0, or b a constant). */
enum {
  OL_AD_CONST, OL_AD_VAR,
  OL_AD_ADD, OL_AD_SUB, OL_AD_MUL, OL_AD_DIV, OL_AD_POW, OL_AD_POWC,
  OL_AD_NEG, OL_AD_SQR, OL_AD_EXP, OL_AD_LOG, OL_AD_SQRT, OL_AD_SIN,
  OL_AD_COS, OL_AD_TAN, OL_AD_ATAN, OL_AD_TANH, OL_AD_LOG1P, OL_AD_EXPM1,
  OL_AD_LGAMMA,
  OL_AD_NOPS
};
/* Relations of guards: a < b, a <= b, a == b. */
enum { OL_AD_LT, OL_AD_LE, OL_AD_EQ };

#define OL_TAPE_MAXNODES (1 << 26)

typedef struct ol_tape ol_tape;

/* A new empty tape of n >= 1 inputs; NULL with e set on failure.  Owned by
** the caller: ol_tape_free (NULL is a no-op). */
ol_tape *ol_tape_new (int n, ol_err *e);
void ol_tape_free (ol_tape *t);

/* -- recording ------------------------------------------------------------ */
/* At most maxnodes nodes (1 .. OL_TAPE_MAXNODES; the default is the
** latter): recording fails beyond, saying so. */
void ol_tape_limit (ol_tape *t, int maxnodes);
/* Why recording failed ("" while it has not). */
const char *ol_tape_why (const ol_tape *t);
/* Input i (0 <= i < n) with its value at the trace point; the same node
** every time it is asked for. */
int ol_tape_var (ol_tape *t, int i, double x);
int ol_tape_const (ol_tape *t, double c);
/* Unary op (NEG .. LGAMMA) of node a; binary op (ADD .. POWC) of a and b. */
int ol_tape_op1 (ol_tape *t, int op, int a);
int ol_tape_op2 (ol_tape *t, int op, int a, int b);
/* The value of node k at the trace point (NAN for a bad k). */
double ol_tape_value (const ol_tape *t, int k);
/* 1 when node k is a constant. */
int ol_tape_isconst (const ol_tape *t, int k);
/* The outcome (0 or 1) of "a rel b" at the trace point, recorded as a
** guard unless both are constants (or the same guard is already there);
** -1 once recording has failed. */
int ol_tape_guard (ol_tape *t, int rel, int a, int b);
/* End recording with node k as the function's value: frees the recording
** tables and sizes the work arrays.  OL_OK, or OL_ENOMEM / OL_EINVAL with e
** set when recording failed (the message says why). */
int ol_tape_finish (ol_tape *t, int k, ol_err *e);

/* -- evaluation (finished tapes) ------------------------------------------ */
/* Forward sweep at x (n entries): 1 when every guard holds at x, with the
** value in *f (f may be NULL); 0 when a guard flips (then *f is unset and
** ol_tape_flipped names the guard).  Values need not be finite: callers
** check what they return. */
int ol_tape_forward (ol_tape *t, const double *x, double *f);
/* The gradient (n entries) at the point of the last forward sweep. */
void ol_tape_reverse (ol_tape *t, double *g);
/* H v (n entries) at the point of the last forward sweep, and the
** gradient into g when g is not NULL. */
void ol_tape_hvp (ol_tape *t, const double *v, double *hv, double *g);
/* The dense Hessian (n x n row-major) at the point of the last forward
** sweep: n Hessian-vector products, then H := (H + H')/2.  Returns
** OL_OK, or OL_EINTR when Ctrl-C came (ol_interrupted, polled before
** each product; H is then partly written). */
int ol_tape_hessian (ol_tape *t, double *H);
/* 1 when, at the last forward sweep, some guard's two sides are equal
** (x on a kink: abs at 0, max of equal values, a floor at an integer),
** where the tape's derivative is one side's. */
int ol_tape_ontie (const ol_tape *t);
/* The index of the guard that flipped in the last forward sweep, or -1
** when every guard held. */
int ol_tape_flipped (const ol_tape *t);

/* The largest finite |value| of the nodes at the last forward sweep (at
** the trace point before any): the scale of the rounding in f's value,
** for comparing it with f computed on numbers (lua/lad.c). */
double ol_tape_magnitude (const ol_tape *t);

/* -- special functions ---------------------------------------------------- */
/* The digamma psi(x) = d/dx log|Gamma(x)| and trigamma psi'(x), for x not
** 0 or a negative integer (NAN there): the recurrence psi(x) = psi(x + 1)
** - 1/x up to x >= 12, then the asymptotic series; reflection for x < 0
** (Abramowitz & Stegun 6.3.7, 6.3.18, 6.4.7, 6.4.12).  Relative error a
** few eps away from the positive root of psi (x = 1.4616...), absolute
** there. */
double ol_digamma (double x);
double ol_trigamma (double x);

/* -- inspection ----------------------------------------------------------- */
int ol_tape_n (const ol_tape *t);
int ol_tape_nnodes (const ol_tape *t);     /* inputs, constants, ops */
int ol_tape_nops (const ol_tape *t);       /* instructions */
int ol_tape_nprog (const ol_tape *t);      /* the program's instructions
                                              (after fusion; 0 before
                                              ol_tape_finish) */
int ol_tape_nguards (const ol_tape *t);
int ol_tape_output (const ol_tape *t);     /* the value's node, -1 before
                                              ol_tape_finish */
/* Node k: its op, operands (-1 when none; a VAR's a is its input index)
** and value at the trace point.  0 for a bad k. */
int ol_tape_node (const ol_tape *t, int k, int *op, int *a, int *b,
                  double *v);
/* Guard k: relation, nodes and the outcome it holds.  0 for a bad k. */
int ol_tape_guardinfo (const ol_tape *t, int k, int *rel, int *a, int *b,
                       int *outcome);
/* "add", "exp", ... and "<", "<=", "=="; "?" for an unknown code. */
const char *ol_tape_opname (int op);
const char *ol_tape_relname (int rel);

#endif
