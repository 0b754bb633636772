-- tests/lua/lpdf.lua -- the log-density library and the math additions
-- (issue 22, item 9), and the tape's derivatives in the tails (item 11).
--
-- Truth, never the tape itself:
--   values: closed forms of each density at chosen points (Stan Functions
--   Reference formulas written out by hand with Gamma at half-integers),
--   lgamma / digamma / trigamma at known points (Abramowitz & Stegun 6.1,
--   6.3, 6.4: lgamma(1/2) = log sqrt(pi), psi(1) = -gamma, psi(1/2) =
--   -gamma - 2 log 2, psi'(1) = pi^2 / 6, reflection at -1/2, the
--   asymptotic series at 1e8; psi(100) from mpmath at 30 digits);
--   derivatives: grad() against fourth-order central differences (h =
--   1e-6 (1 + |x|): error below 1e-8 relative at these points, also 1e-3
--   from a boundary; tolerance 1e-6 (1 + |g|)) at several
--   points per density, and against closed forms (normal's, gamma's with
--   psi(1), the softmax of log_sum_exp, sech^2 of tanh to 1e-14).
local t = dofile("tests/lib/tap.lua")
local abs, log, exp, pi, fmt = math.abs, math.log, math.exp, math.pi,
  string.format
local EG = 0.57721566490153286061        -- Euler's gamma

local function rel (a, b) return abs(a - b) / math.max(abs(b), 1e-300) end

-- fourth-order central differences of f at x (a table), coordinate by
-- coordinate: (-f(x + 2h) + 8 f(x + h) - 8 f(x - h) + f(x - 2h)) / 12h
local function fd (f, x)
  local g = {}
  for i = 1, #x do
    local h = 1e-6 * (1 + abs(x[i]))
    local function at (k)
      local y = {}
      for j = 1, #x do y[j] = x[j] end
      y[i] = x[i] + k * h
      return f(y)
    end
    g[i] = (-at(2) + 8 * at(1) - 8 * at(-1) + at(-2)) / (12 * h)
  end
  return g
end

local function checkgrad (name, f, x)
  local g, why = grad(f, x)
  local d = fd(f, x)
  local worst = 0
  for i = 1, #x do
    worst = math.max(worst, abs(g[i] - d[i]) / (1 + abs(d[i])))
  end
  t.ok(why == nil and worst <= 1e-6, fmt("%s: traced gradient at (%s) "
       .. "agrees with central differences (max error %.1e <= 1e-6)%s",
       name, table.concat(x, ", "), worst, why and (": " .. why) or ""))
end

-- == lgamma, digamma, trigamma ============================================
t.near(math.lgamma(0.5), log(math.sqrt(pi)), 1e-15,
       "lgamma(0.5) = log sqrt(pi)")
t.near(math.lgamma(10), log(362880), 1e-14, "lgamma(10) = log 9!")
t.near(math.lgamma(-0.5), log(2 * math.sqrt(pi)), 1e-14,
       "lgamma(-0.5) = log(2 sqrt(pi)) (log |Gamma|)")
t.is(math.type(math.lgamma(3)), "float", "lgamma of a number is a number")
local function psi (x)
  return grad(function (v) return math.lgamma(v[1]) end, {x})[1]
end
local function psi1 (x)
  return hessian(function (v) return math.lgamma(v[1]) end, {x})[1][1]
end
local dg = {
  {1, -EG}, {0.5, -EG - 2 * log(2)}, {2, 1 - EG},
  {-0.5, -EG - 2 * log(2) + 2},                       -- psi(1/2) + 2
  {100, 4.6001618527380874}, {1e-6, -1e6 - EG + pi * pi / 6 * 1e-6},
  {1e8, log(1e8) - 0.5e-8 - 1 / 12e16},
}
for _, c in ipairs(dg) do
  local v = psi(c[1])
  t.ok(rel(v, c[2]) <= 2e-14, fmt("d/dx lgamma(x) at %g is the digamma "
       .. "%.17g (got %.17g, rel err %.1e <= 2e-14)", c[1], c[2], v,
       rel(v, c[2])))
