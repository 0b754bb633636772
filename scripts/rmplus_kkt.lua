-- scripts/rmplus_kkt.lua -- regret matching+ as a first-order optimizer:
-- the KKT gap of a nonconvex quadratic program on the simplex going to 0,
-- with the regret alongside.
--
-- Claim (Anagnostides, Tewolde, Zhang, Panageas, Conitzer & Sandholm, the
-- RM+ eps-KKT paper): RM+ with utilities -grad f reaches an eps-KKT point
-- after O(1/eps^4) iterations, and O(1/eps^2) when the regrets stay
-- bounded.  Measured here: the first T with kkt <= eps, for eps = 1e-1 ..
-- 1e-8, the exponent p of T(eps) ~ eps^-p between 1e-2 and 1e-8 (p <= 2 is
-- the bounded-regret rate), and the cumulative regret T * regret, which
-- stays bounded.
--
-- The problem: Bomze's regularised Motzkin-Straus program of a graph
-- (Motzkin & Straus 1965; Bomze 1997, "Evolution towards the maximum
-- clique", J. Global Optim.), min f(x) = -(x'Ax + ||x||^2 / 2) over the
-- simplex, A the adjacency matrix of a seeded random graph G(n, 1/2).  The
-- Hessian -(2A + I) is indefinite; the local minimisers are exactly the
-- uniform points on the maximal cliques C, with f = -(1 - 1/(2|C|)), so a
-- KKT point the method ends at is checked independently: its support must
-- be a maximal clique and f its value.  kkt is the Frank-Wolfe gap
-- max_a <g, x> - g_a; regret the largest average external regret of the
-- block.  Frank-Wolfe's standard step is shown at the same budget.
--
-- Usage: optlab scripts/rmplus_kkt.lua [n] [seed] [iters] (defaults 20, 1,
-- 2000); in the full-screen view the kkt and regret panels run side by
-- side.
local n = tonumber(arg and arg[1]) or 20
local seed = tonumber(arg and arg[2]) or 1
local T = tonumber(arg and arg[3]) or 2000

math.randomseed(seed)
local A = {}
for i = 1, n do A[i] = {} end
for i = 1, n do
  A[i][i] = 0
  for j = i + 1, n do
    local e = math.random() < 0.5 and 1 or 0
    A[i][j], A[j][i] = e, e
  end
end
local x0 = {}
for i = 1, n do x0[i] = 1 / n end
local p = problem.new{
  n = n, set = {simplex = {n}}, x0 = x0, name = "motzkin-straus",
  f = function (x)
    local s = 0
    for i = 1, n do
      local ax = 0.5 * x[i]
      for j = 1, n do ax = ax + A[i][j] * x[j] end
      s = s - x[i] * ax
    end
    return s
  end,
  grad = function (x, g)
    for i = 1, n do
      local ax = x[i]
      for j = 1, n do ax = ax + 2 * A[i][j] * x[j] end
      g[i] = -ax
    end
  end}

lesson.claim(string.format("RM+ (optim.rmplus, no step size) reaches an "
                    .. "eps-KKT point of a nonconvex QP on the simplex, "
                    .. "within O(1/eps^2) iterations when its regret stays "
                    .. "bounded (O(1/eps^4) in general); Motzkin-Straus "
                    .. "program of G(%d, 1/2), seed %d, %d steps", n, seed,
                    T))
local r = run(p, optim.rmplus{}, {iters = T, metrics = {"kkt", "regret",
              "loss"}, watch = {"kkt", "regret"}})
local fw = run(p, optim.fw{}, {iters = T, metrics = {"kkt", "loss"},
               watch = {"kkt"}})

-- (1) T(eps): the first recorded step with kkt <= eps
local ks, ts = r:series("kkt")
local rs = r:series("regret")
local eps, hit = {1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8}, {}
for k, e in ipairs(eps) do
  for i = 1, #ks do
    if ks[i] <= e then hit[k] = ts[i]; break end
  end
end
local row = {}
for k, e in ipairs(eps) do
  row[#row + 1] = string.format("%g: %s", e, hit[k] and tostring(hit[k])
                                or "-")
end
print("first step with kkt <= eps: " .. table.concat(row, ", "))
local pexp = hit[2] and hit[6]
  and math.log(math.max(hit[6], 1) / math.max(hit[2], 1)) / math.log(1e6)
  or math.huge
print(string.format("rate: T(1e-8) / T(1e-2) = %s / %s, exponent p = %.3f "
                    .. "in T ~ eps^-p (bounded-regret bound: p = 2); %.1f "
                    .. "steps per decade of kkt: linear convergence",
                    tostring(hit[6]), tostring(hit[2]), pexp,
                    hit[2] and hit[6] and (hit[6] - hit[2]) / 6 or -1))

-- (2) the regret: cumulative T * regret at half the run and at its end
local half = 1
for i = 1, #ts do if ts[i] <= ts[#ts] / 2 then half = i end end
local Rh, Re = rs[half] * ts[half], rs[#rs] * ts[#ts]
print(string.format("cumulative regret T * regret: %.4g at T = %d, %.4g at "
                    .. "T = %d (stopped: %s)", Rh, ts[half], Re, ts[#ts],
                    r.reason))

-- (3) the KKT point: support, clique, value
local sup = {}
for i = 1, n do if r.x[i] > 0 then sup[#sup + 1] = i end end
local clique, maximal = true, true
for a = 1, #sup do
  for b = a + 1, #sup do
    if A[sup[a]][sup[b]] == 0 then clique = false end
  end
end
for v = 1, n do
  if r.x[v] == 0 then
    local all = true
    for _, u in ipairs(sup) do if A[v][u] == 0 then all = false end end
    if all then maximal = false end
  end
end
local k = #sup
local fC = -(1 - 1 / (2 * k))
print(string.format("end point: support {%s} (size %d), %s; f = %.15g, "
                    .. "-(1 - 1/(2k)) = %.15g; kkt %.3g",
                    table.concat(sup, " "), k, not clique and "NOT a clique"
                    or maximal and "a maximal clique"
                    or "a clique, not maximal", r:last("loss"), fC,
                    r:last("kkt")))
print(string.format("fw (step 2/(t+2)) after %d steps: kkt %.3g, f = %.6g",
                    fw.iter, fw:last("kkt"), fw:last("loss")))

local ok = hit[6] ~= nil and pexp <= 2 and clique and maximal
  and math.abs(r:last("loss") - fC) <= 1e-12 and Re <= 2 * Rh + 1
lesson.verdict(string.format("%s (kkt <= 1e-8 at step %s; exponent %.3f "
                    .. "<= 2; regret bounded: %.3g then %.3g; the end point "
                    .. "is the uniform point of a maximal %d-clique, f "
                    .. "within 1e-12; seed %d)", ok and "holds"
                    or "does not hold", tostring(hit[6]), pexp, Rh, Re, k,
                    seed))
