/*
** lua/ltask.c -- the task mode of the process and the primitives of
** lua/tasks.lua, which runs every bulk operation (repeats, sweep, race,
** chains) as a list of independent tasks.
**
** Modes (ltask.h): one process; a scheduler's slice K of N (--tasks K/N
** --dir DIR: tasks i with i mod N = K - 1 computed, their results written
** to DIR); gathering (--gather DIR: the results read back); an Open MPI
** rank (mpirun -np N, in a build with -DOPTLAB_MPI: rank 0 hands out task
** indices, every rank computes, the packed results come back to rank 0,
** which keeps them and broadcasts them whole, or past a size each task's
** summary (lua/tasks.lua), so that every rank holds the same final
** values, stop reasons and draws and the script goes on in step).  The
** mode is the process's, set once by repl/main.c before the library
** opens, so it lives in this file's statics, not in the per-state
** record.
**
** core.task_mode() -> mode, k or rank, n or size, dir, partial (--gather
** with --partial: results with tasks missing are used)
** core.task_mkrun(problem, method, opts [, lenient [, shell]]) -> a run,
** made, not stepped (lenient: a race's, without the metrics the method
** lacks; shell: only to restore results into, core/run.h)
** core.task_mkchain(problem, method, opts, c) -> chain c (0-based), same
** core.task_drive(r) -> r stepped to its end, headless
** core.task_pack(r [, summary]) -> the packed results (core/runpack.h), a
** string; with summary, the summary a worker rank keeps
** core.task_unpack(r, s [, summary [, at]]) -> r with the results of s
** (from its byte at on) (raises on mismatch; a summary is refused unless
** summary is true)
** core.task_packsize(r) -> #core.task_pack(r), without packing
** core.task_remote(r) -> whether r (a run, or any run of a list) holds a
** summary (its history elsewhere); core.task_history(who, r) raises then
** core.task_chains(t) -> t as a chains object
** core.task_read(file) -> its bytes, or nil, why (a file that is not a
** regular file -- a directory, a FIFO, a device -- is refused unread)
** core.task_write(file, bytes): the file written whole or not at all
** (olua_writefile), even in a slice, which writes no other file
** core.task_sum(s [, i]) -> the FNV-1a 64-bit hash of s[i..] in 16 hex
** digits: the checksum in a task file's header
** core.task_intr() -> whether Ctrl-C is pending
** core.task_send(dest, tag, s) (started, not waited for; the next send
** or core.task_flush() waits), core.task_recv() -> src, tag, s,
** core.task_probe() -> whether a message waits, core.task_bcast(s) -> s
** (rank 0's): MPI point-to-point and broadcast, in MPI_COMM_WORLD
** (raise without MPI).
** core.task_serve(n), core.task_take() -> i or nil, core.task_stop(),
** core.task_progress() -> results back from the others, wall seconds,
** core.task_served(k) -> bytes, next, stopped: rank 0's side of an
** operation of n tasks.  A thread of rank 0 serves the other ranks (their
** requests for task indices, their packed results) while rank 0's own
** Lua takes indices from the same counter and computes them; the server
** is the only thread that calls MPI until task_served joins it
** (MPI_THREAD_SERIALIZED).  Serving from a thread, and not between rank
** 0's own tasks, matters because a packed result is larger than MPI's
** eager limit: its send blocks until rank 0 receives it, which between
** tasks would leave a worker idle for up to one of rank 0's tasks.
** The protocol, for tasks.lua's worker: a worker sends AHEAD requests
** (tag TREQ) and one message of results (tag TRES: for each task of a
** chunk its index and bytes, string.pack("js4", i, bytes)) per chunk;
** every message gets one reply (tag TTASK), the next chunk as "i k"
** (indices i .. i + k - 1, k a share of what is left: srv_give), "-1"
** when there are none left, "-2" after Ctrl-C.  At the end of an operation rank 0 sends
** each live rank a header (tag TDONE) and the results: by MPI_Bcast, or,
** once a rank has died, in a message to each.
** A rank that dies: rank 0 knows every rank's pid and host (gathered at
** MPI_Init); its server looks every 0.25 s, while it waits, whether a
** rank on its own host is gone, and then fails the tasks that rank held
** ("rank 2 died while running it"), gives it nothing more and leaves it
** out of every later operation; MPI_Finalize, which would wait for it, is
** skipped.  (mpirun must be told not to end the job: Open MPI 4's
** --mca orte_enable_recovery 1.)  A rank on another host that dies is
** not seen: the operation waits for it.
*/
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltask.h"
#include "lexp.h"
#include "runpack.h"

#ifdef OPTLAB_MPI
#include <mpi.h>
#include "lazympi.h"          /* the library is loaded on first use */
#include <pthread.h>
#include <unistd.h>
#include <stdatomic.h>
#include <time.h>
#endif

/* The core table, kept for olua_task_chains. */
#define TASKCORE "optlab.taskcore"

static int mode = OLUA_TASKS_ONE;
static int slice_k, slice_n;           /* SLICE: 1 <= k <= n; GATHER: 0 */
static const char *slice_dir;
static int gather_partial;             /* GATHER: --partial given */
static int rank = 0, size = 1;

#ifdef OPTLAB_MPI
/* Who the ranks are, for rank 0: each one's pid and whether it runs on
** rank 0's host (then rank 0 can see that it died: srv_reap).  dead[w]
** once rank w is known dead; it then gets no task and no message. */
static struct {
  long *pid;
  unsigned char *local, *dead;
  int ndead;
  int told;                       /* a worker: rank 0 said a rank died */
} peers;

