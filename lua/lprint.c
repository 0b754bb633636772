/*
** lua/lprint.c -- the printed form of run objects, job objects and the
** jobs() list (see lua/lprint.h).
**
** Only formatting lives here: the runs are read through the core's
** accessors (ol_run_*), the jobs through olua_getjobrow (lua/ljob.c).
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lprint.h"
#include "problems/game.h"
#include "problems/kuhn.h"

/* -- runs ----------------------------------------------------------------- */

int olua_runreason (const lrun *b)
{
  return b->intr ? OL_STOP_INTERRUPTED : ol_run_reason(b->r);
}

const char *olua_acceptnote (const ol_run *r, char *buf, size_t sz)
{
  const ol_method_type *m = ol_run_method(r);
  const char *h = m->nparams > 0 ? m->params[0].name : "the step size";
  long t = ol_run_iter(r), a = ol_run_accepted(r);
  if (!(ol_family_of(m)->print & OL_FPRINT_ACCEPT)) return NULL;
  if (a == 0 && t >= 20)
    snprintf(buf, sz, "acceptance 0 over %ld steps: no proposal was "
             "accepted, %s is too large", t, h);
  /* unadjusted samplers accept every step: only OL_M_MH ones here */
  else if (a == t && t >= 100 && (m->flags & OL_M_MH))
    snprintf(buf, sz, "acceptance 1 over %ld steps: every proposal was "
             "accepted, %s is probably too small (the chain barely moves)",
             t, h);
  else return NULL;
  return buf;
}

/* A constrained run: the problem has general constraints, or the method
** handles them (sqp, auglag: on a box). */
static int olua_constrained (const ol_run *r)
{
  const ol_method_type *m = ol_run_method(r);
  return (ol_family_of(m)->print & OL_FPRINT_CONSTR) &&
    (ol_run_problem(r)->con.m > 0 || (m->flags & OL_M_CONSTR));
}

const char *olua_constrnote (const ol_run *r, char *buf, size_t sz)
{
  int why = ol_run_reason(r);
  double v;
  if (!olua_constrained(r) || ol_run_problem(r)->con.m == 0 ||
      (why != OL_STOP_BUDGET && why != OL_STOP_TIME) ||
      !ol_mset_has(ol_run_metrics(r), OL_MET_FEASIBILITY))
    return NULL;
  v = ol_run_last(r, OL_MET_FEASIBILITY);
  if (!(v > OL_CONSTR_WARN)) return NULL;
  snprintf(buf, sz, "warning: the run ended on its %s with the constraints "
           "violated by %.3g (feasibility > %g): x is not a solution; raise "
           "iters, or check the constraints (sqp and auglag stop with reason "
           "\"infeasible\" when they find none can be met)",
           why == OL_STOP_BUDGET ? "budget" : "time limit", v, OL_CONSTR_WARN);
  return buf;
}

/* The shortest of %.15g, %.16g, %.17g that reads back as v. */
static const char *fullnum (char *buf, size_t sz, double v)
{
  int d;
  for (d = 15; d <= 17; d++) {
    snprintf(buf, sz, "%.*g", d, v);
    if (strtod(buf, NULL) == v) break;
  }
  return buf;
}

