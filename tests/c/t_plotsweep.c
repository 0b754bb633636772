/*
** tests/c/t_plotsweep.c -- the sweep figures of core/plot/sweep.c from C
** alone, on hand-made data whose answers are known: the points and their
** order along a curve, a curve per group, diverged and non-finite values
** as top-edge marks that set no range, the automatic and forced log axes
** (never log over a value <= 0), the heat map's cells, a missing cell,
** the best cell with ties going to the first configuration, a flat colour
** scale, and the edge cases a renderer must survive (one configuration,
** every run diverged, a text grid too small for the cells).
*/
#include "plot.h"
#include "tap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Occurrences of needle in hay. */
static int count (const char *hay, const char *needle)
{
  int n = 0;
  const char *p = hay;
  while ((p = strstr(p, needle)) != NULL) {
    n++;
    p += strlen(needle);
  }
  return n;
}

static const char *const loss[] = {"loss"};
static const char *const oneg[] = {""};

/* A sweep figure of n configurations of metric "loss", no groups. */
static pl_sweep fig (int n, const double *x, const double *y,
                     const double *v, const unsigned char *div)
{
  pl_sweep s;
  memset(&s, 0, sizeof s);
  s.n = n;
  s.x = x;
  s.y = y;
  s.v = v;
  s.div = div;
  s.nm = 1;
  s.mname = loss;
  s.ngroups = 1;
  s.glabel = oneg;
  s.xname = "lr";
  s.yname = "mu";
  s.title = "test";
  s.xlog = s.ylog = -1;
  return s;
}

/* The SVG of s into a fresh buffer (caller finis). */
static pl_buf svg (const pl_sweep *s)
{
  pl_buf b;
  pl_buf_init(&b);
  ok(pl_sweep_svg(s, 900, 354, &b) == 0 && !b.oom, "plotsweep: SVG renders");
  return b;
}

static pl_buf text (const pl_sweep *s, int w, int h)
{
  pl_buf b;
  pl_buf_init(&b);
  ok(pl_sweep_text(s, w, h, 0, &b) == 0 && !b.oom, "plotsweep: text renders");
  return b;
}

