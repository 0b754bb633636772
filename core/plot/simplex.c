/*
** core/plot/simplex.c -- the simplex panel (pn_kind_simplex): barycentric
** (p1, p2, p3) -> (p2 + p3/2, p3 sqrt(3)/2) in a triangle with vertices
** labelled 1, 2, 3, one path per run and player in the run's colour
** (palette.h; the players told apart by their marks, and in ASCII by
** letter: run k's player b is 'a' + k nb + b), each player's current
** point in its own mark; for a game of two 2-action players the unit
** square of their joint strategy instead.  The game's known equilibria
** (ol_game_equilibria) are starred.  In SVG the same, class "nash" for
** the stars.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "method.h"
#include "ol.h"
#include "panelpriv.h"
#include "problems/game.h"

#define EDGE 125         /* canvas series ids 125..127: triangle edges */
#define NASHID 124       /* canvas series id of an equilibrium's dot */

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

/* Marker of player b's current point: U+25CF (disc) for player 1,
** U+25C6 (diamond) for player 2, U+25A0 (square) for a third. */
static unsigned pn_player_mark (int b)
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
  pn_legend lg;
  snprintf(title, tsize, "unit square x1,y1 (players' P(action 1))");
  if (pw < 8 || ph < 4) return -1;
  memset(&lg, 0, sizeof lg);
  for (k = 0; k < rs->n && k < MAXLEG - 1; k++)
    pn_leg_add(&lg, rs->labels[k], NULL, DOT, (char)('a' + k % 26), k);
  if (neq > 0) pn_leg_add(&lg, "Nash", NULL, PN_NASHMARK, '*', PN_NASH);
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
        || pn_leg_corner(o, &lg, o->cv, o->y + 1, px0 + 1, chh, cw))
      break;
    rows = pn_leg_layout(&lg, o->w - 1, ph / 2, &ncols, &colw);
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
  pn_puts_at(o, o->y + 1, px0 - 2, "1", 1, PN_AXIS);
  pn_puts_at(o, o->y + ph - 2, px0 - 2, "0", 1, PN_AXIS);
  pn_puts_at(o, o->y + ph / 2, px0 - 3, "y1", 2, PN_AXIS);
  pn_blank(o, o->y + ph, o->x, o->w);
  pn_puts_at(o, o->y + ph, px0 + 1, "0", 1, PN_AXIS);
  pn_puts_at(o, o->y + ph, px0 + pw / 2 - 1, "x1", 2, PN_AXIS);
  pn_puts_at(o, o->y + ph, px0 + pw - 2, "1", 1, PN_AXIS);
  if (below) pn_leg_below2d(o, &lg, ph, below);
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
  pn_legend lg;
  if (p != NULL && pn_square(p)) return square(rs, o, title, tsize);
  neq = ol_game_equilibria(p, &eq);
  snprintf(title, tsize, "simplex%s", nb > 1 ? " (one path per player)"
           : "");
  if (nb == 0) {
    pn_puts_at(o, o->y, o->x + 1, "no simplex: needs 3-action simplex blocks "
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
      pn_leg_add(&lg, leg[nleg], NULL, pn_player_mark(b),
                 (char)('A' + (k * nb + b) % 26), k);
      nleg++;
    }
  if (neq > 0) pn_leg_add(&lg, "Nash", NULL, PN_NASHMARK, '*', PN_NASH);
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
    if (!pn_leg_place2d(o, &lg, px0, &ph, pw, &below) || pass == 1) break;
  }
  /* (3) canvas out: edges in the axis colour, paths in their run's (an
  ** equilibrium's cell is left to its star); canvas series k * nb + b
  ** tells the players apart by ASCII letter, the colour is run k's */
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
        o->put(o->ud, o->y + r, px0 + col, c, (char)('a' + s % 26), s / nb);
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
      o->put(o->ud, cy, cx, pn_player_mark(b), (char)('A' + s % 26), k);
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
  if (below) pn_leg_below2d(o, &lg, ph - 1, below);
  else pn_leg_corner(o, &lg, o->cv, o->y, px0, ph, pw);
  return 0;
}

/* -- SVG ------------------------------------------------------------------ */

