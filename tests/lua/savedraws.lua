-- tests/lua/savedraws.lua -- save_draws writes every chain's file whole
-- or none (issue 22): a second save to the same name with fewer chains
-- removes the earlier save's extra chain files (F8: d_3.csv and d_4.csv
-- of an earlier 4-chain run stayed beside the new d_1.csv and d_2.csv),
-- leaves files that are not optlab's alone; Ctrl-C during a large save
-- stops the writing within a row and leaves no file, and a save reported
-- interrupted never left a complete file (F12: the whole file was
-- written, then "interrupted!" raised).  Run through the binary (prove -e
-- ./optlab), which it also starts as a child to interrupt.
local t = dofile("tests/lib/tap.lua")

local OPTLAB = arg and arg[-1] or "./optlab"   -- the binary under test
local fmt = string.format

local function slurp (name)
  local f = io.open(name, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function exists (name) return slurp(name) ~= nil end

local tmp = io.popen("mktemp -d"):read("l")
local stem = tmp .. "/d.csv"
local function chains (k, seed)
  return run(problem.gauss2d{}, sample.nuts{},
             {chains = k, iters = 20, warmup = 10, progress = false,
              seed = seed})
end

-- == stale chain files (F8) ===============================================
local c4 = chains(4, 1)
local f4 = c4:save_draws(stem)
t.is(#f4, 4, "save_draws: four chains, four files")
local foreign = tmp .. "/d_6.csv"
do
  local f = assert(io.open(foreign, "w"))
  f:write("a file of the user's\n")
  f:close()
end
local c2 = chains(2, 2)
local f2 = c2:save_draws(stem)
t.is(#f2, 2, "save_draws: two chains, two files")
t.ok(slurp(tmp .. "/d_1.csv"):find("seed 2,", 1, true)
     and slurp(tmp .. "/d_2.csv"):find("seed 2,", 1, true),
     "save_draws: d_1 and d_2 hold the new run")
t.ok(not exists(tmp .. "/d_3.csv") and not exists(tmp .. "/d_4.csv"),
     "save_draws: the earlier run's d_3 and d_4 are removed")
t.is(slurp(foreign), "a file of the user's\n",
     "save_draws: a d_6.csv that optlab did not write is left alone")
local c1 = chains(1, 3)
c1:save_draws(stem)
t.ok(slurp(stem):find("seed 3,", 1, true) and not exists(tmp .. "/d_1.csv")
     and not exists(tmp .. "/d_2.csv"),
     "save_draws: one chain writes d.csv and removes d_1, d_2")
do
  local ls = io.popen(fmt("ls -A %s", tmp)):read("a")
  t.is(ls, "d.csv\nd_6.csv\n", "save_draws: no temporary left")
end

-- == Ctrl-C during a large save (F12) =====================================
-- the child: a 40 MB save after RUN DONE on stderr
local script = tmp .. "/big.lua"
do
  local f = assert(io.open(script, "w"))
  f:write([[
local c = run(problem.gaussian{n = 100}, sample.ula{h = 0.01},
              {iters = 20000, progress = false})
io.stderr:write("RUN DONE ", #c:draws()[1], "\n")
io.stderr:flush()
print(pcall(c.save_draws, c, arg[1]))
]])
  f:close()
end

-- (1) into a FIFO, which the test reads: the child is held at its first
-- 64 KiB until the test has sent SIGINT, so the count of bytes that
-- follow does not depend on the machine's speed
local fifo = tmp .. "/fifo.csv"
os.execute("mkfifo " .. fifo)
local child = io.popen(fmt("sh -c 'echo $$; exec %s --no-tui %s %s 2>&1'",
                           OPTLAB, script, fifo), "r")
local pid = child:read("l")
local rd = assert(io.open(fifo, "rb"))
local head = rd:read("l")
os.execute("kill -INT " .. pid)
local rest = rd:read("a")
rd:close()
local out = child:read("a")
child:close()
local full = 41000000                 -- about: 20000 rows of 107 numbers
t.ok(head and head:find("^# optlab ula chain 1"),
     "save_draws: the child started writing")
t.ok(#rest < 1000000,
     fmt("save_draws: Ctrl-C stops the writing within a row (%d bytes "
         .. "after it, of some %d)", #rest, full))
t.ok(out:find("interrupted!", 1, true),
     "save_draws: and the save (or the script) says interrupted")
local sanitized = out

-- (2) into a regular file, Ctrl-C as soon as the run is done: whatever
-- the moment, a save reported interrupted left no file, and a file left
-- is whole (its rows all there) and was not reported interrupted
local target = tmp .. "/big.csv"
child = io.popen(fmt("sh -c 'echo $$; exec %s --no-tui %s %s 2>&1'",
                     OPTLAB, script, target), "r")
pid = child:read("l")
local line = child:read("l")
while line and not line:find("^RUN DONE") do line = child:read("l") end
local want = math.tointeger(tonumber(line and line:match("%d+$") or "0"))
os.execute("kill -INT " .. pid)
out = child:read("a")
child:close()
local body = slurp(target)
local rows = 0
if body then for _ in body:gmatch("\n") do rows = rows + 1 end end
t.ok(not (body and out:find("false", 1, true)),
     "save_draws: a save reported failed or interrupted left no file")
t.ok(body == nil or rows == want + 2,
     fmt("save_draws: a file left is whole (%s; %d draws)",
         body and rows .. " lines" or "none", want))
do
  local ls = io.popen(fmt("ls -A %s", tmp)):read("a")
  t.ok(not ls:find("%.big%.csv%."), "save_draws: no temporary left")
end

sanitized = sanitized .. out
t.ok(not sanitized:find("Sanitizer", 1, true)
     and not sanitized:find("runtime error:", 1, true),
     "save_draws: the interrupted children made no sanitizer report")

os.execute("rm -rf " .. tmp)
t.done()
