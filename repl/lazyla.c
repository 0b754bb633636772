/*
** repl/lazyla.c -- BLAS and LAPACK loaded on first use.
**
** Why: the program is linked without them.  Loading liblapacke brings
** reference LAPACK's interface libraries, libgfortran and OpenBLAS, whose
** ~19,000 relocations and page faults were about 3 ms of the 8 ms that
** `optlab -e ""` took to start (issue 28), paid by every start whether or
** not anything is solved.  Here each function the program calls is a
** wrapper of the same name and prototype (the headers are included, so
** the compiler checks each one against them) that loads the libraries
** the first time any of them is called and then calls through a pointer:
** one predictable load and an indirect call, as a PLT call costs.
**
** The libraries are those `pkg-config --libs lapacke openblas` names,
** by soname (lalibs.inc, written by the Makefile from a probe linked with
** them), loaded in that order; each function is taken from the first
** library that defines it itself, not one it merely depends on, as the
** dynamic linker would have bound it.  The C tests, the benchmarks and
** the fuzzer link the libraries directly; only the program uses this.
** A function the core starts to use must be added to LA_FUNCS: until it
** is, the program's link fails naming it.  Cannot load: the reason on
** stderr and exit status 127, as the dynamic linker does at start.
**
** openblas_set_num_threads before the libraries are loaded (main() sets
** one thread at start) is remembered and applied when they load, so it
** does not load them.
*/
#define _GNU_SOURCE            /* dlinfo, dladdr */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <cblas.h>
#include <lapacke.h>

static const char *const sonames[] = {
#include "lalibs.inc"
  NULL
};

