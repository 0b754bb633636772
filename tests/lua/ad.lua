-- tests/lua/ad.lua -- traced Lua objectives (issue 15): grad, hessian, hvp
-- and tape at the prompt, problem.new{f = ...} without a gradient, guards,
-- fallbacks, ad = "check", and Newton / cubic on the traced Hessian.
--
-- Truth, never the tape itself:
--   the corpus (tests/lua/adfun.lua, More, Garbow & Hillstrom 1981 and
--   others): gradients against the complex step (exact to rounding), to
--   1e-10 relative (max-norm error over the max-norm of the truth);
--   Hessians against the hand-written ones and the complex step of the
--   hand gradients (1e-10), else 6th-order differences of the complex-step
--   gradient (1e-6);
--   the built-in problems re-written in Lua: gradient against p:eval of
--   the built-in, Hessian against core/problems/'s formulas and, through
--   one pure Newton step, against the built-in's own Hessian (1e-12);
--   piecewise functions: the one-sided derivatives in closed form;
--   fallbacks: the finite-difference run (ad = false), bit for bit.
-- Random points are seeded (SEED below, printed).
local t = dofile("tests/lib/tap.lua")
local F = dofile("tests/lua/adfun.lua")
local SEED = 15015
t.diag("seed " .. SEED)
math.randomseed(SEED)
local rnd = math.random
local abs, max, fmt = math.abs, math.max, string.format
local relerr = F.relerr

-- A failing section reports one failed check with its error and the rest
-- of the file goes on.
local function section (name, fn)
  local ok, err = pcall(fn)
  if not ok then t.ok(false, name .. ": raised " .. tostring(err)) end
end

local function summary (r) return tostring(r) end

local function matvec (Hm, v)
  local y = {}
  for i = 1, #Hm do
    local s = 0
    for j = 1, #v do s = s + Hm[i][j] * v[j] end
    y[i] = s
  end
  return y
end

local function symerr (Hm)
  local e, d = 0, 0
  for i = 1, #Hm do
    for j = 1, #Hm do
      e = max(e, abs(Hm[i][j] - Hm[j][i]))
      d = max(d, abs(Hm[i][j]))
    end
  end
  return e / max(d, 1e-300)
end

-- The Jacobian of a vector function gf (x -> table) by the 6th-order
-- central differences and Richardson step of F.fdgrad, column by column.
local function fdjac (gf, x)
  local n, J = #x, {}
  for i = 1, n do J[i] = {} end
  for j = 1, n do
    local function d (h)
      local acc = {}
      local w = {[-3] = -1, [-2] = 9, [-1] = -45, [1] = 45, [2] = -9, [3] = 1}
      for k, c in pairs(w) do
        local y = {table.unpack(x, 1, n)}
        y[j] = x[j] + k * h
        local g = gf(y)
        for i = 1, n do acc[i] = (acc[i] or 0) + c * g[i] end
      end
      for i = 1, n do acc[i] = acc[i] / (60 * h) end
      return acc
    end
    local h = 1e-2 * max(0.01, abs(x[j]))
    local a, b = d(h / 2), d(h)
    for i = 1, n do J[i][j] = (64 * a[i] - b[i]) / 63 end
  end
  return J
end

-- (0) the calculator functions exist ----------------------------------------
for _, name in ipairs{"grad", "hessian", "hvp", "tape"} do
  t.is(type(_G[name]), "function", "ad: " .. name .. " is a global function")
end

