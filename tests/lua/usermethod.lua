-- tests/lua/usermethod.lua -- methods written in Lua (optim.new, issue 24):
-- a heavy ball and a GD written in Lua give the C methods' iterates (to
-- 1e-12; the same arithmetic, so in fact bit for bit) and the same
-- evaluation counts, also on a noisy problem at the same seed; the
-- definition and the steps are checked with named errors; a Lua method
-- runs in race, repeats, sweep and jobs, same seed same bytes; the oracle
-- counts every call; Ctrl-C stops a step that loops.  Truth: the C
-- methods' own runs (core/optim/momentum.c, gd.c) and closed forms.
local t = dofile("tests/lib/tap.lua")
local SEED = 7
t.diag("seed " .. SEED)

local function maxdiff (a, b)
  local m = 0
  for i = 1, #a do m = math.max(m, math.abs(a[i] - b[i])) end
  return m
end

-- the trajectories' largest difference (every recorded point)
local function trajdiff (r1, r2)
  local a, b = r1:traj(), r2:traj()
  local m = #a == #b and 0 or math.huge
  for k = 1, math.min(#a, #b) do m = math.max(m, maxdiff(a[k], b[k])) end
  return m, #a
end

-- == the heavy ball, in ten lines ===========================================
optim.new{name = "hb", doc = "heavy ball in Lua", ref = "Polyak 1964, eq. 9",
  params = {lr = {default = 1e-3, min = 0, doc = "step size"},
            mu = {default = 0.9, min = 0, max = 1, max_open = true,
                  doc = "momentum"}},
  init = function (s, x, p)
    s.g, s.d = {}, {}
    for i = 1, #x do s.d[i] = 0 end
  end,
  step = function (s, x, o, p)
    local g, d, a = s.g, s.d, p.lr * o:sched()
    o:stochastic_grad(x, g)
    for i = 1, #x do
      d[i] = p.mu * d[i] - a * g[i]
      x[i] = x[i] + d[i]
    end
  end}

optim.new{name = "lgd", doc = "gradient descent in Lua",
  params = {lr = {default = 1e-3, min = 0}},
  step = function (s, x, o, p)
    local g = s.g or {}
    s.g = g
    o:stochastic_grad(x, g)
    for i = 1, #x do x[i] = x[i] - p.lr * g[i] end
  end}

local rb = problem.rosenbrock{}
do
  local o = {iters = 500, record_x = true, seed = SEED, x0 = {-1.2, 1}}
  local r1 = run(rb, optim.hb{lr = 1e-3, mu = 0.9}, o)
  local r2 = run(rb, optim.momentum{lr = 1e-3, mu = 0.9}, o)
  local d, k = trajdiff(r1, r2)
  t.diag("hb vs momentum on rosenbrock: max |x diff| " .. d .. " over "
         .. k .. " points")
  t.ok(d <= 1e-12 and k > 100, "hb: iterates equal momentum's to 1e-12")
  t.ok(maxdiff(r1.x, r2.x) <= 1e-12, "hb: final x equals momentum's")
  t.is(r1.ngev, r2.ngev, "hb: ngev equals momentum's")
  t.is(r1.nfev, r2.nfev, "hb: nfev equals momentum's")
  t.is(r1.reason, "budget", "hb: stops on its budget")
  local g1 = run(rb, optim.lgd{lr = 1e-3}, o)
  local g2 = run(rb, optim.gd{lr = 1e-3}, o)
  t.ok(trajdiff(g1, g2) <= 1e-12, "lgd: iterates equal gd's to 1e-12")
  t.ok(g1.ngev == g2.ngev and g1.nfev == g2.nfev,
       "lgd: counts equal gd's (" .. g1.ngev .. " g)")
  -- a schedule scales lr through o:sched()
  local so = {iters = 200, record_x = true, seed = SEED,
              schedule = {kind = "inv", period = 10}}
  local ok1, s1 = pcall(run, rb, optim.hb{lr = 1e-3}, so)
  if ok1 then
    local s2 = run(rb, optim.momentum{lr = 1e-3}, so)
    t.ok(trajdiff(s1, s2) <= 1e-12, "hb: with a schedule equals momentum")
  else
    t.diag("schedule option not accepted here: " .. tostring(s1))
  end
end

-- noisy gradients at the same seed: the same draws, the same iterates
do
  local q = problem.quadratic{n = 5, cond = 10, seed = 3,
                              noise = {kind = "gauss", sigma = 0.1}}
  local o = {iters = 300, record_x = true, seed = SEED}
  local r1 = run(q, optim.hb{lr = 0.05, mu = 0.5}, o)
  local r2 = run(q, optim.momentum{lr = 0.05, mu = 0.5}, o)
  t.ok(trajdiff(r1, r2) <= 1e-12,
       "hb: noisy quadratic, same seed: iterates equal momentum's")
  t.is(r1.ngev, r2.ngev, "hb: noisy quadratic: ngev equal")
end

-- == the oracle: exact gradient, values, Hessian, counts ====================
do
  local q = problem.quadratic{n = 3, cond = 4, seed = 1,
                              noise = {kind = "gauss", sigma = 10}}
  local got = {}
  optim.new{name = "probe_oracle", step = function (s, x, o, p)
    if o:iter() > 0 then return end
    local g, H, hv = {}, {}, {}
    o:grad(x, g)
    got.g = g
    got.f = o:f(x)
    got.f2 = o:fdf(x, {})
    o:hess(x, H)
    got.H = H
    o:hvp(x, {1, 0, 0}, hv)
    got.hv = hv
    got.u = o:rng():uniform()
    got.o = o
  end}
  local r = run(q, optim.probe_oracle{}, {iters = 1})
  local pg = q:eval(r.x0 or q.x0)
  local _, gtrue = q:eval(q.x0)
  t.ok(got.g and maxdiff(got.g, gtrue) == 0,
       "o:grad is the exact gradient on a noisy problem")
  t.is(got.f, pg, "o:f is the exact value")
  t.is(got.f2, pg, "o:fdf's value is the exact value")
  t.ok(got.H and #got.H == 3 and got.H[1][1] == got.hv[1]
       and got.H[2][1] == got.hv[2], "o:hvp(x, e1) is the first column of o:hess")
  t.ok(got.u >= 0 and got.u < 1, "o:rng():uniform() in [0, 1)")
  t.is(r.ngev, 2, "counts: o:grad and o:fdf are two gradients")
  t.is(r.nhev, 2, "counts: o:hess and o:hvp are two Hessians")
  t.errors("valid only", function () return got.o:f({0, 0, 0}) end)
end

-- == no allocation per step on optlab's side ================================
-- (the step keeps its g in s, so it allocates nothing either): the Lua heap
-- after 10^5 steps has grown no more than after 10
do
  local function heap (n)
    collectgarbage()
    collectgarbage("stop")
    local a = collectgarbage("count")
    run(rb, optim.lgd{}, {iters = n, progress = false, cap = 16})
    local b = collectgarbage("count")
    collectgarbage("restart")
    return (b - a) * 1024
  end
  local h10, h5 = heap(10), heap(100000)
  t.ok(h5 <= h10 + 256, string.format("no allocation per step: %d bytes "
       .. "for a run of 10 steps, %d for 10^5", h10, h5))
end

-- == s.probe feeds the probe metrics the definition names =================
do
  optim.new{name = "probed", probes = {"lrmax", "lrmin"},
    params = {lr = {default = 0.01, min = 0}},
    step = function (s, x, o, p)
      local g = s.g or {}
      s.g = g
      o:stochastic_grad(x, g)
      for i = 1, #x do x[i] = x[i] - p.lr * g[i] end
      s.probe = {lrmax = 2 * p.lr, lrmin = p.lr / 2}
    end}
  local r = run(rb, optim.probed{lr = 1e-3}, {iters = 10,
                metrics = {"loss", "lrmax", "lrmin"}})
  t.ok(r:last("lrmax") == 2e-3 and r:last("lrmin") == 5e-4,
       "s.probe: lrmax and lrmin recorded from the step's table")
  t.errors("lrmed: probed has no effective learning rate", run, rb,
           optim.probed{}, {iters = 1, metrics = {"lrmed"}})
end

-- == misuse: the definition ==================================================
t.errors("optim.new: expected a table", optim.new, 3)
t.errors("name is missing", optim.new, {step = function () end})
t.errors("step must be a function %(s, x, o, p%), got nil", optim.new,
         {name = "nostep"})
t.errors("step must be a function .*got number", optim.new,
         {name = "nostep", step = 3})
t.errors("init must be a function", optim.new,
         {name = "badinit", init = 1, step = function () end})
t.errors("'1x' is not an identifier", optim.new,
         {name = "1x", step = function () end})
t.errors("'end' is not an identifier", optim.new,
         {name = "end", step = function () end})
t.errors("'gd' is a built%-in method %(optim.gd%)", optim.new,
         {name = "gd", step = function () end})
t.errors("'rwmh' is a built%-in method %(sample.rwmh%)", optim.new,
         {name = "rwmh", step = function () end})
t.errors("'new' is taken", optim.new, {name = "new", step = function () end})
t.errors("unknown key 'stpe' %(valid: name, doc, ref, params, probes, init, "
         .. "step%)", optim.new, {name = "x", stpe = function () end})
t.errors("params must be a table", optim.new,
         {name = "x", params = 1, step = function () end})
t.errors("params.lr must be a table", optim.new,
         {name = "x", params = {lr = 1}, step = function () end})
t.errors("params.lr.default must be a number .*default is missing",
         optim.new, {name = "x", params = {lr = {min = 0}},
                     step = function () end})
t.errors("params.lr.default: lr = 2 is out of range %[0, 1%]", optim.new,
         {name = "x", params = {lr = {default = 2, min = 0, max = 1}},
          step = function () end})
t.errors("params.lr.default: lr = 0 is out of range %(0, inf%]", optim.new,
         {name = "x", params = {lr = {default = 0, min = 0, min_open = true}},
          step = function () end})
t.errors("params.lr: unknown key 'dflt' %(valid: default, min, max, "
         .. "min_open, max_open, doc%)", optim.new,
         {name = "x", params = {lr = {dflt = 1}}, step = function () end})
t.errors("params.lr: min = 1 is above max = 0", optim.new,
         {name = "x", params = {lr = {default = 1, min = 1, max = 0}},
          step = function () end})
t.errors("probes%[1%] is not a probe metric %(valid: .*lrmax", optim.new,
         {name = "x", probes = {"loss"}, step = function () end})
-- the constructor checks its parameters as a built-in's does
t.errors("optim.hb: unknown parameter 'lrr' %(valid: lr, mu%)", optim.hb,
         {lrr = 1})
t.errors("optim.hb: mu = 1 is out of range %[0, 1%)", optim.hb, {mu = 1})
t.is(tostring(optim.hb{lr = 0.5}), "hb{lr=0.5, mu=0.9}",
     "a Lua method prints as a built-in")
t.is(optim.hb{}.family, "optim", "m.family")

-- == misuse: the steps ======================================================
local function runwith (step, init, opts)
  optim.new{name = "bad", step = step, init = init}
  return run(rb, optim.bad{}, opts or {iters = 5})
end
do
  local r = runwith(function (s, x, o, p) error("boom") end)
  t.is(r.reason, "callback error", "a step error stops the run as callback error")
  t.ok(r.message:find("boom", 1, true) and r.message:find("traceback", 1, true),
       "the message has the error and its traceback: "
       .. r.message:gsub("\n.*", ""))
  r = runwith(function () end, function (s, x, p) error("init failed") end)
  t.is(r.reason, "callback error", "an init error stops the run")
  t.ok(r.message:find("init failed", 1, true), "its message says so")
  t.is(r.iter, 0, "an init error: no step")
  r = runwith(function (s, x) x[3] = 1 end)
  t.ok(r.reason == "callback error" and
       r.message:find("changed #x from 2 to 3", 1, true),
       "#x changed is named: " .. r.message)
  r = runwith(function (s, x) x[2] = "a" end)
  t.ok(r.message:find("x[2] is a string", 1, true),
       "a non-number in x is named: " .. r.message)
  r = runwith(function (s, x) x[1] = 0 / 0 end)
  t.ok(r.reason == "non-finite" and r.message:find("x[1] = nan", 1, true)
       or r.message:find("x[1] = -nan", 1, true),
       "a NaN iterate stops as non-finite, named: " .. r.reason .. ": "
       .. r.message)
  r = runwith(function (s, x, o) o:f({1}) end)
  t.ok(r.message:find("o:f: x has 1 entries, the problem has 2", 1, true),
       "an oracle call with a wrong x is named")
  r = runwith(function (s, x, o) o:grad(x, 5) end)
  t.ok(r.message:find("o:grad: g must be a table", 1, true),
       "an oracle call with a wrong g is named")
  r = runwith(function (s, x, o) coroutine.yield(1) end)
  t.ok(r.reason == "callback error" and r.message:find("yields", 1, true),
       "a yield in a step is named: " .. r.message:sub(1, 80))
  -- huge outputs: many results, a long error message, a big table in s
  r = runwith(function (s, x) return table.unpack({}, 1, 5000) end)
  t.is(r.reason, "budget", "a step returning 5000 values is fine")
  r = runwith(function (s, x) error(string.rep("y", 1e6)) end)
  t.ok(r.reason == "callback error" and #r.message < 4096,
       "a 1 MB error message is cut (" .. #r.message .. " bytes)")
  r = runwith(function (s, x) s.big = s.big or {} s.big[#s.big + 1] = {} end)
  t.is(r.reason, "budget", "a step's own state grows freely")
  -- a step may run other runs, also of its own method (bounded)
  local depth = 0
  optim.new{name = "nest", step = function (s, x, o)
    depth = depth + 1
    local inner = run(rb, optim.nest{}, {iters = 1})
    if inner.reason ~= "budget" then s.why = inner.message end
    error(s.why or "fine")
  end}
  local rn = run(rb, optim.nest{}, {iters = 1})
  t.ok(rn.message:find("nested 16 deep", 1, true),
       "runs of a method nested without end stop with a named error: "
       .. rn.message:sub(1, 80))
  optim.new{name = "inner_ok", step = function (s, x, o)
    local r2 = run(rb, optim.lgd{}, {iters = 3})
    s.n = (s.n or 0) + r2.iter
  end}
  t.is(run(rb, optim.inner_ok{}, {iters = 4}).reason, "budget",
       "a step may run another run")
end

-- == everywhere a C method runs: race, repeats, sweep, jobs ================
do
  local q = problem.quadratic{n = 4, cond = 20, seed = 2,
                              noise = {kind = "gauss", sigma = 0.05}}
  local rc = race(q, {optim.hb{lr = 0.05, mu = 0.5},
                      optim.momentum{lr = 0.05, mu = 0.5}},
                  {iters = 200, seed = SEED, progress = false})
  t.ok(maxdiff(rc[1].x, rc[2].x) <= 1e-12, "race: hb and momentum agree")
  local rp = repeats(q, optim.hb{lr = 0.05}, {iters = 50, seed = SEED}, 3)
  local rp2 = repeats(q, optim.momentum{lr = 0.05}, {iters = 50, seed = SEED},
                      3)
  t.ok(rp:quantile("loss", 0.5) == rp2:quantile("loss", 0.5)
       and rp.runs[2].x[1] ~= rp.runs[3].x[1],
       "repeats: a Lua method on independent streams, equal to momentum's")
  local sw = sweep(q, optim.hb, {lr = {0.01, 0.05}}, {iters = 30})
  local sw2 = sweep(q, optim.momentum, {lr = {0.01, 0.05}}, {iters = 30})
  t.ok(#sw.runs == 2 and sw:values("loss")[2] == sw2:values("loss")[2],
       "sweep over a Lua method's parameter")
  local j = start(q, optim.hb{lr = 0.05}, {iters = 100, seed = SEED})
  local j2 = start(q, optim.hb{lr = 0.01}, {iters = 100, seed = SEED})
  j:step(10)
  j2:step(20)
  j:wait()
  j2:wait()
  local r1 = run(q, optim.hb{lr = 0.05}, {iters = 100, seed = SEED})
  t.is(j.run:csv(), r1:csv(), "jobs: two interleaved jobs, same bytes as a run")
  t.is(run(q, optim.hb{lr = 0.05}, {iters = 100, seed = SEED}):csv(),
       r1:csv(), "same seed, same bytes")
end

-- == live parameters: j:set on a Lua method as on the C one =================
-- (j:set and r.changes come with another part of issue 24: skipped, and
-- said so, in a tree without them)
do
  local q = problem.quadratic{n = 4, cond = 20, seed = 2}
  local j1 = start(q, optim.hb{lr = 0.05, mu = 0.5}, {iters = 40, seed = SEED})
  local j2 = start(q, optim.momentum{lr = 0.05, mu = 0.5},
                   {iters = 40, seed = SEED})
  local ok = pcall(function () return j1.set end)
  if ok and j1.set then
    j1:step(10)
    j2:step(10)
    j1:set{lr = 0.01, mu = 0.8}
    j2:set{lr = 0.01, mu = 0.8}
    j1:wait()
    j2:wait()
    t.ok(maxdiff(j1.run.x, j2.run.x) <= 1e-12,
         "j:set: lr and mu changed mid-run act on the Lua method as on "
         .. "momentum")
    local okc, ch = pcall(function () return j1.run.changes end)
    if okc and ch then
      local rr = run(q, optim.hb{lr = 0.05, mu = 0.5},
                     {iters = 40, seed = SEED, changes = ch})
      t.is(rr:csv(), j1.run:csv(), "r.changes replays the Lua method's "
           .. "session byte for byte")
    end
  else
    t.diag("j:set is not in this tree: its test on a Lua method skipped")
  end
  j1:stop()
  j2:stop()
end

-- == Ctrl-C in a step that loops ============================================
do
  local TMP = os.tmpname()
  local f = assert(io.open(TMP .. ".lua", "w"))
  f:write([[
local PID = io.open("/proc/self/stat"):read("n")
optim.new{name = "spin", step = function (s, x, o)
  if o:iter() == 3 then io.popen("kill -INT " .. PID):close() while true do end end
end}
local r = run(problem.rosenbrock{}, optim.spin{}, {iters = 10, progress = false})
print("spin", r.reason, r.iter)
print("after")
]])
  f:close()
  local BIN = arg and arg[-1] or "./optlab"
  os.execute(string.format("timeout 60 %s --no-tui %s.lua > %s.out 2>&1",
                           BIN, TMP, TMP))
  local h = io.open(TMP .. ".out")
  local out = h and h:read("a") or ""
  if h then h:close() end
  os.remove(TMP .. ".lua")
  os.remove(TMP .. ".out")
  os.remove(TMP)
  t.ok(out:find("spin\tinterrupted\t3", 1, true),
       "Ctrl-C stops a looping step: the run is interrupted: "
       .. out:gsub("\n", " "))
end

t.done()
