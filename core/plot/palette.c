/*
** core/plot/palette.c -- the palette of runs (see palette.h): the sRGB
** table, and the terminal colours and ASCII marks derived from it.
*/
#include <stdio.h>
#include <stdlib.h>

#include "palette.h"

const char *const pl_palette[PL_NPAL] = {
  "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
  "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#aec7e8", "#ffbb78"
};

/* The ANSI colour of each entry, chosen by hue by eye (an 8-colour
** terminal has no brown or grey): blue, red, green, yellow, magenta, then
** the bright ones, and the remaining normal cyan; 12 distinct. */
static const unsigned char ansi[PL_NPAL] = {
  4, 1, 2, 3, 5, 9, 13, 6, 11, 14, 12, 10
};

/* The marks of cv_marker, one per colour: the first eight are the ones
** text plots have always used, in order. */
static const char glyphs[PL_NPAL + 1] = ".*o+x#@%&$~^";

static int slot (int k)
{
  return k < 0 ? 0 : k % PL_NPAL;
}

const char *pl_pal_hex (int k)
{
  return pl_palette[slot(k)];
}

unsigned pl_pal_rgb (int k)
{
  return (unsigned)strtoul(pl_palette[slot(k)] + 1, NULL, 16);
}

/* xterm's cube levels; index 16 + 36 r + 6 g + b.  The grey ramp 232 + i
** is 8 + 10 i. */
static const int level[6] = { 0, 95, 135, 175, 215, 255 };

static long dist2 (int r, int g, int b, int r2, int g2, int b2)
{
  long dr = r - r2, dg = g - g2, db = b - b2;
  return dr * dr + dg * dg + db * db;
}

int pl_pal_xterm (int k)
{
  unsigned c = pl_pal_rgb(k);
  int r = (int)(c >> 16 & 255), g = (int)(c >> 8 & 255), b = (int)(c & 255);
  int best = 16, i, j, l;
  long bd = -1;
  for (i = 0; i < 6; i++)
    for (j = 0; j < 6; j++)
      for (l = 0; l < 6; l++) {
        long d = dist2(r, g, b, level[i], level[j], level[l]);
        if (bd < 0 || d < bd) {
          bd = d;
          best = 16 + 36 * i + 6 * j + l;
        }
      }
  for (i = 0; i < 24; i++) {
    int v = 8 + 10 * i;
    long d = dist2(r, g, b, v, v, v);
    if (d < bd) {
      bd = d;
      best = 232 + i;
    }
  }
  return best;
}

int pl_pal_ansi (int k)
{
  return ansi[slot(k)];
}

char pl_pal_glyph (int k)
{
  return glyphs[slot(k)];
}
