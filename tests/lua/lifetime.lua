-- tests/lua/lifetime.lua -- objects that outlive what they use (issue 9,
-- items 1 and 2): a problem closed (p:close(), <close>, inside its own
-- callback) while runs, races and jobs still use it; callbacks that
-- re-enter their own problem, run or job.  Each reproduction crashed or
-- read freed memory; it runs in a child process, whose exit status and
-- output are checked.  Freed memory is made visible without a sanitizer:
-- strings about the size of an ol_problem take its freed chunk from
-- malloc's per-size cache, so a run still reading it prints Z's.
local t = dofile("tests/lib/tap.lua")
local BIN = arg and arg[-1] or "./optlab"

-- Run code in a child optlab (no view): exit status, output (both streams).
local function child (code)
  local name = os.tmpname()
  local f = assert(io.open(name, "w"))
  f:write(code)
  f:close()
  local p = assert(io.popen("timeout 120 " .. BIN .. " --no-tui " .. name
                            .. " 2>&1; echo \"exit:$?\""))
  local out = p:read("a")
  p:close()
  os.remove(name)
  local status = tonumber(out:match("exit:(%d+)%s*$"))
  return status, (out:gsub("exit:%d+%s*$", ""))
end

local function clean (name, status, out, want)
  t.is(status, 0, name .. ": exits normally")
  if not t.ok(out:find(want, 1, true), name .. ": prints " .. want) then
    t.diag(out)
  end
end


