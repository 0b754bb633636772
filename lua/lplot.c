/*
** lua/lplot.c -- r:plot(opts) and race:plot(opts): the watched panels as
** an SVG file (fprintf, one <path class="series"> per run and panel) or
** as text on stdout (the canvas and lua/plotpanel.c, UTF-8 braille when
** the locale is UTF-8, else ASCII), for scripts and CI logs.
**
** opts: file (SVG path; without it, text), watch (metric names,
** "landscape", "simplex"; default: the run's watch list plus the
** landscape of a 2-D problem or the simplex of a game), width, height
** (SVG: pixels of the whole figure, default 900 x 320 per row of panels;
** text: columns, default 80, and rows per panel, default 16), text = true
** (text even with a file name: not both), xaxis ("iter", "evals",
** "time"; default: the first run's xaxis option) for the metric panels.
*/
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"
#include "grid.h"
#include "plotpanel.h"

static const char *const plotkeys[] = {
  "file", "watch", "width", "height", "text", "xaxis", NULL
};

static const char *const palette[] = {
  "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
  "#e377c2", "#17becf"
};
#define NPAL 8

/* -- the runs and panels -------------------------------------------------- */

typedef struct plot {
  pn_runs rs;
  int npanels;
  int panels[OL_NMETRICS + 2];
  int xaxis;            /* PN_X_* */
} plot;

/* Runs of the run or race at index 1 into pl (arrays on the stack). */
static void getruns (lua_State *L, plot *pl)
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
  pl->rs.n = n;
  pl->rs.runs = runs;
  pl->rs.labels = labels;
  if (n == 1 && luaL_testudata(L, 1, OLUA_RUN) != NULL) lua_pushvalue(L, 1);
  else lua_rawgeti(L, 1, 1);
  pl->xaxis = olua_checkrun(L, -1)->xaxis;
  lua_pop(L, 1);
}

static int has_traj (const pn_runs *rs)
{
  int k, dim;
  for (k = 0; k < rs->n; k++)
    if (ol_run_traj(rs->runs[k], &dim) != NULL) return 1;
  return 0;
}

/* Check that panel kind can be drawn from the runs; raises otherwise. */
static void checkpanel (lua_State *L, const plot *pl, int kind)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  int first[1], k;
  if (kind == PN_LANDSCAPE || kind == PN_SIMPLEX) {
    if (kind == PN_LANDSCAPE && !pn_has_landscape(p))
      luaL_error(L, "plot: no landscape for %s (needs an objective or "
                 "density with n >= 2)", p->desc);
    if (kind == PN_SIMPLEX && pn_simplex_blocks(p, first, 1) == 0)
      luaL_error(L, "plot: no simplex for %s (needs 3-action simplex "
                 "blocks)", p->desc);
    if (!has_traj(&pl->rs))
      luaL_error(L, "plot: %s needs the trajectory (run with record_x = "
                 "true)", pn_name(kind));
    return;
  }
  for (k = 0; k < pl->rs.n; k++)
    if (ol_run_metrics(pl->rs.runs[k]) & OL_MBIT(kind)) return;
  luaL_error(L, "plot: metric '%s' was not recorded", pn_name(kind));
}

/* watch list at idx, or the default. */
static void getpanels (lua_State *L, int idx, plot *pl)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  int i, k, first[1];
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
      checkpanel(L, pl, k);
      if (pl->npanels < OL_NMETRICS + 2) pl->panels[pl->npanels++] = k;
      lua_pop(L, 1);
    }
    if (pl->npanels == 0) luaL_error(L, "plot: watch is empty");
    return;
  }
  {
    lrun *b;
    if (luaL_testudata(L, 1, OLUA_RUN) != NULL) lua_pushvalue(L, 1);
    else lua_rawgeti(L, 1, 1);
    b = olua_checkrun(L, -1);
    lua_pop(L, 1);
    for (i = 0; i < b->nwatch; i++) pl->panels[pl->npanels++] = b->watch[i];
  }
  for (i = 0; i < pl->npanels; i++)
    if (pl->panels[i] >= OL_NMETRICS) return;
  if (p->n == 2 && pn_has_landscape(p) && has_traj(&pl->rs))
    pl->panels[pl->npanels++] = PN_LANDSCAPE;
  else if (p->kind == OL_GAME && pn_simplex_blocks(p, first, 1) > 0
           && has_traj(&pl->rs))
    pl->panels[pl->npanels++] = PN_SIMPLEX;
}

