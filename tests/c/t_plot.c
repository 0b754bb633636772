/*
** tests/c/t_plot.c -- core/plot from C alone (no Lua, no curses): the
** pl_buf string, legend label shortening by whole tokens, the SVG tick
** notation and time units, the family default panels, and a metric panel
** drawn into a character grid: its legend below the x axis, an underflowed
** loss as floor marks that do not set the y range, decade ticks on a log x
** axis.  The sampler panels: coordinate panel names (trace:j, cloud:a,b),
** a sampler's defaults, and the pooled running R-hat / ESS of a chain set
** (pn_pool_update) against core/diag.c's ol_diag_worst on the same kept
** draws, point by point, with its schedule (every 10% more draws, the end)
** and its budget.  The game panels: a 2 x 2 game's unit square (frame,
** axis names, pn_auto_panel picks it) with every known equilibrium's
** star at the cell its (x1, y1) maps to inside the frame (coordination's
** three, pennies' one) and a "Nash" legend entry; rps's star at the
** triangle's centroid.
*/
#include "diag.h"
#include "olt.h"
#include "plot.h"
#include "problems/game.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -- a character grid for pn_out ------------------------------------------ */

#define GW 80
#define GH 16
static char grid[GH][GW + 1];

static void gput (void *ud, int y, int x, unsigned u, char a, int role)
{
  (void)ud;
  (void)u;
  (void)role;
  if (y >= 0 && y < GH && x >= 0 && x < GW) grid[y][x] = a;
}

static void gclear (void)
{
  int y;
  for (y = 0; y < GH; y++) {
    memset(grid[y], ' ', GW);
    grid[y][GW] = '\0';
  }
}

/* Row of the x axis ("+---" after the y labels), -1 if none. */
static int axis_row (void)
{
  int y;
  for (y = 0; y < GH; y++)
    if (strstr(grid[y], "+-") != NULL && grid[y][7] == '+') return y;
  return -1;
}

/* f = sum x^2 with loss 3e-323 once it drops below 1e-6 (an underflow). */
static int under_fdf (void *ud, const double *x, double *f, double *g,
                      ol_err *e)
{
  double v = x[0] * x[0] + x[1] * x[1];
  (void)ud;
  (void)e;
  if (f != NULL) *f = v < 1e-6 ? 3e-323 : v;
  if (g != NULL) {
    g[0] = 2 * x[0];
    g[1] = 2 * x[1];
  }
  return OL_OK;
}

static void test_buf (void)
{
  pl_buf b;
  int i;
  size_t n0;
  pl_buf_init(&b);
  pl_buf_adds(&b, "a<b");
  pl_buf_addxml(&b, " & \"<x>\"");
  pl_buf_addf(&b, " %d", 42);
  is_str(b.s, "a<b &amp; &quot;&lt;x&gt;&quot; 42",
         "buf: appends, XML escapes, printf");
  n0 = b.len;
  for (i = 0; i < 1000; i++) pl_buf_addf(&b, "%0300d", i);
  ok(b.len == n0 + 300000 && strspn(b.s + n0, "0123456789") == 300000
     && !b.oom && b.s[b.len] == '\0',
     "buf: grows to %zu bytes, NUL-terminated", b.len);
  pl_buf_fini(&b);
  ok(b.s == NULL && b.len == 0, "buf: fini leaves it empty");
}

static void test_shorten (void)
{
  char buf[128];
  const char *lab = "momentum lr=0.001 mu=0.95";
  pn_shorten(lab, "0.5\tmin 0.25", 60, 0, buf, sizeof buf);
  is_str(buf, "momentum lr=0.001 mu=0.95 0.5 min 0.25",
         "shorten: everything when it fits");
  pn_shorten(lab, "0.5\tmin 0.25", 30, 0, buf, sizeof buf);
  is_str(buf, "momentum lr=0.001 mu=0.95 0.5", "shorten: the min goes first");
  pn_shorten(lab, "0.5\tmin 0.25", 24, 0, buf, sizeof buf);
  is_str(buf, "momentum lr=0.001...", "shorten: then whole label tokens, "
         "with an ellipsis (never 'mu=0.')");
  pn_shorten(lab, NULL, 21, 1, buf, sizeof buf);
  is_str(buf, "momentum lr=0.001\xe2\x80\xa6", "shorten: UTF-8 ellipsis");
  ok(pn_cols(buf) == 18, "shorten: the ellipsis is one column");
  pn_shorten("gd lr=0.5, mu=0.9", NULL, 14, 0, buf, sizeof buf);
  is_str(buf, "gd lr=0.5...", "shorten: commas separate tokens too");
  pn_shorten("nesterov", NULL, 5, 0, buf, sizeof buf);
  is_str(buf, "neste", "shorten: only a first token is cut");
}

