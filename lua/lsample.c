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
** Stan disperses its inits on the unconstrained scale).  A start where the
** log density or its gradient is not finite is re-initialised as Stan's
** services/util/initialize.hpp does with random inits: up to 100 points
** uniform in (-2, 2)^n on the unconstrained scale, from the same stream;
** the chain's note (lrun.note, shown by print) says so.
**
** Names: a problem made with params= (lproblem.c) keeps the flat names
** of its coordinates ("theta[1]") in its anchor table; summaries use
** them, CmdStan CSV headers write them as CmdStan does ("theta.1") and
** r:draws() hands each draw to the problem's unflatten function, so a
** draw is the named table logp receives.
**
** Warnings (sampletable), in Stan's words: R-hat (compared on the value
** printed), low ESS, divergences that are curvature's, log densities that
** were NaN or +-inf (named, with the first point, never as divergences),
** NUTS transitions that hit maxdepth (count and fraction), chains that
** kept no draws (left out of the pooled summary, named).  The counts are
** the chains' states' (core/sample/stats.h); a chain gathered from a task
** file has a fresh state, so its divergences come from its kept draws'
** flags and it has no non-finite or maxdepth counts.
**
** diag: diag.summary(chains), diag.rhat, diag.ess_bulk, diag.ess_tail,
** diag.mcse on draws from anywhere (core/diag.h); diag.read_csv is Lua
** (lua/prelude.lua).
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

/* == names ================================================================ */

/* Push the anchor table field key of the problem of the run or chains at
** idx (nil when there is none). */
static int pushprobfield (lua_State *L, int idx, const char *key)
{
  int top = lua_gettop(L);
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TTABLE) lua_rawgeti(L, idx, 1);
  else lua_pushvalue(L, idx);
  if (lua_type(L, -1) != LUA_TUSERDATA ||
      lua_getiuservalue(L, -1, 1) != LUA_TUSERDATA ||   /* the problem */
      lua_getiuservalue(L, -1, 1) != LUA_TTABLE) {      /* its anchor */
    lua_settop(L, top);
    lua_pushnil(L);
    return LUA_TNIL;
  }
  lua_getfield(L, -1, key);
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  return lua_type(L, -1);
}

/* The n coordinate names of the problem of the object at idx as a
** malloc'd array of borrowed strings (anchored by the problem), or NULL
** when it has none.  Balanced on the stack. */
static const char **getnames (lua_State *L, int idx, int n)
{
  const char **nm = NULL;
  int j, top = lua_gettop(L);
  if (pushprobfield(L, idx, "names") == LUA_TTABLE &&
      (int)lua_rawlen(L, -1) == n && (nm = malloc((size_t)n * sizeof *nm))
      != NULL)
    for (j = 0; j < n; j++) {
      lua_rawgeti(L, -1, j + 1);
      nm[j] = lua_tostring(L, -1);
      lua_pop(L, 1);
      if (nm[j] == NULL) {
        free(nm);
        nm = NULL;
        break;
      }
    }
  lua_settop(L, top);
  return nm;
}

/* The name of coordinate j (0-based) into buf: names[j], else "x[j+1]";
** csv: CmdStan's form ("theta[2]" -> "theta.2", "x.3"). */
static const char *coordname (const char *const *names, int j, int csv,
                              char *buf, size_t sz)
{
  if (names == NULL) snprintf(buf, sz, csv ? "x.%d" : "x[%d]", j + 1);
  else if (!csv) snprintf(buf, sz, "%s", names[j]);
  else {
    size_t i = 0;
    const char *p;
    for (p = names[j]; *p != '\0' && i + 1 < sz; p++)
      if (*p == '[' || *p == ',') buf[i++] = '.';
      else if (*p != ']' && *p != ' ') buf[i++] = *p;
    buf[i] = '\0';
  }
  return buf;
}

/* == starts ================================================================ */

/* The potential U at u and whether it (and, unless the method needs no
** gradient, grad U) is finite; *U is the value met.  Any other failure
** of the oracle (a callback's error) counts as valid: the run reports
** it itself. */
static int validstart (const ol_problem *p, const double *u, int needg,
                       double *g, double *work, double *U)
{
  ol_err e;
  int rc;
  *U = 0;
  rc = ol_problem_eval(p, u, U, needg ? g : NULL, work, &e);
  return rc != OL_EDOM;
}

/* The log density a potential U stands for, in words. */
static const char *lpword (double U)
{
  if (isnan(U)) return "nan";
  if (U == INFINITY) return "-inf";
  if (U == -INFINITY) return "+inf";
  return NULL;                          /* finite: the gradient was not */
}

/* Chain c's start into xs (n doubles): x0 (the option, else the
** problem's; its length checked first), for c > 0 moved by u ~ U(-2, 2)^n
** from gen, the generator (seed, 2^40 + c). */
static void chainstart (lua_State *L, const ropts *ro, int c, double *xs,
                        ol_rng *gen, const char *who)
{
  const ol_problem *p = olua_checkproblem(L, 1)->p;
  int n = p->n, i;
  const double *x0 = ro->o.x0 != NULL ? ro->o.x0 : p->x0;
  if (ro->o.x0 != NULL && ro->x0len != n)
    luaL_error(L, "%s: x0 has %d entries, expected n = %d", who, ro->x0len,
               n);
  ol_rng_seed(gen, ro->o.seed, (UINT64_C(1) << 40) + (uint64_t)c);
  for (i = 0; i < n; i++)
    xs[i] = x0[i] + (c == 0 ? 0 : 4 * ol_rng_uniform(gen) - 2);
}

