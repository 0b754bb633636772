/*
** repl/main.c -- the optlab program: arguments, the Lua state, scripts,
** chunks, stdin, and SIGINT handling; modelled on Lua's lua.c.
**
**   optlab [options] [script [args]]
**
** main creates the state and runs pmain under lua_pcall, so every error
** (memory included) is reported; exit happens only here, after lua_close
** has run every __gc (the live view restores the terminal in its close
** hook before that).  While a chunk runs (repl_docall) SIGINT sets the
** binding's interrupt flag, which run/race poll between slices, and, as
** lua.c's laction, arms a count hook that raises "interrupted!" in plain
** Lua code if the flag is still set when the hook fires, in the main
** thread and in the thread of a Lua objective running at that moment
** (olua_cbthread), so `while true do end` in an objective is
** interrupted as it would be at the top level.  The core's
** ol_intr points at the same flag, for builds that are not stepped
** (problem.quadratic{n=4096}).
*/
#include <cblas.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

#include "repl.h"
#include "lesson.h"
#include "log.h"
#include "ltask.h"

static const char *progname = "optlab";
static lua_State *globalL = NULL;
static volatile sig_atomic_t intrflag = 0;
static lua_State *volatile *cbthread = NULL;  /* olua_cbthread */
static lua_State *volatile *cothreads = NULL; /* olua_cothreads */
static volatile int *conth = NULL;

static const char usage_text[] =
  "usage: optlab [options] [script [args]]\n"
  "Available options are:\n"
  "  -e chunk   execute string 'chunk'\n"
  "  -i         enter interactive mode after executing 'script'\n"
  "  -v         write a debug log to $OPTLAB_LOG or ./optlab.log\n"
  "  --no-tui   never open the live view (progress lines instead)\n"
  "  --ascii    no braille or Unicode in the live view\n"
  "  --lesson   run 'script' section by section (sections begin at lines\n"
  "             '-- %%'): space next, backspace back, q quit\n"
  "  --tasks K/N --dir DIR  compute slice K of N of every bulk operation\n"
  "             (repeats, sweep, race, chains) into DIR, print nothing\n"
  "  --gather DIR  read every bulk operation's results from DIR; with a\n"
  "             task missing, name it and exit 1\n"
  "  --partial  with --gather: use the tasks there when some are missing\n"
  "  --version  show version information\n"
  "  --help     show this help\n"
  "  --         stop handling options\n"
  "  -          stop handling options and execute stdin\n"
  "Without a script: interactive if stdin is a terminal, else stdin is\n"
  "read and run as one chunk.\n";

static void message (const char *msg)
{
  fprintf(stderr, "%s: %s\n", progname, msg);
  fflush(stderr);
}

/* The flag: 0, 1 when a Ctrl-C came, 2 once an operation (run, race,
** repeats, j:wait...) stopped for it and returned what it has.  It is
** cleared only when the statement typed at the prompt, the -e chunk or the
** script is over (repl_docall), so one Ctrl-C stops the whole statement:
** later operations of it raise "interrupted!" before they start
** (olua_checkintr), runs nested in callbacks included, and the core's
** long loops (ol_interrupted) stop at once.
**
** Hook armed by the SIGINT handler: raise only while the flag is 1 (an
** operation that stopped for it made it 2 and returns normally, so that
** `r = run(...)` keeps the run). */
static void lstop (lua_State *L, lua_Debug *ar)
{
  (void)ar;
  lua_sethook(L, NULL, 0, 0);
  if (intrflag == 1) luaL_error(L, "interrupted!");
}

/* Arm hook h (mask, count) on the thread of the Lua callback running now
** and on every coroutine being resumed (hooks are per thread; lua_sethook
** is safe in a signal handler, as lua.c relies on). */
static void arm (lua_Hook h, int mask, int count)
{
  lua_State *T = cbthread != NULL ? *cbthread : NULL;
  int i, n = conth != NULL ? *conth : 0;
  if (T != NULL && T != globalL) lua_sethook(T, h, mask, count);
  if (n > OLUA_MAXCO) n = OLUA_MAXCO;
  for (i = 0; i < n; i++)
    if (cothreads[i] != NULL) lua_sethook(cothreads[i], h, mask, count);
}

/* When the first Ctrl-C not yet answered by a fresh prompt came (for the
** debug log: repl_intr_answered). */
static struct timespec mark_t0;
static volatile sig_atomic_t marked;

void repl_intr_mark (void)
{
  if (marked) return;
  clock_gettime(CLOCK_MONOTONIC, &mark_t0);
  marked = 1;
}

