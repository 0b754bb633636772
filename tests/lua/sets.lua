-- tests/lua/sets.lua -- constraint sets from Lua (set = {box = {lo, hi}},
-- {simplex = {3, 3}}, {l1ball = r}, {l2ball = r}, and the older "simplex"
-- and {lo =, hi =}), their messages, and the methods over them: optim.fw
-- (standard, away, pairwise), optim.md and optim.rmplus.
--
-- Truth: on f(x) = 1/2 ||x - c||^2 one pgd step with lr = 1 from any x0 is
-- x1 = P(c), the Euclidean projection, checked against closed forms worked
-- by hand; the minimisers of the quadratics below are found by hand from
-- their KKT conditions (stated at each).
local t = dofile("tests/lib/tap.lua")

local quiet = {progress = false, view = false}
local function opts (o)
  local r = {}
  for k, v in pairs(quiet) do r[k] = v end
  for k, v in pairs(o) do r[k] = v end
  return r
end

-- f = 1/2 sum h_i (x_i - c_i)^2 (h = 1 when absent) over set, start x0
local function quad (c, set, x0, h)
  local n = #c
  return problem.new{
    n = n, set = set, x0 = x0,
    f = function (x)
      local s = 0
      for i = 1, n do s = s + 0.5 * (h and h[i] or 1) * (x[i] - c[i])^2 end
      return s
    end,
    grad = function (x, g)
      for i = 1, n do g[i] = (h and h[i] or 1) * (x[i] - c[i]) end
    end}
end

local function proj (c, set, x0)
  local r = run(quad(c, set, x0), optim.pgd{lr = 1}, opts{iters = 1})
  return r.x
end

local function near (x, want, tol, desc)
  local worst = 0
  for i = 1, #want do worst = math.max(worst, math.abs(x[i] - want[i])) end
  t.ok(worst <= tol, desc .. string.format(" (max error %.3g)", worst))
end

-- (1) every spelling, its projection
near(proj({0.8, 0.6, -3, 2, 0, 0}, {simplex = {3, 3}}, {1, 0, 0, 0, 1, 0}),
     {0.6, 0.4, 0, 1, 0, 0}, 1e-15,
     "sets: {simplex = {3, 3}} projects each block (tau = 0.2; vertex)")
near(proj({1, 1, 1}, "simplex", {1, 0, 0}), {1/3, 1/3, 1/3}, 1e-15,
     "sets: \"simplex\" is one simplex of all n")
near(proj({1, 1, 1}, {simplex = 3}, {1, 0, 0}), {1/3, 1/3, 1/3}, 1e-15,
     "sets: {simplex = n} is one simplex")
near(proj({-2, 0.5, 3}, {box = {-1, 1}}, {0, 0, 0}), {-1, 0.5, 1}, 0,
     "sets: {box = {lo, hi}} with numbers clamps")
near(proj({-2, 0.5, 3}, {box = {{-3, 0, 0}, {0, 1, 2}}}, {0, 0, 0}),
     {-2, 0.5, 2}, 0, "sets: {box = {lo, hi}} with tables clamps")
near(proj({-2, 0.5, 3}, {box = {lo = 0}}, {0, 0, 0}), {0, 0.5, 3}, 0,
     "sets: {box = {lo = 0}} is unbounded above")
near(proj({-2, 0.5, 3}, {lo = -1, hi = {1, 0, 1}}, {0, 0, 0}), {-1, 0, 1},
     0, "sets: the older {lo =, hi =} still clamps")
near(proj({3, -1, 0.2}, {l1ball = 1.5}, {0, 0, 0}), {1.5, 0, 0}, 1e-15,
     "sets: {l1ball = 1.5}: (3, -1, 0.2) -> (1.5, 0, 0) (tau = 1.5)")
near(proj({1, -1, 0}, {l1ball = 1.5}, {0, 0, 0}), {0.75, -0.75, 0}, 1e-15,
     "sets: {l1ball = 1.5}: (1, -1, 0) -> (0.75, -0.75, 0)")
near(proj({3, -4}, {l2ball = 0.7}, {0, 0}), {0.42, -0.56}, 1e-15,
     "sets: {l2ball = 0.7}: (3, -4) -> 0.7 (3, -4) / 5")
near(proj({0.1, 0.2}, {l2ball = 0.7}, {0, 0}), {0.1, 0.2}, 0,
     "sets: a point of the l2 ball is its own projection")

-- (2) messages: the valid keys and ranges
local function mk (set, n) return problem.quadratic{n = n or 2, set = set} end
t.errors("set: simplex blocks sum to 5, not n = 6", mk, {simplex = {3, 2}},
         6)
t.errors("set.simplex[2] = 0 is not a block size in [1, n = 6]", mk,
         {simplex = {3, 0}}, 6)
t.errors("set.simplex has 9 blocks, out of range [1, 8]", mk,
         {simplex = {1, 1, 1, 1, 1, 1, 1, 1, 1}}, 9)
