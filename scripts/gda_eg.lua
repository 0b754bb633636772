-- scripts/gda_eg.lua -- gradient descent-ascent cycles or spirals out on a
-- bilinear game, extragradient and optimistic GDA converge.
--
-- Claims, on min_x max_y x'My over R^2 x R^2 (problem.bilinear{simplex =
-- false}, M = [2 -1; -1 1], equilibrium z* = 0):
--   simultaneous GDA diverges: ||z_t - z*|| grows by sqrt(1 + lr^2 s^2) per
--   step along each singular value s of M; alternating GDA stays bounded
--   and does not converge (Bailey, Gidel & Piliouras, "Finite regret and
--   cycles with fixed step-size via alternating gradient descent-ascent",
--   COLT 2020); the extragradient method (Korpelevich, "The extragradient
--   method for finding saddle points and other problems", 1976) and
--   optimistic GDA (Popov, "A modification of the Arrow-Hurwicz method for
--   search of saddle points", 1980; Daskalakis, Ilyas, Syrgkanis & Zeng,
--   "Training GANs with optimism", ICLR 2018) converge linearly (Mokhtari,
--   Ozdaglar & Pattathil, "A unified analysis of extra-gradient and
--   optimistic gradient methods for saddle point problems", AISTATS 2020).
--
-- Deterministic (no seed).  Usage: optlab scripts/gda_eg.lua [iters] [lr]
-- (defaults 30000, 0.1; GDA runs 1000 steps, it overflows long before
-- 30000).
local T = tonumber(arg and arg[1]) or 30000
local lr = tonumber(arg and arg[2]) or 0.1
local p = problem.bilinear{simplex = false}
local smax = (3 + math.sqrt(5)) / 2   -- largest singular value of M
lesson.claim(string.format("on the unconstrained bilinear game at lr = %g "
                    .. "simultaneous GDA spirals out, alternating GDA stays "
                    .. "bounded without converging, extragradient and "
                    .. "optimistic GDA reach ||z - z*|| < 1e-6 in %d steps",
                    lr, T))
local function span (r, from)
  local d, t = r:series("dist")
  local lo, hi = math.huge, 0
  for i = 1, #d do
    if t[i] >= from then lo, hi = math.min(lo, d[i]), math.max(hi, d[i]) end
  end
  return d[1], d[#d], lo, hi
end
local opts = {iters = 1000, metrics = {"dist"}}
local g = run(p, game.gda{lr = lr}, opts)
local a = run(p, game.gda{lr = lr, alternating = true}, opts)
local e = run(p, game.eg{lr = lr}, {iters = T, metrics = {"dist"}})
local o = run(p, game.ogda{lr = lr}, {iters = T, metrics = {"dist"}})
local d0, gT = span(g, 0)
local growth = (gT / d0) ^ (1 / g.iter)
print(string.format("gda simultaneous: ||z - z*|| %.3g -> %.3g in %d steps, "
                    .. "%.5f per step (asymptotic rate sqrt(1 + lr^2 "
                    .. "s_max^2) = %.5f)",
                    d0, gT, g.iter, growth, math.sqrt(1 + (lr * smax) ^ 2)))
local _, aT, alo, ahi = span(a, 500)
print(string.format("gda alternating: ||z - z*|| between %.3g and %.3g over "
                    .. "steps 500..1000 (start %.3g, end %.3g)", alo, ahi, d0,
                    aT))
local _, eT = span(e, 0)
local _, oT = span(o, 0)
print(string.format("extragradient: ||z - z*|| = %.3g after %d steps; "
                    .. "optimistic GDA: %.3g", eT, e.iter, oT))
local ok = gT > 100 * d0 and alo > 0.5 * d0 and ahi < 2 * d0
  and eT < 1e-6 and oT < 1e-6
lesson.verdict(string.format("%s (gda %.3g > 100 x %.3g; alternating in "
                    .. "[%.3g, %.3g], within [0.5, 2] x the start; eg %.2g, "
                    .. "ogda %.2g < 1e-6; no seed)",
                    ok and "holds" or "does not hold", gT, d0, alo, ahi, eT,
                    oT))
