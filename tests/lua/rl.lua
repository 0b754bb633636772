-- tests/lua/rl.lua -- the RL family through the binary: problem.stopping,
-- problem.inventory and problem.rlvr, rl.pg, rl.dynpg, rl.grpo and
-- rl.qae, their metrics, errors, and the numbers of the demos
-- scripts/dynpg_stopping.lua and scripts/qae_entropy.lua.
--
-- Truth computed here in Lua:
--   - stopping's V* by the threshold recursion c_h = mean max(price,
--     c_{h+1}) (f* = -V*), and V^pi of the uniform start policy by
--     V_h = price / 2 + c'_{h+1} / 2, so the first gap is V* - V^pi(x0);
--   - entropy at the start: log 2 for stopping; for rlvr the mean over
--     queries of the entropy of softmax(x0) block by block; pass1 =
--     1 - gap on rlvr (V* = 1) and at the start the mean of the start pass
--     rates (q - 1/2) / Q that rlvr's header states;
--   - rl.pg's exact steps are optim.gd's on the same objective;
--   - the demos' verdicts and numbers (dynpg needs fewer gradient steps
--     than pg; grpo's entropy collapses, qae K = 0.8 stays above 60%; the
--     zero fraction follows its closed form).
-- Seeds are fixed in the runs (printed).
local t = dofile("tests/lib/tap.lua")
local abs, log, exp = math.abs, math.log, math.exp
t.diag("seeds 1 (runs), 3 (qae_entropy)")

-- (1) constructors, ranges and refusals
t.errors("H", function () return problem.stopping{H = 0} end)
t.errors("K", function () return rl.qae{K = 1} end)
t.errors("verifiable%-reward", function ()
  return run(problem.stopping{}, rl.grpo{}, {iters = 1, progress = false})
end)
t.errors("MDP", function ()
  return run(problem.rosenbrock{}, rl.pg{}, {iters = 1, progress = false})
end)
t.errors("tol > 0 or steps > 0", function ()
  return run(problem.stopping{}, rl.dynpg{tol = 0}, {iters = 1,
                                                      progress = false})
end)
t.errors("gap", function ()
  return run(problem.stopping{}, optim.gd{}, {iters = 1, metrics = {"gap"},
                                              progress = false})
end)

-- (2) stopping: V*, the start's gap and entropy
local H, K = 6, 5
local p = problem.stopping{H = H, K = K}
local c, cu = 0, 0
for h = H - 1, 0, -1 do
  local n, nu = 0, 0
  for s = 1, K do
    n = n + math.max(s / K, c) / K
    nu = nu + (s / K / 2 + cu / 2) / K
  end
  c, cu = n, nu
end
t.near(p.fstar, -c, 1e-14, "stopping: f* = -V* of the threshold recursion")
local r = run(p, rl.pg{lr = 2}, {iters = 200, seed = 1, progress = false})
t.is(table.concat(r:metrics(), " "), "entropy gap dentropy_pred dentropy",
     "rl.pg: records entropy, gap and the entropy changes by default")
t.near(r:series("gap")[1], c - cu, 1e-14, "rl.pg: the first gap is V* - "
       .. "V^pi of the uniform policy")
t.near(r:series("entropy")[1], log(2), 1e-15, "rl.pg: entropy at x0 = 0 "
       .. "is log 2")
t.ok(r:last("gap") < r:series("gap")[1] and r:last("entropy") < log(2),
     "rl.pg: 200 steps lower the gap and the entropy")
local g = run(p, optim.gd{lr = 2}, {iters = 200, progress = false})
local same = true
for i = 1, p.n do
  if abs(g.x[i] - r.x[i]) > 1e-12 * (1 + abs(r.x[i])) then same = false end
end
t.ok(same, "rl.pg (exact) takes optim.gd's steps on -V^pi")
t.near(g:last("subopt"), r:last("gap"), 1e-12, "optim.gd's subopt is "
       .. "rl.pg's gap")

-- (3) REINFORCE lowers the gap too (no oracle call)
local rr = run(problem.stopping{H = 3, K = 3},
               rl.pg{estimator = "reinforce", samples = 64, lr = 1},
               {iters = 300, seed = 1, progress = false})
t.ok(rr:last("gap") < 0.5 * rr:series("gap")[1] and rr.ngev == 0,
     string.format("rl.pg reinforce: gap %.3g -> %.3g in 300 steps, %d "
                   .. "gradient calls", rr:series("gap")[1], rr:last("gap"),
                   rr.ngev))

