-- tests/lua/noise.lua -- the generic problem keys noise = {...} and l1 =
-- lambda: accepted forms, what they set (p.noise, p.l1, the composite
-- loss), their exact error messages, and that a constructor's own default
-- noise is overridden.  Truth: the definitions in core/problem.h; the
-- composite loss f + l1 ||x||_1 by hand at x0.
local t = dofile("tests/lib/tap.lua")
t.diag("seed 1")

-- accepted kinds and what p.noise reports
local p = problem.quadratic{n = 3, noise = {kind = "student", sigma = 2,
                                            nu = 5}}
t.is(p.noise.kind, "student", "noise: kind student")
t.is(p.noise.sigma, 2, "noise: sigma read")
t.is(p.noise.nu, 5, "noise: nu read")
p = problem.quadratic{n = 3, noise = {kind = "asym", sigma = 0.5}}
t.is(p.noise.kind, "asym", "noise: kind asym")
p = problem.quadratic{n = 3, noise = {sigma = 0.25}}
t.is(p.noise.kind, "gauss", "noise: kind defaults to gauss")
t.is(p.noise.sigma, 0.25, "noise: gauss sigma")
p = problem.quadratic{n = 3, cond = 4, noise = {kind = "aniso", sigma = 1,
                                                batch = 8}}
t.is(p.noise.kind, "aniso", "noise: kind aniso on a problem with a Hessian")
t.is(p.noise.batch, 8, "noise: aniso batch read")
t.is(problem.quadratic{n = 3}.noise, nil, "noise: none by default")
t.is(problem.quadratic{n = 3, noise = {kind = "none"}}.noise, nil,
     "noise: kind none")

-- errors: keys, kinds, orders, ranges
t.errors("problem.quadratic: unknown noise key 'sgima' (valid: kind, sigma, "
         .. "nu, batch, order, sigma0, sigma1)", problem.quadratic,
         {noise = {kind = "gauss", sgima = 1}})
t.errors("problem.quadratic: noise.kind = 'cauchy' (valid: none, gauss, "
         .. "aniso, student, asym, affine, batch)", problem.quadratic,
         {noise = {kind = "cauchy"}})
t.errors("problem.quadratic: noise.sigma = -1 is out of range [0, inf)",
         problem.quadratic, {noise = {sigma = -1}})
t.errors("problem.quadratic: noise.nu = 0 is out of range (0, inf)",
         problem.quadratic, {noise = {kind = "student", nu = 0}})
t.errors("problem.quadratic: noise.sigma must be a number, got a string",
         problem.quadratic, {noise = {sigma = "big"}})
t.errors("problem.quadratic: noise.batch = 2.5 must be an integer",
         problem.quadratic, {noise = {kind = "aniso", batch = 2.5}})
t.errors("problem.quadratic: noise must be a table", problem.quadratic,
         {noise = 1})
t.errors("problem.quadratic: noise kind \"batch\" needs a finite-sum problem "
         .. "(quadratic has no components)", problem.quadratic,
         {noise = {kind = "batch"}})
t.errors("problem.new: noise kind \"aniso\": bowl: anisotropic noise needs "
         .. "a Hessian; bowl has none", problem.new,
         {n = 2, name = "bowl", f = function (x) return x[1]^2 end,
          ad = false, noise = {kind = "aniso"}})
t.errors("problem.rosenbrock: noise kind \"aniso\": rosenbrock: Cholesky "
         .. "factorisation of the Hessian at x0 failed",
         problem.rosenbrock, {n = 2, x0 = {0, 1}, noise = {kind = "aniso"}})

-- finite sums: batch kind, orders, a constructor's default overridden
if problem.fsquad then
  local fs = problem.fsquad{N = 6, d = 2}
  t.ok(fs.noise and fs.noise.kind == "batch",
       "fsquad: its own default noise is batch")
  fs = problem.fsquad{N = 6, d = 2, noise = {batch = 3, order = "cyclic"}}
  t.ok(fs.noise.kind == "batch" and fs.noise.batch == 3
       and fs.noise.order == "cyclic",
       "noise: an omitted kind keeps the problem's batch kind")
  fs = problem.fsquad{N = 6, d = 2, noise = {kind = "gauss", sigma = 0.1}}
  t.is(fs.noise.kind, "gauss", "noise: the generic key overrides the "
       .. "constructor's default")
  for _, o in ipairs{"replace", "shuffle", "once", "cyclic", "grab"} do
    fs = problem.fsquad{N = 6, d = 2, noise = {kind = "batch", batch = 2,
                                               order = o}}
    local r = run(fs, optim.gd{lr = 0.1}, {iters = 20, seed = 1,
                                           progress = false})
    t.ok(r.reason == "budget" and r:last("loss") < r:series("loss")[1],
         "noise: batch order " .. o .. " runs and descends")
  end
  t.errors("problem.fsquad: noise.order = 'random' (valid: replace, "
           .. "shuffle, once, cyclic, grab)", problem.fsquad,
           {N = 6, noise = {kind = "batch", order = "random"}})
  t.errors("problem.fsquad: noise.batch = 7 is out of range [1, 6] "
           .. "(N = 6 components)", problem.fsquad,
           {N = 6, noise = {kind = "batch", batch = 7}})
