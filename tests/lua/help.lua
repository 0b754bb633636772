-- tests/lua/help.lua -- help(family), the family tables' "did you mean",
-- help by name (what the prompt's ?name calls), the metrics in help(),
-- and the parameter tables as help shows them (booleans, open bounds,
-- "any", no 1e300, no options that do not apply to a density).
local t = dofile("tests/lib/tap.lua")

local function capture (f, ...)
  local tmp = os.tmpname()
  local old = io.output()
  io.output(tmp)
  local ok, err = pcall(f, ...)
  io.output():close()
  io.output(old)
  local fh = assert(io.open(tmp))
  local s = fh:read("a")
  fh:close()
  os.remove(tmp)
  assert(ok, err)
  return s
end

local function has (s, sub) return s:find(sub, 1, true) ~= nil end

-- (1) help(family) lists the family, nothing else
local h = capture(help, optim)
t.ok(h:find("^optimizers %(optim%.<name>{%.%.%.}%):"),
     "help(optim): starts with the optimizers heading")
t.ok(h:match("\n  adam +Adam") and h:match("\n  lbfgs +L%-BFGS"),
     "help(optim): rows for adam and lbfgs")
t.ok(not has(h, "nuts") and not has(h, "rosenbrock"),
     "help(optim): no sampler, no problem")
h = capture(help, sample)
t.ok(h:find("^samplers") and h:match("\n  nuts ") and not has(h, "adam"),
     "help(sample): the samplers only")
h = capture(help, game)
t.ok(h:find("^game dynamics") and h:match("\n  rmplus "),
     "help(game): the game dynamics")
h = capture(help, problem)
t.ok(h:find("^problems") and h:match("\n  rosenbrock ")
     and h:match("\n  new ") and h:match("\n  density "),
     "help(problem): the problems, new and density")
t.is(capture(help, "optim"), capture(help, optim),
     "help(\"optim\") is help(optim)")

-- (2) a name a family table lacks: did you mean
local function msg (f)
  local ok, e = pcall(f)
  return not ok and tostring(e) or "(no error)"
end
local e = msg(function () return optim.adma{} end)
t.ok(has(e, "no optimizer 'adma' -- did you mean adam?"), "optim.adma{}: " .. e)
e = msg(function () return sample.nut{} end)
t.ok(has(e, "no sampler 'nut' -- did you mean nuts?"), "sample.nut{}: " .. e)
e = msg(function () return game.rmplsu{} end)
t.ok(has(e, "no game dynamic 'rmplsu' -- did you mean rmplus?"),
     "game.rmplsu{}: " .. e)
e = msg(function () return problem.rosenbrok{} end)
t.ok(has(e, "no problem 'rosenbrok' -- did you mean rosenbrock?"),
     "problem.rosenbrok{}: " .. e)
e = msg(function () return optim.nuts{} end)
t.ok(has(e, "no optimizer 'nuts' -- sample.nuts is a sampler"),
     "optim.nuts: names the family it is in: " .. e)
e = msg(function () return optim.zzzzzz{} end)
t.ok(has(e, "no optimizer 'zzzzzz' (optimizers: adabound, ") and has(e, " gd,"),
     "no close name: the valid ones are listed")
t.ok(e:find("^tests/lua/help%.lua:%d+:") ~= nil,
     "the error points at the caller, not at help.lua: " .. e)
e = msg(function () return help(optim.adma) end)
t.ok(has(e, "no optimizer 'adma' -- did you mean adam?"),
     "help(optim.adma) says the same (not the overview)")
t.is(optim[1], nil, "a non-string key is plain nil (ipairs, #)")
t.is(rawget(optim, "adma"), nil, "rawget tests for a name without the error")
t.ok(optim.adam ~= nil and problem.new ~= nil, "existing names unchanged")

-- (3) help by name, as ?name asks
t.is(capture(help, "optim.adam"), capture(help, optim.adam),
     "help(\"optim.adam\") is help(optim.adam)")
t.is(capture(help, "adam"), capture(help, optim.adam),
     "help(\"adam\") is help(optim.adam)")
t.is(capture(help, "run"), capture(help, run), "help(\"run\") is help(run)")
t.is(capture(help, "optim.adma"),
     "no optimizer 'adma' -- did you mean adam?\n",
     "help(\"optim.adma\"): the did-you-mean line, no traceback")
t.is(capture(help, "adma"), "no help for 'adma' -- did you mean adam?\n",
     "help(\"adma\"): did you mean")
help_test_run = run(problem.quadratic{n = 2}, optim.gd{}, {iters = 3,
                    progress = false, view = false})
t.ok(has(capture(help, "help_test_run"), "run object r:"),
     "help(\"name\") of a global run: the run object's help")
help_test_run = nil
t.is(capture(help, ""), capture(help), "help(\"\") is help()")

-- (4) help() lists the metrics, by name
h = capture(help)
t.ok(has(h, "\nmetrics ("), "help(): a metrics section")
for _, m in ipairs(metrics()) do
  if not h:match("[ ,]" .. m:gsub("%p", "%%%0") .. "[,\n]") then
    t.ok(false, "help(): lists metric " .. m)
  end
end
t.ok(h:match("\n  loss, ") ~= nil, "help(): metric names in a wrapped list")
t.ok(has(h, "help(optim)") and has(h, "?x"),
     "help(): mentions help(optim) and ?x")

-- (5) parameter tables
h = capture(help, game.rmplus)
t.ok(h:match("alternate%s+false%s+true|false"),
     "rmplus alternate: a boolean, default false")
h = capture(help, optim.adam)
t.ok(h:match("beta1%s+0%.9%s+%[0, 1%)"), "adam beta1: [0, 1)")
h = capture(help, problem.gaussian)
t.ok(not has(h, "1e+300") and not has(h, "9.0072e+15"),
     "gaussian: no 1e300, no 9.0072e+15 in the ranges")
t.ok(h:match("seed%s+1%s+%[0, 2%^53%)"), "gaussian seed: [0, 2^53)")
t.ok(h:match("also accepted: x0") and not has(h, "noise =")
     and not has(h, "l1 ="), "gaussian (a density): no set, l1, noise")
h = capture(help, problem.quadratic)
t.ok(has(h, "noise = {kind") and has(h, "l1 = lambda"),
     "quadratic (an objective): set, l1 and noise are listed")
-- every range cell is "any", an interval, choices, a kind or true|false
local bad = {}
for _, f in ipairs{optim, sample, game, problem} do
  for k, ctor in pairs(f) do
    if k ~= "new" and k ~= "density" then
      for line in capture(help, ctor):gmatch("[^\n]+") do
        if line:find("1e%+300") or line:find("1e%-300") or line:find("-nan")
        then bad[#bad + 1] = k .. ": " .. line end
      end
    end
  end
end
t.is(#bad, 0, "no range shows 1e300, 1e-300 or -nan: " .. table.concat(bad, "; "))

-- help(problem.new) says it takes params= (5aa2093's text named it only
-- under problem.density), its lines fit 80 columns, and no sentence runs
-- into the next one without its full stop
h = capture(help, problem.new)
t.ok(h:match("\n  n +dimension %(required%), or params:") ~= nil,
     "help(problem.new): params= beside n")
local long = {}
for line in h:gmatch("[^\n]+") do
  if #line > 80 then long[#long + 1] = line end
end
t.is(#long, 0, "help(problem.new): lines of at most 80 columns: "
     .. table.concat(long, " | "))
t.ok(not h:match("warns\nWithout") and not h:match(" An\n"),
     "help(problem.new): sentences end before the next begins")

t.done()
