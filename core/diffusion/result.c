/*
** core/diffusion/result.c -- the named results of diffusion samplers and
** which problems they accept (method.h: ol_method_result,
** ol_diffusion_check); not a method.
**   samples    N x n particles (masked: N x L symbols, 0 still masked)
**   shares     1 x K: the particles' mean responsibility per mixture
**              component (the gmm samplers; modeweights is its largest
**              error), shares_se its standard errors
**   q          1 x V^L: masked's exact output law, sequences in base-V
**              order (first token most significant)
*/
#include <string.h>

#include "diffuse.h"
#include "problems/tokens.h"

int ol_diffusion_result (const ol_method_type *m, const void *st,
                         const char *name, const double **v, int *rows,
                         int *cols)
{
  if (strcmp(m->name, "masked") == 0)
    return ol_masked_result(st, name, v, rows, cols);
  return ol_dfs_result(st, name, v, rows, cols);
}

int ol_diffusion_check (const ol_method_type *m, const ol_problem *p,
                        ol_err *e)
{
  if (strcmp(m->name, "masked") == 0) {
    if (ol_tokens_of(p) == NULL)
      return ol_err_set(e, OL_EINVAL, "masked needs a token-sequence target "
                        "made by problem.tokens{} (%s is not one)", p->name);
    return OL_OK;
  }
  if (ol_gmm_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs the exact score of its "
                      "target: a Gaussian mixture made by problem.gmm{} (%s "
                      "is not one)", m->name, p->name);
  return OL_OK;
}
