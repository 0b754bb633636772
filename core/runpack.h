/*
** core/runpack.h -- a run's results as bytes: what a finished run
** recorded, packed so that it can travel between processes (MPI ranks)
** or through files (scheduler task slices), and restored into a fresh
** run of the same problem, method and options.
**
** Packed (ol_run_pack): the counters (iterations, evaluations, accepted proposals),
** the stop reason and message, the stepping seconds, x and the average
** iterate, the whole recorded history (times, evaluations, seconds, every
** recorded metric, the trajectory), the smallest value of each metric,
** the kept draws of a sampler, the history-dependent metric memory and
** the log of live parameter changes (ol_run_changes).
** Not packed: the method's own state (its moments, a variational mean
** or a sampler's adaptation), so a restored run reads like the original
** (series, csv, draws, summaries) but is not to be continued.
** The bytes are in the machine's own byte order and sizes: every process
** of a job runs the same build on the same architecture.
*/
#ifndef OL_RUNPACK_H
#define OL_RUNPACK_H

#include <stddef.h>

#include "run.h"

/* The packed results of r: a malloc'd buffer of *len bytes that the
** caller frees; NULL with e set (OL_ENOMEM) on failure. */
void *ol_run_pack (const ol_run *r, size_t *len, ol_err *e);
/* The summary of r (a worker rank's copy of a task's result under
** mpirun): what the script reads to decide what to do next, without the
** history.  The scalars, the message, x (and the average iterate), the
** smallest value of each recorded metric, the last history point (its
** time, counts and every recorded metric: r:last), the draws of a
** sampler and the change log: 200 bytes, 16 per variable, 16 per
** recorded metric, 8 per trajectory column, the message, 8 (7 + n) per
** kept draw and 20 per change, whatever the run's length.  Malloc'd,
** *len bytes; NULL with e set (OL_ENOMEM). */
void *ol_run_pack_summary (const ol_run *r, size_t *len, ol_err *e);
/* The length of ol_run_pack's bytes for r, without making them. */
size_t ol_run_packed_size (const ol_run *r);
/* 1 when buf[0, len) is a summary (as ol_run_pack_summary makes), 0
** otherwise (a packed run, or neither). */
int ol_run_packed_summary (const void *buf, size_t len);
/* Restore into r (made by ol_run_new with the problem, method and options
** of the packed run, not stepped) the results packed in buf[0, len).
** OL_EINVAL with e set (naming the field and its range) when the bytes
** are not a packed run of r's shape (dimension, recorded metrics) or hold
** a value no run made like r can hold (runpack.c lists the checks);
** OL_ENOMEM when the history cannot grow.
** Either form: restored from a summary, r is remote (ol_run_remote): its
** one history point is the last, and it cannot be continued.
** On failure r is left as it was or with a partial history. */
int ol_run_unpack (ol_run *r, const void *buf, size_t len, ol_err *e);

/* The run shell r (ol_run_shell) stands for: made with r's problem,
** method, parameters and options (evaluated and initialised as any run),
** its results r's (packed and restored), so that it continues as a run
** restored without a shell would.  NULL with e set on failure. */
ol_run *ol_run_unshell (const ol_run *r, ol_err *e);

/* The quantile bands q[0..nq) of n finished runs src (same problem,
** method and recorded metrics; n >= 1) into dst[0..nq), fresh runs of
** them that record no trajectory: each band takes the time axis of the
** src with the most history points and, at each of its times t and for
** every recorded metric, the type-7 quantile (order statistics,
** h = (m - 1) q, linearly interpolated) of the m finite values the runs
** hold at t (each run's last record at or before t; a run whose first
** record is after t, or that holds NaN or an infinity there, is left
** out; no finite value gives NaN).  Its counters, reason and x are that
** template's.  For drawing (the live view of a repeats): a band's
** per-step memory is not the quantile's, and it is not to be stepped.
** OL_EINVAL when the runs do not match or a q is outside [0, 1],
** OL_ENOMEM. */
int ol_run_band (ol_run *const *dst, const double *q, int nq,
                 ol_run *const *src, int n, ol_err *e);

#endif
