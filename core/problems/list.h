/*
** core/problems/list.h -- the built-in problem registry: one line each.
** OL_PROBLEM(name) declares ol_problem_<name> (an ol_problem_type) from
** core/problems/<name>.c.
*/
OL_PROBLEM(quadratic)
OL_PROBLEM(rosenbrock)
OL_PROBLEM(logreg)
OL_PROBLEM(gauss2d)
OL_PROBLEM(matrixgame)
OL_PROBLEM(rps)
OL_PROBLEM(rastrigin)
OL_PROBLEM(himmelblau)
OL_PROBLEM(beale)
OL_PROBLEM(saddle)
OL_PROBLEM(monkey)
OL_PROBLEM(smoothabs)
OL_PROBLEM(lasso)
OL_PROBLEM(linreg)
OL_PROBLEM(fsquad)
OL_PROBLEM(reddi)
OL_PROBLEM(matlsq)
OL_PROBLEM(lowrank)
OL_PROBLEM(gaussian)
OL_PROBLEM(banana)
OL_PROBLEM(funnel)
OL_PROBLEM(mixture)
OL_PROBLEM(eightschools)
OL_PROBLEM(blogreg)
