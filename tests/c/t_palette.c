/*
** tests/c/t_palette.c -- the one palette of runs (core/plot/palette.h):
** PL_NPAL >= 12 colours, pairwise distinct by a clear margin in sRGB,
** stable by run index (run k and run k + PL_NPAL share a colour, every
** call gives the same), the SVG's first eight unchanged (Tableau 10's,
** as saved figures have them); the derived terminal colours distinct
** (xterm's 256: cube or grey ramp entries 16..255 each within 48 of the
** sRGB colour per channel; 16 ANSI: 12 distinct, chromatic ones) and the
** ASCII marks distinct, printable and cv_marker's.  Then the simplex
** panel of a 3-run race on rps draws every path cell, current point and
** legend entry of run k in run k's role (not one per player): the legend
** of player 1 and player 2 of a run and its cells share one colour.  The
** landscape: two identical gd paths on rosenbrock share their cells
** evenly (the later used to hide the earlier); beside a diverging third
** run the window stays the other two's (pn_landscape_window) and they
** keep their cells; a fixed window is drawn as given.
*/
#include "grid.h"
#include "olt.h"
#include "palette.h"
#include "plot.h"
#include "tap.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rgb (unsigned c, int *r, int *g, int *b)
{
  *r = (int)(c >> 16 & 255);
  *g = (int)(c >> 8 & 255);
  *b = (int)(c & 255);
}

static void test_colours (void)
{
  static const char *const tableau[8] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#17becf"
  };
  int i, j, same = 0, stable = 1, near = 1, range = 1, bright = 0;
  double dmin = 1e9;
  ok(PL_NPAL >= 12, "palette: %d colours (at least 12)", PL_NPAL);
  for (i = 0; i < 8; i++) same += strcmp(pl_pal_hex(i), tableau[i]) == 0;
  is_int(same, 8, "palette: the first eight are the SVG's old ones, in "
         "order");
  for (i = 0; i < PL_NPAL; i++)
    for (j = i + 1; j < PL_NPAL; j++) {
      int r1, g1, b1, r2, g2, b2;
      double d;
      rgb(pl_pal_rgb(i), &r1, &g1, &b1);
      rgb(pl_pal_rgb(j), &r2, &g2, &b2);
      d = sqrt((double)(r1 - r2) * (r1 - r2) + (double)(g1 - g2) * (g1 - g2)
               + (double)(b1 - b2) * (b1 - b2));
      if (d < dmin) dmin = d;
    }
  ok(dmin >= 40, "palette: every two colours differ by %.1f >= 40 in sRGB "
     "(0..255 per channel)", dmin);
  for (i = 0; i < 3 * PL_NPAL; i++) {
    int k = i % PL_NPAL;
    if (strcmp(pl_pal_hex(i), pl_pal_hex(k)) != 0
        || pl_pal_xterm(i) != pl_pal_xterm(k) || pl_pal_ansi(i)
        != pl_pal_ansi(k) || pl_pal_glyph(i) != pl_pal_glyph(k)
        || pl_pal_hex(i) != pl_palette[k])
      stable = 0;
  }
  ok(stable, "palette: run k and run k + %d share every form of a colour",
     PL_NPAL);
  /* xterm: distinct, not the themed 0..15, near the sRGB colour */
  for (i = 0; i < PL_NPAL; i++) {
    int x = pl_pal_xterm(i), r, g, b, xr, xg, xb;
    static const int lv[6] = { 0, 95, 135, 175, 215, 255 };
    if (x < 16 || x > 255) {
      range = 0;
      continue;
    }
    if (x >= 232) xr = xg = xb = 8 + 10 * (x - 232);
    else {
      xr = lv[(x - 16) / 36];
      xg = lv[(x - 16) / 6 % 6];
      xb = lv[(x - 16) % 6];
    }
    rgb(pl_pal_rgb(i), &r, &g, &b);
    if (abs(r - xr) > 48 || abs(g - xg) > 48 || abs(b - xb) > 48) {
      near = 0;
      diag("colour %d %s -> xterm %d (%d,%d,%d)", i, pl_pal_hex(i), x, xr,
           xg, xb);
    }
  }
  ok(range && near, "palette: each xterm colour is in 16..255 and within "
     "48 per channel (half the cube's widest step, 0 to 95) of its sRGB "
     "colour");
  same = 0;
  for (i = 0; i < PL_NPAL; i++)
    for (j = i + 1; j < PL_NPAL; j++) {
      same += pl_pal_xterm(i) == pl_pal_xterm(j);
      same += pl_pal_ansi(i) == pl_pal_ansi(j);
      same += pl_pal_glyph(i) == pl_pal_glyph(j);
    }
  is_int(same, 0, "palette: xterm colours, ANSI colours and ASCII marks "
         "are each distinct across the %d", PL_NPAL);
  range = 1;
  for (i = 0; i < PL_NPAL; i++) {
    int a = pl_pal_ansi(i), c = pl_pal_glyph(i);
    bright += a >= 8;
    if ((a & 7) < 1 || (a & 7) > 6 || a > 15) range = 0;
    if (!isgraph(c) || c != cv_marker(i)) range = 0;
  }
  ok(range, "palette: ANSI colours are chromatic (1..6, bright 9..14), "
     "marks printable and cv_marker's");
  ok(bright <= 6 && PL_NPAL - bright <= 6, "palette: %d normal, %d bright "
     "ANSI colours", PL_NPAL - bright, bright);
}