/* SIGINT while a chunk runs: set the flag and arm the hook in the main
** thread, the callback's and the coroutines'. */
static void laction (int sig)
{
  (void)sig;
  repl_intr_mark();
  intrflag = 1;
  if (globalL != NULL)
    lua_sethook(globalL, lstop, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT,
                1);
  arm(lstop, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* -- Ctrl-C while the prompt steps background jobs ------------------------ */

/* Between keystrokes the prompt steps its jobs (olua_jobs_tick) with the
** flag pointing here too: a Ctrl-C there ends the current slice at once
** (its next chunk) and is then handled as at the prompt (the line dropped,
** or on an empty line every job stopped).  A job's callback that is still
** running TICKGRACE seconds after the Ctrl-C (a loop without end, or a
** callback slower than the prompt may wait) is interrupted by the hook
** below, and its job stops with reason "interrupted". */
#define TICKGRACE 0.02
static struct timespec tick_t0;

static double since (const struct timespec *t0)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec
                                                           - t0->tv_nsec);
}

static void ltick (lua_State *L, lua_Debug *ar)
{
  (void)ar;
  if (intrflag == 0) {
    lua_sethook(L, NULL, 0, 0);
    return;
  }
  if (since(&tick_t0) >= TICKGRACE) {
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "interrupted!");
  }
}

void repl_intr_tick (int on)
{
  intrflag = 0;
  (void)on;
}

double repl_intr_answered (void)
{
  double ms;
  if (!marked) return -1;
  ms = 1e3 * since(&mark_t0);
  marked = 0;
  return ms;
}

void repl_intr_tick_signal (void)
{
  if (intrflag) return;
  clock_gettime(CLOCK_MONOTONIC, &tick_t0);
  intrflag = 1;
  arm(ltick, LUA_MASKCOUNT, 1000);
}

/* tostring and print as Lua's, but a NaN reads "nan" whatever its sign
** bit (x86's 0/0 is a negative NaN, which Lua's "%.14g" writes "-nan").
** Installed before the optlab library loads, so its Lua files, which
** capture the globals they use, see these. */
static const char *tostr (lua_State *L, int i, size_t *len)
{
  if (lua_type(L, i) == LUA_TNUMBER && isnan(lua_tonumber(L, i))) {
    lua_pushliteral(L, "nan");
    *len = 3;
    return "nan";
  }
  return luaL_tolstring(L, i, len);
}

static int l_tostring (lua_State *L)
{
  size_t len;
  luaL_checkany(L, 1);
  tostr(L, 1, &len);
  return 1;
}

static int l_print (lua_State *L)
{
  int n = lua_gettop(L), i;
  for (i = 1; i <= n; i++) {
    size_t len;
    const char *s = tostr(L, i, &len);
    if (i > 1) lua_writestring("\t", 1);
    lua_writestring(s, len);
    lua_pop(L, 1);
  }
  lua_writeline();
  return 0;
}

/* Run the function below its narg arguments under the traceback handler;
** SIGINT handled (see above) only for the duration of the call. */
int repl_docall (lua_State *L, int narg, int nres)
{
  struct sigaction sa, old;
  int status, base = lua_gettop(L) - narg;
  lua_pushcfunction(L, olua_msghandler);
  lua_insert(L, base);
  globalL = L;
  intrflag = 0;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = laction;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old);
  status = lua_pcall(L, narg, nres, base);
  sigaction(SIGINT, &old, NULL);
  lua_sethook(L, NULL, 0, 0);
  intrflag = 0;
  lua_remove(L, base);
  return status;
}

/* Report a failed status's message on stderr and pop it. */
int repl_report (lua_State *L, int status)
{
  if (status != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    message(msg ? msg : "(error object is not a string)");
    lua_pop(L, 1);
  }
  return status;
}

static void print_version (void)
{
  printf("optlab %s (%s)\n", OL_VERSION, LUA_RELEASE);
  fflush(stdout);
}

/* The global 'arg': script at 0, its arguments at 1.., options and the
** program name at negative indices (as lua.c). */
static void createargtable (lua_State *L, char **argv, int argc, int script)
{
  int i, narg;
  if (script == argc) script = 0;
  narg = argc - (script + 1);
  lua_createtable(L, narg, script + 1);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - script);
  }
  lua_setglobal(L, "arg");
}

static int dochunk (lua_State *L, int status)
{
  if (status == LUA_OK) status = repl_docall(L, 0, 0);
  return repl_report(L, status);
}

