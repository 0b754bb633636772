/*
** repl/landscape.c -- the landscape panel of the live view: a heat map of
** f over the first two coordinates with every run's trajectory on top
** (lua/plotpanel.c draws it; the grid comes from core/grid.c and is
** cached here, recomputed only when the window or the panel size change).
*/
#include <stdio.h>

#include "draw.h"
#include "screen.h"

static pn_cache cache;

void dr_landscape_draw (const dr_runs *rs, int y, int x, int h, int w,
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
  pn_landscape(&prs, &o, &cache, title, sizeof title);
  dr_frame(y, x, h, w, focused, title);
}
