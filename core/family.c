/*
** core/family.c -- the family table: for each method family its Lua
** namespace, default metrics and panels, the run options it takes, how
** its runs behave and print (the fields are described in core/family.h).
**
** Entries are written with designated initialisers; a field left out is
** 0 or NULL ("no": no draws, no projection, no hook).
*/
#include "family.h"

#include "method.h"
#include "metrics.h"
#include "problems/kuhn.h"

#include <string.h>

/* An optimizer's defaults that depend on p: the KKT gap (and the entropy
** of a simplex point) on a set, the support of a composite (l1 > 0)
** problem's x, the KKT error's parts under general constraints, the
** nuclear norm of a matrix gradient. */
static int optim_metrics (const ol_problem *p, int *out, int max)
{
  int n = 0;
#define ADD(k) do { if (n < max) out[n++] = (k); } while (0)
  if (p->set.kind != OL_SET_NONE) {
    ADD(OL_MET_KKT);
    ADD(OL_MET_ENTROPY);
  }
  if (p->l1 > 0) {
    ADD(OL_MET_KKT);
    ADD(OL_MET_SUPPORT);
  }
  if (p->con.m > 0) {
    ADD(OL_MET_KKT);
    ADD(OL_MET_STATIONARITY);
    ADD(OL_MET_FEASIBILITY);
    ADD(OL_MET_COMPLEMENTARITY);
  }
  if (p->mrows > 0) ADD(OL_MET_NUCNORM);
#undef ADD
  return n;
}

/* A dynamic's kkt (the simplex gap), except on Kuhn poker: its x is
** behavioural strategies per information set, where the simplex gap of
** its oracle is no equilibrium measure. */
static int dynamic_metrics (const ol_problem *p, int *out, int max)
{
  if (ol_tree_of(p) != NULL || max < 1) return 0;
  out[0] = OL_MET_KKT;
  return 1;
}

#define OPTIM_METRICS (const int[]){OL_MET_LOSS, OL_MET_GRADNORM, \
  OL_MET_DIST, OL_MET_SUBOPT, OL_MET_MINGRADNORM, -1}
#define NO_METRICS (const int[]){-1}

const ol_family ol_families[OL_NFAMILY] = {
  /* probe metrics (lr*, ortherr) only when asked for */
  [OL_OPTIM] = {
    .ns = "optim",
    .what = "optimizer",
    .plural = "optimizers",
    .metrics = OPTIM_METRICS,
    .more_metrics = optim_metrics,
    .panels = (const int[]){OL_PANEL_PROGRESS, OL_PANEL_END},
    .project = 1,
    .tolerances = 1,
    .shadow = 1,
    .regret_probe = 1,
    .print = OL_FPRINT_CONSTR,
  },
  [OL_SAMPLER] = {
    .ns = "sample",
    .what = "sampler",
    .plural = "samplers",
    .metrics = (const int[]){OL_MET_LOSS, OL_MET_GRADNORM, OL_MET_ACCEPT,
                             OL_MET_DIST, -1},
    /* stepsize is recorded for a sampler that adapts (lua/lrun.c) */
    .panels = (const int[]){OL_MET_ACCEPT, OL_PANEL_TRACE, OL_PANEL_CLOUD,
                            OL_MET_STEPSIZE, OL_PANEL_END},
    .draws = 1,
    .print = OL_FPRINT_ACCEPT,
  },
  [OL_DYNAMIC] = {
    .ns = "game",
    .what = "game dynamic",
    .plural = "game dynamics",
    .metrics = (const int[]){OL_MET_LOSS, OL_MET_EXPLOIT,
                             OL_MET_EXPLOIT_AVG, OL_MET_REGRET,
                             OL_MET_ENTROPY, OL_MET_POTENTIAL,
                             OL_MET_VALUE, -1},
    .more_metrics = dynamic_metrics,
    /* the average's gap is what no-regret dynamics drive to 0; the last
    ** iterate's is what optimistic ones do (and plain ones do not) */
    .panels = (const int[]){OL_PANEL_GAPS, OL_PANEL_END},
    .plays = 1,
  },
  [OL_VI] = {
    .ns = "vi",
    .what = "variational method",
    .plural = "variational methods",
    .metrics = NO_METRICS,
    .probe_metrics = 1,
    .panels = (const int[]){OL_PANEL_RECORDED, OL_PANEL_END},
    .print = OL_FPRINT_Q,
  },
  [OL_DIFFUSION] = {
    .ns = "diffusion",
    .what = "diffusion sampler",
    .plural = "diffusion samplers",
    .metrics = NO_METRICS,
    .probe_metrics = 1,
    /* its particles over the target's contours for a 2-D target */
    .panels = (const int[]){OL_PANEL_RECORDED, OL_PANEL_CLOUD,
                            OL_PANEL_END},
    .iters_param = "steps",
    .particles = 1,
    .noevals = "the target's score, in closed form (not counted)",
  },
  [OL_RL] = {
    .ns = "rl",
    .what = "RL method",
    .plural = "RL methods",
    .metrics = NO_METRICS,
    .probe_metrics = 1,
    .panels = (const int[]){OL_PANEL_RECORDED, OL_PANEL_END},
  },
  [OL_DIST] = {
    .ns = "dist",
    .what = "distributed method",
    .plural = "distributed methods",
    .metrics = OPTIM_METRICS,
    .more_metrics = optim_metrics,
    .probe_metrics = 1,
    /* then how far its nodes are from agreeing */
    .panels = (const int[]){OL_PANEL_PROGRESS, OL_MET_CONSENSUS,
                            OL_PANEL_END},
  },
  /* SMC smoothers on a state-space model (core/smc/): a step is a
  ** particle filter pass (or Gibbs sweep); what they record is their
  ** probe's (smooth, loglik, pfess) */
  [OL_SMC] = {
    .ns = "smc",
    .what = "SMC smoother",
    .plural = "SMC smoothers",
    .metrics = NO_METRICS,
    .probe_metrics = 1,
    .panels = (const int[]){OL_PANEL_RECORDED, OL_PANEL_END},
    .noevals = "the model's transition and observation densities, "
               "particle by particle (not counted)",
  },
};

static const ol_family none = {
  .ns = "method",
  .what = "method",
  .plural = "methods",
  .metrics = NO_METRICS,
  .panels = (const int[]){OL_PANEL_RECORDED, OL_PANEL_END},
};

const ol_family *ol_family_get (int f)
{
  return f >= 0 && f < OL_NFAMILY ? &ol_families[f] : &none;
}

const ol_family *ol_family_of (const ol_method_type *m)
{
  return ol_family_get(m != NULL ? m->family : -1);
}

int ol_family_find (const char *ns)
{
  int f;
  if (ns == NULL) return -1;
  for (f = 0; f < OL_NFAMILY; f++)
    if (strcmp(ol_families[f].ns, ns) == 0) return f;
  return -1;
}

int ol_family_metrics (int f, const ol_problem *p, int *out, int max)
{
  const ol_family *fa = ol_family_get(f);
  int n = 0, i;
  for (i = 0; fa->metrics[i] >= 0; i++)
    if (n < max) out[n++] = fa->metrics[i];
  if (fa->more_metrics != NULL && p != NULL && n < max)
    n += fa->more_metrics(p, out + n, max - n);
  return n;
}
