/*
** core/problems/hs.c -- constrained test problems of Hock & Schittkowski,
** "Test Examples for Nonlinear Programming Codes", Lecture Notes in
** Economics and Mathematical Systems 187, Springer 1981: problem.hs{number
** = k} for the k below, with the collection's start x0, its published
** solution x* and value f*, and exact gradients of f and of every
** constraint.  Constraints follow optlab's convention (constr.h): c(x) = 0
** or c(x) >= 0; bounds are the box set.
**
**   6   min (1 - x1)^2               s.t. 10 (x2 - x1^2) = 0
**       x0 (-1.2, 1); x* (1, 1), f* 0
**  10   min x1 - x2                  s.t. -3 x1^2 + 2 x1 x2 - x2^2 + 1 >= 0
**       x0 (-10, 10); x* (0, 1), f* -1
**  14   min (x1 - 2)^2 + (x2 - 1)^2  s.t. x1 - 2 x2 + 1 = 0,
**                                        1 - x1^2 / 4 - x2^2 >= 0
**       x0 (2, 2); x* ((sqrt 7 - 1) / 2, (sqrt 7 + 1) / 4),
**       f* 9 - 23 sqrt(7) / 8
**  21   min 0.01 x1^2 + x2^2 - 100   s.t. 10 x1 - x2 - 10 >= 0,
**                                        2 <= x1 <= 50, -50 <= x2 <= 50
**       x0 (-1, -1), the collection's, outside the bound x1 >= 2: sqp
**       and auglag move it to (2.02, -1) by IPOPT's bound push (run.c,
**       constr.h), other methods refuse it; x* (2, 0), f* -99.96
**  28   min (x1 + x2)^2 + (x2 + x3)^2  s.t. x1 + 2 x2 + 3 x3 - 1 = 0
**       x0 (-4, 1, 1); x* (1/2, -1/2, 1/2), f* 0
**  35   min 9 - 8 x1 - 6 x2 - 4 x3 + 2 x1^2 + 2 x2^2 + x3^2 + 2 x1 x2
**           + 2 x1 x3               s.t. 3 - x1 - x2 - 2 x3 >= 0, x >= 0
**       x0 (1/2, 1/2, 1/2); x* (4/3, 7/9, 4/9), f* 1/9
**  39   min -x1   s.t. x2 - x1^3 - x3^2 = 0, x1^2 - x2 - x4^2 = 0
**       x0 (2, 2, 2, 2); x* (1, 1, 0, 0), f* -1
**  40   min -x1 x2 x3 x4   s.t. x1^3 + x2^2 - 1 = 0, x1^2 x4 - x3 = 0,
**                              x4^2 - x2 = 0
**       x0 (0.8, 0.8, 0.8, 0.8); x* (2^-1/3, 2^-1/2, 2^-11/12, 2^-1/4),
**       f* -1/4
**  43   (Rosen & Suzuki 1965)  min x1^2 + x2^2 + 2 x3^2 + x4^2 - 5 x1
**           - 5 x2 - 21 x3 + 7 x4
**       s.t. 8 - x1^2 - x2^2 - x3^2 - x4^2 - x1 + x2 - x3 + x4 >= 0,
**            10 - x1^2 - 2 x2^2 - x3^2 - 2 x4^2 + x1 + x4 >= 0,
**            5 - 2 x1^2 - x2^2 - x3^2 - 2 x1 + x2 + x4 >= 0
**       x0 (0, 0, 0, 0); x* (0, 1, 2, -1), f* -44
**  71   min x1 x4 (x1 + x2 + x3) + x3   s.t. x1 x2 x3 x4 - 25 >= 0,
**                  x1^2 + x2^2 + x3^2 + x4^2 - 40 = 0, 1 <= x <= 5
**       x0 (1, 5, 5, 1); x* (1, 4.7429994, 3.8211503, 1.3794082),
**       f* 17.0140173 (the collection's digits)
**  76   min x1^2 + x2^2 / 2 + x3^2 + x4^2 / 2 - x1 x3 + x3 x4 - x1 - 3 x2
**           + x3 - x4
**       s.t. 5 - x1 - 2 x2 - x3 - x4 >= 0, 4 - 3 x1 - x2 - 2 x3 + x4 >= 0,
**            x2 + 4 x3 - 1.5 >= 0, x >= 0
**       x0 (1/2, 1/2, 1/2, 1/2); x* (3/11, 23/11, 0, 6/11), f* -103/22
** 106   (heat exchanger design; badly scaled: x from 10 to 10^4, constraint
**       gradients from 2.5e-3 to 5e3)   min x1 + x2 + x3
**       s.t. 1 - 0.0025 (x4 + x6) >= 0,  1 - 0.0025 (x5 + x7 - x4) >= 0,
**            1 - 0.01 (x8 - x5) >= 0,
**            x1 x6 - 833.33252 x4 - 100 x1 + 83333.333 >= 0,
**            x2 x7 - 1250 x5 - x2 x4 + 1250 x4 >= 0,
**            x3 x8 - 1250000 - x3 x5 + 2500 x5 >= 0,
**            100 <= x1 <= 10^4, 1000 <= x2, x3 <= 10^4, 10 <= x4..x8 <= 1000
**       x0 (5000, 5000, 5000, 200, 350, 150, 225, 425); f* 7049.2480 (the
**       optimum as published since; the 1981 book's 7-digit x*, (579.3167,
**       1359.943, 5110.071, 182.0174, 295.5985, 217.9799, 286.4162,
**       395.5979), has f = 7049.3307, 1.2e-5 above it); x* (579.306684,
**       1359.97067, 5109.97067, 182.0177, 295.601173, 217.9823, 286.416526,
**       395.601173): the digits on which sqp (kkt <= 1e-9) and auglag agree
**
** The x* stated as fractions or powers satisfy the constraints and the
** KKT conditions exactly (tests/c/t_sqp.c checks them with
** ol_constr_kkt); 71's are the collection's 8 digits.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ol.h"
#include "problem.h"

#define HS_MAXN 8
#define HS_MAXM 6

typedef void (*hs_f) (const double *x, double *f, double *g);
typedef void (*hs_c) (int i, const double *x, double *c, double *g);

typedef struct hs_def {
  int number, n, m;
  int kind[HS_MAXM];             /* OL_CON_EQ / OL_CON_INEQ */
  double x0[HS_MAXN], xstar[HS_MAXN], fstar;
  double lo[HS_MAXN], hi[HS_MAXN];
  int bounded;                   /* lo / hi used */
  hs_f f;
  hs_c c;
} hs_def;

