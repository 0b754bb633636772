/*
** core/problems/bilinear.c -- the bilinear saddle problem
**
**   min_x max_y  x'My,   M = [ 2 -1 ; -1  1 ]   (det M = 1)
**
** over the simplices (simplex = true, the default) or over R^2 x R^2
** (simplex = false), the standard test of gradient descent-ascent:
** simultaneous GDA spirals out on the unconstrained problem, extragradient
** (Korpelevich 1976) and optimistic GDA (Popov 1980; Daskalakis, Ilyas,
** Syrgkanis & Zeng 2018, "Training GANs with optimism", ICLR) converge
** (Mokhtari, Ozdaglar & Pattathil 2020, AISTATS, section 3).
**
** In optlab's sign convention the row player receives x'Ay and maximises
** it, so this is the zero-sum game A = -M.  Equilibria:
**   simplices      x* = y* = (2/5, 3/5) (each player makes the other
**                  indifferent: 3p - 1 = 1 - 2p), x*'My* = 1/5, so the
**                  row player's value f* = -1/5;
**   unconstrained  x* = y* = 0 (M is invertible), f* = 0.
** x0 = (0.9, 0.1), (0.2, 0.8) on the simplices; (1, -1), (0.5, 1) in R^4.
*/
#include <stdio.h>

#include "game.h"

static const double bl_A[4] = {-2, 1, 1, -1};
static const double bl_x0s[4] = {0.9, 0.1, 0.2, 0.8};
static const double bl_xstars[4] = {0.4, 0.6, 0.4, 0.6};
static const double bl_x0u[4] = {1, -1, 0.5, 1};
static const double bl_xstaru[4] = {0, 0, 0, 0};

static const ol_param bilinear_params[] = {
  {"simplex", OL_P_BOOL, 1, 0, 1,
   "true: x, y on simplices; false: unconstrained, x, y in R^2", NULL},
};

static int bilinear_create (ol_problem *p, const ol_pval *v, ol_err *e)
{
  int simplex = v[0].num != 0, rc;
  rc = ol_game_builtin(p, "bilinear", bl_A, NULL, 2, 2,
                       simplex ? bl_x0s : bl_x0u,
                       simplex ? bl_xstars : bl_xstaru, 1,
                       simplex ? -0.2 : 0, e);
  if (rc != OL_OK) return rc;
  if (!simplex) {
    p->set.kind = OL_SET_NONE;
    p->set.nblocks = 0;
    snprintf(p->desc, sizeof p->desc, "bilinear{simplex = false}");
  }
  return OL_OK;
}

const ol_problem_type ol_problem_bilinear = {
  .name = "bilinear",
  .kind = OL_GAME,
  .doc = "bilinear saddle min_x max_y x'My, M = [2 -1; -1 1], on simplices or "
         "unconstrained",
  .ref = "Korpelevich 1976; Daskalakis et al. 2018",
  .params = bilinear_params,
  .nparams = (int)(sizeof bilinear_params / sizeof bilinear_params[0]),
  .create = bilinear_create,
  .game = ol_game_ud,
};