-- (4) dynpg converges stage by stage
local d = run(p, rl.dynpg{lr = 1000, tol = 1e-6}, {iters = 100000,
                                                   progress = false})
t.is(d.reason, "converged", "rl.dynpg: stops when every stage is trained")
t.ok(d:last("gap") <= H * K * 1e-6, "rl.dynpg: gap " .. d:last("gap")
     .. " <= H S tol")

-- (5) inventory: the optimum of Puterman's instance
local inv = problem.inventory{}
t.near(inv.fstar, -67 / 16, 1e-13, "inventory: V* = 67/16 from an empty "
       .. "store (Puterman 1994)")
local ri = run(inv, rl.pg{lr = 0.5}, {iters = 3000, progress = false})
t.ok(ri:last("gap") < 1e-2, "rl.pg on inventory: gap " .. ri:last("gap")
     .. " < 1e-2 in 3000 steps")

-- (6) rlvr: entropy and pass1 at the start, pass1 = 1 - gap
local Q, M = 8, 6
local q = problem.rlvr{queries = Q, responses = M, seed = 2}
local x0, hs, ps = q.x0, 0, 0
for k = 0, Q - 1 do
  local m = -math.huge
  for a = 1, M do m = math.max(m, x0[k * M + a]) end
  local z, ez = 0, 0
  for a = 1, M do
    local w = exp(x0[k * M + a] - m)
    z = z + w
    ez = ez + w * (x0[k * M + a] - m)
  end
  hs = hs + log(z) - ez / z
  ps = ps + (k + 0.5) / Q
end
local rq = run(q, rl.qae{K = 0.6}, {iters = 50, seed = 1, progress = false})
t.is(table.concat(rq:metrics(), " "),
     "entropy gap dentropy_pred dentropy zeroadv zeroadv_pred pass1",
     "rl.qae: records its group metrics by default")
t.near(rq:series("entropy")[1], hs / Q, 1e-14, "rlvr: entropy at x0 = the "
       .. "mean of the queries' softmax entropies")
t.near(rq:series("pass1")[1], ps / Q, 1e-13, "rlvr: pass1 at x0 = the mean "
       .. "of the stated start pass rates")
t.near(rq:last("pass1"), 1 - rq:last("gap"), 1e-14, "rlvr: pass1 = 1 - gap")
t.near(q.fstar, -1, 0, "rlvr: f* = -1")

-- (7) the demos
local function script (name)
  local f = assert(io.popen("./optlab --no-tui scripts/" .. name
                            .. ".lua 2>&1"))
  local out = f:read("a")
  f:close()
  return out
end
local out = script("dynpg_stopping")
local rmin = tonumber(out:match("smallest (%S+) > 2"))
t.ok(out:find("verdict: holds", 1, true) and rmin and rmin > 2,
     string.format("dynpg_stopping: pg / dynpg steps to gap <= 1e-3, each "
                   .. "at its best step size, at least %s > 2 (the "
                   .. "grid's factor) at every start and horizon", rmin))
out = script("qae_entropy")
local ge, qe = out:match("grpo's end entropy at most (%d+)%% of Hs, qae K "
                         .. "= 0.8's never below (%d+)%%")
local zlo, zhi = out:match("closed form (%d%.%d+) .. (%d%.%d+) at K = 0.4")
ge, qe, zlo, zhi = tonumber(ge), tonumber(qe), tonumber(zlo), tonumber(zhi)
t.ok(out:find("verdict: holds", 1, true) and ge and ge < 50 and qe
     and qe > 50, string.format("qae_entropy: grpo's entropy ends at most "
                                .. "at %s%% of Hs, qae K = 0.8's never "
                                .. "below %s%% (threshold 50%%)", ge, qe))
t.ok(zlo and zhi and zlo >= 0.74 and zhi <= 0.8 + 1e-12, "qae_entropy: "
     .. "zero-advantage closed form " .. tostring(zlo) .. " .. "
     .. tostring(zhi) .. " in [0.74, 0.80] at the start for K = 0.4, 0.6")
local n = 0
for d1, se in out:gmatch("([%+%-]%d%.%d+) %((%d%.%d+)%)\n") do
  n = n + 1
  t.ok(abs(tonumber(d1)) <= 4 * math.sqrt(3) * tonumber(se), "qae_entropy: "
       .. "run-long zeroadv - zeroadv_pred " .. d1 .. " within 4 se of one "
       .. "seed (" .. se .. " sqrt 3)")
end
t.is(n, 15, "qae_entropy: five methods on three instances compared to "
     .. "the closed form")
t.done()