static void zero (double *g, int n)
{
  if (g != NULL) memset(g, 0, (size_t)n * sizeof *g);
}

/* -- 6 -- */
static void f6 (const double *x, double *f, double *g)
{
  *f = (1 - x[0]) * (1 - x[0]);
  if (g) { g[0] = -2 * (1 - x[0]); g[1] = 0; }
}
static void c6 (int i, const double *x, double *c, double *g)
{
  (void)i;
  *c = 10 * (x[1] - x[0] * x[0]);
  if (g) { g[0] = -20 * x[0]; g[1] = 10; }
}

/* -- 10 -- */
static void f10 (const double *x, double *f, double *g)
{
  *f = x[0] - x[1];
  if (g) { g[0] = 1; g[1] = -1; }
}
static void c10 (int i, const double *x, double *c, double *g)
{
  (void)i;
  *c = -3 * x[0] * x[0] + 2 * x[0] * x[1] - x[1] * x[1] + 1;
  if (g) { g[0] = -6 * x[0] + 2 * x[1]; g[1] = 2 * x[0] - 2 * x[1]; }
}

/* -- 14 -- */
static void f14 (const double *x, double *f, double *g)
{
  *f = (x[0] - 2) * (x[0] - 2) + (x[1] - 1) * (x[1] - 1);
  if (g) { g[0] = 2 * (x[0] - 2); g[1] = 2 * (x[1] - 1); }
}
static void c14 (int i, const double *x, double *c, double *g)
{
  if (i == 0) {
    *c = x[0] - 2 * x[1] + 1;
    if (g) { g[0] = 1; g[1] = -2; }
  } else {
    *c = 1 - x[0] * x[0] / 4 - x[1] * x[1];
    if (g) { g[0] = -x[0] / 2; g[1] = -2 * x[1]; }
  }
}

