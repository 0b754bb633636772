-- scripts/shapley_fp.lua -- fictitious play fails to converge in
-- Shapley's game.
--
-- Claim (Shapley, "Some topics in two-person games", Advances in Game
-- Theory, 1964): in his 3 x 3 general-sum game, whose unique Nash
-- equilibrium is uniform for both players, the empirical frequencies of
-- fictitious play (Brown, "Iterative solution of games by fictitious
-- play", 1951) cycle with growing periods and never approach the
-- equilibrium: their NashConv stays bounded away from 0.  In a zero-sum
-- game (rock-paper-scissors, from the same kind of pure start) the same
-- dynamic converges (Robinson, "An iterative method of solving a game",
-- Annals of Mathematics 1951).  Beside it: the empirical joint play of FP
-- in Shapley's game has a small average regret, the CCE gap (Fudenberg &
-- Levine, "The theory of learning in games", 1998, ch. 2): close to a
-- coarse correlated equilibrium, far from a Nash equilibrium.
--
-- Deterministic (no seed).  Usage: optlab scripts/shapley_fp.lua [iters]
-- (default 10000).
local T = tonumber(arg and arg[1]) or 10000
lesson.claim(string.format("fictitious play in Shapley's game keeps the "
                    .. "NashConv of its empirical play above 0.05 over "
                    .. "steps %d..%d, while in rock-paper-scissors it falls "
                    .. "below 0.05", T // 2, T))
local function band (r)
  local d, t = r:series("nashconv_avg")
  local lo, hi = math.huge, 0
  for i = 1, #d do
    if t[i] >= T // 2 then lo, hi = math.min(lo, d[i]), math.max(hi, d[i]) end
  end
  return lo, hi
end
local metrics = {"nashconv_avg", "ccegap"}
local s = run(problem.shapley{}, game.fp{},
              {iters = T, metrics = metrics,
               watch = {"nashconv_avg", "ccegap", "simplex"}})
local r = run(problem.rps{x0 = {1, 0, 0, 0, 1, 0}}, game.fp{},
              {iters = T, metrics = metrics})
local slo, shi = band(s)
local rlo, rhi = band(r)
print(string.format("shapley: NashConv of the empirical play in [%.3g, %.3g] "
                    .. "over steps %d..%d, %.3g at the end; CCE gap %.2g",
                    slo, shi, T // 2, T, s:last("nashconv_avg"),
                    s:last("ccegap")))
print(string.format("rps: NashConv of the empirical play %.3g after %d steps "
                    .. "(in [%.3g, %.3g] over the second half)",
                    r:last("nashconv_avg"), T, rlo, rhi))
local ok = slo > 0.05 and r:last("nashconv_avg") < 0.05
lesson.verdict(string.format("%s (shapley min %.3g > 0.05; rps %.3g < 0.05; "
                    .. "no seed)", ok and "holds" or "does not hold", slo,
                    r:last("nashconv_avg")))
