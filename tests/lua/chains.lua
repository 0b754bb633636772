-- tests/lua/chains.lua -- the sampling lab's chains, draws, summaries and
-- CmdStan CSV (issue 11), against the exact moments of gauss2d and the
-- posteriordb reference posteriors.  Seeds are fixed and printed;
-- statistical checks are in MCSE from the summaries' own ESS.
local t = dofile("tests/lib/tap.lua")
local Q = {progress = false, view = false}
local function opts (o)
  for k, v in pairs(Q) do if o[k] == nil then o[k] = v end end
  return o
end

-- gauss2d's defaults: mean (1, -1), sds (1, 0.5), rho 0.5
local mu, sd = {1, -1}, {1, 0.5}
local SEED = 20261201
t.diag("seed " .. SEED)

-- (1) four NUTS chains: moments within 4 MCSE, R-hat near 1
local c = run(problem.gauss2d{}, sample.nuts{}, opts{iters = 2000, chains = 4,
                           seed = SEED})
t.is(c.chains, 4, "chains = 4 gives four chains")
local draws = c:draws()
t.ok(#draws == 4 and #draws[1] == 2000 and #draws[4][2000] == 2,
     "draws: 4 chains of 2000 post-warmup draws of 2 numbers")
local sum = c:summary()
for j = 1, 2 do
  local r = sum[j]
  t.ok(math.abs(r.mean - mu[j]) <= 4 * r.mcse,
       string.format("nuts, 4 chains: mean x[%d] %.4f within 4 MCSE (%.3g) of %g",
                     j, r.mean, r.mcse, mu[j]))
  t.ok(math.abs(r.sd / sd[j] - 1) <= 0.05,
       string.format("nuts: sd x[%d] %.4f within 5%% of %g", j, r.sd, sd[j]))
  t.ok(r.rhat < 1.01 and r.ess_bulk > 1000 and r.ess_tail > 1000,
       string.format("nuts: x[%d] rhat %.4f, bulk-ESS %.0f, tail-ESS %.0f",
                     j, r.rhat, r.ess_bulk, r.ess_tail))
  t.ok(r.q5 < r.q50 and r.q50 < r.q95 and
       math.abs(r.q50 - mu[j]) < 4 * r.mcse * 1.5,
       string.format("nuts: quantiles ordered, median %.3f near %g", r.q50,
                     mu[j]))
end
-- the chains are independent streams with dispersed starts
local s1, s2 = c[1].seed, c[2].seed
t.ok(s1 == s2 and draws[1][1][1] ~= draws[2][1][1],
     "chains share the seed, differ by stream")
local txt = tostring(c)
t.ok(txt:find("4 chains, warmup 1000, 2000 draws each kept", 1, true) and
     txt:find("ess_bulk", 1, true) and not txt:find("warning:", 1, true),
     "print: the Stan-like table, no warning on a healthy run")