else
  t.diag("problem.fsquad not built: finite-sum keys not checked")
end

-- l1: the composite loss f + l1 ||x||_1, with problem.new (f = 0.5 |x|^2)
local half = function (x) return 0.5 * (x[1]^2 + x[2]^2) end
local c = problem.new{n = 2, f = half, x0 = {3, -4}, l1 = 0.5}
t.is(c.l1, 0.5, "l1: p.l1 read")
local r = run(c, optim.gd{lr = 0.1}, {iters = 0, progress = false,
                                      metrics = {"loss", "kkt"}})
t.near(r:last("loss"), 12.5 + 0.5 * 7, 1e-9,
       "l1: the loss at x0 is f + l1 ||x||_1 = 16")
-- g = x (by differences), prox_0.5(x - g) = 0, so kkt = ||x0|| = 5
t.near(r:last("kkt"), 5, 1e-6, "l1: kkt is the prox-gradient mapping")
t.is(problem.quadratic{n = 2, l1 = 0.1}.l1, 0.1,
     "l1: a generic key of every problem type")
t.is(problem.quadratic{n = 2}.l1, 0, "l1: 0 by default")
t.errors("problem.quadratic: l1 = -1 is out of range [0, inf)",
         problem.quadratic, {l1 = -1})
t.errors("problem.quadratic: l1 must be a number, got a string",
         problem.quadratic, {l1 = "big"})

-- unavailable metrics are errors naming why
t.errors("run: nucnorm needs a matrix-shaped problem (quadratic is a plain "
         .. "vector)", run, problem.quadratic{n = 2}, optim.gd{},
         {iters = 1, metrics = {"nucnorm"}, progress = false})
t.errors("run: lrmax: gd has no effective learning rate", run,
         problem.quadratic{n = 2}, optim.gd{},
         {iters = 1, metrics = {"lrmax"}, progress = false})
t.errors("run: dist needs a known minimiser x* (bowl has none)", run,
         problem.new{n = 2, f = half, name = "bowl"}, optim.gd{},
         {iters = 1, watch = {"dist"}, progress = false})

-- affine variance (issue 27): its own keys sigma0, sigma1; sigma refused
p = problem.quadratic{n = 3, noise = {kind = "affine", sigma0 = 0.5,
                                      sigma1 = 2}}
t.ok(p.noise.kind == "affine" and p.noise.sigma0 == 0.5
     and p.noise.sigma1 == 2 and p.noise.sigma == nil,
     "noise: kind affine reports sigma0 and sigma1")
p = problem.quadratic{n = 3, noise = {kind = "affine"}}
t.ok(p.noise.sigma0 == 1 and p.noise.sigma1 == 1,
     "noise: affine defaults sigma0 = sigma1 = 1")
t.errors("problem.quadratic: noise kind \"affine\" reads sigma0 and sigma1, "
         .. "not sigma", problem.quadratic,
         {noise = {kind = "affine", sigma = 1}})
t.errors("problem.quadratic: noise.sigma0 = -1 is out of range [0, inf)",
         problem.quadratic, {noise = {kind = "affine", sigma0 = -1}})
t.errors("problem.quadratic: noise.sigma1 = inf is out of range [0, inf)",
         problem.quadratic, {noise = {kind = "affine", sigma1 = 1 / 0}})
t.errors("problem.quadratic: noise.sigma1 must be a number, got a string",
         problem.quadratic, {noise = {kind = "affine", sigma1 = "x"}})
-- decentralized methods draw it per node from the node's gradient: zero
-- scales give the noise-free run exactly, positive ones move it
do
  local function split (nz)
    local q = problem.fsquad{N = 40, d = 2, noise = nz}
    problem.workers(q, {n = 8, heterogeneity = 1, seed = 1})
    return q
  end
  local O = {iters = 50, seed = 3, progress = false, view = false}
  local r0 = run(split{kind = "none"}, dist.dsgd{lr = 0.05}, O)
  local rz = run(split{kind = "affine", sigma0 = 0, sigma1 = 0},
                 dist.dsgd{lr = 0.05}, O)
  local ra = run(split{kind = "affine", sigma0 = 1, sigma1 = 0.5},
                 dist.dsgd{lr = 0.05}, O)
  t.ok(rz.x[1] == r0.x[1] and rz.x[2] == r0.x[2]
       and ra.x[1] ~= r0.x[1], "noise: affine per node in dist.dsgd (zero "
       .. "scales = no noise, bit for bit; sigma0 = 1 moves the run)")
end
t.done()
