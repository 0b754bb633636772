/*
** lua/lbind.h -- internals shared by the binding files (not for repl/).
**
** The userdata boxes of the four Lua-visible types, the per-state binding
** record kept in the registry (live view, interrupt flag), the helpers
** the modules share (lua/lutil.c: key checking against ol_param tables,
** reading number arrays, info tables for help), and the stepping driver
** used by run, race and run:continue.  lua/loptlab.c only opens the
** library.
** Every box is created before its C resource and marks itself closed
** (NULL resource) in __gc / __close, so a double close is harmless.
*/
#ifndef LBIND_H
#define LBIND_H

#include "lua.h"
#include "lauxlib.h"

#include "ol.h"
#include "problem.h"
#include "method.h"
#include "run.h"
#include "optlab.h"

#define OLUA_PROBLEM "optlab.problem"
#define OLUA_METHOD  "optlab.method"
#define OLUA_RUN     "optlab.run"
#define OLUA_RACE    "optlab.race"

/* Per-state record (a userdata in the registry under "optlab.state"). */
typedef struct olua_state {
  const olua_view *view;             /* NULL: progress lines instead */
  volatile sig_atomic_t *intr;       /* SIGINT flag, may be NULL */
  lua_State *volatile cb;            /* thread running a Lua callback now
                                        (lua_fdf, lua_hess), or NULL */
  lua_State *volatile co[OLUA_MAXCO];  /* coroutines being resumed now,
                                        outermost first (lua/loptlab.c) */
  volatile int nco;                  /* their depth (may exceed MAXCO:
                                        the deeper ones are not kept) */
  size_t cdebt;                      /* C bytes of runs made since the
                                        last full collection */
} olua_state;

/* Tell the collector that an object just made holds bytes of C memory it
** cannot see (a run's history): a step of that size, and a full
** collection once such bytes since the last one pass the Lua heap's size
** (at least 16 MB).  In generational mode a step collects young objects
** only, and a run kept a while by a job (or a table) is old when it is
** dropped: without the full collections 10^4 stopped jobs kept their C
** memory and the process grew by 100 MB. */
void olua_gcdebt (lua_State *L, size_t bytes);

olua_state *olua_getstate (lua_State *L);

/* Raise "interrupted!" when the interrupt flag is set: an operation that
** starts after a Ctrl-C in the same statement (a later run of a loop, a
** run nested in a callback) does not start. */
void olua_checkintr (lua_State *L);

/* Problem box.  Closing (p:close(), __close, __gc) marks it closed: no
** new run, race, job or eval may use it ("problem is closed").  The
** ol_problem itself is freed once the box is closed and nothing uses it
** any more: refs counts the run objects made on it (taken in olua_mkrun,
** given back when the run is freed) and the p:eval calls in progress, and
** nothing is freed while a callback of the problem runs (depth > 0), so a
** run outlives the close of its problem, and a callback that closes its
** own problem does not free the memory the core is using.
**
** Lua problems call their functions in callback threads, one per nesting
** level: T[d] serves the calls made while d others are in progress (an
** objective that evaluates or runs its own problem), so each level has its
** own stack and x, g, H tables.  T[0] is made with the box; deeper ones on
** first use, in a protected call on the template thread Z, which holds the
** functions and is never used for a call.  All threads are anchored by the
** box's first user value (a table).  A thread's stack holds, at fixed
** slots, the traceback handler, f, grad, fdf, hess and the reused x, g and
** H tables.  Nesting deeper than OLUA_MAXDEPTH fails the call and sets
** overflow until the calls unwind to the top: meanwhile every use of the
** problem raises, so a callback that swallows the failure cannot make the
** unwinding exponential (each level calls f many times). */
#define OLUA_MAXDEPTH 16
typedef struct lproblem {
  ol_problem *p;        /* NULL once freed */
  int closed;           /* closed: refuse new uses */
  int refs;             /* runs and calls using p */
  lua_State *Z;         /* Lua problems: template thread, else NULL */
  lua_State *T[OLUA_MAXDEPTH];   /* callback threads, nt made */
  int nt;
  int depth;            /* callback calls in progress */
  int overflow;         /* nested too deep, unwinding */
  int n;
  int hasf, hasgrad, hasfdf, hashess;
  const char *fname;    /* f's name in callback messages: NULL ("f"), or
                           "logp" (problem.density) */
  olua_state *S;        /* the binding record: S->cb while calling back */
  struct olua_ad *ad;   /* f traced (lua/lad.c), or how it fell back; NULL
                           when grad or fdf was given */
  struct olua_ad **cad; /* constraint i's trace, NULL entries when its grad
                           was given (m entries; NULL without constraints) */
  struct olua_ad *gck;  /* grad= given: f traced to check it, or NULL */
} lproblem;

