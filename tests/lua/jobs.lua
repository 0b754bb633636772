-- tests/lua/jobs.lua -- background jobs without a terminal: start()
-- takes no step, j:step(n) takes exactly n, j:wait() runs to the end,
-- the pause/resume/stop states, race jobs, jobs(), errors.
local t = dofile("tests/lib/tap.lua")

local P = problem.rosenbrock{n = 2}
local M = optim.adam{lr = 1e-3}

local j = start(P, M, {iters = 1000, tol = 0})
t.is(tostring(j):match("^job #%d+ adam lr=0.001 on rosenbrock{n=2}: "
                       .. "running, iter 0/1000$") ~= nil, true,
     "job: tostring names id, method, problem, state, progress")
t.is(j.state, "running", "job: a new job is running")
t.is(j.iter, 0, "job: start() takes no step by itself")
t.is(j.run.reason, "running", "job: its run is live")
t.is(j.iters, 1000, "job: j.iters is the budget")
t.is(type(j.id), "number", "job: j.id")
t.is(j.label, "adam lr=0.001", "job: j.label")

j:step(7)
t.is(j.iter, 7, "job: j:step(7) takes exactly 7 steps")
-- independent truth: the blocking run of 7 iterations with the same seed
local r7 = run(P, M, {iters = 7, tol = 0, view = false, progress = false})
t.is(j.run.x[1], r7.x[1], "job: after 7 steps x[1] equals run{iters=7}")
t.is(j.run.x[2], r7.x[2], "job: after 7 steps x[2] equals run{iters=7}")
j:step()
t.is(j.iter, 8, "job: j:step() takes one step")

j:pause()
t.is(j.state, "paused", "job: pause")
j:step(3)
t.is(j.iter, 11, "job: j:step(3) works while paused")
t.is(j.state, "paused", "job: still paused after stepping")
j:resume()
t.is(j.state, "running", "job: resume")

j:wait()
t.is(j.state, "done", "job: wait() runs to completion")
t.is(j.iter, 1000, "job: done at the budget")
t.is(j.run.reason, "budget", "job: stop reason budget")
t.ok(j.elapsed >= 0, "job: j.elapsed is a duration")
local r1000 = run(P, M, {iters = 1000, tol = 0, view = false,
                         progress = false})
t.is(j.run:last("loss"), r1000:last("loss"),
     "job: final loss equals the blocking run's")
j:pause()
t.is(j.state, "done", "job: a done job stays done")

local k = start(P, M, {iters = 1e8, tol = 0})
k:step(10)
k:stop()
t.is(k.state, "done", "job: stop ends the job")
t.is(k.run.reason, "stopped", "job: stop reason stopped")
t.is(k.iter, 10, "job: no step after stop")
k:step(5)
t.is(k.iter, 10, "job: step on a done job does nothing")

-- a race job: runs in lock-step, j[i], j.runs, #j
local rc = start(P, {optim.gd{lr = 1e-3}, optim.adam{lr = 1e-2}},
                 {iters = 50, watch = {"loss"}})