end
local tg = {
  {1, pi * pi / 6}, {0.5, pi * pi / 2}, {-0.5, pi * pi / 2 + 4},
  {100, 0.010050166663333571}, {1e-4, 1e8 + pi * pi / 6 - 2 * 1.2020569031595943e-4},  -- zeta(3)
}
for _, c in ipairs(tg) do
  local v = psi1(c[1])
  t.ok(rel(v, c[2]) <= 1e-13, fmt("d2/dx2 lgamma(x) at %g is the trigamma "
       .. "%.15g (got %.15g, rel err %.1e <= 1e-13)", c[1], c[2], v,
       rel(v, c[2])))
end
for _, x in ipairs{0.3, 1.4616321449683623, 7.5, 40} do
  checkgrad("lgamma", function (v) return math.lgamma(v[1]) end, {x})
end

-- == log_sum_exp, lbeta, log1p, expm1 =====================================
t.near(math.log_sum_exp(1000, 1000), 1000 + log(2), 1e-12,
       "log_sum_exp(1000, 1000) = 1000 + log 2 (no overflow)")
t.near(math.log_sum_exp{-1000, -1000, -1000}, -1000 + log(3), 1e-12,
       "log_sum_exp{-1000, -1000, -1000} = -1000 + log 3 (no underflow)")
t.near(math.log_sum_exp(1, 2, 3), log(exp(1) + exp(2) + exp(3)), 1e-15,
       "log_sum_exp(1, 2, 3) (varargs)")
t.is(math.log_sum_exp{}, -math.huge, "log_sum_exp{} = -inf")
t.is(math.log_sum_exp(-math.huge, -math.huge), -math.huge,
     "log_sum_exp(-inf, -inf) = -inf")
do
  local x = {1000, 1000, 999}
  local g = grad(function (v) return math.log_sum_exp(v) end, x)
  local z = 2 + exp(-1)
  local want = {1 / z, 1 / z, exp(-1) / z}
  local worst = 0
  for i = 1, 3 do worst = math.max(worst, rel(g[i], want[i])) end
  t.ok(worst <= 1e-15, fmt("grad of log_sum_exp at (1000, 1000, 999) is "
       .. "the softmax (rel err %.1e)", worst))
  checkgrad("log_sum_exp", function (v) return math.log_sum_exp(v[1], 2 * v[2], -v[3]) end,
            {0.3, -1.2, 4})
end
t.near(math.lbeta(2, 3), log(1 / 12), 1e-15, "lbeta(2, 3) = log(1/12)")
-- large arguments against mpmath's log(beta(a, b)) at 40 digits
for _, c in ipairs{{1e10, 0.5, -10.940560522033028}, {0.5, 1e10,
    -10.940560522033028}, {1e6, 2e6, -1909548.2909685330},
    {12, 30, -25.274864968419808}, {0.5, 15, -0.77332836545223204},
    {20, 20.5, -28.301689907335092}} do
  local v = math.lbeta(c[1], c[2])
  t.ok(rel(v, c[3]) <= 1e-14, fmt("lbeta(%g, %g) = %.17g (mpmath %.17g, rel "
       .. "err %.1e <= 1e-14)", c[1], c[2], v, c[3], rel(v, c[3])))
end
checkgrad("lbeta", function (v) return math.lbeta(v[1], v[2]) end, {0.7, 3.2})
checkgrad("lbeta (one large)", function (v) return math.lbeta(v[1], v[2]) end,
          {0.5, 15})
checkgrad("lbeta (both large)", function (v) return math.lbeta(v[1], v[2]) end,
          {20, 20.5})
