/*
** repl/dash.c -- the dashboard beside the prompt: panels of every job not
** done (top), an output window (middle), readline's line (bottom row).
** See dash.h for the contract with prompt.c.
**
** Layout on R x C: the prompt on row R-1; the output window on the nout
** rows above it (R/4, within [3, 12]); the dashboard on the rows above
** that, drawn by dr_view_draw as the blocking view is (title line, panel
** grid, "too small" message), its last row replaced by our status line.
**
** Output capture: stdout and stderr are dup2'ed onto an unlinked
** temporary file (a pipe could fill up and block a chunk that prints a
** lot).  Curses writes to its own dup of the terminal (screen.c).  Every
** dash_tick reads what was written, appends it to the output lines, and
** truncates the file.
**
** Frames: a full frame (erase, dashboard, output, prompt) is drawn when
** the jobs changed (iterations, states) and 1/FPS passed, and no sooner
** than the last frame's drawing time / DRAW_SHARE, so drawing stays a
** small share of stepping; output and prompt changes redraw their rows
** only.  Paused jobs do not change, so nothing is redrawn.
**
** X axis: the jobs' common xaxis option; iterations when they differ.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "repl.h"
#include "dash.h"
#include "draw.h"
#include "log.h"
#include "prompt.h"
#include "screen.h"

#define FPS 30
#define DRAW_SHARE 0.03
#define MAXJOBS 64
#define MAXRUNS 256
#define OUTMAX 2000
#define LINEMAX 1024

static struct {
  int open, ascii;
  int focus;                /* 0 prompt, 1 dashboard */
  int help, zoom, pfocus;   /* overlay, zoomed, focused panel */
  int dirty;                /* full frame at the next tick */
  int odirty;               /* output rows changed */
  long speed;               /* steps per tick, 0 = as many as fit */
  double fit;               /* steps per tick measured at full speed */
  long fit_iter;
  double fit_t, flush_at;
  double drawn_at, draw_cost;
  unsigned long sig;        /* what the last frame showed */
  int npanels;
  dr_panel panels[OL_NMETRICS];
  cv_canvas cv;
  int capfd, saved1, saved2;
  char *lines[OUTMAX];      /* output ring */
  int first, nlines;
  char part[LINEMAX];       /* the line being written */
  int plen;
  char *pline;              /* readline's prompt + line */
  size_t pcap;
  int pcur;                 /* cursor, in code points into pline */
} d;

static double now (void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* -- output capture and the output lines ---------------------------------- */

static void push_line (const char *s, int len)
{
  char *l = malloc((size_t)len + 1);
  if (l == NULL) return;
  memcpy(l, s, (size_t)len);
  l[len] = '\0';
  if (d.nlines == OUTMAX) {
    free(d.lines[d.first]);
    d.lines[d.first] = l;
    d.first = (d.first + 1) % OUTMAX;
  }
  else d.lines[(d.first + d.nlines++) % OUTMAX] = l;
}

/* Append bytes: lines split at '\n', tabs expanded, other control bytes
** (escape sequences included) dropped. */
static void out_append (const char *s, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n' || d.plen >= LINEMAX - 8) {
      push_line(d.part, d.plen);
      d.plen = 0;
      if (c == '\n') continue;
    }
    if (c == '\t') {
      do d.part[d.plen++] = ' '; while (d.plen % 8 != 0);
    }
    else if (c >= 0x20 && c != 0x7f) d.part[d.plen++] = (char)c;
  }
  d.odirty = 1;
}

static void cap_start (void)
{
  FILE *f;
  fflush(stdout);
  fflush(stderr);
  d.capfd = d.saved1 = d.saved2 = -1;
  if ((f = tmpfile()) == NULL) return;
  d.capfd = dup(fileno(f));
  fclose(f);
  if (d.capfd < 0) return;
  d.saved1 = dup(STDOUT_FILENO);
  d.saved2 = dup(STDERR_FILENO);
  dup2(d.capfd, STDOUT_FILENO);
  dup2(d.capfd, STDERR_FILENO);
}

static void cap_drain (void)
{
  char buf[4096];
  off_t end, pos = 0;
  if (d.capfd < 0) return;
  fflush(stdout);
  fflush(stderr);
  end = lseek(d.capfd, 0, SEEK_CUR);
  if (end <= 0) return;
  while (pos < end) {
    size_t want = (size_t)(end - pos) < sizeof buf ? (size_t)(end - pos)
                                                    : sizeof buf;
    ssize_t k = pread(d.capfd, buf, want, pos);
    if (k <= 0) break;
    out_append(buf, (size_t)k);
    pos += k;
  }
  if (ftruncate(d.capfd, 0) == 0) lseek(d.capfd, 0, SEEK_SET);
}

