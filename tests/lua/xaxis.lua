-- tests/lua/xaxis.lua -- the xaxis option ("iter", "evals", "time") of
-- run, race, start and r:plot: validation, the evals and seconds that
-- r:series returns beside the times, the SVG and text axis labels, and a
-- CSV that stays free of timings.
local t = dofile("tests/lib/tap.lua")

local p = problem.quadratic{n = 5, cond = 10}
local valid = "(valid: iter, evals, time, bits, rounds)"

-- (1) validation
t.errors("run: unknown xaxis 'evaluations' " .. valid, run, p, optim.gd{},
         {xaxis = "evaluations", progress = false})
t.errors("race: unknown xaxis 'iters' " .. valid, race, p, {optim.gd{}},
         {xaxis = "iters", progress = false})
t.errors("start: unknown xaxis 'Time' " .. valid, start, p, optim.gd{},
         {xaxis = "Time"})
t.errors("run: unknown xaxis '2' " .. valid, run, p, optim.gd{},
         {xaxis = 2, progress = false})
for _, x in ipairs{"iter", "evals", "time"} do
  t.ok(pcall(run, p, optim.gd{}, {iters = 5, xaxis = x, progress = false}),
       "xaxis: run accepts xaxis = \"" .. x .. "\"")
end

-- (2) r:series -> values, times, evals, seconds, parallel
local iters = 400
local r = run(p, optim.gradavg{lr = 0.05},
              {iters = iters, xaxis = "evals", cap = 64, progress = false})
local v, times, evals, secs = r:series("loss")
t.ok(#v == #times and #times == #evals and #evals == #secs and #v > 10,
     "xaxis: series returns four parallel lists (" .. #v .. " points)")
t.is(times[#times], iters, "xaxis: the last time is the budget")
t.is(evals[#evals], r.ngev, "xaxis: the last evals is r.ngev")
t.near(evals[#evals] / iters, 2, 0.05,
       "xaxis: gradavg (2 gradients per step) makes about 2 evals per "
       .. "iteration")
local mid = (#times + 1) // 2
t.near(evals[mid] / times[mid], 2, 0.05,
       "xaxis: also at a middle point (t = " .. times[mid] .. ", evals = "
       .. evals[mid] .. ")")
local gd = run(p, optim.gd{lr = 0.05}, {iters = iters, progress = false})
local _, _, gev = gd:series("loss")
t.near(gev[#gev] / iters, 1, 0.05,
       "xaxis: gd makes about 1 eval per iteration")
local mono, within = true, true
for i = 2, #secs do
  if secs[i] < secs[i - 1] then mono = false end
end
for i = 1, #secs do
  if secs[i] > r.seconds then within = false end
end
t.ok(mono and secs[1] == 0, "xaxis: seconds start at 0 and never decrease")
t.ok(within, "xaxis: seconds stay within r.seconds")
r:continue(200)
local _, t2, e2 = r:series("loss")
t.ok(#t2 == #e2 and t2[#t2] == iters + 200 and e2[#e2] == r.ngev,
     "xaxis: evals stay aligned after r:continue")

-- (3) the CSV has no timings and does not depend on xaxis
local function csv (x)
  return run(p, optim.gradavg{lr = 0.05},
             {iters = 300, seed = 7, xaxis = x, progress = false}):csv()
end
local c1 = csv("time")
t.is(c1, csv(nil), "xaxis: the CSV is byte-identical whatever the xaxis")
t.ok(not c1:find("second") and c1:match("^iter,"),
     "xaxis: no seconds column in the CSV")

-- (4) SVG: the axis label follows the option and r:plot{xaxis = }
local tmp = os.tmpname()
local function svglabel (obj, opts)
  opts = opts or {}
  opts.file = tmp
  assert(select("#", obj:plot(opts)) == 0)
  local f = assert(io.open(tmp))
  local s = f:read("a")
  f:close()
  return s:match('class="xlabel">([^<]*)</text>'), s
end
local lab, svg = svglabel(r)
t.is(lab, "gradient evaluations",
     "xaxis: SVG axis label with xaxis = \"evals\"")
local xmax = 0
for x in svg:gmatch('class="xtick">([%d.e+]+)</text>') do
  xmax = math.max(xmax, tonumber(x))
end
t.ok(xmax >= r.ngev, "xaxis: SVG ticks reach the evaluations ("
     .. xmax .. " >= " .. r.ngev .. ")")
-- a seconds axis is labelled with the unit its range reads best in
local function timelabel (l)
  return l ~= nil and (l == "time [ms]" or l == "time [s]"
                       or l == "time [min]")
end
local tl = svglabel(r, {xaxis = "time"})
t.ok(timelabel(tl), "xaxis: r:plot{xaxis = \"time\"} overrides the run's "
     .. "option (" .. tostring(tl) .. ")")
t.is(svglabel(gd), "iteration", "xaxis: iteration by default")
t.errors("plot: unknown xaxis 'sec' " .. valid,
         function () r:plot{file = tmp, xaxis = "sec"} end)
local rc = race(p, {optim.gd{lr = 0.05}, optim.gradavg{lr = 0.05}},
                {iters = 100, xaxis = "time", progress = false})
tl = svglabel(rc)
t.ok(timelabel(tl), "xaxis: race:plot uses the race's xaxis ("
     .. tostring(tl) .. ")")
local j = start(p, optim.gradavg{lr = 0.05}, {iters = 100, xaxis = "evals"})
j:wait()
t.is(svglabel(j), "gradient evaluations", "xaxis: j:plot uses the job's "
     .. "xaxis")
os.remove(tmp)

-- (5) text plot: seconds ticks end in "s", the axis is named
local script = os.tmpname()
local f = assert(io.open(script, "w"))
f:write([[
local r = run(problem.quadratic{n = 5, cond = 10}, optim.gd{lr = 0.05},
              {iters = 20000, xaxis = "time", progress = false})
r:plot{text = true, watch = {"loss"}}
]])
f:close()
local pipe = io.popen("LANG=C LC_ALL= ./optlab " .. script)
local out = pipe:read("a")
pipe:close()
os.remove(script)
t.ok(out:find("seconds", 1, true), "xaxis: text plot names the seconds axis")
t.ok(out:find("[%d.]+s ") or out:find("[%d.]+s|"),
     "xaxis: text plot ticks read like 0.5s")

t.done()
