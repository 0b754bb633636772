/*
** repl/view.c -- the full-screen live view behind olua_view: the one
** view model (model.c: speed, pause, step, focus, zoom, help and the key
** table) rendered over the whole screen, and frame pacing.  Curses lives
** in screen.c, drawing in draw.c.
**
** The binding calls open, then frame between slices of steps, then close.
** open takes the experiment's speed and paused (speed=, paused=; the
** watchable default of olua_pace_speed).  frame redraws at most OLUA_FPS
** times a second; sooner calls only poll keys.  Its return value is the
** step budget per run until the next call: OLUA_SPEED_MAX ("as many as
** fit in a frame"; the binding slices by time), at a finite speed (steps
** per second) the steps the clock owes (speed times the seconds since the
** last call, the fraction kept, at most two frames' worth), after
** waiting out the frame time reading keys, so slow motion is real; when
** none is owed (below OLUA_FPS steps a second) frame redraws what the
** last steps changed and waits in the key wait, up to the next step or
** SLOW_MS, then returns 0; 0 too while paused (after waiting up to
** PAUSE_MS for a key), 1 for a single step, -1 to stop (q, Ctrl-C as a
** key; SIGINT reaches the binding through its interrupt flag instead).
** A key ends a wait at once, so a slow view answers keys as a fast one.
** The tuning keys act between slices, never inside a step: p, *, / and f
** change the live parameter of every run of the experiment that has it
** (model.h: vm_tune; a race keeps its runs' ratios), and the status line
** ends with the parameter, its value and the factor ("lr=0.05 x2").
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
#include "lesson.h"
#include "log.h"
#include "model.h"
#include "screen.h"

#define PAUSE_MS 50
#define SLOW_MS 250

typedef struct view {
  int ascii;
  vm_model m;            /* speed, pause, step, focus, zoom, help */
  int dirty;             /* redraw at the next call */
  long drawn_iter;       /* iteration at the last draw */
  double drawn_at;       /* time of the last draw, seconds */
  double owed;           /* steps owed by the clock, fraction kept */
  double owed_at;        /* when owed was brought up to date */
  cv_canvas cv;
} view;

static view the_view;

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

/* Apply key c (the one table, model.c) to the view and, for the tuning
** keys, to every run of lv (model.h: vm_tune); returns -1 to stop the
** experiment, else 0. */
static int on_key (view *v, const olua_live *lv, int c)
{
  int a = vm_lookup(VM_VIEW, c);
  if (c == KEY_BREAK) a = VA_QUIT;
  if (a == VA_NONE && !v->m.help) return 0;
  v->dirty = 1;
  a = vm_apply(&v->m, a);
  if (a == VA_QUIT) return -1;
  vm_tune(&v->m, a, lv->runs, lv->nruns);
  repl_log("view: key %d paused=%d speed=%g focus=%d zoom=%d", c,
           v->m.paused, v->m.speed, v->m.focus, v->m.zoom);
  return 0;
}

/* Read keys until none is waiting (ms = 0) or ms milliseconds passed;
** -1 when one of them stops the experiment. */
static int read_keys (view *v, const olua_live *lv, int ms)
{
  double end = ol_now() + ms * 1e-3;
  for (;;) {
    int left = (int)((end - ol_now()) * 1e3), c;
    c = screen_key(left > 0 ? left : 0);
    if (c >= 0 && on_key(v, lv, c) < 0) return -1;
    if (v->m.step || (c >= 0 && ms > 0)) return 0;
    if (c < 0 && left <= 0) return 0;
    if (c < 0 && ms > 0 && ol_now() >= end) return 0;
  }
}

/* -- drawing -------------------------------------------------------------- */

static void draw (view *v, const olua_live *lv)
{
  dr_view d;
  char speed[32], keys[256], tune[160], lstatus[512];
  int rows, cols, autokind, caprows;
  long it = max_iter(lv);
  double t = ol_now();
  vm_model *m = &v->m;
  if (m->speed >= OLUA_SPEED_MAX && !m->paused && it > v->drawn_iter
      && t > v->drawn_at)
    m->fit = (double)(it - v->drawn_iter) / (t - v->drawn_at);
  memset(&d, 0, sizeof d);
  d.runs.n = lv->nruns;
  d.runs.runs = lv->runs;
  d.runs.labels = lv->labels;
  d.runs.xaxis = lv->xaxis;
  d.runs.win = lv->win;
  screen_resized();
  screen_size(&rows, &cols);
  /* the landscape or simplex panel joins the focus cycle when it fits */
  autokind = cols >= 80 && rows >= 24 ? dr_auto_panel(&d.runs) : -1;
  vm_panels(m, lv->watch, lv->nwatch, autokind);
  d.title = lv->title;
  d.iter = it;
  d.iters = lv->iters;
  if (lv->state != NULL) d.state = m->paused ? "paused" : lv->state;
  else d.state = all_stopped(lv) ? "stopped" : m->paused ? "paused"
                 : "running";
  d.speed = vm_speedstr(m->speed, speed, sizeof speed);
  d.npanels = m->npanels;
  d.panels = m->panels;
  d.focus = m->focus;
  d.zoom = m->zoom && m->npanels > 0;
  screen_erase();
  /* a lesson's caption (lesson.say) takes the rows above the key line */
  caprows = lesson_caption_rows(rows, cols);
  dr_view_draw(&d, rows - caprows, cols, &v->cv);
  if (caprows > 0) lesson_caption_draw(rows - 1 - caprows, caprows, cols);
  if (cols >= DR_MIN_COLS && rows >= DR_MIN_ROWS) {
    vm_draw_header(cols, NULL, d.title, d.iter, d.iters, d.state, d.speed);
    screen_blank(rows - 1, 0, cols - 1, SC_STATUS, SA_REVERSE);
    vm_draw_status(rows - 1, cols,
                   lesson_status(vm_keyline(VM_VIEW, keys, sizeof keys),
                                 lstatus, sizeof lstatus),
                   vm_tunestr(m, lv->runs, lv->nruns, tune, sizeof tune),
                   SC_STATUS, SA_REVERSE);
    if (m->help) vm_draw_help(VM_VIEW, rows, cols);
  }
  screen_flush();
  v->drawn_iter = it;
  v->drawn_at = t;
  v->dirty = 0;
}