-- (1) the corpus: gradients vs the complex step, Hessians ------------------
section("ad: corpus", function ()
  local worstg, worstp, worsth, worstv = 0, 0, 0, 0
  for _, fn in ipairs(F.corpus) do
    local pts = {fn.x0}
    for k = 2, 4 do pts[k] = F.point(fn.x0, rnd) end
    -- x0 of Watson is 0, where its gradient is fine, but of helical
    -- valley x1 = -1: all points keep the branch x1 < 0
    local eg, ep, ef = 0, 0, 0
    local p = problem.new{n = fn.n, f = fn.f, name = fn.name}
    for _, x in ipairs(pts) do
      local gcs = F.csgrad(fn.f, x)
      local g, why = grad(fn.f, x)
      if why ~= nil then eg = math.huge; t.diag(fn.name .. ": " .. why) end
      eg = max(eg, relerr(g, gcs))
      local fv, gp = p:eval(x)
      ep = max(ep, relerr(gp, gcs))
      local f0 = fn.f(x)
      ef = max(ef, abs(fv - f0) / max(abs(f0), 1e-300))
    end
    if p.ad == nil or p.ad.mode ~= "traced" then ep = math.huge end
    worstg, worstp = max(worstg, eg), max(worstp, ep)
    t.ok(eg <= 1e-10, fmt("ad: %s (%s, n=%d): grad vs complex step at x0 "
         .. "and 3 random points, rel err %.1e <= 1e-10", fn.name, fn.source,
         fn.n, eg))
    t.ok(ep <= 1e-10 and ef <= 1e-14, fmt("ad: %s: problem.new{f} traced: "
         .. "p:eval's g rel err %.1e <= 1e-10, f rel err %.1e <= 1e-14",
         fn.name, ep, ef))
    -- the Hessian at one random point
    local x = pts[2]
    local Hm = hessian(fn.f, x)
    local truth, tol, what
    if fn.hess then
      truth, tol, what = fn.hess(x), 1e-10, "the hand Hessian"
      local ecs = relerr(Hm, F.cshess(fn.grad, x))
      t.ok(ecs <= 1e-10, fmt("ad: %s: hessian vs complex step of the hand "
           .. "gradient, rel err %.1e <= 1e-10", fn.name, ecs))
    elseif fn.grad then
      truth, tol, what = F.cshess(fn.grad, x), 1e-10,
        "complex step of the hand gradient"
    else
      truth, tol, what = fdjac(function (y) return F.csgrad(fn.f, y) end, x),
        1e-6, "differences of the complex-step gradient"
    end
    local eh = relerr(Hm, truth)
    worsth = max(worsth, tol == 1e-10 and eh or 0)
    t.ok(eh <= tol and symerr(Hm) == 0, fmt("ad: %s: hessian vs %s, rel "
         .. "err %.1e <= %g, symmetric", fn.name, what, eh, tol))
    -- H v against the dense Hessian's product
    local v = {}
    for i = 1, fn.n do v[i] = 2 * rnd() - 1 end
    local ev = relerr(hvp(fn.f, x, v), matvec(Hm, v))
    worstv = max(worstv, ev)
    t.ok(ev <= 1e-12, fmt("ad: %s: hvp(f, x, v) = hessian(f, x) v, rel err "
         .. "%.1e <= 1e-12", fn.name, ev))
    p:close()
  end
  t.diag(fmt("corpus of %d: worst grad %.1e, p:eval %.1e, hessian (exact "
         .. "truth) %.1e, hvp %.1e", #F.corpus, worstg, worstp, worsth,
         worstv))
end)

-- (2) the built-in problems re-written in Lua -------------------------------
local function newtonstep (p, x)
  local r = run(p, optim.newton{step = "pure"}, {iters = 1, x0 = x,
                progress = false, view = false})
  return r, r.x
end

