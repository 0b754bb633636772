/*
** repl/simplex.c -- the simplex panel of the live view: the triangle of
** each 3-action strategy block (vertices 1, 2, 3) with each run's and
** player's path and current point (drawn by lua/plotpanel.c).
*/
#include <stdio.h>

#include "draw.h"
#include "screen.h"

void dr_simplex_draw (const dr_runs *rs, int y, int x, int h, int w,
                      int focused, cv_canvas *cv)
{
  pn_runs prs;
  pn_out o;
  char title[96];
  prs.n = rs->n;
  prs.runs = rs->runs;
  prs.labels = rs->labels;
  o.put = dr_put;
  o.ud = NULL;
  o.y = y + 1;
  o.x = x + 1;
  o.h = h - 2;
  o.w = w - 2;
  o.utf8 = screen_utf8() && screen_colors();
  o.cv = cv;
  pn_simplex(&prs, &o, title, sizeof title);
  dr_frame(y, x, h, w, focused, title);
}
