-- scripts/shuffle.lua -- random reshuffling vs with-replacement SGD on a
-- finite sum of quadratics.
--
-- Claim (Mishchenko, Khaled & Richtarik, "Random reshuffling: simple
-- analysis with vast improvements", NeurIPS 2020): on a strongly convex
-- finite sum, SGD that samples components with replacement has E||x_K -
-- x*||^2 ~ 1/K after K epochs with a decaying step, while random
-- reshuffling (a fresh permutation each epoch) reaches ~1/K^2: within an
-- epoch the component noise cancels up to second order.
--
-- Setting: fsquad{N = 10, d = 5} (x* known), gd on one component per step
-- (noise = {kind = "batch", batch = 1, order = ...}), step lr0 / (1 + t /
-- N) (schedule "inv" with period one epoch).  Mean of ||x_K - x*||^2 over R
-- streams after K epochs; log-log slope over K.  "once" (one permutation
-- reused) is shown for comparison.
--
-- Usage: optlab scripts/shuffle.lua [R] [lr0]   (defaults 20, 0.5)
local R = math.tointeger(tonumber(arg and arg[1]) or 20)
local lr0 = tonumber(arg and arg[2]) or 0.5
local N = 10
local Ks = {10, 30, 100, 300, 1000}
local orders = {"replace", "shuffle", "once"}

local slope = lesson.slope

local seed = 1
lesson.claim("on a strongly convex finite sum, random reshuffling's mean "
      .. "||x_K - x*||^2 after K epochs falls like K^-2, with-replacement "
      .. "SGD's like K^-1, so reshuffling is over 10x closer at K = 1000")
print(string.format("fsquad{N=%d}, gd lr %g/(1 + t/%d), batch 1: mean "
                    .. "||x_K - x*||^2 over %d streams", N, lr0, N, R))
io.write(string.format("  %-7s", "epochs"))
for _, o in ipairs(orders) do io.write(string.format(" %12s", o)) end
io.write(string.format(" %14s\n", "replace/shuffle"))
local err = {}
for _, o in ipairs(orders) do err[o] = {} end
for i, K in ipairs(Ks) do
  io.write(string.format("  %-7d", K))
  for _, o in ipairs(orders) do
    local p = problem.fsquad{N = N, noise = {kind = "batch", batch = 1,
                                             order = o}}
    local q = repeats(p, optim.gd{lr = lr0},
                      {iters = K * N, seed = seed, metrics = {"dist"},
                       schedule = {kind = "inv", period = N}}, R)
    local s = 0
    for _, d in ipairs(q:values("dist")) do s = s + d * d end
    err[o][i] = s / R
    io.write(string.format(" %12.4g", err[o][i]))
  end
  io.write(string.format(" %14.3g\n", err.replace[i] / err.shuffle[i]))
end
local sl = {}
for _, o in ipairs(orders) do
  sl[o] = slope(Ks, err[o])
  print(string.format("slope %s %.2f", o, sl[o]))
end
print("(rates: replace -1, shuffle -2, Mishchenko et al.'s upper bounds)")
local ratio = err.replace[#Ks] / err.shuffle[#Ks]
local ok = ratio > 10 and sl.replace > -1.3 and sl.replace < -0.7
  and sl.shuffle < sl.replace - 0.7
-- on a terminal, the experiment shown live (headless: nothing)
for _, o in ipairs{"replace", "shuffle"} do
  lesson.show(problem.fsquad{N = N, noise = {kind = "batch", batch = 1,
                                             order = o}},
              optim.gd{lr = lr0},
              {iters = 1000 * N, seed = seed, metrics = {"dist"},
               watch = {"dist"}, schedule = {kind = "inv", period = N}})
end
lesson.verdict(string.format("%s (replace/shuffle %.3g at K = %d; slopes "
                    .. "replace %.2f within 0.3 of -1, shuffle %.2f steeper "
                    .. "by > 0.7; seed %d, %d streams)", ok and "holds"
                    or "does not hold", ratio, Ks[#Ks], sl.replace,
                    sl.shuffle, seed, R))
