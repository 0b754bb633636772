/*
** core/diffusion/rd.c -- the probability-flow ODE as restoration +
** degradation (Chen, Daras & Dimakis 2023, "Restoration-degradation beyond
** linear diffusions: a non-asymptotic analysis for DDIM-type samplers",
** ICML; seed B009): "one step along the probability flow ODE can be
** expressed as two steps: 1) a restoration step that runs gradient ascent
** on the conditional log-likelihood at some infinitesimally previous time,
** and 2) a degradation step that runs the forward process using noise
** pointing back towards the current iterate" (abstract).
**
** Only the abstract could be read here, not the paper's equations; the
** steps below are derived from it for the Gaussian forward processes of
** diffuse.h, and the choices it leaves open are named.  In the frame
** xb = x / s of diffuse.h the forward process from the noise level
** sigma_r to sigma is xb = xb_r + sqrt(sigma^2 - sigma_r^2) z, and
** grad log pb_sigma = s grad_x log p_t.  One step from (t, sigma) to
** (t', sigma') through the restoration level sigma_r = restore sigma':
**   (R) restoration, A = sigma^2 - sigma_r^2:
**         xr = xb + A grad log pb_sigma(xb)          = E[xb_r | xb]
**       Tweedie's posterior mean of the earlier state: one gradient-ascent
**       step on the log-likelihood with the step A, the forward
**       transition's variance.  As sigma_r -> sigma ("an infinitesimally
**       previous time") the gradient is that of the conditional
**       log-likelihood y -> log q(xb_r = y | xb) at y = xb, the abstract's
**       step; Tweedie's form is chosen because it is exact at every
**       horizon (open in the abstract: the horizon and the step).
**   (D) degradation: the noise pointing back to the current iterate,
**         zb = (xb - xr) / sqrt(A) = -sqrt(A) grad log pb_sigma(xb),
**       drives the forward process from sigma_r to sigma':
**         xb' = xr + sqrt(sigma'^2 - sigma_r^2) zb,   x' = s' xb'.
** Composed, with D = sigma^2 - sigma'^2:
**   xb' = xb + c grad log pb_sigma(xb),  c = A - sqrt(A (A - D))
**       = D/2 + D^2 / (8 A) + O(D^3 / A^2),
** while the flow d xb / d(sigma^2) = -1/2 grad log pb_sigma (pfode.c's,
** in sigma^2) moves by D/2 grad log pb: the composition is a first-order
** step of the PF-ODE (local error O(D^2), global O(1/steps)) as long as
** the restoration reaches back further than the step (A >= sigma^2
** (1 - restore^2) stays away from 0; tests/c/t_diffusion.c measures the
** order).  restore = 0 restores to the data's conditional mean
** (sigma_r = 0, xr = x0^) and is DDIM with eta = 0 exactly (ddim.c),
** whose step is exact wherever x0^ does not change along it (a point
** target, or any target at high noise) -- restore > 0 is not, and
** scripts/pfode_restoration.lua measures the larger error; as
** restore -> 1, A -> D and c -> D, the denoiser's mean with no noise put
** back, twice the flow's move: hence restore <= 0.99.  The paper's
** non-linear forward processes are not implemented: the exact score of a
** gmm target exists for the linear VP and VE processes only.
**
** Metrics (probes, besides the samplers' kl, tv, w2, modeweights,
** entropy): restoration = the particles' mean ||x_r - x||, x_r = s_r xr
** (s_r = 1 / sqrt(1 + sigma_r^2) in VP, 1 in VE), the pull towards the
** data's conditional mean; degradation = their mean ||x' - x_r||, the
** noise added back; each of the step just taken.  One score evaluation
** per particle and step.
*/
#include <math.h>
#include <string.h>

#include "diffuse.h"
#include "rd.h"

typedef struct rd_state {
  ol_dfs D;
  double restore;
  double rmove, dmove;  /* the last step's mean half-step lengths */
} rd_state;