/* -- text ------------------------------------------------------------------ */

typedef struct tbuf {
  int w, h;
  unsigned *u;
  char *a;
} tbuf;

static void tput (void *ud, int y, int x, unsigned u, char a, int role)
{
  tbuf *t = ud;
  (void)role;
  if (y < 0 || x < 0 || y >= t->h || x >= t->w) return;
  t->u[(size_t)y * t->w + x] = u;
  t->a[(size_t)y * t->w + x] = a;
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

static void frame (tbuf *t, int y, int h, const char *title, int utf8)
{
  int i;
  (void)utf8;
  for (i = 1; i < t->w - 1; i++) {
    tput(t, y, i, 0x2500, '-', 0);
    tput(t, y + h - 1, i, 0x2500, '-', 0);
  }
  for (i = 1; i < h - 1; i++) {
    tput(t, y + i, 0, 0x2502, '|', 0);
    tput(t, y + i, t->w - 1, 0x2502, '|', 0);
  }
  tput(t, y, 0, 0x250C, '+', 0);
  tput(t, y, t->w - 1, 0x2510, '+', 0);
  tput(t, y + h - 1, 0, 0x2514, '+', 0);
  tput(t, y + h - 1, t->w - 1, 0x2518, '+', 0);
  for (i = 0; title[i] != '\0' && 3 + i < t->w - 2; i++)
    tput(t, y, 3 + i, (unsigned char)title[i], title[i], 0);
}

static void text_plot (lua_State *L, const plot *pl, int width, int height)
{
  int utf8 = utf8_locale(), i, y, x;
  tbuf t;
  cv_canvas cv;
  pn_cache cache;
  luaL_Buffer bf;
  memset(&cv, 0, sizeof cv);
  memset(&cache, 0, sizeof cache);
  t.w = width;
  t.h = height * pl->npanels;
  t.u = lua_newuserdatauv(L, (size_t)t.w * t.h * sizeof *t.u, 0);
  t.a = lua_newuserdatauv(L, (size_t)t.w * t.h, 0);
  for (i = 0; i < t.w * t.h; i++) {
    t.u[i] = ' ';
    t.a[i] = ' ';
  }
  for (i = 0; i < pl->npanels; i++) {
    pn_out o;
    char title[96], head[112];
    o.put = tput;
    o.ud = &t;
    o.y = i * height + 1;
    o.x = 1;
    o.h = height - 2;
    o.w = width - 2;
    o.utf8 = utf8;
    o.cv = &cv;
    if (pl->panels[i] == PN_LANDSCAPE)
      pn_landscape(&pl->rs, &o, &cache, title, sizeof title);
    else if (pl->panels[i] == PN_SIMPLEX)
      pn_simplex(&pl->rs, &o, title, sizeof title);
    else pn_metric(&pl->rs, pl->panels[i], pl->xaxis, &o, title,
                   sizeof title);
    snprintf(head, sizeof head, " %s ", title);
    frame(&t, i * height, height, head, utf8);
  }
  cv_fini(&cv);
  pn_cache_fini(&cache);
  luaL_buffinit(L, &bf);
  for (y = 0; y < t.h; y++) {
    for (x = 0; x < t.w; x++) {
      unsigned u = t.u[(size_t)y * t.w + x];
      char c[4];
      if (utf8) luaL_addlstring(&bf, c, (size_t)cv_utf8(u ? u : ' ', c));
      else {
        char a = t.a[(size_t)y * t.w + x];
        luaL_addchar(&bf, (unsigned char)a >= 0x20 && (unsigned char)a < 0x7f
                     ? a : '?');
      }
    }
    luaL_addchar(&bf, '\n');
  }
  luaL_pushresult(&bf);
  fwrite(lua_tostring(L, -1), 1, lua_rawlen(L, -1), stdout);
  fflush(stdout);
}

/* -- SVG ------------------------------------------------------------------- */

static void xmlstr (FILE *f, const char *s)
{
  for (; *s; s++) {
    if (*s == '&') fputs("&amp;", f);
    else if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '"') fputs("&quot;", f);
    else fputc(*s, f);
  }
}

/* Plot area of a panel cell. */
typedef struct box {
  double x, y, w, h;
} box;

