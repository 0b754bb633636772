-- tests/lua/ixomd.lua -- game.ixomd (implicit-exploration online mirror
-- descent, Kozuno, Menard, Munos & Valko 2021; the seeds catalog's B173)
-- on Kuhn poker, through the binary.
--
-- Truth, all computed here in plain Lua from Kuhn poker's rules (3 cards,
-- 6 deals, kuhn.h's 12 information sets, x_I = P(bet or call)):
--   (1) One step on the play it sampled (r.episode, r.payoff): the play
--       is legal and its payoff the rules' one; the estimate is l / (mu +
--       gamma) at each player's last move (l = (2 - u_i) / 4, mu the
--       player's own probability of its moves); the new policy is the
--       minimiser of eta <y, l~> + sum_x y_parent(x) KL(x's new || old)
--       (OMD with the dilated entropy, whose Bregman divergence is that
--       weighted KL), found here by bisection on each first-order
--       condition from the deepest information set up -- not by the
--       paper's recursion with Z -- and every entry must agree to 1e-12.
--       Seeds 1 .. 40, so every kind of play occurs; and the second step
--       of the decaying rates (lrpow = 1/2) from the first's profile.
--   (2) The IX estimator at a fixed policy (lr = 0 keeps x0), N = 20000
--       plays (seeds 1 .. N for gamma = 0.5, N + 1 .. 2N for gamma = 0):
--       its mean in every entry is the closed form E l~(x, a) = l(x, a)
--       mu / (mu + gamma) within 4 standard errors, with l(x, a) the
--       sequence-form loss (the sum over the terminals whose last move of
--       the player is (x, a) of chance times the opponent's reach times
--       the loss) computed by enumerating deals; with gamma = 0.5 it is
--       biased low: the mean is below l(x, a) in every entry (where l >
--       0) and short by more than 4 standard errors in total, by the
--       closed form's amount; with gamma = 0 it is unbiased.
--   (3) r.xavg after 3 steps is the sequence-form average of the three
--       profiles played (each read from a run of 0, 1, 2 steps with the
--       same seed), and the exploitability metrics are the brute-force
--       best responses' (64 pure strategies per player).
--   (4) The rate: exploitability of the average at T = 10^3 .. 10^5
--       (five points; the paper's constant rates tuned to T, eta =
--       sqrt(2 X log A / (H A T)) with X = 6 information sets a player,
--       A = 2 actions, depth H = 2, i.e. 1.44 / sqrt(T), and gamma =
--       eta / 2), seeds 1 .. 8: the least-squares slope of log
--       exploitability against log T through the medians over the seeds
--       is <= -0.35 and every seed's is <= -0.3 (the theorem's rate is
--       T^-1/2 up to logs, an upper bound that the start at the uniform
--       profile, exploitability 0.458, flattens at small T; measured
--       -0.39 for the median, -0.35 .. -0.43 by seed), and the
--       exploitability at T = 10^5 is below 0.05 at every seed (measured
--       0.030 .. 0.044).
--   (5) The refusals.
local t = dofile("tests/lib/tap.lua")
local exp, log, sqrt, abs = math.exp, math.log, math.sqrt, math.abs
t.diag("seeds 1..40 (one step), 1..40000 (estimator), 9 (average), "
       .. "1..8 (rate)")

local p = problem.kuhn{}
local x0 = {0.3, 0.6, 0.8, 0.2, 0.5, 0.9, 0.4, 0.35, 0.7, 0.25, 0.55, 0.85}
local M = 2
local quiet = {progress = false, view = false}
local function opts (o)
  for k, v in pairs(quiet) do o[k] = v end
  return o
end
local function owner (I) return I <= 6 and 1 or 2 end
local function prob (x, I, a) return a == 1 and x[I] or 1 - x[I] end

-- Player 1's payoff of a play by the rules: I1 = 1 + c1 opens; player 2
-- answers at 7 + c2 (after a check) or 10 + c2 (after a bet).
local function rules (ep)
  local c1, I2 = ep[1][1] - 1, ep[2][1]
  local c2 = I2 >= 10 and I2 - 10 or I2 - 7
  local s = c1 > c2 and 1 or -1
  if ep[1][2] == 1 then                         -- bet: fold or call
    return ep[2][2] == 0 and 1 or 2 * s, #ep == 2 and I2 >= 10
  end
  if ep[2][2] == 0 then return s, #ep == 2 and I2 < 10 end  -- check, check
  local legal = #ep == 3 and I2 < 10 and ep[3][1] == 4 + c1
  return ep[3][2] == 0 and -1 or 2 * s, legal   -- check, bet: fold or call
