-- tests/fuzz/gen.lua -- the fuzzer's grammar: input bytes -> statements.
--
-- Called once by tests/fuzz/fuzz.c with the registry REG (problems and
-- methods with their parameter tables, metric names, read from the core);
-- returns generate(bytes) -> a list of Lua statements, each run as its own
-- chunk like a line at the prompt, and "--@op args" harness actions (see
-- fuzz.c).  Every byte is one choice; past the end of the input every
-- choice reads 0, and generation stops.  Values are mostly sane (so runs
-- get somewhere) and often adversarial: NaN, +-inf, 0, negatives, 2^53,
-- 2^63, huge dimensions, wrong types, tables with holes; callbacks error,
-- loop, close their problem, re-enter it, and step jobs.

local REG = ...
local concat, fmt = table.concat, string.format

-- The API as this build has it, read once from optlab itself (opened in
-- the grammar's own state): the option keys run accepts (from its
-- unknown-option error) and the fields and methods of problems, runs,
-- jobs and races (their metatables' __fields / __index, as the REPL's
-- completion reads them).  New options and methods are fuzzed as soon as
-- they exist; the lists below are the fallback.
local OPTKEYS, FIELDS = {}, {}
do
  local ok, e = pcall(run, problem.quadratic{}, optim.gd{}, {bogus__ = 1})
  local list = not ok and tostring(e):match("%(valid: ([^)]*)%)")
  for k in (list or "iters, tol"):gmatch("[%w_]+") do
    OPTKEYS[#OPTKEYS + 1] = k
  end
  local reg = debug.getregistry()
  for _, ty in ipairs{"problem", "run", "job", "race"} do
    local mt, f = reg["optlab." .. ty], {}
    local t = type(mt) == "table" and (type(mt.__fields) == "table"
              and mt.__fields or type(mt.__index) == "table" and mt.__index)
    for k, v in pairs(t or {}) do
      f[#f + 1] = {name = k, call = type(v) == "function"}
    end
    table.sort(f, function (a, b) return a.name < b.name end)
    FIELDS[ty] = f
  end
end

local s, pos, len

local function byte ()
  pos = pos + 1
  if pos > len then return 0 end
  return s:byte(pos)
end

local function pick (t) return t[byte() % #t + 1] end
local function chance (k) return byte() % k == 0 end

-- How often a value is adversarial: 1 in adv, chosen per input by its
-- first byte, so some inputs are mostly sane (and get deep into runs)
-- and others mostly hostile.
local adv = 8
local function adverse () return byte() % adv == 0 end

-- == values ==================================================================

local ADVERSE = {
  "0/0", "1/0", "-1/0", "0", "-0.0", "-1", "-7", "2^53", "2^53 + 1", "2^63",
  "-2^63", "math.maxinteger", "math.mininteger", "2^31", "2^32", "1e300",
  "1e-300", "2^-1074", "1e8", "1e9", "0.5", "1.5", "4096", "4097", "1e6",
  "-1e-9", "3"
}
local SANE = {"0", "1", "2", "3", "0.5", "0.1", "1e-3", "1e-2", "10", "-1"}
local STRINGS = {
  '"x"', '""', '"10"', '"nan"', '"gauss"', '"simplex"', '"iter"',
  '"a\\0b"', "string.rep('a', 3000)"
}
local WRONG = {
  "true", "false", "nil", "{}", '"x"', "function() end", "print", "P1", "M1",
  "R1", "J1", "{1, nil, 3}", "{[1] = 1, [3] = 2}", "{n = 2}",
  "setmetatable({}, {__index = function() error('index') end})",
  "setmetatable({}, {__len = function() return 1e9 end})",
  "coroutine.create(print)"
}

local function num () return adverse() and pick(ADVERSE) or pick(SANE) end
local function wrong () return pick(WRONG) end

local function any ()
  local k = byte() % 8
  if k < 4 then return num()
  elseif k == 4 then return pick(STRINGS)
  else return wrong() end
end

local function list (elem, n)
  local t = {}
  for i = 1, n do t[i] = elem() end
  return "{" .. concat(t, ", ") .. "}"
end

-- A vector: usually of a small length matching the problems built here.
local function vec ()
  local k = byte() % 10
  if k < 6 then return list(num, byte() % 3 + 1)
  elseif k == 6 then return list(any, byte() % 4)
  elseif k == 7 then return "{1, nil, 3}"
  elseif k == 8 then return fmt("(function() local t = {} for i = 1, %s do "
                                .. "t[i] = 1 end return t end)()",
                                pick{"1e4", "0", "-1", "7"})
  else return any() end
end

local function mat ()
  local k = byte() % 8
  if k < 4 then
    local rows, cols, r = byte() % 3 + 1, byte() % 3 + 1, {}
    for i = 1, rows do r[i] = list(num, cols) end
    return "{" .. concat(r, ", ") .. "}"
  elseif k == 4 then return "{[1] = {1, 2}, [3] = {1, 2}}"
  elseif k == 5 then return "{{1, 2}, {3}}"
  elseif k == 6 then return "{{}, {}}"
  else return any() end
end

local function split (choices)
  local t = {}
  for c in choices:gmatch("[^|]+") do t[#t + 1] = c end
  return t
end

-- A value for parameter p: in range most of the time.
local DIMS = {n = true, d = true, m = true, k = true, r = true, batch = true,
              period = true}
local function param (p)
  if adverse() then return any() end
  if p.kind == "bool" then return pick{"true", "false"} end
  if p.kind == "enum" then
    local c = split(p.choices)
    if #c == 0 then return '"x"' end
    return fmt("%q", pick(c))
  end
  if p.kind == "vector" then return vec() end
  if p.kind == "matrix" then return mat() end
  if DIMS[p.name] and not adverse() then
    return tostring(byte() % 5 + 1)
  end
  local k = byte() % 6
  local function g (v)
    if v ~= v then return "0/0" elseif v == math.huge then return "1/0"
    elseif v == -math.huge then return "-1/0" end
    if p.kind == "int" and v == math.floor(v) and math.abs(v) < 2^53 then
      return fmt("%d", v)
    end
    return fmt("%.17g", v)
  end
  if k == 0 then return g(p.lo)
  elseif k == 1 then return g(p.hi)
  elseif k == 2 then return num()
  else return g(p.def) end
end

local function fields (params, extra)
  local t = {}
  for _, p in ipairs(params) do
    if chance(2) then t[#t + 1] = p.name .. " = " .. param(p) end
  end
  if extra then extra(t) end
  if adverse() and chance(4) then t[#t + 1] = "bogus = 1" end
  if adverse() and chance(4) then t[#t + 1] = "[1] = 2" end
  return "{" .. concat(t, ", ") .. "}"
end

-- == problems ================================================================

local PVARS = {"P1", "P2", "P3"}
local MVARS = {"M1", "M2", "M3"}
local RVARS = {"R1", "R2", "R3"}
local JVARS = {"J1", "J2"}
local OVARS = {"R1", "R2", "R3", "J1", "J2", "S1", "Q1", "C1"}
local METRICS = REG.metrics
local PANELS = {"landscape", "simplex"}

local function noise ()
  local t = {}
  if chance(2) then
    t[#t + 1] = "kind = " .. (chance(6) and any() or fmt("%q", pick{
      "gauss", "aniso", "student", "asym", "batch", "none", "bogus"}))
  end
  if chance(2) then t[#t + 1] = "sigma = " .. num() end
  if chance(3) then t[#t + 1] = "nu = " .. num() end
  if chance(3) then t[#t + 1] = "batch = " .. num() end
  if chance(4) then
    t[#t + 1] = "order = " .. fmt("%q", pick{"replace", "shuffle", "once",
                                             "cyclic", "x"})
  end
  if adverse() and chance(2) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

local function set ()
  local k = byte() % 5
  if k == 0 then return '"simplex"'
  elseif k == 1 then return fmt("{lo = %s, hi = %s}", num(), num())
  elseif k == 2 then return fmt("{lo = %s, hi = %s}", vec(), vec())
  elseif k == 3 then return "{lo = -1, hi = 1}"
  else return any() end
end

local function generic (t)
  if chance(8) then t[#t + 1] = "x0 = " .. vec() end
  if chance(8) then t[#t + 1] = "set = " .. set() end
  if chance(8) then t[#t + 1] = "l1 = " .. num() end
  if chance(6) then t[#t + 1] = "noise = " .. noise() end
end

local stmt   -- forward: statements inside callbacks and loops

-- The body of a callback (f, grad or fdf) of the problem in variable pv.
local function cbody (pv, what)
  local pre = {}
  local k = byte() % 24
  if k == 0 then pre[#pre + 1] = "error('cb')"
  elseif k == 1 then pre[#pre + 1] = "error(setmetatable({}, {__tostring = "
                                     .. "function() error('ts') end}))"
  elseif k == 2 then pre[#pre + 1] = "while true do end"
  elseif k == 3 then pre[#pre + 1] = pv .. ":close()"
  elseif k == 4 then pre[#pre + 1] = pv .. ":eval(x)"
  elseif k == 5 then pre[#pre + 1] = fmt("run(%s, optim.gd{}, {iters = 2})",
                                         pv)
  elseif k == 6 then pre[#pre + 1] = pick(JVARS) .. ":step(" .. pick{
                                       "1", "3", "-1"} .. ")"
  elseif k == 7 then pre[#pre + 1] = pick(JVARS) .. ":stop()"
  elseif k == 8 then pre[#pre + 1] = pick(RVARS) .. ":close()"
  elseif k == 9 then pre[#pre + 1] = pick(RVARS) .. ":continue(2)"
  elseif k == 10 then pre[#pre + 1] = "collectgarbage()"
  elseif k == 11 then pre[#pre + 1] = "x[1] = 0/0"
  elseif k == 12 then pre[#pre + 1] = "x[#x + 1] = 1"
  elseif k == 13 then pre[#pre + 1] = "coroutine.yield()"
  elseif k == 14 then pre[#pre + 1] = pick(PVARS) .. " = nil collectgarbage()"
  elseif k == 15 then pre[#pre + 1] = "for i = 1, #x do x[i] = nil end"
  elseif k == 16 then pre[#pre + 1] = pick(JVARS) .. ":wait()"
  elseif k == 17 then pre[#pre + 1] = stmt(1)
  end
  local ret
  if what == "f" then
    local r = byte() % 8
    if r < 4 then ret = "local s = 0 for i = 1, #x do s = s + x[i]^2 end "
                        .. "return s"
    elseif r == 4 then ret = "return " .. num()
    elseif r == 5 then ret = "return " .. any()
    elseif r == 6 then ret = "return x[1]"
    else ret = "return" end
  elseif what == "grad" then
    local r = byte() % 8
    if r < 4 then ret = "for i = 1, #g do g[i] = 2 * x[i] end"
    elseif r == 4 then ret = "return " .. vec()
    elseif r == 5 then ret = "return " .. any()
    elseif r == 6 then ret = "g[1] = nil"
    else ret = "for i = 1, #g do g[i] = " .. num() .. " end" end
  elseif what == "hess" then
    local r = byte() % 8
    if r < 4 then ret = "for i = 1, #x do for j = 1, #x do H[i][j] = i == j "
                        .. "and 2 or 0 end end"
    elseif r == 4 then ret = "return " .. mat()
    elseif r == 5 then ret = "return " .. any()
    elseif r == 6 then ret = "H[1] = nil"
    else ret = "for i = 1, #x do for j = 1, #x do H[i][j] = " .. num()
                .. " end end" end
  else
    local r = byte() % 6
    if r < 3 then ret = "local s = 0 for i = 1, #x do s = s + x[i]^2 if g "
                        .. "then g[i] = 2 * x[i] end end return s"
    elseif r == 3 then ret = "return " .. any()
    elseif r == 4 then ret = "if g then g[1] = 'x' end return 1"
    else ret = "return " .. num() .. ", " .. vec() end
  end
  pre[#pre + 1] = ret
  local args = what == "f" and "x" or what == "hess" and "x, H" or "x, g"
  return fmt("function(%s) %s end", args, concat(pre, " "))
end

local function newproblem (pv)
  local t = {}
  local k = byte() % 12
  local dims = {"1", "2", "3", "5", "1e3", "0", "-1", "1.5", "'2'", "2^53",
                "1e8", "nil"}
  t[#t + 1] = "n = " .. (k < 10 and tostring(k % 3 + 1) or pick(dims))
  local which = byte() % 5
  if which ~= 1 then t[#t + 1] = "f = " .. cbody(pv, "f") end
  if which == 1 or which == 2 then t[#t + 1] = "fdf = " .. cbody(pv, "fdf") end
  if which == 3 then t[#t + 1] = "grad = " .. cbody(pv, "grad") end
  if chance(4) then t[#t + 1] = "hess = " .. cbody(pv, "hess") end
  if which == 4 and chance(2) then t[#t + 1] = "f = " .. any() end
  if chance(8) then t[#t + 1] = "xstar = " .. vec() end
  if chance(6) then t[#t + 1] = "fstar = " .. (adverse() and any() or num())
  end
  if chance(6) then t[#t + 1] = "name = " .. any() end
  if chance(6) then
    t[#t + 1] = "kind = " .. pick{'"objective"', '"density"', '"game"', "1"}
  end
  generic(t)
  return "problem.new{" .. concat(t, ", ") .. "}"
end

local function problem (pv)
  if chance(3) then return newproblem(pv or pick(PVARS)) end
  if chance(20) then return pick{"problem.quadratic", "problem.new{}",
                                 "problem.rosenbrock(3)", "problem.new()"} end
  local t = pick(REG.problems)
  if t.name == "new" then return newproblem(pv or pick(PVARS)) end
  return "problem." .. t.name .. fields(t.params, generic)
end

-- == methods and options =====================================================

local function method ()
  local t = pick(REG.methods)
  if adverse() and chance(4) then
    return t.family .. "." .. t.name .. pick{"(5)", "()", "{'x'}"}
  end
  return t.family .. "." .. t.name .. fields(t.params)
end

local function ctor ()
  local t = pick(REG.methods)
  if chance(10) then return pick{"problem.quadratic", "print", "nil", "M1"} end
  return t.family .. "." .. t.name, t
end

local ITERS = {"0", "1", "2", "3", "5", "8", "10", "20", "50", "100", "1e3"}
local function iters ()
  if adverse() and chance(2) then
    return pick{"2^53", "2^63", "math.maxinteger", "-1", "1.5", "1e8", "'x'",
                "0/0", "1/0", "1e6"}
  end
  return pick(ITERS)
end

local function names (set)
  local t = {}
  for i = 1, byte() % 4 do
    t[i] = fmt("%q", adverse() and chance(2) and "bogus" or pick(set))
  end
  if adverse() and chance(4) then t[#t + 1] = "1" end
  return "{" .. concat(t, ", ") .. "}"
end

local function watchnames ()
  local set = {}
  for _, m in ipairs(METRICS) do set[#set + 1] = m end
  for _, m in ipairs(PANELS) do set[#set + 1] = m end
  return names(set)
end

local function schedule ()
  if chance(6) then return any() end
  local t = {}
  if chance(2) then
    t[#t + 1] = "kind = " .. fmt("%q", pick{"const", "step", "inv", "invsqrt",
                                            "cosine", "warmup", "x"})
  end
  if chance(2) then t[#t + 1] = "gamma = " .. num() end
  if chance(2) then t[#t + 1] = "period = " .. num() end
  return "{" .. concat(t, ", ") .. "}"
end

local function opts (banned)
  local t = {}
  local function opt (key, v)
    if not (banned and banned[key]) or chance(8) then
      t[#t + 1] = key .. " = " .. v
    end
  end
  opt("iters", iters())
  if chance(3) then opt("tol", num()) end
  if chance(6) then opt("time", pick{"0", "1e-3", "0.01", "-1", "0/0", "1/0",
                                     "'x'"}) end
  if chance(4) then opt("seed", adverse() and any() or tostring(byte())) end
  if chance(5) then opt("stream", adverse() and any() or tostring(byte() % 9))
  end
  if chance(8) then opt("x0", vec()) end
  if chance(3) then opt("metrics", adverse() and any() or names(METRICS)) end
  if chance(4) then opt("watch", adverse() and any() or watchnames()) end
  if chance(6) then opt("cap", pick{"16", "17", "64", "4096", "0", "-1",
                                    "2^31", "1e9", "'x'"}) end
  if chance(5) then opt("record_x", pick{"true", "false", "1", "'x'"}) end
  if chance(5) then opt("schedule", schedule()) end
  if chance(3) then opt("progress", pick{"true", "false", "1"}) end
  if chance(4) then opt("view", pick{"true", "false", "0"}) end
  if chance(5) then opt("xaxis", pick{'"iter"', '"evals"', '"time"', '"x"',
                                      "1"}) end
  if chance(5) then opt("average", pick{"true", "false", "'x'"}) end
  local done = {iters = 1, tol = 1, time = 1, seed = 1, stream = 1, x0 = 1,
                metrics = 1, watch = 1, cap = 1, record_x = 1, schedule = 1,
                progress = 1, view = 1, xaxis = 1, average = 1}
  for _, key in ipairs(OPTKEYS) do
    if not done[key] and chance(6) then
      if key == "stop_below" and not adverse() then
        opt(key, fmt("{%s = %s}", pick(METRICS), num()))
      else
        opt(key, adverse() and any() or num())
      end
    end
  end
  if adverse() and chance(4) then t[#t + 1] = "bogus = 1" end
  if adverse() and chance(4) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

local function pv () return chance(12) and problem() or pick(PVARS) end
local function mv () return chance(10) and method() or pick(MVARS) end
local function mlist ()
  local t = {}
  for i = 1, byte() % 3 + 1 do t[i] = mv() end
  if adverse() and chance(2) then t[#t + 1] = pick{"1", "P1", "optim.gd"} end
  return "{" .. concat(t, ", ") .. "}"
end

local function grid (info)
  local t = {}
  local params = info and info.params or {{name = "lr", kind = "real",
                                           lo = 0, hi = 1, def = 0.1}}
  for _, p in ipairs(params) do
    if chance(2) then
      local vals = {}
      for i = 1, byte() % 3 + (chance(8) and 0 or 1) do vals[i] = param(p) end
      t[#t + 1] = p.name .. " = {" .. concat(vals, ", ") .. "}"
    end
  end
  if chance(10) then t[#t + 1] = "bogus = {1}" end
  if chance(10) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

local function plotopts ()
  local t = {}
  if chance(2) then t[#t + 1] = "text = " .. pick{"true", "false"} end
  if chance(3) then t[#t + 1] = "file = " .. pick{'"p.svg"', '"a\\0b.svg"',
                                                  '""', '"/nonexistent/p.svg"',
                                                  '"."', "1"} end
  if chance(3) then t[#t + 1] = "watch = " .. watchnames() end
  if chance(4) then t[#t + 1] = "width = " .. pick{"40", "200", "1000",
                                                   "10000", "0", "-1", "0/0",
                                                   "1e9"} end
  if chance(4) then t[#t + 1] = "height = " .. pick{"8", "150", "200",
                                                    "10000", "0", "1e9"} end
  if chance(5) then t[#t + 1] = "xaxis = " .. pick{'"iter"', '"evals"',
                                                   '"time"', '"x"'} end
  if chance(10) then t[#t + 1] = "bogus = 1" end
  if chance(10) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

local FILES = {'"r.csv"', '"a\\0b.csv"', '""', '"/nonexistent/r.csv"', '"."',
               "1", "nil"}

-- == statements ==============================================================

-- o.<name> or o:<name>(args) for a field of the objects of type ty.
local function field (o, ty)
  local f = FIELDS[ty]
  if f == nil or #f == 0 then return "X = " .. o .. ".iter" end
  f = pick(f)
  if not f.call then return "X = " .. o .. "." .. f.name end
  local m = fmt("%q", pick(METRICS))
  return fmt("X = %s:%s(%s)", o, f.name, pick{"", m, m, iters(),
             plotopts(), pick(FILES), vec(), any()})
end

local function objcall (o)
  local k = byte() % 30
  local m = fmt("%q", chance(8) and "bogus" or pick(METRICS))
  if k == 0 then return o .. ":continue(" .. iters() .. ")"
  elseif k == 1 then return o .. ":series(" .. m .. ")"
  elseif k == 2 then return o .. ":last(" .. m .. ")"
  elseif k == 3 then return o .. ":traj()"
  elseif k == 4 then return o .. ":metrics()"
  elseif k == 5 then return o .. ":csv()"
  elseif k == 6 then return o .. ":save(" .. pick(FILES) .. ")"
  elseif k == 7 then return o .. ":plot(" .. plotopts() .. ")"
  elseif k == 8 then return o .. ":close()"
  elseif k == 9 then return "print(" .. o .. ")"
  elseif k == 10 then return "pretty(" .. o .. ")"
  elseif k == 11 then
    return "X = " .. o .. "." .. pick{"iter", "reason", "message", "seed", "x",
      "xavg", "budget", "nfev", "ngev", "nhev", "seconds", "label", "problem",
      "method", "state", "id", "iters", "elapsed", "run", "runs", "configs",
      "R", "names", "bogus"}
  elseif k == 12 then return o .. ":pause()"
  elseif k == 13 then return o .. ":resume()"
  elseif k == 14 then return o .. ":step(" .. pick{"0", "1", "3", "100", "-1",
                                                   "math.maxinteger", "2^63",
                                                   "'x'", ""} .. ")"
  elseif k == 15 then return o .. ":stop()"
  elseif k == 16 then return o .. ":wait()"
  elseif k == 17 then return "X = #" .. o
  elseif k == 18 then return "X = " .. o .. "[" .. pick{"1", "2", "0", "-1",
                                                        "1e9", "'x'"} .. "]"
  elseif k == 19 then return "X = " .. o .. ":best(" .. m .. ")"
  elseif k == 20 then return "X = " .. o .. ":values(" .. m .. ")"
  elseif k == 21 then return "X = " .. o .. ":quantile(" .. m .. ", "
                             .. num() .. ")"
  elseif k == 22 then return o .. ":series(" .. m .. ")"
  elseif k == 23 then return o .. ".run:continue(" .. iters() .. ")"
  elseif k == 24 then return o .. "[1]:close()"
  elseif k == 25 then return "help(" .. o .. ")"
  elseif k == 26 then return o .. ":continue(math.maxinteger)"
  elseif k <= 28 then return field(o, pick{"run", "job", "race"})
  else return "X = tostring(" .. o .. ")" end
end

local function problemcall (p)
  local k = byte() % 10
  if k == 0 then return p .. ":close()"
  elseif k == 1 or k == 2 then return "X = {" .. p .. ":eval(" .. vec() .. ")}"
  elseif k == 3 then
    return "X = " .. p .. "." .. pick{"n", "name", "kind", "desc", "x0",
      "xstar", "fstar", "l1", "noise", "bogus"}
  elseif k == 4 then return "X = tostring(" .. p .. ")"
  elseif k == 5 then return "help(" .. p .. ")"
  elseif k == 6 then return "do local q <close> = " .. p .. " end"
  elseif k <= 8 then return field(p, "problem")
  else return p .. " = nil" end
end

local SPECIAL = {
  "collectgarbage()", "collectgarbage('step')", "collectgarbage('incremental')",
  "collectgarbage('generational')", "X = jobs()", "print(jobs())",
  "X = metrics()", "help()", "help(run)", "help('metrics')", "help(optim.adam)",
  "help(problem.new)", "math = nil", "ipairs = nil", "pairs = nil",
  "string = nil", "table = nil", "tostring = nil", "type = nil",
  "setmetatable = nil", "optim.gd = nil", "problem = nil", "run = nil",
  "X = blas_threads()", "blas_threads(2)", "blas_threads(0)",
  "pretty(problem)", "pretty(X)", "X = nil", "X = optlab"
}

-- An object made, its problem closed, dropped or collected, then used:
-- the lifetimes a user can get wrong in one line.
local function lifetime ()
  local p, r = pick(PVARS), pick(byte() % 2 == 0 and RVARS or JVARS)
  local make = pick{"run(%s, %s, %s)", "start(%s, %s, %s)",
                    "race(%s, {%s}, %s)"}
  local kill = pick{p .. ":close()", p .. " = nil collectgarbage()",
                    p .. ":close() collectgarbage()",
                    "collectgarbage() collectgarbage()", "--@tick 2"}
  local pre = fmt("%s = " .. make, r, p, mv(), opts())
  if chance(4) then
    pre = fmt("do local q <close> = %s %s = " .. make .. " end", problem("q"),
              r, "q", mv(), opts())
    kill = "collectgarbage()"
  end
  if kill:sub(1, 3) == "--@" then return pre end
  local use = pick{"print(%s)", "%s:plot{text = true}", "%s:wait()",
                   "%s:step(3)", "%s:stop()", "%s:continue(3)",
                   "%s:save('r.csv')", "X = %s:series('loss')"}
  return pre .. " " .. kill .. " " .. (chance(3) and objcall(r)
                                         or fmt(use, r))
end

-- One statement; depth > 0 inside callbacks and loops (no more nesting).
function stmt (depth)
  local k = byte() % 24
  if k >= 22 then return lifetime() end
  if depth > 0 and (k == 16 or k == 17 or k == 18) then k = 0 end
  if k <= 1 then
    local v = pick(PVARS)
    return v .. " = " .. problem(v)
  elseif k == 2 then return pick(MVARS) .. " = " .. method()
  elseif k <= 4 then
    return pick(RVARS) .. " = run(" .. pv() .. ", " .. mv() .. ", " .. opts()
           .. ")"
  elseif k == 5 then
    return pick(RVARS) .. " = race(" .. pv() .. ", " .. mlist() .. ", "
           .. opts() .. ")"
  elseif k == 6 then
    return pick(JVARS) .. " = start(" .. pv() .. ", "
           .. (chance(3) and mlist() or mv()) .. ", " .. opts() .. ")"
  elseif k == 7 then
    local c, info = ctor()
    return "S1 = sweep(" .. pv() .. ", " .. c .. ", " .. grid(info) .. ", "
           .. opts() .. ")"
  elseif k == 8 then
    return "Q1 = repeats(" .. pv() .. ", " .. mv() .. ", " .. opts{stream = 1}
           .. ", " .. pick{"1", "2", "3", "0", "-1", "2^63", "1.5", "'x'",
                           "math.maxinteger", "nil"} .. ")"
  elseif k <= 11 then return objcall(pick(OVARS))
  elseif k == 12 then return problemcall(pick(PVARS))
  elseif k == 13 then return pick(SPECIAL)
  elseif k == 14 then
    return "do local p <close> = " .. problem("p") .. " " .. pick(RVARS)
           .. " = " .. pick{"run", "start"} .. "(p, " .. mv() .. ", "
           .. opts() .. ") end"
  elseif k == 15 then
    return fmt("for i = 1, %d do %s end", byte() % 4 + 1, stmt(depth + 1))
  elseif k == 16 then return "--@tick " .. byte() % 20 + 1
  elseif k == 17 then
    return fmt("--@ctl %d %d", byte() % 4, byte() % 4)
  elseif k == 18 then
    return pick{"--@view ", "--@intr "} .. byte() % 40
  elseif k == 19 then
    return fmt("C1 = coroutine.wrap(function() %s coroutine.yield() %s end) "
               .. "C1()", stmt(depth + 1), stmt(depth + 1))
  elseif k == 20 then return "C1()"
  else
    return pick(OVARS) .. " = " .. pick{"nil", "R1", "J1", "P1", "M1"}
  end
end

-- Objects that exist from the start, so statements have something to use.
local PROLOGUE = {
  "P1 = problem.rosenbrock{n = 2}",
  "P2 = problem.new{n = 2, f = function(x) return x[1]^2 + 3 * x[2]^2 end}",
  "P3 = problem.rps{}",
  "M1 = optim.gd{}", "M2 = optim.adam{lr = 0.01}", "M3 = game.rmplus{}"
}

return function (bytes)
  s, pos, len = bytes, 0, #bytes
  local out = {}
  adv = ({3, 6, 12, 24, 48, 96})[byte() % 6 + 1]
  for i = 1, #PROLOGUE do out[i] = PROLOGUE[i] end
  while pos < len and #out < 48 do out[#out + 1] = stmt(0) end
  return out
end
