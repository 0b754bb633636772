-- tests/lua/usermethod_families.lua -- game.new and sample.new (issue 24):
-- a Hedge (MWU) written in Lua gives game.mwu's iterates to 1e-12 and the
-- same game metrics (exploitability, regret, ccegap: computed by optlab
-- from the iterates and the payoff gradients the Lua step asked for); a
-- random-walk Metropolis written in Lua samples a 2-D Gaussian: four
-- chains, means within 4 MCSE of the truth, R-hat < 1.01, draws and
-- CmdStan CSV as for built-ins.  Truth: core/games/mwu.c's run; gauss2d's
-- exact moments (mean (1, -1), sds (1, 0.5)).
local t = dofile("tests/lib/tap.lua")
local SEED = 20261206
t.diag("seed " .. SEED)

-- == game.new: Hedge ========================================================
-- x_a <- x_a exp(lr u_a) / sum_b x_b exp(lr u_b) per player, u the payoff
-- gradient (core/games/mwu.c: the same update in the log domain)
game.new{name = "lmwu", doc = "Hedge in Lua",
  params = {lr = {default = 0.1, min = 0, min_open = true}},
  init = function (s, x, p, o) s.u, s.blocks = {}, o:blocks() end,
  step = function (s, x, o, p)
    local u = s.u
    o:payoff_grad(x, u)
    local off, eta = 0, p.lr * o:sched()
    for _, k in ipairs(s.blocks) do
      local hi, sum = -math.huge, 0
      for a = off + 1, off + k do hi = math.max(hi, eta * u[a]) end
      for a = off + 1, off + k do
        x[a] = x[a] * math.exp(eta * u[a] - hi)
        sum = sum + x[a]
      end
      for a = off + 1, off + k do x[a] = x[a] / sum end
      off = off + k
    end
  end}
