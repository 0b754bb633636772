/*
** repl/model.c -- the one view model and key table (model.h): what every
** key does in the full-screen view and the dashboard, the speed rule of
** + and -, panel focus and zoom, and the text generated from the table
** (help overlay, status-line summary) and the header line.  Speeds are
** steps per second (optlab.h: Pacing).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "method.h"
#include "optlab.h"
#include "model.h"
#include "screen.h"

/* The one key table.  A key listed twice (q) does different things in
** the view and the dashboard; entries without help are covered by the
** line of their pair (- by +, < and 1 by >, Shift-Tab by Tab, PgDn by
** PgUp, ] by [, * / and f by p), so the help overlay stays short (a
** dashboard at 80 x 24 has 17 rows for it). */
const vm_key vm_keys[] = {
  {{'q', 'Q', 3, 0}, "q, Ctrl-C", VA_QUIT, VM_VIEW,
   "stop the experiment", "q stop"},
  {{'q', 'Q', 3, 0}, "q, Ctrl-C", VA_QUIT, VM_DASH,
   "stop the selected job (every job when none is)", "q stop"},
  {{' ', 0}, "space", VA_PAUSE, VM_BOTH, "pause / resume", "space pause"},
  {{'n', 0}, "n", VA_STEP, VM_BOTH, "one step (pauses first)", "n step"},
  {{'+', '=', 0}, "+ / -", VA_FASTER, VM_BOTH,
   "faster / slower: ten times / a tenth the steps per second",
   "+/- speed"},
  {{'-', '_', 0}, "-", VA_SLOWER, VM_BOTH, NULL, NULL},
  {{'>', '.', 0}, "> / <  1", VA_DOUBLE, VM_BOTH,
   "twice / half the steps per second (0.25/s at least); 1: 1/s",
   "<> pace"},
  {{'<', ',', 0}, "<", VA_HALF, VM_BOTH, NULL, NULL},
  {{'1', 0}, "1", VA_ONE, VM_BOTH, NULL, NULL},
  {{'l', 'L', 0}, "l", VA_LOG, VM_BOTH,
   "log / linear y axis of the focused panel", "l log"},
  {{'x', 'X', 0}, "x", VA_XLOG, VM_BOTH,
   "log / linear x axis of the focused panel", "x logx"},
  {{'\t', 0}, "Tab", VA_NEXT, VM_BOTH,
   "focus the next panel (Shift-Tab: back)", "Tab focus"},
  {{KEY_BTAB, 0}, "Shift-Tab", VA_PREV, VM_BOTH, NULL, NULL},
  {{'z', 'Z', 0}, "z", VA_ZOOM, VM_BOTH,
   "zoom the focused panel / restore", "z zoom"},
  {{'w', 'W', 0}, "w", VA_FREEZE, VM_BOTH,
   "freeze / free the landscape's window", NULL},
  {{'[', 0}, "[ / ]", VA_SELPREV, VM_DASH,
   "select the previous / next job (or all): keys act on it", "[ ] job"},
  {{']', 0}, "]", VA_SELNEXT, VM_DASH, NULL, NULL},
  {{KEY_PPAGE, 0}, "PgUp/PgDn", VA_PGUP, VM_DASH,
   "scroll the output window back / forward", NULL},
  {{KEY_NPAGE, 0}, "PgDn", VA_PGDN, VM_DASH, NULL, NULL},
  {{'p', 'P', 0}, "p * / f", VA_PARAM, VM_BOTH,
   "tune a live parameter: p next one, * / by the factor, f factor",
   "p */ f tune"},
  {{'*', 0}, "*", VA_MUL, VM_BOTH, NULL, NULL},
  {{'/', 0}, "/", VA_DIV, VM_BOTH, NULL, NULL},
  {{'f', 'F', 0}, "f", VA_FACTOR, VM_BOTH, NULL, NULL},
  {{'?', 'h', 0}, "?", VA_HELP, VM_BOTH, "this help (any key closes it)",
   "? help"},
  {{27, 0}, "Ctrl-G, Esc", VA_PROMPT, VM_DASH,
   "back to the prompt (typed text kept)", "^G prompt"},
  {{0}, NULL, VA_NONE, 0, NULL, NULL}
};

int vm_lookup (int where, int c)
{
  const vm_key *k;
  int i;
  for (k = vm_keys; k->action != VA_NONE; k++)
    if (k->where & where)
      for (i = 0; i < 4 && k->codes[i] != 0; i++)
        if (k->codes[i] == c) return k->action;
  return VA_NONE;
}

