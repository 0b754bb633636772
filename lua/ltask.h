/*
** lua/ltask.h -- bulk operations as independent tasks (lua/ltask.c,
** lua/tasks.lua): the process's task mode (one process, a scheduler's
** slice K of N, gathering slices back, or an Open MPI rank), and the
** primitives the Lua side schedules with.
*/
#ifndef LTASK_H
#define LTASK_H

#include "lbind.h"

/* Task modes of the process, set once by the program before the library
** opens (repl/main.c: --tasks K/N --dir DIR, --gather DIR). */
enum { OLUA_TASKS_ONE, OLUA_TASKS_SLICE, OLUA_TASKS_GATHER,
       OLUA_TASKS_MPI };

/* Start MPI when the program was launched by mpirun (Open MPI's
** launcher sets OMPI_COMM_WORLD_SIZE) in a build with MPI; a no-op
** otherwise.  Then ranks other than 0 write nothing to stdout.  Returns
** 0, or -1 with a message in msg when MPI does not start. */
int olua_task_init (int *argc, char ***argv, char *msg, size_t msglen);
/* The slice mode (k in 1..n; dir made with its parents when missing) or
** the gather mode (n == 0; dir must be a directory; partial: results
** with tasks missing are used, --partial), results in dir (kept, not
** copied: argv's).  Returns -1 with msg when MPI runs or dir will not
** do. */
int olua_task_config (int k, int n, const char *dir, int partial, char *msg,
                      size_t msglen);
/* Finish MPI (after the state is closed); a no-op without it. */
void olua_task_fini (int failed);
/* 1 when this process must write no file and print nothing (a rank > 0,
** a slice): olua_checkfilename and save_draws write to /dev/null. */
int olua_task_quiet (void);
/* 1 on rank 0 of an mpirun job of several ranks. */
int olua_task_mpi0 (void);
/* optlab.rank and optlab.size on the module table (global optlab). */
void olua_task_publish (lua_State *L);
/* lua/lsample.c: chain c (0-based) of a multi-chain run, made and
** pushed, not stepped (problem at 1, method at 2; xs: n doubles); and
** the table on top made a chains object. */
lrun *olua_mkchain (lua_State *L, const ropts *ro, int c, double *xs);
void olua_setchains (lua_State *L);
/* run(p, sampler, opts) with opts.chains > 1 (at 1, 2, 3) in a task
** mode other than one: the chains as tasks (core.chains_bulk), pushed,
** returns 1; 0 (nothing pushed) in the one-process mode. */
int olua_task_chains (lua_State *L);
/* race(problem, methods, opts) at 1..3, its race object at rt with the
** runs made: in a task mode other than one, each run a task (tasks.lua's
** core.race_bulk) and 1 returned, the runs in rt replaced by the
** finished ones; 0 (nothing done) in one process. */
int olua_task_race (lua_State *L, int rt);
/* core.task_*: the primitives of lua/tasks.lua (core table on top). */
void olua_opentask (lua_State *L);

#endif
