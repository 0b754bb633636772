-- tests/lua/demos.lua -- every demo in scripts/ runs headless through the
-- real binary and shows its claim numerically.
local t = dofile("tests/lib/tap.lua")

local function sh (cmd)
  local f = assert(io.popen(cmd .. " 2>&1"))
  local out = f:read("a")
  local ok, _, code = f:close()
  return out, ok and 0 or code
end

-- momentum: the step-count ratio gd/heavy ball is about sqrt(kappa).
do
  local out, code = sh("./optlab --no-tui scripts/momentum.lua 1000")
  t.is(code, 0, "demo momentum: exits 0")
  local ratio, sq = out:match("ratio ([%d.]+)%s+sqrt%(kappa%) ([%d.]+)")
  ratio, sq = tonumber(ratio), tonumber(sq)
  t.ok(ratio and ratio > sq / 2 and ratio < 2 * sq,
       "demo momentum: gd needs sqrt(kappa) times more steps (ratio "
       .. tostring(ratio) .. ", sqrt(kappa) " .. tostring(sq) .. ", within 2x)")
end

-- rps: exploitability of the average below 1e-2, decaying at least like
-- T^-0.4 over the second half.
do
  local out, code = sh("./optlab --no-tui scripts/rps.lua 20000")
  t.is(code, 0, "demo rps: exits 0")
  local ex = tonumber(out:match("exploitability of the average ([%d.e+-]+)"))
  local slope = tonumber(out:match("log%-log slope ([%d.e+-]+)"))
  t.ok(ex and ex < 1e-2, "demo rps: exploitability " .. tostring(ex) .. " < 1e-2")
  t.ok(slope and slope < -0.4, "demo rps: log-log slope " .. tostring(slope) .. " < -0.4")
end

-- mala: both sample means within 4 batch-means standard errors (seed 3,
-- fixed in the script), acceptance rate in a sane band.
do
  local out, code = sh("./optlab --no-tui scripts/mala.lua 20000 0.5")
  t.is(code, 0, "demo mala: exits 0")
  local acc = tonumber(out:match("acceptance rate ([%d.]+)"))
  t.ok(acc and acc > 0.3 and acc < 1, "demo mala: acceptance " .. tostring(acc) .. " in (0.3, 1)")
  for j = 1, 2 do
    local z = tonumber(out:match("mean%[" .. j .. "%].-z (%-?[%d.]+)"))
    t.ok(z and math.abs(z) < 4, "demo mala: mean[" .. j .. "] within 4 se (z = " .. tostring(z) .. ")")
  end
end

-- mala_ula: ULA's variance is 1/(a(1 - ah/2)), MALA's the target's
do
  local out, code = sh("./optlab --no-tui scripts/mala_ula.lua 0.5")
  t.is(code, 0, "demo mala_ula: exits 0")
  local vu, su = out:match("ula   variance ([%d.]+) %+%- ([%d.]+)")
  local vm, sm = out:match("mala  variance ([%d.]+) %+%- ([%d.]+)")
  vu, su, vm, sm = tonumber(vu), tonumber(su), tonumber(vm), tonumber(sm)
  t.ok(vu and math.abs(vu - 4 / 3) <= 4 * su and math.abs(vu - 1) > 4 * su,
       "demo mala_ula: ULA at h = 0.5 has variance " .. tostring(vu)
       .. ", the closed form 4/3 within 4 se, not 1")
  t.ok(vm and math.abs(vm - 1) <= 4 * sm,
       "demo mala_ula: MALA's variance " .. tostring(vm) .. " is 1 within 4 se")
  t.ok(out:find("verdict: holds", 1, true), "demo mala_ula: verdict holds")
end

-- hmc_rwmh: ESS per evaluation ~ d^-1 (RWMH), ~ d^-1/4 (NUTS)
do
  local out, code = sh("./optlab --no-tui scripts/hmc_rwmh.lua")
  t.is(code, 0, "demo hmc_rwmh: exits 0")
  local sr, sh_ = out:match("slope rwmh (%-?[%d.]+) %(theory %-1%), nuts (%-?[%d.]+)")
  sr, sh_ = tonumber(sr), tonumber(sh_)
  t.ok(sr and sr < -0.7 and sr > -1.3, "demo hmc_rwmh: RWMH slope "
       .. tostring(sr) .. " within 0.3 of -1")
  t.ok(sh_ and sh_ > -0.6 and sh_ < 0, "demo hmc_rwmh: NUTS slope "
       .. tostring(sh_) .. " in (-0.6, 0), near -1/4")
end

-- funnel: the centred form diverges and under-explores v, the
-- non-centred does not
do
  local out, code = sh("./optlab --no-tui scripts/funnel.lua")
  t.is(code, 0, "demo funnel: exits 0")
  local dc, sc = out:match("centred      divergences%s+(%d+)%s+sd%(v%) ([%d.]+)")
  local dn, sn = out:match("non%-centred  divergences%s+(%d+)%s+sd%(v%) ([%d.]+)")
  dc, sc, dn, sn = tonumber(dc), tonumber(sc), tonumber(dn), tonumber(sn)
  t.ok(dc and dc > 0 and sc < 3, "demo funnel: centred NUTS diverges ("
       .. tostring(dc) .. ") and its sd of v is short of 3 (" .. tostring(sc)
       .. ")")
  t.ok(dn == 0 and math.abs(sn - 3) < 0.3, "demo funnel: non-centred has "
       .. "no divergence and sd of v " .. tostring(sn) .. " within 0.3 of 3")
end

t.done()