/* A five-pointed star centred at (x, y): a known equilibrium (class
** "nash"), or the legend's key to them (key = 1: class "nash key"). */
static void nashmark (pl_buf *f, double x, double y, int key)
{
  const double pi = 3.14159265358979323846;
  int i;
  pl_buf_addf(f, "<path class=\"nash%s\" d=\"", key ? " key" : "");
  for (i = 0; i < 10; i++) {
    double a = pi / 2 + i * pi / 5, r = i % 2 ? 2.7 : 6.5;
    pl_buf_addf(f, "%s%.2f %.2f ", i ? "L" : "M", x + r * cos(a),
                y - r * sin(a));
  }
  pl_buf_adds(f, "z\"/>\n");
}

/* The key of the stars, right of the panel's title (outside the plot). */
static void nashkey (pl_buf *f, pl_box b)
{
  nashmark(f, b.x + b.w - 34, b.y - 12, 1);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">Nash</text>\n",
              b.x + b.w - 26, b.y - 8);
}

/* The unit square of a game of two 2-action players (pn_square): x1 =
** z_1 across, y1 = z_3 up, one path per run, its current point a disc,
** the known equilibria starred. */
static void svg_square (pl_buf *f, const pl_plot *pl, pl_box b)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  const double *eq = NULL;
  int neq = ol_game_equilibria(p, &eq), k, i, q;
  double s = b.w < b.h ? b.w : b.h, ox = b.x + (b.w - s) / 2;
  double oy = b.y + (b.h - s) / 2;
#define SX(a) (ox + (a) * s)
#define SY(c) (oy + (1 - (c)) * s)
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"simplex\" "
              "data-view=\"square\">\n");
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">unit square "
              "x1,y1 (players' P(action 1))</text>\n", b.x, b.y - 8);
  if (neq > 0) nashkey(f, b);
  pl_buf_addf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
              "height=\"%.1f\" class=\"frame\"/>\n", ox, oy, s, s);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">0</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">x1</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">1</text>\n",
              SX(0), SY(0) + 14, SX(0.5), SY(0) + 14, SX(1), SY(0) + 14);
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">0</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">y1</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">1</text>\n",
              SX(0) - 5, SY(0) + 4, SX(0) - 5, SY(0.5) + 4, SX(0) - 5,
              SY(1) + 4);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]), have = 0;
    const double *x = ol_run_traj(pl->rs.runs[k], &dim), *z;
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                pl_palette[k % PL_NPAL]);
    for (i = 0; x != NULL && dim >= 4 && i < len; i++) {
      z = x + (size_t)i * dim;
      if (!isfinite(z[0]) || !isfinite(z[2])) {
        have = 0;
        continue;
      }
      pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", SX(z[0]), SY(z[2]));
      have = 1;
    }
    pl_buf_adds(f, "\"/>\n");
    z = ol_run_x(pl->rs.runs[k]);
    if (isfinite(z[0]) && isfinite(z[2]))
      pl_buf_addf(f, "<circle class=\"p1\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
                  "fill=\"%s\"/>\n", SX(z[0]), SY(z[2]),
                  pl_palette[k % PL_NPAL]);
  }
  for (q = 0; q < neq; q++) nashmark(f, SX(eq[4 * q]), SY(eq[4 * q + 2]), 0);
  pl_buf_adds(f, "</g>\n");
#undef SX
#undef SY
}

