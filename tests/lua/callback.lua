-- tests/lua/callback.lua -- Lua objectives through problem.new: the
-- trampoline gives the same iterates as the built-in problem, finite
-- differences converge, and a failing or ill-typed objective stops the
-- run with reason "callback error" and keeps the trace recorded so far.
local t = dofile("tests/lib/tap.lua")
local SEED = 1
t.diag("seed " .. SEED)

-- Same operations in the same order as core/problems/rosenbrock.c.
local function rosen (x)
  local a = x[1]
  local d, u = x[2] - a * a, 1 - a
  return 100 * d * d + u * u
end
local function rosen_grad (x, g)
  local a = x[1]
  local d, u = x[2] - a * a, 1 - a
  g[1] = -400 * a * d - 2 * u
  g[2] = 200 * d
end
local opts = {x0 = {-1.2, 1}, iters = 3000, seed = SEED, progress = false,
              view = false, record_x = true}

-- (1) f + grad and fdf give exactly the built-in iterates.
local rb = run(problem.rosenbrock{n = 2}, optim.adam{lr = 1e-2}, opts)
local rl = run(problem.new{n = 2, f = rosen, grad = rosen_grad},
               optim.adam{lr = 1e-2}, opts)
local rf = run(problem.new{n = 2, fdf = function (x, g)
                 if g then rosen_grad(x, g) end
                 return rosen(x)
               end}, optim.adam{lr = 1e-2}, opts)
t.is(rl.iter, rb.iter, "callback: same number of iterations as built-in")
t.ok(rl.x[1] == rb.x[1] and rl.x[2] == rb.x[2],
     string.format("callback: f+grad iterates identical to rosenbrock "
                   .. "(%.17g, %.17g)", rl.x[1], rl.x[2]))
t.ok(rf.x[1] == rb.x[1] and rf.x[2] == rb.x[2],
     "callback: fdf iterates identical to rosenbrock")
local function same (a, b)
  if #a ~= #b then return false end
  for i = 1, #a do if a[i] ~= b[i] then return false end end
  return true
end
t.ok(same(rl:series("loss"), rb:series("loss"))
     and same(rl:series("gradnorm"), rb:series("gradnorm")),
     "callback: identical loss and gradnorm series")

-- grad returning a new table instead of filling g.
local rn = run(problem.new{n = 2, f = rosen, grad = function (x)
                 local g = {}
                 rosen_grad(x, g)
                 return g
               end}, optim.adam{lr = 1e-2}, opts)
t.ok(rn.x[1] == rb.x[1] and rn.x[2] == rb.x[2],
     "callback: grad may return a new table")

-- (2) finite-difference gradients converge.
local rd = run(problem.new{n = 2, f = rosen, xstar = {1, 1}, fstar = 0},
               optim.adam{lr = 1e-2},
               {x0 = {-1.2, 1}, iters = 20000, tol = 1e-5, seed = SEED,
                progress = false})
t.is(rd.reason, "tolerance", "callback: FD gradient run stops by tolerance")
t.near(rd.x[1], 1, 1e-4, "callback: FD gradient converges to x* (x1)")
t.near(rd.x[2], 1, 1e-4, "callback: FD gradient converges to x* (x2)")
t.ok(rd:last("dist") < 1e-4, "callback: dist metric from a Lua xstar")

-- (3) an error on the 10th call stops the run and keeps 9 points.
local calls = 0
local pe = problem.new{n = 2, fdf = function (x, g)
  calls = calls + 1
  if calls == 10 then error("boom on call 10") end   -- ERRLINE
  if g then rosen_grad(x, g) end
  return rosen(x)
end}
local re = run(pe, optim.gd{lr = 1e-4}, {x0 = {-1.2, 1}, iters = 100,
                                         seed = SEED, progress = false})
local errline
do
  local n = 0
  for line in io.lines("tests/lua/callback.lua") do
    n = n + 1
    if line:find("-- ERRLINE", 1, true) and not line:find("find") then
      errline = n
    end
  end
end
t.is(re.reason, "callback error", "callback: reason is 'callback error'")
t.ok(re.message and re.message:find("callback.lua:" .. errline
                                    .. ": boom on call 10", 1, true),
     "callback: message has the script name and line of the error")
t.ok(re.message and re.message:find("stack traceback", 1, true),
     "callback: message has the traceback")
