-- tests/lua/interrupt.lua -- one Ctrl-C stops the whole statement or
-- script (issue 22, item 3): a run nested in a callback does not swallow
-- it, a loop of runs stops at the first, Lua code in a coroutine is
-- interrupted; and cheap argument checks come before work of size n
-- (repro F5, F4, F10).  The Ctrl-C is a real SIGINT that a script sends
-- itself (kill -INT through io.popen, whose child does not make the
-- caller ignore SIGINT as os.execute does), each in its own optlab process
-- since a Ctrl-C ends the script that gets it.
local t = dofile("tests/lib/tap.lua")
local BIN = arg and arg[-1] or "./optlab"
local TMP = os.tmpname()

-- run SRC in a fresh optlab; returns exit status, stdout, stderr
local function script (src)
  local f = assert(io.open(TMP .. ".lua", "w"))
  f:write([[
local PID = io.open("/proc/self/stat"):read("n")
local function ctrl_c () io.popen("kill -INT " .. PID):close() end
]], src)
  f:close()
  -- timeout: a hang guard only (a swallowed Ctrl-C left the run going)
  local ok, how, st = os.execute(string.format("timeout 120 %s --no-tui %s.lua > %s.out 2> %s.err",
                                               BIN, TMP, TMP, TMP))
  local function slurp (name)
    local h = io.open(name)
    local s = h and h:read("a") or ""
    if h then h:close() end
    return s
  end
  return how == "exit" and st or -1, slurp(TMP .. ".out"), slurp(TMP .. ".err")
end

-- (1) a run nested in the objective of a run: the Ctrl-C comes inside
-- the inner run (from its own objective, at its 50th call in all), which
-- stops "interrupted" and used to clear the flag, so the outer run went on
-- for ever; now the outer one stops too and the script goes on to its end
do
  local st, out, err = script([[
local inner = 0
local P = problem.new{n = 2, f = function (x)
    inner = inner + 1
    if inner == 50 then ctrl_c() end
    return (x[1] - 1)^2 + x[2]^2 end,
  grad = function (x, g) g[1] = 2 * (x[1] - 1) g[2] = 2 * x[2] end}
local p = problem.new{n = 2, f = function (x)
    run(P, optim.gd{lr = 1e-3}, {iters = 20, progress = false})
    return x[1]^2 + x[2]^2 end,
  grad = function (x, g) g[1] = 2 * x[1] g[2] = 2 * x[2] end}
local r = run(p, optim.gd{lr = 1e-9}, {iters = 1e9, x0 = {1, 1}, progress = false})
print("outer", r.reason, r.iter < 1e9)
print("after")
]])
  t.is(st, 0, "interrupt: nested run: the script exits 0 (" .. err:gsub("\n.*", "") .. ")")
  t.ok(out:find("outer\tinterrupted\ttrue", 1, true),
       "interrupt: nested run: the outer run stops, interrupted: " .. out:gsub("\n", " "))
  t.ok(out:find("after", 1, true), "interrupt: nested run: the script's next line runs")
end

-- (2) a loop of three runs that cannot end by themselves: one Ctrl-C
-- stops the first (kept, interrupted) and the loop (the second raises)
do
  local st, out, err = script([[
local calls = 0
local p = problem.new{n = 2, f = function (x)
    calls = calls + 1
    if calls == 100 then ctrl_c() end
    return x[1]^2 + x[2]^2 end,
  grad = function (x, g) g[1] = 2 * x[1] g[2] = 2 * x[2] end}
for i = 1, 3 do
  local r = run(p, optim.gd{lr = 1e-12}, {iters = 1e9, x0 = {1, 1}, tol = 0, progress = false})
  print("run", i, r.reason)
end
]])
  t.is(st, 1, "interrupt: loop of runs: the script stops with status 1")
  t.ok(out:find("run\t1\tinterrupted", 1, true), "interrupt: loop of runs: the first run is kept, interrupted")
  t.ok(not out:find("run\t2", 1, true), "interrupt: loop of runs: no second run: " .. out:gsub("\n", " "))
  t.ok(err:find("interrupted!", 1, true), "interrupt: loop of runs: stderr says interrupted!")
end

-- (3) Lua code looping inside a coroutine
do
  local st, out, err = script([[
coroutine.wrap(function () ctrl_c() while true do end end)()
print("not reached")
]])
  t.is(st, 1, "interrupt: coroutine.wrap loop: status 1")
  t.ok(err:find("interrupted!", 1, true), "interrupt: coroutine.wrap loop: interrupted!")
  t.ok(not out:find("not reached", 1, true), "interrupt: coroutine.wrap loop: the script stops")
  st, out, err = script([[
local co = coroutine.create(function () ctrl_c() local k = 0 while true do k = k + 1 end end)
print("resume", coroutine.resume(co))
]])
  t.is(st, 1, "interrupt: coroutine.resume loop: status 1")
  t.ok(err:find("interrupted!", 1, true) or out:find("interrupted!", 1, true),
       "interrupt: coroutine.resume loop: interrupted!")
