-- scripts/heavyball_noise.lua -- heavy ball vs SGD on quadratics: the bias
-- term is accelerated, the variance term is not.
--
-- Claim (Pan, Liu, Wang & Zhang 2024, ICLR, "Accelerated convergence of
-- stochastic heavy ball method under anisotropic gradient noise"; seeds
-- catalog B005, section 6.2 item 8): heavy-ball momentum gives O~(sqrt
-- kappa) convergence of the bias term of SGD while keeping a near-optimal
-- rate in the variance term; so it pays off in the large-batch regime,
-- where the error is bias-dominated.
--
-- Part 1 (bias): noise off, f = 1/2 x'Hx with spectrum [1/kappa, 1].  GD
-- with its best constant step 2/(L+mu) and the heavy ball with Polyak's
-- tuned lr = 4/(sqrt L + sqrt mu)^2, mu_hb = ((sqrt k - 1)/(sqrt k + 1))^2;
-- iterations until ||x - x*|| < 1e-6 ||x0 - x*|| for kappa = 1e2, 1e3, 1e4
-- and the log-log slope of iterations against kappa: ~1 for GD, ~1/2 for
-- the heavy ball.
-- Part 2 (variance): the same tuned methods with anisotropic noise
-- N(0, sigma^2 H / b).  Final loss over several streams (median and mean)
-- next to the stationary mean E f computed in closed form per eigenvalue
-- (AR(1) for SGD, AR(2) for the heavy ball).  Part 3: both with a step
-- decay schedule (lr halved every T/10 steps), small and large batches.
--
-- Usage: optlab scripts/heavyball_noise.lua [R]   (streams, default 8)
local R = math.tointeger(tonumber(arg and arg[1]) or 8)
local n, eps = 20, 1e-6
local kappas = {1e2, 1e3, 1e4}

local function tuned (kappa)
  local sq = math.sqrt(kappa)
  return optim.gd{lr = 2 / (1 + 1 / kappa)},
         optim.momentum{lr = 4 / (1 + 1 / sq)^2, mu = ((sq - 1) / (sq + 1))^2},
         2 / (1 + 1 / kappa), 4 / (1 + 1 / sq)^2, ((sq - 1) / (sq + 1))^2
end

local function steps_to (r)
  local d, t = r:series("dist")
  for i = 1, #d do
    if d[i] <= eps * d[1] then return t[i] end
  end
  return math.huge
end

-- Least-squares slope of log y against log x.
local function slope (xs, ys)
  local sx, sy, sxx, sxy, k = 0, 0, 0, 0, #xs
  for i = 1, k do
    local lx, ly = math.log(xs[i]), math.log(ys[i])
    sx, sy, sxx, sxy = sx + lx, sy + ly, sxx + lx * lx, sxy + lx * ly
  end
  return (k * sxy - sx * sy) / (k * sxx - sx * sx)
end

print("part 1: bias term (no noise), steps until ||x - x*|| < 1e-6 ||x0 - x*||")
print(string.format("  %-8s %8s %8s", "kappa", "gd", "momentum"))
local ngd, nhb = {}, {}
for i, kappa in ipairs(kappas) do
  local p = problem.quadratic{n = n, cond = kappa, seed = 7}
  local gd, hb = tuned(kappa)
  local iters = math.ceil(1.2 * kappa * math.log(1 / eps))
  local rc = race(p, {gd, hb}, {iters = iters, seed = 1, metrics = {"dist"},
                                cap = iters + 2, progress = false,
                                view = false})
  ngd[i], nhb[i] = steps_to(rc[1]), steps_to(rc[2])
  print(string.format("  %-8g %8d %8d", kappa, ngd[i], nhb[i]))
end
print(string.format("slope gd %.3f  (theory 1)", slope(kappas, ngd)))
print(string.format("slope momentum %.3f  (theory 0.5)", slope(kappas, nhb)))

-- Stationary E f = 1/2 sum_i lambda_i Var_i under noise variance
-- sigma^2 lambda_i / b per eigendirection: AR(1) y' = (1 - eta l) y + e for
-- SGD, AR(2) y' = (1 + m - eta l) y - m y_ + e for the heavy ball.
local function lambdas (kappa)
  local l = {}
  for i = 0, n - 1 do l[#l + 1] = kappa^(-i / (n - 1)) end
  return l
end
local function floor_sgd (kappa, eta, b)
  local s = 0
  for _, l in ipairs(lambdas(kappa)) do
    s = s + l / 2 * eta * eta * l / b / (1 - (1 - eta * l)^2)
  end
  return s
end
local function floor_hb (kappa, eta, m, b)
  local s = 0
  for _, l in ipairs(lambdas(kappa)) do
    local a = 1 + m - eta * l
    s = s + l / 2 * (1 + m) * eta * eta * l / b
      / ((1 - m) * ((1 + m)^2 - a * a))
  end
  return s
end
local function mean (v)
  local s = 0
  for _, x in ipairs(v) do s = s + x end
  return s / #v
end

print()
print(string.format("part 2: variance floor, tuned constant steps, noise aniso "
                    .. "sigma 1, batch 1, %d streams, 30 kappa iterations", R))
print(string.format("  %-8s %-9s %11s %11s %11s", "kappa", "method",
                    "median f", "mean f", "theory E f"))
for _, kappa in ipairs(kappas) do
  if kappa <= 1e3 then
    local p = problem.quadratic{n = n, cond = kappa, seed = 7,
                                noise = {kind = "aniso", sigma = 1, batch = 1}}
    local gd, hb, egd, ehb, m = tuned(kappa)
    local o = {iters = math.ceil(30 * kappa), seed = 1, metrics = {"loss"}}
    local qg, qh = repeats(p, gd, o, R), repeats(p, hb, o, R)
    print(string.format("  %-8g %-9s %11.4g %11.4g %11.4g", kappa, "gd",
                        qg:quantile("loss", 0.5), mean(qg:values("loss")),
                        floor_sgd(kappa, egd, 1)))
    print(string.format("  %-8g %-9s %11.4g %11.4g %11.4g", kappa, "momentum",
                        qh:quantile("loss", 0.5), mean(qh:values("loss")),
                        floor_hb(kappa, ehb, m, 1)))
  end
end

print()
local kappa, T = 1e3, 5000
print(string.format("part 3: step decay (lr x 0.5 every %d steps), kappa %g, "
                    .. "T %d, median final f over %d streams", T // 10, kappa,
                    T, R))
print(string.format("  %-8s %11s %11s %9s", "batch", "gd", "momentum",
                    "gd/mom"))
for _, b in ipairs{1, 64, 1024, 65536} do
  local p = problem.quadratic{n = n, cond = kappa, seed = 7,
                              noise = {kind = "aniso", sigma = 1, batch = b}}
  local gd, hb = tuned(kappa)
  local o = {iters = T, seed = 1, metrics = {"loss"},
             schedule = {kind = "step", gamma = 0.5, period = T // 10}}
  local fg = repeats(p, gd, o, R):quantile("loss", 0.5)
  local fh = repeats(p, hb, o, R):quantile("loss", 0.5)
  print(string.format("  %-8d %11.4g %11.4g %9.3g", b, fg, fh, fg / fh))
end
