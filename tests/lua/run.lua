-- tests/lua/run.lua -- acceptance of run, race and run:continue: Adam on
-- 2-D Rosenbrock stops by tolerance with the seed and reason in its
-- summary; a race shares seed and start; continue extends a run.
local t = dofile("tests/lib/tap.lua")
t.diag("seed 1")

local r = run(problem.rosenbrock{n = 2}, optim.adam{lr = 1e-2},
              {x0 = {-1.2, 1}, iters = 20000, tol = 1e-6, seed = 1})
t.is(r.reason, "tolerance", "run: adam on rosenbrock stops by tolerance")
t.ok(r.iter > 0 and r.iter < 20000,
     "run: stops before the budget (" .. r.iter .. " iterations)")
t.ok(r:last("gradnorm") < 1e-6, "run: final gradnorm "
     .. string.format("%.3g", r:last("gradnorm")) .. " < 1e-6")
t.near(r.x[1], 1, 1e-5, "run: x1 near 1")
t.near(r.x[2], 1, 1e-5, "run: x2 near 1")
local s = tostring(r)
t.ok(s:find("run adam{lr=0.01, beta1=0.9, beta2=0.999, eps=1e-08} "
            .. "on rosenbrock{n=2}  seed 1\n", 1, true) == 1,
     "run: summary names method, problem and seed")
t.ok(s:find("stopped: tolerance after " .. r.iter .. " iterations", 1, true),
     "run: summary gives the reason and the iterations")
t.ok(s:find("final: loss [%d.e+-]+  gradnorm [%d.e+-]+"),
     "run: summary gives the final metrics")
