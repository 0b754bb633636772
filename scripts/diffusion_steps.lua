-- scripts/diffusion_steps.lua -- deterministic vs stochastic diffusion
-- samplers with the exact score: the error falls with the number of
-- steps down to a floor set by the score's error.
--
-- Claim (Chen et al. 2023, "Sampling is as easy as learning the score";
-- Song, Meng & Ermon 2021): with an exact score the sampler's error comes
-- from the time discretization alone and falls as the steps grow; an
-- L2 score error eps adds a floor that more steps do not remove,
-- separating the learning error from the discretization error.  Here the
-- target is problem.gmm's 2-D ring of 8 modes; DDIM (eta = 0,
-- deterministic) against DDPM (ancestral, stochastic); TV of 3000
-- particles' histogram against the exact bin masses (32 x 32 grid; with
-- exact samples its own floor is about 0.12 at this size).  The floor at
-- 100 steps rises with the score error: eps / 2, then eps.
--
-- Usage: optlab scripts/diffusion_steps.lua [eps]   (default 0.5)
local eps = tonumber(arg and arg[1]) or 0.5
local p = problem.gmm{}
local seed = 11
local steps = {5, 10, 20, 50, 100}
local function tv (m, k, e)
  local r = run(p, diffusion[m]{steps = k, score_error = e},
                {samples = 3000, seed = seed, progress = false, view = false})
  return r:last("tv")
end
lesson.claim(string.format("TV to the target falls with the steps for DDIM "
                    .. "and DDPM with the exact score; a score error leaves "
                    .. "a floor that rises with it (%g, %g)", eps / 2, eps))
local res = {}
for _, m in ipairs{"ddim", "ddpm"} do
  res[m] = {exact = {}, noisy = {}}
  for i, k in ipairs(steps) do
    res[m].exact[i] = tv(m, k, 0)
    res[m].noisy[i] = tv(m, k, eps)
    print(string.format("%-5s steps %4d  tv %.4f  (score_error %g: %.4f)", m,
                        k, res[m].exact[i], eps, res[m].noisy[i]))
  end
end
for _, m in ipairs{"ddim", "ddpm"} do
  res[m].half = tv(m, 100, eps / 2)
  print(string.format("%-5s steps  100  floor: score_error 0 %.4f, %g %.4f, "
                      .. "%g %.4f", m, res[m].exact[5], eps / 2, res[m].half,
                      eps, res[m].noisy[5]))
end
print(string.format("note: with the score error the stochastic sampler's "
                    .. "floor is the lower (ddpm %.3f, ddim %.3f): its noise "
                    .. "damps the error the ODE carries along",
                    res.ddpm.noisy[5], res.ddim.noisy[5]))
local ok = true
for _, m in ipairs{"ddim", "ddpm"} do
  local e, n = res[m].exact, res[m].noisy
  ok = ok and e[#e] < 0.5 * e[1] and n[#n] > res[m].half
    and res[m].half > e[#e]
end
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(p, {diffusion.ddim{steps = 100}, diffusion.ddpm{steps = 100},
               diffusion.ddpm{steps = 100, score_error = eps}},
            {samples = 3000, seed = seed, watch = {"tv"}})
lesson.verdict(string.format("%s (100 steps: ddim %.3f, ddpm %.3f against "
                    .. "5 steps %.3f, %.3f; floor with score_error %g: "
                    .. "%.3f, %.3f, with %g: %.3f, %.3f; seed %d)",
                    ok and "holds" or "does not hold", res.ddim.exact[5],
                    res.ddpm.exact[5], res.ddim.exact[1], res.ddpm.exact[1],
                    eps / 2, res.ddim.half, res.ddpm.half, eps,
                    res.ddim.noisy[5], res.ddpm.noisy[5], seed))
return res
