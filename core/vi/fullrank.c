/*
** core/vi/fullrank.c -- full-rank Gaussian black-box variational
** inference (Kucukelbir et al. 2017, ADVI, Section 2.5, q = N(m, L L');
** Titsias & Lazaro-Gredilla 2014, Algorithm 1: z = m + C eps with C lower
** triangular, the entropy gradient exact; stl = true: Roeder, Wu &
** Duvenaud 2017, eq. 8).
**
** q = N(m, C C'), C lower triangular with C_ii = exp(omega_i) > 0; one
** draw eps ~ N(0, I), z = m + C eps, h = grad U(z) (stl: h = grad U(z) -
** C^-T eps, by back substitution):
**
**   g_m = h,   g_C_ij = h_i eps_j (j < i),
**   g_omega_i = h_i eps_i exp(omega_i) - 1   (stl: no - 1)
**
** averaged over samples draws, then Adam or SGD on (m, C's packed rows)
** with lr sched_t / sqrt(1 + t / decay).  By default stl = true (exact:
** 0 at q = p), decay = 1000 and average = true (the Polyak-Ruppert
** average over the last 1/2 to 3/4 of the steps, with batch-means Monte
** Carlo errors; Polyak & Juditsky 1992).  The step, its averaging, metrics
** and results are core/vi/vi.c's; on a Gaussian target the ELBO's
** optimum is q = p exactly.  A draw costs O(n^2) besides the oracle.
*/
#include "vi.h"

static int fullrank_init (void *st, const double *par, ol_ctx *c,
                          ol_err *e)
{
  return ol_vi_init(st, 0, par, c, e);
}

const ol_method_type ol_vi_fullrank = {
  .name = "fullrank",
  .family = OL_VI,
  .doc = "full-rank Gaussian BBVI: reparameterization gradient of the ELBO "
    "(stl), q = N(m, C C') with C lower triangular, Adam or SGD, averaged "
    "iterates with their MC errors",
  .ref = "Kucukelbir et al. 2017 (ADVI, Sec. 2.5; its k^-1/2 step decay); "
    "Titsias & "
    "Lazaro-Gredilla 2014 (Alg. 1); Roeder et al. 2017 (stl, eq. 8); Polyak "
    "& Juditsky 1992 (averaging)",
  .params = ol_vi_fullrank_params,
  .nparams = OL_VI_NPARAMS,
  .size = sizeof(ol_vi),
  .kinds = OL_KIND(OL_DENSITY),
  .init = fullrank_init,
  .step = ol_vi_step,
  .fini = ol_vi_fini,
  .probe = ol_vi_probe,
  .result = ol_vi_named,
  .probes = OL_PROBES_VI,
};