do
  -- d/da lbeta(a, b) = psi(a) - psi(a + b): at (0.5, 15) from mpmath
  local g = grad(function (v) return math.lbeta(v[1], 15) end, {0.5})[1]
  local want = -1.9635100260214235 - 2.7082352425903654
  t.ok(rel(g, want) <= 1e-13, fmt("d/da lbeta(a, 15) at 0.5 = psi(0.5) - "
       .. "psi(15.5) (got %.17g, want %.17g)", g, want))
end
do
  local g = grad(function (v) return math.expm1(v[1]) end, {-40})[1]
  t.ok(rel(g, exp(-40)) <= 1e-15, fmt("d/dx expm1 at -40 is exp(-40) to "
       .. "1e-15 relative (got %.17g: y + 1 gave 0)", g))
  g = grad(function (v) return math.log1p(v[1]) end, {-0.999999})[1]
  t.ok(rel(g, 1 / (1 - 0.999999)) <= 1e-9, "d/dx log1p near -1")
end

-- == tanh in the tails (tanh_tail.lua) ======================================
for _, u in ipairs{3, 6, 10, 15, 20, -20, 30} do
  local g = grad(function (x) return math.tanh(x[1]) end, {u})[1]
  local d = 4 / (exp(u) + exp(-u)) ^ 2
  t.ok(rel(g, d) <= 1e-14, fmt("d/du tanh(u) at u = %g keeps its relative "
       .. "accuracy: %.17g vs 4 / (e^u + e^-u)^2 = %.17g (rel err %.1e)",
       u, g, d, rel(g, d)))
end
do
  local H = hessian(function (x) return math.tanh(x[1]) end, {15})[1][1]
  local d = 4 / (exp(15) + exp(-15)) ^ 2
  t.ok(rel(H, -2 * math.tanh(15) * d) <= 1e-14,
       "d2/du2 tanh(u) at 15 = -2 tanh sech^2 to 1e-14")
  -- atan's 1 / (1 + a^2): a^2 overflows at 2e154, the derivative does not
  local ga = grad(function (x) return math.atan(x[1]) end, {2e154})[1]
  t.ok(rel(ga, 2.5e-309) <= 1e-6, fmt("d/du atan(u) at 2e154 is 2.5e-309 "
       .. "(got %.6g; 1 / (1 + u^2) gave 0)", ga))
  -- the logistic written out: its derivative has no 1 - y form to lose
  local g = grad(function (x) return 1 / (1 + math.exp(-x[1])) end, {30})[1]
  t.ok(rel(g, exp(-30) / (1 + exp(-30)) ^ 2) <= 1e-14,
       "d/du logistic(u) at 30 to 1e-14 relative")
end

-- == the densities: values ================================================
local L2P = 0.5 * log(2 * pi)
local vals = {
  {"normal", lpdf.normal(1, 0, 2), -0.125 - log(2) - L2P},
  {"normal (table)", lpdf.normal({1, -1}, 0, 2), 2 * (-0.125 - log(2) - L2P)},
  {"student_t", lpdf.student_t(1, 3, 0, 1), log(9 / (8 * pi * math.sqrt(3)))},
  {"student_t (mu, sigma)", lpdf.student_t(3, 3, 1, 2),
    log(9 / (8 * pi * math.sqrt(3))) - log(2)},
  {"cauchy", lpdf.cauchy(2, 0, 1), -log(5 * pi)},
  {"cauchy (mu, sigma)", lpdf.cauchy(4, 2, 2), -log(4 * pi)},
  {"exponential", lpdf.exponential(2, 3), log(3) - 6},
  {"gamma (rate)", lpdf.gamma(2, 3, 2), 4 * log(2) - 4},
  {"beta", lpdf.beta(0.3, 2, 3), log(12 * 0.3 * 0.49)},
  {"lognormal", lpdf.lognormal(2, 0, 1), -0.5 * log(2) ^ 2 - L2P - log(2)},
  {"binomial_logit", lpdf.binomial_logit(3, 10, log(0.3 / 0.7)),
    log(120 * 0.3 ^ 3 * 0.7 ^ 7)},
  {"binomial_logit (alpha = 40)", lpdf.binomial_logit(10, 10, 40),
    -10 * math.log1p(exp(-40))},
  {"poisson_log", lpdf.poisson_log(2, log(1.5)), log(1.5 ^ 2 * exp(-1.5) / 2)},
}
for _, c in ipairs(vals) do
  t.ok(abs(c[2] - c[3]) <= 1e-14 * (1 + abs(c[3])), fmt("lpdf.%s = %.17g "
       .. "(closed form %.17g)", c[1], c[2], c[3]))