static void cap_stop (void)
{
  cap_drain();
  if (d.saved1 >= 0) dup2(d.saved1, STDOUT_FILENO);
  if (d.saved2 >= 0) dup2(d.saved2, STDERR_FILENO);
  if (d.saved1 >= 0) close(d.saved1);
  if (d.saved2 >= 0) close(d.saved2);
  if (d.capfd >= 0) close(d.capfd);
  d.capfd = d.saved1 = d.saved2 = -1;
}

/* -- layout and drawing --------------------------------------------------- */

typedef struct layout {
  int rows, cols, drows, nout;
} layout;

static void get_layout (layout *lo)
{
  screen_size(&lo->rows, &lo->cols);
  lo->nout = lo->rows / 4;
  if (lo->nout < 3) lo->nout = 3;
  if (lo->nout > 12) lo->nout = 12;
  lo->drows = lo->rows - 1 - lo->nout;
  if (lo->drows < 3) {
    lo->drows = 0;
    lo->nout = lo->rows - 1 > 0 ? lo->rows - 1 : 0;
  }
}

static void draw_output (const layout *lo)
{
  int top = lo->drows, i, k;
  int total = d.nlines + (d.plen > 0);
  int start = total > lo->nout ? total - lo->nout : 0;
  for (i = 0; i < lo->nout; i++) screen_blank(top + i, 0, lo->cols, 0, 0);
  for (k = start, i = 0; k < total; k++, i++) {
    const char *s;
    if (k < d.nlines) s = d.lines[(d.first + k) % OUTMAX];
    else {
      d.part[d.plen] = '\0';
      s = d.part;
    }
    screen_puts(top + i, 0, s, lo->cols, SC_DEFAULT, 0);
  }
  d.odirty = 0;
}

/* Byte offset of code point k of s. */
static size_t cp_offset (const char *s, int k)
{
  size_t i = 0;
  while (s[i] != '\0' && k > 0) {
    i++;
    while (((unsigned char)s[i] & 0xC0) == 0x80) i++;
    k--;
  }
  return i;
}

static void draw_prompt (const layout *lo)
{
  int row = lo->rows - 1, skip = 0;
  const char *s = d.pline != NULL ? d.pline : "";
  if (row < 0) return;
  screen_blank(row, 0, lo->cols, 0, 0);
  if (d.pcur >= lo->cols - 1) skip = d.pcur - (lo->cols - 2);
  screen_puts(row, 0, s + cp_offset(s, skip), lo->cols, SC_DEFAULT,
              d.focus ? SA_DIM : 0);
  if (d.focus) screen_cursor(-1, 0);
  else screen_cursor(row, d.pcur - skip);
}

static void box (int y, int x, int h, int w)
{
  int i;
  for (i = 0; i < h; i++) screen_blank(y + i, x, w, SC_DEFAULT, 0);
  for (i = 1; i < w - 1; i++) {
    screen_putc(y, x + i, 0x2500, '-', SC_FOCUS, 0);
    screen_putc(y + h - 1, x + i, 0x2500, '-', SC_FOCUS, 0);
  }
  for (i = 1; i < h - 1; i++) {
    screen_putc(y + i, x, 0x2502, '|', SC_FOCUS, 0);
    screen_putc(y + i, x + w - 1, 0x2502, '|', SC_FOCUS, 0);
  }
  screen_putc(y, x, 0x250C, '+', SC_FOCUS, 0);
  screen_putc(y, x + w - 1, 0x2510, '+', SC_FOCUS, 0);
  screen_putc(y + h - 1, x, 0x2514, '+', SC_FOCUS, 0);
  screen_putc(y + h - 1, x + w - 1, 0x2518, '+', SC_FOCUS, 0);
}

