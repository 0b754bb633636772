-- tests/lua/vi.lua -- vi.meanfield and vi.fullrank through the binary:
-- what they converge to, their metrics and results, and the demo
-- scripts/bbvi_variance.lua's numbers.
--
-- Truth:
--   - a correlated 3-D Gaussian N(mu, Sigma): the ELBO's optimum is q = p
--     for the full-rank family (mean within 0.05, each covariance entry
--     within 0.05 sqrt(Sigma_ii Sigma_jj)), and m = mu with variances
--     1 / (Sigma^-1)_ii for the mean-field one (mean within 0.05,
--     variances within 10%), Sigma^-1 by cofactors here; Adam and SGD,
--     samples = 10, 8000 steps of a cosine schedule, seeds fixed; with
--     stl the full-rank run reaches q = p to kl <= 1e-10 (its estimate
--     vanishes there); elbo within 4 elbo_se of log Z - kl;
--   - posteriordb's kidiq (beta[1], beta[2], log sigma, unconstrained):
--     full-rank sds within 25% of the reference sds (lr 0.1, a cosine
--     schedule, the last iterate), with the defaults a warning after 30000
--     steps and within 3% after 100000, and mean-field's sd
--     of each coefficient over the reference sd within 20% of
--     sqrt(1 - rho^2), rho the correlation of beta[1], beta[2] in the
--     reference draws (data/kidiq-kidscore_momiq.draws1000.csv); skipped
--     without ../shared/data/posteriordb;
--   - the demo's gradvar estimates within 4 se of their closed forms and
--     its slopes (1 for mean-field, > 1.5 for full-rank);
--   - the defaults (issue 22, item 14: before, fullrank's last Adam
--     iterate on the rho = 0.9 Gaussian was 0.02-0.07 off in the mean and
--     7-10% in the covariance after 20000 steps, meanfield's variances
--     3-15% off 1 / P_ii): 20000 steps of vi.fullrank{} on gauss2d{rho =
--     0.9} and on a 10-D AR(1) Gaussian (rho 0.8, sds 0.65 .. 2, P
--     tridiagonal in closed form) give the mean within 0.005 sd and every
--     covariance entry within 0.005 sqrt(S_ii S_jj), each error within 4
--     of its reported MC error (r.mean_se, r.cov_se); vi.meanfield{} the
--     mean within 0.02 sd and the variances 1 / P_ii (the KL(q || p)
--     optimum, the conditional variances, not the marginal S_ii) within
--     5%, within 5 MC errors; the MC errors match the spread of the
--     returned mean and variances over 24 seeds within a factor 2 (both
--     families, gauss2d); print(r) shows the MC errors, and warns
--     "not settled" when the batch means still trend (a 10-D Gaussian of
--     condition 100 after 3000 steps, gauss2d after 2000), not when they
--     do not (those after 20000);
--   - on non-Gaussian targets the returned q's exact ELBO (quadrature) is
--     not below the last iterate's (the same seed with average = false
--     runs the same iterates): a banana (Gauss-Hermite, exact for its
--     quartic log density) and Beta(3, 5) on the logit scale, where the
--     returned q is also the ELBO's optimum (m*, s*) found here by a
--     fixed point on a 4801-point quadrature, within 0.02 in m and 2% in
--     s and 4 MC errors; the ELBOs are compared as means over 8 seeds.
local t = dofile("tests/lib/tap.lua")
local abs, sqrt, log = math.abs, math.sqrt, math.log
local SEED = 20261202
t.diag("seed " .. SEED)

local S = {{2, 0.9, -0.5}, {0.9, 1, 0.3}, {-0.5, 0.3, 0.8}}
local mu = {1, -2, 0.5}
local p = problem.gaussian{cov = S, mu = mu}

-- Sigma^-1 and det Sigma by cofactors
local function inv3 (a)
  local c = {
    {a[2][2] * a[3][3] - a[2][3] * a[3][2], -(a[1][2] * a[3][3] - a[1][3] * a[3][2]),
     a[1][2] * a[2][3] - a[1][3] * a[2][2]},
    {-(a[2][1] * a[3][3] - a[2][3] * a[3][1]), a[1][1] * a[3][3] - a[1][3] * a[3][1],
     -(a[1][1] * a[2][3] - a[1][3] * a[2][1])},
    {a[2][1] * a[3][2] - a[2][2] * a[3][1], -(a[1][1] * a[3][2] - a[1][2] * a[3][1]),
     a[1][1] * a[2][2] - a[1][2] * a[2][1]},
  }
  local det = a[1][1] * c[1][1] + a[1][2] * c[2][1] + a[1][3] * c[3][1]
  for i = 1, 3 do for j = 1, 3 do c[i][j] = c[i][j] / det end end
  return c, det
