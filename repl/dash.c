/*
** repl/dash.c -- the dashboard beside the prompt: panels of every job not
** done (top), an output window (middle), readline's line (bottom row).
** See dash.h for the contract with prompt.c.
**
** The dashboard renders the one view model (model.c: focus, zoom, help,
** the key table) above the prompt, as view.c renders it full-screen; the
** actions about stepping (pause, step, stop, speed) apply to the jobs
** through olua_jobs_ctl and olua_jobs_setspeed: to the selected job ([ and
** ] select one, or all), every job when none is selected.  The header
** names the job whose iteration it shows (the selected one, else the
** first).  The tuning keys (p, *, /, f: model.h's vm_tune) change a
** live parameter of the selected job's runs, of every job's when none is
** selected; jobs step between keystrokes, so never inside a step.
**
** Layout on R x C: the prompt on row R-1; the output window on the nout
** rows above it (R/4, within [3, 12]); the dashboard on the rows above
** that, drawn by dr_view_draw as the blocking view is (title line, panel
** grid, "too small" message), its last row replaced by our status line.
** The output window scrolls back with PgUp/PgDn (its last row then says
** so); new output does not move the lines shown.
**
** One problem at a time: when the jobs are on several problems, the
** panels show the jobs on the problem of the job shown (the selected one,
** else the first), so a landscape lists only the jobs on its problem and
** no panel mixes one problem's loss with another's; the status line says
** how many jobs are on other problems ([ and ] reach them).
**
** Output capture: stdout and stderr are dup2'ed onto an unlinked
** temporary file (a pipe could fill up and block a chunk that prints a
** lot).  Curses writes to its own dup of the terminal (screen.c).  Every
** dash_tick reads what was written, appends it to the output lines, and
** truncates the file.
**
** Frames: a full frame (erase, dashboard, output, prompt) is drawn when
** the jobs changed (iterations, states) and 1/OLUA_FPS passed, and no
** sooner than the last frame's drawing time / DRAW_SHARE, so drawing (the
** frame's time, its write to the terminal included) stays about 1% of
** stepping; output and prompt changes redraw their rows only.  Paused
** jobs do not change, so nothing is redrawn.  (Measured with perf on the
** DASH bench: over 90% of the process's samples are the steps themselves;
** a 1.3 ms frame at 3% was most of the rest.)
**
** X axis: the jobs' common xaxis option; iterations when they differ.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "repl.h"
#include "dash.h"
#include "draw.h"
#include "log.h"
#include "model.h"
#include "screen.h"

#define DRAW_SHARE 0.01
#define MAXJOBS 64
#define MAXRUNS 256
#define OUTMAX 2000
#define LINEMAX 1024

static struct {
  int open, ascii;
  int focus;                /* 0 prompt, 1 dashboard */
  vm_model m;               /* focus, zoom, help, panels (model.c) */
  int sel;                  /* selected job id, 0: all */
  int scroll;               /* output lines scrolled back */
  int dirty;                /* full frame at the next tick */
  int odirty;               /* output rows changed */
  long fit_iter;
  double fit_t, flush_at;
  double drawn_at, draw_cost;
  unsigned long sig;        /* what the last frame showed */
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

/* -- output capture and the output lines ---------------------------------- */

