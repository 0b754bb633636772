-- scripts/newton.lua -- pure Newton diverges on sqrt(1 + x^2), stepsized
-- Newton converges.
--
-- Claim (Boyd & Vandenberghe, "Convex optimization", 2004, ch. 9; Nesterov,
-- "Introductory lectures on convex optimization", 2004, 4.1.5; Hanzely,
-- Abdukhakimov & Takac, "Newton method revisited: global convergence rates
-- up to O(k^-3) for stepsize schedules and linesearch procedures", 2024:
-- Newton needs step sizes for global convergence): on f(x) = sqrt(1 + x^2),
-- f' = x/sqrt(1 + x^2), f'' = (1 + x^2)^(-3/2), the pure Newton step is x -
-- f'/f'' = -x^3: it converges (cubically) from |x0| < 1 and diverges from
-- |x0| > 1.  The damped step x - H^-1 g / (1 + lambda(x)), lambda the Newton
-- decrement (Nesterov 2004), and Armijo backtracking both converge from any
-- x0.
--
-- Usage: optlab scripts/newton.lua [x0] [iters]   (defaults 1.5, 30)
local x0 = tonumber(arg and arg[1]) or 1.5
local T = math.tointeger(tonumber(arg and arg[2]) or 30)
local p = problem.smoothabs{}

local function go (step, start)
  local r = run(p, optim.newton{step = step},
                {iters = T, x0 = {start}, record_x = true, cap = T + 2,
                 metrics = {"loss"}, progress = false, view = false})
  local xs, ts = r:traj()
  local at = {}
  for i = 1, #xs do at[ts[i]] = xs[i][1] end
  return r, at
end

lesson.claim(string.format("on sqrt(1 + x^2) pure Newton (x -> -x^3) "
                    .. "diverges from |x0| > 1 (here x0 = %g) and converges "
                    .. "from |x0| < 1, while damped and backtracking Newton "
                    .. "converge to x* = 0 from x0", x0))
print(string.format("smoothabs (sqrt(1 + x^2)), x0 = %g, x* = 0", x0))
local rows = {}
for _, s in ipairs{"pure", "damped", "backtrack"} do
  local r, at = go(s, x0)
  rows[#rows + 1] = {s, r, at}
end
io.write(string.format("  %-4s", "k"))
for _, row in ipairs(rows) do io.write(string.format(" %14s", row[1])) end
io.write("\n")
for k = 0, 7 do
  io.write(string.format("  %-4d", k))
  for _, row in ipairs(rows) do
    local x = row[3][k]
    io.write(x and x == x and string.format(" %14.6g", x)
             or string.format(" %14s", x and "nan" or "-"))
  end
  io.write("\n")
end
local pure_div, conv = false, true
for _, row in ipairs(rows) do
  local s, r, at = row[1], row[2], row[3]
  local big = nil
  for k = 0, math.min(10, r.iter) do
    if at[k] and (at[k] ~= at[k] or math.abs(at[k]) > 1e10) then
      big = k; break
    end
  end
  print(string.format("%s: stopped '%s' after %d steps, final |x| %.3g, "
                      .. "first k <= 10 with |x| > 1e10: %s", s, r.reason,
                      r.iter, math.abs(r.x[1]), tostring(big or "none")))
  if s == "pure" then
    pure_div = big ~= nil or r.reason == "non-finite"
  else
    conv = conv and math.abs(r.x[1]) < 1e-8
  end
end
local r = go("pure", 0.5)
print(string.format("pure from x0 = 0.5 (inside |x| < 1): final |x| %.3g",
                    math.abs(r.x[1])))
local inside = math.abs(r.x[1]) < 1e-8
local ok = math.abs(x0) > 1 and pure_div and conv and inside
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(p, {optim.newton{step = "pure"}, optim.newton{step = "damped"},
               optim.newton{step = "backtrack"}},
            {iters = T, x0 = {0.5}, metrics = {"loss"}, watch = {"loss"}})
lesson.verdict(string.format("%s (pure Newton %s within 10 steps from %g and "
                    .. "%s from 0.5; damped and backtracking %s |x| < 1e-8 "
                    .. "in %d steps; deterministic, no seed)", ok and "holds"
                    or "does not hold", pure_div and "diverges"
                    or "does not diverge", x0, inside and "converges"
                    or "does not converge", conv and "reach" or "do not reach",
                    T))
