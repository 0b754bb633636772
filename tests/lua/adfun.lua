-- tests/lua/adfun.lua -- classical test functions written in Lua, and the
-- independent derivative truth the AD tests (tests/lua/ad.lua) and bench
-- (tests/bench/ad.lua) hold traced gradients and Hessians against.
--
-- local F = dofile("tests/lua/adfun.lua")
--   F.corpus      list of {name, source, n, x0, f [, grad] [, hess]}:
--                 f(x) -> number; grad(x) -> table; hess(x) -> rows
--   F.builtins    the built-in problems of core/problems/ re-written here
--                 ({name, make = problem.<type>{...} args, n, f, grad, hess})
--   F.csgrad(f, x)      complex-step gradient (Squire & Trapp 1998):
--                       g_i = Im f(x + i h e_i) / h, h = 1e-20: no
--                       subtraction, so exact to rounding
--   F.cshess(grad, x)   the complex step of an analytic gradient, by columns
--   F.fdgrad(f, x)      6th-order central differences with one Richardson
--                       step (an independent, cruder check of csgrad)
--   F.relerr(a, b)      max_i |a_i - b_i| / max(max_i |b_i|, tiny)
--   F.point(x0, rnd)    a random point near x0 (rnd: a [0, 1) generator)
--
-- The functions call math.exp, math.sqrt, ... through the global math at
-- call time (never a local copy), as a traced function must: the tracer
-- and the complex step both put their own versions in math while they run.
--
-- Source of the corpus: More, Garbow & Hillstrom 1981, "Testing
-- unconstrained optimization software", ACM TOMS 7(1), 17-41: problem
-- numbers (MGH k) with their m residuals f_i, f = sum f_i^2, and their
-- standard starting points; the rest say where they come from.
--
-- Run as a script (./optlab tests/lua/adfun.lua) it checks itself without
-- any AD: the complex step against the hand-written gradients and
-- against differences, and the complex class against closed forms.
local F = {}

-- (1) complex numbers {re, im} for the complex step -------------------------

local C = {}
C.__index = C
local function cx (re, im) return setmetatable({re, im or 0}, C) end
local function lift (a)
  if getmetatable(a) == C then return a end
  return cx(a, 0)
end
F.cx = cx
function C.__add (a, b)
  a, b = lift(a), lift(b)
  return cx(a[1] + b[1], a[2] + b[2])
end
function C.__sub (a, b)
  a, b = lift(a), lift(b)
  return cx(a[1] - b[1], a[2] - b[2])
end
function C.__mul (a, b)
  a, b = lift(a), lift(b)
  return cx(a[1] * b[1] - a[2] * b[2], a[1] * b[2] + a[2] * b[1])
end
function C.__div (a, b)
  a, b = lift(a), lift(b)
  -- Smith's algorithm: no overflow from squaring b
  local c, d = b[1], b[2]
  if math.abs(c) >= math.abs(d) then
    local r = d / c
    local den = c + d * r
    return cx((a[1] + a[2] * r) / den, (a[2] - a[1] * r) / den)
  end
  local r = c / d
  local den = c * r + d
  return cx((a[1] * r + a[2]) / den, (a[2] * r - a[1]) / den)
end
function C.__unm (a) return cx(-a[1], -a[2]) end
function C.__lt (a, b) return lift(a)[1] < lift(b)[1] end
function C.__le (a, b) return lift(a)[1] <= lift(b)[1] end
function C.__eq (a, b) return a[1] == b[1] and a[2] == b[2] end
function C.__tostring (a) return string.format("(%.17g%+.17gi)", a[1], a[2]) end

local rexp, rlog, rsqrt = math.exp, math.log, math.sqrt
local rsin, rcos, ratan, rabs = math.sin, math.cos, math.atan, math.abs
local rfloor = math.floor

local function cexp (z)
  local e = rexp(z[1])
  return cx(e * rcos(z[2]), e * rsin(z[2]))
end
-- |z| as |re| sqrt(1 + (im/re)^2): im^2 would underflow at h = 1e-20
local function cabs (z)
  local a, b = rabs(z[1]), rabs(z[2])
  if a >= b then return a == 0 and 0 or a * rsqrt(1 + (b / a) ^ 2) end
  return b * rsqrt(1 + (a / b) ^ 2)
end
local function clog (z)
  return cx(rlog(cabs(z)), ratan(z[2], z[1]))
end
local function cpow (a, b)
  if math.type(b) == "integer" or (type(b) == "number" and b == rfloor(b)
                                   and rabs(b) <= 64) then
    local k = math.tointeger(b)
    local base, acc = lift(a), cx(1, 0)
    local neg = k < 0
    if neg then k = -k end
    while k > 0 do                   -- binary powering: products only
      if k % 2 == 1 then acc = acc * base end
      base = base * base
      k = k // 2
    end
    return neg and cx(1, 0) / acc or acc
  end
  return cexp(lift(b) * clog(lift(a)))
end
C.__pow = cpow

-- Each math function: the real one for numbers, the analytic extension
-- for complex arguments (exact formulas where they keep the tiny
-- imaginary part; atan's by its derivative, the usual complex-step
-- convention, since (i/2) log((i+z)/(i-z)) loses it in 1 + im).
local cmath = {}
function cmath.exp (z) return getmetatable(z) == C and cexp(z) or rexp(z) end
function cmath.log (z, base)
  if getmetatable(z) ~= C then return rlog(z, base) end
  local w = clog(z)
  if base ~= nil then w = w / rlog(base) end
  return w
end
function cmath.sqrt (z)
  if getmetatable(z) ~= C then return rsqrt(z) end
  local a, b = z[1], z[2]
  local r = cabs(z)
  local t = rsqrt((rabs(a) + r) / 2)
  if a >= 0 then return cx(t, b / (2 * t)) end
  return cx(rabs(b) / (2 * t), b < 0 and -t or t)
end
function cmath.sin (z)
  if getmetatable(z) ~= C then return rsin(z) end
  return cx(rsin(z[1]) * math.cosh_(z[2]), rcos(z[1]) * math.sinh_(z[2]))
