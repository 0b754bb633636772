-- tests/bench/stan_densities.lua -- the three posteriordb densities of the
-- STAN benchmark (tests/bench/stan.lua), written as a user writes a Lua
-- density for problem.new{kind = "density", fdf = ...}.
--
-- Each constructor takes the posterior's data (posteriors.lua's post.data)
-- and returns fdf(q, g): the potential U(q) = -log p(q) on Stan's
-- unconstrained scale, log-Jacobians included, up to the same additive
-- constant as posteriors.lua's logp (which transcribes the Stan programs),
-- and, when g is not nil, grad U filled into g in place.  Written as a
-- careful Lua programmer would: the data and math functions are locals
-- of the closure, constants are computed once, a call creates no table
-- and reads each data point once; the arithmetic is the reference's,
-- regrouped (garch: 1/v once instead of three divisions, and the sum of
-- log v_t as the log of their product, see M.garch).  tests/lua/density.lua
-- checks U and g against posteriors.lua's logp_grad at random points (to
-- 1e-12 relative) and g against central differences.
--
-- Transforms (Stan's): lower = 0: x = exp(u), log|J| = u; lower = 0,
-- upper = c: x = c inv_logit(u), log|J| = log c + log s + log(1 - s).
local M = {}
local exp, log = math.exp, math.log

-- log(1 + exp(z)) without overflow
local function softplus (z)
  if z > 0 then return z + log(1.0 + exp(-z)) end
  return log(1.0 + exp(z))
end

-- 1 / (1 + exp(-z)) without overflow
local function inv_logit (z)
  if z >= 0 then return 1.0 / (1.0 + exp(-z)) end
  local ez = exp(z)
  return ez / (1.0 + ez)
end

-- eight_schools_noncentered, q = (theta_trans[1..J], mu, log tau):
--   theta_trans ~ N(0, 1), y_j ~ N(mu + tau theta_trans_j, sigma_j),
--   mu ~ N(0, 5), tau ~ half-Cauchy(0, 5).
function M.eight_schools (d)
  local J, y = d.J, {}
  local w = {}                         -- 1 / sigma_j^2
  for j = 1, J do y[j], w[j] = d.y[j], 1.0 / (d.sigma[j] * d.sigma[j]) end
  local imu, iu = J + 1, J + 2
  return function (q, g)
    local y, w = y, w                  -- locals for the loop
    local mu, u = q[imu], q[iu]
    local tau = exp(u)
    local U, dmu, dtau = 0.0, 0.0, 0.0 -- dmu, dtau: d log p / d(mu, tau)
    for j = 1, J do
      local tt = q[j]
      local r = y[j] - mu - tau * tt
      local rw = r * w[j]                -- r_j / sigma_j^2
      U = U + 0.5 * (tt * tt + r * rw)
      if g then g[j] = tt - tau * rw end
      dmu = dmu + rw
      dtau = dtau + tt * rw
    end
    local t5 = tau / 5.0
    U = U + 0.5 * (mu / 5.0) ^ 2 + log(1.0 + t5 * t5) - u
    if g then
      g[imu] = mu / 25.0 - dmu
      g[iu] = -(dtau - 2.0 * tau / (25.0 + tau * tau)) * tau - 1.0
    end
    return U
  end
end

-- kidscore_momiq, q = (beta1, beta2, log sigma): kid_score_i ~
-- N(beta1 + beta2 mom_iq_i, sigma), flat prior on beta, sigma ~
-- half-Cauchy(0, 2.5); through the sufficient statistics, as the
-- reference does.
function M.kidiq (d)
  local ys, xs, N = d.kid_score, d.mom_iq, d.N
  local Sy, Sx, Sxx, Sxy, Syy = 0.0, 0.0, 0.0, 0.0, 0.0
  for i = 1, N do
    local yi, xi = ys[i], xs[i]
    Sy, Sx, Sxx = Sy + yi, Sx + xi, Sxx + xi * xi
    Sxy, Syy = Sxy + xi * yi, Syy + yi * yi
  end
  return function (q, g)
    local b1, b2, u = q[1], q[2], q[3]
    local s = exp(u)
    local s2 = s * s
    local rss = Syy - 2.0 * b1 * Sy - 2.0 * b2 * Sxy + N * b1 * b1
                + 2.0 * b1 * b2 * Sx + b2 * b2 * Sxx
    local U = N * u + 0.5 * rss / s2 + log(1.0 + (s / 2.5) ^ 2) - u
    if g then
      g[1] = -(Sy - N * b1 - b2 * Sx) / s2       -- -sum r_i / sigma^2
      g[2] = -(Sxy - b1 * Sx - b2 * Sxx) / s2    -- -sum r_i x_i / sigma^2
      g[3] = N - rss / s2 + 2.0 * s2 / (6.25 + s2) - 1.0
    end
    return U
  end
end

-- garch11, q = (mu, log alpha0, logit alpha1, logit(beta1 / (1 - alpha1))):
--   sigma_1 given, sigma_t^2 = v_t = alpha0 + alpha1 (y_{t-1} - mu)^2 +
--   beta1 v_{t-1}, y_t ~ N(mu, sigma_t); flat priors on the constrained
--   scale.  The gradient runs forward with the recursion: dv_t/d(mu,
--   alpha0, alpha1, beta1) by the chain rule, then to q by the Jacobian.
function M.garch (d)
  local T, y, v1 = d.T, {}, d.sigma1 * d.sigma1
  for t = 1, T do y[t] = d.y[t] end
  local logv1 = log(v1)
  return function (q, g)
    local y, log = y, log                            -- locals for the loop
    local mu = q[1]
    local a0 = exp(q[2])
    local s3 = inv_logit(q[3])                       -- alpha1
    local s4 = inv_logit(q[4])
    local a1, b1 = s3, (1.0 - s3) * s4
    -- t = 1: v_1 = sigma1^2 given.  The loop sums S = sum_t (log v_t +
    -- e_t^2 / v_t), so lp = -S / 2, and the derivatives 2 d lp / d(...),
    -- halved after it.  sum log v_t is taken as the log of the product
    -- pv of the v_t, flushed into S whenever it leaves [1e-150, 1e150]
    -- (so it neither overflows nor underflows): one math.log per 150
    -- decades instead of one per step, a C call from Lua costing about
    -- as much as ten arithmetic instructions.
    local v, e = v1, y[1] - mu
    local S = logv1 + e * e / v1
    local dmu, da0, da1, db1 = 2.0 * e / v1, 0.0, 0.0, 0.0
    local vmu, va0, va1, vb1 = 0.0, 0.0, 0.0, 0.0     -- d v_t / d(...)
    local m2a1, pv = -2.0 * a1, 1.0
    for t = 2, T do
      local ep2 = e * e                               -- e = y[t-1] - mu
      vmu = m2a1 * e + b1 * vmu
      va0 = 1.0 + b1 * va0
      va1 = ep2 + b1 * va1
      vb1 = v + b1 * vb1
      v = a0 + a1 * ep2 + b1 * v
      e = y[t] - mu
      local iv = 1.0 / v
      local e2iv = e * e * iv
      S = S + e2iv
      pv = pv * v
      if pv > 1e150 or pv < 1e-150 then S, pv = S + log(pv), 1.0 end
      local dv = iv * (e2iv - 1.0)                    -- 2 d lp / d v_t
      dmu = dmu + 2.0 * e * iv + dv * vmu
      da0 = da0 + dv * va0
      da1 = da1 + dv * va1
      db1 = db1 + dv * vb1
    end
    local lp = -0.5 * (S + log(pv))
    dmu, da0, da1, db1 = 0.5 * dmu, 0.5 * da0, 0.5 * da1, 0.5 * db1
    -- log-Jacobians: alpha0 = exp(q2); alpha1 = s3; beta1 = (1 - s3) s4
    local l3, l1m3 = -softplus(-q[3]), -softplus(q[3]) -- log s3, log(1-s3)
    local l4, l1m4 = -softplus(-q[4]), -softplus(q[4])
    lp = lp + q[2] + (l3 + l1m3) + (l1m3 + l4 + l1m4)
    if g then
      g[1] = -dmu
      g[2] = -(da0 * a0 + 1.0)
      g[3] = -((da1 - s4 * db1) * s3 * (1.0 - s3) + (1.0 - 3.0 * s3))
      g[4] = -(db1 * (1.0 - s3) * s4 * (1.0 - s4) + (1.0 - 2.0 * s4))
    end
    return -lp
  end
end

return M
