/*
** lua/ltask.c -- the task mode of the process and the primitives of
** lua/tasks.lua, which runs every bulk operation (repeats, sweep, chains)
** as a list of independent tasks.
**
** Modes (ltask.h): one process; a scheduler's slice K of N (--tasks K/N
** --dir DIR: tasks i with i mod N = K - 1 computed, their results written
** to DIR); gathering (--gather DIR: the results read back); an Open MPI
** rank (mpirun -np N, in a build with -DOPTLAB_MPI: rank 0 hands out task
** indices, every rank computes, the packed results come back to rank 0,
** which broadcasts them so that every rank holds the same objects and
** the script goes on in step).  The mode is the process's, set once by
** repl/main.c before the library opens, so it lives in this file's
** statics, not in the per-state record.
**
** core.task_mode() -> mode, k or rank, n or size, dir
** core.task_mkrun(problem, method, opts) -> a run, made, not stepped
** core.task_mkchain(problem, method, opts, c) -> chain c (0-based), same
** core.task_drive(r) -> r stepped to its end, headless
** core.task_pack(r) -> the packed results (core/runpack.h), a string
** core.task_unpack(r, s) -> r with the results of s (raises on mismatch)
** core.task_chains(t) -> t as a chains object
** core.task_send(dest, tag, s), core.task_recv() -> src, tag, s,
** core.task_probe() -> whether a message waits, core.task_bcast(s) -> s
** (rank 0's): MPI point-to-point and broadcast, in MPI_COMM_WORLD
** (raise without MPI).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltask.h"
#include "lexp.h"
#include "runpack.h"

#ifdef OPTLAB_MPI
#include <mpi.h>
#endif

/* The core table, kept for olua_task_chains. */
#define TASKCORE "optlab.taskcore"

static int mode = OLUA_TASKS_ONE;
static int slice_k, slice_n;           /* SLICE: 1 <= k <= n; GATHER: 0 */
static const char *slice_dir;
static int rank = 0, size = 1;

int olua_task_init (int *argc, char ***argv, char *msg, size_t msglen)
{
#ifdef OPTLAB_MPI
  int got;
  if (getenv("OMPI_COMM_WORLD_SIZE") == NULL) return 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &got)
      != MPI_SUCCESS) {
    snprintf(msg, msglen, "MPI_Init failed");
    return -1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1) mode = OLUA_TASKS_MPI;
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

int olua_task_config (int k, int n, const char *dir, char *msg,
                      size_t msglen)
{
  if (mode == OLUA_TASKS_MPI) {
    snprintf(msg, msglen, "--tasks and --gather are for runs without "
             "mpirun (under mpirun the ranks share the tasks)");
    return -1;
  }
  mode = n > 0 ? OLUA_TASKS_SLICE : OLUA_TASKS_GATHER;
  slice_k = k;
  slice_n = n;
  slice_dir = dir;
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
  MPI_Finalize();
#else
  (void)failed;
#endif
}

int olua_task_quiet (void)
{
  return rank > 0 || mode == OLUA_TASKS_SLICE;
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
  return 4;
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
  lua_settop(L, 3);
  readtaskopts(L, &ro, "run");
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
  void *buf = ol_run_pack(b->r, &len, &e);
  if (buf == NULL) return luaL_error(L, "tasks: %s", e.msg);
  lua_pushlstring(L, buf, len);
  free(buf);
  return 1;
}

static int task_unpack (lua_State *L)
{
  lrun *b = olua_checkrun(L, 1);
  size_t len;
  const char *s = luaL_checklstring(L, 2, &len);
  ol_err e;
  if (ol_run_unpack(b->r, s, len, &e) != OL_OK)
    return luaL_error(L, "tasks: %s", e.msg);
  lua_settop(L, 1);
  return 1;
}

static int task_chains (lua_State *L)
{
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  olua_setchains(L);
  return 1;
}

#ifdef OPTLAB_MPI
static int task_send (lua_State *L)
{
  int dest = (int)luaL_checkinteger(L, 1), tag = (int)luaL_checkinteger(L, 2);
  size_t len;
  const char *s = luaL_checklstring(L, 3, &len);
  if (len > (size_t)0x7fffffff)
    return luaL_error(L, "tasks: a message of %zu bytes is too large", len);
  MPI_Send(s, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
  return 0;
}

static int task_recv (lua_State *L)
{
  MPI_Status st;
  int len;
  char *buf;
  MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
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

/* Rank 0's string s to every rank: its length, then its bytes. */
static int task_bcast (lua_State *L)
{
  long long len = 0;
  size_t sl = 0;
  const char *s = rank == 0 ? luaL_checklstring(L, 1, &sl) : NULL;
  char *buf;
  len = (long long)sl;
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
#else
static int nompi (lua_State *L)
{
  return luaL_error(L, "tasks: this optlab is built without MPI");
}
#define task_send nompi
#define task_recv nompi
#define task_probe nompi
#define task_bcast nompi
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
    {"task_chains", task_chains},
    {"task_send", task_send},
    {"task_recv", task_recv},
    {"task_probe", task_probe},
    {"task_bcast", task_bcast},
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
