/*
** tests/fuzz/fuzz.c -- libFuzzer harness: each input becomes a list of Lua
** statements calling optlab's whole API, run in-process as at the prompt.
**
** An input is either bytes for the grammar of tests/fuzz/gen.lua (which
** reads the API from a Lua state with optlab opened -- every family and
** method with its parameter table, every problem type, every global entry
** point and helper table -- and turns the bytes into statements over all
** of it, with user callbacks that error, loop, return garbage, re-enter
** and yield), or, when it starts with "--lua\n", Lua source with one
** statement per line (how seeds and crash reproductions are written).
**
** Each input gets a fresh lua_State with the standard libraries and
** optlab opened as repl/main.c opens them, with no view (headless) unless
** a statement installs the fake one below.  The statements run one after
** another, each loaded as its own chunk under lua_pcall, like lines typed
** at the prompt; globals persist between them.  Lines "--@<op> <arg>"
** are harness actions between statements, standing for what the program
** does between keystrokes:
**   --@tick N   step the jobs N steps each (olua_jobs_tick), then read
**               the job list as the dashboard does
**   --@ctl I K  olua_jobs_ctl(I, K): the dashboard's pause/resume/step/
**               stop keys on job I (0: all)
**   --@view K   install the fake view of mode K (0: none)
**   --@intr MS  a Ctrl-C MS ms (CPU time) into the next statement (the
**               interrupt flag and count hook of repl/main.c)
**   --@long     this input gets LONG_INSNS and LONG_MS instead (the
**               grammar makes one input in 64 long, with larger sizes
**               and budgets)
**
** Bounds per input: a count hook raises "fuzz: budget, interrupted!" after
** LIMIT_INSNS Lua instructions (in every thread: threads inherit the
** hook; worded as a Ctrl-C, so that what optlab lets through as one --
** grad's tracer re-raises an interrupt and takes any other error in f as
** untraceable -- lets the budget through too: as "fuzz: budget", a
** tracer's fallback caught it at every level of nested grad calls and the
** input ran on for seconds, a false hang), a timer
** delivers a Ctrl-C every 10 ms once DEADLINE_MS have passed and the hook
** then raises at every instruction, so C loops that poll the interrupt
** flag stop too, and a statement still running HANG_MS after that is
** reported as a hang ("fuzz: Ctrl-C ignored", abort: the input is kept);
** both are CPU time of the thread that runs the statements, not wall time,
** so a loaded machine (CI beside other jobs, a run at nice 19) neither
** cuts inputs short nor reports a starved statement as a hang, and a
** factorisation left to finish on its own thread after a Ctrl-C
** (core/bg.h) is not charged to the inputs that follow;
** the Lua heap is capped at LIMIT_HEAP bytes by the allocator, and C
** allocations above 256 MB fail (ASAN_OPTIONS defaults below) so oversized
** problems meet their out-of-memory paths.  libFuzzer's -timeout and
** -rss_limit_mb (set by `make fuzz`) catch the rest.  The bounds are small
** (an input costs ~2-60 ms under ASan) so that a run reaches many inputs;
** the deadline's Ctrl-Cs are themselves part of what is fuzzed.
** Files that statements write (r:save, plot{file=}) go to the directory
** $OPTLAB_FUZZ_DIR (default: a fresh one under $TMPDIR), the working
** directory while an input runs.  OPTLAB_FUZZ_SHOW=1 prints each
** statement and its error on stderr (to turn a crash into a reproduction);
** OPTLAB_FUZZ_LEAKS=1 runs LeakSanitizer after every input (slow; to find
** the input that leaked when a report names another);
** OPTLAB_FUZZ_SKIP (Lua patterns, one a line) leaves out the statements
** that match one, generated or in --lua inputs (to fuzz past a known
** defect).
*/
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>

#include <cblas.h>

#include "lua.h"
#include "lauxlib.h"
#include "lualib.h"

#include "optlab.h"
#include "method.h"
#include "metrics.h"
#include "problem.h"

#define LIMIT_INSNS  400000L          /* Lua instructions per input */
#define DEADLINE_MS  10               /* CPU time before the Ctrl-Cs */
#define LONG_INSNS   5000000L         /* the same for a --@long input */
#define LONG_MS      50
#define LIMIT_HEAP   (96u << 20)      /* bytes of Lua heap per input */
#define HANG_MS      2000             /* Ctrl-Cs ignored this long: a hang */
#define HOOK_COUNT   1000
#define MAXSTMTS     64

