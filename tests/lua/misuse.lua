-- tests/lua/misuse.lua -- wrong input gets a clear, short error and never
-- a wrong result (issue 9, item 6): iteration counts past 2^62, tables
-- with holes, echoes of huge strings, integer-valued floats, file names
-- with a NUL, a program that rebinds the globals the library uses, where
-- errors point, problems without parameters, samplers whose acceptance
-- says the step size is wrong.
local t = dofile("tests/lib/tap.lua")
local BIN = arg and arg[-1] or "./optlab"
local HERE = "tests/lua/misuse.lua:"

local function errmsg (f, ...)
  local ok, e = pcall(f, ...)
  return not ok and tostring(e) or nil
end

local p = problem.quadratic{n = 2}
local quiet = {iters = 3, progress = false}

-- (1) r:continue past the 2^62 budget: checked before adding
do
  local r = run(p, optim.gd{}, quiet)
  local e = errmsg(r.continue, r, math.maxinteger)
  t.ok(e and e:find("at most 2^62", 1, true),
       "misuse: r:continue(math.maxinteger) is out of range: " .. tostring(e))
  t.is(r.iter, 3, "misuse: ... and the run is unchanged")
  t.ok(errmsg(r.continue, r, (1 << 62) - 3 + 1),
       "misuse: r:continue to one past 2^62 is refused")
end

