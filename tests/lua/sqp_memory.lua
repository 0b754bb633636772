-- tests/lua/sqp_memory.lua -- optim.sqp with more constraints than
-- variables (m > n) whose first trial step is rejected, so that the
-- second-order correction (N&W (18.51)) builds its QP from m corrected
-- constraint values.  Those m values once went into an n-sized buffer (a
-- heap overflow: the release binary aborted within 50 solves, ASan named
-- core/optim/sqp.c).  `make sanitize` runs this file under ASan.
--
-- The problem is HS23 (Hock & Schittkowski 1981: n = 2, five
-- inequalities, -50 <= x <= 50, x0 = (3, 1)); its published optimum is
-- f* = 2 at x* = (1, 1).  Tolerances: x within 1e-6, f within 1e-8.
local t = dofile("tests/lib/tap.lua")

local function hs023 ()
  return problem.new{n = 2, name = "hs023",
    f = function (x) return x[1]^2 + x[2]^2 end, x0 = {3, 1},
    lower = -50, upper = 50, constraints = {
      {kind = "ineq", c = function (x) return x[1] + x[2] - 1 end},
      {kind = "ineq", c = function (x) return x[1]^2 + x[2]^2 - 1 end},
      {kind = "ineq", c = function (x) return 9*x[1]^2 + x[2]^2 - 9 end},
      {kind = "ineq", c = function (x) return x[1]^2 - x[2] end},
      {kind = "ineq", c = function (x) return x[2]^2 - x[1] end}}}
end

local worst, bad = 0, 0
for _ = 1, 50 do
  local r = run(hs023(), optim.sqp{}, {progress = false, view = false})
  if r.reason ~= "converged" then bad = bad + 1 end
  worst = math.max(worst, math.abs(r.x[1] - 1), math.abs(r.x[2] - 1))
end
t.is(bad, 0, "sqp, m = 5 > n = 2 with a second-order correction: 50 "
     .. "solves converge")
t.ok(worst <= 1e-6, string.format("sqp, hs023: x* = (1, 1) in every solve "
                                  .. "(max error %.3g <= 1e-6)", worst))
do
  local r = run(hs023(), optim.sqp{}, {progress = false, view = false})
  t.near(r:last("loss"), 2, 1e-8, "sqp, hs023: f* = 2")
end

t.done()
