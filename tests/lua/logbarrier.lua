-- tests/lua/logbarrier.lua -- game.logbarrier (log-barrier OMD, B085) and
-- game.tsmd (two-step mirror descent, B111) with bandit feedback, through
-- the binary.
--
-- Truth.  One step of each, recomputed here in plain Lua from the payoff
-- table and the rules of core/games/logbarrier.c and tsmd.c:
-- losses l = (M - u) / (2 M), M = max |A|; full information: the
-- expected losses (M + g_a) / (2 M), g = (-A y, A'x); the log-barrier
-- step 1/x1_a = (1/x0_a + eta d_a + lambda) / (1 + eta tau) with lambda
-- found here by bisection; tsmd's x1 ~ (x0 exp(-eta d))^(1 / (1 + eta
-- tau)).  In bandit mode the sampled action is read off x1 (the one entry
-- whose step differs) and the step recomputed with d_a = l [a = a_t] /
-- (x_a + gamma): every entry must agree to 1e-12.  Unbiasedness: over N =
-- 4000 seeds of one log-barrier step, the estimate recovered exactly from
-- x1 (lhat_a = (s/x1_a - 1/x0_a - lambda) / eta, lambda = the smallest of
-- s/x1_a - 1/x0_a since only one entry is nonzero) averages to the
-- expected loss vector within 4 standard errors in every entry (tsmd
-- shares the estimator, games/bandit.h, with implicit exploration on).
-- Both runs are reproducible from the run's seed.
-- Convergence: on rock-paper-scissors the last iterate's exploitability
-- at T = 10^5, median over 6 seeds, is below 0.08 and at most half its
-- value at T = 10^3 (the t^-1/4 rate gives a factor 3.2 over the two
-- decades; measured 0.154 -> 0.053 for logbarrier, 0.100 -> 0.039 for
-- tsmd; the regulariser's centre is rps's equilibrium, so what remains is
-- the noise, ~ t^-1/4 by the schedules), while Exp3-IX's
-- last iterate (tau = 0) stays above 0.1.  Seeds printed.
local t = dofile("tests/lib/tap.lua")
local abs, exp, log = math.abs, math.exp, math.log
t.diag("seeds 1..6 (convergence), 1..4000 (unbiasedness), 7 (one step)")

local A = {{0.5, -1, 0.2}, {1, 0.3, -0.7}, {-0.4, 0.8, 0}}
local M = 1
local p = problem.matrixgame{A = A}
local x0 = {0.5, 0.3, 0.2, 0.2, 0.3, 0.5}
local function one (m, pars, seed)
  return run(p, game[m](pars), {iters = 1, seed = seed, progress = false,
                                view = false, x0 = x0}).x
