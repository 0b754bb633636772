-- scripts/mala_ula.lua -- the Metropolis step removes the discretization
-- bias of the Langevin step.
--
-- Claim (Roberts & Tweedie, "Exponential convergence of Langevin
-- distributions and their discrete approximations", Bernoulli 1996):
-- the unadjusted Langevin algorithm (ULA) x' = x - h grad U(x) +
-- sqrt(2h) xi is biased at any fixed step h, while MALA, the same proposal
-- with a Metropolis-Hastings correction, leaves the target invariant.  On
-- a 1-D Gaussian of precision a, ULA is the AR(1) x' = (1 - a h) x +
-- sqrt(2h) xi, whose stationary variance is 1 / (a (1 - a h / 2)); the
-- target's is 1 / a.
--
-- Usage: optlab scripts/mala_ula.lua [h]   (default 0.5, with a = 1)
local h = tonumber(arg and arg[1]) or 0.5
local a = 1
local p = problem.new{n = 1, kind = "density", x0 = {0}, fdf = function (x, g)
  if g then g[1] = a * x[1] end
  return 0.5 * a * x[1] * x[1]
end}
local seed = 7
local function var_of (method)
  local c = run(p, method, {iters = 20000, chains = 4, seed = seed,
                            progress = false})
  local s = c:summary()[1]
  -- the variance's standard error from the draws' ESS (delta method on
  -- sd: se(var) = 2 sd se(sd) ~ var sqrt(2 / ESS))
  return s.sd ^ 2, s.sd ^ 2 * math.sqrt(2 / s.ess_bulk)
end
local ulath = 1 / (a * (1 - a * h / 2))
lesson.claim(string.format("at step h = %g, ULA's variance is 1/(a(1 - ah/2)) "
                    .. "= %.4f, not the target's %.4f; MALA's is the target's",
                    h, ulath, 1 / a))
local vu, seu = var_of(sample.ula{h = h})
local vm, sem = var_of(sample.mala{h = h, warmup = 0})
print(string.format("ula   variance %.4f +- %.4f   (theory %.4f)", vu, seu,
                    ulath))
print(string.format("mala  variance %.4f +- %.4f   (target %.4f)", vm, sem,
                    1 / a))
local ok = math.abs(vu - ulath) <= 4 * seu and math.abs(vm - 1 / a) <= 4 * sem
  and math.abs(vu - 1 / a) > 4 * seu
lesson.verdict(string.format("%s (ula %.4f vs %.4f, mala %.4f vs %.4f, each "
                    .. "within 4 standard errors; ula %.1f se from the "
                    .. "target's; seed %d)", ok and "holds" or "does not hold",
                    vu, ulath, vm, 1 / a, math.abs(vu - 1 / a) / seu, seed))
