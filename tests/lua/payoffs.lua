-- tests/lua/payoffs.lua -- games written in Lua: problem.matrixgame's
-- payoffs as a function u(i, j) of the pure actions, tabulated over m x n,
-- against the same game given as tables (issue 12).
--
-- Truth: the tables themselves (the prisoner's dilemma A = {{3, 0}, {5,
-- 1}}, B = A'), so every iterate of a deterministic dynamic is the same bit
-- for bit; one return value means zero-sum (B = -A), checked on
-- rock-paper-scissors' value 0 and its uniform equilibrium.
local t = dofile("tests/lib/tap.lua")
local quiet = {progress = false, view = false}
local function opts (o)
  local r = {}
  for k, v in pairs(quiet) do r[k] = v end
  for k, v in pairs(o or {}) do r[k] = v end
  return r
end

local A, B = {{3, 0}, {5, 1}}, {{3, 5}, {0, 1}}
local pu = problem.matrixgame{m = 2, n = 2, x0 = {0.9, 0.1, 0.8, 0.2},
                              u = function (i, j) return A[i][j], B[i][j] end}
local pt = problem.matrixgame{A = A, B = B, x0 = {0.9, 0.1, 0.8, 0.2}}
for _, dyn in ipairs{"rm", "mwu", "fp"} do
  local ru = run(pu, game[dyn]{}, opts{iters = 200})
  local rt = run(pt, game[dyn]{}, opts{iters = 200})
  local same = #ru.x == 4
  for i = 1, 4 do same = same and ru.x[i] == rt.x[i] end
  t.ok(same, dyn .. ": u(i, j) plays exactly as the tables A, B")
end

-- one return value: zero-sum; rps written as a rule of the actions
local rps = problem.matrixgame{m = 3, n = 3, x0 = {0.6, 0.3, 0.1, 0.2, 0.2, 0.6},
  u = function (i, j)
    if i == j then return 0 end
    return (j - i) % 3 == 1 and -1 or 1
  end}
t.is(tostring(rps):match("zero%-sum") ~= nil, true,
     "one return value makes the game zero-sum: " .. tostring(rps))
local r = run(rps, game.rmplus{}, opts{iters = 10000})
t.near(r.value, 0, 3 / math.sqrt(10000), "rps from u: value 0 within 3/sqrt(T)")
t.ok(r:last("exploitability_avg") <= 3 / math.sqrt(10000),
     string.format("rps from u: exploitability of the average %.3g <= 0.03",
                   r:last("exploitability_avg")))

-- bad input: a clear error, nothing built
t.errors("u%(1, 1%) returned string", problem.matrixgame,
         {m = 2, n = 2, u = function () return "x" end})
t.errors("u%(2, 1%) is not finite", problem.matrixgame,
         {m = 2, n = 2, u = function (i) return i == 2 and 0 / 0 or 1 end})
t.errors("u must be a function", problem.matrixgame, {m = 2, n = 2, u = 5})
t.errors("boom", problem.matrixgame,
         {m = 2, n = 2, u = function () error("boom") end})
t.errors("give the payoffs as u or as A, B, potential, not both",
         problem.matrixgame, {A = {{1}}, u = function () return 1 end})

t.done()
