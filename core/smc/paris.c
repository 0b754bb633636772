/*
** core/smc/paris.c -- smc.paris: PaRIS, the particle-based rapid
** incremental smoother of an additive functional S_h = sum_t h_t(x_{t-1},
** x_t) on a state-space model (problem.ssm), driven by the bootstrap
** particle filter (Olsson & Westerborn 2017, "Efficient particle-based
** online smoothing in general hidden Markov models: the PaRIS
** algorithm", Bernoulli 23(3); seed B023, Cardoso et al. 2023, whose
** bias it studies).  The pass, its accept-reject backward draws and
** its cost are in pf.h.
**
** One step is one independent pass over the T observations (fresh
** particles from the run's generator): its estimate sum_i W^i tau^i of
** E[S_h | y] (metric smooth), its log-likelihood estimate (loglik), its
** mean effective sample size (pfess); x becomes the pass's filtering
** means E^[x_t | y_0 .. y_t] (not the smoothing ones: PaRIS keeps no
** path, only the O(N) statistics, its "limited memory"), so at t = T - 1
** x matches the smoother.  The estimate is consistent as N grows, with a
** bias of order 1/N, that of any self-normalised importance sampling
** estimate (Olsson & Westerborn 2017 bound it; which of their results
** states the 1/N rate could not be checked here; tests/c/t_smc.c
** measures it): the bias PPG removes.  The replicates of the bias and
** variance (M34) are successive steps or runs.
**
** Why a family of its own (smc, core/family.c) and not a sampler: a
** step here is a pass producing an estimate and filtering means, not a
** draw of the target with warmup and draw diagnostics.
*/
#include <math.h>
#include <string.h>

#include "smc/pf.h"

typedef struct paris_state {
  ol_pf f;
  long passes;
} paris_state;

extern const ol_method_type ol_smc_paris;

static const ol_param paris_params[] = {
  {"N", OL_P_INT, 100, 1, 1000000, "particles", NULL},
  {"Ntilde", OL_P_INT, 2, 1, 1000, "backward draws per particle and time "
   "(the paper's default 2)", NULL},
  {"h", OL_P_ENUM, 0, 0, 2, "additive functional: sum x_t, sum x_t^2, or "
   "sum x_{t-1} x_t", "sum|sumsq|cross"},
};

static int paris_init (void *vs, const double *par, ol_ctx *c, ol_err *e)
{
  paris_state *st = vs;
  const ol_ssm *M = ol_ssm_of(c->p);
  if (M == NULL) return ol_smc_check(&ol_smc_paris, c->p, e);
  return ol_pf_init(&st->f, M, (int)par[0], (int)par[1], (int)par[2], 0,
                    "smc.paris", e);
}

static int paris_step (void *vs, ol_ctx *c, ol_err *e)
{
  paris_state *st = vs;
  int rc = ol_pf_pass(&st->f, NULL, c->rng, c->x, e);
  if (rc == OL_OK) st->passes++;
  return rc;
}

static double paris_probe (const void *vs, int metric, const ol_ctx *c)
{
  const paris_state *st = vs;
  (void)c;
  if (st->passes < 1) return NAN;
  switch (metric) {
  case OL_MET_SMOOTH: return st->f.est;
  case OL_MET_LOGLIK: return st->f.loglik;
  case OL_MET_PFESS: return st->f.ess;
  default: return NAN;
  }
}

/* r.truth: E[S_h | y] by the RTS smoother (NaN for sv); r.kalman: the
** exact log-likelihood (NaN for sv). */
static int paris_result (const void *vs, const char *name, const double **v,
                         int *rows, int *cols)
{
  const paris_state *st = vs;
  if (strcmp(name, "truth") == 0) *v = &st->f.M->truth[st->f.h];
  else if (strcmp(name, "kalman") == 0) *v = &st->f.M->loglik;
  else return 0;
  *rows = *cols = 1;
  return 1;
}

static void paris_fini (void *vs)
{
  paris_state *st = vs;
  ol_pf_fini(&st->f);
}

const ol_method_type ol_smc_paris = {
  .name = "paris",
  .family = OL_SMC,
  .doc = "PaRIS additive smoothing (bootstrap particle filter, backward "
         "draws by accept-reject); one step one pass",
  .ref = "Olsson & Westerborn 2017 (Bernoulli 23(3))",
  .params = paris_params,
  .nparams = (int)(sizeof paris_params / sizeof paris_params[0]),
  .size = sizeof(paris_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = paris_init,
  .step = paris_step,
  .fini = paris_fini,
  .probe = paris_probe,
  .probes = OL_MSET(OL_MET_SMOOTH, OL_MET_LOGLIK, OL_MET_PFESS),
  .result = paris_result,
  .check = ol_smc_check,
};