static void test_ticks (void)
{
  double plain[] = {0, 0.5, 1, 1.5, 2}, big[] = {0, 5e5, 1e6, 1.5e6};
  double dec[] = {1e-8, 1e-6, 1e-4, 0.01, 1}, per;
  char b[32];
  ok(!pl_ticksci(plain, 5), "ticks: 0 .. 2 is plain");
  ok(pl_ticksci(big, 4), "ticks: up to 1.5e6 is scientific");
  ok(pl_ticksci(dec, 5), "ticks: 1e-8 .. 1 is scientific, all of it");
  pl_tickfmt(0.5, 0, b, sizeof b);
  is_str(b, "0.5", "ticks: plain 0.5");
  pl_tickfmt(1500, 0, b, sizeof b);
  is_str(b, "1500", "ticks: plain 1500");
  pl_tickfmt(1, 1, b, sizeof b);
  is_str(b, "1e0", "ticks: scientific 1 is 1e0");
  pl_tickfmt(2.5e-3, 1, b, sizeof b);
  is_str(b, "2.5e-3", "ticks: scientific 2.5e-3");
  pl_tickfmt(1.5e6, 1, b, sizeof b);
  is_str(b, "1.5e6", "ticks: scientific 1.5e6");
  is_str(pl_timeunit(0.05, &per), "ms", "time: 50 ms reads in ms");
  ok(per == 1e-3, "time: ms scale");
  is_str(pl_timeunit(30, &per), "s", "time: 30 s reads in s");
  is_str(pl_timeunit(600, &per), "min", "time: 10 min reads in min");
  ok(per == 60, "time: min scale");
}

static void test_defaults (void)
{
  int w[8], n, i;
  char got[128] = "";
  ol_mset rec = OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM, OL_MET_ACCEPT,
                           OL_MET_EXPLOIT, OL_MET_ENTROPY);
  n = pn_defaults(NULL, OL_DYNAMIC, rec, w, 8);
  for (i = 0; i < n; i++) {
    strcat(got, pn_name(w[i]));
    strcat(got, " ");
  }
  is_str(got, "exploitability entropy ", "defaults: game dynamics");
  n = pn_defaults(NULL, OL_OPTIM, rec, w, 8);
  ok(n == 2 && w[0] == OL_MET_LOSS && w[1] == OL_MET_GRADNORM,
     "defaults: optimizers watch loss, gradnorm");
  n = pn_defaults(NULL, OL_SAMPLER, rec, w, 8);
  ok(n == 2 && w[0] == OL_MET_ACCEPT && w[1] == PN_TRACE,
     "defaults: samplers watch accept and the trace");
  ok(pn_find("trace") == PN_TRACE && pn_find("cloud") == PN_CLOUD
     && pn_find("landscape") == PN_LANDSCAPE, "defaults: kind names");
}

