-- tests/lua/api.lua -- the Lua interface: constructors, fields, tostring,
-- the exact error messages for unknown keys, out-of-range values, unknown
-- options and metric names, and help() built from the registries.
local t = dofile("tests/lib/tap.lua")

local function capture (f, ...)
  local tmp = os.tmpname()
  local old = io.output()
  io.output(tmp)
  local ok, err = pcall(f, ...)
  io.output():close()
  io.output(old)
  local fh = assert(io.open(tmp))
  local s = fh:read("a")
  fh:close()
  os.remove(tmp)
  assert(ok, err)
  return s
end

-- globals
for _, g in ipairs{"problem", "optim", "sample", "game", "run", "race",
                   "help", "pretty", "metrics"} do
  t.ok(_G[g] ~= nil, "api: global " .. g .. " exists")
end
t.is(type(optlab), "table", "api: optlab table")
t.is(optlab.version, "0.1.0", "api: optlab.version")
t.is(optlab.rank, 0, "api: optlab.rank is 0 in one process")
t.is(optlab.size, 1, "api: optlab.size is 1 in one process")
do
  -- optlab.now is wall time: across a 0.2 s sleep in a child process it
  -- advances by at least 0.2 s, while this process's CPU time (os.clock)
  -- moves less (at most the ~0.1 s OpenBLAS's idle thread spends at
  -- start-up)
  local w0, c0 = optlab.now(), os.clock()
  os.execute("sleep 0.2")
  local dw, dc = optlab.now() - w0, os.clock() - c0
  t.ok(type(optlab.now()) == "number" and dw >= 0.2 and dw < 60
       and dc < dw,
       string.format("api: optlab.now advances with wall time (%.3f s "
                     .. "wall, %.3f s CPU, over a 0.2 s sleep)", dw, dc))
end
do
  -- optlab.sleep waits on the same clock: at least the time asked, and
  -- not seconds more (the bound is loose: a loaded machine may delay the
  -- wake-up); a bad argument is named with its range
  local w0 = optlab.now()
  optlab.sleep(0.05)
  local dw = optlab.now() - w0
  t.ok(dw >= 0.05 and dw < 30,
       string.format("api: optlab.sleep(0.05) waits %.3f s", dw))
  optlab.sleep(0)
  local ok, err = pcall(optlab.sleep, -1)
  t.ok(not ok and err:find("out of range [0, 86400]", 1, true),
       "api: optlab.sleep(-1) names the range: " .. tostring(err))
  ok, err = pcall(optlab.sleep, 0 / 0)
  t.ok(not ok and err:find("nan", 1, true),
       "api: optlab.sleep(nan) is refused: " .. tostring(err))
end

-- methods
local m = optim.adam{lr = 1e-2}
t.is(tostring(m), "adam{lr=0.01, beta1=0.9, beta2=0.999, eps=1e-08}",
     "method: tostring shows every parameter with %.6g")
t.is(m.lr, 0.01, "method: m.lr")
t.is(m.beta2, 0.999, "method: defaults filled")
t.is(m.name, "adam", "method: m.name")
t.is(m.family, "optim", "method: m.family")
t.is(tostring(optim.gd()), "gd{lr=0.001}", "method: constructor without table")
t.is(sample.mala{}.family, "sample", "method: sample family")
t.is(game.rmplus{}.family, "game", "method: game family")
t.errors("optim.adam: lr = -1 is out of range [0, inf]",
         optim.adam, {lr = -1})
t.errors("optim.adam: unknown parameter 'lrr' (valid: lr, beta1, beta2, eps)",
         optim.adam, {lrr = 1})
t.errors("optim.adam: lr must be a number, got a string", optim.adam,
         {lr = "big"})

-- problems
local p = problem.rosenbrock{n = 2}
t.is(tostring(p), "rosenbrock{n=2}", "problem: tostring")
t.is(p.n, 2, "problem: p.n")
t.is(p.name, "rosenbrock", "problem: p.name")
t.is(p.kind, "objective", "problem: p.kind")
t.ok(type(p.xstar) == "table" and p.xstar[1] == 1 and p.xstar[2] == 1,
     "problem: p.xstar of rosenbrock is (1, 1)")
