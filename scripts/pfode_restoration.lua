-- scripts/pfode_restoration.lua -- the probability-flow ODE's step as a
-- restoration followed by a degradation (diffusion.rd), against the ODE's
-- own solvers (pfode Euler and Heun) and DDIM, with the exact score.
--
-- Claim (Chen, Daras & Dimakis 2023, "Restoration-degradation beyond
-- linear diffusions", abstract; seed B009): "one step along the
-- probability flow ODE can be expressed as two steps: 1) a restoration
-- step that runs gradient ascent on the conditional log-likelihood at
-- some infinitesimally previous time, and 2) a degradation step that runs
-- the forward process using noise pointing back towards the current
-- iterate."
--
-- diffusion.rd (core/diffusion/rd.c) takes exactly these two steps: from
-- the noise level sigma it restores to the level sigma_r = restore sigma'
-- (Tweedie's posterior mean of the earlier state, one gradient-ascent step
-- with the forward transition's variance A = sigma^2 - sigma_r^2) and
-- degrades to sigma' with the noise that carries the restored point back
-- to the current one.  Composed, the step moves x/s by c grad log p, c =
-- A - sqrt(A (A - D)) = D/2 + D^2 / (8 A) + ..., D = sigma^2 - sigma'^2,
-- while the flow moves it by D/2 grad log p: a first-order step of the
-- PF-ODE as long as A stays away from 0.  restore = 0 (restore to the
-- data's conditional mean) is DDIM, which is also pfode's Euler step in
-- sigma.
--
-- Measure.  All samplers start from the same particles (one seed) and the
-- ODE is deterministic, so each particle's output can be compared with
-- the exact flow's transport of the same start, taken as Heun with 1024
-- steps (its own error below 1e-4 here): err = mean_i ||x_i - y_i|| over
-- the particles, which bounds W1(sampler's law, flow's law) (the coupling
-- through the start) and has no histogram floor, unlike a binned TV.  (The
-- root mean square, a W2 bound, is printed too; it is not fitted: a
-- particle near the ridge between two modes may follow the other mode,
-- an O(1) error for a fraction O(h) of the particles, which the mean sees
-- as O(h) but the root mean square as O(sqrt h).)  Thresholds, from the
-- theory:
--  * identities: rd with restore = 0, ddim (eta = 0) and pfode euler give
--    the same particles to 1e-9.
--  * rate: the log-log slope of err against the steps (16 .. 256) is in
--    [-1.25, -0.75] for the first-order steps (ddim = euler, rd with
--    restore 0.5) and in [-2.5, -1.5] for Heun (second order), fitted on
--    the last four step counts (64 .. 256 for rd 0.5, whose D / A is
--    largest at few steps).
--  * the horizon: err grows as the restoration's horizon shrinks (the
--    D^2 / (8 A) term): ddim < rd 0.5 < rd 0.9 at every step count.
-- Each at 3 seeds on 2 targets: problem.gmm's 2-D ring of 8 modes (T28)
-- and a 2-D mixture of 3 unequal, anisotropic modes.  Then, on the ring
-- with 8 steps, the two half-steps' mean lengths (the metrics
-- restoration and degradation): the restoration pulls far towards the
-- data's conditional mean, the degradation puts nearly all of it back
-- as noise, and the step is their small difference.
local seeds = {11, 12, 13}
local steps = {16, 32, 64, 128, 256}
local N, REF = 400, 1024

local ring = problem.gmm()
local three = problem.gmm{means = {{-2, 0}, {1.5, 1}, {0.5, -2.5}},
                          covs = {{0.6, 0.1}, {0.1, 0.8}, {0.05, 0.3}},
                          weights = {0.5, 0.3, 0.2}}
local insts = {{name = "ring8", p = ring}, {name = "three", p = three}}

local function samples (p, m, seed)
  local r = run(p, m, {samples = N, seed = seed, progress = false,
                       view = false, metrics = {}})
  return r:samples()
end

-- the mean distance, the root mean square distance and the largest
-- coordinate difference between two sets of particles, row for row
local function dist (x, y)
  local m, s, w = 0, 0, 0
  for i = 1, #x do
    local r = 0
    for j = 1, #x[i] do
      local d = x[i][j] - y[i][j]
      r, w = r + d * d, math.max(w, math.abs(d))
    end
    m, s = m + math.sqrt(r), s + r
  end
  return m / #x, math.sqrt(s / #x), w
end

local sams = {
  {key = "ddim", lo = -1.25, hi = -0.75, from = 1,
   make = function (k) return diffusion.ddim{steps = k} end},
  {key = "rd0.5", lo = -1.25, hi = -0.75, from = 2,
   make = function (k) return diffusion.rd{steps = k, restore = 0.5} end},
  {key = "rd0.9", make = function (k)
     return diffusion.rd{steps = k, restore = 0.9} end},
  {key = "heun", lo = -2.5, hi = -1.5, from = 2,
   make = function (k) return diffusion.pfode{steps = k, solver = "heun"}
   end},
}

lesson.claim("\"one step along the probability flow ODE can be expressed "
             .. "as two steps: 1) a restoration step that runs gradient "
             .. "ascent on the conditional log-likelihood at some "
             .. "infinitesimally previous time, and 2) a degradation step "
             .. "that runs the forward process using noise pointing back "
             .. "towards the current iterate\" (Chen, Daras & Dimakis "
             .. "2023, abstract)")