static void test_panel (void)
{
  ol_problem *p;
  ol_run *r;
  ol_run_opts o;
  ol_err e;
  double x0[2] = {1, 1}, par[1] = {0.2};
  const ol_method_type *gd = ol_method_find("gd");
  cv_canvas cv;
  pn_runs rs;
  pn_out out;
  pn_axes ax;
  ol_run *runs[1];
  const char *labels[1] = {"gd lr=0.2"};
  char title[64], xt[64];
  int a, y, low = 0, marks = 0;
  memset(&cv, 0, sizeof cv);
  p = ol_problem_custom(2, under_fdf, 0, NULL, NULL, &e);
  if (p == NULL || gd == NULL) {
    ok(0, "panel: a problem and gd (%s)", p == NULL ? e.msg : "no gd");
    return;
  }
  ol_problem_set_x0(p, x0, 2, &e);
  ol_run_opts_default(&o);
  o.iters = 300;
  o.tol = 0;
  o.metrics = OL_MSET_OF(OL_MET_LOSS);
  r = ol_run_new(p, gd, par, &o, &e);
  if (r == NULL) {
    ok(0, "panel: the run (%s)", e.msg);
    return;
  }
  while (ol_run_step(r) == OL_STOP_NONE) {}
  runs[0] = r;
  rs.n = 1;
  rs.runs = runs;
  rs.labels = labels;
  out.put = gput;
  out.ud = NULL;
  out.y = 0;
  out.x = 0;
  out.h = GH;
  out.w = GW;
  out.utf8 = 0;
  out.cv = &cv;
  /* (1) linear x: legend below the axis, floor marks, range */
  gclear();
  pn_axes_init(&ax, PN_X_ITER, 0);
  pn_metric(&rs, OL_MET_LOSS, &ax, &out, title, sizeof title);
  a = axis_row();
  is_str(title, "loss [log]", "panel: a decaying loss is on a log axis");
  ok(a > 0 && strstr(grid[a + 2], ". gd lr=0.2 ") != NULL,
     "panel: the legend is below the x axis (row %d)", a + 2);
  for (y = 0; y < a; y++) {
    double v;
    char *plus = strchr(grid[y], '+');
    if (plus != NULL && plus - grid[y] == 7 && sscanf(grid[y], "%lf", &v) == 1
        && v < 1e-7)
      low = 1;
    if (strstr(grid[y], "gd lr") != NULL) low = 1;
  }
  ok(!low, "panel: no tick below 1e-7 and no legend on the plot rows");
  for (y = 0; a > 0 && y < GW; y++) marks += grid[a - 1][y] == 'v';
  ok(marks >= 20, "panel: the denormal loss is %d floor marks", marks);
  pn_xtitle(OL_MET_LOSS, &ax, xt, sizeof xt);
  is_str(xt, "iteration", "panel: x axis title");
  /* (2) log x: decade ticks 1 10 100 */
  gclear();
  pn_axes_init(&ax, PN_X_ITER, 1);
  pn_metric(&rs, OL_MET_LOSS, &ax, &out, title, sizeof title);
  a = axis_row();
  ok(a > 0 && strstr(grid[a + 1], " 1 ") != NULL
     && strstr(grid[a + 1], " 10 ") != NULL
     && strstr(grid[a + 1], " 100 ") != NULL,
     "panel: log x ticks 1 10 100 (%s)", a > 0 ? grid[a + 1] : "no axis");
  is_str(title, "loss [log, log x]", "panel: log x in the title");
  pn_xtitle(OL_MET_LOSS, &ax, xt, sizeof xt);
  is_str(xt, "iteration (log)", "panel: log x axis title");
  cv_fini(&cv);
  ol_run_free(r);
  ol_problem_free(p);
}


/* -- game panels ----------------------------------------------------------- */

static void drop_game (ol_run *r)
{
  const ol_problem *p = ol_run_problem(r);
  ol_run_free(r);
  ol_problem_free((ol_problem *)p);
}

/* A run of mwu on game name for T steps with the trajectory kept. */
static ol_run *game_run (const char *name, long T)
{
  ol_err e;
  ol_problem *p = olt_problem(name, &e, (char *)NULL);
  double par[4];
  const ol_method_type *m = olt_method("mwu", par, (char *)NULL);
  ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_NASHCONV));
  ol_run *r;
  if (p == NULL || m == NULL) return NULL;
  o.record_x = 1;
  r = olt_go(p, m, par, &o);
  if (r == NULL) ol_problem_free(p);
  return r;
}

