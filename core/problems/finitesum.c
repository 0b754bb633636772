/*
** core/problems/finitesum.c -- a user finite sum from a component oracle
** (Lua: problem.finitesum).
**
**   f(x) = (1/m) sum_{i=0}^{m-1} f_i(x),   grad f = (1/m) sum_i grad f_i
**
** The user gives f_i (value and gradient of one component, fdfi); the
** problem's full oracle is the mean of the components, summed term by
** term in index order (m calls per evaluation), and its component oracle
** (p->nsum = m, p->fdfi) is the user's, so everything built on finite
** sums runs on it: minibatch noise with or without replacement (noise =
** {kind = "batch", order = "shuffle", ...}), SGLD's minibatches,
** differentially private SGD, and the worker splits of the distributed
** methods (problem.workers).  The user data is kept in a wrapper owned by
** the problem, which calls free_ud on it with itself.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"

typedef struct finitesum {
  long m;
  int n;
  ol_fdfi_fn fdfi;         /* the user's component oracle */
  void *ud;                /* its data (owned: free_ud) */
  void (*free_ud) (void *);
  double *gi;              /* n: one component's gradient */
  int busy;                /* gi in use (an oracle called from inside a
                              component: that call allocates its own) */
} finitesum;

static void fs_free (void *ud)
{
  finitesum *s = ud;
  if (s == NULL) return;
  if (s->free_ud != NULL) s->free_ud(s->ud);
  free(s->gi);
  free(s);
}

static int fs_fdfi (void *ud, long i, const double *x, double *f, double *g,
                    ol_err *e)
{
  const finitesum *s = ud;
  return s->fdfi(s->ud, i, x, f, g, e);
}

/* (1/m) sum_i of the components' values and gradients, in index order. */
static int fs_fdf (void *ud, const double *x, double *f, double *g,
                   ol_err *e)
{
  finitesum *s = ud;
  double sum = 0, fi, *gi = s->gi;
  long i;
  int j, rc = OL_OK, own = s->busy;
  if (g != NULL && own && (gi = malloc(sizeof *gi * (size_t)s->n)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  s->busy = 1;
  if (g != NULL) memset(g, 0, sizeof *g * (size_t)s->n);
  for (i = 0; i < s->m; i++) {
    if ((i & 1023) == 1023 && ol_interrupted()) {
      rc = ol_err_set(e, OL_EINTR, "interrupted");
      break;
    }
    if ((rc = s->fdfi(s->ud, i, x, f != NULL ? &fi : NULL,
                      g != NULL ? gi : NULL, e)) != OL_OK)
      break;
    if (f != NULL) sum += fi;
    if (g != NULL)
      for (j = 0; j < s->n; j++) g[j] += gi[j];
  }
  s->busy = own;
  if (own && g != NULL) free(gi);
  if (rc != OL_OK) return rc;
  if (f != NULL) *f = sum / (double)s->m;
  if (g != NULL)
    for (j = 0; j < s->n; j++) g[j] /= (double)s->m;
  return OL_OK;
}

const ol_problem_type ol_problem_finitesum_type = {
  .name = "finitesum",
  .kind = OL_OBJECTIVE,
  .doc = "a user finite sum (1/m) sum_i f_i from a component oracle "
         "(ol_problem_finitesum; Lua: problem.finitesum)",
};

ol_problem *ol_problem_finitesum (int n, long m, ol_fdfi_fn fdfi, void *ud,
                                  void (*free_ud) (void *), ol_err *e)
{
  finitesum *s;
  ol_problem *p;
  if (m < 1) {
    ol_err_set(e, OL_EINVAL, "m = %ld is out of range [1, inf) (the number "
               "of components)", m);
    return NULL;
  }
  if (fdfi == NULL) {
    ol_err_set(e, OL_EINVAL, "finite sum without a component oracle");
    return NULL;
  }
  if ((s = calloc(1, sizeof *s)) == NULL ||
      (s->gi = malloc(sizeof *s->gi * (size_t)(n > 0 ? n : 1))) == NULL) {
    free(s);
    ol_err_set(e, OL_ENOMEM, "out of memory");
    return NULL;
  }
  s->m = m;
  s->n = n;
  s->fdfi = fdfi;
  p = ol_problem_custom(n, fs_fdf, 0, s, fs_free, e);
  if (p == NULL) {
    fs_free(s);
    return NULL;
  }
  /* from here the problem owns s, and s the user's data */
  s->ud = ud;
  s->free_ud = free_ud;
  p->type = &ol_problem_finitesum_type;
  p->nsum = m;
  p->fdfi = fs_fdfi;
  snprintf(p->name, sizeof p->name, "finitesum");
  snprintf(p->desc, sizeof p->desc, "finitesum{n = %d, m = %ld}", n, m);
  return p;
}