/* R(ret, name, params, args): a function returning ret; V(...): void. */
#define LA_FUNCS(R, V) \
  V(cblas_dcopy, (const blasint a1, const double* a2, const blasint a3, double* a4, const blasint a5), (a1, a2, a3, a4, a5)) \
  V(cblas_daxpy, (const blasint a1, const double a2, const double* a3, const blasint a4, double* a5, const blasint a6), (a1, a2, a3, a4, a5, a6)) \
  V(cblas_dscal, (const blasint a1, const double a2, double* a3, const blasint a4), (a1, a2, a3, a4)) \
  V(cblas_dgemv, (const enum CBLAS_ORDER a1, const enum CBLAS_TRANSPOSE a2, const blasint a3, const blasint a4, const double a5, const double* a6, const blasint a7, const double* a8, const blasint a9, const double a10, double* a11, const blasint a12), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)) \
  V(cblas_dgemm, (const enum CBLAS_ORDER a1, const enum CBLAS_TRANSPOSE a2, const enum CBLAS_TRANSPOSE a3, const blasint a4, const blasint a5, const blasint a6, const double a7, const double* a8, const blasint a9, const double* a10, const blasint a11, const double a12, double* a13, const blasint a14), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)) \
  V(cblas_dsymv, (const enum CBLAS_ORDER a1, const enum CBLAS_UPLO a2, const blasint a3, const double a4, const double* a5, const blasint a6, const double* a7, const blasint a8, const double a9, double* a10, const blasint a11), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)) \
  V(cblas_dsyrk, (const enum CBLAS_ORDER a1, const enum CBLAS_UPLO a2, const enum CBLAS_TRANSPOSE a3, const blasint a4, const blasint a5, const double a6, const double* a7, const blasint a8, const double a9, double* a10, const blasint a11), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)) \
  V(cblas_dtrmv, (const enum CBLAS_ORDER a1, const enum CBLAS_UPLO a2, const enum CBLAS_TRANSPOSE a3, const enum CBLAS_DIAG a4, const blasint a5, const double* a6, const blasint a7, double* a8, const blasint a9), (a1, a2, a3, a4, a5, a6, a7, a8, a9)) \
  V(cblas_dtrsv, (const enum CBLAS_ORDER a1, const enum CBLAS_UPLO a2, const enum CBLAS_TRANSPOSE a3, const enum CBLAS_DIAG a4, const blasint a5, const double* a6, const blasint a7, double* a8, const blasint a9), (a1, a2, a3, a4, a5, a6, a7, a8, a9)) \
  R(lapack_int, LAPACKE_dgelsd, (int a1, lapack_int a2, lapack_int a3, lapack_int a4, double* a5, lapack_int a6, double* a7, lapack_int a8, double* a9, double a10, lapack_int* a11), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)) \
  R(lapack_int, LAPACKE_dgeqr2_work, (int a1, lapack_int a2, lapack_int a3, double* a4, lapack_int a5, double* a6, double* a7), (a1, a2, a3, a4, a5, a6, a7)) \
  R(lapack_int, LAPACKE_dgeqrf, (int a1, lapack_int a2, lapack_int a3, double* a4, lapack_int a5, double* a6), (a1, a2, a3, a4, a5, a6)) \
  R(lapack_int, LAPACKE_dgeqrt3_work, (int a1, lapack_int a2, lapack_int a3, double* a4, lapack_int a5, double* a6, lapack_int a7), (a1, a2, a3, a4, a5, a6, a7)) \
  R(lapack_int, LAPACKE_dgesv, (int a1, lapack_int a2, lapack_int a3, double* a4, lapack_int a5, lapack_int* a6, double* a7, lapack_int a8), (a1, a2, a3, a4, a5, a6, a7, a8)) \
  R(lapack_int, LAPACKE_dgesvd_work, (int a1, char a2, char a3, lapack_int a4, lapack_int a5, double* a6, lapack_int a7, double* a8, double* a9, lapack_int a10, double* a11, lapack_int a12, double* a13, lapack_int a14), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)) \
  R(lapack_int, LAPACKE_dlarfb_work, (int a1, char a2, char a3, char a4, char a5, lapack_int a6, lapack_int a7, lapack_int a8, const double* a9, lapack_int a10, const double* a11, lapack_int a12, double* a13, lapack_int a14, double* a15, lapack_int a16), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16)) \
  R(lapack_int, LAPACKE_dlarft_work, (int a1, char a2, char a3, lapack_int a4, lapack_int a5, const double* a6, lapack_int a7, const double* a8, double* a9, lapack_int a10), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)) \
  R(lapack_int, LAPACKE_dorgqr, (int a1, lapack_int a2, lapack_int a3, lapack_int a4, double* a5, lapack_int a6, const double* a7), (a1, a2, a3, a4, a5, a6, a7)) \
  R(lapack_int, LAPACKE_dorgqr_work, (int a1, lapack_int a2, lapack_int a3, lapack_int a4, double* a5, lapack_int a6, const double* a7, double* a8, lapack_int a9), (a1, a2, a3, a4, a5, a6, a7, a8, a9)) \
  R(lapack_int, LAPACKE_dposv, (int a1, char a2, lapack_int a3, lapack_int a4, double* a5, lapack_int a6, double* a7, lapack_int a8), (a1, a2, a3, a4, a5, a6, a7, a8)) \
  R(lapack_int, LAPACKE_dposv_work, (int a1, char a2, lapack_int a3, lapack_int a4, double* a5, lapack_int a6, double* a7, lapack_int a8), (a1, a2, a3, a4, a5, a6, a7, a8)) \
  R(lapack_int, LAPACKE_dpotrf, (int a1, char a2, lapack_int a3, double* a4, lapack_int a5), (a1, a2, a3, a4, a5)) \
  R(lapack_int, LAPACKE_dpotrf_work, (int a1, char a2, lapack_int a3, double* a4, lapack_int a5), (a1, a2, a3, a4, a5)) \
  R(lapack_int, LAPACKE_dpotri, (int a1, char a2, lapack_int a3, double* a4, lapack_int a5), (a1, a2, a3, a4, a5)) \
  R(lapack_int, LAPACKE_dpotrs, (int a1, char a2, lapack_int a3, lapack_int a4, const double* a5, lapack_int a6, double* a7, lapack_int a8), (a1, a2, a3, a4, a5, a6, a7, a8)) \
  R(lapack_int, LAPACKE_dpotrs_work, (int a1, char a2, lapack_int a3, lapack_int a4, const double* a5, lapack_int a6, double* a7, lapack_int a8), (a1, a2, a3, a4, a5, a6, a7, a8)) \
  R(lapack_int, LAPACKE_dsyev, (int a1, char a2, char a3, lapack_int a4, double* a5, lapack_int a6, double* a7), (a1, a2, a3, a4, a5, a6, a7)) \
  R(lapack_int, LAPACKE_dsyevd_work, (int a1, char a2, char a3, lapack_int a4, double* a5, lapack_int a6, double* a7, double* a8, lapack_int a9, lapack_int* a10, lapack_int a11), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)) \
  R(lapack_int, LAPACKE_dsyevr, (int a1, char a2, char a3, char a4, lapack_int a5, double* a6, lapack_int a7, double a8, double a9, lapack_int a10, lapack_int a11, double a12, lapack_int* a13, double* a14, double* a15, lapack_int a16, lapack_int* a17), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17)) \
  R(lapack_int, LAPACKE_dsyevr_work, (int a1, char a2, char a3, char a4, lapack_int a5, double* a6, lapack_int a7, double a8, double a9, lapack_int a10, lapack_int a11, double a12, lapack_int* a13, double* a14, double* a15, lapack_int a16, lapack_int* a17, double* a18, lapack_int a19, lapack_int* a20, lapack_int a21), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21)) \
  R(lapack_int, LAPACKE_dtrtrs_work, (int a1, char a2, char a3, char a4, lapack_int a5, lapack_int a6, const double* a7, lapack_int a8, double* a9, lapack_int a10), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)) \
  R(double, cblas_ddot, (const blasint a1, const double* a2, const blasint a3, const double* a4, const blasint a5), (a1, a2, a3, a4, a5)) \
  R(double, cblas_dnrm2, (const blasint a1, const double* a2, const blasint a3), (a1, a2, a3)) \
  /* end */