/* The summary's evaluation line: the method's f, g and Hessian counts,
** how gradients and Hessians were obtained, and the run's own. */
static void addevals (luaL_Buffer *bf, const ol_run *r)
{
  const ol_problem *p = ol_run_problem(r);
  const char *other = ol_family_of(ol_run_method(r))->noevals;
  char buf[320];
  int k;
  if (other != NULL && ol_run_nfev(r) == 0 && ol_run_ngev(r) == 0)
    k = snprintf(buf, sizeof buf, "\n  evaluations: no f or g; %s", other);
  else
    k = snprintf(buf, sizeof buf, "\n  evaluations: %ld f, %ld g%s",
                 ol_run_nfev(r), ol_run_ngev(r),
                 p->fd_grad ? " (g by finite differences)" : "");
  if (ol_run_nhev(r) > 0 && k > 0 && (size_t)k < sizeof buf)
    k += snprintf(buf + k, sizeof buf - (size_t)k, ", %ld Hessians%s",
                  ol_run_nhev(r), p->hess == NULL
                  ? " (by finite differences of g, 2n g each, in g)" : "");
  if ((ol_run_mfev(r) > 0 || ol_run_mgev(r) > 0) && k > 0 &&
      (size_t)k < sizeof buf)
    snprintf(buf + k, sizeof buf - (size_t)k, "; the run's own, for its "
             "records: %ld f, %ld g", ol_run_mfev(r), ol_run_mgev(r));
  luaL_addstring(bf, buf);
}

/* The run's message: a callback error's traceback (olua_msghandler)
** indented under it, so that the summary keeps its shape; none after a
** Ctrl-C, where it says only where the interrupt happened to land. */
static void addmessage (luaL_Buffer *bf, const char *msg, int interrupted)
{
  const char *nl, *tb = strstr(msg, "\nstack traceback:");
  const char *end = interrupted && tb != NULL ? tb : msg + strlen(msg);
  while ((nl = memchr(msg, '\n', (size_t)(end - msg))) != NULL) {
    luaL_addlstring(bf, msg, (size_t)(nl - msg));
    luaL_addstring(bf, "\n    ");
    msg = nl + 1;
    if (*msg == '\t' && msg < end) {           /* the traceback's tab */
      luaL_addstring(bf, "  ");
      msg++;
    }
  }
  luaL_addlstring(bf, msg, (size_t)(end - msg));
}

/* The stop line's reason: the core's name, except where that would read
** "stopped: stopped" or hide who stopped it. */
static const char *stopphrase (int why)
{
  switch (why) {
  case OL_STOP_STOPPED: return "by request (j:stop() or q)";
  case OL_STOP_INTERRUPTED: return "interrupted (Ctrl-C)";
  default: return ol_stop_name(why);
  }
}

/* " 1 1 0.5 ... (n=100)": the first MAXCOORDS of x[0 .. n-1], sig
** digits. */
#define MAXCOORDS 6
static void addcoords_sig (luaL_Buffer *bf, const double *x, int n, int sig)
{
  char buf[48];
  int j;
  for (j = 0; j < n && j < MAXCOORDS; j++) {
    luaL_addchar(bf, ' ');
    luaL_addstring(bf, ol_fmtnum(buf, sizeof buf, x[j], sig));
  }
  if (n > MAXCOORDS) {
    snprintf(buf, sizeof buf, " ... (n=%d)", n);
    luaL_addstring(bf, buf);
  }
}

static void addcoords (luaL_Buffer *bf, const double *x, int n)
{
  addcoords_sig(bf, x, n, 6);
}

/* x'By at z = (x, y), the column player's payoff. */
static double colvalue (const ol_game *G, const double *z)
{
  const double *x = z, *y = z + G->rows;
  double v = 0;
  int i, j;
  for (i = 0; i < G->rows; i++)
    for (j = 0; j < G->cols; j++)
      v += x[i] * G->B[(size_t)i * (size_t)G->cols + (size_t)j] * y[j];
  return v;
}

