/*
** core/plot/buf.h -- a growable byte string that plot renderers (SVG
** text, text plots) write into, so the core never writes a FILE: the
** caller owns the buffer and does the I/O (lua/lplot.c).
**
** A zeroed pl_buf is an empty buffer.  After any number of appends,
** b->s is NUL-terminated (when b->len > 0 or after pl_buf_init) and holds
** b->len bytes.  An allocation failure sets b->oom and turns later
** appends into no-ops, so a renderer checks once at the end.
*/
#ifndef OL_PLOT_BUF_H
#define OL_PLOT_BUF_H

#include <stddef.h>

typedef struct pl_buf {
  char *s;          /* the bytes, NUL-terminated; NULL while empty */
  size_t len, cap;
  int oom;          /* an append ran out of memory (contents truncated) */
} pl_buf;

void pl_buf_init (pl_buf *b);
/* Frees the bytes and leaves b empty (a zeroed or freed buffer is fine). */
void pl_buf_fini (pl_buf *b);
void pl_buf_add (pl_buf *b, const char *s, size_t n);
void pl_buf_adds (pl_buf *b, const char *s);
void pl_buf_addc (pl_buf *b, char c);
/* printf-style append (vsnprintf). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void pl_buf_addf (pl_buf *b, const char *fmt, ...);
/* s with XML's five special characters escaped (&amp; &lt; ...). */
void pl_buf_addxml (pl_buf *b, const char *s);

#endif
