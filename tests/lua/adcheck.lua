-- tests/lua/adcheck.lua -- traced gradients are never silently wrong, and
-- user gradients are checked (issue 22, items 10 and 11; the repros
-- tracer_silent.lua and constraint_fd_counts.lua).
--
-- Truth: Lua's own semantics (f called on numbers), closed-form
-- derivatives, and counts of the user's calls made by the user's
-- functions themselves (a counter in a table the tracer does not see).
local t = dofile("tests/lib/tap.lua")
local abs, fmt = math.abs, string.format

local function section (name, fn)
  local ok, err = pcall(fn)
  if not ok then t.ok(false, name .. ": raised " .. tostring(err)) end
end

-- print() of the library's notices captured (problem.new, runs)
local said = {}
local realprint = print
local function capture (fn)
  said = {}
  print = function (...)
    local s = {}
    for i = 1, select("#", ...) do s[i] = tostring((select(i, ...))) end
    said[#said + 1] = table.concat(s, "\t")
  end
  local ok, err = pcall(fn)
  print = realprint
  if not ok then error(err, 0) end
  return table.concat(said, "\n")
end

-- == item 11: branches the tracer cannot see ===============================
section("x == c", function ()
  local f = function (x) if x[1] == 1 then return 5 * x[1] end return x[1] ^ 2 end
  local g, why = grad(f, {1})
  -- Lua's f is x^2 around 1 (5 x only at the point): differences give 2,
  -- and the reason says why no tape was used
  t.ok(why ~= nil and why:find("x == c", 1, true) ~= nil
       and abs(g[1] - 2) <= 1e-6, fmt("grad of 'x == 1 and 5x or x^2' at 1 "
       .. "falls back to differences with the reason (g = %.10g, reason: %s)",
       g[1], tostring(why)))
  t.ok(why:find("its value on numbers, 5, is not its traced value, 1", 1,
       true) ~= nil, "... the reason names both values")
  -- away from the point the tape is right and used
  local g2, why2 = grad(f, {3})
  t.ok(why2 == nil and g2[1] == 6, "grad of the same f at 3 is traced: 6")
  local fs = function (x)
    if x[1] == 0 then return 1 end
    return math.sin(x[1]) / x[1]
  end
  local gs, whys = grad(fs, {0})
  t.ok(whys ~= nil and gs[1] == gs[1] and abs(gs[1]) <= 1e-6,
       fmt("sinc with an x == 0 guard at 0: differences, not nan (%s)",
           tostring(gs[1])))
  local fn = function (x) if x[1] ~= 2 then return x[1] ^ 2 end return -x[1] end
  local gn, whyn = grad(fn, {2})
  t.ok(whyn ~= nil and whyn:find("x ~= c", 1, true) ~= nil,
       "x ~= c at the point: differences with the reason")
  -- a problem: p.ad says so, the summary too
  local p
  local out = capture(function ()
    p = problem.new{n = 1, f = f, x0 = {1}}
  end)
  t.is(p.ad.mode, "fd", "problem.new with f = 'x == 1 ...' at x0 = 1: "
       .. "differences")
  t.ok(out:find("cannot be traced", 1, true) ~= nil and
       out:find("x == c", 1, true) ~= nil, "... and problem.new says why")
end)

section("math.tointeger", function ()
  local f = function (x)
    if math.tointeger(x[1]) then return 10 * x[1] end
    return x[1] ^ 2
  end
  local g, why = grad(f, {2})
  t.ok(why == nil and g[1] == 10, fmt("grad of 'tointeger(x) and 10x or "
       .. "x^2' at 2 is Lua's 10 (got %s)", tostring(g[1])))
  g, why = grad(f, {2.5})
  t.ok(why == nil and g[1] == 5, "... and at 2.5 it is 2x = 5")
  local tp = tape(f, {2.5}, true)
  t.ok(tp.guards == 3, fmt("tointeger of a non-integer records k <= x < k + "
       .. "1 and x ~= k (%d guards)", tp.guards))
  -- captured in a local before the trace, as math.exp is
  local toint = math.tointeger
  g = grad(function (x) return toint(x[1]) and 3 * x[1] or x[1] end, {4})
  t.is(g[1], 3, "a captured math.tointeger traces too")
  t.is(math.tointeger(3.0), 3, "math.tointeger(3.0) is still 3")
  t.is(math.tointeger(3.5), nil, "math.tointeger(3.5) is still fail")
  t.is(math.tointeger("8"), 8, "math.tointeger('8') is still Lua's 8")
  t.is(math.tointeger({}), nil, "math.tointeger({}) is still fail")
  local seen
  grad(function (x) seen = math.tointeger("8"); return x[1] end, {1})
  t.is(seen, 8, "math.tointeger('8') during a trace is Lua's 8 too")
end)

section("global changed after problem.new", function ()
  k_global = 2
  local p = problem.new{n = 1, f = function (x) return k_global * x[1] ^ 2 end,
                        x0 = {1}}
  k_global = 3
  local f, g
  local out = capture(function () f, g = p:eval({1}) end)
  t.ok(f == 3 and g[1] == 6, fmt("p:eval after the global changed: f = 3, "
       .. "g = 6 (got %s, %s)", tostring(f), tostring(g[1])))
  t.ok(p.ad.mode == "traced" and out:find("re-traced", 1, true) ~= nil,
       "... f was re-traced, and that was said: " .. out)
  k_global = 5
  local r
  out = capture(function ()
    r = run(p, optim.gd{lr = 0.05}, {iters = 3, progress = false})
  end)
  -- gd from 1 on 5 x^2: x <- x - 0.05 * 10 x = 0.5 x
  t.ok(abs(r.x[1] - 0.125) <= 1e-15, fmt("a run after another change uses "
       .. "the new f (x3 = %.17g, want 0.125)", r.x[1]))
  t.ok(tostring(r):find("re-traced", 1, true) ~= nil,
       "... and its summary says it was re-traced")
  -- every kept tape is checked at its own trace point: here the stale one
  -- is the second (x < 0), traced at -1
  k_global = 2
  local q = problem.new{n = 1, x0 = {1}, f = function (x)
    if x[1] > 0 then return x[1] ^ 2 end
    return k_global * x[1]
  end}
  q:eval({-1})
  local tapes = q.ad.tapes
  k_global = 5
  out = capture(function () f, g = q:eval({-1}) end)
  t.ok(tapes == 2 and f == -5 and g[1] == 5, fmt("a second kept tape made "
       .. "before the change is re-traced too (%d tapes; f = %s, g = %s)",
       tapes, tostring(f), tostring(g[1])))
  k_global = nil
end)

-- == item 11: constraints that fall back to differences ===================
section("constraint counts", function ()
  local p, r
  local calls = 0
  out = capture(function ()
    p = problem.new{n = 2, f = function (x) return x[1] + x[2] end,
      x0 = {1, 0.5}, constraints = {{kind = "eq", c = function (x)
        calls = calls + 1
        return x[1] ^ 2 + x[2] ^ 2 - 1
      end}, {kind = "ineq", c = function (x) return x[1] + 2 end}}}
  end)
  t.ok(out:find("constraints[1].c cannot be traced", 1, true) ~= nil,
       "problem.new says constraints[1].c cannot be traced: " .. out)
  local ad = p.ad
  t.ok(ad.constraints ~= nil and ad.constraints[1].mode == "fd" and
       ad.constraints[1].reason:find("upvalue 'calls'", 1, true) ~= nil and
       ad.constraints[2].mode == "traced",
       "p.ad.constraints: [1] by differences with the reason, [2] traced")
  calls = 0
  r = run(p, optim.sqp{}, {progress = false})
  t.ok(r.reason == "converged", "sqp converges: " .. tostring(r.reason))
  local s = tostring(r)
  t.ok(s:find("constraints: 1 of 2 by finite differences (constraints[1].c",
       1, true) ~= nil, "the summary says constraint 1 is by differences")
  local fc, cc = 0, 0
  -- every Lua call is counted: the method's in nfev, the run's own (its
  -- records: kkt, feasibility, ...) in mfev, as f's are
  local q
  capture(function ()
    q = problem.new{n = 2, f = function (x) fc = fc + 1; return x[1] + x[2] end,
      grad = function (x, g) g[1] = 1; g[2] = 1 end, x0 = {1, 0.5},
      constraints = {{kind = "eq", c = function (x)
        cc = cc + 1
        return x[1] ^ 2 + x[2] ^ 2 - 1
      end}}}
  end)
  fc, cc = 0, 0
  local rq = run(q, optim.sqp{}, {progress = false})
  t.ok(rq.nfev + rq.mfev == fc + cc, fmt("every Lua call of f and of the "
       .. "untraced c is counted: nfev %d + mfev %d = %d calls (f %d, c %d)",
       rq.nfev, rq.mfev, fc + cc, fc, cc))
  t.ok(rq.nfev > fc, fmt("r.nfev (%d) counts c's calls, not only f's (%d)",
       rq.nfev, fc))
  fc, cc = 0, 0
  local ra = run(q, optim.auglag{}, {progress = false})
  t.ok(ra.nfev + ra.mfev == fc + cc, fmt("auglag too: nfev %d + mfev %d = "
       .. "%d calls", ra.nfev, ra.mfev, fc + cc))
end)

-- == item 10: grad= checked ===============================================
local function f3 (x) return (x[1] - 1) ^ 2 + 10 * (x[2] + 2) ^ 2 + x[3] ^ 2 end
local function good (x, g) g[1] = 2 * (x[1] - 1); g[2] = 20 * (x[2] + 2); g[3] = 2 * x[3] end
local function neg (x, g) g[1] = -2 * (x[1] - 1); g[2] = -20 * (x[2] + 2); g[3] = -2 * x[3] end
local function one (x, g) g[1] = 2 * (x[1] - 1); g[2] = 2 * (x[2] + 2); g[3] = 2 * x[3] end

section("grad= checked", function ()
  local p, r
  local out = capture(function ()
    p = problem.new{n = 3, f = f3, grad = good, x0 = {0, 0, 1}}
    r = run(p, optim.lbfgs{}, {progress = false})
  end)
  t.is(out, "", "a correct grad= gives no warning")
  t.ok(tostring(r):find("gradient: given (grad=); checked against the "
       .. "traced f's gradient at x0 and the first step: agrees", 1, true)
       ~= nil, "the summary says grad= was checked at x0 and the first step")
  t.ok(p.ad.mode == "given" and p.ad.checked == true and p.ad.agrees == true,
       "p.ad: mode given, checked, agrees")
  out = capture(function ()
    p = problem.new{n = 3, f = f3, grad = neg, x0 = {0, 0, 1}}
    r = run(p, optim.lbfgs{}, {progress = false})
  end)
  t.ok(out:find("warning: grad= differs from the traced f's gradient at x0",
       1, true) ~= nil and out:find("coordinate 2: grad= gives -40, the "
       .. "tape 40", 1, true) ~= nil, "a wrong-sign grad= warns, naming the "
       .. "worst coordinate and both values: " .. out)
  t.ok(out:find(" (correct grad=, or leave it out: f's traced gradient is "
                .. "exact)", 1, true) ~= nil,
       "... and the fix (5aa2093's warning named none)")
  t.ok(tostring(r):find("grad= differs", 1, true) ~= nil and
       p.ad.agrees == false, "... and the summary and p.ad say so")
  out = capture(function ()
    p = problem.new{n = 3, f = f3, grad = one, x0 = {0, 0, 1}}
    p:eval({0, 0, 1})
  end)
  t.ok(out:find("coordinate 2: grad= gives 4, the tape 40", 1, true) ~= nil
       and out:find("coordinate 1", 1, true) == nil and
       out:find("coordinate 3", 1, true) == nil, "one wrong coordinate: "
       .. "only it is named: " .. out)
  -- ad = "check" at problem.new; against differences when f cannot be
  -- traced
  out = capture(function ()
    p = problem.new{n = 3, f = f3, grad = good, x0 = {0, 0, 1}, ad = "check"}
  end)
  t.ok(out:find("ad check: grad= checked against the traced f's gradient at "
       .. "x0: agrees", 1, true) ~= nil, "ad = \"check\" says it agrees: "
       .. out)
  local fu = function (x) local _ = tostring(x[1]); return f3(x) end
  out = capture(function ()
    p = problem.new{n = 3, f = fu, grad = one, x0 = {0, 0, 1}, ad = "check"}
  end)
  t.ok(out:find("grad= differs from central differences of f at x0", 1,
       true) ~= nil and out:find("coordinate 2: grad= gives 4, differences "
       .. "40", 1, true) ~= nil, "ad = \"check\" with an untraceable f "
       .. "compares with differences: " .. out)
  out = capture(function ()
    p = problem.new{n = 3, f = fu, grad = good, x0 = {0, 0, 1}}
    r = run(p, optim.lbfgs{}, {progress = false})
  end)
  t.ok(tostring(r):find("not checked: f cannot be traced", 1, true) ~= nil,
       "an untraceable f: the summary says grad= was not checked, and why")
  -- a tiny-scale f: the tolerance is relative to the gradient
  out = capture(function ()
    p = problem.new{n = 2, f = function (x) return 1e-9 * (x[1] ^ 2 + x[2] ^ 2) end,
      grad = function (x, g) g[1] = -2e-9 * x[1]; g[2] = 2e-9 * x[2] end,
      x0 = {1, 1}}
    p:eval({1, 1})
  end)
  t.ok(out:find("coordinate 1: grad= gives -2e-09, the tape 2e-09", 1, true)
       ~= nil, "a wrong sign on a gradient of size 1e-9 still warns: " .. out)
  -- an f too large to trace for the check (over 2^20 nodes): not checked,
  -- and said; grad= is what runs
  out = capture(function ()
    p = problem.new{n = 1, x0 = {0}, f = function (x)
      local s = 0
      for i = 1, 300000 do s = s + (x[1] - i * 1e-6) ^ 2 end
      return s
    end, grad = function (x, g) g[1] = 2 * 300000 * x[1] - 2 * 1e-6 * 300000 * 300001 / 2 end}
    r = run(p, optim.gd{lr = 1e-7}, {iters = 2, progress = false})
  end)
  t.ok(p.ad.checked == false and p.ad.agrees == nil and
       p.ad.check:find("more than 1048576 nodes", 1, true) ~= nil and
       tostring(r):find("not checked", 1, true) ~= nil, "an f over 2^20 "
       .. "nodes is not traced for the check, and the summary says so: "
       .. tostring(p.ad.check))
  -- on a kink of f (abs at 0) the tape's derivative is one side's: grad=
  -- giving a subgradient there is not compared, the next point is
  out = capture(function ()
    p = problem.new{n = 2, x0 = {0, 1}, f = function (x)
      return math.abs(x[1]) + (x[1] - 1) ^ 2 + (x[2] - 2) ^ 2
    end, grad = function (x, g)
      g[1] = (x[1] > 0 and 1 or x[1] < 0 and -1 or 0) + 2 * (x[1] - 1)
      g[2] = 2 * (x[2] - 2)
    end}
    r = run(p, optim.gd{lr = 0.1}, {iters = 3, progress = false})
  end)
  t.ok(out == "" and p.ad.checked == true and p.ad.agrees == true,
       fmt("a subgradient at the kink of |x1| is no warning; checked "
           .. "further on (%s)", tostring(p.ad.check)))
  -- a density's grad
  out = capture(function ()
    p = problem.density{n = 1, logp = function (x) return -0.5 * x[1] ^ 2 end,
      grad = function (x, g) g[1] = x[1] end, x0 = {2}}
    p:eval({0.5})
  end)
  t.ok(out:find("warning: grad= differs", 1, true) ~= nil,
       "problem.density's grad is checked too: " .. out)
end)

-- the notice of an untraceable log density names problem.density and
-- logp (5aa2093: "problem.new: f cannot be traced", a call the user never
-- made), and a problem.new after it still names problem.new and f
section("untraceable logp named", function ()
  local out = capture(function ()
    problem.density{n = 1, logp = function (x)
      return tostring(x[1]) and -x[1] ^ 2 end}
  end)
  t.ok(out:find("^problem.density: logp cannot be traced: it converts a "
                .. "traced value to a string") ~= nil,
       "problem.density's notice: " .. out)
  out = capture(function ()
    problem.new{n = 1, f = function (x) return tostring(x[1]) and x[1] ^ 2 end}
  end)
  t.ok(out:find("^problem.new: f cannot be traced") ~= nil,
       "problem.new's notice after it: " .. out)
  t.ok(out:find("(ad = false: the same, without this notice)", 1, true)
       ~= nil, "the notice says what ad = false does (it read 'ad = false "
       .. "says so quietly')")
end)

-- a grad= check whose f has more inputs than the check's tape holds (1 << 20
-- nodes): the check is skipped with the reason, and the tracing state (the
-- math library swapped for tracing versions, the trace in progress) is put
-- back.  5aa2093 raised from inside the trace: problem.density failed with
-- "its tape's recording failed", and math.sin, grad, ... stayed broken.
section("inputs beyond the check's tape", function ()
  local n = (1 << 20) + 10
  local sin0 = math.sin
  local ok, p = pcall(problem.density, {n = n,
    logp = function (x) return 0 end, grad = function (x, g) end})
  t.ok(ok, "problem.density{n = 2^20 + 10, grad = ...} is made: "
       .. tostring(p))
  t.ok(math.sin == sin0 and abs(math.sin(1) - 0.8414709848078965) <= 1e-15,
       "math.sin is Lua's again after the check's trace gave up")
  local g, why = grad(function (x) return x[1] ^ 2 + 3 * x[2] end, {1, 2})
  t.ok(why == nil and abs(g[1] - 2) <= 1e-15 and abs(g[2] - 3) <= 1e-15,
       fmt("grad traces again afterwards (g = %s, %s; reason %s)",
           tostring(g[1]), tostring(g[2]), tostring(why)))
  if ok then
    local chk = tostring(p.ad.check)
    t.ok(chk:find("not checked", 1, true) ~= nil
         and chk:find("inputs", 1, true) ~= nil,
         "p.ad.check says why grad= was not checked: " .. chk)
  end
end)

-- a function that closes its own problem while p:eval checks its tape
-- (the check calls f at the trace point): an error, not a use of the
-- freed problem (found by the fuzzer: a null dereference in
-- ol_problem_eval under UBSan, a crash in the release build)
do
  local P
  P = problem.new{n = 1, x0 = {1}, f = function (x)
    if P and x[1] == 1 then P:close() end
    return x[1] ^ 2
  end}
  local ok, err = pcall(P.eval, P, {2})
  t.ok(not ok and tostring(err):find("closed", 1, true) ~= nil,
       "p:eval: f closing its own problem during the tape's check is an "
       .. "error naming it: " .. tostring(err))
end

t.done()