/* A game run: each player's strategy (the average play when the run keeps
** it, which is what no-regret dynamics converge in; else the last) and
** the value x'Ay of that pair, against the game's value when known; in a
** general-sum game both players' values, x'Ay and x'By, against those of
** the game's one known equilibrium when it has exactly one. */
static void addgame (luaL_Buffer *bf, const ol_run *r)
{
  const ol_problem *p = ol_run_problem(r);
  const double *z = ol_run_xavg(r) != NULL ? ol_run_xavg(r) : ol_run_x(r);
  const double *x = z, *y = z + p->rows;
  const ol_game *G = ol_game_of(p);
  double v = 0;
  char buf[200], num[32], n2[32];
  int i, j;
  for (i = 0; i < p->rows; i++)
    for (j = 0; j < p->cols; j++)
      v += x[i] * p->payoff[(size_t)i * (size_t)p->cols + (size_t)j] * y[j];
  luaL_addstring(bf, ol_run_xavg(r) != NULL ? "\n  average strategies: "
                 "row x:" : "\n  last strategies: row x:");
  addcoords(bf, x, p->rows);
  luaL_addstring(bf, "; column y:");
  addcoords(bf, y, p->cols);
  if (G != NULL && !G->zerosum && G->B != NULL) {
    snprintf(buf, sizeof buf, "\n  values: row x'Ay %s, column x'By %s",
             ol_fmtnum(num, sizeof num, v, 4),
             ol_fmtnum(n2, sizeof n2, colvalue(G, z), 4));
    luaL_addstring(bf, buf);
    if (G->neq == 1) {
      snprintf(buf, sizeof buf, " (at the equilibrium: %s, %s)",
               ol_fmtnum(num, sizeof num, ol_game_value(G, G->eq), 4),
               ol_fmtnum(n2, sizeof n2, colvalue(G, G->eq), 4));
      luaL_addstring(bf, buf);
    }
    return;
  }
  snprintf(buf, sizeof buf, "\n  value x'Ay: %s",
           ol_fmtnum(num, sizeof num, v, 4));
  luaL_addstring(bf, buf);
  if (isfinite(p->fstar)) {
    snprintf(buf, sizeof buf, " (the game's value: %s)",
             ol_fmtnum(num, sizeof num, p->fstar, 4));
    luaL_addstring(bf, buf);
  }
}

/* The behavioural policy x of a game tree by information set, one line
** per situation: "    player 1 opens:  J: bet 0.227 check 0.773   Q:
** ...", each action's probability to 3 decimals, the names from the tree
** (problems/kuhn.h). */
static void addpolicy (luaL_Buffer *bf, const ol_tree *T, const double *x)
{
  char buf[160];
  int I, w = 0;
  for (I = 0; I < T->n; I++)
    if ((int)strlen(T->where[I]) > w) w = (int)strlen(T->where[I]);
  for (I = 0; I < T->n; I++) {
    int first = I == 0 || strcmp(T->where[I], T->where[I - 1]) != 0;
    if (first) {
      snprintf(buf, sizeof buf, "\n    %s:%*s", T->where[I],
               w - (int)strlen(T->where[I]), "");
      luaL_addstring(bf, buf);
    }
    snprintf(buf, sizeof buf, "%s%s: %s %.3f %s %.3f", first ? "  " : "   ",
             T->name[I], T->act[I][1], x[I], T->act[I][0], 1 - x[I]);
    luaL_addstring(bf, buf);
  }
}

/* An extensive-form game run (a problem with a tree): the average policy,
** which is what CFR's guarantees are about, by named information set, its
** exploitability and value; then the last iterate, labelled as such (its
** exploitability need not go to 0). */
static void addtree (luaL_Buffer *bf, const ol_run *r, const ol_tree *T)
{
  const double *xa = ol_run_xavg(r);
  ol_mset rec = ol_run_metrics(r);
  char buf[200], num[32];
  if (xa != NULL) {
    luaL_addstring(bf, "\n  average policy (the one that converges)");
    if (ol_mset_has(rec, OL_MET_EXPLOIT_AVG)) {
      snprintf(buf, sizeof buf, ", exploitability %s",
               ol_fmtnum(num, sizeof num, ol_run_last(r, OL_MET_EXPLOIT_AVG),
                         3));
      luaL_addstring(bf, buf);
    }
    snprintf(buf, sizeof buf, ", value %s", ol_fmtnum(num, sizeof num,
             T->value(T, xa), 4));
    luaL_addstring(bf, buf);
    if (isfinite(ol_run_problem(r)->fstar)) {
      snprintf(buf, sizeof buf, " (the game's value: %s)",
               ol_fmtnum(num, sizeof num, ol_run_problem(r)->fstar, 4));
      luaL_addstring(bf, buf);
    }
    luaL_addchar(bf, ':');
    addpolicy(bf, T, xa);
    luaL_addstring(bf, "\n  last iterate (need not converge)");
  }
  else luaL_addstring(bf, "\n  last iterate policy");
  if (ol_mset_has(rec, OL_MET_EXPLOIT)) {
    snprintf(buf, sizeof buf, ", exploitability %s",
             ol_fmtnum(num, sizeof num, ol_run_last(r, OL_MET_EXPLOIT), 3));
    luaL_addstring(bf, buf);
  }
  luaL_addchar(bf, ':');
  if (xa != NULL) addcoords(bf, ol_run_x(r), ol_run_n(r));
  else addpolicy(bf, T, ol_run_x(r));
}

