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
-- double eigenvalue of Polyak's tuning adds a log factor).
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

t.done()
