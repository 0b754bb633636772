/*
** core/problems/matres.c -- matrix residual and its squared norm for the
** Frobenius least-squares problems (see matres.h).
*/
#include "matres.h"

#include <cblas.h>
#include <stddef.h>
#include <string.h>

void ol_matres (int rows, int cols, int inner, const double *A,
                const double *B, int transb, const double *T, double *R,
                double *f)
{
  size_t len = (size_t)rows * (size_t)cols;
  memcpy(R, T, len * sizeof *R);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, transb ? CblasTrans : CblasNoTrans,
              rows, cols, inner, 1.0, A, inner, B, transb ? inner : cols,
              -1.0, R, cols);
  if (f != NULL) *f = 0.5 * cblas_ddot((int)len, R, 1, R, 1);
}
