/*
** core/plot/textplot.c -- the text figure of r:plot{text = true}: every
** panel framed in a box (title in the top border, x axis title in the
** bottom one, right-aligned, so it never covers a tick label), drawn by
** its kind's draw_cells (panel.h) into a grid of cells, then written to
** a pl_buf as UTF-8 or ASCII lines.  See plot.h.  The frames and the
** grid are pl_text_panels' (panelpriv.h), which the sweep figures'
** text (sweep.c) draws its panels with too.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panelpriv.h"

void pl_default_panels (pl_plot *pl, const int *watch, int nwatch)
{
  int i, extra;
  pl->npanels = 0;
  for (i = 0; i < nwatch && pl->npanels < PL_MAXPANELS; i++)
    pl->panels[pl->npanels++] = watch[i];
  for (i = 0; i < pl->npanels; i++)
    if (pl->panels[i] >= OL_NMETRICS) return;
  extra = pn_auto_panel(&pl->rs);
  if (extra >= 0 && pl->npanels < PL_MAXPANELS)
    pl->panels[pl->npanels++] = extra;
}

typedef struct grid {
  int w, h;
  unsigned *u;
  char *a;
} grid;

static void gput (void *ud, int y, int x, unsigned u, char a, int role)
{
  grid *t = ud;
  (void)role;
  if (y < 0 || x < 0 || y >= t->h || x >= t->w) return;
  t->u[(size_t)y * t->w + x] = u;
  t->a[(size_t)y * t->w + x] = a;
}

/* s (ASCII) into the border row y from column x, at most maxw cells. */
static void gputs (grid *t, int y, int x, const char *s, int maxw)
{
  int i;
  for (i = 0; s[i] != '\0' && i < maxw; i++)
    gput(t, y, x + i, (unsigned char)s[i], s[i], 0);
}

static void frame (grid *t, int y, int h, const char *title,
                   const char *xtitle)
{
  int i, len;
  for (i = 1; i < t->w - 1; i++) {
    gput(t, y, i, 0x2500, '-', 0);
    gput(t, y + h - 1, i, 0x2500, '-', 0);
  }
  for (i = 1; i < h - 1; i++) {
    gput(t, y + i, 0, 0x2502, '|', 0);
    gput(t, y + i, t->w - 1, 0x2502, '|', 0);
  }
  gput(t, y, 0, 0x250C, '+', 0);
  gput(t, y, t->w - 1, 0x2510, '+', 0);
  gput(t, y + h - 1, 0, 0x2514, '+', 0);
  gput(t, y + h - 1, t->w - 1, 0x2518, '+', 0);
  gputs(t, y, 3, title, t->w - 5);
  len = (int)strlen(xtitle);
  if (len > 0 && len + 6 < t->w)
    gputs(t, y + h - 1, t->w - 3 - len, xtitle, len);
}

/* Draw panel kind into o; its title into title, its x axis title (with
** surrounding spaces, or "") into xt. */
static void panel (const pl_plot *pl, int kind, const pn_out *o,
                   pn_cache *cache, char *title, size_t tsize, char *xt,
                   size_t xsize)
{
  const pn_kind *pk = pn_kind_of(kind);
  pn_axes ax;
  char x[64];
  pn_axes_init(&ax, pl->xaxis, pl->xlog || pn_xlog_prone(kind));
  ax.marks = 1;                 /* the landscape's starts and x*, keyed */
  if (pl->winfix) {
    ax.winfix = 1;
    memcpy(ax.win, pl->win, sizeof ax.win);
  }
  xt[0] = '\0';
  if (pk == NULL) {             /* (the callers check the kinds) */
    title[0] = '\0';
    return;
  }
  pk->draw_cells(&pl->rs, kind, &ax, cache, o, title, tsize);
  if (pk->axes) {
    pn_xtitle(kind, &ax, x, sizeof x);
    snprintf(xt, xsize, " %s ", x);
  }
}

/* pl_text's panels: panel i of the figure ud drawn by pl_text's panel(). */
static void plot_panel (void *ud, int i, const pn_out *o, pn_cache *cache,
                        char *title, size_t tsize, char *xt, size_t xsize)
{
  const pl_plot *pl = ud;
  panel(pl, pl->panels[i], o, cache, title, tsize, xt, xsize);
}

int pl_text (const pl_plot *pl, int width, int height, int utf8, pl_buf *out)
{
  return pl_text_panels(pl->npanels, width, height, utf8, plot_panel,
                        (void *)pl, out);
}

int pl_text_panels (int npanels, int width, int height, int utf8,
                    pl_cellsfn draw, void *ud, pl_buf *out)
{
  grid t;
  cv_canvas cv;
  pn_cache cache;
  int i, y, x, rc = 0;
  size_t n;
  memset(&cv, 0, sizeof cv);
  memset(&cache, 0, sizeof cache);
  /* drawn once, often right after a Ctrl-C: a landscape whose f would
  ** take more than a tenth of a second is left out, with its reason */
  cache.budget = 0.02;
  cache.maxsec = 0.1;
  cache.oneshot = 1;
  t.w = width;
  t.h = height * npanels;
  n = (size_t)t.w * (size_t)t.h;
  t.u = malloc(n * sizeof *t.u + 1);
  t.a = malloc(n + 1);
  if (t.u == NULL || t.a == NULL) {
    rc = -1;
    goto done;
  }
  for (i = 0; (size_t)i < n; i++) {
    t.u[i] = ' ';
    t.a[i] = ' ';
  }
  for (i = 0; i < npanels; i++) {
    pn_out o;
    char title[96], head[112], xt[72];
    o.put = gput;
    o.ud = &t;
    o.y = i * height + 1;
    o.x = 1;
    o.h = height - 2;
    o.w = width - 2;
    o.utf8 = utf8;
    o.cv = &cv;
    xt[0] = '\0';
    draw(ud, i, &o, &cache, title, sizeof title, xt, sizeof xt);
    snprintf(head, sizeof head, " %s ", title);
    frame(&t, i * height, height, head, xt);
  }
  for (y = 0; y < t.h; y++) {
    for (x = 0; x < t.w; x++) {
      unsigned u = t.u[(size_t)y * t.w + x];
      char c[4];
      if (utf8) pl_buf_add(out, c, (size_t)cv_utf8(u ? u : ' ', c));
      else {
        char a = t.a[(size_t)y * t.w + x];
        pl_buf_addc(out, (unsigned char)a >= 0x20 && (unsigned char)a < 0x7f
                    ? a : '?');
      }
    }
    pl_buf_addc(out, '\n');
  }
  if (out->oom) rc = -1;
done:
  free(t.u);
  free(t.a);
  cv_fini(&cv);
  pn_cache_fini(&cache);
  return rc;
}
