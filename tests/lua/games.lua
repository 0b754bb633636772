-- tests/lua/games.lua -- the games, dynamics and game metrics of issue 12
-- through the Lua interface: constructors and their errors, payoffs given
-- as tables, x0 as the joint strategy, r.x and r.xavg, and the metrics
-- against values computed here in Lua from the payoff tables (NashConv,
-- exploitability = NashConv / 2, value, potential, regret); the simplex
-- panel of a 2 x 2 game as the unit square with the known equilibria
-- starred, in the text plot and in SVG.  No randomness but matrixgame's
-- seeded random games (seed printed).
local t = dofile("tests/lib/tap.lua")
t.diag("seed 5 (random games)")

-- NashConv of z = (x, y) by loops: max (Ay) - x'Ay + max (B'x) - x'By.
local function nashconv (A, B, z)
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
  return hi1 - v1 + hi2 - v2
end

local function value (A, z)
  local m, s = #A, 0
  for i = 1, m do
    for j = 1, #A[1] do s = s + z[i] * A[i][j] * z[m + j] end
  end
  return s
end

local function neg (A)
  local B = {}
  for i = 1, #A do
    B[i] = {}
    for j = 1, #A[1] do B[i][j] = -A[i][j] end
  end
  return B
end

-- (1) the built-ins: kind, size, a known equilibrium
local builtins = {
  rps = 6, biasedrps = 6, pennies = 4, shapley = 6, coordination = 4,
  climbing = 6, prisoners = 4, bilinear = 4, matrixgame = 6,
}
for name, n in pairs(builtins) do
  local p = problem[name]{}
  t.ok(p.kind == "game" and p.n == n, "games: problem." .. name
       .. "{} is a game of n = " .. n)
end
t.ok(problem.prisoners{}.xstar[2] == 1 and problem.prisoners{}.fstar == 1,
     "games: prisoners' equilibrium is (defect, defect), value 1")
t.near(problem.biasedrps{}.xstar[2], 10 / 16, 1e-15,
       "games: biasedrps' equilibrium puts 10/16 on paper")
t.is(problem.bilinear{simplex = false}.fstar, 0,
     "games: the unconstrained bilinear game has value 0")

-- (2) payoffs as tables, general-sum, errors
local PD, PDB = {{3, 0}, {5, 1}}, {{3, 5}, {0, 1}}
local pd = problem.matrixgame{A = PD, B = PDB, x0 = {0.5, 0.5, 0.9, 0.1}}
t.is(pd.x0[3], 0.9, "games: x0 is the joint strategy (player 1, then 2)")
t.errors("B is 1 x 1 but A is 1 x 2", problem.matrixgame,
         {A = {{1, 2}}, B = {{1}}})
t.errors("not an exact potential", problem.matrixgame,
         {A = PD, B = PDB, potential = {{0, 0}, {0, 1}}})
t.errors("unknown parameter 'C'", problem.matrixgame, {A = PD, C = PD})
t.errors("kind = 'mixed' is not one of zerosum|general",
         problem.matrixgame, {kind = "mixed"})
local g1 = problem.matrixgame{m = 3, n = 4, seed = 5, kind = "general"}
local g2 = problem.matrixgame{m = 3, n = 4, seed = 5, kind = "general"}
local r1 = run(g1, game.rm{}, {iters = 50})
local r2 = run(g2, game.rm{}, {iters = 50})
t.is(r1.x[1], r2.x[1], "games: a seeded random game is the same game twice")
t.is(g1.n, 7, "games: a random 3 x 4 game has n = 7")

-- (3) dynamics: registered, help, parameter checks
for _, d in ipairs{"rm", "rmplus", "prmplus", "mwu", "omwu", "gda", "eg",
                   "ogda", "fp", "br", "pg"} do
  t.ok(game[d] ~= nil and tostring(game[d]{}):find(d, 1, true) == 1,
       "games: game." .. d .. "{} exists")
end
t.errors("lr = 0 is out of range", game.mwu, {lr = 0})
t.errors("avg = 'cubic' is not one of uniform|linear|quadratic", game.rm,
         {avg = "cubic"})
do
  local tmp, old = os.tmpname(), io.output()
  io.output(tmp)
  local okh = pcall(help, game.omwu)
  io.output():close()
  io.output(old)
  local fh = assert(io.open(tmp))
  local h = fh:read("a")
  fh:close()
  os.remove(tmp)
  t.ok(okh and h:find("Daskalakis & Panageas 2019", 1, true)
       and h:find("lr    0.1      (0, inf)", 1, true),
       "games: help(game.omwu) gives the reference and lr's range")
