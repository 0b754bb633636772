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

t.done()