/* -- the simplex draws every mark of a run in its role --------------------- */

#define GW 80
#define GH 24
static int roles[GH][GW];
static char cells[GH][GW + 1];

static void rput (void *ud, int y, int x, unsigned u, char a, int role)
{
  (void)ud;
  (void)u;
  if (y >= 0 && y < GH && x >= 0 && x < GW) {
    roles[y][x] = role;
    cells[y][x] = a;
  }
}

static void test_simplex_roles (void)
{
  static const char *const meth[3] = {"mwu", "omwu", "rm"};
  const char *labels[3] = {"mwu", "omwu", "rm"};
  ol_run *runs[3] = {NULL, NULL, NULL};
  ol_problem *p;
  ol_err e;
  cv_canvas cv;
  pn_runs rs;
  pn_out out;
  char title[96];
  int k, y, x, bad = 0, path[3] = {0, 0, 0}, leg[3] = {0, 0, 0}, ok_leg = 1;
  memset(&cv, 0, sizeof cv);
  p = olt_problem("rps", &e, (char *)NULL);
  if (!ok(p != NULL, "simplex roles: rps")) return;
  for (k = 0; k < 3; k++) {
    double par[8];
    const ol_method_type *m = olt_method(meth[k], par, (char *)NULL);
    ol_run_opts o = olt_opts(60, 0, OL_MSET_OF(OL_MET_NASHCONV));
    o.record_x = 1;
    runs[k] = m != NULL ? olt_go(p, m, par, &o) : NULL;
    if (runs[k] == NULL) bad = 1;
  }
  if (!ok(!bad, "simplex roles: mwu, omwu, rm on rps")) goto done;
  rs.n = 3;
  rs.runs = runs;
  rs.labels = labels;
  out.put = rput;
  out.ud = NULL;
  out.y = 0;
  out.x = 0;
  out.h = GH;
  out.w = GW;
  out.utf8 = 0;
  out.cv = &cv;
  for (y = 0; y < GH; y++) {
    memset(cells[y], ' ', GW);
    cells[y][GW] = '\0';
    for (x = 0; x < GW; x++) roles[y][x] = PN_AXIS;
  }
  pn_simplex(&rs, &out, title, sizeof title);
  /* ASCII: run k's player b path is 'a' + 2k + b, its point 'A' + 2k + b;
  ** every such cell must carry role k */
  for (y = 0; y < GH; y++)
    for (x = 0; x < GW; x++) {
      int c = cells[y][x], s = -1;
      if (c >= 'a' && c < 'a' + 6) s = c - 'a';
      else if (c >= 'A' && c < 'A' + 6 && !(x > 0 && isalpha(cells[y][x - 1]))
               && !(x + 1 < GW && isalpha(cells[y][x + 1])))
        s = c - 'A';
      if (s < 0 || roles[y][x] < 0) continue;
      if (roles[y][x] != s / 2) bad++;
      else path[s / 2]++;
    }
  /* legend entries "A mwu p1", "B mwu p2", ...: mark and label in role k */
  for (k = 0; k < 3; k++)
    for (y = 0; y < GH; y++) {
      int b;
      for (b = 0; b < 2; b++) {
        char want[32];
        char *at;
        snprintf(want, sizeof want, "%c %s p%d", 'A' + 2 * k + b,
                 labels[k], b + 1);
        at = strstr(cells[y], want);
        if (at == NULL) continue;
        leg[k]++;
        if (roles[y][at - cells[y]] != k || roles[y][at - cells[y] + 2] != k)
          ok_leg = 0;
      }
    }
  if (bad > 0)
    for (y = 0; y < GH; y++) diag("%s", cells[y]);
  is_int(bad, 0, "simplex roles: no path or point cell of run k is drawn "
         "in another run's role");
  ok(path[0] > 0 && path[1] > 0 && path[2] > 0, "simplex roles: each run "
     "has cells in its role (%d %d %d)", path[0], path[1], path[2]);
  ok(ok_leg && leg[0] == 2 && leg[1] == 2 && leg[2] == 2, "simplex roles: "
     "both players' legend entries of run k are in role k");
done:
  for (k = 0; k < 3; k++) ol_run_free(runs[k]);
  ol_problem_free(p);
  cv_fini(&cv);
}

