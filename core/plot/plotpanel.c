/*
** core/plot/plotpanel.c -- insides of the metric, trace, cloud, landscape
** and simplex panels, drawn through a put callback (see plotpanel.h).
** The numbers come from core (run series, draws, ol_problem_grid,
** ol_grid_window); here they are only mapped to dots, shades and labels.
**
** Metric and trace panels: YLAB columns of y tick labels, an axis column,
** the plot; then the x axis row, the x tick label row, and the legend
** rows (one entry per run: marker, label, latest value, minimum), laid out
** in columns.  Values a log axis cannot show (<= 0, below PN_TINY) are
** PN_FLOOR marks on the bottom row, so an underflowed loss does not
** stretch the range and flatten the other curves.
** Landscape: one grid cell per character cell, shaded by the level of
** log10(f - min + eps) (ramp ' .:-=+*#%@', low to high), trajectories on
** top (braille lines in the run's colour, or ASCII letters a, b, c, ...
** per run), the current point as a filled circle (ASCII: A, B, C, ...).
** Cloud: the sampler draws in two coordinates as dots, over the contours
** of log p (cells where the landscape's level changes) for a 2-D target or
** chosen coordinates.  Trace and cloud mark divergent draws in role
** PN_DIVERGENT.  A chain set's rhat and ess panels draw one pooled curve
** (pn_pool_update; its values the core's, ol_diag_runs) in the title
** colour.  Simplex: barycentric (p1, p2, p3) -> (p2 + p3/2, p3 sqrt(3)/2)
** in a triangle with vertices labelled 1, 2, 3, one path per run and
** player.
** Legends of the last three sit in a plot corner whose canvas cells are
** empty (checked), else below the plot, which then gives up rows.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "grid.h"
#include "method.h"
#include "ol.h"
#include "plotpanel.h"
#include "problems/game.h"

#define YLAB 7
#define MAXTICKS 16
#define MAXLEG 64
#define EDGE 125         /* canvas series ids 125..127: triangle edges */
#define NASHID 124       /* canvas series id of an equilibrium's dot */
#define PATHID 123       /* canvas series id of the workers' average path */
#define DOT 0x25CF       /* filled circle */
#define CONTOUR 0x00B7   /* middle dot */

const char pn_ramp[] = " .:-=+*#%@";

const char *pn_name (int kind)
{
  if (kind >= 0 && kind < OL_NMETRICS) return ol_metric_types[kind].name;
  if (kind == PN_LANDSCAPE) return "landscape";
  if (kind == PN_SIMPLEX) return "simplex";
  if (kind == PN_TRACE) return "trace";
  if (kind == PN_CLOUD) return "cloud";
  if (kind == PN_WORKERS) return "workers";
  if (kind == PN_MIXING) return "mixing";
  return NULL;
}

int pn_find (const char *name)
{
  int k, a, b, len;
  for (k = 0; k < PN_TRACEJ; k++)
    if (strcmp(pn_name(k), name) == 0) return k;
  /* "trace:j", "cloud:a,b": 1-based coordinates, nothing after them */
  len = -1;
  if (sscanf(name, "trace:%d%n", &a, &len) == 1 && len > 0
      && name[len] == '\0' && strspn(name + 6, "0123456789") + 6
      == (size_t)len)
    return pn_trace_kind(a - 1);
  len = -1;
  if (sscanf(name, "cloud:%d,%d%n", &a, &b, &len) == 2 && len > 0
      && name[len] == '\0' && strspn(name + 6, "0123456789,") + 6
      == (size_t)len)
    return pn_cloud_kind(a - 1, b - 1);
  return -1;
}

int pn_trace_kind (int j)
{
  if (j < 0 || j >= PN_MAXTRACE) return -1;
  return j == 0 ? PN_TRACE : PN_TRACEJ + j;
}

int pn_cloud_kind (int a, int b)
{
  if (a < 0 || b < 0 || a == b || a >= PN_MAXCLOUD || b >= PN_MAXCLOUD)
    return -1;
  return a == 0 && b == 1 ? PN_CLOUD : PN_CLOUDJ + a * PN_MAXCLOUD + b;
}

int pn_base (int kind)
{
  if (kind >= PN_TRACEJ && kind < PN_CLOUDJ) return PN_TRACE;
  if (kind >= PN_CLOUDJ && kind < PN_NKINDS) return PN_CLOUD;
  return kind;
}

void pn_coords (int kind, int *a, int *b)
{
  *a = 0;
  if (b != NULL) *b = 1;
  if (kind >= PN_TRACEJ && kind < PN_CLOUDJ) *a = kind - PN_TRACEJ;
  else if (kind >= PN_CLOUDJ && kind < PN_NKINDS) {
    *a = (kind - PN_CLOUDJ) / PN_MAXCLOUD;
    if (b != NULL) *b = (kind - PN_CLOUDJ) % PN_MAXCLOUD;
  }
}

int pn_log_prone (int m)
{
  return m == OL_MET_LOSS || m == OL_MET_GRADNORM || m == OL_MET_KKT
    || m == OL_MET_SUBOPT || m == OL_MET_DIST || m == OL_MET_EXPLOIT
    || m == OL_MET_MINGRADNORM || m == OL_MET_BIAS || m == OL_MET_VARIANCE
    || m == OL_MET_NASHCONV || m == OL_MET_NASHCONV_AVG
    || m == OL_MET_EXPLOIT_AVG || m == OL_MET_REGRET || m == OL_MET_CCEGAP
    || m == OL_MET_MEANERR || m == OL_MET_KL || m == OL_MET_W2
    || m == OL_MET_STATIONARITY || m == OL_MET_FEASIBILITY
    || m == OL_MET_COMPLEMENTARITY;
}

int pn_xlog_prone (int m)
{
  return m == OL_MET_REGRET || m == OL_MET_CCEGAP || m == OL_MET_NASHCONV
    || m == OL_MET_NASHCONV_AVG || m == OL_MET_EXPLOIT
    || m == OL_MET_EXPLOIT_AVG;
}

void pn_axes_init (pn_axes *a, int xaxis, int xlog)
{
  memset(a, 0, sizeof *a);
  a->xaxis = xaxis;
  a->xlog = xlog != 0;
  a->ymode = PN_YAUTO;
}

int pn_defaults (const ol_problem *p, int family, ol_mset rec, int *out,
                 int max)
{
  int n = 0, i;
#define ADD(k) do { if (n < max) out[n++] = (k); } while (0)
  if (family == OL_SAMPLER) {
    if (rec & OL_MBIT(OL_MET_ACCEPT)) ADD(OL_MET_ACCEPT);
    ADD(PN_TRACE);
    if (p != NULL && p->n >= 2) ADD(PN_CLOUD);
    if (rec & OL_MBIT(OL_MET_STEPSIZE)) ADD(OL_MET_STEPSIZE);
    return n;
  }
  if (family == OL_DYNAMIC || (p != NULL && p->kind == OL_GAME)) {
    /* the average's gap is what no-regret dynamics drive to 0; the last
    ** iterate's is what optimistic ones do (and plain ones do not) */
    if (rec & OL_MBIT(OL_MET_EXPLOIT_AVG)) ADD(OL_MET_EXPLOIT_AVG);
    if (rec & OL_MBIT(OL_MET_EXPLOIT)) ADD(OL_MET_EXPLOIT);
    if (rec & OL_MBIT(OL_MET_ENTROPY)) ADD(OL_MET_ENTROPY);
  } else if (family >= OL_VI && family != OL_DIST) {
    /* variational, diffusion and RL methods: the metrics their probes
    ** define, in metric order (below); a diffusion sampler's particles
    ** as a cloud over the target's contours for a 2-D target */
    for (i = 0; i < OL_NMETRICS; i++)
      if (rec & OL_MBIT(i)) ADD(i);
    if (family == OL_DIFFUSION && p != NULL && p->n >= 2) ADD(PN_CLOUD);
  } else if (p != NULL && p->con.m > 0) {
    /* general constraints: the loss and the three parts of the KKT
    ** error (||grad f|| is not what goes to 0 at a constrained optimum) */
    static const int kk[] = {OL_MET_LOSS, OL_MET_STATIONARITY,
                             OL_MET_FEASIBILITY, OL_MET_COMPLEMENTARITY};
    for (i = 0; i < 4; i++)
      if (rec & OL_MBIT(kk[i])) ADD(kk[i]);
  } else {
    if (rec & OL_MBIT(OL_MET_LOSS)) ADD(OL_MET_LOSS);
    if (rec & OL_MBIT(OL_MET_GRADNORM)) ADD(OL_MET_GRADNORM);
  }
  /* decentralized methods: how far their nodes are from agreeing */
  if (family == OL_DIST && (rec & OL_MBIT(OL_MET_CONSENSUS)))
    ADD(OL_MET_CONSENSUS);
  if (n == 0)
    for (i = 0; i < OL_NMETRICS; i++)
      if (rec & OL_MBIT(i)) ADD(i);
#undef ADD
  return n;
}

int pn_available (const pn_runs *rs, int kind, char *why, size_t wsize)
{
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  int k, dim, first[1], ca, cb, full = kind;
  pn_pts pt;
  why[0] = '\0';
  if (p == NULL) {
    snprintf(why, wsize, "no runs");
    return 0;
  }
  kind = pn_base(full);
  pn_coords(full, &ca, &cb);
  if (pn_pooled(rs, kind)) return 1;
  if (kind >= 0 && kind < OL_NMETRICS) {
    for (k = 0; k < rs->n; k++)
      if (ol_run_metrics(rs->runs[k]) & OL_MBIT(kind)) return 1;
    snprintf(why, wsize, "metric '%s' was not recorded", pn_name(kind));
    return 0;
  }
  if (kind == PN_LANDSCAPE && !pn_has_landscape(p)) {
    snprintf(why, wsize, "no landscape for %s (needs an objective or "
             "density with n >= 2)", p->desc);
    return 0;
  }
  if (kind == PN_SIMPLEX && pn_simplex_blocks(p, first, 1) == 0) {
    snprintf(why, wsize, "no simplex for %s (needs 3-action simplex "
             "blocks or two 2-action players)", p->desc);
    return 0;
  }
  if (kind == PN_CLOUD && p->n < 2) {
    snprintf(why, wsize, "no cloud for %s (needs n >= 2)", p->desc);
    return 0;
  }
  if (kind == PN_WORKERS) {
    for (k = 0; k < rs->n; k++)
      if (pn_workers_of(rs->runs[k], &dim) != NULL) return 1;
    snprintf(why, wsize, "no workers' iterates (needs a distributed run "
             "that keeps them, dist.dsgd, dist.fedavg, ..., on n >= 2)");
    return 0;
  }
  if (kind == PN_MIXING) {
    double gap;
    if (pn_mixing_of(rs, &dim, &gap) != NULL) return 1;
    snprintf(why, wsize, "no mixing matrix (needs a decentralized run: "
             "dist.dsgd, dist.gt, dist.gtnsgdm)");
    return 0;
  }
  if ((kind == PN_TRACE || kind == PN_CLOUD)
      && (ca >= p->n || (kind == PN_CLOUD && cb >= p->n))) {
    snprintf(why, wsize, "no coordinate x%d in %s (n = %d)", (ca >= p->n
             ? ca : cb) + 1, p->desc, p->n);
    return 0;
  }
  for (k = 0; k < rs->n; k++) {
    if (kind == PN_TRACE || kind == PN_CLOUD) {
      if (pn_points(rs->runs[k], &pt) && ca < pt.dim
          && (kind == PN_TRACE || cb < pt.dim))
        return 1;
    } else if (ol_run_traj(rs->runs[k], &dim) != NULL) return 1;
  }
  if ((kind == PN_TRACE || kind == PN_CLOUD) && (ca >= 8 || cb >= 8)) {
    snprintf(why, wsize, "x%d is in a sampler's draws only (the trajectory "
             "keeps x1..x8)", (ca > cb ? ca : cb) + 1);
    return 0;
  }
  snprintf(why, wsize, "%s needs the trajectory (run with record_x = true)"
           "%s", pn_name(kind), kind == PN_TRACE || kind == PN_CLOUD
           ? " or a sampler's draws" : "");
  return 0;
}