/* -- 21 -- */
static void f21 (const double *x, double *f, double *g)
{
  *f = 0.01 * x[0] * x[0] + x[1] * x[1] - 100;
  if (g) { g[0] = 0.02 * x[0]; g[1] = 2 * x[1]; }
}
static void c21 (int i, const double *x, double *c, double *g)
{
  (void)i;
  *c = 10 * x[0] - x[1] - 10;
  if (g) { g[0] = 10; g[1] = -1; }
}

/* -- 28 -- */
static void f28 (const double *x, double *f, double *g)
{
  double a = x[0] + x[1], b = x[1] + x[2];
  *f = a * a + b * b;
  if (g) { g[0] = 2 * a; g[1] = 2 * a + 2 * b; g[2] = 2 * b; }
}
static void c28 (int i, const double *x, double *c, double *g)
{
  (void)i;
  *c = x[0] + 2 * x[1] + 3 * x[2] - 1;
  if (g) { g[0] = 1; g[1] = 2; g[2] = 3; }
}

/* -- 35 -- */
static void f35 (const double *x, double *f, double *g)
{
  *f = 9 - 8 * x[0] - 6 * x[1] - 4 * x[2] + 2 * x[0] * x[0]
       + 2 * x[1] * x[1] + x[2] * x[2] + 2 * x[0] * x[1] + 2 * x[0] * x[2];
  if (g) {
    g[0] = -8 + 4 * x[0] + 2 * x[1] + 2 * x[2];
    g[1] = -6 + 4 * x[1] + 2 * x[0];
    g[2] = -4 + 2 * x[2] + 2 * x[0];
  }
}
static void c35 (int i, const double *x, double *c, double *g)
{
  (void)i;
  *c = 3 - x[0] - x[1] - 2 * x[2];
  if (g) { g[0] = -1; g[1] = -1; g[2] = -2; }
}

/* -- 39 -- */
static void f39 (const double *x, double *f, double *g)
{
  *f = -x[0];
  if (g) { zero(g, 4); g[0] = -1; }
}
static void c39 (int i, const double *x, double *c, double *g)
{
  zero(g, 4);
  if (i == 0) {
    *c = x[1] - x[0] * x[0] * x[0] - x[2] * x[2];
    if (g) { g[0] = -3 * x[0] * x[0]; g[1] = 1; g[2] = -2 * x[2]; }
  } else {
    *c = x[0] * x[0] - x[1] - x[3] * x[3];
    if (g) { g[0] = 2 * x[0]; g[1] = -1; g[3] = -2 * x[3]; }
  }
}

/* -- 40 -- */
static void f40 (const double *x, double *f, double *g)
{
  *f = -x[0] * x[1] * x[2] * x[3];
  if (g) {
    g[0] = -x[1] * x[2] * x[3];
    g[1] = -x[0] * x[2] * x[3];
    g[2] = -x[0] * x[1] * x[3];
    g[3] = -x[0] * x[1] * x[2];
  }
}
static void c40 (int i, const double *x, double *c, double *g)
{
  zero(g, 4);
  if (i == 0) {
    *c = x[0] * x[0] * x[0] + x[1] * x[1] - 1;
    if (g) { g[0] = 3 * x[0] * x[0]; g[1] = 2 * x[1]; }
  } else if (i == 1) {
    *c = x[0] * x[0] * x[3] - x[2];
    if (g) { g[0] = 2 * x[0] * x[3]; g[2] = -1; g[3] = x[0] * x[0]; }
  } else {
    *c = x[3] * x[3] - x[1];
    if (g) { g[1] = -1; g[3] = 2 * x[3]; }
  }
}

