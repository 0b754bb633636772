-- tests/lua/density.lua -- problem.density (log p with the sign users
-- write, Stan's bound transforms, p:constrain / p:unconstrain) and the
-- built-in sampling targets' transforms, through the binary.
--
-- Truth: the potential on the unconstrained scale and its log-Jacobian
-- written out here by hand; central differences of it for the gradient;
-- the Jacobian in law: NUTS at its defaults on a 4-D product of known
-- marginals, the constrained draws' means and variances within 4 MCSE
-- (batch means over the recorded trajectory: 40 batches of 500).
local t = dofile("tests/lib/tap.lua")
local exp, log, huge, abs = math.exp, math.log, math.huge, math.abs
local SEED = 20250611
t.diag("seed " .. SEED)

-- x1 ~ U(0, 1), x2 ~ Exp(1) on (0, inf), x3 ~ Beta(2, 3) on (0, 1),
-- x4 ~ -Exp(1) on (-inf, 0)
local lo, hi = {0, 0, 0, -huge}, {1, huge, 1, 0}
local mean = {0.5, 1, 0.4, -1}
local var = {1 / 12, 1, 0.04, 1}
local function logp (x)
  return -x[2] + log(x[3]) + 2 * log(1 - x[3]) + x[4]
end
local function grad (x, g)
  g[1], g[2], g[3], g[4] = 0, -1, 1 / x[3] - 2 / (1 - x[3]), 1
end
local function s (u) return 1 / (1 + exp(-u)) end

local p = problem.density{n = 4, logp = logp, grad = grad, lower = lo,
                          upper = hi, x0 = {0.5, 1, 0.25, -2},
                          name = "four"}
t.is(tostring(p), "four{n=4, bounded}", "density: name and n in tostring")
t.is(p.kind, "density", "density: kind density")
local x0 = p:constrain(p.x0)
t.ok(abs(x0[1] - 0.5) < 1e-15 and abs(x0[2] - 1) < 1e-15
     and abs(x0[3] - 0.25) < 1e-15 and abs(x0[4] + 2) < 1e-15
     and abs(p.x0[2]) < 1e-15 and abs(p.x0[4] - log(2)) < 1e-15,
     "density: p.x0 is x0 on the u scale, constrain maps it back")

-- (1) the potential: U(u) = -log p(x) - log|dx/du|, by hand
do
  local u = {0.3, -0.7, 1.2, 0.4}
  local x = {s(u[1]), exp(u[2]), s(u[3]), -exp(u[4])}
  local logj = log(s(u[1])) + log(1 - s(u[1])) + u[2]
               + log(s(u[3])) + log(1 - s(u[3])) + u[4]
  local U, g = p:eval(u)
  t.near(U, -logp(x) - logj, 1e-13, "density: U(u) = -log p(x) - log|dx/du|")
  local c = p:constrain(u)
  t.ok(abs(c[1] - x[1]) < 1e-15 and abs(c[2] - x[2]) < 1e-15
       and abs(c[3] - x[3]) < 1e-15 and abs(c[4] - x[4]) < 1e-15,
       "density: p:constrain is lo + (hi-lo) s(u), lo + e^u, hi - e^u")
  local back = p:unconstrain(c)
  t.ok(abs(back[1] - u[1]) < 1e-14 and abs(back[4] - u[4]) < 1e-14,
       "density: p:unconstrain inverts it")
  local worst = 0
  for i = 1, 4 do
    local h = 1e-6
    local up, um = {table.unpack(u)}, {table.unpack(u)}
    up[i], um[i] = u[i] + h, u[i] - h
    local fd = (p:eval(up) - p:eval(um)) / (2 * h)
    worst = math.max(worst, abs(fd - g[i]))
  end
  t.ok(worst < 1e-7, string.format("density: the chain-rule gradient "
                                   .. "matches differences (%.2g)", worst))
  local pf = problem.density{n = 4, logp = logp, lower = lo, upper = hi}
  local _, gf = pf:eval(u)
  local d = 0
  for i = 1, 4 do d = math.max(d, abs(gf[i] - g[i])) end
  t.ok(d < 1e-6, string.format("density: without grad, finite differences "
                               .. "on u agree (%.2g)", d))
end

-- (2) unbounded: U = -log p, grad U = -grad log p, constrain a copy
do
  local q = problem.density{n = 2, logp = function (x)
      return -0.5 * x[1]^2 - x[2]^4 end,
    grad = function (x, g) g[1], g[2] = -x[1], -4 * x[2]^3 end}
  local U, g = q:eval({2, 1})
  t.ok(U == 3 and g[1] == 2 and g[2] == 4, "density: unbounded, U = -log p "
       .. "and grad U = -grad log p exactly")
  local c = q:constrain({2, 1})
  t.ok(c[1] == 2 and c[2] == 1, "density: p:constrain without bounds "
       .. "copies")
  t.is(tostring(q), "density{n=2}", "density: default name 'density'")
  local q1 = problem.density{n = 1, logp = function (x) return -x[1] end,
                             lower = 0, upper = huge}
  t.is(tostring(q1), "density{n=1, bounded}", "density: a scalar lower "
       .. "bound applies to every coordinate")
end

-- (3) what the callbacks hand back is checked, in logp's and grad's names
do
  local q = problem.density{n = 1, logp = function () return "a" end}
  local v, msg = q:eval({1})
  t.ok(v == nil and msg == "logp returned a string (expected a number)",
       "density: a logp returning a string is named in the error")
  q = problem.density{n = 1, logp = function (x) return -x[1] end,
                      grad = function (x, g) g = {1} end, lower = 0}
  v, msg = q:eval({1})
  t.ok(v == nil and msg:find("grad: filled no entry of g", 1, true),
       "density: a grad that fills nothing is named in the error")
  q = problem.density{n = 1, logp = function () error("boom") end}
  local r = run(q, sample.mala{}, {iters = 10, progress = false,
                                   view = false})
  t.ok(r.reason == "callback error" and r.message:find("boom", 1, true),
       "density: an error in logp stops the run with its message")
end

-- (4) misuse raises, naming the constructor
t.errors("problem.density: needs logp", problem.density, {n = 1})
t.errors("problem.density: logp must be a function, got a number",
         problem.density, {n = 1, logp = 3})
t.errors("problem.density: grad must be a function, got a string",
         problem.density, {n = 1, logp = logp, grad = "g"})
t.errors("problem.density: unknown parameter 'f' (valid: n, logp, grad, x0, "
         .. "lower, upper, name, ad, params)", problem.density, {n = 1, f = logp})
t.errors("problem.density: n must be a positive integer, got nothing",
         problem.density, {logp = logp})
t.errors("problem.density: bounds of x[1]: lower = 1 must be below upper = 0",
         problem.density, {n = 1, logp = logp, lower = 1, upper = 0})
t.errors("problem.density: x0: x[1] = 0 is not inside its bounds (0, inf)",
         problem.density, {n = 1, logp = logp, lower = 0, x0 = {0}})
t.errors("problem.density: lower has 1 entries, expected n = 2",
         problem.density, {n = 2, logp = logp, lower = {0}})
t.errors("problem.density: upper must be a number or a table of n = 1 "
         .. "numbers, got a string", problem.density,
         {n = 1, logp = logp, upper = "x"})
t.errors("problem:unconstrain: x[2] = -1 is not inside its bounds (0, inf)",
         function () return p:unconstrain({0.5, -1, 0.5, -1}) end)
t.errors("problem:constrain: u has 1 entries, expected n = 4",
         function () return p:constrain({0}) end)

-- (5) the Jacobian in law
do
  local m = sample.nuts{}
  local N, B = 20000, 500
  local r = run(p, m, {iters = N, seed = SEED, cap = 65536, record_x = true,
                       progress = false, view = false})
  local rows, times = r:traj()
  local xs = {}
  for k = 1, #rows do
    if times[k] > m.warmup then xs[#xs + 1] = p:constrain(rows[k]) end
  end
  t.is(#xs, N, string.format("jacobian: %d post-warmup draws recorded "
                             .. "(warmup %d)", N, m.warmup))
  local names = {"U(0,1)", "Exp(1)", "Beta(2,3)", "-Exp(1)"}
  for j = 1, 4 do
    -- batch means of x_j and of (x_j - mean_j)^2
    local nb = N // B
    local bm, bv, am, av = {}, {}, 0, 0
    for b = 1, nb do
      local sm, sv = 0, 0
      for k = (b - 1) * B + 1, b * B do
        local d = xs[k][j] - mean[j]
        sm, sv = sm + xs[k][j], sv + d * d
      end
      bm[b], bv[b] = sm / B, sv / B
      am, av = am + bm[b] / nb, av + bv[b] / nb
    end
    local sm, sv = 0, 0
    for b = 1, nb do
      sm, sv = sm + (bm[b] - am)^2, sv + (bv[b] - av)^2
    end
    local mcm = math.sqrt(sm / (nb - 1) / nb)
    local mcv = math.sqrt(sv / (nb - 1) / nb)
    t.ok(abs(am - mean[j]) <= 4 * mcm,
         string.format("jacobian: x%d ~ %s, mean %.4f, exact %.4f, within 4 "
                       .. "MCSE = %.4f", j, names[j], am, mean[j], 4 * mcm))
    t.ok(abs(av - var[j]) <= 4 * mcv,
         string.format("jacobian: x%d ~ %s, variance %.4f, exact %.4f, "
                       .. "within 4 MCSE = %.4f", j, names[j], av, var[j],
                       4 * mcv))
  end
end

-- (6) the built-in targets' transforms from Lua
do
  local f = problem.funnel{n = 3, noncentered = true}
  local x = f:constrain({1, 2, -1})
  t.ok(abs(x[1] - 3) < 1e-15 and abs(x[2] - 2 * exp(1.5)) < 1e-13
       and abs(x[3] + exp(1.5)) < 1e-13,
       "funnel{noncentered=true}: p:constrain gives v = 3 u_1, x_i = "
       .. "e^(v/2) u_i")
  local c = problem.funnel{n = 3}:constrain({1, 2, -1})
  t.ok(c[1] == 1 and c[2] == 2 and c[3] == -1, "funnel: centred, no "
       .. "transform")
  local es = problem.eightschools{}
  local q = {1, 0, 0, 0, 0, 0, 0, -1, 4, log(2)}
  local th = es:constrain(q)
  t.ok(abs(th[1] - 6) < 1e-14 and th[2] == 4 and abs(th[8] - 2) < 1e-14
       and th[9] == 4 and abs(th[10] - 2) < 1e-15,
       "eightschools: p:constrain gives (mu + tau theta_trans, mu, tau)")
  t.is(es.n, 10, "eightschools: 10 coordinates")
  local g = problem.gaussian{cov = {{2, 0.5}, {0.5, 1}}, mu = {1, -1}}
  local U = g:eval({1, -1})
  t.ok(g.n == 2 and U == 0, "gaussian: cov gives n; U(mu) = 0")
  -- the problem's name once (5aa2093: "problem.gaussian: gaussian: ...")
  t.errors("problem.gaussian: cov is not positive definite",
           problem.gaussian, {cov = {{1, 2}, {2, 1}}})
  t.errors("problem.gaussian: cov is not symmetric: cov[1][2] = 2 but "
           .. "cov[2][1] = 0", problem.gaussian, {cov = {{1, 2}, {0, 1}}})
  t.errors("problem.mixture: means has 3 entries, expected K n = 4",
           problem.mixture, {weights = {1, 1}, means = {0, 1, 2}, n = 2})
  local mx = problem.mixture{weights = {1, 3}, means = {-1, 1}, sds = {1, 2}}
  local v0 = mx:eval({0})
  local want = -log(0.25 * exp(-0.5) / math.sqrt(2 * math.pi)
                    + 0.75 * exp(-0.125) / (2 * math.sqrt(2 * math.pi)))
  t.near(v0, want, 1e-14, "mixture: U(0) = -log sum_k w_k N(0; m_k, s_k^2)")
end

-- (7) help
do
  local out = {}
  local w = io.write
  io.write = function (...) out[#out + 1] = table.concat({...}) end
  help(problem.density)
  help(p)
  help()
  io.write = w
  local text = table.concat(out)
  t.ok(text:find("problem.density{n = , logp = ", 1, true)
       and text:find("p:constrain(u)", 1, true)
       and text:find("four{n=4, bounded} -- a density", 1, true)
       and text:find("help(problem.density)", 1, true),
       "help: problem.density, a density object, and the overview row")
end

-- (8) the STAN benchmark's Lua densities (tests/bench/stan_densities.lua)
-- compute posteriors.lua's log density: at 30 random points per
-- posterior (each coordinate at its reference mean + N(0, 1) times 1.5
-- reference sds, 10 of them 8 sds; for garch 4 more with log alpha0 =
-- +-25, where its product of v_t is flushed often; seed SEED) U = -logp
-- to 1e-12 relative, g = -grad logp to 1e-12
-- of 1 + max |grad|, g against central differences (h = 1e-5 (1 + |q_i|),
-- to 1e-5 (1 + max |g|)), the value without g the same, and p:eval
-- through the bridge the same numbers.  Skipped when the posteriordb
-- file (beside the project) is absent.
do
  local path = "../shared/data/posteriordb/posteriors.lua"
  local fh = io.open(path)
  if not fh then
    t.ok(true, "stan densities: skipped (no " .. path .. ")")
  else
    fh:close()
    local P = dofile(path)
    local D = dofile("tests/bench/stan_densities.lua")
    math.randomseed(SEED)
    local function gauss ()
      return math.sqrt(-2 * log(1 - math.random())) *
             math.cos(2 * math.pi * math.random())
    end
    for _, post in ipairs(P) do
      local short, n = post.name:match("^([^-]+)"), post.dim
      local fdf = D[short](post.data)
      local pr = problem.new{n = n, kind = "density", fdf = fdf,
                             x0 = post.init}
      local ru = post.ref_unconstrained
      local worst = {f = 0, g = 0, fd = 0, nog = 0, eval = 0}
      for k = 1, short == "garch" and 34 or 30 do
        local q, g = {}, {}
        local w = k <= 20 and 1.5 or 8
        for i = 1, n do q[i] = ru.mean[i] + w * ru.sd[i] * gauss() end
        if k > 30 then q[2] = k % 2 == 0 and 25 or -25 end
        local lp, gr = post.logp_grad(q)
        local U = fdf(q, g)
        local gmax = 0
        for i = 1, n do gmax = math.max(gmax, abs(gr[i])) end
        worst.f = math.max(worst.f, abs(U + lp) / math.max(1, abs(lp)))
        for i = 1, n do
          worst.g = math.max(worst.g, abs(g[i] + gr[i]) / (1 + gmax))
          local h, qp, qm = 1e-5 * (1 + abs(q[i])), {}, {}
          for k = 1, n do qp[k], qm[k] = q[k], q[k] end
          qp[i], qm[i] = q[i] + h, q[i] - h
          local fd = (fdf(qp) - fdf(qm)) / (2 * h)
          worst.fd = math.max(worst.fd, abs(fd - g[i]) / (1 + gmax))
        end
        worst.nog = math.max(worst.nog, abs(fdf(q) - U))
        local f2, g2 = pr:eval(q)
        local d = abs(f2 - U)
        for i = 1, n do d = math.max(d, abs(g2[i] - g[i])) end
        worst.eval = math.max(worst.eval, d)
      end
      t.diag(string.format("%s: worst rel. error U %.2g, g %.2g, g vs "
                           .. "differences %.2g", short, worst.f, worst.g,
                           worst.fd))
      t.ok(worst.f <= 1e-12 and worst.g <= 1e-12,
           "stan densities: " .. short .. ": U and g are posteriors.lua's "
           .. "-logp and -grad to 1e-12")
      t.ok(worst.fd <= 1e-5,
           "stan densities: " .. short .. ": g agrees with central "
           .. "differences of U")
      t.ok(worst.nog == 0 and worst.eval == 0,
           "stan densities: " .. short .. ": U without g, and p:eval "
           .. "through the bridge, give the same numbers")
    end
  end
end

t.done()
