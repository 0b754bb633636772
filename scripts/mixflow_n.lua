-- scripts/mixflow_n.lua -- a MixFlow's ELBO rises to log Z and its KL to
-- the target falls as the number of flow maps N grows; with an
-- approximate (uncorrected) map it stops at a floor set by the step size.
--
-- Claim (Xu, Chen & Campbell, "MixFlows: principled variational inference
-- via mixed flows", ICML 2023, seed B209): MixFlows, the average q_N of
-- the pushforwards T^n_# q_0, n < N, "have MCMC-like convergence
-- guarantees when the flow map is ergodic and measure-preserving", with
-- "bounds on the accumulation of error for practical implementations
-- where the flow map is approximated"; the ELBO estimate is unbiased.
--
-- Measured with vi.mixflow (core/vi/mixflow.c: uncorrected leapfrog plus
-- the deterministic refreshment) on two Gaussian targets with known log Z,
-- problem.gauss2d{rho = 0.8, s2 = 1} and a 4-D AR(1) problem.gaussian
-- (Sigma_ij = 0.6^|i - j|), the reference N(mu, I) (the mean right, the
-- covariance not): the ELBO
-- of q_N on (x, rho, u) and kl = log Z - ELBO, each from `traj`
-- trajectories (the same reference draws for every N: the differences
-- between N are less noisy than the se shown).  Why these thresholds: KL
-- is convex, so for a map that preserves the target KL(q_N) <= KL(q_0) =
-- KL at N = 1 for every N, and ergodicity sends it to 0; with normal
-- momentum and eps = 0.2 the leapfrog's energy error is about eps^2 / 8
-- times the target's curvature, small against KL(q_0), so the checks are:
-- kl falls at every step of N = 1, 4, 16, 64, 256, and kl(256) <=
-- kl(1) / 3.  The floor: with the Laplace momentum (first-order energy
-- error) at eps = 0.1, kl at N = 1000 is above its least value over N by
-- more than 2 se, and at eps = 0.02 (the same flow time per map) lower
-- than at eps = 0.1: the error accumulation the paper bounds.
--
-- Usage: optlab scripts/mixflow_n.lua [seed] [traj]  (defaults 1, 800)
local seed = tonumber(arg and arg[1]) or 1
local traj = tonumber(arg and arg[2]) or 800
local iters = 4
local evals = math.ceil(traj / (iters + 1))

print("claim: a MixFlow's ELBO approaches log Z and its KL to the target "
      .. "falls towards 0 as the number of flow maps N grows, down to a "
      .. "floor set by the step size (Xu, Chen & Campbell 2023)")

-- log Z of N(mu, Sigma) on the oracle's scale (U(mu) = 0)
local function logz (S)
  local n, L, ld = #S, {}, 0
  for i = 1, n do
    L[i] = {}
    for j = 1, i do
      local s = S[i][j]
      for k = 1, j - 1 do s = s - L[i][k] * L[j][k] end
      L[i][j] = i == j and math.sqrt(s) or s / L[j][j]
    end
    ld = ld + 2 * math.log(L[i][i])
  end
  return 0.5 * (n * math.log(2 * math.pi) + ld)
end

local function flow (p, cfg, N)
  local c = {N = N, evals = evals}
  for k, v in pairs(cfg) do c[k] = v end
  local r = run(p, vi.mixflow(c), {iters = iters, seed = seed,
                                   progress = false, view = false})
  return r:last("elbo"), r:last("kl"), r:last("elbo_se")
end

local ok = true
local worst_ratio = 0
local targets = {
  {"gauss2d{rho = 0.8, s2 = 1}", problem.gauss2d{rho = 0.8, s2 = 1,
                                                x0 = {1, -1}},
   {{1, 0.8}, {0.8, 1}}},
}
do   -- AR(1): Sigma_ij = 0.6^|i - j|
  local S = {}
  for i = 1, 4 do
    S[i] = {}
    for j = 1, 4 do S[i][j] = 0.6 ^ math.abs(i - j) end
  end
  targets[2] = {"gaussian{n = 4, Sigma_ij = 0.6^|i - j|}",
                problem.gaussian{cov = S, x0 = {0, 0, 0, 0}}, S}
end
local normal = {momentum = "normal", eps = 0.2, L = 10}
for _, tg in ipairs(targets) do
  local name, p, S = tg[1], tg[2], tg[3]
  local lz = logz(S)
  print(string.format("%s, log Z = %.4f; normal momentum, eps = 0.2, "
                      .. "L = 10; %d trajectories per N, seed %d", name, lz,
                      evals * (iters + 1), seed))
  print(string.format("  %5s %18s %18s", "N", "elbo +- se", "kl"))
  local kl = {}
  for i, N in ipairs{1, 4, 16, 64, 256} do
    local e, k, se = flow(p, normal, N)
    kl[i] = k
    print(string.format("  %5d %10.4f +- %-6.4f %10.4f", N, e, se, k))
    if i > 1 and not (k < kl[i - 1]) then ok = false end
  end
  local ratio = kl[5] / kl[1]
  worst_ratio = math.max(worst_ratio, ratio)
  print(string.format("  kl(256) / kl(1) = %.3f", ratio))
  ok = ok and ratio <= 1 / 3
end

-- the floor of an approximate map (first target)
local p, floor_ok = targets[1][2], true
local line, least, least_se, at = {}, math.huge, 0, 0
local k1000 = {}
for _, cfg in ipairs{{eps = 0.1, L = 10}, {eps = 0.02, L = 50}} do
  local row = {}
  for _, N in ipairs{16, 64, 256, 1000} do
    local _, k, se = flow(p, cfg, N)
    row[#row + 1] = string.format("%d: %.4f", N, k)
    if cfg.eps == 0.1 and k < least then least, least_se, at = k, se, N end
    if N == 1000 then k1000[#k1000 + 1] = {k, se} end
  end
  line[#line + 1] = string.format("  laplace, eps = %-4g L = %-3d kl at N = %s",
                                  cfg.eps, cfg.L, table.concat(row, ", "))
end
print(targets[1][1] .. ": the floor of the uncorrected map")
for _, l in ipairs(line) do print(l) end
local rise = k1000[1][1] - least
print(string.format("  eps = 0.1: kl(1000) - least kl (N = %d) = %.4f "
                    .. "(%.1f se); eps = 0.02: kl(1000) = %.4f", at, rise,
                    rise / k1000[1][2], k1000[2][1]))
floor_ok = rise > 2 * k1000[1][2] and k1000[2][1] < k1000[1][1]
ok = ok and floor_ok
print(string.format("verdict: %s (kl falls at every N on both targets, "
                    .. "kl(256) / kl(1) at most %.3f <= 1/3; laplace eps = "
                    .. "0.1 rises %.1f se above its least kl by N = 1000, "
                    .. "eps = 0.02 lower there; seed %d)",
                    ok and "holds" or "does not hold", worst_ratio,
                    rise / k1000[1][2], seed))