do
  local g = problem.matrixgame{m = 3, n = 4, seed = 5, kind = "general"}
  local M = {"exploitability", "exploitability_avg", "regret", "ccegap"}
  local o = {iters = 300, record_x = true, metrics = M}
  local r1 = run(g, game.lmwu{lr = 0.1}, o)
  local r2 = run(g, game.mwu{lr = 0.1}, o)
  local a, b = r1:traj(), r2:traj()
  local m = #a == #b and 0 or math.huge
  for k = 1, #a do
    for i = 1, #a[k] do m = math.max(m, math.abs(a[k][i] - b[k][i])) end
  end
  t.diag("lmwu vs mwu: max |x diff| " .. m .. " over " .. #a .. " points")
  t.ok(m <= 1e-12 and #a == 301, "game.new: Lua Hedge equals game.mwu's "
       .. "iterates to 1e-12")
  for _, k in ipairs(M) do
    t.near(r1:last(k), r2:last(k), 1e-12, "game.new: " .. k
           .. " as game.mwu's (" .. string.format("%.4g", r2:last(k)) .. ")")
  end
  t.is(r1.ngev, r2.ngev, "game.new: payoff gradients counted as mwu's")
  t.ok(math.abs(r1.xavg[1] - r2.xavg[1]) <= 1e-12,
       "game.new: optlab keeps the average strategy")
  t.errors("game.new: step must be a function", game.new, {name = "nogame"})
  -- a game method on an objective is refused by the kind check
  local ok, err = pcall(run, problem.rosenbrock{}, game.lmwu{}, {iters = 1})
  t.ok(not ok and tostring(err):find("lmwu"), "game.new: a game method "
       .. "on an objective is refused: " .. tostring(err):gsub("\n.*", ""))
end

-- == sample.new: random-walk Metropolis =====================================
sample.new{name = "lrwmh", doc = "random-walk Metropolis in Lua",
  params = {scale = {default = 1, min = 0, min_open = true},
            warmup = {default = 0, min = 0}},
  init = function (s, x, p, o) s.y, s.lp = {}, o:logp(x) end,
  step = function (s, x, o, p)
    local rng, y = o:rng(), s.y
    for i = 1, #x do y[i] = x[i] + p.scale * rng:normal() end
    local ly = o:logp(y)
    local a = math.min(1, math.exp(ly - s.lp))
    if rng:uniform() < a then
      for i = 1, #x do x[i] = y[i] end
      s.lp = ly
    end
    return a
  end}
do
  local mu = {1, -1}
  local c = run(problem.gauss2d{}, sample.lrwmh{scale = 1},
                {iters = 20000, chains = 4, seed = SEED, progress = false,
                 view = false})
  t.is(c.chains, 4, "sample.new: four chains")
  local sum = c:summary()
  for j = 1, 2 do
    local r = sum[j]
    t.ok(math.abs(r.mean - mu[j]) <= 4 * r.mcse,
         string.format("sample.new: mean x[%d] %.4f within 4 MCSE (%.3g) of %g",
                       j, r.mean, r.mcse, mu[j]))
    t.ok(r.rhat < 1.01, string.format("sample.new: R-hat x[%d] %.4f < 1.01",
                                      j, r.rhat))
  end
  local d = c:draws()
  t.ok(#d == 4 and #d[1] == 20000, "sample.new: draws kept per chain")
  local files = c:save_draws(os.tmpname() .. ".csv")
  local f = files and io.open(files[1])
  local text = f and f:read("a") or ""
  if f then f:close() end
  t.ok(#files == 4 and text:find("lp__,accept_stat__", 1, true),
       "sample.new: CmdStan CSV written per chain")
  for _, name in ipairs(files) do os.remove(name) end
  -- the accept statistic is checked
  sample.new{name = "badacc", step = function () return 2 end}
  local r = run(problem.gauss2d{}, sample.badacc{}, {iters = 3,
                progress = false})
  t.ok(r.reason == "callback error" and
       r.message:find("accept statistic, a number in [0, 1]", 1, true),
       "sample.new: an accept statistic outside [0, 1] is named: "
       .. r.message)
  sample.new{name = "noacc", step = function () end}
  r = run(problem.gauss2d{}, sample.noacc{}, {iters = 3, progress = false})
  t.ok(r.message:find("got a nil", 1, true),
       "sample.new: a missing accept statistic is named")
  -- warmup: a parameter named warmup; lp__ from the third result
  sample.new{name = "lrwmh2",
    params = {warmup = {default = 50, min = 0}},
    init = function (s, x, p, o) s.y, s.lp, s.nw = {}, o:logp(x), 0 end,
    step = function (s, x, o, p)
      local _, inw = o:warmup()
      if inw then s.nw = s.nw + 1 end
      local rng, y = o:rng(), s.y
      for i = 1, #x do y[i] = x[i] + rng:normal() end
      local ly = o:logp(y)
      local a = math.min(1, math.exp(ly - s.lp))
      if rng:uniform() < a then
        for i = 1, #x do x[i] = y[i] end
        s.lp = ly
      end
      WARMUP_SEEN = s.nw
      return a, false, s.lp
    end}
  local cw = run(problem.gauss2d{}, sample.lrwmh2{}, {iters = 200, seed = 4,
                 progress = false})
  t.ok(WARMUP_SEEN == 50 and #cw:draws()[1] == 200,
       "sample.new: o:warmup() marks the method's 50 warmup steps; 200 "
       .. "draws kept after them")
  t.ok(tostring(cw):find("lp__", 1, true),
       "sample.new: the step's third result is lp__ in the summary")
  -- same seed, same draws
  local c1 = run(problem.gauss2d{}, sample.lrwmh{}, {iters = 500, seed = 3,
                 progress = false})
  local c2 = run(problem.gauss2d{}, sample.lrwmh{}, {iters = 500, seed = 3,
                 progress = false})
  t.is(c1:csv(), c2:csv(), "sample.new: same seed, same bytes")
end

t.done()
