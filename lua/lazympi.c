/*
** lua/lazympi.c -- Open MPI loaded only when the process is an MPI rank.
**
** Why: linking libmpi brings Open MPI's runtime libraries (open-rte,
** open-pal, hwloc, libevent, udev), about 0.8 ms of every start of the
** program, MPI job or not (issue 28).  Here each MPI function lua/ltask.c
** calls is a wrapper of the same name and prototype (mpi.h is included,
** so the compiler checks them) that loads the library (its soname from
** the Makefile's probe, mpilibs.inc; RTLD_GLOBAL, as Open MPI's own
** components expect) on the first call and then calls through a pointer.
** ltask.c calls MPI only after olua_task_init saw mpirun's environment
** (MPI_Init_thread is the first call), except MPI_Initialized and
** MPI_Finalized at exit, which answer "no" without loading anything when
** the library was never loaded (then MPI cannot have been initialised).
** The predefined handles (MPI_COMM_WORLD, MPI_BYTE, ...) are addresses of
** Open MPI's objects (mpi.h's OMPI_PREDEFINED_GLOBAL): lazympi.h makes
** ltask.c read them from here, found by name when the library loads.
** A function ltask.c starts to use must be added to MPI_FUNCS (the link
** fails naming it until it is).  Cannot load: the reason on stderr and
** exit status 127.
*/
#ifdef OPTLAB_MPI
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "lazympi.h"

static const char *const sonames[] = {
#include "mpilibs.inc"
  NULL
};

/* X(name, params, args): the functions, each returning int. */
#define MPI_FUNCS(X) \
  X(MPI_Abort, (MPI_Comm a1, int a2), (a1, a2)) \
  X(MPI_Bcast, (void *a1, int a2, MPI_Datatype a3, int a4, MPI_Comm a5), (a1, a2, a3, a4, a5)) \
  X(MPI_Comm_rank, (MPI_Comm a1, int *a2), (a1, a2)) \
  X(MPI_Comm_set_errhandler, (MPI_Comm a1, MPI_Errhandler a2), (a1, a2)) \
  X(MPI_Comm_size, (MPI_Comm a1, int *a2), (a1, a2)) \
  X(MPI_Finalize, (void), ()) \
  X(MPI_Gather, (const void *a1, int a2, MPI_Datatype a3, void *a4, int a5, MPI_Datatype a6, int a7, MPI_Comm a8), (a1, a2, a3, a4, a5, a6, a7, a8)) \
  X(MPI_Get_count, (const MPI_Status *a1, MPI_Datatype a2, int *a3), (a1, a2, a3)) \
  X(MPI_Get_processor_name, (char *a1, int *a2), (a1, a2)) \
  X(MPI_Improbe, (int a1, int a2, MPI_Comm a3, int *a4, MPI_Message *a5, MPI_Status *a6), (a1, a2, a3, a4, a5, a6)) \
  X(MPI_Imrecv, (void *a1, int a2, MPI_Datatype a3, MPI_Message *a4, MPI_Request *a5), (a1, a2, a3, a4, a5)) \
  X(MPI_Init_thread, (int *a1, char ***a2, int a3, int *a4), (a1, a2, a3, a4)) \
  X(MPI_Iprobe, (int a1, int a2, MPI_Comm a3, int *a4, MPI_Status *a5), (a1, a2, a3, a4, a5)) \
  X(MPI_Isend, (const void *a1, int a2, MPI_Datatype a3, int a4, int a5, MPI_Comm a6, MPI_Request *a7), (a1, a2, a3, a4, a5, a6, a7)) \
  X(MPI_Probe, (int a1, int a2, MPI_Comm a3, MPI_Status *a4), (a1, a2, a3, a4)) \
  X(MPI_Recv, (void *a1, int a2, MPI_Datatype a3, int a4, int a5, MPI_Comm a6, MPI_Status *a7), (a1, a2, a3, a4, a5, a6, a7)) \
  X(MPI_Send, (const void *a1, int a2, MPI_Datatype a3, int a4, int a5, MPI_Comm a6), (a1, a2, a3, a4, a5, a6)) \
  X(MPI_Test, (MPI_Request *a1, int *a2, MPI_Status *a3), (a1, a2, a3)) \
  X(MPI_Wait, (MPI_Request *a1, MPI_Status *a2), (a1, a2)) \
  /* end */

/* Open MPI's names of the predefined objects, in lazympi.h's order. */
static const char *const hnames[OLUA_MPI_NHANDLES] = {
  "ompi_mpi_comm_world", "ompi_mpi_byte", "ompi_mpi_char", "ompi_mpi_long",
  "ompi_mpi_long_long_int", "ompi_mpi_errors_return"
};

static struct {
#define FIELD(f, p, a) __typeof__(&f) f;
  MPI_FUNCS(FIELD)
#undef FIELD
  __typeof__(&MPI_Initialized) initialized;
  __typeof__(&MPI_Finalized) finalized;
  void *h[OLUA_MPI_NHANDLES];
} mp;

static atomic_int ready;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void fail (const char *what, const char *why)
{
  fprintf(stderr, "optlab: cannot load %s: %s (an MPI rank needs Open "
          "MPI: make deps)\n", what, why != NULL ? why : "?");
  exit(127);
}

/* The first of the libraries' definitions of f (after all are loaded). */
static void *find (void *const *h, int n, const char *f)
{
  int i;
  for (i = 0; i < n; i++) {
    void *p = dlsym(h[i], f);
    if (p != NULL) return p;
  }
  fail(f, "not found");
  return NULL;
}

static void load (void)
{
  void *h[sizeof sonames / sizeof sonames[0]];
  int n, k;
  for (n = 0; sonames[n] != NULL; n++)
    if ((h[n] = dlopen(sonames[n], RTLD_NOW | RTLD_GLOBAL)) == NULL)
      fail(sonames[n], dlerror());
#define LOAD(f, p, a) *(void **)&mp.f = find(h, n, #f);
  MPI_FUNCS(LOAD)
#undef LOAD
  *(void **)&mp.initialized = find(h, n, "MPI_Initialized");
  *(void **)&mp.finalized = find(h, n, "MPI_Finalized");
  for (k = 0; k < OLUA_MPI_NHANDLES; k++) mp.h[k] = find(h, n, hnames[k]);
  atomic_store(&ready, 1);
}

static inline void need (void)
{
  if (!atomic_load_explicit(&ready, memory_order_acquire))
    pthread_once(&once, load);
}

void *olua_mpi_handle (int k)
{
  need();
  return mp.h[k];
}

#define WRAP(f, p, a) int f p { need(); return mp.f a; }
MPI_FUNCS(WRAP)

int MPI_Initialized (int *flag)
{
  if (!atomic_load_explicit(&ready, memory_order_acquire)) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  return mp.initialized(flag);
}

int MPI_Finalized (int *flag)
{
  if (!atomic_load_explicit(&ready, memory_order_acquire)) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  return mp.finalized(flag);
}

#else
typedef int olua_lazympi_none;     /* a build without MPI: nothing here */
#endif