static void draw_game (ol_run *r, cv_canvas *cv, char *title, size_t tsize)
{
  const char *labels[1] = {"mwu"};
  ol_run *runs[1];
  pn_runs rs;
  pn_out out;
  runs[0] = r;
  rs.n = 1;
  rs.runs = runs;
  rs.labels = labels;
  out.put = gput;
  out.ud = NULL;
  out.y = 0;
  out.x = 0;
  out.h = GH;
  out.w = GW;
  out.utf8 = 0;
  out.cv = cv;
  gclear();
  pn_simplex(&rs, &out, title, tsize);
}

static void test_square (void)
{
  static const char *const games[] = {"coordination", "pennies"};
  int gi;
  cv_canvas cv;
  memset(&cv, 0, sizeof cv);
  for (gi = 0; gi < 2; gi++) {
    ol_run *r = game_run(games[gi], 40);
    const ol_problem *p = r != NULL ? ol_run_problem(r) : NULL;
    const double *eq = NULL;
    char title[96];
    int neq, y, x, ty = -1, tx = -1, by = -1, rx = -1, q, hit = 0, stars = 0;
    int legend = 0;
    if (!ok(r != NULL, "square: mwu on %s", games[gi])) continue;
    neq = ol_game_equilibria(p, &eq);
    draw_game(r, &cv, title, sizeof title);
    ok(pn_square(p) && strncmp(title, "unit square x1,y1", 17) == 0,
       "square: %s (2 x 2) is drawn as the unit square (%s)", games[gi],
       title);
    /* (1) the frame: top-left '+' with '-' right and '|' below, and the
    ** opposite corners */
    for (y = 0; y < GH - 1 && ty < 0; y++)
      for (x = 0; x < GW - 1; x++)
        if (grid[y][x] == '+' && grid[y][x + 1] == '-'
            && grid[y + 1][x] == '|') {
          ty = y;
          tx = x;
          break;
        }
    for (x = tx + 1; ty >= 0 && x < GW; x++)
      if (grid[ty][x] == '+') {
        rx = x;
        break;
      }
    for (y = ty + 1; ty >= 0 && y < GH; y++)
      if (grid[y][tx] == '+') {
        by = y;
        break;
      }
    if (!ok(ty >= 0 && rx > tx + 4 && by > ty + 3, "square: %s has a frame "
            "(rows %d..%d, columns %d..%d)", games[gi], ty, by, tx, rx)) {
      drop_game(r);
      continue;
    }
    ok(strstr(grid[by + 1], "x1") != NULL
       && strstr(grid[(ty + by) / 2], "y1") != NULL
       && grid[ty + 1][tx - 2] == '1' && grid[by - 1][tx - 2] == '0',
       "square: %s names its axes x1 (below), y1 (left), 0 and 1 at the "
       "inside's edges", games[gi]);
    /* (2) a star at the cell each equilibrium's (x1, y1) maps to: 0 at the
    ** first inner column / last inner row, 1 at the last / first */
    for (q = 0; q < neq; q++) {
      int cw = rx - tx - 1, ch = by - ty - 1;
      int col = tx + 1 + (int)lround(eq[4 * q] * (cw - 1));
      int row = ty + 1 + (int)lround((1 - eq[4 * q + 2]) * (ch - 1));
      hit += grid[row][col] == '*';
      diag("%s: equilibrium (%.3g, %.3g) -> cell (%d, %d): '%c'", games[gi],
           eq[4 * q], eq[4 * q + 2], row, col, grid[row][col]);
    }
    for (y = ty + 1; y < by; y++)
      for (x = tx + 1; x < rx && strstr(grid[y], "Nash") == NULL; x++)
        stars += grid[y][x] == '*';
    for (y = 0; y < GH; y++)
      if (strstr(grid[y], "* Nash") != NULL) legend = 1;
    ok(neq == (gi == 0 ? 3 : 1) && hit == neq && stars == neq,
       "square: %s's %d known equilibria are stars at their cells (%d of %d "
       "in place, %d stars inside, legend rows aside)", games[gi], neq, hit,
       neq, stars);
    ok(legend, "square: %s's legend has the entry '* Nash'", games[gi]);
    drop_game(r);
  }
  cv_fini(&cv);
}

