-- tests/bench/bridge.lua -- the cost of the C -> Lua bridge of a problem
-- made by problem.new{fdf = ...} (lua/lproblem.c: lua_fdf), per call, for
-- the sizes of the posteriordb densities (n = 3, 4, 10) and a larger one.
--
-- For each n: gradient descent, N steps through run(), on
--   (a) problem.quadratic{n =, rotate = false}: the engine alone (a C
--       oracle, one O(n) loop);
--   (b) the same f(x) = 1/2 sum lambda_i x_i^2 written as a Lua fdf that
--       fills g in place: engine + bridge + the Lua body;
-- and (c) the Lua fdf called N times from a Lua loop, less the same loop
-- calling an empty function: the body's own arithmetic.  The bridge is
-- (b) - (a) - (c): handing x to Lua, lua_pcall, reading g and f back and
-- checking them.  Medians over reps; prints
--   "BRIDGE n <n> lua ns/step <b> engine <a> body <c> bridge <b-a-c>".
-- usage: optlab --no-tui tests/bench/bridge.lua [steps] [reps]
local N = tonumber(arg and arg[1]) or 200000
local reps = tonumber(arg and arg[2]) or 5

local median = dofile("tests/bench/blib.lua").median

-- median ns per step of fn() doing N steps
local function timed (fn)
  local ts = {}
  for k = 1, reps do
    local t0 = os.clock()
    fn()
    ts[k] = (os.clock() - t0) / N * 1e9
  end
  return median(ts)
end

for _, n in ipairs{3, 4, 10, 100} do
  -- quadratic's lambda_i = cond^(-i/(n-1)); cond = 10
  local lam = {}
  for i = 1, n do lam[i] = n == 1 and 1 or 10 ^ (-(i - 1) / (n - 1)) end
  local function fdf (x, g)
    local f = 0.0
    for i = 1, n do
      local li, xi = lam[i], x[i]
      f = f + li * xi * xi
      if g then g[i] = li * xi end
    end
    return 0.5 * f
  end
  local ones = {}
  for i = 1, n do ones[i] = 1 end
  local pc = problem.quadratic{n = n, rotate = false, cond = 10}
  local pl = problem.new{n = n, fdf = fdf, x0 = ones}
  local m = optim.gd{lr = 1e-6}
  local opts = {iters = N, progress = false, view = false, metrics = {"loss"}}
  local a = timed(function () run(pc, m, opts) end)
  local b = timed(function () run(pl, m, opts) end)
  local function empty (xx, gg) return 0 end
  local function loop (fn)
    local xx, gg = {}, {}
    for i = 1, n do xx[i], gg[i] = 1, 0 end
    return function ()
      for k = 1, N do
        xx[1] = k * 1e-9
        fn(xx, gg)
      end
    end
  end
  local c = timed(loop(fdf)) - timed(loop(empty))
  print(string.format("BRIDGE n %3d lua ns/step %8.1f engine %7.1f body "
                      .. "%7.1f bridge %7.1f", n, b, a, c, b - a - c))
end
