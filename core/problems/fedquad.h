/*
** core/problems/fedquad.h -- the closed forms of problem.fedquad
** (fedquad.c) that federated tests and demos check runs against.
*/
#ifndef OL_FEDQUAD_H
#define OL_FEDQUAD_H

#include "problem.h"

/* FedAvg's fixed point on fedquad p (full participation, each client's
** K local steps of gradient descent with step lr on its whole shard):
**   x_j = sum_w (1 - (1 - lr h_wj)^K) cbar_wj / sum_w (1 - (1 - lr h_wj)^K)
** into x (p->n entries); independent of the server step and of server
** momentum.  K = 1 gives x* itself.  OL_EINVAL when p is not a fedquad
** problem or K < 1, lr <= 0. */
int ol_fedquad_fixed (const ol_problem *p, int K, double lr, double *x,
                      ol_err *e);
/* Client w's optimum cbar_w (p->n entries) and curvatures h_w (diagonal
** of H_w), borrowed from p; NULL when p is not fedquad or w is out of
** range. */
const double *ol_fedquad_centre (const ol_problem *p, int w);
const double *ol_fedquad_curv (const ol_problem *p, int w);
/* The N component centres c_i (N x n, row-major; client w's are rows
** [w m, (w + 1) m)), borrowed from p; NULL when p is not fedquad.  For
** benchmarks that redo the arithmetic in plain C. */
const double *ol_fedquad_points (const ol_problem *p);

#endif
