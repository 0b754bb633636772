/*
** core/penalty.c -- the composite term's kinds (l1, SCAD): value and exact
** proximal map per coordinate, and the registry ol_penalties[].  The
** definitions and the prox formulas are in core/penalty.h.
**
** The l1 kind keeps the arithmetic the composite code always had (soft
** thresholding at t = step * l1; h = l1 * sum |x_i|), so a problem
** without a penalty key gives the same bits as before.
*/
#include "penalty.h"

#include <math.h>
#include <string.h>

static double l1_value (double t, double lam, double a)
{
  (void)a;
  return lam * t;
}

static double l1_prox (double v, double lam, double a, double step)
{
  double t = step * lam;
  (void)a;
  return v > t ? v - t : v < -t ? v + t : 0;
}

/* lam * sum |x_i|: the sum first, as the composite loss always did */
static double l1_sum (const double *x, int n, double lam, double a)
{
  double s = 0;
  int i;
  (void)a;
  for (i = 0; i < n; i++) s += fabs(x[i]);
  return lam * s;
}

static void l1_proxv (double *x, int n, double lam, double a, double step)
{
  double t = step * lam;
  int i;
  (void)a;
  for (i = 0; i < n; i++)
    x[i] = x[i] > t ? x[i] - t : x[i] < -t ? x[i] + t : 0;
}

double ol_scad (double t, double lam, double a)
{
  if (t <= lam) return lam * t;
  if (t <= a * lam) return (2 * a * lam * t - t * t - lam * lam)
                           / (2 * (a - 1));
  return lam * lam * (a + 1) / 2;
}

/* (u - v)^2 / (2 s) + SCAD(u), u >= 0: the objective the prox minimises
** for v >= 0. */
static double scad_q (double u, double v, double lam, double a, double s)
{
  return (u - v) * (u - v) / (2 * s) + ol_scad(u, lam, a);
}

static double clamp (double u, double lo, double hi)
{
  return u < lo ? lo : u > hi ? hi : u;
}

double ol_scad_prox_pieces (double v, double lam, double a, double step)
{
  double av = fabs(v), c[6], best, qb, q, al = a * lam;
  int k, nc = 0;
  /* (1) the candidates, in increasing order of the piece they lie on:
  ** the minimiser lies on the side of 0 where v is, so u >= 0 for |v| */
  c[nc++] = 0;
  c[nc++] = clamp(av - step * lam, 0, lam);            /* [0, lam] */
  c[nc++] = lam;
  if (1 / step > 1 / (a - 1))                          /* convex middle */
    c[nc++] = clamp(((a - 1) * av - step * al) / (a - 1 - step), lam, al);
  c[nc++] = al;
  c[nc++] = av > al ? av : al;                         /* [a lam, inf) */
  /* (2) the best, the smallest on a tie (candidates are not sorted, so
  ** compare |u| too) */
  best = c[0];
  qb = scad_q(best, av, lam, a, step);
  for (k = 1; k < nc; k++) {
    q = scad_q(c[k], av, lam, a, step);
    if (q < qb || (q == qb && c[k] < best)) {
      best = c[k];
      qb = q;
    }
  }
  return v < 0 ? -best : best;
}

double ol_scad_prox (double v, double lam, double a, double step)
{
  double av = fabs(v), u;
  if (!(step < a - 1)) return ol_scad_prox_pieces(v, lam, a, step);
  if (av <= (1 + step) * lam) u = av > step * lam ? av - step * lam : 0;
  else if (av <= a * lam)
    u = ((a - 1) * av - step * a * lam) / (a - 1 - step);
  else u = av;
  return v < 0 ? -u : u;
}

static double scad_value (double t, double lam, double a)
{
  return ol_scad(t, lam, a);
}

static double scad_sum (const double *x, int n, double lam, double a)
{
  double s = 0;
  int i;
  for (i = 0; i < n; i++) s += ol_scad(fabs(x[i]), lam, a);
  return s;
}

static double scad_dconcave (double t, double lam, double a)
{
  if (t <= lam) return 0;
  if (t <= a * lam) return (lam - t) / (a - 1);
  return -lam;
}

static double scad_lconcave (double a)
{
  return 1 / (a - 1);
}

static void scad_proxv (double *x, int n, double lam, double a, double step)
{
  int i;
  for (i = 0; i < n; i++) x[i] = ol_scad_prox(x[i], lam, a, step);
}

const ol_penalty ol_penalty_l1 = {
  .name = "l1",
  .doc = "lambda ||x||_1 (soft thresholding)",
  .ref = "Tibshirani 1996",
  .adef = 0,
  .alo = 0,
  .value = l1_value,
  .prox = l1_prox,
  .sum = l1_sum,
  .proxv = l1_proxv,
};

const ol_penalty ol_penalty_scad = {
  .name = "scad",
  .doc = "SCAD(|x_i|; lambda, a): l1 near 0, flat beyond a lambda "
         "(nonconvex, nearly unbiased)",
  .ref = "Fan & Li 2001, JASA 96, Section 2",
  .adef = 3.7,
  .alo = 2,
  .value = scad_value,
  .prox = ol_scad_prox,
  .sum = scad_sum,
  .proxv = scad_proxv,
  .dconcave = scad_dconcave,
  .lconcave = scad_lconcave,
};

const ol_penalty *const ol_penalties[] = {
  &ol_penalty_l1,
  &ol_penalty_scad,
  NULL,
};

const ol_penalty *ol_penalty_find (const char *name)
{
  int k;
  for (k = 0; ol_penalties[k] != NULL; k++)
    if (strcmp(ol_penalties[k]->name, name) == 0) return ol_penalties[k];
  return NULL;
}

const ol_penalty *ol_penalty_of (const ol_problem *p)
{
  return p->pen != NULL ? p->pen : &ol_penalty_l1;
}

double ol_penalty_sum (const ol_problem *p, const double *x, int n)
{
  if (!(p->l1 > 0)) return 0;
  return ol_penalty_of(p)->sum(x, n, p->l1, p->pen_a);
}

double ol_penalty_prox1 (const ol_problem *p, double v, double step)
{
  return ol_penalty_of(p)->prox(v, p->l1, p->pen_a, step);
}

void ol_penalty_prox (const ol_problem *p, double *x, int n, double step)
{
  if (!(step * p->l1 > 0)) return;
  ol_penalty_of(p)->proxv(x, n, p->l1, p->pen_a, step);
}

double ol_penalty_concave_grad (const ol_problem *p, const double *x, int n,
                                double *g)
{
  const ol_penalty *k = ol_penalty_of(p);
  int i;
  if (!(p->l1 > 0) || k->dconcave == NULL) return 0;
  for (i = 0; i < n; i++)
    if (x[i] != 0)
      g[i] += (x[i] < 0 ? -1 : 1) * k->dconcave(fabs(x[i]), p->l1, p->pen_a);
  return k->lconcave(p->pen_a);
}
