/*
** tests/c/t_tape.c -- the AD tape of core/ad/ from C alone: every op's
** value, first and second derivative against closed forms; gradients and
** Hessians of Rosenbrock and of a mixed function against their closed
** forms (Hessians symmetric); a Hessian-vector product against H v;
** guards (kept at the trace point, flipped away from it); constant
** folding, identities and shared subexpressions; recording failures;
** the compiled program's fused forms against the same functions with
** nothing fused (bit for bit).  Points are fixed (no randomness).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ad/tape.h"
#include "tap.h"

/* f(x) = op(x) at x: value, f', f'' from the tape. */
static void unary (int op, double x, double *f, double *d, double *dd)
{
  ol_tape *t = ol_tape_new(1, NULL);
  int v = ol_tape_var(t, 0, x), y = ol_tape_op1(t, op, v);
  double one = 1;
  ol_tape_finish(t, y, NULL);
  ol_tape_forward(t, &x, f);
  ol_tape_reverse(t, d);
  ol_tape_hvp(t, &one, dd, NULL);
  ol_tape_free(t);
}

typedef struct u1 {
  int op;
  double x;
  double f, d, dd;   /* closed forms */
} u1;

static void test_unary (void)
{
  double x = 0.7, e = exp(x), th = tanh(x), tn = tan(x);
  const u1 cases[] = {
    {OL_AD_NEG, x, -x, -1, 0},
    {OL_AD_SQR, x, x * x, 2 * x, 2},
    {OL_AD_EXP, x, e, e, e},
    {OL_AD_LOG, x, log(x), 1 / x, -1 / (x * x)},
    {OL_AD_SQRT, x, sqrt(x), 0.5 / sqrt(x), -0.25 * pow(x, -1.5)},
    {OL_AD_SIN, x, sin(x), cos(x), -sin(x)},
    {OL_AD_COS, x, cos(x), -sin(x), -cos(x)},
    {OL_AD_TAN, x, tn, 1 / (cos(x) * cos(x)),
     2 * tn / (cos(x) * cos(x))},
    {OL_AD_ATAN, x, atan(x), 1 / (1 + x * x),
     -2 * x / ((1 + x * x) * (1 + x * x))},
    {OL_AD_TANH, x, th, 1 - th * th, -2 * th * (1 - th * th)},
    {OL_AD_LOG1P, x, log1p(x), 1 / (1 + x), -1 / ((1 + x) * (1 + x))},
    {OL_AD_EXPM1, x, expm1(x), e, e},
    /* psi(0.7), psi'(0.7) to 17 digits (mpmath 30-digit digamma, psi) */
    {OL_AD_LGAMMA, x, lgamma(x), -1.2200235536979346,
     2.8340491566946106},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const u1 *c = &cases[i];
    double f, d, dd;
    const char *nm = ol_tape_opname(c->op);
    unary(c->op, c->x, &f, &d, &dd);
    is_close(f, c->f, 1e-15, "tape: %s value at %g", nm, c->x);
    is_close(d, c->d, 1e-14, "tape: %s first derivative", nm);
    is_close(dd, c->dd, 1e-13, "tape: %s second derivative", nm);
  }
}