static void svg_metric (FILE *f, const plot *pl, int m, box b)
{
  double lo = INFINITY, hi = -INFINITY, plo = INFINITY, tv[16], xmax = 0;
  int k, i, log, neg = 0, nt, xa = pl->xaxis;
  cv_scale ys, xs;
  char lab[32];
  for (k = 0; k < pl->rs.n; k++) {
    const double *v = ol_run_series(pl->rs.runs[k], m);
    int len = ol_run_len(pl->rs.runs[k]);
    if (v == NULL || len <= 0) continue;
    if (pn_xat(pl->rs.runs[k], xa, len - 1) > xmax)
      xmax = pn_xat(pl->rs.runs[k], xa, len - 1);
    for (i = 0; i < len; i++) {
      if (!isfinite(v[i])) continue;
      if (v[i] < lo) lo = v[i];
      if (v[i] > hi) hi = v[i];
      if (v[i] > 0 && v[i] < plo) plo = v[i];
      if (v[i] < 0) neg = 1;
    }
  }
  log = pn_log_prone(m) && !neg && plo < INFINITY;   /* zeros: gaps */
  memset(&ys, 0, sizeof ys);
  if (lo <= hi) cv_scale_fit(&ys, log, log ? plo : lo, hi);
  xs.valid = 1;
  xs.log = 0;
  xs.lo = 0;
  if (!(xmax > 0)) xmax = xa == PN_X_TIME ? 1e-3 : 1;
  xs.hi = cv_nice_up(xmax / 5);
  xs.hi *= ceil(xmax / xs.hi);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">", b.x,
          b.y - 8);
  xmlstr(f, pn_name(m));
  fprintf(f, " [%s]</text>\n", log ? "log" : "lin");
  fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
          "class=\"frame\"/>\n", b.x, b.y, b.w, b.h);
  nt = ys.valid ? cv_ticks(&ys, 6, tv) : 0;
  for (i = 0; i < nt; i++) {
    double y = b.y + (1 - cv_scale_pos(&ys, tv[i])) * b.h;
    cv_fmt(tv[i], lab, sizeof lab, 8);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">%s"
            "</text>\n", b.x, y, b.x + b.w, y, b.x - 4, y + 4, lab);
  }
  nt = cv_ticks(&xs, 6, tv);
  for (i = 0; i < nt; i++) {
    double x = b.x + tv[i] / xs.hi * b.w;
    pn_xfmt(xa, tv[i], lab, sizeof lab, 8);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">%s"
            "</text>\n", x, b.y, x, b.y + b.h, x, b.y + b.h + 14, lab);
  }
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">%s</text>\n",
          b.x + b.w, b.y + b.h + 28, pn_xaxis_label(xa));
  for (k = 0; k < pl->rs.n; k++) {
    const double *v = ol_run_series(pl->rs.runs[k], m);
    int len = ol_run_len(pl->rs.runs[k]), have = 0;
    fprintf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
            palette[k % NPAL]);
    for (i = 0; v != NULL && ys.valid && i < len; i++) {
      double pos = cv_scale_pos(&ys, v[i]);
      if (isnan(pos)) {
        have = 0;
        continue;
      }
      pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
      fprintf(f, "%s%.2f %.2f ", have ? "L" : "M",
              b.x + pn_xat(pl->rs.runs[k], xa, i) / xs.hi * b.w,
              b.y + (1 - pos) * b.h);
      have = 1;
    }
    fprintf(f, "\"/>\n");
  }
}

/* Shade of level l (0 low .. PN_NLEVELS - 1 high): dark blue to yellow. */
static void shade (int l, char *buf, size_t sz)
{
  double t = l < 0 ? 1 : (double)l / (PN_NLEVELS - 1);
  snprintf(buf, sz, "#%02x%02x%02x", (int)(40 + 215 * t),
           (int)(40 + 190 * t), (int)(110 + 40 * (1 - t)));
}

