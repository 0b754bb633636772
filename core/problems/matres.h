/*
** core/problems/matres.h -- the matrix residual of the Frobenius
** least-squares problems (matlsq.c, lowrank.c): f = 1/2 ||A B - T||_F^2.
*/
#ifndef OL_MATRES_H
#define OL_MATRES_H

/* R = A op(B) - T, with A rows x inner, op(B) inner x cols (B itself, or
** B' for an cols x inner B when transb), T and R rows x cols, all
** row-major; then *f = 1/2 ||R||_F^2 when f is not NULL (a sum of
** squares, not nrm2: the value matters near 0). */
void ol_matres (int rows, int cols, int inner, const double *A,
                const double *B, int transb, const double *T, double *R,
                double *f);

#endif