static void test_nash_simplex (void)
{
  ol_run *r = game_run("rps", 40);
  cv_canvas cv;
  char title[96];
  int y, x, sy = -1, sx = -1, n = 0, y1 = -1, x1 = -1, x2 = -1, y3 = -1;
  double my, mx;
  memset(&cv, 0, sizeof cv);
  if (!ok(r != NULL, "simplex: mwu on rps")) return;
  draw_game(r, &cv, title, sizeof title);
  /* the vertex labels 1 (bottom left), 2 (bottom right), 3 (top) and the
  ** star, outside the legend's rows */
  for (y = 0; y < GH; y++)
    for (x = 0; x < GW; x++) {
      char c = grid[y][x];
      if (strstr(grid[y], "Nash") != NULL || strstr(grid[y], "mwu") != NULL
          || strstr(grid[y], "P1") != NULL)
        continue;
      if (c == '1' && grid[y][x + 1] == '_') {
        y1 = y;
        x1 = x;
      }
      if (c == '2' && x > 0 && grid[y][x - 1] == '_') x2 = x;
      if (c == '3') y3 = y;
      if (c == '*') {
        sy = y;
        sx = x;
        n++;
      }
    }
  mx = 0.5 * (x1 + x2);
  my = y1 - (y1 - y3) / 3.0;
  ok(n == 1 && fabs(sx - mx) <= 1.5 && fabs(sy - my) <= 1,
     "simplex: rps's equilibrium (both players uniform) is one star at the "
     "centroid (cell (%d, %d), centroid (%.1f, %.1f) from the vertex labels)",
     sy, sx, my, mx);
  drop_game(r);
  cv_fini(&cv);
}

static void test_names (void)
{
  int a, b, w[8], n;
  ol_problem *g = olt_problem("gauss2d", NULL, (char *)NULL);
  ok(pn_find("trace:1") == PN_TRACE && pn_find("cloud:1,2") == PN_CLOUD,
     "names: trace:1 is trace, cloud:1,2 is cloud");
  n = pn_find("trace:3");
  pn_coords(n, &a, &b);
  ok(n == pn_trace_kind(2) && pn_base(n) == PN_TRACE && a == 2
     && pn_name(n) == NULL, "names: trace:3 is the trace of x3 (0-based 2)");
  n = pn_find("cloud:3,1");
  pn_coords(n, &a, &b);
  ok(n == pn_cloud_kind(2, 0) && pn_base(n) == PN_CLOUD && a == 2 && b == 0
     && n < PN_NKINDS, "names: cloud:3,1 shows x3 against x1");
  ok(pn_find("trace:0") < 0 && pn_find("trace:65") < 0
     && pn_find("trace:3x") < 0 && pn_find("trace:+3") < 0
     && pn_find("cloud:1,1") < 0 && pn_find("cloud:1,17") < 0
     && pn_find("cloud:1") < 0, "names: out of range or malformed "
     "coordinates are unknown names");
  n = pn_defaults(g, OL_SAMPLER, OL_MSET_OF(OL_MET_ACCEPT, OL_MET_STEPSIZE),
                                            w, 8);
  ok(n == 4 && w[0] == OL_MET_ACCEPT && w[1] == PN_TRACE && w[2] == PN_CLOUD
     && w[3] == OL_MET_STEPSIZE, "defaults: a sampler that adapts on a 2-D "
     "density: accept, trace, cloud (over contours), stepsize");
  ol_problem_free(g);
}

/* The pooled diagnostics of k chains of rwmh on gauss2d at P draws each,
** computed directly by ol_diag_worst. */
static void direct (ol_run **runs, int k, long P, double *rh, double *es)
{
  const double *x[4];
  int c;
  ol_err e;
  for (c = 0; c < k; c++)
    x[c] = ol_run_draws(runs[c], NULL, NULL, NULL) + OL_DRAW_COLS;
  if (ol_diag_worst(x, k, P, 2, OL_DRAW_COLS + 2, rh, es, &e) != OL_OK)
    *rh = *es = -1;
}

