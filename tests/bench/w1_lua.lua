-- tests/bench/w1_lua.lua -- W1 with a Lua-defined objective: Adam on 2-D
-- Rosenbrock whose value and gradient come from one Lua function (fdf),
-- 10^6 steps through run().  Prints "W1 lua ns/step <median> final (x, y)".
-- usage: optlab --no-tui tests/bench/w1_lua.lua [steps] [reps]
local N = tonumber(arg[1] or 1000000)
local reps = tonumber(arg[2] or 5)

local function fdf (x, g)
  local a, b = x[1], x[2]
  local d = b - a * a
  if g then
    g[1] = -2 * (1 - a) - 400 * a * d
    g[2] = 200 * d
  end
  return 100 * d * d + (1 - a) * (1 - a)
end

local p = problem.new{n = 2, fdf = fdf, x0 = {-1.2, 1}}
local m = optim.adam{lr = 1e-3}
local times, r = {}, nil
for k = 1, reps do
  local t0 = os.clock()
  r = run(p, m, {iters = N, progress = false, view = false,
                 metrics = {"loss", "gradnorm"}})
  times[k] = os.clock() - t0
end
table.sort(times)
local med = reps % 2 == 1 and times[(reps + 1) // 2]
  or 0.5 * (times[reps // 2] + times[reps // 2 + 1])
local x = r.x
print(string.format("W1 lua    ns/step %.2f  final (%.9f, %.9f)",
                    1e9 * med / N, x[1], x[2]))

-- The objective's own cost: the same fdf called N times from a Lua loop,
-- less the same loop calling an empty function (Lua's call cost), so the
-- binding's share can be told apart from Lua's arithmetic.
local function empty (xx, gg) return 0 end
local function loop (fn)
  local xx, gg, s = {-1.2, 1}, {0, 0}, 0
  local t0 = os.clock()
  for i = 1, N do
    xx[1] = i * 1e-9
    s = s + fn(xx, gg)
  end
  return (os.clock() - t0) / N * 1e9, s
end
local tf, te = loop(fdf), loop(empty)
print(string.format("W1 luabody ns/call %.2f  (fdf from Lua %.2f, empty "
                    .. "function %.2f)", tf - te, tf, te))