static struct {
#define FIELD_R(ret, f, p, a) __typeof__(&f) f;
#define FIELD_V(f, p, a) __typeof__(&f) f;
  LA_FUNCS(FIELD_R, FIELD_V)
#undef FIELD_R
#undef FIELD_V
  void (*set_threads) (int);
  int (*get_threads) (void);
} la;

static atomic_int ready;                  /* la is filled in */
static atomic_int threads;                /* a pending set_num_threads */
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The address of f in the first of the libraries h[0..n) that defines it
** itself (dladdr names the object a symbol lies in). */
static void *find (void *const *h, int n, const char *f)
{
  void *first = NULL;
  int i;
  for (i = 0; i < n; i++) {
    struct link_map *lm;
    Dl_info info;
    void *p = dlsym(h[i], f);
    if (p == NULL) continue;
    if (first == NULL) first = p;
    if (dlinfo(h[i], RTLD_DI_LINKMAP, &lm) == 0 && dladdr(p, &info) != 0
        && info.dli_fbase == (void *)lm->l_addr)
      return p;
  }
  return first;
}

static void fail (const char *what, const char *why)
{
  fprintf(stderr, "optlab: cannot load %s: %s (make deps installs the "
          "linear algebra libraries)\n", what, why != NULL ? why : "?");
  exit(127);
}

static void load (void)
{
  void *h[sizeof sonames / sizeof sonames[0]];
  int n = 0, t;
  for (n = 0; sonames[n] != NULL; n++)
    if ((h[n] = dlopen(sonames[n], RTLD_NOW | RTLD_LOCAL)) == NULL)
      fail(sonames[n], dlerror());
#define LOAD(f) \
  if ((*(void **)&la.f = find(h, n, #f)) == NULL) fail(#f, "not found");
#define LOAD_R(ret, f, p, a) LOAD(f)
#define LOAD_V(f, p, a) LOAD(f)
  LA_FUNCS(LOAD_R, LOAD_V)
  if ((*(void **)&la.set_threads = find(h, n, "openblas_set_num_threads"))
      == NULL) fail("openblas_set_num_threads", "not found");
  if ((*(void **)&la.get_threads = find(h, n, "openblas_get_num_threads"))
      == NULL) fail("openblas_get_num_threads", "not found");
#undef LOAD
#undef LOAD_R
#undef LOAD_V
  /* ready before threads is read, and the setter stores threads before
  ** it reads ready: one of the two sees the other (both may: harmless) */
  atomic_store(&ready, 1);
  t = atomic_load(&threads);
  if (t > 0) la.set_threads(t);
}

static inline void need (void)
{
  if (!atomic_load_explicit(&ready, memory_order_acquire))
    pthread_once(&once, load);
}

#define WRAP_R(ret, f, p, a) ret f p { need(); return la.f a; }
#define WRAP_V(f, p, a) void f p { need(); la.f a; }
LA_FUNCS(WRAP_R, WRAP_V)

void openblas_set_num_threads (int n)
{
  atomic_store(&threads, n);
  if (atomic_load(&ready)) la.set_threads(n);
}

int openblas_get_num_threads (void)
{
  need();
  return la.get_threads();
}
