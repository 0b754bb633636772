/*
** core/bg.c -- one long LAPACK call that Ctrl-C can leave behind (see
** bg.h): the thread, its hand-over, and the factorisations on copies.
**
** Ownership: the bg_thread and the job belong to the caller until it
** leaves them (t->left, set under t->mu only while fn has not ended);
** from then on to the thread, which frees both when fn returns.  The
** caller joins a thread it has not left, so it never frees what the
** thread still touches.  Lock order: a thread's mu, then bg_mu.
*/
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bg.h"
#include "ol.h"

/* Factorisations left running after a Ctrl-C: at most one at a time, so
** that Ctrl-C pressed again and again over large orders never piles up
** threads, each with its n x n copies (the one writable global of the
** core besides ol_intr, ol.h). */
static pthread_mutex_t bg_mu = PTHREAD_MUTEX_INITIALIZER;
static int bg_left;

typedef struct bg_thread {
  pthread_mutex_t mu;
  pthread_cond_t cv;       /* signalled when fn has returned */
  int done, left;          /* fn returned; the caller left (under mu) */
  void (*fn) (void *);
  void (*release) (void *);
  void *job;
} bg_thread;

static void bg_thread_free (bg_thread *t)
{
  pthread_cond_destroy(&t->cv);
  pthread_mutex_destroy(&t->mu);
  free(t);
}

static void *bg_main (void *arg)
{
  bg_thread *t = arg;
  int left;
  t->fn(t->job);
  pthread_mutex_lock(&t->mu);
  t->done = 1;
  left = t->left;
  pthread_cond_signal(&t->cv);
  pthread_mutex_unlock(&t->mu);
  if (left) {
    t->release(t->job);
    bg_thread_free(t);
    pthread_mutex_lock(&bg_mu);
    bg_left--;
    pthread_mutex_unlock(&bg_mu);
  }
  return NULL;
}

/* t with its mutex and a condition variable on the monotonic clock, or
** NULL. */
static bg_thread *bg_thread_new (void)
{
  bg_thread *t = calloc(1, sizeof *t);
  pthread_condattr_t ca;
  int ok;
  if (t == NULL) return NULL;
  if (pthread_mutex_init(&t->mu, NULL) != 0) {
    free(t);
    return NULL;
  }
  ok = pthread_condattr_init(&ca) == 0;
  ok = ok && pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0
       && pthread_cond_init(&t->cv, &ca) == 0;
  pthread_condattr_destroy(&ca);
  if (!ok) {
    pthread_mutex_destroy(&t->mu);
    free(t);
    return NULL;
  }
  return t;
}

int ol_bg_call (void (*fn) (void *), void (*release) (void *), void *job,
                int big)
{
  bg_thread *t;
  pthread_t th;
  sigset_t all, old;
  int rc;
  if (!big || ol_intr == NULL || (t = bg_thread_new()) == NULL) {
    fn(job);
    return OL_OK;
  }
  t->fn = fn;
  t->release = release;
  t->job = job;
  /* (1) wait for one left running by an earlier Ctrl-C to end */
  for (;;) {
    struct timespec ms5 = {0, 5000000};
    int busy;
    pthread_mutex_lock(&bg_mu);
    busy = bg_left > 0;
    pthread_mutex_unlock(&bg_mu);
    if (!busy) break;
    if (ol_interrupted()) {
      bg_thread_free(t);
      release(job);
      return OL_EINTR;
    }
    nanosleep(&ms5, NULL);
  }
  /* (2) the thread takes no signals: they stay the caller's */
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  rc = pthread_create(&th, NULL, bg_main, t);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) {
    bg_thread_free(t);
    fn(job);
    return OL_OK;
  }
  /* (3) wait for fn, looking at the flag every 5 ms */
  pthread_mutex_lock(&t->mu);
  while (!t->done && !ol_interrupted()) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 5000000;
    if (ts.tv_nsec >= 1000000000) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
    pthread_cond_timedwait(&t->cv, &t->mu, &ts);
  }
  /* (4) interrupted first: the thread ends alone and frees the job */
  if (!t->done) {
    t->left = 1;
    pthread_mutex_lock(&bg_mu);
    bg_left++;
    pthread_mutex_unlock(&bg_mu);
    pthread_mutex_unlock(&t->mu);
    pthread_detach(th);
    return OL_EINTR;
  }
  pthread_mutex_unlock(&t->mu);
  pthread_join(th, NULL);
  bg_thread_free(t);
  return OL_OK;
}

/* A factorisation on copies, each array a block of its own (the largest,
** dsyevd's workspace of 2n^2 doubles, no larger than the caller's own). */
enum { BG_POTRF, BG_SYEVD, BG_SYEVR };

typedef struct bg_lapack {
  int kind;
  lapack_int n, lwork, liwork, info;
  double *A, *w, *Z, *work;
  lapack_int *iwork, *isuppz;
} bg_lapack;

