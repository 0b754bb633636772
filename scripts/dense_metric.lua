-- scripts/dense_metric.lua -- a dense metric learns the correlation that a
-- diagonal one cannot.
--
-- Claim (Stan Reference Manual, "HMC algorithm parameters: Euclidean
-- metric"; Neal 2011, "MCMC using Hamiltonian dynamics", section 4.1): on
-- an equicorrelated Gaussian (unit variances, every correlation 0.99,
-- condition number 1 + 0.99 (n - 1) over 0.01: 991 in 10-D) every
-- marginal variance is 1, so the diagonal metric stays near the identity
-- and NUTS must take steps small enough for the narrow direction (sd 0.1)
-- across the long one (sd 3.1); the dense metric estimated in the same
-- warmup windows is close to the covariance and makes the target
-- isotropic.  Its min bulk-ESS per gradient evaluation should be at least
-- 5 times the diagonal metric's (the step sizes alone predict about
-- sqrt(991) ~ 30; NUTS's antithetic trajectories on the isotropic target
-- add more).
--
-- Numbers: for metric = "diag" and "dense", NUTS at its defaults (warmup
-- 1000), 4 chains of 1000 draws, one seed: min bulk-ESS over the
-- coordinates, gradients of all chains (warmup included), their ratio,
-- the adapted step size.
--
-- Usage: optlab scripts/dense_metric.lua [n] [rho]   (defaults 10, 0.99)
local n = tonumber(arg and arg[1]) or 10
local rho = tonumber(arg and arg[2]) or 0.99
local seed = 11
local cov = {}
for i = 1, n do
  cov[i] = {}
  for j = 1, n do cov[i][j] = i == j and 1 or rho end
end
local p = problem.gaussian{n = n, cov = cov}
local cond = (1 + rho * (n - 1)) / (1 - rho)
lesson.claim(string.format("on a %d-D Gaussian with correlation %g "
                    .. "(condition %.0f), NUTS with a dense metric gets at "
                    .. "least 5x the min bulk-ESS per gradient of a "
                    .. "diagonal metric", n, rho, cond))
local res = {}
for _, metric in ipairs{"diag", "dense"} do
  local c = run(p, sample.nuts{metric = metric},
                {iters = 1000, chains = 4, seed = seed, progress = false})
  local s, ess, grads = c:summary(), math.huge, 0
  for j = 1, n do ess = math.min(ess, s[j].ess_bulk) end
  for k = 1, #c do grads = grads + c[k].ngev end
  res[metric] = {ess = ess, grads = grads, per = 1000 * ess / grads,
                 eps = c:stats().stepsize}
  print(string.format("%-5s  min bulk-ESS %8.1f  gradients %7d  ESS per "
                      .. "1000 gradients %8.3f  step size %.4f", metric,
                      ess, grads, res[metric].per, res[metric].eps))
end
local ratio = res.dense.per / res.diag.per
print(string.format("dense / diag ESS per gradient %.1f", ratio))
lesson.verdict(string.format("%s (dense %.3f vs diag %.3f ESS per 1000 "
                    .. "gradients, ratio %.1f %s 5; seed %d)",
                    ratio >= 5 and "holds" or "does not hold", res.dense.per,
                    res.diag.per, ratio, ratio >= 5 and ">=" or "<", seed))
