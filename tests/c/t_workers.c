/*
** tests/c/t_workers.c -- a finite sum split among workers
** (ol_problem_set_workers, ol_problem_set_shards: core/problem.c).
**
** Truth, independent of the split's code: the shards partition the
** components (every index once) in sizes floor(N w / n) differences; at
** heterogeneity 1 the components are sorted by their pull along the split's
** direction, so the workers' mean pulls increase strictly from the first to
** the last worker, and at heterogeneity 0 they do not sort (the spread of
** the workers' mean pulls at h = 1 is several times that at h = 0, for the
** seed given); the same seed gives the same split; misuse is refused with
** the range in the message.  fsquad's components f_i = 1/2 (x - c_i)' H_i
** (x - c_i) have gradients H_i (x0 - c_i) computed here from its oracle.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "olt.h"
#include "rng.h"
#include "tap.h"

/* mean pull along the split's direction u (as core/problem.c draws it: the
** first d normals of the seed's generator) of worker w's components */
static double pull (const ol_problem *p, int w, uint64_t seed)
{
  double u[64], g[64], f, s = 0;
  long k, a = p->workers.start[w], b = p->workers.start[w + 1];
  int j;
  ol_rng r;
  ol_err e;
  ol_rng_seed(&r, seed, 0);
  for (j = 0; j < p->n; j++) u[j] = ol_rng_normal(&r);
  for (k = a; k < b; k++) {
    p->fdfi(p->ud, p->workers.perm[k], p->x0, &f, g, &e);
    for (j = 0; j < p->n; j++) s += g[j] * u[j];
  }
  return s / (double)(b - a);
}

static double spread (const ol_problem *p, uint64_t seed, int *sorted)
{
  double lo = INFINITY, hi = -INFINITY, prev = -INFINITY;
  int w;
  *sorted = 1;
  for (w = 0; w < p->workers.n; w++) {
    double v = pull(p, w, seed);
    lo = fmin(lo, v);
    hi = fmax(hi, v);
    if (!(v > prev)) *sorted = 0;
    prev = v;
  }
  return hi - lo;
}

int main (void)
{
  ol_problem *p = olt_problem("fsquad", NULL, "N", 1000.0, "d", 4.0,
                              (char *)NULL);
  ol_problem *q = olt_problem("fsquad", NULL, "N", 1000.0, "d", 4.0,
                              (char *)NULL);
  ol_problem *z = olt_problem("rosenbrock", NULL, (char *)NULL);
  ol_err e;
  long k, *seen;
  int w, sorted1, sorted0, ok1 = 1;
  double s1, s0;
  if (p == NULL || q == NULL || z == NULL) return 1;
  /* (1) a partition in near-equal contiguous shards */
  ok(ol_problem_set_workers(p, 7, 1, 0.5, 3, &e) == OL_OK, "split 1000 "
     "components among 7 workers, heterogeneity 1");
  seen = calloc((size_t)p->nsum, sizeof *seen);
  for (k = 0; k < p->nsum; k++) seen[p->workers.perm[k]]++;
  for (k = 0; k < p->nsum; k++) ok1 = ok1 && seen[k] == 1;
  free(seen);
  ok(ok1, "every component lies in exactly one shard");
  for (w = 0; w < 7; w++)
    ok1 = ok1 && p->workers.start[w + 1] - p->workers.start[w]
                 == (long)(1000.0 * (w + 1) / 7) - (long)(1000.0 * w / 7);
  ok(ok1 && p->workers.start[0] == 0 && p->workers.start[7] == 1000,
     "shard sizes floor(N (w+1) / n) - floor(N w / n)");
  ok(p->workers.participation == 0.5 && p->workers.n == 7,
     "n and participation kept");
  /* (2) heterogeneity 1 sorts the workers by their pull; 0 does not */
  s1 = spread(p, 3, &sorted1);
  ok(ol_problem_set_workers(q, 7, 0, 1, 3, &e) == OL_OK, "h = 0 split");
  s0 = spread(q, 3, &sorted0);
  ok(sorted1, "heterogeneity 1: the workers' mean pulls increase");
  ok(s1 > 4 * s0, "heterogeneity 1 spreads the workers' mean pulls %.3g, "
     "more than 4x heterogeneity 0's %.3g", s1, s0);
  /* (3) the same seed, the same split */
  ok(ol_problem_set_workers(q, 7, 1, 0.5, 3, &e) == OL_OK &&
     memcmp(q->workers.perm, p->workers.perm,
            sizeof(long) * (size_t)p->nsum) == 0,
     "the same seed gives the same split");
  /* (4) given shards */
  {
    long st[4] = {0, 100, 600, 1000}, bad[3] = {0, 0, 1000};
    ok(ol_problem_set_shards(q, 3, st, 0.2, 1, &e) == OL_OK &&
       q->workers.perm[123] == 123 && q->workers.start[2] == 600,
       "shards given in index order");
    ok(ol_problem_set_shards(q, 2, bad, 0, 1, &e) == OL_EINVAL &&
       strstr(e.msg, "empty") != NULL, "an empty shard is refused (%s)",
       e.msg);
  }
  /* (5) misuse */
  ok(ol_problem_set_workers(z, 2, 0, 1, 1, &e) == OL_EINVAL &&
     strstr(e.msg, "not a finite sum") != NULL,
     "a problem without components is refused (%s)", e.msg);
  ok(ol_problem_set_workers(p, 1001, 0, 1, 1, &e) == OL_EINVAL &&
     strstr(e.msg, "[1, 1000]") != NULL, "n above N names the range (%s)",
     e.msg);
  ok(ol_problem_set_workers(p, 2, 1.5, 1, 1, &e) == OL_EINVAL &&
     strstr(e.msg, "[0, 1]") != NULL, "heterogeneity out of range (%s)",
     e.msg);
  ok(ol_problem_set_workers(p, 2, 0, 0, 1, &e) == OL_EINVAL &&
     strstr(e.msg, "(0, 1]") != NULL, "participation 0 refused (%s)",
     e.msg);
  ol_problem_free(p);
  ol_problem_free(q);
  ol_problem_free(z);
  return done();
}