end
function cmath.cos (z)
  if getmetatable(z) ~= C then return rcos(z) end
  return cx(rcos(z[1]) * math.cosh_(z[2]), -rsin(z[1]) * math.sinh_(z[2]))
end
function cmath.tan (z)
  if getmetatable(z) ~= C then return math.tan_(z) end
  return cmath.sin(z) / cmath.cos(z)
end
function cmath.atan (y, x)
  if getmetatable(y) ~= C and getmetatable(x) ~= C then return ratan(y, x) end
  if x == nil then
    return cx(ratan(y[1]), y[2] / (1 + y[1] * y[1]))
  end
  y, x = lift(y), lift(x)
  local d = x[1] * x[1] + y[1] * y[1]
  return cx(ratan(y[1], x[1]), (x[1] * y[2] - y[1] * x[2]) / d)
end
function cmath.tanh (z)
  if getmetatable(z) ~= C then return math.tanh_(z) end
  local s = z[1] < 0 and -1 or 1
  local w = cexp(lift(-2 * s) * z)      -- e^{-2|re| ...}: no overflow
  return lift(s) * (1 - w) / (1 + w)
end
function cmath.abs (z)
  if getmetatable(z) ~= C then return rabs(z) end
  return z[1] < 0 and -z or z
end
function cmath.max (a, ...)
  for i = 1, select("#", ...) do
    local b = select(i, ...)
    if lift(b)[1] > lift(a)[1] then a = b end
  end
  return a
end
function cmath.min (a, ...)
  for i = 1, select("#", ...) do
    local b = select(i, ...)
    if lift(b)[1] < lift(a)[1] then a = b end
  end
  return a
end

local function rtanh (x)
  if x > 20 then return 1 elseif x < -20 then return -1 end
  local e = rexp(2 * x)
  return (e - 1) / (e + 1)
end
-- helpers the complex versions use (kept under math while they run)
local helpers = {
  cosh_ = function (x) return (rexp(x) + rexp(-x)) / 2 end,
  sinh_ = function (x)
    if rabs(x) < 1e-5 then return x + x * x * x / 6 end
    return (rexp(x) - rexp(-x)) / 2
  end,
  tan_ = math.tan, tanh_ = math.tanh or rtanh,
}

-- Call fn(...) with the complex-aware math in place, then restore math
-- whatever happened.
local function withcmath (fn, ...)
  local saved = {}
  for k, v in pairs(cmath) do saved[k] = math[k]; math[k] = v end
  for k, v in pairs(helpers) do saved[k] = math[k]; math[k] = v end
  local res = table.pack(pcall(fn, ...))
  for k in pairs(cmath) do math[k] = saved[k] end
  for k in pairs(helpers) do math[k] = saved[k] end
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end
F.withcmath = withcmath

local H = 1e-20
local function im (v) return getmetatable(v) == C and v[2] or 0 end

function F.csgrad (f, x)
  local n, g = #x, {}
  return withcmath(function ()
    for i = 1, n do
      local z = {}
      for j = 1, n do z[j] = cx(x[j], 0) end
      z[i] = cx(x[i], H)
      g[i] = im(f(z)) / H
    end
    return g
  end)
end

-- Columns of the Hessian as the complex step of an analytic gradient.
function F.cshess (grad, x)
  local n, Hm = #x, {}
  for i = 1, n do Hm[i] = {} end
  withcmath(function ()
    for j = 1, n do
      local z = {}
      for k = 1, n do z[k] = cx(x[k], 0) end
      z[j] = cx(x[j], H)
      local g = grad(z)
      for i = 1, n do Hm[i][j] = im(g[i]) / H end
    end
  end)
  return Hm
end

-- 6th-order central difference D(h) (error O(h^6)), then Richardson:
-- (2^6 D(h/2) - D(h)) / (2^6 - 1), step h = 1e-2 max(0.01, |x_i|).
function F.fdgrad (f, x)
  local n, g = #x, {}
  local function d (i, h)
    local function at (k)
      local y = {table.unpack(x, 1, n)}
      y[i] = x[i] + k * h
      return f(y)
    end
    return (-at(-3) + 9 * at(-2) - 45 * at(-1) + 45 * at(1) - 9 * at(2)
            + at(3)) / (60 * h)
  end
  for i = 1, n do
    local h = 1e-2 * math.max(0.01, math.abs(x[i]))
    g[i] = (64 * d(i, h / 2) - d(i, h)) / 63
  end
  return g
end

function F.relerr (a, b)
  local num, den = 0, 0
  for i = 1, #b do
    local ai, bi = a[i], b[i]
    if type(ai) == "table" or type(bi) == "table" then   -- rows
      for j = 1, #bi do
        num = math.max(num, math.abs(ai[j] - bi[j]))
        den = math.max(den, math.abs(bi[j]))
      end
    else
      if type(ai) ~= "number" then return math.huge end
      num = math.max(num, math.abs(ai - bi))
      den = math.max(den, math.abs(bi))
    end
  end
  if #a ~= #b then return math.huge end
  if num ~= num then return math.huge end
  return num / math.max(den, 1e-300)
end

