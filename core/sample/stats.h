/*
** core/sample/stats.h -- per-step statistics of the samplers and the
** accessors an engine or a front end reads them through.
**
** Every sampler with statistics (rwmh, ula, mala, hmc, nuts, sgld,
** pmala) keeps an ol_sampler_head in its state: the statistics of its
** last step, its diagonal inverse metric and its warmup length, and
** hands it out through its stats hook (method.h; ol_sampler_head_of when
** the head is the state's first member, as in all of them).  The
** accessors below ask the hook and read the head, so an engine needs no
** knowledge of each state's layout.  The statistics are those of CmdStan's output (lp__,
** accept_stat__, stepsize__, treedepth__, n_leapfrog__, divergent__,
** energy__) plus the warmup flag of the step.
**
** Validity: the statistics describe the last completed step; before the
** first step every field is 0 except the NAN ones.  A state pointer is
** borrowed for the call only.
*/
#ifndef OL_SAMPLE_STATS_H
#define OL_SAMPLE_STATS_H

#include "method.h"

typedef struct ol_sampler_stat {
  double lp;            /* -U at the state after the step (log density up
                           to its constant); NAN when the sampler does not
                           evaluate U (sgld) */
  double accept_stat;   /* Metropolis acceptance probability of the step,
                           min(1, exp(-dH)); NUTS: its mean over the
                           trajectory's leapfrog states (Stan's
                           accept_stat__); NAN for the unadjusted ula,
                           sgld */
  double stepsize;      /* step size used by the step (eps, h, scale or
                           the SGLD schedule's eps_t), times the run's
                           schedule multiplier */
  double energy;        /* Hamiltonian U + p'M^-1 p / 2 at the new state
                           (hmc, nuts; Stan's energy__); NAN otherwise */
  int treedepth;        /* nuts: doublings of the trajectory; 0 others */
  int n_leapfrog;       /* hmc, nuts: leapfrog steps taken; 0 others */
  int divergent;        /* 1 when the trajectory met an energy error
                           H - H0 > 1000 or a non-finite value; 0 */
  int warmup;           /* 1 when the step was a warmup (adaptation) step:
                           its draw belongs to no summary */
  int nonfinite;        /* 1 when the step met a log density (or its
                           gradient) that was NaN or +-inf: a rejection or
                           a divergence that names no curvature */
  int maxdepth;         /* nuts: 1 when the tree stopped at maxdepth */
  long iter;            /* steps completed */
  long ndivergent;      /* divergent steps after warmup (the non-finite
                           ones included) */
  long ndiv_nonfinite;  /* of those, the steps that met a non-finite value */
  long nnonfinite;      /* steps after warmup that met a non-finite value */
  long nnonfinite_warmup; /* warmup steps that did */
  long nmaxdepth;       /* nuts: steps after warmup stopped at maxdepth */
} ol_sampler_stat;

/* The layout every sampler state with statistics starts with. */
typedef struct ol_sampler_head {
  ol_sampler_stat stat;
  double *minv;         /* diagonal inverse metric M^-1 (n entries, owned
                           by the state; all ones by default), or NULL for
                           a sampler without one (ula, sgld) */
  int n;
  long warmup;          /* warmup steps (adaptive samplers), else 0 */
  struct ol_mass *mass; /* hmc, nuts, mala: the mass matrix over minv
                           (sample/mass.h; dense or diagonal), else NULL */
  double *nfx;          /* the first point where a non-finite value was
                           met (n doubles, malloc'd then; freed by
                           ol_sampler_head_fini), or NULL */
  double nfU;           /* the potential U = -log p met there: NaN or
                           +-inf, finite when the gradient was not */
} ol_sampler_head;

/* The stats hook of a sampler whose state starts with an ol_sampler_head:
** st itself (the state is the caller's, so the head may be written
** through the result: ol_sampler_set_metric). */
ol_sampler_head *ol_sampler_head_of (const void *st);

/* The statistics of m's last step (st: m's state, as the run allocated
** it) into *out.  OL_OK, or OL_EINVAL when m keeps no statistics (mala,
** every optimizer and game dynamic). */
int ol_sampler_stats (const ol_method_type *m, const void *st,
                      ol_sampler_stat *out);

/* m's diagonal inverse metric (n doubles, borrowed until the next step),
** or NULL when m has none or keeps no statistics.  During warmup with
** metric = "diag" it changes at the end of each adaptation window. */
const double *ol_sampler_metric (const ol_method_type *m, const void *st);

/* Set m's diagonal inverse metric to minv (n entries, copied, each finite
** and > 0).  Call after init and before the first step: it replaces the
** identity as the starting metric; with metric = "diag" warmup still
** re-estimates it, with "unit" it stays fixed; a dense metric becomes
** diag(minv) (then re-estimated densely in warmup).  OL_EINVAL when m has no
** metric, n is not the state's dimension or an entry is not positive. */
int ol_sampler_set_metric (const ol_method_type *m, void *st,
                           const double *minv, int n, ol_err *e);

/* Warmup length of m's state (0 when m does not adapt or keeps no
** statistics): steps 0 .. warmup-1 are warmup, later draws are kept. */
long ol_sampler_warmup (const ol_method_type *m, const void *st);

/* A step met a non-finite value at x (n doubles, unconstrained): the
** potential there U (NaN, +-inf; finite when only the gradient was not
** finite).  Marks the step; the first such point is kept (h->nfx). */
void ol_sampler_nonfinite (ol_sampler_head *h, const double *x, double U);

/* The first point where m's chain met a non-finite value and the
** potential there (*U), or NULL when it met none (or m keeps no
** statistics).  Borrowed: valid while the state lives. */
const double *ol_sampler_nonfinite_at (const ol_method_type *m,
                                       const void *st, double *U);

/* Free what the head owns (nfx); every sampler's fini calls it. */
void ol_sampler_head_fini (ol_sampler_head *h);

/* Call at the end of each step: count it, mark it as warmup or not and
** count a post-warmup divergence, non-finite value and maxdepth stop.
** (Inline: every sampler's step.) */
static inline void ol_sampler_count (ol_sampler_head *h)
{
  ol_sampler_stat *s = &h->stat;
  s->warmup = s->iter < h->warmup;
  if (!s->warmup) {
    s->ndivergent += s->divergent != 0;
    s->ndiv_nonfinite += s->divergent && s->nonfinite;
    s->nnonfinite += s->nonfinite != 0;
    s->nmaxdepth += s->maxdepth != 0;
  }
  else s->nnonfinite_warmup += s->nonfinite != 0;
  s->iter++;
}

#endif
