-- scripts/muon.lua -- Muon with the Newton-Schulz quintic vs the exact
-- polar factor.
--
-- Claim (Jordan et al., "Muon: an optimizer for hidden layers in neural
-- networks", 2024): Muon steps along the
-- orthogonalised momentum, the polar factor U V' of M = U S V'.  Five
-- steps of the tuned Newton-Schulz quintic (a, b, c) = (3.4445, -4.7750,
-- 2.0315) do not orthogonalise exactly -- they push the singular values
-- into a band around 1 (roughly [0.7, 1.2]), so ||O'O - I||_F stays of
-- order 1 -- yet the loss curve is about the same as with the exact polar
-- factor from an SVD (error at rounding level).
--
-- Setting: matlsq{} (1/2 ||X W - Y||_F^2, W 32 x 16, f* = 0) and lowrank{}
-- (1/2 ||U V' - M||_F^2), muon{lr, polar = "ns" | "svd"}, T steps; the
-- metric ortherr = ||O'O - I||_F of the last step's factor.  Then the
-- final loss and ortherr against the number of Newton-Schulz steps.
--
-- Usage: optlab scripts/muon.lua [iters] [lr]   (defaults 1000, 0.03)
local T = math.tointeger(tonumber(arg and arg[1]) or 1000)
local lr = tonumber(arg and arg[2]) or 0.03

local seed = 1
lesson.claim("five Newton-Schulz steps do not orthogonalise Muon's momentum "
      .. "(||O'O - I||_F stays of order 1, against rounding level for the "
      .. "exact polar factor), yet the final loss is within 3x of the exact "
      .. "factor's and below 1% of the start")
print(string.format("muon lr %g, mu 0.95 (nesterov), %d steps", lr, T))
print(string.format("  %-8s %-5s %12s %12s %12s", "problem", "polar",
                    "loss x0", "final loss", "ortherr"))
local final, ok = {}, true
for _, pn in ipairs{"matlsq", "lowrank"} do
  local p = problem[pn]{}
  final[pn] = {}
  for _, pol in ipairs{"ns", "svd"} do
    local r = run(p, optim.muon{lr = lr, polar = pol},
                  {iters = T, seed = seed, metrics = {"loss", "ortherr"},
                   progress = false, view = false})
    final[pn][pol] = r:last("loss")
    local oe = r:last("ortherr")
    ok = ok and r:last("loss") < 1e-2 * (r:series("loss"))[1]
      and (pol == "ns" and oe > 1e-3 or pol == "svd" and oe < 1e-10)
    print(string.format("  %-8s %-5s %12.4g %12.4g %12.3g", pn, pol,
                        (r:series("loss"))[1], r:last("loss"),
                        r:last("ortherr")))
  end
  local ratio = final[pn].ns / final[pn].svd
  ok = ok and ratio > 1 / 3 and ratio < 3
  print(string.format("  %s final loss ratio ns/svd %.3f", pn, ratio))
end

print()
print("matlsq: Newton-Schulz steps k")
print(string.format("  %-4s %12s %12s", "k", "final loss", "ortherr"))
local p = problem.matlsq{}
for _, k in ipairs{1, 2, 3, 5, 8} do
  local r = run(p, optim.muon{lr = lr, polar = "ns", ns_steps = k},
                {iters = T, seed = seed, metrics = {"loss", "ortherr"},
                 progress = false, view = false})
  print(string.format("  %-4d %12.4g %12.3g", k, r:last("loss"),
                      r:last("ortherr")))
end
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(problem.matlsq{}, {optim.muon{lr = lr, polar = "ns"},
                                optim.muon{lr = lr, polar = "svd"}},
            {iters = T, seed = seed, metrics = {"loss", "ortherr"},
             watch = {"loss", "ortherr"}})
lesson.verdict(string.format("%s (loss ratios ns/svd %.3f matlsq, %.3f "
                    .. "lowrank; ortherr > 1e-3 with Newton-Schulz, < 1e-10 "
                    .. "with the SVD; seed %d)", ok and "holds"
                    or "does not hold", final.matlsq.ns / final.matlsq.svd,
                    final.lowrank.ns / final.lowrank.svd, seed))