/* -- speed ---------------------------------------------------------------- */

/* The speed rules, in steps per second.  + and - go a decade a press,
** between powers of ten; > and < double and halve.  Slower never goes
** below OLUA_SPEED_MIN; from full speed slower starts below what fits
** (fit, measured); faster past what fits is full speed. */
static double vm_faster (double speed, double fit)
{
  double s = 1;
  if (speed >= OLUA_SPEED_MAX) return OLUA_SPEED_MAX;
  while (s <= speed && s < OLUA_SPEED_MAX) s *= 10;
  return s >= fit || s >= OLUA_SPEED_MAX ? OLUA_SPEED_MAX : s;
}

static double vm_slower (double speed, double fit)
{
  double s = 1;
  if (speed >= OLUA_SPEED_MAX) {
    while (s * 20 <= fit) s *= 10;
    return s;
  }
  if (speed <= 1) return OLUA_SPEED_MIN;
  while (s * 10 < speed) s *= 10;
  return s;
}

static double vm_double (double speed, double fit)
{
  if (speed >= OLUA_SPEED_MAX || speed * 2 >= fit) return OLUA_SPEED_MAX;
  return speed * 2;
}

static double vm_half (double speed, double fit)
{
  double s = 1;
  if (speed >= OLUA_SPEED_MAX) {
    while (s * 4 <= fit) s *= 2;
    return s;
  }
  return speed / 2 > OLUA_SPEED_MIN ? speed / 2 : OLUA_SPEED_MIN;
}

const char *vm_speedstr (double speed, char *buf, size_t size)
{
  if (speed >= OLUA_SPEED_MAX) snprintf(buf, size, "max");
  else if (speed >= 1e9) snprintf(buf, size, "%.3gG/s", speed / 1e9);
  else if (speed >= 1e6) snprintf(buf, size, "%.3gM/s", speed / 1e6);
  else if (speed >= 1e4) snprintf(buf, size, "%.3gk/s", speed / 1e3);
  else if (speed == floor(speed))
    snprintf(buf, size, "%.0f/s", speed);
  else snprintf(buf, size, "%.3g/s", speed);
  return buf;
}

/* -- the model ------------------------------------------------------------ */

void vm_init (vm_model *m, int where, double speed, long budget,
              int paused)
{
  memset(m, 0, sizeof *m);
  m->where = where;
  m->speed = olua_pace_speed(speed, budget);
  m->paused = paused != 0;
  m->fit = 1024.0 * OLUA_FPS;
  m->tparam = -1;
  m->tfactor = 1;
}

void vm_panels (vm_model *m, const int *metrics, int n, int autokind)
{
  int want[VM_MAXPANELS], nw = 0, i, k, same, fm;
  dr_panel old[VM_MAXPANELS];
  for (i = 0; i < n && nw < VM_MAXPANELS; i++) {
    if (metrics[i] < 0 || metrics[i] >= PN_NKINDS) continue;
    for (k = 0; k < nw && want[k] != metrics[i]; k++) {}
    if (k == nw) want[nw++] = metrics[i];
    if (metrics[i] >= OL_NMETRICS) autokind = -1;
  }
  if (autokind >= 0 && nw < VM_MAXPANELS) want[nw++] = autokind;
  same = nw == m->npanels;
  for (i = 0; same && i < nw; i++) same = m->panels[i].metric == want[i];
  if (same) return;
  fm = m->npanels > 0 ? m->panels[m->focus].metric : -1;
  memcpy(old, m->panels, sizeof old);
  m->focus = 0;
  for (i = 0; i < nw; i++) {
    for (k = 0; k < m->npanels && old[k].metric != want[i]; k++) {}
    if (k < m->npanels) m->panels[i] = old[k];
    else dr_panel_init(&m->panels[i], want[i]);
    if (want[i] == fm) m->focus = i;
  }
  m->npanels = nw;
}

