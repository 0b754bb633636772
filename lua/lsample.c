/*
** lua/lsample.c -- the sampling lab's binding: chains, draws, summaries.
**
** run(p, sampler, {chains = k}) makes k runs of the sampler on p from
** independent rng streams (stream, stream + 1, ...) and dispersed starts,
** steps them in lock-step in one view and returns a chains object: a
** table {run1, ..., runk} with the metatable OLUA_CHAINS, whose methods
** (draws, summary, save_draws) and summary table pool the chains; any
** other field is chain 1's.  A one-chain sampler run has the same methods
** itself.
**
** Starts: chain 1 at x0 (the option, else the problem's), chain c > 1 at
** x0 + u, u ~ U(-2, 2)^n drawn from stream 2^40 + c of the run's seed (as
** Stan disperses its inits on the unconstrained scale).
**
** Draws: the core keeps each chain's post-warmup draws (run.h,
** ol_run_draws: the statistics of the step, then x).  Summaries use the
** first S draws of every chain, S the fewest any chain kept, with the
** definitions of core/diag.h (Vehtari et al. 2021).
**
** Panels: chains watch the family's defaults plus the pooled R-hat
** (core/plot draws one curve for a chain set); x:running() returns that
** curve's points, the last of which is x:summary()'s worst R-hat / ESS.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lbind.h"
#include "lexp.h"
#include "ltask.h"
#include "lprint.h"
#include "diag.h"
#include "plotpanel.h"
#include "sample/stats.h"
#include "rng.h"

#define OLUA_CHAINS "optlab.chains"

static const char *const statnames[OL_DRAW_COLS] = {
  "lp__", "accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__",
  "divergent__", "energy__"
};

/* The runs of the object at idx (a run, or a chains table) into boxes
** (at most 64); returns their number.  Raises on anything else. */
static int getruns (lua_State *L, int idx, lrun **boxes, const char *who)
{
  int k, n;
  if (luaL_testudata(L, idx, OLUA_RUN) != NULL) {
    boxes[0] = olua_checkrun(L, idx);
    return 1;
  }
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: expected a sampler run or chains", who);
  n = (int)lua_rawlen(L, idx);
  if (n < 1 || n > 64) luaL_error(L, "%s: no chains", who);
  for (k = 0; k < n; k++) {
    lua_rawgeti(L, idx, k + 1);
    boxes[k] = olua_checkrun(L, -1);
    lua_pop(L, 1);
  }
  return n;
}

/* Draws kept by every chain (the fewest), their thinning and dimension;
** raises when a chain is not a sampler run that kept draws. */
static long common_draws (lua_State *L, lrun **b, int k, long *thin,
                          const char *who)
{
  long S = -1, rows, th;
  int c;
  for (c = 0; c < k; c++) {
    if (ol_run_method(b[c]->r)->family != OL_SAMPLER)
      luaL_error(L, "%s: %s is not a sampler", who,
                 ol_run_method(b[c]->r)->name);
    ol_run_draws(b[c]->r, &rows, &th, NULL);
    if (S < 0 || rows < S) S = rows;
    if (c == 0) *thin = th;
  }
  return S < 0 ? 0 : S;
}

