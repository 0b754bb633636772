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
**
** The two libraries are loaded on the first figure (dlopen of librsvg,
** which brings cairo, GLib and their fonts), not linked: linked, their
** 44 shared libraries were relocated at every start of the program, a
** third of its start-up, for the few sessions that write a PNG or PDF.
*/
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "lfigure.h"

#ifdef OPTLAB_FIGURES
#include <dlfcn.h>

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

/* The library's soname (its major version: the API the headers describe),
** and the functions used, found in it and in the libraries it brings. */
#define FIG_SONAME "librsvg-2.so.2"
#define FIG_FUNCS(X) \
  X(rsvg_handle_new_from_data) X(rsvg_handle_render_document) \
  X(g_object_unref) X(g_error_free) \
  X(cairo_pdf_surface_create_for_stream) X(cairo_pdf_surface_set_metadata) \
  X(cairo_image_surface_create) X(cairo_surface_status) \
  X(cairo_status_to_string) X(cairo_create) X(cairo_status) \
  X(cairo_destroy) X(cairo_surface_finish) \
  X(cairo_surface_write_to_png_stream) X(cairo_surface_destroy)

static struct {
  int tried, ok;
  char why[200];
#define FIELD(f) __typeof__(&f) f;
  FIG_FUNCS(FIELD)
#undef FIELD
} fig;

/* Load the libraries once (kept for the life of the process); 0 with the
** reason in fig.why when they cannot be. */
static int figload (void)
{
  void *h;
  if (fig.tried) return fig.ok;
  fig.tried = 1;
  h = dlopen(FIG_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    snprintf(fig.why, sizeof fig.why, "cannot load %s (%s): install "
             "librsvg (make deps), or write .svg", FIG_SONAME, dlerror());
    return 0;
  }
#define LOAD(f) \
  if ((*(void **)&fig.f = dlsym(h, #f)) == NULL) { \
    snprintf(fig.why, sizeof fig.why, "%s has no %s: %s", FIG_SONAME, #f, \
             dlerror()); \
    return 0; \
  }
  FIG_FUNCS(LOAD)
#undef LOAD
  fig.ok = 1;
  return 1;
}

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
  if (!figload()) {
    snprintf(err, esize, "%s", fig.why);
    return -1;
  }
  /* (1) parse the document */
  h = fig.rsvg_handle_new_from_data((const guint8 *)svg, len, &ge);
  if (h == NULL) {
    snprintf(err, esize, "librsvg cannot read the figure: %s",
             ge != NULL ? ge->message : "unknown error");
    goto fail;
  }
  /* (2) the surface: pixels for PNG, a page of width x height pt for PDF */
  if (fmt == OLUA_FIG_PDF)
    s = fig.cairo_pdf_surface_create_for_stream(tobuf, out, width, height);
  else
    s = fig.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  if ((st = fig.cairo_surface_status(s)) != CAIRO_STATUS_SUCCESS) {
    snprintf(err, esize, "cairo cannot make a %d x %d surface: %s", width,
             height, fig.cairo_status_to_string(st));
    goto fail;
  }
  if (fmt == OLUA_FIG_PDF)
    fig.cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR,
                                       "optlab");
  /* (3) draw the document scaled to the whole surface */
  cr = fig.cairo_create(s);
  vp.x = 0;
  vp.y = 0;
  vp.width = width;
  vp.height = height;
  if (!fig.rsvg_handle_render_document(h, cr, &vp, &ge)) {
    snprintf(err, esize, "librsvg cannot draw the figure: %s",
             ge != NULL ? ge->message : "unknown error");
    goto fail;
  }
  if ((st = fig.cairo_status(cr)) != CAIRO_STATUS_SUCCESS) {
    snprintf(err, esize, "cairo failed drawing the figure: %s",
             fig.cairo_status_to_string(st));
    goto fail;
  }
  fig.cairo_destroy(cr);
  cr = NULL;
  /* (4) the file's bytes into out */
  if (fmt == OLUA_FIG_PDF) {
    fig.cairo_surface_finish(s);
    st = fig.cairo_surface_status(s);
  }
  else
    st = fig.cairo_surface_write_to_png_stream(s, tobuf, out);
  if (st != CAIRO_STATUS_SUCCESS || out->oom) {
    snprintf(err, esize, "cairo cannot write the %s: %s",
             fmt == OLUA_FIG_PDF ? "PDF" : "PNG", out->oom
             ? "out of memory" : fig.cairo_status_to_string(st));
    goto fail;
  }
  rc = 0;
fail:
  if (cr != NULL) fig.cairo_destroy(cr);
  if (s != NULL) fig.cairo_surface_destroy(s);
  if (h != NULL) fig.g_object_unref(h);
  if (ge != NULL) fig.g_error_free(ge);
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
