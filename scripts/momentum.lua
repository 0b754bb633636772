-- scripts/momentum.lua -- heavy ball vs gradient descent on an
-- ill-conditioned quadratic.
--
-- Claim (Polyak, "Some methods of speeding up the convergence of
-- iteration methods", 1964; see also Goh, "Why momentum really works",
-- Distill 2017):
-- on a quadratic with condition number kappa = L/mu, gradient descent with
-- its best constant step 2/(L+mu) contracts the error by (kappa-1)/(kappa+1)
-- per step, so it needs ~kappa/2 ln(1/eps) steps; the heavy ball with
-- lr = 4/(sqrt L + sqrt mu)^2 and mu_hb = ((sqrt kappa - 1)/(sqrt kappa + 1))^2
-- contracts by (sqrt kappa - 1)/(sqrt kappa + 1): ~sqrt(kappa)/2 ln(1/eps)
-- steps.  The ratio of the two step counts is therefore about sqrt(kappa).
--
-- Usage: optlab scripts/momentum.lua [kappa]   (default 1000)
local kappa = tonumber(arg and arg[1]) or 1000
local L, mu = 1, 1 / kappa          -- problem.quadratic's spectrum is [1/cond, 1]
local p = problem.quadratic{n = 50, cond = kappa, seed = 7}
local sq = math.sqrt(kappa)

local gd = optim.gd{lr = 2 / (L + mu)}
local hb = optim.momentum{lr = 4 / (math.sqrt(L) + math.sqrt(mu))^2,
                          mu = ((sq - 1) / (sq + 1))^2}
local eps = 1e-6
-- Each run stops at the first iteration where ||x - x*|| <= eps ||x0 - x*||
-- (stop_below: the metric is evaluated every step, so the count is exact).
local d0 = run(p, gd, {iters = 0, metrics = {"dist"}}):last("dist")
local seed = 1
lesson.claim(string.format("on a quadratic of condition number %g the tuned "
                    .. "heavy ball shrinks ||x - x*|| by %g in about "
                    .. "sqrt(kappa) times fewer steps than gradient descent "
                    .. "at its best step", kappa, eps))
local rc = race(p, {gd, hb}, {iters = math.ceil(3 * kappa * math.log(1 / eps)),
                              seed = seed, metrics = {"dist"},
                              watch = {"dist"}, stop_below = {dist = eps * d0}})

local function steps_to (r)
  return r.reason == "tolerance" and r.iter or math.huge
end

local n_gd, n_hb = steps_to(rc[1]), steps_to(rc[2])
print(string.format("kappa %g: steps to shrink ||x - x*|| by %g", kappa, eps))
print(string.format("  gd        %6d   (theory ~ %.0f)", n_gd,
                    math.log(1 / eps) / -math.log((kappa - 1) / (kappa + 1))))
print(string.format("  momentum  %6d   (theory ~ %.0f)", n_hb,
                    math.log(1 / eps) / -math.log((sq - 1) / (sq + 1))))
local ratio = n_gd / n_hb
print(string.format("ratio %.2f  sqrt(kappa) %.2f", ratio, sq))
local ok = ratio > sq / 2 and ratio < 2 * sq
lesson.verdict(string.format("%s (gd %s steps, heavy ball %s, ratio %.2f "
                    .. "within 2x of sqrt(kappa) %.2f; seed %d)",
                    ok and "holds" or "does not hold", tostring(n_gd),
                    tostring(n_hb), ratio, sq, seed))