/* Summaries of the n coordinates and of lp__ (row n) into sum[0..n],
** from the first S draws of each chain (gathered into malloc'd scratch).
** OL_OK, or a code with e set. */
static int summarize (lrun **b, int k, long S, int n, ol_summary *sum,
                      ol_err *e)
{
  size_t tot = (size_t)k * (size_t)S;
  double *X = malloc(tot * (size_t)(n + 1) * sizeof *X), *lp;
  int j, c, rc = OL_OK;
  long s;
  if (X == NULL) return ol_err_set(e, OL_ENOMEM, "out of memory");
  lp = X + tot * (size_t)n;
  for (c = 0; c < k; c++) {
    const double *d = ol_run_draws(b[c]->r, NULL, NULL, NULL);
    for (s = 0; s < S; s++) {
      const double *row = d + s * (OL_DRAW_COLS + n);
      memcpy(X + ((size_t)c * S + s) * n, row + OL_DRAW_COLS,
             (size_t)n * sizeof *X);
      lp[(size_t)c * S + s] = row[0];
    }
  }
  for (j = 0; j < n && rc == OL_OK; j++) {
    ol_draws d = ol_draws_coord(X, k, S, n, j);
    rc = ol_diag_summary(&d, &sum[j], e);
  }
  if (rc == OL_OK) {
    ol_draws d = ol_draws_coord(lp, k, S, 1, 0);
    ol_err e2;
    if (ol_diag_summary(&d, &sum[n], &e2) != OL_OK) {
      memset(&sum[n], 0, sizeof sum[n]);
      sum[n].mean = sum[n].sd = sum[n].rhat = NAN;
    }
  }
  free(X);
  return rc;
}

/* x:draws() -> {chain1, ...}, each a list of draws, each an array of n. */
static int s_draws (lua_State *L)
{
  lrun *b[64];
  int k = getruns(L, 1, b, "draws"), c, n = ol_run_n(b[0]->r);
  long thin, S = common_draws(L, b, k, &thin, "draws"), s;
  lua_createtable(L, k, 0);
  for (c = 0; c < k; c++) {
    long rows;
    const double *d = ol_run_draws(b[c]->r, &rows, NULL, NULL);
    (void)S;
    lua_createtable(L, (int)rows, 0);
    for (s = 0; s < rows; s++) {
      olua_pushvec(L, d + s * (OL_DRAW_COLS + n) + OL_DRAW_COLS, n);
      lua_rawseti(L, -2, s + 1);
    }
    lua_rawseti(L, -2, c + 1);
  }
  return 1;
}

/* x:summary() -> one row per coordinate {name, mean, sd, mcse, q5, q50,
** q95, ess_bulk, ess_tail, rhat}. */
static int s_summary (lua_State *L)
{
  lrun *b[64];
  int k = getruns(L, 1, b, "summary"), j, n = ol_run_n(b[0]->r);
  long thin, S = common_draws(L, b, k, &thin, "summary");
  ol_summary *sum;
  char name[32];
  if (S < 4) return luaL_error(L, "summary: %ld draws per chain, needs 4",
                               S);
  sum = lua_newuserdatauv(L, (size_t)(n + 1) * sizeof *sum, 0);
  {
    ol_err e;
    if (summarize(b, k, S, n, sum, &e) != OL_OK)
      return luaL_error(L, "summary: %s", e.msg);
  }
  lua_createtable(L, n, 0);
  for (j = 0; j < n; j++) {
    const ol_summary *r = &sum[j];
    lua_createtable(L, 0, 10);
    snprintf(name, sizeof name, "x[%d]", j + 1);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
#define SET(f, v) (lua_pushnumber(L, (v)), lua_setfield(L, -2, f))
    SET("mean", r->mean);
    SET("sd", r->sd);
    SET("mcse", r->mcse_mean);
    SET("q5", r->q5);
    SET("q50", r->q50);
    SET("q95", r->q95);
    SET("ess_bulk", r->ess_bulk);
    SET("ess_tail", r->ess_tail);
    SET("rhat", r->rhat);
#undef SET
    lua_rawseti(L, -2, j + 1);
  }
  return 1;
}

/* text += the formatted arguments (text: malloc'd, grown; on failure it
** stays as it was). */
static void tadd (char **text, size_t *len, const char *fmt, ...)
{
  char line[512];
  va_list ap;
  int m;
  char *t;
  va_start(ap, fmt);
  m = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (m < 0) return;
  if ((size_t)m >= sizeof line) m = (int)sizeof line - 1;
  t = realloc(*text, *len + (size_t)m + 1);
  if (t == NULL) return;
  memcpy(t + *len, line, (size_t)m + 1);
  *text = t;
  *len += (size_t)m;
}

