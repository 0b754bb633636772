-- tests/lua/usermetric.lua -- metrics written in Lua (metric.new, issue 24):
-- a metric equal to a closed form is recorded, printed, saved in CSV,
-- plotted (text and SVG), watched by a job, raced, swept and repeated like
-- a built-in one; r gives x, g, f, iter, n and the method's probes; a run
-- nested in eval works; redefining rebinds in place; misuse (bad names,
-- not a function, unknown keys, eval errors with their traceback, a string
-- returned, r kept past its call, yields, the slot limit) is named; Ctrl-C
-- stops a looping eval; --tasks slices and --gather give the same CSV.
local t = dofile("tests/lib/tap.lua")
local fmt = string.format
local SEED = 7
t.diag("seed " .. SEED)
local TMP = os.tmpname()
local quiet = {progress = false, view = false, seed = SEED}
local function opts (o)
  local c = {}
  for k, v in pairs(quiet) do c[k] = v end
  for k, v in pairs(o) do c[k] = v end
  return c
end

-- (1) ||x||^2 on gd over f = x^2 / 2 in one dimension (L = 1, x* = 0):
-- x_k = (1 - lr)^k x_0, so xsq_k = (1 - lr)^(2k) x_0^2, and on a 3-d
-- rotated quadratic (x* = 0) xsq = dist^2.
local name = metric.new{name = "xsq", doc = "||x_t||^2, the squared norm",
                        eval = function (r)
                          local s = 0
                          for i = 1, r.n do s = s + r.x[i] * r.x[i] end
                          return s
                        end}
t.is(name, "xsq", "metric.new returns the name")
local q1 = problem.quadratic{n = 1}
local lr = 0.3
local r = run(q1, optim.gd{lr = lr}, opts{iters = 25, metrics = {"loss",
                                                                 "xsq"}})