/* f(a, b) = op(a, b): gradient and Hessian against closed forms. */
static void test_binary (void)
{
  double a = 1.3, b = -0.6, x[2] = {1.3, -0.6}, f, g[2], H[4];
  int ops[] = {OL_AD_ADD, OL_AD_SUB, OL_AD_MUL, OL_AD_DIV, OL_AD_POW};
  double la = log(a), p = pow(a, b);
  double want[5][6] = {   /* f, fa, fb, faa, fab, fbb */
    {a + b, 1, 1, 0, 0, 0},
    {a - b, 1, -1, 0, 0, 0},
    {a * b, b, a, 0, 1, 0},
    {a / b, 1 / b, -a / (b * b), 0, -1 / (b * b), 2 * a / (b * b * b)},
    {p, b * pow(a, b - 1), p * la, b * (b - 1) * pow(a, b - 2),
     pow(a, b - 1) * (1 + b * la), p * la * la},
  };
  int k;
  for (k = 0; k < 5; k++) {
    ol_tape *t = ol_tape_new(2, NULL);
    int u = ol_tape_var(t, 0, a), v = ol_tape_var(t, 1, b);
    const char *nm = ol_tape_opname(ops[k]);
    ol_tape_finish(t, ol_tape_op2(t, ops[k], u, v), NULL);
    ok(ol_tape_forward(t, x, &f), "tape: %s has no guards", nm);
    ol_tape_reverse(t, g);
    ol_tape_hessian(t, H);
    is_close(f, want[k][0], 1e-15, "tape: %s value", nm);
    is_close(g[0], want[k][1], 1e-14, "tape: %s d/da", nm);
    is_close(g[1], want[k][2], 1e-14, "tape: %s d/db", nm);
    is_close(H[0], want[k][3], 1e-13, "tape: %s d2/da2", nm);
    is_close(H[1], want[k][4], 1e-13, "tape: %s d2/dadb", nm);
    is_close(H[3], want[k][5], 1e-13, "tape: %s d2/db2", nm);
    ok(H[1] == H[2], "tape: %s Hessian exactly symmetric", nm);
    ol_tape_free(t);
  }
  /* a ^ c, c constant (powc), and c ^ b */
  {
    ol_tape *t = ol_tape_new(1, NULL);
    int u = ol_tape_var(t, 0, a), c = ol_tape_const(t, 3.5);
    double one = 1, d2;
    ol_tape_finish(t, ol_tape_op2(t, OL_AD_POW, u, c), NULL);
    ol_tape_forward(t, &a, &f);
    ol_tape_reverse(t, g);
    ol_tape_hvp(t, &one, &d2, NULL);
    is_close(g[0], 3.5 * pow(a, 2.5), 1e-14, "tape: x^3.5 derivative");
    is_close(d2, 3.5 * 2.5 * pow(a, 1.5), 1e-14,
             "tape: x^3.5 second derivative");
    ol_tape_free(t);
    t = ol_tape_new(1, NULL);
    u = ol_tape_var(t, 0, b);
    c = ol_tape_const(t, 2.5);
    ol_tape_finish(t, ol_tape_op2(t, OL_AD_POW, c, u), NULL);
    ol_tape_forward(t, &b, &f);
    ol_tape_reverse(t, g);
    ol_tape_hvp(t, &one, &d2, NULL);
    is_close(g[0], pow(2.5, b) * log(2.5), 1e-14, "tape: 2.5^x derivative");
    is_close(d2, pow(2.5, b) * log(2.5) * log(2.5), 1e-14,
             "tape: 2.5^x second derivative");
    ol_tape_free(t);
  }
}

/* Rosenbrock (1 - x)^2 + 100 (y - x^2)^2 recorded at x0, evaluated at
** other points. */
static ol_tape *rosen (const double *x0)
{
  ol_tape *t = ol_tape_new(2, NULL);
  int x = ol_tape_var(t, 0, x0[0]), y = ol_tape_var(t, 1, x0[1]);
  int a = ol_tape_op2(t, OL_AD_SUB, ol_tape_const(t, 1), x);
  int b = ol_tape_op2(t, OL_AD_SUB, y, ol_tape_op2(t, OL_AD_POW, x,
                                                   ol_tape_const(t, 2)));
  int f = ol_tape_op2(t, OL_AD_ADD, ol_tape_op2(t, OL_AD_MUL, a, a),
                      ol_tape_op2(t, OL_AD_MUL, ol_tape_const(t, 100),
                                  ol_tape_op1(t, OL_AD_SQR, b)));
  ol_tape_finish(t, f, NULL);
  return t;
}

