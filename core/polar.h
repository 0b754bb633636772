/*
** core/polar.h -- polar factor of a matrix: the orthogonal factor O = U V'
** of G = U S V' (thin SVD), exactly (LAPACK dgesvd), approximately (the
** Newton-Schulz quintic of Muon) or as the randomized low-rank factor
** U_r V_r' of a sketch (B177; core/polar.c), and the orthogonalised update of
** a matrix split into row blocks.  Shared by the Muon-type methods
** (core/optim/muon.c, muonbp.c) and benchmark W6.
**
** Matrices are row-major, m x n.  Both functions work in a caller-owned
** workspace whose size (in doubles) the *_work query gives, so a method
** sizes it in init and a step never allocates.  G and O may be the same
** array.
*/
#ifndef OL_POLAR_H
#define OL_POLAR_H

#include <stddef.h>

#include "ol.h"
#include "problem.h"
#include "rng.h"

/* Newton-Schulz quintic coefficients (Jordan et al. 2024). */
#define OL_NS5_A 3.4445
#define OL_NS5_B (-4.7750)
#define OL_NS5_C 2.0315

/* Doubles of workspace ol_polar_ns5 needs for an m x n matrix. */
size_t ol_polar_ns5_work (int m, int n);

/* O = NS^steps(G / ||G||_F), the quintic Newton-Schulz iteration
** X <- a X + b (X X') X + c (X X')^2 X on the smaller side (when m > n it
** runs on the transpose: X <- a X + b X (X'X) + c X (X'X)^2, which is the
** same map).  steps >= 0 (0 gives G / ||G||_F).  G = 0 gives O = 0.
** Three cblas_dgemm calls per step; no failure mode. */
void ol_polar_ns5 (int m, int n, const double *G, double *O, int steps,
                   double *work);

/* Doubles of workspace ol_polar_svd needs for an m x n matrix (includes
** dgesvd's optimal lwork from a workspace query), or 0 when the LAPACK
** query fails. */
size_t ol_polar_svd_work (int m, int n);

/* O = U V' from the thin SVD G = U S V' (LAPACKE_dgesvd_work on the
** column-major view G' of G, so LAPACKE neither transposes nor allocates).
** wsize is the value ol_polar_svd_work returned.  OL_OK, or OL_ENUMERIC
** with e set when dgesvd does not converge (info > 0). */
int ol_polar_svd (int m, int n, const double *G, double *O, double *work,
                  size_t wsize, ol_err *e);

/* == the randomized low-rank polar factor (B177) ========================== */

/* Doubles of workspace ol_polar_lowrank needs for an m x n matrix with
** this rank and oversample (LAPACK's optimal lwork for dorgqr and dgesvd
** from workspace queries included), or 0 when rank is outside
** [1, min(m, n)], oversample < 0 or a LAPACK query fails. */
size_t ol_polar_lowrank_work (int m, int n, int rank, int oversample);

/* O = U_r V_r', the polar factor of the rank-r truncation of G, from a
** randomized range finder (Halko, Martinsson & Tropp 2011, Alg. 4.4):
** l = min(rank + oversample, min(m, n)) Gaussian test vectors drawn from
** rng (n l normals, column by column), power_iters >= 0 rounds of
** subspace iteration, then the thin SVD of the l x n projection Q'G.
** r is rank, or fewer when G's numerical rank (singular values above
** max(m, n) eps s_1 of Q'G) is smaller: on a G of rank <= rank, O is the
** exact U_r V_r' up to rounding.  G = 0 gives O = 0; *kept (may be NULL)
** receives r.  G and O may be the same array.  wsize is the value
** ol_polar_lowrank_work returned.  OL_OK; OL_EINVAL (workspace too
** small, rng NULL), OL_ENUMERIC (dgesvd did not converge) with e set. */
int ol_polar_lowrank (int m, int n, const double *G, double *O, int rank,
                      int oversample, int power_iters, ol_rng *rng,
                      double *work, size_t wsize, int *kept, ol_err *e);

/* ||O'O - I||_F computed on the smaller side (||O O' - I||_F when
** m < n), the orthogonality error of an approximate polar factor;
** work needs min(m, n)^2 doubles. */
double ol_polar_ortherr (int m, int n, const double *O, double *work);

/* The orthogonalised update of a stack of row blocks ("parts"), the step
** the Muon-type methods share.  A part is a rows[i] x cols row-major
** block; parts are stored one after the other. */
enum { OL_POLAR_NS, OL_POLAR_SVD, OL_POLAR_LOWRANK };
                                      /* kind: polar = "ns|svd|lowrank" */

#define OL_POLAR_MAXPARTS 256

/* Row counts of the parts of problem-shaped x: each of the nmat matrices
** (row counts mrows[0..nmat-1]) split into min(split, rows) row blocks of
** near-equal size (the first rows % split blocks one row longer).
** Returns the number of parts (<= OL_POLAR_MAXPARTS), or 0 when that
** would be too many. */
int ol_polar_parts (int nmat, const int *mrows, int split, int *rows);