do
  local v, times = r:series("xsq")
  local x0 = q1.x0[1]
  local worst = 0
  for i = 1, #v do
    local want = (1 - lr) ^ (2 * times[i]) * x0 * x0
    worst = math.max(worst, math.abs(v[i] - want) / math.max(1, want))
  end
  t.ok(#v == 26 and worst <= 1e-12,
       fmt("xsq = (1 - lr)^2k x0^2 at all %d records (worst rel. diff %.2g)",
           #v, worst))
end
local q3 = problem.quadratic{n = 3, cond = 50}
r = run(q3, optim.gd{lr = 0.01}, opts{iters = 200, metrics = {"dist",
                                                              "xsq"}})
do
  local v, d = r:series("xsq"), r:series("dist")
  local worst = 0
  for i = 1, #v do
    worst = math.max(worst, math.abs(v[i] - d[i] ^ 2) / math.max(1, d[i] ^ 2))
  end
  t.ok(#v > 20 and worst <= 1e-12,
       fmt("xsq = dist^2 on a 3-d quadratic (%d records, worst %.2g)", #v,
           worst))
  t.is(r:last("xsq"), v[#v], "r:last of a user metric")
  t.ok(r:min("xsq") <= v[#v], "r:min of a user metric")
end

-- (2) printed, listed, in help, in the CSV
local text = tostring(r)
t.ok(text:find("final: dist [^\n]+  xsq %d"), "print(r) shows the final xsq")
local found = false
for _, m in ipairs(metrics()) do found = found or m == "xsq" end
t.ok(found, "metrics() lists it")
t.is(table.concat(metric.list(), ","), "xsq", "metric.list() lists it")
t.ok(table.concat(r:metrics(), ","):find("xsq", 1, true), "r:metrics()")
-- what help prints (io.write)
local function said (f, ...)
  local w, buf = io.write, {}
  io.write = function (...)
    for _, v in ipairs{...} do buf[#buf + 1] = v end
  end
  local ok, e = pcall(f, ...)
  io.write = w
  assert(ok, e)
  return table.concat(buf)
end
t.is(said(help, "xsq"), "xsq: ||x_t||^2, the squared norm\n",
     "help('xsq') gives its doc")
t.ok(said(help, "metrics"):find("\n  xsq +||x_t||^2", 1, false),
     "help('metrics') lists it")
r:save(TMP .. ".csv")
do
  local f = assert(io.open(TMP .. ".csv"))
  local head = f:read("l")
  local row1 = f:read("l")
  f:close()
  t.is(head, "iter,dist,xsq,x1,x2,x3", "CSV header has the metric")
  local x = row1:match("^0,[^,]+,([^,]+),")
  t.is(tonumber(x), r:series("xsq")[1], "CSV row 0 holds its value")
end

-- (3) plots: text and SVG panels
do
  -- (no cd: $PWD is the shell's, not the directory make -C runs in)
  local out = io.popen(fmt("LANG=C %s -e %q 2>&1",
                       arg and arg[-1] or "./optlab", [[
metric.new{name = "xsq", eval = function (r) return r.x[1]^2 end}
local r = run(problem.quadratic{n = 1}, optim.gd{lr = 0.3},
              {iters = 20, progress = false, watch = {"xsq"}})
r:plot{text = true, watch = {"xsq"}, width = 50}]])):read("a")
  t.ok(out:find("xsq [", 1, true), "text plot: a panel titled xsq")
end
do
  local r2 = run(q1, optim.gd{lr = lr}, opts{iters = 25, watch = {"loss",
                                                                  "xsq"}})
  r2:plot{file = TMP .. ".svg", watch = {"loss", "xsq"}}
  local svg = assert(io.open(TMP .. ".svg")):read("a")
  t.ok(svg:find('data-kind="xsq"', 1, true),
       "SVG: a panel of kind xsq")
  local n = 0
  for _ in svg:gmatch('<path class="series"') do n = n + 1 end
  t.is(n, 2, "SVG: one series per panel (loss, xsq)")
end

-- (4) race, sweep, repeats, a job
do
  local rc = race(q3, {optim.gd{lr = 0.01}, optim.adam{lr = 0.05}},
                  opts{iters = 50, metrics = {"loss", "xsq"}})
  local a = rc[1]:series("xsq")
  local b = rc[2]:series("xsq")
  t.ok(#a > 0 and #b > 0 and rc[2]:last("xsq") == b[#b],
       "race: each run records it")
  local csv = rc:csv()
  t.ok(csv:match("^run,method,iter,loss,xsq\n"), "race:csv() has a column")
  t.ok(tostring(rc):find("xsq", 1, true), "race table shows a column")
  local sw = sweep(q1, optim.gd, {lr = {0.1, 0.5}}, {iters = 10,
                   metrics = {"loss", "xsq"}, seed = SEED})
  local v = sw:values("xsq")
  t.near(v[1], 0.9 ^ 20 * q1.x0[1] ^ 2, 1e-12, "sweep: lr = 0.1 closed form")
  t.near(v[2], 0.5 ^ 20 * q1.x0[1] ^ 2, 1e-12, "sweep: lr = 0.5 closed form")
  t.ok(tostring(sw):find("xsq", 1, true), "sweep table has the column")
  local rp = repeats(problem.quadratic{n = 2, noise = {kind = "gauss",
                     sigma = 0.1}}, optim.gd{lr = 0.1},
                     {iters = 20, metrics = {"loss", "xsq"}, seed = SEED}, 4)
  t.ok(tostring(rp):find("\n  xsq ", 1, true), "repeats: a row for xsq")
  local j = start(q1, optim.gd{lr = lr}, {iters = 25, watch = {"xsq"},
                                         seed = SEED})
  j:wait()
  t.near(j.runs[1]:last("xsq"), (1 - lr) ^ 50 * q1.x0[1] ^ 2, 1e-15,
         "job watching xsq: its last value is the closed form")
  local rs = run(q1, optim.gd{lr = lr}, opts{iters = 1000,
                                             stop_below = {xsq = 1e-6}})
  t.is(rs.reason, "tolerance", "stop_below = {xsq = ...} stops the run")
  t.ok(rs:last("xsq") <= 1e-6 and rs.iter == math.ceil(
         math.log(1e-6 / q1.x0[1] ^ 2) / (2 * math.log(1 - lr))),
       fmt("... at the first k with xsq <= 1e-6 (k = %d)", rs.iter))
end

-- (5) what r gives: g, f, iter, n, probes; a nested run; samplers
do
  local seen = {}
  metric.new{name = "probe", eval = function (r)
    seen.f, seen.iter, seen.n = r.f, r.iter, r.n
    seen.g1 = r.g[1]
    seen.t = r.t
    return r.lrmax
  end}
  local rd = run(problem.rosenbrock{n = 2}, optim.dog{},
                 opts{iters = 30, metrics = {"loss", "lrmax", "probe"}})
  local a, b = rd:series("lrmax"), rd:series("probe")
  local same = #a == #b
  for i = 1, #a do same = same and a[i] == b[i] end
  t.ok(same and #a > 5, "r.lrmax is the method's probe (dog)")
  t.is(seen.f, rd:last("loss"), "r.f is the loss")
  t.is(seen.iter, 30, "r.iter is the step count")
  t.is(seen.t, 30, "r.t too")
  t.is(seen.n, 2, "r.n")
  local g = problem.rosenbrock{n = 2}:eval(rd.x)
  local _, gr = problem.rosenbrock{n = 2}:eval(rd.x)
  t.near(seen.g1, gr and gr[1] or 0/0, 1e-12 * math.max(1, math.abs(g)),
         "r.g[1] is the gradient at x")
  local rr = run(q3, optim.gd{lr = 0.01}, opts{iters = 3,
                 metrics = {"loss", "probe"}})
  t.is(rr.reason, "callback error", "r.lrmax without the probe: stops")
  t.ok(rr.message:find("r has no field 'lrmax'", 1, true)
       and rr.message:find("probes: none", 1, true),
       "... naming the fields r has")
  metric.new{name = "nest", eval = function (r)
    local inner = run(q1, optim.gd{lr = 0.5}, opts{iters = 2,
                      metrics = {"xsq"}})
    return inner:last("xsq") + r.iter
  end}
  local rn = run(q3, optim.gd{lr = 0.01}, opts{iters = 5,
                 metrics = {"loss", "nest"}})
  t.is(rn.reason, "budget", "a run nested in eval, recording a user metric")
  t.near(rn:last("nest"), 0.5 ^ 4 * q1.x0[1] ^ 2 + 5, 1e-12,
         "... gives the nested run's value")
  local rsmp = run(problem.gaussian{n = 2}, sample.rwmh{},
                   opts{iters = 100, metrics = {"accept", "xsq"}})
  t.is(#rsmp:series("xsq"), #rsmp:series("accept"),
       "a sampler records it too")
end

-- (6) redefinition rebinds in place
do
  metric.new{name = "xsq", doc = "twice ||x||^2", eval = function (rr)
    local s = 0
    for i = 1, rr.n do s = s + 2 * rr.x[i] ^ 2 end
    return s
  end}
  local r2 = run(q1, optim.gd{lr = lr}, opts{iters = 3, metrics = {"xsq"}})
  t.near(r2:last("xsq"), 2 * (1 - lr) ^ 6 * q1.x0[1] ^ 2, 1e-15,
         "redefined: the new eval is used")
  t.ok(r:last("xsq") == r:series("xsq")[#r:series("xsq")],
       "runs made before keep their numbers")
  local n = 0
  for _, m in ipairs(metrics()) do if m == "xsq" then n = n + 1 end end
  t.is(n, 1, "metrics() lists it once")
  t.is(said(help, "xsq"), "xsq: twice ||x||^2\n", "the new doc is shown")
end

-- (7) misuse
t.errors("metric.new: 'loss' is a built%-in metric", metric.new,
         {name = "loss", eval = print})
t.errors("not an identifier", metric.new, {name = "my metric", eval = print})
t.errors("name must be a string", metric.new, {eval = print})
t.errors("eval must be a function%(r%) returning a number, got a number",
         metric.new, {name = "m", eval = 3})
t.errors("eval must be a function", metric.new, {name = "m"})
t.errors("unknown key 'evl' %(valid: name, doc, eval%)", metric.new,
         {name = "m", evl = print})
t.errors("doc must be a string", metric.new, {name = "m", eval = print,
                                              doc = 1})
t.errors("expects a table", metric.new, "m")
t.errors("longer than 31", metric.new, {name = ("a"):rep(40), eval = print})
t.errors("'landscape' is a panel kind", metric.new, {name = "landscape",
                                                     eval = print})
t.errors("'x2' names a column of the CSV files", metric.new,
         {name = "x2", eval = print})
t.errors("'iter' names a column", metric.new, {name = "iter", eval = print})
do
  metric.new{name = "boom", eval = function (rr)
    if rr.iter >= 4 then error("boom at " .. rr.iter) end   -- ERRLINE
    return rr.iter
  end}
  local rb = run(q3, optim.gd{lr = 0.01}, opts{iters = 50,
                 metrics = {"loss", "boom"}})
  t.is(rb.reason, "callback error", "eval error: reason callback error")
  t.ok(rb.message:find("metric boom: ", 1, true)
       and rb.message:find("usermetric.lua:%d+: boom at 4")
       and rb.message:find("stack traceback", 1, true),
       "... the message names the metric, the line, and has the traceback")
  t.is(rb.iter, 4, "... the run stopped at the failing record")
  local s = rb:series("loss")
  t.is(#s, 5, "... and keeps the records before (t = 0..4)")
  metric.new{name = "str", eval = function () return "1" end}
  local rs = run(q3, optim.gd{lr = 0.01}, opts{iters = 5,
                 metrics = {"str"}})
  t.ok(rs.reason == "callback error"
       and rs.message:find("metric str: eval returned a string (expected "
                           .. "a number)", 1, true),
       "a string returned: named")
  metric.new{name = "nothing", eval = function () end}
  rs = run(q3, optim.gd{lr = 0.01}, opts{iters = 5, metrics = {"nothing"}})
  t.ok(rs.message:find("eval returned nil (expected a number)", 1, true),
       "nil returned: named")
  metric.new{name = "nanm", eval = function () return 0 / 0 end}
  rs = run(q3, optim.gd{lr = 0.01}, opts{iters = 5, metrics = {"nanm"}})
  t.ok(rs.reason == "budget" and rs:last("nanm") ~= rs:last("nanm"),
       "NaN is a value: recorded, the run goes on")
  local kept
  metric.new{name = "keep", eval = function (rr) kept = rr return 1 end}
  run(q3, optim.gd{lr = 0.01}, opts{iters = 1, metrics = {"keep"}})
  t.errors("r is valid only during the eval call", function ()
    return kept.x end)
  metric.new{name = "yields", eval = function () coroutine.yield() end}
  local co = coroutine.wrap(function ()
    return run(q3, optim.gd{lr = 0.01}, opts{iters = 2,
               metrics = {"yields"}})
  end)
  local ry = co()
  t.ok(ry.reason == "callback error" and ry.message:find("yield", 1, true),
       "a yield in eval (inside a coroutine) stops the run, named")
  t.errors("unknown metric 'nosuch'.*xsq", run, q3, optim.gd{},
           {metrics = {"nosuch"}, progress = false})
end
do
  -- the slot limit: 16 in all, 9 taken above
  local k, err = 0, nil
  for i = 1, 20 do
    local ok, e = pcall(metric.new, {name = "fill" .. i,
                                     eval = function () return i end})
    if ok then k = k + 1 else err = e break end
  end
  t.is(#metric.list(), 16, "16 metrics of your own at most")
  t.ok(err and err:find("all 16 slots for metrics of your own are taken",
                        1, true) and err:find("xsq, probe", 1, true),
       "one more names the limit and the names: " .. tostring(err))
  metric.new{name = "fill1", eval = function () return 1 end}
  t.ok(true, "redefining at the limit still works")
end

-- (8) Ctrl-C inside an eval that loops: the run stops "interrupted" (a
-- real SIGINT the script sends itself, in its own process as in
-- tests/lua/interrupt.lua), and the script goes on
local BIN = arg and arg[-1] or "./optlab"
local function script (src)
  local f = assert(io.open(TMP .. ".lua", "w"))
  f:write([[
local PID = io.open("/proc/self/stat"):read("n")
local function ctrl_c () io.popen("kill -INT " .. PID):close() end
]], src)
  f:close()
  local h = io.popen(fmt("timeout 120 %s --no-tui %s.lua 2>&1", BIN, TMP))
  local out = h:read("a")
  h:close()
  return out
end
do
  local out = script([[
metric.new{name = "spin", eval = function (r)
  if r.iter == 3 then ctrl_c() while true do end end
  return r.iter
end}
local r = run(problem.quadratic{n = 2}, optim.gd{lr = 0.1},
              {iters = 1e9, metrics = {"spin"}, progress = false})
print("reason", r.reason, r.iter)
]])
  t.ok(out:find("reason\tinterrupted\t3", 1, true),
       "Ctrl-C in a looping eval: the run stops interrupted at 3: "
       .. out:gsub("\n", " "):sub(1, 200))
end

-- (9) --tasks K/N --dir D then --gather D: the slices' CSV of a repeats
-- and a race recording a user metric are the one process's, byte for byte
do
  local dir = TMP .. ".d"
  os.execute("rm -rf " .. dir .. " && mkdir -p " .. dir .. "/tasks")
  local f = assert(io.open(dir .. "/s.lua", "w"))
  f:write([[
local dir = ...
metric.new{name = "xsq", eval = function (r)
  local s = 0
  for i = 1, r.n do s = s + r.x[i]^2 end
  return s
end}
local q = repeats(problem.quadratic{n = 2, noise = {kind = "gauss",
                  sigma = 0.1}}, optim.gd{lr = 0.1},
                  {iters = 50, metrics = {"loss", "xsq"}, seed = 3}, 6)
q:save(dir .. "/q.csv")
local rc = race(problem.quadratic{n = 2}, {optim.gd{lr = 0.1},
                optim.adam{lr = 0.1}}, {iters = 30, metrics = {"loss", "xsq"}})
rc:save(dir .. "/rc.csv")
]])
  f:close()
  local function sh (c) return os.execute(c .. " >/dev/null 2>&1") end
  os.execute("mkdir -p " .. dir .. "/one " .. dir .. "/all")
  sh(fmt("%s %s/s.lua %s/one", BIN, dir, dir))
  for round = 1, 2 do
    for k = 1, 3 do
      sh(fmt("%s --tasks %d/3 --dir %s/tasks %s/s.lua %s/all", BIN, k, dir,
             dir, dir))
    end
  end
  sh(fmt("%s --gather %s/tasks %s/s.lua %s/all", BIN, dir, dir, dir))
  local function slurp (name)
    local h = io.open(name)
    local x = h and h:read("a")
    if h then h:close() end
    return x
  end
  for _, name in ipairs{"q.csv", "rc.csv"} do
    local a, b = slurp(dir .. "/one/" .. name), slurp(dir .. "/all/" .. name)
    t.ok(a and a:find(",xsq\n", 1, true) and a == b,
         "slices and gather: " .. name .. " with xsq byte-identical")
  end
  os.execute("rm -rf " .. dir)
end

os.remove(TMP .. ".csv")
os.remove(TMP .. ".svg")
os.remove(TMP .. ".lua")
os.remove(TMP)
t.done()
