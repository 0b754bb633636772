-- tests/lua/diffusion.lua -- the diffusion samplers through the binary:
-- problem.gmm and problem.tokens, the run option samples, r:samples(),
-- the default metrics, and the numbers of the demos
-- scripts/diffusion_steps.lua and scripts/masked_mi.lua.
--
-- Truth: in 1-D ddpm's kl and tv at 200 steps below their sampling
-- floors (stated below) and above them at 3 steps; masked's KL is exact (0 for mi = 0 to 1e-12, mi at T = 1); the
-- gmm samplers' checks against closed forms are in tests/c/t_diffusion.c;
-- here the demos' claims: the TV-vs-steps slope of DDIM and DDPM with
-- the exact score in [-1.5, -0.5] (2 targets, seeds 11, 12, 13 in the
-- script) and the 32-step TV rising with score_error 0, 0.25, 0.5;
-- masked KL <= B_T, = mi at T = 1.
local t = dofile("tests/lib/tap.lua")
local SEED = 5
t.diag("seed " .. SEED)

local p = problem.gmm{means = {{-2, 0}, {2, 0}}, weights = {1, 3},
                      covs = {{0.5}, {0.25}}}
local r = run(p, diffusion.ddpm{steps = 50}, {samples = 300, seed = SEED,
                                               progress = false,
                                               view = false})
local s = r:samples()
t.ok(#s == 300 and #s[1] == 2, "ddpm: samples = 300 gives r:samples() of "
     .. "300 rows of 2 (" .. #s .. ")")
t.ok(r:last("kl") ~= nil and r:last("tv") ~= nil and r:last("modeweights")
     ~= nil, "ddpm: records kl, tv, modeweights by default")
local shares = r.shares
t.ok(#shares == 2 and math.abs(shares[1] + shares[2] - 1) < 1e-12,
     "ddpm: r.shares sums to 1 (" .. shares[1] .. " + " .. shares[2] .. ")")
t.ok(not pcall(run, problem.mixture{}, diffusion.sde{}, {progress = false,
                                                       view = false}),
     "sde: refuses problem.mixture (not a gmm)")
t.ok(not pcall(run, p, optim.gd{}, {samples = 10, progress = false,
                                    view = false}),
     "samples: refused for a method without particles")

-- 1-D: the grid of 64 bins; the plug-in kl's bias is about (occupied
-- bins - 1) / 2N < 0.008 here, tv's sampling error about 0.03
local p1 = problem.gmm{means = {{-2}, {2}}, weights = {1, 3},
                       covs = {{0.3}, {0.5}}}
local function at (k)
  return run(p1, diffusion.ddpm{steps = k}, {samples = 4000, seed = SEED,
                                            progress = false, view = false})
end
local r200, r3 = at(200), at(3)
t.ok(r200:last("kl") < 0.02 and r200:last("tv") < 0.06,
     string.format("ddpm 1-D: kl %.4f < 0.02, tv %.4f < 0.06 at 200 steps",
                   r200:last("kl"), r200:last("tv")))
t.ok(r3:last("kl") > r200:last("kl") and r3:last("tv") > r200:last("tv"),
     string.format("ddpm 1-D: kl %.4f, tv %.4f at 3 steps, above", r3:last("kl"),
                   r3:last("tv")))
local p3 = problem.gmm{means = {{0, 0, 0}, {3, 3, 3}}}
local r3d = run(p3, diffusion.sde{steps = 20}, {samples = 200, seed = SEED,
                                                 progress = false,
                                                 view = false})
t.ok(r3d:last("kl") ~= r3d:last("kl") and r3d:last("w2") == r3d:last("w2"),
     "sde 3-D: kl is NaN above 2-D (no grid), w2 is defined")

-- a race keeps each sampler's own metrics (kl, entropy are probes)
local rs = race(problem.gmm{}, {diffusion.ddpm{steps = 10},
                                diffusion.ddim{steps = 10}},
                {samples = 200, seed = SEED, progress = false, view = false})
t.ok(rs[1]:last("kl") > 0 and rs[2]:last("entropy") == rs[2]:last("entropy")
     and #rs[2]:samples() == 200, "race: ddpm and ddim record their kl and "
     .. "entropy, samples = 200 each")

local z = problem.tokens{L = 3, V = 4, mi = 0}
local rz = run(z, diffusion.masked{steps = 2}, {progress = false,
                                                view = false})
t.ok(math.abs(rz:last("kl")) <= 1e-12, "masked: KL = 0 for independent "
     .. "tokens (" .. rz:last("kl") .. ")")
local q = problem.tokens{L = 3, V = 4, mi = 0.7}
local r1 = run(q, diffusion.masked{steps = 1}, {progress = false,
                                                view = false})
t.ok(math.abs(r1:last("kl") - 0.7) < 1e-10, "masked: KL = mi at T = 1 ("
     .. r1:last("kl") .. ")")

-- the demos' numbers (their prints silenced)
local pr = print
print = function () end
arg = {}
local ds = dofile("scripts/diffusion_steps.lua")
local mm = dofile("scripts/masked_mi.lua")
print = pr
local rows, good = 0, true
for _, inst in ipairs{"ring2d", "mix1d"} do
  for _, r in ipairs(ds[inst]) do
    rows = rows + 1
    good = good and r.points >= 3 and r.slope >= -1.5 and r.slope <= -0.5
      and r.eps[1] < r.eps[2] and r.eps[2] < r.eps[3]
  end
end
t.ok(rows == 12 and good, "diffusion_steps: 12 slopes (2 targets, ddim "
     .. "and ddpm, 3 seeds) in [-1.5, -0.5] over >= 3 steps above the "
     .. "floor, the 32-step TV rising with score_error 0, 0.25, 0.5")
good = #mm == 48
for _, r in ipairs(mm) do
  good = good and r.kl <= r.bound + 1e-12 and r.kl * r.T <= r.I + 1e-12
    and (r.T > 1 or math.abs(r.kl - r.mi) < 1e-9)
    and ((r.mi > 0 and r.T < r.L) or r.kl < 1e-12)
end
t.ok(good, "masked_mi: 48 exact KLs (L = 6, V = 2, 3), each below its "
     .. "bound B_T and KL * T <= I, KL = mi at T = 1, 0 for mi = 0 and at T = L")
t.done()