t.is(p.fstar, 0, "problem: p.fstar")
t.errors("problem.quadratic: unknown parameter 'cnd' "
         .. "(valid: n, cond, seed, rotate)",
         problem.quadratic, {cnd = 10})
t.errors("problem.quadratic: cond = 0.5 is out of range [1, 1e+12]",
         problem.quadratic, {cond = 0.5})
t.errors("problem.quadratic: n = 2.5 is not an integer", problem.quadratic,
         {n = 2.5})
local q = problem.quadratic{n = 3, x0 = {1, 2, 3}}
t.ok(q.x0[3] == 3, "problem: generic key x0 sets the default start")
t.errors("x0 has 2 entries, expected n = 3", problem.quadratic,
         {n = 3, x0 = {1, 2}})
local qb = problem.quadratic{n = 2, set = {lo = -1, hi = {1, 2}}}
t.ok(qb ~= nil, "problem: set = {lo=, hi=} accepted")
-- the generic keys are checked once, by the core's setters, when the
-- problem is made (not when a run starts)
t.errors("problem.quadratic: x0[1] = nan is not finite", problem.quadratic,
         {n = 2, x0 = {0/0, 1}})
t.errors("problem.new: x0[2] = inf is not finite", problem.new,
         {n = 2, f = function (x) return x[1] end, x0 = {0, math.huge}})
t.errors("problem.quadratic: set: lo[2] = 3 > hi[2] = 2", problem.quadratic,
         {n = 2, set = {lo = {0, 3}, hi = 2}})
t.errors("problem.new: xstar[1] = nan is not finite", problem.new,
         {n = 1, f = function (x) return x[1] end, xstar = {0/0}})
t.ok(problem.quadratic{n = 2, noise = {kind = "gauss", sigma = 0.1}},
     "problem: noise accepted")
t.errors("noise.kind = 'cauchy'", problem.quadratic,
         {noise = {kind = "cauchy"}})
-- parameter tables say what they enforce: booleans, open bounds, and a
-- density's info lists only what applies to it
t.errors("sample.mala: h = 0 is out of range (0, inf)", sample.mala, {h = 0})
t.errors("sample.mala: h = inf is out of range (0, inf)", sample.mala,
         {h = math.huge})
t.ok(pcall(sample.mala, {h = 1e-320}), "mala: a tiny positive h is > 0")
t.errors("sample.hmc: delta = 1 is out of range (0, 1)", sample.hmc,
         {delta = 1})
t.ok(pcall(optim.clipsgd, {c = math.huge}),
     "clipsgd: c = inf (no clipping) is still accepted")
t.is(tostring(game.rmplus{alternate = true}),
     "rmplus{alternate=true, avg=uniform}", "rmplus: alternate takes true")
t.is(tostring(game.rmplus{alternate = 1}),
     "rmplus{alternate=true, avg=uniform}", "rmplus: alternate takes 1 as before")
t.errors("game.rmplus: alternate = 2 is not a boolean", game.rmplus,
         {alternate = 2})
t.errors("problem.gauss2d: unknown parameter 'noise' (valid: mu1, mu2, s1, "
         .. "s2, rho, x0)", problem.gauss2d, {noise = {sigma = 1}})
t.errors("problem.rps: unknown parameter 'l1'", problem.rps, {l1 = 0.1})
t.is(problem.rps{noise = {kind = "student", nu = 1.5}}.noise.kind, "student",
     "problem.rps: a normal-form game takes operator noise")
t.errors("problem.kuhn: noise does not apply to a game tree", problem.kuhn,
         {noise = {sigma = 1}})
t.errors("problem.new: noise does not apply to a density (kind = \"density\" "
         .. "takes x0 only)", problem.new,
         {n = 1, kind = "density", f = function (x) return -x[1]^2 end,
          noise = {sigma = 1}})
t.errors("problem.gauss2d: s1 = 0 is out of range (0, 1e+150]",
         problem.gauss2d, {s1 = 0})
do
  local h = capture(help, problem.gauss2d)
  t.ok(not h:find("1e+300", 1, true) and not h:find("noise", 1, true),
       "help(problem.gauss2d): no 1e+300 range, no noise option")
  h = capture(help, game.rmplus)
  t.ok(h:find("true|false", 1, true) and h:find("false: simultaneous", 1,
                                                   true),
       "help(game.rmplus): alternate is a boolean")
