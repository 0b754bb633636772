/*
** repl/view.c -- the live view behind olua_view: its model (pause, speed,
** focus, zoom, panels), key handling and frame pacing.  Curses lives in
** screen.c, drawing in draw.c, dots and ticks in canvas.c.
**
** The binding calls open, then frame between slices of steps, then close.
** frame redraws at most FPS times a second; sooner calls only poll keys.
** Its return value is the step budget per run until the next call:
** SPEED_MAX ("as many as fit in a frame"; the binding slices by time),
** a finite steps-per-frame speed (frame then waits out the frame time,
** reading keys, so slow motion is real), 0 while paused (after waiting up
** to PAUSE_MS for a key), 1 for a single step, -1 to stop (q, Ctrl-C as a
** key; SIGINT reaches the binding through its interrupt flag instead).
**
** Invariants: curses is on exactly between a successful open and close;
** every exit path restores the terminal (screen_guard).
*/
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "repl.h"
#include "canvas.h"
#include "draw.h"
#include "log.h"
#include "screen.h"

#define FPS 30
#define PAUSE_MS 50
#define SPEED_MAX (1L << 30)

typedef struct view {
  int ascii;
  int paused;
  int step;              /* single step requested */
  int help, zoom, focus;
  int dirty;             /* redraw at the next call */
  long speed;            /* steps per frame, SPEED_MAX for "max" */
  long fit;              /* steps per frame measured at "max" */
  long drawn_iter;       /* iteration at the last draw */
  double drawn_at;       /* time of the last draw, seconds */
  int npanels;
  dr_panel panels[OL_NMETRICS];
  cv_canvas cv;
} view;

static view the_view;