section("ad: built-ins", function ()
  for _, b in ipairs(F.builtins) do
    local pb = problem[b.name](b.args)
    local pl = problem.new{n = b.n, f = b.f, name = "lua " .. b.name}
    local eg, ep, eh, es = 0, 0, 0, 0
    local nh, fd = 0, false
    for _ = 1, 3 do
      local x = F.point(pb.x0, rnd)
      local _, gb = pb:eval(x)
      eg = max(eg, relerr(grad(b.f, x), gb))
      local _, gl = pl:eval(x)
      ep = max(ep, relerr(gl, gb))
      eh = max(eh, relerr(hessian(b.f, x), b.hess(x)))
      -- the built-in's own Hessian, through one pure Newton step
      local rb, xb = newtonstep(pb, x)
      local rl, xl = newtonstep(pl, x)
      local sb, sl = {}, {}
      for i = 1, b.n do sb[i], sl[i] = xb[i] - x[i], xl[i] - x[i] end
      es = max(es, relerr(sl, sb))
      nh = nh + rl.nhev
      fd = fd or rl.fdhess
      rb:close(); rl:close()
    end
    local tag = fmt("%s{n=%d}", b.name, b.n)
    t.ok(eg <= 1e-12, fmt("ad: built-in %s: grad of the Lua f vs p:eval, "
         .. "rel err %.1e <= 1e-12", tag, eg))
    t.ok(ep <= 1e-12, fmt("ad: built-in %s: problem.new{f} p:eval vs the "
         .. "built-in's, rel err %.1e <= 1e-12", tag, ep))
    t.ok(eh <= 1e-12, fmt("ad: built-in %s: hessian vs %s.c's H, rel err "
         .. "%.1e <= 1e-12", tag, b.name, eh))
    t.ok(es <= 1e-12 and nh == 3 and fd == false, fmt("ad: built-in %s: a "
         .. "pure Newton step on the traced Hessian = the built-in's, rel err "
         .. "%.1e <= 1e-12 (nhev %d, fdhess %s)", tag, es, nh, tostring(fd)))
    pb:close(); pl:close()
  end
  -- the quadratic: its H read back from the built-in (g(e_j) = H e_j)
  local n = 5
  local pq = problem.quadratic{n = n, cond = 100, seed = 3}
  local Hq = {}
  for i = 1, n do Hq[i] = {} end
  for j = 1, n do
    local e = {}
    for i = 1, n do e[i] = i == j and 1 or 0 end
    local _, g = pq:eval(e)
    for i = 1, n do Hq[i][j] = g[i] end
  end
  local fq = F.quadratic(Hq)
  local eg, eh = 0, 0
  for _ = 1, 3 do
    local x = {}
    for i = 1, n do x[i] = 2 * rnd() - 1 end
    local _, g = pq:eval(x)
    eg = max(eg, relerr(grad(fq, x), g))
    eh = max(eh, relerr(hessian(fq, x), Hq))
  end
  t.ok(eg <= 1e-12, fmt("ad: built-in quadratic{n=5, cond=100, seed=3}: "
       .. "grad of 1/2 x'Hx vs p:eval, rel err %.1e <= 1e-12", eg))
  t.ok(eh <= 1e-12, fmt("ad: built-in quadratic: hessian = its H, rel err "
       .. "%.1e <= 1e-12", eh))
  pq:close()
  -- 1000-D extended (chained) Rosenbrock: the traced gradient vs the C one
  local pr = problem.rosenbrock{n = 1000}
  local x = F.point(pr.x0, rnd)
  local _, g = pr:eval(x)
  local e = relerr(grad(F.builtins[1].f, x), g)
  t.ok(e <= 1e-12, fmt("ad: rosenbrock{n=1000}: grad of the Lua f vs "
       .. "p:eval, rel err %.1e <= 1e-12", e))
  pr:close()
end)

-- (3) guards: one-sided derivatives on each side of a kink -----------------
-- Each: f, the kink, and g(x) in closed form on either side.
local kinks = {
  {name = "3 |x1 - 1| + x2^2", kink = 1,
   f = function (x) return 3 * math.abs(x[1] - 1) + x[2] ^ 2 end,
   g = function (x) return {x[1] < 1 and -3 or 3, 2 * x[2]} end},
  {name = "2 max(x1, 2 - x1) + x1 x2", kink = 1,
   f = function (x) return 2 * math.max(x[1], 2 - x[1]) + x[1] * x[2] end,
   g = function (x) return {(x[1] < 1 and -2 or 2) + x[2], x[1]} end},
  {name = "min(x1^2, x1) + x2", kink = 1,
   f = function (x) return math.min(x[1] ^ 2, x[1]) + x[2] end,
   g = function (x)
     return {(x[1] > 0 and x[1] < 1) and 2 * x[1] or 1, 1}
   end},
  {name = "if x1 > 0 then e^x1 x2 else 1 + x1 - x1^2 + x2", kink = 0,
   f = function (x)
     if x[1] > 0 then return math.exp(x[1]) * x[2] end
     return 1 + x[1] - x[1] ^ 2 + x[2]
   end,
   g = function (x)
     if x[1] > 0 then return {math.exp(x[1]) * x[2], math.exp(x[1])} end
     return {1 - 2 * x[1], 1}
   end},
  {name = "floor(x1) + x1^2 x2", kink = 1,
   f = function (x) return math.floor(x[1]) + x[1] ^ 2 * x[2] end,
   g = function (x) return {2 * x[1] * x[2], x[1] ^ 2} end},
}

