/*
** core/plot/buf.c -- the growable byte string of plot renderers (see
** buf.h): doubling growth, NUL kept after the last byte, sticky oom.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void pl_buf_init (pl_buf *b)
{
  memset(b, 0, sizeof *b);
}

void pl_buf_fini (pl_buf *b)
{
  free(b->s);
  memset(b, 0, sizeof *b);
}

/* Room for n more bytes and the NUL; 0, or -1 (b->oom set). */
static int grow (pl_buf *b, size_t n)
{
  size_t cap = b->cap ? b->cap : 256;
  char *s;
  if (b->oom) return -1;
  if (b->len + n + 1 <= b->cap) return 0;
  while (cap < b->len + n + 1) cap *= 2;
  s = realloc(b->s, cap);
  if (s == NULL) {
    b->oom = 1;
    return -1;
  }
  b->s = s;
  b->cap = cap;
  return 0;
}

void pl_buf_add (pl_buf *b, const char *s, size_t n)
{
  if (grow(b, n) != 0) return;
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

void pl_buf_adds (pl_buf *b, const char *s)
{
  pl_buf_add(b, s, strlen(s));
}

void pl_buf_addc (pl_buf *b, char c)
{
  pl_buf_add(b, &c, 1);
}

void pl_buf_addf (pl_buf *b, const char *fmt, ...)
{
  va_list ap;
  int n;
  char small[256];
  va_start(ap, fmt);
  n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    pl_buf_add(b, small, (size_t)n);
    return;
  }
  if (grow(b, (size_t)n) != 0) return;
  va_start(ap, fmt);
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void pl_buf_addxml (pl_buf *b, const char *s)
{
  for (; *s; s++) {
    if (*s == '&') pl_buf_adds(b, "&amp;");
    else if (*s == '<') pl_buf_adds(b, "&lt;");
    else if (*s == '>') pl_buf_adds(b, "&gt;");
    else if (*s == '"') pl_buf_adds(b, "&quot;");
    else if (*s == '\'') pl_buf_adds(b, "&apos;");
    else pl_buf_addc(b, *s);
  }
}