static void svg_landscape (FILE *f, const plot *pl, box b)
{
  pn_cache c;
  int nx = 48, ny = 32, r, col, k, t;
  double cw, ch;
  char fill[16];
  memset(&c, 0, sizeof c);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">landscape x1,x2 "
          "[log f]</text>\n", b.x, b.y - 8);
  if (pn_landscape_grid(&pl->rs, nx, ny, &c) != 0) {
    pn_cache_fini(&c);
    for (k = 0; k < pl->rs.n; k++)
      fprintf(f, "<path class=\"series\" d=\"\"/>\n");
    return;
  }
  cw = b.w / nx;
  ch = b.h / ny;
  for (r = 0; r < ny; r++)
    for (col = 0; col < nx; col++) {
      shade(c.lev[r * nx + col], fill, sizeof fill);
      fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\""
              " fill=\"%s\"/>\n", b.x + col * cw, b.y + b.h - (r + 1) * ch,
              cw + 0.3, ch + 0.3, fill);
    }
  fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
          "class=\"frame\"/>\n", b.x, b.y, b.w, b.h);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">%g</text>"
          "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">%g</text>\n",
          b.x - 4, b.y + 10, c.win[3], b.x - 4, b.y + b.h, c.win[2]);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">%g</text>"
          "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">%g</text>\n",
          b.x, b.y + b.h + 14, c.win[0], b.x + b.w, b.y + b.h + 14,
          c.win[1]);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">x1</text>"
          "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">x2</text>\n",
          b.x + b.w / 2, b.y + b.h + 28, b.x - 4, b.y + b.h / 2);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]), have = 0;
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    const double *xc = ol_run_x(pl->rs.runs[k]);
#define PX(a) (b.x + ((a) - c.win[0]) / (c.win[1] - c.win[0]) * b.w)
#define PY(a) (b.y + (c.win[3] - (a)) / (c.win[3] - c.win[2]) * b.h)
    fprintf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
            palette[k % NPAL]);
    for (t = 0; x != NULL && dim >= 2 && t < len; t++) {
      if (!isfinite(x[t * dim]) || !isfinite(x[t * dim + 1])) {
        have = 0;
        continue;
      }
      fprintf(f, "%s%.2f %.2f ", have ? "L" : "M", PX(x[t * dim]),
              PY(x[t * dim + 1]));
      have = 1;
    }
    fprintf(f, "\"/>\n");
    if (isfinite(xc[0]) && isfinite(xc[1]) && xc[0] >= c.win[0]
        && xc[0] <= c.win[1] && xc[1] >= c.win[2] && xc[1] <= c.win[3])
      fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\" "
              "stroke=\"white\"/>\n", PX(xc[0]), PY(xc[1]),
              palette[k % NPAL]);
#undef PX
#undef PY
  }
  pn_cache_fini(&c);
}

static void svg_simplex (FILE *f, const plot *pl, box b)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  int first[OL_MAXBLOCKS], nb = pn_simplex_blocks(p, first, OL_MAXBLOCKS);
  double h3 = 0.5 * sqrt(3.0), s = b.w, ox, oy, u, v;
  int k, bl, i;
  if (b.h / h3 < s) s = b.h / h3;
  ox = b.x + (b.w - s) / 2;
  oy = b.y + b.h - (b.h - s * h3) / 2;
#define TX(uu) (ox + (uu) * s)
#define TY(vv) (oy - (vv) * s)
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">simplex</text>\n",
          b.x, b.y - 8);
  fprintf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
          "class=\"frame\"/>\n", TX(0), TY(0), TX(1), TY(0), TX(0.5),
          TY(h3));
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">1</text>"
          "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">2</text>"
          "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">3</text>\n",
          TX(0) - 4, TY(0) + 4, TX(1) + 12, TY(0) + 4, TX(0.5),
          TY(h3) - 4);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]);
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    fprintf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
            palette[k % NPAL]);
    for (bl = 0; x != NULL && bl < nb; bl++) {
      int have = 0;
      if (first[bl] + 3 > dim) continue;
      for (i = 0; i < len; i++) {
        const double *q = x + (size_t)i * dim + first[bl];
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) {
          have = 0;
          continue;
        }
        pn_bary(q, &u, &v);
        fprintf(f, "%s%.2f %.2f ", have ? "L" : "M", TX(u), TY(v));
        have = 1;
      }
    }
    fprintf(f, "\"/>\n");
    for (bl = 0; bl < nb; bl++) {
      const double *q = ol_run_x(pl->rs.runs[k]) + first[bl];
      if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) continue;
      pn_bary(q, &u, &v);
      fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\"/>",
              TX(u), TY(v), palette[k % NPAL]);
      if (nb > 1)
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" class=\"note\">p%d</text>",
                TX(u) + 6, TY(v) - 4, bl + 1);
      fputc('\n', f);
    }
  }
