-- tests/lua/usergames.lua -- user-defined structures (issue 27): the Nash
-- equilibria problem.matrixgame computes for a user's payoffs (support
-- enumeration, the minimax LP), its xstar option, and user finite sums
-- (problem.finitesum) under the methods built on components.  Truth is
-- computed here in Lua: hand-solved games, best-response gains from the
-- payoff tables, the normal equations of a least-squares sum.  Random
-- games and data use fixed seeds, printed.
local t = dofile("tests/lib/tap.lua")
t.diag("seeds: matrixgame seed 7 (40 x 60 zero-sum), seed 3 (6 x 6 "
       .. "general), data LCG seed 12345")

-- Each player's best-response gain at z = (x, y): max (Ay) - x'Ay and
-- max (B'x) - x'By, by loops over the tables.
local function gains (A, B, z)
  local m, k = #A, #A[1]
  local hi1, hi2, v1, v2 = -math.huge, -math.huge, 0, 0
  for i = 1, m do
    local s = 0
    for j = 1, k do s = s + A[i][j] * z[m + j] end
    hi1 = math.max(hi1, s)
    v1 = v1 + z[i] * s
  end
  for j = 1, k do
    local s = 0
    for i = 1, m do s = s + B[i][j] * z[i] end
    hi2 = math.max(hi2, s)
    v2 = v2 + z[m + j] * s
  end
  return hi1 - v1, hi2 - v2
end

local function neg (A)
  local N = {}
  for i = 1, #A do
    N[i] = {}
    for j = 1, #A[1] do N[i][j] = -A[i][j] end
  end
  return N
end

-- z matches one of the listed equilibria to tol (each listed once)
local function haseq (list, z, tol)
  local hits = 0
  for _, e in ipairs(list) do
    local d = 0
    for i = 1, #z do d = math.max(d, math.abs(e[i] - z[i])) end
    if d <= tol then hits = hits + 1 end
  end
  return hits == 1
end

-- (1) hand-solved games
do
  local MP = {{1, -1}, {-1, 1}}
  local p = problem.matrixgame{A = MP}
  t.ok(#p.equilibria == 1 and haseq(p.equilibria, {0.5, 0.5, 0.5, 0.5},
                                    1e-15),
       "usergames: matching pennies has the one equilibrium (1/2, 1/2 | "
       .. "1/2, 1/2)")
  t.near(p.fstar, 0, 1e-15, "usergames: matching pennies' value is 0")
  t.ok(p.xstar and math.abs(p.xstar[1] - 0.5) < 1e-15
       and p.degenerate == false,
       "usergames: its xstar is the equilibrium; not degenerate")

  local RPS = {{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}
  local r = problem.matrixgame{A = RPS}
  local u = 1 / 3
  t.ok(#r.equilibria == 1 and haseq(r.equilibria, {u, u, u, u, u, u}, 1e-15),
       "usergames: rock-paper-scissors has the one uniform equilibrium")
  t.near(r.fstar, 0, 1e-15, "usergames: its value is 0")

  -- battle of the sexes: two pure equilibria and the mixed one where each
  -- player makes the other indifferent: x = (2/3, 1/3), y = (1/3, 2/3)
  local BA, BB = {{2, 0}, {0, 1}}, {{1, 0}, {0, 2}}
  local b = problem.matrixgame{A = BA, B = BB}
  local eqs = b.equilibria
  t.ok(#eqs == 3 and haseq(eqs, {1, 0, 1, 0}, 1e-15)
       and haseq(eqs, {0, 1, 0, 1}, 1e-15)
       and haseq(eqs, {2 / 3, 1 / 3, 1 / 3, 2 / 3}, 1e-15),
       "usergames: battle of the sexes has its three equilibria (1,0|1,0), "
       .. "(0,1|0,1), (2/3,1/3|1/3,2/3)")
  t.ok(b.xstar == nil and b.fstar == nil and b.degenerate == false,
       "usergames: three equilibria: no xstar, no single value; "
       .. "nondegenerate")

  -- a degenerate game: the row player's payoff is constant, so every x
  -- is a best response and the column player's tie at row 1 makes a
  -- continuum (x = (1, 0), any y)
  local d = problem.matrixgame{A = {{1, 1}, {1, 1}}, B = {{1, 1}, {0, 0}}}
  t.ok(d.degenerate == true and #d.equilibria >= 1,
       "usergames: a game with tied best responses is reported degenerate ("
       .. #d.equilibria .. " equal-support equilibria listed)")
  local ok = true
  for _, z in ipairs(d.equilibria) do
    local g1, g2 = gains({{1, 1}, {1, 1}}, {{1, 1}, {0, 0}}, z)
    ok = ok and g1 <= 1e-12 and g2 <= 1e-12
  end
  t.ok(ok, "usergames: each equilibrium listed for it is one (gains 0)")
end

-- (2) random games: every listed profile has both players' best-response
-- gains 0 to 1e-12 (payoffs in [-1, 1))
do
  local m, n, seed = 40, 60, 7
  -- the same draws as the core's random game, rebuilt from the oracle
  local p = problem.matrixgame{m = m, n = n, seed = seed, kind = "zerosum"}
  local A = {}
  for i = 1, m do
    A[i] = {}
    for j = 1, n do
      local z = {}
      for q = 1, m + n do z[q] = 0 end
      z[i], z[m + j] = 1, 1
      A[i][j] = p:eval(z)
    end
  end
  local z = p.equilibria[1]
  local g1, g2 = gains(A, neg(A), z)
  t.ok(#p.equilibria == 1 and g1 >= -1e-15 and g1 <= 1e-12
       and g2 >= -1e-15 and g2 <= 1e-12,
       string.format("usergames: the %d x %d zero-sum game (seed %d, past "
                     .. "support enumeration: minimax LP) has best-response "
                     .. "gains %.2g, %.2g <= 1e-12", m, n, seed, g1, g2))
  local v = 0
  for i = 1, m do
    for j = 1, n do v = v + z[i] * A[i][j] * z[m + j] end
  end
  t.near(p.fstar, v, 1e-14, "usergames: its value fstar is x'Ay at the "
         .. "equilibrium (" .. string.format("%.6f", v) .. ")")
  local sx, sy = 0, 0
  for i = 1, m do sx = sx + z[i] end
  for j = 1, n do sy = sy + z[m + j] end
  t.ok(math.abs(sx - 1) < 1e-14 and math.abs(sy - 1) < 1e-14,
       "usergames: the LP equilibrium is a probability vector per player")

  local q = problem.matrixgame{m = 6, n = 6, seed = 3, kind = "general"}
  local GA, GB = {}, {}
  local ok, worst = #q.equilibria >= 1, 0
  for i = 1, 6 do
    GA[i], GB[i] = {}, {}
    for j = 1, 6 do
      local e = {}
      for k = 1, 12 do e[k] = 0 end
      e[i], e[6 + j] = 1, 1
      local f, g = q:eval(e)
      GA[i][j], GB[i][j] = f, -g[6 + j]
    end
  end
  for _, e in ipairs(q.equilibria) do
    local g1, g2 = gains(GA, GB, e)
    worst = math.max(worst, g1, g2)
  end
  ok = ok and worst <= 1e-12 and #q.equilibria % 2 == 1
  t.ok(ok, string.format("usergames: a 6 x 6 general-sum game (seed 3) has "
                         .. "%d equilibria (odd, as in a nondegenerate "
                         .. "game), gains <= %.2g <= 1e-12",
                         #q.equilibria, worst))
end

-- (3) dist, the star and the value of a user game
do
  local BA, BB = {{2, 0}, {0, 1}}, {{1, 0}, {0, 2}}
  local p = problem.matrixgame{A = BA, B = BB, x0 = {0.6, 0.4, 0.5, 0.5}}
  local r = run(p, game.mwu{lr = 0.1}, {iters = 3, progress = false,
                view = false, metrics = {"dist"}})
  local best = math.huge
  for _, e in ipairs(p.equilibria) do
    local d = 0
    for i = 1, 4 do d = d + (r.x[i] - e[i])^2 end
    best = math.min(best, math.sqrt(d))
  end
  t.near(r:last("dist"), best, 1e-12, "usergames: dist on a user game is "
         .. "the distance to its nearest computed equilibrium")
  local f = os.tmpname()
  r:plot{file = f, watch = {"simplex"}}
  local h = assert(io.open(f))
  local sv = h:read("a")
  h:close()
  os.remove(f)
  local stars = 0
  for _ in sv:gmatch('class="nash"') do stars = stars + 1 end
  t.is(stars, 3, "usergames: the simplex panel of a user 2 x 2 game stars "
       .. "its three equilibria")
  local z = run(problem.matrixgame{A = {{0, -1, 1}, {1, 0, -1},
                                        {-1, 1, 0}}},
                game.mwu{}, {iters = 10, progress = false, view = false})
  t.ok(tostring(z):find("(the game's value: 0)", 1, true),
       "usergames: a user zero-sum game's run summary shows the game's value")
end

-- (4) xstar: checked, then the known equilibrium
do
  local MP = {{1, -1}, {-1, 1}}
  local p = problem.matrixgame{A = MP, xstar = {0.5, 0.5, 0.5, 0.5}}
  t.ok(#p.equilibria == 1 and p.xstar[3] == 0.5 and p.fstar == 0,
       "usergames: xstar given is the one known equilibrium")
  t.errors("xstar has 3 entries, expected rows %+ cols = 2 %+ 2 = 4",
           problem.matrixgame, {A = MP, xstar = {0.5, 0.5, 1}})
  t.errors("xstar: the column player's entries %(3..4%) sum to 0.9",
           problem.matrixgame, {A = MP, xstar = {0.5, 0.5, 0.5, 0.4}})
  t.errors("xstar%[2%] = %-0.5: a probability must be a finite number >= 0",
           problem.matrixgame, {A = MP, xstar = {1.5, -0.5, 0.5, 0.5}})
  t.errors("xstar is not a Nash equilibrium: its NashConv",
           problem.matrixgame, {A = MP, xstar = {1, 0, 0.5, 0.5}})
end

-- (5) user finite sums: least squares f_i = 1/2 (a_i'x - y_i)^2
local seed = 12345
local function rnd ()
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648 - 0.5
end
local m, n = 40, 3
local A, y = {}, {}
for i = 1, m do
  A[i] = {}
  for j = 1, n do A[i][j] = rnd() end
  y[i] = rnd()
end
local calls, hits = 0, {}
local function fi (i, x, g)
  calls = calls + 1
  hits[i] = (hits[i] or 0) + 1
  local r = -y[i]
  for j = 1, n do r = r + A[i][j] * x[j] end
  if g then
    for j = 1, n do g[j] = r * A[i][j] end
  end
  return 0.5 * r * r
end
-- the closed form: (A'A) x = A'y by Gaussian elimination here
local function lsq ()
  local M, b = {}, {}
  for j = 1, n do
    M[j], b[j] = {}, 0
    for k = 1, n do
      local s = 0
      for i = 1, m do s = s + A[i][j] * A[i][k] end
      M[j][k] = s
    end
    for i = 1, m do b[j] = b[j] + A[i][j] * y[i] end
  end
  for c = 1, n do
    for r = c + 1, n do
      local f = M[r][c] / M[c][c]
      for k = c, n do M[r][k] = M[r][k] - f * M[c][k] end
      b[r] = b[r] - f * b[c]
    end
  end
  local x = {}
  for r = n, 1, -1 do
    local s = b[r]
    for k = r + 1, n do s = s - M[r][k] * x[k] end
    x[r] = s / M[r][r]
  end
  return x
end
local xs = lsq()

do
  local p = problem.finitesum{n = n, m = m, fi = fi}
  t.ok(p.kind == "objective" and p.n == n
       and tostring(p) == "finitesum{n = 3, m = 40}",
       "usergames: problem.finitesum makes an objective of dimension n")
  local x = {0.3, -0.2, 0.7}
  calls = 0
  local f, g = p:eval(x)
  local fm, gm = 0, {0, 0, 0}
  for i = 1, m do
    local gi = {}
    fm = fm + fi(i, x, gi) / m
    for j = 1, n do gm[j] = gm[j] + gi[j] / m end
  end
  local err = math.abs(f - fm)
  for j = 1, n do err = math.max(err, math.abs(g[j] - gm[j])) end
  t.ok(err <= 1e-15, string.format("usergames: the full value and "
                                   .. "gradient are the mean of the fi's "
                                   .. "(max error %.2g <= 1e-15)", err))

  -- one epoch of SGD by random reshuffling: each component once
  local q = problem.finitesum{n = n, m = m, fi = fi, noise = {kind =
                              "batch", batch = 1, order = "shuffle"}}
  calls, hits = 0, {}
  run(q, optim.gd{lr = 0.1}, {iters = m, seed = 4, progress = false,
                              view = false, metrics = {"gradnorm"}})
  local once = true
  for i = 1, m do once = once and hits[i] ~= nil end
  t.diag(string.format("reshuffled epoch: %d calls in all (the records' "
                       .. "full evaluations included)", calls))
  -- every component seen; beyond the epoch's m stochastic calls the only
  -- others are the full evaluations, which call every component equally
  local lo, hi = math.huge, 0
  for i = 1, m do
    lo = math.min(lo, hits[i] or 0)
    hi = math.max(hi, hits[i] or 0)
  end
  t.ok(once and hi - lo == 0 and (calls - m) % m == 0,
       string.format("usergames: a reshuffled SGD epoch of %d steps calls "
                     .. "every component exactly once more than the full "
                     .. "evaluations do (%d..%d calls each)", m, lo, hi))

  -- SVRG (Johnson & Zhang 2013) with a constant step reaches the
  -- least-squares solution on the user's components: its variance
  -- vanishes at x*, where SGD's constant step stalls at a noise floor
  local sv = run(p, optim.svrg{lr = 0.5}, {iters = 3000, seed = 5,
                 progress = false, view = false})
  local dv, ds = 0, 0
  for j = 1, n do dv = math.max(dv, math.abs(sv.x[j] - xs[j])) end
  local sg = run(problem.finitesum{n = n, m = m, fi = fi, noise = {kind =
                   "batch", batch = 1, order = "shuffle"}},
                 optim.gd{lr = 0.5}, {iters = 3000, seed = 5,
                                      progress = false, view = false})
  for j = 1, n do ds = math.max(ds, math.abs(sg.x[j] - xs[j])) end
  t.ok(dv <= 1e-10 and ds > 1e3 * dv,
       string.format("usergames: optim.svrg on the user least-squares sum "
                     .. "reaches the normal equations' solution (max error "
                     .. "%.2g <= 1e-10; reshuffled SGD at the same step: "
                     .. "%.2g)", dv, ds))

  -- SCAFFOLD (control variates: the SVRG-style correction g_w(y) - c_w +
  -- c) with full local gradients reaches the least-squares solution
  local r = run(p, dist.scaffold{lr = 0.2, K = 5}, {iters = 400,
                progress = false, view = false})
  local d = 0
  for j = 1, n do d = math.max(d, math.abs(r.x[j] - xs[j])) end
  t.ok(d <= 1e-8, string.format("usergames: dist.scaffold on the user "
                                .. "least-squares sum reaches the normal "
                                .. "equations' solution (max error %.2g <= "
                                .. "1e-8)", d))

  -- a federated split of the user's components: 4 workers, sizes
  -- summing to m; SCAFFOLD over them reaches x* too, and dist (x* given)
  -- is the error
  local fp = problem.finitesum{n = n, m = m, fi = fi, xstar = xs}
  problem.workers(fp, {n = 4, heterogeneity = 1, seed = 3})
  local sizes, tot = fp.workers.sizes, 0
  for _, k in ipairs(sizes) do tot = tot + k end
  local fr = run(fp, dist.scaffold{lr = 0.2, K = 5}, {iters = 400,
                 progress = false, view = false, metrics = {"dist"}})
  t.ok(#sizes == 4 and tot == m and fr:last("dist") <= 1e-8,
       string.format("usergames: problem.workers splits the user sum among "
                     .. "4 workers (%d components) and scaffold over them "
                     .. "ends at dist %.2g <= 1e-8", tot, fr:last("dist")))

  -- SGLD runs on it (components drawn by the sampler)
  local s = run(p, sample.sgld{batch = 5}, {iters = 50, seed = 2,
                progress = false, view = false})
  t.ok(s.iter == 50, "usergames: sample.sgld runs 50 steps on a user sum")
end

-- (6) errors in fi: the component's index and a traceback
do
  local p = problem.finitesum{n = 2, m = 5, fi = function (i, x, g)
    if i == 4 then error("bad row") end
    if g then g[1], g[2] = x[1], x[2] end
    return 0.5 * (x[1]^2 + x[2]^2)
  end}
  local f, msg = p:eval({1, 2})
  t.ok(f == nil and msg:find("component i = 4", 1, true)
       and msg:find("bad row", 1, true)
       and msg:find("stack traceback", 1, true),
       "usergames: an error in fi names the component (i = 4) and carries "
       .. "the traceback")
  local r = run(p, optim.gd{}, {iters = 5, progress = false, view = false})
  t.ok(r.reason:find("callback", 1, true) ~= nil
       and tostring(r):find("message: component i = 4", 1, true),
       "usergames: a run whose fi fails stops with reason '" .. r.reason
       .. "', its message naming the component")
  t.errors("fi must be a function", problem.finitesum, {n = 2, m = 3})
  t.errors("m = 0 must be an integer in %[1, 1000000000%]",
           problem.finitesum, {n = 2, m = 0, fi = print})
  t.errors("unknown parameter 'k'", problem.finitesum,
           {n = 2, m = 3, fi = print, k = 1})
  local w = problem.finitesum{n = 2, m = 3, fi = function (i, x, g)
    if g then g[1] = 1 end
    return 0
  end}
  local _, wm = w:eval({0, 0})
  t.ok(wm and wm:find("fi(1, x, g): g[2] is nil", 1, true),
       "usergames: an fi that fills g partly is caught: " .. tostring(wm))
end

t.done()