/* -- 43 -- */
static void f43 (const double *x, double *f, double *g)
{
  *f = x[0] * x[0] + x[1] * x[1] + 2 * x[2] * x[2] + x[3] * x[3]
       - 5 * x[0] - 5 * x[1] - 21 * x[2] + 7 * x[3];
  if (g) {
    g[0] = 2 * x[0] - 5;
    g[1] = 2 * x[1] - 5;
    g[2] = 4 * x[2] - 21;
    g[3] = 2 * x[3] + 7;
  }
}
static void c43 (int i, const double *x, double *c, double *g)
{
  double s1 = x[0] * x[0], s2 = x[1] * x[1], s3 = x[2] * x[2],
         s4 = x[3] * x[3];
  if (i == 0) {
    *c = 8 - s1 - s2 - s3 - s4 - x[0] + x[1] - x[2] + x[3];
    if (g) {
      g[0] = -2 * x[0] - 1; g[1] = -2 * x[1] + 1;
      g[2] = -2 * x[2] - 1; g[3] = -2 * x[3] + 1;
    }
  } else if (i == 1) {
    *c = 10 - s1 - 2 * s2 - s3 - 2 * s4 + x[0] + x[3];
    if (g) {
      g[0] = -2 * x[0] + 1; g[1] = -4 * x[1];
      g[2] = -2 * x[2]; g[3] = -4 * x[3] + 1;
    }
  } else {
    *c = 5 - 2 * s1 - s2 - s3 - 2 * x[0] + x[1] + x[3];
    if (g) {
      g[0] = -4 * x[0] - 2; g[1] = -2 * x[1] + 1;
      g[2] = -2 * x[2]; g[3] = 1;
    }
  }
}

/* -- 71 -- */
static void f71 (const double *x, double *f, double *g)
{
  double s = x[0] + x[1] + x[2];
  *f = x[0] * x[3] * s + x[2];
  if (g) {
    g[0] = x[3] * s + x[0] * x[3];
    g[1] = x[0] * x[3];
    g[2] = x[0] * x[3] + 1;
    g[3] = x[0] * s;
  }
}
static void c71 (int i, const double *x, double *c, double *g)
{
  int j;
  if (i == 0) {
    *c = x[0] * x[1] * x[2] * x[3] - 25;
    if (g) {
      g[0] = x[1] * x[2] * x[3];
      g[1] = x[0] * x[2] * x[3];
      g[2] = x[0] * x[1] * x[3];
      g[3] = x[0] * x[1] * x[2];
    }
  } else {
    *c = -40;
    for (j = 0; j < 4; j++) *c += x[j] * x[j];
    if (g) for (j = 0; j < 4; j++) g[j] = 2 * x[j];
  }
}

/* -- 76 -- */
static void f76 (const double *x, double *f, double *g)
{
  *f = x[0] * x[0] + 0.5 * x[1] * x[1] + x[2] * x[2] + 0.5 * x[3] * x[3]
       - x[0] * x[2] + x[2] * x[3] - x[0] - 3 * x[1] + x[2] - x[3];
  if (g) {
    g[0] = 2 * x[0] - x[2] - 1;
    g[1] = x[1] - 3;
    g[2] = 2 * x[2] - x[0] + x[3] + 1;
    g[3] = x[3] + x[2] - 1;
  }
}
static void c76 (int i, const double *x, double *c, double *g)
{
  static const double a[3][4] = {{-1, -2, -1, -1}, {-3, -1, -2, 1},
                                 {0, 1, 4, 0}};
  static const double b[3] = {5, 4, -1.5};
  int j;
  *c = b[i];
  for (j = 0; j < 4; j++) *c += a[i][j] * x[j];
  if (g) for (j = 0; j < 4; j++) g[j] = a[i][j];
}

