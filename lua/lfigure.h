/*
** lua/lfigure.h -- figures for slides: the SVG document of r:plot
** rendered as PNG or PDF through librsvg and cairo (lua/lfigure.c).
**
** The binding (lua/lplot.c) picks the format from the file name's
** extension (olua_figure_format), lays the SVG out at a logical size
** (olua_figure_layout) and renders it scaled to the output size
** (olua_figure_render).  Built without librsvg and cairo (their
** pkg-config modules missing) the renderer fails with a message saying so.
*/
#ifndef OL_LFIGURE_H
#define OL_LFIGURE_H

#include <stddef.h>

#include "buf.h"

enum { OLUA_FIG_SVG, OLUA_FIG_PNG, OLUA_FIG_PDF };

/* The valid extensions, NULL-terminated, for error messages. */
extern const char *const olua_figure_exts[];

/* The format of a file name: by its extension, case-insensitive (".svg",
** ".png", ".pdf"); a name without an extension is SVG.  -1 for any other
** extension. */
int olua_figure_format (const char *name);

/* Default output size of a format: PNG 1920 x 1080 px, PDF 960 x 540 pt
** (a 16:9 slide, 13.33 x 7.5 in).  SVG has no default here (lua/lplot.c's
** own). */
void olua_figure_size (int fmt, int *width, int *height);

/* The logical size (SVG user units) at which a figure of width x height is
** laid out: OLUA_FIG_LOGICAL_H units high, as wide as the aspect ratio
** says.  The SVG's 11-unit body text is then 2.75% of the figure's height
** (10-unit notes 2.5%) whatever the output size: legible from the back of
** a room on a slide. */
#define OLUA_FIG_LOGICAL_H 400
void olua_figure_layout (int width, int height, int *lw, int *lh);

/* Render the SVG document svg[0..len) into out as a fmt (OLUA_FIG_PNG or
** OLUA_FIG_PDF) of width x height (pixels, points), the document scaled
** to fill it.  0, or -1 with the reason in err[esize] (out may then hold
** part of a file: the caller discards it).  Never raises. */
int olua_figure_render (const char *svg, size_t len, int fmt, int width,
                        int height, pl_buf *out, char *err, size_t esize);

#endif
