-- scripts/own_method.lua -- your own method at the prompt: a heavy ball
-- written in Lua with optim.new, raced against the built-in one, then
-- improved by a restart rule.
--
-- Claim: Polyak's heavy ball (Polyak 1964, eq. 9: d <- mu d - lr g,
-- x <- x + d) written in ten lines of Lua gives optim.momentum's iterates
-- to 1e-12 at the same seed, on noisy gradients too (its o:stochastic_grad
-- draws the run's noise as the C method's gradient does), with the same
-- gradient count; and a variant that restarts its momentum as O'Donoghue
-- & Candes ("Adaptive restart for accelerated gradient schemes", FoCM
-- 2015, the gradient scheme: restart when grad f(x)'(x_k - x_{k-1}) > 0,
-- momentum (k-1)/(k+2) since the last restart, capped by mu) reaches
-- ||x - x*|| < 1e-8 in fewer steps than both on an ill-conditioned
-- quadratic.
--
-- Setting: (1) quadratic{n = 20, cond = 100} with Gaussian gradient noise
-- sigma = 0.01, lr 0.5, mu 0.9, 2000 steps, every iterate recorded;
-- (2) quadratic{n = 50, cond = kappa} noise-free, lr = 1/L = 1, mu 0.99,
-- x0 = ones; steps until ||x - x*|| < 1e-8, budget iters.
--
-- Usage: optlab scripts/own_method.lua [kappa] [iters]  (defaults 1e4, 20000)
local kappa = tonumber(arg and arg[1]) or 1e4
local T = math.tointeger(tonumber(arg and arg[2]) or 20000)
local seed = 11

-- the heavy ball, in Lua
optim.new{name = "myhb", doc = "heavy ball written in Lua",
  ref = "Polyak 1964, eq. 9",
  params = {lr = {default = 0.01, min = 0, doc = "step size"},
            mu = {default = 0.9, min = 0, max = 1, max_open = true,
                  doc = "momentum"}},
  init = function (s, x, p)
    s.g, s.d = {}, {}
    for i = 1, #x do s.d[i] = 0 end
  end,
  step = function (s, x, o, p)
    local g, d = s.g, s.d
    o:stochastic_grad(x, g)
    for i = 1, #x do
      d[i] = p.mu * d[i] - p.lr * g[i]
      x[i] = x[i] + d[i]
    end
  end}

-- the same with a gradient restart of an increasing momentum
optim.new{name = "myhb_restart", doc = "heavy ball, gradient restart",
  ref = "O'Donoghue & Candes 2015, gradient scheme",
  params = {lr = {default = 0.01, min = 0, doc = "step size"},
            mu = {default = 0.9, min = 0, max = 1, max_open = true,
                  doc = "largest momentum"}},
  init = function (s, x, p)
    s.g, s.d, s.k = {}, {}, 0
    for i = 1, #x do s.d[i] = 0 end
  end,
  step = function (s, x, o, p)
    local g, d, dot = s.g, s.d, 0
    o:stochastic_grad(x, g)
    for i = 1, #x do dot = dot + g[i] * d[i] end
    if dot > 0 then s.k = 0 end          -- moving uphill: restart
    s.k = s.k + 1
    local mu = math.min(p.mu, (s.k - 1) / (s.k + 2))
    for i = 1, #x do
      d[i] = mu * d[i] - p.lr * g[i]
      x[i] = x[i] + d[i]
    end
  end}

lesson.claim(string.format("a heavy ball written in Lua (optim.new) gives "
                    .. "optim.momentum's iterates to 1e-12 at the same seed "
                    .. "on noisy gradients, with the same gradient count, "
                    .. "and its restarted variant reaches ||x - x*|| < 1e-8 "
                    .. "in fewer steps than both on a quadratic of condition "
                    .. "number %g", kappa))

-- (1) same seed, noisy gradients: the two heavy balls, every iterate
local qn = problem.quadratic{n = 20, cond = 100, seed = 3,
                             noise = {kind = "gauss", sigma = 0.01}}
local rc = race(qn, {optim.myhb{lr = 0.5, mu = 0.9},
                     optim.momentum{lr = 0.5, mu = 0.9}},
                {iters = 2000, seed = seed, record_x = true, cap = 4096,
                 progress = false, view = false})
local a, b = rc[1]:traj(), rc[2]:traj()
local maxdiff = #a == #b and 0 or math.huge
for k = 1, math.min(#a, #b) do
  for i = 1, #a[k] do
    maxdiff = math.max(maxdiff, math.abs(a[k][i] - b[k][i]))
  end
end
print(string.format("noisy quadratic{n=20, cond=100}, sigma 0.01, lr 0.5, "
                    .. "mu 0.9, 2000 steps, seed %d:", seed))
print(string.format("  %-26s %10s %8s", "method", "loss", "gradients"))
for _, r in ipairs(rc) do
  print(string.format("  %-26s %10.4g %8d", tostring(r.method), r:last("loss"),
                      r.ngev))
end
print(string.format("  max |x_lua - x_C| over %d recorded iterates: %.3g",
                    #a, maxdiff))

-- (2) noise-free, ill-conditioned: steps to ||x - x*|| < 1e-8
local p = problem.quadratic{n = 50, cond = kappa, seed = 7}
local methods = {optim.myhb{lr = 1, mu = 0.99},
                 optim.momentum{lr = 1, mu = 0.99},
                 optim.myhb_restart{lr = 1, mu = 0.99}}
local rr = race(p, methods, {iters = T, seed = seed, metrics = {"dist"},
                             cap = T + 2, progress = false, view = false})
print(string.format("quadratic{n=50, cond=%g}, lr 1, mu 0.99, budget %d: "
                    .. "steps to ||x - x*|| < 1e-8", kappa, T))
print(string.format("  %-30s %8s %14s", "method", "steps", "final dist"))
local steps = {}
for j, r in ipairs(rr) do
  local d, ts = r:series("dist")
  for i = 1, #d do
    if d[i] < 1e-8 then steps[j] = ts[i]; break end
  end
  print(string.format("  %-30s %8s %14.4g", tostring(r.method),
                      tostring(steps[j] or "none"), r:last("dist")))
end
local ok = maxdiff <= 1e-12 and rc[1].ngev == rc[2].ngev
  and steps[1] ~= nil and steps[1] == steps[2] and steps[3] ~= nil
  and steps[3] < steps[1]
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(p, methods, {iters = T, seed = seed, metrics = {"dist"},
                            watch = {"dist"}})
lesson.verdict(string.format("%s (max iterate difference %.3g <= 1e-12, "
                    .. "gradients %d and %d; steps to 1e-8: Lua heavy ball "
                    .. "%s, momentum %s, restarted %s; seed %d)",
                    ok and "holds" or "does not hold", maxdiff, rc[1].ngev,
                    rc[2].ngev, tostring(steps[1] or "none"),
                    tostring(steps[2] or "none"), tostring(steps[3] or "none"),
                    seed))
