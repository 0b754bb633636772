/*
** lua/lfigure.c -- figures for slides (see lfigure.h): the SVG document
** that core/plot/svg.c writes, parsed by librsvg and drawn on a cairo
** surface, an image surface written out as PNG or a PDF surface (text
** stays text: a PDF viewer, pdftotext and a search find the labels).
**
** Nothing here is drawn by hand: the SVG is the one figure, these are two
** more ways to write it.  The bytes go to a caller-owned pl_buf through
** cairo's stream functions, so the caller writes the file whole or not at
** all (lua/lutil.c).  Without librsvg and cairo at build time (OPTLAB_
** FIGURES undefined: the Makefile defines it when pkg-config finds both)
** the renderer says so instead.
*/
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lfigure.h"

#ifdef OPTLAB_FIGURES
#include <cairo-pdf.h>
#include <cairo.h>
#include <librsvg/rsvg.h>
#endif

const char *const olua_figure_exts[] = {".svg", ".png", ".pdf", NULL};

int olua_figure_format (const char *name)
{
  const char *base = strrchr(name, '/'), *dot;
  int i;
  base = base != NULL ? base + 1 : name;
  dot = strrchr(base, '.');
  /* no extension (".name" is a hidden file's name, not an extension) */
  if (dot == NULL || dot == base) return OLUA_FIG_SVG;
  for (i = 0; olua_figure_exts[i] != NULL; i++)
    if (strcasecmp(dot, olua_figure_exts[i]) == 0) return i;
  return -1;
}

void olua_figure_size (int fmt, int *width, int *height)
{
  if (fmt == OLUA_FIG_PDF) {
    *width = 960;
    *height = 540;
  }
  else {
    *width = 1920;
    *height = 1080;
  }
}

void olua_figure_layout (int width, int height, int *lw, int *lh)
{
  *lh = OLUA_FIG_LOGICAL_H;
  *lw = (int)((double)OLUA_FIG_LOGICAL_H * width / height + 0.5);
}

#ifdef OPTLAB_FIGURES

/* cairo's stream callback: append to the pl_buf. */
static cairo_status_t tobuf (void *closure, const unsigned char *data,
                             unsigned int length)
{
  pl_buf *out = closure;
  pl_buf_add(out, (const char *)data, length);
  return out->oom ? CAIRO_STATUS_NO_MEMORY : CAIRO_STATUS_SUCCESS;
}

int olua_figure_render (const char *svg, size_t len, int fmt, int width,
                        int height, pl_buf *out, char *err, size_t esize)
{
  RsvgHandle *h = NULL;
  cairo_surface_t *s = NULL;
  cairo_t *cr = NULL;
  GError *ge = NULL;
  RsvgRectangle vp;
  cairo_status_t st;
  int rc = -1;
  /* (1) parse the document */
  h = rsvg_handle_new_from_data((const guint8 *)svg, len, &ge);
  if (h == NULL) {
    snprintf(err, esize, "librsvg cannot read the figure: %s",
             ge != NULL ? ge->message : "unknown error");
    goto fail;
  }
  /* (2) the surface: pixels for PNG, a page of width x height pt for PDF */
  if (fmt == OLUA_FIG_PDF)
    s = cairo_pdf_surface_create_for_stream(tobuf, out, width, height);
  else
    s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  if ((st = cairo_surface_status(s)) != CAIRO_STATUS_SUCCESS) {
    snprintf(err, esize, "cairo cannot make a %d x %d surface: %s", width,
             height, cairo_status_to_string(st));
    goto fail;
  }
  if (fmt == OLUA_FIG_PDF)
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "optlab");
  /* (3) draw the document scaled to the whole surface */
  cr = cairo_create(s);
  vp.x = 0;
  vp.y = 0;
  vp.width = width;
  vp.height = height;
  if (!rsvg_handle_render_document(h, cr, &vp, &ge)) {
    snprintf(err, esize, "librsvg cannot draw the figure: %s",
             ge != NULL ? ge->message : "unknown error");
    goto fail;
  }
  if ((st = cairo_status(cr)) != CAIRO_STATUS_SUCCESS) {
    snprintf(err, esize, "cairo failed drawing the figure: %s",
             cairo_status_to_string(st));
    goto fail;
  }
  cairo_destroy(cr);
  cr = NULL;
  /* (4) the file's bytes into out */
  if (fmt == OLUA_FIG_PDF) {
    cairo_surface_finish(s);
    st = cairo_surface_status(s);
  }
  else
    st = cairo_surface_write_to_png_stream(s, tobuf, out);
  if (st != CAIRO_STATUS_SUCCESS || out->oom) {
    snprintf(err, esize, "cairo cannot write the %s: %s",
             fmt == OLUA_FIG_PDF ? "PDF" : "PNG", out->oom
             ? "out of memory" : cairo_status_to_string(st));
    goto fail;
  }
  rc = 0;
fail:
  if (cr != NULL) cairo_destroy(cr);
  if (s != NULL) cairo_surface_destroy(s);
  if (h != NULL) g_object_unref(h);
  if (ge != NULL) g_error_free(ge);
  return rc;
}

#else

int olua_figure_render (const char *svg, size_t len, int fmt, int width,
                        int height, pl_buf *out, char *err, size_t esize)
{
  (void)svg;
  (void)len;
  (void)width;
  (void)height;
  (void)out;
  snprintf(err, esize, "this optlab was built without librsvg and cairo, "
           "which write %s: install them (make deps) and rebuild, or "
           "write .svg", fmt == OLUA_FIG_PDF ? "PDF" : "PNG");
  return -1;
}

#endif
