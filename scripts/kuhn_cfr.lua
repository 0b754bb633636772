-- scripts/kuhn_cfr.lua -- CFR against CFR+ on Kuhn poker: exploitability
-- of the average strategy over the iterations.
--
-- Claims: vanilla counterfactual regret minimisation drives the
-- exploitability of its average strategy to 0 like O(1/sqrt(T))
-- (Zinkevich, Johanson, Bowling & Piccione, "Regret Minimization in Games
-- with Incomplete Information", NIPS 2007, Theorem 4); CFR+ (regret
-- matching+, alternating updates, linear averaging: Tammelin, "Solving
-- Large Imperfect Information Games Using CFR+", 2014) is much faster in
-- practice: below 1e-3 within 10^4 iterations, with the value of its
-- average within 1e-3 of the game value -1/18 (Kuhn, "A simplified
-- two-person poker", 1950).  Exploitability is OpenSpiel's: NashConv / 2,
-- best responses by walking the tree.
--
-- Deterministic (no seed).  Usage: optlab scripts/kuhn_cfr.lua [iters]
-- (default 10000); in the full-screen view both runs plot their
-- exploitability.
local T = tonumber(arg and arg[1]) or 10000
local p = problem.kuhn{}
lesson.claim(string.format("on Kuhn poker the average strategy of CFR "
                    .. "has exploitability falling like 1/sqrt(T) (log-log "
                    .. "slope in [-0.7, -0.3] from T = %d to %d), CFR+'s "
                    .. "falls below 1e-3 within %d iterations, 10x below "
                    .. "CFR's, its value within 1e-3 of -1/18", T // 100, T,
                    T))
local metrics = {"exploitability", "exploitability_avg", "value"}
local Ts, e = {}, {cfr = {}, cfrplus = {}}
local t0 = math.max(1, T // 1000)
local tt = t0
while tt <= T do
  Ts[#Ts + 1] = tt
  tt = tt * 10
end
if Ts[#Ts] ~= T then Ts[#Ts + 1] = T end
local last = {}
for _, m in ipairs{"cfr", "cfrplus"} do
  for i, n in ipairs(Ts) do
    local r = run(p, game[m]{}, {iters = n, metrics = metrics,
                                 watch = i == #Ts and {"exploitability_avg"}
                                   or nil, view = i == #Ts})
    e[m][i] = r:last("exploitability_avg")
    last[m] = r
  end
end
print(string.format("%8s  %14s  %14s", "T", "cfr", "cfr+"))
for i, n in ipairs(Ts) do
  print(string.format("%8d  %14.4g  %14.4g", n, e.cfr[i], e.cfrplus[i]))
end
-- slope between T/100 and T (the second entry from the end is T/10 when
-- the table runs in decades)
local lo = #Ts >= 3 and #Ts - 2 or 1
local slope = math.log(e.cfr[#Ts] / e.cfr[lo]) / math.log(Ts[#Ts] / Ts[lo])
local v = last.cfrplus:last("value")
print(string.format("cfr log-log slope %.3f from T = %d to %d; cfr+ value "
                    .. "%.6f (game value %.6f)", slope, Ts[lo], Ts[#Ts], v,
                    -1 / 18))
local ecp, ec = e.cfrplus[#Ts], e.cfr[#Ts]
local ok = slope >= -0.7 and slope <= -0.3 and ecp <= 1e-3
  and ecp * 10 <= ec and math.abs(v + 1 / 18) <= 1e-3
lesson.verdict(string.format("%s (cfr slope %.3f in [-0.7, -0.3]; cfr+ "
                    .. "exploitability %.3g <= 1e-3 and 10x below cfr's "
                    .. "%.3g; value error %.2g <= 1e-3; no seed)",
                    ok and "holds" or "does not hold", slope, ecp, ec,
                    math.abs(v + 1 / 18)))