/* -- the landscape: shared cells, and a straying run's window ------------- */

static unsigned ucell[GH][GW];

static void uput (void *ud, int y, int x, unsigned u, char a, int role)
{
  (void)ud;
  (void)a;
  if (y >= 0 && y < GH && x >= 0 && x < GW) {
    roles[y][x] = role;
    ucell[y][x] = u;
  }
}

/* gd on rosenbrock for T steps from its default start, trajectory kept. */
static ol_run *rb_run (const ol_problem *p, double lr, long T)
{
  double par[8];
  const ol_method_type *m = olt_method("gd", par, "lr", lr, (char *)NULL);
  ol_run_opts o = olt_opts(T, 0, OL_MSET_OF(OL_MET_LOSS));
  o.record_x = 1;
  return m != NULL ? olt_go(p, m, par, &o) : NULL;
}

static void test_landscape (void)
{
  const char *labels[3] = {"gd one", "gd two", "gd wild"};
  ol_run *runs[3] = {NULL, NULL, NULL};
  ol_problem *p;
  ol_err e;
  cv_canvas cv;
  pn_cache c;
  pn_runs rs;
  pn_out out;
  pn_axes ax;
  char title[96];
  double win[4], all[4];
  int y, x, n[3] = {0, 0, 0}, other = 0, k;
  memset(&cv, 0, sizeof cv);
  memset(&c, 0, sizeof c);
  p = olt_problem("rosenbrock", &e, (char *)NULL);
  if (!ok(p != NULL, "landscape: rosenbrock")) return;
  /* (1) two identical runs: one path under the other */
  runs[0] = rb_run(p, 1e-3, 400);
  runs[1] = rb_run(p, 1e-3, 400);
  runs[2] = rb_run(p, 0.01, 400);
  if (!ok(runs[0] != NULL && runs[1] != NULL && runs[2] != NULL,
          "landscape: gd runs")) goto done;
  rs.n = 2;
  rs.runs = runs;
  rs.labels = labels;
  out.put = uput;
  out.ud = NULL;
  out.y = 0;
  out.x = 0;
  out.h = GH;
  out.w = GW;
  out.utf8 = 1;
  out.cv = &cv;
  pn_axes_init(&ax, PN_X_ITER, 0);
  memset(ucell, 0, sizeof ucell);
  pn_landscape(&rs, &out, &c, &ax, title, sizeof title);
  for (y = 0; y < GH; y++)
    for (x = 0; x < GW; x++)
      if (ucell[y][x] > 0x2800 && ucell[y][x] <= 0x28FF) {
        if (roles[y][x] == 0 || roles[y][x] == 1) n[roles[y][x]]++;
        else other++;
      }
  ok(n[0] > 0 && n[1] > 0 && abs(n[0] - n[1]) <= 1 && other == 0,
     "landscape: two identical paths share their cells evenly (%d and %d "
     "cells, %d of neither), the later no longer hides the earlier", n[0],
     n[1], other);
  /* (2) a third run diverging: the window is the first two's */
  ok(fabs(ol_run_x(runs[2])[0]) > 1e6 || !isfinite(ol_run_x(runs[2])[0]),
     "landscape: gd lr=0.01 diverges (x1 = %g)", ol_run_x(runs[2])[0]);
  rs.n = 3;
  k = pn_landscape_window(&rs, win);
  ol_grid_window((const ol_run *const *)runs, 3, 0, 1, 0, all);
  ok(k == 0 && win[0] >= -3 && win[1] <= 3 && win[2] >= -3 && win[3] <= 3,
     "landscape: with a diverging run the window stays [%g, %g] x [%g, %g] "
     "(every run's: [%g, %g] x [%g, %g])", win[0], win[1], win[2], win[3],
     all[0], all[1], all[2], all[3]);
  rs.n = 2;
  pn_landscape_window(&rs, all);
  ok(memcmp(win, all, sizeof win) == 0, "landscape: it is the window of "
     "the other two alone");
  /* (3) the diverging run drawn in that window: the others keep cells */
  rs.n = 3;
  memset(n, 0, sizeof n);
  memset(ucell, 0, sizeof ucell);
  pn_landscape(&rs, &out, &c, &ax, title, sizeof title);
  for (y = 0; y < GH; y++)
    for (x = 0; x < GW; x++)
      if (ucell[y][x] > 0x2800 && ucell[y][x] <= 0x28FF && roles[y][x] >= 0
          && roles[y][x] < 3)
        n[roles[y][x]]++;
  ok(n[0] >= 5 && n[1] >= 5, "landscape: beside it the two paths keep %d "
     "and %d cells", n[0], n[1]);
  ok(memcmp(ax.win, win, sizeof win) == 0, "landscape: the window drawn is "
     "kept in the axes (for a freeze)");
  /* (4) a fixed window is drawn as given */
  ax.winfix = 1;
  ax.win[0] = -2;
  ax.win[1] = 2;
  ax.win[2] = NAN;
  ax.win[3] = NAN;
  pn_landscape(&rs, &out, &c, &ax, title, sizeof title);
  ok(strstr(title, "fixed") != NULL && c.win[0] == -2 && c.win[1] == 2
     && c.win[2] == win[2] && c.win[3] == win[3], "landscape: a fixed x1 "
     "window [-2, 2] is drawn, x2 left to the runs (grid window [%g, %g] x "
     "[%g, %g]; title %s)", c.win[0], c.win[1], c.win[2], c.win[3], title);
done:
  for (k = 0; k < 3; k++) ol_run_free(runs[k]);
  ol_problem_free(p);
  pn_cache_fini(&c);
  cv_fini(&cv);
}

int main (void)
{
  test_colours();
  test_simplex_roles();
  test_landscape();
  return done();
}