/* -- 106 -- */
static void f106 (const double *x, double *f, double *g)
{
  *f = x[0] + x[1] + x[2];
  if (g) {
    memset(g, 0, 8 * sizeof *g);
    g[0] = g[1] = g[2] = 1;
  }
}
static void c106 (int i, const double *x, double *c, double *g)
{
  zero(g, 8);
  switch (i) {
  case 0:
    *c = 1 - 0.0025 * (x[3] + x[5]);
    if (g) g[3] = g[5] = -0.0025;
    break;
  case 1:
    *c = 1 - 0.0025 * (x[4] + x[6] - x[3]);
    if (g) { g[4] = g[6] = -0.0025; g[3] = 0.0025; }
    break;
  case 2:
    *c = 1 - 0.01 * (x[7] - x[4]);
    if (g) { g[7] = -0.01; g[4] = 0.01; }
    break;
  case 3:
    *c = x[0] * x[5] - 833.33252 * x[3] - 100 * x[0] + 83333.333;
    if (g) { g[0] = x[5] - 100; g[5] = x[0]; g[3] = -833.33252; }
    break;
  case 4:
    *c = x[1] * x[6] - 1250 * x[4] - x[1] * x[3] + 1250 * x[3];
    if (g) {
      g[1] = x[6] - x[3]; g[6] = x[1]; g[4] = -1250; g[3] = 1250 - x[1];
    }
    break;
  default:
    *c = x[2] * x[7] - 1250000 - x[2] * x[4] + 2500 * x[4];
    if (g) { g[2] = x[7] - x[4]; g[7] = x[2]; g[4] = 2500 - x[2]; }
  }
}

#define E OL_CON_EQ
#define I OL_CON_INEQ
#define INF INFINITY
static const hs_def hs_defs[] = {
  {6, 2, 1, {E}, {-1.2, 1}, {1, 1}, 0, {0}, {0}, 0, f6, c6},
  {10, 2, 1, {I}, {-10, 10}, {0, 1}, -1, {0}, {0}, 0, f10, c10},
  {14, 2, 2, {E, I}, {2, 2}, {0, 0}, 0, {0}, {0}, 0, f14, c14},
  {21, 2, 1, {I}, {-1, -1}, {2, 0}, -99.96, {2, -50}, {50, 50}, 1,
   f21, c21},
  {28, 3, 1, {E}, {-4, 1, 1}, {0.5, -0.5, 0.5}, 0, {0}, {0}, 0, f28, c28},
  {35, 3, 1, {I}, {0.5, 0.5, 0.5}, {4.0 / 3, 7.0 / 9, 4.0 / 9}, 1.0 / 9,
   {0, 0, 0}, {INF, INF, INF}, 1, f35, c35},
  {39, 4, 2, {E, E}, {2, 2, 2, 2}, {1, 1, 0, 0}, -1, {0}, {0}, 0, f39, c39},
  {40, 4, 3, {E, E, E}, {0.8, 0.8, 0.8, 0.8}, {0, 0, 0, 0}, -0.25, {0},
   {0}, 0, f40, c40},
  {43, 4, 3, {I, I, I}, {0, 0, 0, 0}, {0, 1, 2, -1}, -44, {0}, {0}, 0,
   f43, c43},
  {71, 4, 2, {I, E}, {1, 5, 5, 1}, {1, 4.7429994, 3.8211503, 1.3794082},
   17.0140173, {1, 1, 1, 1}, {5, 5, 5, 5}, 1, f71, c71},
  {76, 4, 3, {I, I, I}, {0.5, 0.5, 0.5, 0.5},
   {3.0 / 11, 23.0 / 11, 0, 6.0 / 11}, -103.0 / 22, {0, 0, 0, 0},
   {INF, INF, INF, INF}, 1, f76, c76},
  {106, 8, 6, {I, I, I, I, I, I},
   {5000, 5000, 5000, 200, 350, 150, 225, 425},
   {579.306684, 1359.97067, 5109.97067, 182.0177, 295.601173, 217.9823,
    286.416526, 395.601173}, 7049.2480,
   {100, 1000, 1000, 10, 10, 10, 10, 10},
   {10000, 10000, 10000, 1000, 1000, 1000, 1000, 1000}, 1, f106, c106},
};
#undef E
#undef I
#undef INF
#define HS_COUNT ((int)(sizeof hs_defs / sizeof hs_defs[0]))