int main (void)
{
  /* (1) curves: two groups, points drawn in x order whatever the build
  ** order; a diverged run and a NaN are top-edge marks */
  {
    static const double x[] = {1, 0.1, 0.01, 1, 0.1, 0.01};
    static const double v[] = {1e-8, 1e-4, 0.5, 2e-8, NAN, 0.6};
    static const unsigned char dv[] = {0, 0, 0, 1, 0, 0};
    static const int grp[] = {0, 0, 0, 1, 1, 1};
    static const char *const gl[] = {"mu=0", "mu=0.9"};
    pl_sweep s = fig(6, x, NULL, v, dv);
    pl_buf b;
    const char *p1, *p2, *p3;
    s.group = grp;
    s.ngroups = 2;
    s.glabel = gl;
    b = svg(&s);
    is_int(count(b.s, "<circle class=\"point\""), 4,
           "plotsweep: a point per finite, not diverged configuration");
    is_int(count(b.s, "<path class=\"diverged\""), 2,
           "plotsweep: the diverged and the NaN are top-edge marks");
    ok(strstr(b.s, "data-xlog=\"1\" data-ylog=\"1\"") != NULL,
       "plotsweep: x spans 100x, y 6e7x: both axes log");
    p1 = strstr(b.s, "data-x=\"0.01\" data-y=\"0.5\"");
    p2 = strstr(b.s, "data-x=\"0.10000000000000001\" data-y=\"0.0001\"");
    p3 = strstr(b.s, "data-x=\"1\" data-y=\"1e-08\"");
    ok(p1 != NULL && p2 != NULL && p3 != NULL && p1 < p2 && p2 < p3,
       "plotsweep: a curve's points in increasing x, not build order");
    ok(strstr(b.s, "data-curve=\"mu=0\"") != NULL
       && strstr(b.s, "data-curve=\"mu=0.9\"") != NULL
       && count(b.s, "class=\"legend\"") == 2,
       "plotsweep: one labelled curve and legend entry per group");
    ok(strstr(b.s, "2 diverged (top edge)") != NULL,
       "plotsweep: the panel counts the marks");
    /* the y range is the drawn points' decades only (one notation per
    ** axis: 1e0), not the diverged run's */
    ok(strstr(b.s, "class=\"ytick\">1e0</text>") != NULL
       && strstr(b.s, "class=\"ytick\">1e-8</text>") != NULL
       && strstr(b.s, "class=\"ytick\">1e-9") == NULL,
       "plotsweep: the y axis spans the drawn values' decades, 1e-8..1");
    pl_buf_fini(&b);
    b = text(&s, 80, 16);
    ok(strstr(b.s, "final loss [log, log x]") != NULL
       && strstr(b.s, " lr (log) ") != NULL,
       "plotsweep: text titles the panel and names the x parameter");
    ok(strstr(b.s, "^ 2 diverged (top edge)") != NULL,
       "plotsweep: text counts the top-edge marks");
    pl_buf_fini(&b);
  }
  /* (2) log never over values <= 0, even when asked; auto needs the span */
  {
    static const double x[] = {0, 1, 2};
    static const double v[] = {3, 2, 1};
    pl_sweep s = fig(3, x, NULL, v, NULL);
    pl_buf b;
    s.xlog = 1;
    b = svg(&s);
    ok(strstr(b.s, "data-xlog=\"0\" data-ylog=\"0\"") != NULL,
       "plotsweep: x = 0 keeps a forced log x linear; 3x is not log y");
    pl_buf_fini(&b);
    s.ylog = 1;
    b = svg(&s);
    ok(strstr(b.s, "data-ylog=\"1\"") != NULL,
       "plotsweep: ylog = 1 forces log y over positive values");
    pl_buf_fini(&b);
  }
  /* (3) edge cases: one configuration; every run diverged */
  {
    static const double x[] = {0.5};
    static const double v[] = {2};
    static const unsigned char dv[] = {1};
    pl_sweep s = fig(1, x, NULL, v, NULL);
    pl_buf b = svg(&s);
    is_int(count(b.s, "<circle class=\"point\""), 1,
           "plotsweep: one configuration is one point");
    pl_buf_fini(&b);
    b = text(&s, 40, 8);
    pl_buf_fini(&b);
    s.div = dv;
    b = svg(&s);
    ok(count(b.s, "<path class=\"diverged\"") == 1
       && strstr(b.s, "no finite final value") != NULL,
       "plotsweep: every run diverged: a mark and a note, no point");
    pl_buf_fini(&b);
    b = text(&s, 40, 8);
    ok(strstr(b.s, "no finite final value") != NULL,
       "plotsweep: text says so too");
    pl_buf_fini(&b);
  }
  /* (4) heat: a 3 x 2 grid with one cell missing and one diverged; the
  ** best is the smallest finite value, the first on ties */
  {
    static const double x[] = {0.1, 0.1, 1, 1, 10};
    static const double y[] = {0, 0.5, 0, 0.5, 0};
    static const double v[] = {3, 1e-6, 1e-6, INFINITY, 5e-3};
    pl_sweep s = fig(5, x, y, v, NULL);
    pl_buf b = svg(&s);
    is_int(count(b.s, "<rect class=\"cell"), 5,
           "plotsweep: heat: one cell per configuration (one missing)");
    is_int(count(b.s, "<rect class=\"cell diverged\""), 1,
           "plotsweep: heat: the infinite value is a grey cell");
    ok(strstr(b.s, "<rect class=\"best\"") != NULL
       && strstr(strstr(b.s, "<rect class=\"best\""),
                 "data-x=\"0.10000000000000001\" data-y=\"0.5\" "
                 "data-value=\"9.9999999999999995e-07\"") != NULL,
       "plotsweep: heat: a tie for the best goes to the first configuration");
    ok(strstr(b.s, "data-clog=\"1\"") != NULL
       && count(strstr(b.s, "<g class=\"key\">"), "<rect ") >= 33,
       "plotsweep: heat: log colour scale (3e6x) and its key");
    pl_buf_fini(&b);
    b = text(&s, 80, 9);
    ok(strstr(b.s, "< best lr=0.1 mu=0.5") != NULL,
       "plotsweep: text heat: the key names the best configuration");
    ok(strstr(b.s, "inf") != NULL,
       "plotsweep: text heat: the diverged cell says inf");
    pl_buf_fini(&b);
    /* a flat colour scale (all values equal) and a 1 x 1 grid */
    {
      static const double vf[] = {2, 2, 2, 2, 2};
      pl_sweep f = fig(5, x, y, vf, NULL);
      pl_sweep one = fig(1, x, y, vf, NULL);
      b = svg(&f);
      is_int(count(b.s, "<rect class=\"best\""), 1,
             "plotsweep: heat: equal values still have one best cell");
      pl_buf_fini(&b);
      b = svg(&one);
      is_int(count(b.s, "<rect class=\"cell\""), 1,
             "plotsweep: heat: a 1 x 1 grid");
      pl_buf_fini(&b);
      b = text(&one, 40, 8);
      pl_buf_fini(&b);
    }
  }
  /* (5) a text heat map too wide for its width says so */
  {
    double x[40], y[40], v[40];
    int i;
    pl_sweep s;
    pl_buf b;
    for (i = 0; i < 40; i++) {
      x[i] = i;
      y[i] = 0;
      v[i] = i + 1;
    }
    s = fig(40, x, y, v, NULL);
    b = text(&s, 80, 10);
    ok(strstr(b.s, "40 x 1 cells") != NULL && strstr(b.s, "do not fit")
       != NULL, "plotsweep: text heat: 40 columns in 80 do not fit: said");
    pl_buf_fini(&b);
  }
  return done();
}