static const char gen_src[] = {
#include "gen.inc"
  0
};

/* -- per-input state ------------------------------------------------------ */

static lua_State *curL;                      /* NULL between inputs */
static volatile sig_atomic_t intrflag;       /* optlab's interrupt flag */
static volatile sig_atomic_t expired;        /* deadline passed */
static volatile sig_atomic_t armed;          /* the count-1 hook is on */
static long insns;
static long lim_insns, deadline_ms;          /* this input's bounds */
static size_t heap;
static timer_t timer;
static int show;
static int leakcheck;                        /* OPTLAB_FUZZ_LEAKS */
static int viewmode;
static long viewframes;
static int intr_ms = -1;                     /* pending --@intr */
static volatile sig_atomic_t rearm;          /* deadline after the intr */
static char origdir[4096], workdir[4096];
static const char *curstmt;                  /* the statement running */
static size_t curlen;
static lua_State *G;                         /* the grammar's own state */

static void hook (lua_State *L, lua_Debug *ar);

static void sethook (lua_State *L, int count)
{
  lua_sethook(L, hook, LUA_MASKCOUNT | (count == 1 ? LUA_MASKCALL |
              LUA_MASKRET : 0), count);
}

/* Budget and Ctrl-C: after expiry every hook call raises, as a Ctrl-C
** (the message ends in "interrupted!"); a Ctrl-C raises once, if the flag
** is still set (run and race clear it when they stop for it), as lstop in
** repl/main.c. */
static void hook (lua_State *L, lua_Debug *ar)
{
  (void)ar;
  insns += armed ? 1 : HOOK_COUNT;
  if (insns > lim_insns) expired = 1;
  if (expired) luaL_error(L, "fuzz: budget, interrupted!");
  if (armed) {
    armed = 0;
    sethook(L, HOOK_COUNT);
    if (intrflag) {
      intrflag = 0;
      luaL_error(L, "interrupted!");
    }
  }
}

/* The timer: a Ctrl-C (flag and count-1 hook on the main thread), and
** after the deadline one every 10 ms, so polling loops stop as well. */
static void settimer (long first_ms, long every_ms)
{
  struct itimerspec its;
  memset(&its, 0, sizeof its);
  its.it_value.tv_sec = first_ms / 1000;
  its.it_value.tv_nsec = (first_ms % 1000) * 1000000L;
  if (first_ms == 0 && every_ms == 0) its.it_value.tv_nsec = 0;
  else if (first_ms == 0) its.it_value.tv_nsec = 1;
  its.it_interval.tv_sec = every_ms / 1000;
  its.it_interval.tv_nsec = (every_ms % 1000) * 1000000L;
  timer_settime(timer, 0, &its, NULL);
}

static long elapsed_ms (void);

static void say (const char *s, size_t n)
{
  while (n > 0) {
    ssize_t k = write(STDERR_FILENO, s, n);
    if (k <= 0) return;
    s += k;
    n -= (size_t)k;
  }
}

/* Ctrl-C unanswered for HANG_MS: report the statement and abort, so the
** input is kept as a crash ("fuzz: Ctrl-C ignored"). */
static void hang (void)
{
  static const char m[] = "fuzz: Ctrl-C ignored for 2 s of CPU time in: ";
  settimer(0, 0);              /* no second report while this one runs */
  say(m, sizeof m - 1);
  if (curstmt != NULL) say(curstmt, curlen > 400 ? 400 : curlen);
  say("\n", 1);
  abort();
}

static void ontimer (int sig)
{
  long t;
  (void)sig;
  t = elapsed_ms();
  if (t >= deadline_ms) expired = 1;
  if (t >= deadline_ms + HANG_MS && curL != NULL) hang();
  if (rearm) {
    rearm = 0;
    settimer(t < deadline_ms ? deadline_ms - t : 1, 10);
  }
  intrflag = 1;
  if (curL != NULL) {
    armed = 1;
    sethook(curL, 1);
  }
}

static struct timespec t0;
static clockid_t cpuclock;     /* the statements' thread's CPU clock */

