-- scripts/mwu_omwu.lua -- multiplicative weights against its optimistic
-- variant in self-play on rock-paper-scissors.
--
-- Claims: the last iterate of multiplicative weights (Hedge) spirals out
-- towards the boundary of the simplex in a zero-sum game with an interior
-- equilibrium (Bailey & Piliouras, "Multiplicative weights update in
-- zero-sum games", EC 2018), while the last iterate of optimistic MWU
-- converges to the equilibrium (Daskalakis & Panageas, "Last-iterate
-- convergence: zero-sum games and constrained min-max optimization", ITCS
-- 2019); the average strategies of both converge (Freund & Schapire,
-- "Adaptive game playing using multiplicative weights", Games and Economic
-- Behavior 1999).  On RPS the equilibrium is uniform: entropy 2 log 3 =
-- 2.197 for the two players together, and the start x0 is off it.
--
-- Deterministic (no seed).  Usage: optlab scripts/mwu_omwu.lua [iters]
-- [lr]   (defaults 20000, 0.1); in the full-screen view the simplex panel
-- shows the two trajectories.
local T = tonumber(arg and arg[1]) or 20000
local lr = tonumber(arg and arg[2]) or 0.1
local metrics = {"nashconv", "nashconv_avg", "entropy", "dist"}
lesson.claim(string.format("on rock-paper-scissors at lr = %g the last "
                    .. "iterate of MWU moves away from the equilibrium "
                    .. "(NashConv > 0.5, entropy falling) while OMWU's "
                    .. "converges (NashConv < 1e-6); the averages of both "
                    .. "converge (NashConv < 0.05) after %d steps", lr, T))
local watch = {"nashconv", "entropy", "simplex"}
local m = run(problem.rps{}, game.mwu{lr = lr},
              {iters = T, metrics = metrics, watch = watch})
local o = run(problem.rps{}, game.omwu{lr = lr},
              {iters = T, metrics = metrics, watch = watch})
local h0 = m:series("entropy")[1]
local d0 = m:series("dist")[1]
for _, r in ipairs{{"mwu ", m}, {"omwu", o}} do
  local x = r[2]
  print(string.format("%s last iterate: NashConv %.3g, distance to the "
                      .. "equilibrium %.3g (start %.3g), entropy %.4f "
                      .. "(start %.4f, equilibrium %.4f); average: NashConv "
                      .. "%.3g", r[1], x:last("nashconv"), x:last("dist"),
                      d0, x:last("entropy"), h0, 2 * math.log(3),
                      x:last("nashconv_avg")))
end
local ok = m:last("nashconv") > 0.5 and m:last("entropy") < h0
  and m:last("dist") > d0 and o:last("nashconv") < 1e-6
  and m:last("nashconv_avg") < 0.05 and o:last("nashconv_avg") < 0.05
lesson.verdict(string.format("%s (mwu last NashConv %.3g > 0.5, entropy "
                    .. "%.3f < %.3f, distance %.3g > %.3g; omwu last "
                    .. "NashConv %.2g < 1e-6; averages %.3g, %.3g < 0.05; "
                    .. "no seed)", ok and "holds" or "does not hold",
                    m:last("nashconv"), m:last("entropy"), h0,
                    m:last("dist"), d0, o:last("nashconv"),
                    m:last("nashconv_avg"), o:last("nashconv_avg")))
