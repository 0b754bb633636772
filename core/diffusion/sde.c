/*
** core/diffusion/sde.c -- the reverse-time SDE with the exact score of a
** Gaussian mixture, by Euler-Maruyama steps in t (Song et al. 2021,
** "Score-based generative modeling through stochastic differential
** equations", eq. 6; Anderson 1982).
**
** Forward dx = f(x, t) dt + g(t) dw: VP f = -beta(t) x / 2, g^2 = beta(t);
** VE f = 0, g^2 = d sigma^2 / dt (diffuse.h).  Reverse, from t to
** t' = t - dt, z ~ N(0, I):
**   x' = x - (f(x, t) - g(t)^2 s^(x)) dt + g(t) sqrt(dt) z,
** i.e. VP x' = x + beta dt (x / 2 + s^(x)) + sqrt(beta dt) z.
** Near t = 1 the cosine schedule's beta is large (about 300) and few steps
** make Euler-Maruyama unstable there; the linear VP betas stay below 20.
** One run iteration = one such step for all particles.
*/
#include <math.h>

#include "diffuse.h"

typedef struct sde_state {
  ol_dfs D;
} sde_state;

static const ol_param sde_params[] = {
  OL_DFS_PARAMS
};

static int sde_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  return ol_dfs_init(&((sde_state *)st)->D, "sde", par, c, e);
}

static int sde_step (void *st, ol_ctx *c, ol_err *e)
{
  ol_dfs *D = &((sde_state *)st)->D;
  double t, tp, s, sig, sp, sigp, dt, g2, drift, sq;
  int i, j, n = D->n;
  ol_dfs_times(D, 0, &t, &tp, &s, &sig, &sp, &sigp);
  dt = t - tp;
  g2 = ol_dfs_g2(D, t);
  drift = D->sched == OL_DFS_VE ? 0 : 0.5 * g2 * dt;  /* -f dt = beta x dt/2 */
  sq = sqrt(g2 * dt);
  for (i = D->next; i < D->N; i++) {
    double *x = D->x + (size_t)i * n;
    if (ol_dfs_pause(D, i, e) != OL_OK) return OL_EINTR;
    ol_dfs_score(D, D->lv, s, x, D->sc, c->rng);
    for (j = 0; j < n; j++)
      x[j] += drift * x[j] + g2 * dt * D->sc[j] + sq * ol_rng_normal(c->rng);
  }
  ol_dfs_end(D, c);
  return OL_OK;
}

static void sde_fini (void *st)
{
  ol_dfs_fini(&((sde_state *)st)->D);
}

const ol_method_type ol_diffusion_sde = {
  .name = "sde",
  .family = OL_DIFFUSION,
  .doc = "reverse-time SDE (Euler-Maruyama) with the exact score of a Gaussian "
    "mixture",
  .ref = "Song et al. 2021 (eq. 6); Anderson 1982",
  .params = sde_params,
  .nparams = (int)(sizeof sde_params / sizeof sde_params[0]),
  .size = sizeof(sde_state),
  .kinds = OL_KIND(OL_DENSITY),
  .init = sde_init,
  .step = sde_step,
  .fini = sde_fini,
  .probe = ol_dfs_probe,
  .result = ol_dfs_result,
  .check = ol_dfs_check,
  .probes = OL_DFS_PROBES,
};
