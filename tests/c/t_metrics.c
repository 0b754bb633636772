/*
** tests/c/t_metrics.c -- the metric registry: definitions, availability
** and the default sets.
**
** Truth: every value below is worked by hand from the definitions in
** core/metrics.h on small vectors.
*/
#include "metrics.h"
#include "method.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int zero (void *ud, const double *x, double *f, double *g, ol_err *e)
{
  (void)ud;
  (void)x;
  (void)e;
  if (f != NULL) *f = 0;
  if (g != NULL) g[0] = 0;
  return OL_OK;
}

static double eval (int id, ol_mstate *s)
{
  return ol_metric_types[id].eval(s);
}

#define B(m) OL_MBIT(OL_MET_##m)

int main (void)
{
  ol_err e;
  ol_problem *p, *box, *sx, *game;
  ol_mstate s;
  double work[32];
  int i, named;

  /* registry */
  for (i = 0, named = 1; i < OL_NMETRICS; i++)
    if (ol_metric_types[i].name == NULL || ol_metric_types[i].doc == NULL ||
        ol_metric_find(ol_metric_types[i].name) != i)
      named = 0;
  ok(named, "metrics: every metric has a name and doc, found by name");
  ok(ol_metric_find("exploitability") == OL_MET_EXPLOIT &&
     ol_metric_find("kkt") == OL_MET_KKT && ol_metric_find("nope") == -1,
     "metrics: find maps names to ids, unknown to -1");

  /* unconstrained objective, x = (3, 4), x* = (0, 0), f* = 1 */
  p = ol_problem_custom(2, zero, 0, NULL, NULL, &e);
  memset(&s, 0, sizeof s);
  s.p = p;
  s.n = 2;
  s.x = (double[]){3, 4};
  s.g = (double[]){-6, 8};
  s.f = 12.5;
  s.t = 10;
  s.work = work;
  is_near(eval(OL_MET_LOSS, &s), 12.5, 0, "metrics: loss is f");
  is_near(eval(OL_MET_GRADNORM, &s), 10, 0, "metrics: gradnorm of (-6, 8) "
          "is 10");
  is_near(eval(OL_MET_KKT, &s), 10, 0,
          "metrics: kkt equals gradnorm when unconstrained");
  ok(!ol_metric_types[OL_MET_DIST].avail(p, OL_OPTIM) &&
     !ol_metric_types[OL_MET_SUBOPT].avail(p, OL_OPTIM),
     "metrics: dist and subopt need x* and f*");
  p->xstar = calloc(2, sizeof(double));
  p->fstar = 1;
  ok(ol_metric_types[OL_MET_DIST].avail(p, OL_OPTIM) &&
     ol_metric_types[OL_MET_SUBOPT].avail(p, OL_OPTIM),
     "metrics: dist and subopt are available once x* and f* are known");
  is_near(eval(OL_MET_DIST, &s), 5, 0, "metrics: dist of (3, 4) to 0 is 5");
  is_near(eval(OL_MET_SUBOPT, &s), 11.5, 0, "metrics: subopt is f - f*");
  ok(!ol_metric_types[OL_MET_ENTROPY].avail(p, OL_OPTIM) &&
     !ol_metric_types[OL_MET_EXPLOIT].avail(p, OL_DYNAMIC) &&
     !ol_metric_types[OL_MET_ACCEPT].avail(p, OL_OPTIM) &&
     ol_metric_types[OL_MET_ACCEPT].avail(p, OL_SAMPLER),
     "metrics: entropy needs a simplex, exploitability a game, accept a "
     "sampler");
  s.accepted = 4;
  is_near(eval(OL_MET_ACCEPT, &s), 0.4, 1e-16,
          "metrics: accept is accepted / t");
  s.t = 0;
  s.accepted = 0;
  is_near(eval(OL_MET_ACCEPT, &s), 0, 0, "metrics: accept at t = 0 is 0");
  ok(ol_metric_defaults(p, OL_OPTIM) ==
     (B(LOSS) | B(GRADNORM) | B(DIST) | B(SUBOPT) | B(MINGRADNORM)),
     "metrics: optimizer defaults are loss gradnorm dist subopt "
     "mingradnorm");
  ok(ol_metric_defaults(p, OL_SAMPLER) ==
     (B(LOSS) | B(GRADNORM) | B(ACCEPT) | B(DIST)),
     "metrics: sampler defaults are loss gradnorm accept dist");

  /* box [0, 1]^3: x = (0, 0.5, 1), g = (1, -1, -2): x - g = (-1, 1.5, 3)
  ** projects to (0, 1, 1), so the gap is ||(0, -0.5, 0)|| = 0.5 */
  box = ol_problem_custom(3, zero, 0, NULL, NULL, &e);
  box->set.kind = OL_SET_BOX;
  box->set.lo = calloc(3, sizeof(double));
  box->set.hi = malloc(3 * sizeof(double));
  for (i = 0; i < 3; i++) box->set.hi[i] = 1;
  s.p = box;
  s.n = 3;
  s.x = (double[]){0, 0.5, 1};
  s.g = (double[]){1, -1, -2};
  is_near(eval(OL_MET_KKT, &s), 0.5, 1e-16,
          "metrics: kkt on a box is ||x - P(x - g)|| (0.5)");
  ok(ol_metric_defaults(box, OL_OPTIM) ==
     (B(LOSS) | B(GRADNORM) | B(KKT) | B(MINGRADNORM)),
     "metrics: a box-constrained optimizer adds kkt (no entropy)");

  /* simplices (2 | 3): x = (.5 .5 | .2 .3 .5), g = (1 2 | 3 0 1):
  ** FW gaps 1.5 - 1 = 0.5 and 1.1 - 0 = 1.1, total 1.6; entropy log 2 +
  ** -(.2 log .2 + .3 log .3 + .5 log .5) */
  sx = ol_problem_custom(5, zero, 0, NULL, NULL, &e);
  sx->set.kind = OL_SET_SIMPLEX;
  sx->set.nblocks = 2;
  sx->set.blocks[0] = 2;
  sx->set.blocks[1] = 3;
  s.p = sx;
  s.n = 5;
  s.x = (double[]){0.5, 0.5, 0.2, 0.3, 0.5};
  s.g = (double[]){1, 2, 3, 0, 1};
  is_near(eval(OL_MET_KKT, &s), 1.6, 1e-15,
          "metrics: kkt on simplices is the summed Frank-Wolfe gap (1.6)");
  is_near(eval(OL_MET_ENTROPY, &s),
          log(2) - (0.2 * log(0.2) + 0.3 * log(0.3) + 0.5 * log(0.5)),
          1e-15, "metrics: entropy sums the blocks' Shannon entropies");
  s.x = (double[]){1, 0, 0, 1, 0};
  is_near(eval(OL_MET_ENTROPY, &s), 0, 0,
          "metrics: entropy of vertices is 0 (0 log 0 = 0)");
  ok(ol_metric_defaults(sx, OL_OPTIM) ==
     (B(LOSS) | B(GRADNORM) | B(KKT) | B(ENTROPY) | B(MINGRADNORM)),
     "metrics: a simplex-constrained optimizer adds kkt and entropy");

  /* game: rock-paper-scissors, A(i, j) = payoff to the row player */
  {
    static const double A[9] = {0, -1, 1, 1, 0, -1, -1, 1, 0};
    game = ol_problem_custom(6, zero, 0, NULL, NULL, &e);
    game->kind = OL_GAME;
    game->rows = 3;
    game->cols = 3;
    game->payoff = malloc(sizeof A);
    memcpy(game->payoff, A, sizeof A);
    game->set.kind = OL_SET_SIMPLEX;
    game->set.nblocks = 2;
    game->set.blocks[0] = 3;
    game->set.blocks[1] = 3;
    s.p = game;
    s.n = 6;
    s.xavg = (double[]){1, 0, 0, 0, 1, 0};   /* rock vs paper */
    /* A y = column 2 = (-1, 0, 1): max 1; A'x = row 1 = (0, -1, 1): min -1 */
    is_near(eval(OL_MET_EXPLOIT, &s), 2, 0,
            "metrics: exploitability of (rock, paper) in RPS is 2");
    s.xavg = (double[]){0.5, 0.5, 0, 1.0 / 3, 1.0 / 3, 1.0 / 3};
    /* A y = 0 for uniform y: max 0; A'x = (0.5, -0.5, 0): min -0.5 */
    is_near(eval(OL_MET_EXPLOIT, &s), 0.5, 1e-15,
            "metrics: exploitability uses the average iterate (0.5)");
    /* kkt of a game is the gap of the last iterate: g = (-A y, A'x) */
    s.x = (double[]){1, 0, 0, 0, 1, 0};
    s.g = (double[]){1, 0, -1, 0, -1, 1};
    is_near(eval(OL_MET_KKT, &s), 2, 0,
            "metrics: kkt of a game equals the last iterate's duality gap");
    ok(ol_metric_defaults(game, OL_DYNAMIC) ==
       (B(LOSS) | B(EXPLOIT) | B(ENTROPY) | B(KKT)),
       "metrics: dynamic defaults are loss exploitability entropy kkt");
    free(game->payoff);
    game->payoff = NULL;
    ok(!ol_metric_types[OL_MET_EXPLOIT].avail(game, OL_DYNAMIC),
       "metrics: exploitability needs a payoff matrix");
  }
  ol_problem_free(p);
  ol_problem_free(box);
  ol_problem_free(sx);
  ol_problem_free(game);
  return done();
}