/* -- text pieces ---------------------------------------------------------- */

/* Next code point of UTF-8 s at *i (advanced); malformed bytes are
** taken one at a time. */
static unsigned u8next (const char *s, int *i)
{
  const unsigned char *p = (const unsigned char *)s + *i;
  unsigned u = p[0];
  int n = u < 0x80 ? 1 : u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : u >= 0xC0 ? 2 : 1;
  int k;
  if (n > 1) {
    u &= 0x3Fu >> (n - 1);
    for (k = 1; k < n; k++) {
      if ((p[k] & 0xC0) != 0x80) {
        *i += 1;
        return p[0];
      }
      u = (u << 6) | (p[k] & 0x3F);
    }
  }
  *i += n;
  return u;
}

int pn_cols (const char *s)
{
  int i = 0, n = 0;
  while (s[i] != '\0') {
    u8next(s, &i);
    n++;
  }
  return n;
}

/* s (UTF-8) at (y, x), at most maxw columns, clipped to o. */
static void puts_at (const pn_out *o, int y, int x, const char *s, int maxw,
                     int role)
{
  int i = 0, c = 0;
  while (s[i] != '\0' && c < maxw) {
    unsigned u = u8next(s, &i);
    char a = u < 0x80 ? (char)u : u == 0x2026 ? '.' : '~';
    if (x + c >= o->x && x + c < o->x + o->w)
      o->put(o->ud, y, x + c, o->utf8 ? u : (unsigned char)a, a, role);
    c++;
  }
}

static void blank (const pn_out *o, int y, int x, int w)
{
  int i;
  for (i = 0; i < w; i++) o->put(o->ud, y, x + i, ' ', ' ', PN_AXIS);
}

/* Byte offsets where the tokens of s end (before a separator: space or
** comma, runs of them one separator); count returned, at most max. */
static int token_ends (const char *s, const char *seps, int *end, int max)
{
  int n = 0, i = 0;
  while (s[i] != '\0' && n < max) {
    while (s[i] != '\0' && strchr(seps, s[i]) != NULL) i++;
    if (s[i] == '\0') break;
    while (s[i] != '\0' && strchr(seps, s[i]) == NULL) i++;
    end[n++] = i;
  }
  return n;
}

/* vals groups are separated by '\t' (shown as a space). */
static void addvals (char *buf, size_t size, const char *vals, int upto)
{
  size_t l = strlen(buf);
  int i;
  if (vals == NULL || upto <= 0) return;
  if (l + 1 < size) {
    buf[l++] = ' ';
    buf[l] = '\0';
  }
  for (i = 0; i < upto && l + 1 < size; i++) {
    buf[l++] = vals[i] == '\t' ? ' ' : vals[i];
    buf[l] = '\0';
  }
}

int pn_shorten (const char *label, const char *vals, int width, int utf8,
                char *buf, size_t size)
{
  const char *ell = utf8 ? "\xe2\x80\xa6" : "...";
  int lend[32], vend[16], nl, nv, t, v;
  nl = token_ends(label, " ,", lend, 32);
  nv = vals != NULL ? token_ends(vals, "\t", vend, 16) : 0;
  if (size == 0) return 0;
  /* (1) value groups dropped from the end, the label whole (which run
  ** it is matters more than its numbers); (2) then label tokens dropped
  ** from the end; (3) only a first token longer than the room is cut */
  for (v = nv; v >= 0; v--) {
    snprintf(buf, size, "%s", label);
    addvals(buf, size, vals, v > 0 ? vend[v - 1] : 0);
    if (pn_cols(buf) <= width) return pn_cols(buf);
  }
  for (t = nl - 1; t >= 1; t--) {
    snprintf(buf, size, "%.*s%s", lend[t - 1], label, ell);
    if (pn_cols(buf) <= width) return pn_cols(buf);
  }
  /* a first token longer than the room (a method name, no number) */
  {
    int i = 0, c = 0;
    while (label[i] != '\0' && c < width) {
      int j = i;
      u8next(label, &j);
      if ((size_t)j >= size) break;
      i = j;
      c++;
    }
    snprintf(buf, size, "%.*s", i, label);
    return c;
  }
}

/* -- legends -------------------------------------------------------------- */

typedef struct legend {
  int n;
  const char *label[MAXLEG];
  char vals[MAXLEG][48];      /* '\t'-separated droppable groups, or "" */
  unsigned mark[MAXLEG];
  char asc[MAXLEG];
  int role[MAXLEG];
  char extra[48];             /* a key line ("P1 ● P2 ◆"), or "" */
  int xrole;                  /* its role (0: PN_TITLE) */
} legend;

static void leg_add (legend *lg, const char *label, const char *vals,
                     unsigned mark, char asc, int role)
{
  int k = lg->n;
  if (k >= MAXLEG) return;
  lg->label[k] = label != NULL ? label : "?";
  snprintf(lg->vals[k], sizeof lg->vals[k], "%s", vals != NULL ? vals : "");
  lg->mark[k] = mark;
  lg->asc[k] = asc;
  lg->role[k] = role;
  lg->n++;
}

/* Columns an entry wants: marker, space, label, values. */
static int leg_want (const legend *lg, int k)
{
  int w = 2 + pn_cols(lg->label[k]);
  if (lg->vals[k][0] != '\0') w += 1 + pn_cols(lg->vals[k]);
  return w;
}

/* Layout of the legend in a band w columns wide and at most maxrows rows
** (row-major entries in ncols columns of colw each): rows used. */
static int leg_layout (const legend *lg, int w, int maxrows, int *ncols,
                       int *colw)
{
  int nat = 0, k, nc, rows, n = lg->n + (lg->extra[0] != '\0');
  if (n == 0 || maxrows < 1 || w < 8) return 0;
  for (k = 0; k < lg->n; k++)
    if (leg_want(lg, k) + 2 > nat) nat = leg_want(lg, k) + 2;
  if (lg->extra[0] != '\0' && pn_cols(lg->extra) + 2 > nat)
    nat = pn_cols(lg->extra) + 2;
  if (nat > w) nat = w;
  nc = w / nat;
  if (nc < 1) nc = 1;
  if (nc > n) nc = n;
  rows = (n + nc - 1) / nc;
  if (rows > maxrows) {
    rows = maxrows;
    nc = (n + rows - 1) / rows;
    if (nc > w / 12) nc = w / 12 > 0 ? w / 12 : 1;
    if ((n + nc - 1) / nc < rows) rows = (n + nc - 1) / nc;
    *colw = w / nc;
  } else {
    *colw = nc > 1 ? w / nc : w;
    if (*colw > nat) *colw = nat;
  }
  *ncols = nc;
  return rows;
}

/* Draw the legend in the band at (y, x), rows x (ncols * colw); entries
** that do not fit are summed up as "+k more". */
static void leg_draw (const pn_out *o, const legend *lg, int y, int x,
                      int rows, int ncols, int colw, int clear)
{
  int n = lg->n + (lg->extra[0] != '\0'), shown = rows * ncols, k;
  char buf[160];
  if (clear)
    for (k = 0; k < rows; k++) blank(o, y + k, x, ncols * colw);
  for (k = 0; k < n && k < shown; k++) {
    int ry = y + k / ncols, cx = x + (k % ncols) * colw;
    if (k == shown - 1 && n > shown) {
      snprintf(buf, sizeof buf, "+%d more", n - shown + 1);
      puts_at(o, ry, cx + 2, buf, colw - 2, PN_AXIS);
      break;
    }
    if (k == lg->n) {
      puts_at(o, ry, cx + 2, lg->extra, colw - 2, lg->xrole != 0
              ? lg->xrole : PN_TITLE);
      continue;
    }
    o->put(o->ud, ry, cx, o->utf8 ? lg->mark[k] : (unsigned char)lg->asc[k],
           lg->asc[k], lg->role[k]);
    pn_shorten(lg->label[k], lg->vals[k][0] ? lg->vals[k] : NULL,
               colw - 3, o->utf8, buf, sizeof buf);
    puts_at(o, ry, cx + 2, buf, colw - 3, lg->role[k]);
  }
}

/* Cells of canvas cv (its cell (0, 0) at screen (cy, cx)) lit inside the
** screen rectangle (y, x, h, w). */
static int lit_in (const cv_canvas *cv, int cy, int cx, int y, int x, int h,
                   int w)
{
  int r, c, s;
  for (r = y; r < y + h; r++)
    for (c = x; c < x + w; c++)
      if (cv_cell(cv, c - cx, r - cy, &s) != 0) return 1;
  return 0;
}

/* The legend in a corner of the plot rectangle (py, px, ph, pw) whose
** canvas cells are empty: top-right, top-left, bottom-right, bottom-left.
** Returns 1 when placed, 0 when every corner holds data. */
static int leg_corner (const pn_out *o, const legend *lg, const cv_canvas *cv,
                       int py, int px, int ph, int pw)
{
  int rows = lg->n + (lg->extra[0] != '\0'), k, bw;
  if (rows == 0) return 0;
  if (rows > ph - 1) return 0;
  bw = 0;
  for (k = 0; k < lg->n; k++)
    if (leg_want(lg, k) + 1 > bw) bw = leg_want(lg, k) + 1;
  if (lg->extra[0] != '\0' && pn_cols(lg->extra) + 3 > bw)
    bw = pn_cols(lg->extra) + 3;
  if (bw > pw) return 0;
  for (k = 0; k < 4; k++) {
    int bx = k % 2 == 0 ? px + pw - bw : px;
    int by = k < 2 ? py : py + ph - rows;
    if (lit_in(cv, py, px, by, bx, rows, bw)) continue;
    leg_draw(o, lg, by, bx, rows, 1, bw, 1);
    return 1;
  }
  return 0;
}

/* -- trace and cloud points ----------------------------------------------- */

int pn_points (const ol_run *r, pn_pts *pt)
{
  long rows = 0, thin = 1, seen = 0;
  const double *d = ol_run_draws(r, &rows, &thin, &seen);
  int dim = 0, prow, pcol;
  memset(pt, 0, sizeof *pt);
  /* a diffusion sampler's particles (method.h, ol_method_result) */
  if (ol_run_method(r)->family == OL_DIFFUSION &&
      ol_method_result(ol_run_method(r), ol_run_state(r), "samples", &d,
                       &prow, &pcol) && prow > 0 && pcol > 0) {
    pt->x = d;
    pt->n = prow;
    pt->stride = pt->dim = pcol;
    pt->particles = 1;
    return 1;
  }
  if (d != NULL && rows > 0) {
    pt->x = d + OL_DRAW_COLS;
    pt->n = rows;
    pt->stride = OL_DRAW_COLS + ol_run_problem(r)->n;
    pt->dim = ol_run_problem(r)->n;
    pt->draws = 1;
    pt->thin = thin > 0 ? thin : 1;
    pt->warmup = ol_run_warmup(r);
    return 1;
  }
  d = ol_run_traj(r, &dim);
  if (d == NULL || dim < 1 || ol_run_len(r) <= 0) return 0;
  pt->x = d;
  pt->n = ol_run_len(r);
  pt->stride = dim;
  pt->dim = dim;
  pt->times = ol_run_times(r);
  return 1;
}