static void test_rosenbrock (void)
{
  const double pts[4][2] = {{-1.2, 1}, {0.3, -0.4}, {2, 3}, {1, 1}};
  double x0[2] = {-1.2, 1};
  ol_tape *t = rosen(x0);
  int k;
  is_int(ol_tape_nguards(t), 0, "tape: rosenbrock has no guards");
  ok(ol_tape_nops(t) <= 7, "tape: rosenbrock in %d ops (<= 7: squares "
     "and shared nodes)", ol_tape_nops(t));
  for (k = 0; k < 4; k++) {
    double x = pts[k][0], y = pts[k][1], f, g[2], H[4], v[2] = {0.3, -1.1};
    double hv[2];
    double gx = -2 * (1 - x) - 400 * x * (y - x * x), gy = 200 * (y - x * x);
    double hxx = 2 - 400 * y + 1200 * x * x, hxy = -400 * x, hyy = 200;
    ol_tape_forward(t, pts[k], &f);
    ol_tape_reverse(t, g);
    is_close(f, (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x), 1e-15,
             "tape: rosenbrock value at (%g, %g)", x, y);
    is_close(g[0], gx, 1e-14, "tape: rosenbrock df/dx at (%g, %g)", x, y);
    is_close(g[1], gy, 1e-14, "tape: rosenbrock df/dy at (%g, %g)", x, y);
    ol_tape_hessian(t, H);
    is_close(H[0], hxx, 1e-14, "tape: rosenbrock H_xx at (%g, %g)", x, y);
    is_close(H[1], hxy, 1e-14, "tape: rosenbrock H_xy");
    is_close(H[3], hyy, 1e-14, "tape: rosenbrock H_yy");
    ok(H[1] == H[2], "tape: rosenbrock H symmetric");
    ol_tape_hvp(t, v, hv, g);
    is_close(hv[0], hxx * v[0] + hxy * v[1], 1e-13, "tape: rosenbrock Hv[1]");
    is_close(hv[1], hxy * v[0] + hyy * v[1], 1e-13, "tape: rosenbrock Hv[2]");
    is_close(g[0], gx, 1e-14, "tape: hvp's gradient");
  }
  ol_tape_free(t);
}

/* f = exp(x y) + sin(z) / x + sqrt(1 + y^2) z: the Hessian against the
** closed form, entry by entry. */
static void test_mixed (void)
{
  const double x0[3] = {0.8, -0.5, 1.7}, x[3] = {1.1, 0.4, -0.9};
  ol_tape *t = ol_tape_new(3, NULL);
  int a = ol_tape_var(t, 0, x0[0]), b = ol_tape_var(t, 1, x0[1]);
  int c = ol_tape_var(t, 2, x0[2]);
  int e1 = ol_tape_op1(t, OL_AD_EXP, ol_tape_op2(t, OL_AD_MUL, a, b));
  int e2 = ol_tape_op2(t, OL_AD_DIV, ol_tape_op1(t, OL_AD_SIN, c), a);
  int s = ol_tape_op1(t, OL_AD_SQRT, ol_tape_op2(t, OL_AD_ADD,
                      ol_tape_const(t, 1), ol_tape_op1(t, OL_AD_SQR, b)));
  int f = ol_tape_op2(t, OL_AD_ADD, ol_tape_op2(t, OL_AD_ADD, e1, e2),
                      ol_tape_op2(t, OL_AD_MUL, s, c));
  double X = x[0], Y = x[1], Z = x[2], E = exp(X * Y), S = sqrt(1 + Y * Y);
  double H[9], g[3], fv, W[9];
  int i, sym = 1;
  ol_tape_finish(t, f, NULL);
  ol_tape_forward(t, x, &fv);
  ol_tape_reverse(t, g);
  ol_tape_hessian(t, H);
  is_close(fv, E + sin(Z) / X + S * Z, 1e-15, "tape: mixed value");
  is_close(g[0], Y * E - sin(Z) / (X * X), 1e-14, "tape: mixed df/dx");
  is_close(g[1], X * E + Y / S * Z, 1e-14, "tape: mixed df/dy");
  is_close(g[2], cos(Z) / X + S, 1e-14, "tape: mixed df/dz");
  W[0] = Y * Y * E + 2 * sin(Z) / (X * X * X);
  W[1] = W[3] = E * (1 + X * Y);
  W[2] = W[6] = -cos(Z) / (X * X);
  W[4] = X * X * E + Z / (S * S * S);
  W[5] = W[7] = Y / S;
  W[8] = -sin(Z) / X;
  for (i = 0; i < 9; i++)
    is_close(H[i], W[i], 1e-13, "tape: mixed H[%d][%d]", i / 3 + 1,
             i % 3 + 1);
  for (i = 0; i < 9; i++)
    if (H[i] != H[(i % 3) * 3 + i / 3]) sym = 0;
  ok(sym, "tape: mixed H exactly symmetric");
  ol_tape_free(t);
}

