-- tests/bench/stan.lua -- make bench: optlab's NUTS on the three
-- posteriordb posteriors against Stan (issue 11, "Against Stan").
--
-- Each posterior of ../shared/data/posteriordb/posteriors.lua is written
-- in Lua as a user writes a density for problem.new{kind = "density"}:
-- tests/bench/stan_densities.lua, one fdf(q, g) per posterior returning
-- the potential -log p on the unconstrained scale with Stan's Jacobians
-- and filling its gradient into g in place (the same log density as
-- posteriors.lua's logp_grad: tests/lua/density.lua), sampled by
-- sample.nuts{} at its defaults (warmup 1000,
-- delta 0.8, diagonal metric: Stan's defaults), and again with metric =
-- "dense", 4 chains of 1000 kept draws, one core,
-- for seeds 1..reps; measured, as the peer script measures Stan:
--   min bulk-ESS over the coordinates (pooled over the 4 chains),
--   gradient evaluations of all chains, warmup included (Stan's leapfrog
--   count, warmup + sample), and CPU seconds of the whole run, warmup
--   included (Stan's get_elapsed_time, warmup + sample; compilation
--   excluded);
-- then min bulk-ESS per 1000 gradients and per second, medians over the
-- seeds.  Last, the same at Stan's defaults on the reference
-- transcription's plain logp(q) (posteriors.lua), given to
-- problem.density without a gradient: traced into a tape (issue 15).  Stan's figures are read from the recorded peer run
-- (../shared/bench/peers/results/stan.txt, its SUMMARY lines: medians of
-- 3 seeds measured on this machine earlier with rstan 2.21, NUTS
-- defaults, 4 chains on one core), and the two ratios printed; ESS per
-- second only where the algebra is the same (NOTCOMPARABLE below).
--
-- Usage: optlab --no-tui tests/bench/stan.lua [reps] [peers dir]
local reps = tonumber(arg and arg[1]) or 3
local peers = arg and arg[2] or "../shared/bench/peers"
local P = dofile("../shared/data/posteriordb/posteriors.lua")
-- Posteriors whose densities here (the Lua one and the reference
-- transcription's logp alike) do less work per gradient than Stan's
-- program (why), so that their ESS per second is not compared with the
-- recorded Stan run: there is none on the same algebra.
local NOTCOMPARABLE = {
  kidiq = "both densities here sum the 434 data points into sufficient "
          .. "statistics once, Stan's program loops over them at every "
          .. "gradient",
}
local D = dofile("tests/bench/stan_densities.lua")

-- Stan's medians by posterior, from the SUMMARY lines.
local stan = {}
do
  local fh = io.open(peers .. "/results/stan.txt")
  if fh then
    for line in fh:lines() do
      local name = line:match("^SUMMARY (%S+) over")
      if name then
        stan[name] = {
          per_s = tonumber(line:match("ESS/s ([%d.]+)")),
          per_kgrad = tonumber(line:match("ESS per 1000 leapfrog ([%d.]+)")),
        }
      end
    end
    fh:close()
  end
end

local function median (t)
  local s = {}
  for i = 1, #t do s[i] = t[i] end
  table.sort(s)
  local m = #s
  return m % 2 == 1 and s[(m + 1) / 2] or 0.5 * (s[m / 2] + s[m / 2 + 1])
end

print(string.format("STAN optlab NUTS, density in Lua, 4 chains x (1000 "
                    .. "warmup + 1000 draws), %d seeds, CPU time", reps))
for _, post in ipairs(P) do
  local n, short = post.dim, post.name:match("^([^-]+)")
  local p = problem.new{n = n, kind = "density", x0 = post.init,
                        fdf = D[short](post.data)}
  -- min bulk-ESS per 1000 gradients and per second (medians over the
  -- seeds) of sample.nuts{metric = metric}, and the medians of min
  -- bulk-ESS, gradients and seconds
  local function measure (metric, pp)
    local kg, ps, es, gs, ts = {}, {}, {}, {}, {}
    for seed = 1, reps do
      local t0 = os.clock()
      local c = run(pp or p, sample.nuts{metric = metric},
                    {iters = 1000, chains = 4, seed = seed, progress = false})
      local secs = os.clock() - t0
      local s, ess, grads = c:summary(), math.huge, 0
      for j = 1, n do ess = math.min(ess, s[j].ess_bulk) end
      for k = 1, #c do grads = grads + c[k].ngev end
      es[seed], gs[seed], ts[seed] = ess, grads, secs
      kg[seed], ps[seed] = 1000 * ess / grads, ess / secs
    end
    return median(kg), median(ps), median(es), median(gs), median(ts)
  end
  local m_kg, m_ps, e_med, g_med, t_med = measure("diag")
  local d_kg, d_ps = measure("dense")
  -- where a gradient's time goes: the density's own Lua (fdf called from
  -- a Lua loop at the posterior's reference mean, less an empty call; the
  -- least of 5 timings of 0.05 s, as shared cores make single timings
  -- noisy), the rest being the bridge (lua/lproblem.c) and NUTS itself
  local fdf, q, g = D[short](post.data), {}, {}
  for i = 1, n do q[i], g[i] = post.ref_unconstrained.mean[i], 0 end
  local function percall (fn, m)
    local best = math.huge
    for _ = 1, 5 do
      local t0 = os.clock()
      for _ = 1, m do fn(q, g) end
      best = math.min(best, (os.clock() - t0) / m)
    end
    return best
  end
  local calls = math.max(100, math.floor(0.05 / percall(fdf, 100)))
  local empty = percall(function () return 0 end, calls)
  local body = percall(fdf, calls) - empty
  -- for comparison, the reference transcription (posteriors.lua's
  -- logp_grad, a new gradient table per call) behind a wrapper copying
  -- its negated gradient into g, as this benchmark had it before
  local logp_grad = post.logp_grad
  local ref = percall(function (qq, gg)
    local lp, gr = logp_grad(qq)
    for i = 1, n do gg[i] = -gr[i] end
    return -lp
  end, calls) - empty
  local pergrad = t_med / g_med
  print(string.format("STAN %-13s per gradient %.2f us: the density's Lua "
                      .. "%.2f us (the reference's logp_grad with a copy: "
                      .. "%.2f us), the bridge and NUTS %.2f us", short,
                      1e6 * pergrad, 1e6 * body, 1e6 * ref,
                      1e6 * (pergrad - body)))
  print(string.format("STAN %-13s optlab: min bulk-ESS %.0f, gradients %.0f, "
                      .. "%.3f s; min bulk-ESS per 1000 gradients %.2f, per "
                      .. "second %.0f (medians of %d)", short, e_med,
                      g_med, t_med, m_kg, m_ps, reps))
  local st = stan[short]
  if st and st.per_kgrad and st.per_s then
    -- per gradient the samplers compare whatever the density's algebra;
    -- per second only on equal algebra (NOTCOMPARABLE)
    local persec = NOTCOMPARABLE[short]
      and "ESS per second not comparable (" .. NOTCOMPARABLE[short] .. ")"
      or string.format("ESS per second %.2fx (target >= 1)",
                       m_ps / st.per_s)
    print(string.format("STAN %-13s Stan (recorded): per 1000 gradients "
                        .. "%.2f, per second %.0f; ratios optlab/Stan: ESS "
                        .. "per gradient %.2fx (target >= 0.8), %s", short,
                        st.per_kgrad, st.per_s, m_kg / st.per_kgrad, persec))
    -- Stan's baseline is its default diagonal metric; optlab's dense one
    -- (metric = "dense", also estimated in the warmup windows) beside it
    print(string.format("STAN %-13s optlab metric = dense: per 1000 "
                        .. "gradients %.2f, per second %.0f; ratios to "
                        .. "Stan's defaults %.2fx, %s", short, d_kg,
                        d_ps, d_kg / st.per_kgrad, NOTCOMPARABLE[short]
                        and "per second not comparable"
                        or string.format("%.2fx", d_ps / st.per_s)))
  else
    print(string.format("STAN %-13s no recorded Stan figures in %s/results/"
                        .. "stan.txt", short, peers))
  end
  -- the same posterior as a user writes it without a gradient: the
  -- reference transcription's logp (posteriors.lua), traced into a tape
  -- (issue 15), its gradient evaluated in C
  local pt = problem.density{n = n, logp = post.logp, x0 = post.init}
  if pt.ad.mode == "traced" then
    local t_kg, t_ps = measure("diag", pt)
    local x, best = post.ref_unconstrained.mean, math.huge
    for _ = 1, 5 do
      local t0 = os.clock()
      for _ = 1, calls do pt:eval(x) end
      best = math.min(best, (os.clock() - t0) / calls)
    end
    print(string.format("STAN %-13s traced logp (tape of %d ops, %.2f us a "
                        .. "gradient from Lua): per 1000 gradients %.2f, per "
                        .. "second %.0f%s", short, pt.ad.ops, 1e6 * best,
                        t_kg, t_ps, st and st.per_s and string.format(
                          "; ratios to Stan's defaults %.2fx, %s",
                          t_kg / st.per_kgrad, NOTCOMPARABLE[short]
                          and "per second not comparable"
                          or string.format("%.2fx", t_ps / st.per_s))
                          or ""))
  else
    print(string.format("STAN %-13s traced logp: not traced (%s)", short,
                        tostring(pt.ad.reason)))
  end
  pt:close()
end