static int peers_init (void)
{
  char name[MPI_MAX_PROCESSOR_NAME], *all = NULL;
  long me = (long)getpid();
  int len = 0, w;
  memset(name, 0, sizeof name);
  MPI_Get_processor_name(name, &len);
  peers.pid = calloc((size_t)size, sizeof *peers.pid);
  peers.local = calloc((size_t)size, 1);
  peers.dead = calloc((size_t)size, 1);
  if (rank == 0) all = malloc((size_t)size * sizeof name);
  if (peers.pid == NULL || peers.local == NULL || peers.dead == NULL ||
      (rank == 0 && all == NULL))
    return -1;
  MPI_Gather(&me, 1, MPI_LONG, peers.pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Gather(name, (int)sizeof name, MPI_CHAR, all, (int)sizeof name,
             MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (w = 0; w < size; w++)
      peers.local[w] = strncmp(all + (size_t)w * sizeof name, name,
                             sizeof name) == 0;
  free(all);
  return 0;
}

/* 1 when process pid is gone or a zombie (its launcher has yet to reap
** it). */
static int gone (long pid)
{
  char path[64], buf[256], *p;
  FILE *f;
  size_t k;
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  if ((f = fopen(path, "r")) == NULL) return kill((pid_t)pid, 0) != 0;
  k = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[k] = '\0';
  p = strrchr(buf, ')');
  return p != NULL && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}
#endif

int olua_task_init (int *argc, char ***argv, char *msg, size_t msglen)
{
#ifdef OPTLAB_MPI
  int got;
  if (getenv("OMPI_COMM_WORLD_SIZE") == NULL) return 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &got)
      != MPI_SUCCESS) {
    snprintf(msg, msglen, "MPI_Init failed");
    return -1;
  }
  if (got < MPI_THREAD_SERIALIZED) {
    snprintf(msg, msglen, "this MPI does not allow calls from a second "
             "thread (MPI_THREAD_SERIALIZED), which rank 0's task server "
             "needs");
    return -1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1) mode = OLUA_TASKS_MPI;
  /* a failed peer is noticed by rank 0's server (srv_reap), not by an
  ** abort inside a call */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (size > 1 && peers_init() != 0) {
    snprintf(msg, msglen, "out of memory for %d ranks", size);
    return -1;
  }
  if (rank > 0 && freopen("/dev/null", "w", stdout) == NULL) {
    snprintf(msg, msglen, "rank %d: cannot silence stdout", rank);
    return -1;
  }
#else
  (void)argc;
  (void)argv;
  (void)msg;
  (void)msglen;
#endif
  return 0;
}

/* dir and its parents made when missing (mkdir -p, mode 0777 less the
** umask), so that the first slice of a job array does not fail for want
** of the directory; a name on the way that is not a directory is an
** error naming it.  Slices running at once may race to make it: EEXIST
** from mkdir is fine when a directory is there after all.  Returns 0, or
** -1 with msg. */
static int makedir (const char *dir, char *msg, size_t msglen)
{
  size_t len = strlen(dir), i;
  char *p;
  struct stat st;
  if (len == 0) {
    snprintf(msg, msglen, "--dir needs a directory name, not \"\"");
    return -1;
  }
  if ((p = malloc(len + 1)) == NULL) {
    snprintf(msg, msglen, "out of memory");
    return -1;
  }
  memcpy(p, dir, len + 1);
  /* each prefix ending before a '/' (not the root's), then dir itself */
  for (i = 1; i <= len; i++) {
    if (i < len && (p[i] != '/' || p[i - 1] == '/')) continue;
    p[i] = '\0';
    /* EEXIST: another slice made it in between */
    if ((stat(p, &st) != 0 && errno == ENOENT && mkdir(p, 0777) != 0 &&
         errno != EEXIST) || stat(p, &st) != 0) {
      snprintf(msg, msglen, "--dir %s: cannot create %s: %s", dir, p,
               strerror(errno));
      free(p);
      return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
      snprintf(msg, msglen, "--dir %s: %s exists and is not a directory",
               dir, p);
      free(p);
      return -1;
    }
    if (i < len) p[i] = '/';
  }
  free(p);
  return 0;
}

int olua_task_config (int k, int n, const char *dir, int partial, char *msg,
                      size_t msglen)
{
  struct stat st;
  if (mode == OLUA_TASKS_MPI) {
    snprintf(msg, msglen, "--tasks and --gather are for runs without "
             "mpirun (under mpirun the ranks share the tasks)");
    return -1;
  }
  mode = n > 0 ? OLUA_TASKS_SLICE : OLUA_TASKS_GATHER;
  slice_k = k;
  slice_n = n;
  slice_dir = dir;
  gather_partial = partial;
  if (mode == OLUA_TASKS_SLICE && makedir(dir, msg, msglen) != 0) return -1;
  /* gathering reads: a directory that is not there is a typo or another
  ** machine's, not a study with every task missing */
  if (mode == OLUA_TASKS_GATHER && stat(dir, &st) != 0) {
    snprintf(msg, msglen, "--gather %s: %s (give the --dir the slices "
             "wrote to)", dir, strerror(errno));
    return -1;
  }
  if (mode == OLUA_TASKS_GATHER && !S_ISDIR(st.st_mode)) {
    snprintf(msg, msglen, "--gather %s: not a directory (give the --dir "
             "the slices wrote to)", dir);
    return -1;
  }
  if (mode == OLUA_TASKS_SLICE && freopen("/dev/null", "w", stdout) == NULL)
  {
    snprintf(msg, msglen, "cannot silence stdout");
    return -1;
  }
  return 0;
}

void olua_task_fini (int failed)
{
#ifdef OPTLAB_MPI
  int on = 0, off = 0;
  MPI_Initialized(&on);
  if (on) MPI_Finalized(&off);
  if (!on || off) return;
  if (failed && size > 1) MPI_Abort(MPI_COMM_WORLD, 1);
  /* with a rank dead, MPI_Finalize would wait for it: the results are
  ** out, so the process ends here (status 0; mpirun says the rank exited
  ** without finalizing) */
  if (peers.ndead > 0 || peers.told) {
    fflush(NULL);
    _exit(0);
  }
  MPI_Finalize();
#else
  (void)failed;
#endif
}

int olua_task_quiet (void)
{
  return rank > 0 || mode == OLUA_TASKS_SLICE;
}

int olua_task_mpi0 (void)
{
  return mode == OLUA_TASKS_MPI && rank == 0 && size > 1;
}