/* Push the script's arguments (arg[1..]) and run it; fname NULL: stdin. */
static int handle_script (lua_State *L, const char *fname)
{
  int status = luaL_loadfile(L, fname);
  if (status == LUA_OK) {
    int n, i;
    if (lua_getglobal(L, "arg") != LUA_TTABLE)
      return luaL_error(L, "'arg' is not a table");
    n = (int)luaL_len(L, -1);
    luaL_checkstack(L, n + 3, "too many arguments to script");
    for (i = 1; i <= n; i++) lua_rawgeti(L, -i, i);
    lua_remove(L, -i);
    status = repl_docall(L, n, 0);
  }
  return repl_report(L, status);
}

/* Parsed command line. */
typedef struct cli {
  repl_opts o;
  int interactive;       /* -i */
  int has_e;             /* some -e */
  int script;            /* index of the script in argv (argc: none) */
  int stdin_script;      /* "-" */
  int version, help;
  int task_k, task_n;    /* --tasks K/N (0/0: none) */
  const char *task_dir;  /* --dir DIR */
  const char *gather;    /* --gather DIR */
  int partial;           /* --partial */
  int lesson;            /* --lesson: the script runs section by section */
} cli;

/* "K/N" with 1 <= K <= N -> 0, else -1. */
static int slicearg (const char *a, int *k, int *n)
{
  char *end;
  long kk = strtol(a, &end, 10), nn;
  if (end == a || *end != '/') return -1;
  a = end + 1;
  nn = strtol(a, &end, 10);
  if (end == a || *end != '\0' || kk < 1 || nn < kk || nn > 1000000)
    return -1;
  *k = (int)kk;
  *n = (int)nn;
  return 0;
}

/* Returns 0, or -1 with a message for a bad option at argv[*bad]. */
static int collectargs (char **argv, int argc, cli *c, int *bad)
{
  int i;
  c->script = argc;
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-') {
      c->script = i;
      return 0;
    }
    if (strcmp(a, "-") == 0) {
      c->script = i;
      c->stdin_script = 1;
      return 0;
    }
    if (strcmp(a, "--") == 0) {
      c->script = i + 1;
      return 0;
    }
    if (strcmp(a, "-e") == 0) {
      if (i + 1 >= argc) {
        *bad = i;
        return -1;
      }
      c->has_e = 1;
      i++;
    }
    else if (strcmp(a, "-i") == 0) c->interactive = 1;
    else if (strcmp(a, "-v") == 0) c->o.verbose = 1;
    else if (strcmp(a, "--no-tui") == 0) c->o.notui = 1;
    else if (strcmp(a, "--ascii") == 0) c->o.ascii = 1;
    else if (strcmp(a, "--lesson") == 0) c->lesson = 1;
    else if (strcmp(a, "--version") == 0) c->version = 1;
    else if (strcmp(a, "--tasks") == 0 || strcmp(a, "--dir") == 0 ||
             strcmp(a, "--gather") == 0) {
      if (i + 1 >= argc || (a[2] == 't' &&
          slicearg(argv[i + 1], &c->task_k, &c->task_n) != 0)) {
        *bad = i;
        return -1;
      }
      if (a[2] == 'd') c->task_dir = argv[i + 1];
      if (a[2] == 'g') c->gather = argv[i + 1];
      i++;
    }
    else if (strcmp(a, "--partial") == 0) c->partial = 1;
    else if (strcmp(a, "--help") == 0) c->help = 1;
    else {
      *bad = i;
      return -1;
    }
  }
  return 0;
}

/* Run the -e chunks in order. */
static int runargs (lua_State *L, char **argv, int n)
{
  int i;
  for (i = 1; i < n; i++)
    if (strcmp(argv[i], "-e") == 0) {
      i++;
      if (dochunk(L, luaL_loadbuffer(L, argv[i], strlen(argv[i]),
                                     "=(command line)")) != LUA_OK)
        return 0;
    }
  return 1;
}

