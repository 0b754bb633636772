-- tests/lua/truth.lua -- runs tell the truth (issue 8): evaluation counts
-- against a counting Lua objective, stop reasons on problems whose fate is
-- known in closed form, an infeasible start, the history's first stretch
-- and exact stop iterations, and metrics that methods define from their
-- first step.  Each check failed on the main this issue started from.
local t = dofile("tests/lib/tap.lua")
local Q = {progress = false, view = false}
local function opts (o)
  for k, v in pairs(Q) do if o[k] == nil then o[k] = v end end
  return o
end

-- Each item runs on its own, so that an error in one (a missing field on
-- an old binary) fails that item and not the rest.
local function section (name, f)
  local ok, err = pcall(f)
  if not ok then t.ok(false, name .. " raised: " .. tostring(err)) end
end

-- A Lua 2-D Rosenbrock that counts its calls and the distinct points it
-- was asked at.
local function counted_rosenbrock ()
  local c = {calls = 0, points = {}, distinct = 0}
  c.p = problem.new{n = 2, x0 = {-1.2, 1}, fdf = function (x, g)
    local key = string.format("%a,%a", x[1], x[2])
    c.calls = c.calls + 1
    if not c.points[key] then c.points[key] = true; c.distinct = c.distinct + 1 end
    local a, b = 1 - x[1], x[2] - x[1] * x[1]
    if g then g[1] = -2 * a - 400 * x[1] * b; g[2] = 200 * b end
    return a * a + 100 * b * b
  end}
  return c
end

-- (1) every new iterate is evaluated once
section("evaluations", function ()
  local n = 0
  local p = problem.new{n = 2, kind = "density", fdf = function (x, g)
    n = n + 1
    if g then g[1] = x[1]; g[2] = x[2] end
    return 0.5 * (x[1]^2 + x[2]^2)
  end}
  local r = run(p, sample.mala{h = 0.5, warmup = 0}, opts{iters = 10000})
  t.ok(n <= 10002, "mala: 10000 steps call the density at most 10002 times ("
       .. n .. "; main called it 16597 times)")
  t.is(r.nfev, n, "mala: r.nfev is the number of calls")
  t.is(r.mfev + r.mgev, 0, "mala: the run evaluated nothing for itself")

  local c = counted_rosenbrock()
  r = run(c.p, optim.lbfgs{}, opts{iters = 3e6})
  t.is(r.nfev, c.distinct, "lbfgs: r.nfev equals the distinct points "
       .. "evaluated (" .. c.distinct .. ")")
  t.is(c.calls, c.distinct, "lbfgs: no point is evaluated twice ("
       .. c.calls .. " calls)")
  t.is(r.ngev, r.nfev, "lbfgs: each call gave f and g (ngev = nfev)")
  t.ok(tostring(r):find("evaluations: " .. r.nfev .. " f, " .. r.ngev
                        .. " g", 1, true),
       "lbfgs: the summary states the evaluations")

  -- evaluations made only for the records are counted apart: minibatch
  -- noise, where the run's true gradient is of no use to the method
  r = run(problem.fsquad{}, optim.gd{lr = 0.1}, opts{iters = 50})
  t.ok(r.mgev > 0 and tostring(r):find("the run's own, for its records: "
                                        .. r.mfev .. " f, " .. r.mgev .. " g",
                                        1, true),
       "gd on a minibatch problem: the run's own evaluations are counted "
       .. "apart (" .. r.mgev .. ") and said in the summary")
  t.is(r.ngev, 50, "gd on a minibatch problem: ngev is one minibatch "
       .. "gradient a step")
end)