/* Doubles of workspace ol_polar_update needs for these parts with polar
** kind (max over the parts), or 0 when a LAPACK query fails. */
size_t ol_polar_update_work (int kind, int nparts, const int *rows,
                             int cols);

/* For each part i: O_i = Orth(U_i) (ns: 'steps' Newton-Schulz steps;
** svd: exact) and x_i -= lr sqrt(max(1, rows_i / cols)) O_i (the shape
** scaling of Jordan et al. 2024).  U and O may be the same array.  OL_OK
** or OL_ENUMERIC (dgesvd failed) with e set. */
int ol_polar_update (int kind, int steps, int nparts, const int *rows,
                     int cols, const double *U, double *O, double *x,
                     double lr, double *work, size_t wsize, ol_err *e);

/* How a method orthogonalises: the kind and its settings.  rank is the
** target rank of each part, at most its smaller side (a part with
** min(rows_i, cols) < rank uses that). */
typedef struct ol_polar_how {
  int kind;             /* OL_POLAR_* */
  int steps;            /* ns: Newton-Schulz steps */
  int rank, oversample, power_iters;   /* lowrank: r, p and q */
  ol_rng *rng;          /* lowrank: the run's generator, borrowed */
} ol_polar_how;

/* ol_polar_update_work and ol_polar_update for any kind, lowrank
** included (the two above are these with rank etc. unused). */
size_t ol_polar_how_work (const ol_polar_how *h, int nparts,
                          const int *rows, int cols);
int ol_polar_how_update (const ol_polar_how *h, int nparts, const int *rows,
                         int cols, const double *U, double *O, double *x,
                         double lr, double *work, size_t wsize, ol_err *e);

/* OL_OK when rank lies in [1, min(rows_i, cols)] for each of the nmat
** matrices, else OL_EINVAL with e naming who, the rank and that range. */
int ol_polar_rank_check (const char *who, int rank, int nmat,
                         const int *rows, int cols, ol_err *e);

/* The "polar" parameter row of a Muon-type method (index OL_POLAR_NS ..
** OL_POLAR_LOWRANK), and the three rows of polar = "lowrank" it puts
** right after it: rank, oversample, power_iters. */
#define OL_POLAR_PARAM \
  {"polar", OL_P_ENUM, 0, 0, 2, \
   "polar factor: Newton-Schulz quintic, exact SVD or randomized low-rank", \
   "ns|svd|lowrank"}
#define OL_POLAR_LOWRANK_PARAMS \
  {"rank", OL_P_INT, 4, 1, 65536, \
   "target rank r of polar = lowrank, in [1, min(rows, cols)]", NULL}, \
  {"oversample", OL_P_INT, 5, 0, 65536, \
   "extra sketch columns p of polar = lowrank", NULL}, \
  {"power_iters", OL_P_INT, 1, 0, 100, \
   "subspace (power) iterations q of polar = lowrank", NULL}

/* *h from the method's values: par[0] the polar kind, par[1..3] rank,
** oversample and power_iters (the rows above), steps its Newton-Schulz
** steps, rng the run's generator (borrowed for the run); with polar =
** lowrank the rank is checked against the nmat matrices
** (ol_polar_rank_check).  OL_OK or OL_EINVAL with e set. */
int ol_polar_how_set (ol_polar_how *h, const char *who, const double *par,
                      int steps, ol_rng *rng, int nmat, const int *rows,
                      int cols, ol_err *e);

/* sqrt(sum_i ||O_i'O_i - I||_F^2) over the parts (each on its smaller
** side); work needs max_i min(rows_i, cols)^2 doubles. */
double ol_polar_ortherr_parts (int nparts, const int *rows, int cols,
                               const double *O, double *work);

/* == the state of a Muon-type method ====================================== */

/* The matrices x (n entries) of problem p stacks: the row counts of the up
** to 4 matrices p->mblocks (0-ended; none: the one p->mrows x p->mcols
** matrix) into rows.  Returns their number, or 0 with e set (OL_EINVAL,
** the message starting "who: ") when they do not make up an mrows x mcols
** matrix of n entries. */
int ol_polar_mats (const char *who, const ol_problem *p, int n, int *rows,
                   ol_err *e);

/* Doubles of scratch ol_polar_ortherr_parts needs for these parts:
** max_i min(rows_i, cols)^2. */
size_t ol_polar_ortherr_work (int nparts, const int *rows, int cols);

/* The arrays of a Muon-type method: g (the gradient, then the direction),
** m (the momentum, zero at first) and o (the last factor), n doubles
** each; work, wsize doubles for ol_polar_update; pwork, the ortherr
** scratch. */
typedef struct ol_polar_bufs {
  double *g, *m, *o, *work, *pwork;
  size_t wsize;
} ol_polar_bufs;

/* Allocates b's arrays (b->wsize set by the caller; pwsize doubles of
** pwork).  OL_OK, or OL_ENOMEM with e set; ol_polar_bufs_free then frees
** what was allocated. */
int ol_polar_bufs_new (ol_polar_bufs *b, int n, size_t pwsize, ol_err *e);
void ol_polar_bufs_free (ol_polar_bufs *b);

#endif
