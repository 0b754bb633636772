-- tests/extend/check.lua -- run by tests/extend/run.sh with the optlab
-- built in a scratch copy of the tree to which the example plug-ins of
-- tests/extend/ were added (an optimizer, a sampler, a game dynamic, a
-- problem, a metric and a panel kind): each is known to help() and the
-- name lists, and does what its file says.  TAP.
local t = dofile("tests/lib/tap.lua")
local SEED = 20231
t.diag("seed " .. SEED)

local function quiet (o)
  o.progress, o.view = false, false
  return o
end

-- what f() writes with io.write (help's output)
local function captured (f, ...)
  local buf, w = {}, io.write
  io.write = function (...)
    for _, s in ipairs({...}) do buf[#buf + 1] = tostring(s) end
    return io.stdout
  end
  local ok, err = pcall(f, ...)
  io.write = w
  assert(ok, err)
  return table.concat(buf)
end

local function has (list, name)
  for _, v in ipairs(list) do if v == name then return true end end
  return false
end

-- (1) the names reach help() and the lists
t.ok(captured(help, optim):find("signgd", 1, true), "help(optim) lists signgd")
t.ok(captured(help, sample):find("rwfixed", 1, true),
     "help(sample) lists rwfixed")
t.ok(captured(help, game):find("dampbr", 1, true), "help(game) lists dampbr")
t.ok(captured(help, problem):find("sphere", 1, true),
     "help(problem) lists sphere")
t.ok(has(metrics(), "xnorm"), "metrics() lists xnorm")
t.ok(captured(help, "metrics"):find("xnorm", 1, true),
     "help(\"metrics\") documents xnorm")
t.ok(captured(help, optim.signgd):find("lr", 1, true),
     "help(optim.signgd) shows its parameter lr")

-- (2) the optimizer on the problem: signgd moves each coordinate of x0 =
-- ones by lr per step, so after 1/lr = 100 steps each is within lr of 0
-- and stays there: f <= n lr^2 / 2 = 2.5e-4 at n = 5 (f(x0) = 2.5)
local n, lr = 5, 0.01
local r = run(problem.sphere{n = n}, optim.signgd{lr = lr},
              quiet{iters = 200})
local tol = n * lr * lr / 2 * (1 + 1e-9)
t.ok(r:last("loss") <= tol, string.format("signgd on sphere{n=5}, lr = "
     .. "0.01, 200 steps: loss %.3g <= n lr^2/2 = %.3g (from 2.5)",
     r:last("loss"), tol))
t.is(r:last("subopt"), r:last("loss"), "sphere: f* = 0 (subopt = loss)")

-- (3) the sampler: the mean of its draws on gauss2d (mu = (1, -1)) within
-- 5 Monte Carlo standard errors (batch means) of the truth
do
  local N, B, mu = 20000, 500, {1, -1}
  local s = run(problem.gauss2d{}, sample.rwfixed{scale = 1},
                quiet{iters = N, seed = SEED, cap = 65536, record_x = true})
  local rows = s:traj()
  t.is(#rows >= N, true, string.format("rwfixed: %d draws recorded", #rows))
  for j = 1, 2 do
    local nb, bm, am = N // B, {}, 0
    for b = 1, nb do
      local sm = 0
      for k = #rows - N + (b - 1) * B + 1, #rows - N + b * B do
        sm = sm + rows[k][j]
      end
      bm[b] = sm / B
      am = am + bm[b] / nb
    end
    local sv = 0
    for b = 1, nb do sv = sv + (bm[b] - am)^2 end
    local mcse = math.sqrt(sv / (nb - 1) / nb)
    t.ok(math.abs(am - mu[j]) <= 5 * mcse, string.format("rwfixed on "
         .. "gauss2d: mean of x%d %.4f, truth %g, within 5 MCSE = %.4f", j,
         am, mu[j], 5 * mcse))
  end
  local acc = s:last("accept")
  t.ok(acc > 0.2 and acc < 0.9, string.format("rwfixed: acceptance %.3f "
       .. "in (0.2, 0.9)", acc))
end

-- (4) the game dynamic on rock-paper-scissors: the average strategy's
-- exploitability falls from that of x0 below 0.02 (a = 0.05: the
-- iterates circle the equilibrium at a distance O(a), their average
-- closer)
do
  local g = run(problem.rps{}, game.dampbr{a = 0.05}, quiet{iters = 2000})
  local e = g:last("exploitability_avg")
  t.ok(e < 0.02, string.format("dampbr on rps, a = 0.05, 2000 steps: "
       .. "exploitability_avg %.3g < 0.02", e))
end

-- (5) the metric: xnorm as recorded equals ||x_t||_2 computed here from the
-- recorded trajectory, at every recorded time
do
  local q = run(problem.quadratic{n = 4, cond = 10}, optim.gd{lr = 0.1},
                quiet{iters = 60, metrics = {"loss", "xnorm"},
                      record_x = true})
  local v, tv = q:series("xnorm")
  local rows, tx = q:traj()
  local at, worst, cmp = {}, 0, 0
  for k = 1, #tx do at[tx[k]] = rows[k] end
  for k = 1, #v do
    local x = at[tv[k]]
    if x then
      local s = 0
      for i = 1, #x do s = s + x[i] * x[i] end
      worst = math.max(worst, math.abs(v[k] - math.sqrt(s)))
      cmp = cmp + 1
    end
  end
  t.ok(cmp == #v and cmp > 10 and worst <= 1e-12, string.format("xnorm "
       .. "= ||x_t||_2 at all %d recorded times (of %d), largest "
       .. "difference %.3g <= 1e-12", cmp, #v, worst))
end

-- (6) the panel kind: a text plot and an SVG with a hist panel carry its
-- title
do
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write([[
local r = run(problem.quadratic{n = 50}, optim.gd{lr = 0.5},
              {iters = 30, progress = false, view = false})
r:plot{text = true, watch = {"loss", "hist"}}
r:plot{file = arg[1], watch = {"hist"}}
]])
  f:close()
  local svg = tmp .. ".svg"
  local p = io.popen("LANG=C LC_ALL= ./optlab " .. tmp .. " " .. svg)
  local out = p:read("a")
  local okk = p:close()
  t.ok(okk and out:find("hist of x: 50 coordinates", 1, true),
       "hist: the text plot shows the panel with its title")
  t.ok(out:find("#", 1, true), "hist: the text plot draws bars")
  local sf = io.open(svg)
  local text = sf and sf:read("a") or ""
  if sf then sf:close() end
  t.ok(text:find('data-kind="hist"', 1, true)
       and text:find("hist of x: 50 coordinates", 1, true)
       and text:find('class="bin"', 1, true),
       "hist: the SVG has the panel, its title and its bars")
  os.remove(tmp)
  os.remove(svg)
end

t.done()