-- The tapes a problem has recorded: p.ad.traces when the binding keeps
-- that field, else the number in the summary's "N traces" / "re-traced N".
local function traces (p, r)
  local ok, ad = pcall(function () return p.ad end)
  if ok and type(ad) == "table" and type(ad.traces) == "number" then
    return ad.traces
  end
  if r then
    local s = summary(r)
    local k = s:match("(%d+) traces?") or s:match("re%-?traced (%d+)")
    if k then return tonumber(k) end
  end
  return nil
end

section("ad: guards", function ()
  for _, k in ipairs(kinks) do
    local p = problem.new{n = 2, f = k.f, name = "kink"}
    local worst, worstp = 0, 0
    -- back and forth across the kink, 20 points, 10 on each side
    for i = 1, 20 do
      local side = i % 2 == 0 and 1 or -1
      local x = {k.kink + side * (0.05 + 0.4 * rnd()), 0.5 + rnd()}
      worst = max(worst, relerr(grad(k.f, x), k.g(x)))
      local fv, g = p:eval(x)
      worstp = max(worstp, relerr(g, k.g(x)))
      worstp = max(worstp, abs(fv - k.f(x)) / max(1, abs(fv)))
    end
    t.ok(worst <= 1e-14, fmt("ad: guard %s: grad on either side of the "
         .. "kink = the one-sided closed form, rel err %.1e", k.name, worst))
    t.ok(worstp <= 1e-14, fmt("ad: guard %s: p:eval back and forth across "
         .. "the kink, 20 points: f and g right on both sides (%.1e)", k.name,
         worstp))
    local nt = traces(p)
    t.ok(nt ~= nil and nt >= 2 and nt <= 3, fmt("ad: guard %s: 20 "
         .. "evaluations across the kink record %s tapes (expected 2: one per "
         .. "side, cached; at most 3)", k.name, tostring(nt)))
    p:close()
  end
  -- in a run: gradient descent on |x1 - 1| + x2^2 steps across the kink;
  -- the summary reports the tapes and they stay bounded
  local p = problem.new{n = 2, f = kinks[1].f, x0 = {0, 1}, name = "kink"}
  local r = run(p, optim.gd{lr = 0.07}, {iters = 200, progress = false,
                view = false})
  local s = summary(r)
  t.ok(s:find("gradient: traced", 1, true) ~= nil,
       "ad: guard run: the summary says the gradient was traced")
  local nt = traces(p, r)
  t.ok(nt ~= nil and nt <= 3, fmt("ad: guard run: gd oscillating across the "
       .. "kink of 3|x1 - 1| for 200 steps recorded %s tapes (bounded by 3)",
       tostring(nt)))
  t.diag("guard run summary:\n" .. s)
  t.ok(abs(r.x[1] - 1) <= 0.21 + 1e-12 and r.fdgrad == false,
       fmt("ad: guard run: x1 = %.6f within one step (0.21) of the kink, "
           .. "no finite differences", r.x[1]))
  r:close(); p:close()
  -- no Lua call per evaluation while the guards hold: f counts its calls
  -- in a table (a write the tracer does not see), 1000 steps of gd that
  -- cross the kink of the if-function call f once per tape recorded
  local calls = {0}
  local pc = problem.new{n = 2, x0 = {0.3, 1}, f = function (x)
    calls[1] = calls[1] + 1
    if x[1] > 0 then return math.exp(x[1]) * x[2] end
    return 1 + x[1] - x[1] ^ 2 + x[2]
  end}
  local rc = run(pc, optim.gd{lr = 0.35}, {iters = 1000, progress = false,
                 view = false})
  -- (each trace calls f twice: with tracers, then with numbers to check
  -- the tape's value; making the run checks the tape once more, issue 22)
  t.ok(pc.ad.mode == "traced" and calls[1] == 2 * pc.ad.traces + 1
       and pc.ad.traces <= 3, fmt("ad: 1000 gd steps across the kink of "
       .. "the Lua if call f %d times, twice per trace (%d traces) and once "
       .. "at the run's start: none per evaluation", calls[1], pc.ad.traces))
  rc:close(); pc:close()
  -- more patterns than the cache holds: floor(1000 x1) has a guard pair
  -- per cell; 300 cells re-trace until the bound, then differences, said
  local pf = problem.new{n = 1, f = function (x)
    return 0 * math.floor(1000 * x[1]) + x[1] ^ 2
  end}
  local worst = 0
  for i = 1, 300 do
    local x = (i + 0.5) / 1000
    local _, g = pf:eval({x})
    worst = max(worst, abs(g[1] - 2 * x))
  end
  local info = pf.ad
  t.ok(info.traces <= 101 and info.mode == "fd" and
       tostring(info.reason):find("trace") ~= nil, fmt("ad: 300 guard "
       .. "patterns: %d traces (bounded by 101), then finite differences "
       .. "(%s)", info.traces, tostring(info.reason)))
  t.ok(worst <= 1e-6, fmt("ad: ... and the gradient stays right throughout "
       .. "(max error %.1e <= 1e-6)", worst))
  pf:close()
end)

-- (3b) a helper: f calls a Lua function that uses math.*; f itself names
-- no global (so it has no _ENV of its own to swap)
section("ad: helper", function ()
  local function helper (x) return math.exp(x[1]) * math.sin(x[2]) end
  local p = problem.new{n = 2, f = function (x) return helper(x) end}
  local x = {0.3, 0.7}
  local _, g = p:eval(x)
  local want = {math.exp(0.3) * math.sin(0.7), math.exp(0.3) * math.cos(0.7)}
  t.ok(p.ad.mode == "traced" and relerr(g, want) <= 1e-15, fmt("ad: f = "
       .. "function (x) return helper(x) end, helper using math.exp and "
       .. "math.sin, is traced (mode %s%s)", p.ad.mode,
       p.ad.reason and ": " .. p.ad.reason or ""))
  p:close()
  -- math functions captured in locals before the trace (as a file's
  -- header does: local exp, log = math.exp, math.log) trace too, and
  -- still give Lua's own results for numbers
  local f = (function ()
    local exp, log, sqrt, abs, max = math.exp, math.log, math.sqrt,
      math.abs, math.max
    return function (x)
      return exp(x[1]) + log(x[2]) + sqrt(x[1] * x[1] + 1) + abs(x[2])
        + max(x[1], x[2])
    end
  end)()
  local q = problem.new{n = 2, f = f, x0 = {0.3, 2}}
  local x = {0.3, 2}
  local _, gq = q:eval(x)
  local wantq = {math.exp(0.3) + 0.3 / math.sqrt(1.09), 0.5 + 1 + 1}
  t.ok(q.ad.mode == "traced" and relerr(gq, wantq) <= 1e-15,
       fmt("ad: math.exp, log, sqrt, abs, max captured in locals before the "
           .. "trace are traced (mode %s, rel err %.1e)", q.ad.mode,
           relerr(gq, wantq)))
  t.ok(math.type(math.abs(-3)) == "integer" and math.max(1, 2) == 2 and
       math.type(math.floor(2.5)) == "integer" and math.exp(0) == 1.0 and
       not pcall(math.exp, "x"),
       "ad: the wrapped math functions keep Lua's results and errors for "
       .. "numbers (integer abs, floor; exp('x') raises)")
  q:close()
end)

-- (4) fallbacks: untraceable functions run on finite differences ------------
local function fq2 (x) return (x[1] - 1) ^ 2 + 2 * (x[2] + 0.5) ^ 2 end
local untraceable = {
  {what = "tostring(x[1])", pat = "tostring",
   f = function (x)
     local s = tostring(x[1])
     return fq2(x) + 0 * #s
   end},
  {what = "a global write", pat = "global",
   f = function (x)
     ad_test_calls = (ad_test_calls or 0) + 1
     return fq2(x)
   end},
  {what = "tonumber-style use (string.format %f)", pat = nil,
   f = function (x)
     local s = string.format("%.3f", x[1])
     return fq2(x) + 0 * #s
   end},
}

section("ad: fallbacks", function ()
  for _, u in ipairs(untraceable) do
    local opts = {iters = 40, progress = false, view = false}
    local pa = problem.new{n = 2, f = u.f, x0 = {3, 2}, name = "fb"}
    local pf = problem.new{n = 2, f = u.f, x0 = {3, 2}, name = "fb", ad = false}
    local ra = run(pa, optim.gd{lr = 0.1}, opts)
    local rf = run(pf, optim.gd{lr = 0.1}, opts)
    local same = ra.iter == rf.iter
    for i = 1, 2 do same = same and ra.x[i] == rf.x[i] end
    t.ok(same, fmt("ad: fallback on %s: the run equals the ad = false run "
         .. "bit for bit (%.17g, %.17g) vs (%.17g, %.17g)", u.what, ra.x[1],
         ra.x[2], rf.x[1], rf.x[2]))
    local s = summary(ra)
    local reason = s:match("gradient: finite differences %((.-)%)")
    t.ok(reason ~= nil and ra.fdgrad == true and (u.pat == nil
         or reason:find(u.pat, 1, true) ~= nil), fmt("ad: fallback on %s: "
         .. "the summary says \"gradient: finite differences (%s)\"", u.what,
         tostring(reason)))
    ra:close(); rf:close(); pa:close(); pf:close()
  end
  local g, why = grad(untraceable[1].f, {0.5, 0.5})
  t.ok(type(why) == "string" and why:find("tostring", 1, true)
       and abs(g[1] + 1) < 1e-8 and abs(g[2] - 4) < 1e-8, fmt("ad: grad on "
       .. "an untraceable f: central differences and the reason (%s)",
       tostring(why)))
  -- the message is given once, when the problem is made or first
  -- evaluated, not at every evaluation
  local cmd = "./optlab --no-tui -e '" ..
    "local p = problem.new{n = 1, f = function (x) local s = tostring(x[1]) " ..
    "return x[1]^2 end}; for i = 1, 5 do p:eval({i}) end; " ..
    "run(p, optim.gd{}, {iters = 5, progress = false, view = false})' 2>&1"
  local h = io.popen(cmd)
  local out = h:read("a")
  h:close()
  local n = 0
  for _ in out:gmatch("finite differences") do n = n + 1 end
  t.ok(n == 1, fmt("ad: fallback: the message is printed once (%d times): %s",
       n, out:gsub("\n", " | ")))
end)

-- (5) ad = "check" and ad = false -------------------------------------------
section("ad: check", function ()
  local f = F.builtins[1].f
  local p = problem.new{n = 2, f = f, x0 = {-1.2, 1}, ad = "check"}
  local ok, ad = pcall(function () return p.ad end)
  local err = ok and type(ad) == "table" and ad.check or nil
  t.ok(type(err) == "number" and err >= 0 and err < 1e-6, fmt("ad: ad = "
       .. "\"check\" reports the tape's error against differences at x0: %s "
       .. "(< 1e-6)", tostring(err)))
  local r = run(p, optim.gd{lr = 1e-3}, {iters = 5, progress = false,
                view = false})
  local s = summary(r)
  t.ok(s:find("check", 1, true) ~= nil, "ad: ad = \"check\": the summary "
       .. "carries the check's figure")
  t.diag(s)
  r:close(); p:close()
  local pf = problem.new{n = 2, f = f, ad = false}
  local rf = run(pf, optim.gd{lr = 1e-3}, {iters = 5, progress = false,
                 view = false})
  t.ok(rf.fdgrad == true and summary(rf):find("finite differences", 1, true),
       "ad: ad = false: finite differences, said in the summary")
  rf:close(); pf:close()
  t.errors("ad", function () problem.new{n = 2, f = f, ad = "maybe"} end)
end)

-- (6) Newton and cubic use the traced Hessian --------------------------------
section("ad: second order", function ()
  local f = F.builtins[1].f
  for _, m in ipairs{{"newton", optim.newton{}}, {"cubic", optim.cubic{}}} do
    local pl = problem.new{n = 2, f = f, x0 = {-1.2, 1}, name = "lua rosen"}
    local pb = problem.rosenbrock{n = 2}
    local opts = {iters = 100, progress = false, view = false}
    local rl, rb = run(pl, m[2], opts), run(pb, m[2], opts)
    local s = summary(rl)
    t.ok(rl.nhev > 0 and rl.fdhess == false and rl.fdgrad == false
         and not s:find("Hessians (by finite", 1, true),
         fmt("ad: %s on a Lua objective: %d traced Hessians, no finite "
             .. "differences", m[1], rl.nhev))
    t.ok(abs(rl.x[1] - 1) < 1e-10 and abs(rl.x[2] - 1) < 1e-10,
         fmt("ad: %s on the traced Rosenbrock reaches (1, 1): (%.12f, %.12f)",
             m[1], rl.x[1], rl.x[2]))
    t.ok(rl.iter == rb.iter and relerr(rl.x, rb.x) <= 1e-12,
         fmt("ad: %s: the traced run follows the built-in's (%d vs %d "
             .. "iterations)", m[1], rl.iter, rb.iter))
    local nops, ng = s:match("gradient: traced %(tape of (%d+) ops?, (%d+) "
                             .. "guards?%)")
    t.ok(nops ~= nil and tonumber(nops) > 0 and tonumber(ng) == 0,
         fmt("ad: %s: the summary says \"gradient: traced (tape of %s ops, "
             .. "%s guards)\"", m[1], tostring(nops), tostring(ng)))
    rl:close(); rb:close(); pl:close(); pb:close()
  end
end)

-- (7) densities: problem.density{logp} without grad is traced too -----------
section("ad: density Hessian", function ()
  -- preconditioned MALA on a bounded Lua density takes the traced Hessian
  -- through the bound transform: no gradient beyond one per step; and its
  -- first 5 steps are those of the density whose Hessian is taken by
  -- differences, to the differences' accuracy (seed 3; later an accept
  -- decision may go the other way, and the chains part)
  local lp = function (x)
    return -0.5 * (x[1] ^ 2 + 4 * x[2] ^ 2 + x[1] * x[2]) + math.log(x[3])
      - x[3]
  end
  local mk = function (ad)
    return problem.density{n = 3, logp = lp, ad = ad, x0 = {0, 0, 1},
                           lower = {-math.huge, -math.huge, 0}}
  end
  local opts = {iters = 50, seed = 3, progress = false, view = false}
  local pt, pf = mk(true), mk(false)
  local rt = run(pt, sample.pmala{}, opts)
  local r5 = run(pt, sample.pmala{}, {iters = 5, seed = 3, progress = false,
                                      view = false})
  local rf = run(pf, sample.pmala{}, {iters = 5, seed = 3, progress = false,
                                      view = false})
  t.ok(rt.nhev == 51 and rt.ngev == rt.nfev and
       not summary(rt):find("Hessians (by finite", 1, true),
       fmt("ad: pmala on a traced bounded density: %d Hessians, %d "
           .. "gradients for %d values (none by differences)", rt.nhev,
           rt.ngev, rt.nfev))
  t.ok(rf.ngev > rf.nfev and relerr(r5.x, rf.x) <= 1e-4,
       fmt("ad: ... after 5 steps at the finite-difference chain's point "
           .. "to %.1e (<= 1e-4)", relerr(r5.x, rf.x)))
  rt:close(); r5:close(); rf:close(); pt:close(); pf:close()
end)

