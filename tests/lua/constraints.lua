-- tests/lua/constraints.lua -- general constraints from Lua
-- (problem.new{constraints = {{kind = "eq" | "ineq", c =, grad =}},
-- lower =, upper =}), optim.auglag, its multipliers r.lambda and the
-- metrics kkt, stationarity, feasibility, complementarity.
--
-- Truth: problems of Hock & Schittkowski, "Test Examples for Nonlinear
-- Programming Codes", Lecture Notes in Econ. and Math. Systems 187
-- (1981), with their published optima: HS071 (f* = 17.0140173, x* =
-- (1, 4.7429994, 3.8211503, 1.3794082); multipliers 0.55229366 and
-- -0.16146857 in the sign convention grad f - sum lambda_i grad c_i = z,
-- as IPOPT's documented HS071 example prints them with the opposite
-- sign), HS035 (f* = 1/9 at (4/3, 7/9, 4/9); lambda = 2/9 from
-- grad f(x*) = lambda grad c(x*), worked by hand: grad f(x*) = (-2/9,
-- -2/9, -4/9), grad c = (-1, -1, -2)), HS021 (f* = -99.96 at (2, 0), its
-- constraint inactive there: lambda = 0, the bound x1 >= 2 active) and
-- HS006 (an equality, f* = 0 at (1, 1); grad f(x*) = 0 so lambda = 0);
-- and HS035 with an added inequality inactive at x* (lambda_2 = 0).
-- Tolerances: f within 1e-6 relative (1e-6 absolute for f* = 0), x and
-- lambda within 1e-6 (HS071's published x and lambda: 2e-6, they are
-- given to 7-8 digits), kkt (IPOPT's scaled error) <= 1e-8.
local t = dofile("tests/lib/tap.lua")

local quiet = {progress = false, view = false}
local function opts (o)
  local r = {}
  for k, v in pairs(quiet) do r[k] = v end
  for k, v in pairs(o or {}) do r[k] = v end
  return r
end

local function vnear (got, want, tol, desc)
  local worst = 0
  for i = 1, #want do worst = math.max(worst, math.abs(got[i] - want[i])) end
  t.ok(#got == #want and worst <= tol,
       string.format("%s (max error %.3g <= %g)", desc, worst, tol))
end

local function relnear (got, want, tol, desc)
  local err = math.abs(got - want) / math.max(1, math.abs(want))
  t.ok(err <= tol, string.format("%s: %.12g vs %.12g (rel %.3g <= %g)",
                                 desc, got, want, err, tol))
end

-- HS071; fd: no constraint gradients (central differences: ad = false,
-- or they would be traced)
local function hs071 (fd)
  return problem.new{n = 4, name = "hs071", ad = not fd,
    f = function (x) return x[1] * x[4] * (x[1] + x[2] + x[3]) + x[3] end,
    grad = function (x, g)
      g[1] = x[4] * (2 * x[1] + x[2] + x[3]); g[2] = x[1] * x[4]
      g[3] = x[1] * x[4] + 1; g[4] = x[1] * (x[1] + x[2] + x[3])
    end,
    constraints = {
      {kind = "ineq",
       c = function (x) return x[1] * x[2] * x[3] * x[4] - 25 end,
       grad = not fd and function (x, g)
         g[1] = x[2] * x[3] * x[4]; g[2] = x[1] * x[3] * x[4]
         g[3] = x[1] * x[2] * x[4]; g[4] = x[1] * x[2] * x[3]
       end or nil},
      {kind = "eq", c = function (x)
         return x[1]^2 + x[2]^2 + x[3]^2 + x[4]^2 - 40 end,
       grad = not fd and function (x, g)
         for i = 1, 4 do g[i] = 2 * x[i] end end or nil},
    },
    lower = 1, upper = 5, x0 = {1, 5, 5, 1}}
end

local function hs035 (fd)
  return problem.new{n = 3, name = "hs035",
    f = function (x)
      return 9 - 8 * x[1] - 6 * x[2] - 4 * x[3] + 2 * x[1]^2 + 2 * x[2]^2
        + x[3]^2 + 2 * x[1] * x[2] + 2 * x[1] * x[3]
    end,
    grad = function (x, g)
      g[1] = -8 + 4 * x[1] + 2 * x[2] + 2 * x[3]
      g[2] = -6 + 4 * x[2] + 2 * x[1]
      g[3] = -4 + 2 * x[3] + 2 * x[1]
    end,
    constraints = {{kind = "ineq",
      c = function (x) return 3 - x[1] - x[2] - 2 * x[3] end,
      grad = not fd and function (x, g) g[1] = -1; g[2] = -1; g[3] = -2 end
        or nil}},
    lower = 0, x0 = {0.5, 0.5, 0.5}}
end

local function hs021 ()
  return problem.new{n = 2, name = "hs021",
    f = function (x) return 0.01 * x[1]^2 + x[2]^2 - 100 end,
    grad = function (x, g) g[1] = 0.02 * x[1]; g[2] = 2 * x[2] end,
    constraints = {{kind = "ineq",
      c = function (x) return 10 * x[1] - x[2] - 10 end,
      grad = function (x, g) g[1] = 10; g[2] = -1 end}},
    lower = {2, -50}, upper = {50, 50}, x0 = {2, -1}}  -- HS's (-1, -1)
  -- projected on the bounds: a run starts inside its box
end

local function hs006 ()
  return problem.new{n = 2, name = "hs006",
    f = function (x) return (1 - x[1])^2 end,
    grad = function (x, g) g[1] = -2 * (1 - x[1]); g[2] = 0 end,
    constraints = {{kind = "eq",
      c = function (x) return 10 * (x[2] - x[1]^2) end,
      grad = function (x, g) g[1] = -20 * x[1]; g[2] = 10 end}},
    x0 = {-1.2, 1}}
end

-- HS035 with a second, inactive inequality x1 + x2 + x3 <= 10 (2.56 at
-- x*): the same optimum, its multiplier 0
local function hs035b ()
  local p = hs035()
  return problem.new{n = 3, name = "hs035b",
    f = function (x) return p:eval(x) end,
    grad = function (x, g)
      local _, gr = p:eval(x)
      for i = 1, 3 do g[i] = gr[i] end
    end,
    constraints = {
      {kind = "ineq", c = function (x) return 3 - x[1] - x[2] - 2 * x[3] end,
       grad = function (x, g) g[1] = -1; g[2] = -1; g[3] = -2 end},
      {kind = "ineq", c = function (x) return 10 - x[1] - x[2] - x[3] end},
    },
    lower = 0, x0 = {0.5, 0.5, 0.5}}
end

local cases = {
  {"HS071", hs071(), 17.0140173, {1, 4.7429994, 3.8211503, 1.3794082},
   {0.55229366, -0.16146857}, 2e-6},
  {"HS071, FD constraint gradients", hs071(true), 17.0140173,
   {1, 4.7429994, 3.8211503, 1.3794082}, {0.55229366, -0.16146857}, 2e-6},
  {"HS035", hs035(), 1 / 9, {4 / 3, 7 / 9, 4 / 9}, {2 / 9}, 1e-6},
  {"HS035, FD constraint gradient", hs035(true), 1 / 9, {4 / 3, 7 / 9, 4 / 9},
   {2 / 9}, 1e-6},
  {"HS021 (inactive constraint)", hs021(), -99.96, {2, 0}, {0}, 1e-6},
  {"HS035 + an inactive inequality", hs035b(), 1 / 9, {4 / 3, 7 / 9, 4 / 9},
   {2 / 9, 0}, 1e-6},
  {"HS006 (equality)", hs006(), 0, {1, 1}, {0}, 1e-6},
}

local runs = {}
for _, method in ipairs{"auglag", "sqp"} do
  for _, cs in ipairs(cases) do
    local name, p, fstar, xstar, lam, tol = table.unpack(cs)
    local r = run(p, optim[method]{}, opts{iters = 20000})
    if method == "auglag" then runs[name] = r end
    name = method .. ", " .. name
    t.is(r.reason, "converged", name .. ": converges")
    relnear(r:last("loss"), fstar, 1e-6, name .. ": f*")
    vnear(r.x, xstar, tol, name .. ": x*")
    vnear(r.lambda, lam, tol, name .. ": lambda")
    t.ok(r:last("kkt") <= 1e-8, string.format("%s: kkt %.3g <= 1e-8", name,
                                               r:last("kkt")))
    t.ok(r:last("feasibility") <= 1e-8 and r:last("stationarity") <= 1e-8
         and r:last("complementarity") <= 1e-8,
         string.format("%s: stationarity %.3g, feasibility %.3g, "
                       .. "complementarity %.3g <= 1e-8", name,
                       r:last("stationarity"), r:last("feasibility"),
                       r:last("complementarity")))
  end
end

-- the built-in Hock-Schittkowski set (problem.hs): both solvers reach the
-- published f* within 1e-6 relative (|f*| < 1: absolute) and x* within
-- 1e-6 (HS071: the collection's 8 digits, 2e-6) with kkt <= 1e-8, and
-- their multipliers agree to 1e-6: two methods that share no code but the
-- KKT error
for _, k in ipairs{6, 10, 14, 21, 28, 35, 39, 40, 43, 71, 76} do
  local p = problem.hs{number = k}
  local ra = run(p, optim.auglag{}, opts{iters = 20000})
  local rs = run(p, optim.sqp{}, opts{iters = 500})
  for _, r in ipairs{ra, rs} do
    local name = string.format("hs%03d, %s", k, r == ra and "auglag" or "sqp")
    t.is(r.reason, "converged", name .. ": converges")
    local f = r:last("loss")
    t.ok(math.abs(f - p.fstar) <= 1e-6 * math.max(1, math.abs(p.fstar)),
         string.format("%s: f %.12g vs f* %.12g", name, f, p.fstar))
    vnear(r.x, p.xstar, k == 71 and 2e-6 or 1e-6, name .. ": x*")
    t.ok(r:last("kkt") <= 1e-8, string.format("%s: kkt %.3g <= 1e-8", name,
                                               r:last("kkt")))
  end
  vnear(rs.lambda, ra.lambda, 1e-6,
        string.format("hs%03d: sqp's multipliers = auglag's", k))
end
t.errors("hs: no problem number 7 here %(the numbers are 6, 10, 14",
         problem.hs, {number = 7})

-- sqp's QP on degenerate input: a duplicated equality (dependent rows:
-- the multipliers split, their sum is the true one, 1 for min |x|^2 on
-- x1 + x2 = 1); bounds only (x* = (2, 0), the projection of (3, -1));
-- no constraints (a quasi-Newton method: Rosenbrock's (1, 1)); and an
-- infeasible equality x1^2 + 1 = 0, which ends with reason "infeasible"
-- naming the least violation (1, at x1 = 0) instead of running on
do
  local lin = function (x) return x[1] + x[2] - 1 end
  local p = problem.new{n = 2, f = function (x) return x[1]^2 + x[2]^2 end,
                        constraints = {{kind = "eq", c = lin},
                                       {kind = "eq", c = lin}}}
  local r = run(p, optim.sqp{}, opts{iters = 100})
  t.is(r.reason, "converged", "sqp, duplicated equality: converges")
  vnear(r.x, {0.5, 0.5}, 1e-8, "sqp, duplicated equality: x*")
  t.near(r.lambda[1] + r.lambda[2], 1, 1e-8,
       "sqp, duplicated equality: the multipliers sum to 1")
  p = problem.new{n = 2, f = function (x) return (x[1] - 3)^2 + (x[2] + 1)^2 end,
                  lower = {0, 0}, upper = {2, 2}, x0 = {1, 1}}
  r = run(p, optim.sqp{}, opts{iters = 100})
  vnear(r.x, {2, 0}, 1e-12, "sqp, bounds only: x* = (2, 0)")
  t.ok(r:last("kkt") <= 1e-8, "sqp, bounds only: kkt <= 1e-8")
  r = run(problem.rosenbrock{n = 2}, optim.sqp{}, opts{iters = 1000})
  t.is(r.reason, "converged", "sqp, no constraints: converges")
  vnear(r.x, {1, 1}, 1e-6, "sqp, no constraints: Rosenbrock's (1, 1)")
  p = problem.new{n = 2, f = function (x) return x[1]^2 + x[2]^2 end,
                  x0 = {0.5, 0.5},
                  constraints = {{kind = "eq",
                                  c = function (x) return x[1]^2 + 1 end}}}
  r = run(p, optim.sqp{}, opts{iters = 100})
  t.is(r.reason, "infeasible", "sqp, infeasible: stops as infeasible")
  t.ok(tostring(r.message):find("least violation 1 ", 1, true),
       "sqp, infeasible: the message names the least violation ("
       .. tostring(r.message) .. ")")
end

-- FD constraint gradients against analytic ones: the same iterates up to
-- the differences' error, so the solutions agree to 1e-6
do
  local a, b = runs["HS071"], runs["HS071, FD constraint gradients"]
  vnear(b.x, a.x, 1e-6, "HS071: FD-gradient solution = analytic one")
  vnear(b.lambda, a.lambda, 1e-6, "HS071: FD-gradient multipliers = analytic")
  t.ok(b.nfev > a.nfev, "FD constraint gradients are counted in nfev (" ..
       b.nfev .. " > " .. a.nfev .. ")")
end

-- from an infeasible start (both constraints violated: c1 = -9, c2 = -24)
do
  local r = run(hs071(), optim.auglag{}, opts{iters = 20000,
                                             x0 = {2, 2, 2, 2}})
  relnear(r:last("loss"), 17.0140173, 1e-6, "HS071 from (2, 2, 2, 2): f*")
  vnear(r.lambda, {0.55229366, -0.16146857}, 2e-6,
        "HS071 from (2, 2, 2, 2): lambda")
  t.ok(r:last("kkt") <= 1e-8, "HS071 from (2, 2, 2, 2): kkt <= 1e-8")
end

-- lambda_i >= 0 for inequalities along the way; the metrics are the
-- default ones of a constrained problem
do
  local r = run(hs035(), optim.auglag{}, opts{iters = 5})
  t.ok(r.lambda[1] >= 0, "an inequality's multiplier is >= 0")
  local have = {}
  for _, m in ipairs(r:metrics()) do have[m] = true end
  t.ok(have.kkt and have.stationarity and have.feasibility
       and have.complementarity,
       "constrained problems record kkt and its parts")
end

-- a method without constraint handling (gd) refuses a constrained
-- problem instead of ignoring its constraints; r.lambda is nil for it
do
  t.errors("gd ignores general constraints; hs035 has 1", run, hs035(),
           optim.gd{lr = 0.01}, opts{iters = 3})
  local r = run(problem.rosenbrock{n = 2}, optim.gd{lr = 0.01}, opts{iters = 3})
  t.ok(r.lambda == nil, "gd keeps no multipliers: r.lambda is nil")
end

-- no constraints: kkt keeps its meaning (the box projection)
do
  local p = problem.new{n = 1, f = function (x) return (x[1] - 3)^2 end,
    grad = function (x, g) g[1] = 2 * (x[1] - 3) end, lower = 0, upper = 1,
    x0 = {0.5}}
  local r = run(p, optim.auglag{}, opts{iters = 100})
  t.near(r.x[1], 1, 1e-12, "box only: auglag is projected L-BFGS (x* = 1)")
  t.ok(r:last("kkt") <= 1e-10, "box only: kkt ||x - P(x - g)|| is 0")
  t.ok(r.lambda == nil, "box only: no multipliers")
end

-- errors: messages name the key; callback errors carry tracebacks
t.errors("constraints%[1%]%.kind must be", problem.new,
         {n = 1, f = function (x) return x[1] end,
          constraints = {{kind = "le", c = function () return 0 end}}})
t.errors("constraints%[1%]%.c must be a function", problem.new,
         {n = 1, f = function (x) return x[1] end,
          constraints = {{kind = "eq"}}})
t.errors("unknown key 'g'", problem.new,
         {n = 1, f = function (x) return x[1] end,
          constraints = {{kind = "eq", c = function () return 0 end,
                          g = 1}}})
t.errors("lower and upper are a box", problem.new,
         {n = 1, f = function (x) return x[1] end, lower = 0,
          set = {box = {0, 1}}})
t.errors("applies to an objective only", problem.new,
         {n = 1, f = function (x) return x[1] end, kind = "density",
          constraints = {{kind = "eq", c = function () return 0 end}}})
do
  local p = problem.new{n = 1, f = function (x) return x[1]^2 end,
    x0 = {2}, constraints = {{kind = "ineq",
      c = function (x) error("boom in c") end}}}
  local ok, err = pcall(run, p, optim.auglag{}, opts{iters = 5})
  local r = ok and err or nil
  local msg = r and (r.message or "") or tostring(err)
  t.ok(msg:find("boom in c") ~= nil and msg:find("traceback") ~= nil,
       "a constraint's error stops the run with its traceback")
  local p2 = problem.new{n = 1, f = function (x) return x[1]^2 end,
    x0 = {2}, constraints = {{kind = "ineq", c = function () return 1 end,
      grad = function () return "no" end}}}
  local ok2, r2 = pcall(run, p2, optim.auglag{}, opts{iters = 5})
  local msg2 = ok2 and (r2.message or "") or tostring(r2)
  t.ok(msg2:find("constraints%[1%]%.grad returned a string") ~= nil,
       "a constraint gradient's bad result is named: " .. msg2)
end

-- min x^2 s.t. x >= 1 from x0 = 0, where grad f = 0: the run must not call
-- that stationary (the KKT error, not |grad f|, is the stopping measure),
-- and a method without constraint handling refuses the problem
do
  local q = problem.new{n = 1, x0 = {0}, f = function (x) return x[1]^2 end,
    grad = function (x, g) g[1] = 2 * x[1] end,
    constraints = {{kind = "ineq", c = function (x) return x[1] - 1 end,
                    grad = function (x, g) g[1] = 1 end}}}
  local r = run(q, optim.auglag{}, {iters = 2000, progress = false,
                                    view = false})
  t.ok(r.iter > 0 and math.abs(r.x[1] - 1) < 1e-8
       and math.abs(r.lambda[1] - 2) < 1e-6,
       string.format("auglag: x >= 1 from a stationary infeasible start "
                     .. "reaches x* = 1, lambda = 2 (iter %d, x %.12g, "
                     .. "lambda %.12g)", r.iter, r.x[1], r.lambda[1]))
  t.errors("gd ignores general constraints.*use optim.auglag", run, q,
           optim.gd{}, {iters = 10, progress = false})
end

t.done()