int pn_pts_divergent (const pn_pts *pt, long i)
{
  return pt->draws && pt->x[i * pt->stride - OL_DRAW_COLS + 5] != 0;
}

double pn_pts_iter (const pn_pts *pt, long i)
{
  if (pt->particles) return (double)(i + 1);
  if (pt->draws) return (double)pt->warmup + (double)(i + 1) * pt->thin;
  return (double)pt->times[i];
}

/* -- line panels: a metric, or the trace of x1 ---------------------------- */

int pn_src_open (pn_src *s, int kind, int xaxis, const ol_run *r)
{
  s->kind = pn_base(kind);
  s->xaxis = xaxis;
  s->r = r;
  s->n = 0;
  s->px = s->py = NULL;
  pn_coords(kind, &s->coord, NULL);
  if (s->kind == PN_TRACE) {
    if (!pn_points(r, &s->pt) || s->coord >= s->pt.dim) return 0;
    s->n = s->pt.n;
  } else {
    s->v = ol_run_series(r, kind);
    if (s->v == NULL) return 0;
    s->n = ol_run_len(r);
  }
  return s->n > 0;
}

int pn_src_pool (pn_src *s, int kind, const pn_pool *pl)
{
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->px = pl->it;
  s->py = kind == OL_MET_ESS ? pl->ess : pl->rhat;
  s->n = pl->n;
  return s->n > 0;
}

double pn_src_x (const pn_src *s, long i)
{
  if (s->px != NULL) return s->px[i];
  if (s->kind == PN_TRACE) return pn_pts_iter(&s->pt, i);
  return pn_xat(s->r, s->xaxis, (int)i);
}

double pn_src_y (const pn_src *s, long i)
{
  if (s->py != NULL) return s->py[i];
  if (s->kind == PN_TRACE) return s->pt.x[i * s->pt.stride + s->coord];
  return s->v[i];
}

/* Extent of the points of s into e (e initialised by the caller). */
static void scan_src (const pn_src *s, pn_extent *e)
{
  long i;
  if (pn_src_x(s, s->n - 1) > e->xmax) e->xmax = pn_src_x(s, s->n - 1);
  for (i = 0; i < s->n; i++) {
    double y = pn_src_y(s, i), x = pn_src_x(s, i);
    if (x > 0 && x < e->xminpos) e->xminpos = x;
    if (!isfinite(y)) continue;
    e->any = 1;
    if (y < e->min) e->min = y;
    if (y > e->max) e->max = y;
    if (y >= PN_TINY && y < e->pmin) e->pmin = y;
    if (y < 0) e->neg = 1;
  }
}

static void extent_init (pn_extent *e)
{
  e->any = e->neg = 0;
  e->min = e->pmin = e->xminpos = INFINITY;
  e->max = -INFINITY;
  e->xmax = 0;
}

void pn_scan_pool (const pn_pool *pl, int m, pn_extent *e)
{
  pn_src s;
  extent_init(e);
  if (pn_src_pool(&s, m, pl)) scan_src(&s, e);
}

void pn_scan (const pn_runs *rs, int m, int xaxis, pn_extent *e)
{
  int k;
  pn_src s;
  extent_init(e);
  for (k = 0; k < rs->n; k++)
    if (pn_src_open(&s, m, xaxis, rs->runs[k])) scan_src(&s, e);
}

int pn_ylog (int m, int ymode, const pn_extent *e)
{
  if (ymode == PN_YLOG) return e->pmin < INFINITY || !e->any;
  if (ymode == PN_YLIN) return 0;
  return m < OL_NMETRICS && pn_log_prone(m) && !e->neg
    && e->pmin < INFINITY;
}

/* Right end of a fresh x range: a nice multiple of a nice step above the
** largest x (a default when there is none). */
static double xhigh (double xmax, int xaxis)
{
  double hi;
  if (!(xmax > 0)) xmax = xaxis == PN_X_TIME ? 1e-3 : 1;
  hi = cv_nice_up(xmax / 5);
  return hi * ceil(xmax / hi);
}

/* The x scale of a panel from its kept range: linear [0, xmax], or log
** from 1 (iterations) or the smallest positive x, in whole decades. */
static void xscale (const pn_axes *ax, int xaxis, const pn_extent *e,
                    cv_scale *xs)
{
  xs->valid = 1;
  xs->log = ax->xlog;
  if (!ax->xlog) {
    xs->lo = 0;
    xs->hi = ax->xmax;
    return;
  }
  xs->lo = xaxis == PN_X_ITER || !(e->xminpos < INFINITY) ? 0
    : floor(log10(e->xminpos) + 1e-9);
  xs->hi = ceil(log10(ax->xmax > 1e-300 ? ax->xmax : 1) - 1e-9);
  if (xs->hi <= xs->lo) xs->hi = xs->lo + 1;
}

/* Series k of a line panel: run k's, or the pooled curve (pl). */
static int open_k (const pn_runs *rs, int kind, int xaxis, const pn_pool *pl,
                   int k, pn_src *s)
{
  if (pl != NULL) return k == 0 && pn_src_pool(s, kind, pl);
  return pn_src_open(s, kind, xaxis, rs->runs[k]);
}

/* Dot of (x, y) on the line panel's canvas, 0 when it has none. */
static int line_dot (const cv_scale *xs, const cv_scale *ys, int dw, int dh,
                     double x, double y, int *qx, int *qy)
{
  double xp = cv_scale_pos(xs, x), pos = cv_scale_pos(ys, y);
  if (isnan(xp) || isnan(pos)) return 0;
  xp = xp < 0 ? 0 : xp > 1 ? 1 : xp;
  pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
  *qx = (int)lround(xp * (dw - 1));
  *qy = (int)lround((1 - pos) * (dh - 1));
  return 1;
}

static void line_panel (const pn_runs *rs, int full, pn_axes *ax,
                        const pn_out *o, char *title, size_t tsize)
{
  pn_axes fresh;
  pn_extent e;
  legend lg;
  pn_pool tmp, *pool = NULL;
  int kind = pn_base(full), coord, ns = rs->n;
  long ndiv = 0;
  cv_scale xs;
  double tv[MAXTICKS];
  int k, i, log, xaxis, axc = o->x + YLAB, px = axc + 1, last = -1, end;
  int pw = o->x + o->w - px, ph, nt, row, col, lrows = 0, ncols = 1;
  int colw = 0, dw, dh, corner = 0;
  int floor_s[1024];
  char lab[24];
  if (ax == NULL) {
    pn_axes_init(&fresh, PN_X_ITER, 0);
    ax = &fresh;
  }
  pn_coords(full, &coord, NULL);
  xaxis = kind == PN_TRACE ? PN_X_ITER : ax->xaxis;
  /* (0) a chain set's rhat and ess: one pooled curve against iteration */
  if (pn_pooled(rs, kind)) {
    if (ax->pool != NULL) pool = ax->pool;
    else {
      memset(&tmp, 0, sizeof tmp);
      pool = &tmp;
    }
    pn_pool_update(pool, rs, ax->pool != NULL ? ax->poolbudget : 0);
    xaxis = PN_X_ITER;
    ns = 1;
  }
  /* (1) extent, axis kinds, stable ranges */
  if (pool != NULL) pn_scan_pool(pool, kind, &e);
  else pn_scan(rs, full, xaxis, &e);
  log = pn_ylog(kind, ax->ymode, &e);
  ax->shown_log = log;
  if (kind == PN_TRACE) {
    char nb[16];
    snprintf(title, tsize, "trace %s [%s%s]", ol_problem_coordname(rs->n > 0
             ? ol_run_problem(rs->runs[0]) : NULL, coord, nb, sizeof nb),
             log ? "log" : "lin", ax->xlog ? ", log x" : "");
  }
  else
    snprintf(title, tsize, "%s%s [%s%s]", pn_name(kind), pool != NULL
             ? ", chains pooled" : "", log ? "log" : "lin", ax->xlog
             ? ", log x" : "");
  if (!ax->stable) memset(&ax->ys, 0, sizeof ax->ys);
  if (e.any) {
    if (log && e.pmin < INFINITY) cv_scale_fit(&ax->ys, 1, e.pmin, e.max);
    else if (!log) cv_scale_fit(&ax->ys, 0, e.min, e.max);
  }
  if (ax->stable && ax->xmax > 0 && ax->kept_xaxis == xaxis
      && ax->kept_xlog == ax->xlog) {
    if (e.xmax > ax->xmax) ax->xmax = cv_nice_up(e.xmax);
  } else {
    ax->xmax = ax->xlog ? cv_nice_up(e.xmax > 1 ? e.xmax : 1)
      : xhigh(e.xmax, xaxis);
    ax->kept_xaxis = xaxis;
    ax->kept_xlog = ax->xlog;
  }
  xscale(ax, xaxis, &e, &xs);
  /* (2) legend entries and the rows they take below the x tick labels */
  memset(&lg, 0, sizeof lg);
  lg.extra[0] = '\0';
  for (k = 0; k < ns && k < MAXLEG; k++) {
    char a[32], b[32], v[48];
    pn_src s;
    if (!open_k(rs, full, xaxis, pool, k, &s))
      snprintf(v, sizeof v, "(not defined)");
    else if (kind == PN_TRACE || pool != NULL)
      snprintf(v, sizeof v, "%s", ol_fmtnum(a, sizeof a, pn_src_y(&s, s.n - 1),
                                             4));
    else
      snprintf(v, sizeof v, "%s\tmin %s", ol_fmtnum(a, sizeof a,
               ol_run_last(rs->runs[k], kind), 4), ol_fmtnum(b, sizeof b,
               ol_run_min(rs->runs[k], kind), 4));
    if (pool != NULL) {
      snprintf(lg.extra, sizeof lg.extra, "%d chains pooled %.20s", rs->n,
               v);
      break;
    }
    leg_add(&lg, rs->labels[k], v, DOT, cv_marker(k), k);
  }
  /* divergent draws, counted for the legend */
  for (k = 0; kind == PN_TRACE && k < rs->n; k++) {
    pn_pts pt;
    long j;
    if (!pn_points(rs->runs[k], &pt) || !pt.draws) continue;
    for (j = 0; j < pt.n; j++) ndiv += pn_pts_divergent(&pt, j);
  }
  if (ndiv > 0) {
    snprintf(lg.extra, sizeof lg.extra, "%s %ld divergent", o->utf8
             ? "\xc3\x97" : "X", ndiv);
    lg.xrole = PN_DIVERGENT;
  }
  /* at most a third of the rows (entries shortened into columns beyond
  ** that); a panel too small for any goes to an empty corner */
  if (o->h - 2 - 3 >= 1) {
    int maxrows = (o->h - 2) / 3;
    if (maxrows < 2 && o->h - 2 - 2 >= 3) maxrows = 2;
    lrows = leg_layout(&lg, o->w - 1, maxrows > 1 ? maxrows : 1, &ncols,
                       &colw);
  }
  else corner = 1;
  ph = o->h - 2 - lrows;
  if (pw < 4 || ph < 1 || cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE
                                  : CV_ASCII) != 0)
    return;
  dw = cv_dotw(o->cv);
  dh = cv_doth(o->cv);
  for (col = 0; col < pw && col < 1024; col++) floor_s[col] = -1;
  /* (3) series: lines between consecutive points, a gap where a value
  ** cannot be shown, a floor mark where a log axis cannot reach it */
  for (k = 0; ax->ys.valid && k < ns; k++) {
    pn_src s;
    int have = 0, lx = 0, ly = 0;
    long step;
    if (!open_k(rs, full, xaxis, pool, k, &s)) continue;
    step = s.n > 8L * dw ? s.n / (4L * dw) : 1;
    for (i = 0; i < s.n; i += (int)step) {
      double y = pn_src_y(&s, i), xp = cv_scale_pos(&xs, pn_src_x(&s, i));
      double pos = cv_scale_pos(&ax->ys, y);
      int qx, qy;
      if (isnan(xp)) {
        have = 0;
        continue;
      }
      xp = xp < 0 ? 0 : xp > 1 ? 1 : xp;
      qx = (int)lround(xp * (dw - 1));
      if (ax->ys.log && !isnan(y) && !(y >= PN_TINY)) {
        if (qx / (dw / pw) < 1024) floor_s[qx / (dw / pw)] = k;
        have = 0;
        continue;
      }
      if (isnan(pos)) {
        have = 0;
        continue;
      }
      pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
      qy = (int)lround((1 - pos) * (dh - 1));
      if (!have) cv_dot(o->cv, qx, qy, k);
      else if (qx != lx || qy != ly) cv_line(o->cv, lx, ly, qx, qy, k);
      have = 1;
      lx = qx;
      ly = qy;
    }
  }
  for (row = 0; row < ph; row++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned u = cv_cell(o->cv, col, row, &s);
      if (u != 0) o->put(o->ud, o->y + row, px + col, u, cv_marker(s),
                         pool != NULL ? PN_TITLE : s);
    }
  for (col = 0; col < pw && col < 1024; col++)
    if (floor_s[col] >= 0)
      o->put(o->ud, o->y + ph - 1, px + col, PN_FLOOR, 'v', floor_s[col]);
  /* (3b) divergent transitions where they happened: iteration, value */
  for (k = 0; ndiv > 0 && ax->ys.valid && k < rs->n; k++) {
    pn_src s;
    long j;
    int qx, qy;
    if (!pn_src_open(&s, full, xaxis, rs->runs[k]) || !s.pt.draws) continue;
    for (j = 0; j < s.n; j++)
      if (pn_pts_divergent(&s.pt, j)
          && line_dot(&xs, &ax->ys, dw, dh, pn_src_x(&s, j), pn_src_y(&s, j),
                      &qx, &qy))
        o->put(o->ud, o->y + qy / (dh / ph), px + qx / (dw / pw), PN_DIVMARK,
               'X', PN_DIVERGENT);
  }
  /* (4) y axis */
  for (i = 0; i < ph; i++) o->put(o->ud, o->y + i, axc, 0x2502, '|', PN_AXIS);
  nt = ax->ys.valid ? cv_ticks(&ax->ys, ph / 2 > 2 ? (ph / 2 < MAXTICKS
                                 ? ph / 2 : MAXTICKS) : 2, tv) : 0;
  for (i = 0; i < nt; i++) {
    double pos = cv_scale_pos(&ax->ys, tv[i]);
    if (isnan(pos)) continue;
    row = (int)lround((1 - pos) * (dh - 1)) / (dh / ph);
    if (row < 0 || row >= ph || row == last) continue;
    last = row;
    cv_fmt(tv[i], lab, sizeof lab, YLAB - 1);
    puts_at(o, o->y + row, axc - (int)strlen(lab), lab, YLAB, PN_AXIS);
    o->put(o->ud, o->y + row, axc, 0x2524, '+', PN_AXIS);
  }
  if (!ax->ys.valid) puts_at(o, o->y, px + 1, "no data", pw - 1, PN_AXIS);
  /* (5) x axis: tick labels, none cut (the axis title goes in the
  ** caller's bottom border: pn_xtitle) */
  o->put(o->ud, o->y + ph, axc, 0x2514, '+', PN_AXIS);
  for (i = 0; i < pw; i++)
    o->put(o->ud, o->y + ph, px + i, 0x2500, '-', PN_AXIS);
  nt = cv_ticks(&xs, pw / 10 > 2 ? (pw / 10 < MAXTICKS ? pw / 10 : MAXTICKS)
                : 2, tv);
  end = axc;
  for (i = 0; i < nt; i++) {
    double xp = cv_scale_pos(&xs, tv[i]);
    int c, len, lx;
    if (isnan(xp)) continue;
    c = (int)lround(xp * (dw - 1)) / (dw / pw);
    if (c < 0 || c >= pw) continue;
    o->put(o->ud, o->y + ph, px + c, 0x2534, '+', PN_AXIS);
    pn_xfmt(xaxis, tv[i], lab, sizeof lab, 6);
    len = (int)strlen(lab);
    lx = px + c - len / 2;
    if (lx + len > px + pw) lx = px + pw - len;
    if (lx < px) lx = px;
    if (lx <= end) continue;
    puts_at(o, o->y + ph + 1, lx, lab, len, PN_AXIS);
    end = lx + len;
  }
  /* (6) legend: below, or in an empty corner of a tiny panel */
  if (lrows > 0) leg_draw(o, &lg, o->y + ph + 2, o->x + 1, lrows, ncols, colw,
                          1);
  else if (corner) leg_corner(o, &lg, o->cv, o->y, px, ph, pw);
}

