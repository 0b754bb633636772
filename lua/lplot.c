/*
** lua/lplot.c -- r:plot(opts) and race:plot(opts): the binding of the
** figures of core/plot/plot.h.  Here only the options are read and the
** result written: the SVG document to a file, the text plot to stdout
** (UTF-8 braille when the locale is UTF-8, else ASCII).
**
** opts: file (a path; without it, text; its extension picks the format:
** .svg or none, .png, .pdf, lua/lfigure.h), watch (metric names and the
** panels "landscape", "simplex", "trace", "cloud"; default: the run's
** watch list plus the landscape of a 2-D problem or the simplex of a
** game), width, height (SVG: pixels of the whole figure, default 900 x 320
** per row of panels; PNG: pixels, default 1920 x 1080; PDF: points,
** default 960 x 540; text: columns, default 80, and rows per panel,
** default 16), text = true (text even with a file name: not both), xaxis
** ("iter", "evals", "time", "bits", "rounds"; default: the first run's
** xaxis option) and
** xlog (log x axis, default false) for the metric and trace panels, and
** labels (one legend string per run, instead of the runs' own).
**
** core.plotsweep(fig, opts): a sweep's figures (s:plot, lua/sweep.lua:
** the final value against a parameter, the heat map; core/plot/sweep.c),
** written the same ways with the same file, width, height and text.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"
#include "lfigure.h"
#include "plot.h"

static const char *const plotkeys[] = {
  "file", "watch", "width", "height", "text", "xaxis", "xlog", "labels",
  "xlim", "ylim", NULL
};

/* Runs of the run or race at index 1 into pl (arrays on the stack); the
** legend labels are the runs' own, or opts.labels (index 2) when given:
** one string per run (how repeats and sweep name their curves). */
static void getruns (lua_State *L, pl_plot *pl)
{
  ol_run **runs;
  const char **labels;
  int n = 0, i;
  if (luaL_testudata(L, 1, OLUA_RUN) != NULL) n = 1;
  else if (lua_istable(L, 1)) n = (int)lua_rawlen(L, 1);
  if (n < 1)
    luaL_error(L, "plot: expected a run or a race, got a %s",
               luaL_typename(L, 1));
  runs = lua_newuserdatauv(L, (size_t)n * sizeof *runs, 0);
  labels = lua_newuserdatauv(L, (size_t)n * sizeof *labels, 0);
  for (i = 0; i < n; i++) {
    lrun *b;
    if (n == 1 && luaL_testudata(L, 1, OLUA_RUN) != NULL) lua_pushvalue(L, 1);
    else lua_rawgeti(L, 1, i + 1);
    b = olua_checkrun(L, -1);
    runs[i] = b->r;
    lua_pop(L, 1);
    olua_pushrunlabel(L, b);
    labels[i] = lua_tostring(L, -1);
  }
  if (lua_getfield(L, 2, "labels") != LUA_TNIL) {
    int t = lua_gettop(L);
    if (!lua_istable(L, t))
      luaL_error(L, "plot: labels must be a list of strings, got a %s",
                 luaL_typename(L, t));
    if ((int)lua_rawlen(L, t) != n)
      luaL_error(L, "plot: labels has %d entr%s, %d expected (one per run)",
                 (int)lua_rawlen(L, t), lua_rawlen(L, t) == 1 ? "y" : "ies",
                 n);
    for (i = 0; i < n; i++) {
      if (lua_rawgeti(L, t, i + 1) != LUA_TSTRING)
        luaL_error(L, "plot: labels[%d] must be a string, got a %s", i + 1,
                   luaL_typename(L, -1));
      labels[i] = lua_tostring(L, -1);   /* kept: on the stack */
    }
  }
  else lua_pop(L, 1);
  pl->rs.n = n;
  pl->rs.runs = runs;
  pl->rs.labels = labels;
  pl->title = ol_run_problem(runs[0])->desc;
  if (n == 1 && luaL_testudata(L, 1, OLUA_RUN) != NULL) lua_pushvalue(L, 1);
  else lua_rawgeti(L, 1, 1);
  pl->xaxis = PN_XKIND(olua_checkrun(L, -1)->xaxis);
  pl->xlog = PN_XLOGGED(olua_checkrun(L, -1)->xaxis);
  /* the landscape's window: the first run's view = {xlim, ylim}, or the
  ** plot's own xlim and ylim (each replacing that axis) */
  pl->winfix = olua_checkrun(L, -1)->haswin;
  memcpy(pl->win, olua_checkrun(L, -1)->win, sizeof pl->win);
  lua_pop(L, 1);
  {
    double lim[2];
    int k;
    for (k = 0; k < 2; k++) {
      olua_readlim(L, 2, "plot", "", k == 0 ? "xlim" : "ylim", lim);
      if (isnan(lim[0])) continue;
      if (!pl->winfix) pl->win[0] = pl->win[1] = pl->win[2] = pl->win[3] = NAN;
      pl->winfix = 1;
      pl->win[2 * k] = lim[0];
      pl->win[2 * k + 1] = lim[1];
    }
  }
}