end
-- expected losses at x0: player 1's (M - (A y)_a) / 2M, player 2's
-- (M + (A'x)_b) / 2M
local dfull = {}
for a = 1, 3 do
  local s1, s2 = 0, 0
  for b = 1, 3 do
    s1 = s1 + A[a][b] * x0[3 + b]
    s2 = s2 + A[b][a] * x0[b]
  end
  dfull[a], dfull[3 + a] = (M - s1) / (2 * M), (M + s2) / (2 * M)
end

-- the log-barrier step on entries off+1 .. off+3 with losses d
local function lbstep (x, d, eta, tau, off, out)
  local s, c, lo = 1 + eta * tau, {}, math.huge
  for a = 1, 3 do
    c[a] = 1 / x[off + a] + eta * d[off + a]
    lo = math.min(lo, c[a])
  end
  local function sum (lam)
    local v = 0
    for a = 1, 3 do v = v + s / (c[a] + lam) end
    return v
  end
  local l, h = -lo + 1e-300, -lo + 10 * s + 10
  for _ = 1, 200 do
    local mid = (l + h) / 2
    if sum(mid) > 1 then l = mid else h = mid end
  end
  for a = 1, 3 do out[off + a] = s / (c[a] + (l + h) / 2) end
end
local function tsstep (x, d, eta, tau, off, out)
  local w, z = {}, 0
  for a = 1, 3 do
    w[a] = (x[off + a] * exp(-eta * d[off + a])) ^ (1 / (1 + eta * tau))
    z = z + w[a]
  end
  for a = 1, 3 do out[off + a] = w[a] / z end
end
local function maxdiff (u, v)
  local m = 0
  for i = 1, #u do m = math.max(m, abs(u[i] - v[i])) end
  return m
end

-- (1) full information: one step of each against the hand computation
do
  local want = {}
  lbstep(x0, dfull, 0.7, 0.4, 0, want)
  lbstep(x0, dfull, 0.7, 0.4, 3, want)
  local got = one("logbarrier", {lr = 0.7, tau = 0.4, feedback = "full"}, 7)
  t.ok(maxdiff(got, want) < 1e-12, string.format("logbarrier: one full-"
       .. "information step matches the hand computation (max diff %.2g < "
       .. "1e-12)", maxdiff(got, want)))
  tsstep(x0, dfull, 0.7, 0.4, 0, want)
  tsstep(x0, dfull, 0.7, 0.4, 3, want)
  got = one("tsmd", {lr = 0.7, tau = 0.4, feedback = "full"}, 7)
  t.ok(maxdiff(got, want) < 1e-12, string.format("tsmd: one full-"
       .. "information step matches the hand computation (max diff %.2g < "
       .. "1e-12)", maxdiff(got, want)))
end

-- (2) bandit: the sampled joint action read off x1, the step recomputed
-- with the importance-weighted estimate of that action
for _, m in ipairs{"logbarrier", "tsmd"} do
  local eta, tau = 0.7, 0.4
  local gamma = m == "tsmd" and eta / 2 or 0
  local step = m == "tsmd" and tsstep or lbstep
  local worst, nseeds = 0, 20
  for seed = 1, nseeds do
    local got = one(m, {lr = eta, tau = tau}, seed)
    -- try every joint action; keep the one that reproduces x1
    local best = math.huge
    for a1 = 1, 3 do
      for a2 = 1, 3 do
        local d, want = {0, 0, 0, 0, 0, 0}, {}
        d[a1] = (M - A[a1][a2]) / (2 * M) / (x0[a1] + gamma)
        d[3 + a2] = (M + A[a1][a2]) / (2 * M) / (x0[3 + a2] + gamma)
        step(x0, d, eta, tau, 0, want)
        step(x0, d, eta, tau, 3, want)
        best = math.min(best, maxdiff(got, want))
      end
    end
    worst = math.max(worst, best)
  end
  t.ok(worst < 1e-12, string.format("%s: %d one-step bandit runs each match "
       .. "the hand computation for one joint action (max diff %.2g < "
       .. "1e-12)", m, nseeds, worst))
end

-- (2b) the sampling is the run's seeded generator: equal seeds give equal
-- runs, other seeds other runs
for _, m in ipairs{"logbarrier", "tsmd"} do
  local function go (seed)
    return run(p, game[m]{}, {iters = 200, seed = seed, progress = false,
                              view = false}).x
  end
  local a, b, c = go(3), go(3), go(4)
  t.ok(maxdiff(a, b) == 0 and maxdiff(a, c) > 0, m .. ": reproducible "
       .. "from the run's seed (3 twice), different at seed 4")
end

-- (3) the importance-weighted estimate is unbiased: mean of lhat over N
-- seeds against the expected losses, in standard errors
do
  local N, eta, tau = 4000, 0.5, 0.3
  local s = 1 + eta * tau
  local sum, sq = {0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}
  for seed = 1, N do
    local x1 = one("logbarrier", {lr = eta, tau = tau}, seed)
    for off = 0, 3, 3 do
      local v, lam = {}, math.huge
      for a = 1, 3 do
        v[a] = s / x1[off + a] - 1 / x0[off + a]
        lam = math.min(lam, v[a])
      end
      for a = 1, 3 do
        local l = (v[a] - lam) / eta
        sum[off + a], sq[off + a] = sum[off + a] + l, sq[off + a] + l * l
      end
    end
  end
  local worst = 0
  for i = 1, 6 do
    local mean = sum[i] / N
    local se = math.sqrt((sq[i] / N - mean ^ 2) / N)
    worst = math.max(worst, abs(mean - dfull[i]) / se)
  end
  t.ok(worst < 4, string.format("logbarrier: the importance-weighted "
       .. "estimate over %d seeds is within %.2f < 4 standard errors of the "
       .. "expected losses in every entry", N, worst))
end

-- (4) convergence of the last iterate on rock-paper-scissors
do
  local function med (v)
    table.sort(v)
    return (v[3] + v[4]) / 2
  end
  local rps = problem.rps{}
  local function last (m, pars)
    local e3, e5 = {}, {}
    for seed = 1, 6 do
      local r = run(rps, game[m](pars), {iters = 1000, seed = seed,
                    progress = false, view = false,
                    metrics = {"exploitability"}})
      e3[seed] = r:last("exploitability")
      r:continue(99000)
      e5[seed] = r:last("exploitability")
    end
    return med(e3), med(e5)
  end
  for _, m in ipairs{"logbarrier", "tsmd"} do
    local a, b = last(m, {})
    t.ok(b < 0.08 and b <= a / 2, string.format("%s: rps, median last-"
         .. "iterate exploitability over 6 seeds %.3g at T = 1e3 -> %.3g at "
         .. "1e5 (< 0.08 and at most half)", m, a, b))
  end
  local _, b = last("tsmd", {tau = 0, lrpow = 0.5, lr = 0.1})
  t.ok(b > 0.1, string.format("tsmd: with tau = 0 (Exp3-IX) the last "
       .. "iterate on rps does not converge: median exploitability %.3g > "
       .. "0.1 at T = 1e5", b))
end

-- (5) misuse
t.errors("logbarrier needs a game (lua is an objective)", run,
         problem.new{n = 3, set = {simplex = {3}}, x0 = {1/3, 1/3, 1/3},
                     f = function (x) return x[1] end,
                     grad = function (x, g) g[1], g[2], g[3] = 1, 0, 0 end},
         game.logbarrier{}, {iters = 5, progress = false})
do
  -- a pure start is moved inside by 1e-3 of uniform (player 1 only here)
  local r = run(p, game.logbarrier{feedback = "full"}, {iters = 1,
                progress = false, view = false,
                x0 = {1, 0, 0, 0.2, 0.3, 0.5}})
  local x = {1 - 2e-3 / 3, 1e-3 / 3, 1e-3 / 3, 0.2, 0.3, 0.5}
  local d, want = {}, {}
  for a = 1, 3 do
    local s1, s2 = 0, 0
    for b = 1, 3 do
      s1 = s1 + A[a][b] * x[3 + b]
      s2 = s2 + A[b][a] * x[b]
    end
    d[a], d[3 + a] = (M - s1) / (2 * M), (M + s2) / (2 * M)
  end
  lbstep(x, d, 8, 0.15, 0, want)
  lbstep(x, d, 8, 0.15, 3, want)
  t.ok(maxdiff(r.x, want) < 1e-12, string.format("logbarrier: a start on "
       .. "the boundary is mixed with 1e-3 of uniform, then steps as by hand "
       .. "(max diff %.2g)", maxdiff(r.x, want)))
end
t.errors("bandit|full", game.tsmd, {feedback = "partial"})
t.done()