void olua_task_publish (lua_State *L)
{
  if (lua_getglobal(L, "optlab") == LUA_TTABLE) {
    lua_pushinteger(L, rank);
    lua_setfield(L, -2, "rank");
    lua_pushinteger(L, size);
    lua_setfield(L, -2, "size");
#ifdef OPTLAB_MPI
    lua_pushboolean(L, 1);
#else
    lua_pushboolean(L, 0);
#endif
    lua_setfield(L, -2, "mpi");
  }
  lua_pop(L, 1);
}

static int task_mode (lua_State *L)
{
  static const char *const names[] = {"one", "slice", "gather", "mpi"};
  lua_pushstring(L, names[mode]);
  if (mode == OLUA_TASKS_MPI) {
    lua_pushinteger(L, rank);
    lua_pushinteger(L, size);
    lua_pushnil(L);
  }
  else {
    lua_pushinteger(L, slice_k);
    lua_pushinteger(L, slice_n);
    if (slice_dir != NULL) lua_pushstring(L, slice_dir);
    else lua_pushnil(L);
  }
  lua_pushboolean(L, gather_partial);
  return 5;
}

/* (problem, method, opts) at 1..3: read the options (headless). */
static void readtaskopts (lua_State *L, ropts *ro, const char *who)
{
  olua_checkproblem(L, 1);
  olua_checkmethod(L, 2);
  olua_readopts(L, 3, who, ro);
  ro->useview = ro->progress = 0;
}

static int task_mkrun (lua_State *L)
{
  ropts ro;
  int lenient = lua_toboolean(L, 4), shell = lua_toboolean(L, 5);
  lua_settop(L, 3);
  readtaskopts(L, &ro, lenient ? "race" : "run");
  ro.lenient = lenient;
  ro.o.shell = shell;
  olua_mkrun(L, 1, 2, &ro, "run");
  return 1;
}

static int task_mkchain (lua_State *L)
{
  ropts ro;
  lua_Integer c;
  double *xs;
  lua_settop(L, 4);
  c = luaL_checkinteger(L, 4);
  readtaskopts(L, &ro, "run");
  luaL_argcheck(L, c >= 0 && c < ro.chains, 4, "chain out of range");
  xs = lua_newuserdatauv(L, (size_t)olua_checkproblem(L, 1)->p->n
                         * sizeof *xs, 0);
  olua_mkchain(L, &ro, (int)c, xs);
  return 1;
}

static int task_drive (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  char title[160];
  lua_settop(L, 1);
  olua_exp_drive(L, &b, 1, olua_problemdesc(ol_run_problem(b->r), title,
                                            sizeof title),
                 0, 0, OLUA_SPEED_AUTO, 0);
  lua_settop(L, 1);
  return 1;
}

static int task_pack (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  size_t len;
  ol_err e;
  void *buf = lua_toboolean(L, 2) ? ol_run_pack_summary(b->r, &len, &e)
                                  : ol_run_pack(b->r, &len, &e);
  if (buf == NULL) return luaL_error(L, "tasks: %s", e.msg);
  lua_pushlstring(L, buf, len);
  free(buf);
  return 1;
}

static int task_packsize (lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)ol_run_packed_size(olua_checkrun(L, 1)->r));
  return 1;
}

/* 1 when the run at idx, or any run of the list at idx, is a summary. */
static int anyremote (lua_State *L, int idx)
{
  lua_Integer i, n;
  int remote = 0;
  if (!lua_istable(L, idx)) return ol_run_remote(olua_checkrun(L, idx)->r);
  n = (lua_Integer)lua_rawlen(L, idx);
  for (i = 1; i <= n && !remote; i++) {
    lua_rawgeti(L, idx, i);
    remote = ol_run_remote(olua_checkrun(L, -1)->r);
    lua_pop(L, 1);
  }
  return remote;
}

static int task_remote (lua_State *L)
{
  lua_pushboolean(L, anyremote(L, 1));
  return 1;
}

/* core.task_history(who, runs): raise as olua_checkhistory does when
** runs (a run or a list) holds a summary. */
static int task_history (lua_State *L)
{
  const char *who = luaL_checkstring(L, 1);
  int i;
  lua_Integer n;
  if (!lua_istable(L, 2)) {
    olua_checkhistory(L, olua_checkrun(L, 2)->r, who);
    return 0;
  }
  n = (lua_Integer)lua_rawlen(L, 2);
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, 2, i);
    olua_checkhistory(L, olua_checkrun(L, -1)->r, who);
    lua_pop(L, 1);
  }
  return 0;
}

static int task_unpack (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  lua_Integer at = luaL_optinteger(L, 4, 1);
  ol_err e;
  /* the bytes from s[at] on (a result's status letter left out without
  ** copying 100 KB) */
  luaL_argcheck(L, at >= 1 && (size_t)at <= len + 1, 4, "out of range");
  s += at - 1;
  len -= (size_t)at - 1;
  /* a summary comes from rank 0 only, never from a task file */
  if (!lua_toboolean(L, 3) && ol_run_packed_summary(s, len))
    return luaL_error(L, "tasks: a summary (what a worker rank keeps), not "
                      "a task's results");
  if (ol_run_unpack(b->r, s, len, &e) != OL_OK)
    return luaL_error(L, "tasks: %s", e.msg);
  lua_settop(L, 1);
  return 1;
}