int vm_apply (vm_model *m, int a)
{
  dr_panel *p = m->npanels > 0 ? &m->panels[m->focus] : NULL;
  if (m->help) {
    m->help = 0;
    return a == VA_QUIT ? VA_QUIT : VA_NONE;
  }
  switch (a) {
  case VA_PAUSE: m->paused = !m->paused; break;
  case VA_STEP: m->paused = 1; m->step = 1; break;
  case VA_FASTER: m->speed = vm_faster(m->speed, m->fit); break;
  case VA_SLOWER: m->speed = vm_slower(m->speed, m->fit); break;
  case VA_DOUBLE: m->speed = vm_double(m->speed, m->fit); break;
  case VA_HALF: m->speed = vm_half(m->speed, m->fit); break;
  case VA_ONE: m->speed = 1; break;
  case VA_LOG:
    if (p != NULL) p->ymode = p->shown_log ? DR_LIN : DR_LOG;
    break;
  case VA_XLOG:
    if (p != NULL) dr_panel_toggle_xlog(p);
    break;
  case VA_NEXT:
    if (m->npanels > 0) m->focus = (m->focus + 1) % m->npanels;
    break;
  case VA_PREV:
    if (m->npanels > 0) m->focus = (m->focus + m->npanels - 1) % m->npanels;
    break;
  case VA_ZOOM: m->zoom = !m->zoom; break;
  case VA_FREEZE: {
    int i;
    for (i = 0; i < m->npanels; i++) dr_panel_toggle_freeze(&m->panels[i]);
    break;
  }
  case VA_HELP: m->help = 1; break;
  default: break;
  }
  return a;
}

/* -- live tuning ---------------------------------------------------------- */

static const double factors[] = {1.1, 2, 10};
#define NFACTORS ((int)(sizeof factors / sizeof factors[0]))

static int is_live (const ol_method_type *mt, int k)
{
  return k >= 0 && k < mt->nparams && k < 32
    && (mt->params_live & OL_LIVE(k)) != 0;
}

/* The first live parameter of mt at or after k (cyclically), -1 when it
** has none. */
static int live_from (const ol_method_type *mt, int k)
{
  int i, np = mt->nparams < 32 ? mt->nparams : 32;
  for (i = 0; i < np; i++)
    if (is_live(mt, (k + i) % np)) return (k + i) % np;
  return -1;
}

/* The reference run (see model.h), -1 when no method has a live
** parameter. */
static int ref_run (ol_run *const *runs, int n)
{
  int k;
  for (k = 0; k < n; k++)
    if (live_from(ol_run_method(runs[k]), 0) >= 0) return k;
  return -1;
}

/* The selected parameter of the reference run's method, -1 when none. */
static int sel_param (const vm_model *m, const ol_method_type *mt)
{
  return is_live(mt, m->tparam) ? m->tparam : live_from(mt, 0);
}

/* Index in run r's method of a live parameter named name, else -1. */
static int live_named (const ol_run *r, const char *name)
{
  const ol_method_type *mt = ol_run_method(r);
  int k = ol_param_find(mt->params, mt->nparams, name);
  return is_live(mt, k) ? k : -1;
}

/* run r's value of its parameter k times (a VA_MUL) or over f; an integer
** parameter is rounded and moves by at least one. */
static double scaled (const ol_run *r, int k, int a, double f)
{
  const ol_param *pd = &ol_run_method(r)->params[k];
  double v = ol_run_params(r)[k], w = a == VA_MUL ? v * f : v / f;
  if (pd->kind == OL_P_INT) {
    w = round(w);
    if (w == v) w = a == VA_MUL ? v + 1 : v - 1;
  }
  return w;
}

void vm_tune (vm_model *m, int a, ol_run *const *runs, int n)
{
  const ol_method_type *mt;
  const char *name;
  ol_err e;
  int rk = ref_run(runs, n), k, j, pass, nset = 0;
  if (a != VA_PARAM && a != VA_MUL && a != VA_DIV && a != VA_FACTOR) return;
  m->tmsg[0] = '\0';
  if (a == VA_FACTOR) {
    m->tfactor = (m->tfactor + 1) % NFACTORS;
    return;
  }
  if (rk < 0) return;              /* vm_tunestr says why */
  mt = ol_run_method(runs[rk]);
  k = sel_param(m, mt);
  if (a == VA_PARAM) {
    m->tparam = live_from(mt, k + 1);
    return;
  }
  m->tparam = k;
  name = mt->params[k].name;
  if (ol_run_params(runs[rk])[k] == 0) {
    snprintf(m->tmsg, sizeof m->tmsg, "%s = 0: a factor cannot move it",
             name);
    return;
  }
  /* pass 0 checks every run, pass 1 changes them: all or none */
  for (pass = 0; pass < 2; pass++)
    for (j = 0; j < n; j++) {
      int kj = live_named(runs[j], name);
      double v;
      if (kj < 0 || ol_run_reason(runs[j]) != OL_STOP_NONE) continue;
      v = scaled(runs[j], kj, a, factors[m->tfactor]);
      if (pass == 0 && ol_run_busy(runs[j])) {
        snprintf(m->tmsg, sizeof m->tmsg, "%s: the run is inside its own "
                 "step; try again", name);
        return;
      }
      if (pass == 0 && !isfinite(v)) {
        snprintf(m->tmsg, sizeof m->tmsg, "refused: %s = %g is not finite",
                 name, v);
        return;
      }
      if (pass == 0
          && ol_param_check(&ol_run_method(runs[j])->params[kj], v, &e)
          != OL_OK) {
        snprintf(m->tmsg, sizeof m->tmsg, "refused: %.140s", e.msg);
        return;
      }
      if (pass == 1 && ol_run_set(runs[j], kj, v, &e) != OL_OK) {
        snprintf(m->tmsg, sizeof m->tmsg, "refused: %.140s", e.msg);
        return;
      }
      nset += pass == 1;
    }
  if (nset == 0)
    snprintf(m->tmsg, sizeof m->tmsg, "%s: every run has stopped", name);
}