/* Take and give back a use of the problem box b (see above); the last
** give-back of a closed box frees its ol_problem. */
void olua_problem_ref (lproblem *b);
void olua_problem_unref (lproblem *b);

/* Method box: a type and its full parameter vector (defaults filled). */
typedef struct lmethod {
  const ol_method_type *t;
  double par[1];        /* t->nparams entries (at least one slot) */
} lmethod;

/* Run box.  User values: 1 = problem box, 2 = method box. */
typedef struct lrun {
  ol_run *r;            /* NULL once closed */
  int intr;             /* stopped by a callback error caused by Ctrl-C */
  int useview, progress;
  int xaxis;            /* PN_X_* (core/plot/plotpanel.h): the plots' x axis */
  int haswin;           /* view = {xlim, ylim}: the landscape's window */
  double win[4];        /* xlo, xhi, ylo, yhi; NAN: that axis the runs' */
  int nwatch;
  int watch[OL_NMETRICS];
  ol_mset dropped;     /* metrics asked for that the method does not
                           define (a race, lenient) */
  int chain;            /* k of a sampler's chains (lsample.c), or 0 */
  char note[240];       /* a sampler's start, when it was re-initialised
                           (lsample.c), else "" */
} lrun;
/* Push run b's label: the method's, then " chain k" for a chain. */
void olua_pushrunlabel (lua_State *L, const lrun *b);

/* An entry of the changes option (a replayed r.changes): parameter
** by name, resolved per method by olua_mkrun. */
typedef struct olua_chg {
  long t;
  double v;
  char name[32];
} olua_chg;

/* Parsed options of run / race / start. */
typedef struct ropts {
  ol_run_opts o;
  ol_mset metrics;       /* given metric set (empty: defaults) */
  ol_mset watchbits;
  int nwatch;
  int watch[OL_NMETRICS];
  int useview, progress; /* useview: OLUA_VIEW_* (0: none) */
  int xaxis;             /* PN_X_*, default PN_X_ITER */
  int haswin;            /* view = {xlim, ylim} given (readview) */
  double win[4];         /* its window; NAN for a limit left out */
  int x0len;             /* entries of o.x0 (a buffer left on the stack) */
  int lenient;           /* race: drop the metrics a method lacks */
  int chains;            /* samplers: independent chains (1) */
  long warmup;           /* samplers: warmup steps (-1: the method's) */
  long maxdraws;         /* samplers: draws kept per chain (100000) */
  long samples;          /* diffusion: particles (0: the method's own) */
  int iters_given;       /* iters was an option (else a diffusion run's
                            budget is its steps) */
  const olua_chg *chg;   /* the changes option: nchg entries (a buffer
                            left on the stack), or NULL */
  int nchg;
} ropts;

/* Parse the options table at idx (may be none/nil) for who; may leave
** buffers (x0) on the stack. */
void olua_readopts (lua_State *L, int idx, const char *who, ropts *ro);
/* The xaxis option at idx ("iter", "evals", "time") -> PN_X_*; raises
** "<who>: unknown xaxis 'x' (valid: iter, evals, time)" otherwise. */
int olua_checkxaxis (lua_State *L, int idx, const char *who);
/* The limits {lo, hi} of the field key of the table at idx into
** lim[0..2): two finite numbers, lo < hi; NAN, NAN when nil.  Raises
** "<who>: <prefix><key> must be {lo, hi}, ..." otherwise. */
void olua_readlim (lua_State *L, int idx, const char *who,
                   const char *prefix, const char *key, double *lim);
/* Push a new run object of the method at midx on the problem at pidx. */
lrun *olua_mkrun (lua_State *L, int pidx, int midx, const ropts *ro,
                  const char *who);

/* Set the live parameters given by the table at idx ({lr = 0.05, ...})
** on each of the n runs not stopped (all when n == 1: a stopped one
** raises), checked on every run before any is set, in each method's
** parameter order; raises "<who>: ..." naming an unknown key (with the
** method's parameters), a non-number, a parameter that is not live or a
** value out of range.  Returns how many runs were set. */
int olua_setparams (lua_State *L, int idx, ol_run *const *runs, int n,
                    const char *who);
