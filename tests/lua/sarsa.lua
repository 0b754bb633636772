-- tests/lua/sarsa.lua -- problem.linmdp, rl.sarsa and the region metric
-- (M28) through the binary.
--
-- Truth computed here in Lua from MDPs written in the test (P, R, phi
-- given to problem.linmdp):
--   - Q* by value iteration, and the least-squares fit x* of Q* by the
--     features from the normal equations (p.xstar, p.fstar);
--   - Q*_eps, the fixed point of (T_eps Q)(s, a) = R + gamma sum_s'
--     P(s'|s, a) ((1 - eps) max_a' Q(s', a') + eps mean_a' Q(s', a')),
--     where tabular SARSA with a fixed eps-greedy policy and diminishing
--     steps converges (Singh, Jaakkola, Littman & Szepesvari 2000);
--   - the bound rho = rmax / ((1 - gamma) sqrt((eps / A) pmin lmin)),
--     lmin from the 2 x 2 Gram matrix in closed form;
--   - exact homogeneity: with eps-greedy, w0 = 0 and no projection, the
--     iterates for rewards 4 R are 4 times those for R, bit for bit
--     (4 is a power of 2, and the argmax does not see the scale).
-- Seeds 1, 2, 3 for the runs (printed); the MDPs are fixed numbers.
-- (9) re-reads scripts/sarsa_region.lua's numbers against its stated
-- thresholds.
local t = dofile("tests/lib/tap.lua")
local abs, max, sqrt = math.abs, math.max, math.sqrt
t.diag("seeds 1, 2, 3 (runs)")
local quiet = {iters = 1, progress = false}

-- (1) refusals
t.errors("problem.linmdp", function ()
  return run(problem.rosenbrock{}, rl.sarsa{}, quiet)
end)
t.errors("MDP problem", function ()
  return run(problem.linmdp{}, rl.pg{}, quiet)
end)
t.errors("eps", function () return rl.sarsa{eps = 2} end)
t.errors("radius", function () return rl.sarsa{radius = 0} end)
t.errors("P and R go together", function ()
  return problem.linmdp{R = {{1, 2}}}
end)
t.errors("full column rank", function ()
  return problem.linmdp{S = 2, A = 2, phi = {{1, 2}, {2, 4}, {3, 6},
                                             {4, 8}}}
end)
t.errors("d <= 4", function () return problem.linmdp{S = 2, A = 2, d = 5} end)
t.errors("sums to", function ()
  return problem.linmdp{P = {{0.5, 0.6}, {1, 0}}, R = {{0}, {0}}, d = 1}
end)
t.errors("region", function ()
  return run(problem.linmdp{}, optim.gd{}, {iters = 1, progress = false,
                                            metrics = {"region"}})
end)

-- a fixed MDP: S = 3, A = 2, rows s A + a of P
local S, A, gamma = 3, 2, 0.8
local P = {{0.5, 0.3, 0.2}, {0.1, 0.1, 0.8}, {0.2, 0.6, 0.2},
           {0.7, 0.2, 0.1}, {0.3, 0.3, 0.4}, {0.25, 0.25, 0.5}}
local R = {{1, -0.5}, {0.2, 0.4}, {-1, 0.8}}

local function viter (eps)
  local Q = {}
  for i = 1, S * A do Q[i] = 0 end
  for _ = 1, 400 do                  -- 0.8^400 ~ 1e-39
    local V, N = {}, {}
    for s = 1, S do
      local m, mean = -math.huge, 0
      for a = 1, A do
        m = max(m, Q[(s - 1) * A + a])
        mean = mean + Q[(s - 1) * A + a] / A
      end
      V[s] = (1 - eps) * m + eps * mean
    end
    for s = 1, S do
      for a = 1, A do
        local i, v = (s - 1) * A + a, R[s][a]
        for u = 1, S do v = v + gamma * P[i][u] * V[u] end
        N[i] = v
      end
    end
    Q = N
  end
  return Q
end
local qstar = viter(0)

-- (2) one-hot: x* = Q*, f* = 0
local tab = problem.linmdp{P = P, R = R, gamma = gamma, features = "onehot"}
local err = 0
for i = 1, S * A do err = max(err, abs(tab.xstar[i] - qstar[i])) end
t.near(err, 0, 1e-13, "linmdp: one-hot x* is Q* of value iteration")
t.near(tab.fstar, 0, 1e-25, "linmdp: one-hot f* = 0")

-- (3) given features (d = 2): x* from the normal equations
local phi = {{1, 0}, {0.6, 0.8}, {0, 1}, {-0.6, 0.8}, {0.8, 0.6},
             {0.28, 0.96}}
local lin = problem.linmdp{P = P, R = R, gamma = gamma, phi = phi}
local g11, g12, g22, b1, b2 = 0, 0, 0, 0, 0
for i = 1, S * A do
  g11 = g11 + phi[i][1] ^ 2
  g12 = g12 + phi[i][1] * phi[i][2]
  g22 = g22 + phi[i][2] ^ 2
  b1 = b1 + phi[i][1] * qstar[i]
  b2 = b2 + phi[i][2] * qstar[i]
end
local det = g11 * g22 - g12 * g12
local xs = {(g22 * b1 - g12 * b2) / det, (g11 * b2 - g12 * b1) / det}
t.near(lin.xstar[1], xs[1], 1e-12, "linmdp: x*[1] from the normal "
       .. "equations")
t.near(lin.xstar[2], xs[2], 1e-12, "linmdp: x*[2] from the normal "
       .. "equations")
local fs = 0
for i = 1, S * A do
  fs = fs + (phi[i][1] * xs[1] + phi[i][2] * xs[2] - qstar[i]) ^ 2
end
t.near(lin.fstar, fs / (2 * S * A), 1e-12, "linmdp: f* is the fit's "
       .. "residual")

-- (4) the bound rho
local rmax, pmin = 0, math.huge
for s = 1, S do for a = 1, A do rmax = max(rmax, abs(R[s][a])) end end
for i = 1, S * A do for u = 1, S do pmin = math.min(pmin, P[i][u]) end end
local lmin = (g11 + g22) / 2 - sqrt(((g11 - g22) / 2) ^ 2 + g12 ^ 2)
local rho = rmax / ((1 - gamma) * sqrt(0.1 / A * pmin * lmin))
local r = run(lin, rl.sarsa{eps = 0.1}, quiet)
t.near(r.bound[1], rho, 1e-12 * rho, "rl.sarsa: r.bound is rho = rmax / "
       .. "((1 - gamma) sqrt(eps pmin lmin / A))")

-- (5) tabular SARSA, eps fixed, steps 0.5 / (1 + t / 1000): within 0.05
-- of Q*_eps after 1e6 steps (measured 0.003 .. 0.022; the step is then
-- 5e-4), far closer than Q* is at eps = 0.2 (0.55 away); as eps falls
-- (0.2, 0.05) w follows Q*_eps towards Q*: |w - Q*| <= |Q*_eps - Q*| +
-- 0.05 (Q*_eps -> Q* as eps -> 0, here |Q*_eps - Q*| ~ 2.8 eps).
local lastdq
for _, eps in ipairs{0.2, 0.05} do
  local qe, dq = viter(eps), 0
  for i = 1, S * A do dq = max(dq, abs(qe[i] - qstar[i])) end
  t.diag(string.format("eps %g: max |Q*_eps - Q*| = %.4f", eps, dq))
  for seed = 1, 3 do
    local rs = run(tab, rl.sarsa{lr = 0.5, eps = eps, radius = math.huge},
                   {iters = 1000000, seed = seed, progress = false,
                    schedule = {kind = "inv", period = 1000}})
    local e, e0 = 0, 0
    for i = 1, S * A do
      e = max(e, abs(rs.x[i] - qe[i]))
      e0 = max(e0, abs(rs.x[i] - qstar[i]))
    end
    t.ok(e < 0.05 and e0 <= dq + 0.05, string.format("rl.sarsa: tabular, "
         .. "eps %g, seed %d: max |w - Q*_eps| = %.4f < 0.05, max |w - Q*| "
         .. "= %.4f <= %.4f + 0.05", eps, seed, e, e0, dq))
    if eps == 0.2 then
      t.ok(e < dq / 10, string.format("rl.sarsa: tabular, eps 0.2, seed %d:"
           .. " Q*_eps, not Q*, is the limit (%.4f < %.4f / 10)", seed, e,
           dq))
    end
  end
  if lastdq then
    t.ok(dq < lastdq / 2, string.format("rl.sarsa: eps 0.05 brings the "
         .. "limit Q*_eps closer to Q* (%.4f < %.4f / 2)", dq, lastdq))
  end
  lastdq = dq
end

-- (6) exact homogeneity in the reward scale
for seed = 1, 3 do
  local runs = {}
  for _, sc in ipairs{1, 4} do
    runs[sc] = run(problem.linmdp{S = 5, A = 2, d = 2, seed = seed,
                                  scale = sc},
                   rl.sarsa{lr = 0.05, radius = math.huge},
                   {iters = 20000, seed = seed, progress = false,
                    metrics = {"region"}})
  end
  local a, b = runs[1]:series("region"), runs[4]:series("region")
  t.ok(b[#b] == 4 * a[#a] and runs[4].x[1] == 4 * runs[1].x[1]
       and runs[4].x[2] == 4 * runs[1].x[2],
       string.format("rl.sarsa: instance %d: rewards x4 give iterates and "
                     .. "region x4 exactly (%.6g -> %.6g)", seed, a[#a],
                     b[#b]))
end

-- (7) the region lies within the bound and far inside the ball
for seed = 1, 3 do
  local rr = run(lin, rl.sarsa{lr = 0.05, eps = 0.1, radius = 1000},
                 {iters = 200000, seed = seed, progress = false,
                  metrics = {"region"}})
  local reg = rr:series("region")
  t.ok(reg[#reg] > 0 and reg[#reg] <= 2 * rho and reg[#reg] < 1000 / 100,
       string.format("rl.sarsa: seed %d: region %.4f <= 2 rho = %.1f "
                     .. "and < R / 100", seed, reg[#reg], 2 * rho))
end

-- (8) the projection holds, for both policies
for _, pol in ipairs{"egreedy", "softmax"} do
  local rp = run(lin, rl.sarsa{lr = 0.5, radius = 0.25, policy = pol,
                               tau = 0.1},
                 {iters = 5000, seed = 1, progress = false})
  local nn = sqrt(rp.x[1] ^ 2 + rp.x[2] ^ 2)
  t.ok(nn <= 0.25 * (1 + 1e-12), string.format("rl.sarsa: %s: ||w|| = "
       .. "%.6g <= R = 0.25", pol, nn))
end

-- (9) the demo's numbers: scripts/sarsa_region.lua, re-read
do
  local f = assert(io.popen("OPTLAB_PROGRESS_SECONDS=0 ./optlab --no-tui "
                            .. "scripts/sarsa_region.lua 2>&1"))
  local out = f:read("a")
  f:close()
  t.ok(out:match("\nverdict: holds %(") ~= nil, "sarsa_region: the "
       .. "verdict holds")
  local rows = 0
  for seed, sc, reg, rho2, nn in out:gmatch("\n%s*(%d+)%s+(%d+)%s+([%d.e+]+)"
                                            .. "%s+([%d.e+]+)%s+([%d.e+]+)") do
    seed, sc, reg, rho2, nn = tonumber(seed), tonumber(sc), tonumber(reg),
      tonumber(rho2), tonumber(nn)
    rows = rows + 1
    if sc <= 16 then
      t.ok(reg <= rho2 and reg <= 100, string.format("sarsa_region: seed "
           .. "%d, scale %d: region %g <= 2 rho %g and <= R / 10", seed, sc,
           reg, rho2))
    end
    if sc == 4096 then
      t.ok(nn > 999 or reg > 100, string.format("sarsa_region: seed %d, "
           .. "scale 4096: the iterates reach the ball (||w_T|| %g, "
           .. "region %g)", seed, nn, reg))
    end
  end
  t.is(rows, 21, "sarsa_region: 3 seeds x 7 reward scales")
  local keep, conv = out:match("keep at least ([%d.]+) of their region; "
                               .. "the converging one at most ([%d.]+)")
  keep, conv = tonumber(keep), tonumber(conv)
  t.ok(keep and keep >= 0.5 and conv <= 0.5, string.format("sarsa_region: "
       .. "with diminishing steps the chattering instances keep >= 1/2 of "
       .. "their region (%s), the converging one <= 1/2 (%s)",
       tostring(keep), tostring(conv)))
  local _, exact = out:gsub("exactly 16: yes", "")
  t.is(exact, 3, "sarsa_region: region(16) = 16 region(1) at every seed")
end

t.done()