local g, times = r:series("gradnorm")
t.is(times[1], 0, "run: series starts at t = 0")
t.is(times[#times], r.iter, "run: series ends at the last iteration")
t.is(g[#g], r:last("gradnorm"), "run: r:last is the last series value")
t.is(#r.x, 2, "run: r.x is a table copy")

-- budget, continue
local p = problem.quadratic{n = 10, cond = 50, seed = 2}
local rq = run(p, optim.gd{lr = 0.5}, {iters = 100, seed = 5})
t.is(rq.reason, "budget", "run: budget stop")
t.is(rq.iter, 100, "run: budget iterations done")
local d0 = rq:last("dist")
t.ok(rq:continue(200) == rq, "run:continue returns the run")
t.is(rq.iter, 300, "run:continue: 200 more iterations")
t.is(rq.reason, "budget", "run:continue: stops by the new budget")
t.ok(rq:last("dist") < d0, "run:continue: keeps converging")
local rr = run(p, optim.gd{lr = 0.5}, {iters = 300, seed = 5})
t.is(rr:last("dist"), rq:last("dist"),
     "run:continue: 100 + 200 steps equal 300 steps exactly")
t.errors("run:continue: cannot extend a run stopped by tolerance",
         r.continue, r, 10)

-- schedule, stream, time
local rs = run(p, optim.gd{lr = 0.5}, {iters = 50,
                                       schedule = {kind = "step", gamma = 0.5,
                                                   period = 10}})
t.is(rs.iter, 50, "run: a schedule is accepted")
local rt = run(p, optim.gd{lr = 1e-9}, {iters = 1e9, time = 0.2,
                                        progress = false})
t.is(rt.reason, "time", "run: wall-time budget stops the run")

-- race
local q = problem.quadratic{n = 20, cond = 100, seed = 3}
local rc = race(q, {optim.gd{lr = 1}, optim.momentum{lr = 1, mu = 0.8},
                    optim.adam{lr = 0.05}},
                {iters = 500, seed = 9, x0 = (function ()
                   local x = {}
                   for i = 1, 20 do x[i] = i / 20 end
                   return x
                 end)()})
t.is(#rc, 3, "race: three runs")
t.ok(rc[1].seed == 9 and rc[2].seed == 9 and rc[3].seed == 9,
     "race: every run has the same seed")
local l1, l2 = rc[1]:series("loss"), rc[2]:series("loss")
t.ok(l1[1] == l2[1] and rc[3]:series("loss")[1] == l1[1],
     "race: every run starts from the same x0")
t.ok(rc[1].iter == 500 and rc[2].iter == 500 and rc[3].iter == 500,
     "race: lock-step to the budget")
t.is(rc[2].method.name, "momentum", "race: runs in the given order")
t.ok(rc[2]:last("loss") < rc[1]:last("loss"),
     "race: momentum beats gd on an ill-conditioned quadratic")
local rs1 = tostring(rc)
t.ok(rs1:find("momentum lr=1 mu=0.8", 1, true)
     and rs1:find("gd lr=1", 1, true) and rs1:find("budget", 1, true),
     "race: tostring is a table of labels and reasons")
local vals, tms = rc:series("loss")
t.ok(#vals == 3 and #tms == 3 and vals[2][1] == l2[1],
     "race:series: one table per run")
t.errors("race: methods[2] is a number, expected a method", race, q,
         {optim.gd{}, 5})
t.errors("race: methods[1]: pgd needs", race, q, {optim.pgd{}})

-- progress lines (no view, > 1 s) go to stderr, in the documented format
local script = os.tmpname()
local f = assert(io.open(script, "w"))
f:write([[
local p = problem.new{n = 2, x0 = {1, 1}, f = function (x)
  local s = 0
  for i = 1, 20000 do s = s + i end
  return x[1]^2 + x[2]^2 + 0 * s
end}
local r = run(p, optim.gd{lr = 1e-3}, {time = 1.5, iters = 1e9})
print(r.reason)
]])
f:close()
local out = os.tmpname()
os.execute("./optlab --no-tui " .. script .. " 2>" .. out .. " >" .. out
           .. ".o")
local fe = assert(io.open(out))
local err = fe:read("a")
fe:close()
t.ok(err:match("gd  iter %d+/1000000000  loss [%d.e+-]+  gradnorm [%d.e+-]+"),
     "run: a progress line on stderr after 1 s without a view")
fe = assert(io.open(out .. ".o"))
t.is(fe:read("l"), "time", "run: stdout has only what the script prints")
fe:close()
f = assert(io.open(script, "w"))
f:write([[
local p = problem.new{n = 2, f = function (x)
  local s = 0
  for i = 1, 20000 do s = s + i end
  return x[1]^2 + x[2]^2 + 0 * s
end}
run(p, optim.gd{lr = 1e-3}, {time = 1.2, iters = 1e9, progress = false})
]])
f:close()
os.execute("./optlab --no-tui " .. script .. " 2>" .. out)
fe = assert(io.open(out))
t.is(fe:read("a"), "", "run: progress = false prints nothing")
fe:close()
os.remove(script)
os.remove(out)
os.remove(out .. ".o")

-- average = true keeps the Polyak-Ruppert average of x_0..x_T; without it
-- an optimizer keeps none.
do
  local q = problem.quadratic{n = 2, cond = 1, rotate = false}
  local r = run(q, optim.gd{lr = 0.5}, {iters = 3, progress = false})
  t.is(r.xavg, nil, "run: no average unless asked")
  r = run(q, optim.gd{lr = 0.5}, {iters = 3, average = true,
                                  progress = false})
  -- gd with lr 0.5 on H = I from x0 = 1 halves x: 1, 1/2, 1/4, 1/8.
  t.near(r.xavg[1], (1 + 0.5 + 0.25 + 0.125) / 4, 1e-15,
         "run: average of x_0..x_3 computed by hand")
end

-- pacing options (the view's; headless they change nothing)
do
  local q2 = problem.quadratic{n = 2}
  local a = run(q2, optim.gd{lr = 0.1}, {iters = 50, tol = 0, speed = 3,
                                         paused = true})
  t.is(a.iter, 50, "run: speed and paused do not pace a headless run")
  t.ok(run(q2, optim.gd{}, {iters = 5, speed = "max"}).iter == 5,
       "run: speed = \"max\" is accepted")
  t.ok(run(q2, optim.gd{}, {iters = 5, speed = 0.25}).iter == 5,
       "run: speed = 0.25 (steps per second, one every 4 s) is accepted")
  t.errors("run: speed must be a number of steps per second in [0.25, 1e12]",
           run, q2, optim.gd{}, {speed = 0.1})
  t.errors("run: speed must be a number of steps per second or \"max\", "
           .. "got 'fast'", run, q2, optim.gd{}, {speed = "fast"})
  t.errors("race: paused must be a boolean, got a number", race, q2,
           {optim.gd{}}, {paused = 1})
  t.ok(run(q2, optim.gd{}, {iters = 5, view = "clear"}).iter == 5
       and run(q2, optim.gd{}, {iters = 5, view = "keep"}).iter == 5,
       "run: view = \"keep\" and \"clear\" are accepted (headless: no view)")
  t.errors("run: unknown view mode 'fade' (valid: keep, clear)", run, q2,
           optim.gd{}, {view = "fade"})
  t.errors("race: view must be \"keep\", \"clear\", a boolean or "
           .. "{xlim = {a, b}, ylim = {c, d}}, got a number", race, q2,
           {optim.gd{}}, {view = 1})
end

t.done()
