-- scripts/hmc_rwmh.lua -- how random-walk Metropolis and HMC scale with
-- the dimension.
--
-- Claim (Roberts, Gelman & Gilks, "Weak convergence and optimal scaling of
-- random walk Metropolis algorithms", Ann. Appl. Probab. 1997; Beskos et
-- al., "Optimal tuning of the hybrid Monte Carlo algorithm", Bernoulli
-- 2013): on a d-dimensional standard Gaussian, tuned random-walk Metropolis
-- needs O(d) steps per effective draw, HMC with a tuned step and path
-- length O(d^(1/4)) leapfrog steps (NUTS, Hoffman & Gelman 2014, chooses
-- the path length itself).  So the effective sample size per gradient (per
-- density evaluation for RWMH) falls like d^-1 for RWMH and about d^-1/4
-- for HMC: log-log slopes near -1 and -1/4.
--
-- Usage: optlab scripts/hmc_rwmh.lua
local seed = 11
local dims = {4, 16, 64}
local function ess_per_eval (method, d, iters)
  local p = problem.quadratic{n = d, cond = 1, rotate = false}
  -- six measurements, not one to watch: no live view
  local c = run(p, method, {iters = iters, chains = 2, seed = seed,
                            progress = false, view = false})
  local s = c:summary()
  local e = {}
  for j = 1, d do e[j] = s[j].ess_bulk end
  table.sort(e)
  local m = e[(d + 1) // 2]                -- the median over coordinates
  -- post-warmup evaluations: one a draw for RWMH, the leapfrogs for NUTS
  local st = c:stats()
  local evals = st.n_leapfrog > 0 and st.n_leapfrog or st.draws
  return m / evals
end
-- least-squares slope of log y on log d
local function slope (ys) return lesson.slope(dims, ys) end
local rw, hm = {}, {}
lesson.claim("ESS per evaluation falls like d^-1 for random-walk Metropolis, "
      .. "about d^-1/4 for HMC (NUTS)")
print("     d   rwmh ESS/eval   nuts ESS/gradient")
for i, d in ipairs(dims) do
  -- isotropic proposals and unit metrics: the setting of the theory
  rw[i] = ess_per_eval(sample.rwmh{metric = "unit"}, d, 20000)
  hm[i] = ess_per_eval(sample.nuts{metric = "unit"}, d, 2000)
  print(string.format("  %4d   %13.3g   %16.3g", d, rw[i], hm[i]))
end
local srw, shm = slope(rw), slope(hm)
print(string.format("log-log slope rwmh %.2f (theory -1), nuts %.2f (theory "
                    .. "-0.25)", srw, shm))
local ok = srw < -0.7 and srw > -1.3 and shm > -0.6 and shm < 0
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(problem.quadratic{n = 16, cond = 1, rotate = false},
            {sample.rwmh{metric = "unit"}, sample.nuts{metric = "unit"}},
            {iters = 2000, seed = seed})
lesson.verdict(string.format("%s (slopes rwmh %.2f within 0.3 of -1, nuts "
                    .. "%.2f between -0.6 and 0; seed %d)", ok and "holds"
                    or "does not hold", srw, shm, seed))