static void push_line (const char *s, int len)
{
  char *l = malloc((size_t)len + 1);
  if (l == NULL) return;
  memcpy(l, s, (size_t)len);
  l[len] = '\0';
  if (d.scroll > 0) d.scroll++;       /* the lines shown stay put */
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
  int top = lo->drows, i, k, rows = lo->nout;
  int total = d.nlines + (d.plen > 0), start;
  if (d.scroll > total - 1) d.scroll = total > 0 ? total - 1 : 0;
  if (d.scroll > 0 && rows > 1) rows--;          /* the "scrolled" row */
  start = total - d.scroll - rows;
  if (start < 0) start = 0;
  for (i = 0; i < lo->nout; i++) screen_blank(top + i, 0, lo->cols, 0, 0);
  for (k = start, i = 0; k < total - d.scroll && i < rows; k++, i++) {
    const char *s;
    if (k < d.nlines) s = d.lines[(d.first + k) % OUTMAX];
    else {
      d.part[d.plen] = '\0';
      s = d.part;
    }
    screen_puts(top + i, 0, s, lo->cols, SC_DEFAULT, 0);
  }
  if (d.scroll > 0 && lo->nout > 1) {
    char msg[96];
    snprintf(msg, sizeof msg, " -- scrolled back %d line%s: PgDn for "
             "newer output -- ", d.scroll, d.scroll == 1 ? "" : "s");
    screen_blank(top + lo->nout - 1, 0, lo->cols, SC_STATUS, SA_REVERSE);
    screen_puts(top + lo->nout - 1, 0, msg, lo->cols, SC_STATUS,
                SA_REVERSE);
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

/* The runs the tuning keys act on (model.h: vm_tune): the selected
** job's, else every job's; at most max into out. */
static int tune_runs (const olua_job *jb, int n, ol_run **out, int max)
{
  int i, k, nr = 0;
  for (i = 0; i < n; i++)
    if (d.sel == 0 || jb[i].id == d.sel)
      for (k = 0; k < jb[i].live.nruns && nr < max; k++)
        out[nr++] = jb[i].live.runs[k];
  return nr;
}

static void draw_status (const layout *lo, int njobs, int running,
                         int others, const char *tune)
{
  char s[400], keys[256], sel[96] = "";
  int row = lo->drows - 1, len = 0;
  if (row < 0) return;
  if (d.sel != 0)
    len = snprintf(sel, sizeof sel, "  [job #%d selected]", d.sel);
  if (others > 0)
    snprintf(sel + len, sizeof sel - (size_t)len, "  (%d on other "
             "problems: [ ])", others);
  if (d.focus)
    snprintf(s, sizeof s, " [dashboard]%s %s", sel,
             vm_keyline(VM_DASH, keys, sizeof keys));
  else
    snprintf(s, sizeof s, " ^G dashboard keys   ^C on an empty line "
             "stops the jobs   %d job%s, %d running%s", njobs,
             njobs == 1 ? "" : "s", running, sel);
  vm_draw_status(row, lo->cols, s, d.focus ? tune : NULL,
                 d.focus ? SC_FOCUS : SC_STATUS,
                 SA_REVERSE | (d.focus ? SA_BOLD : 0));
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
    h = mix(h, (unsigned long)(jb[i].live.speed * 4));
    for (k = 0; k < jb[i].live.nruns; k++)
      h = mix(h, (unsigned long)ol_run_iter(jb[i].live.runs[k]));
  }
  return h;
}

/* The job the header shows: the selected one, else the first; -1 when
** there is none (a selected job that is done is unselected). */
static int shown (const olua_job *jb, int n)
{
  int i;
  for (i = 0; i < n; i++)
    if (jb[i].id == d.sel) return i;
  d.sel = 0;
  return n > 0 ? 0 : -1;
}

static long job_iter (const olua_job *j)
{
  long it = 0;
  int k;
  for (k = 0; k < j->live.nruns; k++)
    if (ol_run_iter(j->live.runs[k]) > it) it = ol_run_iter(j->live.runs[k]);
  return it;
}

static void full_frame (lua_State *L)
{
  static olua_job jb[MAXJOBS];
  static ol_run *runs[MAXRUNS];
  static const char *labels[MAXRUNS];
  static ol_run *truns[MAXRUNS];
  int metrics[OL_NMETRICS * MAXJOBS];
  layout lo;
  dr_view v;
  char name[96], speed[32], tune[160];
  int n = olua_jobs_list(L, jb, MAXJOBS), i, k, nr = 0, running = 0, nm = 0;
  int xaxis = n > 0 ? jb[0].live.xaxis : PN_X_ITER, sh = shown(jb, n);
  int mixed = 0, autokind = -1, others = 0;
  const ol_problem *prob = NULL;
  long it = 0;
  double t0 = ol_now();
  get_layout(&lo);
  /* (1) the runs shown: those on the problem of the job shown */
  for (i = 0; i < n; i++)
    if (ol_run_problem(jb[i].live.runs[0])
        != ol_run_problem(jb[0].live.runs[0]))
      mixed = 1;
  if (mixed) prob = ol_run_problem(jb[sh].live.runs[0]);
  for (i = 0; i < n; i++) {
    running += jb[i].state == OLUA_JOB_RUNNING;
    if (prob != NULL && ol_run_problem(jb[i].live.runs[0]) != prob) {
      others++;
      continue;
    }
    if (jb[i].live.xaxis != xaxis) xaxis = PN_X_ITER;
    for (k = 0; k < jb[i].live.nwatch; k++)
      metrics[nm++] = jb[i].live.watch[k];
    for (k = 0; k < jb[i].live.nruns && nr < MAXRUNS; k++) {
      runs[nr] = jb[i].live.runs[k];
      labels[nr++] = jb[i].live.labels[k];
    }
  }
  memset(&v, 0, sizeof v);
  v.runs.n = nr;
  v.runs.runs = runs;
  v.runs.labels = labels;
  v.runs.xaxis = xaxis;
  v.runs.win = n > 0 ? jb[sh].live.win : NULL;   /* its view option's */
  if (lo.cols >= 80 && lo.drows >= 24) autokind = dr_auto_panel(&v.runs);
  vm_panels(&d.m, metrics, nm, autokind);
  /* (2) steps per second at full speed of the job shown, for '-' */
  if (sh >= 0) it = job_iter(&jb[sh]);
  if (sh >= 0 && jb[sh].live.speed >= OLUA_SPEED_MAX
      && jb[sh].state == OLUA_JOB_RUNNING && it > d.fit_iter
      && t0 > d.fit_t && d.fit_t > 0)
    d.m.fit = (double)(it - d.fit_iter) / (t0 - d.fit_t) + 1;
  d.fit_iter = it;
  d.fit_t = t0;
  /* (3) the header names the job whose iteration it shows */
  if (sh >= 0 && n > 1)
    snprintf(name, sizeof name, "%d jobs  job #%d %s", n, jb[sh].id,
             jb[sh].method);
  else if (sh >= 0)
    snprintf(name, sizeof name, "job #%d %s", jb[sh].id, jb[sh].method);
  else snprintf(name, sizeof name, "no jobs");
  v.title = sh >= 0 ? jb[sh].live.title : "";
  v.iter = it;
  v.iters = sh >= 0 ? jb[sh].live.iters : 0;
  v.state = sh >= 0 && jb[sh].state == OLUA_JOB_RUNNING ? "running"
                                                        : "paused";
  v.speed = vm_speedstr(sh >= 0 ? jb[sh].live.speed : OLUA_SPEED_MAX, speed,
                        sizeof speed);
  v.npanels = d.m.npanels;
  v.panels = d.m.panels;
  v.focus = d.m.focus;
  v.zoom = d.m.zoom && d.m.npanels > 0;
  screen_erase();
  if (lo.drows > 0) {
    dr_view_draw(&v, lo.drows, lo.cols, &d.cv);
    if (lo.cols >= DR_MIN_COLS && lo.drows >= DR_MIN_ROWS)
      vm_draw_header(lo.cols, name, v.title, v.iter, v.iters, v.state,
                     v.speed);
    draw_status(&lo, n, running, others,
                vm_tunestr(&d.m, truns, tune_runs(jb, n, truns, MAXRUNS),
                           tune, sizeof tune));
    if (d.m.help) vm_draw_help(VM_DASH, lo.drows, lo.cols);
  }
  draw_output(&lo);
  draw_prompt(&lo);
  d.flush_at = ol_now();
  screen_flush();
  d.sig = signature(jb, n);
  d.dirty = 0;
  d.drawn_at = ol_now();
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
  d.focus = d.sel = d.scroll = 0;
  vm_init(&d.m, VM_DASH, OLUA_SPEED_MAX, 0, 0);
  d.fit_iter = 0;
  d.fit_t = 0;
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
  t = ol_now();
  gap = d.draw_cost / DRAW_SHARE;
  if (gap < 1.0 / OLUA_FPS) gap = 1.0 / OLUA_FPS;
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
  d.m.help = d.m.help && d.focus;
  d.dirty = 1;
  if (!d.open || reopen() != 0) return;
  get_layout(&lo);
  draw_prompt(&lo);
  screen_flush();
}

int dash_scrollkey (const unsigned char *s, int n)
{
  layout lo;
  int page;
  if (!d.open || n < 4 || s[0] != 27 || s[1] != '[' || s[3] != '~'
      || (s[2] != '5' && s[2] != '6'))
    return 0;
  get_layout(&lo);
  page = lo.nout > 2 ? lo.nout - 2 : 1;
  d.scroll += s[2] == '5' ? page : -page;
  if (d.scroll < 0) d.scroll = 0;
  draw_output(&lo);
  draw_prompt(&lo);
  screen_flush();
  return 4;
}

/* Select the next (dir 1) or previous (-1) job, all (0) between the last
** and the first. */
static void select_job (lua_State *L, int dir)
{
  static olua_job jb[MAXJOBS];
  int n = olua_jobs_list(L, jb, MAXJOBS), i, at = n;
  for (i = 0; i < n; i++)
    if (jb[i].id == d.sel) at = i;
  at = (at + (dir > 0 ? 1 : n)) % (n + 1);
  d.sel = at < n ? jb[at].id : 0;
}

/* The speed the keys start from: the selected job's, else the first's. */
static double cur_speed (lua_State *L)
{
  static olua_job jb[MAXJOBS];
  int n = olua_jobs_list(L, jb, MAXJOBS), sh = shown(jb, n);
  return sh >= 0 ? jb[sh].live.speed : OLUA_SPEED_MAX;
}

int dash_key (lua_State *L, const unsigned char *s, int n)
{
  int c = s[0], used = 1, running = 0, a;
  if (c == 27 && n >= 2 && (s[1] == '[' || s[1] == 'O')) {
    /* Shift-Tab is ESC [ Z, PgUp/PgDn ESC [ 5 ~ / 6 ~; other sequences
    ** are skipped whole */
    for (used = 2; used < n && !(s[used] >= 0x40 && s[used] <= 0x7e);
         used++) {}
    used = used < n ? used + 1 : n;
    if (used == 3 && s[2] == 'Z') c = KEY_BTAB;
    else if (used == 4 && s[2] == '5' && s[3] == '~') c = KEY_PPAGE;
    else if (used == 4 && s[2] == '6' && s[3] == '~') c = KEY_NPAGE;
    else return used;
  }
  a = vm_lookup(VM_DASH, c);
  d.dirty = 1;
  if (d.m.help) {
    d.m.help = 0;
    return used;
  }
  switch (a) {
  case VA_PAUSE:
    if (d.sel != 0) {
      static olua_job jb[MAXJOBS];
      int k = olua_jobs_list(L, jb, MAXJOBS), sh = shown(jb, k);
      running = sh >= 0 && jb[sh].state == OLUA_JOB_RUNNING;
    }
    else olua_jobs_count(L, &running);
    olua_jobs_ctl(L, d.sel, running > 0 ? OLUA_JOB_PAUSE : OLUA_JOB_RESUME);
    break;
  case VA_STEP: olua_jobs_ctl(L, d.sel, OLUA_JOB_STEP); break;
  case VA_FASTER: case VA_SLOWER: case VA_ONE: case VA_HALF: case VA_DOUBLE:
    d.m.speed = cur_speed(L);
    vm_apply(&d.m, a);
    olua_jobs_setspeed(L, d.sel, d.m.speed);
    break;
  case VA_QUIT:
    olua_jobs_ctl(L, d.sel, OLUA_JOB_STOP);
    if (d.sel == 0) dash_set_focus(0);
    d.sel = 0;
    break;
  case VA_SELNEXT: select_job(L, 1); break;
  case VA_SELPREV: select_job(L, -1); break;
  case VA_PGUP: case VA_PGDN: {
    unsigned char seq[4] = {27, '[', a == VA_PGUP ? '5' : '6', '~'};
    dash_scrollkey(seq, 4);
    break;
  }
  case VA_PROMPT: dash_set_focus(0); break;
  case VA_PARAM: case VA_MUL: case VA_DIV: case VA_FACTOR: {
    static olua_job jb[MAXJOBS];
    static ol_run *truns[MAXRUNS];
    int k = olua_jobs_list(L, jb, MAXJOBS);
    shown(jb, k);                    /* unselects a job that is done */
    vm_tune(&d.m, a, truns, tune_runs(jb, k, truns, MAXRUNS));
    break;
  }
  default: vm_apply(&d.m, a); break;
  }
  repl_log("dash: key %d action %d sel=%d focus=%d zoom=%d", c, a, d.sel,
           d.m.focus, d.m.zoom);
  return used;
}