static int hs_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  const hs_def *d = ud;
  double v;
  (void)e;
  d->f(x, &v, g);
  if (f != NULL) *f = v;
  return OL_OK;
}

static int hs_con (void *ud, int i, const double *x, double *c, double *g,
                   ol_err *e)
{
  const hs_def *d = ud;
  double v;
  (void)e;
  d->c(i, x, &v, g);
  if (c != NULL) *c = v;
  return OL_OK;
}

static const ol_param hs_params[] = {
  {"number", OL_P_INT, 71, 1, 119, "the collection's problem number: 6, "
   "10, 14, 21, 28, 35, 39, 40, 43, 71, 76 or 106", NULL},
};

static int hs_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  const hs_def *d = NULL;
  int k, rc, hasgrad[HS_MAXM] = {1, 1, 1, 1, 1, 1};
  char list[96] = "";
  for (k = 0; k < HS_COUNT; k++)
    if (hs_defs[k].number == (int)v[0].num) d = &hs_defs[k];
  if (d == NULL) {
    for (k = 0; k < HS_COUNT; k++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%d",
               k > 0 ? ", " : "", hs_defs[k].number);
    return ol_err_set(e, OL_EINVAL, "hs: no problem number %d here (the "
                      "numbers are %s)", (int)v[0].num, list);
  }
  snprintf(p->name, sizeof p->name, "hs%03d", d->number);
  p->kind = OL_OBJECTIVE;
  p->n = d->n;
  p->fdf = hs_fdf;
  p->ud = (void *)d;             /* the oracles only read the entry */
  if ((p->x0 = ol_problem_alloc(d->n, e)) == NULL) return OL_ENOMEM;
  if ((p->xstar = ol_problem_alloc(d->n, e)) == NULL) return OL_ENOMEM;
  memcpy(p->x0, d->x0, (size_t)d->n * sizeof *p->x0);
  memcpy(p->xstar, d->xstar, (size_t)d->n * sizeof *p->xstar);
  if (d->number == 14) {
    p->xstar[0] = (sqrt(7.0) - 1) / 2;
    p->xstar[1] = (sqrt(7.0) + 1) / 4;
  } else if (d->number == 40) {
    p->xstar[0] = pow(2, -1.0 / 3);
    p->xstar[1] = pow(2, -0.5);
    p->xstar[2] = pow(2, -11.0 / 12);
    p->xstar[3] = pow(2, -0.25);
  }
  p->fstar = d->number == 14 ? 9 - 23 * sqrt(7.0) / 8 : d->fstar;
  if (d->bounded) {
    ol_set s;
    memset(&s, 0, sizeof s);
    s.kind = OL_SET_BOX;
    s.lo = (double *)d->lo;        /* copied by the setter */
    s.hi = (double *)d->hi;
    if ((rc = ol_problem_set_set(p, &s, e)) != OL_OK) return rc;
  }
  if ((rc = ol_problem_set_constraints(p, d->m, d->kind, hasgrad, hs_con,
                                       p->ud, e)) != OL_OK)
    return rc;
  snprintf(p->desc, sizeof p->desc, "hs{number=%d} (Hock & Schittkowski "
           "%d: n = %d, %d constraint%s%s, f* = %.10g)", d->number,
           d->number, d->n, d->m, d->m == 1 ? "" : "s",
           d->bounded ? " and bounds" : "", p->fstar);
  return OL_OK;
}

const ol_problem_type ol_problem_hs = {
  .name = "hs",
  .kind = OL_OBJECTIVE,
  .doc = "constrained test problems of Hock & Schittkowski (number = 6, 10, "
         "14, 21, 28, 35, 39, 40, 43, 71, 76, 106) with published optima",
  .ref = "Hock & Schittkowski 1981, Test Examples for Nonlinear Programming "
         "Codes",
  .params = hs_params,
  .nparams = (int)(sizeof hs_params / sizeof hs_params[0]),
  .create = hs_create,
};
