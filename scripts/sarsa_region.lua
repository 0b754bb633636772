-- scripts/sarsa_region.lua -- projected linear SARSA chatters in a
-- bounded region much smaller than the ball it is projected into, as long
-- as the rewards are not too large.
--
-- Claim (Zhang, Tachet des Combes & Laroche 2023, "On the convergence of
-- SARSA with linear function approximation", ICML, seed B055): SARSA
-- with linear features "does not diverge but oscillates in a bounded
-- region", and "the region is much smaller than the region that we
-- project into, provided that the magnitude of the reward is not too
-- large".  Here: rl.sarsa (eps-greedy, eps = 0.1, constant step lr, ball
-- of radius R = 1000) on problem.linmdp{S = 5, A = 2, d = 3} (random unit
-- features, gamma = 0.9) at three instances (seed 1, 2, 3, the run's seed
-- the same), rewards uniform on [-scale, scale) for scale = 1, 4, ...,
-- 4096.  region (M28) is the diameter of the bounding box of the last
-- half to three quarters of the iterates.
--
-- What theory gives, and the thresholds: (a) the mean-field flow points
-- into the ball of radius rho = rmax / ((1 - gamma) sqrt((eps / A) pmin
-- lmin)) (r.bound; core/rl/sarsa.c derives it), so region <= 2 rho;
-- (b) with eps-greedy, w0 = 0 and the projection inactive, scaling the
-- rewards by a power of 2 scales every iterate by it exactly (the argmax
-- does not see the scale), so region(16) = 16 region(1) to the bit: the
-- region grows linearly in the reward, the ball does not; (c) "much
-- smaller" is taken as an order of magnitude: region <= R / 10 for
-- scale <= 16, while at scale 4096 the iterates reach the ball
-- (||w_T|| = R or region > R / 10): there the reward is too large.
-- With a constant step the oscillation includes the sampling noise of
-- the steps; rho bounds both.
--
-- Usage: optlab scripts/sarsa_region.lua [steps [lr]]
--        (defaults 200000, 0.05)
local steps = tonumber(arg and arg[1]) or 200000
local lr = tonumber(arg and arg[2]) or 0.05
local R, eps = 1000, 0.1
local scales = {1, 4, 16, 64, 256, 1024, 4096}
local seeds = {1, 2, 3}

print(string.format("claim: linear SARSA oscillates in a bounded region "
                    .. "much smaller than the projection ball (R = %g) "
                    .. "while the rewards are small, growing linearly "
                    .. "with them until the ball is reached", R))
print("seed   scale     region     2 rho    ||w_T||   region/R")
local ok, small, worst, big = true, true, 0, true
for _, seed in ipairs(seeds) do
  local reg = {}
  for _, sc in ipairs(scales) do
    local p = problem.linmdp{S = 5, A = 2, d = 3, seed = seed, scale = sc}
    local r = run(p, rl.sarsa{lr = lr, eps = eps, radius = R},
                  {iters = steps, seed = seed, progress = false})
    local s = r:series("region")
    local g, nn = s[#s], 0
    for i = 1, #r.x do nn = nn + r.x[i] ^ 2 end
    nn = math.sqrt(nn)
    reg[sc] = g
    print(string.format("%4d   %5d   %8.4g   %7.4g   %7.4g   %8.4f", seed,
                        sc, g, 2 * r.bound[1], nn, g / R))
    if sc <= 16 then
      ok = ok and g <= 2 * r.bound[1] and g > 0
      small = small and g <= R / 10
      worst = math.max(worst, g / R)
    end
    if sc == 4096 then
      big = big and (nn >= R * (1 - 1e-9) or g > R / 10)
    end
  end
  local lin = reg[16] == 16 * reg[1]
  print(string.format("seed %d: region(16) / region(1) = %.15g (exactly 16: "
                      .. "%s)", seed, reg[16] / reg[1],
                      lin and "yes" or "no"))
  ok = ok and lin
end
local holds = ok and small and big
print(string.format("verdict: %s (seed 1, 2, 3: for scale <= 16 the region "
                    .. "is at most %.3f R, inside 2 rho, and exactly linear "
                    .. "in the reward; at scale 4096 the iterates reach "
                    .. "the ball; %d steps, lr %g, eps %g)",
                    holds and "holds" or "does not hold", worst, steps, lr,
                    eps))
