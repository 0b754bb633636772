-- scripts/funnel.lua -- Neal's funnel: divergences tell of a geometry the
-- sampler cannot follow, and a reparameterization removes them.
--
-- Claim (Betancourt & Girolami, "Hamiltonian Monte Carlo for Hierarchical
-- Models", 2013; Neal, "Slice sampling", 2003): in the centred funnel
-- v ~ N(0, 9), x_i ~ N(0, e^v), the neck (v << 0) is too narrow for any
-- one step size, so NUTS diverges there and under-explores it: its sd of
-- v falls short of 3.  The non-centred form (standard normals u, v = 3 u_1,
-- x_i = e^(v/2) u_i) has no funnel: no divergences, and v's sd is 3.
--
-- Usage: optlab scripts/funnel.lua
local seed = 3
local function fit (p)
  local c = run(p, sample.nuts{}, {iters = 2000, chains = 4, seed = seed,
                                   progress = false})
  local s = c:summary()[1]
  return c:stats().divergences, s.sd, s.mcse, s.rhat
end
lesson.claim("the centred funnel makes NUTS diverge and miss the neck "
      .. "(sd of v < 3); the non-centred form does not")
local dc, sc, _, rc = fit(problem.funnel{n = 10})
local dn, sn, _, rn = fit(problem.funnel{n = 10, noncentered = true})
print(string.format("centred      divergences %4d   sd(v) %.3f   rhat(v) %.3f",
                    dc, sc, rc))
print(string.format("non-centred  divergences %4d   sd(v) %.3f   rhat(v) %.3f",
                    dn, sn, rn))
local ok = dc > 0 and dn == 0 and math.abs(sn - 3) < 0.3 and sc < sn
lesson.verdict(string.format("%s (centred %d divergences, sd(v) %.3f; "
                    .. "non-centred %d, sd(v) %.3f within 0.3 of 3; seed %d, "
                    .. "4 chains of 2000 draws after 1000 warmup)",
                    ok and "holds" or "does not hold", dc, sc, dn, sn, seed))