static void bg_lapack_run (void *arg)
{
  bg_lapack *j = arg;
  lapack_int m, n = j->n;
  switch (j->kind) {
  case BG_POTRF:
    j->info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, j->A, n);
    break;
  case BG_SYEVD:
    j->info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, j->A, n,
                                  j->w, j->work, j->lwork, j->iwork,
                                  j->liwork);
    break;
  default:
    j->info = LAPACKE_dsyevr_work(LAPACK_COL_MAJOR, 'V', 'A', 'L', n, j->A,
                                  n, 0, 0, 0, 0, 0, &m, j->w, j->Z, n,
                                  j->isuppz, j->work, j->lwork, j->iwork,
                                  j->liwork);
  }
}

static void bg_lapack_free (void *arg)
{
  bg_lapack *j = arg;
  if (j == NULL) return;
  free(j->A);
  free(j->w);
  free(j->Z);
  free(j->work);
  free(j->iwork);
  free(j->isuppz);
  free(j);
}

/* A job of kind for order n with a copy of A and workspaces of the given
** sizes (none when 0), or NULL when out of memory. */
static bg_lapack *bg_lapack_new (int kind, int n, const double *A,
                                 lapack_int lwork, lapack_int liwork)
{
  size_t nn = (size_t)n * (size_t)n;
  int ev = kind != BG_POTRF;
  bg_lapack *j = calloc(1, sizeof *j);
  if (j == NULL) return NULL;
  j->kind = kind;
  j->n = n;
  j->lwork = lwork;
  j->liwork = liwork;
  j->A = malloc(sizeof(double) * nn);
  if (ev) {
    j->w = malloc(sizeof(double) * (size_t)n);
    j->work = malloc(sizeof(double) * (size_t)lwork);
    j->iwork = malloc(sizeof(lapack_int) * (size_t)liwork);
  }
  if (kind == BG_SYEVR) {
    j->Z = malloc(sizeof(double) * nn);
    j->isuppz = malloc(sizeof(lapack_int) * 2 * (size_t)n);
  }
  if (j->A == NULL
      || (ev && (j->w == NULL || j->work == NULL || j->iwork == NULL))
      || (kind == BG_SYEVR && (j->Z == NULL || j->isuppz == NULL))) {
    bg_lapack_free(j);
    return NULL;
  }
  memcpy(j->A, A, sizeof(double) * nn);
  return j;
}

/* Runs j on its thread; the info, or OL_BG_EINTR with j left to it. */
static lapack_int bg_lapack_call (bg_lapack *j)
{
  if (ol_bg_call(bg_lapack_run, bg_lapack_free, j, 1) != OL_OK)
    return OL_BG_EINTR;
  return j->info;
}

static int bg_inplace (int n)
{
  return n < OL_BG_N || ol_intr == NULL;
}

lapack_int ol_bg_potrf (int n, double *A)
{
  bg_lapack *j;
  lapack_int info;
  if (bg_inplace(n) || (j = bg_lapack_new(BG_POTRF, n, A, 0, 0)) == NULL)
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, A, n);
  if ((info = bg_lapack_call(j)) == OL_BG_EINTR) return info;
  memcpy(A, j->A, sizeof(double) * (size_t)n * (size_t)n);
  bg_lapack_free(j);
  return info;
}

lapack_int ol_bg_syevd (int n, double *A, double *w, double *work,
                        lapack_int lwork, lapack_int *iwork,
                        lapack_int liwork)
{
  bg_lapack *j;
  lapack_int info;
  if (bg_inplace(n)
      || (j = bg_lapack_new(BG_SYEVD, n, A, lwork, liwork)) == NULL)
    return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, 'V', 'L', n, A, n, w, work,
                               lwork, iwork, liwork);
  if ((info = bg_lapack_call(j)) == OL_BG_EINTR) return info;
  memcpy(A, j->A, sizeof(double) * (size_t)n * (size_t)n);
  memcpy(w, j->w, sizeof(double) * (size_t)n);
  bg_lapack_free(j);
  return info;
}

lapack_int ol_bg_syevr (int n, double *A, double *w, double *Z,
                        lapack_int *isuppz, double *work, lapack_int lwork,
                        lapack_int *iwork, lapack_int liwork)
{
  bg_lapack *j;
  lapack_int info, m;
  if (bg_inplace(n)
      || (j = bg_lapack_new(BG_SYEVR, n, A, lwork, liwork)) == NULL)
    return LAPACKE_dsyevr_work(LAPACK_COL_MAJOR, 'V', 'A', 'L', n, A, n, 0,
                               0, 0, 0, 0, &m, w, Z, n, isuppz, work, lwork,
                               iwork, liwork);
  if ((info = bg_lapack_call(j)) == OL_BG_EINTR) return info;
  memcpy(w, j->w, sizeof(double) * (size_t)n);
  memcpy(Z, j->Z, sizeof(double) * (size_t)n * (size_t)n);
  bg_lapack_free(j);
  return info;
}