t.errors("set: lo[1] = 2 > hi[1] = 1", mk, {box = {2, 1}})
t.errors("set.box.lo has 3 entries, expected n = 2", mk,
         {box = {{0, 0, 0}, 1}})
t.errors("set: l1ball radius r = 0 is out of range (0, inf)", mk,
         {l1ball = 0})
t.errors("set: l2ball radius r = -1 is out of range (0, inf)", mk,
         {l2ball = -1})
t.errors("set.l2ball must be a radius r > 0, got a string", mk,
         {l2ball = "1"})
t.errors("unknown set key 'ball' (valid: box, simplex, l1ball, l2ball, lo, "
         .. "hi)", mk, {ball = 1})
t.errors("set has both", mk, {l1ball = 1, box = {0, 1}})
t.errors("set is empty (valid keys: box, simplex, l1ball, l2ball)", mk, {})
t.errors("set = 'ball' (valid: \"simplex\", {box = {lo, hi}}", mk, "ball")
t.errors("set must be {box = {lo, hi}}, {simplex = {k1, k2, ...}}, "
         .. "{l1ball = r} or {l2ball = r}, got a number", mk, 3)
t.errors("run: x0 is outside the l2 ball: ||x0||_2 = 3 > r = 1", run,
         mk({l2ball = 1}), optim.pgd{}, opts{x0 = {3, 0}})
t.errors("run: x0 is outside the l1 ball: ||x0||_1 = 2 > r = 1.5", run,
         mk({l1ball = 1.5}), optim.pgd{}, opts{x0 = {1, -1}})

-- (3) Frank-Wolfe on a simplex QP whose solution is on a face: h = (1, 2,
-- 3, 1), c = (0.8, 0.5, 0.3, -0.2); KKT x_i = max(c_i - mu / h_i, 0),
-- sum 1: on the support {1, 2, 3}, mu (1 + 1/2 + 1/3) = 1.6 - 1, mu =
-- 0.6 / (11/6) = 3.6 / 11, x* = (0.8 - 3.6/11, 0.5 - 1.8/11, 0.3 - 1.2/11,
-- 0) (x_4: -0.2 - mu < 0).  kkt is the Frank-Wolfe gap on simplices.
local mu = 3.6 / 11
local xs = {0.8 - mu, 0.5 - mu / 2, 0.3 - mu / 3, 0}
local qp = quad({0.8, 0.5, 0.3, -0.2}, {simplex = {4}}, {0, 0, 0, 1},
                {1, 2, 3, 1})
for _, v in ipairs{{away = true}, {pairwise = true}} do
  local name = next(v)
  local r = run(qp, optim.fw(v), opts{iters = 100, metrics = {"kkt"},
                                      stop_below = {kkt = 1e-12}})
  t.ok(r:last("kkt") <= 1e-12 and r.iter <= 60, string.format(
       "fw %s: kkt (FW gap) %.3g <= 1e-12 at step %d <= 60", name,
       r:last("kkt"), r.iter))
  near(r.x, xs, 1e-6, "fw " .. name .. ": x = x* of the KKT conditions")
end
local rs = run(qp, optim.fw{}, opts{iters = 2000, metrics = {"kkt", "loss"}})
local fstar = 0
for i, c in ipairs{0.8, 0.5, 0.3, -0.2} do
  fstar = fstar + 0.5 * ({1, 2, 3, 1})[i] * (xs[i] - c)^2
end
t.ok((rs:last("loss") - fstar) * 2002 <= 2 * 3 * 2, string.format(
     "fw: standard step: (t + 2)(f - f*) = %.3g <= 2 C_f = 12 at t = 2000",
     (rs:last("loss") - fstar) * 2002))
t.errors("fw: away and pairwise are two variants; choose one", function ()
  return run(qp, optim.fw{away = true, pairwise = true}, opts{iters = 1})
end)

-- (4) Frank-Wolfe with away steps on the l1 ball: c = (2, -1, 0.1), r = 1,
-- h = 1: soft threshold at tau = 1 gives (1, 0, 0)
local rl1 = run(quad({2, -1, 0.1}, {l1ball = 1}, {0, 0, 0}),
                optim.fw{away = true}, opts{iters = 200})
near(rl1.x, {1, 0, 0}, 1e-8, "fw away: l1 ball r = 1: x = (1, 0, 0)")

-- (5) entropic mirror descent on the same simplex QP: converges to x*,
-- every entry stays > 0; sets that are not simplices (or a box) refused
local rm = run(qp, optim.md{lr = 0.5}, opts{iters = 1000, x0 = {0.25, 0.25,
                                                              0.25, 0.25}})
near(rm.x, xs, 1e-8, "md: lr = 0.5: x = x* after 1000 steps")
local pos = true
for i = 1, 4 do pos = pos and rm.x[i] > 0 end
t.ok(pos, string.format("md: every entry stays > 0 (x_4 = %.3g, x*_4 = 0)",
                        rm.x[4]))