/* The summary table and its warnings for chains b[0..k), as malloc'd
** text (NULL when b is not a sampler's or out of memory). */
static char *sampletable (lrun **b, int k)
{
  char *text = NULL;
  size_t len = 0;
  int n = ol_run_n(b[0]->r), j, c;
  long thin, S, seen, rows, ndiv = 0, nleap = 0, total = 0;
  double acc = 0, eps = 0, depth = 0, worst = 1;
  ol_summary *sum;
  ol_err e;
  if (ol_run_method(b[0]->r)->family != OL_SAMPLER) return NULL;
  for (c = 0, S = -1; c < k; c++) {
    ol_run_draws(b[c]->r, &rows, c == 0 ? &thin : NULL, NULL);
    if (S < 0 || rows < S) S = rows;
  }
  ol_run_draws(b[0]->r, &rows, NULL, &seen);
  tadd(&text, &len, "\n  %d chain%s, warmup %ld, %ld draws each kept", k,
       k == 1 ? "" : "s", ol_run_warmup(b[0]->r), S);
  if (thin > 1) {
    tadd(&text, &len, " (every %ld-th of %ld: the max_draws cap)",
             thin, seen);
  }
  if (S < 4) {
    tadd(&text, &len, "; too few for a summary");
    return text;
  }
  sum = malloc((size_t)(n + 1) * sizeof *sum);
  if (sum == NULL) return text;
  if (summarize(b, k, S, n, sum, &e) != OL_OK) {
    tadd(&text, &len, "\n  summary failed: %s", e.msg);
    free(sum);
    return text;
  }
  tadd(&text, &len, "\n            mean      mcse        sd        5%%"
       "       50%%       95%%  ess_bulk  ess_tail   rhat");
  for (j = -1; j < n && j < 24; j++) {
    const ol_summary *r = &sum[j < 0 ? n : j];
    char nm[16];
    if (j < 0) snprintf(nm, sizeof nm, "lp__");
    else snprintf(nm, sizeof nm, "x[%d]", j + 1);
    tadd(&text, &len, "\n  %-7s %9.4g %9.2g %9.4g %9.4g %9.4g "
             "%9.4g %9.0f %9.0f %6.3f", nm, r->mean, r->mcse_mean, r->sd,
             r->q5, r->q50, r->q95, r->ess_bulk, r->ess_tail, r->rhat);
  }
  if (n > 24) {
    tadd(&text, &len, "\n  ... (%d coordinates: r:summary())", n);
  }
  /* sampler statistics over the kept draws */
  for (c = 0; c < k; c++) {
    const double *d = ol_run_draws(b[c]->r, &rows, NULL, NULL);
    long s;
    for (s = 0; s < rows; s++) {
      const double *row = d + s * (OL_DRAW_COLS + n);
      acc += row[1];
      eps += row[2];
      depth += row[3];
      nleap += (long)row[4];
      ndiv += row[5] != 0;
      total++;
    }
  }
  if (total > 0) {
    tadd(&text, &len, "\n  sampler: accept_stat %.3g", acc / total);
    if (isfinite(eps)) tadd(&text, &len, ", stepsize %.3g", eps / total);
    if (nleap > 0)
      tadd(&text, &len, ", treedepth %.3g, leapfrogs/draw %.3g, "
           "divergences %ld", depth / total, (double)nleap / total, ndiv);
  }
  /* warnings, in words */
  for (j = 0; j < n; j++)
    if (sum[j].rhat > worst || isnan(sum[j].rhat)) worst = sum[j].rhat;
  if (!(worst <= 1.01)) {
    tadd(&text, &len, "\nwarning: R-hat is %.3g (> 1.01): the "
             "chains have not mixed; their draws are not yet from one "
             "distribution (run longer, or reparameterize)", worst);
  }
  for (j = 0, worst = INFINITY; j < n; j++) {
    if (sum[j].ess_bulk < worst) worst = sum[j].ess_bulk;
    if (sum[j].ess_tail < worst) worst = sum[j].ess_tail;
  }
  if (worst < 100.0 * k) {
    tadd(&text, &len, "\nwarning: the effective sample size is "
             "as low as %.0f (< 100 per chain): means, quantiles and MCSEs "
             "are unreliable", worst);
  }
  if (ndiv > 0) {
    tadd(&text, &len, "\nwarning: %ld of %ld post-warmup "
             "transitions diverged: the sampler could not follow the "
             "density's curvature there, so the draws may be biased "
             "(reparameterize, or raise delta)", ndiv, total);
  }
  free(sum);
  return text;
}

