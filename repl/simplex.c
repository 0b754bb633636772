/*
** repl/simplex.c -- the simplex panel of the live view: the triangle of
** each 3-action strategy block (vertices 1, 2, 3) with each run's and
** player's path and current point (drawn by lua/plotpanel.c).
*/
#include "draw.h"

void dr_simplex_draw (const dr_runs *rs, int y, int x, int h, int w,
                      int focused, cv_canvas *cv)
{
  pn_runs prs;
  pn_out o;
  char title[96];
  dr_pn_setup(rs, y, x, h, w, cv, &prs, &o);
  pn_simplex(&prs, &o, title, sizeof title);
  dr_frame(y, x, h, w, focused, title);
}