const char *vm_tunestr (const vm_model *m, ol_run *const *runs, int n,
                        char *buf, size_t size)
{
  const ol_method_type *mt;
  char v[32], f[16], live[96] = "", runsn[24] = "";
  int rk = ref_run(runs, n), k, j, nr = 0, nlive = 0;
  size_t len = 0;
  if (m->tmsg[0] != '\0') {
    snprintf(buf, size, "%s", m->tmsg);
    return buf;
  }
  if (rk < 0) {
    if (n == 0) snprintf(buf, size, "no runs to tune");
    else
      snprintf(buf, size, "%s: no live parameters",
               ol_run_method(runs[0])->name);
    return buf;
  }
  mt = ol_run_method(runs[rk]);
  k = sel_param(m, mt);
  for (j = 0; j < n; j++)
    nr += live_named(runs[j], mt->params[k].name) >= 0
      && ol_run_reason(runs[j]) == OL_STOP_NONE;
  ol_fmtnum(v, sizeof v, ol_run_params(runs[rk])[k], 4);
  ol_fmtnum(f, sizeof f, factors[m->tfactor], 3);
  /* several live parameters: which p cycles through */
  for (j = 0; j < mt->nparams && j < 32 && len + 1 < sizeof live; j++)
    if (is_live(mt, j)) {
      len += (size_t)snprintf(live + len, sizeof live - len, "%s%s",
                              nlive > 0 ? ", " : "", mt->params[j].name);
      nlive++;
    }
  if (nr > 1) snprintf(runsn, sizeof runsn, " (%d runs)", nr);
  if (nlive > 1)
    snprintf(buf, size, "%s=%s x%s%s  %s: %s live", mt->params[k].name, v,
             f, runsn, mt->name, live);
  else snprintf(buf, size, "%s=%s x%s%s", mt->params[k].name, v, f, runsn);
  return buf;
}

/* -- text from the table, and the header ---------------------------------- */

const char *vm_keyline (int where, char *buf, size_t size)
{
  const vm_key *k;
  size_t len = 0;
  buf[0] = '\0';
  for (k = vm_keys; k->action != VA_NONE && len + 1 < size; k++)
    if ((k->where & where) && k->brief != NULL)
      len += (size_t)snprintf(buf + len, size - len, "%s%s",
                              len > 0 ? "  " : "", k->brief);
  return buf;
}

/* keys fitted into room columns by whole entries (separated by two
** spaces): the first ones that fit and the last one ("? help"), in buf;
** cut at the edge only when even the first and the last do not fit. */
static const char *fit_keys (const char *keys, int room, char *buf,
                             size_t size)
{
  const char *last = NULL, *p;
  int len = 0, lastw;
  if (room < 0) room = 0;
  if ((int)strlen(keys) <= room) return keys;
  for (p = strstr(keys, "  "); p != NULL; p = strstr(p + 2, "  "))
    last = p;
  if (last == NULL) return keys;
  while (*last == ' ') last++;
  lastw = (int)strlen(last);
  buf[0] = '\0';
  for (p = keys; p < last;) {
    const char *e = strstr(p, "  ");
    int w = (int)(e - p);
    if (len + (len > 0 ? 2 : 0) + w + 2 + lastw > room) break;
    len += snprintf(buf + len, size - (size_t)len, "%s%.*s",
                    len > 0 ? "  " : "", w, p);
    for (p = e; *p == ' '; p++) {}
  }
  if (len == 0) return keys;
  snprintf(buf + len, size - (size_t)len, "  %s", last);
  return buf;
}

