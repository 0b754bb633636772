-- tests/lua/sweep.lua -- repeats() and sweep() (lua/sweep.lua).
--
-- Quantiles against hand-computed values (a deterministic run whose final
-- loss is known in closed form, and type-7 interpolation on a hand-made
-- list); repeats with noise: R distinct values, byte-identical reruns,
-- stream k = run with stream k; sweep: grid order, the known best step
-- size of gradient descent on a 1-D quadratic with L = 1; argument errors.
local t = dofile("tests/lib/tap.lua")

local SEED = 7
t.diag("seed " .. SEED)

-- == repeats: deterministic problem ==========================================
-- gd with lr = 1/2 on f = x^2/2 (quadratic n = 1, L = 1) from x0 = 1:
-- x_k = 2^-k, so after 10 steps loss = 2^-21 exactly, for every stream.
local quad1 = problem.quadratic{n = 1}
local q = repeats(quad1, optim.gd{lr = 0.5}, {iters = 10, seed = SEED}, 4)
t.is(#q.runs, 4, "repeats: R runs")
t.is(q.R, 4, "repeats: q.R")
t.is(q.seed, SEED, "repeats: q.seed is the seed given")
t.is(q:quantile("loss", 0), 2^-21, "repeats: min of a deterministic loss")
t.is(q:quantile("loss", 0.5), 2^-21, "repeats: median = 2^-21 exactly")
t.is(q:quantile("loss", 1), 2^-21, "repeats: max = 2^-21")
t.is(q:quantile("dist", 0.9), 2^-10, "repeats: 90% of dist = 2^-10")
do
  local same = true
  for k = 1, 4 do
    if q.runs[k].iter ~= 10 or q.runs[k].reason ~= "budget" then
      same = false
    end
  end
  t.ok(same, "repeats: every run uses the options (10 iterations)")
end

-- == quantiles on hand-made values ===========================================
-- Type 7: h = (R-1) p + 1; sorted {1, 2, 3, 4, 5, 10}:
--   p = 0.1: h = 1.5 -> 1.5;  p = 0.5: h = 3.5 -> 3.5;
--   p = 0.9: h = 5.5 -> 7.5;  p = 0.25: h = 2.25 -> 2.25;  p = 1 -> 10.
do
  local vals = {5, 1, 4, 10, 2, 3}
  local fake = {}
  for i, v in ipairs(vals) do
    fake[i] = {
      last = function (_, m) return m == "loss" and v or 0 end,
      metrics = function () return {"loss"} end,
    }
  end
  local h = setmetatable({runs = fake, R = #fake, seed = 1},
                         getmetatable(q))
  t.is(h:quantile("loss", 0.1), 1.5, "quantile: type 7 at p = 0.1")
  t.is(h:quantile("loss", 0.25), 2.25, "quantile: type 7 at p = 0.25")
  t.is(h:quantile("loss", 0.5), 3.5, "quantile: median of an even count")
  t.is(h:quantile("loss", 0.9), 7.5, "quantile: type 7 at p = 0.9")
  t.is(h:quantile("loss", 1), 10, "quantile: p = 1 is the max")
  t.is(h:quantile("loss", 0), 1, "quantile: p = 0 is the min")
  local v = h:values("loss")
  t.ok(#v == 6 and v[1] == 5 and v[4] == 10,
       "values: in run order, not sorted")
  -- a NaN (diverged run) sorts last
  fake[7] = {last = function () return 0 / 0 end,
             metrics = function () return {"loss"} end}
  h.R = 7
  t.is(h:quantile("loss", 0.5), 4, "quantile: NaN sorts after the others")
  local top = h:quantile("loss", 1)
  t.ok(top ~= top, "quantile: the max of a set with NaN is NaN")
end

-- == repeats with noise ======================================================
local noisy = problem.quadratic{n = 2, noise = {kind = "gauss", sigma = 0.1}}
local R = 8
local q1 = repeats(noisy, optim.gd{lr = 0.5}, {iters = 50, seed = SEED}, R)
local q2 = repeats(noisy, optim.gd{lr = 0.5}, {iters = 50, seed = SEED}, R)
do
  local v1, v2 = q1:values("loss"), q2:values("loss")
  local seen, distinct, same = {}, 0, true
  for i = 1, R do
    if not seen[v1[i]] then distinct = distinct + 1 end
    seen[v1[i]] = true
    if v1[i] ~= v2[i] then same = false end
  end
  t.is(#v1, R, "repeats: one final value per run")
  t.is(distinct, R, "repeats: independent streams give R distinct values")
  t.ok(same, "repeats: a rerun gives identical final values")
  t.is(tostring(q1), tostring(q2), "repeats: a rerun prints the same")
  local r3 = run(noisy, optim.gd{lr = 0.5}, {iters = 50, seed = SEED,
                                              stream = 3, progress = false,
                                              view = false})
  t.is(q1.runs[4]:last("loss"), r3:last("loss"),
       "repeats: run k + 1 is the run with stream k")
  local q3 = repeats(noisy, optim.gd{lr = 0.5}, {iters = 50, seed = SEED + 1},
                     R)
  t.ok(q3:values("loss")[1] ~= v1[1], "repeats: another seed, other values")
  -- the quantiles of q1 from its values, computed here
  local s = {}
  for i = 1, R do s[i] = v1[i] end
  table.sort(s)
  local h = (R - 1) * 0.1 + 1
  local want = s[1] + (h - 1) * (s[2] - s[1])
  t.near(q1:quantile("loss", 0.1), want, 1e-15 * math.abs(want),
         "repeats: 10% quantile from the sorted values")
  t.is(q1:quantile("loss", 0.5), (s[4] + s[5]) / 2,
       "repeats: median of 8 values is the mean of the middle two")
  local text = tostring(q1)
  t.ok(text:find("seed " .. SEED, 1, true) and text:find("median", 1, true)
       and text:find("90%", 1, true) and text:find("loss", 1, true)
       and text:find("8 runs", 1, true),
       "repeats: tostring shows the seed, R and the quantile columns")
  local mn = string.format("%.3g", s[1])
  t.ok(text:match("\n  loss +" .. mn:gsub("%.", "%%.") .. " "),
       "repeats: the loss row starts with the min " .. mn)
end

-- == sweep ===================================================================
-- gd on f = x^2/2 (L = 1): x_k = (1 - lr)^k; lr = 1 solves it in one step,
-- 0.1 and 1.9 contract by 0.9 per step, 2.5 diverges (|1 - lr| = 1.5).
local s = sweep(quad1, optim.gd, {lr = {0.1, 1, 1.9, 2.5}}, {iters = 20})
t.is(#s.runs, 4, "sweep: one run per grid value")
do
  local best, r = s:best("loss")
  t.is(best and best.lr, 1, "sweep: lr = 1 is the best step size for L = 1")
  t.is(r and r:last("loss"), 0, "sweep: lr = 1 reaches the minimum exactly")
  local v = s:values("loss")
  t.near(v[1], 0.5 * 0.9 ^ 40, 1e-15, "sweep: lr = 0.1 loss 0.9^40 / 2")
  t.near(v[3], 0.5 * 0.9 ^ 40, 1e-15, "sweep: lr = 1.9 loss 0.9^40 / 2")
  t.ok(v[4] > 1e6, "sweep: lr = 2.5 diverges (loss " .. v[4] .. ")")
  t.ok(s.runs[1].seed == 1 and s.configs[2].lr == 1,
       "sweep: configs in the order given")
end
do
  local s2 = sweep(quad1, optim.momentum, {mu = {0, 0.5}, lr = {0.1, 0.2}},
                   {iters = 5})
  local order = {}
  for i, c in ipairs(s2.configs) do
    order[i] = c.lr .. "/" .. c.mu
    if s2.runs[i].method.lr ~= c.lr or s2.runs[i].method.mu ~= c.mu then
      order[i] = "mismatch"
    end
  end
  t.is(table.concat(order, " "), "0.1/0 0.1/0.5 0.2/0 0.2/0.5",
       "sweep: cartesian product, names sorted, first name slowest")
  local text = tostring(s2)
  local rows = 0
  for _ in text:gmatch("\n  %d") do rows = rows + 1 end
  t.is(rows, 4, "sweep: tostring has one row per configuration")
  t.ok(text:find("lr", 1, true) and text:find("mu", 1, true)
       and text:find("reason", 1, true), "sweep: tostring names the columns")
end

-- == errors ==================================================================
local gd = optim.gd{lr = 0.1}
t.errors("argument 1 must be a problem", repeats, nil, gd, {}, 3)
t.errors("argument 2 must be a method", repeats, quad1, optim.gd, {}, 3)
t.errors("R = 0 is out of range", repeats, quad1, gd, {}, 0)
t.errors("must be an integer", repeats, quad1, gd, {}, 2.5)
t.errors("R = 9.22337e+18 is out of range [1, 9223372036854775807]",
         repeats, quad1, gd, {}, 2^63)
t.errors("must be an integer", repeats, quad1, gd, {})
t.errors("option 'stream' is set by repeats", repeats, quad1, gd,
         {stream = 2}, 3)
t.errors("options must be a table", repeats, quad1, gd, 5, 3)
t.errors("unknown option", repeats, quad1, gd, {iterz = 5}, 2)
t.errors("metric 'nope' was not recorded",
         function () q:quantile("nope", 0.5) end)
t.errors("p = 1.5 is out of range [0, 1]",
         function () q:quantile("loss", 1.5) end)
t.errors("argument 1 must be a problem", sweep, gd, optim.gd, {lr = {1}})
t.errors("argument 2 must be a method constructor", sweep, quad1, gd,
         {lr = {1}})
t.errors("argument 2 must be a method constructor", sweep, quad1,
         problem.quadratic, {lr = {1}})
t.errors("unknown parameter 'mu' of optim.gd (valid: lr)", sweep, quad1,
         optim.gd, {mu = {1}})
t.errors("grid.lr must be a non-empty list", sweep, quad1, optim.gd,
         {lr = {}})
t.errors("grid is empty", sweep, quad1, optim.gd, {})
t.errors("grid (argument 3) must be a table", sweep, quad1, optim.gd, 0.1)
t.errors("out of range", sweep, quad1, optim.gd, {lr = {-1}})
t.errors("metric 'nope' was not recorded", function () s:best("nope") end)

-- == help ====================================================================
do
  local out = {}
  local write = io.write
  io.write = function (...)
    for i = 1, select("#", ...) do
      out[#out + 1] = tostring((select(i, ...)))
    end
  end
  help(repeats)
  help(sweep)
  help("sweep")
  io.write = write
  local text = table.concat(out)
  t.ok(text:find("repeats(problem, method, opts, R)", 1, true),
       "help(repeats) shows its usage")
  local _, n = text:gsub("sweep%(problem, ctor, grid, opts%)", "")
  t.is(n, 2, "help(sweep) and help(\"sweep\") show its usage")
end

-- a repeats whose first three tasks fail alike stops there (the others
-- differ only in their stream); a sweep's failures are kept, each with
-- its configuration
do
  local ok, msg = pcall(repeats, problem.rps{}, game.rmplus{},
                        {iters = 10, x0 = {1, 2, 3, 4, 5}}, 100)
  t.ok(not ok and tostring(msg):find("repeats: tasks 1 to 3 failed alike, "
       .. "so the other 97 were not run: run: x0 has 5 entries", 1, true),
       "sweep.lua: repeats stops after three like failures (" ..
       tostring(msg) .. ")")
  local lrs = {}
  for k = 1, 12 do lrs[k] = -k end
  lrs[13] = 0.1
  local sw = sweep(problem.quadratic{}, optim.gd, {lr = lrs}, {iters = 5})
  t.ok(#sw.runs == 1 and #sw.missing == 12 and sw.missing[12].task == 12
       and sw.missing[12].desc == "lr = -12",
       "sweep.lua: a sweep keeps its 12 failed configurations, each named")
end
t.done()
