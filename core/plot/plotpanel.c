/*
** lua/plotpanel.c -- insides of the metric, landscape and simplex panels,
** drawn through a put callback (see plotpanel.h).  The numbers come from
** core (run series, ol_problem_grid, ol_grid_window); here they are only
** mapped to dots, shades and labels.
**
** Landscape: one grid cell per character cell, shaded by the level of
** log10(f - min + eps) (ramp ' .:-=+*#%@', low to high), trajectories on
** top (braille lines in the run's colour, or ASCII letters a, b, c, ...
** per run), the current point as a filled circle (ASCII: A, B, C, ...).
** Simplex: barycentric (p1, p2, p3) -> (p2 + p3/2, p3 sqrt(3)/2) in a
** triangle with vertices labelled 1, 2, 3, one path per run and player.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "grid.h"
#include "plotpanel.h"

#define YLAB 7
#define MAXTICKS 16
#define EDGE 125         /* canvas series ids 125..127: triangle edges */
#define DOT 0x25CF       /* filled circle */

const char pn_ramp[] = " .:-=+*#%@";

const char *pn_name (int kind)
{
  if (kind >= 0 && kind < OL_NMETRICS) return ol_metric_types[kind].name;
  if (kind == PN_LANDSCAPE) return "landscape";
  if (kind == PN_SIMPLEX) return "simplex";
  return NULL;
}

int pn_find (const char *name)
{
  int k;
  for (k = 0; k < PN_NKINDS; k++)
    if (strcmp(pn_name(k), name) == 0) return k;
  return -1;
}

int pn_log_prone (int m)
{
  return m == OL_MET_LOSS || m == OL_MET_GRADNORM || m == OL_MET_KKT
    || m == OL_MET_SUBOPT || m == OL_MET_DIST || m == OL_MET_EXPLOIT
    || m == OL_MET_MINGRADNORM || m == OL_MET_BIAS || m == OL_MET_VARIANCE;
}

static void puts_at (const pn_out *o, int y, int x, const char *s, int maxw,
                     int role)
{
  int i;
  for (i = 0; s[i] != '\0' && i < maxw; i++)
    if (x + i >= o->x && x + i < o->x + o->w)
      o->put(o->ud, y, x + i, (unsigned char)s[i], s[i], role);
}

static void blank (const pn_out *o, int y, int x, int w)
{
  int i;
  for (i = 0; i < w; i++) o->put(o->ud, y, x + i, ' ', ' ', PN_AXIS);
}

