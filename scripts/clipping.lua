-- scripts/clipping.lua -- gradient clipping: harmless without noise,
-- biased with asymmetric noise.
--
-- Claim (Koloskova, Hendrikx & Stich, "Revisiting gradient clipping:
-- stochastic bias and tight convergence guarantees", ICML 2023): (i) for
-- deterministic gradient descent the clipping threshold c only affects
-- higher-order terms: a small c adds a constant-length phase of steps lr c
-- and then the rate is that of GD; (ii) with stochastic gradients clipped
-- SGD need not converge to the optimum, however small the step size.
--
-- Part (i), the rates compared.  Clipped GD, x' = x - s g with
-- s = lr min(1, c/||g||), on an L-smooth f satisfying the PL inequality
-- f - f* <= ||g||^2 / (2 mu), lr <= 1/L.  Smoothness gives
-- f' <= f - s ||g||^2 / 2.  A clipped step (||g|| > c) thus lowers f by
-- at least lr c ||g|| / 2 >= lr c sqrt(2 mu (f - f*)) / 2, so
-- u = sqrt(f - f*) drops by at least lr c sqrt(mu / 2) / 2, and an
-- unclipped step never raises it: the number of clipped steps is at most
--   Kbar(c) = 2 sqrt(2 (f0 - f*) / mu) / (lr c),
-- independent of the target accuracy.  On a quadratic 1/2 e'He every step
-- multiplies each eigencomponent of e by 1 - s lambda in [1 - lr lambda, 1]:
-- clipped GD is never ahead of GD componentwise, and once ||g|| <= c (for
-- good: ||g|| never grows) it is GD from a point no farther out in any
-- component.  Hence for every eps, with N_c(eps) the first step where
-- ||g|| <= eps ||g0|| and K_c the clipped steps,
--   0 <= N_c(eps) - N_inf(eps) <= K_c <= Kbar(c),
-- and the tail rate is GD's: the steps per decade of ||g|| between 1e-4
-- and 1e-12 are those of unclipped GD (up to 2 steps over the 8 decades,
-- from the rounding of two crossings) and at most ln 10 / -ln(1 - lr mu),
-- the rate of the slowest mode, plus the rounding.  Instances: x^2/2
-- (n 1), and 20-dimensional quadratics with kappa 10 and 100 (L = 1,
-- mu = 1/kappa, Haar rotation from the seed); three seeds each (rotation
-- and x0 uniform in [-10, 10]^n); lr 0.5 = 1/(2L); c in {0.01, 0.1, 1,
-- inf}.
--
-- Part (ii): on f(x) = x^2/2 with zero-mean skewed noise xi = sigma (E - 1),
-- E ~ Exp(1), the iterates settle around the point x_c solving
--   E[clip(x_c + xi, c)] = 0,   clip(g, c) = min(1, c/|g|) g,
-- not around x* = 0.  x_c is computed here by bisection on that
-- expectation, evaluated by Simpson's rule against the Exp(1) density.
-- The time average of the iterates over the second half of the run is
-- compared with x_c and x*, with a batch-means standard error (50 batches),
-- at three seeds.
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

-- (i) deterministic: every step recorded (cap 64 T keeps them all).
local det_ok, T1, lr1 = true, 12000, 0.5
local cs = {0.01, 0.1, 1, math.huge}
local epss = {1e-4, 1e-8, 1e-12}
print(string.format("part (i): deterministic clipped GD, lr %g, steps until "
                    .. "||g|| <= eps ||g0||", lr1))
print("  K clipped steps (Kbar its bound), D(eps) = N_c(eps) - N_inf(eps) "
      .. "in [0, K], tail = steps per decade from 1e-4 to 1e-12")
print(string.format("  %-12s %4s %-5s %6s %8s %6s %6s %6s %8s %8s", "instance",
                    "seed", "c", "K", "Kbar", "D(1e-4)", "D(1e-8)", "D(1e-12)",
                    "tail", "theory"))
local nrows, maxk = 0, 0                -- rows checked; max K / Kbar
for _, ins in ipairs{{n = 1, cond = 1}, {n = 20, cond = 10},
                     {n = 20, cond = 100}} do
  local mu = 1 / ins.cond
  local theory = math.log(10) / -math.log(1 - lr1 * mu)
  for s = 1, 3 do
    local p = problem.quadratic{n = ins.n, cond = ins.cond, seed = s}
    math.randomseed(s)
    local x0 = {}
    for i = 1, ins.n do x0[i] = 20 * math.random() - 10 end
    local ninf                          -- GD's crossings, c = inf
    for _, cc in ipairs{math.huge, 0.01, 0.1, 1} do
      local r = run(p, optim.clipsgd{lr = lr1, c = cc},
                    {iters = T1, x0 = x0, metrics = {"gradnorm", "loss"},
                     cap = 64 * T1, progress = false, view = false})
      local g, ts = r:series("gradnorm")
      local f0 = r:series("loss")[1]
      local function cross (lvl)
        for i = 1, #g do
          if g[i] <= lvl then return ts[i] end
        end
        return math.huge
      end
      local K = cc == math.huge and 0 or cross(cc)
      local kbar = 2 * math.sqrt(2 * f0 / mu) / (lr1 * cc)
      local nc = {}
      for j, e in ipairs(epss) do nc[j] = cross(e * g[1]) end
      ninf = ninf or nc
      local tail = (nc[3] - nc[1]) / 8
      local tailinf = (ninf[3] - ninf[1]) / 8
      local ok = K <= kbar and tail <= theory + 1 / 8
        and math.abs(tail - tailinf) * 8 <= 2
      for j = 1, 3 do
        local d = nc[j] - ninf[j]
        ok = ok and d >= 0 and d <= K
      end
      if cc ~= math.huge then maxk = math.max(maxk, K / kbar) end
      det_ok = det_ok and ok
      nrows = nrows + 1
      if cc ~= math.huge then
        print(string.format("  %-12s %4d %-5g %6d %8.0f %6d %6d %6d %8.3f "
                            .. "%8.3f", string.format("n%d k%g", ins.n,
                            ins.cond), s, cc, K, kbar, nc[1] - ninf[1],
                            nc[2] - ninf[2], nc[3] - ninf[3], tail, theory))
      else
        print(string.format("  %-12s %4d %-5s %6d %8s %6d %6d %6d %8.3f %8.3f",
                            string.format("n%d k%g", ins.n, ins.cond), s,
                            "inf", 0, "-", ninf[1], ninf[2], ninf[3], tail,
                            theory))
      end
    end
  end
end
print(string.format("  (c inf rows: N_inf(eps) itself; %d rows, largest "
                    .. "K/Kbar %.3f)", nrows, maxk))

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
local function average (m, seed)
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
print(string.format("part (ii): noisy: xi = %g (E - 1), E ~ Exp(1); lr %g, "
                    .. "%d steps, mean of the second half", sigma, lr, T))
print(string.format("  predicted fixed point x_c %.5f  (E[clip(x_c + xi)] = "
                    .. "%.1e)", xc, meanclip(xc)))
-- Worst over the seeds: smallest |z| of the clipped mean from x*, largest
-- relative distance from x_c, largest |z| of the unclipped mean from x*.
local zmin, relmax, zgmax = math.huge, 0, 0
for seed = 1, 3 do
  local xb, se = average(optim.clipsgd{lr = lr, c = c}, seed)
  local rel = math.abs(xb - xc) / math.abs(xc)
  print(string.format("  seed %d clipsgd c %g: x_bias %.5f  se %.5f  z vs x* "
                      .. "%.1f  relative difference %.4f", seed, c, xb, se,
                      xb / se, rel))
  local xg, seg = average(optim.gd{lr = lr}, seed)
  print(string.format("  seed %d unclipped sgd: mean %.5f  se %.5f  z vs x* "
                      .. "%.1f", seed, xg, seg, xg / seg))
  zmin, relmax = math.min(zmin, math.abs(xb / se)), math.max(relmax, rel)
  zgmax = math.max(zgmax, math.abs(xg / seg))
end
local ok = det_ok and zmin > 4 and relmax < 0.05 and zgmax < 4
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(problem.quadratic{n = 1, noise = {kind = "asym", sigma = sigma}},
            {optim.clipsgd{lr = lr, c = c}, optim.gd{lr = lr}},
            {iters = 20000, seed = 1, metrics = {"loss", "dist"},
             watch = {"dist"}})
lesson.verdict(string.format("%s (part (i): %s of %d runs within "
                    .. "0 <= N_c - N_inf <= K <= Kbar with GD's tail rate, "
                    .. "largest K/Kbar %.2f; part (ii): clipped mean >= %.1f "
                    .. "se from x* and <= %.2g%% from x_c, unclipped <= %.1f "
                    .. "se from x*; seeds 1-3)",
                    ok and "holds" or "does not hold",
                    det_ok and "all" or "not all", nrows, maxk, zmin,
                    100 * relmax, zgmax))
