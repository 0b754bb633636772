-- scripts/rps.lua -- regret matching+ in self-play on rock-paper-scissors.
--
-- Claim (Tammelin, "Solving large imperfect information games using CFR+",
-- 2014; Farina, Kroer & Sandholm, "Faster game solving via predictive
-- Blackwell approachability: connecting regret matching and mirror
-- descent", AAAI 2021): RM+ is a no-regret
-- dynamic, so in a two-player zero-sum game the average strategy pair
-- converges to a Nash equilibrium, with NashConv (here the duality gap)
-- O(1/sqrt(T)) in the worst case.  Exploitability is OpenSpiel's: NashConv
-- / 2 for two players (issue 12; before it, optlab's "exploitability" was
-- the NashConv of the average, now "nashconv_avg").  On rock-paper-scissors the equilibrium
-- is uniform, whose entropy is log 3 per player; the claim is about the
-- average, the last iterate need not converge.
--
-- Usage: optlab scripts/rps.lua [iters]   (default 20000)
local T = tonumber(arg and arg[1]) or 20000
local seed = 1
lesson.claim(string.format("in self-play on rock-paper-scissors the average "
                    .. "strategies of regret matching+ approach the Nash "
                    .. "equilibrium: exploitability (NashConv / 2) of the "
                    .. "average below 1e-2 after %d "
                    .. "steps, falling at least like T^-0.4 (bound T^-0.5)",
                    T))
local r = run(problem.rps{}, game.rmplus{},
              {iters = T, seed = seed,
               watch = {"exploitability_avg", "nashconv_avg", "entropy"}})

-- Fit the log-log slope of exploitability over the second half of the run.
local e, t = r:series("exploitability_avg")
local sx, sy, sxx, sxy, k = 0, 0, 0, 0, 0
for i = 1, #e do
  if t[i] >= T / 2 and e[i] > 0 then
    local lx, ly = math.log(t[i]), math.log(e[i])
    sx, sy, sxx, sxy, k = sx + lx, sy + ly, sxx + lx * lx, sxy + lx * ly, k + 1
  end
end
local slope = (k * sxy - sx * sy) / (k * sxx - sx * sx)
local ex = r:last("exploitability_avg")
print(string.format("exploitability of the average %.3g after %d steps "
                    .. "(NashConv %.3g)", ex, r.iter, r:last("nashconv_avg")))
print(string.format("log-log slope %.2f (worst-case bound -0.5)", slope))
print(string.format("entropy of the last iterate %.4f (at the equilibrium "
                    .. "%.4f; the last iterate need not converge)",
                    r:last("entropy"), 2 * math.log(3)))
local ok = ex < 1e-2 and slope < -0.4
lesson.verdict(string.format("%s (exploitability %.3g < 1e-2, slope %.2f < "
                    .. "-0.4; seed %d)", ok and "holds" or "does not hold", ex,
                    slope, seed))