#undef TX
#undef TY
}

static int svg_plot (lua_State *L, const plot *pl, const char *fname,
                     int width, int height)
{
  FILE *f = fopen(fname, "w");
  int ncol, nrow, i, k, ok;
  double cw, ch, top = 34, lx;
  if (f == NULL) return luaL_fileresult(L, 0, fname);
  ncol = pl->npanels > 1 && width >= 600 ? 2 : 1;
  nrow = (pl->npanels + ncol - 1) / ncol;
  cw = (double)width / ncol;
  ch = (height - top) / nrow;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
          "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
          "font-size=\"11\">\n<style>\n"
          ".series{fill:none;stroke-width:1.6}\n"
          ".frame{fill:none;stroke:#444}\n"
          ".grid{stroke:#ddd;stroke-width:0.7}\n"
          ".title{font-weight:bold;font-size:12px}\n"
          ".ytick{text-anchor:end}\n.xtick{text-anchor:middle}\n"
          ".xlabel{text-anchor:end}\n.note{font-size:10px}\n"
          "</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>"
          "\n", width, height, width, height);
  /* (1) legend: one swatch and label per run */
  fprintf(f, "<text x=\"10\" y=\"16\" class=\"title\">");
  xmlstr(f, ol_run_problem(pl->rs.runs[0])->desc);
  fprintf(f, "</text>\n");
  lx = 10;
  for (k = 0; k < pl->rs.n; k++) {
    const char *lab = pl->rs.labels[k] ? pl->rs.labels[k] : "?";
    fprintf(f, "<g class=\"legend\"><line x1=\"%.1f\" y1=\"27\" x2=\"%.1f\" "
            "y2=\"27\" stroke=\"%s\" stroke-width=\"3\"/><text x=\"%.1f\" "
            "y=\"31\">", lx, lx + 18, palette[k % NPAL], lx + 22);
    xmlstr(f, lab);
    fprintf(f, "</text></g>\n");
    lx += 34 + 6.5 * (double)strlen(lab);
  }
  /* (2) panels */
  for (i = 0; i < pl->npanels; i++) {
    box b;
    b.x = (i % ncol) * cw + 62;
    b.y = top + (i / ncol) * ch + 24;
    b.w = cw - 62 - 18;
    b.h = ch - 24 - 36;
    if (pl->panels[i] == PN_LANDSCAPE) svg_landscape(f, pl, b);
    else if (pl->panels[i] == PN_SIMPLEX) svg_simplex(f, pl, b);
    else svg_metric(f, pl, pl->panels[i], b);
  }
  fprintf(f, "</svg>\n");
  ok = !ferror(f);
  ok = (fclose(f) == 0) && ok;
  return luaL_fileresult(L, ok, fname);
}

/* -- entry ------------------------------------------------------------------ */

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

int olua_plot (lua_State *L)
{
  plot pl;
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
  if (lua_getfield(L, 2, "file") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TSTRING)
      return luaL_error(L, "plot: file must be a file name, got a %s",
                        luaL_typename(L, -1));
    fname = olua_checkfilename(L, -1, "plot");
  }
  lua_getfield(L, 2, "text");
  text = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (text && fname != NULL)
    return luaL_error(L, "plot: give file (SVG) or text = true, not both");
  lua_getfield(L, 2, "watch");
  getpanels(L, lua_gettop(L), &pl);
  lua_pop(L, 1);
  if (lua_getfield(L, 2, "xaxis") != LUA_TNIL)
    pl.xaxis = olua_checkxaxis(L, -1, "plot");
  lua_pop(L, 1);
  if (fname != NULL) {
    width = optint(L, 2, "width", 900, 200, 10000);
    height = optint(L, 2, "height", 34 + 320 * ((pl.npanels + (width >= 600
                    && pl.npanels > 1 ? 1 : 0)) / (width >= 600
                    && pl.npanels > 1 ? 2 : 1)), 150, 10000);
    return svg_plot(L, &pl, fname, width, height);
  }
  width = optint(L, 2, "width", 80, 40, 1000);
  height = optint(L, 2, "height", 16, 8, 200);
  text_plot(L, &pl, width, height);
  return 0;
}