t.is(#rc, 2, "race job: #j is the number of runs")
t.is(rc[2].label, "adam lr=0.01", "race job: j[2] is the second run")
t.is(rc.runs[1].label, "gd lr=0.001", "race job: j.runs[1]")
t.is(rc.label, "race of 2 (gd, adam)", "race job: label")
rc:step(20)
t.is(rc[1].iter, 20, "race job: run 1 stepped 20")
t.is(rc[2].iter, 20, "race job: run 2 stepped 20 (lock-step)")
rc:wait()
t.is(rc[1].reason .. "," .. rc[2].reason, "budget,budget",
     "race job: both runs end at the budget")
t.ok(tostring(rc.runs):find("race on rosenbrock", 1, true),
     "race job: j.runs is a race object")

-- jobs()
local list = jobs()
t.ok(#list >= 3, "jobs: lists every job started")
t.is(list[#list], rc, "jobs: in start order")
local s = tostring(list)
t.ok(s:find("id%s+state%s+iter%s+label"), "jobs: a header line")
t.ok(s:find("\n  " .. k.id .. "%s+stopped%s+10/100000000%s+adam lr=0.001"),
     "jobs: a line per job with id, state (stopped: k:stop() ended it), "
     .. "iter, label")

-- a job finishing by tolerance
local q = start(problem.quadratic{n = 2}, optim.gd{lr = 0.5},
                {iters = 100000, tol = 1e-8})
q:wait()
t.is(q.run.reason, "tolerance", "job: done by tolerance")
t.ok(q.iter < 100000, "job: tolerance before the budget")

-- errors
t.errors("start: needs a method or a non-empty list of methods", start, P,
         {})
t.errors("start: methods[2] is a number, expected a method", start, P,
         {M, 3})
t.errors("start: unknown option 'iterz'", start, P, M, {iterz = 3})
t.errors("bad argument #1 to 'step' (steps must be >= 0)",
         function () j:step(-1) end)
t.errors("optlab.problem expected", start, 3, M)
t.errors("optlab.method expected", start, P, 3)

-- j:plot draws the job's runs like race:plot: one series path per run
-- and watched panel in the SVG.
do
  local jp = start(problem.quadratic{n = 4}, {optim.gd{lr = 0.5},
                   optim.adam{lr = 0.1}}, {iters = 300, metrics = {"loss"},
                   watch = {"loss"}})
  jp:wait()
  local file = os.tmpname()
  t.ok(select("#", jp:plot{file = file, watch = {"loss"}}) == 0,
       "jobs: j:plot writes an SVG")
  local f = assert(io.open(file))
  local svg = f:read("a")
  f:close()
  os.remove(file)
  local n = 0
  for _ in svg:gmatch('<path class="series"') do n = n + 1 end
  t.is(n, 2, "jobs: j:plot draws one path per run")
end

-- start(..., {paused = true}) opens paused; j:step still steps it
do
  local jp = start(problem.quadratic{n = 2}, optim.gd{lr = 0.1},
                   {iters = 100, tol = 0, paused = true, speed = 5})
  t.is(jp.state, "paused", "job: paused = true opens paused")
  jp:step(2)
  t.is(jp.iter, 2, "job: a paused job takes exactly the steps asked")
  jp:wait()
  t.is(jp.iter, 100, "job: j:wait runs a paused job to its budget at "
       .. "full speed")
end

-- the job limit holds when the runs' own callbacks start jobs: making the
-- run of an outer start evaluates the objective, which here starts jobs
-- until the list is full (the fuzzer's case: the outer job was then
-- written one past the end of the list)
do
  for _, jb in ipairs(jobs()) do jb:stop() end
  local inner = {}
  local filler = problem.quadratic{n = 2}
  local P2 = problem.new{n = 2, f = function(x)
    while true do
      local ok, j2 = pcall(start, filler, optim.gd{lr = 0.1}, {iters = 5})
      if not ok then break end
      inner[#inner + 1] = j2
    end
    return x[1]^2 + x[2]^2
  end}
  local ok, err = pcall(start, P2, optim.gd{lr = 0.1}, {iters = 5})
  t.is(ok, false, "job: a start whose callbacks filled the job list fails")
  t.ok(tostring(err):find("too many jobs at once (64)", 1, true) ~= nil,
       "job: ... with the limit named (" .. tostring(err) .. ")")
  t.ok(#inner > 0, "job: the callbacks' own jobs were started (" .. #inner
       .. ")")
  for _, jb in ipairs(inner) do jb:stop() end
  local j3 = start(filler, optim.gd{lr = 0.1}, {iters = 5})
  j3:wait()
  t.is(j3.iter, 5, "job: jobs start again once the list has room")
end

t.done()