/* |x| recorded as the guard 0 <= x and the branch taken. */
static void test_guards (void)
{
  ol_tape *t = ol_tape_new(1, NULL);
  double x0 = 0.5, x, f, g;
  int v = ol_tape_var(t, 0, x0), zero = ol_tape_const(t, 0), out, y;
  out = ol_tape_guard(t, OL_AD_LE, zero, v);
  is_int(out, 1, "tape: guard 0 <= x holds at x0 = 0.5");
  y = out ? v : ol_tape_op1(t, OL_AD_NEG, v);
  is_int(ol_tape_guard(t, OL_AD_LE, zero, v), 1, "tape: guard asked again");
  is_int(ol_tape_nguards(t), 1, "tape: the same guard is kept once");
  is_int(ol_tape_guard(t, OL_AD_LT, zero, ol_tape_const(t, 1)), 1,
         "tape: a comparison of constants");
  is_int(ol_tape_nguards(t), 1, "tape: ... records no guard");
  ol_tape_finish(t, y, NULL);
  x = 2;
  ok(ol_tape_forward(t, &x, &f) && f == 2, "tape: guard holds at x = 2");
  ol_tape_reverse(t, &g);
  is_near(g, 1, 0, "tape: right-side derivative of |x| is 1");
  is_int(ol_tape_flipped(t), -1, "tape: no guard flipped");
  x = -0.25;
  ok(!ol_tape_forward(t, &x, &f), "tape: guard flips at x = -0.25");
  is_int(ol_tape_flipped(t), 0, "tape: flipped guard 0");
  x = 0;
  ok(ol_tape_forward(t, &x, &f), "tape: 0 <= x holds at the kink x = 0");
  ok(ol_tape_ontie(t), "tape: x = 0 is on the guard's tie (a kink)");
  x = 0.5;
  ol_tape_forward(t, &x, &f);
  ok(!ol_tape_ontie(t), "tape: x = 0.5 is not on a tie");
  ol_tape_free(t);
  /* floor(x) = 2 between the guards 2 <= x and x < 3 */
  t = ol_tape_new(1, NULL);
  x0 = 2.5;
  v = ol_tape_var(t, 0, x0);
  ol_tape_guard(t, OL_AD_LE, ol_tape_const(t, 2), v);
  ol_tape_guard(t, OL_AD_LT, v, ol_tape_const(t, 3));
  y = ol_tape_op2(t, OL_AD_MUL, v, ol_tape_const(t, 2));  /* 2 floor... */
  ol_tape_finish(t, ol_tape_op2(t, OL_AD_ADD, y, ol_tape_const(t, 2)),
                 NULL);
  x = 2.999;
  ok(ol_tape_forward(t, &x, &f), "tape: floor guards hold at 2.999");
  x = 3;
  ok(!ol_tape_forward(t, &x, &f) && ol_tape_flipped(t) == 1,
     "tape: x < 3 flips at 3");
  x = 1.5;
  ok(!ol_tape_forward(t, &x, &f) && ol_tape_flipped(t) == 0,
     "tape: 2 <= x flips at 1.5");
  ol_tape_free(t);
}

