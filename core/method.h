/*
** core/method.h -- the method vtable shared by optimizers, samplers and
** game dynamics (the context a method steps in, and its oracles, are in
** core/oracle.h, included here).
**
** A method is one C file exporting one const ol_method_type, registered
** by one line in core/optim/list.h, core/sample/list.h or
** core/games/list.h.  Its help text, Lua constructor, parameter checking
** and the registry sweep test all come from the table.
**
** Contract (the table is written with designated initialisers, `make
** lint` checks it; optional hooks are left out, i.e. NULL / 0):
**   init  called once by the run; par holds nparams checked values in
**         table order, and stays valid at the same address for the
**         state's life (the run's own copy: ol_run_set changes its live
**         entries between steps); allocates every array the method needs (state
**         struct itself is allocated by the run, size bytes, zeroed).
**   step  exactly one iteration: reads and updates c->x in place; never
**         allocates; returns OL_OK or an error code with e set (oracle
**         errors are passed through unchanged).
**   fini  frees what init allocated; called once, also after a failed
**         init (so fini must cope with a partly initialised state).
** Optional:
**   probe, probes  method-specific metrics (below).
**   result  named outputs beyond x (Lua r.<name>: r.lambda, r.mean,
**         r.workers, r:samples(), ...); the only place a method's extra
**         outputs are described (ol_method_result asks it).  A family's
**         methods may share one (ol_vi_named, ol_dist_fedresult).
**   stats  a sampler's per-draw statistics, metric and warmup: the
**         ol_sampler_head in its state (core/sample/stats.h; samplers
**         whose state starts with one point at ol_sampler_head_of).
**   check  what the method needs of a problem beyond kinds and flags (an
**         MDP, a game tree, a Gaussian-mixture target); called by
**         ol_method_check after the generic tests pass.
**   params_live  OL_LIVE(i) bits: the parameters that may change between
**         two steps of a run (live tuning: ol_run_set, Lua j:set).  The
**         rule: params[i] is live only when step reads par[i] afresh at
**         every iteration (init keeps the pointer; gd keeps s->par and
**         reads s->par[0]), and nothing init or an earlier step computed
**         depends on it (so a new value takes effect at the next step
**         with no other change).  When in doubt it is not live; nparams
**         <= 32 for a table that sets any bit.
*/
#ifndef OL_METHOD_H
#define OL_METHOD_H

#include "ol.h"
#include "family.h"
#include "problem.h"
#include "metrics.h"
#include "rng.h"
#include "oracle.h"

/* method families; Lua tables optim, sample, game, vi, diffusion, rl,
** dist, smc */
enum { OL_OPTIM, OL_SAMPLER, OL_DYNAMIC, OL_VI, OL_DIFFUSION, OL_RL,
       OL_DIST, OL_SMC, OL_NFAMILY };

/* flags */
#define OL_M_NEEDSET   1u   /* requires a constraint set (pgd) */
#define OL_M_NEEDHESS  2u   /* requires a Hessian oracle */
#define OL_M_OWNAVG    4u   /* the method maintains c->xavg itself */
#define OL_M_NEEDMAT   8u   /* requires a matrix-shaped x (mrows, mcols) */
#define OL_M_NEEDSUM  16u   /* requires a finite sum (nsum, fdfi) */
#define OL_M_MH       32u   /* a sampler whose c->accepted counts
                               Metropolis-Hastings accept / reject
                               decisions (each step one), so acceptance 0
                               or 1 means a badly chosen step size */
#define OL_M_TREE     64u   /* an extensive-form dynamic: runs on a game
                               tree (problems/kuhn.h) and only there */