end
t.is(lpdf.exponential(-1, 2), -math.huge, "exponential outside its support: -inf")
t.is(lpdf.normal(0, 0, -1), -math.huge, "normal with sigma <= 0: -inf")
t.is(lpdf.beta(1.5, 2, 2), -math.huge, "beta outside [0, 1]: -inf")
t.errors("k = 2.5 must be an integer", lpdf.poisson_log, 2.5, 1)
t.errors("k = 11 must be an integer in %[0, 10%]", lpdf.binomial_logit, 11, 10, 0)
t.errors("different lengths", lpdf.normal, {1, 2}, {0, 0, 0}, 1)
-- a missing or non-number argument is named (5aa2093's lpdf said
-- "lua/lpdf.lua:141: attempt to compare nil with number")
t.errors("lpdf.normal(x, mu, sigma): sigma must be a number or a table of "
         .. "numbers, got nil (missing?)", lpdf.normal, 1, 0)
t.errors("lpdf.normal(x, mu, sigma): x must be a number or a table of "
         .. "numbers, got a string", lpdf.normal, "a", 0, 1)
t.errors("lpdf.gamma(x, alpha, beta): x[2] must be a number, got a string",
         lpdf.gamma, {1, "b"}, 2, 1)
do
  local chunk = load("local v = lpdf.student_t(1, 3, 0)\nreturn v", "=mine")
  local ok, e = pcall(chunk)
  t.ok(not ok and tostring(e):find("^mine:1: lpdf%.student_t%(x, nu, mu, "
                                   .. "sigma%): sigma must be") ~= nil,
       "the error is at the caller's line: " .. tostring(e))
end

