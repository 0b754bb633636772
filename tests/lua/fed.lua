-- tests/lua/fed.lua -- problem.fedquad, dist.fedavg, dist.scaffold and
-- dist.asgd through the binary: constructors, defaults, metrics, x axis,
-- misuse, and the numbers of scripts/fedavg_momentum.lua.
--
-- Truth:
--   - fedquad's clients are its workers (p.workers.n, participation as
--     given) and p.xstar is x*_j = sum_w h_wj cbar_wj / sum_w h_wj with
--     h_wj = cond^-(((w + j) mod W) / (W - 1)), cbar_wj = 2 het cos(2 pi w
--     / W + j), recomputed here;
--   - a dist run records drift, consensus and rounds by default, rounds
--     = the iteration count, and plots against xaxis = "rounds";
--   - fedavg on problem.workers of fsquad runs on those shards, and with
--     heterogeneity 0 of fedquad (equal optima) FedAvg has no bias;
--   - the demo: FedAvg's and FedAvgM's distances to x* equal the closed
--     form (1e-6), client momentum's ratio bias / (beta * bias) within
--     [0.9, 1.1] for every beta, SCAFFOLD's below 1e-10.
-- Seeds: the runs' default seed 1; the demo names its seed.
local t = dofile("tests/lib/tap.lua")
local abs, cos, pi, sqrt = math.abs, math.cos, math.pi, math.sqrt
t.diag("seed 1 (the runs' default)")

-- (1) fedquad
do
  local W, d, cond, het = 5, 3, 20, 0.7
  local p = problem.fedquad{n = d, workers = W, per = 4, cond = cond,
                            heterogeneity = het, participation = 0.4}
  t.is(p.workers.n, W, "fed: fedquad's clients are its workers")
  t.near(p.workers.participation, 0.4, 0, "fed: fedquad's participation")
  local worst = 0
  for j = 0, d - 1 do
    local num, den = 0, 0
    for w = 0, W - 1 do
      local h = cond ^ (-(((w + j) % W) / (W - 1)))
      num, den = num + h * 2 * het * cos(2 * pi * w / W + j), den + h
    end
    worst = math.max(worst, abs(p.xstar[j + 1] - num / den))
  end
  t.ok(worst < 1e-14, "fed: fedquad's x* from the header's formulas ("
       .. worst .. ")")
  t.errors("heterogeneity", function () problem.fedquad{heterogeneity = 2} end)
end

-- (2) a run's metrics, x axis and participation
do
  local p = problem.fedquad{n = 2, workers = 6, participation = 0.5}
  local r = run(p, dist.fedavg{K = 4, lr = 0.1}, {iters = 25, progress = false})
  local have = {}
  for _, m in ipairs(r:metrics()) do have[m] = true end
  t.ok(have.drift and have.consensus and have.rounds and have.loss,
       "fed: fedavg records loss, drift, consensus and rounds by default")
  t.is(r:last("rounds"), 25, "fed: rounds counts the rounds")
  t.ok(r:last("drift") > 0 and r:last("consensus") > 0
       and r:last("consensus") <= r:last("drift") + 1e-15,
       "fed: consensus (spread around ybar) <= drift (around x), both > 0")
  local ok = pcall(function ()
    local s = r:series("rounds")
    assert(s[#s] == 25)
  end)
  t.ok(ok, "fed: the rounds series ends at 25")
  local tmp = os.tmpname()
  r:plot{xaxis = "rounds", file = tmp}
  local fh = assert(io.open(tmp))
  local svg = fh:read("a")
  fh:close()
  os.remove(tmp)
  t.is(svg:match('class="xlabel">([^<]*)</text>'), "communication rounds",
       "fed: r:plot{xaxis = \"rounds\"} labels its x axis by rounds")
  local a = run(p, dist.scaffold{}, {iters = 10, progress = false})
  local b = run(p, dist.asgd{speeds = "random"}, {iters = 50,
                                                  progress = false})
  t.ok(a:last("rounds") == 10 and b:last("rounds") == 50 and
       b:last("consensus") >= 0, "fed: scaffold and asgd run and count "
       .. "their rounds")
end

-- (3) problem.workers on another finite sum; no bias without heterogeneity
do
  local q = problem.fsquad{N = 60, d = 3, noise = {kind = "none"}}
  problem.workers(q, {n = 3, heterogeneity = 1, seed = 2})
  local r = run(q, dist.fedavg{K = 3, lr = 0.2}, {iters = 20,
                                                  progress = false})
  local loss = r:series("loss")
  t.ok(loss[#loss] < 0.5 * loss[1] and q.workers.n == 3,
       "fed: fedavg on problem.workers(fsquad, 3 workers) lowers the loss "
       .. "(" .. loss[1] .. " -> " .. loss[#loss] .. ")")
  local p = problem.fedquad{n = 2, workers = 4, heterogeneity = 0}
  local x = run(p, dist.fedavg{K = 10, lr = 0.1}, {iters = 2000,
                                                   progress = false}).x
  t.ok(abs(x[1] - p.xstar[1]) + abs(x[2] - p.xstar[2]) < 1e-10,
       "fed: heterogeneity 0 (equal client optima): fedavg reaches x*")
end

-- (4) misuse
do
  t.errors("finite", function ()
    run(problem.rosenbrock{}, dist.fedavg{}, {iters = 1, progress = false})
  end)
  t.errors("momentum", function () dist.fedavg{momentum = 1} end)
  t.errors("speeds", function () dist.asgd{speeds = "slow"} end)
end

-- (5) the demo's numbers
do
  local f = assert(io.popen("./optlab --no-tui scripts/fedavg_momentum.lua "
                            .. "2>&1"))
  local out = f:read("a")
  f:close()
  local function rowof (name)
    local a, b = out:match(name:gsub("%p", "%%%0") .. "%s+([%d.e+-]+)%s+"
                           .. "([%d.e+-]+)")
    return tonumber(a), tonumber(b)
  end
  local g0, w0 = rowof("fedavg ")
  local gm, wm = rowof("fedavg server momentum 0.9")
  local gs = rowof("scaffold ")
  t.ok(g0 and abs(g0 - w0) <= 1e-6 * w0 and abs(gm - wm) <= 1e-6 * wm
       and g0 > 0.1, "fed: fedavg_momentum: FedAvg and FedAvgM stall at the "
       .. "closed-form bias " .. tostring(w0))
  local okr = true
  for v in (out:match("beta %* fedavg's bias%) = ([%d., ]+)") or ""):gmatch(
      "[%d.]+") do
    okr = okr and tonumber(v) >= 0.9 and tonumber(v) <= 1.1
  end
  t.ok(okr and out:find("beta * fedavg's bias) = ", 1, true),
       "fed: fedavg_momentum: client momentum's bias ~ beta times FedAvg's "
       .. "(ratios within [0.9, 1.1])")
  t.ok(gs and gs < 1e-10, "fed: fedavg_momentum: SCAFFOLD at x* ("
       .. tostring(gs) .. ")")
  t.ok(out:find("verdict: holds", 1, true) ~= nil,
       "fed: fedavg_momentum: verdict holds")
end

t.done()