section("ad: density", function ()
  local p = problem.density{n = 2, logp = function (x)
    return -0.5 * (x[1] ^ 2 + 4 * x[2] ^ 2) + math.log(1 + x[1] ^ 2)
  end}
  local x = {0.7, -0.3}
  local U, g = p:eval(x)
  local want = {x[1] - 2 * x[1] / (1 + x[1] ^ 2), 4 * x[2]}
  t.ok(relerr(g, want) <= 1e-14 and abs(U - (0.5 * (0.49 + 0.36)
       - math.log(1.49))) <= 1e-14, fmt("ad: density: the potential's "
       .. "traced gradient in closed form (%.1e)", relerr(g, want)))
  local r = run(p, sample.mala{}, {iters = 10, progress = false,
                view = false})
  t.ok(summary(r):find("gradient: traced", 1, true) ~= nil,
       "ad: density: the summary says the gradient was traced")
  r:close(); p:close()
end)

-- (7b) constraints without a gradient are traced: auglag with the traced
-- c follows the run with c's hand-written gradient
section("ad: constraints", function ()
  local function obj (x) return (x[1] - 2) ^ 2 + (x[2] - 1) ^ 2 end
  local function c (x) return 1 - x[1] ^ 2 - x[2] ^ 2 end
  local function cg (x, g) g[1], g[2] = -2 * x[1], -2 * x[2] end
  local function mk (con, ad)
    return problem.new{n = 2, f = obj, x0 = {0, 0}, ad = ad,
                       constraints = {con}}
  end
  local opts = {iters = 200, progress = false, view = false}
  local pt = mk({kind = "ineq", c = c})
  local ph = mk({kind = "ineq", c = c, grad = cg})
  local pd = mk({kind = "ineq", c = c}, false)
  local rt = run(pt, optim.auglag{}, opts)
  local rh = run(ph, optim.auglag{}, opts)
  local rd = run(pd, optim.auglag{}, opts)
  local xs = {2 / math.sqrt(5), 1 / math.sqrt(5)}
  t.ok(relerr(rt.x, rh.x) <= 1e-12 and rt.iter == rh.iter, fmt("ad: "
       .. "constraint traced: auglag's run = the hand-gradient run (%.1e, "
       .. "%d vs %d iterations; differences run off by %.1e)",
       relerr(rt.x, rh.x), rt.iter, rh.iter, relerr(rd.x, rh.x)))
  t.ok(relerr(rt.x, xs) <= 1e-6, fmt("ad: constraint traced: x* = (2, 1)/"
       .. "sqrt 5 (%.1e)", relerr(rt.x, xs)))
  rt:close(); rh:close(); rd:close(); pt:close(); ph:close(); pd:close()
end)