void olua_addsampletable (lua_State *L, luaL_Buffer *bf, lrun **b, int k)
{
  char *t = sampletable(b, k);
  (void)L;
  if (t != NULL) luaL_addstring(bf, t);
  free(t);
}

/* x:stats() -> the sampler statistics over the kept draws of every
** chain: {draws, accept_stat (mean), stepsize (mean), treedepth (mean),
** n_leapfrog (sum), divergences (sum)}. */
static int s_stats (lua_State *L)
{
  lrun *b[64];
  int k = getruns(L, 1, b, "stats"), c, n = ol_run_n(b[0]->r);
  long total = 0, s, rows;
  double acc = 0, eps = 0, depth = 0, leap = 0, div = 0;
  for (c = 0; c < k; c++) {
    const double *d = ol_run_draws(b[c]->r, &rows, NULL, NULL);
    for (s = 0; s < rows; s++) {
      const double *row = d + s * (OL_DRAW_COLS + n);
      acc += row[1];
      eps += row[2];
      depth += row[3];
      leap += row[4];
      div += row[5] != 0;
      total++;
    }
  }
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, total);
  lua_setfield(L, -2, "draws");
#define SET(f, v) (lua_pushnumber(L, (v)), lua_setfield(L, -2, f))
  SET("accept_stat", total > 0 ? acc / total : NAN);
  SET("stepsize", total > 0 ? eps / total : NAN);
  SET("treedepth", total > 0 ? depth / total : NAN);
  SET("n_leapfrog", leap);
  SET("divergences", div);
#undef SET
  return 1;
}