static void test_folding (void)
{
  ol_tape *t = ol_tape_new(2, NULL);
  int x = ol_tape_var(t, 0, 1.5), y = ol_tape_var(t, 1, -2);
  int c = ol_tape_op2(t, OL_AD_MUL, ol_tape_const(t, 3),
                      ol_tape_op1(t, OL_AD_EXP, ol_tape_const(t, 0)));
  int s1, s2, op, a, b;
  double v, g[2], f;
  ol_err e;
  ok(ol_tape_isconst(t, c) && ol_tape_value(t, c) == 3,
     "tape: 3 * exp(0) folds to the constant 3");
  is_int(ol_tape_nops(t), 0, "tape: ... with no instruction");
  ok(ol_tape_op2(t, OL_AD_ADD, x, ol_tape_const(t, 0)) == x,
     "tape: x + 0 is x");
  ok(ol_tape_op2(t, OL_AD_MUL, ol_tape_const(t, 1), y) == y,
     "tape: 1 * y is y");
  ok(ol_tape_op2(t, OL_AD_POW, x, ol_tape_const(t, 1)) == x,
     "tape: x ^ 1 is x");
  ok(ol_tape_op1(t, OL_AD_NEG, ol_tape_op1(t, OL_AD_NEG, x)) == x,
     "tape: -(-x) is x");
  s1 = ol_tape_op2(t, OL_AD_ADD, x, y);
  s2 = ol_tape_op2(t, OL_AD_ADD, y, x);
  is_int(s2, s1, "tape: y + x shares x + y");
  ok(ol_tape_const(t, 3) == c, "tape: equal constants are one node");
  ol_tape_node(t, ol_tape_op2(t, OL_AD_MUL, x, x), &op, &a, &b, &v);
  is_str(ol_tape_opname(op), "sqr", "tape: x * x is a square");
  ol_tape_node(t, ol_tape_op2(t, OL_AD_POW, y, ol_tape_const(t, 2)), &op,
               &a, &b, &v);
  is_str(ol_tape_opname(op), "sqr", "tape: y ^ 2 is a square");
  /* f = (x + y) * 3: two ops, the gradient 3, 3 */
  ol_tape_finish(t, ol_tape_op2(t, OL_AD_MUL, s1, c), NULL);
  is_int(ol_tape_nops(t), 5, "tape: 5 instructions (neg, add, sqr, sqr, "
         "mul): the folds recorded nothing");
  ol_tape_forward(t, (double[]){0.5, 0.25}, &f);
  ol_tape_reverse(t, g);
  ok(f == 2.25 && g[0] == 3 && g[1] == 3, "tape: (x + y) * 3 and its "
     "gradient");
  ok(ol_tape_op2(t, OL_AD_ADD, x, y) < 0, "tape: recording after finish "
     "fails");
  ol_tape_free(t);
  /* a bad operand fails the recording, and finish says so */
  t = ol_tape_new(1, NULL);
  x = ol_tape_var(t, 0, 1);
  ok(ol_tape_op2(t, OL_AD_ADD, x, 99) < 0, "tape: a bad operand fails");
  is_int(ol_tape_finish(t, x, &e), OL_EINVAL, "tape: finish reports the "
         "failure");
  ok(strstr(e.msg, "bad binary") != NULL, "tape: ... naming it (%s)",
     e.msg);
  ol_tape_free(t);
  ok(ol_tape_new(0, &e) == NULL && e.code == OL_EINVAL, "tape: n = 0 "
     "refused");
}

/* -- the program's fused forms (tape.c, "compiling") -------------------- */

/* Node k, and with pin a guard k == k that holds at every finite point
** and keeps k from being fused (a guard's operand is kept). */
static int pinned (ol_tape *t, int pin, int k)
{
  if (pin) ol_tape_guard(t, OL_AD_EQ, k, k);
  return k;
}

#define OP2(op, a, b) pinned(t, pin, ol_tape_op2(t, op, a, b))
#define OP1(op, a) pinned(t, pin, ol_tape_op1(t, op, a))
#define K(c) ol_tape_const(t, c)

