-- tests/lua/aog.lua -- game.aog (accelerated optimistic gradient, Cai &
-- Zheng 2023) through the binary: its iterates against an independent
-- mode-by-mode recursion, the last-iterate rates of GDA, EG, OG and AOG
-- on problem.bilineardiag, the O(1/T) bound's constant, the dynamic
-- regret metric (M16) on matrix games, and its misuse and help.
--
-- Truth.  problem.bilineardiag{n, smin} is min_x max_y x'diag(s)y with
-- s_j = smin^((j-1)/(n-1)), x0 = y0 = 1: it splits into n planar games,
-- so ||F(z)||^2 = sum_j s_j^2 (x_j^2 + y_j^2) (the gradnorm metric); the
-- duality gap restricted to the ball of radius D around z* = 0 is
-- D (||M'x|| + ||My||), between D ||F(z)|| and sqrt(2) D ||F(z)||, so the
-- gap's rates are the residual's.
-- Extragradient maps mode j by I - lr s J - lr^2 s^2 I (J the quarter
-- turn), a scaled rotation: ||F(z_T)||^2 = sum_j 2 s_j^2 ((1 - lr^2 s_j^2)^2
-- + lr^2 s_j^2)^T exactly (tolerance 1e-9 relative).  AOG's recursion is
-- run here per mode in plain Lua, in complex arithmetic (x_j + i y_j; the
-- operator of a mode is multiplication by i s_j up to a sign fixed by the
-- first check): the binary must agree to 1e-9 relative.  Rates: the
-- least-squares slope of log ||F(z_T)|| against log T over T = 100 ..
-- 10000 (five points): GDA grows (||F|| at T = 1000 over 100 x its start),
-- EG and OG within 0.1 of -1/2 (their tight O(1/sqrt(T)); measured -0.50),
-- AOG within 0.15 of -1 (O(1/T) up to the slowly growing number of modes
-- above 1 / (lr T); measured -0.92 .. -0.97).  The bound's constant C_T =
-- lr T ||F(z_T)|| / ||z0 - z*|| stays below 2 for AOG over that range
-- (measured 0.9 .. 1.3) while EG's grows more than 5-fold (like sqrt(T)).
-- Dynamic regret: with per-step exploitability c / t it grows by c ln 4
-- per fourfold T, so the ratio of successive increments is within 0.2 of
-- 1 (sqrt(T) growth would give 2); the last iterate's exploitability on
-- those simplex games falls with slope within 0.15 of -1 between T = 1000
-- and 16000 (measured -1.00).  Deterministic runs (no seed).
local t = dofile("tests/lib/tap.lua")
local sqrt, log, abs = math.sqrt, math.log, math.abs
t.diag("deterministic (no seed)")

local n, smin = 30, 1e-3
local p = problem.bilineardiag{n = n, smin = smin}
local s = {}
for j = 1, n do s[j] = smin ^ ((j - 1) / (n - 1)) end
local z0norm = sqrt(2 * n)
local function F (T, m, lr)
  local r = run(p, game[m]{lr = lr}, {iters = T, progress = false,
                                      view = false, metrics = {"gradnorm"}})
  return r:last("gradnorm"), r
end

-- (1) EG's closed form (checks the problem and the metric)
do
  local lr, T = 0.3, 1000
  local want = 0
  for j = 1, n do
    local q = (1 - lr ^ 2 * s[j] ^ 2) ^ 2 + lr ^ 2 * s[j] ^ 2
    want = want + 2 * s[j] ^ 2 * q ^ T
  end
  want = sqrt(want)
  local got = F(T, "eg", lr)
  t.ok(abs(got - want) <= 1e-9 * want, string.format("aog: eg on "
       .. "bilineardiag matches its closed form ||F(z_1000)|| = %.12g (got "
       .. "%.12g)", want, got))
end

-- (2) AOG against the same recursion run per mode in Lua: mode j is
-- u = x_j + i y_j with F(u) = sgn i s_j u; w, the anchor u0 and the last
-- feedback g as in core/games/aog.c's header
local function aog_modes (lr, T, sgn)
  local tot = 0
  for j = 1, n do
    local sj = s[j]
    local ur, ui = 1, 1            -- the profile played, z_t
    local wr, wi = 1, 1            -- w_t
    for k = 0, T - 1 do
      local b, b1 = 1 / (k + 1), 1 / (k + 2)
      -- g = sgn i s (ur + i ui) = sgn s (-ui + i ur)
      local gr, gi = -sgn * sj * ui, sgn * sj * ur
      wr = wr + b * (1 - wr) - lr * gr
      wi = wi + b * (1 - wi) - lr * gi
      ur = wr + b1 * (1 - wr) - lr * gr
      ui = wi + b1 * (1 - wi) - lr * gi
    end
    tot = tot + sj ^ 2 * (ur ^ 2 + ui ^ 2)
  end
  return sqrt(tot)
end
do
  local lr, T = 0.3, 1000
  local got = F(T, "aog", lr)
  local a, b = aog_modes(lr, T, 1), aog_modes(lr, T, -1)
  local want = abs(a - got) < abs(b - got) and a or b
  t.ok(abs(got - want) <= 1e-9 * want, string.format("aog: iterates match "
       .. "the per-mode recursion, ||F(z_1000)|| = %.12g (got %.12g)", want,
       got))
end

-- (3) slopes of log ||F(z_T)|| over T = 100 .. 10000
local Ts = {100, 300, 1000, 3000, 10000}
local function slope (m, lr)
  local xs, ys, C = {}, {}, {}
  for i, T in ipairs(Ts) do
    local f = F(T, m, lr)
    xs[i], ys[i] = log(T), log(f)
    C[i] = lr * T * f / z0norm
  end
  local mx, my = 0, 0
  for i = 1, #xs do mx, my = mx + xs[i] / #xs, my + ys[i] / #ys end
  local sxy, sxx = 0, 0
  for i = 1, #xs do
    sxy = sxy + (xs[i] - mx) * (ys[i] - my)
    sxx = sxx + (xs[i] - mx) ^ 2
  end
  return sxy / sxx, C
end
for _, lr in ipairs{0.2, 0.45} do
  local g0 = F(0, "gda", lr)
  local g1 = F(1000, "gda", lr)
  t.ok(g1 > 100 * g0, string.format("aog: gda at lr = %g diverges, ||F|| "
       .. "%.3g -> %.3g in 1000 steps", lr, g0, g1))
  for _, m in ipairs{"eg", "ogda"} do
    local k, C = slope(m, lr)
    t.ok(abs(k + 0.5) < 0.1, string.format("aog: %s's last-iterate slope "
         .. "at lr = %g is %.3f, within 0.1 of -1/2", m, lr, k))
    if m == "eg" then
      t.ok(C[#C] > 5 * C[1], string.format("aog: eg's lr T ||F|| / ||z0|| "
           .. "grows from %.3g to %.3g (> 5x)", C[1], C[#C]))
    end
  end
  local k, C = slope("aog", lr)
  t.ok(abs(k + 1) < 0.15, string.format("aog: last-iterate slope at lr = %g "
       .. "is %.3f, within 0.15 of -1", lr, k))
  local hi = 0
  for i = 1, #C do hi = math.max(hi, C[i]) end
  t.ok(hi < 2, string.format("aog: lr T ||F(z_T)|| / ||z0 - z*|| <= %.3g < "
       .. "2 for T = 100 .. 10000 at lr = %g (the O(1/T) bound)", hi, lr))
end

-- (4) dynamic regret on matrix games: O(log T)
for _, q in ipairs{problem.rps(),
                   problem.matrixgame{m = 4, n = 4, seed = 1,
                                      kind = "zerosum"}} do
  local dr, ex = {}, {}
  for i, T in ipairs{1000, 4000, 16000} do
    local r = run(q, game.aog{lr = 0.1}, {iters = T, progress = false,
                                          view = false,
                                          metrics = {"dynregret",
                                                     "exploitability"}})
    dr[i], ex[i] = r:last("dynregret"), r:last("exploitability")
  end
  local k = log(ex[3] / ex[1]) / log(16)
  t.ok(abs(k + 1) < 0.15, string.format("aog: last-iterate exploitability "
       .. "on %s falls like 1/T on the simplices: %.3g at T = 1000, %.3g at "
       .. "16000, slope %.3f within 0.15 of -1", q.desc or "?", ex[1],
       ex[3], k))
  local ratio = (dr[3] - dr[2]) / (dr[2] - dr[1])
  t.ok(dr[1] > 0 and abs(ratio - 1) < 0.2, string.format("aog: dynregret "
       .. "on %s grows like log T: %.4g, %.4g, %.4g at T = 1000, 4000, "
       .. "16000, increment ratio %.3f (sqrt(T): 2)", q.desc or "?", dr[1],
       dr[2], dr[3], ratio))
end

-- (5) dynregret is the method's own; NaN without simplices
t.errors("dynregret", function ()
  run(problem.rps(), game.eg{}, {iters = 5, metrics = {"dynregret"},
                                progress = false, view = false})
end)
do
  local r = run(p, game.aog{}, {iters = 5, metrics = {"dynregret"},
                               progress = false, view = false})
  local v = r:last("dynregret")
  t.ok(v ~= v, "aog: dynregret is NaN on an unconstrained game")
end

-- (6) parameters and help
t.errors("lr", function () game.aog{lr = -1} end)
do
  local tmp = os.tmpname()
  local old = io.output()
  io.output(tmp)
  local ok = pcall(help, game.aog)
  io.output():close()
  io.output(old)
  local fh = assert(io.open(tmp))
  local h = fh:read("a")
  fh:close()
  os.remove(tmp)
  t.ok(ok and h:find("Cai & Zheng 2023", 1, true) ~= nil,
       "aog: help(game.aog) shows the reference")
end
t.done()
