-- tests/bench/umethod.lua -- a method written in Lua (optim.new, issue 24)
-- against the C method it copies.
--
-- GD (lr 1e-3) on 2-D Rosenbrock from (-1.2, 1), N steps through run(),
-- the problem a Lua f(x) traced into a tape (so the gradient runs in C
-- for both), metrics {"loss"} only:
--   "UM c ns/step <median>"    optim.gd
--   "UM lua ns/step <median>"  the same update written with optim.new
--   "UM body ns/step <median>" the Lua step's own work: the same step
--                              function called from a Lua loop with a
--                              stub oracle (an empty Lua method), so
--                              lua - c - body is the binding's cost per
--                              step (thread call, x copied in and out, the
--                              oracle call's marshalling)
--   "UM final c (x, y) lua (x, y)"  the two runs end on the same x.
--   "UM ratio min <r> median <r>"  lua / c over the reps pairs, each pair
--                              the C run then the Lua run (interleaved)
-- run.sh prints lua / c (target <= 3x) and the binding's ns per step.
-- usage: optlab --no-tui tests/bench/umethod.lua [steps] [reps]
local N = math.tointeger(tonumber(arg and arg[1]) or 1000000)
local reps = tonumber(arg and arg[2]) or 5

local B = dofile("tests/bench/blib.lua")

local function step (s, x, o, p)
  local g = s.g
  o:stochastic_grad(x, g)
  for i = 1, #x do x[i] = x[i] - p.lr * g[i] end
end
optim.new{name = "bench_gd", params = {lr = {default = 1e-3, min = 0}},
  init = function (s, x) s.g = {0, 0} end, step = step}

local p = problem.new{n = 2, x0 = {-1.2, 1}, f = function (x)
  return 100 * (x[2] - x[1] ^ 2) ^ 2 + (1 - x[1]) ^ 2 end}
local o = {iters = N, metrics = {"loss"}, progress = false, view = false}
local rc, rl
-- the C and the Lua run in turn, reps pairs
local tcs, tls, ratios = B.pairs(
  function () rc = run(p, optim.gd{lr = 1e-3}, o) end,
  function () rl = run(p, optim.bench_gd{lr = 1e-3}, o) end, reps)
local tc, tl = B.median(tcs), B.median(tls)
-- the body alone: a stub oracle whose gradient is a constant
local stub = {stochastic_grad = function (_, x, g) g[1], g[2] = 1e-9, 1e-9 end}
local tb = B.timed(function ()
  local s, x, pp = {g = {0, 0}}, {-1.2, 1}, {lr = 1e-3}
  for _ = 1, N do step(s, x, stub, pp) end
end, reps)
print(string.format("UM c ns/step %.1f", tc / N * 1e9))
print(string.format("UM lua ns/step %.1f", tl / N * 1e9))
print(string.format("UM body ns/step %.1f", tb / N * 1e9))
print(string.format("UM ratio min %.2f median %.2f", B.min(ratios),
                    B.median(ratios)))
print(string.format("UM final c (%.12g, %.12g) lua (%.12g, %.12g)", rc.x[1],
                    rc.x[2], rl.x[1], rl.x[2]))