/* A game run's final line leaves out loss (x'Ay again, or player 1's
** payoff at the last iterate) and kkt (the joint objective's gap, not an
** equilibrium measure) when the metrics are the defaults: the run names
** neither in its metrics or watch options. */
static ol_mset gameshown (const lrun *b, ol_mset rec)
{
  const ol_run *r = b->r;
  ol_mset def = ol_method_metrics(ol_run_problem(r), ol_run_method(r));
  ol_mset drop = OL_MSET_OF(OL_MET_LOSS, OL_MET_KKT);
  int i;
  for (i = 0; i < b->nwatch; i++)
    if (b->watch[i] < OL_NMETRICS) {
      ol_mset_add(&def, b->watch[i]);
      ol_mset_del(&drop, b->watch[i]);
    }
  if (ol_run_problem(r)->kind != OL_GAME || !ol_mset_eq(def, rec)) return rec;
  return ol_mset_minus(rec, drop);
}

/* |t| of the batch means' slope (core/vi/vi.c: drift) above which a
** variational run is said not to have settled: runs still on their way
** showed 6.5 to 35, settled ones at most 5.4 (8 seeds each of 2-D, 10-D
** and banana targets, both families). */
#define VI_DRIFT 6

/* A variational run: the returned q's mean and sds with their Monte Carlo
** errors (core/vi/vi.c: the batch means over the averaging window), and
** which iterations were averaged; or that q is the last iterate. */
static void addvi (luaL_Buffer *bf, const ol_run *r)
{
  const ol_method_type *m = ol_run_method(r);
  const void *st = ol_run_state(r);
  const double *mu, *S, *mse, *cse, *w;
  double sd[MAXCOORDS], cmax = 0;
  char buf[200], num[32];
  int n, rows, cols, i, j;
  if (!ol_run_result(r, "mean", &mu, &rows, &n)) {
    /* restored (a task file, another rank): its q was not kept */
    if (ol_method_result(m, st, "mean", &mu, &rows, &n))
      luaL_addstring(bf, "\n  q: not kept (the run was restored from a "
                     "task file or another rank)");
    return;
  }
  if (n < 1) return;                  /* a q never made */
  luaL_addstring(bf, "\n  q: mean");
  addcoords(bf, mu, n);
  if (ol_run_result(r, "mean_se", &mse, &rows, &cols) &&
      !isnan(mse[0])) {
    luaL_addstring(bf, " (MC se");
    addcoords_sig(bf, mse, n, 2);
    luaL_addstring(bf, ")");
  }
  if (!ol_run_result(r, "cov", &S, &rows, &cols)) return;
  for (i = 0; i < n && i < MAXCOORDS; i++)
    sd[i] = sqrt(S[(size_t)i * (size_t)n + (size_t)i]);
  luaL_addstring(bf, "\n     sd");
  addcoords(bf, sd, n);
  if (ol_run_result(r, "cov_se", &cse, &rows, &cols) &&
      !isnan(cse[0])) {
    for (i = 0; i < n; i++)
      for (j = 0; j <= i; j++) {
        double v = cse[(size_t)i * (size_t)n + (size_t)j];
        if (!(v <= cmax)) cmax = v;   /* NaN propagates */
      }
    snprintf(buf, sizeof buf, " (cov MC se at most %s)",
             ol_fmtnum(num, sizeof num, cmax, 2));
    luaL_addstring(bf, buf);
  }
  if (ol_run_result(r, "window", &w, &rows, &cols) && cols >= 4) {
    snprintf(buf, sizeof buf, "\n     the average of iterations %.0f..%.0f "
             "(Polyak-Ruppert); ", w[0], w[1]);
    luaL_addstring(bf, buf);
    if (w[2] < 2)
      luaL_addstring(bf, "no MC error before 2 batches");
    else {
      snprintf(buf, sizeof buf, "MC se from %.0f batch means of %.0f%s",
               w[2], w[3], w[2] < 8 ? " (fewer than 8: a rough "
               "estimate)" : "");
      luaL_addstring(bf, buf);
    }
  }
  else if (!ol_run_result(r, "mean_se", &mse, &rows, &cols))
    luaL_addstring(bf, "\n     the last iterate (average = false): no "
                   "Monte Carlo error estimated");
  else
    luaL_addstring(bf, "\n     the initial q (no step taken)");
  /* a trend of the batch means: the run has not settled */
  if (ol_run_result(r, "drift", &w, &rows, &cols) && rows == 2) {
    int worst = -1;
    for (i = 0; i < 2 * cols; i++)
      if (fabs(w[i]) > VI_DRIFT && (worst < 0 || fabs(w[i]) > fabs(w[worst])))
        worst = i;
    if (worst >= 0) {
      char wb[400];
      snprintf(wb, sizeof wb, "\n  warning: not settled: the batch means "
               "of %s[%d] still trend (slope t = %s over the averaged "
               "steps), so the average lags behind and its MC error "
               "understates the error; run more iterations or raise lr",
               worst < cols ? "m" : "log sd", worst % cols + 1,
               ol_fmtnum(num, sizeof num, w[worst], 2));
      luaL_addstring(bf, wb);
    }
  }
}