/* The chained Rosenbrock function of n inputs, recorded as lua/lad.c
** records s = s + 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2 from s = 0
** (one operation a statement: C leaves the order of arguments open). */
static ol_tape *fz_rosen (int n, const double *x, int pin)
{
  ol_tape *t = ol_tape_new(n, NULL);
  int s = K(0), i;
  for (i = 0; i + 1 < n; i++) {
    int xi = ol_tape_var(t, i, x[i]), xj = ol_tape_var(t, i + 1, x[i + 1]);
    int q = OP2(OL_AD_POW, xi, K(2)), d = OP2(OL_AD_SUB, xj, q), u, e;
    u = OP2(OL_AD_POW, d, K(2));
    s = OP2(OL_AD_ADD, s, OP2(OL_AD_MUL, K(100), u));
    e = OP2(OL_AD_SUB, K(1), xi);
    s = OP2(OL_AD_ADD, s, OP2(OL_AD_POW, e, K(2)));
  }
  ol_tape_finish(t, s, NULL);
  return t;
}

/* Every fused form and constant form, and operands shared between a
** fused pair and its neighbours (the order of their adjoints' sums):
** with a = x_i, b = x_j, j = i + 1 (mod n), s starting at x_1,
**   s += (a + a b) + b;  s += (a - 3)^2;  s += (b - a)^2;
**   s += (b - exp(a)^2) / 4;  s += 2 / b;  s = (a + b^2) + s;  s -= 1;
**   s = (s + a cos a) + a;  s += tanh(b)^2;
**   m = b exp(a); z = sin(b); s = (s + m) + z
** where the last m must not fuse: sin(b), between m and s + m, adds to
** b's adjoint. */
static ol_tape *fz_mixed (int n, const double *x, int pin)
{
  ol_tape *t = ol_tape_new(n, NULL);
  int s = ol_tape_var(t, 0, x[0]), i;
  for (i = 0; i < n; i++) {
    int a = ol_tape_var(t, i, x[i]), b = ol_tape_var(t, (i + 1) % n,
                                                     x[(i + 1) % n]);
    int p, q, ea, m, z;
    p = OP2(OL_AD_MUL, a, b);
    p = OP2(OL_AD_ADD, a, p);
    s = OP2(OL_AD_ADD, s, OP2(OL_AD_ADD, p, b));
    p = OP2(OL_AD_SUB, a, K(3));
    s = OP2(OL_AD_ADD, s, OP2(OL_AD_POW, p, K(2)));
    p = OP2(OL_AD_SUB, b, a);
    s = OP2(OL_AD_ADD, s, OP1(OL_AD_SQR, p));
    ea = OP1(OL_AD_EXP, a);
    p = OP1(OL_AD_SQR, ea);
    p = OP2(OL_AD_SUB, b, p);
    s = OP2(OL_AD_ADD, s, OP2(OL_AD_DIV, p, K(4)));
    q = K(2);
    s = OP2(OL_AD_ADD, s, OP2(OL_AD_DIV, q, b));
    p = OP1(OL_AD_SQR, b);
    p = OP2(OL_AD_ADD, a, p);
    s = OP2(OL_AD_ADD, p, s);
    s = OP2(OL_AD_SUB, s, K(1));
    p = OP1(OL_AD_COS, a);
    p = OP2(OL_AD_MUL, a, p);
    s = OP2(OL_AD_ADD, s, p);
    s = OP2(OL_AD_ADD, s, a);
    p = OP1(OL_AD_TANH, b);
    s = OP2(OL_AD_ADD, s, OP1(OL_AD_SQR, p));
    m = OP2(OL_AD_MUL, b, ea);
    z = OP1(OL_AD_SIN, b);
    s = OP2(OL_AD_ADD, s, m);
    s = OP2(OL_AD_ADD, s, z);
  }
  ol_tape_finish(t, s, NULL);
  return t;
}