/* The constructor of the method type in upvalue 1 (light userdata):
** optim.adam{...} (lua/lmethod.c); a method defined at run time
** (lua/lusermethod.c) gets one made by the same code. */
int olua_method_new (lua_State *L);
/* Register method type t (which must outlive L) as its family's
** <name> constructor, with its info table in core.methods,
** core.families[f].methods and core.ctors (help, ?, completion, sweep);
** an entry of the same name and family is replaced.  core: the index of
** the internal core table. */
void olua_registermethod (lua_State *L, int core, const ol_method_type *t);
/* lua/lusermethod.c: optim.new, sample.new and game.new (core table on
** top). */
void olua_openusermethod (lua_State *L);

lproblem *olua_checkproblem (lua_State *L, int arg);
lmethod *olua_checkmethod (lua_State *L, int arg);
lrun *olua_checkrun (lua_State *L, int arg);
/* Raise, naming who, when r holds a summary (a worker rank's copy of a
** task run elsewhere under mpirun: core/runpack.h): its history is rank
** 0's. */
void olua_checkhistory (lua_State *L, const ol_run *r, const char *who);

/* "name{lr=0.01, ...}" of a method box, pushed on the stack. */
void olua_pushmethodstr (lua_State *L, const ol_method_type *t,
                         const double *par);
/* Short label "gd lr=0.001" (non-default parameters, or the first one). */
void olua_pushlabel (lua_State *L, const ol_method_type *t,
                     const double *par);
/* Description of a problem ("rosenbrock{n=2}"), never NULL. */
const char *olua_problemdesc (const ol_problem *p, char *buf, size_t sz);

/* == lua/lutil.c: the shared helpers ====================================== */

/* Raise "<where><message on top> (valid: a, b, c)" (pops the message;
** where: the calling Lua code's file:line). */
int olua_choicerror (lua_State *L, const char *const *valid);
/* Longest user string an error message echoes (then "..."). */
#define OLUA_ECHOMAX 60
/* Push s cut to OLUA_ECHOMAX bytes plus "..." if longer; returns it. */
const char *olua_pushshort (lua_State *L, const char *s);
/* The file name string at idx; raises unless a string without NUL. */
const char *olua_checkfilename (lua_State *L, int idx, const char *who);
/* Writing a file whole or not at all (every exporter and --tasks slice;
** lua/lutil.c says how): olua_wopen pushes a to-be-closed writer for
** path (raises "<who>: cannot write <path>: <reason>; ..."), olua_wwrite
** adds bytes, olua_wclose flushes them to disk (fsync) and closes the
** temporary, olua_wcommit (which closes first when needed) renames it
** onto path; each raises on failure after removing the temporary.
** olua_wdiscard drops what was written (Ctrl-C); popping the writer, an
** error or the end of the calling function discards an uncommitted one.
** A Ctrl-C that came while a file was written whole does not fail the
** call that wrote it: it raises at the caller's next instruction. */
typedef struct olua_wfile {
  int fd, direct, done, existed;
  size_t used;
  char who[64], name[4096], dest[4096], tmp[4112];
  char buf[1 << 16];
} olua_wfile;
olua_wfile *olua_wopen (lua_State *L, const char *who, const char *path);
void olua_wwrite (lua_State *L, olua_wfile *w, const void *s, size_t n);
void olua_wclose (lua_State *L, olua_wfile *w);
void olua_wcommit (lua_State *L, olua_wfile *w);
void olua_wdiscard (olua_wfile *w);
/* The n bytes of s as the file path, whole or not at all (the above). */
void olua_writefile (lua_State *L, const char *who, const char *path,
                     const void *s, size_t n);
/* core.writefile(who, file, text): olua_writefile from Lua. */
int olua_writefile_lua (lua_State *L);
/* Raise if the table at idx (length n) has a numeric key outside 1..n. */
void olua_checkseq (lua_State *L, int idx, const char *who, const char *key,
                    lua_Integer n);
/* problem.efg's table at idx (lua/lefg.c) made into a game-tree problem
** (problems/efg.h), owned by the caller; raises on a malformed table,
** NULL with e set when the core refuses the game. */
ol_problem *olua_efg_new (lua_State *L, int idx, const char *who,
                          ol_err *e);
/* Push the n doubles of x as a new Lua sequence. */
void olua_pushvec (lua_State *L, const double *x, int n);
/* Raise "<where><who>: unknown <what> '<key>' (valid: a, b, c)"; valid
** is a NULL-ended list; a long key is cut (olua_pushshort). */
int olua_unknownkey (lua_State *L, const char *who, const char *what,
                     const char *key, const char *const *valid);
/* Read a flat table of numbers at index idx into a new userdata buffer
** (pushed; GC-owned).  Returns the buffer and sets *len. */
double *olua_checkarray (lua_State *L, int idx, const char *who,
                         const char *key, int *len);