static void test_pool (void)
{
  enum { K = 3, WARM = 100, DRAWS = 500 };
  ol_problem *g = olt_problem("gauss2d", NULL, (char *)NULL);
  ol_problem *q = olt_problem("gauss2d", NULL, "rho", 0.1, (char *)NULL);
  double par[8], rh, es;
  const ol_method_type *m = olt_method("rwmh", par, "warmup", (double)WARM,
                                       (char *)NULL);
  ol_run *runs[K], *other[2];
  pn_runs rs;
  pn_pool *pl = calloc(1, sizeof *pl);
  ol_run_opts o;
  int c, k, sched = 1, same = 1;
  long s;
  if (g == NULL || q == NULL || m == NULL || pl == NULL) {
    ok(0, "pool: gauss2d and rwmh");
    return;
  }
  diag("pool: seed 5, %d rwmh chains on gauss2d", K);
  o = olt_opts(WARM + DRAWS, 0, OL_MSET_OF(OL_MET_ACCEPT));
  o.seed = 5;
  o.warmup = WARM;
  o.draws = 2L * DRAWS * (OL_DRAW_COLS + 2);
  for (c = 0; c < K; c++) {
    o.stream = (uint64_t)c;
    runs[c] = olt_run(g, m, par, &o);
    if (runs[c] == NULL) return;
    ol_run_advance(runs[c], WARM + 200);
  }
  rs.n = K;
  rs.runs = runs;
  rs.labels = NULL;
  ok(pn_chainset(&rs), "pool: 3 chains of one sampler are a chain set");
  /* (1) part way: the points due at 200 draws, none final */
  pn_pool_update(pl, &rs, 0);
  for (k = 0, s = PN_POOLFIRST; k < pl->n; k++) {
    if (pl->seen[k] != s) sched = 0;
    direct(runs, K, pl->seen[k], &rh, &es);
    if (rh != pl->rhat[k] || es != pl->ess[k]
        || pl->it[k] != WARM + pl->seen[k])
      same = 0;
    s = (long)ceil(1.1 * (double)s) > s + 1 ? (long)ceil(1.1 * (double)s)
      : s + 1;
  }
  ok(pl->n > 10 && !pl->final && sched && pl->seen[pl->n - 1] <= 200
     && pl->next > 200, "pool: at 200 draws, %d points at 20 draws and "
     "every 10%% more, the last at %ld", pl->n, pl->seen[pl->n - 1]);
  ok(same, "pool: each point is ol_diag_worst of every chain's first S "
     "draws, bit for bit, at iteration warmup + S");
  /* (2) a budget: at most one point a call past it */
  for (c = 0; c < K; c++) ol_run_advance(runs[c], 100);
  k = pl->n;
  pn_pool_update(pl, &rs, 1e-12);
  ok(pl->n == k + 1, "pool: a spent budget stops after one point (%d -> %d)",
     k, pl->n);
  /* (3) the end: one more point on all the kept draws */
  for (c = 0; c < K; c++)
    while (ol_run_step(runs[c]) == OL_STOP_NONE) {}
  pn_pool_update(pl, &rs, 0);
  direct(runs, K, DRAWS, &rh, &es);
  ok(pl->final && pl->it[pl->n - 1] == WARM + DRAWS
     && pl->rhat[pl->n - 1] == rh && pl->ess[pl->n - 1] == es,
     "pool: stopped, the last point is all %d draws: R-hat %.6f, ESS %.1f",
     DRAWS, rh, es);
  /* (4) not a chain set: one run, or another problem */
  rs.n = 1;
  ok(!pn_chainset(&rs) && !pn_pooled(&rs, OL_MET_RHAT),
     "pool: one run is not a chain set (its own rhat metric)");
  other[0] = runs[0];
  other[1] = olt_run(q, m, par, &o);
  rs.n = 2;
  rs.runs = other;
  ok(other[1] != NULL && !pn_chainset(&rs), "pool: runs on two problems are "
     "not a chain set");
  ol_run_free(other[1]);
  for (c = 0; c < K; c++) ol_run_free(runs[c]);
  free(pl);
  ol_problem_free(g);
  ol_problem_free(q);
}

int main (void)
{
  test_buf();
  test_shorten();
  test_ticks();
  test_defaults();
  test_panel();
  test_names();
  test_pool();
  test_square();
  test_nash_simplex();
  return done();
}