end

-- the q minimising eta ((1 - q) l0 + q l1) + KL(q || q0): the root of
-- the first-order condition k + logit(q) - logit(q0) = 0, k = eta (l1 -
-- l0), by bisection in (0, 1)
local function argmin (q0, k)
  local lo, hi = 0, 1
  for _ = 1, 200 do
    local q = (lo + hi) / 2
    if k + log(q / (1 - q)) - log(q0 / (1 - q0)) > 0 then hi = q
    else lo = q end
  end
  return (lo + hi) / 2
end
-- min over q of eta ((1 - q) l0 + q l1) + KL(q || q0) at q = argmin
local function minval (q0, eta, l0, l1)
  local q = argmin(q0, eta * (l1 - l0))
  return eta * ((1 - q) * l0 + q * l1) + q * log(q / q0)
    + (1 - q) * log((1 - q) / (1 - q0)), q
end

-- One step by hand from the profile x on the play ep with payoff u1:
-- the estimates lt (24 entries) and the new profile.
local function hand (x, ep, u1, eta, gamma)
  -- the estimates: l / (mu + gamma) at each player's last move
  local lt, want = {}, {table.unpack(x)}
  for k = 1, 24 do lt[k] = 0 end
  for i = 1, 2 do
    local l = i == 1 and (M - u1) / (2 * M) or (M + u1) / (2 * M)
    local mu, last = 1, nil
    for _, m in ipairs(ep) do
      if owner(m[1]) == i then
        mu = mu * prob(x, m[1], m[2])
        last = m
      end
    end
    lt[2 * (last[1] - 1) + last[2] + 1] = l / (mu + gamma)
  end
  -- the minimiser, card by card: player 1's second move (4 .. 6) first,
  -- its value then enters the first move's condition through the check
  -- branch; player 2's are single moves
  local function L (I, a) return lt[2 * (I - 1) + a + 1] end
  for c = 0, 2 do
    local v2, q2 = minval(x[4 + c], eta, L(4 + c, 0), L(4 + c, 1))
    local _, q1 = minval(x[1 + c], eta, L(1 + c, 0) + v2 / eta,
                         L(1 + c, 1))
    want[1 + c], want[4 + c] = q1, q2
    for _, I in ipairs{7 + c, 10 + c} do
      local _, q = minval(x[I], eta, L(I, 0), L(I, 1))
      want[I] = q
    end
  end
  return want, lt
end
local function maxdiff (u, v)
  local m = 0
  for k = 1, #u do m = math.max(m, abs(u[k] - v[k])) end
  return m
end

-- (1) one step against the hand computation
do
  local eta, gamma = 0.8, 0.3
  local worst, worstl, kinds, legal, paid = 0, 0, {}, true, true
  for seed = 1, 40 do
    local r = run(p, game.ixomd{lr = eta, gamma = gamma},
                  opts{iters = 1, seed = seed, x0 = x0})
    local ep, u1 = r.episode, r.payoff[1]
    local u, ok = rules(ep)
    legal = legal and ok
    paid = paid and u == u1
    local kind = ""
    for _, m in ipairs(ep) do kind = kind .. m[2] end
    kinds[kind] = true
    local want, lt = hand(x0, ep, u1, eta, gamma)
    worst = math.max(worst, maxdiff(r.x, want))
    worstl = math.max(worstl, maxdiff(r.lhat, lt))
  end
  local nk = 0
  for _ in pairs(kinds) do nk = nk + 1 end
  t.ok(legal and paid, "ixomd: 40 sampled plays are legal Kuhn plays and "
       .. "r.payoff is the rules' payoff")
  t.is(nk, 5, "ixomd: the 40 plays cover the 5 kinds of play (bet-fold, "
       .. "bet-call, check-check, check-bet-fold, check-bet-call)")
  t.ok(worstl < 1e-12, string.format("ixomd: r.lhat is l / (mu_{1:H} + "
       .. "gamma) at each player's last move (max diff %.2g < 1e-12)",
       worstl))
  t.ok(worst < 1e-12, string.format("ixomd: one step is the dilated-"
       .. "entropy OMD minimiser found by bisection (max diff %.2g < "
       .. "1e-12 over 40 plays)", worst))
  -- the decaying rates: the second step of lrpow = 1/2 uses eta / sqrt(2)
  -- and gamma / sqrt(2), from the first step's profile
  worst = 0
  for seed = 1, 10 do
    local m = game.ixomd{lr = eta, gamma = gamma, lrpow = 0.5}
    local r1 = run(p, m, opts{iters = 1, seed = seed, x0 = x0})
    local r2 = run(p, m, opts{iters = 2, seed = seed, x0 = x0})
    local want = hand(r1.x, r2.episode, r2.payoff[1], eta / sqrt(2),
                      gamma / sqrt(2))
    worst = math.max(worst, maxdiff(r2.x, want))
  end
  t.ok(worst < 1e-12, string.format("ixomd: lrpow = 1/2's second step "
       .. "uses eta / sqrt(2), gamma / sqrt(2) (max diff %.2g < 1e-12 over "
       .. "10 seeds)", worst))