/* The run on top (made from xs) stopped at iteration 0 on a non-finite
** log density or gradient: look for a start as Stan's random inits do, up
** to 100 points uniform in (-2, 2)^n on the unconstrained scale from gen,
** and replace the run on top by one made from the first valid one (opts
** rc, x0 = xs).  The box's note says what happened either way.  Nothing
** is evaluated when the start was valid. */
static lrun *reinit (lua_State *L, ropts *rc, lrun *b, double *xs,
                     ol_rng *gen)
{
  const ol_problem *p = olua_checkproblem(L, 1)->p;
  const ol_method_type *m = olua_checkmethod(L, 2)->t;
  int n = p->n, i, k, needg = !(m->flags & OL_M_NOGRAD), chain = b->chain;
  double *g, U, U0;
  char note[sizeof b->note];
  const char *where = chain <= 1 ? "x0" : "its dispersed start";
  if (ol_run_reason(b->r) != OL_STOP_NONFINITE || ol_run_iter(b->r) != 0)
    return b;
  g = lua_newuserdatauv(L, 2 * (size_t)n * sizeof *g, 0);
  validstart(p, xs, needg, g, g + n, &U0);   /* what was wrong there */
  for (k = 1; k <= 100; k++) {
    for (i = 0; i < n; i++) xs[i] = 4 * ol_rng_uniform(gen) - 2;
    if (validstart(p, xs, needg, g, g + n, &U)) break;
  }
  lua_pop(L, 1);
  if (k > 100) {
    snprintf(b->note, sizeof b->note, "%s at %s and at 100 random points in "
             "(-2, 2)^%d on the unconstrained scale, so it could not start "
             "(give an x0 where logp is finite)", lpword(U0) ?
             "the log density is not finite" : "the gradient of the log "
             "density is not finite", where, n);
    return b;
  }
  if (lpword(U0) != NULL)
    snprintf(note, sizeof note, "re-initialised: the log density is %s at "
             "%s, so it starts at a random point in (-2, 2)^%d on the "
             "unconstrained scale (try %d of up to 100, as Stan's random "
             "inits)", lpword(U0), where, n, k);
  else
    snprintf(note, sizeof note, "re-initialised: the gradient of the log "
             "density is not finite at %s, so it starts at a random point in "
             "(-2, 2)^%d on the unconstrained scale (try %d of up to 100, as "
             "Stan's random inits)", where, n, k);
  lua_pop(L, 1);                                 /* the failed run */
  rc->o.x0 = xs;
  rc->x0len = n;
  b = olua_mkrun(L, 1, 2, rc, "run");
  b->chain = chain;
  memcpy(b->note, note, sizeof note);
  return b;
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

/* The chains of b[0..k) that kept draws into u (their number), the fewest
** draws any of them kept into *S and the thinning of the first into
** *thin. */
static int usable (lrun **b, int k, lrun **u, long *S, long *thin)
{
  int c, ku = 0;
  long rows, th;
  *S = 0;
  *thin = 1;
  for (c = 0; c < k; c++) {
    ol_run_draws(b[c]->r, &rows, &th, NULL);
    if (rows <= 0) continue;
    if (ku == 0 || rows < *S) *S = rows;
    if (ku == 0) *thin = th;
    u[ku++] = b[c];
  }
  return ku;
}

/* x:draws() -> {chain1, ...}, each a list of draws, each an array of n
** (or, for a problem with named parameters, the named table its logp
** receives). */
static int s_draws (lua_State *L)
{
  lrun *b[64];
  int k = getruns(L, 1, b, "draws"), c, n = ol_run_n(b[0]->r), named;
  long thin, s;
  common_draws(L, b, k, &thin, "draws");
  named = pushprobfield(L, 1, "unflatten") == LUA_TFUNCTION;
  lua_createtable(L, k, 0);
  for (c = 0; c < k; c++) {
    long rows;
    const double *d = ol_run_draws(b[c]->r, &rows, NULL, NULL);
    lua_createtable(L, (int)rows, 0);
    for (s = 0; s < rows; s++) {
      if (named) lua_pushvalue(L, -3);
      olua_pushvec(L, d + s * (OL_DRAW_COLS + n) + OL_DRAW_COLS, n);
      if (named) lua_call(L, 1, 1);
      lua_rawseti(L, -2, s + 1);
    }
    lua_rawseti(L, -2, c + 1);
  }
  return 1;
}

/* text += the formatted arguments (text: malloc'd, grown; on failure it
** stays as it was). */
static void tadd (char **text, size_t *len, const char *fmt, ...)
{
  char line[1024];
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

/* R-hat as the table prints it (%.3f would hide 1.0104 as 1.010; four
** decimals, and the warning compares that printed value, so that it
** never reads "1.01 (> 1.01)"). */
static double rhat_shown (double r, char *buf, size_t sz)
{
  snprintf(buf, sz, "%.4f", r);
  return strtod(buf, NULL);
}

/* nm cut to w bytes in place keeping its end from the last '[' (the
** index, which tells the rows of one vector apart), the cut marked "~". */
static void fitname (char *nm, int w)
{
  int l = (int)strlen(nm), t;
  const char *br = strrchr(nm, '[');
  if (l <= w) return;
  t = br != NULL ? (int)(nm + l - br) : 0;
  if (t > w / 2) t = w / 2;
  memmove(nm + w - t, nm + l - t, (size_t)t + 1);
  nm[w - t - 1] = '~';
}

/* The rows of a summary table: lp (NULL: no lp__ row) then n coordinates
** named by names (NULL: x[j]), at most 24 of them. */
static void addrows (char **text, size_t *len, const ol_summary *lp,
                     const ol_summary *sum, int n, const char *const *names)
{
  int j, w = 7;
  char nm[64], rb[32];
  for (j = 0; j < n && j < 24; j++) {
    int l = (int)strlen(coordname(names, j, 0, nm, sizeof nm));
    if (l > w) w = l > 24 ? 24 : l;
  }
  tadd(text, len, "\n  %-*s      mean      mcse        sd        5%%"
       "       50%%       95%%  ess_bulk  ess_tail    rhat", w, "");
  for (j = -1; j < n && j < 24; j++) {
    const ol_summary *r = j < 0 ? lp : &sum[j];
    if (r == NULL) continue;
    if (j < 0) snprintf(nm, sizeof nm, "lp__");
    else coordname(names, j, 0, nm, sizeof nm);
    fitname(nm, w);
    snprintf(rb, sizeof rb, "%.4f", r->rhat);
    tadd(text, len, "\n  %-*.*s %9.4g %9.2g %9.4g %9.4g %9.4g %9.4g %9.0f "
         "%9.0f %7s", w, w, nm, r->mean, r->mcse_mean, r->sd, r->q5, r->q50,
         r->q95, r->ess_bulk, r->ess_tail, rb);
  }
  if (n > 24)
    tadd(text, len, "\n  ... (%d coordinates: r:summary())", n);
}

/* The R-hat and ESS warnings of the summaries sum[0..n) of k chains. */
static void addwarnings (char **text, size_t *len, const ol_summary *sum,
                         int n, const char *const *names, int k)
{
  int j, worstj = -1, nanj = -1;
  double worst = -INFINITY;
  char nm[64], rb[32];
  for (j = 0; j < n; j++) {
    if (isnan(sum[j].rhat)) {
      if (nanj < 0) nanj = j;
    }
    else if (sum[j].rhat > worst) {
      worst = sum[j].rhat;
      worstj = j;
    }
  }
  if (worstj >= 0 && rhat_shown(worst, rb, sizeof rb) > 1.01)
    tadd(text, len, "\nwarning: R-hat is %s for %s (above 1.01): the chains "
         "have not mixed; their draws are not yet from one distribution "
         "(run longer, or reparameterize)", rb,
         coordname(names, worstj, 0, nm, sizeof nm));
  if (nanj >= 0)
    tadd(text, len, "\nwarning: R-hat and ESS of %s are not defined: its "
         "draws are constant (a coordinate the chains never moved: check "
         "that the density depends on it)", coordname(names, nanj, 0, nm,
                                                     sizeof nm));
  for (j = 0, worst = INFINITY; j < n; j++) {
    if (sum[j].ess_bulk < worst) worst = sum[j].ess_bulk;
    if (sum[j].ess_tail < worst) worst = sum[j].ess_tail;
  }
  if (worst < 100.0 * k)
    tadd(text, len, "\nwarning: the effective sample size is as low as %.0f "
         "(< 100 per chain): means, quantiles and MCSEs are unreliable (run "
         "longer)", worst);
}

/* The point x (n doubles) as "(1.5, -0.2, ...)" into buf. */
static const char *pointtext (const double *x, int n, char *buf, size_t sz)
{
  size_t at = 0;
  int j;
  buf[0] = '\0';
  for (j = 0; j < n && j < 8 && at + 32 < sz; j++)
    at += (size_t)snprintf(buf + at, sz - at, "%s%.4g", j ? ", " : "(",
                           x[j]);
  snprintf(buf + at, sz - at, "%s)", n > 8 ? ", ..." : "");
  return buf;
}

/* The summary table and its warnings for chains b[0..k), as malloc'd
** text (NULL when b is not a sampler's or out of memory). */
static char *sampletable (lrun **b, int k, const char *const *names)
{
  char *text = NULL, num[256], pt[320];
  size_t len = 0;
  lrun *u[64];
  int n = ol_run_n(b[0]->r), c, ku;
  long thin, S, seen, rows, ndiv = 0, nleap = 0, total = 0;
  long htot = 0, hdiv = 0, hdivnf = 0, hnf = 0, hnfw = 0, hmax = 0;
  double acc = 0, eps = 0, depth = 0, nfU = 0;
  const double *nfx = NULL;
  const ol_run *nfrun = NULL;
  int maxdepth = 0;
  ol_summary *sum;
  ol_err e;
  if (ol_run_method(b[0]->r)->family != OL_SAMPLER) return NULL;
  ku = usable(b, k, u, &S, &thin);
  ol_run_draws(ku > 0 ? u[0]->r : b[0]->r, &rows, NULL, &seen);
  /* (1) the header: which chains the table pools */
  if (ku == k)
    tadd(&text, &len, "\n  %d chain%s, warmup %ld, %ld draws each kept", k,
         k == 1 ? "" : "s", ol_run_warmup(b[0]->r), S);
  else {
    size_t at = 0;
    num[0] = '\0';
    for (c = 0; c < k && at + 8 < sizeof num; c++)
      if (ol_run_draws(b[c]->r, &rows, NULL, NULL), rows <= 0)
        at += (size_t)snprintf(num + at, sizeof num - at, "%s%d",
                               at ? ", " : "", c + 1);
    if (k == 1)
      tadd(&text, &len, "\n  1 chain: it kept no draws (stopped at "
           "iteration %ld)", ol_run_iter(b[0]->r));
    else
      tadd(&text, &len, "\n  %d of %d chains kept draws, warmup %ld, %ld "
           "draws each kept; chain%s %s kept none and %s left out", ku, k,
           ol_run_warmup(b[0]->r), S, k - ku > 1 ? "s" : "", num,
           k - ku > 1 ? "are" : "is");
  }
  if (ku > 0 && thin > 1)
    tadd(&text, &len, " (every %ld-th of %ld: the max_draws cap)", thin,
         seen);
  if (ku > 0 && S < 4) tadd(&text, &len, "; too few for a summary");
  for (c = 0; c < k; c++)
    if (b[c]->note[0] != '\0')
      tadd(&text, &len, "\n  note: %s%s%s", k > 1 ? "chain " : "",
           k > 1 ? (snprintf(pt, sizeof pt, "%d: ", c + 1), pt) : "",
           b[c]->note);
  /* (2) the sampler's own counts: post-warmup transitions of every chain
  ** (the states' statistics), divergences, non-finite values, maxdepth */
  for (c = 0; c < k; c++) {
    const ol_run *r = b[c]->r;
    const ol_method_type *m = ol_run_method(r);
    ol_sampler_stat st;
    double U;
    const double *x;
    long post;
    if (ol_sampler_stats(m, ol_run_state(r), &st) != OL_OK) continue;
    post = st.iter - ol_sampler_warmup(m, ol_run_state(r));
    htot += post > 0 ? post : 0;
    hdiv += st.ndivergent;
    hdivnf += st.ndiv_nonfinite;
    hnf += st.nnonfinite;
    hnfw += st.nnonfinite_warmup;
    hmax += st.nmaxdepth;
    {                     /* a tree-building sampler's depth limit */
      int i;
      for (i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, "maxdepth") == 0)
          maxdepth = (int)ol_run_params(r)[i];
    }
    if (nfx == NULL && (x = ol_sampler_nonfinite_at(m, ol_run_state(r), &U))
        != NULL) {
      nfx = x;
      nfU = U;
      nfrun = r;
    }
  }
  if (ku == 0 || S < 4) goto nonfinite;
  /* (3) the table, pooled over the chains with draws */
  sum = malloc((size_t)(n + 1) * sizeof *sum);
  if (sum == NULL) return text;
  if (summarize(u, ku, S, n, sum, &e) != OL_OK) {
    tadd(&text, &len, "\n  summary failed: %s", e.msg);
    free(sum);
    return text;
  }
  /* lp__ only when the sampler evaluates the log density (sgld does
  ** not: its lp__ is NaN, and its summary failed) */
  addrows(&text, &len, isnan(sum[n].mean) ? NULL : &sum[n], sum, n, names);
  /* (4) sampler statistics over the kept draws */
  for (c = 0; c < ku; c++) {
    const double *d = ol_run_draws(u[c]->r, &rows, NULL, NULL);
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
    tadd(&text, &len, "\n  sampler:");
    if (isfinite(acc)) tadd(&text, &len, " accept_stat %.3g,", acc / total);
    if (isfinite(eps)) tadd(&text, &len, " stepsize %.3g", eps / total);
    if (nleap > 0)
      tadd(&text, &len, ", treedepth %.3g, leapfrogs/draw %.3g, "
           "divergences %ld", depth / total, (double)nleap / total,
           htot > 0 ? hdiv - hdivnf : ndiv);
    if (hnf > 0)
      tadd(&text, &len, ", non-finite logp %ld", hnf);
  }
  addwarnings(&text, &len, sum, n, names, ku);
  free(sum);
  /* (5) divergences that are the curvature's (a gathered run has no
  ** state counts: its kept draws' flags) */
  {
    long dv = htot > 0 ? hdiv - hdivnf : ndiv, of = htot > 0 ? htot : total;
    if (dv > 0)
      tadd(&text, &len, "\nwarning: %ld of %ld transitions after warmup "
           "(%.2g%%) diverged: the sampler could not follow the density's "
           "curvature there, so the draws may be biased (raise delta closer "
           "to 1, e.g. sample.nuts{delta = 0.95}, or reparameterize)", dv,
           of, 100.0 * (double)dv / (double)of);
  }
  /* (6) NUTS trajectories cut at maxdepth (Stan's check_treedepth) */
  if (hmax > 0 && htot > 0)
    tadd(&text, &len, "\nwarning: %ld of %ld transitions after warmup "
         "(%.2g%%) hit the maximum tree depth %d (2^%d - 1 leapfrog steps): "
         "trajectories cut short explore slowly (raise maxdepth, e.g. "
         "sample.nuts{maxdepth = %d}, at more cost per draw, or "
         "reparameterize)", hmax, htot, 100.0 * (double)hmax / (double)htot,
         maxdepth, maxdepth, maxdepth + 2);
nonfinite:
  /* (7) a log density that was NaN or +-inf, named as such */
  if (nfx != NULL && (hnf > 0 || hnfw > 0)) {
    double *x = malloc((size_t)n * sizeof *x);
    const char *w = lpword(nfU);
    /* only in warmup (large early steps, as in Stan's first windows): the
    ** draws kept never met it, so it is a note, not a warning */
    const char *lvl = hnf > 0 ? "warning" : "note";
    char counts[160];
    int j, xinf = 0;
    if (x == NULL) return text;
    ol_problem_constrain(ol_run_problem(nfrun), nfx, x);
    pointtext(x, n, pt, sizeof pt);
    for (j = 0; j < n; j++) xinf |= !isfinite(x[j]);
    free(x);
    if (hnf > 0)
      snprintf(counts, sizeof counts, "%ld of %ld transitions after warmup "
               "(%.2g%%)", hnf, htot, 100.0 * (double)hnf / (double)htot);
    else
      snprintf(counts, sizeof counts, "%ld warmup transitions (none "
               "after warmup)", hnfw);
    if (w == NULL)
      tadd(&text, &len, "\n%s: the gradient of the log density was not "
           "finite at x = %s; %s met a non-finite gradient and were rejected "
           "there (these are not divergences of curvature): make the "
           "gradient finite wherever logp is", lvl, pt, counts);
    else if (xinf)                 /* a step so long that x overflowed */
      tadd(&text, &len, "\n%s: logp returned %s at x = %s, a point whose "
           "coordinates overflowed (a leapfrog step too long for the scale "
           "of x, as early in warmup; or x = lower + exp(u) past the "
           "largest double); %s met it and were rejected there (not "
           "curvature)%s", lvl, w, pt, counts, hnf > 0 ? ": give x0 near "
           "the typical set, or rescale the parameters towards 1" : "");
    else if (nfU == INFINITY)
      tadd(&text, &len, "\n%s: logp returned -inf at x = %s; %s met a "
           "log density of -inf (zero density) and were rejected there (not "
           "curvature): if that is outside the support, declare the support "
           "with lower = / upper = so that the sampler never leaves it", lvl,
           pt, counts);
    else
      tadd(&text, &len, "\n%s: logp returned %s at x = %s; %s met a "
           "log density of %s and were rejected there (not curvature, and "
           "raising delta will not help): make logp finite wherever it can "
           "be evaluated (bounds with lower = / upper =, or guard the "
           "expression that gives %s)", lvl, w, pt, counts, w, w);
  }
  return text;
}

void olua_addsampletable (lua_State *L, luaL_Buffer *bf, lrun **b, int k)
{
  int idx = lua_gettop(L) > 0 && (lua_type(L, 1) == LUA_TTABLE ||
                                   lua_type(L, 1) == LUA_TUSERDATA) ? 1 : 0;
  const char **names = NULL;
  char *t;
  /* the object printed is at 1 (run_tostring, chains_tostring) */
  if (idx && (lua_type(L, 1) == LUA_TTABLE ?
              (lua_rawgeti(L, 1, 1), lua_touserdata(L, -1)) :
              lua_touserdata(L, 1)) == (void *)b[0])
    names = getnames(L, 1, ol_run_n(b[0]->r));
  if (idx && lua_type(L, 1) == LUA_TTABLE) lua_pop(L, 1);
  t = sampletable(b, k, names);
  free(names);
  if (t != NULL) luaL_addstring(bf, t);
  free(t);
}

#define OLUA_SUMMARY "optlab.summary"

/* One summary row {name, mean, sd, mcse, q5, q50, q95, ess_bulk,
** ess_tail, rhat} pushed. */
static void pushrow (lua_State *L, const ol_summary *r, const char *name)
{
  lua_createtable(L, 0, 10);
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
}

/* The summary object pushed: rows for the n coordinates (names[j], else
** x[j]), field lp__ with lp's row when lp is not NULL, field chains = k;
** it prints as the sampler's table (summary_tostring). */
static void pushsummary (lua_State *L, const ol_summary *sum, int n,
                         const char *const *names, const ol_summary *lp,
                         int k)
{
  char nm[64];
  int j;
  lua_createtable(L, n, 2);
  for (j = 0; j < n; j++) {
    pushrow(L, &sum[j], coordname(names, j, 0, nm, sizeof nm));
    lua_rawseti(L, -2, j + 1);
  }
  if (lp != NULL) {
    pushrow(L, lp, "lp__");
    lua_setfield(L, -2, "lp__");
  }
  lua_pushinteger(L, k);
  lua_setfield(L, -2, "chains");
  luaL_setmetatable(L, OLUA_SUMMARY);
}

/* A row of a summary object (the table at idx) back into *r and its
** name; 0 when it is not one. */
static int readrow (lua_State *L, int idx, ol_summary *r, const char **name)
{
  static const char *const f[] = {"mean", "sd", "mcse", "q5", "q50", "q95",
                                  "ess_bulk", "ess_tail", "rhat"};
  double v[9];
  int i;
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  for (i = 0; i < 9; i++) {
    lua_getfield(L, idx, f[i]);
    v[i] = lua_isnumber(L, -1) ? lua_tonumber(L, -1) : NAN;
    lua_pop(L, 1);
  }
  memset(r, 0, sizeof *r);
  r->mean = v[0];
  r->sd = v[1];
  r->mcse_mean = v[2];
  r->q5 = v[3];
  r->q50 = v[4];
  r->q95 = v[5];
  r->ess_bulk = v[6];
  r->ess_tail = v[7];
  r->rhat = v[8];
  lua_getfield(L, idx, "name");
  *name = lua_tostring(L, -1);      /* anchored by the row */
  lua_pop(L, 1);
  return *name != NULL;
}

/* print(summary): the table and warnings of a sampler run. */
static int summary_tostring (lua_State *L)
{
  int n, j, k, haslp;
  ol_summary *sum, lp;
  const char **names;
  const char *lpname;
  char *text = NULL;
  size_t len = 0;
  luaL_checktype(L, 1, LUA_TTABLE);
  n = (int)lua_rawlen(L, 1);
  lua_getfield(L, 1, "chains");
  k = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 1;
  lua_pop(L, 1);
  sum = lua_newuserdatauv(L, (size_t)(n + 1) * sizeof *sum, 0);
  names = lua_newuserdatauv(L, (size_t)(n + 1) * sizeof *names, 0);
  for (j = 0; j < n; j++) {
    lua_rawgeti(L, 1, j + 1);
    if (!readrow(L, -1, &sum[j], &names[j]))
      return luaL_error(L, "summary: row %d is not a summary row", j + 1);
    lua_pop(L, 1);
  }
  lua_getfield(L, 1, "lp__");
  haslp = readrow(L, -1, &lp, &lpname);
  lua_pop(L, 1);
  addrows(&text, &len, haslp ? &lp : NULL, sum, n, names);
  addwarnings(&text, &len, sum, n, names, k);
  lua_pushstring(L, text != NULL ? text + 1 : "");   /* without its \n */
  free(text);
  return 1;
}

/* x:summary() -> a summary object: one row per coordinate {name, mean,
** sd, mcse, q5, q50, q95, ess_bulk, ess_tail, rhat}, lp__ (its row, when
** the sampler evaluates the log density) and chains (those that kept
** draws, pooled); print() shows the table. */
static int s_summary (lua_State *L)
{
  lrun *b[64], *u[64];
  int k = getruns(L, 1, b, "summary"), n = ol_run_n(b[0]->r), ku;
  long thin, S;
  ol_summary *sum;
  const char **names;
  ol_err e;
  common_draws(L, b, k, &thin, "summary");      /* samplers only */
  ku = usable(b, k, u, &S, &thin);
  if (ku == 0 || S < 4)
    return luaL_error(L, "summary: %d draws per chain, needs 4 (run more "
                      "iterations)", (int)S);
  sum = lua_newuserdatauv(L, (size_t)(n + 1) * sizeof *sum, 0);
  if (summarize(u, ku, S, n, sum, &e) != OL_OK)
    return luaL_error(L, "summary: %s", e.msg);
  names = getnames(L, 1, n);
  pushsummary(L, sum, n, names, isnan(sum[n].mean) ? NULL : &sum[n], ku);
  free(names);
  return 1;
}

/* x:stats() -> the sampler statistics over the kept draws of every
** chain: {draws, accept_stat (mean), stepsize (mean), treedepth (mean),
** n_leapfrog (sum), divergences (sum)}, and over every transition after
** warmup (the chains' own counts): transitions, nonfinite (those that
** met a log density or gradient that was NaN or +-inf, not counted as
** divergences), maxdepth (NUTS transitions that hit maxdepth). */
static int s_stats (lua_State *L)
{
  lrun *b[64];
  int k = getruns(L, 1, b, "stats"), c, n = ol_run_n(b[0]->r);
  long total = 0, s, rows, htot = 0, hdiv = 0, hnf = 0, hmax = 0;
  double acc = 0, eps = 0, depth = 0, leap = 0, div = 0;
  for (c = 0; c < k; c++) {
    const double *d = ol_run_draws(b[c]->r, &rows, NULL, NULL);
    const ol_method_type *m = ol_run_method(b[c]->r);
    ol_sampler_stat st;
    for (s = 0; s < rows; s++) {
      const double *row = d + s * (OL_DRAW_COLS + n);
      acc += row[1];
      eps += row[2];
      depth += row[3];
      leap += row[4];
      div += row[5] != 0;
      total++;
    }
    if (ol_sampler_stats(m, ol_run_state(b[c]->r), &st) == OL_OK) {
      long post = st.iter - ol_sampler_warmup(m, ol_run_state(b[c]->r));
      htot += post > 0 ? post : 0;
      hdiv += st.ndivergent - st.ndiv_nonfinite;
      hnf += st.nnonfinite;
      hmax += st.nmaxdepth;
    }
  }
  lua_createtable(L, 0, 9);
  lua_pushinteger(L, total);
  lua_setfield(L, -2, "draws");
#define SET(f, v) (lua_pushnumber(L, (v)), lua_setfield(L, -2, f))
  SET("accept_stat", total > 0 ? acc / total : NAN);
  SET("stepsize", total > 0 ? eps / total : NAN);
  SET("treedepth", total > 0 ? depth / total : NAN);
  SET("n_leapfrog", leap);
  SET("divergences", htot > 0 ? (double)hdiv : div);
#undef SET
  lua_pushinteger(L, htot);
  lua_setfield(L, -2, "transitions");
  lua_pushinteger(L, hnf);
  lua_setfield(L, -2, "nonfinite");
  lua_pushinteger(L, hmax);
  lua_setfield(L, -2, "maxdepth");
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
  const char **names;
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
  /* then the coordinate names, kept by Lua */
  if ((names = getnames(L, 1, n)) != NULL) {   /* kept by Lua: may raise */
    const char **kept = lua_newuserdatauv(L, (size_t)n * sizeof *kept, 0);
    memcpy(kept, names, (size_t)n * sizeof *kept);
    free(names);
    names = kept;
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
      char nm[64];
      if (j < OL_DRAW_COLS) len = snprintf(buf, sizeof buf, "%s,",
                                           statnames[j]);
      else len = snprintf(buf, sizeof buf, "%s%s",
                          coordname(names, j - OL_DRAW_COLS, 1, nm, sizeof nm),
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
  int n = olua_checkproblem(L, 1)->p->n;
  ropts rc = *ro;
  ol_rng gen;
  lrun *b;
  chainstart(L, ro, c, xs, &gen, "run");
  rc.o.stream = ro->o.stream + (uint64_t)c;
  rc.o.x0 = xs;
  rc.x0len = n;
  b = olua_mkrun(L, 1, 2, &rc, "run");
  b->chain = c + 1;
  b = reinit(L, &rc, b, xs, &gen);
  if (ro->nwatch == 0) addrhat(b);
  return b;
}

lrun *olua_mksampler (lua_State *L, const ropts *ro)
{
  int n = olua_checkproblem(L, 1)->p->n;
  double *xs = lua_newuserdatauv(L, (size_t)n * sizeof *xs, 0);
  ropts rc = *ro;
  ol_rng gen;
  lrun *b;
  chainstart(L, ro, 0, xs, &gen, "run");
  rc.o.x0 = xs;
  rc.x0len = n;
  b = olua_mkrun(L, 1, 2, &rc, "run");   /* copies x0 */
  b = reinit(L, &rc, b, xs, &gen);
  lua_remove(L, -2);
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
                    double speed, int paused)
{
  lproblem *pb = olua_checkproblem(L, 1);
  int k = ro->chains, n = pb->p->n, c, rt;
  lrun **boxes = lua_newuserdatauv(L, (size_t)k * sizeof *boxes, 0);
  double *xs = lua_newuserdatauv(L, (size_t)k * (size_t)n * sizeof *xs, 0);
  char head[300];
  /* the view's legends say "chain k" (core/plot: pn_label); the title says
  ** which sampler they are chains of */
  snprintf(head, sizeof head, "%s: %s, %d chains", title,
           olua_checkmethod(L, 2)->t->name, k);
  lua_createtable(L, k, 0);
  rt = lua_gettop(L);
  luaL_setmetatable(L, OLUA_CHAINS);
  for (c = 0; c < k; c++) {
    boxes[c] = olua_mkchain(L, ro, c, xs + (size_t)c * n);
    lua_rawseti(L, rt, c + 1);
  }
  if (olua_exp_drive(L, boxes, k, head, ro->useview, ro->progress, speed,
                     paused))
    olua_keepframe(L, rt);
  lua_pushvalue(L, rt);
  return 1;
}


/* == diag: diagnostics of draws from anywhere =============================== */

/* The draws at idx, a table of m chains of S draws each (a number, or a
** table of dim numbers; one chain of numbers may be given as the list
** itself), into a new userdata pushed: chain c's draw s, coordinate j at
** X[(c S + s) dim + j].  Raises naming the chain and draw at fault. */
static double *readchains (lua_State *L, int idx, const char *who, int *m,
                           long *S, int *dim)
{
  int c, j, nc;
  long s, ns = -1;
  double *X;
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE)
    luaL_error(L, "%s: expected a table of chains (each a table of draws), "
               "got a %s", who, luaL_typename(L, idx));
  lua_rawgeti(L, idx, 1);
  if (lua_type(L, -1) == LUA_TNUMBER) {        /* one chain of numbers */
    lua_pop(L, 1);
    lua_createtable(L, 1, 0);
    lua_pushvalue(L, idx);
    lua_rawseti(L, -2, 1);
    lua_replace(L, idx);
  }
  else lua_pop(L, 1);
  nc = (int)lua_rawlen(L, idx);
  if (nc < 1 || nc > 100000)
    luaL_error(L, "%s: %d chains (give 1 to 100000, each a table of draws)",
               who, nc);
  *dim = -1;
  for (c = 1; c <= nc; c++) {
    long len;
    if (lua_rawgeti(L, idx, c) != LUA_TTABLE)
      luaL_error(L, "%s: chain %d is a %s, not a table of draws", who, c,
                 luaL_typename(L, -1));
    len = (long)lua_rawlen(L, -1);
    if (ns < 0) ns = len;
    else if (len != ns)
      luaL_error(L, "%s: chain %d has %d draws, chain 1 has %d: give chains "
                 "of equal length", who, c, (int)len, (int)ns);
    if (len > 0 && *dim < 0) {
      int ty = lua_rawgeti(L, -1, 1);
      *dim = ty == LUA_TNUMBER ? 0 : ty == LUA_TTABLE ?
        (int)lua_rawlen(L, -1) : -2;
      if (*dim == -2 || (ty == LUA_TTABLE && *dim < 1))
        luaL_error(L, "%s: draw 1 of chain %d is a %s, not a number or a "
                   "table of numbers", who, c, luaL_typename(L, -1));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  if (ns < 1) luaL_error(L, "%s: the chains hold no draws", who);
  *m = nc;
  *S = ns;
  {
    int d = *dim > 0 ? *dim : 1;
    if ((double)nc * (double)ns * d > 1e9)
      luaL_error(L, "%s: %d chains of %d draws of %d is too many", who, nc,
                 (int)ns, d);
    X = lua_newuserdatauv(L, (size_t)nc * (size_t)ns * (size_t)d * sizeof *X,
                          0);
    for (c = 0; c < nc; c++) {
      lua_rawgeti(L, idx, c + 1);
      for (s = 0; s < ns; s++) {
        double *row = X + ((size_t)c * ns + s) * d;
        int ty = lua_rawgeti(L, -1, s + 1), isnum;
        if (*dim == 0) {
          row[0] = lua_tonumberx(L, -1, &isnum);
          if (ty != LUA_TNUMBER || !isnum)
            luaL_error(L, "%s: draw %d of chain %d is a %s, not a number", who,
                       (int)s + 1, c + 1, luaL_typename(L, -1));
        }
        else {
          if (ty != LUA_TTABLE || (int)lua_rawlen(L, -1) != d)
            luaL_error(L, "%s: draw %d of chain %d is not a table of %d "
                       "numbers (as draw 1 of chain 1)", who, (int)s + 1, c + 1,
                       d);
          for (j = 0; j < d; j++) {
            lua_rawgeti(L, -1, j + 1);
            row[j] = lua_tonumberx(L, -1, &isnum);
            if (!isnum)
              luaL_error(L, "%s: entry %d of draw %d of chain %d is a %s, not "
                         "a number", who, j + 1, (int)s + 1, c + 1,
                         luaL_typename(L, -1));
            lua_pop(L, 1);
          }
        }
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
  }
  if (*dim == 0) *dim = 1;
  return X;
}

/* diag.summary(chains [, names]) -> the summary object of sampler runs
** for draws from anywhere (names: chains.names or the argument, one per
** coordinate; "lp__" becomes the lp__ row and CmdStan's other sampler
** columns, ending in "__", are left out). */
static int diag_summary (lua_State *L)
{
  const char *who = "diag.summary";
  int m, dim, j, q = 0, lpj = -1, hasnames;
  long S;
  double *X;
  ol_summary *sum, lp;
  const char **names, **qn;
  ol_err e;
  lua_settop(L, 2);
  if (lua_isnil(L, 2) && lua_type(L, 1) == LUA_TTABLE)
    lua_getfield(L, 1, "names");
  else lua_pushvalue(L, 2);                                /* index 3 */
  hasnames = lua_istable(L, 3);
  X = readchains(L, 1, who, &m, &S, &dim);                 /* index 4 */
  if (S < 4)
    return luaL_error(L, "%s: %d draws per chain, needs 4", who, (int)S);
  if (hasnames && (int)lua_rawlen(L, 3) != dim)
    return luaL_error(L, "%s: %d names for draws of %d numbers", who,
                      (int)lua_rawlen(L, 3), dim);
  sum = lua_newuserdatauv(L, (size_t)dim * sizeof *sum, 0);
  names = lua_newuserdatauv(L, (size_t)dim * sizeof *names, 0);
  qn = lua_newuserdatauv(L, (size_t)dim * sizeof *qn, 0);
  for (j = 0; j < dim; j++) {
    const char *nm = NULL;
    size_t l = 0;
    if (hasnames) {
      lua_rawgeti(L, 3, j + 1);
      nm = lua_tolstring(L, -1, &l);
      lua_pop(L, 1);                   /* anchored by the names table */
      if (nm == NULL)
        return luaL_error(L, "%s: name %d is not a string", who, j + 1);
    }
    names[j] = nm;
    if (nm != NULL && strcmp(nm, "lp__") == 0) {
      lpj = j;
      continue;
    }
    if (nm != NULL && l > 2 && strcmp(nm + l - 2, "__") == 0) continue;
    {
      ol_draws d = ol_draws_coord(X, m, S, dim, j);
      if (ol_diag_summary(&d, &sum[q], &e) != OL_OK)
        return luaL_error(L, "%s: %s%s%s", who, nm ? nm : "", nm ? ": " :
                          "", strncmp(e.msg, "diag: ", 6) == 0 ? e.msg + 6
                          : e.msg);
    }
    qn[q++] = nm;
  }
  if (lpj >= 0) {
    ol_draws d = ol_draws_coord(X, m, S, dim, lpj);
    if (ol_diag_summary(&d, &lp, &e) != OL_OK) lpj = -1;
  }
  if (!hasnames && dim == 1) {
    qn[0] = "x";
    pushsummary(L, sum, q, qn, NULL, m);
  }
  else pushsummary(L, sum, q, hasnames ? qn : NULL, lpj >= 0 ? &lp : NULL,
                   m);
  return 1;
}

/* One quantity (a table of chains of numbers) into the draws view. */
static ol_draws onequantity (lua_State *L, const char *who)
{
  int m, dim;
  long S;
  double *X = readchains(L, 1, who, &m, &S, &dim);
  if (dim != 1)
    luaL_error(L, "%s: the draws are tables of %d numbers; give one quantity "
               "(a table of chains of numbers), or use diag.summary", who,
               dim);
  return ol_draws_plain(X, m, S);
}

static int diag_one (lua_State *L, const char *who,
                     int (*f) (const ol_draws *, double *, ol_err *))
{
  ol_draws d;
  double v;
  ol_err e;
  lua_settop(L, 1);
  d = onequantity(L, who);
  if (f(&d, &v, &e) != OL_OK) return luaL_error(L, "%s: %s", who, e.msg);
  lua_pushnumber(L, v);
  return 1;
}

static int diag_rhat (lua_State *L)
{
  return diag_one(L, "diag.rhat", ol_diag_rhat);
}

static int diag_ess_bulk (lua_State *L)
{
  return diag_one(L, "diag.ess_bulk", ol_diag_ess_bulk);
}

static int diag_ess_tail (lua_State *L)
{
  return diag_one(L, "diag.ess_tail", ol_diag_ess_tail);
}

static int diag_mcse (lua_State *L)
{
  return diag_one(L, "diag.mcse", ol_diag_mcse_mean);
}

static const luaL_Reg diag_funcs[] = {
  {"summary", diag_summary},
  {"rhat", diag_rhat},
  {"ess_bulk", diag_ess_bulk},
  {"ess_tail", diag_ess_tail},
  {"mcse", diag_mcse},
  {NULL, NULL}
};

void olua_opensample (lua_State *L)
{
  luaL_newmetatable(L, OLUA_CHAINS);
  lua_pushcfunction(L, chains_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, chains_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  luaL_newmetatable(L, OLUA_SUMMARY);
  lua_pushcfunction(L, summary_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  luaL_newlib(L, diag_funcs);            /* the global diag (read_csv: */
  lua_setglobal(L, "diag");              /* lua/prelude.lua) */
}