/* watch list at idx, or the default. */
static void getpanels (lua_State *L, int idx, pl_plot *pl)
{
  int i, k;
  char why[160];
  pl->npanels = 0;
  if (!lua_isnil(L, idx)) {
    lua_Integer n;
    if (!lua_istable(L, idx))
      luaL_error(L, "plot: watch must be a list of metric names, got a %s",
                 luaL_typename(L, idx));
    n = (lua_Integer)lua_rawlen(L, idx);
    for (i = 1; i <= n; i++) {
      const char *name;
      lua_rawgeti(L, idx, i);
      name = lua_tostring(L, -1);
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "plot: watch[%d] must be a metric name", i);
      k = pn_find(name);
      if (k < 0) {
        const char *names[PN_NKINDS + 1];
        for (k = 0; k < PN_NKINDS; k++) names[k] = pn_name(k);
        names[k] = NULL;
        olua_unknownkey(L, "plot", "metric or panel", name, names);
      }
      if (!pn_available(&pl->rs, k, why, sizeof why))
        luaL_error(L, "plot: %s", why);
      if (pl->npanels < PL_MAXPANELS) pl->panels[pl->npanels++] = k;
      lua_pop(L, 1);
    }
    if (pl->npanels == 0) luaL_error(L, "plot: watch is empty");
    return;
  }
  {
    lrun *b;
    int watch[PL_MAXPANELS], nw = 0;
    if (luaL_testudata(L, 1, OLUA_RUN) != NULL) lua_pushvalue(L, 1);
    else lua_rawgeti(L, 1, 1);
    b = olua_checkrun(L, -1);
    lua_pop(L, 1);
    for (i = 0; i < b->nwatch && nw < PL_MAXPANELS; i++)
      if (pn_available(&pl->rs, b->watch[i], why, sizeof why))
        watch[nw++] = b->watch[i];
    pl_default_panels(pl, watch, nw);
    if (pl->npanels == 0) luaL_error(L, "plot: nothing to plot");
  }
}

static int utf8_locale (void)
{
  const char *v[3];
  int i;
  v[0] = getenv("LC_ALL");
  v[1] = getenv("LC_CTYPE");
  v[2] = getenv("LANG");
  for (i = 0; i < 3; i++)
    if (v[i] != NULL && v[i][0] != '\0') {
      char low[64];
      size_t k;
      for (k = 0; v[i][k] != '\0' && k < sizeof low - 1; k++)
        low[k] = (char)tolower((unsigned char)v[i][k]);
      low[k] = '\0';
      return strstr(low, "utf-8") != NULL || strstr(low, "utf8") != NULL;
    }
  return 0;
}

/* Render with fn into a buffer owned by a Lua box (freed by its __gc
** even if an error unwinds), then write it to f. */
static int writefig (lua_State *L, const pl_plot *pl, int svg, int width,
                     int height, FILE *f)
{
  pl_buf b;
  int rc, ok;
  pl_buf_init(&b);
  rc = svg ? pl_svg(pl, width, height, &b)
           : pl_text(pl, width, height, utf8_locale(), &b);
  if (rc == 0 && f == NULL) lua_pushlstring(L, b.s, b.len);
  ok = rc == 0 && (f == NULL || fwrite(b.s, 1, b.len, f) == b.len);
  pl_buf_fini(&b);
  if (rc != 0) luaL_error(L, "plot: out of memory");
  return ok;
}

/* A pl_buf in a Lua box on the stack, freed by its __gc even if an error
** unwinds (the box made before the bytes). */
static int buf_gc (lua_State *L)
{
  pl_buf_fini(luaL_checkudata(L, 1, "optlab.plotbuf"));
  return 0;
}

