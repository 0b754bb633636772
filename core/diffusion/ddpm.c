/*
** core/diffusion/ddpm.c -- DDPM ancestral sampling with the exact score of
** a Gaussian mixture (Ho, Jain & Abbeel 2020, "Denoising diffusion
** probabilistic models", Algorithm 2 and eq. 11; the VE form is Song et
** al. 2021's ancestral sampler for SMLD, Appendix F, eq. 47).
**
** From t to the next time t' < t on the grid of diffuse.h, with the
** score s^ = grad log p_t (plus the injected error) in place of
** -eps_theta / sqrt(1 - abar_t), and z ~ N(0, I):
**   VP  alpha = abar_t / abar_t',  beta = 1 - alpha,
**       x' = (x + beta s^(x)) / sqrt(alpha) + sqrt(beta~) z,
**       beta~ = beta (1 - abar_t') / (1 - abar_t)  (the posterior variance);
**   VE  x' = x + (sigma_t^2 - sigma_t'^2) s^(x)
**            + sqrt(sigma_t'^2 (sigma_t^2 - sigma_t'^2) / sigma_t^2) z.
** The noise is added at every step, the last one included (it ends at
** t = delta, whose marginal the posterior step targets).  One run
** iteration = one such step for all particles.
*/
#include <math.h>

#include "diffuse.h"

typedef struct ddpm_state {
  ol_dfs D;
} ddpm_state;

static const ol_param ddpm_params[] = {
  OL_DFS_PARAMS
};

static int ddpm_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_dfs_init(&((ddpm_state *)st)->D, "ddpm", par, c, e);
}

static int ddpm_step (void *st, ol_ctx *c, ol_err *e)
{
  ol_dfs *D = &((ddpm_state *)st)->D;
  double t, tp, s, sig, sp, sigp, a, b, bt, sa;
  int i, j, n = D->n;
  ol_dfs_times(D, 0, &t, &tp, &s, &sig, &sp, &sigp);
  if (D->sched == OL_DFS_VE) {
    a = sig * sig - sigp * sigp;               /* sigma_t^2 - sigma_t'^2 */
    bt = sqrt(sigp * sigp * a / (sig * sig));
    for (i = D->next; i < D->N; i++) {
      double *x = D->x + (size_t)i * n;
      if (ol_dfs_pause(D, i, e) != OL_OK) return OL_EINTR;
      ol_dfs_score(D, D->lv, s, x, D->sc, c->rng);
      for (j = 0; j < n; j++)
        x[j] += a * D->sc[j] + bt * ol_rng_normal(c->rng);
    }
  }
  else {
    double ab = s * s, abp = sp * sp;
    a = ab / abp;
    b = 1 - a;
    sa = 1 / sqrt(a);
    bt = sqrt(b * (1 - abp) / (1 - ab));
    for (i = D->next; i < D->N; i++) {
      double *x = D->x + (size_t)i * n;
      if (ol_dfs_pause(D, i, e) != OL_OK) return OL_EINTR;
      ol_dfs_score(D, D->lv, s, x, D->sc, c->rng);
      for (j = 0; j < n; j++)
        x[j] = sa * (x[j] + b * D->sc[j]) + bt * ol_rng_normal(c->rng);
    }
  }
  ol_dfs_end(D, c);
  return OL_OK;
}

static void ddpm_fini (void *st)
{
  ol_dfs_fini(&((ddpm_state *)st)->D);
}

const ol_method_type ol_diffusion_ddpm = {
  .name = "ddpm",
  .family = OL_DIFFUSION,
  .doc = "DDPM ancestral sampling with the exact score of a Gaussian mixture",
  .ref =
    "Ho, Jain & Abbeel 2020 (Algorithm 2, eq. 11); Song et al. 2021 (eq. 47)",
  .params = ddpm_params,
  .nparams = (int)(sizeof ddpm_params / sizeof ddpm_params[0]),
  .size = sizeof(ddpm_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = ddpm_init,
  .step = ddpm_step,
  .fini = ddpm_fini,
  .probe = ol_dfs_probe,
  .result = ol_dfs_result,
  .check = ol_dfs_check,
  .probes = OL_DFS_PROBES,
};