const char *olua_pushrunhead (lua_State *L, const ol_run *r)
{
  char buf[256];
  olua_pushmethodstr(L, ol_run_method(r), ol_run_params(r));
  lua_pushfstring(L, "run %s on %s", lua_tostring(L, -1),
                  olua_problemdesc(ol_run_problem(r), buf, sizeof buf));
  lua_remove(L, -2);
  return lua_tostring(L, -1);
}

/* The live changes of the run box at 1 (r.changes), when it has any:
** "changes: lr=0.5 at 10, lr=0.05 at 30 (started with lr=0.1)", the
** first SHOWCHG of them; the start values are the method object's. */
#define SHOWCHG 8
static void addchanges (lua_State *L, luaL_Buffer *bf, const ol_run *r)
{
  const ol_method_type *m = ol_run_method(r);
  int n, i, k, first = 1;
  const ol_change *c = ol_run_changes(r, &n);
  const lmethod *mb;
  unsigned seen = 0;
  char buf[96], num[40];
  if (n == 0) return;
  luaL_addstring(bf, "\n  changes: ");
  for (i = 0; i < n && i < SHOWCHG; i++) {
    olua_fmtparam(&m->params[c[i].param], c[i].value, num, sizeof num);
    snprintf(buf, sizeof buf, "%s%s=%s at %ld", i > 0 ? ", " : "",
             m->params[c[i].param].name, num, c[i].t);
    luaL_addstring(bf, buf);
  }
  if (n > SHOWCHG) {
    snprintf(buf, sizeof buf, ", ... (%d in all: r.changes)", n);
    luaL_addstring(bf, buf);
  }
  /* popped at once (the buffer's stack use stays balanced); the method
  ** object stays, as the run's user value */
  lua_getiuservalue(L, 1, 2);
  mb = luaL_testudata(L, -1, OLUA_METHOD);
  lua_pop(L, 1);
  for (i = 0; mb != NULL && mb->t == m && i < n; i++) {
    k = c[i].param;
    if (k >= 32 || (seen & (1u << k))) continue;
    seen |= 1u << k;
    olua_fmtparam(&m->params[k], mb->par[k], num, sizeof num);
    snprintf(buf, sizeof buf, "%s%s=%s", first ? " (started with " : ", ",
             m->params[k].name, num);
    luaL_addstring(bf, buf);
    first = 0;
  }
  if (!first) luaL_addchar(bf, ')');
}