end
local P, detS = inv3(S)
local logZ = 1.5 * log(2 * math.pi) + 0.5 * log(detS)

-- (1) the Gaussian target: full-rank recovers (mu, Sigma), mean-field
-- (mu, 1 / diag P); Adam and SGD
do
  local cases = {
    {"fullrank adam", vi.fullrank{lr = 0.05, samples = 10}},
    {"fullrank sgd", vi.fullrank{lr = 0.05, samples = 10, optimizer = "sgd"}},
    {"meanfield adam", vi.meanfield{lr = 0.05, samples = 10}},
    {"meanfield sgd", vi.meanfield{lr = 0.05, samples = 10,
                                   optimizer = "sgd"}},
  }
  for _, cs in ipairs(cases) do
    local name, full = cs[1], cs[1]:match("^fullrank") ~= nil
    local r = run(p, cs[2], {iters = 8000, seed = SEED, progress = false,
                             schedule = {kind = "cosine"}})
    local c, em, ec = r.cov, 0, 0
    for i = 1, 3 do
      em = math.max(em, abs(r.mean[i] - mu[i]))
      for j = 1, 3 do
        local want = full and S[i][j] or (i == j and 1 / P[i][i] or 0)
        local scale = full and sqrt(S[i][i] * S[j][j]) or want
        if want ~= 0 or full then
          ec = math.max(ec, abs(c[i][j] - want) / scale)
        else
          ec = math.max(ec, abs(c[i][j]))
        end
      end
    end
    t.diag(string.format("%s: max |m - mu| %.4f, max relative covariance "
                         .. "error %.4f, kl %.3g, elbo %.3f +- %.3f (log Z "
                         .. "%.3f)", name, em, ec, r:last("kl"),
                         r:last("elbo"), r:last("elbo_se"), logZ))
    if full then
      t.ok(em <= 0.05 and ec <= 0.05, "vi: " .. name .. " recovers the "
           .. "target's mean (0.05) and covariance (0.05 sqrt(S_ii S_jj))")
    else
      t.ok(em <= 0.05 and ec <= 0.10, "vi: " .. name .. " recovers the "
           .. "mean (0.05) and the variances 1 / P_ii (10%), off-diagonal 0")
    end
    t.ok(abs(r:last("elbo") - (logZ - r:last("kl")))
         <= 4 * r:last("elbo_se"), "vi: " .. name .. ": elbo within 4 "
         .. "elbo_se of log Z - kl")
  end
  -- stl: the estimate vanishes at q = p, so it lands there exactly (the
  -- least kl recorded: Adam then normalises rounding-level gradients into
  -- steps of size lr and moves off again by ~1e-6)
  local r = run(p, vi.fullrank{lr = 0.02, stl = true, average = false,
                                decay = 0},
                {iters = 4000, seed = SEED, progress = false})
  t.diag(string.format("fullrank stl: least kl %.3g in 4000 steps",
                       r:min("kl")))
  t.ok(r:min("kl") <= 1e-10, "vi: fullrank stl reaches q = p (kl <= 1e-10)")
  -- mean-field's kl at its optimum, 1/2 (log det Sigma + sum log P_ii)
  local klmf = 0.5 * log(detS)
  for i = 1, 3 do klmf = klmf + 0.5 * log(P[i][i]) end
  local m = run(p, vi.meanfield{lr = 0.05, stl = true, samples = 10},
                {iters = 8000, seed = SEED, progress = false,
                 schedule = {kind = "cosine"}})
  t.diag(string.format("meanfield stl: kl %.5f, at the optimum %.5f",
                       m:last("kl"), klmf))
  t.ok(m:last("kl") >= klmf - 1e-12 and m:last("kl") <= klmf + 0.01,
       "vi: meanfield stl: kl ends within 0.01 above its least value 1/2 "
       .. "(log det Sigma + sum log P_ii)")
end

