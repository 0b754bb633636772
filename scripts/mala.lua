-- scripts/mala.lua -- MALA on a correlated 2-D Gaussian with known moments.
--
-- Claim (Roberts & Tweedie, "Exponential convergence of Langevin
-- distributions and their discrete approximations", Bernoulli 1996;
-- Roberts & Rosenthal, "Optimal scaling of discrete approximations to
-- Langevin diffusions", J. R. Stat. Soc. B 1998): the Metropolis-adjusted
-- Langevin algorithm leaves the target invariant, so sample means converge
-- to the true mean at the Monte Carlo rate; the standard error is
-- estimated here by batch means (50 batches).
--
-- Usage: optlab scripts/mala.lua [iters] [h]   (defaults 20000, 0.5)
local T = tonumber(arg and arg[1]) or 20000
local h = tonumber(arg and arg[2]) or 0.5
local p = problem.gauss2d{mu1 = 1, mu2 = -1, s1 = 1, s2 = 0.5, rho = 0.5}
local seed = 3
lesson.claim("MALA leaves a correlated 2-D Gaussian invariant: both sample "
      .. "means are within 4 batch-means standard errors of the true mean")
local r = run(p, sample.mala{h = h, warmup = 0},
              {iters = T, seed = seed, record_x = true, cap = T + 1,
               watch = {"accept"}})
local xs = r:traj()

-- Mean and batch-means standard error of coordinate j, after burn-in.
local burn = T // 10
local function moments (j)
  local nb = 50
  local len = (#xs - burn) // nb
  local total, bm = 0, {}
  for b = 1, nb do
    local s = 0
    for i = burn + (b - 1) * len + 1, burn + b * len do s = s + xs[i][j] end
    bm[b] = s / len
    total = total + s
  end
  local mean = total / (nb * len)
  local v = 0
  for b = 1, nb do v = v + (bm[b] - mean)^2 end
  return mean, math.sqrt(v / (nb - 1) / nb)
end

local truth = {p.xstar[1], p.xstar[2]}
local acc = r:last("accept")
print(string.format("acceptance rate %.3f with h = %g", acc, h))
local zmax = 0
for j = 1, 2 do
  local m, se = moments(j)
  local z = (m - truth[j]) / se
  zmax = math.max(zmax, math.abs(z))
  print(string.format("mean[%d] %.4f  true %.4f  se %.4f  z %.2f",
                      j, m, truth[j], se, z))
end
local ok = zmax < 4 and acc > 0.3 and acc < 1
lesson.verdict(string.format("%s (largest |z| %.2f < 4, acceptance %.3f in "
                    .. "(0.3, 1); seed %d)", ok and "holds" or "does not hold",
                    zmax, acc, seed))
