/*
** core/plot/panelpriv.h -- what the panel-kind files of core/plot/ share
** (not for use outside core/plot/): text and legend pieces and the 2-D
** panels' axes and legends (legend.c), the landscape's grid (landscape.c),
** and the SVG renderer's pieces (svg.c).  See panel.h for the table.
*/
#ifndef OL_PANELPRIV_H
#define OL_PANELPRIV_H

#include "panel.h"
#include "palette.h"

#define YLAB 7           /* columns of y tick labels */
#define MAXLEG 64        /* legend entries */
#define DOT 0x25CF       /* filled circle */

/* -- cells (legend.c) ----------------------------------------------------- */

/* s (UTF-8) at (y, x), at most maxw columns, clipped to o. */
void pn_puts_at (const pn_out *o, int y, int x, const char *s, int maxw,
                 int role);
/* w blanks at (y, x). */
void pn_blank (const pn_out *o, int y, int x, int w);

/* A legend: one entry per run (marker, label, values), and an extra key
** line. */
typedef struct pn_legend {
  int n;
  const char *label[MAXLEG];
  char vals[MAXLEG][48];      /* '\t'-separated droppable groups, or "" */
  unsigned mark[MAXLEG];
  char asc[MAXLEG];
  int role[MAXLEG];
  char extra[48];             /* a key line ("P1 ● P2 ◆"), or "" */
  int xrole;                  /* its role (0: PN_TITLE) */
} pn_legend;
void pn_leg_add (pn_legend *lg, const char *label, const char *vals,
                 unsigned mark, char asc, int role);
/* Layout of the legend in a band w columns wide and at most maxrows rows
** (row-major entries in ncols columns of colw each): rows used. */
int pn_leg_layout (const pn_legend *lg, int w, int maxrows, int *ncols,
                   int *colw);
/* Draw the legend in the band at (y, x), rows x (ncols * colw). */
void pn_leg_draw (const pn_out *o, const pn_legend *lg, int y, int x,
                  int rows, int ncols, int colw, int clear);
/* The legend in an empty corner of the plot rectangle (py, px, ph, pw);
** 0 when every corner holds data. */
int pn_leg_corner (const pn_out *o, const pn_legend *lg, const cv_canvas *cv,
                   int py, int px, int ph, int pw);

/* 2-D panels: the dot of (a, b) in the window on canvas cv; the window's
** bounds and coordinate names around the plot at (o->y, px0), ph x pw;
** the legend in an empty corner of the plot, else below it (*ph shrinks;
** 1 when the plot must be redrawn); the legend in rows below the plot. */
void pn_todot (const cv_canvas *cv, const double *win, double a, double b,
               int *px, int *py);
void pn_win_axes (const pn_out *o, const double *win, int px0, int ph,
                  int pw);
int pn_leg_place2d (const pn_out *o, const pn_legend *lg, int px0, int *ph,
                    int pw, int *below);
void pn_leg_below2d (const pn_out *o, const pn_legend *lg, int ph, int rows);
/* lo and hi of a 2-D axis padded and widened to whole nice steps. */
void pn_snap_axis (double *lo, double *hi);

/* -- data (landscape.c, plotpanel.c) -------------------------------------- */

/* The grid of p over win in coordinates (ca, cb) into c (see
** pn_landscape_grid for the returns); the arguments unchecked. */
int pn_grid_at (const ol_problem *p, const double *win, int ca, int cb,
                int nx, int ny, pn_cache *c);
/* The available hooks' common ends: some run has a recorded trajectory;
** some run has points (draws or trajectory) of the coordinates of a
** trace (pair 0) or cloud (pair 1) kind.  Else 0 and why. */
int pn_need_traj (const pn_runs *rs, int kind, char *why, size_t wsize);
int pn_need_points (const pn_runs *rs, int kind, int pair, char *why,
                    size_t wsize);

/* -- text figures (textplot.c) -------------------------------------------- */

/* Panel i of a text figure ud: drawn inside o, its title into title and
** its x axis title (with surrounding spaces, or "") into xt. */
typedef void (*pl_cellsfn) (void *ud, int i, const pn_out *o, pn_cache *c,
                            char *title, size_t tsize, char *xt,
                            size_t xsize);
/* npanels panels of height rows stacked, width columns, each framed with
** its title in the top border and its x axis title in the bottom one,
** drawn by draw; as pl_text (plot.h). */
int pl_text_panels (int npanels, int width, int height, int utf8,
                    pl_cellsfn draw, void *ud, pl_buf *out);

/* -- SVG (svg.c) ---------------------------------------------------------- */

/* the run colours: palette.h (pl_palette[k % PL_NPAL], pl_pal_hex) */
/* The SVG document's opening of a figure of width x height: the root
** element, the style sheet and a white background (pl_svg's and the
** sweep figures', sweep.c). */
void pl_svg_head (pl_buf *f, int width, int height);
/* A panel's title above b. */
void pl_title (pl_buf *f, pl_box b, const char *t);
/* The mark of a divergent transition at (x, y). */
void pl_divmark (pl_buf *f, double x, double y);
/* Frame, ticks at nice numbers and coordinate names of a 2-D panel. */
void pl_winaxes (pl_buf *f, pl_box b, const double *win);
/* Contour lines of f of p over win in coordinates (ca, cb), drawn in b
** (landscape.c): f on a grid of about 6000 nodes in b's aspect ratio,
** *nx across and *ny up, the outer nodes on win's edges; 12 levels evenly
** spaced in log10(f - min + eps), eps a 1e-3 of the span, each a <path
** class="contour" data-level="..."> (closed ones end in "Z").  0, or -1
** when f cannot be mapped (nothing drawn). */
int pl_contours (pl_buf *f, const ol_problem *p, const double *win, int ca,
                 int cb, pl_box b, int *nx, int *ny);

#endif