static double now (void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long max_iter (const olua_live *lv)
{
  long m = 0;
  int k;
  for (k = 0; k < lv->nruns; k++)
    if (ol_run_iter(lv->runs[k]) > m) m = ol_run_iter(lv->runs[k]);
  return m;
}

static int all_stopped (const olua_live *lv)
{
  int k;
  for (k = 0; k < lv->nruns; k++)
    if (ol_run_reason(lv->runs[k]) == OL_STOP_NONE) return 0;
  return 1;
}

/* -- model changes -------------------------------------------------------- */

static void faster (view *v)
{
  if (v->speed == SPEED_MAX) return;
  v->speed *= 2;
  if (v->speed >= v->fit || v->speed >= SPEED_MAX) v->speed = SPEED_MAX;
}

static void slower (view *v)
{
  long s;
  if (v->speed != SPEED_MAX) {
    if (v->speed > 1) v->speed /= 2;
    return;
  }
  for (s = 1; s * 4 <= v->fit; s *= 2)
    ;
  v->speed = s;
}

static void toggle_log (view *v)
{
  dr_panel *p;
  if (v->npanels == 0) return;
  p = &v->panels[v->focus];
  p->ymode = p->shown_log ? DR_LIN : DR_LOG;
}

/* Apply key c; returns -1 to stop the experiment, else 0. */
static int on_key (view *v, int c)
{
  if (c == 'q' || c == 'Q' || c == 3 || c == KEY_BREAK) return -1;
  v->dirty = 1;
  if (v->help) {
    v->help = 0;
    return 0;
  }
  switch (c) {
  case ' ': v->paused = !v->paused; break;
  case 'n': v->paused = 1; v->step = 1; break;
  case '+': case '=': faster(v); break;
  case '-': case '_': slower(v); break;
  case 'l': case 'L': toggle_log(v); break;
  case '\t':
    if (v->npanels > 0) v->focus = (v->focus + 1) % v->npanels;
    break;
  case KEY_BTAB:
    if (v->npanels > 0) v->focus = (v->focus + v->npanels - 1) % v->npanels;
    break;
  case 'z': case 'Z': v->zoom = !v->zoom; break;
  case '?': case 'h': v->help = 1; break;
  default: v->dirty = 0; break;
  }
  repl_log("view: key %d paused=%d speed=%ld focus=%d zoom=%d", c,
           v->paused, v->speed, v->focus, v->zoom);
  return 0;
}

/* Read keys until none is waiting (ms = 0) or ms milliseconds passed;
** -1 when one of them stops the experiment. */
static int read_keys (view *v, int ms)
{
  double end = now() + ms * 1e-3;
  for (;;) {
    int left = (int)((end - now()) * 1e3), c;
    c = screen_key(left > 0 ? left : 0);
    if (c >= 0 && on_key(v, c) < 0) return -1;
    if (v->step) return 0;
    if (c < 0 && left <= 0) return 0;
    if (c < 0 && ms > 0 && now() >= end) return 0;
  }
}

/* -- drawing -------------------------------------------------------------- */

static void draw (view *v, const olua_live *lv)
{
  dr_view d;
  char speed[32];
  int rows, cols;
  long it = max_iter(lv);
  double t = now();
  if (v->speed == SPEED_MAX && !v->paused && it > v->drawn_iter)
    v->fit = it - v->drawn_iter;
  if (v->speed == SPEED_MAX) strcpy(speed, "max");
  else snprintf(speed, sizeof speed, "%ld/frame", v->speed);
  memset(&d, 0, sizeof d);
  d.title = lv->title;
  d.iter = it;
  d.iters = lv->iters;
  d.state = all_stopped(lv) ? "stopped" : v->paused ? "paused" : "running";
  d.speed = speed;
  d.runs.n = lv->nruns;
  d.runs.runs = lv->runs;
  d.runs.labels = lv->labels;
  d.runs.xaxis = lv->xaxis;
  d.npanels = v->npanels;
  d.panels = v->panels;
  d.focus = v->focus;
  d.zoom = v->zoom && v->npanels > 0;
  d.help = v->help;
  screen_resized();
  screen_size(&rows, &cols);
  screen_erase();
  dr_view_draw(&d, rows, cols, &v->cv);
  screen_flush();
  v->drawn_iter = it;
  v->drawn_at = t;
  v->dirty = 0;
}

/* -- olua_view hooks ------------------------------------------------------ */

static int view_open (void *ud, const olua_live *lv)
{
  view *v = ud;
  int i;
  if (screen_open(v->ascii) != 0) {
    repl_log("view: curses cannot start; declining");
    return 1;
  }
  v->paused = v->step = v->help = v->zoom = v->focus = 0;
  v->speed = SPEED_MAX;
  v->fit = 1024;
  v->drawn_iter = max_iter(lv);
  v->npanels = 0;
  for (i = 0; i < lv->nwatch && v->npanels < OL_NMETRICS; i++)
    if (lv->watch[i] >= 0 && lv->watch[i] < PN_NKINDS)
      dr_panel_init(&v->panels[v->npanels++], lv->watch[i]);
  screen_cursor(-1, 0);   /* the dashboard may have shown it */
  repl_log("view: open, %d runs, %d panels", lv->nruns, v->npanels);
  draw(v, lv);
  return 0;
}

static long view_frame (void *ud, const olua_live *lv)
{
  view *v = ud;
  double period = 1.0 / FPS, since;
  if (read_keys(v, 0) < 0) return -1;
  if (screen_resized()) v->dirty = 1;
  if (v->paused) {
    if (!v->step && read_keys(v, PAUSE_MS) < 0) return -1;
    if (v->step) {
      v->step = 0;
      draw(v, lv);
      return 1;
    }
    if (v->dirty || now() - v->drawn_at >= 0.5) draw(v, lv);
    return 0;
  }
  since = now() - v->drawn_at;
  if (v->speed == SPEED_MAX) {
    if (since < period && !v->dirty) return SPEED_MAX;
  } else if (since < period) {
    if (read_keys(v, (int)((period - since) * 1e3)) < 0) return -1;
    if (v->paused) return 0;
  }
  draw(v, lv);
  return v->speed;
}

static void view_close (void *ud, const olua_live *lv)
{
  view *v = ud;
  (void)lv;
  screen_close();
  v->help = 0;
  repl_log("view: closed");
}

static const olua_view hooks = {
  &the_view, view_open, view_frame, view_close
};

const olua_view *repl_view (const repl_opts *o)
{
  const char *term = getenv("TERM");
  repl_log_open(o);
  if (o->notui || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
    return NULL;
  if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
    return NULL;
  /* (readline does this too; main.c may not have yet) */
  if (strcmp(setlocale(LC_CTYPE, NULL), "C") == 0) setlocale(LC_CTYPE, "");
  the_view.ascii = o->ascii;
  screen_guard();
  return &hooks;
}
