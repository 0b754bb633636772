-- tests/lua/csv.lua -- r:csv() / r:save() format and reproducibility: the
-- same script with the same seed writes byte-identical files; different
-- seeds differ when the problem is noisy.
local t = dofile("tests/lib/tap.lua")

local function slurp (name)
  local f = assert(io.open(name, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local p = problem.quadratic{n = 4, cond = 100, noise = {kind = "gauss",
                                                         sigma = 0.1}}
local function go (seed)
  return run(p, optim.gd{lr = 0.5}, {iters = 200, seed = seed,
                                     metrics = {"loss", "gradnorm", "dist"},
                                     progress = false})
end
t.diag("seeds 1, 1, 2")

local r = go(1)
local csv = r:csv()
local lines = {}
for line in csv:gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
t.is(lines[1], "iter,loss,gradnorm,dist", "csv: header names iter and metrics")
t.is(#lines, 1 + #r:series("loss"), "csv: one row per recorded time")
t.ok(lines[2]:match("^0,[%d.e+-]+,[%d.e+-]+,[%d.e+-]+$"),
     "csv: first row is t = 0 with three numbers")
local last = lines[#lines]
t.ok(last:match("^200,"), "csv: last row is the final iteration")
local v = tonumber(lines[2]:match("^0,([^,]+)"))
t.is(v, r:series("loss")[1], "csv: %.17g round-trips the value exactly")

local a, b = os.tmpname(), os.tmpname()
t.is(select("#", r:save(a)), 0, "csv: save returns nothing (the prompt echoes nothing)")
t.is(slurp(a), csv, "csv: the saved file is r:csv()")
go(1):save(b)
t.is(slurp(b), slurp(a), "csv: same seed -> byte-identical file")
go(2):save(b)
t.ok(slurp(b) ~= slurp(a), "csv: a different seed gives a different file")

-- the same script twice through the binary (a fresh process each time)
local script = os.tmpname()
local f = assert(io.open(script, "w"))
f:write([[
local p = problem.quadratic{n = 3, noise = {kind = "gauss", sigma = 0.5}}
local r = run(p, optim.adam{lr = 0.05}, {iters = 300, seed = tonumber(arg[2])})
assert(select("#", r:save(arg[1])) == 0)
]])
f:close()
local c1, c2, c3 = os.tmpname(), os.tmpname(), os.tmpname()
local ok1 = os.execute("./optlab --no-tui " .. script .. " " .. c1 .. " 7")
local ok2 = os.execute("./optlab --no-tui " .. script .. " " .. c2 .. " 7")
local ok3 = os.execute("./optlab --no-tui " .. script .. " " .. c3 .. " 8")
t.ok(ok1 and ok2 and ok3, "csv: the script runs through the binary")
t.is(slurp(c2), slurp(c1), "csv: two processes, same seed -> identical files")
t.ok(slurp(c3) ~= slurp(c1), "csv: seeds 7 and 8 differ")

-- a failed save raises naming the file and the OS reason (issue 22: an
-- unchecked failure ends a script with a non-zero status)
local okw, msg = pcall(r.save, r, "/nonexistent/dir/x.csv")
t.ok(not okw and type(msg) == "string"
     and msg:find("run:save: cannot write /nonexistent/dir/x.csv: No such "
                  .. "file or directory", 1, true),
     "csv: a failed save raises naming the file and the reason")

-- race CSV
local rc = race(p, {optim.gd{lr = 0.5}, optim.adam{lr = 0.1}},
                {iters = 50, seed = 3, metrics = {"loss"}, progress = false})
local rcsv = rc:csv()
t.ok(rcsv:match("^run,method,iter,loss\n1,gd lr=0%.5,0,"),
     "csv: race CSV is long format run,method,iter,<metrics>")
t.ok(rcsv:find("\n2,adam lr=0.1,50,", 1, true),
     "csv: race CSV has the second run's rows")
t.is(select("#", rc:save(b)), 0,
     "csv: race:save returns nothing (the prompt echoes nothing; issue 10)")
t.is(slurp(b), rcsv, "csv: race file is race:csv()")

for _, name in ipairs{a, b, script, c1, c2, c3} do os.remove(name) end
t.done()
