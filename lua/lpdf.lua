-- lua/lpdf.lua -- log densities with Stan's parameterisations, and the
-- math functions they need (issue 22).
--
-- lpdf.normal(x, mu, sigma), lpdf.student_t(x, nu, mu, sigma),
-- lpdf.cauchy(x, mu, sigma), lpdf.exponential(x, lambda),
-- lpdf.gamma(x, alpha, beta) (beta a rate), lpdf.beta(x, a, b),
-- lpdf.lognormal(x, mu, sigma), lpdf.binomial_logit(k, n, alpha),
-- lpdf.poisson_log(k, alpha): log p with the full normalising constant,
-- as Stan's *_lpdf / *_lpmf (Stan Functions Reference, "Continuous
-- distributions" and "Discrete distributions": the same formulas).  Any
-- argument may be a table (all tables of one length): the sum over the
-- entries, scalars broadcast.  Outside the support, or with a scale or
-- shape <= 0: -inf (Stan rejects such a draw).  k and n are data: an
-- error when they are not integers with 0 <= k (<= n).
--
-- math.lgamma(x) (C's lgamma: log |Gamma(x)|), math.lbeta(a, b) (as
-- Stan's: Stirling's series where an argument is large), math.log_sum_exp(...) (of a
-- table or of its arguments: m + log1p(sum over the others of
-- exp(x_i - m)), m the largest, so exp never overflows), with math.log1p
-- and math.expm1 (lua/lad.c).
--
-- Everything here is written with the math table's functions, looked up
-- at each call: during a trace they are the tracing ones (lua/lad.c), so
-- a log density built from these is traced into a tape with exact
-- derivatives (lgamma's is the digamma, core/ad/tape.c), and on numbers
-- they give plain numbers.  Comparisons of traced values (sigma <= 0,
-- the largest of log_sum_exp's arguments) are the tape's guards.
local core = ...

local error, ipairs, pairs, select, tostring, type = error, ipairs, pairs,
  select, tostring, type
local math, string = math, string
local fmt = string.format

local HALF_LOG_2PI = 0.91893853320467274178   -- log(2 pi) / 2
local LOG_PI = 1.14472988584940017414          -- log(pi)
local HALF_LOG_PI = 0.57236494292470008707     -- log(pi) / 2
local INF = math.huge

-- log(1 + exp(a)) without overflow: a + log1p(exp(-a)) for a > 0.
local function log1p_exp (a)
  if a > 0 then return a + math.log1p(math.exp(-a)) end
  return math.log1p(math.exp(a))
end

-- lgamma(x) - Stirling's approximation, (x - 1/2) log x - x + log(2 pi)
-- / 2, for x >= 10: the series sum_k B_2k / (2k (2k - 1) x^(2k - 1)),
-- k = 1..6 (Abramowitz & Stegun 6.1.40; the next term is below 1e-15 at
-- 10, relative to the result).
local function stirling_diff (x)
  local r = 1 / (x * x)
  return (1 / 12 - r * (1 / 360 - r * (1 / 1260 - r * (1 / 1680
    - r * (1 / 1188 - r * 691 / 360360))))) / x
end

-- log B(a, b) as Stan's lbeta: lgamma(a) + lgamma(b) - lgamma(a + b) when
-- both are below 10; else with the large ones' Stirling parts cancelled
-- by hand (x the smaller, y the larger; lgamma(y) - lgamma(x + y) =
-- (y - 1/2) log1p(-x / (x + y)) + x (1 - log(x + y)) + the differences
-- of stirling_diff), so that lbeta(1e10, 0.5) keeps its digits.
function math.lbeta (a, b)
  local x, y = a, b
  if b < a then x, y = b, a end
  if y < 10 then
    return math.lgamma(x) + math.lgamma(y) - math.lgamma(x + y)
  end
  local s = x + y
  local l1 = math.log1p(-x / s)
  if x < 10 then
    return math.lgamma(x) + x * (1 - math.log(s)) + (y - 0.5) * l1
      + stirling_diff(y) - stirling_diff(s)
  end
  return (x - 0.5) * math.log(x / s) + (y - 0.5) * l1 - 0.5 * math.log(s)
    + HALF_LOG_2PI + stirling_diff(x) + stirling_diff(y) - stirling_diff(s)
end

function math.log_sum_exp (...)
  local v, n = {...}, select("#", ...)
  if n == 1 and type(v[1]) == "table" then
    v = v[1]
    n = #v
  end
  if n == 0 then return -INF end
  local m, im = v[1], 1
  for i = 2, n do
    if v[i] > m then m, im = v[i], i end
  end
  if m <= -INF then return -INF end         -- every term 0
  if m >= INF then return INF end
  local s = 0
  for i = 1, n do
    if i ~= im then s = s + math.exp(v[i] - m) end
  end
  return m + math.log1p(s)
end

-- The arguments' names, for the errors.
local ARGS = {
  normal = {"x", "mu", "sigma"}, lognormal = {"x", "mu", "sigma"},
  student_t = {"x", "nu", "mu", "sigma"}, cauchy = {"x", "mu", "sigma"},
  exponential = {"x", "lambda"}, gamma = {"x", "alpha", "beta"},
  beta = {"x", "a", "b"}, binomial_logit = {"k", "n", "alpha"},
  poisson_log = {"k", "alpha"},
}

-- v, argument i of lpdf.name (entry j of a table when j): a number or a
-- traced value, else an error naming the argument (level: the caller's).
local function checkarg (name, i, v, j)
  local tv = type(v)
  if tv == "number" or tv == "userdata" then return end
  local sig = ARGS[name]
  error(fmt("lpdf.%s(%s): %s%s must be a number%s, got %s", name,
            table.concat(sig, ", "), sig[i], j and fmt("[%d]", j) or "",
            j and "" or " or a table of numbers",
            tv == "nil" and "nil (missing?)" or "a " .. tv), 3)
end

-- f vectorised over its nargs arguments: a table argument sums f over
-- its entries, scalars broadcast; name for the error on unequal lengths.
local function vectorised (name, nargs, f)
  return function (...)
    local a = {...}
    local len
    for i = 1, nargs do
      if type(a[i]) ~= "table" then checkarg(name, i, a[i]) end
      if type(a[i]) == "table" then
        local l = #a[i]
        if len ~= nil and l ~= len then
          error(fmt("lpdf.%s: its table arguments have different lengths "
                    .. "(%d and %d)", name, len, l), 2)
        end
        len = l
      end
    end
    if len == nil then return f(...) end
    local s, b = 0, {}
    for j = 1, len do
      for i = 1, nargs do
        if type(a[i]) == "table" then
          b[i] = a[i][j]
          checkarg(name, i, b[i], j)
        else b[i] = a[i] end
      end
      s = s + f(b[1], b[2], b[3], b[4])
    end
    return s
  end
end

-- k (and n) of a discrete density: integers, 0 <= k (<= n).
local function count (name, what, k, hi)
  if type(k) ~= "number" then
    error(fmt("lpdf.%s: %s must be a number (data: an integer >= 0), got a "
              .. "%s", name, what, type(k) == "userdata"
              and "parameter (a traced value)" or type(k)), 0)
  end
  if k ~= k or k < 0 or k % 1 ~= 0 or (hi ~= nil and k > hi) then
    error(fmt("lpdf.%s: %s = %s must be an integer in [0, %s]", name, what,
              tostring(k), hi ~= nil and tostring(hi) or "inf"), 0)
  end
end

local lpdf = {}

lpdf.normal = vectorised("normal", 3, function (x, mu, sigma)
  if sigma <= 0 then return -INF end
  local z = (x - mu) / sigma
  return -0.5 * z * z - math.log(sigma) - HALF_LOG_2PI
end)

lpdf.lognormal = vectorised("lognormal", 3, function (x, mu, sigma)
  if sigma <= 0 or x <= 0 then return -INF end
  local lx = math.log(x)
  local z = (lx - mu) / sigma
  return -0.5 * z * z - math.log(sigma) - HALF_LOG_2PI - lx
end)

lpdf.student_t = vectorised("student_t", 4, function (x, nu, mu, sigma)
  if nu <= 0 or sigma <= 0 then return -INF end
  local z = (x - mu) / sigma
  return math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2)
    - 0.5 * math.log(nu) - HALF_LOG_PI - math.log(sigma)
    - (nu + 1) / 2 * math.log1p(z * z / nu)
end)

lpdf.cauchy = vectorised("cauchy", 3, function (x, mu, sigma)
  if sigma <= 0 then return -INF end
  local z = (x - mu) / sigma
  return -LOG_PI - math.log(sigma) - math.log1p(z * z)
end)

lpdf.exponential = vectorised("exponential", 2, function (x, lambda)
  if lambda <= 0 or x < 0 then return -INF end
  return math.log(lambda) - lambda * x
end)

lpdf.gamma = vectorised("gamma", 3, function (x, alpha, beta)
  if alpha <= 0 or beta <= 0 or x < 0 then return -INF end
  return alpha * math.log(beta) - math.lgamma(alpha)
    + (alpha - 1) * math.log(x) - beta * x
end)

lpdf.beta = vectorised("beta", 3, function (x, a, b)
  if a <= 0 or b <= 0 or x < 0 or x > 1 then return -INF end
  return (a - 1) * math.log(x) + (b - 1) * math.log1p(-x) - math.lbeta(a, b)
end)

lpdf.binomial_logit = vectorised("binomial_logit", 3, function (k, n, alpha)
  count("binomial_logit", "n", n)
  count("binomial_logit", "k", k, n)
  -- log C(n, k) + k log inv_logit(alpha) + (n - k) log inv_logit(-alpha)
  return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    - k * log1p_exp(-alpha) - (n - k) * log1p_exp(alpha)
end)

lpdf.poisson_log = vectorised("poisson_log", 2, function (k, alpha)
  count("poisson_log", "k", k)
  return k * alpha - math.exp(alpha) - math.lgamma(k + 1)
end)

_ENV.lpdf = lpdf

core.fdocs = core.fdocs or {}
core.frows = core.frows or {}
local doc = [[
lpdf.normal(x, mu, sigma)        lpdf.student_t(x, nu, mu, sigma)
lpdf.cauchy(x, mu, sigma)        lpdf.exponential(x, lambda)
lpdf.gamma(x, alpha, beta)       lpdf.beta(x, a, b)
lpdf.lognormal(x, mu, sigma)     lpdf.binomial_logit(k, n, alpha)
lpdf.poisson_log(k, alpha)
  log densities (log mass functions) with Stan's parameterisations and
  their full normalising constants: gamma's beta is a rate (mean
  alpha / beta), binomial_logit's alpha the log-odds, poisson_log's the
  log of the rate.  Any argument may be a table (equal lengths): the sum
  over its entries, scalars broadcast.  Outside the support or with a
  scale or shape <= 0: -inf; k and n must be integers (an error).
math.lgamma(x), math.lbeta(a, b), math.log_sum_exp(t or ...),
math.log1p(x), math.expm1(x)
  log |Gamma(x)|; log B(a, b); log(sum exp(x_i)) without overflow;
  log(1 + x), exp(x) - 1 accurate near 0.
All are traced like math: a logp written with them gets exact gradients
and Hessians from its tape (lgamma's derivative is the digamma); on
numbers they return numbers.  Example (data y, parameters mu, sigma):
  y = {1.2, 0.4, 2.2, 1.9, 0.1}
  p = problem.density{params = {{"mu"}, {"sigma", lower = 0}},
    logp = function (q) return lpdf.normal(y, q.mu, q.sigma)
      + lpdf.cauchy(q.sigma, 0, 5) end}
  print(run(p, sample.nuts{}, {chains = 4}))]]
core.fdocs.lpdf = doc
core.fdocs[lpdf] = doc
for k, f in pairs(lpdf) do
  core.fdocs[f] = doc
  core.fdocs["lpdf." .. k] = doc
end
for _, k in ipairs{"lgamma", "lbeta", "log_sum_exp", "log1p", "expm1"} do
  core.fdocs["math." .. k] = doc
  if math[k] then core.fdocs[math[k]] = doc end
end
core.frows[#core.frows + 1] =
  {"lpdf.normal(x, mu, s)", "log densities as Stan's, traced (help(lpdf))"}
