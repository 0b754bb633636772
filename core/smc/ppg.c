/*
** core/smc/ppg.c -- smc.ppg: the Parisian particle Gibbs sampler, PaRIS
** driven by conditional SMC (Cardoso, Janati El Idrissi, Le Corff,
** Moulines & Olsson 2023, "State and parameter learning with PaRIS
** particle Gibbs", ICML, seed B023: "a PaRIS algorithm driven by
** conditional SMC moves, resulting in bias-reduced estimates").
**
** One step is one Gibbs sweep (pf.h has the passes):
**   sweep 1   an unconditional PaRIS pass; a path z_1 drawn from its
**             backward indices;
**   sweep k   a PaRIS pass conditional on z_{k-1} (particle N - 1 frozen
**             to it, its tau statistics computed by the same backward
**             draws as every other particle's), its estimate
**             Pi_k = sum_i W^i tau^i, and z_k drawn from its backward
**             indices.
** x is the current path z_k: the chain's state, which the particle Gibbs
** kernel with backward sampling keeps distributed as the smoothing law
** p(x | y) (pf.h).  The PPG estimator after k sweeps with burnin k0 is the
** mean of Pi_{k0+1} .. Pi_k (metric smooth; the last sweep's alone
** while k <= k0); its bias falls with the sweeps as the chain forgets its
** start, and at a fixed budget it is far below PaRIS's (the paper's
** "new bounds on bias and variance", as its abstract summarises them).
**
** Not checked against the paper's text (only its abstract could be
** read): whether its reference's backward statistics are drawn as here
** or kept from the previous sweep, whether its first path comes from an
** unconditional PaRIS pass, and the form of its burn-in; these are the
** standard choices of particle Gibbs with backward sampling (Whiteley
** 2010; Lindsten & Schon 2013).  Resampling is multinomial at every step.
** Cost per sweep: that of one PaRIS pass with N particles (pf.h), so k
** sweeps of N cost as one pass of k N.
*/
#include <math.h>
#include <string.h>

#include "smc/pf.h"

typedef struct ppg_state {
  ol_pf f;
  int k0;             /* burnin sweeps */
  long sweeps;        /* done */
  double sum;         /* Pi_{k0+1} + ... + Pi_k */
  double est;         /* the PPG estimate (header) */
  double last;        /* Pi_k */
} ppg_state;

extern const ol_method_type ol_smc_ppg;

static const ol_param ppg_params[] = {
  {"N", OL_P_INT, 16, 2, 1000000, "particles (one of them the frozen "
   "reference path)", NULL},
  {"Ntilde", OL_P_INT, 2, 1, 1000, "backward draws per particle and time "
   "(the paper's default 2)", NULL},
  {"h", OL_P_ENUM, 0, 0, 2, "additive functional: sum x_t, sum x_t^2, or "
   "sum x_{t-1} x_t", "sum|sumsq|cross"},
  {"burnin", OL_P_INT, 1, 0, 1e9, "sweeps k0 left out of the estimate "
   "(the first, unconditional one by default)", NULL},
};

static int ppg_init (void *vs, const double *par, ol_ctx *c, ol_err *e)
{
  ppg_state *st = vs;
  const ol_ssm *M = ol_ssm_of(c->p);
  if (M == NULL) return ol_smc_check(&ol_smc_ppg, c->p, e);
  st->k0 = (int)par[3];
  st->est = st->last = NAN;
  return ol_pf_init(&st->f, M, (int)par[0], (int)par[1], (int)par[2], 1,
                    "smc.ppg", e);
}

static int ppg_step (void *vs, ol_ctx *c, ol_err *e)
{
  ppg_state *st = vs;
  int rc;
  /* (1) the pass: conditional on the path in x after the first sweep */
  rc = ol_pf_pass(&st->f, st->sweeps > 0 ? c->x : NULL, c->rng, NULL, e);
  if (rc != OL_OK) return rc;
  /* (2) the next path, (3) the estimator */
  ol_pf_path(&st->f, c->rng, c->x);
  st->sweeps++;
  st->last = st->f.est;
  if (st->sweeps > st->k0) {
    st->sum += st->last;
    st->est = st->sum / (double)(st->sweeps - st->k0);
  } else {
    st->est = st->last;
  }
  return OL_OK;
}

static double ppg_probe (const void *vs, int metric, const ol_ctx *c)
{
  const ppg_state *st = vs;
  (void)c;
  if (st->sweeps < 1) return NAN;
  switch (metric) {
  case OL_MET_SMOOTH: return st->est;
  case OL_MET_PFESS: return st->f.ess;
  default: return NAN;
  }
}

/* r.truth as smc.paris's; r.sweep: the last sweep's estimate Pi_k. */
static int ppg_result (const void *vs, const char *name, const double **v,
                       int *rows, int *cols)
{
  const ppg_state *st = vs;
  if (strcmp(name, "truth") == 0) *v = &st->f.M->truth[st->f.h];
  else if (strcmp(name, "sweep") == 0) *v = &st->last;
  else return 0;
  *rows = *cols = 1;
  return 1;
}

static void ppg_fini (void *vs)
{
  ppg_state *st = vs;
  ol_pf_fini(&st->f);
}

const ol_method_type ol_smc_ppg = {
  .name = "ppg",
  .family = OL_SMC,
  .doc = "Parisian particle Gibbs: PaRIS on conditional SMC, one step one "
         "Gibbs sweep; x is the chain's path",
  .ref = "Cardoso, Janati El Idrissi, Le Corff, Moulines & Olsson 2023 "
         "(ICML)",
  .params = ppg_params,
  .nparams = (int)(sizeof ppg_params / sizeof ppg_params[0]),
  .size = sizeof(ppg_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = ppg_init,
  .step = ppg_step,
  .fini = ppg_fini,
  .probe = ppg_probe,
  .probes = OL_MSET(OL_MET_SMOOTH, OL_MET_PFESS),
  .result = ppg_result,
  .check = ol_smc_check,
};