void pn_metric (const pn_runs *rs, int m, pn_axes *ax, const pn_out *o,
                char *title, size_t tsize)
{
  line_panel(rs, m, ax, o, title, tsize);
}

void pn_trace (const pn_runs *rs, int kind, pn_axes *ax, const pn_out *o,
               char *title, size_t tsize)
{
  line_panel(rs, pn_base(kind) == PN_TRACE ? kind : PN_TRACE, ax, o, title,
             tsize);
}

/* -- landscape ------------------------------------------------------------ */

int pn_has_landscape (const ol_problem *p)
{
  return p != NULL && p->n >= 2 && p->kind != OL_GAME;
}

void pn_levels (const double *v, int n, int nlev, int *lev)
{
  double lo = INFINITY, hi = -INFINITY, eps, l0, l1;
  int i;
  for (i = 0; i < n; i++)
    if (isfinite(v[i])) {
      if (v[i] < lo) lo = v[i];
      if (v[i] > hi) hi = v[i];
    }
  eps = hi > lo ? 1e-3 * (hi - lo) : 1;
  l0 = log10(eps);
  l1 = log10(hi - lo + eps);
  for (i = 0; i < n; i++) {
    int k;
    if (!isfinite(v[i])) {
      lev[i] = -1;
      continue;
    }
    k = (int)((log10(v[i] - lo + eps) - l0) / (l1 - l0) * nlev);
    lev[i] = k < 0 ? 0 : k >= nlev ? nlev - 1 : k;
  }
}

void pn_cache_fini (pn_cache *c)
{
  double budget = c->budget;
  free(c->val);
  free(c->lev);
  free(c->work);
  memset(c, 0, sizeof *c);
  c->budget = budget;
}

/* Cells c->done.. of the grid, as ol_problem_grid computes them (the same
** points, NAN where f is not finite), until all are done (0) or the
** budget is spent (PN_GRID_PART, or PN_GRID_SLOW when the whole grid would
** take more than PN_MAPMAX seconds); -1 when f fails. */
static int grid_part (const ol_problem *p, const double *x0, pn_cache *c)
{
  int nx = c->nx, ny = c->ny, k, first = c->done;
  double *x = c->work, *w2 = c->work + p->n, t0 = ol_now(), el;
  const double *win = c->win;
  ol_err e;
  memcpy(x, x0, (size_t)p->n * sizeof *x);
  for (k = first; k < nx * ny; k++) {
    int r = k / nx, col = k % nx, rc;
    double f = NAN;
    x[c->cb] = win[2] + (r + 0.5) * (win[3] - win[2]) / ny;
    x[c->ca] = win[0] + (col + 0.5) * (win[1] - win[0]) / nx;
    rc = ol_problem_eval(p, x, &f, NULL, w2, &e);
    if (rc == OL_EDOM) f = NAN;
    else if (rc != OL_OK) {
      c->done = 0;
      return -1;
    }
    c->val[k] = f;
    if (((k - first) & 7) == 7 || k == first) {
      el = ol_now() - t0;
      if (el >= c->budget) {
        c->cellsec = el / (k - first + 1);
        c->done = k + 1;
        if (c->cellsec * nx * ny > PN_MAPMAX) {
          c->slow = p;
          c->done = 0;
          return PN_GRID_SLOW;
        }
        return c->done < nx * ny ? PN_GRID_PART : 0;
      }
    }
  }
  c->done = 0;
  return 0;
}

/* The grid of p over win in coordinates (ca, cb) into c (see
** pn_landscape_grid for the returns). */
static int grid_at (const ol_problem *p, const double *win, int ca, int cb,
                    int nx, int ny, pn_cache *c)
{
  const double *x0;
  ol_err e;
  int same = c->p == p && c->nx == nx && c->ny == ny && c->ca == ca
    && c->cb == cb && memcmp(c->win, win, sizeof c->win) == 0;
  if (c->ok && same) return 0;
  if (c->budget > 0 && c->slow == p) return PN_GRID_SLOW;
  if (c->budget > 0 && c->done > 0 && same) {
    int rc;
    x0 = p->xstar != NULL ? p->xstar : p->x0;
    if ((rc = grid_part(p, x0, c)) != 0) return rc;
    pn_levels(c->val, nx * ny, PN_NLEVELS, c->lev);
    c->ok = 1;
    return 0;
  }
  c->ok = 0;
  c->done = 0;
  if (c->nx * c->ny < nx * ny || c->val == NULL) {
    double *v = realloc(c->val, (size_t)nx * (size_t)ny * sizeof *v);
    int *l;
    if (v == NULL) return -1;
    c->val = v;
    l = realloc(c->lev, (size_t)nx * (size_t)ny * sizeof *l);
    if (l == NULL) return -1;
    c->lev = l;
  }
  if (c->nwork < 2 * p->n) {
    double *w = realloc(c->work, 2 * (size_t)p->n * sizeof *w);
    if (w == NULL) return -1;
    c->work = w;
    c->nwork = 2 * p->n;
  }
  c->p = p;
  c->nx = nx;
  c->ny = ny;
  c->ca = ca;
  c->cb = cb;
  memcpy(c->win, win, sizeof c->win);
  /* other coordinates at x* when known, else at the default start */
  x0 = p->xstar != NULL ? p->xstar : p->x0;
  if (c->budget > 0) {
    int rc = grid_part(p, x0, c);
    if (rc != 0) return rc;
  }
  else if (ol_problem_grid(p, x0, ca, cb, win[0], win[1], win[2], win[3],
                           nx, ny, c->val, c->work, &e) != OL_OK)
    return -1;
  pn_levels(c->val, nx * ny, PN_NLEVELS, c->lev);
  c->ok = 1;
  return 0;
}

int pn_grid (const ol_problem *p, const double *win, int ca, int cb, int nx,
             int ny, pn_cache *c)
{
  if (p == NULL || !pn_has_landscape(p) || ca == cb || ca < 0 || cb < 0
      || ca >= p->n || cb >= p->n || nx < 1 || ny < 1)
    return -1;
  return grid_at(p, win, ca, cb, nx, ny, c);
}

int pn_landscape_grid (const pn_runs *rs, int nx, int ny, pn_cache *c)
{
  const ol_problem *p;
  double win[4];
  if (rs->n < 1 || nx < 1 || ny < 1) return -1;
  p = ol_run_problem(rs->runs[0]);
  if (!pn_has_landscape(p)) return -1;
  if (ol_grid_window((const ol_run *const *)rs->runs, rs->n, 0, 1, 0, win)
      != 0)
    return -1;
  return grid_at(p, win, 0, 1, nx, ny, c);
}

/* Dot of (a, b) in the window on canvas cv. */
static void todot (const cv_canvas *cv, const double *win, double a,
                   double b, int *px, int *py)
{
  double u = (a - win[0]) / (win[1] - win[0]);
  double v = (win[3] - b) / (win[3] - win[2]);
  int dw = cv_dotw(cv), dh = cv_doth(cv);
  *px = (int)floor(u * dw);
  *py = (int)floor(v * dh);
  if (*px >= dw) *px = dw - 1;
  if (*py >= dh) *py = dh - 1;
}

