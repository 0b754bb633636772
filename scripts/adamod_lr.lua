-- scripts/adamod_lr.lua -- AdaMod's long-term memory of the adaptive
-- rates removes Adam's and AdaBound's huge early learning rates; AdaBound's
-- band turns it into SGD.
--
-- Claim (Ding, Ren, Luo & Sun, "An adaptive and momental bound method for
-- stochastic learning", arXiv 1910.12249, 2019; Luo, Xiong, Liu & Sun,
-- "Adaptive gradient methods with dynamic bound of learning rate", ICLR
-- 2019): the adaptive learning rates of Adam (and of AdaBound, whose
-- upper bound starts far above its final rate) are extremely large at the
-- start of training; AdaMod caps each rate by an exponential moving
-- average of the past ones (beta3), which starts at 0, so it has no such
-- spike.  AdaBound clips its rates into a band [eta_l(t), eta_u(t)] that
-- closes on final_lr, so late in training every coordinate moves at one
-- rate, final_lr / sqrt(t): SGD.
--
-- Problem: problem.quadratic{n = 8, cond = 1e4, rotate = false} from x0 =
-- 1 (gradients lambda_i x_i from 1 down to 1e-4), no noise, the methods'
-- defaults (lr = 1e-3, beta1 = 0.9, beta2 = 0.999, beta3 = 0.999,
-- final_lr = 0.1, gamma = 1e-3).  The lr-envelope metrics lrmin, lrmed,
-- lrmax (min / median / max over coordinates of the multiplier of the
-- raw first moment m_t) at t = 1 against their closed forms, their
-- maximum over the first 100 steps, and their spread at T = 1e5.
-- Closed forms at t = 1, with g = lambda_min = 1e-4 the smallest gradient
-- (m_1 = (1 - beta1) g, v_1 = (1 - beta2) g^2):
--   adam      lr / ((1 - beta1) (|g| + eps))          (bias-corrected)
--   adabound  min(lr / (sqrt(1 - beta2) |g| + eps), eta_u(1)),
--             eta_u(t) = final_lr (1 + 1 / (gamma t))
--   adamod    (1 - beta3) lr / ((1 - beta1) (|g| + eps))
-- and AdaBound's band at T: eta_l(T) = final_lr (1 - 1 / (gamma T + 1)),
-- eta_u(T), each over sqrt(T).  Late in this noise-free run the gradients
-- of the converged coordinates vanish and Adam's and AdaMod's rates there
-- grow toward lr / eps (spreads in the thousands): AdaMod's memory tames
-- the start, only AdaBound's band bounds the end.  Deterministic (no
-- noise).
--
-- Usage: optlab scripts/adamod_lr.lua [T]   (steps, default 100000)
local T = math.tointeger(tonumber(arg and arg[1]) or 100000)
local lr, b1, b2, b3, eps, flr, gam = 1e-3, 0.9, 0.999, 0.999, 1e-8, 0.1, 1e-3
local p = problem.quadratic{n = 8, cond = 1e4, rotate = false}
local g = 1e-4

local eu = function (t) return flr * (1 + 1 / (gam * t)) end
local el = function (t) return flr * (1 - 1 / (gam * t + 1)) end
local want1 = {
  adam = lr / ((1 - b1) * (g + eps)),
  adabound = math.min(lr / (math.sqrt(1 - b2) * g + eps), eu(1)),
  adamod = (1 - b3) * lr / ((1 - b1) * (g + eps)),
}
local methods = {{"adam", optim.adam{}}, {"adabound", optim.adabound{}},
                 {"adamod", optim.adamod{}}}

lesson.claim("AdaMod has no early spike of adaptive learning rates (Adam's "
      .. "and AdaBound's reach ~100 in the first steps); AdaBound's band "
      .. "closes on final_lr, so its rates end as one SGD rate")
print(string.format("  %-9s %12s %12s %12s %12s %12s %10s", "method",
                    "lrmax t=1", "(closed)", "max t<=100", "lrmin T",
                    "lrmax T", "spread T"))
local res = {}
for _, nm in ipairs(methods) do
  local name, m = nm[1], nm[2]
  local r = run(p, m, {iters = T, metrics = {"loss", "lrmin", "lrmed",
                                             "lrmax"},
                       progress = false, view = false})
  local mx, t = r:series("lrmax")
  local x1, early = nil, 0
  for i = 1, #t do
    if t[i] == 1 then x1 = mx[i] end
    if t[i] >= 1 and t[i] <= 100 then early = math.max(early, mx[i]) end
  end
  local s = {x1 = x1, early = early, lo = r:last("lrmin"),
             med = r:last("lrmed"), hi = r:last("lrmax"),
             loss = r:last("loss")}
  s.spread = s.hi / s.lo
  res[name] = s
  print(string.format("  %-9s %12.6g %12.6g %12.4g %12.4g %12.4g %10.4g", name,
                      s.x1, want1[name], s.early, s.lo, s.hi, s.spread))
end
local bl, bu = el(T) / math.sqrt(T), eu(T) / math.sqrt(T)
local ab = res.adabound
print(string.format("adabound's band at T = %d: [%.6g, %.6g] (final_lr / "
                    .. "sqrt(T) = %.6g); its rates [%.6g, %.6g]", T, bl, bu,
                    flr / math.sqrt(T), ab.lo, ab.hi))
local sup = math.min(res.adam.early, ab.early) / res.adamod.early
print(string.format("early spike: adam %.4g, adabound %.4g, adamod %.4g "
                    .. "(suppressed %.0fx)", res.adam.early, ab.early,
                    res.adamod.early, sup))
local cf = 0
for name, w in pairs(want1) do
  cf = math.max(cf, math.abs(res[name].x1 - w) / w)
end
local inband = ab.lo >= bl * (1 - 1e-12) and ab.hi <= bu * (1 + 1e-12)
local holds = cf < 1e-9 and sup >= 50 and res.adamod.early <= 1
  and inband and ab.spread <= eu(T) / el(T) and res.adam.spread > 100
  and res.adamod.spread > 100
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(p, {optim.adam{}, optim.adabound{}, optim.adamod{}},
            {iters = T, metrics = {"loss", "lrmax"}, watch = {"lrmax", "loss"}})
lesson.verdict(string.format("%s (t = 1 rates at their closed forms to "
                    .. "%.1g; adamod's early max %.3g, %.0fx below adam's and "
                    .. "adabound's; adabound's rates at T inside the band "
                    .. "%s, spread %.4g <= %.4g where adam's is %.4g and "
                    .. "adamod's %.4g; no seed: deterministic)",
                    holds and "holds" or "does not hold", cf,
                    res.adamod.early, sup, tostring(inband), ab.spread,
                    eu(T) / el(T), res.adam.spread, res.adamod.spread))
