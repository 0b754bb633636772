-- tests/lua/scad.lua -- penalty = "scad" from Lua (the generic key on any
-- objective, its messages, p.penalty, the description) and optim.agnc on
-- SCAD-penalised least squares and logistic regression (T5).
--
-- Truth: the composite loss by hand at a point, SCAD(t; lambda, a) from
-- its three pieces (Fan & Li 2001); stationarity as the gradient mapping
-- (kkt, unit step) at 1e-8 on problems whose f is smooth.
local t = dofile("tests/lib/tap.lua")

local quiet = {progress = false, view = false}
local function opts (o)
  local r = {}
  for k, v in pairs(quiet) do r[k] = v end
  for k, v in pairs(o) do r[k] = v end
  return r
end

local function scad (x, lam, a)
  x = math.abs(x)
  if x <= lam then return lam * x end
  if x <= a * lam then
    return (2 * a * lam * x - x * x - lam * lam) / (2 * (a - 1))
  end
  return lam * lam * (a + 1) / 2
end

-- the key and what it reads back
local p = problem.lasso{m = 40, n = 20, k = 3, lambda = 0.1,
                        penalty = "scad"}
t.is(p.penalty.kind, "scad", "scad: p.penalty.kind")
t.is(p.penalty.a, 3.7, "scad: a defaults to 3.7")
t.ok(p.desc:find("penalty=scad(a=3.7)", 1, true) ~= nil,
     "scad: the description names the penalty (" .. p.desc .. ")")
local q = problem.lasso{m = 40, n = 20, k = 3, lambda = 0.1}
t.is(q.penalty.kind, "l1", "scad: l1 is the default shape")
t.ok(q.desc:find("penalty", 1, true) == nil,
     "scad: an l1 problem's description is unchanged")
p = problem.lasso{m = 40, n = 20, k = 3, lambda = 0.1,
                  penalty = {kind = "scad", a = 5}}
t.is(p.penalty.a, 5, "scad: penalty = {kind = \"scad\", a = 5}")

-- the loss is f + sum SCAD(|x_i|): one nop-like step of ista with lr = 0
-- leaves x0, whose loss is f(x0) + h(x0)
do
  local x0 = {}
  for i = 1, 20 do x0[i] = (i - 10) / 20 end
  local r = run(p, optim.ista{lr = 0}, opts{iters = 1, x0 = x0})
  local f = p:eval(x0)
  local h = 0
  for i = 1, 20 do h = h + scad(x0[i], 0.1, 5) end
  t.near(r:last("loss"), f + h, 1e-12 * (1 + f + h),
         "scad: loss = f + sum_i SCAD(|x_i|; 0.1, 5) at x0, by hand")
end

-- messages
t.errors("penalty \"mcp\" is unknown %(valid: l1, scad%)", problem.lasso,
         {penalty = "mcp"})
t.errors("scad a = 2 is out of range %(2, inf%)", problem.lasso,
         {penalty = {kind = "scad", a = 2}})
t.errors("scad a = nan is out of range", problem.lasso,
         {penalty = {kind = "scad", a = 0 / 0}})
t.errors("scad a = inf is out of range", problem.lasso,
         {penalty = {kind = "scad", a = math.huge}})
t.errors("unknown penalty key 'b' %(valid: kind, a%)", problem.lasso,
         {penalty = {kind = "scad", b = 1}})
t.errors("penalty needs kind", problem.lasso, {penalty = {a = 3}})
t.errors("penalty \"l1\" takes no a", problem.lasso,
         {penalty = {kind = "l1", a = 3}})
t.errors("penalty must be \"l1\", \"scad\" or", problem.lasso,
         {penalty = 3})
t.errors("penalty a must be a number", problem.lasso,
         {penalty = {kind = "scad", a = "x"}})
t.errors("unknown parameter 'penalty'", problem.gaussian,
         {penalty = "scad"})
t.errors("penalty does not apply to a density", problem.new,
         {n = 1, kind = "density", f = function (x) return x[1]^2 end,
          penalty = "scad"})

-- agnc on SCAD least squares (the split) and on SCAD logistic regression
do
  local lsq = problem.lasso{m = 60, n = 120, k = 6, lambda = 0.05,
                            sigma = 0.05, seed = 3, penalty = "scad"}
  local r = run(lsq, optim.agnc{}, opts{iters = 20000, tol = 1e-9})
  t.is(r.reason, "tolerance", "agnc: stationary on scad least squares ("
       .. r.iter .. " steps, kkt " .. string.format("%.2g", r:last("kkt"))
       .. ")")
  local lr = problem.logreg{l1 = 0.02, penalty = "scad"}
  local r2 = run(lr, optim.agnc{}, opts{iters = 20000, tol = 1e-8})
  t.is(r2.reason, "tolerance", "agnc: stationary on scad logistic "
       .. "regression (T5, " .. r2.iter .. " steps)")
  local r3 = run(lr, optim.ista{lr = 1}, opts{iters = 20000, tol = 1e-8})
  t.near(r2:last("loss"), r3:last("loss"), 1e-6,
         "agnc and ista end at the same F on scad logistic regression ("
         .. string.format("%.10g vs %.10g", r2:last("loss"), r3:last("loss"))
         .. ")")
end


-- the smooth-only solvers name the penalty they refuse (not "l1" for scad)
for _, pen in ipairs{"l1", "scad"} do
  local pp = problem.lasso{m = 10, n = 5, k = 2, lambda = 0.1, penalty = pen}
  for _, m in ipairs{"sqp", "auglag"} do
    local r = run(pp, optim[m]{}, opts{iters = 3})
    t.is(r.message, m .. ": the " .. pen .. " term of a composite problem "
         .. "is not smooth (use ista, fista or agnc)",
         m .. " refuses a " .. pen .. " composite, naming it")
  end
end


-- bias's reason names the term the problem has
for _, pen in ipairs{"l1", "scad"} do
  local pq = problem.quadratic{n = 3, l1 = 0.1, penalty = pen}
  t.errors("quadratic has an? " .. pen .. " term", run, pq, optim.gd{},
           opts{iters = 3, metrics = {"bias"}})
end

t.done()