/* Everything else, in protected mode: argv at 2 (light userdata). */
static int pmain (lua_State *L)
{
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  cli c;
  int bad = 0;
  memset(&c, 0, sizeof c);
  if (argv[0] && argv[0][0]) progname = "optlab";
  if (collectargs(argv, argc, &c, &bad) != 0) {
    if (strcmp(argv[bad], "-e") == 0)
      fprintf(stderr, "%s: '-e' needs an argument\n", progname);
    else if (strcmp(argv[bad], "--tasks") == 0)
      fprintf(stderr, "%s: '--tasks' needs K/N with 1 <= K <= N\n",
              progname);
    else if ((strcmp(argv[bad], "--dir") == 0 ||
              strcmp(argv[bad], "--gather") == 0) && bad + 1 >= argc)
      fprintf(stderr, "%s: '%s' needs a directory\n", progname, argv[bad]);
    else fprintf(stderr, "%s: unrecognized option '%s'\n", progname,
                 argv[bad]);
    fputs(usage_text, stderr);
    return 0;
  }
  if (c.help) {
    fputs(usage_text, stdout);
    lua_pushboolean(L, 1);
    return 1;
  }
  if (c.version) {
    print_version();
    lua_pushboolean(L, 1);
    return 1;
  }
  /* bulk operations in slices (--tasks K/N --dir DIR) or read back
  ** (--gather DIR): lua/tasks.lua */
  if ((c.task_n > 0) != (c.task_dir != NULL) ||
      (c.task_n > 0 && c.gather != NULL)) {
    message("give --tasks K/N with --dir DIR, or --gather DIR alone");
    return 0;
  }
  if (c.partial && c.gather == NULL) {
    message("--partial goes with --gather DIR (it uses the results there "
            "when tasks are missing)");
    return 0;
  }
  if (c.task_n > 0 || c.gather != NULL) {
    char msg[512];
    if (olua_task_config(c.task_k, c.task_n, c.task_n > 0 ? c.task_dir
                         : c.gather, c.partial, msg, sizeof msg) != 0) {
      message(msg);
      return 0;
    }
    c.o.notui = 1;
  }
  /* One BLAS thread unless the user asked otherwise: on the small
  ** problems optlab mostly runs, OpenBLAS's threads cost more than they
  ** give (help(blas_threads)). */
  if (getenv("OPENBLAS_NUM_THREADS") == NULL &&
      getenv("OMP_NUM_THREADS") == NULL)
    openblas_set_num_threads(1);
  repl_log_open(&c.o);
  repl_log("optlab %s starting", OL_VERSION);
  luaL_checkversion(L);
  /* generational mode set while the heap is empty: the switch runs a
  ** full collection, which after the library is loaded cost a twentieth
  ** of the start-up (the collector stays stopped until below) */
  lua_gc(L, LUA_GCGEN, 0, 0);
  luaL_openlibs(L);
  lua_register(L, "tostring", l_tostring);
  lua_register(L, "print", l_print);
  luaL_requiref(L, "optlab", luaopen_optlab, 1);
  lua_pop(L, 1);
  olua_task_publish(L);
  olua_setintr(L, &intrflag);
  cbthread = olua_cbthread(L);
  cothreads = olua_cothreads(L, &conth);
  ol_intr = &intrflag;                 /* long core builds poll it too */
  c.o.mpitty = olua_task_mpi0();
  if (!c.o.notui && (isatty(STDOUT_FILENO) || c.o.mpitty))
    olua_setview(L, repl_view(&c.o));
  olua_setlesson(L, repl_lesson_hooks(&c.o));
  createargtable(L, argv, argc, c.script);
  lua_gc(L, LUA_GCRESTART);
  if (!runargs(L, argv, c.script)) return 0;
  if (c.lesson && (c.script >= argc || c.stdin_script)) {
    message("'--lesson' needs a script file");
    return 0;
  }
  if (c.script < argc) {
    if (c.lesson ? repl_lesson_run(L, argv[c.script], &c.o) != LUA_OK
        : handle_script(L, c.stdin_script ? NULL : argv[c.script]) != LUA_OK)
      return 0;
  }
  if (c.interactive) {
    print_version();
    repl_loop(L, &c.o);
  }
  else if (c.script == argc && !c.has_e) {
    if (isatty(STDIN_FILENO)) {
      print_version();
      repl_loop(L, &c.o);
    }
    else if (dochunk(L, luaL_loadfile(L, NULL)) != LUA_OK) return 0;
  }
  lua_pushboolean(L, 1);
  return 1;
}

int main (int argc, char **argv)
{
  int status, result;
  char msg[160];
  lua_State *L;
  /* under mpirun, MPI first (it may take its own arguments) */
  if (olua_task_init(&argc, &argv, msg, sizeof msg) != 0) {
    message(msg);
    return EXIT_FAILURE;
  }
  L = luaL_newstate();
  if (L == NULL) {
    message("cannot create state: not enough memory");
    return EXIT_FAILURE;
  }
  lua_gc(L, LUA_GCSTOP);
  lua_pushcfunction(L, pmain);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  status = lua_pcall(L, 2, 1, 0);
  result = lua_toboolean(L, -1);
  repl_report(L, status);
  lua_close(L);
  repl_log_close();
  olua_task_fini(!(result && status == LUA_OK));
  return (result && status == LUA_OK) ? EXIT_SUCCESS : EXIT_FAILURE;
}