-- (1') a sampler's warmup past 2^62 (the fuzzer: math.maxinteger went
-- through a double back to a step count, undefined behaviour): refused
-- with its range; 2^62 itself is caught by warmup + iters
do
  local e = errmsg(run, problem.logreg{seed = 1}, sample.mala{},
                   {iters = 8, warmup = math.maxinteger, progress = false})
  t.ok(e and e:find("warmup = 9223372036854775807 is out of range [0, 2^62]",
                    1, true),
       "misuse: warmup = math.maxinteger is refused with its range: "
       .. tostring(e))
  e = errmsg(run, problem.logreg{seed = 1}, sample.mala{},
             {iters = 8, warmup = 1 << 62, progress = false})
  t.ok(e and e:find("warmup + iters is out of range", 1, true),
       "misuse: warmup = 2^62 with iters 8 is refused: " .. tostring(e))
end

-- (2) holes in tables of numbers and of rows
do
  local e = errmsg(problem.matrixgame, {A = {[1] = {1, 2}, [3] = {1, 2}}})
  t.ok(e and e:find("A has a hole", 1, true),
       "misuse: a matrix with a missing row is an error: " .. tostring(e))
  e = errmsg(problem.matrixgame, {A = {{1, 2}, {1, nil, 3}}})
  t.ok(e and e:find("hole", 1, true),
       "misuse: a row with a hole is an error: " .. tostring(e))
  e = errmsg(run, p, optim.gd{}, {x0 = {[1] = 1, [3] = 2}, progress = false})
  t.ok(e and e:find("x0 has a hole", 1, true),
       "misuse: an x0 with a hole is an error: " .. tostring(e))
end

-- (3) a 1 MB string is never echoed whole
do
  local huge = ("x"):rep(1 << 20)
  local e = errmsg(run, p, optim.gd{}, {iters = huge, progress = false})
  t.ok(e and #e < 200 and e:find("iters must be an integer, got a string",
                                 1, true),
       "misuse: a string for a number option says 'got a string' ("
       .. (e and #e or 0) .. " bytes)")
  e = errmsg(run, p, optim.gd{}, {[huge] = 1})
  t.ok(e and #e < 600 and e:find("unknown option 'xxxx", 1, true)
       and e:find("...'", 1, true),
       "misuse: an unknown 1 MB key is cut with '...' (" .. (e and #e or 0)
       .. " bytes)")
  e = errmsg(optim.bcd, {rule = huge})
  t.ok(e and #e < 400, "misuse: a 1 MB choice value is cut ("
       .. (e and #e or 0) .. " bytes)")
  e = errmsg(run, p, optim.gd{}, {schedule = {kind = huge}})
  t.ok(e and #e < 600, "misuse: a 1 MB schedule kind is cut ("
       .. (e and #e or 0) .. " bytes)")
  local r = run(p, optim.gd{}, quiet)
  e = errmsg(r.series, r, huge)
  t.ok(e and #e < 400, "misuse: a 1 MB metric name is cut ("
       .. (e and #e or 0) .. " bytes)")
end

-- (4) n = 1e3 is an integer, as the built-ins take it
do
  local ok, q = pcall(problem.new, {n = 1e3, f = function () return 0 end})
  t.ok(ok and q.n == 1000, "misuse: problem.new{n = 1e3} has n = 1000")
  t.ok(errmsg(problem.new, {n = 1.5, f = function () return 0 end}),
       "misuse: problem.new{n = 1.5} is refused")
end

-- (5) file names with a NUL
do
  local name = os.tmpname()
  os.remove(name)
  local r = run(p, optim.gd{}, quiet)
  local rc = race(p, {optim.gd{}, optim.adam{}}, quiet)
  t.ok(errmsg(r.save, r, name .. "\0.csv"),
       "misuse: r:save of a name with a NUL is an error")
  t.ok(errmsg(r.plot, r, {file = name .. "\0.svg"}),
       "misuse: r:plot of a file name with a NUL is an error")
  t.ok(errmsg(rc.save, rc, name .. "\0.csv"),
       "misuse: race:save of a name with a NUL is an error")
  local f = io.open(name)
  t.ok(f == nil, "misuse: ... and no file was written under the name cut "
       .. "at the NUL")
  if f then f:close() os.remove(name) end
end

-- (6) the library after the program rebinds the globals it uses
do
  local name = os.tmpname()
  local f = assert(io.open(name, "w"))
  f:write([[
local P, W = print, io.write
local p = problem.quadratic{n = 2}
local rc = race(p, {optim.gd{}, optim.adam{}}, {iters = 3, progress = false})
math, ipairs, pairs, string, table, type, tostring, select, error, pcall = nil
getmetatable, setmetatable, run = nil
io = nil
W(#rc:csv() > 0 and "csv ok\n" or "csv empty\n")
P(rc)
rc:series("loss")
help(optim.gd)
help()
pretty({1, 2, {a = 3}})
local q = repeats(p, optim.gd{}, {iters = 5}, 3)
P(q)
local s = sweep(p, optim.gd, {lr = {0.1, 0.2}}, {iters = 5})
P(s)
P("all done")
]])
  f:close()
  local h = assert(io.popen(BIN .. " --no-tui " .. name
                            .. " 2>&1; echo \"exit:$?\""))
  local out = h:read("a")
  h:close()
  os.remove(name)
  t.ok(out:find("all done\nexit:0", 1, true),
       "misuse: math, ipairs, ... = nil leaves help, pretty, race, repeats "
       .. "and sweep working")
  if not out:find("all done", 1, true) then t.diag(out) end
end

-- (7) where errors point, and what they say
do
  local function unknown () run(p, optim.gd{}, {bogus = 1}) end
  local e = errmsg(unknown)
  t.ok(e and e:find("^" .. HERE:gsub("%p", "%%%0") .. "%d+: run: unknown "
                    .. "option 'bogus'"),
       "misuse: an unknown option error carries the caller's file:line: "
       .. tostring(e))
  local function method () local m = optim.gd{bogus = 1} end
  e = errmsg(method)
  t.ok(e and e:find(HERE, 1, true) == 1,
       "misuse: an unknown parameter error carries file:line: "
       .. tostring(e))
  e = errmsg(problem.beale, {bogus = 1})
  t.ok(e and e:find("takes no parameters", 1, true)
       and not e:find("(valid: )", 1, true),
       "misuse: a problem without parameters says so: " .. tostring(e))
  local rc = race(p, {optim.gd{}, optim.adam{}}, quiet)
  local function series () local v = rc:series("nosuch") end
  e = errmsg(series)
  t.ok(e and e:find(HERE, 1, true) == 1
       and e:find("race:series: unknown metric 'nosuch'", 1, true),
       "misuse: a race:series error points at the caller's line: "
       .. tostring(e))
end

-- (8) a grad that returns a string or a number
do
  for _, v in ipairs{"s", 3} do
    local q = problem.new{n = 2, f = function () return 1 end,
                          grad = function () return v end}
    local r = run(q, optim.gd{}, quiet)
    t.ok(r.reason == "callback error" and r.message:find("grad returned a "
         .. type(v), 1, true),
         "misuse: grad returning a " .. type(v) .. " stops the run")
  end
end

-- (9) a MALA run whose acceptance is 0 or 1 says so
do
  local opts = {iters = 2000, progress = false}
  local hot = tostring(run(p, sample.mala{h = 1e6, warmup = 0}, opts))
  t.ok(hot:find("note: acceptance 0 over 2000 steps", 1, true)
       and hot:find("h is too large", 1, true),
       "misuse: mala h = 1e6: print(r) notes acceptance 0")
  local cold = tostring(run(p, sample.mala{h = 1e-300, warmup = 0}, opts))
  t.ok(cold:find("note: acceptance 1 over 2000 steps", 1, true)
       and cold:find("h is probably too small", 1, true),
       "misuse: mala h = 1e-300: print(r) notes acceptance 1")
  local fine = tostring(run(p, sample.mala{h = 0.1}, opts))
  t.ok(not fine:find("note: acceptance", 1, true),
       "misuse: mala h = 0.1 has no acceptance note")
  local h = assert(io.popen(BIN .. " --no-tui -e 'run(problem.quadratic{n=2},"
                            .. " sample.mala{h=1e6, warmup=0}, {iters=100})' 2>&1"))
  local out = h:read("a")
  h:close()
  t.ok(out:find("mala h=1e+06 warmup=0: note: acceptance 0 over 100 steps", 1, true),
       "misuse: ... and run says so on stderr")
  if sample.ula then
    local u = tostring(run(p, sample.ula{}, opts))
    t.ok(not u:find("note: acceptance", 1, true),
         "misuse: an unadjusted sampler (ula) gets no acceptance note")
  end
end

-- a NaN given to the new set, constraint and game keys is refused with
-- "nan" in the message (never "-nan"), and a NaN or failing constraint
-- stops an auglag run with that reason instead of crashing
for _, spec in ipairs({{set = {l2ball = 0/0}}, {set = {l1ball = 0/0}},
                       {l1 = 0/0}, {noise = {sigma = 0/0}}}) do
  spec.n = 2
  local ok, msg = pcall(problem.quadratic, spec)
  t.ok(not ok and msg:find("= nan is out of range", 1, true)
       and not msg:find("-nan", 1, true), "misuse: NaN refused: " .. msg)
end
do
  local p = problem.new{n = 2, f = function (x) return x[1] end,
    constraints = {{kind = "ineq", c = function () return 0/0 end}}}
  local r = run(p, optim.auglag{}, {iters = 5, progress = false})
  t.is(r.reason, "non-finite", "misuse: a NaN constraint stops auglag "
       .. "(non-finite)")
  local q = problem.new{n = 2, f = function (x) return 0 end,
    constraints = {{kind = "eq", c = function () error("boom") end}}}
  local r2 = run(q, optim.auglag{}, {iters = 3, progress = false})
  t.ok(r2.reason == "callback error" and r2.message:find("boom", 1, true),
       "misuse: a failing constraint stops auglag with its message")
  local ok, msg = pcall(problem.matrixgame, {A = {{0/0}}})
  t.ok(not ok and msg:find("non-finite", 1, true),
       "misuse: a NaN payoff is refused")
end
-- the prompt's derivatives refuse a non-finite point or direction, and a
-- diffusion run's samples out of range says so once
do
  local sq = function (x) return x[1] ^ 2 + x[2] ^ 2 end
  for _, c in ipairs{
      {"grad: x[1] = nan is not finite", function () grad(sq, {0/0, 1}) end},
      {"hessian: x[2] = inf is not finite",
       function () hessian(sq, {1, 1/0}) end},
      {"hvp: v[2] = -inf is not finite",
       function () hvp(sq, {1, 1}, {0, -1/0}) end},
      {"run: samples = 1e+12 is out of range [1, 1e+07]",
       function () run(problem.gmm{}, diffusion.ddpm{}, {samples = 1e12}) end}} do
    local ok, msg = pcall(c[2])
    t.ok(not ok and tostring(msg):find(c[1], 1, true) ~= nil,
         "misuse: " .. c[1] .. " (" .. tostring(msg) .. ")")
  end
end
-- a dense n x n method on a problem past 46340 coordinates: n * n
-- overflowed int (UBSan, found by the fuzzer with cubic on lowrank{r =
-- 1000}, n = 50000); now a named refusal before any allocation
do
  local P = problem.lowrank{r = 1000, seed = 1}
  for _, m in ipairs{optim.cubic{}, optim.newton{}} do
    local ok, msg = pcall(run, P, m, {iters = 1})
    t.ok(not ok and tostring(msg):find("50000 x 50000 dense matrix", 1, true)
         ~= nil, "misuse: " .. m.name .. " on n = 50000 is refused ("
         .. tostring(msg) .. ")")
  end
end
t.done()
