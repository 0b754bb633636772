-- tests/lua/soak.lua -- memory stays flat over many rounds (issue 9, item
-- 5): 10^4 started-and-finished jobs, 10^4 fresh user problems run once
-- each, 10^4 fresh user problems started as jobs.  The resident set size
-- (VmRSS, /proc/self/statm) after all the rounds must be within BOUND_MB
-- of what it was after the first 10^3, after a full collection each time.
-- Finished jobs that nobody refers to, and dropped problems, must be
-- collected with their C memory (runs, histories, problems, callback
-- threads): before, every finished job was kept for good (about 40 kB
-- each, +380 MB over these 10^4 rounds), and the collector, blind to the
-- C memory of runs, let dropped runs pile up in proportion to the Lua
-- heap (+180 MB over 10^4 fresh problems once jobs had grown the heap).
-- A fourth loop runs a built-in problem 10^4 times beside a Lua heap of
-- about 15 MB: its bound is that heap's size, as the collector lets
-- garbage grow to about the live heap before a cycle ends.  Each loop
-- takes well under a second.  Under AddressSanitizer freed memory sits in its quarantine, so
-- RSS says nothing there: the rounds still run (LeakSanitizer checks at
-- exit) but the bounds are skipped.
local t = dofile("tests/lib/tap.lua")

local ROUNDS, FIRST, BOUND_MB = 10000, 1000, 4

local function rss_mb ()
  local f = io.open("/proc/self/statm")
  if not f then return nil end
  local _, resident = f:read("n", "n")
  f:close()
  return resident * 4096 / 2^20
end

local function sanitized ()
  local f = io.open("/proc/self/maps")
  if not f then return false end
  local maps = f:read("a")
  f:close()
  return maps:find("asan", 1, true) ~= nil
end

local skip = rss_mb() == nil and "no /proc/self/statm"
  or sanitized() and "AddressSanitizer build (quarantine)"

-- Run round(i) ROUNDS times; RSS after FIRST rounds and at the end.
local function soak (name, round, bound)
  bound = bound or BOUND_MB
  local first
  local t0 = os.clock()
  for i = 1, ROUNDS do
    round(i)
    if i == FIRST then
      collectgarbage()
      first = rss_mb()
    end
  end
  collectgarbage()
  local last = rss_mb()
  if skip then
    t.ok(true, string.format("soak: %s, %d rounds (RSS not checked: %s)",
                             name, ROUNDS, skip))
    return
  end
  t.diag(string.format("%s: RSS %.1f MB after %d rounds, %.1f MB after %d "
                       .. "(%.2f s CPU)", name, first, FIRST, last, ROUNDS,
                       os.clock() - t0))
  t.ok(last - first <= bound,
       string.format("soak: %s: RSS grows %.2f MB from round %d to %d "
                     .. "(bound %d MB)", name, last - first, FIRST, ROUNDS,
                     bound))
end

soak("started-and-finished jobs", function ()
  start(problem.quadratic{n = 3}, optim.gd{}, {iters = 1}):wait()
end)

local function f (x) return (x[1] - 1)^2 + (x[2] - 1)^2 end
local function grad (x, g)
  g[1] = 2 * (x[1] - 1)
  g[2] = 2 * (x[2] - 1)
end

soak("fresh problem.new run once each", function ()
  local p = problem.new{n = 2, f = f, grad = grad}
  run(p, optim.gd{}, {iters = 10, progress = false, view = false})
end)

soak("fresh problem.new started as a job each", function ()
  start(problem.new{n = 2, f = f}, optim.gd{}, {iters = 10}):wait()
end)

do
  local heap = {}
  for i = 1, 150000 do heap[i] = {i} end
  collectgarbage()
  local mb = collectgarbage("count") / 1024
  t.diag(string.format("Lua heap %.1f MB", mb))
  local p = problem.quadratic{n = 3}
  soak("runs beside a large Lua heap", function ()
    run(p, optim.gd{}, {iters = 100, progress = false, view = false})
  end, math.ceil(mb))
  heap = nil
end

t.done()
