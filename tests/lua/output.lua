-- tests/lua/output.lua -- what print(r), print(race), print(jobs()),
-- pretty and race:save show: the stop line of a run stopped by j:stop(),
-- no "-nan" and no "-0", the final x as "x: ... (n=100)", the evaluation
-- counts with finite differences named, a game's strategies and value,
-- the race table's evaluation and time columns, aligned jobs() columns
-- for long counts.  All runs are deterministic (seed 1, fixed budgets).
local t = dofile("tests/lib/tap.lua")
local Q = {progress = false, view = false}

local function opts (o)
  local r = {}
  for k, v in pairs(Q) do r[k] = v end
  for k, v in pairs(o) do r[k] = v end
  return r
end
local function has (s, sub) return s:find(sub, 1, true) ~= nil end

-- (1) a run stopped by j:stop(): not "stopped: stopped"
local j = start(problem.quadratic{n = 2}, optim.gd{}, {iters = 1e9})
j:step(10)
j:stop()
local s = tostring(j.run)
t.ok(has(s, "\n  stopped: by request (j:stop() or q) after 10 iterations ("),
     "j:stop(): the stop line says who stopped it")
t.ok(not has(s, "stopped: stopped"), "j:stop(): no 'stopped: stopped'")
s = tostring(run(problem.quadratic{n = 2}, optim.gd{lr = 1},
                 opts{iters = 5000, tol = 1e-8}))
t.ok(s:find("\n  stopped: tolerance after %d+ iterations %([%d.e+-]+ s%)\n"),
     "a tolerance stop keeps 'stopped: tolerance after N iterations (t s)'")
-- a callback error's traceback is indented under "message:", the summary
-- keeping its shape (it ran from column 0 into what followed before)
do
  local pe = problem.new{n = 1, f = function (x)
    if x[1] < 0.5 then error("f: boom") end
    return x[1] ^ 2 end, grad = function (x, g) g[1] = 2 * x[1] end}
  local re = run(pe, optim.gd{lr = 0.8}, opts{iters = 10, x0 = {1}})
  local after = tostring(re):match("\n  message: [^\n]*(.*)$") or "?"
  local flush = true
  for line in after:gmatch("\n([^\n]*)") do
    if not line:find("^    ") then flush = false end
  end
  t.ok(after:find("stack traceback", 1, true) ~= nil and flush,
       "a callback error's traceback is indented under message: " .. after)
end
-- one iteration is singular (an infeasible sqp run often stops after 1)
s = tostring(run(problem.quadratic{n = 2}, optim.gd{lr = 0.1}, opts{iters = 1}))
t.ok(has(s, "\n  stopped: budget after 1 iteration ("),
     "'after 1 iteration', not '1 iterations': " .. s:match("stopped: [^\n]*"))

-- (2) final x and evaluation counts
local r = run(problem.rosenbrock{n = 100}, optim.gd{lr = 1e-4}, opts{iters = 50})
s = tostring(r)
t.ok(s:find("\n  x: %-?[%d.]+ %-?[%d.]+ %-?[%d.]+ %-?[%d.]+ %-?[%d.]+ %-?[%d.]+ "
            .. "%.%.%. %(n=100%)"), "x: the first 6 coordinates, then (n=100)")
t.ok(has(s, "\n  evaluations: " .. r.nfev .. " f, " .. r.ngev .. " g"),
     "evaluations: f and g counts")
t.ok(not has(s, "finite differences"), "an analytic gradient: no FD note")
r = run(problem.new{n = 2, f = function (x) return (x[1] - 1)^2 + x[2]^2 end,
                    x0 = {0, 1}, ad = false}, optim.gd{lr = 0.1},
        opts{iters = 20})
s = tostring(r)
t.ok(has(s, "\n  evaluations: " .. r.nfev .. " f, " .. r.ngev
            .. " g (g by finite differences)"),
     "a problem without grad, ad = false: finite differences named")
-- gd with lr 0.1 on (x1 - 1)^2 + x2^2 from (0, 1): x2 = 0.8^20, x1 = 1 - x2
-- (central differences are exact on a quadratic up to rounding, far
-- below the 6 digits shown)
t.ok(has(s, string.format("\n  x: %.6g %.6g", 1 - 0.8^20, 0.8^20))
     and not has(s, "(n="),
     "x of a 2-D run: both coordinates (1 - 0.8^20, 0.8^20), no (n=...)")

-- (3) no -nan, no -0
r = run(problem.new{n = 1, f = function () return -0.0 end,
                    grad = function (_, g) g[1] = -0.0 end},
        optim.gd{}, opts{iters = 3})
