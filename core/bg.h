/*
** core/bg.h -- one long LAPACK call that Ctrl-C can leave behind.
**
** A dense factorisation of order n is one library call of O(n^3) work
** (dsyevd of n = 3500 takes seconds) that cannot poll ol_interrupted().
** ol_bg_call runs such a call on a thread of its own while the caller
** waits, polling the interrupt flag every few milliseconds; on Ctrl-C the
** caller returns at once and the thread finishes alone and frees its job.
** So the job must own everything the call touches (copies, not the
** method's arrays), and the caller must not touch it after OL_EINTR.
** One call at most is left running: a large call made while an earlier
** one is still finishing waits for it (and returns OL_EINTR on Ctrl-C).
** Orders below OL_BG_N (milliseconds of work) and calls with no
** interrupt flag set run in place: the same call on the same data, so
** the results are bit for bit those of a direct call.
**
** The wrappers below are the factorisations the optimizers' steps make,
** with the same arguments and LAPACK info as the direct calls, and
** OL_BG_EINTR as the info of a call left behind.
*/
#ifndef OL_BG_H
#define OL_BG_H

#include <lapacke.h>

/* Orders from which a factorisation runs on its own thread. */
#define OL_BG_N 256

/* The info of a factorisation interrupted before it ended (no LAPACK
** info is this negative). */
#define OL_BG_EINTR (-100000)

/* Runs fn(job), on a thread of its own when big and an interrupt flag is
** set.  OL_OK when fn has returned (the job's outputs ready, the job the
** caller's to free); OL_EINTR when the flag was raised first: fn goes on
** alone and release(job) frees the job when it ends (released at once,
** fn never called, when the flag came while an earlier call left running
** was still finishing).  Either way the caller must not touch the job
** after OL_EINTR.  A thread that cannot be started runs fn in place. */
int ol_bg_call (void (*fn) (void *), void (*release) (void *), void *job,
                int big);

/* dpotrf ('L', column-major, ld n) of the n x n A in place. */
lapack_int ol_bg_potrf (int n, double *A);

/* dsyevd ('V', 'L', column-major, ld n): A := eigenvectors, w :=
** eigenvalues, with the caller's workspace of lwork doubles and liwork
** ints (used only in place; a copy of that size on the thread). */
lapack_int ol_bg_syevd (int n, double *A, double *w, double *work,
                        lapack_int lwork, lapack_int *iwork,
                        lapack_int liwork);

/* dsyevr ('V', 'A', 'L', column-major, ld n): w, Z := all eigenpairs of
** A (destroyed), workspaces as ol_bg_syevd's plus isuppz (2n ints). */
lapack_int ol_bg_syevr (int n, double *A, double *w, double *Z,
                        lapack_int *isuppz, double *work, lapack_int lwork,
                        lapack_int *iwork, lapack_int liwork);

#endif
