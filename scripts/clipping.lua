-- scripts/clipping.lua -- gradient clipping: harmless without noise,
-- biased with asymmetric noise.
--
-- Claim (Koloskova, Hendrikx & Stich, "Revisiting gradient clipping:
-- stochastic bias and tight convergence guarantees", ICML 2023): (i) for
-- deterministic gradient descent the clipping threshold c only affects
-- higher-order terms: a small c adds a constant-length phase of steps lr c
-- and then the rate is that of GD; (ii) with stochastic gradients clipped
-- SGD need not converge to the optimum, however small the step size.  On
-- f(x) = x^2/2 with zero-mean skewed noise xi = sigma (E - 1), E ~ Exp(1),
-- the iterates settle around the point x_c solving
--   E[clip(x_c + xi, c)] = 0,   clip(g, c) = min(1, c/|g|) g,
-- not around x* = 0.  x_c is computed here by bisection on that
-- expectation, evaluated by Simpson's rule against the Exp(1) density.
-- The time average of the iterates over the second half of the run is
-- compared with x_c and x*, with a batch-means standard error (50 batches).
--
-- Usage: optlab scripts/clipping.lua [iters] [lr] [c] [sigma]
--        (defaults 400000, 0.005, 1, 2)
local T = math.tointeger(tonumber(arg and arg[1]) or 400000)
local lr = tonumber(arg and arg[2]) or 0.005
local c = tonumber(arg and arg[3]) or 1
local sigma = tonumber(arg and arg[4]) or 2

lesson.claim("clipping leaves deterministic gradient descent convergent for "
      .. "every threshold c, but with asymmetric noise clipped SGD settles "
      .. "at the biased point x_c, not at x* = 0, where unclipped SGD's mean "
      .. "stays")

-- (i) deterministic: steps until |x - x*| < 1e-8 from x0 = 10, lr 0.1.
local det_ok = true
print("deterministic clipped GD on x^2/2 from x0 = 10, lr 0.1: "
      .. "steps to |x - x*| < 1e-8")
local p0 = problem.quadratic{n = 1}
for _, cc in ipairs{0.1, 1, 10, math.huge} do
  local r = run(p0, optim.clipsgd{lr = 0.1, c = cc},
                {iters = 5000, x0 = {10}, metrics = {"dist"}, cap = 5002,
                 progress = false, view = false})
  local d, ts = r:series("dist")
  local k = math.huge
  for i = 1, #d do
    if d[i] < 1e-8 then k = ts[i]; break end
  end
  det_ok = det_ok and r:last("dist") < 1e-8
  print(string.format("  c %-5g steps %5s  final |x - x*| %.3g", cc,
                      tostring(k), r:last("dist")))
end

-- (ii) predicted biased point.
local function clip (g)
  if g > c then return c elseif g < -c then return -c end
  return g
end
local function meanclip (x)          -- Simpson on [0, 60], 60000 panels
  local N, h, acc = 60000, 60 / 60000, 0
  for i = 0, N do
    local e = i * h
    local w = (i == 0 or i == N) and 1 or (i % 2 == 1 and 4 or 2)
    acc = acc + w * clip(x + sigma * (e - 1)) * math.exp(-e)
  end
  return acc * h / 3
end
local lo, hi = -10, 10                -- meanclip is increasing in x
for _ = 1, 60 do
  local mid = (lo + hi) / 2
  if meanclip(mid) > 0 then hi = mid else lo = mid end
end
local xc = (lo + hi) / 2

-- Time average of the second half and its batch-means standard error.
local seed = 1
local function average (m)
  local p = problem.quadratic{n = 1, noise = {kind = "asym", sigma = sigma}}
  local r = run(p, m, {iters = T, seed = seed, record_x = true, cap = T + 2,
                       progress = false, view = false})
  local xs = r:traj()
  local burn, nb = #xs // 2, 50
  local len = (#xs - burn) // nb
  local bm, tot = {}, 0
  for b = 1, nb do
    local s = 0
    for i = burn + (b - 1) * len + 1, burn + b * len do s = s + xs[i][1] end
    bm[b], tot = s / len, tot + s
  end
  local mean, v = tot / (nb * len), 0
  for b = 1, nb do v = v + (bm[b] - mean)^2 end
  return mean, math.sqrt(v / (nb - 1) / nb)
end

print()
print(string.format("noisy: xi = %g (E - 1), E ~ Exp(1); lr %g, %d steps, "
                    .. "mean of the second half", sigma, lr, T))
local xb, se = average(optim.clipsgd{lr = lr, c = c})
print(string.format("  clipsgd c %g: x_bias %.5f  se %.5f  z vs x* %.1f",
                    c, xb, se, xb / se))
print(string.format("  predicted fixed point x_c %.5f  (E[clip(x_c + xi)] = "
                    .. "%.1e)", xc, meanclip(xc)))
print(string.format("  relative difference %.4f", math.abs(xb - xc) /
                    math.abs(xc)))
local xg, seg = average(optim.gd{lr = lr})
print(string.format("  unclipped sgd: mean %.5f  se %.5f  z vs x* %.1f",
                    xg, seg, xg / seg))
local rel = math.abs(xb - xc) / math.abs(xc)
local ok = det_ok and math.abs(xb / se) > 4 and rel < 0.05
  and math.abs(xg / seg) < 4
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(problem.quadratic{n = 1, noise = {kind = "asym", sigma = sigma}},
            {optim.clipsgd{lr = lr, c = c}, optim.gd{lr = lr}},
            {iters = 20000, seed = seed, metrics = {"loss", "dist"},
             watch = {"dist"}})
lesson.verdict(string.format("%s (deterministic runs %s 1e-8; clipped mean "
                    .. "%.1f se from x* and %.2g%% from x_c; unclipped %.1f "
                    .. "se from x*; seed %d)",
                    ok and "holds" or "does not hold",
                    det_ok and "all reach" or "do not all reach", xb / se,
                    100 * rel, xg / seg, seed))