/* The fused program against the same function with nothing fused: the
** value, gradient and H v at a few points agree bit for bit (tolerance
** 0: the fused forms round the same operations in the same order, and
** add to each adjoint in the same order). */
static void test_fused (void)
{
  static const double pts[3][6] = {
    {-1.2, 1, -0.7, 0.4, 1.9, -2.5},
    {0.9999, 1.0001, 0.98, 1.02, 1, 1},
    {3.1, -0.2, 0.55, -1.7, 0.8, 1.3},
  };
  ol_tape *(*const fn[2])(int, const double *, int) = {fz_rosen, fz_mixed};
  const char *const name[2] = {"rosenbrock", "mixed"};
  int k, p, i;
  for (k = 0; k < 2; k++) {
    ol_tape *tf = fn[k](6, pts[0], 0), *tu = fn[k](6, pts[0], 1);
    if (k == 0)
      is_int(ol_tape_nprog(tf), 3 * 5, "tape: fused rosenbrock: 3 "
             "instructions a term (of %d recorded)", ol_tape_nops(tf));
    else
      ok(ol_tape_nprog(tf) < ol_tape_nops(tf), "tape: fused %s: %d of %d "
         "instructions", name[k], ol_tape_nprog(tf), ol_tape_nops(tf));
    is_int(ol_tape_nprog(tu), ol_tape_nops(tu), "tape: pinned %s: nothing "
           "fused", name[k]);
    for (p = 0; p < 3; p++) {
      double ff, fu, gf[6], gu[6], hf[6], hu[6], v[6];
      for (i = 0; i < 6; i++) v[i] = 0.25 * i - 0.6;
      ok(ol_tape_forward(tf, pts[p], &ff) && ol_tape_forward(tu, pts[p],
         &fu), "tape: %s: forward at point %d", name[k], p + 1);
      ol_tape_reverse(tf, gf);
      ol_tape_reverse(tu, gu);
      ok(memcmp(&ff, &fu, sizeof ff) == 0 && memcmp(gf, gu, sizeof gf)
         == 0, "tape: %s: fused value and gradient at point %d bit for "
         "bit (f = %.17g, df/dx1 = %.17g / %.17g)", name[k], p + 1, ff,
         gf[0], gu[0]);
      ol_tape_hvp(tf, v, hf, gf);
      ol_tape_hvp(tu, v, hu, gu);
      ok(memcmp(hf, hu, sizeof hf) == 0 && memcmp(gf, gu, sizeof gf) == 0,
         "tape: %s: H v after a fused forward sweep at point %d, bit for "
         "bit", name[k], p + 1);
    }
    ol_tape_free(tf);
    ol_tape_free(tu);
  }
}

/* ol_digamma, ol_trigamma against 30-digit values (mpmath's digamma and
** psi(1, x)): both tails, negative arguments (reflection), the positive
** root of psi (absolute there), the poles. */
static void test_special (void)
{
  static const double c[][3] = {
    {0.3, -3.5025242222001330, 12.245364546107730},
    {1e-6, -1000000.5772140200, 1000000000001.6449},
    {100, 4.6001618527380874, 0.010050166663333571},
    {-0.5, 0.036489973978576521, 8.9348022005446793},
    {-2.5, 1.1031566406452432, 9.5392466449891238},
    {1e8, 18.420680738952365, 1.0000000050000000e-08},
    {11.5, 2.3982391295357816, 0.090846661274546234},
    {12.5, 2.4851956512749120, 0.083285224601578370},
  };
  size_t i;
  for (i = 0; i < sizeof c / sizeof c[0]; i++) {
    is_close(ol_digamma(c[i][0]), c[i][1], 4e-15, "digamma(%g)", c[i][0]);
    is_close(ol_trigamma(c[i][0]), c[i][2], 4e-15, "trigamma(%g)",
             c[i][0]);
  }
  is_near(ol_digamma(1.4616321449683623), -3.99287304124631e-17, 1e-16,
          "digamma at its positive root: 0 to 1e-16 absolute");
  ok(isnan(ol_digamma(0)) && isnan(ol_digamma(-3)) && isnan(ol_trigamma(-1)),
     "digamma and trigamma are nan at 0 and the negative integers");
}

int main (void)
{
  test_special();
  test_unary();
  test_binary();
  test_rosenbrock();
  test_mixed();
  test_guards();
  test_folding();
  test_fused();
  return done();
}
