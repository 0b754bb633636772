-- scripts/terngrad_var.lua -- TernGrad is unbiased, and its variance is
-- s ||g||_1 - ||g||^2.
--
-- Claim (Wen, Xu, Yan, Wu, Wang, Chen & Li, "TernGrad: ternary gradients
-- to reduce communication in distributed deep learning", NeurIPS 2017):
-- the ternarized gradient g~ = s sign(g) o b, s = max_i |g_i|, b_i ~
-- Bernoulli(|g_i| / s), is unbiased, E g~ = g; coordinate i is s sign(g_i)
-- with probability |g_i| / s, so E g~_i^2 = s |g_i| and
--   E ||g~ - g||^2 = s ||g||_1 - ||g||^2
-- (the seeds catalog's claim 33).  A message costs 2 n + 32 bits against
-- 32 n for the floats.  The draws come from dist.compress (the compressor
-- the dist methods use, core/dist/compress.c).
--
-- Usage: optlab scripts/terngrad_var.lua [draws]   (default 20000)
local M = tonumber(arg and arg[1]) or 20000
local seed = 3
local n = 20
local g = {}
for i = 1, n do g[i] = math.sin(1.7 * i) * (1 + i / 4) end

local s, l1, l2 = 0, 0, 0
for i = 1, n do
  s = math.max(s, math.abs(g[i]))
  l1 = l1 + math.abs(g[i])
  l2 = l2 + g[i] * g[i]
end
local V = s * l1 - l2
lesson.claim(string.format("TernGrad's g~ is unbiased and E||g~ - g||^2 = "
                    .. "s||g||_1 - ||g||^2 = %.4f (n = %d, %d draws)", V, n,
                    M))

local draws, bits = dist.compress(g, {kind = "terngrad", seed = seed,
                                      draws = M})
local mean, e1, e2 = {}, 0, 0
for i = 1, n do mean[i] = 0 end
for _, d in ipairs(draws) do
  local sq = 0
  for i = 1, n do
    mean[i] = mean[i] + d[i] / M
    sq = sq + (d[i] - g[i]) ^ 2
  end
  e1 = e1 + sq / M
  e2 = e2 + sq * sq / M
end
-- the mean: each coordinate's z-score against its variance s|g_i| - g_i^2
local zmax, bias2 = 0, 0
for i = 1, n do
  local vi = s * math.abs(g[i]) - g[i] ^ 2
  if vi > 0 then
    zmax = math.max(zmax, math.abs(mean[i] - g[i]) / math.sqrt(vi / M))
  end
  bias2 = bias2 + (mean[i] - g[i]) ^ 2
end
local se = math.sqrt((e2 - e1 * e1) / M)
print(string.format("running mean: ||mean - g||^2 = %.3e  (expected V/M = "
                    .. "%.3e), largest coordinate z = %.2f", bias2, V / M,
                    zmax))
print(string.format("variance: measured %.4f +- %.4f, s||g||_1 - ||g||^2 = "
                    .. "%.4f  (%.2f se)", e1, se, V, math.abs(e1 - V) / se))
print(string.format("bits per message: %d (2n + 32) against %d (32n)", bits,
                    32 * n))
local ok = zmax <= 4 and math.abs(e1 - V) <= 4 * se and bias2 < 4 * V / M
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(problem.fedquad{}, {dist.ef14{lr = 0.1, compress = "none"},
                               dist.ef14{lr = 0.1, compress = "terngrad"}},
            {iters = 300, seed = seed, watch = {"loss", "gradnorm"}})
lesson.verdict(string.format("%s (every coordinate's mean within 4 se of g, "
                    .. "largest %.2f; variance %.4f vs %.4f within %.2f se; "
                    .. "seed %d)", ok and "holds" or "does not hold", zmax,
                    e1, V, math.abs(e1 - V) / se, seed))
