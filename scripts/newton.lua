-- scripts/newton.lua -- pure Newton diverges on sqrt(1 + x^2), stepsized
-- Newton converges.
--
-- Claim (Boyd & Vandenberghe 2004, Convex Optimization, ch. 9; Nesterov
-- 2004, 4.1.5; seeds catalog B131, section 6.5 item 26: "Newton needs step
-- sizes for global convergence"): on f(x) = sqrt(1 + x^2), f' = x/sqrt(1 +
-- x^2), f'' = (1 + x^2)^(-3/2), the pure Newton step is x - f'/f'' = -x^3:
-- it converges (cubically) from |x0| < 1 and diverges from |x0| > 1.  The
-- damped step x - H^-1 g / (1 + lambda(x)), lambda the Newton decrement
-- (Nesterov 2004), and Armijo backtracking both converge from any x0.
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
    io.write(string.format(" %14.6g", row[3][k] or 0 / 0))
  end
  io.write("\n")
end
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
end
local r = go("pure", 0.5)
print(string.format("pure from x0 = 0.5 (inside |x| < 1): final |x| %.3g",
                    math.abs(r.x[1])))