local loss, times = re:series("loss")
t.is(#loss, 9, "callback: exactly 9 recorded points remain")
t.is(times[1], 0, "callback: first recorded t = 0")
t.is(times[#times], 8, "callback: last recorded t = 8")
t.ok(tostring(re):find("message: ", 1, true)
     and tostring(re):find("boom on call 10", 1, true),
     "callback: print(r) shows the message")

-- (4) non-number results.
local pb = problem.new{n = 1, f = function () return "one" end}
local rs = run(pb, optim.gd{}, {iters = 5, progress = false})
t.is(rs.reason, "callback error", "callback: a string result is an error")
t.is(rs.message, "f returned a string (expected a number)",
     "callback: the message names the type")
local pn = problem.new{n = 1, f = function () end}
t.is(run(pn, optim.gd{}, {iters = 5}).message,
     "f returned nil (expected a number)", "callback: nil result")
local pg = problem.new{n = 2, f = rosen, grad = function (x, g)
                         g[1] = 0
                         g[2] = "x"
                       end}
local rg = run(pg, optim.gd{}, {iters = 5})
t.ok(rg.reason == "callback error"
     and rg.message == "grad: g[2] is a string (expected a number)",
     "callback: a non-number gradient entry is an error naming the entry")

-- (5) the problem outlives its runs: collect it while a run holds it.
local rk
do
  local pk = problem.new{n = 2, f = rosen, grad = rosen_grad}
  rk = run(pk, optim.gd{lr = 1e-3}, {iters = 10, x0 = {0, 0}})
end
collectgarbage()
collectgarbage()
rk:continue(10)
t.is(rk.iter, 20, "callback: run keeps its Lua problem alive (continue)")

-- (6) the bridge reuses one x and one g table per callback thread and
-- clears g to nil before each gradient call, GCHUNK (32) entries at a
-- time (lua/lproblem.c: tclear): at n = 70 (three chunks) a call that
-- fills g[1..69] after one that filled all 70 fails naming g[70], one
-- that fills all passes again with its own numbers, and x and g are the
-- same tables from call to call (a callback must not keep them).
do
  local n, fill, seen = 70, 70, {}
  local pk = problem.new{n = n, fdf = function (x, g)
    seen[#seen + 1] = {x, g}
    if g then for i = 1, fill do g[i] = i * x[i] end end
    return 0
  end}
  local x = {}
  for i = 1, n do x[i] = 2 end
  local f1, g1 = pk:eval(x)
  fill = 69
  local f2, msg = pk:eval(x)
  fill = 70
  x[70] = 3
  local f3, g3 = pk:eval(x)
  t.ok(f1 == 0 and g1[70] == 140 and f2 == nil
       and msg == "fdf: g[70] is nil (expected a number)"
       and f3 == 0 and g3[70] == 210 and g3[1] == 2,
       "callback: g cleared before each call at n = 70 (three chunks): "
       .. "an unfilled g[70] is caught after a full call")
  t.ok(#seen == 3 and seen[1][1] == seen[3][1] and seen[1][2] == seen[3][2]
       and seen[1][1] ~= seen[1][2],
       "callback: one x and one g table reused across calls")
end

-- (7) a call allocates nothing on the Lua heap: with the collector
-- stopped, 100000 gradient steps of a Lua fdf (n = 10) that allocates
-- nothing itself grow the heap by what the run's own objects take, the
-- same as 1000 steps (within 1 KB; one byte per call would be 97 KB).
do
  local n = 10
  local pk = problem.new{n = n, x0 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                         fdf = function (x, g)
    local f = 0.0
    for i = 1, n do
      local xi = x[i]
      f = f + xi * xi
      if g then g[i] = xi end
    end
    return 0.5 * f
  end}
  local m, grow = optim.gd{lr = 1e-6}, {}
  for k, iters in ipairs{1000, 100000} do
    collectgarbage()
    collectgarbage("stop")
    local k0 = collectgarbage("count")
    run(pk, m, {iters = iters, progress = false, view = false,
                metrics = {"loss"}})
    grow[k] = collectgarbage("count") - k0
    collectgarbage("restart")
  end
  t.diag(string.format("Lua heap growth: %.2f KB over 1000 steps, %.2f KB "
                       .. "over 100000", grow[1], grow[2]))
  t.ok(grow[2] - grow[1] < 1,
       "callback: the bridge allocates nothing per call (heap growth "
       .. "independent of the number of calls)")
end

t.done()