/* Window bounds and coordinate names of a 2-D panel whose plot is at
** (o->y, px0), ph x pw. */
static void win_axes (const pn_out *o, const double *win, int px0, int ph,
                      int pw)
{
  char lab[16];
  cv_fmt(win[3], lab, sizeof lab, YLAB - 1);
  puts_at(o, o->y, px0 - 1 - (int)strlen(lab), lab, YLAB, PN_AXIS);
  cv_fmt(win[2], lab, sizeof lab, YLAB - 1);
  puts_at(o, o->y + ph - 1, px0 - 1 - (int)strlen(lab), lab, YLAB, PN_AXIS);
  puts_at(o, o->y + ph / 2, px0 - 3, "x2", 2, PN_AXIS);
  blank(o, o->y + ph, o->x, o->w);
  cv_fmt(win[0], lab, sizeof lab, 8);
  puts_at(o, o->y + ph, px0, lab, 8, PN_AXIS);
  puts_at(o, o->y + ph, px0 + pw / 2 - 1, "x1", 2, PN_AXIS);
  cv_fmt(win[1], lab, sizeof lab, 8);
  puts_at(o, o->y + ph, px0 + pw - (int)strlen(lab), lab, 8, PN_AXIS);
}

/* The legend of a 2-D panel: an empty corner of its plot, else the rows
** below it (*ph shrinks; returns 1 when the plot must be redrawn). */
static int leg_place2d (const pn_out *o, const legend *lg, int px0, int *ph,
                        int pw, int *below)
{
  int ncols, colw, rows;
  if (*below) return 0;
  if (leg_corner(o, lg, o->cv, o->y, px0, *ph, pw)) return 0;
  rows = leg_layout(lg, o->w - 1, *ph / 2, &ncols, &colw);
  if (rows == 0 || *ph - rows < 3) return 0;
  *ph -= rows;
  *below = rows;
  return 1;
}

static void leg_below2d (const pn_out *o, const legend *lg, int ph, int rows)
{
  int ncols, colw;
  rows = leg_layout(lg, o->w - 1, rows, &ncols, &colw);
  if (rows > 0) leg_draw(o, lg, o->y + ph + 1, o->x + 1, rows, ncols, colw, 1);
}

int pn_landscape (const pn_runs *rs, const pn_out *o, pn_cache *c,
                  char *title, size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, r, col;
  int below = 0, pass, have;
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  double win[4];
  legend lg;
  snprintf(title, tsize, "landscape x1,x2%s [log f]",
           p != NULL && p->n > 2 ? " slice" : "");
  if (pw < 4 || ph < 2) return -1;
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n && k < MAXLEG; k++)
    leg_add(&lg, rs->labels[k], NULL, DOT, (char)('a' + k % 26), k);
  /* (1) trajectories onto the canvas, in the grid's window; (2) where
  ** the legend goes: an empty corner, else below (the map then takes
  ** fewer rows); the grid is computed once, at its final size, so the
  ** cache holds from frame to frame */
  have = ol_grid_window((const ol_run *const *)rs->runs, rs->n, 0, 1, 0,
                        win) == 0 && pn_has_landscape(p);
  for (pass = 0; have && pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    for (k = 0; k < rs->n; k++) {
      int dim = 0, len = ol_run_len(rs->runs[k]), t, lx = 0, ly = 0;
      const double *x = ol_run_traj(rs->runs[k], &dim);
      if (x == NULL || dim < 2) continue;
      for (t = 0; t < len; t++) {
        int qx, qy;
        if (!isfinite(x[t * dim]) || !isfinite(x[t * dim + 1])) continue;
        todot(o->cv, win, x[t * dim], x[t * dim + 1], &qx, &qy);
        if (t == 0) cv_dot(o->cv, qx, qy, k);
        else cv_line(o->cv, lx, ly, qx, qy, k);
        lx = qx;
        ly = qy;
      }
    }
    if (!leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  if ((k = pn_landscape_grid(rs, pw, ph, c)) != 0) {
    char msg[96];
    if (k == PN_GRID_PART)
      snprintf(msg, sizeof msg, "mapping f: %d of %d points", c->done,
               pw * ph);
    else if (k == PN_GRID_SLOW)
      snprintf(msg, sizeof msg, "no landscape: f takes %.2g ms a point, "
               "%d points", c->cellsec * 1e3, pw * ph);
    else
      snprintf(msg, sizeof msg, "%s", pn_has_landscape(p)
               ? "no landscape (trajectory not recorded)"
               : "no landscape for this problem");
    puts_at(o, o->y, o->x + 1, msg, o->w - 1, PN_AXIS);
    return -1;
  }
  /* (3) heat map under the paths; row 0 of the grid is the bottom */
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s, lev = c->lev[(size_t)(ph - 1 - r) * pw + col];
      unsigned u = cv_cell(o->cv, col, r, &s);
      if (u != 0)
        o->put(o->ud, o->y + r, px0 + col, o->utf8 ? u : (unsigned)('a'
               + s % 26), (char)('a' + s % 26), s);
      else
        o->put(o->ud, o->y + r, px0 + col, (unsigned char)pn_ramp[lev < 0
               ? 0 : lev], lev < 0 ? '?' : pn_ramp[lev], PN_HEAT);
    }
  /* (4) the legend in its empty corner (on top of the map, never on a
  ** path), or below */
  if (below) leg_below2d(o, &lg, ph, below);
  else leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  /* (5) current points */
  for (k = 0; k < rs->n; k++) {
    const double *x = ol_run_x(rs->runs[k]);
    int qx, qy;
    if (!isfinite(x[0]) || !isfinite(x[1])) continue;
    if (x[0] < c->win[0] || x[0] > c->win[1] || x[1] < c->win[2]
        || x[1] > c->win[3])
      continue;
    todot(o->cv, c->win, x[0], x[1], &qx, &qy);
    o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx
           / (cv_dotw(o->cv) / pw), DOT, (char)('A' + k % 26), k);
  }
  /* (6) axes: window bounds and coordinate names */
  win_axes(o, c->win, px0, ph, pw);
  return 0;
}

/* -- cloud ---------------------------------------------------------------- */

/* lo and hi of a cloud axis padded by 5%, then widened to whole steps of
** a nice size (an eighth of the extent, rounded up to 1, 2 or 5), so the
** window, and with it the contour grid, changes only now and then. */
static void snap_axis (double *lo, double *hi)
{
  double d = *hi - *lo, st;
  if (!(d > 0)) d = fabs(*lo) > 0 ? fabs(*lo) : 1;
  *lo -= 0.05 * d;
  *hi += 0.05 * d;
  st = cv_nice_up((*hi - *lo) / 8);
  if (st > 0 && isfinite(st)) {
    *lo = st * floor(*lo / st);
    *hi = st * ceil(*hi / st);
  }
}

int pn_cloud_contours (const pn_runs *rs, int kind, char *title,
                       size_t tsize)
{
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  int ca, cb, contours;
  pn_coords(kind, &ca, &cb);
  /* contours of log p on a 2-D target, of its slice for chosen coordinates
  ** of a larger one (the default x1, x2 of a larger target shows none: a
  ** slice is not the marginal the cloud is of) */
  contours = p != NULL && pn_has_landscape(p) && ca < p->n && cb < p->n
    && (p->n == 2 || kind != PN_CLOUD);
  if (title != NULL) {
    char na[16], nb[16];
    snprintf(title, tsize, "cloud %s,%s%s", ol_problem_coordname(p, ca, na,
             sizeof na), ol_problem_coordname(p, cb, nb, sizeof nb),
             !contours ? ""
             : p->n == 2 ? (p->kind == OL_DENSITY ? " over log p contours"
                            : " over f contours")
             : (p->kind == OL_DENSITY ? " over a log p slice"
                : " over an f slice"));
  }
  return contours;
}

int pn_cloud_window (const pn_runs *rs, int kind, double win[4])
{
  int k, ca, cb, any = 0;
  pn_pts pt;
  long i;
  pn_coords(kind, &ca, &cb);
  win[0] = win[2] = INFINITY;
  win[1] = win[3] = -INFINITY;
  /* the points' extent, padded, in whole nice steps */
  for (k = 0; k < rs->n; k++) {
    if (!pn_points(rs->runs[k], &pt) || pt.dim <= ca || pt.dim <= cb)
      continue;
    for (i = 0; i < pt.n; i++) {
      const double *q = pt.x + i * pt.stride;
      if (!isfinite(q[ca]) || !isfinite(q[cb])) continue;
      any = 1;
      if (q[ca] < win[0]) win[0] = q[ca];
      if (q[ca] > win[1]) win[1] = q[ca];
      if (q[cb] < win[2]) win[2] = q[cb];
      if (q[cb] > win[3]) win[3] = q[cb];
    }
  }
  if (!any) return -1;
  snap_axis(&win[0], &win[1]);
  snap_axis(&win[2], &win[3]);
  return 0;
}

int pn_cloud (const pn_runs *rs, int kind, const pn_out *o, pn_cache *c,
              char *title, size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, r, col;
  int below = 0, pass, ca, cb, contours;
  double win[4];
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  legend lg;
  pn_pts pt;
  long i, ndiv = 0;
  pn_coords(kind, &ca, &cb);
  contours = pn_cloud_contours(rs, kind, title, tsize) && c != NULL;
  if (pw < 4 || ph < 2) return -1;
  /* (1) window, and the divergent draws for the legend */
  if (pn_cloud_window(rs, kind, win) != 0) {
    puts_at(o, o->y, o->x + 1, "no draws yet", o->w - 1, PN_AXIS);
    return -1;
  }
  for (k = 0; k < rs->n; k++)
    if (pn_points(rs->runs[k], &pt) && pt.dim > ca && pt.dim > cb)
      for (i = 0; i < pt.n; i++) ndiv += pn_pts_divergent(&pt, i);
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n && k < MAXLEG; k++)
    leg_add(&lg, rs->labels[k], NULL, DOT, cv_marker(k), k);
  if (ndiv > 0) {
    snprintf(lg.extra, sizeof lg.extra, "%s %ld divergent", o->utf8
             ? "\xc3\x97" : "X", ndiv);
    lg.xrole = PN_DIVERGENT;
  }
  for (pass = 0; pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    /* (2) the points as dots, at most ~20 per dot column per run */
    for (k = 0; k < rs->n; k++) {
      long step;
      if (!pn_points(rs->runs[k], &pt) || pt.dim <= ca || pt.dim <= cb)
        continue;
      step = pt.n > 20L * cv_dotw(o->cv) * cv_doth(o->cv)
        ? pt.n / (20L * cv_dotw(o->cv) * cv_doth(o->cv)) : 1;
      for (i = 0; i < pt.n; i += step) {
        const double *q = pt.x + i * pt.stride;
        int qx, qy;
        if (!isfinite(q[ca]) || !isfinite(q[cb])) continue;
        todot(o->cv, win, q[ca], q[cb], &qx, &qy);
        cv_dot(o->cv, qx, qy, k);
      }
    }
    if (!leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  /* (3) the contours under the dots, on the grid of the final plot size
  ** (row 0 of the grid is the bottom); none while the grid is partial */
  if (contours && grid_at(p, win, ca, cb, pw, ph, c) == 0)
    for (r = 0; r < ph; r++)
      for (col = 0; col < pw; col++) {
        int l = c->lev[(size_t)(ph - 1 - r) * pw + col], s;
        int lr = col + 1 < pw ? c->lev[(size_t)(ph - 1 - r) * pw + col + 1]
          : l;
        int lb = r + 1 < ph ? c->lev[(size_t)(ph - 2 - r) * pw + col] : l;
        if (l < 0 || (lr == l && lb == l)) continue;
        if (cv_cell(o->cv, col, r, &s) != 0) continue;
        o->put(o->ud, o->y + r, px0 + col, o->utf8 ? CONTOUR : ':', ':',
               PN_HEAT);
      }
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned u = cv_cell(o->cv, col, r, &s);
      if (u != 0) o->put(o->ud, o->y + r, px0 + col, u, cv_marker(s), s);
    }
  /* (4) divergent transitions where they landed */
  for (k = 0; ndiv > 0 && k < rs->n; k++) {
    if (!pn_points(rs->runs[k], &pt) || pt.dim <= ca || pt.dim <= cb)
      continue;
    for (i = 0; i < pt.n; i++) {
      const double *q = pt.x + i * pt.stride;
      int qx, qy;
      if (!pn_pts_divergent(&pt, i) || !isfinite(q[ca]) || !isfinite(q[cb]))
        continue;
      todot(o->cv, win, q[ca], q[cb], &qx, &qy);
      o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx
             / (cv_dotw(o->cv) / pw), PN_DIVMARK, 'X', PN_DIVERGENT);
    }
  }
  if (below) leg_below2d(o, &lg, ph, below);
  else leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  win_axes(o, win, px0, ph, pw);
  return 0;
}

