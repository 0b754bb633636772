-- scripts/clipped_vi.lua -- stochastic extragradient with and without
-- clipping under infinite-variance operator noise: how the (1 - delta)-
-- quantile of the final distance to the solution grows as the confidence
-- level delta shrinks (M12).
--
-- Claim (Sadiev, Danilova, Gorbunov, Horvath, Gidel, Dvurechensky,
-- Gasnikov & Richtarik, "High-probability bounds for stochastic
-- optimization and variational inequalities: the case of unbounded
-- variance", ICML 2023, the seeds catalog's B049; the clipped methods of
-- Gorbunov et al., NeurIPS 2022): "we derive new high-probability
-- convergence results under the assumption that the gradient/operator
-- noise has bounded central alpha-th moment for alpha in (1,2] in the
-- following setups: ... (ii) Lipschitz / star-cocoercive and monotone /
-- quasi-strongly monotone variational inequalities".  Their bounds for
-- clipped-SEG depend on the confidence level through log(1/delta); an
-- unclipped method's final error under such noise has a power-law tail,
-- so its (1 - delta)-quantile grows like a power of 1/delta.
--
-- Setting (T3, M12): the monotone bilinear games bilinear{simplex =
-- false} (M = [2 -1; -1 1] in R^2 x R^2) and bilineardiag{n = 2, smin =
-- 0.5}, each operator sample plus sigma t_nu noise per coordinate, nu =
-- 1.5 (alpha-th moments finite for alpha < 1.5 only, infinite
-- variance), sigma = 1; game.eg and game.clipseg with the same step lr =
-- 0.1 and lambda = 1; T = 300 steps; R = 1000 streams in each of 3 seed
-- batches.  Measured: the quantiles q_delta of ||z_T - z*|| at delta =
-- 0.1, 0.01, 0.001 and the rise rho = q_0.001 / q_0.1 over the two
-- decades.  Thresholds, from the tails: a sum of t_nu draws has a tail of
-- index nu, so rho tends to 100^(1/nu) = 21.5 as delta -> 0 (the bulk at
-- delta = 0.1 pulls it lower: rho > 5 is asked of SEG); clipped-SEG moves
-- at most lr lambda per half step, a light tail whose quantiles grow at
-- most like ln(1/delta): rho < ln(1000) / ln(10) = 3 is asked of it; and
-- the rises must differ by a factor > 3.  SGDA and clipped-SGDA need a
-- strongly monotone game (on these bilinear ones SGDA spirals out): their
-- M12 test is in tests/c/t_clipvi.c.
--
-- Usage: optlab scripts/clipped_vi.lua [R [T]]   (1000, 300)
local R = math.tointeger(tonumber(arg and arg[1]) or 1000)
local T = math.tointeger(tonumber(arg and arg[2]) or 300)
local seeds = {1, 2, 3}
local deltas = {0.1, 0.01, 0.001}
local noise = {kind = "student", nu = 1.5, sigma = 1}
local problems = {
  problem.bilinear{simplex = false, noise = noise},
  problem.bilineardiag{n = 2, smin = 0.5, noise = noise},
}
local methods = {
  {"seg", function () return game.eg{lr = 0.1} end},
  {"clipseg", function () return game.clipseg{lr = 0.1, lambda = 1} end},
}

lesson.claim("under operator noise with infinite variance (Student t, nu "
      .. "1.5) the (1 - delta)-quantile of SEG's final distance rises by "
      .. "over 5x from delta = 0.1 to 0.001 (a power of 1/delta), "
      .. "clipped-SEG's by under 3x (log-like), and the rises differ by "
      .. "over 3x, on two monotone bilinear games at 3 seed batches")
print(string.format("student noise nu 1.5 sigma 1, lr 0.1, lambda 1, %d "
                    .. "steps, %d streams per batch: quantiles of "
                    .. "||z_T - z*||", T, R))
print(string.format("  %-34s %4s %-8s %9s %9s %9s %7s", "problem", "seed",
                    "method", "q_0.1", "q_0.01", "q_0.001", "rho"))
local ok = true
local worst = {seg = math.huge, clipseg = 0, ratio = math.huge}
for _, p in ipairs(problems) do
  for _, seed in ipairs(seeds) do
    local rho = {}
    for _, m in ipairs(methods) do
      local q = repeats(p, m[2](), {iters = T, seed = seed, view = false,
                                    metrics = {"dist"}}, R)
      local v = {}
      for i, d in ipairs(deltas) do v[i] = q:quantile("dist", 1 - d) end
      rho[m[1]] = v[3] / v[1]
      print(string.format("  %-34s %4d %-8s %9.4g %9.4g %9.4g %7.3g", p.desc,
                          seed, m[1], v[1], v[2], v[3], rho[m[1]]))
    end
    local ratio = rho.seg / rho.clipseg
    worst.seg = math.min(worst.seg, rho.seg)
    worst.clipseg = math.max(worst.clipseg, rho.clipseg)
    worst.ratio = math.min(worst.ratio, ratio)
    ok = ok and rho.seg > 5 and rho.clipseg < 3 and ratio > 3
  end
end
print(string.format("smallest SEG rise %.3g, largest clipped-SEG rise %.3g, "
                    .. "smallest ratio of the rises %.3g", worst.seg,
                    worst.clipseg, worst.ratio))
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(problems[1], {game.eg{lr = 0.1}, game.clipseg{lr = 0.1,
                                                          lambda = 1}},
            {iters = 3000, seed = 1, metrics = {"dist"}, watch = {"dist"}})
lesson.verdict(string.format("%s (SEG's rise >= %.3g > 5, clipped-SEG's <= "
                    .. "%.3g < 3, ratio >= %.3g > 3; seeds 1, 2, 3, %d "
                    .. "streams each)", ok and "holds" or "does not hold",
                    worst.seg, worst.clipseg, worst.ratio, R))