end
local f, g = p:eval{1, 1}
t.ok(f == 0 and g[1] == 0 and g[2] == 0, "problem: p:eval at x*")

-- problem.new
local u = problem.new{n = 2, f = function (x) return x[1]^2 + x[2]^2 end,
                      name = "bowl"}
t.is(tostring(u), "bowl{n=2}", "problem.new: name and n in tostring")
t.errors("problem.new: unknown parameter 'ff'", problem.new,
         {n = 2, ff = print})
t.errors("problem.new: needs f or fdf", problem.new, {n = 2})
t.errors("problem.new: n must be a positive integer", problem.new,
         {f = print})

-- run options
t.errors("run: unknown option 'iter' (valid: iters, tol, time, seed, stream, "
         .. "x0, metrics, watch, cap, record_x, schedule, progress, view, "
         .. "xaxis, xlog, average, f_abstol, f_reltol, x_abstol, x_reltol, "
         .. "xlimit, "
         .. "flimit, stop_below, chains, warmup, max_draws, speed, paused, "
         .. "samples, changes)",
         run, p, m, {iter = 10})
t.errors("run: unknown metric 'los' (valid: loss, gradnorm, dist, subopt, "
         .. "kkt, entropy, exploitability, accept, ",
         run, p, m, {metrics = {"los"}})
t.errors("constructor%? write optim.adam{}", run, p, optim.adam)
t.errors("constructor%? write problem.rosenbrock{}", run, problem.rosenbrock,
         m)
t.errors("run: unknown metric", run, p, m, {watch = {"foo"}})
t.errors("run: iters = -1 is out of range [0, inf]", run, p, m, {iters = -1})
t.errors("run: x0 has 1 entries, expected n = 2", run, p, m, {x0 = {1}})
t.errors("run: schedule: unknown kind 'linear'", run, p, m,
         {schedule = {kind = "linear"}})
t.errors("optlab.problem expected, got optlab.method", run, m, p)

local r = run(p, optim.gd{lr = 1e-3}, {iters = 10, metrics = {"loss"},
                                      progress = false})
t.is(r.iter, 10, "run: r.iter")
t.is(r.reason, "budget", "run: r.reason")
t.errors("run:series: metric 'gradnorm' was not recorded (recorded: loss)",
         r.series, r, "gradnorm")
t.errors("run:series: unknown metric 'los' (recorded: loss)", r.series, r,
         "los")