/* x:save_draws(file) -> the file names written: CmdStan's CSV layout
** (lp__, accept_stat__, stepsize__, treedepth__, n_leapfrog__,
** divergent__, energy__, x.1, ..., x.n), one file per chain: file itself
** for one chain, else file with _1, _2, ... before its extension.  All
** or none: every chain's file is written to a temporary beside it and
** flushed to disk, then all are renamed into place (olua_wopen); a
** failure or Ctrl-C (polled every row) leaves no file changed and raises
** naming the file and the reason.  Then the chain files of an earlier
** save to the same name that this one does not replace (file_K for K
** past the chains saved, up to 64; every file_K after a one-chain save)
** are removed when they begin as optlab's do ("# optlab "), so that a
** glob of file_* holds this run's chains only. */
static int s_save_draws (lua_State *L)
{
  lrun *b[64];
  olua_wfile *w[64];
  int k = getruns(L, 1, b, "save_draws"), c, n = ol_run_n(b[0]->r), j;
  const char *file = luaL_checkstring(L, 2);
  long thin;
  size_t flen;
  const char *dot;
  common_draws(L, b, k, &thin, "save_draws");
  lua_tolstring(L, 2, &flen);
  if (strlen(file) != flen)
    return luaL_error(L, "save_draws: the file name holds a NUL byte");
  dot = strrchr(file, '.');
  if (dot != NULL && strchr(dot, '/') != NULL) dot = NULL;
  luaL_checkstack(L, 2 * 64 + 8, "save_draws");
  lua_settop(L, 2);
  /* 3: the names written (the result); 4..67: file_1 .. file_64; then
  ** the writers (to-be-closed: an error or Ctrl-C removes their
  ** temporaries) */
  lua_createtable(L, k, 0);
  for (c = 1; c <= 64; c++) {
    if (dot == NULL) lua_pushfstring(L, "%s_%d", file, c);
    else {
      lua_pushlstring(L, file, (size_t)(dot - file));
      lua_pushfstring(L, "%s_%d%s", lua_tostring(L, -1), c, dot);
      lua_remove(L, -2);
    }
  }
  for (c = 0; c < k; c++) {
    long rows, s;
    const double *d = ol_run_draws(b[c]->r, &rows, NULL, NULL);
    const char *name = k == 1 ? file : lua_tostring(L, 4 + c);
    char buf[512];
    int len;
    w[c] = olua_wopen(L, "save_draws", olua_task_quiet() ? "/dev/null"
                      : name);
    len = snprintf(buf, sizeof buf, "# optlab %s chain %d, seed %llu, "
                   "warmup %ld, thin %ld\n", ol_run_method(b[c]->r)->name,
                   c + 1, (unsigned long long)ol_run_options(b[c]->r)->seed,
                   ol_run_warmup(b[c]->r), thin);
    olua_wwrite(L, w[c], buf, (size_t)len);
    for (j = 0; j < OL_DRAW_COLS + n; j++) {
      if (j < OL_DRAW_COLS) len = snprintf(buf, sizeof buf, "%s,",
                                           statnames[j]);
      else len = snprintf(buf, sizeof buf, "x.%d%s", j - OL_DRAW_COLS + 1,
                          j + 1 < OL_DRAW_COLS + n ? "," : "\n");
      olua_wwrite(L, w[c], buf, (size_t)len);
    }
    for (s = 0; s < rows; s++) {
      const double *row = d + s * (OL_DRAW_COLS + n);
      if (ol_interrupted()) {
        for (j = 0; j <= c; j++) olua_wdiscard(w[j]);
        return luaL_error(L, "save_draws: interrupted!; no file written "
                          "(%s and the others are left as they were)",
                          name);
      }
      for (j = 0; j < OL_DRAW_COLS + n; j++) {
        len = snprintf(buf, sizeof buf, j < OL_DRAW_COLS && j >= 3 && j <= 5
                       ? "%.0f%s" : "%.17g%s", row[j],
                       j + 1 < OL_DRAW_COLS + n ? "," : "\n");
        olua_wwrite(L, w[c], buf, (size_t)len);
      }
    }
    olua_wclose(L, w[c]);
  }
  for (c = 0; c < k; c++) {
    olua_wcommit(L, w[c]);
    lua_pushstring(L, k == 1 ? file : lua_tostring(L, 4 + c));
    lua_rawseti(L, 3, c + 1);
  }
  /* stale chain files of an earlier save to the same name */
  for (c = k == 1 ? 0 : k; c < 64 && !olua_task_quiet(); c++) {
    const char *name = lua_tostring(L, 4 + c);
    char head[9];
    FILE *f;
    struct stat st;
    if (lstat(name, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if ((f = fopen(name, "r")) == NULL) continue;
    j = fread(head, 1, sizeof head, f) == sizeof head &&
      memcmp(head, "# optlab ", sizeof head) == 0;
    fclose(f);
    if (j) remove(name);
  }
  /* a Ctrl-C after the last row: the files are whole and returned, and
  ** the interrupt stops what comes next (olua_wcommit) */
  lua_settop(L, 3);
  return 1;
}

/* x:running() -> {iter = {...}, rhat = {...}, ess = {...}}: the points
** of the pooled running R-hat (max over coordinates) and bulk-ESS (min)
** that the rhat and ess panels of these chains draw (core/plot,
** pn_pool_update: every 10% more draws, and the end once all chains have
** stopped, there equal to r:summary()'s max rhat and min ess_bulk).  Empty
** lists for a single chain. */
static int s_running (lua_State *L)
{
  lrun *b[64];
  ol_run *runs[64];
  int k = getruns(L, 1, b, "running"), c, i;
  pn_runs rs;
  pn_pool *pl = lua_newuserdatauv(L, sizeof *pl, 0);
  for (c = 0; c < k; c++) runs[c] = b[c]->r;
  rs.n = k;
  rs.runs = runs;
  rs.labels = NULL;
  memset(pl, 0, sizeof *pl);
  pn_pool_update(pl, &rs, 0);
  lua_createtable(L, 0, 3);
#define LIST(f, a) do { lua_createtable(L, pl->n, 0); \
    for (i = 0; i < pl->n; i++) { lua_pushnumber(L, a[i]); \
      lua_rawseti(L, -2, i + 1); } lua_setfield(L, -2, f); } while (0)
  LIST("iter", pl->it);
  LIST("rhat", pl->rhat);
  LIST("ess", pl->ess);
#undef LIST
  return 1;
}

/* chains:__tostring: what ran, how each chain stopped, the pooled table. */
static int chains_tostring (lua_State *L)
{
  lrun *b[64];
  int k = getruns(L, 1, b, "print"), c;
  const ol_run *r = b[0]->r;
  luaL_Buffer bf;
  char buf[256];
  long ngev = 0;
  double secs = 0;
  olua_pushrunhead(L, r);
  luaL_buffinit(L, &bf);
  lua_pushvalue(L, -2);
  luaL_addvalue(&bf);
  snprintf(buf, sizeof buf, "  seed %llu, %d chains (streams %llu..%llu)",
           (unsigned long long)ol_run_options(r)->seed, k,
           (unsigned long long)ol_run_options(r)->stream,
           (unsigned long long)ol_run_options(b[k - 1]->r)->stream);
  luaL_addstring(&bf, buf);
  for (c = 0; c < k; c++) {
    ngev += ol_run_ngev(b[c]->r);
    secs += ol_run_seconds(b[c]->r);
  }
  for (c = 0; c < k; c++) {
    const ol_run *rc = b[c]->r;
    snprintf(buf, sizeof buf, "\n  chain %d: %s after %ld iterations%s%s",
             c + 1, ol_run_reason(rc) == OL_STOP_NONE ? "running"
             : ol_stop_name(ol_run_reason(rc)), ol_run_iter(rc),
             ol_run_message(rc)[0] ? ": " : "", ol_run_message(rc));
    luaL_addstring(&bf, buf);
  }
  snprintf(buf, sizeof buf, "\n  in all: %.2g s, %ld gradient evaluations",
           secs, ngev);
  luaL_addstring(&bf, buf);
  olua_addsampletable(L, &bf, b, k);
  luaL_pushresult(&bf);
  return 1;
}

/* The methods of a sampler's chains, and of a sampler run (lrun.c). */
const luaL_Reg olua_sample_methods[] = {
  {"draws", s_draws},
  {"summary", s_summary},
  {"save_draws", s_save_draws},
  {"stats", s_stats},
  {"running", s_running},
  {"plot", olua_plot},                 /* every chain (a run has its own) */
  {NULL, NULL}
};

/* A method of chain 1 (upvalue 1) called on the chains object: it runs on
** chain 1 (upvalue 2) instead. */
static int chains_bound (lua_State *L)
{
  int nargs = lua_gettop(L), i;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, lua_upvalueindex(2));
  for (i = 2; i <= nargs; i++) lua_pushvalue(L, i);
  lua_call(L, nargs > 1 ? nargs : 1, LUA_MULTRET);
  return lua_gettop(L) - nargs;
}