local rd = run(qp, optim.md{lr = 2, decay = "sqrt"}, opts{iters = 2000})
near(rd.x, xs, 1e-4, "md: decay = \"sqrt\" (eta = lr / sqrt(t + 1)) "
     .. "converges too")
t.errors("md needs a product of simplices (set = {simplex = {...}}) or a "
         .. "bounded box; quadratic's set is l2ball 1 (use fw or pgd)", run,
         mk({l2ball = 1}), optim.md{}, opts{iters = 1, x0 = {0, 0}})
t.errors("optim.md: decay = 'exp' is not one of none|sqrt", optim.md,
         {decay = "exp"})

-- (6) RM+ is already an optimizer over products of simplices (game.rmplus
-- on an objective: utilities u = -grad f; the RM+ eps-KKT paper's use)
local rr = run(qp, game.rmplus{}, opts{iters = 2000, metrics = {"kkt"},
                                      x0 = {0.25, 0.25, 0.25, 0.25}})
t.ok(rr:last("kkt") <= 1e-8, string.format("rmplus: kkt %.3g <= 1e-8 on "
     .. "the simplex QP after 2000 steps", rr:last("kkt")))
near(rr.x, xs, 1e-6, "rmplus: x = x* of the KKT conditions")

-- (7) optim.rmplus, the same rule as an optimizer: the last iterate is x*
-- with its zeros exact, the regret metric is its own account (a game
-- dynamic's otherwise), the average obeys f(xbar) - f* <= regret (one
-- block; convexity), alternation costs one gradient per block
local ro = run(qp, optim.rmplus{}, opts{iters = 2000, x0 = {0.25, 0.25,
                                         0.25, 0.25}, metrics = {"kkt",
                                         "regret"}})
t.ok(ro:last("kkt") <= 1e-14 and ro.x[4] == 0, string.format(
     "optim.rmplus: kkt %.3g <= 1e-14, x_4 = %g exactly 0", ro:last("kkt"),
     ro.x[4]))
near(ro.x, xs, 1e-14, "optim.rmplus: x = x* of the KKT conditions")
t.ok(ro:last("regret") >= 0 and ro:last("regret") <= 1e-2, string.format(
     "optim.rmplus: regret %.3g in [0, 1e-2] at T = 2000", ro:last("regret")))
local ra = run(qp, optim.rmplus{avg = "uniform"}, opts{iters = 500,
               metrics = {"loss", "regret"}})
t.ok(ra:last("loss") - fstar <= ra:last("regret"), string.format(
     "optim.rmplus avg = uniform: f(xbar) - f* = %.3g <= regret %.3g",
     ra:last("loss") - fstar, ra:last("regret")))
local q2 = quad({0.8, 0.5, 0.3, 0.9, -0.2, 0.1}, {simplex = {3, 3}},
                {1, 0, 0, 0, 0, 1}, {1, 2, 3, 1, 2, 3})
local r1 = run(q2, optim.rmplus{}, opts{iters = 20})
local r2 = run(q2, optim.rmplus{alternate = true}, opts{iters = 20})
t.ok(r1.ngev == r1.iter and r2.ngev == 2 * r2.iter, string.format(
     "optim.rmplus: %d gradients in %d steps, %d in %d alternating over 2 "
     .. "blocks", r1.ngev, r1.iter, r2.ngev, r2.iter))
near(r2.x, r1.x, 1e-14, "optim.rmplus: a separable f: alternating = "
     .. "simultaneous")
t.errors("rmplus needs a product of simplices (set = {simplex = {...}}) or "
         .. "a bounded box; quadratic's set is l2ball 1 (use fw or pgd)", run,
         mk({l2ball = 1}), optim.rmplus{}, opts{iters = 1, x0 = {0, 0}})
t.errors("regret needs a game dynamic on simplices or optim.rmplus (pgd on",
         run, qp, optim.pgd{}, opts{iters = 1, metrics = {"regret"}})
t.errors("optim.rmplus: avg = 'quadratic' is not one of none|uniform|linear",
         optim.rmplus, {avg = "quadratic"})

-- kkt on the balls is ||x - P(x - g)||: 0 at the constrained optimum,
-- not ||g||.  f = 1/2 ||x - c||^2 with c outside the ball: x* = P(c)
for _, b in ipairs({{l2ball = 1}, {l1ball = 1}}) do
  local name = next(b)
  local q = problem.new{n = 2, x0 = {0, 0}, set = b,
    f = function (x) return 0.5 * ((x[1] - 3)^2 + (x[2] - 1)^2) end,
    grad = function (x, g) g[1] = x[1] - 3; g[2] = x[2] - 1 end}
  local rb = run(q, optim.pgd{lr = 0.5}, {iters = 200, tol = 0,
                 metrics = {"kkt", "gradnorm"}, progress = false,
                 view = false})
  t.ok(rb:last("kkt") <= 1e-12 and rb:last("gradnorm") > 1,
       string.format("kkt on %s: %.3g at x* while |g| = %.3g", name,
                     rb:last("kkt"), rb:last("gradnorm")))
end

t.done()