end

-- the sequence-form losses l(x, a) at the profile x, entry 2 (I - 1) + a
-- + 1, and each entry's own sequence probability mu
local function seqloss (x)
  local l, mu = {}, {}
  for k = 1, 24 do l[k], mu[k] = 0, 0 end
  local function add (I, a, w, loss, own)
    local k = 2 * (I - 1) + a + 1
    l[k] = l[k] + w * loss
    mu[k] = own
  end
  for c1 = 0, 2 do
    for c2 = 0, 2 do
      if c1 ~= c2 then
        local s = c1 > c2 and 1 or -1
        -- terminals: P1's last (I, a) and own prob, P2's, payoff u1
        local b, k, be, ga = x[1 + c1], x[4 + c1], x[7 + c2], x[10 + c2]
        local z = {
          {1 + c1, 1, b, 10 + c2, 0, 1 - ga, 1},
          {1 + c1, 1, b, 10 + c2, 1, ga, 2 * s},
          {1 + c1, 0, 1 - b, 7 + c2, 0, 1 - be, s},
          {4 + c1, 0, (1 - b) * (1 - k), 7 + c2, 1, be, -1},
          {4 + c1, 1, (1 - b) * k, 7 + c2, 1, be, 2 * s},
        }
        for _, e in ipairs(z) do
          local I1, a1, p1, I2, a2, p2, u = table.unpack(e)
          add(I1, a1, p2 / 6, (M - u) / (2 * M), p1)
          add(I2, a2, p1 / 6, (M + u) / (2 * M), p2)
        end
      end
    end
  end
  return l, mu
end

-- (2) the estimator at a fixed policy: mean, standard error, closed form
do
  local N = 20000
  local l, mu = seqloss(x0)
  for _, gamma in ipairs{0.5, 0} do
    local s1, s2 = {}, {}
    for k = 1, 24 do s1[k], s2[k] = 0, 0 end
    local m = game.ixomd{lr = 0, gamma = gamma}
    for seed = gamma > 0 and 1 or N + 1, gamma > 0 and N or 2 * N do
      local lh = run(p, m, opts{iters = 1, seed = seed, x0 = x0,
                                metrics = {}}).lhat
      for k = 1, 24 do
        s1[k] = s1[k] + lh[k]
        s2[k] = s2[k] + lh[k] * lh[k]
      end
    end
    local worst, below, tot, totvar = 0, true, 0, 0
    for k = 1, 24 do
      local mean = s1[k] / N
      local var = (s2[k] / N - mean * mean) / N
      local want = l[k] * mu[k] / (mu[k] + gamma)
      worst = math.max(worst, abs(mean - want) / sqrt(var))
      if gamma > 0 then
        below = below and (mean < l[k] or l[k] == 0 and mean == 0)
      end
      tot, totvar = tot + (mean - l[k]), totvar + var
    end
    t.ok(worst < 4, string.format("ixomd: gamma = %g: the mean estimate "
         .. "over %d plays is l(x, a) mu / (mu + gamma) in all 24 entries "
         .. "(worst %.2f standard errors < 4)", gamma, N, worst))
    if gamma > 0 then
      -- the estimates are not independent across entries (one play
      -- feeds two), so the total's standard error is bounded by the sum
      -- of the entries' (Minkowski), the conservative one
      local se = 0
      for k = 1, 24 do
        local mean = s1[k] / N
        se = se + sqrt((s2[k] / N - mean * mean) / N)
      end
      t.ok(below and tot < -4 * se, string.format("ixomd: gamma = %g "
           .. "biases it low: below l(x, a) in every entry, %.4f in total "
           .. "(%.1f standard errors; closed form %.4f)", gamma, tot,
           tot / se, (function ()
             local c = 0
             for k = 1, 24 do c = c - l[k] * gamma / (mu[k] + gamma) end
             return c
           end)()))
    end
  end
end

