-- scripts/bilevel_sigma.lua -- the value-function penalty is O(sigma)-close
-- to the hyper-objective, in values and in derivatives.
--
-- Claim (Kwon, Kwon, Wright & Nowak, "On penalty methods for nonconvex
-- bilevel optimization and first-order stochastic approximation", ICLR
-- 2024): for min_x F(x) = f(x, y*(x)), y*(x) = argmin_y g(x, y), the
-- penalty psi_sigma(x) = (min_y (sigma f + g) - min_y g) / sigma has
-- values and derivatives O(sigma)-close to F's.
--
-- Problem: problem.ridgehyper, the validation loss of ridge regression
-- over x = log lambda (d = 20 features, 30 training and 30 validation
-- samples); F' is the exact hypergradient (implicit differentiation) and
-- problem.ridgehyper{sigma = s} is psi_s in closed form.  Part 1: |F -
-- psi_s| and |F' - psi_s'| at x = 0 and at F's minimiser x*, for s =
-- 1e-2 .. 1e-5, and their log-log slopes against s (1 when O(sigma)).
-- Part 2: optim.bilevel with long inner loops (K = 3000) at lr = 0: its
-- hypergrad_err is the same derivative gap, so the first-order method
-- sees psi_s' and not F'.  Part 3: optim.bilevel descending psi_s (K =
-- 20, lr = 0.05, 400 steps) stops at x_s with |x_s - x*| = O(sigma).
-- Deterministic (the data's seed is fixed, the method draws nothing).
--
-- Usage: optlab scripts/bilevel_sigma.lua
local sigmas = {1e-2, 1e-3, 1e-4, 1e-5}
local p = problem.ridgehyper{}
local xstar = p.xstar[1]

-- Least-squares slope of log y against log x.
local slope = lesson.slope

lesson.claim("the penalty psi_sigma and the hyper-objective F differ by "
      .. "O(sigma) in values and derivatives (log-log slope 1)")
print(string.format("part 1: closed forms at x = 0 and at x* = %.6f", xstar))
print(string.format("  %-8s %12s %12s %12s %12s", "sigma", "|F-psi| 0",
                    "|F'-psi'| 0", "|F-psi| x*", "|F'-psi'| x*"))
local gaps = {{}, {}, {}, {}}
for i, s in ipairs(sigmas) do
  local q = problem.ridgehyper{sigma = s}
  for j, x in ipairs{0, xstar} do
    local F, G = p:eval({x})
    local f, g = q:eval({x})
    gaps[2 * j - 1][i] = math.abs(F - f)
    gaps[2 * j][i] = math.abs(G[1] - g[1])
  end
  print(string.format("  %-8g %12.4e %12.4e %12.4e %12.4e", s, gaps[1][i],
                      gaps[2][i], gaps[3][i], gaps[4][i]))
end
local sl = {}
for k = 1, 4 do sl[k] = slope(sigmas, gaps[k]) end
print(string.format("slope value %.3f, derivative %.3f at x = 0; value %.3f, "
                    .. "derivative %.3f at x*  (theory 1)", sl[1], sl[2],
                    sl[3], sl[4]))

print("part 2: optim.bilevel's hypergrad_err at x = 0 (K = 3000, lr = 0, "
      .. "one step)")
local herr, hgap = {}, {}
for i, s in ipairs(sigmas) do
  local r = run(p, optim.bilevel{sigma = s, lr = 0, K = 3000},
                {iters = 1, x0 = {0}, metrics = {"loss", "hypergrad_err"},
                 progress = false, view = false})
  herr[i], hgap[i] = r:last("hypergrad_err"), gaps[2][i]
  print(string.format("  sigma %-8g hypergrad_err %.6e   |F'-psi'| %.6e", s,
                      herr[i], hgap[i]))
end
local sh = slope(sigmas, herr)
local hmatch = 0
for i = 1, #sigmas do
  hmatch = math.max(hmatch, math.abs(herr[i] - hgap[i]) / hgap[i])
end
print(string.format("slope %.3f; largest relative gap to the closed form "
                    .. "%.2g", sh, hmatch))

print("part 3: optim.bilevel (K = 20, lr = 0.05, 400 steps) from x = 0")
local dx = {}
for i, s in ipairs(sigmas) do
  local r = run(p, optim.bilevel{sigma = s, lr = 0.05},
                {iters = 400, metrics = {"loss", "hypergrad_err"},
                 progress = false, view = false})
  dx[i] = math.abs(r.x[1] - xstar)
  print(string.format("  sigma %-8g x = %.8f   |x - x*| %.4e   F - F* "
                      .. "%.3e", s, r.x[1], dx[i], r:last("loss") - p.fstar))
end
local sx = slope(sigmas, dx)
print(string.format("slope of |x_sigma - x*| %.3f  (theory 1)", sx))

local lo, hi = 0.9, 1.1
local okall = hmatch < 1e-6
for _, v in ipairs{sl[1], sl[2], sl[3], sl[4], sh, sx} do
  okall = okall and v >= lo and v <= hi
end
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(p, {optim.bilevel{sigma = sigmas[1], lr = 0.05},
               optim.bilevel{sigma = sigmas[2], lr = 0.05},
               optim.bilevel{sigma = sigmas[3], lr = 0.05}},
            {iters = 400, metrics = {"loss", "hypergrad_err"},
             watch = {"loss", "hypergrad_err"}})
lesson.verdict(string.format("%s (slopes %.3f %.3f %.3f %.3f, method %.3f, "
                    .. "minimiser %.3f, each within [%.1f, %.1f]; the "
                    .. "method's hypergrad_err is the closed-form gap to "
                    .. "%.1g; no seed: deterministic, data seed 1)",
                    okall and "holds" or "does not hold", sl[1], sl[2], sl[3],
                    sl[4], sh, sx, lo, hi, hmatch))
