-- tests/fuzz/gen.lua -- the fuzzer's grammar: input bytes -> statements.
--
-- Loaded once by tests/fuzz/fuzz.c in its own Lua state, where optlab is
-- opened as at the prompt; returns generate(bytes) -> a list of Lua
-- statements, each run as its own chunk like a line at the prompt, and
-- "--@op args" harness actions (see fuzz.c).  Every byte is one choice;
-- past the end of the input every choice reads 0, and generation stops.
--
-- Nothing about the API is listed here that optlab can tell: at load time
-- the grammar reads, from this Lua state,
--   - the method families and their methods with their parameter tables
--     (kinds, ranges, choices), and the problem types with theirs, from
--     the library's own info tables (the ones help() prints);
--   - which problem types each method runs on (one 1-iteration run of
--     every method on every default problem), so that runs often pair a
--     method with a problem it accepts and get deep;
--   - every other global function and every function of a global table
--     that is not Lua's own (grad, hessian, hvp, tape, dist.compress,
--     problem.density, diag.*, lpdf.*, ... whichever this tree has), with
--     the keys their option tables take (from their "unknown key ...
--     (valid: ...)" errors);
--   - the functions optlab adds to math (traced like math.exp);
--   - the fields and methods of problems, runs, jobs and races (their
--     metatables, as the REPL's completion reads them).
-- So a new method, family or entry point is fuzzed as soon as it exists.
-- Entry points the grammar knows the shape of get their own generator
-- (below, "known entry points"); any other is called with arguments drawn
-- from every kind of value the grammar makes.
--
-- Values are mostly sane (so runs get somewhere) and often adversarial:
-- NaN, +-inf, 0, negatives, 2^53, 2^63, huge dimensions, wrong types,
-- tables with holes.  User callbacks (f, grad, fdf, hess, logp, constraint
-- functions and their gradients, payoff functions, any function argument)
-- return NaN, inf, wrong lengths and wrong types, error, loop forever,
-- re-enter optlab (run, start, grad inside a callback), close or drop
-- their problem, step and stop jobs, and yield (coroutine.yield inside a
-- callback; runs inside coroutines).  Sizes and budgets are small by
-- default, so an input costs milliseconds; one input in 64 is "long"
-- (--@long: larger sizes, budgets and time limits).

local concat, fmt = table.concat, string.format

-- == the API, read from this state ==========================================

local STD = {}
for k in ([[_G _VERSION assert collectgarbage coroutine debug dofile error
  getmetatable io ipairs load loadfile math next os package pairs pcall print
  rawequal rawget rawlen rawset require select setmetatable string table
  tonumber tostring type utf8 warn xpcall arg]]):gmatch("%S+") do
  STD[k] = true
end
local STDMATH = {}
for k in ([[abs ceil cos deg exp floor fmod huge log max maxinteger min
  mininteger modf pi rad random randomseed sin sqrt tan tointeger type ult
  acos asin atan]]):gmatch("%S+") do
  STDMATH[k] = true
end

-- The library's internal table (core.methods, core.problems, core.ctors,
-- core.metrics): in the registry, or an upvalue of help.
local core
for _, v in pairs(debug.getregistry()) do
  if type(v) == "table" and type(rawget(v, "ctors")) == "table"
     and type(rawget(v, "methods")) == "table" then
    core = v
    break
  end
end
if core == nil and type(help) == "function" then
  for i = 1, 255 do
    local n, v = debug.getupvalue(help, i)
    if n == nil then break end
    if n == "core" and type(v) == "table" then core = v break end
  end
end
assert(core, "gen.lua: the library's core table not found")

-- PATH[fn] = "tab.key" or "name": how a program spells every function.
local PATH, GLOBALS = {}, {}
for k, v in pairs(_G) do
  if type(k) == "string" and not STD[k] and k ~= "optlab" then
    GLOBALS[#GLOBALS + 1] = k
  end
end
table.sort(GLOBALS)
GLOBALS[#GLOBALS + 1] = "optlab"    -- last: optlab.now, optlab.format
for _, k in ipairs(GLOBALS) do
  local v = _G[k]
  if type(v) == "function" then PATH[v] = PATH[v] or k
  elseif type(v) == "table" then
    for kk, vv in pairs(v) do
      if type(kk) == "string" and type(vv) == "function" then
        PATH[vv] = PATH[vv] or (k .. "." .. kk)
      end
    end
  end
end

local function byname (a, b) return a.path < b.path end

-- Methods (every family), problem types.
local METHODS, FAMILIES = {}, {}
do
  local seen = {}
  for _, m in ipairs(core.methods) do
    local p = PATH[m.ctor] or (m.family .. "." .. m.name)
    METHODS[#METHODS + 1] = {name = m.name, family = m.family, path = p,
                             params = m.params or {}, ctor = m.ctor}
    if not seen[m.family] then
      seen[m.family] = true
      FAMILIES[#FAMILIES + 1] = m.family
    end
  end
end
local PROBLEMS = {}
for _, p in ipairs(core.problems) do
  PROBLEMS[#PROBLEMS + 1] = {name = p.name, kind = p.kind, params = p.params
                             or {}, generic = p.generic or {}, ctor = p.ctor,
                             path = PATH[p.ctor] or ("problem." .. p.name)}
end
local METRICS = {}
for _, m in ipairs(core.metrics or {}) do
  METRICS[#METRICS + 1] = type(m) == "table" and m.name or tostring(m)
end
if #METRICS == 0 then METRICS = {"loss"} end

-- Every other function of the API: ENTRY[path] = true.
local ENTRIES, ISCTOR = {}, {}
for _, m in ipairs(METHODS) do ISCTOR[m.ctor] = true end
for _, p in ipairs(PROBLEMS) do ISCTOR[p.ctor] = true end
for fn, p in pairs(PATH) do
  if not ISCTOR[fn] then ENTRIES[#ENTRIES + 1] = {path = p, fn = fn} end
end
table.sort(ENTRIES, byname)
local HAS = {}
for _, e in ipairs(ENTRIES) do HAS[e.path] = e end

-- Functions optlab adds to math (lgamma, log_sum_exp, ...).
local MATHX = {}
for k, v in pairs(math) do
  if type(v) == "function" and not STDMATH[k] then MATHX[#MATHX + 1] = k end
end
table.sort(MATHX)
local MATHF = {"exp", "log", "sqrt", "sin", "cos", "tan", "atan", "abs",
               "floor", "ceil"}
for _, k in ipairs(MATHX) do MATHF[#MATHF + 1] = k end

-- The keys a function's option table takes, from its "unknown ...
-- (valid: a, b, c)" error; call builds the call from the table.
local function keysof (call)
  local ok, e = pcall(call, {bogus__ = 1})
  local list = not ok and tostring(e):match("%(valid: ([^)]*)%)")
  if not list then return nil end
  local t = {}
  for k in list:gmatch("[%w_]+") do t[#t + 1] = k end
  return t
end

local QUAD = problem and problem.quadratic and problem.quadratic{} or nil
local GD = optim and optim.gd and optim.gd{} or nil
local OPTKEYS = keysof(function (o) return run(QUAD, GD, o) end)
                or {"iters", "tol"}
local KEYS = {}
local NOPROBE = {help = 1, pretty = 1, jobs = 1, blas_threads = 1,
                 metrics = 1, run = 1, start = 1, race = 1, repeats = 1,
                 sweep = 1}
for _, e in ipairs(ENTRIES) do
  if NOPROBE[e.path] then goto next end
  -- one option table: problem.new{...}, problem.density{...}
  local k = keysof(function (o) return e.fn(o) end)
  -- a value then options: problem.workers(p, {...}), dist.compress(v, {...})
  if not k then
    k = keysof(function (o) return e.fn(QUAD, o) end)
        or keysof(function (o) return e.fn({1, 2, 3}, o) end)
  end
  KEYS[e.path] = k
  ::next::
end

-- ACCEPTS[path] = the problem types an entry point taking (problem,
-- options) accepts with empty options (problem.workers: finite sums).
local ACCEPTS = {}
do
  local made = {}
  for _, p in ipairs(PROBLEMS) do
    local ok, obj = pcall(p.ctor, {})
    if ok then made[#made + 1] = {info = p, obj = obj} end
  end
  for _, e in ipairs(ENTRIES) do
    if KEYS[e.path] and pcall(e.fn, QUAD, {}) ~= nil
       and not pcall(e.fn, {bogus__ = 1}) then
      local l = {}
      for _, p in ipairs(made) do
        if pcall(e.fn, p.obj, {}) then l[#l + 1] = p.info end
      end
      ACCEPTS[e.path] = l
    end
  end
end

-- The fields and methods of the objects, from their metatables.
local FIELDS = {}
do
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

-- COMPAT[m] = the problem types method m runs on (a 1-iteration run of m
-- on each default problem succeeds); KINDS[m][kind] when one of them is of
-- that kind (so problem.new / problem.density of it fit m too).
local COMPAT, KINDS, CONSTR = {}, {}, {}
do
  local made = {}
  for _, p in ipairs(PROBLEMS) do
    local ok, obj = pcall(p.ctor, {})
    if ok then made[#made + 1] = {info = p, obj = obj} end
  end
  for _, m in ipairs(METHODS) do
    local list, kinds = {}, {}
    local ok, M = pcall(m.ctor, {})
    if ok then
      for _, p in ipairs(made) do
        if pcall(run, p.obj, M, {iters = 1, warmup = 0}) then
          list[#list + 1] = p.info
          kinds[p.info.kind] = true
        end
      end
    end
    COMPAT[m] = list
    KINDS[m] = kinds
  end
  -- CONSTR[m]: m runs on a problem with general constraints (auglag, sqp)
  local okc, pc = pcall(problem.new, {n = 2, f = function (x)
    return x[1]^2 + x[2]^2 end, constraints = {{kind = "ineq",
    c = function (x) return 1 - x[1] end}}})
  for _, m in ipairs(METHODS) do
    local ok, M = pcall(m.ctor, {})
    CONSTR[m] = okc and ok and pcall(run, pc, M, {iters = 1}) or nil
  end
  for _, p in ipairs(made) do pcall(p.obj.close, p.obj) end
  collectgarbage()
end

-- Size-like parameters (a dimension, a count of samples, steps, nodes):
-- the grammar keeps them small unless an input is long.
local DIMS = {n = true, d = true, m = true, k = true, r = true, batch = true,
              period = true, N = true, L = true, V = true, T = true,
              steps = true, nodes = true, workers = true, horizon = true,
              states = true, actions = true, samples = true, draws = true,
              group = true, particles = true, mc = true, responses = true}
local function sizeish (p)
  local def = p.default or p.def
  return p.kind == "int" and (DIMS[p.name] or (type(def) == "number"
                                               and def >= 50))
end

-- {name = smallest size} for the size-like parameters of a table.
local function small (params)
  local t = {}
  for _, p in ipairs(params) do
    if sizeish(p) then
      local v = math.max(type(p.lo) == "number" and p.lo or 1, 2)
      local def = p.default or p.def
      if type(def) == "number" and def < v then v = def end
      t[p.name] = math.floor(v)
    end
  end
  return t
end

-- OPTSANE[family][key] = values run accepts for option key with a method
-- of that family (each tried alone in a 1-iteration run of its first
-- method on a problem it runs on), and OKMETRICS[family] the metrics it
-- records; so options and metrics the grammar has no generator for get
-- values that let the run go on.
local OPTSANE, OKMETRICS = {}, {}
do
  local CAND = {"true", "false", "1", "2", "3", "0", "10", "0.5", "1e-3",
                '"iter"', '"evals"', '"time"', '"rounds"', '"bits"',
                '"max"', '"loss"', '{"loss"}', "{loss = 1e-3}", "{}"}
  local vals = {}
  for i, c in ipairs(CAND) do vals[i] = load("return " .. c)() end
  for _, fam in ipairs(FAMILIES) do
    -- the family's cheapest pair (of a few) to try options on
    local M, P, best = nil, nil, math.huge
    for _, m in ipairs(METHODS) do
      if m.family == fam then
        for i = 1, math.min(#COMPAT[m], 3) do
          local ok1, mo = pcall(m.ctor, small(m.params))
          local ok2, po = pcall(COMPAT[m][i].ctor, small(COMPAT[m][i].params))
          local t0 = os.clock()
          if ok1 and ok2 and pcall(run, po, mo, {iters = 1, warmup = 0})
             and os.clock() - t0 < best then
            M, P, best = mo, po, os.clock() - t0
          end
        end
      end
    end
    local sane, mets = {}, {}
    if M then
      for _, key in ipairs(OPTKEYS) do
        local ok = {}
        for i, c in ipairs(CAND) do
          local o = {iters = 1, warmup = 0}
          o[key] = vals[i]
          if pcall(run, P, M, o) then ok[#ok + 1] = c end
          if #ok >= 3 then break end
        end
        sane[key] = ok
      end
      -- the metrics that apply, by halving the list where a run refuses
      local function split (l)
        if #l == 0 then return end
        if pcall(run, P, M, {iters = 1, warmup = 0, metrics = l}) then
          for _, mt in ipairs(l) do mets[#mets + 1] = mt end
        elseif #l > 1 then
          local a, b = {}, {}
          for i, mt in ipairs(l) do
            if i <= #l // 2 then a[#a + 1] = mt else b[#b + 1] = mt end
          end
          split(a)
          split(b)
        end
      end
      split(METRICS)
      pcall(P.close, P)
    end
    OPTSANE[fam] = sane
    OKMETRICS[fam] = #mets > 0 and mets or {"loss"}
  end
  collectgarbage()
end

-- Named results of method states (r.<name>, ol_method_result): not in any
-- table, so listed.
local RESULTS = {"mean", "cov", "samples", "shares", "shares_se", "q",
                 "workers", "mixing", "graph", "lambda", "zl", "zu"}

-- == choices =================================================================

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
-- and others mostly hostile.  long: this input may be big and slow.
local adv, long = 8, false
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
  "coroutine.create(print)", "X", "T1", "{{1, 2}, {3}}", "{0/0, 1/0}"
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

local function bigdim ()
  if long then return pick{"100", "1000", "1e4", "2000"} end
  return pick{"20", "50", "7"}
end

-- A vector: usually of a small length matching the problems built here.
local function vec ()
  local k = byte() % 10
  if k < 6 or not adverse() then return list(num, pick{3, 3, 2, 1})
  elseif k == 6 then return list(any, byte() % 4)
  elseif k == 7 then return "{1, nil, 3}"
  elseif k == 8 then return fmt("(function() local t = {} for i = 1, %s do "
                                .. "t[i] = 1 end return t end)()",
                                pick{bigdim(), "0", "-1", "7"})
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

-- Draws as users bring them: chains of scalars or of vectors, ragged,
-- empty, constant, with NaN; or a run's.
local function chains ()
  local k = byte() % 10
  local function chain (len, vecs)
    local t = {}
    for i = 1, len do
      if vecs then t[i] = fmt("{%s, %s}", num(), pick{"1", "2", "0.5"})
      else t[i] = chance(3) and num() or tostring(byte() % 17 / 4) end
    end
    return "{" .. concat(t, ", ") .. "}"
  end
  if k < 4 then
    local c, l, t = byte() % 4 + 1, byte() % 8 + 1, {}
    for i = 1, c do t[i] = chain(l, k == 3) end
    return "{" .. concat(t, ", ") .. "}"
  elseif k == 4 then return fmt("{%s, %s}", chain(byte() % 6 + 1),
                                chain(byte() % 6 + 1))
  elseif k == 5 then return pick{"{}", "{{}}", "{{}, {}}", "{{1}}",
                                 "{{1, 1, 1}, {1, 1, 1}}",
                                 "{{0/0, 1}, {1, 2}}", "{{1/0, 2}, {3, 4}}"}
  elseif k == 6 then
    return fmt("(function() local c = {} for j = 1, %s do c[j] = {} for i = "
               .. "1, %s do c[j][i] = math.sin(i * j) end end return c end)()",
               pick{"2", "4"}, long and pick{"1000", "1e4"}
                                     or pick{"10", "100", "7"})
  elseif k == 7 then return pick{"R1:draws()", "R1:samples()", "R2:draws()",
                                 "R1", "R2"}
  else return any() end
end

local function split (choices)
  local t = {}
  if type(choices) == "table" then
    for _, c in ipairs(choices) do t[#t + 1] = c end
  elseif type(choices) == "string" then
    for c in choices:gmatch("[^|]+") do t[#t + 1] = c end
  end
  return t
end

-- A value for parameter p: in range most of the time, small where the
-- parameter is a size (unless the input is long).
local function g17 (p, v)
  if type(v) ~= "number" then return "0" end
  if v ~= v then return "0/0" elseif v == math.huge then return "1/0"
  elseif v == -math.huge then return "-1/0" end
  if p.kind == "int" and v == math.floor(v) and math.abs(v) < 2^53 then
    return fmt("%d", v)
  end
  return fmt("%.17g", v)
end
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
  local def = p.default or p.def
  if sizeish(p) then
    if long and chance(3) then return g17(p, p.hi) end
    if long and chance(2) then return bigdim() end
    local lo = type(p.lo) == "number" and p.lo > -1e9 and p.lo or 0
    return g17(p, math.max(lo, 0) + byte() % 5 + (lo < 1 and 1 or 0))
  end
  local k = byte() % 8
  if k == 0 and not p.open_lo then return g17(p, p.lo)
  elseif k == 1 and not p.open_hi and (long or p.kind ~= "int") then
    return g17(p, p.hi)
  elseif k == 2 and type(def) == "number" and p.kind ~= "int" then
    return g17(p, def * pick{0.5, 2, 0.1, 1.5})
  else return g17(p, def) end
end

local function fields (params, extra)
  local t = {}
  for _, p in ipairs(params) do
    if chance(2) or (sizeish(p) and not long and not chance(8)) then
      t[#t + 1] = p.name .. " = " .. param(p)
    end
  end
  if extra then extra(t) end
  if adverse() and chance(4) then t[#t + 1] = "bogus = 1" end
  if adverse() and chance(4) then t[#t + 1] = "[1] = 2" end
  return "{" .. concat(t, ", ") .. "}"
end

-- == variables ===============================================================

local PVARS = {"P1", "P2", "P3"}
local MVARS = {"M1", "M2", "M3"}
local RVARS = {"R1", "R2", "R3"}
local JVARS = {"J1", "J2"}
local OVARS = {"R1", "R2", "R3", "J1", "J2", "S1", "Q1", "C1", "X"}
local PANELS = {"landscape", "simplex"}

local stmt       -- forward: statements inside callbacks and loops
local cb         -- forward: a callback
local problem    -- forward
local method     -- forward
local opts       -- forward

-- == traced expressions ======================================================

-- An expression in x (a vector of numbers or of tracers): what f, logp
-- and constraint functions compute.  Arithmetic, math.* (optlab's own
-- additions included), lpdf.* when present, branches on comparisons and
-- the tests a tracer cannot follow (==, tostring, math.tointeger).
local LPDF = {}
for _, e in ipairs(ENTRIES) do
  if e.path:match("^lpdf%.") then LPDF[#LPDF + 1] = e.path end
end

local function texpr (d)
  local k = byte() % (d > 2 and 3 or 16)
  local i = pick{1, 1, 2, 3}
  if k == 0 then return fmt("x[%d]", i)
  elseif k == 1 then return num()
  elseif k == 2 then return fmt("x[%d]^2", i)
  elseif k <= 4 then
    return "(" .. texpr(d + 1) .. pick{" + ", " - ", " * ", " / ", " ^ "}
           .. texpr(d + 1) .. ")"
  elseif k == 5 then
    return "math." .. pick(MATHF) .. "(" .. texpr(d + 1) .. ")"
  elseif k == 6 and #MATHX > 0 then
    local a = {}
    for j = 1, byte() % 3 + 1 do a[j] = texpr(d + 1) end
    return "math." .. pick(MATHX) .. "(" .. concat(a, ", ") .. ")"
  elseif k == 7 and #LPDF > 0 then
    local a = {}
    for j = 1, byte() % 4 + 1 do
      a[j] = chance(2) and texpr(d + 1) or chance(2) and vec() or num()
    end
    return pick(LPDF) .. "(" .. concat(a, ", ") .. ")"
  elseif k == 8 then
    return fmt("(x[%d] %s %s and %s or %s)", i, pick{">", "<", "<=", ">=",
               "==", "~="}, num(), texpr(d + 1), texpr(d + 1))
  elseif k == 9 then return "(x[1] == 1 and 5 * x[1] or x[1]^2)"
  elseif k == 10 then return pick{"(tonumber(tostring(x[1])) or 0)",
                                  "(math.tointeger(x[1]) or 1)", "#x",
                                  "math.max(x[1], 0, x[#x])",
                                  "math.min(x[1], x[#x])", "-x[1]",
                                  "(x[1] // 1)", "(x[1] % 2)", "x[1]^0.5",
                                  "math.pow and math.pow(x[1], 3) or 0"}
  elseif k == 11 then
    return "(function() local s = 0 for i = 1, #x do s = s + x[i]^2 end "
           .. "return s end)()"
  elseif k == 12 then return "math.log(1 + " .. texpr(d + 1) .. "^2)"
  elseif k == 13 then return "(X or 0)"
  elseif k == 14 then return "math.exp(-0.5 * " .. texpr(d + 1) .. "^2)"
  else return fmt("x[%d] * x[%d]", i, byte() % 3 + 1) end
end

-- == callbacks ===============================================================

-- What a callback does before it answers: error, loop forever, re-enter
-- optlab, close or drop its problem, step jobs, yield, corrupt x.
local function prelude (pv)
  local k = byte() % 40
  if k == 0 then return "error('cb')"
  elseif k == 1 then return "error(setmetatable({}, {__tostring = "
                            .. "function() error('ts') end}))"
  elseif k == 2 then return "while true do end"
  elseif k == 3 then return pv .. ":close()"
  elseif k == 4 then return pv .. ":eval(x)"
  elseif k == 5 then return fmt("run(%s, %s, {iters = 2})", pv,
                                chance(2) and "optim.gd{}" or method())
  elseif k == 6 then return pick(JVARS) .. ":step(" .. pick{"1", "3", "-1"}
                            .. ")"
  elseif k == 7 then return pick(JVARS) .. ":stop()"
  elseif k == 8 then return pick(RVARS) .. ":close()"
  elseif k == 9 then return pick(RVARS) .. ":continue(2)"
  elseif k == 10 then return "collectgarbage()"
  elseif k == 11 then return "x[1] = 0/0"
  elseif k == 12 then return "x[#x + 1] = 1"
  elseif k == 13 then return "coroutine.yield()"
  elseif k == 14 then return pick(PVARS) .. " = nil collectgarbage()"
  elseif k == 15 then return "for i = 1, #x do x[i] = nil end"
  elseif k == 16 then return pick(JVARS) .. ":wait()"
  elseif k == 17 then return stmt(2)
  elseif k == 18 then return fmt("%s = start(%s, %s, {iters = %s})",
                                 pick(JVARS), pv, chance(2) and "optim.gd{}"
                                 or method(), pick{"3", "50", "1e6"})
  elseif k == 19 then return "X = grad(function(y) return y[1]^2 end, {1})"
  elseif k == 20 then return "X = x"
  elseif k == 21 then return "X = " .. (HAS["grad"] and "grad" or "print")
                             .. "(function(y) return y[1] * x[1] end, {2})"
  elseif k == 22 then return "for i = 1, 1e9 do end"
  elseif k == 23 then
    return fmt("X = coroutine.wrap(function() return run(%s, optim.gd{}, "
               .. "{iters = 2}) end)()", pv)
  elseif k == 24 then return "coroutine.yield(x)"
  elseif k == 25 then return "X = " .. problem()
  end
  return nil
end

-- A return value for a callback that should give a number.
local function numret (pv)
  local r = byte() % 10
  if r < 5 then return "return " .. texpr(0)
  elseif r == 5 then return "return " .. num()
  elseif r == 6 then return "return " .. any()
  elseif r == 7 then return "return " .. texpr(0) .. ", " .. any()
  elseif r == 8 then return pick{"return", "return 0/0", "return 1/0",
                                 "return -1/0", "return '1'", "return x",
                                 "return 2^63", "return math.mininteger"}
  else return "return x[1]" end
end

-- A vector result: g filled, returned, short, long, wrong typed.
local function vecret (arg)
  local r = byte() % 9
  if r < 4 then return fmt("for i = 1, #x do %s[i] = 2 * x[i] end", arg)
  elseif r == 4 then return "return " .. vec()
  elseif r == 5 then return "return " .. any()
  elseif r == 6 then return arg .. "[1] = nil"
  elseif r == 7 then return fmt("for i = 1, #x + %s do %s[i] = %s end",
                                pick{"1", "-1", "0", "100"}, arg, num())
  else return fmt("for i = 1, #x do %s[i] = %s end", arg, num()) end
end

-- The body of a callback of kind what, for the problem in variable pv.
--   f, logp, c: x -> number; grad, cgrad: (x, g); hess: (x, H);
--   fdf: (x, g) -> f; u: (i, j) -> payoffs; any: anything.
function cb (pv, what)
  pv = pv or pick(PVARS)
  local pre = {}
  local p = prelude(pv)
  if p then pre[#pre + 1] = p end
  local args, ret = "x", nil
  if what == "grad" or what == "cgrad" then
    args, ret = "x, g", vecret("g")
  elseif what == "hess" then
    args = "x, H"
    local r = byte() % 8
    if r < 4 then ret = "for i = 1, #x do for j = 1, #x do H[i][j] = i == j "
                        .. "and 2 or 0 end end"
    elseif r == 4 then ret = "return " .. mat()
    elseif r == 5 then ret = "return " .. any()
    elseif r == 6 then ret = "H[1] = nil"
    else ret = "for i = 1, #x do for j = 1, #x do H[i][j] = " .. num()
                .. " end end" end
  elseif what == "fdf" then
    args = "x, g"
    local r = byte() % 6
    if r < 3 then ret = "local s = 0 for i = 1, #x do s = s + x[i]^2 if g "
                        .. "then g[i] = 2 * x[i] end end return s"
    elseif r == 3 then ret = "return " .. any()
    elseif r == 4 then ret = "if g then g[1] = 'x' end return 1"
    else ret = "return " .. num() .. ", " .. vec() end
  elseif what == "logp" then
    local r = byte() % 8
    if r < 3 then
      -- over named parameters or x alike: p.theta[j], p.mu, x[i]
      ret = "local s = 0 for _, v in pairs(x) do if type(v) == 'table' then "
            .. "for i = 1, #v do s = s - 0.5 * v[i]^2 end else s = s - 0.5 "
            .. "* v^2 end end return s"
    elseif r == 3 then ret = "return -0.5 * x[1]^2 + " .. texpr(0)
    else ret = numret(pv) end
  elseif what == "u" then
    args = "i, j"
    ret = pick{"return i - j, j - i", "return i * j", "return 0/0, 1",
               "return 'x'", "return", "error('u')",
               "return " .. num() .. ", " .. num()}
  elseif what == "any" then
    args = "..."
    ret = pick{"return ...", "return 1", "return " .. any(),
               "return " .. vec(), "error('any')", "while true do end",
               "coroutine.yield()"}
  else
    ret = numret(pv)
  end
  pre[#pre + 1] = ret
  return fmt("function(%s) %s end", args, concat(pre, " "))
end

-- == problems ================================================================

-- The noise kinds and finite-sum orders, from the "(valid: ...)" error of
-- a bad value (so a new kind or order is fuzzed as soon as it exists),
-- each list with one bad value added.
local function noisevals (field, fallback)
  local t = {}
  local P = rawget(_G, "problem")     -- (the global: gen.lua has a local)
  local ok, e = pcall(P.quadratic, {n = 2, noise = {[field] = "bogus"}})
  local list = not ok and tostring(e):match("%(valid: ([^)]*)%)")
  if not list then return fallback end
  for k in list:gmatch("[%w_]+") do t[#t + 1] = k end
  t[#t + 1] = "bogus"
  return t
end
local NOISEKINDS = noisevals("kind", {"gauss", "aniso", "student", "asym",
                                      "batch", "none", "bogus"})
local NOISEORDERS = noisevals("order", {"replace", "shuffle", "once",
                                        "cyclic", "x"})

local function noise ()
  local t = {}
  if chance(2) then
    t[#t + 1] = "kind = " .. (chance(6) and any() or fmt("%q",
                                                         pick(NOISEKINDS)))
  end
  if chance(2) then t[#t + 1] = "sigma = " .. num() end
  if chance(3) then t[#t + 1] = "nu = " .. num() end
  if chance(3) then t[#t + 1] = "batch = " .. num() end
  if chance(4) then t[#t + 1] = "sigma0 = " .. num() end
  if chance(4) then t[#t + 1] = "sigma1 = " .. num() end
  if chance(4) then
    t[#t + 1] = "order = " .. fmt("%q", pick(NOISEORDERS))
  end
  if adverse() and chance(2) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

local function set ()
  local k = byte() % 8
  if k == 0 then return '"simplex"'
  elseif k == 1 then
    return fmt("{lo = -(%s), hi = %s}", pick(SANE), pick(SANE))
  elseif k == 2 then return fmt("{lo = %s, hi = %s}", vec(), vec())
  elseif k == 3 then return "{lo = -1, hi = 1}"
  elseif k == 4 then return fmt("{box = {%s, %s}}", num(), num())
  elseif k == 5 then return fmt("{l1ball = %s}", num())
  elseif k == 6 then return fmt("{l2ball = %s}", num())
  else return any() end
end

-- the composite term's shape (penalty = "scad", issue 27)
local function penalty ()
  local k = byte() % 5
  if k == 0 then return '"scad"'
  elseif k == 1 then return '"l1"'
  elseif k == 2 then return fmt('{kind = "scad", a = %s}', num())
  elseif k == 3 then return pick{'"mcp"', '{a = 3}', '{kind = "l1", a = 1}'}
  else return any() end
end

local GENERIC = {x0 = vec, set = set, l1 = num, noise = noise,
                 penalty = penalty}
local function generic (keys)
  return function (t)
    for _, k in ipairs(keys or {"x0", "set", "l1", "noise", "penalty"}) do
      if GENERIC[k] and chance(8) then
        t[#t + 1] = k .. " = " .. GENERIC[k]()
      end
    end
  end
end

-- Named parameters for problem.new / problem.density{params = ...}: a
-- table (alphabetical) or a list (written order), scalars, bounded
-- scalars, vectors.
local function params ()
  local names = {"mu", "tau", "theta", "sigma", "b"}
  local t = {}
  local listform = chance(2)
  for i = 1, byte() % 4 + (adverse() and 0 or 1) do
    local nm = adverse() and chance(3) and pick{'"x"', '""', "1", '"mu"',
                                                '"a.b"', '"n"'}
               or fmt("%q", names[i])
    local k = byte() % 6
    local spec
    if listform then
      if k == 0 then spec = "{" .. nm .. "}"
      elseif k == 1 then spec = fmt("{%s, %s}", nm, pick{"3", "8", "1", "0",
                                                          "-1", "1e9"})
      elseif k == 2 then spec = fmt("{%s, lower = %s}", nm, num())
      elseif k == 3 then spec = fmt("{%s, lower = %s, upper = %s}", nm, num(),
                                    num())
      elseif k == 4 then spec = fmt("{%s, %s, upper = %s}", nm, pick{"2", "3"},
                                    num())
      else spec = any() end
    else
      local key = "[" .. nm .. "]"
      if k == 0 then spec = key .. " = 1"
      elseif k == 1 then spec = key .. " = " .. pick{"3", "8", "1", "0", "-1",
                                                      "1e9", "'x'"}
      elseif k == 2 then spec = fmt("%s = {lower = %s}", key, num())
      elseif k == 3 then
        spec = fmt("%s = {lower = %s, upper = %s}", key, num(), num())
      elseif k == 4 then spec = fmt("%s = {%s, lower = %s}", key,
                                    pick{"2", "3"}, num())
      else spec = key .. " = " .. any() end
    end
    t[#t + 1] = spec
  end
  if adverse() and chance(3) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

local function bounds ()
  local k = byte() % 5
  if k == 0 then return num()
  elseif k == 1 then return vec()
  elseif k == 2 then return "{-1/0, 0}"
  elseif k == 3 then return "{0, 1, 2}"
  else return any() end
end

local function constraints (pv)
  local t = {}
  for i = 1, byte() % 3 + (adverse() and 0 or 1) do
    local c = {}
    if not (adverse() and chance(2)) then
      c[#c + 1] = "kind = " .. (adverse() and any()
                                or pick{'"ineq"', '"eq"', '"ineq"'})
    end
    if not (adverse() and chance(3)) then
      c[#c + 1] = "c = " .. (adverse() and chance(3) and any()
                              or cb(pv, "c"))
    end
    if chance(3) then c[#c + 1] = "grad = " .. cb(pv, "cgrad") end
    if adverse() and chance(3) then c[#c + 1] = "bogus = 1" end
    t[i] = "{" .. concat(c, ", ") .. "}"
  end
  -- more constraints than variables, often (sqp's m > n)
  if chance(4) then
    for i = #t + 1, #t + byte() % 4 + 2 do
      t[i] = fmt("{kind = %q, c = function(x) return %s end}",
                 pick{"ineq", "eq"}, texpr(1))
    end
  end
  if adverse() and chance(4) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

local function dimension ()
  local k = byte() % 14
  if k < 11 then return pick{"3", "3", "2", "1"} end
  if k == 11 then return bigdim() end
  return pick{"0", "-1", "1.5", "'2'", "2^53", "1e8", "nil", "1e3", "5"}
end

-- problem.new{...} or problem.density{...}: keys from its own error list.
local function userproblem (pv, which, constr)
  local path = which == "density" and "problem.density" or "problem.new"
  local keys = KEYS[path]
  if not keys then return "problem.quadratic{}" end
  local has = {}
  for _, k in ipairs(keys) do has[k] = true end
  local t = {}
  t[#t + 1] = "n = " .. dimension()
  if which == "density" then
    if not (adverse() and chance(3)) then
      t[#t + 1] = "logp = " .. cb(pv, "logp")
    end
    if chance(4) then t[#t + 1] = "grad = " .. cb(pv, "grad") end
  else
    local w = byte() % 5
    if w ~= 1 then t[#t + 1] = "f = " .. cb(pv, "f") end
    if w == 1 or w == 2 then t[#t + 1] = "fdf = " .. cb(pv, "fdf") end
    if w == 3 then t[#t + 1] = "grad = " .. cb(pv, "grad") end
    if chance(4) then t[#t + 1] = "hess = " .. cb(pv, "hess") end
    if w == 4 and chance(2) then t[#t + 1] = "f = " .. any() end
  end
  local done = {n = 1, f = 1, fdf = 1, grad = 1, hess = 1, logp = 1}
  for _, k in ipairs(keys) do
    if not done[k] and ((constr and k == "constraints")
                        or chance(k == "params" and 3 or k == "constraints"
                                  and 4 or 7)) then
      local v
      if k == "params" then v = params()
      elseif k == "constraints" then v = constraints(pv)
      elseif k == "lower" or k == "upper" then v = bounds()
      elseif k == "ad" then
        v = adverse() and pick{'"x"', "1"} or pick{"false", "true", '"check"'}
      elseif k == "kind" then
        v = adverse() and pick{'"game"', "1"}
            or pick{'"objective"', '"density"'}
      elseif k == "x0" or k == "xstar" then v = vec()
      elseif GENERIC[k] then v = GENERIC[k]()
      elseif k == "name" then v = any()
      else v = adverse() and any() or chance(2) and num() or cb(pv, "any") end
      t[#t + 1] = k .. " = " .. v
    end
  end
  if adverse() and chance(4) then t[#t + 1] = "bogus = 1" end
  return path .. "{" .. concat(t, ", ") .. "}"
end

-- A problem of type info.
local function typed (info, pv)
  local extra = generic(info.generic)
  if info.name == "matrixgame" and chance(3) then
    local e0 = extra
    extra = function (t)
      e0(t)
      t[#t + 1] = "u = " .. cb(pv, "u")
    end
  end
  return info.path .. fields(info.params, extra)
end

function problem (pv, forkind)
  pv = pv or pick(PVARS)
  if forkind == "density" or (forkind == nil and chance(8)) then
    if HAS["problem.density"] then return userproblem(pv, "density") end
  end
  if forkind == nil and chance(3) then return userproblem(pv, "new") end
  if chance(30) then return pick{"problem.quadratic", "problem.new{}",
                                 "problem.rosenbrock(3)", "problem.new()"} end
  return typed(pick(PROBLEMS), pv)
end

-- == methods and options =====================================================

local function methodof (m)
  if adverse() and chance(4) then
    return m.path .. pick{"(5)", "()", "{'x'}"}
  end
  return m.path .. fields(m.params)
end

function method () return methodof(pick(METHODS)) end

-- A method and a problem it runs on, most of the time.
local function pair (pv)
  local m = pick(METHODS)
  local prob
  local compat = COMPAT[m]
  local k = byte() % 8
  if CONSTR[m] and k < 4 then prob = userproblem(pv or "q", "new", true)
  elseif k < 5 and #compat > 0 then prob = typed(pick(compat), pv or "q")
  elseif k == 5 and KINDS[m].density and HAS["problem.density"] then
    prob = userproblem(pv or "q", "density")
  elseif k == 5 and KINDS[m].objective then
    prob = userproblem(pv or "q", "new")
  elseif k == 6 then prob = pick(PVARS)
  else prob = problem(pv) end
  return prob, methodof(m), m
end

local ITERS = {"0", "1", "2", "3", "5", "8", "10", "20", "50", "100"}
local function iters ()
  if adverse() and chance(2) then
    return pick{"2^53", "2^63", "math.maxinteger", "-1", "1.5", "1e8", "'x'",
                "0/0", "1/0", "1e6"}
  end
  if long and chance(2) then return pick{"1e3", "1e4", "1e5"} end
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
  if adverse() then return any() end
  local t = {}
  if chance(2) then
    t[#t + 1] = "kind = " .. fmt("%q", adverse() and "x" or pick{"const",
                                 "step", "inv", "invsqrt", "cosine", "warmup"})
  end
  if chance(2) then t[#t + 1] = "gamma = " .. pick{"0.5", "0.9", num()} end
  if chance(2) then t[#t + 1] = "period = " .. pick{"1", "5", "10", num()} end
  return "{" .. concat(t, ", ") .. "}"
end

-- Values of the run options: sane ones (generators below, else the values
-- run accepted at load time), adversarial ones 1 time in adv.
local OPTV = {
  iters = iters,
  tol = function () return pick{"1e-6", "1e-3", "0", "0.1"} end,
  time = function () return pick{"0", "1e-3", "0.01", "0.005"} end,
  seed = function () return tostring(byte()) end,
  stream = function () return tostring(byte() % 9) end,
  x0 = vec,
  metrics = function () return names(METRICS) end,
  watch = watchnames,
  cap = function () return pick{"16", "17", "64", "4096"} end,
  schedule = schedule,
  stop_below = function () return fmt("{%s = %s}", pick(METRICS), num()) end,
  chains = function () return pick{"1", "2", "3", "4", long and "16" or "2"}
  end,
  warmup = function ()
    return pick{"0", "1", "5", "10", "50", long and "1000" or "20"}
  end,
  max_draws = function () return pick{"1", "10", "100"} end,
  samples = function () return pick{"1", "10", "50", long and "1e4" or "5"}
  end,
  speed = function () return pick{"1", "10", "0.5", '"max"'} end,
  -- live changes replayed (issue 24): live, not live, unknown names
  changes = function ()
    return fmt("{{iter = %s, param = %q, value = %s}}", pick{"0", "1", "5"},
               pick{"lr", "mu", "eps", "beta1", "m", "bogus"},
               pick{"0.01", "0.5", num()})
  end,
}
local OFTEN = {iters = 1, tol = 3, time = 6, seed = 4, stream = 5, x0 = 8,
               metrics = 3, watch = 4, cap = 6, record_x = 5, schedule = 5,
               max_draws = 12, speed = 10, paused = 10,
               progress = 3, view = 4, xaxis = 5, average = 5, chains = 5,
               warmup = 4, samples = 5}

-- Options for a run of a method of family fam (nil: any).
function opts (banned, fam)
  local t = {}
  fam = fam or pick(FAMILIES)
  local sane = OPTSANE[fam] or {}
  local mets = OKMETRICS[fam] or METRICS
  for _, key in ipairs(OPTKEYS) do
    if chance(OFTEN[key] or 8) and (not (banned and banned[key])
                                    or chance(8)) then
      local f, ok, v = OPTV[key], sane[key], nil
      if adverse() then v = any()
      elseif ok and #ok == 0 then v = nil     -- not for this family
      elseif key == "metrics" or key == "watch" then
        v = names(mets)
      elseif key == "x0" then v = chance(4) and vec() or nil
      elseif f and (not ok or chance(4)) then v = f()
      elseif ok then v = pick(ok)
      else v = num() end
      if v then t[#t + 1] = key .. " = " .. v end
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

local function grid (m)
  local t = {}
  local ps = m and m.params or {{name = "lr", kind = "real", lo = 0, hi = 1,
                                 default = 0.1}}
  for _, p in ipairs(ps) do
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
               "1", "nil", '"d"', '"r"'}

-- == entry points ============================================================

-- An argument of any kind the grammar makes (for entry points it does
-- not know the shape of).
local function arg ()
  local k = byte() % 12
  if k <= 1 then return num()
  elseif k == 2 then return vec()
  elseif k == 3 then return chains()
  elseif k == 4 then return cb(nil, chance(2) and "f" or "any")
  elseif k == 5 then return pick(PVARS)
  elseif k == 6 then return pick(OVARS)
  elseif k == 7 then return pick(MVARS)
  elseif k == 8 then return mat()
  elseif k == 9 then return pick(STRINGS)
  elseif k == 10 then return opts()
  else return any() end
end

-- An option table for the entry point at path, from its discovered keys.
local function optsfor (path)
  local keys = KEYS[path]
  if not keys then return opts() end
  local t = {}
  for _, k in ipairs(keys) do
    if chance(3) then
      local v
      if k == "kind" or k == "compress" then
        v = adverse() and any() or fmt("%q", pick{"none", "topk", "randk",
                                                  "sign", "ssign", "qsgd",
                                                  "terngrad", "x"})
      elseif DIMS[k] or k == "draws" then
        v = adverse() and any() or tostring(byte() % 5 + (long and 20 or 0))
      else v = adverse() and any() or chance(4) and arg() or num() end
      t[#t + 1] = k .. " = " .. v
    end
  end
  if adverse() and chance(4) then t[#t + 1] = "bogus = 1" end
  if adverse() and chance(4) then return any() end
  return "{" .. concat(t, ", ") .. "}"
end

-- A traced function for grad, hessian, hvp, tape.
local function tracefn ()
  if adverse() and chance(3) then return arg() end
  return cb(nil, "f")
end

-- A point for them: small, at times large (Ctrl-C in big hessians); a
-- second of the same length when n is given.
local function point (n)
  local k = byte() % 8
  if k < 5 or (n and not adverse()) then
    n = n or pick{3, 3, 2, 1}
    if type(n) == "number" then return list(num, n), n end
  end
  if k == 5 or type(n) == "string" then
    n = type(n) == "string" and n or bigdim()
    return fmt("(function() local t = {} for i = 1, %s do t[i] = %s end "
               .. "return t end)()", n, pick{"0.5", "i", "-1", "0"}), n
  end
  return vec()
end

-- Entry points with a known shape; KNOWN[path]() -> a statement.
local KNOWN = {}
KNOWN["grad"] = function ()
  return fmt("X = {grad(%s, %s)}", tracefn(), point())
end
KNOWN["hessian"] = function ()
  return fmt("X = {hessian(%s, %s)}", tracefn(), point())
end
KNOWN["hvp"] = function ()
  local f = tracefn()
  local x, n = point()
  return fmt("X = {hvp(%s, %s, %s)}", f, x, (point(n)))
end
KNOWN["tape"] = function ()
  return fmt("X = tape(%s, %s%s)", tracefn(), point(),
             pick{"", "", ", true", ", 1", ", " .. any()})
end
KNOWN["problem.new"] = function ()
  local v = pick(PVARS)
  return v .. " = " .. userproblem(v, "new")
end
KNOWN["problem.density"] = function ()
  local v = pick(PVARS)
  return v .. " = " .. userproblem(v, "density")
end
KNOWN["problem.workers"] = function ()
  local v = pick(PVARS)
  local ok = ACCEPTS["problem.workers"]
  local prob = chance(4) and v or typed(pick(ok and #ok > 0 and not adverse()
                                              and ok or PROBLEMS), v)
  return fmt("%s = problem.workers(%s, %s)", v, prob,
             optsfor("problem.workers"))
end
KNOWN["dist.compress"] = function ()
  local o = optsfor("dist.compress")
  if o:sub(1, 1) == "{" and chance(2) then
    o = fmt("{kind = %q, ", pick{"none", "topk", "randk", "sign", "ssign",
                                 "qsgd", "terngrad", "x"}) .. o:sub(2)
  end
  return fmt("X = {dist.compress(%s, %s)}", chance(4) and (point()) or vec(),
             o)
end
KNOWN["help"] = function ()
  local k = byte() % 4
  if k == 0 then return "help()" end
  if k == 1 then return "help(" .. pick(METHODS).path .. ")" end
  if k == 2 then return "help(" .. pick(ENTRIES).path .. ")" end
  return "help(" .. arg() .. ")"
end
KNOWN["pretty"] = function () return "pretty(" .. arg() .. ")" end
KNOWN["blas_threads"] = function ()
  return "X = blas_threads(" .. pick{"", "1", "2", "0", "-1", "'x'"} .. ")"
end
-- optlab.sleep waits wall time, not CPU time, which the harness's
-- deadline counts: only waits of a few ms, and the arguments it refuses
KNOWN["optlab.sleep"] = function ()
  return "optlab.sleep(" .. pick{"0", "1e-3", "0.004", "-1", "0/0", "1e9",
                                 "math.huge", "'x'", "", "{}"} .. ")"
end
-- metric.new{...}: a metric of the user's (few names, so later ones
-- redefine earlier ones and a run that records one can follow), its eval
-- a callback like an objective's (prelude: errors, loops, re-entry,
-- yields) reading r's fields, real and not; then often a run recording it.
local UMETRICS = {'"um1"', '"um2"', '"um3"'}
KNOWN["metric.new"] = function ()
  local name = chance(8) and pick{'"loss"', '"1x"', '""', "1", "nil",
                                  '"' .. ("m"):rep(40) .. '"'}
               or pick(UMETRICS)
  local eval
  if chance(10) then eval = any()
  else
    local pre = prelude(pick(PVARS)) or ""
    local get = pick{"r.x[1]", "r.f", "r.g and r.g[1]", "r.iter", "r.n",
                     "r.lrmax", "r.bogus", "#r.x", "r.t", "r"}
    if chance(4) then eval = fmt("function(r) local x = r.x %s %s end", pre,
                                 numret(pick(PVARS)))
    else eval = fmt("function(r) local x = r.x %s return %s end", pre, get)
    end
  end
  local doc = chance(8) and any() or '"a metric"'
  local st = fmt("X = metric.new{name = %s, doc = %s, eval = %s%s}", name,
                 doc, eval, chance(12) and ", bogus = 1" or "")
  if chance(2) then
    local prob, meth = pair()
    st = st .. fmt(" R1 = run(%s, %s, {iters = %s, %s = {%s}})", prob, meth,
                   iters(), pick{"metrics", "watch", "metrics"},
                   pick(UMETRICS))
  end
  return st
end

-- optim.new, sample.new, game.new (issue 24): a method written in Lua,
-- often run at once (the methods list is read at load time, so the run is
-- made in the same statement); its name from a small pool, so a later
-- definition replaces it; init and step good or bad: wrong x, errors,
-- yields, loops, nested runs, an oracle kept after the step, wrong oracle
-- calls.
local UNAMES = {"u1", "u2", "hb"}
local function ustep (fam)
  local k = byte() % 22
  local body
  if k < 6 then
    body = "local g = s.g or {} s.g = g o:" .. (fam == "game" and "payoff_grad"
      or fam == "sample" and "grad_logp" or "stochastic_grad")
      .. "(x, g) for i = 1, #x do x[i] = x[i] - p.lr * g[i] end"
    if fam == "game" then body = body .. " o:project(x)" end
  elseif k == 6 then body = "x[#x + 1] = 1"
  elseif k == 7 then body = "x[1] = " .. any()
  elseif k == 8 then body = "x[1] = " .. num()
  elseif k == 9 then body = "error('step')"
  elseif k == 10 then body = chance(4) and "while true do end" or "error({})"
  elseif k == 11 then body = "coroutine.yield(1)"
  elseif k == 12 then body = "run(" .. pick(PVARS) .. ", " .. method()
    .. ", {iters = 2})"
  elseif k == 13 then body = "G_O = o G_R = o:rng()"
  elseif k == 14 then body = "X = {o:f(x), o:fdf(x, {}), o:grad(x, {})}"
  elseif k == 15 then body = "local H = {} o:hess(x, H) o:hvp(x, x, {})"
  elseif k == 16 then body = "X = o:f(" .. pick{vec(), any(), "{1}"} .. ")"
  elseif k == 17 then body = "o:grad(x, " .. any() .. ")"
  elseif k == 18 then body = "s.probe = {lrmax = " .. num() .. "}"
  elseif k == 19 then body = "X = {o:rng():uniform(), o:rng():normal(), "
    .. "o:iter(), o:sched(), o:blocks()}"
  elseif k == 20 then body = "x = {} x[1] = 1"
  else body = "for i = 1, #x do x[i] = " .. num() .. " end" end
  local ret = ""
  if fam == "sample" then
    ret = " return " .. (chance(4) and any() or pick{"1", "0.5", "0", "2",
                                                    "0/0", "nil", "'x'"})
  end
  return fmt("function(s, x, o, p) %s%s end", body, ret)
end
local function usermethod (fam)
  local uname = pick(UNAMES)
  local name = chance(16) and pick{"'gd'", "'new'", "'1x'", "'end'", any()}
    or fmt("%q", uname)
  local keys = {"name = " .. name}
  if not chance(16) then keys[#keys + 1] = "step = " .. ustep(fam) end
  if chance(2) then
    keys[#keys + 1] = "init = " .. (chance(16) and any() or
      pick{"function(s, x, p, o) s.n = #x end",
           "function(s, x, p, o) error('init') end",
           "function(s, x, p, o) x[1] = " .. num() .. " end",
           "function(s, x, p, o) X = o:f(x) end",
           "function(s, x, p, o) coroutine.yield() end"})
  end
  if chance(4) then
    -- adversarial: each field of lr's table may be wrong
    keys[#keys + 1] = "params = " .. (chance(8) and any() or fmt(
      "{lr = {default = %s, min = %s, max = %s, min_open = %s}}",
      pick{"0.01", "0.1", "1", "-1", "0/0", "'x'", "true"},
      pick{"0", "-1", "nil", "1/0", "0/0"}, pick{"1", "nil", "1e300", "-1"},
      pick{"true", "false", "nil", "1"}))
  elseif not chance(4) then
    keys[#keys + 1] = fmt("params = {lr = {default = %s, min = 0}}",
                          pick{"0.001", "0.01", "0.1", "1"})
  end
  if chance(8) then keys[#keys + 1] = "probes = " .. pick{"{'lrmax'}",
    "{'loss'}", "{1}", "'lrmax'"} end
  if chance(32) then keys[#keys + 1] = "bogus = 1" end
  local def = fmt("%s.new{%s}", fam, concat(keys, ", "))
  if not chance(3) then return def end
  local prob = fam == "sample" and "problem.gauss2d{}"
    or fam == "game" and "problem.matrixgame{m = 2, n = 3}"
    or pick{"problem.rosenbrock{}", pick(PVARS)}
  local ctor = fmt("%s[%q]", fam, chance(8) and pick(UNAMES) or uname)
  local how = byte() % 4
  local opts = fmt("{iters = %s%s}", iters(),
                   fam == "sample" and chance(2) and ", chains = 2" or "")
  if how == 0 then
    return fmt("%s R1 = run(%s, %s{}, %s)", def, prob, ctor, opts)
  elseif how == 1 then
    return fmt("%s J1 = start(%s, %s{}, %s)", def, prob, ctor, opts)
  elseif how == 2 then
    return fmt("%s X = sweep(%s, %s, {lr = {0.01, 0.1}}, %s)", def, prob,
               ctor, opts)
  end
  return fmt("%s X = repeats(%s, %s{}, %s, 2)", def, prob, ctor, opts)
end
KNOWN["optim.new"] = function () return usermethod("optim") end
KNOWN["sample.new"] = function () return usermethod("sample") end
KNOWN["game.new"] = function () return usermethod("game") end
-- These have statements of their own below.
for _, k in ipairs{"run", "race", "start", "sweep", "repeats"} do
  KNOWN[k] = false
end

-- A call of an entry point: its own generator, or arguments of any kind
-- (diag.*, lpdf.* and whatever a new tree adds).
local function entry ()
  local e = pick(ENTRIES)
  local known = KNOWN[e.path]
  if known then return known() end
  if known == false then e = pick(ENTRIES) end
  if KNOWN[e.path] then return KNOWN[e.path]() end
  local a = {}
  local k = byte() % 6
  if e.path:match("^lpdf%.") or e.path:match("^math%.") then
    for i = 1, byte() % 4 + 1 do a[i] = chance(4) and arg() or num() end
    -- inside a traced function too: its derivatives through the tape
    if chance(2) and HAS["grad"] then
      return fmt("X = {grad(function(x) return %s(%s) end, %s)}", e.path,
                 concat({texpr(1), num(), pick{"1", "2", "0.5"}}, ", "),
                 point())
    end
  elseif k < 3 then
    a[1] = chains()
    if chance(2) then a[2] = KEYS[e.path] and optsfor(e.path) or arg() end
  else
    for i = 1, byte() % 4 do a[i] = arg() end
  end
  return "X = {" .. e.path .. "(" .. concat(a, ", ") .. ")}"
end

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
  local k = byte() % 32
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
      "R", "names", "bogus", "chains", "draws"}
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
  elseif k == 22 then return "X = " .. o .. "." .. pick(RESULTS)
  elseif k == 23 then return o .. ".run:continue(" .. iters() .. ")"
  elseif k == 24 then return o .. "[1]:close()"
  elseif k == 25 then return "help(" .. o .. ")"
  elseif k == 26 then return o .. ":continue(math.maxinteger)"
  elseif k == 27 then return o .. ":save_draws(" .. pick(FILES) .. ")"
  elseif k <= 30 then return field(o, pick{"run", "job", "race"})
  elseif chance(2) then          -- j:set / r:set (issue 24)
    return fmt("%s:set{%s = %s}", o, pick{"lr", "mu", "eps", "beta1",
               "bogus"}, pick{"0.01", "0.5", num(), any()})
  else return "X = tostring(" .. o .. ")" end
end

local function problemcall (p)
  local k = byte() % 10
  if k == 0 then return p .. ":close()"
  elseif k == 1 or k == 2 then return "X = {" .. p .. ":eval(" .. vec() .. ")}"
  elseif k == 3 then
    return "X = " .. p .. "." .. pick{"n", "name", "kind", "desc", "x0",
      "xstar", "fstar", "l1", "noise", "ad", "workers", "params", "bogus"}
  elseif k == 4 then return "X = tostring(" .. p .. ")"
  elseif k == 5 then return "help(" .. p .. ")"
  elseif k == 6 then return "do local q <close> = " .. p .. " end"
  elseif k <= 8 then return field(p, "problem")
  else return p .. " = nil" end
end

local SPECIAL = {
  "collectgarbage()", "collectgarbage('step')",
  "collectgarbage('incremental')", "collectgarbage('generational')",
  "X = jobs()", "print(jobs())", "X = metrics()", "help()", "help(run)",
  "help('metrics')", "help(optim.adam)", "help(problem.new)", "math = nil",
  "ipairs = nil", "pairs = nil",
  "string = nil", "table = nil", "tostring = nil", "type = nil",
  "setmetatable = nil", "optim.gd = nil", "problem = nil", "run = nil",
  "X = blas_threads()", "blas_threads(2)", "blas_threads(0)",
  "pretty(problem)", "pretty(X)", "X = nil", "X = optlab",
  "math.exp = nil", "grad = nil", "coroutine = nil"
}
for _, f in ipairs(FAMILIES) do
  SPECIAL[#SPECIAL + 1] = "help(" .. f .. ")"
  SPECIAL[#SPECIAL + 1] = f .. " = nil"
end

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

-- One statement; depth > 0 inside callbacks, loops and coroutines (which
-- do not nest further: depth 2 is a leaf).
function stmt (depth)
  local k = byte() % 32
  if depth > 0 and (k == 16 or k == 17 or k == 18) then k = 0 end
  if depth > 1 and (k == 15 or k == 19 or k == 22 or k == 23) then k = 3 end
  if k <= 1 then
    local v = pick(PVARS)
    return v .. " = " .. problem(v)
  elseif k == 2 then return pick(MVARS) .. " = " .. method()
  elseif k <= 4 then
    local prob, meth, m = pair()
    if chance(4) then prob, meth = pv(), mv() end
    return pick(RVARS) .. " = run(" .. prob .. ", " .. meth .. ", "
           .. opts(nil, m.family) .. ")"
  elseif k == 5 then
    return pick(RVARS) .. " = race(" .. pv() .. ", " .. mlist() .. ", "
           .. opts() .. ")"
  elseif k == 6 then
    local prob, meth, m = pair()
    if chance(3) then prob, meth = pv(), mlist() end
    return pick(JVARS) .. " = start(" .. prob .. ", " .. meth .. ", "
           .. opts(nil, m.family) .. ")"
  elseif k == 7 then
    local m = pick(METHODS)
    local c = chance(10) and pick{"problem.quadratic", "print", "nil", "M1"}
              or m.path
    local prob = #COMPAT[m] > 0 and chance(2) and typed(pick(COMPAT[m]), "q")
                 or pv()
    return "S1 = sweep(" .. prob .. ", " .. c .. ", " .. grid(m) .. ", "
           .. opts(nil, m.family) .. ")"
  elseif k == 8 then
    local prob, meth, m = pair()
    return "Q1 = repeats(" .. prob .. ", " .. meth .. ", "
           .. opts({stream = 1}, m.family)
           .. ", " .. pick{"1", "2", "3", "0", "-1", "2^63", "1.5", "'x'",
                           "math.maxinteger", "nil"} .. ")"
  elseif k <= 11 then return objcall(pick(OVARS))
  elseif k == 12 then return problemcall(pick(PVARS))
  elseif k == 13 then return pick(SPECIAL)
  elseif k == 14 then
    local prob, meth, m = pair("p")
    return "do local p <close> = " .. prob .. " " .. pick(RVARS)
           .. " = " .. pick{"run", "start"} .. "(p, " .. meth .. ", "
           .. opts(nil, m.family) .. ") end"
  elseif k == 15 then
    return fmt("for i = 1, %d do %s end", byte() % 3 + 1, stmt(depth + 1))
  elseif k == 16 then return "--@tick " .. byte() % 20 + 1
  elseif k == 17 then
    return fmt("--@ctl %d %d", byte() % 4, byte() % 4)
  elseif k == 18 then
    return pick{"--@view ", "--@intr "} .. byte() % 40
  elseif k == 19 then
    return fmt("C1 = coroutine.wrap(function() %s coroutine.yield() %s end) "
               .. "C1()", stmt(depth + 1), stmt(depth + 1))
  elseif k == 20 then return "C1()"
  elseif k == 21 then
    return pick(OVARS) .. " = " .. pick{"nil", "R1", "J1", "P1", "M1"}
  elseif k <= 23 then return lifetime()
  elseif k <= 29 then return entry()
  else
    -- a sampler, VI or other family's run and what it returns
    local prob, meth, m = pair()
    return fmt("R1 = run(%s, %s, %s) %s", prob, meth, opts(nil, m.family),
               chance(2) and objcall("R1") or "")
  end
end

-- Objects that exist from the start, so statements have something to use.
local PROLOGUE = {
  "P1 = problem.rosenbrock{n = 2}",
  "P2 = problem.new{n = 2, f = function(x) return x[1]^2 + 3 * x[2]^2 end}",
  "P3 = problem.rps{}",
  "M1 = optim.gd{}", "M2 = optim.adam{lr = 0.01}", "M3 = game.rmplus{}"
}

-- OPTLAB_FUZZ_SKIP: Lua patterns, one a line; a statement that matches
-- one is left out (to fuzz on past a known defect being fixed): here the
-- generated ones, in fuzz.c the lines of --lua inputs (seeds).
local SKIP = {}
for p in (os.getenv("OPTLAB_FUZZ_SKIP") or ""):gmatch("[^\n]+") do
  SKIP[#SKIP + 1] = p
end

local function skipped (st)
  for _, p in ipairs(SKIP) do
    if st:find(p) then return true end
  end
  return false
end

return function (bytes)
  s, pos, len = bytes, 0, #bytes
  local out = {}
  adv = ({4, 12, 32, 96, 256, 1024})[byte() % 6 + 1]
  long = byte() % 64 == 0 and len > 2
  if long then out[#out + 1] = "--@long" end
  for i = 1, #PROLOGUE do out[#out + 1] = PROLOGUE[i] end
  while pos < len and #out < 48 do
    local st = stmt(0)
    if #SKIP == 0 or not skipped(st) then out[#out + 1] = st end
  end
  return out
end,
-- for the fuzzer's self-check (fuzz -help=1 shows nothing of it): what
-- was found
{skip = #SKIP > 0 and skipped or nil,
 families = FAMILIES, methods = #METHODS, problems = #PROBLEMS,
 entries = ENTRIES, mathx = MATHX, keys = KEYS, optkeys = OPTKEYS,
 compat = COMPAT}
