-- tests/lua/optim_scripts.lua -- the numbers of the optimizer demos
-- scripts/bilevel_sigma.lua, asgd_subspace.lua, adamod_lr.lua and
-- bcd_activeset.lua, each run headless at its defaults and re-read with
-- stated tolerances.  The scripts fix their seeds (asgd_subspace: seed 3,
-- streams 1..400; bcd_activeset: seed 1, streams 1..8; the other two are
-- deterministic), so the numbers are reproducible; the tolerances say how
-- far from its theory a number may be before the claim counts as not
-- shown.
local t = dofile("tests/lib/tap.lua")

local function script (name)
  local f = assert(io.popen("./optlab --no-tui scripts/" .. name
                            .. ".lua 2>&1"))
  local out = f:read("a")
  local ok = f:close()
  t.ok(ok, name .. ": exits 0")
  t.ok(out:match("\nverdict: holds %(") ~= nil, name .. ": verdict holds")
  return out
end
local num = tonumber

-- bilevel_sigma: slopes of the O(sigma) gaps
do
  local out = script("bilevel_sigma")
  local v0, d0, vs, ds = out:match("slope value ([%d.]+), derivative "
                                   .. "([%d.]+) at x = 0; value ([%d.]+), "
                                   .. "derivative ([%d.]+) at x%*")
  for _, s in ipairs{{"value at 0", v0}, {"derivative at 0", d0},
                     {"value at x*", vs}, {"derivative at x*", ds}} do
    t.near(num(s[2]), 1, 0.05, "bilevel_sigma: log-log slope of the gap "
           .. "between F and psi_sigma, " .. s[1] .. ", is 1 within 0.05 "
           .. "(sigma 1e-2..1e-5; the O(sigma^2) term is a few % at 1e-2)")
  end
  local sh, rel = out:match("slope ([%d.]+); largest relative gap to the "
                            .. "closed form ([%d.e+-]+)")
  t.near(num(sh), 1, 0.05, "bilevel_sigma: optim.bilevel's hypergrad_err "
         .. "has slope 1 within 0.05")
  t.ok(num(rel) and num(rel) < 1e-6, "bilevel_sigma: with K = 3000 inner "
       .. "steps hypergrad_err is the closed-form |F' - psi'| to 1e-6 ("
       .. tostring(rel) .. ")")
  local sx = out:match("slope of |x_sigma %- x%*| ([%d.]+)")
  t.near(num(sx), 1, 0.01, "bilevel_sigma: the penalty minimiser is "
         .. "O(sigma) from x*, slope 1 within 0.01")
end

-- asgd_subspace: the three parts of claim 9, and the variance's closed form
do
  local out = script("asgd_subspace")
  local bb = num(out:match("bottom bias: asgd/sgd at t = 300: ([%d.e+-]+)"))
  local bt = num(out:match("top bias: asgd/sgd at t = 30: ([%d.e+-]+)"))
  local vt, vb, sep = out:match("variance: asgd/sgd at t = 300: top "
                                .. "([%d.]+), bottom ([%d.]+); smallest "
                                .. "separation ([%d.]+) se")
  local dev = num(out:match("largest deviation ([%d.]+) se"))
  t.ok(bb and bb < 0.1, "asgd_subspace: ASGD's bias on the small "
       .. "eigenvalues is below a tenth of SGD's at t = 300 ("
       .. tostring(bb) .. ")")
  t.ok(bt and bt > 2, "asgd_subspace: ASGD's bias on the top eigenvalues "
       .. "is over twice SGD's at t = 30 (" .. tostring(bt) .. ")")
  t.ok(num(vt) > 1 and num(vb) > 1 and num(sep) > 4, "asgd_subspace: "
       .. "ASGD's variance is larger on both subspaces, by more than 4 se "
       .. "at every time (ratios " .. tostring(vt) .. ", " .. tostring(vb)
       .. "; " .. tostring(sep) .. " se)")
  t.ok(dev and dev < 4, "asgd_subspace: every measured variance is within "
       .. "4 se of its exact recursion (" .. tostring(dev) .. " se)")