static const ol_param rd_params[] = {
  OL_DFS_PARAMS,
  {"restore", OL_P_REAL, 0.5, 0, 0.99, "the restoration's level as a "
   "fraction of the next step's noise level: 0 restores to the data "
   "(= ddim, eta 0); near 1 the step leaves the flow", NULL},
};

void ol_rd_point (int n, const double *x, const double *g, double s,
                  double sig, double sp, double sigp, double sr, double sigr,
                  double *xr, double *out)
{
  double A = sig * sig - sigr * sigr;
  double b = sqrt(fmax(sigp * sigp - sigr * sigr, 0));
  int j;
  for (j = 0; j < n; j++) {
    double xb = x[j] / s, rb = xb + A * s * g[j];   /* (R) */
    double zb = (xb - rb) / sqrt(A);                /* back to x */
    xr[j] = sr * rb;
    out[j] = sp * (rb + b * zb);                    /* (D) */
  }
}

static int rd_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  rd_state *S = st;
  S->restore = par[5];
  S->rmove = S->dmove = NAN;
  return ol_dfs_init(&S->D, "rd", par, c, e);
}

static int rd_step (void *st, ol_ctx *c, ol_err *e)
{
  rd_state *S = st;
  ol_dfs *D = &S->D;
  double t, tp, s, sig, sp, sigp, sigr, sr, rsum = 0, dsum = 0;
  int i, j, n = D->n, moved = 0, rc = OL_OK;
  ol_dfs_times(D, 0, &t, &tp, &s, &sig, &sp, &sigp);
  sigr = S->restore * sigp;
  sr = D->sched == OL_DFS_VE ? 1 : 1 / sqrt(1 + sigr * sigr);
  for (i = D->next; i < D->N; i++) {
    double *x = D->x + (size_t)i * n, r2 = 0, d2 = 0;
    if ((rc = ol_dfs_pause(D, i, e)) != OL_OK) break;
    ol_dfs_score(D, D->lv, s, x, D->sc, c->rng);
    /* D->y: the restored point, D->sc2: the degraded one */
    ol_rd_point(n, x, D->sc, s, sig, sp, sigp, sr, sigr, D->y, D->sc2);
    for (j = 0; j < n; j++) {
      r2 += (D->y[j] - x[j]) * (D->y[j] - x[j]);
      d2 += (D->sc2[j] - D->y[j]) * (D->sc2[j] - D->y[j]);
    }
    memcpy(x, D->sc2, (size_t)n * sizeof *x);
    rsum += sqrt(r2);
    dsum += sqrt(d2);
    moved++;
  }
  S->rmove = moved > 0 ? rsum / moved : NAN;
  S->dmove = moved > 0 ? dsum / moved : NAN;
  if (rc != OL_OK) return rc;
  ol_dfs_end(D, c);
  return OL_OK;
}

static double rd_probe (const void *st, int metric, const ol_ctx *c)
{
  const rd_state *S = st;
  if (metric == OL_MET_RESTORATION) return S->rmove;
  if (metric == OL_MET_DEGRADATION) return S->dmove;
  return ol_dfs_probe(st, metric, c);
}

static void rd_fini (void *st)
{
  ol_dfs_fini(&((rd_state *)st)->D);
}

const ol_method_type ol_diffusion_rd = {
  .name = "rd",
  .family = OL_DIFFUSION,
  .doc =
    "probability-flow ODE as restoration (Tweedie step) + degradation "
    "(noise pointing back) with the exact score of a Gaussian mixture",
  .ref = "Chen, Daras & Dimakis 2023, ICML (the abstract's two steps; "
    "equations derived in core/diffusion/rd.c)",
  .params = rd_params,
  .nparams = (int)(sizeof rd_params / sizeof rd_params[0]),
  .size = sizeof(rd_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = rd_init,
  .step = rd_step,
  .fini = rd_fini,
  .probe = rd_probe,
  .result = ol_dfs_result,
  .check = ol_dfs_check,
  .probes = OL_MSET(OL_MET_KL, OL_MET_TV, OL_MET_W2, OL_MET_MODEWEIGHTS,
                    OL_MET_ENTROPY, OL_MET_RESTORATION, OL_MET_DEGRADATION),
};
