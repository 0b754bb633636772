/*
** core/diffusion/ddim.c -- DDIM sampling with the exact score of a
** Gaussian mixture (Song, Meng & Ermon 2021, "Denoising diffusion
** implicit models", eq. 12 and 16).
**
** In the frame x = s (x_0 + sigma z) of diffuse.h (VP: s = sqrt(abar),
** sigma^2 = (1 - abar) / abar; VE: s = 1), with the predicted noise
** eps^ = -s sigma s^(x) from the score and z ~ N(0, I), from t to t':
**   x0^   = x / s - sigma eps^                      (the predicted x_0)
**   sig_e = eta sqrt(sigma'^2 (sigma^2 - sigma'^2) / sigma^2)
**   x'    = s' (x0^ + sqrt(sigma'^2 - sig_e^2) eps^ + sig_e z).
** In VP terms this is eq. 12 with sigma_t(eta) of eq. 16: eta = 0 is the
** deterministic DDIM (= Euler on the probability-flow ODE in sigma,
** pfode.c), eta = 1 the DDPM posterior (ddpm.c).  One run iteration =
** one such step for all particles.
*/
#include <math.h>

#include "diffuse.h"

typedef struct ddim_state {
  ol_dfs D;
  double eta;
} ddim_state;

static const ol_param ddim_params[] = {
  OL_DFS_PARAMS,
  {"eta", OL_P_REAL, 0, 0, 1, "stochasticity: 0 deterministic DDIM, 1 "
   "the DDPM posterior", NULL},
};

static int ddim_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ddim_state *S = st;
  S->eta = par[5];
  return ol_dfs_init(&S->D, "ddim", par, c, e);
}

static int ddim_step (void *st, ol_ctx *c, ol_err *e)
{
  ddim_state *S = st;
  ol_dfs *D = &S->D;
  double t, tp, s, sig, sp, sigp, se, sd;
  int i, j, n = D->n;
  ol_dfs_times(D, 0, &t, &tp, &s, &sig, &sp, &sigp);
  se = S->eta * sqrt(sigp * sigp * (sig * sig - sigp * sigp) / (sig * sig));
  sd = sqrt(fmax(sigp * sigp - se * se, 0));
  for (i = D->next; i < D->N; i++) {
    double *x = D->x + (size_t)i * n;
    if (ol_dfs_pause(D, i, e) != OL_OK) return OL_EINTR;
    ol_dfs_score(D, D->lv, s, x, D->sc, c->rng);
    for (j = 0; j < n; j++) {
      double ep = -s * sig * D->sc[j];             /* (1) eps^ */
      double x0 = x[j] / s - sig * ep;             /* (2) x0^ */
      x[j] = sp * (x0 + sd * ep);                  /* (3) the move */
    }
    if (se > 0)
      for (j = 0; j < n; j++) x[j] += sp * se * ol_rng_normal(c->rng);
  }
  ol_dfs_end(D, c);
  return OL_OK;
}

static void ddim_fini (void *st)
{
  ol_dfs_fini(&((ddim_state *)st)->D);
}

const ol_method_type ol_diffusion_ddim = {
  .name = "ddim",
  .family = OL_DIFFUSION,
  .doc =
    "DDIM (eta: 0 deterministic, 1 DDPM) with the exact score of a Gaussian "
    "mixture",
  .ref = "Song, Meng & Ermon 2021 (eq. 12, 16)",
  .params = ddim_params,
  .nparams = (int)(sizeof ddim_params / sizeof ddim_params[0]),
  .size = sizeof(ddim_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = ddim_init,
  .step = ddim_step,
  .fini = ddim_fini,
  .probe = ol_dfs_probe,
  .result = ol_dfs_result,
  .check = ol_dfs_check,
  .probes = OL_DFS_PROBES,
};