/* chains[k] for a number k; the methods above; else chain 1's field (a
** method of a run is bound to chain 1). */
static int chains_index (lua_State *L)
{
  const luaL_Reg *m;
  const char *k;
  if (lua_type(L, 2) != LUA_TSTRING) return 0;
  k = lua_tostring(L, 2);
  for (m = olua_sample_methods; m->name != NULL; m++)
    if (strcmp(m->name, k) == 0) {
      lua_pushcfunction(L, m->func);
      return 1;
    }
  if (strcmp(k, "chains") == 0) {
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
  }
  lua_rawgeti(L, 1, 1);
  lua_getfield(L, -1, k);
  if (lua_type(L, -1) == LUA_TFUNCTION) {
    lua_pushvalue(L, -2);
    lua_pushcclosure(L, chains_bound, 2);
  }
  return 1;
}


/* The default panels of chains (pn_defaults) with the pooled R-hat
** (core/plot: one curve for all chains) before the step size. */
static void addrhat (lrun *b)
{
  int i, at = b->nwatch;
  if (b->nwatch >= OL_NMETRICS) return;
  for (i = 0; i < b->nwatch; i++) {
    if (b->watch[i] == OL_MET_RHAT) return;
    if (b->watch[i] == OL_MET_STEPSIZE && at == b->nwatch) at = i;
  }
  memmove(b->watch + at + 1, b->watch + at, (size_t)(b->nwatch - at)
          * sizeof *b->watch);
  b->watch[at] = OL_MET_RHAT;
  b->nwatch++;
}