/* Why st is not read as a task file. */
static const char *notfile (const struct stat *st)
{
  if (S_ISDIR(st->st_mode)) return "is a directory, not a file";
  if (S_ISFIFO(st->st_mode)) return "is a FIFO, not a regular file";
  if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
    return "is a device, not a regular file";
  if (S_ISSOCK(st->st_mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

static int readfail (lua_State *L, int fd, const char *why)
{
  if (fd >= 0) close(fd);
  lua_pushnil(L);
  lua_pushstring(L, why);
  return 2;
}

/* core.task_read(file) -> bytes, or nil, why.  What the name is comes
** first (stat: a directory, a FIFO or a device -- a link to /dev/zero
** would never end -- is refused unopened, by what it is), then it is
** opened without blocking (a FIFO swapped in would wait for a writer)
** and checked again with fstat before any read; ENOENT gives nil,
** "absent". */
static int task_read (lua_State *L)
{
  const char *path = luaL_checkstring(L, 1);
  struct stat st;
  luaL_Buffer b;
  size_t got = 0, want;
  char *p;
  int fd;
  /* what the name is before opening it (opening a device may act), then
  ** what was opened (it may have changed in between) */
  if (stat(path, &st) != 0)
    return readfail(L, -1, errno == ENOENT ? "absent" : strerror(errno));
  if (!S_ISREG(st.st_mode)) return readfail(L, -1, notfile(&st));
  fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return readfail(L, -1, errno == ENOENT ? "absent" : strerror(errno));
  if (fstat(fd, &st) != 0) return readfail(L, fd, strerror(errno));
  if (!S_ISREG(st.st_mode)) return readfail(L, fd, notfile(&st));
  want = (size_t)st.st_size;
  luaL_buffinit(L, &b);
  p = luaL_prepbuffsize(&b, want > 0 ? want : 1);
  while (got < want) {
    ssize_t k = read(fd, p + got, want - got);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return readfail(L, fd, strerror(errno));
    if (k == 0) break;                 /* shorter now: the sum will say */
    got += (size_t)k;
  }
  close(fd);
  luaL_addsize(&b, got);
  luaL_pushresult(&b);
  return 1;
}

static int task_write (lua_State *L)
{
  size_t n;
  const char *path = luaL_checkstring(L, 1);
  const char *s = luaL_checklstring(L, 2, &n);
  struct stat st;
  /* a FIFO or a device there would be written in place (a FIFO without
  ** a reader would hold the slice for good): refused */
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return luaL_error(L, "tasks: %s %s; remove it", path, notfile(&st));
  olua_writefile(L, "tasks", path, s, n);
  return 0;
}

static int task_sum (lua_State *L)
{
  size_t n;
  const unsigned char *s = (const unsigned char *)luaL_checklstring(L, 1,
                                                                     &n);
  lua_Integer i = luaL_optinteger(L, 2, 1);
  uint64_t h = UINT64_C(14695981039346656037);
  size_t k;
  char hex[17];
  luaL_argcheck(L, i >= 1 && (size_t)i <= n + 1, 2, "out of range");
  for (k = (size_t)i - 1; k < n; k++) {
    h ^= s[k];
    h *= UINT64_C(1099511628211);
  }
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
  lua_pushstring(L, hex);
  return 1;
}

/* core.task_intr() -> whether Ctrl-C is pending (ol_intr): a bulk
** operation checks it between tasks, since tasks that fail before their
** first step never reach the run's own check, and a hook armed for the
** main thread does not fire in a coroutine. */
static int task_intr (lua_State *L)
{
  lua_pushboolean(L, ol_interrupted());
  return 1;
}

static int task_chains (lua_State *L)
{
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  olua_setchains(L);
  return 1;
}

/* core.task_band(bands, qs, runs) -> bands, a list of runs made without
** a trajectory, holding the quantiles qs (a list as long) of the runs
** (core/runpack.h: ol_run_band). */
static int task_band (lua_State *L)
{
  ol_run **src, **dst;
  double *q;
  ol_err e;
  int n, nq, i;
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  luaL_checktype(L, 3, LUA_TTABLE);
  nq = (int)luaL_len(L, 1);
  n = (int)luaL_len(L, 3);
  luaL_argcheck(L, nq >= 1 && nq <= 64 && luaL_len(L, 2) == nq, 2,
                "as many quantiles as bands (1 to 64)");
  luaL_argcheck(L, n >= 1 && n <= 1 << 24, 3, "a list of runs");
  src = lua_newuserdatauv(L, (size_t)n * sizeof *src, 0);
  dst = lua_newuserdatauv(L, (size_t)nq * sizeof *dst, 0);
  q = lua_newuserdatauv(L, (size_t)nq * sizeof *q, 0);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 3, i + 1);
    src[i] = olua_checkrun(L, -1)->r;
    lua_pop(L, 1);
    if (src[i] == NULL) return luaL_error(L, "tasks: band of a closed run");
  }
  for (i = 0; i < nq; i++) {
    lua_rawgeti(L, 1, i + 1);
    dst[i] = olua_checkrun(L, -1)->r;
    lua_pop(L, 1);
    lua_rawgeti(L, 2, i + 1);
    q[i] = luaL_checknumber(L, -1);
    lua_pop(L, 1);
    if (dst[i] == NULL) return luaL_error(L, "tasks: band of a closed run");
  }
  if (ol_run_band(dst, q, nq, src, n, &e) != OL_OK)
    return luaL_error(L, "tasks: %s", e.msg);
  lua_settop(L, 1);
  return 1;
}

/* -- the live view of a bulk operation ------------------------------------ */

/* The runs a bulk operation shows while its tasks finish (tasks.lua's
** board: the quantile bands of a repeats, the best so far of a sweep, the
** chains or race runs done), shown through the program's view hooks
** (olua_view) like one experiment.  core.task_view(runs, labels, title)
** opens the view at the first call and shows those runs: -> 1 go on, 0
** paused (call again), -1 stop (q), or nil when there is no view (no
** terminal, declined).  The runs, labels and title stay anchored in the
** registry until the next call; core.task_view_close() restores the
** terminal.  Only one bulk view is open at a time. */
#define BVMAX 16
static struct {
  int on, declined;
  olua_exp x;
  lrun *boxes[BVMAX];
  ol_run *runs[BVMAX];
  const char *labels[BVMAX];
  int ref;
} bv = {0, 0, {0}, {0}, {0}, {0}, LUA_NOREF};

static int task_view (lua_State *L)
{
  olua_state *S = olua_getstate(L);
  const char *title = luaL_checkstring(L, 3);
  int n, i;
  long take;
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  n = (int)luaL_len(L, 1);
  luaL_argcheck(L, n >= 1 && n <= BVMAX, 1, "1 to 16 runs");
  if (bv.declined || S->view == NULL || S->view->open == NULL) {
    lua_pushnil(L);
    return 1;
  }
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 1, i + 1);
    bv.boxes[i] = olua_checkrun(L, -1);
    lua_pop(L, 1);
    if (bv.boxes[i]->r == NULL) return luaL_error(L, "tasks: closed run");
    lua_rawgeti(L, 2, i + 1);
    bv.labels[i] = lua_tostring(L, -1);
    lua_pop(L, 1);
    if (bv.labels[i] == NULL) bv.labels[i] = "";
  }
  /* anchor what the view points at until the next call */
  lua_createtable(L, 3, 0);
  for (i = 1; i <= 3; i++) {
    lua_pushvalue(L, i);
    lua_rawseti(L, -2, i);
  }
  luaL_unref(L, LUA_REGISTRYINDEX, bv.ref);
  bv.ref = luaL_ref(L, LUA_REGISTRYINDEX);
  olua_exp_init(&bv.x, bv.boxes, bv.runs, bv.labels, n, title,
                OLUA_SPEED_MAX, 0);
  bv.x.live.state = "running";
  if (!bv.on) {
    if (S->view->open(S->view->ud, &bv.x.live) != 0) {
      bv.declined = 1;
      lua_pushnil(L);
      return 1;
    }
    bv.on = 1;
  }
  take = S->view->frame(S->view->ud, &bv.x.live);
  lua_pushinteger(L, take < 0 ? -1 : take == 0 ? 0 : 1);
  return 1;
}