-- brute-force best responses (64 pure strategies a player)
local function value (x)
  local v = 0
  for c1 = 0, 2 do
    for c2 = 0, 2 do
      if c1 ~= c2 then
        local s = c1 > c2 and 1 or -1
        local b, k, be, ga = x[1 + c1], x[4 + c1], x[7 + c2], x[10 + c2]
        v = v + ((1 - b) * ((1 - be) * s + be * ((1 - k) * -1 + k * 2 * s))
                 + b * ((1 - ga) + ga * 2 * s)) / 6
      end
    end
  end
  return v
end
local function br (x, i)
  local best = -math.huge
  for s = 0, 63 do
    local y = {table.unpack(x)}
    for j = 0, 5 do y[6 * i + j + 1] = (s >> j) & 1 end
    local u = i == 0 and value(y) or -value(y)
    if u > best then best = u end
  end
  return best
end

-- (3) the average in sequence form, and the metrics
do
  local m = game.ixomd{lr = 0.8, gamma = 0.3}
  local xs = {}
  for k = 0, 2 do
    xs[k + 1] = k == 0 and x0 or run(p, m, opts{iters = k, seed = 9,
                                                  x0 = x0}).x
  end
  local r = run(p, m, opts{iters = 3, seed = 9, x0 = x0,
                           metrics = {"exploitability_avg", "nashconv"}})
  -- own reach of each information set: player 1's second move after its
  -- check, every other one 1
  local worst = 0
  for I = 1, 12 do
    local s0, s1 = 0, 0
    for _, x in ipairs(xs) do
      local reach = (I >= 4 and I <= 6) and 1 - x[I - 3] or 1
      s0, s1 = s0 + reach * (1 - x[I]), s1 + reach * x[I]
    end
    worst = math.max(worst, abs(r.xavg[I] - s1 / (s0 + s1)))
  end
  t.ok(worst < 1e-14, string.format("ixomd: r.xavg is the sequence-form "
       .. "average of the 3 profiles played (max diff %.2g)", worst))
  local xa = r.xavg
  t.near(r:last("exploitability_avg"), (br(xa, 0) + br(xa, 1)) / 2, 1e-12,
         "ixomd: exploitability_avg is the brute-force one of r.xavg")
  t.near(r:last("nashconv"), br(r.x, 0) + br(r.x, 1), 1e-12,
         "ixomd: nashconv is the brute-force one of r.x")
end

-- (4) the rate over T = 1e3 .. 1e5 at eight seeds
do
  local Ts = {1000, 3000, 10000, 30000, 100000}
  local function slope (ys)
    local mx, my = 0, 0
    for i = 1, #Ts do
      mx, my = mx + log(Ts[i]) / #Ts, my + log(ys[i]) / #Ts
    end
    local sxy, sxx = 0, 0
    for i = 1, #Ts do
      sxy = sxy + (log(Ts[i]) - mx) * (log(ys[i]) - my)
      sxx = sxx + (log(Ts[i]) - mx) ^ 2
    end
    return sxy / sxx
  end
  local worst, top, cells, col = -math.huge, 0, {}, {}
  for i = 1, #Ts do col[i] = {} end
  for seed = 1, 8 do
    local ys = {}
    for i, T in ipairs(Ts) do
      local lr = sqrt(2 * 6 * log(2) / (2 * 2 * T))
      ys[i] = run(p, game.ixomd{lr = lr, gamma = lr / 2},
                  opts{iters = T, seed = seed,
                       metrics = {"exploitability_avg"}})
        :last("exploitability_avg")
      col[i][seed] = ys[i]
    end
    worst = math.max(worst, slope(ys))
    top = math.max(top, ys[#Ts])
    cells[#cells + 1] = string.format("%.3f", slope(ys))
  end
  local med = {}
  for i = 1, #Ts do
    table.sort(col[i])
    med[i] = (col[i][4] + col[i][5]) / 2
  end
  t.ok(slope(med) <= -0.35 and worst <= -0.3, string.format("ixomd: "
       .. "exploitability of the average falls with T = 1e3 .. 1e5: "
       .. "log-log slope of the median over 8 seeds %.3f <= -0.35, each "
       .. "seed's (%s) <= -0.3", slope(med), table.concat(cells, " ")))
  t.ok(top < 0.05, string.format("ixomd: exploitability at T = 1e5 is at "
       .. "most %.4f < 0.05 over 8 seeds", top))
end

-- (5) refusals and parameters
t.errors("needs an extensive-form game", function ()
  run(problem.rps{}, game.ixomd{}, opts{iters = 2})
end)
t.errors("lr", function () return game.ixomd{lr = -1} end)
t.errors("lrpow", function () return game.ixomd{lrpow = 2} end)
t.done()