end

-- (4) metrics against the tables, on the prisoner's dilemma (general-sum)
local r = run(pd, game.mwu{lr = 0.05}, {iters = 200, metrics = {
  "nashconv", "exploitability", "nashconv_avg", "exploitability_avg",
  "regret", "ccegap", "potential", "value"}})
local nc = nashconv(PD, PDB, r.x)
t.near(r:last("nashconv"), nc, 1e-12, "games: nashconv of r.x, computed "
       .. "from the tables (" .. string.format("%.4g", nc) .. ")")
t.near(r:last("exploitability"), nc / 2, 1e-12,
       "games: exploitability = nashconv / 2 (OpenSpiel's two-player "
       .. "exploitability)")
t.near(r:last("nashconv_avg"), nashconv(PD, PDB, r.xavg), 1e-12,
       "games: nashconv_avg is of r.xavg")
t.near(r:last("exploitability_avg"), nashconv(PD, PDB, r.xavg) / 2, 1e-12,
       "games: exploitability_avg = nashconv_avg / 2")
t.near(r:last("value"), value(PD, r.xavg), 1e-12,
       "games: value = xbar' A ybar")
local PHI = {{3, 5}, {5, 6}}
t.near(r:last("potential"), value(PHI, r.x), 1e-12,
       "games: potential = x' Phi y with Phi = [3 5; 5 6]")
t.ok(r:last("ccegap") == math.max(0, r:last("regret")),
     "games: ccegap = max(0, regret)")