/* -- olua_view hooks ------------------------------------------------------ */

static int view_open (void *ud, const olua_live *lv)
{
  view *v = ud;
  if (screen_open(v->ascii) != 0) {
    repl_log("view: curses cannot start; declining");
    return 1;
  }
  vm_init(&v->m, VM_VIEW, lv->speed, lv->iters, lv->paused);
  v->drawn_iter = max_iter(lv);
  v->owed = 0;
  v->owed_at = ol_now();
  screen_cursor(-1, 0);   /* the dashboard may have shown it */
  repl_log("view: open, %d runs, speed %g%s", lv->nruns, v->m.speed,
           v->m.paused ? ", paused" : "");
  draw(v, lv);
  return 0;
}

/* The whole steps the clock owes at speed (steps per second) since the
** last call; the fraction is kept, and at most two frames' steps (one
** step below OLUA_FPS a second) are owed, so a slow draw or step brings
** no burst after it. */
static long owed (view *v, double speed)
{
  double t = ol_now(), cap = speed * 2 / OLUA_FPS;
  long k;
  v->owed += speed * (t - v->owed_at);
  v->owed_at = t;
  if (v->owed > (cap > 1 ? cap : 1)) v->owed = cap > 1 ? cap : 1;
  k = (long)v->owed;
  v->owed -= (double)k;
  return k;
}

/* Steps allowed until the next call (see the header): as many as fit at
** full speed, the steps owed at a finite speed, 1 for a single step, 0
** while paused or waiting for a slow step, -1 to stop. */
static long view_frame (void *ud, const olua_live *lv)
{
  view *v = ud;
  vm_model *m = &v->m;
  double period = 1.0 / OLUA_FPS, since, wait;
  long k;
  if (read_keys(v, lv, 0) < 0) return -1;
  if (screen_resized()) v->dirty = 1;
  if (m->paused) {
    v->owed = 0;                       /* nothing owed for a pause */
    v->owed_at = ol_now();
    if (!m->step && read_keys(v, lv, PAUSE_MS) < 0) return -1;
    if (m->step) {
      m->step = 0;
      draw(v, lv);
      return 1;
    }
    if (v->dirty || ol_now() - v->drawn_at >= 0.5) draw(v, lv);
    return 0;
  }
  since = ol_now() - v->drawn_at;
  if (m->speed >= OLUA_SPEED_MAX) {
    if (since < period && !v->dirty) return OLUA_SPEED_MAX;
    draw(v, lv);
    return OLUA_SPEED_MAX;
  }
  /* (1) a frame's time between draws, reading keys */
  if (since < period && !v->dirty) {
    if (read_keys(v, lv, (int)((period - since) * 1e3)) < 0) return -1;
    if (m->paused) return 0;
  }
  /* (2) the steps owed; none: show the last ones, wait for the next */
  k = owed(v, m->speed);
  if (k > 0) {
    draw(v, lv);
    return k;
  }
  if (v->dirty || max_iter(lv) != v->drawn_iter) draw(v, lv);
  wait = (1 - v->owed) / m->speed;
  if (wait > SLOW_MS * 1e-3) wait = SLOW_MS * 1e-3;
  if (read_keys(v, lv, (int)(wait * 1e3) + 1) < 0) return -1;
  return 0;
}

static void view_close (void *ud, const olua_live *lv)
{
  view *v = ud;
  (void)lv;
  screen_close();
  v->m.help = 0;
  repl_log("view: closed");
}

/* The screen's size, for the last frame kept after close. */
static void view_size (void *ud, int *rows, int *cols)
{
  (void)ud;
  screen_size(rows, cols);
}

static const olua_view hooks = {
  &the_view, view_open, view_frame, view_close, view_size
};

const olua_view *repl_view (const repl_opts *o)
{
  const char *term = getenv("TERM");
  repl_log_open(o);
  if (o->notui) return NULL;
  /* rank 0 of an mpirun job: stdin and stdout are mpirun's pipes, the
  ** terminal is the controlling one (screen_devtty) */
  if (o->mpitty) {
    if (screen_devtty() != 0) return NULL;
  }
  else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return NULL;
  if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
    return NULL;
  /* (readline does this too; main.c may not have yet) */
  if (strcmp(setlocale(LC_CTYPE, NULL), "C") == 0) setlocale(LC_CTYPE, "");
  the_view.ascii = o->ascii;
  screen_guard();
  return &hooks;
}
