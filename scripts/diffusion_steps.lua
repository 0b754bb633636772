-- scripts/diffusion_steps.lua -- deterministic vs stochastic diffusion
-- samplers with the exact score: the error falls polynomially with the
-- number of steps, down to a floor set by the score's error.
--
-- Claim (Chen et al. 2023, "Sampling is as easy as learning the score";
-- Song, Meng & Ermon 2021): with an exact score the sampler's error comes
-- from the time discretization alone and falls as the steps grow; an
-- L2 score error eps adds a floor that more steps do not remove,
-- separating the learning error from the discretization error.
--
-- Thresholds, from the theory:
--  * rate.  DDIM (eta = 0) is a first-order (exponential-integrator)
--    discretization of the probability-flow ODE (Lu et al. 2022: DDIM =
--    DPM-Solver-1): TV = O(h) = O(1/steps), slope -1 in log-log.  DDPM
--    (ancestral): Chen et al.'s bound TV <~ (L sqrt(d h) + eps) sqrt(t_end)
--    + e^-t_end is O(steps^-1/2) at eps = 0, the slowest rate the theory
--    allows (weakly first order in practice: slope -1).  Verdict: the
--    fitted slope lies in [-1.5, -0.5] for both samplers: first order
--    within 0.5, and at least the bound's rate.
--  * the histogram floor.  TV is that of the N particles' histogram
--    (32 x 32 bins in 2-D, 64 in 1-D, plus one outside cell) against the
--    target's exact bin masses p_b.  N exact samples give
--      floor = 1/2 sum_b E|q_b - p_b|,  E|X - N p| = 2 m C(N, m) p^m
--      (1 - p)^(N - m + 1), m = floor(N p) + 1  (X ~ Binomial(N, p),
--      de Moivre),
--    computed here from p_b (normal cdfs).  By the triangle inequality
--    the measured TV is the sampler's binned TV within about +- floor,
--    so the slope is fitted only on steps with 3 floor <= TV (the true
--    error then within a third of the measured) and TV <= 0.5 (nearer 1
--    TV saturates and the asymptotic rate does not apply yet); >= 3 such
--    steps are needed.
--  * score error.  The same bound's eps sqrt(t_end) term (KL gains
--    eps^2 per unit time, Girsanov) does not fall with the steps, so at
--    32 steps the TV rises with eps: TV(0) < TV(eps / 2) < TV(eps).
-- Each at 3 seeds and on 2 targets: problem.gmm's 2-D ring of 8 modes
-- (the catalogue's T28) and a 1-D mixture of 3 unequal modes.
--
-- Usage: optlab scripts/diffusion_steps.lua [eps]   (default 0.5)
local eps = tonumber(arg and arg[1]) or 0.5
local seeds = {11, 12, 13}
local steps = {4, 6, 8, 11, 16, 32}
local N, Neps = 12000, 4000

-- the targets, their parameters spelled out for the floor
local ring = {means = {}, covs = {}, weights = {}}
for k = 0, 7 do
  ring.means[k + 1] = {4 * math.cos(2 * math.pi * k / 8),
                       4 * math.sin(2 * math.pi * k / 8)}
  ring.covs[k + 1] = {0.25, 0.25}
  ring.weights[k + 1] = 1 / 8
end
local line1 = {means = {{-3}, {0}, {2.5}}, covs = {{0.25}, {0.5}, {0.1}},
               weights = {0.5, 0.3, 0.2}}
local insts = {{name = "ring2d", G = ring, nb = 32},
               {name = "mix1d", G = line1, nb = 64}}

-- normal cdf (erfc: Numerical Recipes' Chebyshev fit, relative error
-- below 1.2e-7)
local function erfc (x)
  local z = math.abs(x)
  local t = 1 / (1 + 0.5 * z)
  local r = t * math.exp(-z * z - 1.26551223 + t * (1.00002368
    + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806
    + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
    + t * (-0.82215223 + t * 0.17087277)))))))))
  return x >= 0 and r or 2 - r
end
local function ncdf (x) return 0.5 * erfc(-x / math.sqrt(2)) end

