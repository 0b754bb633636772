/*
** core/optim/cubicsub.h -- the subproblem of cubic-regularized Newton,
** shared by cubic (Euclidean) and rcubic (on a manifold's tangent space):
** the global minimiser of
**   m(s) = g's + 1/2 s'H s + M/6 ||s||^3
** in the eigen-coordinates of H = Q diag(ev) Q' (gt = Q'g), by the
** secular equation and the hard case of Nesterov & Polyak 2006 (eq.
** (2.7)-(2.9), Proposition 1) as cubic.c's header describes.
*/
#ifndef OL_CUBICSUB_H
#define OL_CUBICSUB_H

/* The minimiser's coordinates st[0..n) for ev ascending (ev[0] the least
** eigenvalue) and M > 0; returns ||s|| and sets *gs = gt'st and *shs =
** sum_i ev_i st_i^2 (the model's linear and quadratic terms). */
double ol_cubic_subproblem (const double *ev, const double *gt, int n,
                            double M, double *st, double *gs, double *shs);

#endif
