/*
** core/diffusion/pfode.c -- the probability-flow ODE with the exact score
** of a Gaussian mixture (Song et al. 2021, "Score-based generative
** modeling through stochastic differential equations", eq. 13), solved by
** Euler or Heun steps in the noise level (Karras, Aittala, Aila & Laine
** 2022, "Elucidating the design space of diffusion-based generative
** models", eq. 4 and Algorithm 1).
**
** With x = s xb (the frame of diffuse.h), the flow is
**   d xb / d sigma = eps^(x) = -s sigma s^(x),
** and from (t, sigma) to (t', sigma'), h = sigma' - sigma < 0:
**   euler  xb' = xb + h d,  d = eps^(s xb)                 (= DDIM, eta 0)
**   heun   xe  = xb + h d,  d' = eps^ at (t', s' xe),
**          xb' = xb + h (d + d') / 2                   (Karras et al. Alg. 1)
** and x' = s' xb'.  Heun costs two score evaluations per particle and
** step, Euler one.  One run iteration = one such step for all particles.
*/
#include <math.h>

#include "diffuse.h"

typedef struct pfode_state {
  ol_dfs D;
  int heun;
} pfode_state;

static const ol_param pfode_params[] = {
  OL_DFS_PARAMS,
  {"solver", OL_P_ENUM, 0, 0, 1, "ODE steps in sigma: Euler (1 score per "
   "step) or Heun (2; Karras et al. 2022)", "euler|heun"},
};

static int pfode_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  pfode_state *S = st;
  S->heun = par[5] == 1;
  return ol_dfs_init(&S->D, "pfode", par, c, e);
}

static int pfode_step (void *st, ol_ctx *c, ol_err *e)
{
  pfode_state *S = st;
  ol_dfs *D = &S->D;
  double t, tp, s, sig, sp, sigp, h;
  int i, j, n = D->n;
  ol_dfs_times(D, S->heun, &t, &tp, &s, &sig, &sp, &sigp);
  h = sigp - sig;
  for (i = D->next; i < D->N; i++) {
    double *x = D->x + (size_t)i * n;
    if (ol_dfs_pause(D, i, e) != OL_OK) return OL_EINTR;
    /* (1) the slope d = eps^ at x */
    ol_dfs_score(D, D->lv, s, x, D->sc, c->rng);
    if (!S->heun)
      for (j = 0; j < n; j++)
        x[j] = sp * (x[j] / s - h * s * sig * D->sc[j]);
    else {
      /* (2) Euler's point, and the slope there at t' */
      for (j = 0; j < n; j++)
        D->y[j] = sp * (x[j] / s - h * s * sig * D->sc[j]);
      ol_dfs_score(D, D->lv2, sp, D->y, D->sc2, c->rng);
      /* (3) the trapezoid */
      for (j = 0; j < n; j++)
        x[j] = sp * (x[j] / s - 0.5 * h * (s * sig * D->sc[j]
                                           + sp * sigp * D->sc2[j]));
    }
  }
  ol_dfs_end(D, c);
  return OL_OK;
}

static void pfode_fini (void *st)
{
  ol_dfs_fini(&((pfode_state *)st)->D);
}

const ol_method_type ol_diffusion_pfode = {
  .name = "pfode",
  .family = OL_DIFFUSION,
  .doc =
    "probability-flow ODE (Euler or Heun in sigma) with the exact score of "
    "a Gaussian mixture",
  .ref = "Song et al. 2021 (eq. 13); Karras et al. 2022 (eq. 4, Algorithm 1)",
  .params = pfode_params,
  .nparams = (int)(sizeof pfode_params / sizeof pfode_params[0]),
  .size = sizeof(pfode_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = pfode_init,
  .step = pfode_step,
  .fini = pfode_fini,
  .probe = ol_dfs_probe,
  .result = ol_dfs_result,
  .check = ol_dfs_check,
  .probes = OL_DFS_PROBES,
};