-- A random point near x0: each coordinate moved by up to 20% of its size
-- (by up to 0.2 where it is 0), so the point stays where the function is
-- defined and of the size its data expect (Osborne 1's rates are 0.01).
function F.point (x0, rnd)
  local x = {}
  for i = 1, #x0 do
    local s = x0[i] == 0 and 1 or math.abs(x0[i])
    x[i] = x0[i] + 0.2 * (2 * rnd() - 1) * s
  end
  return x
end

-- (2) the corpus ------------------------------------------------------------

local corpus = {}
F.corpus = corpus
local function add (t) corpus[#corpus + 1] = t end

-- MGH 1, Rosenbrock: f1 = 10 (x2 - x1^2), f2 = 1 - x1
add{name = "rosenbrock", source = "MGH 1", n = 2, x0 = {-1.2, 1},
  f = function (x)
    local a, b = 10 * (x[2] - x[1] ^ 2), 1 - x[1]
    return a * a + b * b
  end,
  grad = function (x)
    return {-400 * x[1] * (x[2] - x[1] ^ 2) - 2 * (1 - x[1]),
            200 * (x[2] - x[1] ^ 2)}
  end,
  hess = function (x)
    return {{1200 * x[1] ^ 2 - 400 * x[2] + 2, -400 * x[1]},
            {-400 * x[1], 200}}
  end}

-- MGH 2, Freudenstein and Roth: f1 = -13 + x1 + ((5 - x2) x2 - 2) x2,
-- f2 = -29 + x1 + ((x2 + 1) x2 - 14) x2
add{name = "freudenstein-roth", source = "MGH 2", n = 2, x0 = {0.5, -2},
  f = function (x)
    local a = -13 + x[1] + ((5 - x[2]) * x[2] - 2) * x[2]
    local b = -29 + x[1] + ((x[2] + 1) * x[2] - 14) * x[2]
    return a * a + b * b
  end,
  grad = function (x)
    local y = x[2]
    local a = -13 + x[1] + ((5 - y) * y - 2) * y
    local b = -29 + x[1] + ((y + 1) * y - 14) * y
    local da, db = 10 * y - 3 * y * y - 2, 3 * y * y + 2 * y - 14
    return {2 * a + 2 * b, 2 * a * da + 2 * b * db}
  end}

-- MGH 3, Powell badly scaled: f1 = 10^4 x1 x2 - 1,
-- f2 = exp(-x1) + exp(-x2) - 1.0001
add{name = "powell-badly-scaled", source = "MGH 3", n = 2, x0 = {0, 1},
  f = function (x)
    local a = 1e4 * x[1] * x[2] - 1
    local b = math.exp(-x[1]) + math.exp(-x[2]) - 1.0001
    return a * a + b * b
  end}

-- MGH 4, Brown badly scaled: f1 = x1 - 10^6, f2 = x2 - 2 10^-6,
-- f3 = x1 x2 - 2
add{name = "brown-badly-scaled", source = "MGH 4", n = 2, x0 = {1, 1},
  f = function (x)
    local a, b, c = x[1] - 1e6, x[2] - 2e-6, x[1] * x[2] - 2
    return a * a + b * b + c * c
  end,
  grad = function (x)
    local a, b, c = x[1] - 1e6, x[2] - 2e-6, x[1] * x[2] - 2
    return {2 * a + 2 * c * x[2], 2 * b + 2 * c * x[1]}
  end}

-- MGH 5, Beale: f_i = y_i - x1 (1 - x2^i), y = (1.5, 2.25, 2.625)
local beale_y = {1.5, 2.25, 2.625}
add{name = "beale", source = "MGH 5", n = 2, x0 = {1, 1},
  f = function (x)
    local s = 0
    for i = 1, 3 do
      local r = beale_y[i] - x[1] * (1 - x[2] ^ i)
      s = s + r * r
    end
    return s
  end,
  grad = function (x)
    local g1, g2 = 0, 0
    for i = 1, 3 do
      local r = beale_y[i] - x[1] * (1 - x[2] ^ i)
      g1 = g1 - 2 * r * (1 - x[2] ^ i)
      g2 = g2 + 2 * r * x[1] * i * x[2] ^ (i - 1)
    end
    return {g1, g2}
  end}

-- MGH 6, Jennrich and Sampson, m = 10: f_i = 2 + 2i - (e^{i x1} + e^{i x2})
add{name = "jennrich-sampson", source = "MGH 6", n = 2, x0 = {0.3, 0.4},
  f = function (x)
    local s = 0
    for i = 1, 10 do
      local r = 2 + 2 * i - (math.exp(i * x[1]) + math.exp(i * x[2]))
      s = s + r * r
    end
    return s
  end}

-- MGH 7, helical valley: f1 = 10 (x3 - 10 theta), f2 = 10 (sqrt(x1^2 +
-- x2^2) - 1), f3 = x3; theta = atan(x2/x1) / (2 pi) (+ 1/2 when x1 < 0):
-- a Lua if on a traced value.
add{name = "helical-valley", source = "MGH 7", n = 3, x0 = {-1, 0, 0},
  f = function (x)
    local th = math.atan(x[2] / x[1]) / (2 * math.pi)
    if x[1] < 0 then th = th + 0.5 end
    local a = 10 * (x[3] - 10 * th)
    local b = 10 * (math.sqrt(x[1] ^ 2 + x[2] ^ 2) - 1)
    return a * a + b * b + x[3] * x[3]
  end}

-- MGH 8, Bard, m = 15: f_i = y_i - (x1 + u_i / (v_i x2 + w_i x3)),
-- u_i = i, v_i = 16 - i, w_i = min(u_i, v_i)
local bard_y = {0.14, 0.18, 0.22, 0.25, 0.29, 0.32, 0.35, 0.39, 0.37, 0.58,
                0.73, 0.96, 1.34, 2.10, 4.39}
add{name = "bard", source = "MGH 8", n = 3, x0 = {1, 1, 1},
  f = function (x)
    local s = 0
    for i = 1, 15 do
      local u, v = i, 16 - i
      local w = u < v and u or v
      local r = bard_y[i] - (x[1] + u / (v * x[2] + w * x[3]))
      s = s + r * r
    end
    return s
  end}

-- MGH 9, Gaussian, m = 15: f_i = x1 exp(-x2 (t_i - x3)^2 / 2) - y_i,
-- t_i = (8 - i) / 2
local gauss_y = {0.0009, 0.0044, 0.0175, 0.0540, 0.1295, 0.2420, 0.3521,
                 0.3989, 0.3521, 0.2420, 0.1295, 0.0540, 0.0175, 0.0044,
                 0.0009}
add{name = "gaussian", source = "MGH 9", n = 3, x0 = {0.4, 1, 0},
  f = function (x)
    local s = 0
    for i = 1, 15 do
      local t = (8 - i) / 2
      local r = x[1] * math.exp(-x[2] * (t - x[3]) ^ 2 / 2) - gauss_y[i]
      s = s + r * r
    end
    return s
  end}

-- MGH 10, Meyer, m = 16: f_i = x1 exp(x2 / (t_i + x3)) - y_i, t_i = 45 + 5i
local meyer_y = {34780, 28610, 23650, 19630, 16370, 13720, 11540, 9744, 8261,
                 7030, 6005, 5147, 4427, 3820, 3307, 2872}
add{name = "meyer", source = "MGH 10", n = 3, x0 = {0.02, 4000, 250},
  f = function (x)
    local s = 0
    for i = 1, 16 do
      local r = x[1] * math.exp(x[2] / (45 + 5 * i + x[3])) - meyer_y[i]
      s = s + r * r
    end
    return s
  end}

-- MGH 11, Gulf research and development, m = 99: f_i = exp(-|y_i -
-- x2|^x3 / x1) - t_i, t_i = i/100, y_i = 25 + (-50 ln t_i)^(2/3): abs and
-- a power with a traced exponent.
add{name = "gulf", source = "MGH 11", n = 3, x0 = {5, 2.5, 0.15},
  f = function (x)
    local s = 0
    for i = 1, 99 do
      local t = i / 100
      local y = 25 + (-50 * math.log(t)) ^ (2 / 3)
      local r = math.exp(-math.abs(y - x[2]) ^ x[3] / x[1]) - t
      s = s + r * r
    end
    return s
  end}

-- MGH 12, Box three-dimensional, m = 10: f_i = exp(-t_i x1) - exp(-t_i x2)
-- - x3 (exp(-t_i) - exp(-10 t_i)), t_i = 0.1 i
add{name = "box3d", source = "MGH 12", n = 3, x0 = {0, 10, 20},
  f = function (x)
    local s = 0
    for i = 1, 10 do
      local t = 0.1 * i
      local r = math.exp(-t * x[1]) - math.exp(-t * x[2])
                - x[3] * (math.exp(-t) - math.exp(-10 * t))
      s = s + r * r
    end
    return s
  end}

-- MGH 13, Powell singular: f1 = x1 + 10 x2, f2 = sqrt5 (x3 - x4),
-- f3 = (x2 - 2 x3)^2, f4 = sqrt10 (x1 - x4)^2
add{name = "powell-singular", source = "MGH 13", n = 4, x0 = {3, -1, 0, 1},
  f = function (x)
    return (x[1] + 10 * x[2]) ^ 2 + 5 * (x[3] - x[4]) ^ 2
           + (x[2] - 2 * x[3]) ^ 4 + 10 * (x[1] - x[4]) ^ 4
  end,
  grad = function (x)
    local a, b = x[1] + 10 * x[2], x[3] - x[4]
    local c, d = x[2] - 2 * x[3], x[1] - x[4]
    return {2 * a + 40 * d ^ 3, 20 * a + 4 * c ^ 3,
            10 * b - 8 * c ^ 3, -10 * b - 40 * d ^ 3}
  end,
  hess = function (x)
    local c, d = x[2] - 2 * x[3], x[1] - x[4]
    local c2, d2 = 12 * c * c, 120 * d * d
    return {{2 + d2, 20, 0, -d2},
            {20, 200 + c2, -2 * c2, 0},
            {0, -2 * c2, 10 + 4 * c2, -10},
            {-d2, 0, -10, 10 + d2}}
  end}

-- MGH 14, Wood, m = 6: f1 = 10 (x2 - x1^2), f2 = 1 - x1, f3 = sqrt90 (x4 -
-- x3^2), f4 = 1 - x3, f5 = sqrt10 (x2 + x4 - 2), f6 = 10^-1/2 (x2 - x4)
add{name = "wood", source = "MGH 14", n = 4, x0 = {-3, -1, -3, -1},
  f = function (x)
    return 100 * (x[2] - x[1] ^ 2) ^ 2 + (1 - x[1]) ^ 2
           + 90 * (x[4] - x[3] ^ 2) ^ 2 + (1 - x[3]) ^ 2
           + 10 * (x[2] + x[4] - 2) ^ 2 + 0.1 * (x[2] - x[4]) ^ 2
  end,
  grad = function (x)
    local a, b = x[2] - x[1] ^ 2, x[4] - x[3] ^ 2
    local c, d = x[2] + x[4] - 2, x[2] - x[4]
    return {-400 * x[1] * a - 2 * (1 - x[1]),
            200 * a + 20 * c + 0.2 * d,
            -360 * x[3] * b - 2 * (1 - x[3]),
            180 * b + 20 * c - 0.2 * d}
  end,
  hess = function (x)
    return {{1200 * x[1] ^ 2 - 400 * x[2] + 2, -400 * x[1], 0, 0},
            {-400 * x[1], 220.2, 0, 19.8},
            {0, 0, 1080 * x[3] ^ 2 - 360 * x[4] + 2, -360 * x[3]},
            {0, 19.8, -360 * x[3], 200.2}}
  end}

-- MGH 15, Kowalik and Osborne, m = 11: f_i = y_i - x1 (u_i^2 + u_i x2) /
-- (u_i^2 + u_i x3 + x4)
local ko_y = {0.1957, 0.1947, 0.1735, 0.1600, 0.0844, 0.0627, 0.0456, 0.0342,
              0.0323, 0.0235, 0.0246}
local ko_u = {4, 2, 1, 0.5, 0.25, 0.167, 0.125, 0.1, 0.0833, 0.0714, 0.0625}
add{name = "kowalik-osborne", source = "MGH 15", n = 4,
  x0 = {0.25, 0.39, 0.415, 0.39},
  f = function (x)
    local s = 0
    for i = 1, 11 do
      local u = ko_u[i]
      local r = ko_y[i] - x[1] * (u * u + u * x[2]) / (u * u + u * x[3] + x[4])
      s = s + r * r
    end
    return s
  end}

-- MGH 16, Brown and Dennis, m = 20: f_i = (x1 + t_i x2 - e^{t_i})^2 +
-- (x3 + x4 sin t_i - cos t_i)^2, t_i = i/5
add{name = "brown-dennis", source = "MGH 16", n = 4, x0 = {25, 5, -5, -1},
  f = function (x)
    local s = 0
    for i = 1, 20 do
      local t = i / 5
      local r = (x[1] + t * x[2] - math.exp(t)) ^ 2
                + (x[3] + x[4] * math.sin(t) - math.cos(t)) ^ 2
      s = s + r * r
    end
    return s
  end}

-- MGH 17, Osborne 1, m = 33: f_i = y_i - (x1 + x2 e^{-t_i x4} +
-- x3 e^{-t_i x5}), t_i = 10 (i - 1)
local os1_y = {0.844, 0.908, 0.932, 0.936, 0.925, 0.908, 0.881, 0.850, 0.818,
               0.784, 0.751, 0.718, 0.685, 0.658, 0.628, 0.603, 0.580, 0.558,
               0.538, 0.522, 0.506, 0.490, 0.478, 0.467, 0.457, 0.448, 0.438,
               0.431, 0.424, 0.420, 0.414, 0.411, 0.406}
add{name = "osborne1", source = "MGH 17", n = 5,
  x0 = {0.5, 1.5, -1, 0.01, 0.02},
  f = function (x)
    local s = 0
    for i = 1, 33 do
      local t = 10 * (i - 1)
      local r = os1_y[i] - (x[1] + x[2] * math.exp(-t * x[4])
                            + x[3] * math.exp(-t * x[5]))
      s = s + r * r
    end
    return s
  end}

-- MGH 18, Biggs EXP6, m = 13: f_i = x3 e^{-t_i x1} - x4 e^{-t_i x2} +
-- x6 e^{-t_i x5} - y_i, t_i = 0.1 i, y_i = e^{-t_i} - 5 e^{-10 t_i} +
-- 3 e^{-4 t_i}
add{name = "biggs-exp6", source = "MGH 18", n = 6, x0 = {1, 2, 1, 1, 1, 1},
  f = function (x)
    local s = 0
    for i = 1, 13 do
      local t = 0.1 * i
      local y = math.exp(-t) - 5 * math.exp(-10 * t) + 3 * math.exp(-4 * t)
      local r = x[3] * math.exp(-t * x[1]) - x[4] * math.exp(-t * x[2])
                + x[6] * math.exp(-t * x[5]) - y
      s = s + r * r
    end
    return s
  end}

-- MGH 20, Watson, n = 6, m = 31: f_i = sum_{j=2}^n (j-1) x_j t_i^{j-2} -
-- (sum_{j=1}^n x_j t_i^{j-1})^2 - 1, t_i = i/29 (i <= 29); f30 = x1,
-- f31 = x2 - x1^2 - 1.  x0 = 0 (here moved off it, see F.point).
add{name = "watson", source = "MGH 20", n = 6, x0 = {0, 0, 0, 0, 0, 0},
  f = function (x)
    local n, s = #x, 0
    for i = 1, 29 do
      local t = i / 29
      local s1, s2 = 0, 0
      for j = 2, n do s1 = s1 + (j - 1) * x[j] * t ^ (j - 2) end
      for j = 1, n do s2 = s2 + x[j] * t ^ (j - 1) end
      local r = s1 - s2 * s2 - 1
      s = s + r * r
    end
    local r31 = x[2] - x[1] ^ 2 - 1
    return s + x[1] * x[1] + r31 * r31
  end}

-- MGH 21, extended Rosenbrock, n = 10: f_{2i-1} = 10 (x_{2i} -
-- x_{2i-1}^2), f_{2i} = 1 - x_{2i-1}
local function xrosen_x0 (n)
  local x = {}
  for i = 1, n do x[i] = i % 2 == 1 and -1.2 or 1 end
  return x
end
add{name = "extended-rosenbrock", source = "MGH 21", n = 10,
  x0 = xrosen_x0(10),
  f = function (x)
    local s = 0
    for i = 1, #x // 2 do
      local a = 10 * (x[2 * i] - x[2 * i - 1] ^ 2)
      local b = 1 - x[2 * i - 1]
      s = s + a * a + b * b
    end
    return s
  end,
  grad = function (x)
    local g = {}
    for i = 1, #x // 2 do
      local u, v = x[2 * i - 1], x[2 * i]
      g[2 * i - 1] = -400 * u * (v - u * u) - 2 * (1 - u)
      g[2 * i] = 200 * (v - u * u)
    end
    return g
  end}

-- MGH 22, extended Powell singular, n = 8
add{name = "extended-powell", source = "MGH 22", n = 8,
  x0 = {3, -1, 0, 1, 3, -1, 0, 1},
  f = function (x)
    local s = 0
    for i = 1, #x // 4 do
      local k = 4 * (i - 1)
      s = s + (x[k + 1] + 10 * x[k + 2]) ^ 2 + 5 * (x[k + 3] - x[k + 4]) ^ 2
          + (x[k + 2] - 2 * x[k + 3]) ^ 4 + 10 * (x[k + 1] - x[k + 4]) ^ 4
    end
    return s
  end}

-- MGH 23, Penalty I, n = 10, m = n + 1: f_i = sqrt(a) (x_i - 1),
-- f_{n+1} = sum x_j^2 - 1/4, a = 1e-5; x0_j = j
add{name = "penalty1", source = "MGH 23", n = 10,
  x0 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
  f = function (x)
    local s, q = 0, 0
    for i = 1, #x do
      s = s + 1e-5 * (x[i] - 1) ^ 2
      q = q + x[i] * x[i]
    end
    return s + (q - 0.25) ^ 2
  end,
  grad = function (x)
    local q, g = 0, {}
    for i = 1, #x do q = q + x[i] * x[i] end
    for i = 1, #x do g[i] = 2e-5 * (x[i] - 1) + 4 * (q - 0.25) * x[i] end
    return g
  end,
  hess = function (x)
    local q, n, Hm = 0, #x, {}
    for i = 1, n do q = q + x[i] * x[i] end
    for i = 1, n do
      Hm[i] = {}
      for j = 1, n do
        Hm[i][j] = 8 * x[i] * x[j] + (i == j and 2e-5 + 4 * (q - 0.25) or 0)
      end
    end
    return Hm
  end}

-- MGH 24, Penalty II, n = 6, m = 2n: f1 = x1 - 0.2; f_i = sqrt(a)
-- (e^{x_i/10} + e^{x_{i-1}/10} - y_i), 2 <= i <= n; f_i = sqrt(a)
-- (e^{x_{i-n+1}/10} - e^{-1/10}), n < i < 2n; f_{2n} = sum (n-j+1) x_j^2
-- - 1; a = 1e-5, y_i = e^{i/10} + e^{(i-1)/10}; x0 = 1/2
add{name = "penalty2", source = "MGH 24", n = 6,
  x0 = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
  f = function (x)
    local n, a = #x, 1e-5
    local s = (x[1] - 0.2) ^ 2
    for i = 2, n do
      local y = math.exp(i / 10) + math.exp((i - 1) / 10)
      s = s + a * (math.exp(x[i] / 10) + math.exp(x[i - 1] / 10) - y) ^ 2
    end
    for i = n + 1, 2 * n - 1 do
      s = s + a * (math.exp(x[i - n + 1] / 10) - math.exp(-1 / 10)) ^ 2
    end
    local q = 0
    for j = 1, n do q = q + (n - j + 1) * x[j] ^ 2 end
    return s + (q - 1) ^ 2
  end}

-- MGH 25, variably dimensioned, n = 8, m = n + 2: f_i = x_i - 1,
-- f_{n+1} = sum j (x_j - 1), f_{n+2} = f_{n+1}^2; x0_j = 1 - j/n
add{name = "variably-dimensioned", source = "MGH 25", n = 8,
  x0 = {7 / 8, 6 / 8, 5 / 8, 4 / 8, 3 / 8, 2 / 8, 1 / 8, 0},
  f = function (x)
    local s, v = 0, 0
    for j = 1, #x do
      s = s + (x[j] - 1) ^ 2
      v = v + j * (x[j] - 1)
    end
    return s + v ^ 2 + v ^ 4
  end,
  grad = function (x)
    local v, g = 0, {}
    for j = 1, #x do v = v + j * (x[j] - 1) end
    for j = 1, #x do g[j] = 2 * (x[j] - 1) + j * (2 * v + 4 * v ^ 3) end
    return g
  end,
  hess = function (x)
    local v, n, Hm = 0, #x, {}
    for j = 1, n do v = v + j * (x[j] - 1) end
    for i = 1, n do
      Hm[i] = {}
      for j = 1, n do
        Hm[i][j] = i * j * (2 + 12 * v * v) + (i == j and 2 or 0)
      end
    end
    return Hm
  end}

-- MGH 26, trigonometric, n = 6, m = n: f_i = n - sum cos x_j + i (1 -
-- cos x_i) - sin x_i; x0 = 1/n
add{name = "trigonometric", source = "MGH 26", n = 6,
  x0 = {1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6},
  f = function (x)
    local n, c = #x, 0
    for j = 1, n do c = c + math.cos(x[j]) end
    local s = 0
    for i = 1, n do
      local r = n - c + i * (1 - math.cos(x[i])) - math.sin(x[i])
      s = s + r * r
    end
    return s
  end}

-- MGH 27, Brown almost-linear, n = 5: f_i = x_i + sum x_j - (n + 1),
-- i < n; f_n = prod x_j - 1; x0 = 1/2
add{name = "brown-almost-linear", source = "MGH 27", n = 5,
  x0 = {0.5, 0.5, 0.5, 0.5, 0.5},
  f = function (x)
    local n, sum, prod = #x, 0, 1
    for j = 1, n do sum = sum + x[j]; prod = prod * x[j] end
    local s = 0
    for i = 1, n - 1 do s = s + (x[i] + sum - (n + 1)) ^ 2 end
    return s + (prod - 1) ^ 2
  end}

-- MGH 28, discrete boundary value, n = 8: f_i = 2 x_i - x_{i-1} - x_{i+1}
-- + h^2 (x_i + t_i + 1)^3 / 2, h = 1/(n+1), t_i = i h, x_0 = x_{n+1} = 0;
-- x0_j = t_j (t_j - 1)
local function bv_x0 (n)
  local x, h = {}, 1 / (n + 1)
  for j = 1, n do x[j] = j * h * (j * h - 1) end
  return x
end
add{name = "discrete-boundary", source = "MGH 28", n = 8, x0 = bv_x0(8),
  f = function (x)
    local n = #x
    local h, s = 1 / (n + 1), 0
    for i = 1, n do
      local lo = i > 1 and x[i - 1] or 0
      local hi = i < n and x[i + 1] or 0
      local r = 2 * x[i] - lo - hi + h * h * (x[i] + i * h + 1) ^ 3 / 2
      s = s + r * r
    end
    return s
  end}

-- MGH 29, discrete integral equation, n = 6: f_i = x_i + h [(1 - t_i)
-- sum_{j<=i} t_j (x_j + t_j + 1)^3 + t_i sum_{j>i} (1 - t_j) (x_j + t_j +
-- 1)^3] / 2
add{name = "discrete-integral", source = "MGH 29", n = 6, x0 = bv_x0(6),
  f = function (x)
    local n = #x
    local h, s = 1 / (n + 1), 0
    for i = 1, n do
      local ti, a, b = i * h, 0, 0
      for j = 1, i do a = a + j * h * (x[j] + j * h + 1) ^ 3 end
      for j = i + 1, n do b = b + (1 - j * h) * (x[j] + j * h + 1) ^ 3 end
      local r = x[i] + h * ((1 - ti) * a + ti * b) / 2
      s = s + r * r
    end
    return s
  end}

-- MGH 30, Broyden tridiagonal, n = 8: f_i = (3 - 2 x_i) x_i - x_{i-1} -
-- 2 x_{i+1} + 1, x_0 = x_{n+1} = 0; x0 = -1
add{name = "broyden-tridiagonal", source = "MGH 30", n = 8,
  x0 = {-1, -1, -1, -1, -1, -1, -1, -1},
  f = function (x)
    local n, s = #x, 0
    for i = 1, n do
      local lo = i > 1 and x[i - 1] or 0
      local hi = i < n and x[i + 1] or 0
      local r = (3 - 2 * x[i]) * x[i] - lo - 2 * hi + 1
      s = s + r * r
    end
    return s
  end}

-- MGH 31, Broyden banded, n = 8: f_i = x_i (2 + 5 x_i^2) + 1 - sum_{j in
-- J_i} x_j (1 + x_j), J_i = {j != i : max(1, i-5) <= j <= min(n, i+1)}
add{name = "broyden-banded", source = "MGH 31", n = 8,
  x0 = {-1, -1, -1, -1, -1, -1, -1, -1},
  f = function (x)
    local n, s = #x, 0
    for i = 1, n do
      local r = x[i] * (2 + 5 * x[i] ^ 2) + 1
      for j = math.max(1, i - 5), math.min(n, i + 1) do
        if j ~= i then r = r - x[j] * (1 + x[j]) end
      end
      s = s + r * r
    end
    return s
  end}

-- MGH 32, linear function - full rank, n = 5, m = 10: f_i = x_i - 2/m
-- sum x_j - 1 (i <= n), -2/m sum x_j - 1 (i > n); x0 = 1
add{name = "linear-full-rank", source = "MGH 32", n = 5,
  x0 = {1, 1, 1, 1, 1},
  f = function (x)
    local n, m, sum = #x, 10, 0
    for j = 1, n do sum = sum + x[j] end
    local s = 0
    for i = 1, m do
      local r = (i <= n and x[i] or 0) - 2 / m * sum - 1
      s = s + r * r
    end
    return s
  end}

-- MGH 35, Chebyquad, n = 6, m = n: f_i = (1/n) sum_j T_i(2 x_j - 1) -
-- (integral of T_i over [0, 1]: 0 for odd i, -1/(i^2 - 1) for even i);
-- T_i by the recurrence; x0_j = j/(n+1)
add{name = "chebyquad", source = "MGH 35", n = 6,
  x0 = {1 / 7, 2 / 7, 3 / 7, 4 / 7, 5 / 7, 6 / 7},
  f = function (x)
    local n, s = #x, 0
    local sums = {}
    for i = 1, n do sums[i] = 0 end
    for j = 1, n do
      local y = 2 * x[j] - 1
      local t0, t1 = 1, y
      sums[1] = sums[1] + t1
      for i = 2, n do
        t0, t1 = t1, 2 * y * t1 - t0
        sums[i] = sums[i] + t1
      end
    end
    for i = 1, n do
      local r = sums[i] / n
      if i % 2 == 0 then r = r + 1 / (i * i - 1) end
      s = s + r * r
    end
    return s
  end}

-- Outside MGH: the log-sum-exp / softplus and tanh forms the tracer's
-- math list names (tan, tanh, atan, log), so every one is exercised.
-- Source: a logistic loss with fixed data (Nocedal & Wright 2006, 7.2's
-- form), and Styblinski & Tang 1990's function.
local lg_a = {{1, 0.5, -0.3}, {-0.7, 1.2, 0.4}, {0.2, -0.9, 1.1},
              {1.5, 0.1, -1.2}, {-0.4, -0.6, 0.8}}
local lg_y = {1, -1, 1, -1, 1}
add{name = "logistic+tanh", source = "logistic loss (N&W 2006 sec. 7.2) "
      .. "with a tanh/atan/tan term", n = 3, x0 = {0.1, -0.2, 0.3},
  f = function (x)
    local s = 0
    for i = 1, #lg_y do
      local z = 0
      for j = 1, 3 do z = z + lg_a[i][j] * x[j] end
      s = s + math.log(1 + math.exp(-lg_y[i] * z))
    end
    return s + 0.5 * math.tanh(x[1] * x[2]) + math.atan(x[3] - x[1])
           + 0.1 * math.tan(0.5 * x[2])
  end}
add{name = "styblinski-tang", source = "Styblinski & Tang 1990", n = 4,
  x0 = {-2.9, -2.9, 1, 2},
  f = function (x)
    local s = 0
    for i = 1, #x do s = s + x[i] ^ 4 - 16 * x[i] ^ 2 + 5 * x[i] end
    return s / 2
  end,
  grad = function (x)
    local g = {}
    for i = 1, #x do g[i] = (4 * x[i] ^ 3 - 32 * x[i] + 5) / 2 end
    return g
  end,
  hess = function (x)
    local Hm = {}
    for i = 1, #x do
      Hm[i] = {}
      for j = 1, #x do Hm[i][j] = i == j and (12 * x[i] ^ 2 - 32) / 2 or 0 end
    end
    return Hm
  end}

-- (3) the built-in problems, re-written ---------------------------------------
-- Each: the Lua f a user would write, and the analytic gradient and
-- Hessian transcribed from core/problems/<name>.c's header.

local builtins = {}
F.builtins = builtins

builtins[#builtins + 1] = {name = "rosenbrock", args = {n = 2}, n = 2,
  f = function (x)
    local s = 0
    for i = 1, #x - 1 do
      s = s + 100 * (x[i + 1] - x[i] ^ 2) ^ 2 + (1 - x[i]) ^ 2
    end
    return s
  end,
  hess = function (x)       -- rosenbrock.c: tridiagonal
    local n, Hm = #x, {}
    for i = 1, n do
      Hm[i] = {}
      for j = 1, n do Hm[i][j] = 0 end
    end
    for i = 1, n do
      local h = 0
      if i < n then
        h = h + 1200 * x[i] ^ 2 - 400 * x[i + 1] + 2
        Hm[i][i + 1] = -400 * x[i]
        Hm[i + 1][i] = -400 * x[i]
      end
      if i > 1 then h = h + 200 end
      Hm[i][i] = h
    end
    return Hm
  end}
builtins[#builtins + 1] = {name = "rosenbrock", args = {n = 7}, n = 7,
  f = builtins[1].f, hess = builtins[1].hess}

builtins[#builtins + 1] = {name = "himmelblau", args = {}, n = 2,
  f = function (x)
    return (x[1] ^ 2 + x[2] - 11) ^ 2 + (x[1] + x[2] ^ 2 - 7) ^ 2
  end,
  hess = function (x)
    local a, b = x[1] ^ 2 + x[2] - 11, x[1] + x[2] ^ 2 - 7
    return {{4 * a + 8 * x[1] ^ 2 + 2, 4 * (x[1] + x[2])},
            {4 * (x[1] + x[2]), 4 * b + 8 * x[2] ^ 2 + 2}}
  end}

builtins[#builtins + 1] = {name = "beale", args = {}, n = 2,
  f = corpus[5].f,
  hess = function (x)
    local c = beale_y
    local hxx, hxy, hyy = 0, 0, 0
    for k = 1, 3 do
      local t = c[k] - x[1] + x[1] * x[2] ^ k
      local dx, dy = x[2] ^ k - 1, k * x[1] * x[2] ^ (k - 1)
      hxx = hxx + 2 * dx * dx
      hxy = hxy + 2 * (dx * dy + t * k * x[2] ^ (k - 1))
      hyy = hyy + 2 * (dy * dy + (k >= 2 and t * k * (k - 1) * x[1]
                                 * x[2] ^ (k - 2) or 0))
    end
    return {{hxx, hxy}, {hxy, hyy}}
  end}

local TWO_PI = 6.283185307179586476925286766559
builtins[#builtins + 1] = {name = "rastrigin", args = {n = 3, A = 10}, n = 3,
  f = function (x)
    local s = 10 * #x
    for i = 1, #x do s = s + x[i] ^ 2 - 10 * math.cos(TWO_PI * x[i]) end
    return s
  end,
  hess = function (x)
    local Hm = {}
    for i = 1, #x do
      Hm[i] = {}
      for j = 1, #x do
        Hm[i][j] = i == j and 2 + TWO_PI * TWO_PI * 10
                   * math.cos(TWO_PI * x[i]) or 0
      end
    end
    return Hm
  end}

builtins[#builtins + 1] = {name = "smoothabs", args = {}, n = 1,
  f = function (x) return math.sqrt(1 + x[1] * x[1]) end,
  hess = function (x) return {{(1 + x[1] ^ 2) ^ -1.5}} end}

-- quadratic: 1/2 x'Hx; its H is read from the built-in itself (the
-- gradient at e_j is H e_j, exactly: one nonzero product per entry) and
-- the Lua f is written over that H (see tests/lua/ad.lua).
function F.quadratic (H)
  local n = #H
  return function (x)
    local s = 0
    for i = 1, n do
      local r = 0
      for j = 1, n do r = r + H[i][j] * x[j] end
      s = s + x[i] * r
    end
    return 0.5 * s
  end
end

-- (4) self-check, when run as a script --------------------------------------

if arg and arg[0] and arg[0]:match("adfun%.lua$") then
  local t = dofile("tests/lib/tap.lua")
  local SEED = 15001
  t.diag("seed " .. SEED)
  local rng = math.random
  math.randomseed(SEED)
  t.ok(#corpus >= 20, "adfun: at least 20 functions in the corpus (" ..
       #corpus .. ")")
  -- the complex class on closed forms
  local z = withcmath(function ()
    return math.exp(cx(0.3, 1e-20)) * math.sin(cx(0.3, 1e-20))
  end)
  t.near(z[2] / 1e-20, math.exp(0.3) * (math.sin(0.3) + math.cos(0.3)),
         1e-15, "adfun: complex step of e^x sin x at 0.3")
  local w = withcmath(function ()
    return math.sqrt(cx(2, 1e-20)) + math.log(cx(2, 1e-20))
      + math.atan(cx(2, 1e-20)) + math.tanh(cx(2, 1e-20))
      + cx(2, 1e-20) ^ 2.5 + 1 / cx(2, 1e-20)
  end)
  local want = 1 / (2 * math.sqrt(2)) + 0.5 + 1 / 5
    + 1 - math.tanh(2) ^ 2 + 2.5 * 2 ^ 1.5 - 0.25
  t.near(w[2] / 1e-20, want, 1e-14,
         "adfun: complex step of sqrt + log + atan + tanh + x^2.5 + 1/x at 2")
  t.ok(math.exp == rexp and math.sin == rsin and math.cosh_ == nil,
       "adfun: math restored after the complex step")
  -- every function: complex step vs the hand gradient, vs differences
  local worstcs, worstfd, nh = 0, 0, 0
  for _, fn in ipairs(corpus) do
    local x = F.point(fn.x0, rng)
    local gcs = F.csgrad(fn.f, x)
    local efd = F.relerr(F.fdgrad(fn.f, x), gcs)
    worstfd = math.max(worstfd, efd)
    t.ok(efd < 1e-6, string.format("adfun: %s (%s): complex step vs "
         .. "6th-order differences, rel err %.1e < 1e-6", fn.name,
         fn.source, efd))
    if fn.grad then
      local e = F.relerr(gcs, fn.grad(x))
      worstcs = math.max(worstcs, e)
      t.ok(e < 1e-13, string.format("adfun: %s: complex step vs the hand "
           .. "gradient, rel err %.1e < 1e-13", fn.name, e))
    end
    if fn.hess then
      local e = F.relerr(F.cshess(fn.grad, x), fn.hess(x))
      nh = nh + 1
      t.ok(e < 1e-13, string.format("adfun: %s: complex step of the hand "
           .. "gradient vs the hand Hessian, rel err %.1e < 1e-13",
           fn.name, e))
    end
  end
  t.diag(string.format("worst: cs vs hand gradient %.1e, cs vs differences "
         .. "%.1e; %d hand Hessians", worstcs, worstfd, nh))
  -- the built-ins' transcribed Hessians vs the complex step of p:eval's
  -- gradient is not possible (p:eval takes numbers); the transcription
  -- is checked against 6th-order differences of the built-in gradient
  for _, b in ipairs(builtins) do
    local p = problem[b.name](b.args)
    local x = F.point(p.x0, rng)
    local Hd = {}
    for i = 1, b.n do Hd[i] = {} end
    for j = 1, b.n do
      local gj = F.fdgrad(function (y)
        local _, g = p:eval(y)
        return g[j]
      end, x)
      for i = 1, b.n do Hd[j][i] = gj[i] end
    end
    local e = F.relerr(b.hess(x), Hd)
    t.ok(e < 1e-7, string.format("adfun: built-in %s{n=%d}: transcribed "
         .. "Hessian vs differences of p:eval's gradient, rel err %.1e < 1e-7",
         b.name, b.n, e))
    local f0 = p:eval(x)
    t.ok(math.abs(b.f(x) - f0) <= 1e-13 * math.max(1, math.abs(f0)),
         "adfun: built-in " .. b.name .. ": the Lua f equals p:eval's f")
  end
  t.done()
end

return F
