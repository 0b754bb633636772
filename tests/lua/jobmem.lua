-- tests/lua/jobmem.lua -- stopped jobs give their memory back (issue 22,
-- item 4): 10^4 rounds of start(iters = 1e6), j:step(3), j:stop() held
-- the runs' C memory (a history each, unseen by the Lua collector, and old
-- by the time the job was dropped, which a generational step never
-- collects): the process grew by about 110 MB from round 1000 to 10000.
-- Now the collector is told (olua_gcdebt): the growth over those 9000
-- rounds stays under BOUND MB (a few MB of allocator slack in practice),
-- whatever the machine's speed.  Linux: VmRSS from /proc/self/status.
local t = dofile("tests/lib/tap.lua")
local BOUND = 30

local function rss ()
  local f = io.open("/proc/self/status")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return tonumber(s:match("VmRSS:%s*(%d+)")) / 1024
end

if not rss() then
  t.ok(true, "jobmem: no /proc/self/status here (skipped)")
  t.done()
end

local p = problem.rosenbrock{n = 2}
local m = optim.gd{lr = 1e-4}
local at = {}
for i = 1, 10000 do
  local j = start(p, m, {iters = 1e6})
  j:step(3)
  j:stop()
  if i == 1000 or i == 10000 then at[i] = rss() end
end
local grew = at[10000] - at[1000]
t.diag(string.format("RSS %.1f MB at round 1000, %.1f MB at round 10000",
                     at[1000], at[10000]))
t.ok(grew < BOUND, string.format("jobmem: 9000 more stopped jobs grow the "
                                 .. "process by %.1f MB (bound %d MB)", grew, BOUND))
-- the jobs that are kept still answer (the latest 16, and any referenced)
local j = start(p, m, {iters = 1e6})
j:step(3)
j:stop()
collectgarbage("collect")
t.is(j.state, "done", "jobmem: a stopped job kept by a variable is intact")
t.is(j.run.iter, 3, "jobmem: ... with its 3 steps")
t.done()
