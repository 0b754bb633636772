/*
** core/optim/lmem.c -- the L-BFGS memory (see lmem.h).
*/
#include <math.h>

#include "lmem.h"
#include "vec.h"

int ol_lmem_init (ol_lmem *L, int m, int n, ol_err *e)
{
  L->m = m;
  L->cnt = L->head = 0;
  L->gamma = 1;
  if ((L->S = ol_mat_new(m, n, e)) == NULL) return OL_ENOMEM;
  if ((L->Y = ol_mat_new(m, n, e)) == NULL) return OL_ENOMEM;
  if ((L->rho = ol_vec_new(m, e)) == NULL) return OL_ENOMEM;
  if ((L->al = ol_vec_new(m, e)) == NULL) return OL_ENOMEM;
  return OL_OK;
}

void ol_lmem_fini (ol_lmem *L)
{
  ol_vec_free(L->S);
  ol_vec_free(L->Y);
  ol_vec_free(L->rho);
  ol_vec_free(L->al);
  L->S = L->Y = L->rho = L->al = NULL;
}

void ol_lmem_apply (ol_lmem *L, double *d, int n)
{
  int j, k, m = L->m;
  if (L->cnt == 0) return;
  for (k = 0; k < L->cnt; k++) {
    j = (L->head - k + m) % m;
    L->al[j] = L->rho[j] * ol_vec_dot(L->S + (size_t)j * n, d, n);
    ol_vec_axpy(-L->al[j], L->Y + (size_t)j * n, d, n);
  }
  ol_vec_scal(L->gamma, d, n);
  for (k = L->cnt - 1; k >= 0; k--) {
    double b;
    j = (L->head - k + m) % m;
    b = L->rho[j] * ol_vec_dot(L->Y + (size_t)j * n, d, n);
    ol_vec_axpy(L->al[j] - b, L->S + (size_t)j * n, d, n);
  }
}

double *ol_lmem_snext (const ol_lmem *L, int n)
{
  return L->S + (size_t)((L->head + 1) % L->m) * n;
}

double *ol_lmem_ynext (const ol_lmem *L, int n)
{
  return L->Y + (size_t)((L->head + 1) % L->m) * n;
}

int ol_lmem_push (ol_lmem *L, int n, double skip)
{
  int h = (L->head + 1) % L->m;
  const double *s = L->S + (size_t)h * n, *y = L->Y + (size_t)h * n;
  double sy = ol_vec_dot(s, y, n), yy = ol_vec_dot(y, y, n),
    ss = ol_vec_dot(s, s, n);
  if (!(sy > skip * sqrt(ss * yy))) return 0;
  L->head = h;
  L->rho[h] = 1 / sy;
  L->gamma = sy / yy;
  if (L->cnt < L->m) L->cnt++;
  return 1;
}