/* Chain c (0-based) of run(p, sampler, opts) with opts.chains = k > 1
** (problem at 1, method at 2), made and pushed, not stepped: stream
** opts.stream + c, x0 the problem's (or opts.x0) for chain 0, else moved
** by a draw uniform in [-2, 2]^n of the generator (seed, 2^40 + c), so a
** chain is the same whether made with the others or alone (a task,
** lua/tasks.lua).  xs: n doubles that must outlive the call. */
lrun *olua_mkchain (lua_State *L, const ropts *ro, int c, double *xs)
{
  lproblem *pb = olua_checkproblem(L, 1);
  int n = pb->p->n, i;
  const double *x0 = ro->o.x0 != NULL ? ro->o.x0 : pb->p->x0;
  ropts rc = *ro;
  ol_rng g;
  lrun *b;
  ol_rng_seed(&g, ro->o.seed, (UINT64_C(1) << 40) + (uint64_t)c);
  for (i = 0; i < n; i++)
    xs[i] = x0[i] + (c == 0 ? 0 : 4 * ol_rng_uniform(&g) - 2);
  rc.o.stream = ro->o.stream + (uint64_t)c;
  rc.o.x0 = xs;
  rc.x0len = n;
  b = olua_mkrun(L, 1, 2, &rc, "run");
  b->chain = c + 1;
  if (ro->nwatch == 0) addrhat(b);
  return b;
}

/* t (a table of chain runs, on top) becomes a chains object. */
void olua_setchains (lua_State *L)
{
  luaL_setmetatable(L, OLUA_CHAINS);
}

/* run(p, sampler, opts) with opts.chains = k > 1 (problem at 1, method at
** 2): the chains object, stepped to the end. */
int olua_runchains (lua_State *L, const ropts *ro, const char *title,
                    long speed, int paused)
{
  lproblem *pb = olua_checkproblem(L, 1);
  int k = ro->chains, n = pb->p->n, c, rt;
  lrun **boxes = lua_newuserdatauv(L, (size_t)k * sizeof *boxes, 0);
  double *xs = lua_newuserdatauv(L, (size_t)k * (size_t)n * sizeof *xs, 0);
  lua_createtable(L, k, 0);
  rt = lua_gettop(L);
  luaL_setmetatable(L, OLUA_CHAINS);
  for (c = 0; c < k; c++) {
    boxes[c] = olua_mkchain(L, ro, c, xs + (size_t)c * n);
    lua_rawseti(L, rt, c + 1);
  }
  olua_exp_drive(L, boxes, k, title, ro->useview, ro->progress, speed,
                 paused);
  lua_pushvalue(L, rt);
  return 1;
}

void olua_opensample (lua_State *L)
{
  luaL_newmetatable(L, OLUA_CHAINS);
  lua_pushcfunction(L, chains_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, chains_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}
