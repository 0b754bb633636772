/*
** tests/c/t_summary.c -- a run's summary (core/runpack.c:
** ol_run_pack_summary), what the ranks other than 0 keep of each task
** under mpirun (issue 25).
**
** Truth: the run itself.  A summary restored into a fresh run of the same
** problem, method and options holds, bit for bit, the original's
** counters, stop reason and message, x and average iterate, the last
** value and the smallest value of every recorded metric, the time and
** counts of its last record and the last row of its trajectory, the
** draws of a sampler and the change log; its history is that one point
** and it is remote (ol_run_remote), which refuses ol_run_extend.  Its
** size is independent of the run's length: 8 (n + 40) + 16 m bytes plus
** the message (m metrics recorded), within a few words.  Every proper
** prefix of a summary, and a summary with a byte more, is refused with
** OL_EINVAL, as is one whose message length is out of range; a full
** packed run is not a summary and restores as before (not remote).
** Runs: gd lr = 0.05 on quadratic{n = 3} with Gaussian gradient noise
** sigma = 1 (seed 11), 5000 and 50 steps, record_x; NUTS on the 2-D
** Gaussian, 300 steps after 200 of warmup (seed 11).
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "runpack.h"
#include "tap.h"

#define SEED 11u
#define MET OL_MSET_OF(OL_MET_LOSS, OL_MET_GRADNORM)

static double lr = 0.05;      /* gd's step: 10 for the run that diverges */