-- (2) a converged run knows it converged
section("convergence", function ()
  local r = run(problem.rosenbrock{n = 2}, optim.lbfgs{}, opts{iters = 3e6})
  t.ok(r.reason == "converged" and r.iter < 1000,
       "lbfgs on rosenbrock{n=2}, iters 3e6: converged after " .. r.iter
       .. " iterations (" .. tostring(r.message) .. ")")
  t.ok(r:last("gradnorm") <= 1e-12, "lbfgs: the converged point is "
       .. "stationary (gradnorm " .. r:last("gradnorm") .. ")")
  local c = counted_rosenbrock()
  r = run(c.p, optim.lbfgs{}, opts{iters = 3e6})
  t.ok(r.reason == "converged" and r.iter < 1000,
       "lbfgs on a Lua rosenbrock, iters 3e6: converged after " .. r.iter
       .. " iterations (" .. tostring(r.message) .. ")")
  -- a line search that cannot decrease f in floating point at a point
  -- stationary to working precision: f = |x|^2 scaled so that the
  -- gradient never reaches exactly 0
  local p = problem.new{n = 2, x0 = {3, -1}, fdf = function (x, g)
    if g then g[1] = 2 * (x[1] - 1/3); g[2] = 20 * (x[2] - 1/7) end
    return (x[1] - 1/3)^2 + 10 * (x[2] - 1/7)^2 + 1
  end}
  r = run(p, optim.lbfgs{}, opts{iters = 1e5})
  t.ok(r.reason == "converged" and r.iter < 200,
       "lbfgs on a shifted quadratic with f* = 1: converged after " .. r.iter
       .. " (" .. tostring(r.message) .. ")")
  -- Optim.jl's tolerances, with their definitions
  r = run(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3},
          opts{iters = 1e6, f_abstol = 1e-12})
  local l, tt = r:series("loss")
  t.ok(r.reason == "tolerance" and r.message:find("f_abstol", 1, true) and
       tt[#tt] == r.iter, "f_abstol stops gd and names the rule at the "
       .. "recorded stop iteration " .. r.iter .. " (" .. r.message .. ")")
  r = run(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3},
          opts{iters = 1e6, x_abstol = 1e-9})
  t.ok(r.reason == "tolerance" and r.message:find("x_abstol", 1, true),
       "x_abstol stops gd (" .. r.message .. ")")
  t.errors("f_reltol = %-1.0* is out of range", run, problem.rosenbrock{n = 2},
           optim.gd{}, opts{f_reltol = -1})
end)

-- (3) a diverging run says so
section("divergence", function ()
  local r = run(problem.smoothabs{}, optim.newton{step = "pure"},
                opts{iters = 30})
  t.ok(r.reason == "diverged" and r.iter <= 8,
       "pure Newton on smoothabs: diverged at iteration " .. r.iter .. " ("
       .. tostring(r.message) .. ")")
  r = run(problem.saddle{}, optim.newton{}, opts{iters = 1000})
  t.ok(r.reason == "diverged" and r.message:find("flimit", 1, true),
       "Newton on the saddle: diverged, f fell without bound at "
       .. r.iter .. " (" .. tostring(r.message) .. ")")
  r = run(problem.saddle{}, optim.newton{step = "damped"},
          opts{iters = 50, flimit = math.huge, xlimit = math.huge})
  t.is(r.reason, "budget", "flimit = xlimit = inf turn the rule off")
end)

-- (6) an infeasible start is an error
section("infeasible x0", function ()
  t.errors("x0 is outside the simplex: block 1 %(entries 1..3%) sums to 2, "
           .. "not 1", run, problem.rps{}, game.rmplus{},
           opts{iters = 10, x0 = {2, 0, 0, 0, 1, 0}})
  t.errors("x0 is outside the simplex: x0%[2%] = %-0.1 < 0", run,
           problem.rps{}, game.rmplus{},
           opts{iters = 10, x0 = {1.1, -0.1, 0, 1, 0, 0}})
  local r = run(problem.rps{}, game.rmplus{},
                opts{iters = 10, x0 = {1/3, 1/3, 1/3, 0.5, 0.5, 0}})
  t.is(r.iter, 10, "a feasible x0 (rounded thirds) is accepted")
end)

