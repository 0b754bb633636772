/*
** core/metrics/xnorm.c -- the metric xnorm, ||x_t||_2 (an example of the
** plug-in contract added by tests/extend/: the Euclidean norm, e.g. Golub
** & Van Loan 2013, Matrix Computations, sec. 2.2).  Every run has it.
*/
#include "metrics.h"
#include "vec.h"

static int xnorm_avail (const ol_problem *p, int family)
{
  (void)p;
  (void)family;
  return 1;
}

static double xnorm_eval (const ol_mstate *s)
{
  return ol_vec_nrm2(s->x, s->n);
}

const ol_metric_type ol_metric_xnorm = {
  .name = "xnorm",
  .doc = "||x_t||_2: the Euclidean norm of the iterate",
  .avail = xnorm_avail,
  .eval = xnorm_eval,
};