/* n doubles equal bit for bit (NaN payloads and -0 included) */
static int samebits (const double *a, const double *b, int n)
{
  return n == 0 || memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

static ol_run *mkrun (const ol_problem *p, const char *method, long iters,
                      long warmup, int go)
{
  double par[16];
  const ol_method_type *m = warmup > 0
    ? olt_method(method, par, "warmup", (double)warmup, (char *)NULL)
    : olt_method(method, par, "lr", lr, (char *)NULL);
  ol_run_opts o = olt_opts(iters, 0, warmup > 0 ? OL_MSET_EMPTY : MET);
  o.seed = SEED;
  o.record_x = warmup == 0;
  if (warmup > 0) {
    o.warmup = warmup;
    o.draws = 1000L * (OL_DRAW_COLS + 2);
  }
  return go ? olt_go(p, m, par, &o) : olt_run(p, m, par, &o);
}

/* A summary of r restored into a fresh run like it: checked against r. */
static void restored (const ol_problem *p, const ol_run *r,
                      const char *method, long warmup, const char *what)
{
  size_t len, flen;
  ol_err e;
  void *buf = ol_run_pack_summary(r, &len, &e);
  void *full = ol_run_pack(r, &flen, &e);
  ol_run *q = mkrun(p, method, ol_run_budget(r), warmup, 0);
  int n = ol_run_n(r), k, same = 1, dim = 0, qdim = 0, last;
  long rows, qrows, thin, qthin;
  const double *d, *qd;
  if (!ok(buf != NULL && full != NULL && q != NULL, "%s: packed (summary "
          "%zu bytes, full %zu)", what, len, flen)) {
    free(buf);
    free(full);
    ol_run_free(q);
    return;
  }
  ok(ol_run_packed_summary(buf, len) && !ol_run_packed_summary(full, flen),
     "%s: the summary is told from a full packed run", what);
  ol_err_clear(&e);
  if (!ok(ol_run_unpack(q, buf, len, &e) == OL_OK, "%s: the summary "
          "restores%s%s", what, e.msg[0] ? ": " : "", e.msg)) {
    free(buf);
    free(full);
    ol_run_free(q);
    return;
  }
  last = ol_run_len(r) - 1;
  ok(ol_run_remote(q) && !ol_run_remote(r) && ol_run_len(q) == 1 &&
     ol_run_times(q)[0] == ol_run_times(r)[last] &&
     ol_run_evals(q)[0] == ol_run_evals(r)[last],
     "%s: remote, one history point: the last (time %ld, %g gradients)",
     what, ol_run_times(q)[0], ol_run_evals(q)[0]);
  ok(ol_run_iter(q) == ol_run_iter(r) && ol_run_reason(q) == ol_run_reason(r)
     && ol_run_nfev(q) == ol_run_nfev(r) && ol_run_ngev(q) == ol_run_ngev(r)
     && ol_run_nhev(q) == ol_run_nhev(r) &&
     strcmp(ol_run_message(q), ol_run_message(r)) == 0,
     "%s: iterations %ld, reason, message and counts (%ld, %ld, %ld) as the "
     "run's", what, ol_run_iter(q), ol_run_nfev(q), ol_run_ngev(q),
     ol_run_nhev(q));
  ok(samebits(ol_run_x(q), ol_run_x(r), n) &&
     (ol_run_xavg(r) == NULL ||
      samebits(ol_run_xavg(q), ol_run_xavg(r), n)),
     "%s: x (and the average iterate) bit for bit", what);
  for (k = 0; k < OL_NMETRICS; k++) {
    double a = ol_run_min(q, k), b = ol_run_min(r, k);
    if (!ol_mset_has(ol_run_metrics(r), k)) continue;
    if (!samebits(&a, &b, 1)) same = 0;
    a = ol_run_last(q, k);
    b = ol_run_last(r, k);
    if (!samebits(&a, &b, 1)) same = 0;
  }
  ok(same, "%s: the last and smallest value of each of its %d recorded "
     "metrics bit for bit", what, ol_mset_count(ol_run_metrics(r)));
  d = ol_run_traj(r, &dim);
  qd = ol_run_traj(q, &qdim);
  ok(d == NULL ? qd == NULL
     : qd != NULL && qdim == dim && samebits(qd, d + (size_t)last * dim, dim),
     "%s: the trajectory's last row%s", what, d == NULL ? " (none)" : "");
  d = ol_run_draws(r, &rows, &thin, NULL);
  qd = ol_run_draws(q, &qrows, &qthin, NULL);
  ok(qrows == rows && qthin == thin &&
     (rows == 0 || samebits(qd, d, (int)(rows * (OL_DRAW_COLS + n)))),
     "%s: %ld draws (thinning %ld) bit for bit", what, qrows, qthin);
  {
    int nchg;
    size_t want = 200 + 16 * (size_t)n
      + 16 * (size_t)ol_mset_count(ol_run_metrics(r)) + 8 * (size_t)dim
      + strlen(ol_run_message(r))
      + 8 * (size_t)rows * (size_t)(OL_DRAW_COLS + n);
    ol_run_changes(r, &nchg);
    want += 20 * (size_t)nchg;
    ok(len == want, "%s: %zu bytes, as documented (200 + 16 n + 16 m + 8 "
       "trajectory columns + the message + 8 (7 + n) a draw + 20 a change: "
       "%zu)", what, len, want);
  }
  ok(ol_run_extend(q, ol_run_iter(q) + 10, &e) == OL_EINVAL &&
     strstr(e.msg, "summary") != NULL, "%s: cannot be continued (%s)", what,
     e.msg);
  ol_run_free(q);
  /* the full bytes restore as before: not remote */
  q = mkrun(p, method, ol_run_budget(r), warmup, 0);
  k = q != NULL ? ol_run_unpack(q, full, flen, &e) : OL_ENOMEM;
  ok(k == OL_OK && !ol_run_remote(q) && ol_run_len(q) == ol_run_len(r),
     "%s: the full packed run restores whole (%d points), not remote", what,
     k == OL_OK ? ol_run_len(q) : -1);
  ol_run_free(q);
  free(buf);
  free(full);
}

/* Every proper prefix, one byte more, and a message length out of range:
** refused with OL_EINVAL. */
static void refused (const ol_problem *p, const ol_run *r)
{
  size_t len, i, at;
  ol_err e;
  unsigned char *buf = ol_run_pack_summary(r, &len, &e), *more;
  int bad = 0, mlen;
  ol_run *q;
  if (buf == NULL) return;
  for (i = 0; i < len; i++) {
    q = mkrun(p, "gd", ol_run_budget(r), 0, 0);
    if (ol_run_unpack(q, buf, i, &e) != OL_EINVAL) bad++;
    ol_run_free(q);
  }
  ok(bad == 0, "each of the %zu proper prefixes of a summary is refused "
     "(%d not)", len, bad);
  more = malloc(len + 1);
  memcpy(more, buf, len);
  more[len] = 0;
  q = mkrun(p, "gd", ol_run_budget(r), 0, 0);
  ok(ol_run_unpack(q, more, len + 1, &e) == OL_EINVAL, "a byte more is "
     "refused (%s)", e.msg);
  ol_run_free(q);
  /* the message length: the int just before the message's bytes (r
  ** diverged: its message names the limit) */
  mlen = (int)strlen(ol_run_message(r));
  for (at = 8; at + sizeof mlen + (size_t)mlen <= len; at++) {
    int v;
    memcpy(&v, buf + at, sizeof v);
    if (v == mlen && memcmp(buf + at + sizeof v, ol_run_message(r),
                            (size_t)mlen) == 0)
      break;
  }
  if (!ok(mlen > 0 && at + sizeof mlen + (size_t)mlen <= len, "the message "
          "(%d bytes) found %zu bytes in", mlen, at)) {
    free(more);
    free(buf);
    return;
  }
  {
    int big = OL_ERRMAX;
    memcpy(more, buf, len);
    memcpy(more + at, &big, sizeof big);
    q = mkrun(p, "gd", ol_run_budget(r), 0, 0);
    ok(ol_run_unpack(q, more, len, &e) == OL_EINVAL &&
       strstr(e.msg, "message length") != NULL, "a message length of %d is "
       "refused (%s)", big, e.msg);
    ol_run_free(q);
  }
  free(more);
  free(buf);
}

int main (void)
{
  ol_problem *p = olt_quadratic(3, 10, 1);
  ol_problem *g = olt_problem("gaussian", NULL, "n", 2.0, (char *)NULL);
  ol_run *r, *s;
  size_t l1, l2;
  ol_err e;
  void *b1, *b2;
  diag("seed %u", SEED);
  if (p == NULL || g == NULL) return done();
  p->noise.kind = OL_NOISE_GAUSS;
  p->noise.sigma = 1;
  r = mkrun(p, "gd", 5000, 0, 1);
  s = mkrun(p, "gd", 50, 0, 1);
  restored(p, r, "gd", 0, "gd, 5000 steps");
  restored(p, s, "gd", 0, "gd, 50 steps");
  /* the size: independent of the length, and as documented (man page,
  ** runpack.h): 200 bytes, 16 per variable (x and the average iterate),
  ** 16 per recorded metric, 8 per trajectory column, the message */
  b1 = ol_run_pack_summary(r, &l1, &e);
  b2 = ol_run_pack_summary(s, &l2, &e);
  {
    int dim = 0;
    size_t want;
    ol_run_traj(r, &dim);
    want = 200 + 16 * (size_t)ol_run_n(r)
      + 16 * (size_t)ol_mset_count(ol_run_metrics(r)) + 8 * (size_t)dim
      + strlen(ol_run_message(r));
    ok(b1 != NULL && b2 != NULL && l1 == l2 && l1 == want, "a summary's "
       "size is not the run's length's: %zu bytes for 5000 and %zu for 50 "
       "steps (200 + 16 n + 16 m + 8 trajectory columns + the message: %zu)",
       l1, l2, want);
  }
  free(b1);
  free(b2);
  {
    ol_run *d;
    lr = 10;
    d = mkrun(p, "gd", 100, 0, 1);
    ok(d != NULL && ol_run_reason(d) == OL_STOP_DIVERGED, "gd lr = 10 "
       "diverges: %s", d != NULL ? ol_run_message(d) : "");
    if (d != NULL) {
      restored(p, d, "gd", 0, "gd, diverged");
      refused(p, d);
    }
    ol_run_free(d);
  }
  ol_run_free(r);
  ol_run_free(s);
  r = mkrun(g, "nuts", 500, 200, 1);
  if (ok(r != NULL, "NUTS on the 2-D Gaussian"))
    restored(g, r, "nuts", 200, "NUTS, 300 draws");
  ol_run_free(r);
  ol_problem_free(p);
  ol_problem_free(g);
  return done();
}
