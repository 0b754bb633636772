-- tests/lua/nuts_truth.lua -- NUTS at its default settings against closed
-- forms (issue 22, acceptance 5): a 20-d correlated Gaussian (AR(1)
-- correlation rho^|i-j|, rho = 0.9: its precision is tridiagonal), a
-- conjugate normal linear regression (Gaussian prior, known noise: the
-- posterior is N((X'X/s^2 + I/t^2)^-1 X'y/s^2, (X'X/s^2 + I/t^2)^-1)) and
-- a Beta(2.5, 4) on (0, 1) through the bound transform.  For each
-- coordinate the posterior mean and the variance are checked: the mean
-- of x and the mean of (x - mu)^2 (mu the true mean) are each within 4 of
-- their own MCSE (diag.mcse, posterior's mcse_mean of that quantity) of
-- the closed form.  4 chains, sample.nuts{} and run's defaults; seeds fixed
-- and printed.
local t = dofile("tests/lib/tap.lua")
local SEED = 20261208
local K = 4                               -- MCSEs allowed
t.diag("seed " .. SEED .. ", tolerance " .. K .. " MCSE")

-- The mean and (x - mu)^2 checks of coordinate j of chains c (get(d, j)
-- reads it from a draw: d[j] unless given).
local function check (c, j, mu, var, what, get)
  get = get or function (d, i) return d[i] end
  local xs, sq = {}, {}
  for k, ch in ipairs(c:draws()) do
    xs[k], sq[k] = {}, {}
    for s, d in ipairs(ch) do
      xs[k][s] = get(d, j)
      sq[k][s] = (xs[k][s] - mu) ^ 2
    end
  end
  local m, ms = 0, 0
  local n = 0
  for k = 1, #xs do
    for s = 1, #xs[k] do
      m, ms, n = m + xs[k][s], ms + sq[k][s], n + 1
    end
  end
  m, ms = m / n, ms / n
  local em, ev = diag.mcse(xs), diag.mcse(sq)
  local okm = math.abs(m - mu) <= K * em
  local okv = math.abs(ms - var) <= K * ev
  if not (okm and okv) then
    t.diag(string.format("%s: mean %.5f (true %.5f, mcse %.3g), E(x-mu)^2 "
                         .. "%.5f (true %.5f, mcse %.3g)", what, m, mu, em,
                         ms, var, ev))
  end
  return okm, okv, math.abs(m - mu) / em, math.abs(ms - var) / ev
end

local function run4 (p)
  return run(p, sample.nuts{}, {chains = 4, seed = SEED, progress = false,
                                view = false})
end

-- (1) 20-d AR(1)-correlated Gaussian, unit variances
do
  local n, rho = 20, 0.9
  local a = 1 / (1 - rho * rho)
  local p = problem.density{n = n, logp = function (x)
    local q = x[1] ^ 2 + x[n] ^ 2
    for i = 2, n - 1 do q = q + (1 + rho * rho) * x[i] ^ 2 end
    for i = 1, n - 1 do q = q - 2 * rho * x[i] * x[i + 1] end
    return -0.5 * a * q
  end}
  local c = run4(p)
  local bad, worst = 0, 0
  for j = 1, n do
    local okm, okv, zm, zv = check(c, j, 0, 1, "gauss20 x[" .. j .. "]")
    if not (okm and okv) then bad = bad + 1 end
    worst = math.max(worst, zm, zv)
  end
  t.ok(bad == 0, string.format("20-d Gaussian (rho = 0.9): 20 means and 20 "
       .. "variances within %d MCSE (worst %.2f)", K, worst))
  t.ok(not tostring(c):find("warning:", 1, true),
       "20-d Gaussian: no warning at defaults")
end

-- (2) conjugate normal linear regression, d = 3, 30 observations
do
  local N, D, s, tau = 30, 3, 0.7, 2
  local X, y = {}, {}
  for i = 1, N do
    local u = (i - 0.5) / N
    X[i] = {1, math.cos(7 * u), u * u - 0.3}
    y[i] = 0.5 - 1.2 * X[i][2] + 2 * X[i][3] + 0.3 * math.sin(13 * i)
  end
  -- the posterior precision A = X'X/s^2 + I/tau^2 and b = X'y/s^2
  local A, b = {}, {}
  for r = 1, D do
    A[r], b[r] = {}, 0
    for c2 = 1, D do
      local v = 0
      for i = 1, N do v = v + X[i][r] * X[i][c2] end
      A[r][c2] = v / s ^ 2 + (r == c2 and 1 / tau ^ 2 or 0)
    end
    for i = 1, N do b[r] = b[r] + X[i][r] * y[i] / s ^ 2 end
  end
  -- Sigma = A^-1 by Gauss-Jordan, mu = Sigma b
  local M = {}
  for r = 1, D do
    M[r] = {}
    for c2 = 1, D do M[r][c2] = A[r][c2] end
    for c2 = 1, D do M[r][D + c2] = r == c2 and 1 or 0 end
  end
  for col = 1, D do
    local piv = M[col][col]
    for c2 = 1, 2 * D do M[col][c2] = M[col][c2] / piv end
    for r = 1, D do
      if r ~= col then
        local f = M[r][col]
        for c2 = 1, 2 * D do M[r][c2] = M[r][c2] - f * M[col][c2] end
      end
    end
  end
  local mu, var = {}, {}
  for r = 1, D do
    mu[r] = 0
    for c2 = 1, D do mu[r] = mu[r] + M[r][D + c2] * b[c2] end
    var[r] = M[r][D + r]
  end
  local p = problem.density{params = {{"beta", D}}, logp = function (q)
    local lp = 0
    for r = 1, D do lp = lp - 0.5 * (q.beta[r] / tau) ^ 2 end
    for i = 1, N do
      local e = y[i]
      for r = 1, D do e = e - X[i][r] * q.beta[r] end
      lp = lp - 0.5 * (e / s) ^ 2
    end
    return lp
  end}
  local c = run4(p)
  local bad, worst = 0, 0
  for j = 1, D do
    local okm, okv, zm, zv = check(c, j, mu[j], var[j], "beta[" .. j .. "]",
                                   function (d, i) return d.beta[i] end)
    if not (okm and okv) then bad = bad + 1 end
    worst = math.max(worst, zm, zv)
  end
  t.ok(bad == 0, string.format("conjugate regression: 3 posterior means and "
       .. "variances within %d MCSE of the closed form (worst %.2f; means "
       .. "%.4f %.4f %.4f)", K, worst, mu[1], mu[2], mu[3]))
  t.ok(c:summary()[1].name == "beta[1]", "regression: named beta[1..3]")
end

-- (3) Beta(2.5, 4) on (0, 1): the logit transform and its Jacobian
do
  local a, bb = 2.5, 4
  local p = problem.density{n = 1, lower = 0, upper = 1, logp = function (x)
    return (a - 1) * math.log(x[1]) + (bb - 1) * math.log(1 - x[1])
  end}
  local c = run4(p)
  local mu = a / (a + bb)
  local var = a * bb / ((a + bb) ^ 2 * (a + bb + 1))
  local okm, okv, zm, zv = check(c, 1, mu, var, "beta(2.5, 4)")
  t.ok(okm and okv, string.format("Beta(2.5, 4): mean and variance within %d "
       .. "MCSE of %.4f and %.5f (%.2f, %.2f MCSE off)", K, mu, var, zm, zv))
end

t.done()
