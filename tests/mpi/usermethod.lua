-- tests/mpi/usermethod.lua -- methods written in Lua in bulk operations
-- (issue 24), for tests/mpi/usermethod.t: a repeats of a Lua heavy ball
-- on a noisy problem, a sweep over its lr and 4 chains of a Lua random-walk
-- Metropolis; the CSV files written to the directory arg[1].
local dir = arg[1]
optim.new{name = "hb", params = {lr = {default = 0.01, min = 0},
                                 mu = {default = 0.9, min = 0, max = 1,
                                       max_open = true}},
  init = function (s, x) s.g, s.d = {}, {}
    for i = 1, #x do s.d[i] = 0 end end,
  step = function (s, x, o, p)
    local g, d = s.g, s.d
    o:stochastic_grad(x, g)
    for i = 1, #x do d[i] = p.mu * d[i] - p.lr * g[i]; x[i] = x[i] + d[i] end
  end}
sample.new{name = "mh", params = {scale = {default = 1, min = 0, min_open = true}},
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
local q = problem.quadratic{n = 6, cond = 30, seed = 2,
                            noise = {kind = "gauss", sigma = 0.1}}
local rp = repeats(q, optim.hb{lr = 0.05}, {iters = 200, seed = 5}, 8)
rp:save(dir .. "/repeats.csv")
print(rp)
local sw = sweep(q, optim.hb, {lr = {0.01, 0.02, 0.05, 0.1}}, {iters = 100})
sw:save(dir .. "/sweep.csv")
print(sw)
local c = run(problem.gauss2d{}, sample.mh{}, {iters = 2000, chains = 4,
              seed = 9, progress = false})
c:save_draws(dir .. "/mh.csv")
print(c)
