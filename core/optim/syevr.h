/*
** core/optim/syevr.h -- the LAPACK workspaces that the optimizers with
** symmetric eigendecompositions in their steps share: dsyevr's (fullada,
** shampoo) and dsyevd's (newton, cubic: eigenvectors in place of A).
** Each is sized once in init by LAPACK's own query for the largest
** order, so that a step never allocates, and then called column-major
** ('V', 'L': all eigenpairs from the lower triangle) on any smaller
** order.
*/
#ifndef OL_SYEVR_H
#define OL_SYEVR_H

#include <lapacke.h>
#include <stdlib.h>

#include "bg.h"
#include "ol.h"

/* Workspace for orders up to the one it was made for (owned arrays). */
typedef struct ol_syevr_ws {
  double *work;
  lapack_int *iwork, *isuppz;
  lapack_int lwork, liwork;
} ol_syevr_ws;

/* Sizes and allocates ws for orders k <= d, querying dsyevr with the
** caller's d x d A, d-vector w and d x d Z (not touched).  OL_OK;
** OL_ENUMERIC when the query fails, OL_ENOMEM, with e set and messages
** starting "who: " (the arrays made stay for ol_syevr_ws_fini). */
static inline int ol_syevr_ws_init (ol_syevr_ws *ws, int d, double *A,
                                    double *w, double *Z, const char *who,
                                    ol_err *e)
{
  double wq;
  lapack_int iq, m;
  if (LAPACKE_dsyevr_work(LAPACK_COL_MAJOR, 'V', 'A', 'L', d, A, d, 0, 0,
                          0, 0, 0, &m, w, Z, d, NULL, &wq, -1, &iq, -1)
      != 0)
    return ol_err_set(e, OL_ENUMERIC, "%s: dsyevr workspace query failed",
                      who);
  ws->lwork = (lapack_int)wq;
  ws->liwork = iq;
  ws->work = malloc(sizeof(double) * (size_t)ws->lwork);
  ws->iwork = malloc(sizeof(lapack_int) * (size_t)ws->liwork);
  ws->isuppz = malloc(sizeof(lapack_int) * 2 * (size_t)d);
  if (ws->work == NULL || ws->iwork == NULL || ws->isuppz == NULL)
    return ol_err_set(e, OL_ENOMEM, "%s: out of memory", who);
  return OL_OK;
}

/* w, Z := the eigenvalues (ascending) and eigenvectors of the k x k
** symmetric A (column-major, ld k; destroyed), k no larger than ws was
** made for.  dsyevr's info: 0 on success; OL_BG_EINTR when Ctrl-C came
** first (large k runs on a thread Ctrl-C can leave: bg.h). */
static inline lapack_int ol_syevr_ws_eig (ol_syevr_ws *ws, int k, double *A,
                                          double *w, double *Z)
{
  return ol_bg_syevr(k, A, w, Z, ws->isuppz, ws->work, ws->lwork,
                     ws->iwork, ws->liwork);
}

/* Frees the arrays of a (possibly partly) made ws. */
static inline void ol_syevr_ws_fini (ol_syevr_ws *ws)
{
  free(ws->work);
  free(ws->iwork);
  free(ws->isuppz);
  ws->work = NULL;
  ws->iwork = ws->isuppz = NULL;
}

/* dsyevd: the same for the divide-and-conquer driver, which overwrites
** A with the eigenvectors (no Z). */
typedef struct ol_syevd_ws {
  double *work;
  lapack_int *iwork;
  lapack_int lwork, liwork;
} ol_syevd_ws;

/* Sizes and allocates ws for orders k <= d by dsyevd's query on the
** caller's d x d A and d-vector w (not touched).  OL_OK; OL_ENUMERIC when
** the query fails, OL_ENOMEM, with e set and messages starting "who: "
** (the arrays made stay for ol_syevd_ws_fini). */
static inline int ol_syevd_ws_init (ol_syevd_ws *ws, int d, double *A,
                                    double *w, const char *who, ol_err *e)
{
  double wq;
  lapack_int iq, info;
  info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', d, A, d, w, &wq, -1,
                             &iq, -1);
  if (info != 0)
    return ol_err_set(e, OL_ENUMERIC, "%s: dsyevd workspace query failed "
                      "(info %d)", who, (int)info);
  ws->lwork = (lapack_int)wq + 1;
  ws->liwork = iq + 1;
  ws->work = calloc((size_t)ws->lwork, sizeof *ws->work);
  ws->iwork = calloc((size_t)ws->liwork, sizeof *ws->iwork);
  if (ws->work == NULL || ws->iwork == NULL)
    return ol_err_set(e, OL_ENOMEM, "%s: out of memory", who);
  return OL_OK;
}

/* A := the eigenvectors (columns), w := the eigenvalues (ascending) of
** the k x k symmetric A (column-major, ld k), k no larger than ws was
** made for.  dsyevd's info: 0 on success; OL_BG_EINTR when Ctrl-C came
** first (bg.h). */
static inline lapack_int ol_syevd_ws_eig (ol_syevd_ws *ws, int k, double *A,
                                          double *w)
{
  return ol_bg_syevd(k, A, w, ws->work, ws->lwork, ws->iwork, ws->liwork);
}

/* Frees the arrays of a (possibly partly) made ws. */
static inline void ol_syevd_ws_fini (ol_syevd_ws *ws)
{
  free(ws->work);
  free(ws->iwork);
  ws->work = NULL;
  ws->iwork = NULL;
}

#endif
