-- tests/lua/fuzzgrammar.lua -- the fuzzer's grammar (tests/fuzz/gen.lua)
-- sees the whole API, read from the Lua state it is loaded in (issue 22):
-- every family and every registered method, every problem type and every
-- global entry point appear in the statements it makes from random
-- inputs; an entry point added at run time (a global table of functions
-- that did not exist when the grammar was written) is called too, with
-- its option keys read from its error message; problem.new gets
-- constraints, problem.density gets params when it takes them; and every
-- statement it makes is valid Lua.  Inputs are random bytes from a fixed
-- seed (printed); no statement is run.
local t = dofile("tests/lib/tap.lua")
local SEED, N = 22, 1500
t.diag("seed " .. SEED .. ", " .. N .. " inputs")

-- an entry point this tree does not have, added before the grammar loads
zzfuzz = {
  probe = function (v, o)
    if type(o) == "table" then
      for k in pairs(o) do
        if k ~= "alpha" and k ~= "beta" then
          error("zzfuzz.probe: unknown key '" .. tostring(k)
                .. "' (valid: alpha, beta)")
        end
      end
    end
    return v
  end
}

local gen, info = dofile("tests/fuzz/gen.lua")
t.ok(type(gen) == "function" and type(info) == "table",
     "gen.lua returns generate and what it found")

-- the families and methods it found are the library's
local core
for _, v in pairs(debug.getregistry()) do
  if type(v) == "table" and type(rawget(v, "ctors")) == "table"
     and type(rawget(v, "methods")) == "table" then
    core = v
  end
end
local fams, want = {}, {}
for _, f in ipairs(info.families) do fams[f] = true end
for _, m in ipairs(core.methods) do want[m.family] = true end
local missing = {}
for f in pairs(want) do if not fams[f] then missing[#missing + 1] = f end end
t.ok(#missing == 0, "every family found (missing: " .. table.concat(missing,
     ", ") .. ")")
for _, f in ipairs{"optim", "sample", "game", "vi", "diffusion", "rl",
                   "dist", "smc"} do
  t.ok(fams[f], "family " .. f .. " found")
end
t.is(info.methods, #core.methods, "every registered method found")
t.is(info.problems, #core.problems, "every problem type found")

-- statements from random inputs
math.randomseed(SEED)
local text, bad, firstbad = {}, 0, nil
for i = 1, N do
  local b = {}
  for j = 1, math.random(50, 1000) do b[j] = string.char(math.random(0, 255)) end
  for _, l in ipairs(gen(table.concat(b))) do
    if l:sub(1, 3) ~= "--@" and not load(l) then
      bad = bad + 1
      firstbad = firstbad or l
    end
    text[#text + 1] = l
  end
end
local all = table.concat(text, "\n")
t.is(bad, 0, "every statement is valid Lua (first bad: "
     .. tostring(firstbad and firstbad:sub(1, 200)) .. ")")

local function uses (s) return all:find(s, 1, true) ~= nil end
missing = {}
for _, m in ipairs(core.methods) do
  local path = m.family .. "." .. m.name
  if not uses(path .. "{") and not uses(path .. "(") then
    missing[#missing + 1] = path
  end
end
t.ok(#missing == 0, "every method is constructed (missing: "
     .. table.concat(missing, ", ") .. ")")
missing = {}
for _, p in ipairs(core.problems) do
  if not uses("problem." .. p.name .. "{") then
    missing[#missing + 1] = p.name
  end
end
t.ok(#missing == 0, "every problem type is built (missing: "
     .. table.concat(missing, ", ") .. ")")
for _, e in ipairs{"grad(", "hessian(", "hvp(", "tape(", "problem.new{",
                   "problem.density{", "problem.workers(", "dist.compress(",
                   "run(", "race(", "start(", "sweep(", "repeats(", "help(",
                   "constraints = {", "coroutine.yield()", "while true do end",
                   "zzfuzz.probe(", "metric.new{"} do
  t.ok(uses(e), "statements use " .. e)
end
t.ok(all:find("zzfuzz%.probe%([^\n]*alpha =") ~= nil,
     "an entry point added at run time gets its option keys from its error")
-- the tree takes params = when it does not call it an unknown key (an
-- empty declaration is refused for what it is)
local okp, ep = pcall(problem.density, {params = {}})
local takes = okp or not tostring(ep):find("unknown", 1, true)
t.ok(takes == uses("params = "), "problem.density{params =} generated "
     .. "exactly when the tree takes it (" .. tostring(takes) .. ")")
t.done()
