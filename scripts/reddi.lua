-- scripts/reddi.lua -- Adam vs AMSGrad vs ADOPT on Reddi et al.'s online
-- problem.
--
-- Claim (Reddi, Kale & Kumar, "On the convergence of Adam and beyond",
-- ICLR 2018, Theorem 1; Taniguchi et al., "ADOPT: modified Adam can
-- converge with any beta2 with the optimal rate", NeurIPS 2024): on the
-- online problem
-- f_t(x) = C x every third step and -x otherwise, x in [-1, 1] (x* = -1),
-- Adam with beta1 = 0 and beta2 = 1/(1 + C^2) converges to the worst point
-- x = +1: the rare large gradient C is quickly forgotten by v_t, so each
-- step is about lr whatever the gradient's size, and the two -1 steps win.
-- AMSGrad (normalises by max_s v_s) and ADOPT (normalises by the previous
-- v, any beta2) go to x* = -1.  With the default beta2 = 0.999 Adam also
-- heads to -1 on this instance: the failure needs a problem-dependent
-- beta2.  The optimizers run projected onto the box.
--
-- Usage: optlab scripts/reddi.lua [iters] [C] [x0]   (defaults 30000, 3, 0;
-- x0 = -1 starts Adam at the optimum, which it leaves for +1)
local T = math.tointeger(tonumber(arg and arg[1]) or 30000)
local C = tonumber(arg and arg[2]) or 3
local x0 = tonumber(arg and arg[3]) or 0
local b2 = 1 / (1 + C * C)
local p = problem.reddi{C = C}
local lr = 0.1

local methods = {
  {"adam", optim.adam{lr = lr, beta1 = 0, beta2 = b2}},
  {"amsgrad", optim.amsgrad{lr = lr, beta1 = 0, beta2 = b2}},
  {"adopt", optim.adopt{lr = lr, beta1 = 0, beta2 = b2}},
  {"adam999", optim.adam{lr = lr, beta1 = 0, beta2 = 0.999}},
}

local seed = 1
lesson.claim(string.format("on Reddi et al.'s online problem (C = %g) Adam "
                    .. "with beta1 = 0 and beta2 = 1/(1 + C^2) ends at the "
                    .. "worst point x = +1, while AMSGrad and ADOPT go to "
                    .. "x* = -1", C))
print(string.format("reddi{C=%g}, lr %g, beta1 0, %d steps, start x0 = %g, "
                    .. "x* = -1", C, lr, T, x0))
print(string.format("  %-8s %7s %10s %14s", "method", "beta2", "final x",
                    "mean x (2nd half)"))
local final = {}
for _, mm in ipairs(methods) do
  local name, m = mm[1], mm[2]
  local r = run(p, m, {iters = T, seed = seed, x0 = {x0}, record_x = true,
                       progress = false, view = false})
  local xs, ts = r:traj()
  local s, k = 0, 0
  for i = 1, #xs do
    if ts[i] >= T / 2 then s, k = s + xs[i][1], k + 1 end
  end
  final[name] = r.x[1]
  print(string.format("  %-8s %7.4g %10.4f %14.4f", name,
                      name == "adam999" and 0.999 or b2, r.x[1], s / k))
end
local ok = final.adam > 0.9 and final.amsgrad < -0.5 and final.adopt < -0.9
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(p, {methods[1][2], methods[2][2], methods[3][2], methods[4][2]},
            {iters = T, seed = seed, x0 = {x0}, watch = {"loss"}})
lesson.verdict(string.format("%s (final x: adam %.4f > 0.9, amsgrad %.4f < "
                    .. "-0.5, adopt %.4f < -0.9; seed %d)", ok and "holds"
                    or "does not hold", final.adam, final.amsgrad,
                    final.adopt, seed))