static void svg_simplex (pl_buf *f, const pl_plot *pl, pl_box b)
{
  const ol_problem *p = ol_run_problem(pl->rs.runs[0]);
  int first[OL_MAXBLOCKS], nb = pn_simplex_blocks(p, first, OL_MAXBLOCKS);
  double h3 = 0.5 * sqrt(3.0), s = b.w, ox, oy, u, v;
  const double *eq = NULL;
  int k, bl, i, e, neq;
  if (pn_square(p)) {
    svg_square(f, pl, b);
    return;
  }
  neq = ol_game_equilibria(p, &eq);
  if (b.h / h3 < s) s = b.h / h3;
  ox = b.x + (b.w - s) / 2;
  oy = b.y + b.h - (b.h - s * h3) / 2;
#define TX(uu) (ox + (uu) * s)
#define TY(vv) (oy - (vv) * s)
  pl_buf_adds(f, "<g class=\"panel\" data-kind=\"simplex\">\n");
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"title\">simplex</text>"
              "\n", b.x, b.y - 8);
  if (nb > 1)
    pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"note\">P1 \xe2\x97"
                "\x8f  P2 \xe2\x97\x86</text>\n", b.x + b.w - 80, b.y + 10);
  pl_buf_addf(f, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" "
              "class=\"frame\"/>\n", TX(0), TY(0), TX(1), TY(0), TX(0.5),
              TY(h3));
  pl_buf_addf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"ytick\">1</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xlabel\">2</text>"
              "<text x=\"%.1f\" y=\"%.1f\" class=\"xtick\">3</text>\n",
              TX(0) - 4, TY(0) + 4, TX(1) + 12, TY(0) + 4, TX(0.5),
              TY(h3) - 4);
  for (k = 0; k < pl->rs.n; k++) {
    int dim = 0, len = ol_run_len(pl->rs.runs[k]);
    const double *x = ol_run_traj(pl->rs.runs[k], &dim);
    pl_buf_addf(f, "<path class=\"series\" stroke=\"%s\" d=\"",
                pl_palette[k % PL_NPAL]);
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
        pl_buf_addf(f, "%s%.2f %.2f ", have ? "L" : "M", TX(u), TY(v));
        have = 1;
      }
    }
    pl_buf_adds(f, "\"/>\n");
    /* current points: player 1 a disc, player 2 a diamond (drawn larger
    ** and hollow, so a coinciding disc shows inside it) */
    for (bl = 0; bl < nb; bl++) {
      const double *q = ol_run_x(pl->rs.runs[k]) + first[bl];
      if (!isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2])) continue;
      pn_bary(q, &u, &v);
      if (bl == 0)
        pl_buf_addf(f, "<circle class=\"p1\" cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
                    "fill=\"%s\"/>", TX(u), TY(v), pl_palette[k % PL_NPAL]);
      else
        pl_buf_addf(f, "<path class=\"p%d\" d=\"M%.2f %.2f l7 7 l-7 7 l-7 -7 "
                    "z\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                    bl + 1, TX(u), TY(v) - 7, pl_palette[k % PL_NPAL]);
      if (nb > 1)
        pl_buf_addf(f, "<text x=\"%.2f\" y=\"%.2f\" class=\"note\">p%d"
                    "</text>", TX(u) + 9, TY(v) - 4 + 10 * bl, bl + 1);
      pl_buf_addc(f, '\n');
    }
  }
  /* the known equilibria: a star at each player's strategy */
  if (neq > 0) nashkey(f, b);
  for (e = 0; e < neq; e++)
    for (bl = 0; bl < nb; bl++) {
      pn_bary(eq + (size_t)e * p->n + first[bl], &u, &v);
      nashmark(f, TX(u), TY(v), 0);
    }
  pl_buf_adds(f, "</g>\n");
#undef TX
#undef TY
}

/* -- the table entry ------------------------------------------------------ */

static int simplex_available (const pn_runs *rs, int kind,
                              const ol_problem *p, char *why, size_t wsize)
{
  int first[1];
  if (pn_simplex_blocks(p, first, 1) == 0) {
    snprintf(why, wsize, "no simplex for %s (needs 3-action simplex "
             "blocks or two 2-action players)", p->desc);
    return 0;
  }
  return pn_need_traj(rs, kind, why, wsize);
}

static void simplex_cells (const pn_runs *rs, int kind, pn_axes *ax,
                           pn_cache *c, const pn_out *o, char *title,
                           size_t tsize)
{
  (void)kind;
  (void)ax;
  (void)c;
  pn_simplex(rs, o, title, tsize);
}

static void simplex_svg (pl_buf *f, const pl_plot *pl, int kind, pl_box b)
{
  (void)kind;
  svg_simplex(f, pl, b);
}

const pn_kind pn_kind_simplex = {
  .name = "simplex",
  .available = simplex_available,
  .draw_cells = simplex_cells,
  .draw_svg = simplex_svg,
};
