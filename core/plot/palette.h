/*
** core/plot/palette.h -- the one palette of runs: run k has colour
** k % PL_NPAL everywhere it is drawn (the live view's paths, marks and
** legends in every panel, the text plots' ASCII markers, the SVG strokes),
** so a run keeps its colour across panels and outputs.
**
** The colours are given once, as sRGB (pl_palette); the terminal's are
** derived from them: the nearest of xterm's 256-colour cube and grey ramp
** (pl_pal_xterm) where the terminal has 256 colours, else one of the 16
** ANSI colours (pl_pal_ansi: the 6 chromatic ones, normal and bright, 12
** distinct).  Without colour, runs are told apart by glyph (pl_pal_glyph,
** cv_marker: PL_NPAL distinct ASCII marks).
*/
#ifndef OL_PALETTE_H
#define OL_PALETTE_H

#define PL_NPAL 12
/* "#rrggbb" of colour k (0 <= k < PL_NPAL); the first eight are
** Tableau 10's, in its order, then olive, grey, light blue, light
** orange. */
extern const char *const pl_palette[PL_NPAL];

/* Run k's colour: "#rrggbb" (k >= 0, any size: taken mod PL_NPAL). */
const char *pl_pal_hex (int k);
/* Run k's colour as 0xRRGGBB. */
unsigned pl_pal_rgb (int k);
/* Run k's colour on a 256-colour terminal: an index 16..255 of xterm's
** colour cube or grey ramp (never 0..15, which terminals theme). */
int pl_pal_xterm (int k);
/* Run k's colour on a 16- or 8-colour terminal: an ANSI colour 1..6 (red,
** green, yellow, blue, magenta, cyan), plus 8 for the bright variant (on
** 8 colours: the normal one in bold). */
int pl_pal_ansi (int k);
/* Run k's ASCII mark when colours are off: one of PL_NPAL distinct
** printable characters (cv_marker's). */
char pl_pal_glyph (int k);

#endif