static void draw_help (int rows, int cols)
{
  static const char *const lines[] = {
    "dashboard keys (Ctrl-G at the prompt)",
    "",
    "q, Ctrl-C  stop every job",
    "space      pause / resume every job",
    "n          one step of every job (pauses first)",
    "+ / -      faster / slower (steps per tick)",
    "l          log / linear y axis of the focused panel",
    "Tab        focus the next panel (Shift-Tab: back)",
    "z          zoom the focused panel / restore",
    "?          this help (any key closes it)",
    "Ctrl-G,Esc back to the prompt (typed text kept)"
  };
  int n = (int)(sizeof lines / sizeof lines[0]), w = 0, h, i, y, x;
  for (i = 0; i < n; i++)
    if ((int)strlen(lines[i]) > w) w = (int)strlen(lines[i]);
  w += 4;
  if (w > cols) w = cols;
  h = n + 2 < rows ? n + 2 : rows;
  y = (rows - h) / 2;
  x = (cols - w) / 2;
  box(y, x, h, w);
  for (i = 0; i < h - 2; i++)
    screen_puts(y + 1 + i, x + 2, lines[i], w - 4, i == 0 ? SC_TITLE : 0,
                i == 0 ? SA_BOLD : 0);
}

static void draw_status (const layout *lo, int njobs, int running)
{
  char s[256];
  int row = lo->drows - 1;
  if (row < 0) return;
  if (d.focus)
    snprintf(s, sizeof s, " [dashboard] q stop  space pause  n step  "
             "+/- speed  l log  Tab focus  z zoom  ? help  ^G prompt");
  else
    snprintf(s, sizeof s, " ^G dashboard keys   ^C on an empty line "
             "stops the jobs   %d job%s, %d running", njobs,
             njobs == 1 ? "" : "s", running);
  screen_blank(row, 0, lo->cols, SC_STATUS, SA_REVERSE);
  screen_puts(row, 0, s, lo->cols - 1, d.focus ? SC_FOCUS : SC_STATUS,
              SA_REVERSE | (d.focus ? SA_BOLD : 0));
}

/* Panels: the watched metrics of every job, in order of appearance; a
** metric kept from the last frame keeps its display state. */
static void sync_panels (const olua_job *jb, int n)
{
  int m[OL_NMETRICS], nm = 0, i, k, same;
  dr_panel old[OL_NMETRICS];
  for (i = 0; i < n; i++)
    for (k = 0; k < jb[i].live.nwatch; k++) {
      int id = jb[i].live.watch[k], j;
      for (j = 0; j < nm && m[j] != id; j++) {}
      if (j == nm && nm < OL_NMETRICS) m[nm++] = id;
    }
  same = nm == d.npanels;
  for (i = 0; same && i < nm; i++) same = d.panels[i].metric == m[i];
  if (same) return;
  memcpy(old, d.panels, sizeof old);
  for (i = 0; i < nm; i++) {
    for (k = 0; k < d.npanels && old[k].metric != m[i]; k++) {}
    if (k < d.npanels) d.panels[i] = old[k];
    else dr_panel_init(&d.panels[i], m[i]);
  }
  d.npanels = nm;
  if (d.pfocus >= nm) d.pfocus = 0;
}

static unsigned long mix (unsigned long h, unsigned long v)
{
  return (h ^ v) * 1099511628211UL;
}

/* The jobs' state in one number, to skip frames that change nothing. */
static unsigned long signature (const olua_job *jb, int n)
{
  unsigned long h = 14695981039346656037UL;
  int i, k;
  for (i = 0; i < n; i++) {
    h = mix(h, (unsigned long)jb[i].id);
    h = mix(h, (unsigned long)jb[i].state);
    for (k = 0; k < jb[i].live.nruns; k++)
      h = mix(h, (unsigned long)ol_run_iter(jb[i].live.runs[k]));
  }
  return h;
}

