-- tests/bench/ad.lua -- traced Lua objectives (issue 15) against C.
--
-- (1) W1 traced: Adam (lr 1e-3) on 2-D Rosenbrock from (-1.2, 1), 10^6
--     steps through run(), the objective a Lua f(x) with no gradient: the
--     tape is recorded once and every step runs in C.  Prints
--       "W1 ad ns/step <median> final (x, y)"
--     for run.sh, which divides it by tests/bench/w1's "W1 floor" (the
--     same Adam with the gradient inlined in C) measured in the same run.
-- (2) AD1000: the 1000-D extended (chained) Rosenbrock written as a Lua f,
--     traced, against problem.rosenbrock{n = 1000}'s hand-written C
--     gradient, two ways:
--       step  gradient descent through run() with no metrics (one gradient
--             and one O(n) update a step, nothing else): us per step;
--       eval  p:eval(x) from Lua (the same handing over of x and g in both):
--             us per call.
--     Prints "AD1000 <way> us <traced> c <c> ratio <traced / c>".
-- (3) The one-off cost: trace time (problem.new, which traces at x0, and
--     a first evaluation, less a later evaluation; and the tracer's own
--     p.ad.time) and the tape's size from the summary ("gradient: traced
--     (tape of N ops, K guards)"), for W1 and AD1000:
--       "ADTRACE <case> us <trace> ad.time us <t> ops <N> guards <K>".
-- The finals of (1) are printed beside W1's floor's: the traced gradient
-- is the C one to rounding (within 1 ulp of the larger component near
-- x*, where 100 (y - x^2) cancels), but Adam's normalised steps amplify
-- such differences over 10^6 steps, so the finals agree only to ~1e-5;
-- AD1000's gd, which does not normalise, ends on the C run's x exactly.
-- usage: optlab --no-tui tests/bench/ad.lua [steps] [reps] [w1]
-- ("w1": only the "W1 ad" line, for run.sh's pairs with the floor)
local N = tonumber(arg and arg[1]) or 1000000
local reps = tonumber(arg and arg[2]) or 5
local w1only = arg and arg[3] == "w1"

local median = dofile("tests/bench/blib.lua").median

-- median seconds of fn() over reps
local function timed (fn, k)
  local ts = {}
  for i = 1, (k or reps) do
    local t0 = os.clock()
    fn()
    ts[i] = os.clock() - t0
  end
  return median(ts)
end

local function rosen (x)
  local s = 0
  for i = 1, #x - 1 do
    s = s + 100 * (x[i + 1] - x[i] ^ 2) ^ 2 + (1 - x[i]) ^ 2
  end
  return s
end

local function tapesize (r)
  local ops, g = tostring(r):match("gradient: traced %(tape of (%d+) ops?, "
                                   .. "(%d+) guards?%)")
  return ops or "?", g or "?"
end

-- trace time: make the problem and evaluate it once, less a second
-- evaluation at the same point (the tape's own sweep and p:eval's cost)
local function tracetime (n, x)
  local ts, own = {}, {}
  for i = 1, reps do
    local t0 = os.clock()
    local p = problem.new{n = n, f = rosen, x0 = x}
    p:eval(x)
    local t1 = os.clock()
    p:eval(x)
    local t2 = os.clock()
    ts[i] = (t1 - t0) - (t2 - t1)
    own[i] = p.ad and p.ad.time or 0 / 0
    p:close()
  end
  return median(ts) * 1e6, median(own) * 1e6
end

-- (1) W1 traced
do
  local p = problem.new{n = 2, f = rosen, x0 = {-1.2, 1}, name = "lua rosen"}
  local r
  local sec = timed(function ()
    if r then r:close() end
    r = run(p, optim.adam{lr = 1e-3}, {iters = N, progress = false,
            view = false, metrics = {"loss", "gradnorm"}})
  end)
  local x = r.x
  print(string.format("W1 ad     ns/step %.2f  final (%.9f, %.9f)",
                      1e9 * sec / N, x[1], x[2]))
  if w1only then return end
  local ops, g = tapesize(r)
  local tt, own = tracetime(2, {-1.2, 1})
  print(string.format("ADTRACE W1 us %.1f ad.time us %.1f ops %s guards %s",
                      tt, own, ops, g))
  r:close(); p:close()
end

-- (2) AD1000
do
  local n = 1000
  local pc = problem.rosenbrock{n = n}
  local pl = problem.new{n = n, f = rosen, x0 = pc.x0, name = "lua rosen"}
  local steps = math.max(1000, N // 50)
  local function gdrun (p)
    local r
    local sec = timed(function ()
      if r then r:close() end
      r = run(p, optim.gd{lr = 1e-7}, {iters = steps, progress = false,
              view = false, metrics = {}})
    end)
    return sec / steps * 1e6, r
  end
  local tl, rl = gdrun(pl)
  local tc, rc = gdrun(pc)
  print(string.format("AD1000 step us %.3f c %.3f ratio %.2f", tl, tc,
                      tl / tc))
  local calls = math.max(200, N // 2000)
  local x = pc.x0
  local el = timed(function () for _ = 1, calls do pl:eval(x) end end)
  local ec = timed(function () for _ = 1, calls do pc:eval(x) end end)
  print(string.format("AD1000 eval us %.3f c %.3f ratio %.2f",
                      el / calls * 1e6, ec / calls * 1e6, el / ec))
  local ops, g = tapesize(rl)
  local tt, own = tracetime(n, x)
  print(string.format("ADTRACE AD1000 us %.1f ad.time us %.1f ops %s "
                      .. "guards %s", tt, own, ops, g))
  -- the two runs did the same arithmetic to rounding
  local d = 0
  for i = 1, n do d = math.max(d, math.abs(rl.x[i] - rc.x[i])) end
  print(string.format("AD1000 final max |x_traced - x_c| %.1e", d))
  rl:close(); rc:close(); pl:close(); pc:close()
end
