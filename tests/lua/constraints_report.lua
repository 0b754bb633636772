-- tests/lua/constraints_report.lua -- constrained solvers say what
-- happened (issue 22, item 12): an infeasible problem stops with reason
-- "infeasible" at the least-infeasible point; a budget spent with the
-- constraints violated warns; a start outside the bounds is moved inside
-- by IPOPT's bound push, with a notice; f and the constraints are scaled
-- as IPOPT's gradient-based scaling does, results reported unscaled; the
-- bound multipliers are r.zl, r.zu; print(r) shows f to full precision
-- and no gradnorm.
--
-- Truth: the least violation of each infeasible problem below, worked by
-- hand (x1^2 + 1 = 0: |c| >= 1, equality at x1 = 0; x1 + x2 >= 3 on
-- [0, 1]^2: 3 - x1 - x2 >= 1, equality at (1, 1)); IPOPT's bound push
-- p = min(1e-2 max(1, |bound|), 1e-2 (hi - lo)) (Waechter & Biegler
-- 2006, sec. 3.6; IPOPT's options bound_push, bound_frac); Hock &
-- Schittkowski's published optima: HS021 from the collection's start
-- (-1, -1), outside the bound x1 >= 2 (f* = -99.96 at (2, 0)), HS071
-- (f* = 17.0140173, and its bound multiplier z_L = 1.087871 on x1 >= 1
-- as IPOPT's documented HS071 example prints it), HS106, badly scaled
-- (f* = 7049.2480).  Tolerances are stated at each check.
local t = dofile("tests/lib/tap.lua")

local quiet = {progress = false, view = false}
local function opts (o)
  local r = {}
  for k, v in pairs(quiet) do r[k] = v end
  for k, v in pairs(o or {}) do r[k] = v end
  return r
end

-- (1) infeasible problems: reason, the least-infeasible point, the message
do
  local sq = problem.new{n = 2, x0 = {0.5, 0.5},
    f = function (x) return x[1]^2 + x[2]^2 end,
    constraints = {{kind = "eq", c = function (x) return x[1]^2 + 1 end}}}
  local box = problem.new{n = 2, x0 = {0.5, 0.5}, lower = 0, upper = 1,
    f = function (x) return x[1] + x[2] end,
    constraints = {{kind = "ineq",
                    c = function (x) return x[1] + x[2] - 3 end}}}
  for _, m in ipairs{"sqp", "auglag"} do
    local r = run(sq, optim[m]{}, opts{iters = 20000})
    local name = m .. ", x1^2 + 1 = 0"
    t.is(r.reason, "infeasible", name .. ": reason infeasible")
    t.ok(math.abs(r.x[1]) <= 1e-6, string.format("%s: stops at the "
         .. "least-infeasible x1 = 0 (|x1| = %.3g <= 1e-6)", name, r.x[1]))
    t.near(r:last("feasibility"), 1, 1e-10, name .. ": its violation is 1")
    t.ok(tostring(r.message):find("least violation 1 ", 1, true),
         name .. ": the message names the least violation: "
         .. tostring(r.message))
    t.ok(r.iter < 100, string.format("%s: stops early (%d iterations), not "
         .. "by its budget", name, r.iter))
    r = run(box, optim[m]{}, opts{iters = 20000})
    name = m .. ", x1 + x2 >= 3 on [0, 1]^2"
    t.is(r.reason, "infeasible", name .. ": reason infeasible")
    t.ok(math.abs(r.x[1] - 1) <= 1e-9 and math.abs(r.x[2] - 1) <= 1e-9,
         string.format("%s: stops at the least-infeasible (1, 1) (%.12g, "
                       .. "%.12g)", name, r.x[1], r.x[2]))
    t.ok(tostring(r):find("stopped: infeasible", 1, true),
         name .. ": print(r) says infeasible")
  end
end

-- (2) a budget spent with the constraints violated warns; a solved run
-- does not
do
  local p = problem.hs{number = 71}
  local r = run(p, optim.auglag{}, opts{iters = 30})
  t.is(r.reason, "budget", "auglag, hs071, 30 iterations: budget")
  t.ok(r:last("feasibility") > 1e-6, "... constraints still violated")
  t.ok(tostring(r):find("warning: the run ended on its budget with the "
       .. "constraints violated by", 1, true),
       "print(r) warns that the budget ended with violated constraints")
  r = run(p, optim.sqp{}, opts{iters = 500})
  t.is(r.reason, "converged", "sqp, hs071: converges")
  t.ok(not tostring(r):find("warning", 1, true), "... and prints no warning")
end

-- (3) bound push: the start's coordinates outside their bounds are moved
-- 1e-2 inside (IPOPT's rule), the others kept; a notice says so
do
  local function hs021 (x0)
    return problem.new{n = 2, x0 = x0, lower = {2, -50}, upper = {50, 50},
      f = function (x) return 0.01 * x[1]^2 + x[2]^2 - 100 end,
      constraints = {{kind = "ineq",
                      c = function (x) return 10 * x[1] - x[2] - 10 end}}}
  end
  for _, m in ipairs{"sqp", "auglag"} do
    local r = run(hs021({-1, -1}), optim[m]{}, opts{iters = 20000})
    local name = m .. ", hs021 from the published (-1, -1)"
    t.ok(r.notice ~= nil and r.notice:find("x0[1] = -1 is outside its "
         .. "bounds [2, 50]: moved to 2.02", 1, true),
         name .. ": the notice names the move to 2 + min(0.01*2, 0.01*48): "
         .. tostring(r.notice))
    t.ok(tostring(r):find("moved to 2.02", 1, true),
         name .. ": print(r) shows the notice")
    t.is(r.reason, "converged", name .. ": converges")
    t.near(r:last("loss"), -99.96, 1e-8, name .. ": f* = -99.96")
  end
  -- p_L and p_U by the rule: [0, 1] from 3 (1 - min(0.01, 0.01 * 1)) and
  -- [100, 10000] from 50 (100 + min(0.01 * 100, 0.01 * 9900) = 101)
  local p = problem.new{n = 2, x0 = {3, 50}, lower = {0, 100},
    upper = {1, 10000}, f = function (x) return x[1]^2 + x[2] end,
    constraints = {{kind = "ineq", c = function (x) return x[2] - 101 end}}}
  local r = run(p, optim.sqp{}, opts{iters = 1})
  t.ok(r.notice:find("x0[1] = 3 is outside its bounds [0, 1]: moved to "
       .. "0.99", 1, true) and r.notice:find("2 coordinates moved", 1, true),
       "bound push: 3 above [0, 1] goes to 0.99; two moved: " .. r.notice)
  -- a method without constraint handling keeps refusing such a start
  local q = problem.new{n = 1, x0 = {3}, lower = 0, upper = 1,
                        f = function (x) return x[1]^2 end}
  local ok, err = pcall(run, q, optim.lbfgs{}, opts{iters = 1})
  t.ok(not ok, "lbfgs refuses a start outside the box: " .. tostring(err))
  -- a start inside the bounds is kept, with no notice
  r = run(hs021({3, 1}), optim.sqp{}, opts{iters = 1})
  t.ok(r.notice == nil, "a start inside the bounds: no notice")
end

-- (4) scaling: HS106 (gradients from 2.5e-3 to 5e3, x from 10 to 10^4)
-- solves with defaults; f* published to 8 digits: 1e-7 relative
do
  local p = problem.hs{number = 106}
  local r = run(p, optim.sqp{}, opts{iters = 500})
  t.is(r.reason, "converged", "sqp, hs106: converges (" ..
       tostring(r.message) .. ")")
  t.ok(math.abs(r:last("loss") - 7049.2480) <= 1e-7 * 7049.2480,
       string.format("sqp, hs106: f %.10g vs f* 7049.2480", r:last("loss")))
  t.ok(r:last("kkt") <= 1e-8, string.format("sqp, hs106: kkt %.3g <= 1e-8",
                                            r:last("kkt")))
  -- auglag with defaults converges too (5aa2093: budget after 40000
  -- inner steps, the penalty at 1e12, kkt 5.8): its stopping test is
  -- IPOPT's scaled one, the penalty is raised only when the violation did
  -- not halve, the short gradients of HS106's linear constraints get a
  -- stronger penalty; its multipliers are sqp's to 1e-6 relative (they
  -- agree to 2e-9)
  local ra = run(p, optim.auglag{}, opts{iters = 40000})
  t.is(ra.reason, "converged", "auglag, hs106: converges with defaults ("
       .. tostring(ra.message) .. ")")
  t.ok(math.abs(ra:last("loss") - 7049.2480) <= 1e-7 * 7049.2480,
       string.format("auglag, hs106: f %.10g vs f* 7049.2480 (1e-7 "
                     .. "relative)", ra:last("loss")))
  t.ok(ra:last("feasibility") <= 1e-8 and ra:last("kkt") <= 1e-8,
       string.format("auglag, hs106: feasibility %.3g, kkt %.3g <= 1e-8",
                     ra:last("feasibility"), ra:last("kkt")))
  local worst = 0
  for i = 1, 6 do
    worst = math.max(worst, math.abs(ra.lambda[i] - r.lambda[i])
                             / math.abs(r.lambda[i]))
  end
  t.ok(worst <= 1e-6, string.format("auglag, hs106: lambda = sqp's (max "
                                    .. "relative error %.3g <= 1e-6)", worst))
  local mu = tonumber(tostring(ra.message):match("mu = ([^)]+)%)"))
  t.ok(mu ~= nil and mu <= 1e4, string.format("auglag, hs106: the penalty "
       .. "stays moderate (mu = %s <= 1e4; 5aa2093 climbed to 1e12)",
       tostring(mu)))
  local rn = run(p, optim.sqp{scale = false}, opts{iters = 500})
  t.ok(rn.iter > 0, "sqp{scale = false} runs unscaled")
end

-- results are reported unscaled: HS071 with f times 10^6 (f's gradient
-- 10^6 larger at x0, so scaled by 1e-4 or less) has the same x*, f* times
-- 10^6 and multipliers times 10^6
do
  local hs = problem.hs{number = 71}
  local big = problem.new{n = 4, name = "hs071e6", x0 = {1, 5, 5, 1},
    lower = 1, upper = 5,
    f = function (x) return 1e6 * (x[1] * x[4] * (x[1] + x[2] + x[3]) + x[3])
    end,
    constraints = {
      {kind = "ineq", c = function (x) return x[1] * x[2] * x[3] * x[4] - 25
       end},
      {kind = "eq", c = function (x)
         return x[1]^2 + x[2]^2 + x[3]^2 + x[4]^2 - 40 end}}}
  local r0 = run(hs, optim.sqp{}, opts{iters = 500})
  -- r on hs071 with f * 1e6: converged, f / 1e6 and lambda / 1e6 those
  -- of hs071
  local function scaled_ok (r, name)
    t.is(r.reason, "converged", name .. ": converges (" .. tostring(r.message)
         .. ")")
    t.ok(math.abs(r:last("loss") / 1e6 - 17.0140173) <= 1e-7,
         string.format("%s: f / 1e6 = %.10g vs 17.0140173", name,
                       r:last("loss") / 1e6))
    local worst = 0
    for i = 1, 2 do
      worst = math.max(worst, math.abs(r.lambda[i] / 1e6 - r0.lambda[i]))
    end
    t.ok(worst <= 1e-5, string.format("%s: lambda = 1e6 * hs071's (max "
                                      .. "error %.3g <= 1e-5)", name, worst))
  end
  for _, m in ipairs{"sqp", "auglag"} do
    scaled_ok(run(big, optim[m]{}, opts{iters = 20000}),
              m .. ", hs071 with f * 1e6")
  end
  -- unscaled, auglag's stopping test is still relative to the size of the
  -- multipliers (IPOPT's s_d, s_c: here about 1e4): it converges where
  -- the absolute test of 5aa2093 ran to its budget (kkt 6e-4)
  scaled_ok(run(big, optim.auglag{scale = false}, opts{iters = 20000}),
            "auglag{scale = false}, hs071 with f * 1e6")
end

-- (5) bound multipliers: HS071's x1 = 1 is at its lower bound with z_L =
-- 1.087871 (IPOPT's HS071 example); every other z is 0
do
  local p = problem.hs{number = 71}
  for _, m in ipairs{"sqp", "auglag"} do
    local r = run(p, optim[m]{}, opts{iters = 20000})
    local name = m .. ", hs071"
    t.near(r.zl[1], 1.087871, 2e-6, name .. ": r.zl[1] = 1.087871")
    local worst = 0
    for j = 2, 4 do worst = math.max(worst, math.abs(r.zl[j])) end
    for j = 1, 4 do worst = math.max(worst, math.abs(r.zu[j])) end
    t.ok(worst <= 1e-6, string.format("%s: the other z are 0 (max %.3g)",
                                      name, worst))
    local neg = false
    for j = 1, 4 do neg = neg or r.zl[j] < 0 or r.zu[j] < 0 end
    t.ok(not neg, name .. ": z_l, z_u >= 0 (IPOPT's sign convention)")
  end
  local r = run(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3},
                opts{iters = 2})
  t.ok(r.zl == nil and r.zu == nil, "gd keeps no bound multipliers")
end

-- (6) print(r) of a constrained run: f to full precision (it reads back
-- as r:last("loss")), the KKT error and feasibility, no gradnorm
do
  local r = run(problem.hs{number = 71}, optim.sqp{}, opts{iters = 500})
  local s = tostring(r)
  local shown = s:match("final: loss (%S+)")
  t.ok(shown ~= nil and tonumber(shown) == r:last("loss"),
       "print(r): f to full precision (" .. tostring(shown) .. ")")
  t.ok(s:find("kkt ", 1, true) and s:find("feasibility ", 1, true),
       "print(r): shows kkt and feasibility")
  t.ok(not s:find("gradnorm", 1, true), "print(r): no gradnorm")
  s = tostring(run(problem.rosenbrock{n = 2}, optim.lbfgs{},
                   opts{iters = 5}))
  t.ok(s:find("gradnorm", 1, true), "an unconstrained run keeps gradnorm")
end

-- (7) help(problem.new) says what the solvers do: method, merit,
-- scaling, the infeasibility rule, the bound push, the multipliers
do
  local tmp = os.tmpname()
  local old = io.output()
  io.output(tmp)
  local ok, err = pcall(help, problem.new)
  io.output():close()
  io.output(old)
  local fh = assert(io.open(tmp))
  local h = fh:read("a")
  fh:close()
  os.remove(tmp)
  t.ok(ok, "help(problem.new) runs: " .. tostring(err))
  for _, want in ipairs{"optim.sqp", "optim.auglag", "Powell's weights",
                        "100 / ||gradient at x0||_inf", "scale = false",
                        "bound push", "\"infeasible\"", "r.zl, r.zu",
                        "budget"} do
    t.ok(h:find(want, 1, true), "help(problem.new) mentions " .. want)
  end
end

t.done()