static void full_frame (lua_State *L)
{
  static olua_job jb[MAXJOBS];
  static ol_run *runs[MAXRUNS];
  static const char *labels[MAXRUNS];
  layout lo;
  dr_view v;
  char title[200], speed[32];
  int n = olua_jobs_list(L, jb, MAXJOBS), i, k, nr = 0, running = 0;
  int xaxis = n > 0 ? jb[0].live.xaxis : PN_X_ITER;
  long it = 0, iters = 0;
  double t0 = now();
  get_layout(&lo);
  sync_panels(jb, n);
  for (i = 0; i < n; i++) {
    running += jb[i].state == OLUA_JOB_RUNNING;
    if (jb[i].live.iters > iters) iters = jb[i].live.iters;
    if (jb[i].live.xaxis != xaxis) xaxis = PN_X_ITER;
    for (k = 0; k < jb[i].live.nruns && nr < MAXRUNS; k++) {
      runs[nr] = jb[i].live.runs[k];
      labels[nr++] = jb[i].live.labels[k];
      if (ol_run_iter(jb[i].live.runs[k]) > it)
        it = ol_run_iter(jb[i].live.runs[k]);
    }
  }
  /* (1) steps per tick at full speed, for '-' */
  if (d.speed == 0 && running > 0 && it > d.fit_iter && t0 > d.fit_t)
    d.fit = (double)(it - d.fit_iter) / (t0 - d.fit_t) * REPL_TICK_MS
      * 1e-3;
  d.fit_iter = it;
  d.fit_t = t0;
  if (n == 1) snprintf(title, sizeof title, "job #%d  %s", jb[0].id,
                       jb[0].live.title);
  else snprintf(title, sizeof title, "%d jobs", n);
  if (d.speed == 0) strcpy(speed, "max");
  else snprintf(speed, sizeof speed, "%ld/tick", d.speed);
  memset(&v, 0, sizeof v);
  v.title = title;
  v.iter = it;
  v.iters = iters;
  v.state = running > 0 ? "running" : "paused";
  v.speed = speed;
  v.runs.n = nr;
  v.runs.runs = runs;
  v.runs.labels = labels;
  v.runs.xaxis = xaxis;
  v.npanels = d.npanels;
  v.panels = d.panels;
  v.focus = d.pfocus;
  v.zoom = d.zoom && d.npanels > 0;
  screen_erase();
  if (lo.drows > 0) {
    dr_view_draw(&v, lo.drows, lo.cols, &d.cv);
    draw_status(&lo, n, running);
    if (d.help) draw_help(lo.drows, lo.cols);
  }
  draw_output(&lo);
  draw_prompt(&lo);
  d.flush_at = now();
  screen_flush();
  d.sig = signature(jb, n);
  d.dirty = 0;
  d.drawn_at = now();
  d.draw_cost = d.drawn_at - t0;
  repl_log("dash: frame %.2f ms (flush %.2f)", d.draw_cost * 1e3,
           (d.drawn_at - d.flush_at) * 1e3);
}

/* -- the interface -------------------------------------------------------- */

static int reopen (void)
{
  if (screen_active()) return 0;
  if (screen_open(d.ascii) != 0) return -1;
  d.dirty = 1;
  return 0;
}

static void at_exit (void)
{
  if (d.open) dash_close();
}

int dash_open (lua_State *L, int ascii)
{
  static int registered;
  (void)L;
  if (d.open) return 0;
  if (screen_open(ascii) != 0) return -1;
  if (!registered) {
    atexit(at_exit);
    registered = 1;
  }
  cap_start();
  d.open = 1;
  d.ascii = ascii;
  d.focus = d.help = d.zoom = d.pfocus = 0;
  d.speed = 0;
  d.fit = 1024;
  d.fit_iter = 0;
  d.fit_t = 0;
  d.npanels = 0;
  d.dirty = 1;
  d.drawn_at = d.draw_cost = 0;
  d.first = d.nlines = d.plen = 0;
  repl_log("dash: open");
  return 0;
}

void dash_close (void)
{
  int k;
  if (!d.open) return;
  cap_stop();
  screen_close();
  d.open = 0;
  /* the session's output, now in the terminal's scrollback */
  for (k = 0; k < d.nlines; k++) {
    char *l = d.lines[(d.first + k) % OUTMAX];
    fputs(l, stdout);
    fputc('\n', stdout);
    free(l);
  }
  if (d.plen > 0) fwrite(d.part, 1, (size_t)d.plen, stdout);
  fflush(stdout);
  d.first = d.nlines = d.plen = 0;
  repl_log("dash: closed");
}

int dash_is_open (void)
{
  return d.open;
}

void dash_dirty (void)
{
  d.dirty = 1;
}

void dash_tick (lua_State *L)
{
  layout lo;
  double t, gap;
  if (!d.open) return;
  cap_drain();
  if (reopen() != 0) return;
  if (screen_resized()) d.dirty = 1;
  t = now();
  gap = d.draw_cost / DRAW_SHARE;
  if (gap < 1.0 / FPS) gap = 1.0 / FPS;
  if (d.dirty || t - d.drawn_at >= gap) {
    static olua_job jb[MAXJOBS];
    int n = olua_jobs_list(L, jb, MAXJOBS);
    if (d.dirty || signature(jb, n) != d.sig) {
      full_frame(L);
      return;
    }
  }
  if (d.odirty) {
    get_layout(&lo);
    draw_output(&lo);
    draw_prompt(&lo);
    screen_flush();
  }
}