-- (7) the history keeps the start, and stop iterations are exact
section("history", function ()
  local rc = race(problem.rosenbrock{n = 2}, {optim.gd{lr = 1e-3},
                                             optim.lbfgs{}},
                  opts{iters = 3e6})
  for k = 1, 2 do
    local _, tt = rc[k]:series("loss")
    local dense = true
    for i = 1, math.min(100, rc[k].iter + 1) do
      if tt[i] ~= i - 1 then dense = false end
    end
    t.ok(dense, rc[k].label .. ": the kept series has every one of the "
         .. "first " .. math.min(100, rc[k].iter + 1) .. " iterations")
    t.is(tt[#tt], rc[k].iter, rc[k].label .. ": the last kept point is the "
         .. "stop iteration")
  end
  local _, tt = rc[1]:series("loss")
  t.ok(#tt <= 4000, "gd, 3e6 steps: " .. #tt .. " points kept (bound "
       .. "2048 + 2 + 64 log2 points an octave)")
  local out = io.popen("./optlab --no-tui scripts/momentum.lua 1000"):read("a")
  t.ok(out:find("gd          6105", 1, true) and
       out:find("momentum     294", 1, true),
       "momentum.lua prints the exact step counts 6105 and 294")
  -- the legend's min is over every record, not over kept points
  local r = run(problem.quadratic{n = 5}, optim.gd{lr = 1.9},
                opts{iters = 20000, cap = 16})
  local v = r:series("loss")
  local kmin = math.huge
  for i = 1, #v do kmin = math.min(kmin, v[i]) end
  t.ok(r:min("loss") <= kmin, "r:min is the minimum over every record ("
       .. r:min("loss") .. " <= kept " .. kmin .. ")")
end)

-- (8) metrics methods define from their first step
section("probe metrics", function ()
  for _, m in ipairs{"adam", "adagrad", "rmsprop", "adamw", "amsgrad",
                     "adabound", "adamod", "adopt", "diffgrad", "adamax",
                     "adagradnorm"} do
    local ok, r = pcall(run, problem.quadratic{n = 10}, optim[m]{},
                        opts{iters = 100, metrics = {"lrmax"}})
    t.ok(ok and r.iter == 100 and r:last("lrmax") > 0,
         m .. ": metrics = {lrmax} runs (lrmax " ..
         (ok and string.format("%.3g", r:last("lrmax")) or tostring(r)) .. ")")
  end
  -- adamax's eps: a coordinate whose gradient is always 0 does not move
  -- (Algorithm 2 as printed would divide 0 by u = 0)
  local rz = run(problem.new{n = 2, x0 = {1, 0.5},
                             f = function (x) return x[1] ^ 2 end},
                 optim.adamax{}, opts{iters = 50})
  t.ok(rz.x[2] == 0.5 and rz.x[1] < 1 and rz.x[1] == rz.x[1],
       "adamax: a coordinate with zero gradient stays put (x = "
       .. rz.x[1] .. ", " .. rz.x[2] .. ")")
  local rc = race(problem.quadratic{n = 10}, {optim.gd{}, optim.adam{}},
                  opts{iters = 100, watch = {"loss", "lrmax"}})
  t.ok(#rc[2]:series("lrmax") > 0 and rc.notes and
       rc.notes[1]:find("lrmax is not defined for gd", 1, true),
       "race of gd and adam watching lrmax: adam's is recorded, and the "
       .. "note says gd lacks it (" .. tostring(rc.notes and rc.notes[1]) .. ")")
  local txt = io.popen("./optlab --no-tui -e 'race(problem.quadratic{n = "
                       .. "10}, {optim.gd{}, optim.adam{}}, {iters = 100, "
                       .. "watch = {\"lrmax\"}, progress = false}):plot()'"
                       .. " 2>&1"):read("a")
  t.ok(txt:find("gd lr=0.001 (not defined)", 1, true) and
       txt:find("adam lr=0.001 0.0124", 1, true),
       "the lrmax panel's legend says gd does not define it")
end)

t.done()