/* Multi-line summary: what ran, why it stopped, the final metrics. */
int olua_run_tostring (lua_State *L)
{
  lrun *b = luaL_checkudata(L, 1, OLUA_RUN);
  const ol_run *r = b->r;
  luaL_Buffer bf;
  char buf[256], num[32], adbuf[1024];
  const char *adnote = NULL;
  ol_mset rec;
  int i, k = 0;
  if (r == NULL) {
    lua_pushliteral(L, "run (closed)");
    return 1;
  }
  /* how a Lua objective's gradient is had: traced, or why not (issue 15) */
  if (lua_getiuservalue(L, 1, 1) == LUA_TUSERDATA) {
    const lproblem *pb = luaL_testudata(L, -1, OLUA_PROBLEM);
    if (pb != NULL) adnote = olua_problem_adnote(pb, adbuf, sizeof adbuf);
  }
  lua_pop(L, 1);
  olua_pushrunhead(L, r);
  luaL_buffinit(L, &bf);
  lua_pushvalue(L, -2);
  luaL_addvalue(&bf);
  snprintf(buf, sizeof buf, "  seed %" PRIu64, ol_run_options(r)->seed);
  luaL_addstring(&bf, buf);
  if (olua_runreason(b) == OL_STOP_NONE)
    snprintf(buf, sizeof buf, "\n  running: %ld of %ld iterations",
             ol_run_iter(r), ol_run_budget(r));
  else
    snprintf(buf, sizeof buf, "\n  stopped: %s after %ld iteration%s (%s s)",
             stopphrase(olua_runreason(b)), ol_run_iter(r),
             ol_run_iter(r) == 1 ? "" : "s",
             ol_fmtnum(num, sizeof num, ol_run_seconds(r), 2));
  luaL_addstring(&bf, buf);
  addevals(&bf, r);
  addchanges(L, &bf, r);
  if (adnote != NULL) {
    luaL_addstring(&bf, "\n  gradient: ");
    luaL_addstring(&bf, adnote);
  }
  rec = ol_run_metrics(r);
  /* a constrained run: f to full precision, no gradient norms (grad f
  ** does not vanish at a constrained optimum; kkt and feasibility say how
  ** near one it is) */
  if (olua_constrained(r))
    rec = ol_mset_minus(rec, OL_MSET_OF(OL_MET_GRADNORM, OL_MET_MINGRADNORM));
  rec = gameshown(b, rec);
  for (i = 0; i < OL_NMETRICS; i++)
    if (ol_mset_has(rec, i)) {
      snprintf(buf, sizeof buf, "%s%s %s", k++ ? "  " : "\n  final: ",
               ol_metric_types[i]->name,
               i == OL_MET_LOSS && olua_constrained(r)
               ? fullnum(num, sizeof num, ol_run_last(r, i))
               : ol_fmtnum(num, sizeof num, ol_run_last(r, i), 3));
      luaL_addstring(&bf, buf);
    }
  if (olua_acceptnote(r, buf, sizeof buf) != NULL) {
    luaL_addstring(&bf, "\n  note: ");
    luaL_addstring(&bf, buf);
  }
  if (ol_run_notice(r)[0] != '\0') {
    luaL_addstring(&bf, "\n  note: ");
    luaL_addstring(&bf, ol_run_notice(r));
  }
  if (olua_constrnote(r, buf, sizeof buf) != NULL) {
    luaL_addstring(&bf, "\n  ");
    luaL_addstring(&bf, buf);
  }
  if (ol_run_problem(r)->type != NULL && ol_run_problem(r)->type->tree != NULL
      && ol_run_problem(r)->type->tree(ol_run_problem(r))->name != NULL)
    addtree(&bf, r, ol_run_problem(r)->type->tree(ol_run_problem(r)));
  else if (ol_run_problem(r)->kind == OL_GAME
           && ol_run_problem(r)->payoff != NULL)
    addgame(&bf, r);
  else {
    luaL_addstring(&bf, "\n  x:");
    addcoords(&bf, ol_run_x(r), ol_run_n(r));
  }
  if (ol_family_of(ol_run_method(r))->print & OL_FPRINT_Q) addvi(&bf, r);
  if (ol_run_message(r)[0] != '\0') {
    int why = olua_runreason(b);
    luaL_addstring(&bf, why == OL_STOP_TOL || why == OL_STOP_CONVERGED ||
                   why == OL_STOP_DIVERGED ? "\n  rule: " : "\n  message: ");
    addmessage(&bf, ol_run_message(r), why == OL_STOP_INTERRUPTED);
  }
  {
    lrun *one = b;
    olua_addsampletable(L, &bf, &one, 1);
  }
  luaL_pushresult(&bf);
  return 1;
}

