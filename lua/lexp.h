/*
** lua/lexp.h -- the one experiment: N runs stepped in lock-step, with
** their labels and watch list, one slice-adaptation rule, interrupt and
** halt (lua/lexp.c).
**
** run and race (lua/lrun.c) drive an experiment to the end in the
** foreground (olua_exp_drive); start (lua/ljob.c) registers one as a
** background job that the program steps between keystrokes.  Both step
** it only through olua_exp_slice, so there is one stepping loop and one
** pacing rule (olua_pace_speed in optlab.h).
*/
#ifndef LEXP_H
#define LEXP_H

#include "lbind.h"

/* An experiment.  boxes, runs and labels are nruns long and owned by the
** caller (anchored on the Lua stack or by a job box) for the experiment's
** life; nothing here allocates or raises. */
typedef struct olua_exp {
  int nruns;
  lrun **boxes;          /* the run boxes; a callback may close one */
  ol_run **runs;         /* boxes[i]->r, refreshed by olua_exp_live */
  olua_live live;        /* what a view is shown (runs, labels, watch) */
  long slice;            /* steps per slice, adapted by time, >= 1 */
  int *busy;             /* bumped around each advance (may be NULL) */
  double t0;             /* clock at the first step, 0 before */
} olua_exp;

/* Fill x for the runs of boxes (runs and labels: caller-owned arrays of
** nruns entries, labels already filled); the watch list and x axis are the
** first run's.  speed (OLUA_SPEED_* or steps per second) and paused are
** what a view opens with. */
void olua_exp_init (olua_exp *x, lrun **boxes, ol_run **runs,
                    const char **labels, int nruns, const char *title,
                    double speed, int paused);
/* Refresh x->runs from the boxes; the number of runs still stepping, 0
** when a run box was closed (the experiment is over). */
int olua_exp_live (olua_exp *x);
/* Stop every run not stopped yet with reason (OL_STOP_*). */
void olua_exp_halt (olua_exp *x, int reason);
/* One slice: up to min(x->slice, cap) lock-step steps, in chunks of an
** eighth, reading the clock and *intr (may be NULL) between chunks and
** stopping early once target seconds passed or the flag is set; then the
** slice adapts (the one rule: doubled while a full slice takes under a
** quarter of target, cut in proportion when it takes longer, so slow
** steps go one at a time).  Returns the steps taken. */
long olua_exp_slice (olua_exp *x, long cap, double target,
                     volatile sig_atomic_t *intr);
/* After stepping stopped: runs whose callback failed because of Ctrl-C
** (the flag still set, or "interrupted!" in the message) are marked
** interrupted; seen says the caller halted for the flag.  The flag is
** cleared only when it was acted on, so a Ctrl-C that came as the runs
** ended by themselves reaches the calling Lua code.  Returns 1 when the
** flag was acted on. */
int olua_exp_settle (olua_exp *x, volatile sig_atomic_t *intr, int seen);

/* The options of run, race and start that set the pacing: speed (steps
** per second, a number in [OLUA_SPEED_MIN, 1e12], or "max") and paused;
** read from the options table at idx (none/nil: the defaults,
** OLUA_SPEED_AUTO and 0). */
void olua_readpace (lua_State *L, int idx, const char *who, double *speed,
                    int *paused);

/* olua_drive with the pacing given (olua_drive uses the defaults); the
** same return. */
int olua_exp_drive (lua_State *L, lrun **boxes, int nruns,
                    const char *title, int useview, int progress,
                    double speed, int paused);

/* The last frame kept on the terminal (view = "keep", after the view
** closed): the run, race or chain set at idx plotted as its plot method
** prints it, sized to the terminal the view used (the rows left by the
** summary shared among the panels, 8 to 16 each), then its summary as
** print shows it.  Nothing raises: a plot that fails is left out. */
void olua_keepframe (lua_State *L, int idx);

/* Reporting of the foreground driver (lua/lrun.c): a progress line on
** stderr (no view, opts.progress), and after stepping the notes on a run
** that failed or mixes badly. */
void olua_progressline (const char *label, const lrun *b);
void olua_failnote (const char *label, const lrun *b);

#endif