void dash_prompt (const char *prompt, const char *line, int point)
{
  size_t lp = strlen(prompt), ll = strlen(line), i;
  layout lo;
  int cur = 0;
  if (lp + ll + 1 > d.pcap) {
    char *p = realloc(d.pline, lp + ll + 64);
    if (p == NULL) return;
    d.pline = p;
    d.pcap = lp + ll + 64;
  }
  /* the prompt without readline's invisible-text markers */
  for (i = 0; i < lp; i++)
    if (prompt[i] != '\001' && prompt[i] != '\002')
      d.pline[cur++] = prompt[i];
  memcpy(d.pline + cur, line, ll + 1);
  if (point < 0) point = 0;
  if ((size_t)point > ll) point = (int)ll;
  d.pcur = 0;
  for (i = 0; i < (size_t)cur + (size_t)point; i++)
    if (((unsigned char)d.pline[i] & 0xC0) != 0x80) d.pcur++;
  if (!d.open || reopen() != 0) return;
  get_layout(&lo);
  draw_prompt(&lo);
  screen_flush();
}

void dash_print (const char *s)
{
  if (!d.open) {
    fputs(s, stdout);
    fflush(stdout);
    return;
  }
  cap_drain();
  out_append(s, strlen(s));
}

int dash_focus (void)
{
  return d.focus;
}

void dash_set_focus (int f)
{
  layout lo;
  d.focus = f != 0;
  d.help = d.help && d.focus;
  d.dirty = 1;
  if (!d.open || reopen() != 0) return;
  get_layout(&lo);
  draw_prompt(&lo);
  screen_flush();
}

long dash_speed (void)
{
  return d.open ? d.speed : 0;
}

static void faster (void)
{
  if (d.speed == 0) return;
  d.speed *= 2;
  if ((double)d.speed >= d.fit) d.speed = 0;
}

static void slower (void)
{
  long s;
  if (d.speed != 0) {
    if (d.speed > 1) d.speed /= 2;
    return;
  }
  for (s = 1; (double)s * 4 <= d.fit; s *= 2) {}
  d.speed = s;
}

int dash_key (lua_State *L, const unsigned char *s, int n)
{
  int c = s[0], used = 1, running = 0;
  if (c == 27) {
    /* Shift-Tab is ESC [ Z; other sequences are skipped whole */
    if (n >= 3 && s[1] == '[' && s[2] == 'Z') {
      used = 3;
      c = -2;
    }
    else if (n >= 2 && (s[1] == '[' || s[1] == 'O')) {
      for (used = 2; used < n && !(s[used] >= 0x40 && s[used] <= 0x7e);
           used++) {}
      return used < n ? used + 1 : n;
    }
  }
  d.dirty = 1;
  if (d.help) {
    d.help = 0;
    return used;
  }
  olua_jobs_count(L, &running);
  switch (c) {
  case ' ':
    olua_jobs_ctl(L, 0, running > 0 ? OLUA_JOB_PAUSE : OLUA_JOB_RESUME);
    break;
  case 'n': olua_jobs_ctl(L, 0, OLUA_JOB_STEP); break;
  case '+': case '=': faster(); break;
  case '-': case '_': slower(); break;
  case 'l': case 'L':
    if (d.npanels > 0) {
      dr_panel *p = &d.panels[d.pfocus];
      p->ymode = p->shown_log ? DR_LIN : DR_LOG;
    }
    break;
  case '\t':
    if (d.npanels > 0) d.pfocus = (d.pfocus + 1) % d.npanels;
    break;
  case -2:
    if (d.npanels > 0) d.pfocus = (d.pfocus + d.npanels - 1) % d.npanels;
    break;
  case 'z': case 'Z': d.zoom = !d.zoom; break;
  case '?': case 'h': d.help = 1; break;
  case 'q': case 'Q': case 3:
    olua_jobs_ctl(L, 0, OLUA_JOB_STOP);
    dash_set_focus(0);
    break;
  case 27: dash_set_focus(0); break;
  default: break;
  }
  repl_log("dash: key %d speed=%ld focus=%d zoom=%d", c, d.speed, d.pfocus,
           d.zoom);
  return used;
}
