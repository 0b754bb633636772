-- tests/lua/sweepplot.lua -- s:plot's sweep figures (core/plot/sweep.c):
-- the final value against a parameter checked against the closed form of
-- gd on a 1-D quadratic (the SVG's data and its drawn positions mapped
-- back through the tick labels), a diverged run as a mark on the top
-- edge, the heat map's cells and best cell against s:values and s:best,
-- the text rendering's titles and axis names, PNG output, the errors.
-- Deterministic: no noise, so no seed matters (the sweeps use seed 1).
local t = dofile("tests/lib/tap.lua")

local tmp = os.tmpname()
os.remove(tmp)
os.execute("mkdir -p " .. tmp)

local function sh (cmd)
  local p = io.popen(cmd)
  local s = p:read("a")
  p:close()
  return s
end

local function slurp (name)
  local f = assert(io.open(name, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- "1e-8", "0.25", "2.5e6" -> number (the SVG's tick labels)
local function ticknum (s)
  return tonumber(s)
end

-- The ticks of a panel: list of {pos, value} for class (ytick: the grid
-- line's y; xtick: its x).
local function ticks (doc, class)
  local out = {}
  local pat = class == "ytick"
    and '<line x1="[%d.]+" y1="([%d.]+)" x2="[%d.]+" y2="[%d.]+" '
        .. 'class="grid"/><text x="[%d.]+" y="[%d.]+" class="ytick">([^<]+)<'
    or '<line x1="([%d.]+)" y1="[%d.]+" x2="[%d.]+" y2="[%d.]+" '
        .. 'class="grid"/><text x="[%d.]+" y="[%d.]+" class="xtick">([^<]+)<'
  for p, v in doc:gmatch(pat) do
    out[#out + 1] = {tonumber(p), ticknum(v)}
  end
  return out
end

-- (1) the final loss of gd on f(x) = x^2 / 2 (problem.quadratic{n = 1}:
-- H = 1) after T steps is (1 - lr)^(2T) f0; lr = 1000 diverges
local T = 60
local lrs = {0.01, 0.03, 0.1, 0.3, 0.6, 1000}
local s = sweep(problem.quadratic{n = 1}, optim.gd, {lr = lrs},
                {iters = T})
local f0 = s.runs[1]:series("loss")[1]
t.is(f0, 0.5, "sweepplot: f0 = x0^2 / 2 = 0.5 at the default start x0 = 1")
local svg = tmp .. "/lr.svg"
s:plot{file = svg}
local doc = slurp(svg)
local pts = {}
for cx, cy, x, y in doc:gmatch('<circle class="point" cx="([%d.]+)" '
                               .. 'cy="([%d.]+)" r="3" fill="#%x+" '
                               .. 'data%-x="([^"]+)" data%-y="([^"]+)"/>') do
  pts[#pts + 1] = {cx = tonumber(cx), cy = tonumber(cy), x = tonumber(x),
                   y = tonumber(y)}
end
t.is(#pts, 5, "sweepplot: one point per finite configuration (5 of 6)")
local worst = 0
for _, p in ipairs(pts) do
  local want = (1 - p.x) ^ (2 * T) * f0
  worst = math.max(worst, math.abs(p.y - want) / want)
end
t.ok(worst <= 1e-12, string.format("sweepplot: each point's data-y is "
     .. "(1 - lr)^(2T) f0 within 1e-12 relative (worst %.2g)", worst))
t.ok(doc:find('data-kind="sweep" data-metric="loss" data-xlog="1" '
              .. 'data-ylog="1"', 1, true),
     "sweepplot: lr spans >= 10x and the finals >= 100x: log x, log y")
-- the drawn positions against where the axes' tick labels put the closed
-- form: within 0.2 px (positions are printed to 0.01 px, ticks to 0.1 px)
local yt, xt = ticks(doc, "ytick"), ticks(doc, "xtick")
local function onlog (tk, v)
  local a, b = tk[1], tk[#tk]
  local la, lb = math.log(a[2], 10), math.log(b[2], 10)
  return a[1] + (math.log(v, 10) - la) / (lb - la) * (b[1] - a[1])
end
local wy, wx = 0, 0
for _, p in ipairs(pts) do
  local want = (1 - p.x) ^ (2 * T) * f0
  wy = math.max(wy, math.abs(p.cy - onlog(yt, want)))
  wx = math.max(wx, math.abs(p.cx - onlog(xt, p.x)))
end
t.ok(#yt >= 2 and wy <= 0.2, string.format("sweepplot: each point is drawn "
     .. "at the closed form's height on the y axis's ticks within 0.2 px "
     .. "(worst %.3g px, %d ticks)", wy, #yt))
t.ok(#xt >= 2 and wx <= 0.2, string.format("sweepplot: each point is drawn "
     .. "at its lr on the x axis's ticks within 0.2 px (worst %.3g px)", wx))
-- the diverged run: a triangle on the top edge (the frame's top) at x =
-- 1000, its value kept in data-value, not dropped and not a point
t.is(s.runs[6].reason, "diverged", "sweepplot: lr = 1000 diverges")
local top = tonumber(doc:match('<rect x="[%d.]+" y="([%d.]+)" width="[%d.]+" '
                               .. 'height="[%d.]+" class="frame"/>'))
local dx, dy, dxv = doc:match('<path class="diverged" fill="#%x+" '
                              .. 'stroke="#222" stroke%-width="0.6" '
                              .. 'd="M([%d.]+) ([%d.]+) l[^"]*" '
                              .. 'data%-x="([^"]+)"')
t.ok(dy ~= nil and math.abs(tonumber(dy) - top) < 0.01
     and tonumber(dxv) == 1000 and math.abs(onlog(xt, 1000) - tonumber(dx))
     <= 0.2, "sweepplot: the diverged lr = 1000 is a mark on "
     .. "the top edge at its x (" .. tostring(dy) .. " vs frame top "
     .. tostring(top) .. ")")
t.ok(doc:find("1 diverged (top edge)", 1, true),
     "sweepplot: the panel says how many diverged")

-- (2) the heat map of a momentum sweep over lr x mu (a 4 x 3 grid, lr =
-- 1000 diverging): one cell per configuration holding its final value,
-- the best cell s:best's, a colour key
local s2 = sweep(problem.quadratic{n = 2}, optim.momentum,
                 {lr = {0.03, 0.1, 0.3, 1000}, mu = {0, 0.5, 0.9}},
                 {iters = 40})
local hsvg = tmp .. "/heat.svg"
s2:plot{heat = true, file = hsvg}
doc = slurp(hsvg)
local cells, match, ndiv = 0, 0, 0
local vals = s2:values("loss")
for cls, x, y, v in doc:gmatch('<rect class="(cell[^"]*)" x="[%d.]+" '
                               .. 'y="[%d.]+" width="[%d.]+" height="[%d.]+" '
                               .. 'fill="#%x+" data%-x="([^"]+)" '
                               .. 'data%-y="([^"]+)" data%-value="([^"]+)"') do
  cells = cells + 1
  if cls == "cell diverged" then ndiv = ndiv + 1 end
  for i, c in ipairs(s2.configs) do
    if c.lr == tonumber(x) and c.mu == tonumber(y)
       and vals[i] == tonumber(v) then
      match = match + 1
    end
  end
end
t.is(cells, 12, "sweepplot: heat map: one cell per configuration")
t.is(match, 12, "sweepplot: heat map: each cell holds its configuration's "
     .. "final loss (s:values), at its lr and mu")
local nd = 0
for _, r in ipairs(s2.runs) do
  if r.reason == "diverged" then nd = nd + 1 end
end
t.ok(nd >= 1 and ndiv == nd, "sweepplot: heat map: the diverged "
     .. "configurations are grey cells (" .. ndiv .. " of " .. nd .. ")")
local bc = s2:best("loss")
local bx, by, bv = doc:match('<rect class="best"[^>]* data%-x="([^"]+)" '
                             .. 'data%-y="([^"]+)" data%-value="([^"]+)"')
local _, brun = s2:best("loss")
t.ok(tonumber(bx) == bc.lr and tonumber(by) == bc.mu
     and tonumber(bv) == brun:last("loss"), "sweepplot: heat map: the best "
     .. "cell is s:best's (lr " .. string.format("%g", bc.lr) .. ", mu "
     .. string.format("%g", bc.mu) .. ")")
local _, nkey = doc:match('<g class="key">(.-)</g>'):gsub("<rect ", "")
t.is(nkey, 33, "sweepplot: heat map: a colour key of 32 bands and a frame")
local xv = {}
for v in doc:gmatch('class="xtick">([^<]+)<') do xv[#xv + 1] = v end
t.is(table.concat(xv, " "), "0.03 0.1 0.3 1000",
     "sweepplot: heat map: one column per lr, labelled by its value")
-- x = {a, b} is the same figure
local hsvg2 = tmp .. "/heat2.svg"
s2:plot{x = {"lr", "mu"}, file = hsvg2}
t.is(slurp(hsvg2), doc, "sweepplot: x = {\"lr\", \"mu\"} is heat = true")

-- (3) text: the panel title names the metric and axis kinds, the bottom
-- border the parameter; the heat map marks the best cell with '<'
local script = tmp .. "/text.lua"
local f = assert(io.open(script, "w"))
f:write([[
local s = sweep(problem.quadratic{n = 1}, optim.gd,
                {lr = {0.01, 0.03, 0.1, 0.3, 0.6, 1000}}, {iters = 60})
s:plot{text = true}
local s2 = sweep(problem.quadratic{n = 2}, optim.momentum,
                 {lr = {0.03, 0.1, 0.3}, mu = {0, 0.5, 0.9}}, {iters = 40})
s2:plot{heat = true}
local c = s2:best("loss")
io.write(string.format("BEST %g %g\n", c.lr, c.mu))
s2:plot{watch = {"loss", "gradnorm"}}
]])
f:close()
local out = sh("LANG=C LC_ALL= ./optlab " .. script .. " 2>&1")
t.ok(out:find("+-- final loss [log, log x] ", 1, true),
     "sweepplot: text: the panel title names the metric and its axes")
t.ok(out:find("-- lr (log) --+", 1, true),
     "sweepplot: text: the bottom border names the x parameter")
t.ok(out:find("^ 1 diverged (top edge)", 1, true),
     "sweepplot: text: the diverged run is counted in the legend")
t.ok(out:find("+-- final loss: lr across, mu up [log] ", 1, true),
     "sweepplot: text: the heat map's title names both parameters")
local blr, bmu = out:match("BEST (%S+) (%S+)")
t.ok(out:find("< best lr=" .. blr .. " mu=" .. bmu, 1, true),
     "sweepplot: text: the heat map's key names s:best's configuration")
local stars = 0
for l in out:gmatch("[^\n]+") do
  if l:match("^|%s*[%d.]+ .*%d<") then stars = stars + 1 end
end
t.is(stars, 1, "sweepplot: text: one cell marked '<' (the best)")
t.ok(out:find(" mu=0 ", 1, true) and out:find(" mu=0.9 ", 1, true)
     and out:find("final gradnorm [", 1, true),
     "sweepplot: text: curves of the other parameter, a panel per metric")
local wide = 0
for l in out:gmatch("([^\n]*)\n") do
  if l:sub(1, 1) == "+" or l:sub(1, 1) == "|" then
    if #l ~= 80 then wide = wide + 1 end
  end
end
t.is(wide, 0, "sweepplot: text: every framed line is 80 columns")

-- (4) PNG through r:plot's renderer
local png = tmp .. "/lr.png"
s:plot{file = png, width = 640, height = 360}
local bytes = slurp(png)
t.ok(bytes:sub(1, 8) == "\137PNG\r\n\26\n" and #bytes > 2000,
     "sweepplot: file = *.png writes a PNG (" .. #bytes .. " bytes)")

-- (5) a non-numeric parameter: curves labelled by it, not an x axis
local s3 = sweep(problem.quadratic{n = 2}, optim.adopt,
                 {lr = {0.01, 0.1}, clip = {true, false}}, {iters = 20})
local csvg = tmp .. "/clip.svg"
s3:plot{file = csvg}
doc = slurp(csvg)
t.ok(doc:find('data-curve="clip=true"', 1, true)
     and doc:find('data-curve="clip=false"', 1, true),
     "sweepplot: a boolean parameter labels the curves")

-- (6) errors name the valid choices
t.errors("sweep:plot: x = 'beta' is not a parameter of the sweep (valid: "
         .. "lr, mu)", function () s2:plot{x = "beta"} end)
t.errors("sweep:plot: x = 'clip' is not a numeric parameter (numeric: lr)",
         function () s3:plot{x = "clip"} end)
t.errors("sweep:plot: heat = true needs two numeric parameters that vary "
         .. "(numeric: lr)", function () s:plot{heat = true} end)
t.errors("sweep:plot: unknown key 'colour' (valid: file, watch, x, heat, "
         .. "runs, width, height, text, xlog, ylog)",
         function () s:plot{colour = "red"} end)
t.errors("sweep:plot: metric 'lossy' was not recorded (recorded: loss",
         function () s:plot{watch = {"lossy"}} end)
t.errors("sweep:plot: unknown file type '.gif'",
         function () s:plot{file = tmp .. "/x.gif"} end)
t.errors("sweep:plot: give file (SVG) or text = true, not both",
         function () s:plot{file = svg, text = true} end)
t.errors("sweep:plot: x as a list names two parameters",
         function () s2:plot{x = {"lr"}} end)

os.execute("rm -rf " .. tmp)
t.done()