-- help(lpdf)'s example runs as printed (5aa2093's used a y it never set)
do
  local tmp, old = os.tmpname(), io.output()
  io.output(tmp)
  help(lpdf)
  io.output():close()
  io.output(old)
  local fh = assert(io.open(tmp))
  local txt = fh:read("a")
  fh:close()
  os.remove(tmp)
  local code = txt:match("Example[^\n]*\n(.*)$")
  local ok, err = false, "no example found"
  if code then
    local printed = {}
    local env = setmetatable({print = function (...) printed[#printed + 1]
      = tostring((...)) end}, {__index = _G})
    local chunk, lerr = load(code, "=example", "t", env)
    if chunk then ok, err = pcall(chunk) else err = lerr end
    if ok and not (printed[1] or ""):find("4 chains, warmup 1000", 1, true)
    then ok, err = false, "printed: " .. tostring(printed[1]) end
  end
  t.ok(ok, "help(lpdf)'s example runs and samples 4 chains: "
       .. tostring(err))
end

-- == the densities: derivatives ===========================================
local cases = {
  {"normal", function (v) return lpdf.normal(v[1], v[2], v[3]) end,
    {{1, 0, 2}, {-30, 4, 0.1}, {1e3, -1e3, 50}}},
  {"student_t", function (v) return lpdf.student_t(v[1], v[2], v[3], v[4]) end,
    {{1, 3, 0, 1}, {50, 0.5, -2, 3}, {-0.2, 200, 0.1, 0.05}}},
  {"cauchy", function (v) return lpdf.cauchy(v[1], v[2], v[3]) end,
    {{2, 0, 1}, {1e4, -3, 0.01}}},
  {"exponential", function (v) return lpdf.exponential(v[1], v[2]) end,
    {{2, 3}, {1e-8, 1e3}}},
  {"gamma", function (v) return lpdf.gamma(v[1], v[2], v[3]) end,
    {{2, 3, 2}, {1e-3, 0.05, 7}, {300, 250, 0.9}}},
  {"beta", function (v) return lpdf.beta(v[1], v[2], v[3]) end,
    {{0.3, 2, 3}, {0.999, 0.2, 40}, {1e-4, 60, 0.5}}},
  {"lognormal", function (v) return lpdf.lognormal(v[1], v[2], v[3]) end,
    {{2, 0, 1}, {1e-3, 3, 0.2}}},
  {"binomial_logit", function (v) return lpdf.binomial_logit(3, 10, v[1]) end,
    {{-0.8}, {25}, {-30}}},
  {"poisson_log", function (v) return lpdf.poisson_log(4, v[1]) end,
    {{0.4}, {-20}, {5}}},
}
for _, c in ipairs(cases) do
  for _, x in ipairs(c[3]) do checkgrad("lpdf." .. c[1], c[2], x) end
end
do
  -- closed forms: normal's d/dmu, d/dsigma; gamma's d/dalpha at alpha = 1
  local x, mu, s = 1.5, 0.2, 0.7
  local g = grad(function (v) return lpdf.normal(x, v[1], v[2]) end, {mu, s})
  t.ok(rel(g[1], (x - mu) / s ^ 2) <= 1e-15 and
       rel(g[2], -1 / s + (x - mu) ^ 2 / s ^ 3) <= 1e-15,
       "lpdf.normal: d/dmu = (x - mu) / sigma^2, d/dsigma = -1/sigma + "
       .. "(x - mu)^2 / sigma^3")
  g = grad(function (v) return lpdf.gamma(2, v[1], 3) end, {1})
  t.ok(rel(g[1], log(3) + EG + log(2)) <= 1e-14,
       "lpdf.gamma: d/dalpha at alpha = 1 = log beta - psi(1) + log x")
  g = grad(function (v) return lpdf.binomial_logit(3, 10, v[1]) end, {0.4})
  t.ok(rel(g[1], 3 - 10 / (1 + exp(-0.4))) <= 1e-14,
       "lpdf.binomial_logit: d/dalpha = k - n inv_logit(alpha)")
end

-- == through a problem: traced, and a sampler's gradient ===================
do
  local y = {1.2, 0.4, 2.2, 1.9, 0.1}
  local p = problem.density{n = 2, logp = function (q)
    return lpdf.normal(y, q[1], q[2]) + lpdf.cauchy(q[2], 0, 5)
      + lpdf.normal(q[1], 0, 10)
  end, lower = {-math.huge, 0}, x0 = {1, 1}}
  t.is(p.ad.mode, "traced", "a logp written with lpdf is traced")
  local q = problem.density{n = 2, logp = function (v)
    local s = 0
    for i = 1, #y do
      local z = (y[i] - v[1]) / v[2]
      s = s - 0.5 * z * z - math.log(v[2]) - L2P
    end
    return s - math.log(math.pi * 5) - math.log(1 + (v[2] / 5) ^ 2)
      - 0.5 * (v[1] / 10) ^ 2 - math.log(10) - L2P
  end, lower = {-math.huge, 0}, x0 = {1, 1}, ad = false}
  local u = {0.3, -0.2}
  local fp, gp = p:eval(u)
  local fq, gq = q:eval(u)
  t.ok(abs(fp - fq) <= 1e-12 * abs(fq) and abs(gp[1] - gq[1]) <= 1e-6 and
       abs(gp[2] - gq[2]) <= 1e-6, fmt("the lpdf density's potential and "
       .. "gradient equal the written-out one's (%.15g vs %.15g)", fp, fq))
end

t.done()