/* Raise "<who>: unknown parameter 'key' (valid: <the names in pt>)". */
int olua_unknownparam (lua_State *L, const char *who, const char *key,
                       const ol_param *pt, int np);
/* Format one parameter value for display: %.6g, integers, true/false,
** enum choice names. */
void olua_fmtparam (const ol_param *pd, double v, char *buf, size_t sz);
/* Read and check the scalar at idx for parameter pd (method parameters
** and problem constructors); raises "<who>: <message>". */
int olua_readparam (lua_State *L, int idx, const char *who,
                    const ol_param *pd, double *v);

/* The view option of run and race: none (view = false), "keep" (the
** default: the last frame and the summary stay on the terminal after the
** view closes) or "clear" (the view leaves the screen as it was). */
enum { OLUA_VIEW_NONE, OLUA_VIEW_KEEP, OLUA_VIEW_CLEAR };

/* Step the runs (boxes at stack indices given) until all stop, a Ctrl-C
** or the view stops them.  Never raises once stepping started.  Returns
** 1 when a view was shown with useview OLUA_VIEW_KEEP: the caller then
** prints the last frame with olua_keepframe (lexp.h). */
int olua_drive (lua_State *L, lrun **boxes, int nruns, const char *title,
                int useview, int progress);

/* r:plot(opts) and race:plot(opts) (lua/lplot.c): an SVG file of the
** watched panels, or their text rendering on stdout. */
int olua_plot (lua_State *L);
/* core.plotsweep(fig, opts): s:plot's figures of a sweep (lua/lplot.c). */
int olua_plotsweep (lua_State *L);

/* Push {name, family, doc, ref, params = {{name, kind, default, lo, hi,
** range, open_lo, open_hi, choices, doc}, ...}} for help() (a problem
** type's info adds kind and generic, the generic keys it takes). */
void olua_pushinfo (lua_State *L, const char *name, const char *family,
                    const char *doc, const char *ref, const ol_param *pt,
                    int np);

/* Module openers (each adds to the table on top: the internal 'core'
** table handed to the pure-Lua chunks). */
void olua_openproblem (lua_State *L);
void olua_openmethod (lua_State *L);
void olua_openrun (lua_State *L);
void olua_openjobs (lua_State *L);
void olua_opensample (lua_State *L);
/* The global metric (lua/lmetric.c); core: the internal table's index. */
void olua_openmetric (lua_State *L, int core);
/* core.lesson_width, lesson_caption, lesson_key (lua/llesson.c). */
void olua_openlesson (lua_State *L, int core);
/* lsample.c: run with chains > 1 (problem at 1, sampler at 2) -> the
** chains object; the methods of a sampler run and of chains (draws,
** summary, save_draws, stats); the summary table of a sampler's chains,
** appended to a print. */
int olua_runchains (lua_State *L, const ropts *ro, const char *title,
                    double speed, int paused);
extern const luaL_Reg olua_sample_methods[];
void olua_addsampletable (lua_State *L, luaL_Buffer *bf, lrun **b, int k);
/* A one-chain sampler run of run(p, sampler, opts) (problem at 1, method
** at 2), made and pushed: olua_mkrun from a start re-initialised as
** Stan's when the log density is not finite at x0 (lsample.c). */
lrun *olua_mksampler (lua_State *L, const ropts *ro);
/* == lua/lad.c: tracing Lua functions into tapes (issue 15) ============== */