static pl_buf *pushbuf (lua_State *L)
{
  pl_buf *b = lua_newuserdatauv(L, sizeof *b, 0);
  memset(b, 0, sizeof *b);
  if (luaL_newmetatable(L, "optlab.plotbuf")) {
    lua_pushcfunction(L, buf_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  pl_buf_init(b);
  return b;
}

/* -- entry ---------------------------------------------------------------- */

static int optint (lua_State *L, int idx, const char *key, int def, int lo,
                   int hi)
{
  lua_Integer v;
  int isint;
  if (lua_getfield(L, idx, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return def;
  }
  v = lua_tointegerx(L, -1, &isint);
  if (lua_type(L, -1) != LUA_TNUMBER)
    luaL_error(L, "plot: %s must be an integer, got a %s", key,
               luaL_typename(L, -1));
  if (!isint)
    luaL_error(L, "plot: %s must be an integer, got %s", key,
               luaL_tolstring(L, -1, NULL));
  if (v < lo || v > hi)
    luaL_error(L, "plot: %s = %d is out of range [%d, %d]", key, (int)v, lo,
               hi);
  lua_pop(L, 1);
  return (int)v;
}

/* An SVG renderer of a figure: pl_svg of a pl_plot, pl_sweep_svg of a
** pl_sweep. */
typedef int (*svgfn) (const void *fig, int width, int height, pl_buf *out);

static int plot_svg (const void *fig, int width, int height, pl_buf *out)
{
  return pl_svg(fig, width, height, out);
}

static int sweep_svg (const void *fig, int width, int height, pl_buf *out)
{
  return pl_sweep_svg(fig, width, height, out);
}

/* A figure for slides (fmt PNG or PDF, lfigure.h): the SVG of fig (drawn
** by svg) laid out at the logical size of width x height, rendered,
** written whole to fname. */
static void writeslide (lua_State *L, svgfn svg_of, const void *fig, int fmt,
                        const char *fname)
{
  int width, height, lw, lh;
  char err[256];
  pl_buf *svg, *out;
  olua_figure_size(fmt, &width, &height);
  width = optint(L, 2, "width", width, 100, 8000);
  height = optint(L, 2, "height", height, 100, 8000);
  olua_figure_layout(width, height, &lw, &lh);
  svg = pushbuf(L);
  out = pushbuf(L);
  if (svg_of(fig, lw, lh, svg) != 0) luaL_error(L, "plot: out of memory");
  if (olua_figure_render(svg->s, svg->len, fmt, width, height, out, err,
                         sizeof err) != 0)
    luaL_error(L, "plot: cannot write %s: %s", fname, err);
  olua_writefile(L, "plot", fname, out->s, out->len);
  lua_pop(L, 2);
}

/* opts.file (opts at index 2): the file name, checked (a string whose
** extension is a figure format's), left on the stack; NULL without one.
** opts.text into *text (not both). */
static const char *getfile (lua_State *L, int *text)
{
  const char *fname = NULL;
  if (lua_getfield(L, 2, "file") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "plot: file must be a file name, got a %s",
                 luaL_typename(L, -1));
    fname = olua_checkfilename(L, -1, "plot");
    if (olua_figure_format(fname) < 0) {
      const char *dot = strrchr(fname, '.');
      lua_pushfstring(L, "plot: unknown file type '%s'", dot);
      olua_choicerror(L, olua_figure_exts);
    }
  }
  lua_getfield(L, 2, "text");
  *text = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (*text && fname != NULL)
    luaL_error(L, "plot: give file (SVG) or text = true, not both");
  return fname;
}

int olua_plot (lua_State *L)
{
  pl_plot pl;
  const char *fname = NULL;
  int text = 0, width, height, i;
  lua_settop(L, 2);
  if (!lua_isnil(L, 2) && !lua_istable(L, 2))
    return luaL_error(L, "plot: options must be a table, got a %s",
                      luaL_typename(L, 2));
  if (lua_isnil(L, 2)) {
    lua_newtable(L);
    lua_replace(L, 2);
  }
  lua_pushnil(L);
  while (lua_next(L, 2) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                   : "?";
    for (i = 0; plotkeys[i] != NULL && strcmp(plotkeys[i], k) != 0; i++) {}
    if (plotkeys[i] == NULL) olua_unknownkey(L, "plot", "key", k, plotkeys);
    lua_pop(L, 1);
  }
  getruns(L, &pl);
  fname = getfile(L, &text);
  lua_getfield(L, 2, "watch");
  getpanels(L, lua_gettop(L), &pl);
  lua_pop(L, 1);
  if (lua_getfield(L, 2, "xaxis") != LUA_TNIL)
    pl.xaxis = olua_checkxaxis(L, -1, "plot");
  lua_pop(L, 1);
  if (lua_getfield(L, 2, "xlog") != LUA_TNIL) {
    if (!lua_isboolean(L, -1))
      return luaL_error(L, "plot: xlog must be a boolean, got a %s",
                        luaL_typename(L, -1));
    pl.xlog = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  /* a summary exists only on a worker rank, whose output goes nowhere
  ** (stdout and files are /dev/null): rank 0 draws the figure */
  for (i = 0; i < pl.rs.n; i++)
    if (ol_run_remote(pl.rs.runs[i])) return 0;
  if (fname != NULL && (i = olua_figure_format(fname)) != OLUA_FIG_SVG) {
    writeslide(L, plot_svg, &pl, i, fname);
    return 0;
  }
  if (fname != NULL) {
    width = optint(L, 2, "width", 900, 200, 10000);
    height = optint(L, 2, "height", 34 + 320 * ((pl.npanels + (width >= 600
                    && pl.npanels > 1 ? 1 : 0)) / (width >= 600
                    && pl.npanels > 1 ? 2 : 1)), 150, 10000);
    {
      /* the SVG as a string (f NULL), then written whole or not at all */
      size_t len;
      const char *s;
      writefig(L, &pl, 1, width, height, NULL);
      s = lua_tolstring(L, -1, &len);
      olua_writefile(L, "plot", fname, s, len);
      return 0;
    }
  }
  width = optint(L, 2, "width", 80, 40, 1000);
  height = optint(L, 2, "height", 16, 8, 200);
  writefig(L, &pl, 0, width, height, stdout);
  fflush(stdout);
  return 0;
}

/* -- sweep figures ------------------------------------------------------- */

/* fig[key] (fig at index 1): a list of n numbers into a box on the stack;
** NULL when absent and optional. */
static double *numlist (lua_State *L, const char *key, int n, int optional)
{
  double *v;
  int i;
  if (lua_getfield(L, 1, key) == LUA_TNIL && optional) {
    lua_pop(L, 1);
    return NULL;
  }
  if (!lua_istable(L, -1) || (int)lua_rawlen(L, -1) != n)
    luaL_error(L, "plot: fig.%s must be a list of %d numbers", key, n);
  v = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *v, 0);
  for (i = 0; i < n; i++) {
    int isnum;
    lua_rawgeti(L, -2, i + 1);
    v[i] = lua_tonumberx(L, -1, &isnum);
    if (!isnum) luaL_error(L, "plot: fig.%s[%d] must be a number", key, i + 1);
    lua_pop(L, 1);
  }
  lua_remove(L, -2);
  return v;
}

/* fig[key]: a list of strings into a box on the stack (the strings kept
** alive by fig); *n their count. */
static const char **strlist (lua_State *L, const char *key, int *n)
{
  const char **v;
  int i;
  lua_getfield(L, 1, key);
  if (!lua_istable(L, -1) || lua_rawlen(L, -1) < 1)
    luaL_error(L, "plot: fig.%s must be a non-empty list of strings", key);
  *n = (int)lua_rawlen(L, -1);
  v = lua_newuserdatauv(L, (size_t)*n * sizeof *v, 0);
  for (i = 0; i < *n; i++) {
    if (lua_rawgeti(L, -2, i + 1) != LUA_TSTRING)
      luaL_error(L, "plot: fig.%s[%d] must be a string", key, i + 1);
    v[i] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  lua_remove(L, -2);
  return v;
}

static const char *optstr (lua_State *L, const char *key)
{
  const char *s;
  lua_getfield(L, 1, key);
  s = lua_tostring(L, -1);
  lua_pop(L, 1);                  /* kept alive by fig */
  return s;
}

static int optlog (lua_State *L, const char *key)
{
  int v = -1;
  if (lua_getfield(L, 1, key) != LUA_TNIL) v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

static int bydouble (const void *pa, const void *pb)
{
  double a = *(const double *)pa, b = *(const double *)pb;
  return a < b ? -1 : a > b;
}

/* Distinct values of v[0..n) (sorted in a scratch box, popped). */
static int ndistinct (lua_State *L, const double *v, int n)
{
  double *u = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof *u, 0);
  int i, k = 0;
  memcpy(u, v, (size_t)n * sizeof *u);
  qsort(u, (size_t)n, sizeof *u, bydouble);
  for (i = 0; i < n; i++)
    if (i == 0 || u[i] != u[i - 1]) k++;
  lua_pop(L, 1);
  return k;
}

/* core.plotsweep(fig, opts): the figures of a sweep (plot.h: pl_sweep),
** for lua/sweep.lua's s:plot, which builds fig and checks the user's keys.
** fig: title, xname, yname (a heat map; nil: curves), x and y (one number
** per configuration), group (its curve, 1-based) and glabels (one label
** per curve), div (1 for a diverged run, else 0), metrics (names) and
** values (per metric a list of one number per configuration), xlog and
** ylog (booleans; nil: auto).  opts: file, width, height, text as r:plot
** reads them; default sizes as r:plot's, and for a heat map's text at
** least as many rows as its grid needs. */
int olua_plotsweep (lua_State *L)
{
  pl_sweep s;
  const char *fname;
  double *v, *g;
  int *grp, text, width, height, i, j, ng, n;
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  memset(&s, 0, sizeof s);
  lua_getfield(L, 1, "x");
  n = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
  lua_pop(L, 1);
  if (n < 1) return luaL_error(L, "plot: fig.x must be a non-empty list");
  s.n = n;
  s.x = numlist(L, "x", n, 0);
  s.y = numlist(L, "y", n, 1);
  s.mname = strlist(L, "metrics", &s.nm);
  if (s.nm > PL_MAXPANELS)
    return luaL_error(L, "plot: at most %d panels", PL_MAXPANELS);
  s.glabel = strlist(L, "glabels", &ng);
  s.ngroups = ng;
  g = numlist(L, "group", n, 0);
  grp = lua_newuserdatauv(L, (size_t)n * sizeof *grp, 0);
  for (i = 0; i < n; i++) {
    if (!(g[i] >= 1 && g[i] <= ng))
      return luaL_error(L, "plot: fig.group[%d] out of range", i + 1);
    grp[i] = (int)g[i] - 1;
  }
  s.group = grp;
  g = numlist(L, "div", n, 1);
  if (g != NULL) {
    unsigned char *d = lua_newuserdatauv(L, (size_t)n, 0);
    for (i = 0; i < n; i++) d[i] = g[i] != 0;
    s.div = d;
  }
  v = lua_newuserdatauv(L, (size_t)s.nm * (size_t)n * sizeof *v, 0);
  lua_getfield(L, 1, "values");
  if (!lua_istable(L, -1) || (int)lua_rawlen(L, -1) != s.nm)
    return luaL_error(L, "plot: fig.values must be one list per metric");
  for (j = 0; j < s.nm; j++) {
    lua_rawgeti(L, -1, j + 1);
    for (i = 0; i < n; i++) {
      lua_rawgeti(L, -1, i + 1);
      v[(size_t)j * (size_t)n + (size_t)i] = lua_isnumber(L, -1)
        ? lua_tonumber(L, -1) : NAN;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  s.v = v;
  s.xname = optstr(L, "xname");
  s.yname = optstr(L, "yname");
  s.title = optstr(L, "title");
  if (s.xname == NULL) s.xname = "x";
  if (s.y != NULL && s.yname == NULL) s.yname = "y";
  s.xlog = optlog(L, "xlog");
  s.ylog = optlog(L, "ylog");
  fname = getfile(L, &text);
  if (fname != NULL && (i = olua_figure_format(fname)) != OLUA_FIG_SVG) {
    writeslide(L, sweep_svg, &s, i, fname);
    return 0;
  }
  if (fname != NULL) {
    int two;
    pl_buf *b;
    width = optint(L, 2, "width", 900, 200, 10000);
    two = s.nm > 1 && width >= 600;
    height = optint(L, 2, "height", 34 + 16 * (ng > 1 ? 1 : 0) + (s.y != NULL
                    ? 360 : 320) * ((s.nm + two) / (two ? 2 : 1)), 150,
                    10000);
    b = pushbuf(L);
    if (pl_sweep_svg(&s, width, height, b) != 0)
      return luaL_error(L, "plot: out of memory");
    olua_writefile(L, "plot", fname, b->s, b->len);
    return 0;
  }
  width = optint(L, 2, "width", 80, 40, 1000);
  i = s.y != NULL ? ndistinct(L, s.y, n) + 6 : 16;
  height = optint(L, 2, "height", i > 8 ? i : 8, 8, 1000);
  {
    pl_buf *b = pushbuf(L);
    if (pl_sweep_text(&s, width, height, utf8_locale(), b) != 0)
      return luaL_error(L, "plot: out of memory");
    fwrite(b->s, 1, b->len, stdout);
    fflush(stdout);
  }
  return 0;
}