-- E|X - N p| / N for X ~ Binomial(N, p) (de Moivre's closed form)
local function mad (n, p)
  if p <= 0 or p >= 1 then return 0 end
  local m = math.floor(n * p) + 1
  if m > n then return 0 end
  local lc = 0
  for i = 1, m do lc = lc + math.log((n - m + i) / i) end
  return 2 * m * math.exp(lc + m * math.log(p) + (n - m + 1)
                          * math.log(1 - p)) / n
end

-- the exact bin masses on the samplers' grid (per axis [min mu - 5 sd,
-- max mu + 5 sd] in nb bins; diagonal covariances: products of cdfs),
-- then the expected TV of n exact samples' histogram
local function floor_tv (G, nb, n)
  local d, lo, wd = #G.means[1], {}, {}
  for j = 1, d do
    local a, b = math.huge, -math.huge
    for k = 1, #G.means do
      local sd = math.sqrt(G.covs[k][j])
      a = math.min(a, G.means[k][j] - 5 * sd)
      b = math.max(b, G.means[k][j] + 5 * sd)
    end
    lo[j], wd[j] = a, (b - a) / nb
  end
  local function axis (k, j, b)
    local sd, a = math.sqrt(G.covs[k][j]), lo[j] + b * wd[j]
    return ncdf((a + wd[j] - G.means[k][j]) / sd)
      - ncdf((a - G.means[k][j]) / sd)
  end
  local f, sum = 0, 0
  for b0 = 0, nb - 1 do
    for b1 = 0, (d == 2 and nb - 1 or 0) do
      local m = 0
      for k = 1, #G.means do
        m = m + G.weights[k] * axis(k, 1, b0) * (d == 2 and axis(k, 2, b1)
                                                  or 1)
      end
      sum = sum + m
      f = f + mad(n, m)
    end
  end
  return 0.5 * (f + mad(n, math.max(1 - sum, 0)))
end

-- least-squares slope of log tv on log steps
local slope = lesson.slope

local function tv (p, m, k, e, n, seed)
  local r = run(p, diffusion[m]{steps = k, score_error = e},
                {samples = n, seed = seed, progress = false, view = false,
                 metrics = {"tv"}})
  return r:last("tv")
end

lesson.claim(string.format("TV to the target falls with the steps for DDIM "
                    .. "and DDPM with the exact score, at a log-log slope "
                    .. "in [-1.5, -0.5] above the histogram floor; a score "
                    .. "error leaves a floor that rises with it (%g, %g)",
                    eps / 2, eps))
local ok, res, lo, hi = true, {}, math.huge, -math.huge
for _, I in ipairs(insts) do
  I.p = problem.gmm(I.G)
  I.floor = floor_tv(I.G, I.nb, N)
  I.floor_eps = floor_tv(I.G, I.nb, Neps)
  print(string.format("%s: histogram floor (E TV of N exact samples) %.4f "
                      .. "at N = %d, %.4f at N = %d; fit window tv in "
                      .. "[%.4f, 0.5]", I.name, I.floor, N, I.floor_eps,
                      Neps, 3 * I.floor))
  res[I.name] = {}
  for _, m in ipairs{"ddim", "ddpm"} do
    for _, seed in ipairs(seeds) do
      local xs, ys, line = {}, {}, ""
      for _, k in ipairs(steps) do
        local v = tv(I.p, m, k, 0, N, seed)
        line = line .. string.format(" %d:%.4f", k, v)
        if v >= 3 * I.floor and v <= 0.5 then
          xs[#xs + 1], ys[#ys + 1] = k, v
        end
      end
      local s = #xs >= 3 and slope(xs, ys) or 0 / 0
      local e0 = tv(I.p, m, 32, 0, Neps, seed)
      local e1 = tv(I.p, m, 32, eps / 2, Neps, seed)
      local e2 = tv(I.p, m, 32, eps, Neps, seed)
      local good = #xs >= 3 and s >= -1.5 and s <= -0.5
        and e0 < e1 and e1 < e2
      ok = ok and good
      if s == s then lo, hi = math.min(lo, s), math.max(hi, s) end
      res[I.name][#res[I.name] + 1] = {m = m, seed = seed, slope = s,
                                        points = #xs, eps = {e0, e1, e2}}
      print(string.format("%s %-4s seed %d: tv at steps%s", I.name, m, seed,
                          line))
      print(string.format("%s %-4s seed %d: slope %.3f over %d steps "
                          .. "above 3 floor; 32 steps, N = %d, score_error "
                          .. "0 / %g / %g: tv %.4f / %.4f / %.4f", I.name, m,
                          seed, s, #xs, Neps, eps / 2, eps, e0, e1, e2))
    end
  end
end
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(insts[1].p, {diffusion.ddim{steps = 32},
                         diffusion.ddpm{steps = 32},
                         diffusion.ddpm{steps = 32, score_error = eps}},
            {samples = Neps, seed = seeds[1], watch = {"tv"}})
lesson.verdict(string.format("%s (slopes in [%.3f, %.3f] against [-1.5, "
                    .. "-0.5] for ddim and ddpm on the 2-D ring and the "
                    .. "1-D mixture, fitted above 3x the histogram floor "
                    .. "%.3f / %.3f; the 32-step TV rises with the score "
                    .. "error 0 < %g < %g in every case; seeds %d, %d, %d)",
                    ok and "holds" or "does not hold", lo, hi,
                    insts[1].floor, insts[2].floor, eps / 2, eps,
                    seeds[1], seeds[2], seeds[3]))
return res