/* -- workers -------------------------------------------------------------- */

const double *pn_workers_of (const ol_run *r, int *m)
{
  const double *v;
  int rows, cols;
  *m = 0;
  if (!ol_method_result(ol_run_method(r), ol_run_state(r), "workers", &v,
                        &rows, &cols) || cols < 2 || rows < 1)
    return NULL;
  *m = rows;
  return v;
}

int pn_workers_window (const pn_runs *rs, double win[4])
{
  int k, w, m, n, any = 0;
  win[0] = win[2] = INFINITY;
  win[1] = win[3] = -INFINITY;
  for (k = 0; k < rs->n; k++) {
    const double *X = pn_workers_of(rs->runs[k], &m), *tr;
    int len = ol_run_len(rs->runs[k]), dim = 0, t;
    n = ol_run_n(rs->runs[k]);
    tr = X != NULL ? ol_run_traj(rs->runs[k], &dim) : NULL;
    if (tr == NULL || dim < 2) len = 0;
    for (w = 0, t = 0; X != NULL && w <= m + len; w++) {
      /* the m nodes, the average, then the average's recorded path */
      const double *q = w < m ? X + (size_t)w * n : w == m
        ? ol_run_x(rs->runs[k]) : tr + (size_t)(t++) * dim;
      if (!isfinite(q[0]) || !isfinite(q[1])) continue;
      any = 1;
      if (w == m) {           /* and the start: the scale of the run */
        const double *x0 = ol_run_problem(rs->runs[k])->x0;
        win[0] = fmin(win[0], x0[0]);
        win[1] = fmax(win[1], x0[0]);
        win[2] = fmin(win[2], x0[1]);
        win[3] = fmax(win[3], x0[1]);
      }
      win[0] = fmin(win[0], q[0]);
      win[1] = fmax(win[1], q[0]);
      win[2] = fmin(win[2], q[1]);
      win[3] = fmax(win[3], q[1]);
    }
  }
  if (!any) return -1;
  snap_axis(&win[0], &win[1]);
  snap_axis(&win[2], &win[3]);
  return 0;
}

void pn_workers_title (const pn_runs *rs, char *title, size_t tsize)
{
  int k, m, total = 0;
  double cons = NAN;
  for (k = 0; k < rs->n; k++)
    if (pn_workers_of(rs->runs[k], &m) != NULL) total += m;
  if (rs->n > 0 && (ol_run_metrics(rs->runs[0]) & OL_MBIT(OL_MET_CONSENSUS)))
    cons = ol_run_last(rs->runs[0], OL_MET_CONSENSUS);
  if (isfinite(cons))
    snprintf(title, tsize, "workers x1,x2: %d workers, consensus %.2e", total,
             cons);
  else snprintf(title, tsize, "workers x1,x2: %d workers", total);
}