end

-- (4) coroutines still work as Lua's (the binding replaces resume/wrap)
do
  local co = coroutine.create(function (a, b)
    local c = coroutine.yield(a + b)
    error("boom " .. c)
  end)
  local ok, v = coroutine.resume(co, 1, 2)
  t.ok(ok and v == 3, "interrupt: coroutine.resume yields a value")
  local ok2, e = coroutine.resume(co, "x")
  t.ok(not ok2 and e:find("boom x", 1, true), "interrupt: ... and returns its error")
  t.is(coroutine.status(co), "dead", "interrupt: ... and is dead after it")
  local ok3, e3 = coroutine.resume(co)
  t.ok(not ok3 and e3:find("dead", 1, true), "interrupt: resuming a dead coroutine says so")
  local gen = coroutine.wrap(function () for i = 1, 3 do coroutine.yield(i) end end)
  t.is(gen() + gen() + gen(), 6, "interrupt: coroutine.wrap yields in order")
  local bad = coroutine.wrap(function () error("inner") end)
  local ok4, e4 = pcall(bad)
  t.ok(not ok4 and e4:find("inner", 1, true), "interrupt: a wrapped error propagates")
  t.errors("coroutine", coroutine.resume, 42)
end

-- (5) cheap checks first: a wrong x0 with n = 10^7 is said before the
-- callback threads (two tables of n numbers each) are made; with the
-- collector stopped, what was allocated stays counted
do
  collectgarbage("stop")
  local before = collectgarbage("count")
  local ok, e = pcall(problem.new, {n = 1e7, f = function (x) return 0 end,
                                    grad = function (x, g) end, x0 = "bad"})
  local grew = (collectgarbage("count") - before) / 1024
  collectgarbage("restart")
  t.ok(not ok and e:find("x0 must be a table of numbers, got a string", 1, true),
       "interrupt: problem.new with x0 = 'bad' says so: " .. tostring(e))
  t.ok(grew < 10, string.format("interrupt: ... before allocating (%.1f MB, bound 10)", grew))
  ok, e = pcall(problem.new, {n = 1e7, f = function (x) return 0 end, x0 = {1, 2}})
  t.ok(not ok and e:find("x0 has 2 entries, expected n = 10000000", 1, true),
       "interrupt: a short x0 is said at once: " .. tostring(e))
  ok, e = pcall(problem.density, {n = 1e7, logp = function (x) return 0 end, lower = "0"})
  t.ok(not ok and e:find("lower must be a number or a table", 1, true),
       "interrupt: problem.density checks lower first: " .. tostring(e))
end

-- (6) hess = with n = 3000: no n^2 table slots made ahead of the first
-- call (1.6 GB per callback thread at n = 10^4)
do
  collectgarbage("collect")
  collectgarbage("stop")
  local before = collectgarbage("count")
  local q = problem.new{n = 3000, f = function (x) return x[1]^2 end,
                        grad = function (x, g) for i = 1, #x do g[i] = 0 end end,
                        hess = function (x, H) end}
  local grew = (collectgarbage("count") - before) / 1024
  collectgarbage("restart")
  t.ok(grew < 20, string.format("interrupt: problem.new{n = 3000, hess =} holds %.1f MB "
                                .. "(bound 20; n^2 slots are 140 MB)", grew))
  q:close()
end

-- (3) the summary of a run whose callback took the Ctrl-C: the message
-- says it was interrupted, without the traceback of where the signal
-- happened to land (it ran unindented into the summary before)
do
  local st, out = script([[
local calls = 0
local p = problem.new{n = 2, f = function (x)
    calls = calls + 1
    if calls == 100 then ctrl_c() end
    local s = 0
    for i = 1, 1e5 do s = s + i end
    return x[1]^2 + x[2]^2 end,
  grad = function (x, g) g[1] = 2 * x[1] g[2] = 2 * x[2] end}
local r = run(p, optim.gd{lr = 1e-12}, {iters = 1e9, x0 = {1, 1}, tol = 0, progress = false})
print(r.reason)
print(r)
print("end of summary")
]])
  t.ok(st == 0 and out:find("^interrupted\n") ~= nil,
       "interrupt: summary: the run stopped, interrupted")
  t.ok(out:find("\n  message: [^\n]*interrupted[^\n]*\nend of summary")
       ~= nil and not out:find("stack traceback", 1, true),
       "interrupt: summary: its message, no traceback: "
       .. (out:match("message: .*") or out))
end

os.remove(TMP)
for _, s in ipairs{".lua", ".out", ".err"} do os.remove(TMP .. s) end
t.done()
