/*
** core/vi/meanfield.c -- mean-field Gaussian black-box variational
** inference (Kucukelbir et al. 2017, ADVI, Section 2.5: q = prod_i
** N(m_i, exp(2 omega_i)), omega = log sd; the reparameterization gradient
** of Titsias & Lazaro-Gredilla 2014; stl = true: Roeder, Wu & Duvenaud
** 2017, eq. 8).
**
** q = N(m, C C') with C = diag(exp(omega)); one draw eps ~ N(0, I),
** z = m + C eps, h = grad U(z) (stl: h = grad U(z) - eps / exp(omega)):
**
**   g_m = h,   g_omega_i = h_i eps_i exp(omega_i) - 1   (stl: no - 1)
**
** averaged over samples draws, then Adam or SGD on (m, omega) with
** lr sched_t / sqrt(1 + t / decay).  By default stl = false, decay = 0
** (vi.c's header: on a correlated target stl's noise is large along the
** directions the error is made of) and average = true (the Polyak-Ruppert
** average over the last 1/2 to 3/4 of the steps, with batch-means Monte
** Carlo errors; Polyak & Juditsky 1992).  The step, its averaging, metrics
** and results are core/vi/vi.c's; at the optimum of a Gaussian target
** N(mu, Sigma), the least KL(q || p), m = mu and exp(2 omega_i) =
** 1 / (Sigma^-1)_ii, the conditional variances, below the marginal ones
** Sigma_ii.
*/
#include "vi.h"

static int meanfield_init (void *st, const double *par, ol_ctx *c,
                           ol_err *e)
{
  return ol_vi_init(st, 1, par, c, e);
}

const ol_method_type ol_vi_meanfield = {
  .name = "meanfield",
  .family = OL_VI,
  .doc = "mean-field Gaussian BBVI: reparameterization gradient of the ELBO, "
    "q = N(m, diag(exp(2 omega))), Adam or SGD, averaged iterates with "
    "their MC errors",
  .ref = "Kucukelbir et al. 2017 (ADVI, Sec. 2.5; its k^-1/2 step decay); "
    "Titsias & "
    "Lazaro-Gredilla 2014; Roeder et al. 2017 (stl, eq. 8); Polyak & "
    "Juditsky 1992 (averaging)",
  .params = ol_vi_meanfield_params,
  .nparams = OL_VI_NPARAMS,
  .size = sizeof(ol_vi),
  .kinds = OL_KIND(OL_DENSITY),
  .init = meanfield_init,
  .step = ol_vi_step,
  .fini = ol_vi_fini,
  .probe = ol_vi_probe,
  .result = ol_vi_named,
  .probes = OL_PROBES_VI,
};