-- (2) the CSV in CmdStan's layout reads back
local files = c:save_draws(os.tmpname() .. ".csv")
t.is(#files, 4, "save_draws writes one file per chain")
local f = assert(io.open(files[3]))
local header
local rows, back = 0, nil
for line in f:lines() do
  if line:sub(1, 1) ~= "#" then
    if not header then header = line
    else
      rows = rows + 1
      if rows == 17 then back = line end
    end
  end
end
f:close()
t.is(header, "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,"
     .. "divergent__,energy__,x.1,x.2", "CSV header is CmdStan's")
t.is(rows, 2000, "CSV has one row per kept draw")
local vals = {}
for v in back:gmatch("[^,]+") do vals[#vals + 1] = tonumber(v) end
t.ok(vals[8] == draws[3][17][1] and vals[9] == draws[3][17][2],
     "CSV row 17 of chain 3 is draw 17, to the last digit")
for _, fn in ipairs(files) do os.remove(fn) end

-- (3) warnings in words: a sampler that has not mixed
local bad = run(problem.gauss2d{}, sample.mala{h = 1e-4, warmup = 0},
                opts{iters = 2000, chains = 2, seed = SEED})
local btxt = tostring(bad)
t.ok(btxt:find("\nwarning: R%-hat") and btxt:find("\nwarning: the effective"),
     "MALA with a tiny step: warnings name R-hat and the ESS")

-- (4) the draw cap thins and says so
local th = run(problem.gauss2d{}, sample.mala{h = 0.5},
               opts{iters = 1000, max_draws = 100, seed = SEED})
local d = th:draws()[1]
t.ok(#d <= 100 and #d >= 50 and tostring(th):find("every 16-th", 1, true),
     "max_draws = 100 keeps " .. #d .. " of 1000 draws, thinned, and says so")
-- max_draws = math.maxinteger keeps every draw (its count in doubles
-- overflowed a long: found by the fuzzer, a UBSan report)
local all = run(problem.gauss2d{}, sample.mala{h = 0.5, warmup = 10},
                opts{iters = 200, max_draws = math.maxinteger, seed = SEED})
t.ok(all.reason == "budget" and #all:draws()[1] == 200
     and not tostring(all):find("every ", 1, true),
     "max_draws = math.maxinteger keeps all " .. #all:draws()[1]
     .. " of 200 draws")

-- (5) warmup is kept apart: the kept draws start after it
local w = run(problem.gauss2d{}, sample.hmc{}, opts{iters = 300, warmup = 200,
                                                   seed = SEED})
t.ok(w.iter == 500 and #w:draws()[1] == 300,
     "hmc warmup 200 + iters 300: 500 steps, 300 draws kept")
t.errors("chains = 2 needs a sampler", run, problem.gauss2d{}, optim.gd{},
         opts{chains = 2})

-- (5b) a bounded density's draws and summary are on the constrained
-- scale: logp = 0 on (0, 1) is uniform (mean 1/2, variance 1/12), and
-- Exponential(1) with lower = 0 has mean 1 and variance 1
do
  local u = problem.density{n = 1, logp = function (x) return 0 end,
                            grad = function (x, g) g[1] = 0 end,
                            lower = 0, upper = 1, x0 = {0.5}}
  local cu = run(u, sample.nuts{}, opts{iters = 4000, chains = 4, seed = SEED})
  local su = cu:summary()[1]
  local dmin, dmax = math.huge, -math.huge
  for _, ch in ipairs(cu:draws()) do
    for _, d in ipairs(ch) do
      dmin, dmax = math.min(dmin, d[1]), math.max(dmax, d[1])
    end
  end
  t.ok(dmin > 0 and dmax < 1 and math.abs(su.mean - 0.5) <= 4 * su.mcse and
       math.abs(su.sd^2 - 1 / 12) <= 0.1 / 12,
       string.format("uniform on (0, 1): draws in (%.3g, %.3g), mean %.4f "
                     .. "(4 MCSE %.3g), variance %.4f (1/12 = %.4f)", dmin,
                     dmax, su.mean, 4 * su.mcse, su.sd^2, 1 / 12))
  local e = problem.density{n = 1, logp = function (x) return -x[1] end,
                            grad = function (x, g) g[1] = -1 end,
                            lower = 0, x0 = {1}}
  local se = run(e, sample.nuts{}, opts{iters = 4000, chains = 4,
                                        seed = SEED}):summary()[1]
  t.ok(math.abs(se.mean - 1) <= 4 * se.mcse and math.abs(se.sd - 1) <= 0.1,
       string.format("Exponential(1), lower = 0: mean %.4f (4 MCSE %.3g), "
                     .. "sd %.4f", se.mean, 4 * se.mcse, se.sd))
end

-- (6) posteriordb (eight schools non-centred, kidiq, garch): NUTS with
-- defaults and the density written in Lua reproduces every reference mean
-- within 3 combined MCSE and every sd within 10% (unconstrained scale)
local path = "../shared/data/posteriordb/posteriors.lua"
local fh = io.open(path)
if not fh then
  t.ok(true, "posteriordb not found beside the project: skipped")
else
  fh:close()
  local P = dofile(path)
  for _, post in ipairs(P) do
    local n = post.dim
    local p = problem.new{n = n, kind = "density", x0 = post.init,
                          fdf = function (q, g)
      local qq = {}
      for i = 1, n do qq[i] = q[i] end
      local lp, gr = post.logp_grad(qq, g ~= nil)
      if g then for i = 1, n do g[i] = -gr[i] end end
      return -lp
    end}
    local pr = run(p, sample.nuts{}, opts{iters = 1000, chains = 4,
                                          seed = SEED})
    local ps = pr:summary()
    local ref = post.ref_unconstrained
    local zmax, smax = 0, 0
    for j = 1, n do
      local se = math.sqrt(ps[j].mcse^2 + ref.mcse_mean[j]^2)
      zmax = math.max(zmax, math.abs(ps[j].mean - ref.mean[j]) / se)
      smax = math.max(smax, math.abs(ps[j].sd / ref.sd[j] - 1))
    end
    t.ok(zmax <= 3, string.format("%s: NUTS means within 3 combined MCSE "
         .. "of the reference (worst %.2f)", post.name, zmax))
    t.ok(smax <= 0.1, string.format("%s: NUTS sds within 10%% of the "
         .. "reference (worst %.1f%%)", post.name, 100 * smax))
    if post.name:find("kidiq") then
      local txt = tostring(pr)
      t.ok(txt:find("4 chains, warmup 1000, 1000 draws each kept", 1, true)
           and txt:find("rhat", 1, true) and select(2, txt:gsub("\n  x%[", ""))
           == n and not txt:find("warning:", 1, true),
           "kidiq: print of 4 NUTS chains is the Stan-like table, no warning")
      -- plain MALA with a tiny fixed step has not mixed: R-hat and ESS
      local bad = run(p, sample.mala{h = 1e-4, warmup = 0},
                      opts{iters = 2000, chains = 4,
                           seed = SEED})
      local btxt = tostring(bad)
      t.ok(btxt:find("\nwarning: R%-hat is") and
           btxt:find("\nwarning: the effective sample size"),
           "kidiq: MALA h = 1e-4 prints warnings naming R-hat and the ESS")
    end
  end
end

-- (live panels) the pooled running R-hat and ESS of the chains shown
-- together (core/plot: a point each time the draws grew by 10%, and one
-- at the end on every kept draw): its last value is r:summary()'s
local run4 = c:running()
local last = #run4.rhat
local maxr, mine = -math.huge, math.huge
for j = 1, #sum do
  maxr = math.max(maxr, sum[j].rhat)
  mine = math.min(mine, sum[j].ess_bulk)
end
t.ok(last > 10 and math.abs(run4.rhat[last] - maxr) <= 1e-9,
     string.format("running: the pooled R-hat's last value %.12f is "
                   .. "r:summary()'s max rhat %.12f (within 1e-9; %d points)",
                   run4.rhat[last] or 0, maxr, last))
t.ok(math.abs(run4.ess[last] - mine) <= 1e-9 * mine,
     string.format("running: the pooled ESS's last value %.6f is the min "
                   .. "ess_bulk %.6f", run4.ess[last] or 0, mine))
do
  local w, okrule = c[1].warmup or 1000, true
  local prev = run4.iter[1] - w
  t.is(prev, 20, "running: the first point is at 20 draws per chain")
  for k = 2, last - 1 do
    local s = run4.iter[k] - w
    if s ~= math.max(prev + 1, math.ceil(1.1 * prev)) then okrule = false end
    prev = s
  end
  t.ok(okrule and run4.iter[last] - w == 2000, "running: points where the "
       .. "draws grew by 10% (s' = max(s + 1, ceil(1.1 s))), the last at "
       .. "all 2000")
end
t.is(#c[1]:running().rhat, 0, "running: a single chain has no pooled curve")

-- watch names of chosen coordinates: trace:j, cloud:a,b
do
  local g = run(problem.gaussian{n = 3}, sample.rwmh{},
                opts{iters = 50, warmup = 0, watch = {"trace:3", "cloud:3,1"}})
  t.ok(g.iter == 50, "watch: trace:3 and cloud:3,1 are panel names")
  t.errors("metric or panel", function ()
    run(problem.gaussian{n = 3}, sample.rwmh{}, opts{iters = 5,
        watch = {"trace:0"}}) end)
  t.errors("metric or panel", function ()
    run(problem.gaussian{n = 3}, sample.rwmh{}, opts{iters = 5,
        watch = {"cloud:1,1"}}) end)
  t.errors("no coordinate x4", function ()
    g:plot{text = true, watch = {"trace:4"}} end)
end

-- the text figures, from a child process whose stdout is read
local function childplot (body)
  local sf = os.tmpname()
  local fh = assert(io.open(sf, "w"))
  fh:write(body)
  fh:close()
  local p = io.popen("LANG=C LC_ALL= ./optlab " .. sf)
  local o = p:read("a")
  p:close()
  os.remove(sf)
  return o
end
do
  local o = childplot(string.format([[
local c = run(problem.gauss2d{}, sample.nuts{}, {iters = 300, chains = 4,
  seed = %d, progress = false, view = false})
c:plot{text = true}
]], SEED))
  local order, at = {"accept", "trace x1", "cloud x1,x2 over log p contours",
                     "rhat, chains pooled", "stepsize"}, 0
  local inorder = true
  for _, title in ipairs(order) do
    local i = o:find("- " .. title, 1, true)
    if not i or i < at then inorder = false end
    at = i or at
  end
  t.ok(inorder, "defaults: 4 NUTS chains show accept, trace x1, the cloud "
       .. "over log p contours, the pooled R-hat, the step size")
  t.ok(o:find("4 chains pooled 1.", 1, true),
       "defaults: the R-hat panel draws one pooled curve")
  local f = childplot(string.format([[
local f = run(problem.funnel{}, sample.nuts{}, {iters = 500, chains = 4,
  seed = 3, progress = false, view = false})
print("divergences", f:stats().divergences)
f:plot{text = true, watch = {"trace:1", "cloud:2,1"}}
]]))
  local nd = tonumber(f:match("divergences%s+(%d+)"))
  local marks = select(2, f:match("trace x1.-\n(.-)X %d+ divergent")
                       :gsub("X", ""))
  t.ok(nd and nd > 0 and select(2, f:gsub("X " .. nd .. " divergent", ""))
       == 2, string.format("divergences: centred funnel, %s divergent "
       .. "transitions counted in the trace's and the cloud's legends",
       tostring(nd)))
  t.ok(marks >= 1 and marks <= nd, string.format("divergences: %d X marks "
       .. "on the trace (at most one per divergent draw, %s)", marks,
       tostring(nd)))
end

-- the SVG figure: contours under the cloud, a red cross per divergent
-- draw on the trace and the cloud, the pooled R-hat panel
do
  local f = run(problem.funnel{}, sample.nuts{}, opts{iters = 500, chains = 4,
                                                     seed = 3})
  local nd = f:stats().divergences
  local svg = os.tmpname() .. ".svg"
  f:plot{file = svg, watch = {"trace:1", "cloud:2,1", "rhat"}}
  local doc = assert(io.open(svg)):read("a")
  os.remove(svg)
  local crosses = select(2, doc:gsub('class="divergent"', ""))
  t.ok(nd > 0 and crosses > 0 and crosses <= 2 * nd,
       string.format("svg: %d divergent crosses for %d divergent draws "
                     .. "(trace and cloud)", crosses, nd))
  t.ok(doc:find('class="contours"', 1, true)
       and doc:find("cloud x2,x1 over a log p slice", 1, true)
       and doc:find("rhat, chains pooled", 1, true),
       "svg: the chosen cloud over a slice's contours, the pooled R-hat")
end

t.done()
