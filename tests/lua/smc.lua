-- tests/lua/smc.lua -- problem.ssm and the SMC smoothers smc.paris and
-- smc.ppg through the binary: constructors, ranges and refusals, the
-- results and metrics a run keeps, stochastic volatility (no closed
-- form: PaRIS at large N and a long PPG chain must agree), and the
-- numbers of scripts/paris_ppg.lua.  The statistical checks against the
-- Kalman/RTS truth are in tests/c/t_smc.c.
-- Seeds are fixed in the runs (printed).
local t = dofile("tests/lib/tap.lua")
local abs, sqrt = math.abs, math.sqrt
t.diag("seeds 1..40 (runs), 1 and 2 (data)")

-- (1) constructors, ranges and refusals
t.errors("T", function () return problem.ssm{T = 0} end)
t.errors("Q", function () return problem.ssm{Q = 0} end)
t.errors("R", function () return problem.ssm{R = -1} end)
t.errors("phi", function () return problem.ssm{kind = "sv", phi = 1} end)
t.errors("sigma", function () return problem.ssm{kind = "sv", sigma = 0} end)
t.errors("lg|sv", function () return problem.ssm{kind = "ar"} end)
t.errors("Ntilde", function () return smc.paris{Ntilde = 0} end)
t.errors("N", function () return smc.paris{N = 0} end)
t.errors("N", function () return smc.ppg{N = 1} end)
t.errors("burnin", function () return smc.ppg{burnin = -1} end)
t.errors("sum|sumsq|cross", function () return smc.paris{h = "max"} end)
t.errors("Ntilde", function () return smc.paris{Ntide = 2} end)
t.errors("density", function ()
  return run(problem.quadratic{}, smc.paris{}, {iters = 1, progress = false})
end)
t.errors("problem.ssm", function ()
  return run(problem.gauss2d{}, smc.ppg{}, {iters = 1, progress = false})
end)

-- (2) given data, results and metrics
local y = {0.3, -1.2, 0.8, 2.1, 1.7}
local p = problem.ssm{y = y, F = 0.5}
local r = run(p, smc.paris{N = 200}, {iters = 4, seed = 1, progress = false})
t.is(#r.x, 5, "ssm{y = 5 values}: T = 5, x has 5 entries")
t.ok(r.truth[1] == r.truth[1] and r.kalman[1] < 0, "paris: r.truth "
     .. r.truth[1] .. ", r.kalman " .. r.kalman[1])
local s, l, e = r:series("smooth"), r:series("loglik"), r:series("pfess")
t.ok(abs(s[#s] - r.truth[1]) < 1 and abs(l[#l] - r.kalman[1]) < 0.5
     and e[#e] > 0 and e[#e] <= 1, string.format("paris N = 200 on 5 "
     .. "points: smooth %.4f (truth %.4f), loglik %.4f (Kalman %.4f), "
     .. "pfess %.3f", s[#s], r.truth[1], l[#l], r.kalman[1], e[#e]))
local rp = run(p, smc.ppg{N = 8, h = "sumsq"}, {iters = 3, seed = 1,
                                                progress = false})
t.ok(rp.sweep[1] == rp.sweep[1] and rp.truth[1] > 0, "ppg: r.sweep "
     .. rp.sweep[1] .. ", r.truth (sumsq) " .. rp.truth[1])
-- the run's own methods are not hidden by a method's results
t.is(type(rp.last), "function", "ppg: r.last is the run's method")
t.ok(type(rp:last("smooth")) == "number" and
     type(rp.sweep[1]) == "number", "ppg: r:last('smooth') = "
     .. rp:last("smooth") .. " and r.sweep = " .. rp.sweep[1])
t.errors("loglik", function ()
  return run(p, smc.ppg{}, {iters = 1, metrics = {"loglik"},
                            progress = false})
end)

-- (3) stochastic volatility: PaRIS N = 2000 (mean of 10 passes) and PPG
-- N = 32 (4 chains of 150 sweeps, burnin 10) estimate the same E[sum x_t
-- | y]; both have standard errors from their replicates, and they must
-- agree within 4 combined se plus PaRIS's bias bound (its N = 100 bias,
-- measured, over 20).
local sv = problem.ssm{kind = "sv", T = 60, seed = 2}
local function ms (v)
  local m, q = 0, 0
  for _, x in ipairs(v) do m = m + x end
  m = m / #v
  for _, x in ipairs(v) do q = q + (x - m) ^ 2 end
  return m, sqrt(q / (#v - 1) / #v)
end
local a = run(sv, smc.paris{N = 2000}, {iters = 10, seed = 3,
                                        progress = false})
local va = a:series("smooth")
table.remove(va, 1)
local ma, sa = ms(va)
local vb = {}
for c = 1, 4 do
  local b = run(sv, smc.ppg{N = 32, burnin = 10},
                {iters = 150, seed = 10 + c, progress = false})
  local sb = b:series("smooth")
  vb[c] = sb[#sb]
end
local mb, sb = ms(vb)
t.ok(abs(ma - mb) < 4 * sqrt(sa ^ 2 + sb ^ 2) + 0.05 * abs(ma),
     string.format("sv: PaRIS N = 2000 %.4f (se %.4f) and PPG N = 32 %.4f "
                   .. "(se %.4f) agree", ma, sa, mb, sb))

t.done()