static int task_view_close (lua_State *L)
{
  olua_state *S = olua_getstate(L);
  if (bv.on && S->view != NULL && S->view->close != NULL)
    S->view->close(S->view->ud, &bv.x.live);
  bv.on = bv.declined = 0;
  luaL_unref(L, LUA_REGISTRYINDEX, bv.ref);
  bv.ref = LUA_NOREF;
  return 0;
}

/* core.task_viewable() -> whether a bulk operation may show a view. */
static int task_viewable (lua_State *L)
{
  olua_state *S = olua_getstate(L);
  lua_pushboolean(L, S->view != NULL && S->view->open != NULL);
  return 1;
}

#ifdef OPTLAB_MPI
/* Waiting without a core.  Open MPI's blocking calls poll: a rank that
** waits in MPI_Wait or MPI_Probe keeps a core busy, which
** under mpirun --oversubscribe (more ranks than cores) is taken from the
** ranks still computing -- at 32 ranks on 2 cores the workers' spinning
** left rank 0 a sixteenth of a core and the operation took 3x its work.
** These wait by testing, and between tests nap, from 20 us doubling to
** 1 ms: a reply that comes at once is seen within microseconds, a long
** wait costs a test a millisecond. */
static void nap (long *ns)
{
  struct timespec t = {0, *ns};
  nanosleep(&t, NULL);
  if (*ns < 1000000) *ns *= 2;
}

static void wait_req (MPI_Request *rq)
{
  long ns = 20000;
  int done = 0;
  for (;;) {
    MPI_Test(rq, &done, MPI_STATUS_IGNORE);
    if (done) return;
    nap(&ns);
  }
}

static void wait_probe (int src, int tag, MPI_Status *st)
{
  long ns = 20000;
  int flag = 0;
  for (;;) {
    MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, st);
    if (flag) return;
    nap(&ns);
  }
}

/* The worker's send: it waits for its previous send, then starts this
** one and returns, so that a result larger than MPI's eager limit does not
** hold the worker until rank 0's server matches it; the string stays
** anchored in the registry until the send is done. */
static MPI_Request sendreq;
static int sending;                    /* sendreq is a send started */
static int sendref = LUA_NOREF;

static void send_wait (lua_State *L)
{
  if (sending) wait_req(&sendreq);
  sending = 0;
  luaL_unref(L, LUA_REGISTRYINDEX, sendref);
  sendref = LUA_NOREF;
}

static int task_send (lua_State *L)
{
  int dest = (int)luaL_checkinteger(L, 1), tag = (int)luaL_checkinteger(L, 2);
  size_t len;
  const char *s = luaL_checklstring(L, 3, &len);
  if (len > (size_t)0x7fffffff)
    return luaL_error(L, "tasks: a message of %zu bytes is too large", len);
  send_wait(L);
  lua_settop(L, 3);
  sendref = luaL_ref(L, LUA_REGISTRYINDEX);
  MPI_Isend(s, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &sendreq);
  sending = 1;
  return 0;
}

/* core.task_flush(): the last send done. */
static int task_flush (lua_State *L)
{
  send_wait(L);
  return 0;
}

static int task_recv (lua_State *L)
{
  MPI_Status st;
  int len;
  char *buf;
  wait_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
  MPI_Get_count(&st, MPI_BYTE, &len);
  buf = lua_newuserdatauv(L, len > 0 ? (size_t)len : 1, 0);
  MPI_Recv(buf, len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  lua_pushinteger(L, st.MPI_SOURCE);
  lua_pushinteger(L, st.MPI_TAG);
  lua_pushlstring(L, buf, (size_t)len);
  return 3;
}

static int task_probe (lua_State *L)
{
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
             MPI_STATUS_IGNORE);
  lua_pushboolean(L, flag);
  return 1;
}

/* Rank 0's string s to every rank: first a header to each live rank
** (tag TDONE: 'B' a broadcast follows, 'P' a rank died, so the bytes
** follow to each in a message of their own, tag TBLOB), then its length
** and its bytes. */
enum { TDONE = 4, TBLOB = 5 };