local ok, res, idmax = true, {}, 0
local range = {}
for _, I in ipairs(insts) do
  res[I.name] = {}
  for _, seed in ipairs(seeds) do
    local ref = samples(I.p, diffusion.pfode{steps = REF, solver = "heun"},
                        seed)
    -- identities at 32 steps
    local a = samples(I.p, diffusion.rd{steps = 32, restore = 0}, seed)
    local b = samples(I.p, diffusion.ddim{steps = 32}, seed)
    local c = samples(I.p, diffusion.pfode{steps = 32}, seed)
    local id = math.max(select(3, dist(a, b)), select(3, dist(b, c)))
    idmax = math.max(idmax, id)
    ok = ok and id <= 1e-9
    local errs = {}
    for _, S in ipairs(sams) do
      local e, line = {}, ""
      for q, k in ipairs(steps) do
        local rms
        e[q], rms = dist(samples(I.p, S.make(k), seed), ref)
        line = line .. string.format(" %d:%.4g(%.3g)", k, e[q], rms)
      end
      errs[S.key] = e
      local out = string.format("%s seed %d %-5s err(rms) at steps%s", I.name,
                                seed, S.key, line)
      if S.lo then
        local xs, ys = {}, {}
        for q = S.from, #steps do xs[#xs + 1], ys[#ys + 1] = steps[q], e[q] end
        local s = lesson.slope(xs, ys)
        local good = s >= S.lo and s <= S.hi
        ok = ok and good
        range[S.key] = range[S.key] or {math.huge, -math.huge}
        range[S.key][1] = math.min(range[S.key][1], s)
        range[S.key][2] = math.max(range[S.key][2], s)
        out = out .. string.format("; slope %.3f over %d..%d (%s [%g, %g])",
                                   s, steps[S.from], steps[#steps],
                                   good and "in" or "NOT in", S.lo, S.hi)
      end
      print(out)
    end
    local order = true
    for q = 1, #steps do
      order = order and errs.ddim[q] < errs["rd0.5"][q]
        and errs["rd0.5"][q] < errs["rd0.9"][q]
    end
    ok = ok and order
    print(string.format("%s seed %d: rd restore 0 = ddim = pfode euler to "
                        .. "%.2g; ddim < rd 0.5 < rd 0.9 at every step "
                        .. "count: %s", I.name, seed, id,
                        order and "yes" or "NO"))
    res[I.name][#res[I.name] + 1] = {seed = seed, errs = errs, id = id,
                                     order = order}
  end
end

-- the two half-steps on the ring, 8 steps, 2000 particles
print("half-steps on ring8, 8 steps, seed 11 (mean lengths over the "
      .. "particles; ratio = degradation / restoration):")
local half, rlo, rhi, rlast = {}, math.huge, -math.huge, 0
for _, rs in ipairs{0, 0.5} do
  local r = run(ring, diffusion.rd{steps = 8, restore = rs},
                {samples = 2000, seed = seeds[1], progress = false,
                 view = false, metrics = {"restoration", "degradation"}})
  local rv, it = r:series("restoration")
  local dv = r:series("degradation")
  half[rs] = {}
  for q = 1, #rv do
    if it[q] >= 1 then
      half[rs][#half[rs] + 1] = {rv[q], dv[q]}
      print(string.format("  restore %.1f  step %d  restoration %.4f  "
                          .. "degradation %.4f  ratio %.3f", rs, it[q],
                          rv[q], dv[q], dv[q] / rv[q]))
    end
  end
  local h = half[rs]
  local r1, r8 = h[1][2] / h[1][1], h[#h][2] / h[#h][1]
  local good = r1 >= 0.9 and r1 <= 1.1 and r8 < 0.1
  ok = ok and good
  rlo, rhi, rlast = math.min(rlo, r1), math.max(rhi, r1), math.max(rlast, r8)
  print(string.format("  restore %.1f: ratio %.3f at the first step (in "
                      .. "[0.9, 1.1]: %s), %.3f at the last (below 0.1: "
                      .. "%s)", rs, r1, r1 >= 0.9 and r1 <= 1.1 and "yes"
                      or "NO", r8, r8 < 0.1 and "yes" or "NO"))
end

-- on a terminal, the sampler shown live with its two half-steps
lesson.show(ring, {diffusion.rd{steps = 32, restore = 0.5},
                   diffusion.ddim{steps = 32}},
            {samples = 2000, seed = seeds[1],
             watch = {"restoration", "degradation"}})
lesson.verdict(string.format("%s (rd with restore = 0 = ddim = pfode euler "
                    .. "to %.2g; err slopes ddim [%.3f, %.3f] and rd 0.5 "
                    .. "[%.3f, %.3f] against [-1.25, -0.75], heun [%.3f, "
                    .. "%.3f] against [-2.5, -1.5]; ddim < rd 0.5 < rd 0.9 "
                    .. "at every step count: the composition is a first-"
                    .. "order step of the flow, best when it restores all "
                    .. "the way to the data; the degradation puts back "
                    .. "%.3f..%.3f of the restoration's length at the first "
                    .. "of 8 steps, at most %.3f at the last; 2 targets, "
                    .. "seeds %d, %d, %d)",
                    ok and "holds" or "does not hold", idmax,
                    range.ddim[1], range.ddim[2], range["rd0.5"][1],
                    range["rd0.5"][2], range.heun[1], range.heun[2],
                    rlo, rhi, rlast, seeds[1], seeds[2], seeds[3]))
return {res = res, half = half}
