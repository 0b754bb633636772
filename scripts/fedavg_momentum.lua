-- scripts/fedavg_momentum.lua -- which momentum removes FedAvg's
-- heterogeneity bias at a constant local step size.
--
-- The catalog's claim 31 (Cheng, Huang, Wu & Yuan 2024, "Momentum
-- benefits non-IID federated learning simply and provably", abstract):
-- "incorporating momentum allows FedAvg to converge without relying on
-- the assumption of bounded data heterogeneity even using a constant
-- local learning rate".  What holds depends on where the momentum goes.
-- On quadratic clients F_w = 1/2 (x - cbar_w)' H_w (x - cbar_w) with full
-- local gradients, K local steps of size lr and full participation:
--   * FedAvg's fixed point is x_j = sum_w a_wj cbar_wj / sum_w a_wj,
--     a_wj = 1 - (1 - lr h_wj)^K, off x* when the H_w differ: the bias;
--   * server momentum (FedAvgM, Hsu et al. 2019) changes the path, not
--     the fixed point (the server stops where the pseudo-gradient is 0):
--     the same bias;
--   * client-level momentum (each local direction beta g + (1 - beta) G,
--     G the last round's averaged direction: FedCM, the form Cheng et al.
--     analyse) has FedAvg's fixed point at step beta lr: the bias shrinks
--     about in proportion to beta and is gone only as beta -> 0 (their
--     analysis ties beta to the horizon; at a fixed beta it stays);
--   * SCAFFOLD's control variates remove it: x* exactly.
-- So the claim holds for client-level momentum with beta small (in the
-- limit), not for server momentum at a constant step; this script shows
-- each of the four numerically against the closed forms, computed here
-- from fedquad's formulas (core/problems/fedquad.c).
--
-- Usage: optlab scripts/fedavg_momentum.lua [K] [lr]   (default 10 0.1)
local K = tonumber(arg and arg[1]) or 10
local lr = tonumber(arg and arg[2]) or 0.1
local W, d, cond, het = 4, 2, 10, 1
local rounds = 3000
local p = problem.fedquad{n = d, workers = W, per = 10, heterogeneity = het,
                          cond = cond, seed = 1}

-- fedquad's data by its formulas, and the closed forms
local h, c = {}, {}
for w = 0, W - 1 do
  h[w], c[w] = {}, {}
  for j = 0, d - 1 do
    h[w][j] = cond ^ (-(((w + j) % W) / (W - 1)))
    c[w][j] = 2 * het * math.cos(2 * math.pi * w / W + j)
  end
end
local function fixed (step)
  local x = {}
  for j = 0, d - 1 do
    local num, den = 0, 0
    for w = 0, W - 1 do
      local a = 1 - (1 - step * h[w][j]) ^ K
      num, den = num + a * c[w][j], den + a
    end
    x[j + 1] = num / den
  end
  return x
end
local xstar = {}
for j = 0, d - 1 do
  local num, den = 0, 0
  for w = 0, W - 1 do num, den = num + h[w][j] * c[w][j], den + h[w][j] end
  xstar[j + 1] = num / den
end
local function away (a, b)
  local s = 0
  for j = 1, d do s = s + (a[j] - b[j]) ^ 2 end
  return math.sqrt(s)
end

local function final (m)
  local r = run(p, m, {iters = rounds, progress = false})
  return r.x, r:last("gradnorm")
end

lesson.claim(string.format("at a constant local step (K = %d, lr = %g), "
                    .. "server momentum leaves FedAvg's heterogeneity bias "
                    .. "unchanged, client momentum beta cuts it to FedAvg's "
                    .. "at step beta lr (gone only as beta -> 0), SCAFFOLD "
                    .. "removes it", K, lr))
print(string.format("fedquad: %d clients, d = %d, cond %g; x* = (%.6f, %.6f) "
                    .. "(p.xstar (%.6f, %.6f))", W, d, cond, xstar[1],
                    xstar[2], p.xstar[1], p.xstar[2]))
local xf = fixed(lr)
local b0 = away(xf, xstar)
print(string.format("%-34s %12s %12s %12s", "method (after " .. rounds
                    .. " rounds)", "|x - x*|", "closed form", "|grad f|"))
local rows, okall = {}, away(xstar, p.xstar) < 1e-12
local function row (name, m, want)
  local x, gn = final(m)
  local got = away(x, xstar)
  local match = math.abs(got - want) <= 1e-8 + 1e-6 * want
  okall = okall and match
  rows[name] = got
  print(string.format("%-34s %12.4e %12.4e %12.4e", name, got, want, gn))
  return got
end
row("fedavg", dist.fedavg{K = K, lr = lr}, b0)
row("fedavg server momentum 0.9", dist.fedavg{K = K, lr = lr, momentum = 0.9,
                                             server_lr = 0.1}, b0)
local ratio = {}
for _, beta in ipairs{0.5, 0.2, 0.1, 0.05} do
  local got = row(string.format("fedavg client momentum beta %g", beta),
                  dist.fedavg{K = K, lr = lr, beta = beta},
                  away(fixed(beta * lr), xstar))
  ratio[#ratio + 1] = got / (beta * b0)
end
row("scaffold", dist.scaffold{K = K, lr = lr}, 0)
row("scaffold server momentum 0.9", dist.scaffold{K = K, lr = lr,
                                                 momentum = 0.9,
                                                 server_lr = 0.1}, 0)
print(string.format("client momentum: bias / (beta * fedavg's bias) = %s",
                    table.concat((function ()
                      local s = {}
                      for i, v in ipairs(ratio) do s[i] = string.format("%.3f", v) end
                      return s
                    end)(), ", ")))
local holds = okall and b0 > 0.1 and rows.scaffold < 1e-10
  and ratio[#ratio] > 0.5 and ratio[#ratio] < 1.5
lesson.verdict(string.format("%s (fedavg and fedavgm stall %.4f from x*, "
                    .. "client momentum's bias within 1e-6 of FedAvg's at "
                    .. "step beta lr and ~ beta times it (ratio %.3f at "
                    .. "beta 0.05), scaffold %.1e; seed 1)",
                    holds and "holds" or "does not hold", b0,
                    ratio[#ratio], rows.scaffold))
