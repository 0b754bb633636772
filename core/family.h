/*
** core/family.h -- the method families (optimizers, samplers, game
** dynamics, variational, diffusion, RL and distributed methods): one
** const entry each, the only place a family is described.
**
** A method names its family by index (ol_method_type.family, OL_OPTIM ...
** OL_DIST in core/method.h); generic code (the run, the metrics, the
** panels, the binding) asks the family's entry what its runs do, through
** ol_family_of(m) or ol_families[f], and never tests which family it is.
** A new family is one entry in core/family.c (and its index in
** core/method.h's enum).
**
** Invariants: ol_families has an entry for every index below OL_NFAMILY,
** each with a namespace and the two -1 / OL_PANEL_END ended lists;
** ol_family_of and ol_family_get never return NULL (an index out of range
** gets an empty entry named "method").
*/
#ifndef OL_FAMILY_H
#define OL_FAMILY_H

#include "problem.h"

struct ol_method_type;

/* A default panel (pn_defaults, core/plot/plotpanel.c) is a metric id
** (OL_MET_*, shown when the run records it) or one of these. */
enum {
  OL_PANEL_END = -1,       /* ends a family's list */
  OL_PANEL_TRACE = -2,     /* the draws of x1 against the iteration */
  OL_PANEL_CLOUD = -3,     /* the draws (or particles) of (x1, x2) over the
                              target's contours, for n >= 2 */
  OL_PANEL_GAPS = -4,      /* the game's gaps: exploitability of the
                              average, of the last iterate, entropy */
  OL_PANEL_PROGRESS = -5,  /* on a game its gaps; with general constraints
                              the loss and the KKT error's three parts;
                              else loss and gradnorm */
  OL_PANEL_RECORDED = -6   /* on a game its gaps; else every recorded
                              metric, in metric order */
};

/* How a family's runs print (lua/lprint.c), OL_FPRINT_* bits. */
#define OL_FPRINT_ACCEPT 1u  /* a note when the acceptance is 0 or 1 */
#define OL_FPRINT_CONSTR 2u  /* a constrained run: f to full precision, no
                                gradient norms, a warning when it ends
                                infeasible */
#define OL_FPRINT_Q      4u  /* the variational q (its mean and sds) */

typedef struct ol_family {
  /* Lua: the global table of the family's constructors and the prefix of
  ** its methods' full names ("optim" in optim.adam). */
  const char *ns;
  const char *what, *plural;   /* "optimizer", "optimizers" (help) */
  /* Default metrics: OL_MET_* ids ended by -1, which its runs record
  ** unless told, each where the problem makes it available
  ** (ol_metric_defaults, core/metrics.c). */
  const int *metrics;
  /* Optional: the defaults that depend on the problem (kkt on a set,
  ** nucnorm on a matrix); at most max ids into out, returns the count. */
  int (*more_metrics) (const ol_problem *p, int *out, int max);
  /* 1: its runs also record every metric the method's probe defines
  ** (their ELBO, KL, policy gap: ol_method_metrics). */
  int probe_metrics;
  /* Default panels, in order, ended by OL_PANEL_END (see above). */
  const int *panels;
  /* A sampler's runs: a warmup, then draws kept for the trace, the cloud
  ** and the draw diagnostics (accept, ess, rhat, meanerr, kl, w2); the
  ** run options warmup, draws and chains apply. */
  int draws;
  /* The parameter that sets a run's iterations unless iters is given (a
  ** diffusion sampler's "steps"), or NULL. */
  const char *iters_param;
  /* x is the mean of the method's particles, its "samples" result: the
  ** cloud shows the particles, and no panel of x is added by default. */
  int particles;
  /* Its runs project x onto the problem's set after each step. */
  int project;
  /* The tolerance options (tol, f_abstol, f_reltol, x_abstol, x_reltol)
  ** and the convergence rules stop its runs (core/run.h). */
  int tolerances;
  /* bias and variance are measured for it on a noisy quadratic, against
  ** a noise-free twin run. */
  int shadow;
  /* Its iterates are mixed strategies played round by round: the run
  ** keeps regret and ccegap on a product of simplices. */
  int plays;
  /* On a constrained problem, regret is the method's to keep (its probe,
  ** optim.rmplus): a run that asks for it needs a method that does. */
  int regret_probe;
  unsigned print;          /* OL_FPRINT_* */
  /* What its methods evaluate instead of f and g, for a summary whose
  ** f and g counts are both zero (else it would read as no work), or
  ** NULL. */
  const char *noevals;
} ol_family;

/* Every family, indexed by OL_OPTIM ... OL_DIST (OL_NFAMILY entries). */
extern const ol_family ol_families[];

/* The entry of family f; the empty entry (namespace "method", no
** defaults) when f is out of range. */
const ol_family *ol_family_get (int f);
/* The entry of method m's family (as ol_family_get). */
const ol_family *ol_family_of (const struct ol_method_type *m);
/* The family whose namespace is ns ("optim"), or -1. */
int ol_family_find (const char *ns);
/* The metric ids runs of family f record by default on p, before their
** availability on p is tested: its list, then its more_metrics; at most
** max into out, returns the count. */
int ol_family_metrics (int f, const ol_problem *p, int *out, int max);

#endif