#define OL_M_CONSTR  128u   /* handles general constraints c(x) = 0,
                               c(x) >= 0 (problem.h's con): the others
                               refuse a problem that has them */
#define OL_M_BILEVEL 256u   /* runs on a bilevel problem only
                               (problems/bilevel.h: problem.ridgehyper) */
#define OL_M_NOGRAD  512u   /* a sampler that evaluates the density only,
                               never its gradient (rwmh): a search for a
                               valid start tests the density alone */

#define OL_KIND(k) (1u << (k))   /* bit for a problem kind in 'kinds' */
#define OL_LIVE(i) (1u << (i))   /* bit for params[i] in 'params_live' */

struct ol_sampler_head;          /* core/sample/stats.h */

typedef struct ol_method_type {
  const char *name;          /* Lua name: optim.<name>{...} */
  int family;                /* OL_OPTIM ... OL_DIST */
  const char *doc;           /* one line */
  const char *ref;           /* paper, year (and equation) */
  const ol_param *params;
  int nparams;
  size_t size;               /* bytes of private state */
  unsigned flags;            /* OL_M_* */
  unsigned kinds;            /* OL_KIND() bits of problem kinds accepted */
  int (*init) (void *st, const double *par, ol_ctx *c, ol_err *e);
  int (*step) (void *st, ol_ctx *c, ol_err *e);
  void (*fini) (void *st);
  /* Optional (NULL if none): a method-specific metric at the current
  ** state, e.g. OL_MET_LRMAX of an adaptive method or OL_MET_ORTHERR of
  ** Muon; NAN when the method does not define that metric. */
  double (*probe) (const void *st, int metric, const ol_ctx *c);
  /* the metrics probe defines (from the first step on: before it the
  ** probe may give NAN); OL_MSET_NONE without a probe. */
  ol_mset probes;
  /* Optional: the named result name of state st (see ol_method_result
  ** for the contract); 1 when the method has it, else 0.  A name that
  ** is a run's Lua method (last, series, plot, ...) is never asked:
  ** r.<name> finds the run's method first (lua/lrun.c run_index). */
  int (*result) (const void *st, const char *name, const double **v,
                 int *rows, int *cols);
  /* Optional (samplers): the statistics head of state st, borrowed for
  ** as long as st lives; NULL when this state keeps none. */
  struct ol_sampler_head *(*stats) (const void *st);
  /* Optional: OL_OK when the method can run on p (which passed the generic
  ** tests of ol_method_check), else OL_EINVAL with a message naming m and
  ** what p lacks. */
  int (*check) (const struct ol_method_type *m, const ol_problem *p,
                ol_err *e);
  unsigned params_live;      /* OL_LIVE() bits; 0: none (see above) */
} ol_method_type;

/* Probe sets (initialisers, metrics.h OL_MSET) of adaptive methods'
** effective learning rates and of Muon-type orthogonalisation; the ids
** of the first to combine them: OL_MSET(OL_LR_METRICS, OL_MET_ORTHERR). */
#define OL_LR_METRICS OL_MET_LRMIN, OL_MET_LRMED, OL_MET_LRMAX
#define OL_PROBES_LR OL_MSET(OL_LR_METRICS)
#define OL_PROBES_ORTH OL_MSET(OL_MET_ORTHERR)

/* Registry: every method of every family, NULL-ended, in list order. */
extern const ol_method_type *const ol_methods[];
/* By name, bare ("rmplus": the first in that order) or with its family as
** in Lua ("optim.rmplus", "game.rmplus"); NULL when there is none. */
const ol_method_type *ol_method_find (const char *name);
/* The metrics a run of m on p records by default: ol_metric_defaults of
** m's family, plus, for the families from OL_VI on, every metric m's
** probe defines (their ELBO, KL, policy gap, ...). */
ol_mset ol_method_metrics (const ol_problem *p, const ol_method_type *m);

/* A named result of method m's state st beyond x (Lua: r.<name>, and
** r:samples() for "samples"): *rows x *cols doubles, row-major, borrowed
** from st until its next step; 1 when m has it, else 0 (and *v = NULL,
** *rows = *cols = 0).  Answered by m's result hook; an answer whose
** numbers are NULL (a state its init left unmade) counts as none. */
int ol_method_result (const ol_method_type *m, const void *st,
                      const char *name, const double **v, int *rows,
                      int *cols);
/* OL_OK when method m can run on problem p, else OL_EINVAL with a message
** ("pgd needs a constrained problem", "mala needs an objective or density"). */
int ol_method_check (const ol_method_type *m, const ol_problem *p, ol_err *e);

#endif
