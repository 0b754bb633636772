/*
** core/registry.c -- the method and problem-type registries.
**
** Built from the list headers with X-macros, so registering a method or a
** built-in problem is one line in
** core/{optim,sample,games,vi,diffusion,rl,dist,smc,problems}/list.h plus its own
** file.  Order: optimizers, samplers, game dynamics, variational methods,
** diffusion samplers, RL methods, distributed methods, each in list
** order.  Both tables are
** const and NULL-ended.
*/
#include <string.h>

#include "method.h"
#include "problem.h"

#define OL_OPTIM(n) extern const ol_method_type ol_optim_##n;
#define OL_SAMPLER(n) extern const ol_method_type ol_sample_##n;
#define OL_DYNAMIC(n) extern const ol_method_type ol_game_##n;
#define OL_VI(n) extern const ol_method_type ol_vi_##n;
#define OL_DIFFUSION(n) extern const ol_method_type ol_diffusion_##n;
#define OL_RL(n) extern const ol_method_type ol_rl_##n;
#define OL_DIST(n) extern const ol_method_type ol_dist_##n;
#define OL_SMC(n) extern const ol_method_type ol_smc_##n;
#define OL_PROBLEM(n) extern const ol_problem_type ol_problem_##n;
#include "optim/list.h"
#include "sample/list.h"
#include "games/list.h"
#include "vi/list.h"
#include "diffusion/list.h"
#include "rl/list.h"
#include "dist/list.h"
#include "smc/list.h"
#include "problems/list.h"
#undef OL_OPTIM
#undef OL_SAMPLER
#undef OL_DYNAMIC
#undef OL_VI
#undef OL_DIFFUSION
#undef OL_RL
#undef OL_DIST
#undef OL_SMC
#undef OL_PROBLEM

const ol_method_type *const ol_methods[] = {
#define OL_OPTIM(n) &ol_optim_##n,
#define OL_SAMPLER(n) &ol_sample_##n,
#define OL_DYNAMIC(n) &ol_game_##n,
#define OL_VI(n) &ol_vi_##n,
#define OL_DIFFUSION(n) &ol_diffusion_##n,
#define OL_RL(n) &ol_rl_##n,
#define OL_DIST(n) &ol_dist_##n,
#define OL_SMC(n) &ol_smc_##n,
#include "optim/list.h"
#include "sample/list.h"
#include "games/list.h"
#include "vi/list.h"
#include "diffusion/list.h"
#include "rl/list.h"
#include "dist/list.h"
#include "smc/list.h"
#undef OL_OPTIM
#undef OL_SAMPLER
#undef OL_DYNAMIC
#undef OL_VI
#undef OL_DIFFUSION
#undef OL_RL
#undef OL_DIST
#undef OL_SMC
  NULL
};

const ol_problem_type *const ol_problem_types[] = {
#define OL_PROBLEM(n) &ol_problem_##n,
#include "problems/list.h"
#undef OL_PROBLEM
  NULL
};

/* The registered method called name, or NULL (also for name == NULL).
** A name may carry its family as in Lua ("optim.rmplus", "game.rmplus"):
** two families may use one name, and a bare name finds the first in
** registry order (optimizers, samplers, dynamics). */
const ol_method_type *ol_method_find (const char *name)
{
  const ol_family *fam = NULL;     /* the family the name carries */
  int i;
  size_t k;
  if (name == NULL) return NULL;
  for (i = 0; i < OL_NFAMILY && fam == NULL; i++) {
    k = strlen(ol_families[i].ns);
    if (strncmp(name, ol_families[i].ns, k) == 0 && name[k] == '.') {
      fam = &ol_families[i];
      name += k + 1;
    }
  }
  for (i = 0; ol_methods[i] != NULL; i++)
    if (strcmp(ol_methods[i]->name, name) == 0
        && (fam == NULL || ol_family_of(ol_methods[i]) == fam))
      return ol_methods[i];
  return NULL;
}

/* The built-in problem type called name, or NULL. */
const ol_problem_type *ol_problem_type_find (const char *name)
{
  int i;
  if (name == NULL) return NULL;
  for (i = 0; ol_problem_types[i] != NULL; i++)
    if (strcmp(ol_problem_types[i]->name, name) == 0)
      return ol_problem_types[i];
  return NULL;
}