static long elapsed_ms (void)
{
  struct timespec t;
  clock_gettime(cpuclock, &t);
  return (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
}

/* The deadline, or a pending --@intr before it. */
static void armtimer (void)
{
  long left = deadline_ms - elapsed_ms();
  if (left < 1) left = 1;
  if (intr_ms >= 0 && intr_ms < left) {
    rearm = 1;
    settimer(intr_ms > 0 ? intr_ms : 1, 0);
    intr_ms = -1;
  }
  else {
    rearm = 0;
    settimer(left, 10);
  }
}

/* The Lua heap of an input is carved from an arena: each block is
** followed by a poisoned redzone of at least 16 bytes, a freed block is
** poisoned and never handed out again within the input, and the arena
** starts over at the next input.  So ASan sees an overflow of a Lua
** object (userdata the binding writes included) and a use after free as
** it does with malloc, while a block costs a pointer bump instead of
** ASan's allocator with its stack unwinding and quarantine, a third of
** an input's time when every Lua object went through it.  Past ARENA
** bytes in one input, blocks come from malloc. */
#define ARENA (256u << 20)
static char *arena;
static size_t arena_top;                     /* bytes handed out */

static int inarena (const void *p)
{
  return arena != NULL && (const char *)p >= arena
         && (const char *)p < arena + ARENA;
}

static void *arena_get (size_t n)
{
  size_t step = ((n + 15) & ~(size_t)15) + 16;
  size_t at = __atomic_fetch_add(&arena_top, step, __ATOMIC_RELAXED);
  if (arena == NULL || at + step > ARENA) return NULL;
  ASAN_UNPOISON_MEMORY_REGION(arena + at, n);
  return arena + at;
}

static void arena_put (void *p, size_t n)
{
  if (inarena(p)) ASAN_POISON_MEMORY_REGION(p, n);
  else free(p);
}

static void arena_reset (void)
{
  size_t top = arena_top < ARENA ? arena_top : ARENA;
  if (arena != NULL) ASAN_POISON_MEMORY_REGION(arena, top);
  arena_top = 0;
}

/* Lua heap capped at LIMIT_HEAP: over it, Lua raises "not enough memory". */
static void *alloc (void *ud, void *ptr, size_t osize, size_t nsize)
{
  void *q;
  (void)ud;
  if (ptr == NULL) osize = 0;
  if (nsize == 0) {
    if (ptr != NULL) arena_put(ptr, osize);
    heap -= osize;
    return NULL;
  }
  if (nsize > osize && heap + (nsize - osize) > LIMIT_HEAP) return NULL;
  if (ptr != NULL && nsize <= osize && inarena(ptr)) {
    ASAN_POISON_MEMORY_REGION((char *)ptr + nsize, osize - nsize);
    heap -= osize - nsize;
    return ptr;
  }
  q = arena_get(nsize);
  if (q == NULL && (ptr == NULL || !inarena(ptr))) q = realloc(ptr, nsize);
  else if (q == NULL) q = malloc(nsize);
  if (q == NULL) return NULL;
  if (ptr != NULL && q != ptr && (inarena(ptr) || inarena(q))) {
    memcpy(q, ptr, osize < nsize ? osize : nsize);
    arena_put(ptr, osize);
  }
  heap += nsize - osize;
  return q;
}

/* -- the fake view: exercises the binding's view driving, headless -------- */

/* Read everything a view is handed, so a stale pointer shows under ASan. */
static size_t touch (const olua_live *lv)
{
  size_t s = 0;
  int i;
  for (i = 0; i < lv->nruns; i++) {
    s += (size_t)ol_run_iter(lv->runs[i]) + (size_t)ol_run_len(lv->runs[i]);
    s += (size_t)ol_run_n(lv->runs[i]);
    if (lv->labels != NULL && lv->labels[i] != NULL)
      s += strlen(lv->labels[i]);
  }
  for (i = 0; i < lv->nwatch; i++) s += (size_t)lv->watch[i];
  if (lv->title != NULL) s += strlen(lv->title);
  return s + (size_t)lv->iters + (size_t)lv->xaxis;
}

static volatile size_t sink;

static int view_open (void *ud, const olua_live *lv)
{
  (void)ud;
  sink = touch(lv);
  viewframes = 0;
  return viewmode == 2;              /* mode 2 declines: progress lines */
}

/* Mode 1: 1..k steps per frame; 3: paused for the first frame, then on
** (a paused frame makes the driver sleep 10 ms: idle time, so one is
** enough to take that path); 4: quits after a few frames (q); always quits
** once expired. */
static long view_frame (void *ud, const olua_live *lv)
{
  (void)ud;
  sink = touch(lv);
  viewframes++;
  if (expired) return -1;
  switch (viewmode) {
  case 3: return viewframes < 2 ? 0 : 7;
  case 4: return viewframes > 3 ? -1 : 1;
  case 5: return 1L << 40;
  default: return 1 + viewframes % 13;
  }
}

static void view_close (void *ud, const olua_live *lv)
{
  (void)ud;
  sink = touch(lv);
}

static const olua_view fakeview = {NULL, view_open, view_frame, view_close,
                                   NULL};

/* -- harness actions ------------------------------------------------------- */

static void action (lua_State *L, const char *s)
{
  long a = 0, b = 0;
  char op[16];
  if (sscanf(s, "--@%15s %ld %ld", op, &a, &b) < 1) return;
  if (strcmp(op, "tick") == 0) {
    olua_job list[80];
    int n, i, k;
    olua_jobs_tick(L, 0.002, a < 1 ? 1 : a > 64 ? 64 : a);
    n = olua_jobs_list(L, list, 80);
    for (i = 0; i < n; i++) sink = touch(&list[i].live) + (size_t)list[i].id;
    k = olua_jobs_count(L, &i);
    sink += (size_t)(k + i);
  }
  else if (strcmp(op, "ctl") == 0)
    olua_jobs_ctl(L, (int)a, (int)(b < 0 ? -b : b) % 5);
  else if (strcmp(op, "view") == 0) {
    viewmode = (int)(a < 0 ? -a : a) % 6;
    olua_setview(L, viewmode ? &fakeview : NULL);
  }
  else if (strcmp(op, "intr") == 0) intr_ms = a < 0 ? 0 : a % 200;
  else if (strcmp(op, "long") == 0) {
    lim_insns = LONG_INSNS;
    deadline_ms = LONG_MS;
  }
}

/* Run one statement as a chunk, as the prompt runs a line. */
static void statement (lua_State *L, const char *s, size_t len)
{
  int st;
  if (len >= 3 && strncmp(s, "--@", 3) == 0) {
    if (show) fprintf(stderr, "%.*s\n", (int)len, s);
    action(L, s);
    return;
  }
  if (show) fprintf(stderr, "[%ld ms] %.*s\n", elapsed_ms(), (int)len, s);
  curstmt = s;
  curlen = len;
  armtimer();
  lua_pushcfunction(L, olua_msghandler);
  st = luaL_loadbuffer(L, s, len, "=(fuzz)");
  if (st == LUA_OK) st = lua_pcall(L, 0, 0, -2);
  if (show) {
    if (st != LUA_OK) {
      const char *m = lua_tostring(L, -1);
      fprintf(stderr, "  -> error: %.300s\n", m ? m : "(not a string)");
    }
  }
  lua_settop(L, 0);
}

/* Remove what could touch the machine outside the work directory (a
** mutated Lua input could spell os.execute); io.open (race:save uses it)
** only opens plain names in it. */
static const char safeopen[] =
  "local open, find = io.open, string.find\n"
  "io.open = function (name, mode)\n"
  "  if type(name) == 'string' and (find(name, '/', 1, true)\n"
  "     or find(name, '..', 1, true)) then\n"
  "    return nil, name .. ': outside the fuzz directory'\n"
  "  end\n"
  "  return open(name, mode)\n"
  "end\n";

static void unsafe (lua_State *L)
{
  static const char *const os[] = {"execute", "exit", "remove", "rename",
                                   "tmpname", "getenv", NULL};
  static const char *const io[] = {"popen", "lines", "input", "output",
                                   NULL};
  int i;
  lua_getglobal(L, "os");
  for (i = 0; os[i] != NULL; i++) {
    lua_pushnil(L);
    lua_setfield(L, -2, os[i]);
  }
  lua_getglobal(L, "io");
  for (i = 0; io[i] != NULL; i++) {
    lua_pushnil(L);
    lua_setfield(L, -2, io[i]);
  }
  lua_pop(L, 2);
  lua_pushnil(L);
  lua_setglobal(L, "dofile");
  lua_pushnil(L);
  lua_setglobal(L, "loadfile");
  lua_pushnil(L);
  lua_setglobal(L, "require");
  if (luaL_dostring(L, safeopen) != LUA_OK) abort();
}

/* ASan defaults (ASAN_OPTIONS still overrides): oversized C allocations
** fail with NULL, so they take the core's out-of-memory paths. */
const char *__asan_default_options (void);
const char *__asan_default_options (void)
{
  return "allocator_may_return_null=1:max_allocation_size_mb=256:"
         "malloc_context_size=16:quarantine_size_mb=64";
}

/* UBSan: a stack with every report (the first is fatal: the build has
** -fno-sanitize-recover). */
const char *__ubsan_default_options (void);
const char *__ubsan_default_options (void)
{
  return "print_stacktrace=1:halt_on_error=1";
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* One line on stderr: what the grammar found in the API (the info table
** gen.lua returns beside generate), so a log shows the surface fuzzed. */
static void summary (lua_State *L)
{
  static const char code[] =
    "local i = ...\n"
    "local e = {}\n"
    "for _, x in ipairs(i.entries) do e[#e + 1] = x.path end\n"
    "return string.format('fuzz: grammar over %d methods in %d families "
    "(%s), %d problem types, %d entry points (%s), math additions (%s)', "
    "i.methods, #i.families, table.concat(i.families, ' '), i.problems, #e, "
    "table.concat(e, ' '), table.concat(i.mathx, ' '))\n";
  if (luaL_loadstring(L, code) != LUA_OK) abort();
  lua_pushvalue(L, -2);
  if (lua_pcall(L, 1, 1, 0) == LUA_OK)
    fprintf(stderr, "%s\n", lua_tostring(L, -1));
  lua_pop(L, 1);
}

int LLVMFuzzerInitialize (int *argc, char ***argv)
{
  struct sigevent sev;
  struct sigaction sa;
  const char *dir = getenv("OPTLAB_FUZZ_DIR");
  (void)argc;
  (void)argv;
  show = getenv("OPTLAB_FUZZ_SHOW") != NULL;
  leakcheck = getenv("OPTLAB_FUZZ_LEAKS") != NULL;
  openblas_set_num_threads(1);   /* before the API is read: no spinning pool */
  arena = mmap(NULL, ARENA, PROT_READ | PROT_WRITE, MAP_PRIVATE |
               MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (arena == MAP_FAILED) arena = NULL;     /* then malloc for all */
  else ASAN_POISON_MEMORY_REGION(arena, ARENA);
  if (getcwd(origdir, sizeof origdir) == NULL) abort();
  if (dir != NULL && *dir) {
    snprintf(workdir, sizeof workdir, "%s", dir);
    if (mkdir(workdir, 0700) != 0 && errno != EEXIST) {
      fprintf(stderr, "fuzz: cannot create %s: %s\n", workdir,
              strerror(errno));
      abort();
    }
  }
  else {
    const char *tmp = getenv("TMPDIR");
    snprintf(workdir, sizeof workdir, "%s/optlab-fuzz-XXXXXX",
             tmp != NULL && *tmp ? tmp : "/tmp");
    if (mkdtemp(workdir) == NULL) abort();
  }
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = ontimer;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGRTMIN + 3, &sa, NULL);
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_SIGNAL;
  sev.sigev_signo = SIGRTMIN + 3;
  if (pthread_getcpuclockid(pthread_self(), &cpuclock) != 0) abort();
  if (timer_create(cpuclock, &sev, &timer) != 0) abort();
  G = luaL_newstate();
  luaL_openlibs(G);
  luaL_requiref(G, "optlab", luaopen_optlab, 1);   /* gen.lua reads the API */
  lua_pop(G, 1);
  if (luaL_loadbuffer(G, gen_src, strlen(gen_src), "@tests/fuzz/gen.lua")
      != LUA_OK) {
    fprintf(stderr, "fuzz: %s\n", lua_tostring(G, -1));
    abort();
  }
  /* gen.lua reads the API from G, running each method once on each
  ** problem type: in the work directory, as the inputs run */
  if (chdir(workdir) != 0) abort();
  if (lua_pcall(G, 0, 2, 0) != LUA_OK || !lua_isfunction(G, -2)) {
    fprintf(stderr, "fuzz: gen.lua: %s\n", lua_tostring(G, -1));
    abort();
  }
  if (chdir(origdir) != 0) abort();
  summary(G);
  lua_getfield(G, -1, "skip");         /* OPTLAB_FUZZ_SKIP's test, if set */
  lua_setglobal(G, "skip");
  lua_pop(G, 1);
  lua_setglobal(G, "generate");
  return 0;
}

/* The statements of an input on G's stack as a list of strings. */
static int statements (const uint8_t *data, size_t size)
{
  lua_settop(G, 0);
  if (size >= 6 && memcmp(data, "--lua\n", 6) == 0) {
    size_t i = 6, k = 0;
    lua_newtable(G);
    while (i < size && k < 4 * MAXSTMTS) {
      size_t j = i;
      while (j < size && data[j] != '\n') j++;
      if (j > i) {
        int keep = 1;
        if (lua_getglobal(G, "skip") == LUA_TFUNCTION) {
          lua_pushlstring(G, (const char *)data + i, j - i);
          keep = lua_pcall(G, 1, 1, 0) == LUA_OK && !lua_toboolean(G, -1);
        }
        lua_pop(G, 1);
        if (keep) {
          lua_pushlstring(G, (const char *)data + i, j - i);
          lua_rawseti(G, 1, (lua_Integer)++k);
        }
      }
      i = j + 1;
    }
    return 1;
  }
  lua_getglobal(G, "generate");
  lua_pushlstring(G, (const char *)data, size);
  if (lua_pcall(G, 1, 1, 0) != LUA_OK) {
    fprintf(stderr, "fuzz: gen.lua: %s\n", lua_tostring(G, -1));
    abort();
  }
  return lua_istable(G, 1);
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lua_State *L;
  sigset_t blk;
  lua_Integer i, n;
  if (!statements(data, size)) return 0;
  if (chdir(workdir) != 0) abort();
  openblas_set_num_threads(1);
  insns = 0;
  lim_insns = LIMIT_INSNS;
  deadline_ms = DEADLINE_MS;
  heap = 0;
  arena_reset();
  expired = armed = 0;
  intrflag = 0;
  viewmode = 0;
  intr_ms = -1;
  clock_gettime(cpuclock, &t0);
  L = lua_newstate(alloc, NULL);
  if (L == NULL) abort();
  lua_gc(L, LUA_GCGEN, 0, 0);  /* as repl/main.c: before the library */
  luaL_openlibs(L);
  luaL_requiref(L, "optlab", luaopen_optlab, 1);
  lua_pop(L, 1);
  unsafe(L);
  olua_setintr(L, &intrflag);
  ol_intr = &intrflag;      /* as repl/main.c: long core builds poll it */
  sethook(L, HOOK_COUNT);
  curL = L;
  n = (lua_Integer)lua_rawlen(G, 1);
  for (i = 1; i <= n && i <= 4 * MAXSTMTS && !expired; i++) {
    size_t len;
    const char *s;
    lua_rawgeti(G, 1, i);
    s = lua_tolstring(G, -1, &len);
    if (s != NULL) statement(L, s, len);
    lua_pop(G, 1);
  }
  sigemptyset(&blk);
  sigaddset(&blk, SIGRTMIN + 3);
  sigprocmask(SIG_BLOCK, &blk, NULL);
  settimer(0, 0);
  curL = NULL;
  sigprocmask(SIG_UNBLOCK, &blk, NULL);
  expired = 1;                 /* finalizers in Lua raise at once */
  if (show) fprintf(stderr, "[%ld ms] lua_close\n", elapsed_ms());
  lua_close(L);
  if (show) fprintf(stderr, "[%ld ms] done\n", elapsed_ms());
  lua_settop(G, 0);
  lua_gc(G, LUA_GCCOLLECT);    /* as many frees as mallocs: no leak scan */
  if (chdir(origdir) != 0) abort();
  /* OPTLAB_FUZZ_LEAKS: LeakSanitizer after every input, and the input
  ** kept when it finds a block no one points to.  libFuzzer looks only
  ** after an input that freed fewer blocks than it took, and a
  ** factorisation left on its thread by an earlier input (core/bg.h)
  ** frees its job during a later one: the count can balance on the input
  ** that leaks, and the leak is then reported at a later input that does
  ** not make it (issue 22, the campaign on 9809ae6). */
  if (leakcheck && __lsan_do_recoverable_leak_check() != 0) abort();
  return 0;
}