int pn_workers (const pn_runs *rs, const pn_out *o, char *title,
                size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, w, m = 0, n;
  int below = 0, pass, total = 0;
  double win[4];
  char lab[32];
  legend lg;
  pn_workers_title(rs, title, tsize);
  for (k = 0; k < rs->n; k++)
    if (pn_workers_of(rs->runs[k], &m) != NULL) total += m;
  if (pw < 4 || ph < 2) return -1;
  if (pn_workers_window(rs, win) != 0) {
    puts_at(o, o->y, o->x + 1, "no workers' iterates", o->w - 1, PN_AXIS);
    return -1;
  }
  memset(&lg, 0, sizeof lg);
  snprintf(lab, sizeof lab, "workers (%d)", total);
  leg_add(&lg, lab, NULL, PN_WORKMARK, cv_marker(0), 0);
  leg_add(&lg, "average", NULL, PN_AVGMARK, '+', PN_TITLE);
  /* (1) the nodes as canvas dots (so the legend finds an empty corner);
  ** (2) the legend's place */
  for (pass = 0; pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    for (k = 0; k < rs->n; k++) {
      const double *X = pn_workers_of(rs->runs[k], &m), *tr;
      int len = ol_run_len(rs->runs[k]), dim = 0, t, lx = 0, ly = 0, qx, qy;
      n = ol_run_n(rs->runs[k]);
      tr = X != NULL ? ol_run_traj(rs->runs[k], &dim) : NULL;
      for (t = 0; tr != NULL && dim >= 2 && t < len; t++) {
        if (!isfinite(tr[t * dim]) || !isfinite(tr[t * dim + 1])) continue;
        todot(o->cv, win, tr[t * dim], tr[t * dim + 1], &qx, &qy);
        if (t == 0) cv_dot(o->cv, qx, qy, PATHID);
        else cv_line(o->cv, lx, ly, qx, qy, PATHID);
        lx = qx;
        ly = qy;
      }
      for (w = 0; X != NULL && w <= m; w++) {
        const double *q = w < m ? X + (size_t)w * n : ol_run_x(rs->runs[k]);
        if (!isfinite(q[0]) || !isfinite(q[1])) continue;
        todot(o->cv, win, q[0], q[1], &qx, &qy);
        cv_dot(o->cv, qx, qy, w % PATHID);
      }
    }
    if (!leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  /* (3) the average's path, faint, under the marks */
  for (k = 0; k < ph; k++)
    for (w = 0; w < pw; w++) {
      int sid;
      unsigned u = cv_cell(o->cv, w, k, &sid);
      if (u != 0 && sid == PATHID)
        o->put(o->ud, o->y + k, px0 + w, o->utf8 ? u : '.', '.', PN_AXIS);
    }
  if (below) leg_below2d(o, &lg, ph, below);
  else leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  /* (4) a mark per node in its colour, then the averages on top */
  for (pass = 0; pass < 2; pass++)
    for (k = 0; k < rs->n; k++) {
      const double *X = pn_workers_of(rs->runs[k], &m);
      n = ol_run_n(rs->runs[k]);
      for (w = pass == 0 ? 0 : m; X != NULL && w < (pass == 0 ? m : m + 1);
           w++) {
        const double *q = w < m ? X + (size_t)w * n : ol_run_x(rs->runs[k]);
        int qx, qy;
        if (!isfinite(q[0]) || !isfinite(q[1])) continue;
        todot(o->cv, win, q[0], q[1], &qx, &qy);
        if (w < m)
          o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx /
                 (cv_dotw(o->cv) / pw), PN_WORKMARK, cv_marker(w), w);
        else
          o->put(o->ud, o->y + qy / (cv_doth(o->cv) / ph), px0 + qx /
                 (cv_dotw(o->cv) / pw), PN_AVGMARK, '+', PN_TITLE);
      }
    }
  win_axes(o, win, px0, ph, pw);
  return 0;
}

const double *pn_mixing_of (const pn_runs *rs, int *m, double *gap)
{
  const double *W, *g;
  int k, rows, cols;
  *m = 0;
  *gap = NAN;
  for (k = 0; k < rs->n; k++) {
    const ol_run *r = rs->runs[k];
    if (!ol_method_result(ol_run_method(r), ol_run_state(r), "mixing", &W,
                          &rows, &cols) || rows != cols || rows < 1)
      continue;
    if (ol_method_result(ol_run_method(r), ol_run_state(r), "graph", &g,
                         &k, &cols) && cols >= 1)
      *gap = g[0];
    *m = rows;
    return W;
  }
  return NULL;
}

int pn_mixing (const pn_runs *rs, const pn_out *o, char *title,
               size_t tsize)
{
  int m, r, c, ph, pw, cw;
  double gap, wmax = 0;
  const double *W = pn_mixing_of(rs, &m, &gap);
  if (W == NULL) {
    snprintf(title, tsize, "mixing W");
    puts_at(o, o->y, o->x + 1, "no mixing matrix", o->w - 1, PN_AXIS);
    return -1;
  }
  snprintf(title, tsize, "mixing W: %d nodes, gap %.3g", m, gap);
  /* (1) the picture's size: a row per node, two columns, when they fit */
  ph = m <= o->h ? m : o->h;
  cw = 2 * m <= o->w ? 2 : 1;
  pw = cw * m <= o->w ? cw * m : o->w;
  for (r = 0; r < m * m; r++) wmax = fmax(wmax, W[r]);
  if (ph < 1 || pw < 1 || !(wmax > 0)) return -1;
  /* (2) each cell: the largest entry of its block of rows and columns */
  for (r = 0; r < ph; r++)
    for (c = 0; c < pw; c++) {
      int i0 = (int)((long)r * m / ph), i1 = (int)((long)(r + 1) * m / ph);
      int j0 = (int)((long)c * m / pw), j1 = (int)((long)(c + 1) * m / pw);
      int i, j, lev;
      double v = 0;
      if (j1 == j0) j1 = j0 + 1;
      for (i = i0; i < i1; i++)
        for (j = j0; j < j1 && j < m; j++) v = fmax(v, W[(size_t)i * m + j]);
      lev = v > 0 ? 1 + (int)floor(v / wmax * (PN_NLEVELS - 2) + 0.5) : 0;
      o->put(o->ud, o->y + r, o->x + (o->w - pw) / 2 + c,
             (unsigned char)pn_ramp[lev], pn_ramp[lev], PN_HEAT);
    }
  return 0;
}

/* -- pooled diagnostics ---------------------------------------------------- */

int pn_chainset (const pn_runs *rs)
{
  const ol_run *r0;
  const ol_method_type *m;
  int k, j;
  if (rs->n < 2) return 0;
  r0 = rs->runs[0];
  m = ol_run_method(r0);
  if (m->family != OL_SAMPLER || ol_run_draws(r0, NULL, NULL, NULL) == NULL)
    return 0;
  for (k = 1; k < rs->n; k++) {
    const ol_run *r = rs->runs[k];
    const double *a = ol_run_params(r0), *b = ol_run_params(r);
    if (ol_run_method(r) != m || ol_run_problem(r) != ol_run_problem(r0)
        || ol_run_warmup(r) != ol_run_warmup(r0)
        || ol_run_budget(r) != ol_run_budget(r0)
        || ol_run_draws(r, NULL, NULL, NULL) == NULL)
      return 0;
    for (j = 0; j < m->nparams; j++)
      if (a[j] != b[j] && !(isnan(a[j]) && isnan(b[j]))) return 0;
  }
  return 1;
}

int pn_pooled (const pn_runs *rs, int kind)
{
  kind = pn_base(kind);
  return (kind == OL_MET_RHAT || kind == OL_MET_ESS) && pn_chainset(rs);
}

/* One point of pl at P kept draws per chain (P <= every chain's rows):
** the core's pooled diagnostics of the chains' first P draws. */
static int pool_point (pn_pool *pl, const pn_runs *rs, long P, long seen)
{
  long thin = 1;
  double rh, es;
  ol_err e;
  ol_run_draws(rs->runs[0], NULL, &thin, NULL);
  if (ol_diag_runs((const ol_run *const *)rs->runs, rs->n, P, &rh, &es, &e)
      != OL_OK) {
    pl->fail = 1;
    return -1;
  }
  /* (full: every other point dropped, the last kept, growth squared) */
  if (pl->n == PN_POOLMAX) {
    int a, b;
    for (a = 0, b = 0; a < pl->n; a++)
      if (a % 2 == 1 || a == pl->n - 1) {
        pl->seen[b] = pl->seen[a];
        pl->it[b] = pl->it[a];
        pl->rhat[b] = pl->rhat[a];
        pl->ess[b++] = pl->ess[a];
      }
    pl->n = b;
    pl->grow *= pl->grow;
  }
  pl->seen[pl->n] = seen;
  pl->it[pl->n] = (double)ol_run_warmup(rs->runs[0]) + (double)P * thin;
  pl->rhat[pl->n] = rh;
  pl->ess[pl->n] = es;
  pl->n++;
  return 0;
}

int pn_pool_update (pn_pool *pl, const pn_runs *rs, double budget)
{
  long rows = -1, seen = -1, thin = 1, r, s, th;
  int k, stopped = 1;
  double t0 = ol_now();
  if (!pn_chainset(rs)) return 0;
  if (pl->first != rs->runs[0] || pl->nruns != rs->n || pl->grow < 1.1) {
    memset(pl, 0, sizeof *pl);
    pl->first = rs->runs[0];
    pl->nruns = rs->n;
    pl->grow = 1.1;
    pl->next = PN_POOLFIRST;
  }
  /* (1) what every chain has: kept rows, draws made, thinning */
  for (k = 0; k < rs->n; k++) {
    ol_run_draws(rs->runs[k], &r, &th, &s);
    if (rows < 0 || r < rows) rows = r;
    if (seen < 0 || s < seen) seen = s;
    if (th > thin) thin = th;
    if (ol_run_reason(rs->runs[k]) == OL_STOP_NONE) stopped = 0;
  }
  if (pl->final && !stopped) pl->final = 0;    /* continued */
  if (pl->fail || pl->final) return pl->n;
  /* (2) the points due, in order, within the budget */
  while (seen >= pl->next) {
    long P = pl->next / thin, nx;
    if (P > rows) P = rows;
    if (P >= 4 && pool_point(pl, rs, P, pl->next) != 0) return pl->n;
    nx = (long)ceil(pl->grow * (double)pl->next);
    pl->next = nx > pl->next ? nx : pl->next + 1;
    if (budget > 0 && ol_now() - t0 >= budget) return pl->n;
  }
  /* (3) the end: every kept draw, as r:summary() takes them */
  if (stopped && rows >= 4) {
    if (pl->n == 0 || pl->it[pl->n - 1]
        != (double)ol_run_warmup(rs->runs[0]) + (double)rows * thin)
      pool_point(pl, rs, rows, seen);
    pl->final = 1;
  }
  return pl->n;
}

/* -- simplex -------------------------------------------------------------- */

int pn_square (const ol_problem *p)
{
  return p != NULL && p->set.kind == OL_SET_SIMPLEX && p->set.nblocks == 2
    && p->set.blocks[0] == 2 && p->set.blocks[1] == 2 && p->n == 4;
}

int pn_simplex_blocks (const ol_problem *p, int *first, int max)
{
  int b, at = 0, n = 0, dim;
  if (p == NULL || p->set.kind != OL_SET_SIMPLEX) return 0;
  if (pn_square(p)) {
    if (max > 0) first[n++] = 0;
    if (max > 1) first[n++] = 2;
    return n;
  }
  dim = p->n < 8 ? p->n : 8;
  for (b = 0; b < p->set.nblocks; b++) {
    if (p->set.blocks[b] == 3 && at + 3 <= dim && n < max) first[n++] = at;
    at += p->set.blocks[b];
  }
  return n;
}

void pn_bary (const double *p, double *u, double *v)
{
  double s = p[0] + p[1] + p[2];
  if (!(s > 0)) s = 1;
  *u = (p[1] + 0.5 * p[2]) / s;
  *v = 0.5 * sqrt(3.0) * p[2] / s;
}

unsigned pn_player_mark (int b)
{
  return b == 0 ? 0x25CF : b == 1 ? 0x25C6 : 0x25A0;
}

/* Triangle geometry on a canvas: side S dots, bottom-left vertex at
** (ox, oy), aspect a = dot height / dot width. */
typedef struct tri {
  double s, ox, oy, a;
} tri;

static void tri_dot (const tri *t, double u, double v, int *px, int *py)
{
  *px = (int)lround(t->ox + u * t->s);
  *py = (int)lround(t->oy - v * t->s / t->a);
}

/* The screen cell of dot (qx, qy) of o's canvas, h x w cells drawn with
** its cell (0, 0) at (y0, x0). */
static void dot_cell (const pn_out *o, int y0, int x0, int h, int w, int qx,
                      int qy, int *cy, int *cx)
{
  *cy = y0 + qy / (cv_doth(o->cv) / h);
  *cx = x0 + qx / (cv_dotw(o->cv) / w);
}

static int cell_used (int used[][2], int nused, int cy, int cx)
{
  int j;
  for (j = 0; j < nused; j++)
    if (used[j][0] == cy && used[j][1] == cx) return 1;
  return 0;
}

/* A cell (cy, *cx) not in used[0 .. *nused): moved right past used ones,
** or left when that would pass column xhi, then added. */
static void free_cell (int used[][2], int *nused, int cy, int *cx, int xhi)
{
  int x = *cx;
  while (cell_used(used, *nused, cy, x)) x++;
  if (x > xhi) {
    x = *cx;
    while (cell_used(used, *nused, cy, x)) x--;
  }
  *cx = x;
  if (*nused < MAXLEG) {
    used[*nused][0] = cy;
    used[(*nused)++][1] = *cx;
  }
}

/* The unit square of a game of two 2-action players: x1 = player 1's
** probability of its first action across, y1 = player 2's up, one path
** per run through (z_1, z_3), the known equilibria starred. */
#define SQLAB 4
static int square (const pn_runs *rs, const pn_out *o, char *title,
                   size_t tsize)
{
  const ol_problem *p = ol_run_problem(rs->runs[0]);
  const double *eq = NULL;
  int neq = ol_game_equilibria(p, &eq), px0 = o->x + SQLAB;
  int pw = o->w - SQLAB - 1, ph = o->h - 1, cw, chh, below = 0, pass, k;
  int q, r, col, dw = 0, dh = 0, used[MAXLEG][2], nused = 0, cy, cx;
  legend lg;
  snprintf(title, tsize, "unit square x1,y1 (players' P(action 1))");
  if (pw < 8 || ph < 4) return -1;
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n && k < MAXLEG - 1; k++)
    leg_add(&lg, rs->labels[k], NULL, DOT, (char)('a' + k % 26), k);
  if (neq > 0) leg_add(&lg, "Nash", NULL, PN_NASHMARK, '*', PN_NASH);
#define SQX(a) ((int)lround((a) * (dw - 1)))
#define SQY(b) ((int)lround((1 - (b)) * (dh - 1)))
  for (pass = 0; pass < 2; pass++) {
    int rows, ncols, colw;
    /* (1) inside the frame: the equilibria's dots (so the legend keeps
    ** off them), then each run's path */
    cw = pw - 2;
    chh = ph - 2;
    if (cv_init(o->cv, cw, chh, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    dw = cv_dotw(o->cv);
    dh = cv_doth(o->cv);
    for (q = 0; q < neq; q++)
      cv_dot(o->cv, SQX(eq[4 * q]), SQY(eq[4 * q + 2]), NASHID);
    for (k = 0; k < rs->n; k++) {
      int dim = 0, len = ol_run_len(rs->runs[k]), i, have = 0, lx = 0;
      int ly = 0;
      const double *x = ol_run_traj(rs->runs[k], &dim);
      if (x == NULL || dim < 4) continue;
      for (i = 0; i < len; i++) {
        const double *z = x + (size_t)i * dim;
        int qx, qy;
        if (!isfinite(z[0]) || !isfinite(z[2])) {
          have = 0;
          continue;
        }
        qx = SQX(z[0]);
        qy = SQY(z[2]);
        if (!have) cv_dot(o->cv, qx, qy, k);
        else cv_line(o->cv, lx, ly, qx, qy, k);
        have = 1;
        lx = qx;
        ly = qy;
      }
    }
    /* (2) the legend: an empty corner inside the frame, else below */
    if (below || pass == 1
        || leg_corner(o, &lg, o->cv, o->y + 1, px0 + 1, chh, cw))
      break;
    rows = leg_layout(&lg, o->w - 1, ph / 2, &ncols, &colw);
    if (rows == 0 || ph - rows < 4) break;
    ph -= rows;
    below = rows;
  }
  /* (3) the frame, then the canvas (an equilibrium's cell is left to its
  ** star) */
  for (col = 1; col < pw - 1; col++) {
    o->put(o->ud, o->y, px0 + col, 0x2500, '-', PN_AXIS);
    o->put(o->ud, o->y + ph - 1, px0 + col, 0x2500, '-', PN_AXIS);
  }
  for (r = 1; r < ph - 1; r++) {
    o->put(o->ud, o->y + r, px0, 0x2502, '|', PN_AXIS);
    o->put(o->ud, o->y + r, px0 + pw - 1, 0x2502, '|', PN_AXIS);
  }
  o->put(o->ud, o->y, px0, 0x250C, '+', PN_AXIS);
  o->put(o->ud, o->y, px0 + pw - 1, 0x2510, '+', PN_AXIS);
  o->put(o->ud, o->y + ph - 1, px0, 0x2514, '+', PN_AXIS);
  o->put(o->ud, o->y + ph - 1, px0 + pw - 1, 0x2518, '+', PN_AXIS);
  for (r = 0; r < chh; r++)
    for (col = 0; col < cw; col++) {
      int s;
      unsigned u = cv_cell(o->cv, col, r, &s);
      if (u == 0 || s == NASHID) continue;
      o->put(o->ud, o->y + 1 + r, px0 + 1 + col, o->utf8 ? u
             : (unsigned)('a' + s % 26), (char)('a' + s % 26), s);
    }
  /* (4) current points, off the equilibria's cells, then the stars */
  for (q = 0; q < neq; q++) {
    dot_cell(o, o->y + 1, px0 + 1, chh, cw, SQX(eq[4 * q]),
             SQY(eq[4 * q + 2]), &cy, &cx);
    if (nused < MAXLEG) {
      used[nused][0] = cy;
      used[nused++][1] = cx;
    }
  }
  for (k = 0; k < rs->n; k++) {
    const double *z = ol_run_x(rs->runs[k]);
    if (!isfinite(z[0]) || !isfinite(z[2])) continue;
    dot_cell(o, o->y + 1, px0 + 1, chh, cw, SQX(z[0]), SQY(z[2]), &cy,
             &cx);
    free_cell(used, &nused, cy, &cx, px0 + pw - 2);
    o->put(o->ud, cy, cx, DOT, (char)('A' + k % 26), k);
  }
  for (q = 0; q < neq; q++) {
    dot_cell(o, o->y + 1, px0 + 1, chh, cw, SQX(eq[4 * q]),
             SQY(eq[4 * q + 2]), &cy, &cx);
    o->put(o->ud, cy, cx, PN_NASHMARK, '*', PN_NASH);
  }
#undef SQX
#undef SQY
  /* (5) axes: 0 and 1 at the inside's edges, the names x1 and y1 */
  puts_at(o, o->y + 1, px0 - 2, "1", 1, PN_AXIS);
  puts_at(o, o->y + ph - 2, px0 - 2, "0", 1, PN_AXIS);
  puts_at(o, o->y + ph / 2, px0 - 3, "y1", 2, PN_AXIS);
  blank(o, o->y + ph, o->x, o->w);
  puts_at(o, o->y + ph, px0 + 1, "0", 1, PN_AXIS);
  puts_at(o, o->y + ph, px0 + pw / 2 - 1, "x1", 2, PN_AXIS);
  puts_at(o, o->y + ph, px0 + pw - 2, "1", 1, PN_AXIS);
  if (below) leg_below2d(o, &lg, ph, below);
  return 0;
}

int pn_simplex (const pn_runs *rs, const pn_out *o, char *title,
                size_t tsize)
{
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  int first[OL_MAXBLOCKS], nb = pn_simplex_blocks(p, first, OL_MAXBLOCKS);
  int pw = o->w - 4, ph = o->h, dw, dh, k, b, r, col, v1x, v1y, v2x, v2y;
  int v3x, v3y, cw, chh, nleg = 0, px0 = o->x + 2, below = 0, pass;
  int used[MAXLEG][2], nused = 0, neq, q, cy, cx;
  double h3 = 0.5 * sqrt(3.0), u, v;
  const double *eq = NULL;
  tri t;
  char leg[MAXLEG][48];
  legend lg;
  if (p != NULL && pn_square(p)) return square(rs, o, title, tsize);
  neq = ol_game_equilibria(p, &eq);
  snprintf(title, tsize, "simplex%s", nb > 1 ? " (one path per player)"
           : "");
  if (nb == 0) {
    puts_at(o, o->y, o->x + 1, "no simplex: needs 3-action simplex blocks "
            "or two 2-action players", o->w - 1, PN_AXIS);
    return -1;
  }
  if (pw < 6 || ph < 3) return -1;
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n; k++)
    for (b = 0; b < nb && nleg < MAXLEG; b++) {
      if (nb > 1)
        snprintf(leg[nleg], sizeof leg[nleg], "%s p%d",
                 rs->labels[k] ? rs->labels[k] : "?", b + 1);
      else
        snprintf(leg[nleg], sizeof leg[nleg], "%s",
                 rs->labels[k] ? rs->labels[k] : "?");
      leg_add(&lg, leg[nleg], NULL, pn_player_mark(b),
              (char)('A' + (k * nb + b) % 26), k * nb + b);
      nleg++;
    }
  if (neq > 0) leg_add(&lg, "Nash", NULL, PN_NASHMARK, '*', PN_NASH);
  if (nb > 1)
    snprintf(lg.extra, sizeof lg.extra, o->utf8 ? "P1 \xe2\x97\x8f  P2 "
             "\xe2\x97\x86%s" : "P1 A  P2 B%s", nb > 2 ? (o->utf8 ? "  P3 "
             "\xe2\x96\xa0" : "  P3 C") : "");
  for (pass = 0; pass < 2; pass++) {
    if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
      return -1;
    dw = cv_dotw(o->cv);
    dh = cv_doth(o->cv);
    cw = dw / pw;
    chh = dh / ph;
    /* (1) the largest triangle that fits, centred */
    t.a = o->utf8 ? 1 : 2;
    t.s = dw - 1;
    if ((dh - 1) * t.a / h3 < t.s) t.s = (dh - 1) * t.a / h3;
    t.ox = 0.5 * (dw - 1 - t.s);
    t.oy = dh - 1 - 0.5 * (dh - 1 - t.s * h3 / t.a);
    tri_dot(&t, 0, 0, &v1x, &v1y);
    tri_dot(&t, 1, 0, &v2x, &v2y);
    tri_dot(&t, 0.5, h3, &v3x, &v3y);
    cv_line(o->cv, v1x, v1y, v3x, v3y, EDGE);
    cv_line(o->cv, v2x, v2y, v3x, v3y, EDGE + 1);
    cv_line(o->cv, v1x, v1y, v2x, v2y, EDGE + 2);
    /* (2) every equilibrium's point of each player (so the legend keeps
    ** off them), then each run's and player's path */
    for (q = 0; q < neq; q++)
      for (b = 0; b < nb; b++) {
        int qx, qy;
        pn_bary(eq + (size_t)q * p->n + first[b], &u, &v);
        tri_dot(&t, u, v, &qx, &qy);
        cv_dot(o->cv, qx, qy, NASHID);
      }
    for (k = 0; k < rs->n; k++) {
      int dim = 0, len = ol_run_len(rs->runs[k]), i;
      const double *x = ol_run_traj(rs->runs[k], &dim);
      if (x == NULL) continue;
      for (b = 0; b < nb; b++) {
        int lx = 0, ly = 0, have = 0, s = k * nb + b;
        if (first[b] + 3 > dim) continue;
        for (i = 0; i < len; i++) {
          int qx, qy;
          const double *z = x + (size_t)i * dim + first[b];
          if (!isfinite(z[0]) || !isfinite(z[1]) || !isfinite(z[2])) {
            have = 0;
            continue;
          }
          pn_bary(z, &u, &v);
          tri_dot(&t, u, v, &qx, &qy);
          if (!have) cv_dot(o->cv, qx, qy, s);
          else cv_line(o->cv, lx, ly, qx, qy, s);
          have = 1;
          lx = qx;
          ly = qy;
        }
      }
    }
    if (!leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  /* (3) canvas out: edges in the axis colour, paths in their own (an
  ** equilibrium's cell is left to its star) */
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned c = cv_cell(o->cv, col, r, &s);
      if (c == 0 || s == NASHID) continue;
      if (!o->utf8)
        c = (unsigned char)(s >= EDGE ? "/\\_"[s - EDGE] : 'a' + s % 26);
      if (s >= EDGE)
        o->put(o->ud, o->y + r, px0 + col, c, "/\\_"[s - EDGE], PN_AXIS);
      else
        o->put(o->ud, o->y + r, px0 + col, c, (char)('a' + s % 26), s);
    }
  /* (4) current points: each player its own shape; one that would cover
  ** an equilibrium's star or an earlier player's mark moves one cell
  ** right; then the stars */
  for (q = 0; q < neq; q++)
    for (b = 0; b < nb && nused < MAXLEG; b++) {
      int qx, qy;
      pn_bary(eq + (size_t)q * p->n + first[b], &u, &v);
      tri_dot(&t, u, v, &qx, &qy);
      dot_cell(o, o->y, px0, ph, pw, qx, qy, &used[nused][0],
               &used[nused][1]);
      nused++;
    }
  for (k = 0; k < rs->n; k++)
    for (b = 0; b < nb; b++) {
      const double *z = ol_run_x(rs->runs[k]) + first[b];
      int qx, qy, s = k * nb + b;
      if (!isfinite(z[0]) || !isfinite(z[1]) || !isfinite(z[2])) continue;
      pn_bary(z, &u, &v);
      tri_dot(&t, u, v, &qx, &qy);
      dot_cell(o, o->y, px0, ph, pw, qx, qy, &cy, &cx);
      free_cell(used, &nused, cy, &cx, px0 + pw - 1);
      o->put(o->ud, cy, cx, pn_player_mark(b), (char)('A' + s % 26), s);
    }
  for (q = 0; q < neq; q++)
    for (b = 0; b < nb; b++) {
      int qx, qy;
      pn_bary(eq + (size_t)q * p->n + first[b], &u, &v);
      tri_dot(&t, u, v, &qx, &qy);
      dot_cell(o, o->y, px0, ph, pw, qx, qy, &cy, &cx);
      o->put(o->ud, cy, cx, PN_NASHMARK, '*', PN_NASH);
    }
  o->put(o->ud, o->y + v1y / chh, o->x + 1 + v1x / cw, '1', '1', PN_TITLE);
  o->put(o->ud, o->y + v2y / chh, o->x + 3 + v2x / cw, '2', '2', PN_TITLE);
  o->put(o->ud, o->y + v3y / chh, o->x + 1 + v3x / cw, '3', '3', PN_TITLE);
  /* (5) legend: an empty corner (the triangle leaves the top ones free),
  ** else below */
  if (below) leg_below2d(o, &lg, ph - 1, below);
  else leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  return 0;
}

/* -- x axis --------------------------------------------------------------- */

static const char *const xnames[PN_NXAXES] = {"iter", "evals", "time",
                                              "bits", "rounds"};
static const char *const xlabels[PN_NXAXES] = {
  "iteration", "gradient evaluations", "seconds", "bits sent",
  "communication rounds"
};

const char *pn_xaxis_name (int xaxis)
{
  return xaxis >= 0 && xaxis < PN_NXAXES ? xnames[xaxis] : NULL;
}

const char *pn_xaxis_label (int xaxis)
{
  return xaxis >= 0 && xaxis < PN_NXAXES ? xlabels[xaxis] : NULL;
}

int pn_xaxis_find (const char *name)
{
  int k;
  for (k = 0; k < PN_NXAXES; k++)
    if (strcmp(xnames[k], name) == 0) return k;
  return -1;
}

double pn_xat (const ol_run *r, int xaxis, int i)
{
  const double *s;
  if (xaxis == PN_X_EVALS) return ol_run_evals(r)[i];
  if (xaxis == PN_X_TIME) return ol_run_secs(r)[i];
  if (xaxis == PN_X_BITS)
    return (s = ol_run_series(r, OL_MET_BITS)) != NULL ? s[i] : NAN;
  if (xaxis == PN_X_ROUNDS && (s = ol_run_series(r, OL_MET_ROUNDS)) != NULL)
    return s[i];
  return (double)ol_run_times(r)[i];
}

void pn_xfmt (int xaxis, double v, char *buf, size_t size, int width)
{
  cv_fmt(v, buf, size, width);
  if (xaxis == PN_X_TIME && strlen(buf) + 1 < size) strcat(buf, "s");
}

const char *pn_xtitle (int kind, const pn_axes *ax, char *buf, size_t size)
{
  int xaxis = ax != NULL ? ax->xaxis : PN_X_ITER;
  kind = pn_base(kind);
  if (kind >= OL_NMETRICS && kind != PN_TRACE) {
    buf[0] = '\0';
    return buf;
  }
  if (kind == PN_TRACE) xaxis = PN_X_ITER;
  snprintf(buf, size, "%s%s", pn_xaxis_label(xaxis), ax != NULL && ax->xlog
           ? " (log)" : "");
  return buf;
}

int pn_auto_panel (const pn_runs *rs)
{
  const ol_problem *p;
  int dim, first[1];
  if (rs->n < 1 || ol_run_traj(rs->runs[0], &dim) == NULL) return -1;
  /* a diffusion sampler's x is its particles' mean: its cloud shows the
  ** target's contours instead (pn_defaults) */
  if (ol_run_method(rs->runs[0])->family == OL_DIFFUSION) return -1;
  p = ol_run_problem(rs->runs[0]);
  /* a 2-D distributed run: its workers around their average */
  if (p->n == 2 && pn_workers_of(rs->runs[0], &dim) != NULL)
    return PN_WORKERS;
  if (p->n == 2 && pn_has_landscape(p)) return PN_LANDSCAPE;
  if (p->kind == OL_GAME && pn_simplex_blocks(p, first, 1) > 0)
    return PN_SIMPLEX;
  return -1;
}