local REUSE = [[
local keep = {}
for len = 380, 440 do keep[#keep + 1] = string.rep("Z", len - 1) .. len end
]]

-- (1) a problem closed under a job, a run, a race
local st, out = child([[
p = problem.quadratic{n=3}
j = start(p, optim.gd{}, {iters=100})
p:close()
]] .. REUSE .. [[
j:wait()
print("state", j.state, j.run.iter)
]])
clean("lifetime: start, p:close(), j:wait()", st, out, "state\tdone\t100")

st, out = child([[
p = problem.quadratic{n=3}
r = run(p, optim.gd{}, {iters=10, progress=false})
p:close()
]] .. REUSE .. [[
print(r)
print(p)
]])
clean("lifetime: run, p:close(), print(r)", st, out,
      "run gd{lr=0.001} on quadratic{n=3, cond=10, seed=1}")
t.ok(out:find("quadratic{n=3, cond=10, seed=1} (closed)", 1, true),
     "lifetime: a closed problem prints its description and (closed)")

st, out = child([[
p = problem.quadratic{n=3}
rc = race(p, {optim.gd{}, optim.adam{}}, {iters=10, progress=false})
p:close()
]] .. REUSE .. [[
rc:plot{text = true, width = 60, height = 10}
print(rc[2])
]])
clean("lifetime: race, p:close(), plot", st, out,
      "run adam{lr=0.001, beta1=0.9, beta2=0.999, eps=1e-08} on "
      .. "quadratic{n=3, cond=10, seed=1}")

-- (2) the <close> forms
st, out = child([[
do
  local p <close> = problem.quadratic{n=3}
  r = run(p, optim.gd{}, {iters=10, progress=false})
end
]] .. REUSE .. [[
print(r)
]])
clean("lifetime: run on a <close> problem, print(r) after the block", st,
      out, "on quadratic{n=3, cond=10, seed=1}")

st, out = child([[
do
  local p <close> = problem.quadratic{n=3}
  j = start(p, optim.gd{}, {iters=100})
end
]] .. REUSE .. [[
j:wait()
print("state", j.state, j.run.iter)
]])
clean("lifetime: start on a <close> problem, j:wait() after the block", st,
      out, "state\tdone\t100")

-- (3) a callback that closes its own problem: the run goes on
st, out = child([[
P = problem.new{n = 2, f = function (x)
  P:close()
  return (x[1] - 1)^2 + (x[2] - 1)^2
end}
r = run(P, optim.gd{}, {iters = 5, progress = false})
print("run", r.reason, r.iter)
print(r)
print(pcall(function () return P:eval({0, 0}) end))
]])
clean("lifetime: f closes its own problem during run", st, out,
      "run\tbudget\t5")
t.ok(out:find("false\t[^\n]*problem is closed"),
     "lifetime: ... and the closed problem refuses eval after")

-- (4) using a closed problem is an error; closing twice is harmless
local ok4, err4 = pcall(function ()
  local p = problem.quadratic{n = 2}
  local r = run(p, optim.gd{}, {iters = 3, progress = false})
  p:close()
  p:close()
  t.ok(true, "lifetime: a second p:close() is harmless")
  t.errors("problem is closed", run, p, optim.gd{}, {progress = false})
  t.errors("problem is closed", race, p, {optim.gd{}}, {progress = false})
  t.errors("problem is closed", start, p, optim.gd{})
  t.errors("problem is closed", function () return p:eval({0, 0}) end)
  t.errors("problem is closed", function () return p.n end)
  t.errors("run:continue: problem is closed", r.continue, r, 5)
  t.is(r.iter, 3, "lifetime: a run of a closed problem can still be read")
  r:close()
end)
t.ok(ok4, "lifetime: a closed problem can be closed and printed: "
     .. tostring(err4))

-- (5) re-entry: f evaluates or runs its own problem
st, out = child([[
local inner = false
P = problem.new{n = 1, f = function (x)
  if not inner then
    inner = true
    local v = P:eval({x[1] + 1})
    inner = false
    return x[1]^2 + 0 * v
  end
  return x[1]^2
end, grad = function (x, g) g[1] = 2 * x[1] end}
local f, g = P:eval({3})
print("eval", f, g[1])
]])
clean("lifetime: f calls P:eval (re-entrant)", st, out, "eval\t9.0\t6.0")

st, out = child([[
local depth = 0
P = problem.new{n = 1, x0 = {1}, ad = false, f = function (x)
  if depth == 0 then
    depth = 1
    local r = run(P, optim.gd{lr = 0.1}, {iters = 3, progress = false})
    assert(r.iter == 3, "inner run: " .. r.iter)
    depth = 0
  end
  return x[1]^2
end}
r = run(P, optim.gd{lr = 0.1}, {iters = 4, progress = false})
print("run", r.reason, r.iter)
]])
clean("lifetime: f calls run on its own problem (re-entrant)", st, out,
      "run\tbudget\t4")

st, out = child([[
P = problem.new{n = 1, f = function (x) P:eval({1}) return 0 end}
print("eval", P:eval({1}))
P2 = problem.new{n = 1, x0 = {1}, ad = false, f = function (x)
  local inner = run(P2, optim.gd{}, {iters = 2, progress = false})
  if inner.reason == "callback error" then msg = inner.message end
  return x[1]^2
end}
r = run(P2, optim.gd{}, {iters = 3, progress = false})
print("run", r.reason)
print("inner", msg)
]])
clean("lifetime: f that evaluates its problem without end", st, out,
      "eval\tnil")
t.ok(out:find("eval\tnil\t[^\n]*nested 16 deep"),
     "lifetime: ... eval fails with 'nested 16 deep'")
t.ok(out:find("run\tbudget", 1, true)
     and out:find("inner\t[^\n]*nested 16 deep"),
     "lifetime: ... so do the inner runs of f that runs its problem "
     .. "without end, and the outer run ends")

-- (6) a callback that steps, stops, continues or closes what runs it
st, out = child([[
P = problem.new{n = 1, x0 = {1}, ad = false, f = function (x)
  if j then j:step(1) end
  return x[1]^2
end}
j = start(P, optim.gd{}, {iters = 3})
j:wait()
print("job", j.run.reason, j.run.message)
]])
clean("lifetime: a job's objective steps its own job", st, out,
      "job #1 is being stepped")

st, out = child([[
P = problem.new{n = 1, x0 = {1}, ad = false, f = function (x)
  if j then j:stop() end
  return x[1]^2
end}
j = start(P, optim.gd{}, {iters = 3})
j:wait()
print("job", j.run.reason, j.run.message)
]])
clean("lifetime: a job's objective stops its own job", st, out,
      "job:stop: job #1 is being stepped")

st, out = child([[
P = problem.new{n = 1, x0 = {1}, ad = false, f = function (x)
  if j then j[2]:close() end
  return x[1]^2
end}
j = start(P, {optim.gd{}, optim.adam{}}, {iters = 50})
j:wait()
print("job", j.state, j[1].iter)
]])
clean("lifetime: a job's objective closes a sibling run", st, out,
      "job\tdone\t1")

st, out = child([[
P = problem.new{n = 1, x0 = {1}, ad = false, f = function (x)
  if r then r:close() end
  return x[1]^2
end}
r = run(P, optim.gd{}, {iters = 3, progress = false})
r:continue(20)
print("run", r.reason, r.message)
]])
clean("lifetime: a run's objective closes its run", st, out,
      "run:close: the run is being stepped")

st, out = child([[
P = problem.new{n = 1, x0 = {1}, ad = false, f = function (x)
  if r then r:continue(5) end
  return x[1]^2
end}
r = run(P, optim.gd{}, {iters = 3, progress = false})
r:continue(20)
print("run", r.reason, r.message)
]])
clean("lifetime: a run's objective continues its run", st, out,
      "run:continue: the run is being stepped")

-- (7) jobs() with more jobs than its first buffer holds
st, out = child([[
for i = 1, 40 do start(problem.quadratic{n=3}, optim.gd{}, {iters=1}):wait() end
collectgarbage()
collectgarbage()
print(jobs())
print("listed", #jobs())
]])
clean("lifetime: jobs() after 40 jobs", st, out, "listed\t16")
t.ok(out:find("\n  40  done", 1, true),
     "lifetime: ... lists the latest job")

-- (8) a job kept by the program stays listed; a dropped one goes
do
  local mine = start(problem.quadratic{n = 2}, optim.gd{}, {iters = 1})
  mine:wait()
  for _ = 1, 20 do
    start(problem.quadratic{n = 2}, optim.gd{}, {iters = 1}):wait()
  end
  collectgarbage()
  collectgarbage()
  local found, n = false, 0
  for _, j in ipairs(jobs()) do
    n = n + 1
    if j == mine then found = true end
  end
  t.ok(found, "lifetime: a done job the program holds stays in jobs()")
  t.ok(n <= 17, "lifetime: done jobs nobody holds are dropped beyond the "
       .. "16 latest (listed " .. n .. ")")
end

t.done()