/* The tapes of one traced function: up to OLUA_AD_CACHE, one per guard
** pattern met, re-traced at most OLUA_AD_MAXRETRACE times; or, when the
** function cannot be traced, why (mode OLUA_AD_FD: central differences of
** Lua calls).  A userdata ("optlab.adcache"), kept alive by its owner (the
** problem box's anchor table); __gc frees the tapes. */
#define OLUA_AD_CACHE 8
#define OLUA_AD_MAXRETRACE 100
enum { OLUA_AD_FD, OLUA_AD_TAPE };
typedef struct olua_ad {
  int n, mode;
  const char *fname;              /* "f", "logp", "constraints[i].c" */
  struct ol_tape *tape[OLUA_AD_CACHE];
  double *tx[OLUA_AD_CACHE];      /* where each was traced (n, owned) */
  int ntape, cur;                 /* tapes made, the one in use */
  long retraces;
  int maxnodes;                   /* a tape's limit, 0: the tape's own */
  double check;                   /* ad = "check": the error at x0, or NAN */
  double tracetime;               /* seconds of the first trace */
  double *work;                   /* 3n doubles (owned) */
  char why[320];                  /* mode OLUA_AD_FD: the reason */
  char note[320];                 /* a re-trace olua_ad_verify made, or "" */
  /* grad= checked against this trace (or differences) (lua/lproblem.c) */
  int nchecked, nbad;             /* points checked, where it differed */
  int pending;                    /* check at the next gradient's point */
  char checkmsg[480];             /* the last check's words */
  char where1[48];                /* where the first check was made */
} olua_ad;
/* A new olua_ad for a function of n variables, pushed (mode FD, no reason
** yet); fname names it in messages (borrowed: a literal or a string the
** owner keeps). */
olua_ad *olua_ad_new (lua_State *L, int n, const char *fname);
/* Trace the function at fidx of L at x: 1 with the tape made (mode TAPE),
** 0 with the reason in ad->why (mode FD).  Raises only "interrupted!"
** (a Ctrl-C while f runs), after putting the state back. */
int olua_ad_trace (lua_State *L, olua_ad *ad, int fidx, const double *x);
/* Free ad's tapes (mode FD, why kept): a check that is done. */
void olua_ad_release (olua_ad *ad, const char *why);
/* Fall back to differences with why as the reason (ad = false). */
void olua_ad_refuse (olua_ad *ad, const char *why);
/* Raise the trace's refusal when a trace is in progress: what (a
** problem's, a run's, a job's method) would run at trace time only, never
** again at evaluations, so the function falls back to Lua calls.  Called
** where Lua code reaches optlab's objects (olua_checkproblem, olua_checkrun,
** the job checks). */
void olua_ad_notraced (lua_State *L, const char *what);
/* f and g (either may be NULL) at x: from a tape whose guards hold at x,
** re-tracing the function at fidx of L when none does; by central
** differences of Lua calls in mode FD (a re-trace that fails or too many
** switch to it, with the reason).  OL_OK or OL_ECALLBACK with e set. */
int olua_ad_eval (lua_State *L, olua_ad *ad, int fidx, const double *x,
                  double *f, double *g, ol_err *e);
/* The dense Hessian at x (n x n, symmetric): the tape's, or differences
** of the difference gradient in mode FD. */
int olua_ad_hess (lua_State *L, olua_ad *ad, int fidx, const double *x,
                  double *H, ol_err *e);
/* f's tapes checked against f on numbers, each at its trace point (one
** Lua call each, up to OLUA_AD_CACHE): when the values differ (a global f reads changed since the trace, or a branch
** the tracer could not see), the tapes are dropped and f re-traced at x
** there (noted in ad->note), or f falls back to differences with the
** reason.
** Returns 1 when it re-traced or fell back, 0 when the tape stands (or ad
** is not traced).  Raises only "interrupted!". */
int olua_ad_verify (lua_State *L, olua_ad *ad, int fidx);
/* g at x by central differences of Lua calls of the function at fidx
** (2n calls), with f there into *f when f is not NULL. */
int olua_ad_fdgrad (lua_State *L, olua_ad *ad, int fidx, const double *x,
                    double *f, double *g, ol_err *e);
/* ad = "check": max_i |g_i - d_i| / max(1, max_j |d_j|), g the tape's
** gradient and d central differences at x; kept in ad->check; NAN when an
** evaluation failed (e set). */
double olua_ad_checkgrad (lua_State *L, olua_ad *ad, int fidx,
                          const double *x, ol_err *e);
/* 1 when ad's tape in use has x, its last point, on a kink (a guard's
** two sides equal there: ol_tape_ontie). */
int olua_ad_onkink (const olua_ad *ad);
/* The summary's words: "traced (tape of N ops, K guards)" or "finite
** differences (reason)", in buf; NULL when ad is NULL. */
const char *olua_ad_note (const olua_ad *ad, char *buf, size_t sz);
/* Check the tapes of problem b's f and constraints against the functions
** on numbers at their trace points (olua_ad_verify): at p:eval and when a
** run is made.  Says what it re-traced or gave up (print). */
void olua_problem_adverify (lua_State *L, lproblem *b);
/* The summary's words on how f's gradient and the constraints' are had
** (traced, differences and why, grad= checked), in buf; NULL when there
** is nothing to say. */
const char *olua_problem_adnote (const lproblem *b, char *buf, size_t sz);
/* Push p.ad's table {mode, ops, guards, nodes, retraces, tapes, reason,
** check, time}. */
void olua_ad_pushinfo (lua_State *L, const olua_ad *ad);
/* The tracer's metatables, math.tanh, log1p, expm1 and pow, and the
** globals grad, hessian, hvp and tape. */
void olua_openad (lua_State *L);

/* Load the embedded lua/ *.lua chunks, each called with the core table. */
void olua_loadembedded (lua_State *L, int core);

#endif