-- (8) tape(f, x) prints the tape ---------------------------------------------
section("ad: tape", function ()
  local cmd = "./optlab --no-tui -e 'tape(function (x) " ..
    "return x[1] * x[2] + math.exp(x[1]) + math.abs(x[2]) end, {1, 2})' 2>&1"
  local h = io.popen(cmd)
  local out = h:read("a")
  h:close()
  t.diag(out)
  t.ok(out:find("mul") and out:find("exp") and out:find("ops?")
       and out:find("1 guard"), "ad: tape(f, x) prints the ops (mul, exp), "
       .. "the op count and the guard of abs")
end)

-- a function that uses an optlab object while traced (a problem's eval,
-- a run) would act at trace time only: it falls back to Lua calls, says
-- so, and its values are those of ad = false
section("fallback: optlab objects", function ()
  local Q = problem.rosenbrock{n = 2}
  local f = function (x) local v = Q:eval({x[1], x[2]}) return v + x[1]^2 end
  local p = problem.new{n = 2, f = f, x0 = {0.5, -0.5}}
  local q = problem.new{n = 2, f = f, x0 = {0.5, -0.5}, ad = false}
  t.ok(p.ad.mode ~= "tape" and tostring(p.ad.reason):find("uses a problem"),
       "ad: an f that evaluates a problem is not traced ("
       .. tostring(p.ad.reason) .. ")")
  local fp, gp = p:eval({0.3, 0.2})
  local fq, gq = q:eval({0.3, 0.2})
  t.ok(fp == fq and gp[1] == gq[1] and gp[2] == gq[2],
       "ad: ... and evaluates as with ad = false")
end)

t.done()