t.is(#r:metrics(), 1, "run: r:metrics() lists the recorded metrics")
t.ok(r.problem == p, "run: r.problem is the problem object")
t.is(r.method.name, "gd", "run: r.method is the method object")
t.is(r.seed, 1, "run: default seed 1 is explicit")
local watched = run(p, optim.gd{}, {iters = 5, metrics = {"loss"},
                                    watch = {"dist"}})
t.ok(watched:last("dist") ~= nil, "run: watch implies recording")

-- help
local h = capture(help, optim.adam)
t.ok(h:find("optim.adam", 1, true), "help: names the method")
t.ok(h:find("reference:", 1, true), "help: gives the reference")
t.ok(h:match("lr%s+0%.001%s+%[0, inf%]%s+step size"),
     "help: parameter table row for lr (default, range, doc)")
t.ok(h:match("beta1%s+0%.9"), "help: parameter table row for beta1")
h = capture(help, m)
t.ok(h:match("lr%s+0%.01%s+0%.001"), "help: a method object shows its value")
h = capture(help, problem.quadratic)
t.ok(h:match("cond%s+10%s+%[1, 1e%+12%]"), "help: problem parameter table")
h = capture(help)
t.ok(h:find("adam", 1, true) and h:find("rosenbrock", 1, true)
     and h:find("mala", 1, true) and h:find("run(", 1, true),
     "help: overview lists problems, methods and functions")
h = capture(help, "metrics")
t.ok(h:find("gradnorm", 1, true) and h:find("exploitability", 1, true),
     "help: metrics lists every metric")
h = capture(help, "loss")
t.ok(h:find("^loss: "), "help: a metric name gives its definition")
h = capture(help, run)
t.ok(h:find("record_x", 1, true), "help: run lists its options")
h = capture(help, start)
t.ok(h:find("j:pause()", 1, true) and h:find("Ctrl-G", 1, true),
     "help: start documents the job methods and the focus key")
h = capture(help)
t.ok(h:find("start(p, m, opts)", 1, true) and h:find("jobs()", 1, true),
     "help: the overview lists start and jobs")

-- utilities
do
  local seen, dup = {}, false
  for _, name in ipairs(metrics()) do
    dup = dup or seen[name] ~= nil
    seen[name] = true
  end
  local all = true
  for _, name in ipairs{"loss", "gradnorm", "dist", "subopt", "kkt",
                        "entropy", "exploitability", "accept"} do
    all = all and seen[name] == true
  end
  t.ok(all and not dup, "metrics: lists every registered metric once")
end
t.is(optlab.format({1, 2, a = "x"}), '{1, 2, a = "x"}',
     "pretty: formats tables")
local cyc = {}
cyc.self = cyc
t.is(optlab.format(cyc), "{self = <cycle>}", "pretty: cycles")

-- blas_threads: one OpenBLAS thread unless the environment says otherwise
do
  local function out (env, code)
    local f = assert(io.popen(env .. " ./optlab -e '" .. code .. "' 2>&1"))
    local s = f:read("a")
    f:close()
    return s
  end
  t.is(out("env -u OPENBLAS_NUM_THREADS -u OMP_NUM_THREADS",
           "print(blas_threads())"), "1\n",
       "blas_threads: 1 by default")
  -- OpenBLAS caps its threads at the CPUs the process may use (taskset)
  local ncpu = tonumber(io.popen("nproc"):read("a")) or 1
  local want = math.min(2, ncpu)
  t.is(out("env -u OMP_NUM_THREADS OPENBLAS_NUM_THREADS=2",
           "print(blas_threads())"), want .. "\n",
       "blas_threads: OPENBLAS_NUM_THREADS is respected (2, or the "
       .. ncpu .. " CPU(s) this process may use)")
  local old = blas_threads(2)
  t.is(blas_threads(old), 2,
       "blas_threads(n) sets n and returns the old count")
  t.is(blas_threads(), old, "blas_threads() reads the count back")
  local ok_, err = pcall(blas_threads, 0)
  t.ok(not ok_ and tostring(err):find("out of range %[1, 256%]") ~= nil,
       "blas_threads(0): out of range [1, 256]")
  t.ok(capture(help, blas_threads):find("OPENBLAS_NUM_THREADS", 1, true),
       "help(blas_threads) says where the default comes from")
end

-- BLAS and LAPACK are loaded on first use (repl/lazyla.c): not mapped
-- after a bare start, mapped after a Newton solve; a thread count set
-- before they load is applied when they do.
do
  local function out (env, code)
    local f = assert(io.popen(env .. " ./optlab -e '" .. code .. "' 2>&1"))
    local s = f:read("a")
    f:close()
    return s
  end
  local mapped = "local function m () local f = io.open(\"/proc/self/maps\") "
    .. "local s = f:read(\"a\") f:close() "
    .. "return s:find(\"libopenblas\", 1, true) ~= nil "
    .. "and s:find(\"liblapacke\", 1, true) ~= nil end "
  t.is(out("", mapped .. "print(m())"), "false\n",
       "lazy BLAS: a bare start maps neither OpenBLAS nor LAPACKE")
  -- nor Open MPI, in a build with it (lua/lazympi.c): only a rank loads it
  t.is(out("", "local f = io.open(\"/proc/self/maps\") "
           .. "local s = f:read(\"a\") f:close() "
           .. "print(optlab.mpi, s:find(\"libmpi\", 1, true) ~= nil)"),
       tostring(optlab.mpi) .. "\tfalse\n",
       "lazy MPI: a start outside mpirun does not map libmpi")
  t.is(out("", mapped .. "local r = run(problem.quadratic{n = 3}, "
           .. "optim.newton{}, {iters = 3}) print(m(), r.iter)"),
       "true\t3\n", "lazy BLAS: a Newton solve loads them")
  t.is(out("env -u OMP_NUM_THREADS OPENBLAS_NUM_THREADS=2",
           "blas_threads(1) run(problem.quadratic{n = 3}, optim.newton{}, "
           .. "{iters = 3}) print(blas_threads())"), "1\n",
       "lazy BLAS: blas_threads(1) before the load holds after it")
end

t.done()