/* -- jobs ----------------------------------------------------------------- */

int olua_job_tostring (lua_State *L)
{
  olua_jobrow row;
  if (!olua_getjobrow(L, 1, &row))
    return luaL_typeerror(L, 1, "optlab.job");
  lua_pushfstring(L, "job #%d %s on %s: %s, iter %I/%I", row.id, row.label,
                  row.title, row.state, (lua_Integer)row.iter,
                  (lua_Integer)row.budget);
  return 1;
}

/* One line per job: id, state, iteration/budget and label, in columns as
** wide as their widest entry (an iteration count of 1e9 or 2^62 keeps
** them aligned). */
int olua_joblist_tostring (lua_State *L)
{
  luaL_Buffer b;
  lua_Integer i, n;
  char line[512], it[48];
  int wid = 2, wit = 4, wst = 7, pass;
  luaL_checktype(L, 1, LUA_TTABLE);
  n = (lua_Integer)lua_rawlen(L, 1);
  if (n == 0) {
    lua_pushliteral(L, "no jobs");
    return 1;
  }
  luaL_buffinit(L, &b);
  /* pass 0 measures the columns, pass 1 writes the lines */
  for (pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      snprintf(line, sizeof line, "  %-*s  %-*s  %-*s  %s", wid, "id",
               wst, "state", wit, "iter", "label");
      luaL_addstring(&b, line);
    }
    for (i = 1; i <= n; i++) {
      olua_jobrow row;
      int ok;
      lua_rawgeti(L, 1, i);
      ok = olua_getjobrow(L, -1, &row);
      line[0] = '\0';
      if (ok) {
        int k = snprintf(it, sizeof it, "%ld/%ld", row.iter, row.budget);
        if (pass == 0) {
          int kid = snprintf(line, sizeof line, "%d", row.id);
          if (kid > wid) wid = kid;
          if (k > wit) wit = k;
          if ((int)strlen(row.state) > wst) wst = (int)strlen(row.state);
          line[0] = '\0';
        }
        else
          snprintf(line, sizeof line, "\n  %-*d  %-*s  %-*s  %s on %s", wid,
                   row.id, wst, row.state, wit, it, row.label, row.title);
      }
      lua_pop(L, 1);
      /* added with the buffer on top again: it may grow (a box) */
      if (pass == 1) luaL_addstring(&b, line);
    }
  }
  luaL_pushresult(&b);
  return 1;
}