/* Legend lines "<m> label<extra>" at the top-right of o: marker m of
** series k is the circle (UTF-8) or ascii[k]. */
static void legend (const pn_out *o, int n, const char *const *text,
                    const char *ascii, const int *role)
{
  int k, width = 0, cap = o->w - 2;
  if (cap < 8) return;
  for (k = 0; k < n; k++)
    if ((int)strlen(text[k]) + 4 > width) width = (int)strlen(text[k]) + 4;
  if (width > cap) width = cap;
  for (k = 0; k < n && k < o->h - 1; k++) {
    int lx = o->x + o->w - width;
    blank(o, o->y + k, lx, width);
    o->put(o->ud, o->y + k, lx + 1, o->utf8 ? DOT : (unsigned char)ascii[k],
           ascii[k], role[k]);
    puts_at(o, o->y + k, lx + 3, text[k], width - 4, role[k]);
  }
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

static double mono (void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Cells c->done.. of the grid, as ol_problem_grid computes them (the same
** points, NAN where f is not finite), until all are done (0) or the
** budget is spent (PN_GRID_PART, or PN_GRID_SLOW when the whole grid would
** take more than PN_MAPMAX seconds); -1 when f fails. */
static int grid_part (const ol_problem *p, const double *x0, pn_cache *c)
{
  int nx = c->nx, ny = c->ny, k, first = c->done;
  double *x = c->work, *w2 = c->work + p->n, t0 = mono(), el;
  const double *win = c->win;
  ol_err e;
  memcpy(x, x0, (size_t)p->n * sizeof *x);
  for (k = first; k < nx * ny; k++) {
    int r = k / nx, col = k % nx, rc;
    double f = NAN;
    x[1] = win[2] + (r + 0.5) * (win[3] - win[2]) / ny;
    x[0] = win[0] + (col + 0.5) * (win[1] - win[0]) / nx;
    rc = ol_problem_eval(p, x, &f, NULL, w2, &e);
    if (rc == OL_EDOM) f = NAN;
    else if (rc != OL_OK) {
      c->done = 0;
      return -1;
    }
    c->val[k] = f;
    if (((k - first) & 7) == 7 || k == first) {
      el = mono() - t0;
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

int pn_landscape_grid (const pn_runs *rs, int nx, int ny, pn_cache *c)
{
  const ol_problem *p;
  double win[4];
  const double *x0;
  ol_err e;
  if (rs->n < 1 || nx < 1 || ny < 1) return -1;
  p = ol_run_problem(rs->runs[0]);
  if (!pn_has_landscape(p)) return -1;
  if (ol_grid_window((const ol_run *const *)rs->runs, rs->n, 0, 1, 0, win)
      != 0)
    return -1;
  if (c->ok && c->p == p && c->nx == nx && c->ny == ny
      && memcmp(c->win, win, sizeof win) == 0)
    return 0;
  if (c->budget > 0 && c->slow == p) return PN_GRID_SLOW;
  if (c->budget > 0 && c->done > 0 && c->p == p && c->nx == nx
      && c->ny == ny && memcmp(c->win, win, sizeof win) == 0) {
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
  memcpy(c->win, win, sizeof win);
  /* other coordinates at x* when known, else at the default start */
  x0 = p->xstar != NULL ? p->xstar : p->x0;
  if (c->budget > 0) {
    int rc = grid_part(p, x0, c);
    if (rc != 0) return rc;
  }
  else if (ol_problem_grid(p, x0, 0, 1, win[0], win[1], win[2], win[3], nx,
                           ny, c->val, c->work, &e) != OL_OK)
    return -1;
  pn_levels(c->val, nx * ny, PN_NLEVELS, c->lev);
  c->ok = 1;
  return 0;
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

int pn_landscape (const pn_runs *rs, const pn_out *o, pn_cache *c,
                  char *title, size_t tsize)
{
  int pw = o->w - YLAB, ph = o->h - 1, px0 = o->x + YLAB, k, r, col;
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  char lab[16], asc[64];
  const char *text[64];
  int role[64];
  snprintf(title, tsize, "landscape x1,x2%s [log f]",
           p != NULL && p->n > 2 ? " slice" : "");
  if (pw < 4 || ph < 2) return -1;
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
  if (cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE : CV_ASCII) != 0)
    return -1;
  /* (1) trajectories onto the canvas */
  for (k = 0; k < rs->n; k++) {
    int dim = 0, len = ol_run_len(rs->runs[k]), t, lx = 0, ly = 0;
    const double *x = ol_run_traj(rs->runs[k], &dim);
    if (x == NULL || dim < 2) continue;
    for (t = 0; t < len; t++) {
      int qx, qy;
      if (!isfinite(x[t * dim]) || !isfinite(x[t * dim + 1])) continue;
      todot(o->cv, c->win, x[t * dim], x[t * dim + 1], &qx, &qy);
      if (t == 0) cv_dot(o->cv, qx, qy, k);
      else cv_line(o->cv, lx, ly, qx, qy, k);
      lx = qx;
      ly = qy;
    }
  }
  /* (2) heat map under the paths; row 0 of the grid is the bottom */
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
  /* (3) current points */
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
  /* (4) axes: window bounds and coordinate names */
  cv_fmt(c->win[3], lab, sizeof lab, YLAB - 1);
  puts_at(o, o->y, px0 - 1 - (int)strlen(lab), lab, YLAB, PN_AXIS);
  cv_fmt(c->win[2], lab, sizeof lab, YLAB - 1);
  puts_at(o, o->y + ph - 1, px0 - 1 - (int)strlen(lab), lab, YLAB, PN_AXIS);
  puts_at(o, o->y + ph / 2, px0 - 3, "x2", 2, PN_AXIS);
  blank(o, o->y + ph, o->x, o->w);
  cv_fmt(c->win[0], lab, sizeof lab, 8);
  puts_at(o, o->y + ph, px0, lab, 8, PN_AXIS);
  puts_at(o, o->y + ph, px0 + pw / 2 - 1, "x1", 2, PN_AXIS);
  cv_fmt(c->win[1], lab, sizeof lab, 8);
  puts_at(o, o->y + ph, px0 + pw - (int)strlen(lab), lab, 8, PN_AXIS);
  /* (5) legend: which path is which run */
  for (k = 0; k < rs->n && k < 64; k++) {
    text[k] = rs->labels[k] ? rs->labels[k] : "?";
    asc[k] = (char)('a' + k % 26);
    role[k] = k;
  }
  legend(o, k, text, asc, role);
  return 0;
}

/* -- simplex -------------------------------------------------------------- */

int pn_simplex_blocks (const ol_problem *p, int *first, int max)
{
  int b, at = 0, n = 0, dim;
  if (p == NULL || p->set.kind != OL_SET_SIMPLEX) return 0;
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

int pn_simplex (const pn_runs *rs, const pn_out *o, char *title,
                size_t tsize)
{
  const ol_problem *p = rs->n > 0 ? ol_run_problem(rs->runs[0]) : NULL;
  int first[OL_MAXBLOCKS], nb = pn_simplex_blocks(p, first, OL_MAXBLOCKS);
  int pw = o->w - 4, ph = o->h, dw, dh, k, b, r, col, v1x, v1y, v2x, v2y;
  int v3x, v3y, cw, chh, nleg = 0;
  double h3 = 0.5 * sqrt(3.0);
  tri t;
  char asc[64], leg[64][48];
  const char *text[64];
  int role[64];
  snprintf(title, tsize, "simplex%s", nb > 1 ? " (one path per player)"
           : "");
  if (nb == 0) {
    puts_at(o, o->y, o->x + 1, "no simplex: needs 3-action simplex blocks",
            o->w - 1, PN_AXIS);
    return -1;
  }
  if (pw < 6 || ph < 3) return -1;
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
  /* (2) each run's and player's path */
  for (k = 0; k < rs->n; k++) {
    int dim = 0, len = ol_run_len(rs->runs[k]), i;
    const double *x = ol_run_traj(rs->runs[k], &dim);
    if (x == NULL) continue;
    for (b = 0; b < nb; b++) {
      int lx = 0, ly = 0, have = 0, s = k * nb + b;
      if (first[b] + 3 > dim) continue;
      for (i = 0; i < len; i++) {
        double u, v;
        int qx, qy;
        const double *q = x + (size_t)i * dim + first[b];
        if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) {
          have = 0;
          continue;
        }
        pn_bary(q, &u, &v);
        tri_dot(&t, u, v, &qx, &qy);
        if (!have) cv_dot(o->cv, qx, qy, s);
        else cv_line(o->cv, lx, ly, qx, qy, s);
        have = 1;
        lx = qx;
        ly = qy;
      }
    }
  }
  /* (3) canvas out: edges in the axis colour, paths in their own */
  for (r = 0; r < ph; r++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned u = cv_cell(o->cv, col, r, &s);
      if (u == 0) continue;
      if (!o->utf8)
        u = (unsigned char)(s >= EDGE ? "/\\_"[s - EDGE] : 'a' + s % 26);
      if (s >= EDGE)
        o->put(o->ud, o->y + r, o->x + 2 + col, u, "/\\_"[s - EDGE], PN_AXIS);
      else
        o->put(o->ud, o->y + r, o->x + 2 + col, u, (char)('a' + s % 26), s);
    }
  /* (4) current points, vertex labels, legend */
  for (k = 0; k < rs->n; k++)
    for (b = 0; b < nb; b++) {
      const double *q = ol_run_x(rs->runs[k]) + first[b];
      double u, v;
      int qx, qy, s = k * nb + b;
      if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) continue;
      pn_bary(q, &u, &v);
      tri_dot(&t, u, v, &qx, &qy);
      o->put(o->ud, o->y + qy / chh, o->x + 2 + qx / cw, DOT,
             (char)('A' + s % 26), s);
    }
  o->put(o->ud, o->y + v1y / chh, o->x + 1 + v1x / cw, '1', '1', PN_TITLE);
  o->put(o->ud, o->y + v2y / chh, o->x + 3 + v2x / cw, '2', '2', PN_TITLE);
  o->put(o->ud, o->y + v3y / chh, o->x + 1 + v3x / cw, '3', '3', PN_TITLE);
  for (k = 0; k < rs->n; k++)
    for (b = 0; b < nb && nleg < 64; b++) {
      if (nb > 1)
        snprintf(leg[nleg], sizeof leg[nleg], "%s p%d",
                 rs->labels[k] ? rs->labels[k] : "?", b + 1);
      else
        snprintf(leg[nleg], sizeof leg[nleg], "%s",
                 rs->labels[k] ? rs->labels[k] : "?");
      text[nleg] = leg[nleg];
      asc[nleg] = (char)('a' + (k * nb + b) % 26);
      role[nleg] = k * nb + b;
      nleg++;
    }
  legend(o, nleg, text, asc, role);
  return 0;
}

/* -- x axis --------------------------------------------------------------- */

static const char *const xnames[PN_NXAXES] = {"iter", "evals", "time"};
static const char *const xlabels[PN_NXAXES] = {
  "iteration", "gradient evaluations", "seconds"
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
  if (xaxis == PN_X_EVALS) return ol_run_evals(r)[i];
  if (xaxis == PN_X_TIME) return ol_run_secs(r)[i];
  return (double)ol_run_times(r)[i];
}

void pn_xfmt (int xaxis, double v, char *buf, size_t size, int width)
{
  cv_fmt(v, buf, size, width);
  if (xaxis == PN_X_TIME && strlen(buf) + 1 < size) strcat(buf, "s");
}

/* Right end of the x range of a panel: a nice multiple of a nice step
** above the largest x of the runs (1 when there is none). */
static double xhigh (const pn_runs *rs, int m, int xaxis)
{
  double xmax = 0, hi;
  int k;
  for (k = 0; k < rs->n; k++) {
    int len = ol_run_len(rs->runs[k]);
    if (ol_run_series(rs->runs[k], m) == NULL || len <= 0) continue;
    if (pn_xat(rs->runs[k], xaxis, len - 1) > xmax)
      xmax = pn_xat(rs->runs[k], xaxis, len - 1);
  }
  if (!(xmax > 0)) xmax = xaxis == PN_X_TIME ? 1e-3 : 1;
  hi = cv_nice_up(xmax / 5);
  return hi * ceil(xmax / hi);
}

/* -- metric panel --------------------------------------------------------- */

void pn_metric (const pn_runs *rs, int m, int xaxis, const pn_out *o,
                char *title, size_t tsize)
{
  double lo = INFINITY, hi = -INFINITY, plo = INFINITY, tv[MAXTICKS];
  int k, i, log, neg = 0, ax = o->x + YLAB, px = ax + 1;
  int pw = o->x + o->w - px, ph = o->h - 2, nt, row, col, last = -1, end;
  int room;
  cv_scale ys, xs;
  char lab[24], vals[64][96], asc[64];
  const char *xl = pn_xaxis_label(xaxis) ? pn_xaxis_label(xaxis) : "?";
  const char *text[64];
  int role[64];
  /* (1) extent and axis kind */
  for (k = 0; k < rs->n; k++) {
    const double *v = ol_run_series(rs->runs[k], m);
    int len = ol_run_len(rs->runs[k]);
    if (v == NULL || len <= 0) continue;
    for (i = 0; i < len; i++) {
      if (!isfinite(v[i])) continue;
      if (v[i] < lo) lo = v[i];
      if (v[i] > hi) hi = v[i];
      if (v[i] > 0 && v[i] < plo) plo = v[i];
      if (v[i] < 0) neg = 1;
    }
  }
  /* log for decaying metrics unless a value is negative; exact zeros (an
  ** underflowed loss) are gaps on the log axis */
  log = pn_log_prone(m) && !neg && plo < INFINITY;
  snprintf(title, tsize, "%s [%s]", pn_name(m), log ? "log" : "lin");
  memset(&ys, 0, sizeof ys);
  if (lo <= hi) cv_scale_fit(&ys, log, log ? plo : lo, hi);
  if (pw < 4 || ph < 1 || cv_init(o->cv, pw, ph, o->utf8 ? CV_BRAILLE
                                  : CV_ASCII) != 0)
    return;
  xs.valid = 1;
  xs.log = 0;
  xs.lo = 0;
  xs.hi = xhigh(rs, m, xaxis);
  /* (2) series */
  for (k = 0; ys.valid && k < rs->n; k++) {
    const double *v = ol_run_series(rs->runs[k], m);
    int len = ol_run_len(rs->runs[k]), have = 0, lx = 0, ly = 0;
    if (v == NULL) continue;
    for (i = 0; i < len; i++) {
      double pos = cv_scale_pos(&ys, v[i]);
      int qx, qy;
      if (isnan(pos)) {
        have = 0;
        continue;
      }
      pos = pos < 0 ? 0 : pos > 1 ? 1 : pos;
      qx = (int)lround(pn_xat(rs->runs[k], xaxis, i) / xs.hi
                       * (cv_dotw(o->cv) - 1));
      qy = (int)lround((1 - pos) * (cv_doth(o->cv) - 1));
      if (!have) cv_dot(o->cv, qx, qy, k);
      else cv_line(o->cv, lx, ly, qx, qy, k);
      have = 1;
      lx = qx;
      ly = qy;
    }
  }
  for (row = 0; row < ph; row++)
    for (col = 0; col < pw; col++) {
      int s;
      unsigned u = cv_cell(o->cv, col, row, &s);
      if (u != 0) o->put(o->ud, o->y + row, px + col, u, cv_marker(s), s);
    }
  /* (3) y axis */
  for (i = 0; i < ph; i++) o->put(o->ud, o->y + i, ax, 0x2502, '|', PN_AXIS);
  nt = ys.valid ? cv_ticks(&ys, ph / 2 > 2 ? (ph / 2 < MAXTICKS ? ph / 2
                                                : MAXTICKS) : 2, tv) : 0;
  for (i = 0; i < nt; i++) {
    double pos = cv_scale_pos(&ys, tv[i]);
    if (isnan(pos)) continue;
    row = (int)lround((1 - pos) * (cv_doth(o->cv) - 1)) / (cv_doth(o->cv)
                                                            / ph);
    if (row < 0 || row >= ph || row == last) continue;
    last = row;
    cv_fmt(tv[i], lab, sizeof lab, YLAB - 1);
    puts_at(o, o->y + row, ax - (int)strlen(lab), lab, YLAB, PN_AXIS);
    o->put(o->ud, o->y + row, ax, 0x2524, '+', PN_AXIS);
  }
  if (!ys.valid) puts_at(o, o->y, px + 1, "no data", pw - 1, PN_AXIS);
  /* (4) x axis */
  o->put(o->ud, o->y + ph, ax, 0x2514, '+', PN_AXIS);
  for (i = 0; i < pw; i++)
    o->put(o->ud, o->y + ph, px + i, 0x2500, '-', PN_AXIS);
  nt = cv_ticks(&xs, pw / 10 > 2 ? (pw / 10 < MAXTICKS ? pw / 10 : MAXTICKS)
                : 2, tv);
  end = ax;
  /* the axis label at the right end of the tick row; tick labels that
  ** would run into it are left out */
  room = pw;
  if ((int)strlen(xl) + 8 < pw) {
    room = pw - (int)strlen(xl) - 1;
    puts_at(o, o->y + ph + 1, px + room + 1, xl, pw - room - 1, PN_AXIS);
  }
  for (i = 0; i < nt; i++) {
    int c = (int)lround(tv[i] / xs.hi * (cv_dotw(o->cv) - 1))
      / (cv_dotw(o->cv) / pw), len, lx;
    if (c < 0 || c >= pw) continue;
    o->put(o->ud, o->y + ph, px + c, 0x2534, '+', PN_AXIS);
    pn_xfmt(xaxis, tv[i], lab, sizeof lab, 6);
    len = (int)strlen(lab);
    lx = px + c - len / 2;
    if (lx + len > px + pw) lx = px + pw - len;
    if (lx < px) lx = px;
    if (lx <= end || lx + len > px + room) continue;
    puts_at(o, o->y + ph + 1, lx, lab, len, PN_AXIS);
    end = lx + len;
  }
  /* (5) legend: label, latest value, minimum */
  for (k = 0; k < rs->n && k < 64; k++) {
    char a[16], b[16];
    if (ol_run_series(rs->runs[k], m) == NULL)
      snprintf(vals[k], sizeof vals[k], "%s (not defined)",
               rs->labels[k] ? rs->labels[k] : "?");
    else {
      /* latest value; the minimum over every record, also those the
      ** history no longer keeps */
      cv_fmt(ol_run_last(rs->runs[k], m), a, sizeof a, 8);
      cv_fmt(ol_run_min(rs->runs[k], m), b, sizeof b, 8);
      snprintf(vals[k], sizeof vals[k], "%s %s min %s",
               rs->labels[k] ? rs->labels[k] : "?", a, b);
    }
    text[k] = vals[k];
    asc[k] = cv_marker(k);
    role[k] = k;
  }
  {
    pn_out lo2 = *o;
    lo2.x = px;
    lo2.w = pw;
    legend(&lo2, k, text, asc, role);
  }
}