void vm_draw_status (int row, int cols, const char *keys, const char *tune,
                     int role, int attr)
{
  char t[192], k[512];
  int len = 0, x;
  screen_blank(row, 0, cols, role, attr);
  /* (1) the tuning field, its trailing groups ("  adam: lr, eps live")
  ** dropped while it leaves the keys less than "q stop  ? help" */
  if (tune != NULL && tune[0] != '\0') {
    char *cut;
    len = snprintf(t, sizeof t, "  %s ", tune);
    if (len >= (int)sizeof t) len = (int)sizeof t - 1;
    while (len > cols - 1 - 14 && (cut = strstr(t + 2, "  ")) != NULL) {
      char *c2;
      while ((c2 = strstr(cut + 2, "  ")) != NULL) cut = c2;
      strcpy(cut, " ");
      len = (int)strlen(t);
    }
  }
  /* (2) the keys, by whole entries, in what the tuning field leaves */
  screen_puts(row, 0, fit_keys(keys, cols - 1 - len, k, sizeof k),
              cols - 1 - len > 0 ? cols - 1 - len : cols - 1, role, attr);
  if (len == 0) return;
  x = cols - 1 - len > 0 ? cols - 1 - len : 0;
  screen_puts(row, x, t, cols - 1 - x, role, attr | SA_BOLD);
}

static void help_box (int y, int x, int h, int w)
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

void vm_draw_help (int where, int rows, int cols)
{
  char lines[24][96];
  const vm_key *k;
  int n = 0, w = 0, h, i, y, x;
  snprintf(lines[n++], sizeof lines[0], "%s", where == VM_DASH
           ? "dashboard keys (Ctrl-G at the prompt)" : "keys");
  lines[n++][0] = '\0';
  for (k = vm_keys; k->action != VA_NONE && n < 24; k++)
    if ((k->where & where) && k->help != NULL)
      snprintf(lines[n++], sizeof lines[0], "%-11s %s", k->name, k->help);
  for (i = 0; i < n; i++)
    if ((int)strlen(lines[i]) > w) w = (int)strlen(lines[i]);
  w += 4;
  if (w > cols) w = cols;
  h = n + 2 < rows ? n + 2 : rows;
  y = (rows - h) / 2;
  x = (cols - w) / 2;
  if (h < 3 || w < 5) return;
  help_box(y, x, h, w);
  for (i = 0; i < h - 2; i++)
    screen_puts(y + 1 + i, x + 2, lines[i], w - 4, i == 0 ? SC_TITLE : 0,
                i == 0 ? SA_BOLD : 0);
}

void vm_draw_header (int cols, const char *name, const char *title,
                     long iter, long iters, const char *state,
                     const char *speed)
{
  /* fields in order; drop[] gives the order in which they go (-1: the
  ** problem's description loses its parenthesised note first) */
  char f[6][200];
  int keep[6], i, k, len;
  static const int drop[] = {0, -1, 2, 5, 4, 1};
  char left[512], right[256];
  snprintf(f[0], sizeof f[0], "optlab");
  snprintf(f[1], sizeof f[1], "%s", name != NULL ? name : "");
  snprintf(f[2], sizeof f[2], "%s", title != NULL ? title : "");
  snprintf(f[3], sizeof f[3], "iter %ld/%ld", iter, iters);
  snprintf(f[4], sizeof f[4], "%s", state != NULL ? state : "");
  snprintf(f[5], sizeof f[5], "speed %s", speed != NULL ? speed : "");
  for (i = 0; i < 6; i++) keep[i] = f[i][0] != '\0';
  for (k = 0;; k++) {
    int ll = 0, rl = 0;
    left[0] = right[0] = '\0';
    for (i = 0; i < 3; i++)
      if (keep[i])
        ll += snprintf(left + ll, sizeof left - (size_t)ll, "%s%s",
                       ll > 0 ? "  " : " ", f[i]);
    for (i = 3; i < 6; i++)
      if (keep[i])
        rl += snprintf(right + rl, sizeof right - (size_t)rl, " %s ",
                       f[i]);
    len = ll + 1 + rl;
    if (len <= cols || k == (int)(sizeof drop / sizeof drop[0])) break;
    if (drop[k] >= 0) keep[drop[k]] = 0;
    else if (strstr(f[2], " (") != NULL) *strstr(f[2], " (") = '\0';
  }
  screen_blank(0, 0, cols, SC_STATUS, SA_REVERSE);
  screen_puts(0, 0, left, cols, SC_STATUS, SA_REVERSE | SA_BOLD);
  len = (int)strlen(right);
  screen_puts(0, cols - len > 0 ? cols - len : 0, right, cols, SC_STATUS,
              SA_REVERSE);
}
