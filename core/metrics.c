/*
** core/metrics.c -- the metric registry: one availability test and one
** evaluation function per metric of OL_METRIC_LIST (metrics.h).
**
** Definitions (DESIGN.md, "Metrics"), with x = x_t, g = true grad f(x_t):
**   loss      f(x)
**   gradnorm  ||g||_2
**   dist      ||x - x*||_2                          (x* known)
**   subopt    f(x) - f*                             (f* finite)
**   kkt       ||g|| unconstrained; ||x - P_box(x - g)|| on a box;
**             sum over simplex blocks of <g_i, x_i> - min_a g_ia
**   entropy   sum over simplex blocks of -sum_a p_a log p_a, 0 log 0 = 0
**   exploitability  ol_game_gap at the average iterate (games with A)
**   accept    accepted / max(t, 1)                  (samplers)
** Evaluation never fails: a metric that cannot be computed is NaN.
*/
#include "metrics.h"

#include "method.h"
#include "vec.h"

#include <math.h>
#include <string.h>

static int always (const ol_problem *p, int family)
{
  (void)p;
  (void)family;
  return 1;
}

static int has_xstar (const ol_problem *p, int family)
{
  (void)family;
  return p->xstar != NULL;
}

static int has_fstar (const ol_problem *p, int family)
{
  (void)family;
  return isfinite(p->fstar);
}

static int has_simplex (const ol_problem *p, int family)
{
  (void)family;
  return p->set.kind == OL_SET_SIMPLEX;
}

static int has_game (const ol_problem *p, int family)
{
  (void)family;
  return p->kind == OL_GAME && p->payoff != NULL;
}

static int is_sampler (const ol_problem *p, int family)
{
  (void)p;
  return family == OL_SAMPLER;
}

static double m_loss (const ol_mstate *s)
{
  return s->f;
}

static double m_gradnorm (const ol_mstate *s)
{
  return ol_vec_nrm2(s->g, s->n);
}

static double m_dist (const ol_mstate *s)
{
  if (s->p->xstar == NULL) return NAN;
  return ol_vec_dist(s->x, s->p->xstar, s->n);
}

static double m_subopt (const ol_mstate *s)
{
  return s->f - s->p->fstar;
}

/* Blocks of a simplex set and their sizes (one block of all n coordinates
** when the set declares none). */
static int nblocks (const ol_set *set)
{
  return set->nblocks > 0 ? set->nblocks : 1;
}

static int block_size (const ol_set *set, int b, int n)
{
  return set->nblocks > 0 ? set->blocks[b] : n;
}

static double m_kkt (const ol_mstate *s)
{
  const ol_set *set = &s->p->set;
  const double *x = s->x, *g = s->g;
  double acc = 0;
  int i, b, off, n = s->n;
  switch (set->kind) {
  case OL_SET_BOX:
    for (i = 0; i < n; i++) {
      double y = x[i] - g[i], d;
      if (set->lo != NULL && y < set->lo[i]) y = set->lo[i];
      if (set->hi != NULL && y > set->hi[i]) y = set->hi[i];
      d = x[i] - y;
      acc += d * d;
    }
    return sqrt(acc);
  case OL_SET_SIMPLEX:
    for (b = 0, off = 0; b < nblocks(set); b++) {
      int k = block_size(set, b, n);
      double dot = 0, lo = INFINITY;
      for (i = off; i < off + k && i < n; i++) {
        dot += g[i] * x[i];
        if (g[i] < lo) lo = g[i];
      }
      acc += dot - lo;
      off += k;
    }
    return acc;
  default:
    return ol_vec_nrm2(g, n);
  }
}

static double m_entropy (const ol_mstate *s)
{
  const ol_set *set = &s->p->set;
  double h = 0;
  int i, b, off, n = s->n;
  if (set->kind != OL_SET_SIMPLEX) return NAN;
  for (b = 0, off = 0; b < nblocks(set); b++) {
    int k = block_size(set, b, n);
    for (i = off; i < off + k && i < n; i++)
      if (s->x[i] > 0) h -= s->x[i] * log(s->x[i]);
      else if (s->x[i] < 0 || isnan(s->x[i])) return NAN;
    off += k;
  }
  return h;
}