-- (2) metrics, results and refusals
do
  local r = run(p, vi.fullrank{evals = 7}, {iters = 3, seed = SEED,
                                             progress = false})
  t.is(table.concat(r:metrics(), " "), "entropy kl elbo elbo_se gradvar",
       "vi: the default metrics are the family's own")
  local s = r:samples()
  t.ok(#s == 7 and #s[1] == 3, "vi: r:samples() gives the evals draws "
       .. "from q, rows of n")
  t.ok(#r.mean == 3 and #r.cov == 3 and #r.cov[1] == 3 and
       r.mean[1] == r.x[1], "vi: r.mean is x (n), r.cov n rows of n")
  local b = run(problem.banana{}, vi.meanfield{}, {iters = 2,
                                                    progress = false})
  t.ok(b:last("kl") ~= b:last("kl"), "vi: kl is NaN on banana (not "
       .. "Gaussian)")
  t.errors("density", function ()
    run(problem.rosenbrock{}, vi.fullrank{}, {iters = 1, progress = false})
  end)
  t.errors("variational", function ()
    run(p, optim.adam{}, {iters = 1, metrics = {"elbo"}, progress = false})
  end)
  -- n x n past the int the arrays are indexed by: refused, not overflowed
  -- (the fuzzer: n = 10^5 segfaulted the release binary)
  local big = problem.density{n = 100000, logp = function (x)
    return -0.5 * x[1] ^ 2 end}
  for _, m in ipairs{vi.meanfield{}, vi.fullrank{}} do
    t.errors("run: n = 100000 is too large for variational inference: it "
             .. "keeps an n x n covariance and evals x n draws (evals = 10), "
             .. "each at most 2147483647 numbers (n <= 46340)", run, big, m,
             {iters = 1, metrics = {"elbo"}, progress = false})
  end
  t.errors("run: mixflow: evals = 100000 draws in 3000 dimensions are too "
           .. "many (at most 1e8 numbers): lower evals", run,
           problem.density{n = 3000, logp = function (x) return 0 end},
           vi.mixflow{evals = 100000}, {iters = 1, progress = false})
  -- a bounded density runs on its unconstrained scale: x ~ Exp(1) is u =
  -- log x with p(u) = exp(u - e^u) (no closed-form Gaussian optimum;
  -- here only: the ELBO rises from the start, far out at u = log 3)
  local d = problem.density{n = 1, logp = function (x) return -x[1] end,
                            grad = function (x, g) g[1] = -1 end,
                            lower = {0}, x0 = {3}}
  local q = run(d, vi.meanfield{lr = 0.05, samples = 10, evals = 200},
                {iters = 2000, seed = SEED, progress = false})
  local e = q:series("elbo")
  t.ok(e[#e] > e[1] + 1, string.format("vi: on a bounded density the ELBO "
       .. "rises (%.3f -> %.3f)", e[1], e[#e]))
end

-- (3) posteriordb's kidiq
do
  local path = "../shared/data/posteriordb/"
  local fh = io.open(path .. "posteriors.lua")
  if not fh then
    t.ok(true, "vi: kidiq skipped (no " .. path .. ")")
  else
    fh:close()
    local post
    for _, q in ipairs(dofile(path .. "posteriors.lua")) do
      if q.name:match("^kidiq") then post = q end
    end
    local D = dofile("tests/bench/stan_densities.lua")
    local kp = problem.new{n = 3, kind = "density", x0 = post.init,
                           fdf = D.kidiq(post.data)}
    -- rho of beta[1], beta[2] from the reference draws
    local b1, b2 = {}, {}
    local f = assert(io.open(path .. post.draws_file))
    f:read("l")
    for line in f:lines() do
      local x, y = line:match("^([^,]+),([^,]+)")
      b1[#b1 + 1], b2[#b2 + 1] = tonumber(x), tonumber(y)
    end
    f:close()
    local n, m1, m2, s11, s22, s12 = #b1, 0, 0, 0, 0, 0
    for i = 1, n do m1, m2 = m1 + b1[i] / n, m2 + b2[i] / n end
    for i = 1, n do
      s11 = s11 + (b1[i] - m1) ^ 2
      s22 = s22 + (b2[i] - m2) ^ 2
      s12 = s12 + (b1[i] - m1) * (b2[i] - m2)
    end
    local rho = s12 / sqrt(s11 * s22)
    local ref = post.ref_unconstrained.sd
    local opts = {iters = 30000, seed = SEED, progress = false,
                  schedule = {kind = "cosine"}}
    -- a cosine schedule anneals the step to 0: its last iterate, not the
    -- window's average (man: average = false suits such runs)
    local fr = run(kp, vi.fullrank{lr = 0.1, samples = 10, average = false},
                   opts)
    local worst, txt = 0, {}
    for i = 1, 3 do
      local sd = sqrt(fr.cov[i][i])
      worst = math.max(worst, abs(sd / ref[i] - 1))
      txt[i] = string.format("%.4g/%.4g", sd, ref[i])
    end
    t.diag("kidiq fullrank sds / reference: " .. table.concat(txt, ", "))
    t.ok(worst <= 0.25, string.format("vi: kidiq: fullrank sds within 25%% "
         .. "of the reference (worst %.1f%%)", 100 * worst))
    local mf = run(kp, vi.meanfield{lr = 0.1, samples = 10,
                                    average = false}, opts)
    local want = sqrt(1 - rho * rho)
    local r1 = sqrt(mf.cov[1][1]) / ref[1]
    local r2 = sqrt(mf.cov[2][2]) / ref[2]
    t.diag(string.format("kidiq meanfield sd ratios %.4f, %.4f; "
                         .. "sqrt(1 - rho^2) = %.4f (rho %.4f)", r1, r2,
                         want, rho))
    t.ok(abs(r1 / want - 1) <= 0.2 and abs(r2 / want - 1) <= 0.2,
         "vi: kidiq: meanfield's sd ratio of each coefficient is "
         .. "sqrt(1 - rho^2) of the reference within 20%")
    -- the defaults: 30000 steps at lr 0.01 are too few along beta's
    -- -0.99 correlation, and print(r) says so; 100000 are enough
    local d30 = run(kp, vi.fullrank{}, {iters = 30000, seed = SEED,
                                        progress = false})
    local d100 = run(kp, vi.fullrank{}, {iters = 100000, seed = SEED,
                                         progress = false})
    local worst100 = 0
    for i = 1, 3 do
      worst100 = math.max(worst100, abs(sqrt(d100.cov[i][i]) / ref[i] - 1))
    end
    t.diag(string.format("kidiq fullrank{}: 100000 steps: sds within "
                         .. "%.1f%% of the reference", 100 * worst100))
    t.ok(tostring(d30):find("not settled", 1, true) ~= nil and
         tostring(d100):find("not settled", 1, true) == nil and
         worst100 <= 0.03, "vi: kidiq: fullrank{} warns 'not settled' "
         .. "after 30000 steps, not after 100000, its sds then within 3%")
  end
end

-- (4) the demo's numbers
do
  local f = assert(io.popen("./optlab --no-tui scripts/bbvi_variance.lua "
                            .. "2>&1"))
  local out = f:read("a")
  f:close()
  local smf, sfr = out:match("meanfield ([%d.]+), fullrank ([%d.]+)")
  local dev = tonumber(out:match("closed form: ([%d.]+) se"))
  t.diag(string.format("bbvi_variance: slopes %s, %s; deviation %s se",
                       tostring(smf), tostring(sfr), tostring(dev)))
  t.ok(out:find("verdict: holds", 1, true) ~= nil and dev ~= nil and
       dev <= 4, "vi: bbvi_variance: every gradvar within 4 se of its "
       .. "closed form, verdict holds")
  t.ok(smf and abs(tonumber(smf) - 1) <= 0.05 and tonumber(sfr) > 1.5,
       "vi: bbvi_variance: mean-field's slope 1 (0.05), full-rank's > 1.5")
end

-- (5) the defaults recover the closed forms, within their MC errors
local function ar1 (n, rho, sd, mu)
  local S, P = {}, {}
  for i = 1, n do
    S[i], P[i] = {}, {}
    for j = 1, n do
      S[i][j] = sd[i] * sd[j] * rho ^ abs(i - j)
      local v = 0
      if i == j then
        v = ((i == 1 or i == n) and 1 or 1 + rho * rho) / (1 - rho * rho)
      elseif abs(i - j) == 1 then v = -rho / (1 - rho * rho) end
      P[i][j] = v / (sd[i] * sd[j])
    end
  end
  return S, P, mu
end
local settled = true
do
  local targets = {}
  do
    local S, P = ar1(2, 0.9, {1, 0.5})
    targets[1] = {"gauss2d rho 0.9", problem.gauss2d{rho = 0.9}, S, P,
                  {1, -1}}
  end
  do
    local sd, mu10 = {}, {}
    for i = 1, 10 do sd[i], mu10[i] = 0.5 + 0.15 * i, (-1) ^ i * 0.3 * i end
    local S, P = ar1(10, 0.8, sd)
    targets[2] = {"10-D AR(1) rho 0.8", problem.gaussian{cov = S, mu = mu10},
                  S, P, mu10}
  end
  for _, tg in ipairs(targets) do
    local name, q, S, P, m0 = tg[1], tg[2], tg[3], tg[4], tg[5]
    local n = #m0
    for _, fam in ipairs{"fullrank", "meanfield"} do
      local full = fam == "fullrank"
      local r = run(q, vi[fam]{}, {iters = 20000, seed = SEED,
                                    progress = false})
      local ms, cs = r.mean_se, r.cov_se
      local em, ec, zm, zc = 0, 0, 0, 0
      for i = 1, n do
        local e = abs(r.mean[i] - m0[i])
        em = math.max(em, e / sqrt(S[i][i]))
        zm = math.max(zm, e / (ms[i] + 1e-300))
        for j = 1, n do
          local want = full and S[i][j] or (i == j and 1 / P[i][i] or 0)
          local scale = full and sqrt(S[i][i] * S[j][j]) or want
          local ee = abs(r.cov[i][j] - want)
          if full or i == j then
            ec = math.max(ec, ee / scale)
            zc = math.max(zc, ee / (cs[i][j] + 1e-300))
          elseif ee ~= 0 then
            ec = math.huge
          end
        end
      end
      local w = r.window
      settled = settled and tostring(r):find("not settled", 1, true) == nil
      t.diag(string.format("%s, %s defaults, 20000 steps: max |m - mu| / sd "
                           .. "%.2e (%.1f MC se), max covariance error %.2e "
                           .. "(%.1f MC se); averaged %d..%d, %d batches",
                           name, fam, em, zm, ec, zc, w[1], w[2], w[3]))
      if full then
        t.ok(em <= 0.005 and ec <= 0.005 and zm <= 4 and zc <= 4,
             "vi: fullrank{} on the " .. name .. " Gaussian: mean within "
             .. "0.005 sd, covariance within 0.005 sqrt(S_ii S_jj), both "
             .. "within 4 MC errors")
      else
        t.ok(em <= 0.02 and ec <= 0.05 and zm <= 5 and zc <= 5,
             "vi: meanfield{} on the " .. name .. " Gaussian: mean within "
             .. "0.02 sd, variances 1 / P_ii within 5% (off-diagonal 0), "
             .. "within 5 MC errors")
      end
    end
  end
  t.ok(settled, "vi: none of these 20000-step runs is said not settled")
  -- the MC errors are honest: against the spread of the returned mean
  -- and variances over 24 seeds (the ratio's own sampling error is about
  -- 15%; batch means of autocorrelated iterates tend to understate it)
  for _, fam in ipairs{"fullrank", "meanfield"} do
    local xs, ses = {}, {}
    for k = 0, 23 do
      local r = run(targets[1][2], vi[fam]{}, {iters = 20000, seed = SEED + k,
                                                progress = false})
      for i = 1, 2 do
        xs[i], ses[i] = xs[i] or {}, ses[i] or {}
        xs[i + 2], ses[i + 2] = xs[i + 2] or {}, ses[i + 2] or {}
        table.insert(xs[i], r.mean[i])
        table.insert(ses[i], r.mean_se[i])
        table.insert(xs[i + 2], r.cov[i][i])
        table.insert(ses[i + 2], r.cov_se[i][i])
      end
    end
    local lo, hi, txt = math.huge, 0, {}
    for k = 1, 4 do
      local m, v, q = 0, 0, 0
      for _, x in ipairs(xs[k]) do m = m + x / #xs[k] end
      for _, x in ipairs(xs[k]) do v = v + (x - m) ^ 2 / (#xs[k] - 1) end
      for _, e in ipairs(ses[k]) do q = q + e * e / #ses[k] end
      local ratio = sqrt(v / q)
      lo, hi = math.min(lo, ratio), math.max(hi, ratio)
      txt[k] = string.format("%.2f", ratio)
    end
    t.diag(string.format("gauss2d rho 0.9, %s{}: sd over seeds %d..%d / "
                         .. "rms MC error, m1 m2 S11 S22: %s", fam, SEED,
                         SEED + 23, table.concat(txt, " ")))
    t.ok(lo >= 0.5 and hi <= 2, "vi: " .. fam .. "{}: the reported MC "
         .. "errors match the spread over 24 seeds within a factor 2")
  end
  -- the MC errors shown by print(r)
  local r = run(targets[1][2], vi.fullrank{}, {iters = 2000, seed = SEED,
                                                progress = false})
  local txt = tostring(r)
  t.ok(txt:find("q: mean [^\n]*%(MC se [%d.e+-]+ [%d.e+-]+%)") ~= nil and
       txt:find("cov MC se at most", 1, true) ~= nil and
       txt:find("the average of iterations 512..2000", 1, true) ~= nil,
       "vi: print(r) shows the mean, its MC errors and the averaged "
       .. "iterations")
  -- a run still on its way is said to be: the batch means' slope
  local g10 = problem.gaussian{n = 10}
  local short = run(g10, vi.fullrank{}, {iters = 3000, seed = SEED,
                                         progress = false})
  local long = run(g10, vi.fullrank{}, {iters = 20000, seed = SEED,
                                        progress = false})
  local function maxabs (rows)   -- r.drift: rows m and log sd
    local m = 0
    for _, v in ipairs(rows) do
      for _, x in ipairs(v) do m = math.max(m, abs(x)) end
    end
    return m
  end
  t.diag(string.format("gaussian{n = 10} (condition 100), fullrank{}: max "
                       .. "|drift t| %.1f after 3000 steps (kl %.3g), %.1f "
                       .. "after 20000 (kl %.3g)", maxabs(short.drift),
                       short:last("kl"), maxabs(long.drift),
                       long:last("kl")))
  t.ok(tostring(short):find("warning: not settled", 1, true) ~= nil and
       txt:find("warning: not settled", 1, true) ~= nil and
       tostring(long):find("not settled", 1, true) == nil,
       "vi: print(r) warns that a run has not settled (the batch means "
       .. "still trend) after 3000 steps on a 10-D Gaussian of condition "
       .. "100 and after 2000 on gauss2d (kl 0.02), not after 20000")
  local l = tostring(run(targets[1][2], vi.fullrank{average = false},
                         {iters = 20, seed = SEED, progress = false}))
  t.ok(l:find("the last iterate (average = false)", 1, true) ~= nil and
       run(targets[1][2], vi.fullrank{average = false},
           {iters = 2, progress = false}).mean_se == nil,
       "vi: average = false returns the last iterate, with no MC error")
end

-- (6) non-Gaussian targets: the returned q's ELBO against the last
-- iterate's, both exact
do
  local b = 0.3
  local ban = problem.density{n = 2, x0 = {0.5, 0.5},
    logp = function (z)
      local r = z[2] - b * z[1] ^ 2
      return -z[1] ^ 2 / 8 - r * r / 2
    end,
    grad = function (z, g)
      local r = z[2] - b * z[1] ^ 2
      g[1], g[2] = -z[1] / 4 + 2 * b * z[1] * r, -r
    end}
  -- E_q log p by the 3-point Gauss-Hermite rule in each coordinate of
  -- z = m + C eps (exact for a polynomial of degree <= 5), plus H(q)
  local nodes, wts = {-sqrt(3), 0, sqrt(3)}, {1 / 6, 2 / 3, 1 / 6}
  local function elbo (m, S)
    local c11 = sqrt(S[1][1])
    local c21 = S[2][1] / c11
    local c22 = sqrt(S[2][2] - c21 * c21)
    local e = 0
    for i = 1, 3 do
      for j = 1, 3 do
        local z1 = m[1] + c11 * nodes[i]
        local r = m[2] + c21 * nodes[i] + c22 * nodes[j] - b * z1 ^ 2
        e = e + wts[i] * wts[j] * (-z1 ^ 2 / 8 - r * r / 2)
      end
    end
    return e + 1 + log(2 * math.pi) + log(c11 * c22)
  end
  -- over 8 seeds (a single one is a coin flip when both are close): the
  -- mean exact ELBO of the returned q and of the last iterate
  local function versus (target, fam, f, name)
    local sa, sl, wins = 0, 0, 0
    for k = 0, 7 do
      local o = {iters = 20000, seed = SEED + k, progress = false}
      local ea = f(run(target, vi[fam]{}, o))
      local el = f(run(target, vi[fam]{average = false}, o))
      sa, sl = sa + ea / 8, sl + el / 8
      if ea >= el then wins = wins + 1 end
    end
    t.diag(string.format("%s, %s: mean exact elbo over seeds %d..%d: %.7f "
                         .. "returned, %.7f the last iterate (returned >= "
                         .. "last in %d of 8)", name, fam, SEED, SEED + 7,
                         sa, sl, wins))
    t.ok(sa >= sl, "vi: " .. name .. ", " .. fam .. "{}: the returned q's "
         .. "ELBO is not below the last iterate's (mean over 8 seeds)")
  end
  for _, fam in ipairs{"fullrank", "meanfield"} do
    versus(ban, fam, function (r) return elbo(r.mean, r.cov) end, "banana")
  end
  -- Beta(3, 5) on the logit scale: log p(u) = a u - (a + b) log(1 + e^u)
  local A, B = 3, 5
  local beta = problem.density{n = 1, x0 = {0},
    logp = function (u)
      local x = u[1]
      return A * x - (A + B) * (x > 0 and x + math.log(1 + math.exp(-x))
                                or math.log(1 + math.exp(x)))
    end,
    grad = function (u, g) g[1] = A - (A + B) / (1 + math.exp(-u[1])) end}
  -- E over eps ~ N(0, 1) by the trapezoid rule on [-12, 12], h = 0.005
  local function E (f)
    local h, s = 0.005, 0
    for k = -2400, 2400 do
      local e = k * h
      s = s + f(e) * math.exp(-e * e / 2)
    end
    return s * h / sqrt(2 * math.pi)
  end
  local function sig (x) return 1 / (1 + math.exp(-x)) end
  local function lp (x)
    return A * x - (A + B) * (x > 0 and x + math.log(1 + math.exp(-x))
                              or math.log(1 + math.exp(x)))
  end
  local function belbo (m, s)
    return E(function (e) return lp(m + s * e) end) + 0.5 * (1 + log(2 *
           math.pi)) + log(s)
  end
  -- the optimum: E sigma(m + s eps) = a / (a + b) (Newton in m) and
  -- s^2 = 1 / ((a + b) E sigma'(m + s eps)) (Stein's lemma), iterated
  local ms, ss = 0, 1
  for _ = 1, 60 do
    for _ = 1, 5 do
      local f = E(function (e) return sig(ms + ss * e) end) - A / (A + B)
      local d = E(function (e) local y = sig(ms + ss * e) return y * (1 - y)
                  end)
      ms = ms - f / d
    end
    ss = 1 / sqrt((A + B) * E(function (e) local y = sig(ms + ss * e)
                               return y * (1 - y) end))
  end
  t.diag(string.format("Beta(3, 5) on the logit scale: the ELBO's optimum "
                       .. "m* = %.6f, s* = %.6f, elbo %.6f", ms, ss,
                       belbo(ms, ss)))
  for _, fam in ipairs{"fullrank", "meanfield"} do
    local r = run(beta, vi[fam]{}, {iters = 20000, seed = SEED,
                                     progress = false})
    -- n = 1: r.cov and r.cov_se are lists of one number
    local sa = sqrt(r.cov[1])
    local zm = abs(r.mean[1] - ms) / r.mean_se[1]
    local zv = abs(r.cov[1] - ss * ss) / r.cov_se[1]
    t.diag(string.format("Beta(3, 5), %s: m %.5f (%.1f MC se), s %.5f "
                         .. "(variance %.1f MC se)", fam, r.mean[1], zm, sa,
                         zv))
    t.ok(abs(r.mean[1] - ms) <= 0.02 and abs(sa / ss - 1) <= 0.02 and
         zm <= 4 and zv <= 4, "vi: Beta(3, 5), " .. fam .. "{}: the "
         .. "returned q is the ELBO's optimum (m within 0.02, s within 2%, "
         .. "4 MC errors)")
    versus(beta, fam, function (q)
             return belbo(q.mean[1], sqrt(q.cov[1]))
           end, "Beta(3, 5)")
  end
end

-- a one-dimensional target: r.window's 4 numbers fit (they overran the
-- state's 2-double batch buffer once; make sanitize catches a relapse)
for _, fam in ipairs{"meanfield", "fullrank"} do
  local r = run(problem.mixture{}, vi[fam]{}, {iters = 4, seed = SEED,
                                                progress = false, view = false})
  local w = r.window
  t.ok(#w == 4 and w[2] == 4, "vi: " .. fam .. "{} on a 1-D target: "
       .. "r.window is 4 numbers, the last iteration 4")
  r:close()
end

t.done()