end

-- adamod_lr: t = 1 rates at closed forms, the spike and AdaBound's band
do
  local out = script("adamod_lr")
  local rows = {}
  for name, x1, cf, early, lo, hi, spread in out:gmatch(
      "\n  (%a+)%s+([%d.e+-]+)%s+([%d.e+-]+)%s+([%d.e+-]+)%s+([%d.e+-]+)"
      .. "%s+([%d.e+-]+)%s+([%d.e+-]+)") do
    rows[name] = {num(x1), num(cf), num(early), num(lo), num(hi),
                  num(spread)}
  end
  -- the closed forms, again here: lr / ((1 - beta1)(g + eps)) and friends
  local g, eps = 1e-4, 1e-8
  local want = {adam = 1e-3 / (0.1 * (g + eps)),
                adabound = math.min(1e-3 / (math.sqrt(1e-3) * g + eps),
                                    0.1 * (1 + 1 / 1e-3)),
                adamod = 1e-3 * 1e-3 / (0.1 * (g + eps))}
  for _, name in ipairs{"adam", "adabound", "adamod"} do
    local r = rows[name]
    t.ok(r ~= nil and math.abs(r[1] - want[name]) <= 1e-5 * want[name],
         "adamod_lr: " .. name .. "'s lrmax at t = 1 is its closed form "
         .. want[name] .. " (to the 6 digits printed)")
  end
  if rows.adamod and rows.adam and rows.adabound then
    t.ok(rows.adamod[3] <= 1 and rows.adam[3] >= 50 * rows.adamod[3]
         and rows.adabound[3] >= 50 * rows.adamod[3], "adamod_lr: over the "
         .. "first 100 steps AdaMod's rates stay below 1, at least 50x "
         .. "below Adam's and AdaBound's peaks")
    local T = 1e5
    local lo = 0.1 * (1 - 1 / (1e-3 * T + 1)) / math.sqrt(T)
    local hi = 0.1 * (1 + 1 / (1e-3 * T)) / math.sqrt(T)
    local a, b = out:match("its rates %[([%d.e+-]+), ([%d.e+-]+)%]")
    a, b = num(a), num(b)
    t.ok(a and b and a >= lo * (1 - 1e-5) and b <= hi * (1 + 1e-5),
         "adamod_lr: AdaBound's rates at t = 1e5 lie in "
         .. "its band [" .. lo .. ", " .. hi .. "] (final_lr / sqrt(t) "
         .. "within 1%: SGD)")
    t.ok(rows.adam[6] > 100 and rows.adamod[6] > 100, "adamod_lr: Adam's "
         .. "and AdaMod's rates still spread over 100x at t = 1e5")
  else
    t.ok(false, "adamod_lr: the table has the three methods' rows")
  end
end

-- bcd_activeset: identification times
do
  local out = script("bcd_activeset")
  local active = num(out:match("(%d+) active coordinates of"))
  local gs, gsl, cyc, med, mn = out:match("identification: gs (%d+), gsl "
                                          .. "(%d+), cyclic (%d+), random "
                                          .. "median ([%d.]+) %(min (%d+)")
  gs, gsl, cyc, med, mn = num(gs), num(gsl), num(cyc), num(med), num(mn)
  t.ok(gs == active and gsl == active, "bcd_activeset: gs and gsl identify "
       .. "the " .. tostring(active) .. " active coordinates in one step "
       .. "each (" .. tostring(gs) .. ", " .. tostring(gsl) .. ")")
  t.ok(mn and mn >= 10 * math.max(gs, gsl), "bcd_activeset: every random "
       .. "stream needs at least 10x the greedy rules' steps (fastest "
       .. tostring(mn) .. ", median " .. tostring(med) .. ")")
  t.ok(cyc and cyc > math.max(gs, gsl), "bcd_activeset: cyclic is slower "
       .. "than greedy too (" .. tostring(cyc) .. ")")
end

t.done()
