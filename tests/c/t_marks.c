/*
** tests/c/t_marks.c -- parameter changes marked on the plots (core/plot,
** plotpanel.h: PN_CHGMARK, pn_change_x), from C alone: a gd run whose lr
** changes at iterations 10 and 20 (replayed through opts.changes, so the
** run logs them as ol_run_set would) drawn as an ASCII text plot has a '^'
** on its x axis exactly under the tick labels 10 and 20, a dotted line
** above each, and the legend line "^ 2 changes"; its SVG has two dashed
** change lines labelled with the new values; a run without changes has
** none of it.  pn_change_x maps a change's iteration onto the other x
** axes through the run's records.
*/
#include "olt.h"
#include "plot.h"
#include "tap.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 80
#define H 16

/* Line k of text (0-based) into line; 0 when there is none. */
static int line_of (const char *text, int k, char *line, size_t size)
{
  const char *s = text, *e;
  size_t n;
  while (k-- > 0) {
    s = strchr(s, '\n');
    if (s == NULL) return 0;
    s++;
  }
  e = strchr(s, '\n');
  n = e != NULL ? (size_t)(e - s) : strlen(s);
  if (n >= size) n = size - 1;
  memcpy(line, s, n);
  line[n] = '\0';
  return *s != '\0';
}

/* The number printed across column c of line (digits around c), -1 when
** c is not on one. */
static long number_at (const char *line, int c)
{
  int a = c;
  if (c < 0 || c >= (int)strlen(line) || !isdigit((unsigned char)line[c]))
    return -1;
  while (a > 0 && isdigit((unsigned char)line[a - 1])) a--;
  return strtol(line + a, NULL, 10);
}

static ol_run *gd_run (const ol_problem *p, const ol_change *ch, int nch)
{
  double par[1] = {0.5};
  ol_run_opts o = olt_opts(30, 0, OL_MSET_OF(OL_MET_LOSS));
  const ol_method_type *gd = ol_method_find("gd");
  ol_run *r;
  o.changes = ch;
  o.nchanges = nch;
  r = gd != NULL ? olt_run(p, gd, par, &o) : NULL;
  if (r != NULL) ol_run_advance(r, 30);
  return r;
}

static void draw (ol_run *r, pl_buf *txt, pl_buf *svg)
{
  pl_plot pl;
  ol_run *runs[1];
  const char *labels[1] = {"gd lr=0.5"};
  runs[0] = r;
  memset(&pl, 0, sizeof pl);
  pl.rs.n = 1;
  pl.rs.runs = runs;
  pl.rs.labels = labels;
  pl.npanels = 1;
  pl.panels[0] = OL_MET_LOSS;
  pl.xaxis = PN_X_ITER;
  pl.title = "quadratic";
  pl_buf_init(txt);
  pl_buf_init(svg);
  pl_text(&pl, W, H, 0, txt);
  pl_svg(&pl, 640, 400, svg);
}

static int count (const char *s, const char *what)
{
  int n = 0;
  while (s != NULL && (s = strstr(s, what)) != NULL) {
    n++;
    s += strlen(what);
  }
  return n;
}

static void test_marks (void)
{
  static const ol_change ch[2] = {{10, 0, 1.0}, {20, 0, 0.25}};
  ol_problem *p = olt_quadratic(2, 10, 0);
  ol_run *r = p != NULL ? gd_run(p, ch, 2) : NULL;
  ol_run *plain = p != NULL ? gd_run(p, NULL, 0) : NULL;
  pl_buf txt, svg, txt0, svg0;
  char line[256], below[256], above[256];
  int k, c, axis = -1, nmark = 0, dotted = 0, n = 0;
  long at[2] = {-1, -1};
  if (r == NULL || plain == NULL) {
    ok(0, "marks: the runs");
    return;
  }
  ol_run_changes(r, &n);
  is_int(n, 2, "marks: the replayed changes are logged");
  draw(r, &txt, &svg);
  draw(plain, &txt0, &svg0);
  /* the x axis: the row with '^' on a "+---" line */
  for (k = 0; line_of(txt.s, k, line, sizeof line); k++)
    if (strstr(line, "+-") != NULL && strchr(line, '^') != NULL) axis = k;
  ok(axis > 0, "marks: an x axis row with marks (%d)", axis);
  if (axis > 0) {
    line_of(txt.s, axis, line, sizeof line);
    line_of(txt.s, axis + 1, below, sizeof below);
    for (c = 0; line[c] != '\0'; c++) {
      if (line[c] != '^') continue;
      if (nmark < 2) at[nmark] = number_at(below, c);
      nmark++;
      line_of(txt.s, axis - 1, above, sizeof above);
      for (k = axis - 1; k > 0 && line_of(txt.s, k, above, sizeof above);
           k--)
        if ((int)strlen(above) > c && above[c] == ':') {
          dotted++;
          break;
        }
    }
  }
  is_int(nmark, 2, "marks: two marks on the x axis");
  ok(at[0] == 10 && at[1] == 20, "marks: under the tick labels 10 and 20 "
     "(%ld, %ld)", at[0], at[1]);
  is_int(dotted, 2, "marks: a dotted line above each mark");
  ok(strstr(txt.s, "^ 2 changes") != NULL, "marks: legend \"^ 2 changes\"");
  ok(strchr(txt0.s, '^') == NULL && strstr(txt0.s, "change") == NULL,
     "marks: a run without changes has no mark and no legend line");
  is_int(count(svg.s, "class=\"change\""), 2, "svg: two change lines");
  ok(strstr(svg.s, ">lr=1</text>") != NULL
     && strstr(svg.s, ">lr=0.25</text>") != NULL,
     "svg: labelled with the new values");
  is_int(count(svg0.s, "class=\"change\""), 0,
         "svg: a run without changes has none");
  pl_buf_fini(&txt);
  pl_buf_fini(&svg);
  pl_buf_fini(&txt0);
  pl_buf_fini(&svg0);
  ol_run_free(r);
  ol_run_free(plain);
  ol_problem_free(p);
}

/* pn_change_x: t on iterations; the record at t on another axis (every
** step is recorded here: 30 steps, cap 4096); past the last record, the
** last. */
static void test_change_x (void)
{
  ol_problem *p = olt_quadratic(2, 10, 0);
  ol_run *r = p != NULL ? gd_run(p, NULL, 0) : NULL;
  const long *tm;
  int i, i10 = -1, len;
  if (r == NULL) {
    ok(0, "change_x: the run");
    return;
  }
  tm = ol_run_times(r);
  len = ol_run_len(r);
  for (i = 0; i < len; i++)
    if (tm[i] == 10) i10 = i;
  ok(i10 >= 0, "change_x: iteration 10 is recorded");
  is_near(pn_change_x(r, PN_X_ITER, 10), 10, 0, "change_x: iterations");
  is_near(pn_change_x(r, PN_X_ITER | PN_X_LOG, 7), 7, 0,
          "change_x: log iterations");
  if (i10 >= 0)
    is_near(pn_change_x(r, PN_X_EVALS, 10), ol_run_evals(r)[i10], 0,
            "change_x: evaluations at iteration 10 (%g)",
            ol_run_evals(r)[i10]);
  is_near(pn_change_x(r, PN_X_EVALS, 1000), ol_run_evals(r)[len - 1], 0,
          "change_x: past the last record, the last");
  ol_run_free(r);
  ol_problem_free(p);
}

int main (void)
{
  test_marks();
  test_change_x();
  return done();
}