static int task_bcast (lua_State *L)
{
  long long len = 0;
  size_t sl = 0;
  const char *s = rank == 0 ? luaL_checklstring(L, 1, &sl) : NULL;
  char *buf, hdr = peers.ndead > 0 ? 'P' : 'B';
  int w;
  len = (long long)sl;
  if (len > 0x7fffffffLL)
    return luaL_error(L, "tasks: a broadcast of %lld bytes is too large",
                      len);
  if (rank == 0) {
    for (w = 1; w < size; w++)
      if (!peers.dead[w]) {
        MPI_Send(&hdr, 1, MPI_CHAR, w, TDONE, MPI_COMM_WORLD);
        if (hdr == 'P')
          MPI_Send((void *)s, (int)len, MPI_BYTE, w, TBLOB, MPI_COMM_WORLD);
      }
  }
  else {
    MPI_Status st;
    int n = 0;
    wait_probe(0, TDONE, &st);
    MPI_Recv(&hdr, 1, MPI_CHAR, 0, TDONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (hdr == 'P') {
      peers.told = 1;
      wait_probe(0, TBLOB, &st);
      MPI_Get_count(&st, MPI_BYTE, &n);
      buf = lua_newuserdatauv(L, n > 0 ? (size_t)n : 1, 0);
      MPI_Recv(buf, n, MPI_BYTE, 0, TBLOB, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      lua_pushlstring(L, buf, (size_t)n);
      return 1;
    }
  }
  if (hdr == 'P') {
    lua_settop(L, 1);
    return 1;
  }
  /* the header came: rank 0 is in the broadcast, so waiting in it is
  ** short and spinning keeps its pipeline moving (a 1 ms nap a segment
  ** made 7.6 MB take 75 ms on 2 ranks) */
  MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (len > 0x7fffffffLL)
    return luaL_error(L, "tasks: a broadcast of %lld bytes is too large",
                      len);
  if (rank == 0) {
    MPI_Bcast((void *)s, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
    lua_settop(L, 1);
    return 1;
  }
  buf = lua_newuserdatauv(L, len > 0 ? (size_t)len : 1, 0);
  MPI_Bcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD);
  lua_pushlstring(L, buf, (size_t)len);
  return 1;
}

/* == rank 0's task server ===================================================== */

enum { TREQ = 1, TRES = 2, TTASK = 3, AHEAD = 2 };

static struct {
  pthread_t th;
  int on;                         /* a thread to join */
  int n;
  atomic_int next;                /* the next index to hand out, 1-based */
  atomic_int stopped;
  int *reqs;                      /* requests received, per rank */
  long handed;                    /* indices sent to workers */
  atomic_long got;                /* results back (read by task_progress) */
  char **buf;                     /* buf[i], len[i]: task i's bytes,
                                     the server's until got counts them,
                                     then the main thread's (which frees
                                     them once copied into Lua) */
  int *len;
  unsigned char *done;            /* done[i]: task i's bytes came (the
                                     server's own record) */
  int *order;                     /* order[k]: the k-th result's index,
                                     written before got counts it */
  int *owner;                     /* owner[i]: the rank task i was given */
} srv;

/* The next index for anyone, or 0 (none left, or stopped). */
static int srv_take (void)
{
  int i;
  if (atomic_load(&srv.stopped)) return 0;
  i = atomic_fetch_add(&srv.next, 1);
  return i <= srv.n ? i : 0;
}

/* Worker w's next chunk: k indices from i, k a share of what is left
** (guided scheduling: remaining / (4 size), at least 1, at most
** CHUNKMAX), so that short tasks cost rank 0 one message pair a chunk,
** not one each (10^5 tasks of 50 us starved the worker: the server's 1
** ms nap per round trip), while the last chunks are single tasks and the
** ranks finish together.  OPTLAB_MPI_CHUNK sets CHUNKMAX (1: one task a
** message, as for tasks of very uneven length). */
#define CHUNKMAX 4096
static int chunkmax = CHUNKMAX;
static void srv_give (int w)
{
  char s[48];
  int i = 0, k = 1, j;
  if (!atomic_load(&srv.stopped)) {
    int left = srv.n - atomic_load(&srv.next) + 1;
    k = left / (4 * size);
    if (k < 1) k = 1;
    if (k > chunkmax) k = chunkmax;
    i = atomic_fetch_add(&srv.next, k);
    if (i > srv.n) i = 0;
    else if (i + k - 1 > srv.n) k = srv.n - i + 1;
  }
  if (i == 0) i = atomic_load(&srv.stopped) ? -2 : -1;
  if (i > 0) {
    srv.handed += k;
    for (j = i; j < i + k; j++) srv.owner[j] = w;
    snprintf(s, sizeof s, "%d %d", i, k);
  }
  else snprintf(s, sizeof s, "%d", i);
  MPI_Send(s, (int)strlen(s), MPI_BYTE, w, TTASK, MPI_COMM_WORLD);
}

/* Every worker's first requests in, and every index handed out back. */
static int srv_done (void)
{
  int w;
  if (atomic_load(&srv.got) < srv.handed) return 0;
  for (w = 1; w < size; w++)
    if (!peers.dead[w] && srv.reqs[w] < AHEAD) return 0;
  return 1;
}

/* Rank w is dead: each task it held and did not send back fails with
** that as its error (tasks.lua reports it with the task's index and
** seed), and it gets nothing more. */
static void srv_dead (int w)
{
  int i;
  peers.dead[w] = 1;
  peers.ndead++;
  for (i = 1; i <= srv.n; i++)
    if (srv.owner[i] == w && !srv.done[i]) {
      char m[96];
      int k = snprintf(m, sizeof m, "erank %d died while running it (pid "
                       "%ld)", w, peers.pid[w]);
      srv.buf[i] = malloc((size_t)k + 1);
      if (srv.buf[i] == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
      memcpy(srv.buf[i], m, (size_t)k + 1);
      srv.done[i] = 1;
      srv.len[i] = k;
      srv.order[atomic_load(&srv.got)] = i;
      atomic_fetch_add(&srv.got, 1);
    }
}

/* Ranks on this host whose process has gone: dead (every REAP s while
** the server waits).  A rank on another host that dies is not seen: the
** operation waits for it (man: MANY PROCESSES). */
#define REAP 0.25
static void srv_reap (void)
{
  int w;
  for (w = 1; w < size; w++)
    if (!peers.dead[w] && peers.local[w] && gone(peers.pid[w])) srv_dead(w);
}

/* Task i's bytes b[0, len) (b malloc'd, now the server's) in. */
static void srv_put (lua_Integer i, char *b, int len)
{
  if (i < 1 || i > srv.n || srv.done[i]) MPI_Abort(MPI_COMM_WORLD, 1);
  srv.buf[i] = b;
  srv.done[i] = 1;
  srv.len[i] = len;
  srv.order[atomic_load(&srv.got)] = (int)i;
  atomic_fetch_add(&srv.got, 1);
  if (len == 1 && b[0] == 's') atomic_store(&srv.stopped, 1);
}

/* A received message: a request, or a chunk's results (for each task its
** index and its bytes, string.pack("js4", i, bytes) in native order);
** either is answered at once, by the next chunk. */
static void srv_handle (int w, int tag, char *b, int len)
{
  if (peers.dead[w]) {                /* sent before it died: dropped */
    free(b);
    return;
  }
  if (tag == TREQ) {
    srv.reqs[w]++;
    free(b);
  }
  else {
    size_t at = 0, n = (size_t)len;
    while (at < n) {
      lua_Integer i;
      uint32_t k;
      char *c;
      if (n - at < sizeof i + sizeof k) MPI_Abort(MPI_COMM_WORLD, 1);
      memcpy(&i, b + at, sizeof i);
      memcpy(&k, b + at + sizeof i, sizeof k);
      at += sizeof i + sizeof k;
      if (k > n - at || k > 0x7fffffffu) MPI_Abort(MPI_COMM_WORLD, 1);
      if (at == sizeof i + sizeof k && k == n - at) {
        /* one task: its bytes moved to the front, no copy */
        memmove(b, b + at, k);
        srv_put(i, b, (int)k);
        b = NULL;
        break;
      }
      if ((c = malloc(k > 0 ? k : 1)) == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
      memcpy(c, b + at, k);
      srv_put(i, c, (int)k);
      at += k;
    }
    free(b);
  }
  srv_give(w);
}

/* The thread.  A waiting message is matched (MPI_Improbe) and received
** without blocking (MPI_Imrecv), so that a large result whose sender is
** slow to progress does not hold up the others; the receives in flight
** are tested each round.  With nothing to do it naps 1 ms: a task takes
** milliseconds and a worker holds one ahead, so the latency is hidden,
** and the nap keeps the thread off the core rank 0 computes on (at 100
** us, rank 0's own tasks ran 30% slower). */
static void *srv_main (void *arg)
{
  const struct timespec nap = {0, 1000000};
  struct pend { MPI_Request rq; char *b; int len, w, tag; } *pend;
  int npend = 0, k;
  (void)arg;
  pend = malloc((size_t)size * (AHEAD + 1) * sizeof *pend);
  if (pend == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  double reaped = ol_now();
  while (!srv_done() || npend > 0) {
    int flag = 0, busy = 0;
    MPI_Message m;
    MPI_Status st;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st);
    if (flag) {
      struct pend *q = &pend[npend++];
      if (npend > size * (AHEAD + 1)) MPI_Abort(MPI_COMM_WORLD, 1);
      MPI_Get_count(&st, MPI_BYTE, &q->len);
      q->b = malloc(q->len > 0 ? (size_t)q->len : 1);
      if (q->b == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
      q->w = st.MPI_SOURCE;
      q->tag = st.MPI_TAG;
      MPI_Imrecv(q->b, q->len, MPI_BYTE, &m, &q->rq);
      busy = 1;
    }
    for (k = 0; k < npend; ) {
      int done = 0;
      MPI_Test(&pend[k].rq, &done, MPI_STATUS_IGNORE);
      if (done) {
        struct pend q = pend[k];
        pend[k] = pend[--npend];
        srv_handle(q.w, q.tag, q.b, q.len);
        busy = 1;
      }
      else k++;
    }
    if (!busy) {
      nanosleep(&nap, NULL);
      if (ol_now() - reaped >= REAP) {
        reaped = ol_now();
        srv_reap();
        /* receives from a rank now dead never complete */
        for (k = 0; k < npend; )
          if (peers.dead[pend[k].w]) {
            free(pend[k].b);
            pend[k] = pend[--npend];
          }
          else k++;
      }
    }
  }
  free(pend);
  return NULL;
}

static void srv_free (void)
{
  int i;
  if (srv.buf != NULL)
    for (i = 1; i <= srv.n; i++) free(srv.buf[i]);
  free(srv.buf);
  free(srv.len);
  free(srv.reqs);
  free(srv.order);
  free(srv.owner);
  free(srv.done);
  srv.done = NULL;
  srv.order = NULL;
  srv.owner = NULL;
  srv.buf = NULL;
  srv.len = NULL;
  srv.reqs = NULL;
}

static void srv_join (void)
{
  if (srv.on) pthread_join(srv.th, NULL);
  srv.on = 0;
}

static int task_serve (lua_State *L)
{
  lua_Integer n = luaL_checkinteger(L, 1);
  sigset_t all, old;
  int e;
  luaL_argcheck(L, n >= 1 && n < 0x7fffffff, 1, "out of range");
  if (rank != 0) return luaL_error(L, "tasks: task_serve on rank %d", rank);
  srv_join();
  srv_free();
  srv.n = (int)n;
  {
    const char *ev = getenv("OPTLAB_MPI_CHUNK");
    char *end = NULL;
    long c = ev != NULL ? strtol(ev, &end, 10) : 0;
    chunkmax = ev != NULL && *ev != '\0' && *end == '\0' && c >= 1 &&
      c <= 1000000 ? (int)c : CHUNKMAX;
  }
  atomic_store(&srv.next, 1);
  atomic_store(&srv.stopped, 0);
  srv.handed = 0;
  atomic_store(&srv.got, 0);
  srv.reqs = calloc((size_t)size, sizeof *srv.reqs);
  srv.buf = calloc((size_t)n + 1, sizeof *srv.buf);
  srv.len = calloc((size_t)n + 1, sizeof *srv.len);
  srv.order = calloc((size_t)n + 1, sizeof *srv.order);
  srv.owner = calloc((size_t)n + 1, sizeof *srv.owner);
  srv.done = calloc((size_t)n + 1, sizeof *srv.done);
  if (srv.reqs == NULL || srv.buf == NULL || srv.len == NULL ||
      srv.order == NULL || srv.owner == NULL || srv.done == NULL) {
    srv_free();
    return luaL_error(L, "tasks: out of memory for %d tasks", (int)n);
  }
  /* signals (Ctrl-C) stay with the main thread */
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  e = pthread_create(&srv.th, NULL, srv_main, NULL);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (e != 0) {
    srv_free();
    return luaL_error(L, "tasks: cannot start the task server (%s)",
                      strerror(e));
  }
  srv.on = 1;
  return 0;
}

static int task_take (lua_State *L)
{
  int i = srv.on ? srv_take() : 0;
  if (i > 0) lua_pushinteger(L, i);
  else lua_pushnil(L);
  return 1;
}

/* -> the results the other ranks have sent back so far, and the wall
** clock (ol_now), for rank 0's progress lines. */
static int task_progress (lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)atomic_load(&srv.got));
  lua_pushnumber(L, ol_now());
  return 2;
}

/* core.task_fresh(k) -> {i = bytes} of the results the other ranks sent
** after the first k, and the count now: rank 0 restores them while the
** operation goes on (its live view; the decoding off the tail). */
static int task_fresh (lua_State *L)
{
  lua_Integer k = luaL_checkinteger(L, 1);
  long got = srv.on ? atomic_load(&srv.got) : 0, j;
  lua_createtable(L, 0, 4);
  for (j = k < 0 ? 0 : (long)k; j < got; j++) {
    int i = srv.order[j];
    if (srv.buf[i] == NULL) continue;        /* returned before */
    lua_pushlstring(L, srv.buf[i], (size_t)srv.len[i]);
    lua_rawseti(L, -2, i);
    /* copied: freed now, so the next results reuse its pages (fresh
    ** pages cost rank 0 a third of its time in page faults) */
    free(srv.buf[i]);
    srv.buf[i] = NULL;
  }
  lua_pushinteger(L, (lua_Integer)got);
  return 2;
}

static int task_stop (lua_State *L)
{
  (void)L;
  atomic_store(&srv.stopped, 1);
  return 0;
}

/* core.task_served(k) -> {i = bytes} of the tasks other ranks ran that
** core.task_fresh has not returned (the k-th result on), the first index
** never handed out, whether the operation was stopped.  (It returned them
** all: at 32 ranks, 190 MB copied again after the last task, 0.8 s.) */
static int task_served (lua_State *L)
{
  lua_Integer k = luaL_optinteger(L, 1, 0);
  long got, j;
  int next;
  srv_join();
  got = atomic_load(&srv.got);
  lua_createtable(L, 0, (int)(got - (k > 0 && k < got ? k : 0)));
  for (j = k < 0 ? 0 : (long)k; j < got && srv.buf != NULL; j++) {
    int i = srv.order[j];
    if (srv.buf[i] == NULL) continue;        /* task_fresh had it */
    lua_pushlstring(L, srv.buf[i], (size_t)srv.len[i]);
    lua_rawseti(L, -2, i);
  }
  next = atomic_load(&srv.next);
  lua_pushinteger(L, next <= srv.n ? next : srv.n + 1);
  lua_pushboolean(L, atomic_load(&srv.stopped));
  srv_free();
  return 3;
}
#else
static int nompi (lua_State *L)
{
  return luaL_error(L, "tasks: this optlab is built without MPI");
}
#define task_send nompi
#define task_recv nompi
#define task_probe nompi
#define task_bcast nompi
#define task_flush nompi
#define task_serve nompi
#define task_take nompi
#define task_stop nompi
#define task_progress nompi
#define task_served nompi
#define task_fresh nompi
#endif

void olua_opentask (lua_State *L)
{
  static const luaL_Reg fns[] = {
    {"task_mode", task_mode},
    {"task_mkrun", task_mkrun},
    {"task_mkchain", task_mkchain},
    {"task_drive", task_drive},
    {"task_pack", task_pack},
    {"task_unpack", task_unpack},
    {"task_remote", task_remote},
    {"task_packsize", task_packsize},
    {"task_history", task_history},
    {"task_chains", task_chains},
    {"task_intr", task_intr},
    {"task_band", task_band},
    {"task_view", task_view},
    {"task_view_close", task_view_close},
    {"task_viewable", task_viewable},
    {"task_send", task_send},
    {"task_recv", task_recv},
    {"task_probe", task_probe},
    {"task_bcast", task_bcast},
    {"task_flush", task_flush},
    {"task_serve", task_serve},
    {"task_take", task_take},
    {"task_stop", task_stop},
    {"task_progress", task_progress},
    {"task_served", task_served},
    {"task_fresh", task_fresh},
    {"task_read", task_read},
    {"task_write", task_write},
    {"task_sum", task_sum},
    {"writefile", olua_writefile_lua},
    {NULL, NULL}
  };
  luaL_setfuncs(L, fns, 0);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, TASKCORE);
}

int olua_task_chains (lua_State *L)
{
  if (mode == OLUA_TASKS_ONE) return 0;
  lua_settop(L, 3);
  lua_getfield(L, LUA_REGISTRYINDEX, TASKCORE);
  lua_getfield(L, -1, "chains_bulk");
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_call(L, 3, 1);
  return 1;
}

int olua_task_race (lua_State *L, int rt)
{
  if (mode == OLUA_TASKS_ONE) return 0;
  lua_getfield(L, LUA_REGISTRYINDEX, TASKCORE);
  lua_getfield(L, -1, "race_bulk");
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 3);
  lua_pushvalue(L, rt);
  lua_call(L, 4, 0);
  lua_pop(L, 1);
  return 1;
}