local rr = run(problem.rps{}, game.rm{}, {iters = 1, metrics = {"regret"}})
-- one step of RM from x0: regret_i = max_a u_ia - <u_i, x_i>
local x0 = problem.rps{}.x0
local A = {{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}
local B = neg(A)
local worst = -math.huge
for pl = 1, 2 do
  local hi, ux = -math.huge, 0
  for a = 1, 3 do
    local u = 0
    for b = 1, 3 do
      u = u + (pl == 1 and A[a][b] * x0[3 + b] or B[b][a] * x0[b])
    end
    hi = math.max(hi, u)
    ux = ux + u * x0[(pl - 1) * 3 + a]
  end
  worst = math.max(worst, hi - ux)
end
t.near(rr:last("regret"), worst, 1e-15,
       "games: regret after one step is the larger best-response gain at x0")
t.errors("nashconv needs a bimatrix game on simplices", run,
         problem.bilinear{simplex = false}, game.eg{},
         {iters = 1, metrics = {"nashconv"}})

-- (5) the dynamics' claims, shortly, through Lua
local o = run(problem.pennies{}, game.omwu{lr = 0.1}, {iters = 20000})
local m = run(problem.pennies{}, game.mwu{lr = 0.1}, {iters = 20000})
local MP = {{1, -1}, {-1, 1}}
t.ok(nashconv(MP, neg(MP), o.x) < 1e-6 and nashconv(MP, neg(MP), m.x) > 0.5,
     string.format("games: pennies, last iterate: omwu NashConv %.3g < 1e-6, "
                   .. "mwu %.3g > 0.5", nashconv(MP, neg(MP), o.x),
                   nashconv(MP, neg(MP), m.x)))
t.ok(nashconv(MP, neg(MP), m.xavg) < 0.05,
     "games: mwu's average converges all the same ("
     .. string.format("%.3g", nashconv(MP, neg(MP), m.xavg)) .. ")")
local b = run(problem.climbing{}, game.br{}, {iters = 100,
  metrics = {"nashconv", "potential"}})
t.is(b.reason, "converged", "games: br on climbing converges")
t.ok(b:last("nashconv") == 0 and b:min("potential") >= value(
       {{11, -30, 0}, {-30, 7, 6}, {0, 0, 5}}, problem.climbing{}.x0) - 1e-12,
     "games: at a pure equilibrium, potential never below its start")
local bl = problem.bilinear{simplex = false}
local gd = run(bl, game.gda{lr = 0.1}, {iters = 500, metrics = {"dist"}})
local eg = run(bl, game.eg{lr = 0.1}, {iters = 30000, metrics = {"dist"}})
local og = run(bl, game.ogda{lr = 0.1}, {iters = 30000, metrics = {"dist"}})
t.ok(gd:last("dist") > 2 * gd:series("dist")[1], "games: gda spirals out "
     .. "on the unconstrained bilinear game (dist " .. string.format("%.3g",
     gd:last("dist")) .. ")")
t.ok(eg:last("dist") < 1e-6 and og:last("dist") < 1e-6,
     string.format("games: eg and ogda converge (dist %.3g, %.3g < 1e-6)",
                   eg:last("dist"), og:last("dist")))
local f = run(problem.shapley{}, game.fp{}, {iters = 10000,
                                            metrics = {"nashconv_avg"}})
t.ok(f:last("nashconv_avg") > 0.05, "games: fp on shapley: NashConv of the "
     .. "empirical play " .. string.format("%.3g", f:last("nashconv_avg"))
     .. " > 0.05 after 10^4 steps")
-- r.value: x'Ay at the average strategies, the value metric's last value
do
  local T = 10000
  local g = run(problem.bilinear{}, game.rmplus{}, {iters = T, seed = 1,
                progress = false, view = false})
  local bound = 3 * 2 / math.sqrt(T)          -- max|A| = 2
  t.near(g.value, -0.2, bound, "games: r.value of rmplus on bilinear within "
         .. "3 max|A|/sqrt(T) of the game's value -1/5")
  t.is(g.value, g:last("value"), "games: r.value is the value metric's last")
  local o = run(problem.rosenbrock{n = 2}, optim.gd{}, {iters = 3,
                progress = false, view = false})
  t.is(o.value, nil, "games: r.value is nil for an optimizer's run")
end
-- Exp3 / Exp3-IX with bandit feedback on RPS (seed 3): the average's
-- NashConv falls with T like 1/sqrt(T) up to logs, and the run is seeded
for _, ix in ipairs({true, false}) do
  local function go (T, seed)
    return run(problem.rps{}, game.exp3{ix = ix}, {iters = T, seed = seed,
               progress = false, view = false, metrics = {"nashconv_avg"}})
  end
  local a, b = go(1000, 3), go(100000, 3)
  local na, nb = a:last("nashconv_avg"), b:last("nashconv_avg")
  t.ok(nb < 0.1 and nb < na / 5, string.format("games: exp3 (ix = %s) "
       .. "NashConv of the average %.3g at T = 1e3 -> %.3g at 1e5 (< 0.1 "
       .. "and 5x lower)", tostring(ix), na, nb))
  local c, d = go(1000, 3), go(1000, 4)
  t.ok(c.x[1] == a.x[1] and c.x[4] == a.x[4] and d.x[1] ~= a.x[1],
       "games: exp3 (ix = " .. tostring(ix) .. ") is reproducible from its "
       .. "seed and differs across seeds")
end
-- an optimizer on a game names its family and the game dynamics to use
-- (5aa2093: "rmplus needs an objective or a density (matrixgame is a
-- game)", while game.rmplus is the one that runs on it)
t.errors("optim.rmplus needs an objective or a density (matrixgame is a "
         .. "game): a game runs with game dynamics, game.<name>{} "
         .. "(help(game))", run, problem.matrixgame{A = {{0, 1}, {1, 0}}},
         optim.rmplus{}, {iters = 1, progress = false})
t.errors("exp3 needs a game (lua is an objective)", run,
         problem.new{n = 3, set = {simplex = {3}}, x0 = {1/3, 1/3, 1/3},
                     f = function (x) return x[1] end,
                     grad = function (x, g) g[1], g[2], g[3] = 1, 0, 0 end},
         game.exp3{}, {iters = 5, progress = false})
-- (n) views: a 2 x 2 game's simplex panel is the unit square, the known
-- equilibria starred (text and SVG); a 3 x 3 game keeps the triangle
do
  local function count (s, pat)
    local n = 0
    for _ in s:gmatch(pat) do n = n + 1 end
    return n
  end
  local function svg (r)
    local f = os.tmpname()
    r:plot{file = f, watch = {"simplex"}}
    local h = assert(io.open(f))
    local s = h:read("a")
    h:close()
    os.remove(f)
    return s
  end
  local co = run(problem.coordination{}, game.pg{}, {iters = 200,
                 progress = false, view = false})
  -- the text plot goes to standard output: from a child optlab, UTF-8
  local p = io.popen("LANG=C.UTF-8 LC_ALL= ./optlab -e 'run(problem."
                     .. "coordination{}, game.pg{}, {iters = 200, progress "
                     .. "= false, view = false}):plot{text = true, watch = "
                     .. "{\"simplex\"}, width = 60, height = 20}'")
  local tx = p:read("a")
  p:close()
  t.ok(tx:find("unit square x1,y1", 1, true) and count(tx, "★") == 4
       and tx:find("★ Nash", 1, true),
       "games: coordination's text plot is the unit square with its three "
       .. "equilibria starred and a '★ Nash' key")
  local sv = svg(co)
  t.ok(sv:find('data-view="square"', 1, true)
       and count(sv, 'class="nash"') == 3 and sv:find(">Nash<", 1, true),
       "games: coordination's SVG is the square with three stars and a key")
  local rp = run(problem.rps{}, game.mwu{}, {iters = 200, progress = false,
                 view = false})
  sv = svg(rp)
  t.ok(not sv:find('data-view="square"', 1, true)
       and sv:find(">simplex<", 1, true)
       and count(sv, 'class="nash"') == 2,
       "games: rps's SVG keeps the triangle, its equilibrium starred at "
       .. "each player's strategy (2 stars)")
end

-- dist of a game: the distance to the nearest known equilibrium;
-- coordination A = B = [2 0; 0 1] has (1, 0 | 1, 0), (0, 1 | 0, 1) and the
-- mixed (1/3, 2/3 | 1/3, 2/3) (each best response indifferent at y1 = 1/3)
do
  local eqs = {{1, 0, 1, 0}, {0, 1, 0, 1}, {1 / 3, 2 / 3, 1 / 3, 2 / 3}}
  local got = problem.coordination{}.equilibria
  local same = #got == 3
  for k = 1, 3 do
    for i = 1, 4 do same = same and math.abs(got[k][i] - eqs[k][i]) < 1e-15 end
  end
  t.ok(same, "coordination's p.equilibria lists its three equilibria")
  t.ok(#problem.matrixgame{}.equilibria >= 1,
       "a random matrixgame's p.equilibria are computed (issue 27; "
       .. "tests/lua/usergames.lua checks them)")
  for _, x0 in ipairs{{0.4, 0.6, 0.3, 0.7}, {0.9, 0.1, 0.2, 0.8},
                      {0.1, 0.9, 0.15, 0.85}} do
    local r = run(problem.coordination{x0 = x0}, game.mwu{lr = 0.05},
                  {iters = 3, progress = false, view = false,
                   watch = {"dist"}})
    local best = math.huge
    for _, e in ipairs(eqs) do
      local d = 0
      for i = 1, 4 do d = d + (r.x[i] - e[i])^2 end
      best = math.min(best, math.sqrt(d))
    end
    t.near(r:last("dist"), best, 1e-14, string.format(
      "coordination from (%g, %g | %g, %g): dist is the distance to the "
      .. "nearest of its three equilibria", x0[1], x0[2], x0[3], x0[4]))
  end
end

-- regret1 and regret2: each player's external regret / T, computed here
-- from the strategies played (x0, then the first step's x1) on rps with
-- mwu; regret is the larger of the two
do
  local A = {{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}}
  local q = {progress = false, view = false,
             watch = {"regret", "regret1", "regret2"}}
  local function played (z)
    return {z[1], z[2], z[3]}, {z[4], z[5], z[6]}
  end
  local function add (U1, U2, S, z)
    local x, y = played(z)
    for a = 1, 3 do
      for b = 1, 3 do
        U1[a] = U1[a] + A[a][b] * y[b]
        U2[a] = U2[a] - x[b] * A[b][a]
      end
    end
    local v = 0
    for a = 1, 3 do for b = 1, 3 do v = v + x[a] * A[a][b] * y[b] end end
    S[1], S[2] = S[1] + v, S[2] - v
  end
  local p = problem.rps{}
  local r1 = run(p, game.mwu{lr = 0.1}, {iters = 1, progress = false,
                                         view = false})
  local zs = {p.x0, r1.x}
  for T = 1, 2 do
    local U1, U2, S = {0, 0, 0}, {0, 0, 0}, {0, 0}
    for k = 1, T do add(U1, U2, S, zs[k]) end
    local w1 = (math.max(U1[1], U1[2], U1[3]) - S[1]) / T
    local w2 = (math.max(U2[1], U2[2], U2[3]) - S[2]) / T
    local r = run(p, game.mwu{lr = 0.1}, (function ()
      local o = {iters = T}
      for k, v in pairs(q) do o[k] = v end
      return o end)())
    t.near(r:last("regret1"), w1, 1e-14, "rps, mwu, T = " .. T
           .. ": regret1 = player 1's external regret / T")
    t.near(r:last("regret2"), w2, 1e-14, "rps, mwu, T = " .. T
           .. ": regret2 = player 2's")
    t.is(r:last("regret"), math.max(r:last("regret1"), r:last("regret2")),
         "rps, mwu, T = " .. T .. ": regret is the larger")
  end
end

t.done()