s = tostring(r)
t.ok(s:find("final: loss 0[ \n]") ~= nil and not s:find("%-0[ \n]"),
     "a loss of -0 prints as 0: " .. s:match("final:[^\n]*"))
r = run(problem.new{n = 1, f = function (x) return x[1] * 0 / 0 end,
                    grad = function (_, g) g[1] = 1 end}, optim.gd{},
        opts{iters = 3})
s = tostring(r)
t.ok(not has(s, "-nan"), "a NaN objective: no -nan in print(r)")
t.ok(has(s, "stopped: non-finite"), "a NaN objective stops as non-finite")

-- (4) a game run: strategies and value
r = run(problem.rps{}, game.rmplus{}, opts{iters = 1000})
s = tostring(r)
local x1, x2, x3 = s:match("\n  average strategies: row x: ([%d.]+) ([%d.]+) "
                           .. "([%d.]+); column y: [%d.]+ [%d.]+ [%d.]+\n")
t.ok(x1 ~= nil, "rps: each player's average strategy")
t.ok(x1 and math.abs(x1 + x2 + x3 - 1) < 1e-5
     and math.abs(x1 - 1/3) < 0.02, "rps: row strategy sums to 1, near 1/3 "
     .. "(RM+ after 1000 steps, exploitability < 0.02)")
local v = tonumber(s:match("\n  value x'Ay: (%S+) %(the game's value: 0%)"))
t.ok(v and math.abs(v) < 1e-3, "rps: the value x'Ay near the game's value 0")

-- (5) the race table
local rc = race(problem.quadratic{n = 2}, {optim.gd{}, optim.adam{lr = 0.1}},
                opts{iters = 100})
s = tostring(rc)
local lines = {}
for l in s:gmatch("[^\n]+") do lines[#lines + 1] = l end
t.ok(lines[2]:match("^  #  method +reason +iters +grads +time +loss +gradnorm$"),
     "race table header: iters, grads (evaluations), time, loss, gradnorm")
t.ok(lines[3]:match("^  1  gd lr=0%.001  budget +100 +100 +[%d.e+-]+ s +0%.795 +1%.26$"),
     "race table row 1: " .. lines[3])
t.ok(lines[4]:match("^  2  adam lr=0%.1 +budget +100 +100 +[%d.e+-]+ s +8%.37e%-06 +0%.00409$"),
     "race table row 2: " .. lines[4])
t.is(#lines[3], #lines[4], "race table rows are aligned")

-- (6) jobs() columns for long counts
local js = {}
for i, iters in ipairs{1e9, 4e18, 1000} do
  js[i] = start(problem.quadratic{n = 2}, optim.gd{}, {iters = iters})
  js[i]:step(10 ^ i)
end
js[3]:wait()
s = tostring(jobs())
local col
local aligned = true
for l in s:gmatch("[^\n]+") do
  if not l:find("^  id ") then
    local c = l:find("gd lr=", 1, true)
    col = col or c
    aligned = aligned and c == col
  end
end
t.ok(has(s, "10/1000000000 ") and has(s, "100/4000000000000000000 ")
     and has(s, "1000/1000 "), "jobs(): iteration/budget, in full")
t.ok(aligned and col ~= nil, "jobs(): the label column is aligned")
for _, jj in ipairs(js) do jj:stop() end

-- (7) pretty returns its text; race:save returns nothing
local tmp = os.tmpname()
local old = io.output()
io.output(tmp)
local text = pretty({1, 2, {a = 3}})
io.output():close()
io.output(old)
local fh = assert(io.open(tmp))
local printed = fh:read("a")
fh:close()
t.is(text, "{1, 2, {a = 3}}", "pretty returns the text")
t.is(printed, "", "pretty called from Lua prints nothing")
-- families whose methods evaluate neither f nor g say what they use
-- instead of "0 f, 0 g", which reads as a run that did no work
for _, c in ipairs{
    {problem.gmm{}, diffusion.ddpm{}, "no f or g; the target's score"},
    {problem.ssm{}, smc.paris{},
     "no f or g; the model's transition and observation densities"}} do
  r = run(c[1], c[2], opts{iters = 3})
  s = tostring(r)
  t.ok(r.nfev == 0 and r.ngev == 0 and has(s, "\n  evaluations: " .. c[3])
       and not has(s, "0 f, 0 g"),
       tostring(r.method) .. ": " .. s:match("evaluations: [^\n]*"))
end
t.is(pretty(1, "a", nil), '1\t"a"\tnil', "pretty: several values, tab separated")
t.is(select("#", rc:save(tmp)), 0, "race:save returns nothing")
os.remove(tmp)

t.done()
