/*
** core/games/check.c -- what a game dynamic needs of its problem (the
** check hook of method.h, after the generic tests of ol_method_check):
**   ol_game_check       a normal-form dynamic: a game (matrix or
**                       polymatrix, not a game tree) or a problem over
**                       simplices (set = "simplex")
**   ol_game_check_tree  an extensive-form dynamic (cfr, cfrplus): a game
**                       tree (problem.kuhn{}, problem.efg{...})
** Not a method.
*/
#include "play.h"

int ol_game_check (const ol_method_type *m, const ol_problem *p, ol_err *e)
{
  if (ol_tree_of(p) != NULL)
    return ol_err_set(e, OL_EINVAL, "%s plays normal-form games; %s is an "
                      "extensive-form game (behavioural strategies on a "
                      "tree): use game.cfr or game.cfrplus", m->name,
                      p->name);
  if (p->kind != OL_GAME && p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "%s needs a game or a problem over "
                      "simplices (set = \"simplex\")", m->name);
  return OL_OK;
}

int ol_game_check_tree (const ol_method_type *m, const ol_problem *p,
                        ol_err *e)
{
  if (ol_tree_of(p) == NULL)
    return ol_err_set(e, OL_EINVAL, "%s needs an extensive-form game (a "
                      "game tree: problem.kuhn{} or problem.efg{...}); %s is not one: use a "
                      "normal-form dynamic (game.rm, game.rmplus, ...)",
                      m->name, p->name);
  if (p->kind != OL_GAME && p->set.kind != OL_SET_SIMPLEX)
    return ol_err_set(e, OL_EINVAL, "%s needs a game or a problem over "
                      "simplices (set = \"simplex\")", m->name);
  return OL_OK;
}