static double m_exploit (const ol_mstate *s)
{
  return ol_game_gap(s->p, s->xavg, s->work);
}

static double m_accept (const ol_mstate *s)
{
  return (double)s->accepted / (double)(s->t > 1 ? s->t : 1);
}

/* Metrics of issue 4 not wired yet: never available (so never recorded)
** until their implementations land. */
static int not_yet (const ol_problem *p, int family)
{
  (void)p;
  (void)family;
  return 0;
}

static double m_nan (const ol_mstate *s)
{
  (void)s;
  return NAN;
}

/* Map each list entry to its avail / eval functions by id. */
#define AV_LOSS always
#define AV_GRADNORM always
#define AV_DIST has_xstar
#define AV_SUBOPT has_fstar
#define AV_KKT always
#define AV_ENTROPY has_simplex
#define AV_EXPLOIT has_game
#define AV_ACCEPT is_sampler
#define AV_MINGRADNORM not_yet
#define AV_LRMIN not_yet
#define AV_LRMED not_yet
#define AV_LRMAX not_yet
#define AV_ORTHERR not_yet
#define AV_NUCNORM not_yet
#define AV_SUPPORT not_yet
#define EV_MINGRADNORM m_nan
#define EV_LRMIN m_nan
#define EV_LRMED m_nan
#define EV_LRMAX m_nan
#define EV_ORTHERR m_nan
#define EV_NUCNORM m_nan
#define EV_SUPPORT m_nan
#define EV_LOSS m_loss
#define EV_GRADNORM m_gradnorm
#define EV_DIST m_dist
#define EV_SUBOPT m_subopt
#define EV_KKT m_kkt
#define EV_ENTROPY m_entropy
#define EV_EXPLOIT m_exploit
#define EV_ACCEPT m_accept

const ol_metric_type ol_metric_types[OL_NMETRICS] = {
#define OL_METRIC(id, name, doc) {name, doc, AV_##id, EV_##id},
  OL_METRIC_LIST
#undef OL_METRIC
};

int ol_metric_find (const char *name)
{
  int i;
  if (name == NULL) return -1;
  for (i = 0; i < OL_NMETRICS; i++)
    if (strcmp(ol_metric_types[i].name, name) == 0) return i;
  return -1;
}

/* Defaults by family, restricted to what p makes available:
**   optimizers  loss gradnorm dist subopt, plus kkt entropy when
**               constrained;
**   samplers    loss gradnorm accept dist;
**   dynamics    loss exploitability entropy kkt. */
unsigned ol_metric_defaults (const ol_problem *p, int family)
{
  unsigned want, have = 0;
  int i;
  switch (family) {
  case OL_SAMPLER:
    want = OL_MBIT(OL_MET_LOSS) | OL_MBIT(OL_MET_GRADNORM) |
      OL_MBIT(OL_MET_ACCEPT) | OL_MBIT(OL_MET_DIST);
    break;
  case OL_DYNAMIC:
    want = OL_MBIT(OL_MET_LOSS) | OL_MBIT(OL_MET_EXPLOIT) |
      OL_MBIT(OL_MET_ENTROPY) | OL_MBIT(OL_MET_KKT);
    break;
  default:
    want = OL_MBIT(OL_MET_LOSS) | OL_MBIT(OL_MET_GRADNORM) |
      OL_MBIT(OL_MET_DIST) | OL_MBIT(OL_MET_SUBOPT);
    if (p->set.kind != OL_SET_NONE)
      want |= OL_MBIT(OL_MET_KKT) | OL_MBIT(OL_MET_ENTROPY);
    break;
  }
  for (i = 0; i < OL_NMETRICS; i++)
    if ((want & OL_MBIT(i)) && ol_metric_types[i].avail(p, family))
      have |= OL_MBIT(i);
  return have;
}
