/*
** repl/landscape.c -- the landscape panel of the live view: a heat map of
** f over the first two coordinates with every run's trajectory on top
** (lua/plotpanel.c draws it; the grid comes from core/grid.c and is
** cached here, recomputed only when the window or the panel size change).
** A frame spends at most MAP_BUDGET seconds evaluating f for the map; a
** slow objective's map is finished over several frames, or given up.
*/
#include "draw.h"

#define MAP_BUDGET 0.01

static pn_cache cache;

void dr_landscape_draw (const dr_runs *rs, int y, int x, int h, int w,
                        int focused, cv_canvas *cv)
{
  pn_runs prs;
  pn_out o;
  char title[96];
  dr_pn_setup(rs, y, x, h, w, cv, &prs, &o);
  cache.budget = MAP_BUDGET;
  pn_landscape(&prs, &o, &cache, title, sizeof title);
  dr_frame(y, x, h, w, focused, title);
}
