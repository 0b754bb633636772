/*
** repl/model.h -- the one view model of the live displays: speed, pause,
** step, panel focus and zoom, help, and the one key -> action table.
**
** Two front ends render a vm_model: the full-screen view of run and race
** (view.c) and the dashboard above the prompt (dash.c).  Both look keys
** up in vm_keys (vm_lookup) and change the model only through vm_apply;
** the help overlay (vm_draw_help) and the status line's key summary
** (vm_keyline) are generated from the table, and the header line
** (vm_draw_header) drops whole fields when it does not fit.  Adding a key
** is one line of vm_keys and one case of vm_apply.  The dashboard maps
** the actions that concern jobs (pause, step, stop, speed) onto them.
** The tuning keys (p, *, /, f) change the runs' live parameters: both
** front ends hand them to vm_tune with the runs they act on (the view:
** every run of the experiment; the dashboard: the selected job's, else
** every job's) and show vm_tunestr at the right of their status line
** (vm_draw_status).
*/
#ifndef REPL_MODEL_H
#define REPL_MODEL_H

#include <stddef.h>

#include "draw.h"

/* Where a key works. */
enum { VM_VIEW = 1, VM_DASH = 2, VM_BOTH = 3 };

/* Actions. */
enum {
  VA_NONE, VA_QUIT, VA_PAUSE, VA_STEP, VA_FASTER, VA_SLOWER, VA_ONE,
  VA_LOG, VA_XLOG, VA_NEXT, VA_PREV, VA_ZOOM, VA_HELP, VA_SELNEXT,
  VA_SELPREV, VA_PGUP, VA_PGDN, VA_PROMPT, VA_PARAM, VA_MUL, VA_DIV,
  VA_FACTOR, VA_HALF, VA_DOUBLE, VA_FREEZE
};

typedef struct vm_key {
  int codes[4];          /* key codes (curses KEY_* or bytes), 0-ended */
  const char *name;      /* as the help shows it: "space", "+" */
  int action;
  int where;             /* VM_VIEW, VM_DASH or both */
  const char *help;      /* the help overlay's line */
  const char *brief;     /* the status line's entry, or NULL */
} vm_key;

extern const vm_key vm_keys[];   /* ended by an entry with action 0 */

#define VM_MAXPANELS (OL_NMETRICS + 1)

typedef struct vm_model {
  int where;             /* VM_VIEW or VM_DASH */
  int paused;
  int step;              /* one step asked for (n) */
  int help, zoom, focus;
  double speed;          /* steps per second, or OLUA_SPEED_MAX */
  double fit;            /* steps per second measured at full speed */
  int npanels;
  dr_panel panels[VM_MAXPANELS];
  int tparam;            /* tuning: the selected parameter, an index into
                            the reference run's method's params (-1: its
                            first live one) */
  int tfactor;           /* tuning: index into the factors (1.1, 2, 10) */
  char tmsg[160];        /* tuning: the last refusal, shown until the
                            next tuning key ("" when none) */
} vm_model;

/* A fresh model: speed and paused as the experiment asks (the pacing
** rule of optlab.h resolved with its budget), no panels. */
void vm_init (vm_model *m, int where, double speed, long budget,
              int paused);
/* The panels: metrics[0..n-1] in order, then the landscape or simplex
** panel autokind (>= 0) unless a metric already is one; a panel kept from
** before keeps its display state, and the focus stays on its panel. */
void vm_panels (vm_model *m, const int *metrics, int n, int autokind);
/* The action of key c where (VA_NONE when unbound). */
int vm_lookup (int where, int c);
/* Apply action a to the model; a key while the help is shown only closes
** it (returns VA_NONE then).  Returns the action applied. */
int vm_apply (vm_model *m, int a);
/* Live tuning (p, *, /, f: VA_PARAM, VA_MUL, VA_DIV, VA_FACTOR) of the
** runs[0 .. n-1] a key acts on.  The reference run is the first whose
** method has a live parameter (method.h: params_live); p cycles the
** selected parameter through its live ones, f the factor through 1.1, 2,
** 10, and * and / multiply or divide the selected parameter by it in
** every run not stopped whose method has a live parameter of that name
** (each run its own value: a race of gd lr=0.1 and gd lr=0.01 keeps its
** ratio), through ol_run_set, so each change is logged at its iteration.
** A value out of a run's range, or not finite (lr's range ends at inf),
** is refused for all of them, with the message (naming the range) in
** m->tmsg; so is a run inside its own step (ol_run_busy), and m->tmsg
** says so when every run it would change has stopped.  Other actions:
** nothing. */
void vm_tune (vm_model *m, int a, ol_run *const *runs, int n);
/* The tuning field of the status line into buf: "lr=0.05 x2", with the
** number of runs changed when more than one ("lr=0.05 x2 (3 runs)") and
** the method's live parameters when it has several ("lr=0.05 x2  adam:
** lr, eps live"); the last refusal instead when there is one, or why
** nothing can be tuned ("lbfgs: no live parameters"). */
const char *vm_tunestr (const vm_model *m, ol_run *const *runs, int n,
                        char *buf, size_t size);

/* "max", "690/s", "0.25/s" or, from 10^4 on, "33.3k/s" and "333M/s", in buf. */
const char *vm_speedstr (double speed, char *buf, size_t size);

/* The header on row 0: name (may be NULL), the problem, "iter a/b",
** state, "speed s"; fields are dropped whole, least needed first, so
** nothing is cut mid-word. */
void vm_draw_header (int cols, const char *name, const char *title,
                     long iter, long iters, const char *state,
                     const char *speed);
/* The key summary of where ("q stop  space pause ..."), in buf. */
const char *vm_keyline (int where, char *buf, size_t size);
/* The status line on row: the key summary keys from the left, the
** tuning field tune (vm_tunestr, may be NULL) at the right end.  When the
** row is short the summary keeps its first entries that fit and its last
** one ("? help"), whole, and the tuning field drops its trailing groups
** ("  adam: lr, eps live"), so nothing is cut mid-word at 80 columns. */
void vm_draw_status (int row, int cols, const char *keys, const char *tune,
                     int role, int attr);
/* The help overlay of where, centred on rows x cols. */
void vm_draw_help (int where, int rows, int cols);

#endif
