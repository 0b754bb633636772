-- tests/lua/demos4.lua -- the fourth batch of demos in scripts/ run
-- headless through the real binary and show their claims numerically.
-- Every script fixes its seeds, so the printed numbers are deterministic;
-- the tolerances below say how far from the theoretical value a number may
-- be before the claim is taken as not shown.
local t = dofile("tests/lib/tap.lua")

local function sh (cmd)
  local f = assert(io.popen(cmd .. " 2>&1"))
  local out = f:read("a")
  local ok, _, code = f:close()
  return out, ok and 0 or code
end

local function num (s) return tonumber(s) end

-- heavyball_noise: iterations to 1e-6 grow like kappa for gd (slope 1 +-
-- 0.2) and like sqrt(kappa) for the tuned heavy ball (0.5 +- 0.15; the
-- double eigenvalue of Polyak's tuning adds a log factor).  Part 2: the
-- measured stationary E f of each method matches its AR(1)/AR(2) closed
-- form, and the heavy ball's is not below SGD's.
do
  local out, code = sh("./optlab --no-tui scripts/heavyball_noise.lua 4")
  t.is(code, 0, "demo heavyball_noise: exits 0")
  local sg = num(out:match("slope gd (%-?[%d.]+)"))
  local sh_ = num(out:match("slope momentum (%-?[%d.]+)"))
  t.ok(sg and sg >= 0.8 and sg <= 1.2,
       "demo heavyball_noise: gd slope " .. tostring(sg) .. " in [0.8, 1.2]")
  t.ok(sh_ and sh_ >= 0.35 and sh_ <= 0.65,
       "demo heavyball_noise: heavy-ball slope " .. tostring(sh_)
       .. " in [0.35, 0.65]")
  -- at the largest batch the error is bias-dominated: momentum wins
  local ratio = num(out:match("\n%s+65536%s+%S+%s+%S+%s+(%S+)"))
  t.ok(ratio and ratio > 3, "demo heavyball_noise: batch 65536, step decay, "
       .. "gd/momentum final loss " .. tostring(ratio) .. " > 3")
  -- part 2 rows: kappa method T E-f se theory ratio.  The se comes from 40
  -- batch means and is well calibrated (|z| < 3.3 over 40 seeds), so 4 se
  -- is a ~4-sigma band; the 0.2 floor covers an se that, from a skewed
  -- chi-square-like sample, happens to come out small.  Both are tight
  -- enough (4 se ~ 0.25-0.3 of E f) that a closed form off by 1.5x fails.
  local part2 = out:match("part 2:.-\n(.-)\n\n") or ""
  local ef, k = {}, 0
  for kap, meth, est, se, th in part2:gmatch("\n%s+(%S+)%s+(%a+)%s+%d+%s+"
                                             .. "(%S+)%s+(%S+)%s+(%S+)") do
    k = k + 1
    est, se, th = num(est), num(se), num(th)
    local tol = math.max(0.2, 4 * se / th)
    t.ok(math.abs(est / th - 1) <= tol, string.format(
         "demo heavyball_noise: kappa %s %s stationary E f %g within %.0f%% "
         .. "of the closed form %g (se %g)", kap, meth, est, 100 * tol, th, se))
    ef[kap .. " " .. meth] = est
  end
  t.is(k, 4, "demo heavyball_noise: four part 2 rows (2 kappas x 2 methods)")
  for _, kap in ipairs{"100", "1000"} do
    local g, h = ef[kap .. " gd"], ef[kap .. " momentum"]
    t.ok(g and h and h >= g, "demo heavyball_noise: kappa " .. kap
         .. " momentum E f " .. tostring(h) .. " >= gd " .. tostring(g))
  end
  -- part 4, the bias / variance metrics of single runs: after 2000 steps
  -- at kappa 1e3 gd's bias has fallen by a factor ~e^-8, the heavy
  -- ball's by ~e^-250, so 1e10 is far inside the gap; the variance term
  -- of the heavy ball is the larger (part 2's closed forms: 16x).
  local p4 = out:match("part 4:.*")
  local function split (meth)
    local b, v = (p4 or ""):match("\n%s+" .. meth .. "%s+(%S+)%s+(%S+)")
    return num(b), num(v)
  end
  local bg, vg = split("gd")
  local bh, vh = split("momentum")
  t.ok(bg and bh and bg > 1e10 * bh, "demo heavyball_noise: bias metric gd "
       .. tostring(bg) .. " > 1e10 x momentum " .. tostring(bh))
  t.ok(vg and vh and vh > vg, "demo heavyball_noise: variance metric "
       .. "momentum " .. tostring(vh) .. " > gd " .. tostring(vg))
end

-- reddi: with beta1 = 0, beta2 = 1/(1+C^2) Adam ends at the worst point +1,
-- AMSGrad and ADOPT near x* = -1.
do
  local out, code = sh("./optlab --no-tui scripts/reddi.lua 30000 3 0")
  t.is(code, 0, "demo reddi: exits 0")
  local function final (name)
    return num(out:match("\n%s+" .. name .. "%s+%S+%s+(%S+)"))
  end
  local a, m, d = final("adam"), final("amsgrad"), final("adopt")
  t.ok(a and a > 0.9, "demo reddi: adam final x " .. tostring(a) .. " > 0.9")
  t.ok(m and m < -0.5, "demo reddi: amsgrad final x " .. tostring(m)
       .. " < -0.5")
  t.ok(d and d < -0.9, "demo reddi: adopt final x " .. tostring(d)
       .. " < -0.9")
end

-- clipping: deterministic clipped GD reaches x* for every c; with
-- asymmetric noise the second-half mean is > 4 batch-means standard errors
-- from x* and within 5% of the predicted fixed point x_c.
do
  local out, code = sh("./optlab --no-tui scripts/clipping.lua")
  t.is(code, 0, "demo clipping: exits 0")
  local k = 0
  for steps, fin in out:gmatch("c %S+%s+steps%s+(%d+)%s+final |x %- x%*| (%S+)")
  do
    k = k + 1
    t.ok(num(fin) < 1e-8, "demo clipping: deterministic run " .. k
         .. " reaches x* (|x - x*| " .. fin .. " after " .. steps
         .. " steps to 1e-8)")
  end
  t.is(k, 4, "demo clipping: four deterministic thresholds reported")
  local z = num(out:match("x_bias %S+%s+se %S+%s+z vs x%* (%-?[%d.]+)"))
  t.ok(z and math.abs(z) > 4, "demo clipping: clipped mean is " .. tostring(z)
       .. " se from x* (> 4)")
  local rel = num(out:match("relative difference (%S+)"))
  t.ok(rel and rel < 0.05, "demo clipping: x_bias within 5% of x_c (rel "
       .. tostring(rel) .. ")")
  local zg = num(out:match("unclipped sgd: mean %S+%s+se %S+%s+z vs x%* "
                          .. "(%-?[%d.]+)"))
  t.ok(zg and math.abs(zg) < 4, "demo clipping: unclipped SGD mean within 4 se "
       .. "of x* (z " .. tostring(zg) .. ")")
end

-- dog: with iterate averaging DoG is within 2x of the best grid step size
-- in f - f*, and better than the median grid point both averaged and at
-- the last iterate.
do
  local out, code = sh("./optlab --no-tui scripts/dog.lua 1000 0.1 5")
  t.is(code, 0, "demo dog: exits 0")
  local dl, da = out:match("\n%s+dog%s+(%S+)%s+(%S+)")
  dl, da = num(dl), num(da)
  local ml, ma = out:match("median grid: last (%S+)%s+averaged (%S+)")
  ml, ma = num(ml), num(ma)
  local rl, ra = out:match("dog/best: last (%S+)%s+averaged (%S+)")
  ra = num(ra)
  t.ok(ra and ra < 2, "demo dog: averaged f - f* within 2x of the best grid "
       .. "point (ratio " .. tostring(ra) .. ")")
  t.ok(da and ma and da < ma, "demo dog: averaged f - f* " .. tostring(da)
       .. " below the grid median " .. tostring(ma))
  t.ok(dl and ml and dl < ml, "demo dog: last-iterate f - f* " .. tostring(dl)
       .. " below the grid median " .. tostring(ml) .. " (best ratio "
       .. tostring(rl) .. ")")
end

-- newton: from x0 = 1.5 pure Newton (x -> -x^3) leaves |x| < 1e10 within
-- 10 steps (or stops non-finite); damped and backtracking Newton end with
-- |x| < 1e-8; the first pure iterate is -x0^3 = -3.375 (to 1e-12).
do
  local out, code = sh("./optlab --no-tui scripts/newton.lua 1.5 30")
  t.is(code, 0, "demo newton: exits 0")
  local x1 = num(out:match("\n%s+1%s+(%S+)"))
  t.near(x1, -3.375, 1e-12, "demo newton: first pure step maps 1.5 to -1.5^3")
  local reason, k = out:match("pure: stopped '([^']+)'.-|x| > 1e10: (%S+)")
  t.ok(reason == "non-finite" or (num(k) and num(k) <= 10),
       "demo newton: pure diverges within 10 steps (reason " .. tostring(reason)
       .. ", first k with |x| > 1e10: " .. tostring(k) .. ")")
  for _, s in ipairs{"damped", "backtrack"} do
    local fx = num(out:match(s .. ": stopped '[^']+' after %d+ steps, "
                             .. "final |x| (%S+),"))
    t.ok(fx and fx < 1e-8, "demo newton: " .. s .. " final |x| "
         .. tostring(fx) .. " < 1e-8")
  end
end

-- shuffle: after 1000 epochs random reshuffling's mean squared distance is
-- over 10x below with-replacement SGD's; the fitted slopes are about -1
-- (+- 0.3) for replace and at least 0.7 steeper for shuffle (R = 20
-- streams, fixed seed).
do
  local out, code = sh("./optlab --no-tui scripts/shuffle.lua 20 0.5")
  t.is(code, 0, "demo shuffle: exits 0")
  local ratio = num(out:match("\n%s+1000%s+%S+%s+%S+%s+%S+%s+(%S+)"))
  t.ok(ratio and ratio > 10, "demo shuffle: replace/shuffle at K = 1000 is "
       .. tostring(ratio) .. " > 10")
  local sr = num(out:match("slope replace (%S+)"))
  local ss = num(out:match("slope shuffle (%S+)"))
  t.ok(sr and sr > -1.3 and sr < -0.7, "demo shuffle: replace slope "
       .. tostring(sr) .. " in (-1.3, -0.7)")
  t.ok(ss and sr and ss < sr - 0.7, "demo shuffle: shuffle slope "
       .. tostring(ss) .. " steeper than replace's by > 0.7")
end

-- restart: every restart rule reaches ||x - x*|| < 1e-8 within a third of
-- the budget; plain accelerated gradient does not reach it in the budget
-- (so it needs > 3x the steps).
do
  local out, code = sh("./optlab --no-tui scripts/restart.lua 1e4 20000")
  t.is(code, 0, "demo restart: exits 0")
  local plain = out:match("\n%s+none%s+(%S+)")
  t.is(plain, "none", "demo restart: plain AG does not reach 1e-8 in 20000")
  for _, rs in ipairs{"fixed", "function", "gradient"} do
    local k = num(out:match("\n%s+" .. rs .. "%s+(%S+)"))
    t.ok(k and k < 20000 / 3, "demo restart: " .. rs .. " restart reaches "
         .. "1e-8 in " .. tostring(k) .. " < 20000/3 steps")
  end
end

-- heavytail: with Student-t noise (nu = 1.5), the clipped AdaGrad-Norm's
-- 99% quantile of f - f* is > 3x below AdaGrad's and > 5x below
-- AdaGrad-Norm's (each method at its best grid step), and its tail ratio
-- q99/q50 is smaller than AdaGrad-Norm's.  R = 400 streams: the 99%
-- quantile rests on the ~4 largest draws, hence the wide factors.
do
  local out, code = sh("./optlab --no-tui scripts/heavytail.lua 400 500 1")
  t.is(code, 0, "demo heavytail: exits 0")
  local a = num(out:match("q99 ratio adagrad/clipped (%S+)"))
  local an = num(out:match("q99 ratio adagradnorm/clipped (%S+)"))
  t.ok(a and a > 3, "demo heavytail: q99 adagrad/clipped " .. tostring(a)
       .. " > 3")
  t.ok(an and an > 5, "demo heavytail: q99 adagradnorm/clipped "
       .. tostring(an) .. " > 5")
  local function tail (name)
    return num(out:match("\n%s+" .. name .. "%s+%S+ %S+%s+%S+%s+%S+%s+%S+"
                         .. "%s+%S+%s+(%S+)"))
  end
  local tn, tc = tail("adagradnorm"), tail("clipadagradnorm")
  t.ok(tn and tc and tc < tn, "demo heavytail: tail ratio q99/q50 clipped "
       .. tostring(tc) .. " < adagradnorm " .. tostring(tn))
end

-- muon: Newton-Schulz and exact-SVD Muon end within a factor 3 of each
-- other in loss, both below 1e-2 of the start loss; ortherr > 1e-3 for NS,
-- < 1e-10 for SVD.
do
  local out, code = sh("./optlab --no-tui scripts/muon.lua 1000 0.03")
  t.is(code, 0, "demo muon: exits 0")
  for _, pn in ipairs{"matlsq", "lowrank"} do
    local ratio = num(out:match(pn .. " final loss ratio ns/svd (%S+)"))
    t.ok(ratio and ratio > 1 / 3 and ratio < 3, "demo muon: " .. pn
         .. " final loss ratio ns/svd " .. tostring(ratio) .. " in (1/3, 3)")
    for _, pol in ipairs{"ns", "svd"} do
      local f0, f, oe = out:match("\n%s+" .. pn .. "%s+" .. pol
                                  .. "%s+(%S+)%s+(%S+)%s+(%S+)")
      f0, f, oe = num(f0), num(f), num(oe)
      t.ok(f0 and f and f < 1e-2 * f0, "demo muon: " .. pn .. " " .. pol
           .. " loss " .. tostring(f0) .. " -> " .. tostring(f))
      if pol == "ns" then
        t.ok(oe and oe > 1e-3, "demo muon: " .. pn .. " ortherr NS "
             .. tostring(oe) .. " > 1e-3")
      else
        t.ok(oe and oe < 1e-10, "demo muon: " .. pn .. " ortherr SVD "
             .. tostring(oe) .. " < 1e-10")
      end
    end
  end
end

t.done()
