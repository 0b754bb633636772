-- tests/lua/figures.lua -- figures for slides: r:plot{file = "x.png"} and
-- "x.pdf" (lua/lfigure.c: the SVG drawn by librsvg on a cairo surface).
-- The files open (file(1) names the format and the PNG's size, pdfinfo
-- the PDF's page), are 16:9 by default, carry the legend (pdftotext finds
-- every run's label; the PNG's pixels hold every run's swatch colour) in
-- text legible from the back of a room (>= 2.5% of the height), and the
-- argument and file errors are clear and leave no file behind.  The SVG
-- landscape: contour lines on their levels of f (a quadratic written
-- here, within the bound of linear interpolation), closed where the level
-- set is inside the window, ticks at nice numbers, x* and the start; in
-- a race every run's path shows on the map, identical ones too.
local t = dofile("tests/lib/tap.lua")
local files = dofile("tests/lib/files.lua")
local slurp, sh = files.slurp, files.sh

local have = {}
for _, c in ipairs({"file", "pdfinfo", "pdftotext", "perl"}) do
  have[c] = sh("command -v " .. c) ~= ""
end
local tmp = sh("mktemp -d"):gsub("\n$", "")

local r = race(problem.quadratic{n = 2, cond = 20}, {optim.gd{lr = 0.09},
  optim.momentum{lr = 0.02, mu = 0.9}, optim.adam{lr = 0.1}},
  {iters = 200, progress = false})
local labels = {"gd lr=0.09", "momentum lr=0.02", "adam lr=0.1"}

-- (1) PNG: 1920 x 1080 by default, or as asked
t.is(select("#", r:plot{file = tmp .. "/race.png"}), 0,
     "figures: race:plot writes a PNG and returns nothing")
local png = slurp(tmp .. "/race.png") or ""
t.ok(png:sub(1, 8) == "\137PNG\r\n\26\n", "figures: the file is a PNG")
t.is(#png >= 24 and string.unpack(">I4", png, 17), 1920,
     "figures: PNG width 1920 by default")
t.is(#png >= 24 and string.unpack(">I4", png, 21), 1080,
     "figures: PNG height 1080 by default (16:9)")
if have.file then
  local what = sh("file -b " .. tmp .. "/race.png")
  t.ok(what:find("PNG image data, 1920 x 1080", 1, true),
       "figures: file(1) says PNG image data, 1920 x 1080 (" ..
       what:gsub("\n", "") .. ")")
end
r:plot{file = tmp .. "/small.PNG", width = 1280, height = 720,
       watch = {"loss"}}
png = slurp(tmp .. "/small.PNG") or ""
t.ok(#png >= 24 and string.unpack(">I4", png, 17) == 1280
     and string.unpack(">I4", png, 21) == 720,
     "figures: width = 1280, height = 720 give a 1280 x 720 PNG (.PNG in "
     .. "capitals too)")

-- (2) PDF: a 960 x 540 pt page (13.33 x 7.5 in, 16:9), text kept as text
r:plot{file = tmp .. "/race.pdf"}
local pdf = slurp(tmp .. "/race.pdf") or ""
t.ok(pdf:sub(1, 5) == "%PDF-", "figures: the file is a PDF")
if have.file then
  t.ok(sh("file -b " .. tmp .. "/race.pdf"):find("PDF document", 1, true),
       "figures: file(1) says PDF document")
end
if have.pdfinfo and have.pdftotext then
  local info = sh("pdfinfo " .. tmp .. "/race.pdf")
  t.ok(info:find("Page size: +960 x 540 pts"),
       "figures: the PDF page is 960 x 540 pt (16:9)")
  local txt = sh("pdftotext " .. tmp .. "/race.pdf -")
  local missing = {}
  for _, l in ipairs(labels) do
    if not txt:find(l, 1, true) then missing[#missing + 1] = l end
  end
  t.ok(#missing == 0, "figures: pdftotext finds every run's legend label ("
       .. (#missing == 0 and "all 3" or "missing " ..
       table.concat(missing, ", ")) .. ")")
  t.ok(txt:find("loss", 1, true) and txt:find("landscape", 1, true),
       "figures: and the panel titles")
  -- a word's box spans the font's ascent to descent, 1.16 em in DejaVu
  -- Sans: box / 1.2 is at most the font size
  local bb = sh("pdftotext -bbox " .. tmp .. "/race.pdf -")
  local y0, y1 = bb:match('yMin="([%d.]+)" xMax="[%d.]+" yMax="([%d.]+)">'
                          .. 'momentum<')
  local em = y0 and (tonumber(y1) - tonumber(y0)) / 1.2 or 0
  t.ok(em >= 0.025 * 540, string.format("figures: legend text is %.1f pt "
       .. "(>= 2.5%% of the 540 pt page, %.1f pt)", em, 0.025 * 540))
  r:plot{file = tmp .. "/wide.pdf", width = 800, height = 450}
  t.ok(sh("pdfinfo " .. tmp .. "/wide.pdf"):find("Page size: +800 x 450 pts"),
       "figures: width = 800, height = 450 give an 800 x 450 pt page")
else
  t.diag("pdfinfo/pdftotext missing (make deps): PDF text checks skipped")
end

-- (3) the PNG's pixels (decoded by tests/lib/png2ppm.pl; a 960 x 540 one,
-- the same layout as 1920 x 1080 at half the scale, to keep perl quick):
-- every run's legend swatch colour in the band above the panels, and the
-- first label's ink at least 2.2% of the height (the ink of "gd" spans
-- 'd''s ascender to 'g''s descender, about 0.95 em: a font of >= 2.3%)
local function ppm (path)
  local s = slurp(path) or ""
  local w, h, at = s:match("^P6%s+(%d+)%s+(%d+)%s+255%s()")
  if not w then return nil end
  w, h = tonumber(w), tonumber(h)
  return {w = w, h = h, px = function (x, y)
    local i = at + 3 * (y * w + x)
    return s:byte(i, i + 2)
  end}
end
if have.perl then
  r:plot{file = tmp .. "/half.png", width = 960, height = 540}
  r:plot{file = tmp .. "/half.svg", width = 711, height = 400}
  local svg = slurp(tmp .. "/half.svg")
  local _, okp = sh("perl tests/lib/png2ppm.pl " .. tmp .. "/half.png > "
                    .. tmp .. "/half.ppm")
  local im = okp == 0 and ppm(tmp .. "/half.ppm")
  t.ok(im and im.w == 960 and im.h == 540, "figures: the PNG decodes")
  if im then
    -- the legend's band: above the first panel title (y < 10% of h)
    local band = math.floor(0.1 * im.h)
    local k, found = 0, 0
    for col in svg:gmatch('<g class="legend"><line [^>]-stroke="#(%x+)"') do
      k = k + 1
      local want = {tonumber(col:sub(1, 2), 16), tonumber(col:sub(3, 4), 16),
                    tonumber(col:sub(5, 6), 16)}
      local run, best = 0, 0
      for y = 0, band do
        run = 0
        for x = 0, im.w - 1 do
          local pr, pg, pb = im.px(x, y)
          if math.abs(pr - want[1]) <= 8 and math.abs(pg - want[2]) <= 8
             and math.abs(pb - want[3]) <= 8 then
            run = run + 1
            if run > best then best = run end
          else
            run = 0
          end
        end
      end
      if best >= 20 then found = found + 1 end
    end
    t.ok(k == 3 and found == 3, "figures: PNG: each of the " .. k
         .. " runs' swatch colour is a >= 20 px line in the legend band ("
         .. found .. " found)")
    -- the first label: dark ink right of the first swatch, up to the
    -- second swatch
    local x0, x1 = 0, 0
    for x = 0, im.w - 1 do
      local pr = im.px(x, math.floor(0.0675 * im.h))
      if x0 == 0 and pr < 100 then x0 = x end
    end
    -- rows from below the title's descenders (21 of the 400 units) down
    local top, bot = nil, nil
    x1 = math.floor(0.17 * im.w)
    for y = math.floor(21 / 400 * im.h), band do
      for x = x0 + 1, x1 do
        local pr, pg, pb = im.px(x, y)
        if pr < 90 and pg < 90 and pb < 90 then
          top = top or y
          bot = y
          break
        end
      end
    end
    local ink = top and (bot - top + 1) / im.h or 0
    t.ok(ink >= 0.022, string.format("figures: PNG: the legend label's ink "
         .. "is %.1f%% of the height (>= 2.2%%)", 100 * ink))
  end
else
  t.diag("perl missing (make deps): PNG pixel checks skipped")
end

-- (4) wherever r:plot{file=} works: a run of a sampler's chains, a game
local c = run(problem.gauss2d{}, sample.rwmh{}, {chains = 2,
  iters = 300, progress = false, seed = 5})
c:plot{file = tmp .. "/chains.pdf"}
t.ok((slurp(tmp .. "/chains.pdf") or ""):sub(1, 5) == "%PDF-",
     "figures: a sampler's chains to PDF")
local g = run(problem.rps{}, game.rmplus{}, {iters = 300, progress = false})
g:plot{file = tmp .. "/game.png"}
t.ok((slurp(tmp .. "/game.png") or ""):sub(2, 4) == "PNG",
     "figures: a game to PNG")

-- (5) errors: clear, and no file (not even a temporary) left behind
t.errors("unknown file type '.jpg' (valid: .svg, .png, .pdf)", function ()
  r:plot{file = tmp .. "/x.jpg"}
end)
t.errors("width = 50 is out of range [100, 8000]", function ()
  r:plot{file = tmp .. "/x.png", width = 50}
end)
t.errors("height must be an integer", function ()
  r:plot{file = tmp .. "/x.pdf", height = 540.5}
end)
t.errors("not both", function ()
  r:plot{file = tmp .. "/x.png", text = true}
end)
os.execute("mkdir " .. tmp .. "/d.png")
t.errors("plot: cannot write " .. tmp .. "/d.png: Is a directory",
         function () r:plot{file = tmp .. "/d.png"} end)
t.errors("plot: cannot write " .. tmp .. "/no/x.pdf: No such file or "
         .. "directory", function () r:plot{file = tmp .. "/no/x.pdf"} end)
local left = sh("ls -A " .. tmp .. " | grep -v -x -E "
                .. "'race.png|small.PNG|race.pdf|wide.pdf|half.png|half.svg"
                .. "|half.ppm|chains.pdf|game.png|d.png'")
t.is(left, "", "figures: the failed writes left no file or temporary")
t.is(sh("ls -A " .. tmp .. "/d.png"), "",
     "figures: nothing written into the directory named d.png")

-- (6) the SVG landscape: contour lines on the levels of f, nice ticks,
-- x* and the start marked.  f is a quadratic written here, so the truth is
-- independent of optlab: f(x) = (x - c)'A(x - c) / 2, A = [10 6; 6 5]
-- (eigenvalues 14 and 1), c = x* = (0.3, -0.2).
local A11, A12, A22, c1, c2 = 10, 6, 5, 0.3, -0.2
local function fq (x1, x2)
  local u, v = x1 - c1, x2 - c2
  return 0.5 * (A11 * u * u + 2 * A12 * u * v + A22 * v * v)
end
local function gq (x1, x2)
  local u, v = x1 - c1, x2 - c2
  return A11 * u + A12 * v, A12 * u + A22 * v
end
local quad = problem.new{n = 2, x0 = {1.5, 1}, xstar = {c1, c2},
  f = function (x) return fq(x[1], x[2]) end,
  grad = function (x) local a, b = gq(x[1], x[2]) return {a, b} end}
local q = run(quad, optim.momentum{lr = 0.05, mu = 0.9}, {iters = 200,
  progress = false})
q:plot{file = tmp .. "/land.svg", watch = {"landscape"}}
local doc = slurp(tmp .. "/land.svg") or ""
-- the landscape panel, the figure's only one: to the end of the document
local panel = doc:match('<g class="panel" data%-kind="landscape">.*') or ""
local w = {}
for v in (panel:match('data%-window="([^"]*)"') or ""):gmatch("%S+") do
  w[#w + 1] = tonumber(v)
end
local bx, by, bw, bh = panel:match('<rect x="([%d.]+)" y="([%d.]+)" '
  .. 'width="([%d.]+)" height="([%d.]+)" class="frame"')
bx, by, bw, bh = tonumber(bx), tonumber(by), tonumber(bw), tonumber(bh)
local gx, gy = panel:match('data%-grid="(%d+) (%d+)"')
gx, gy = tonumber(gx), tonumber(gy)
t.ok(#w == 4 and bx and gx, "figures: landscape SVG: window, frame and "
     .. "grid found")
if #w == 4 and bx and gx then
  local function tox (px, py)
    return w[1] + (px - bx) / bw * (w[2] - w[1]),
           w[4] - (py - by) / bh * (w[4] - w[3])
  end
  -- marching squares puts a crossing by linear interpolation along a grid
  -- edge of length h: f there is off the level by at most f'' h^2 / 8
  -- (f'' = A11 across, A22 up); the 0.01 px rounding of the coordinates
  -- adds |grad f| times 0.005 px in data units on each axis, the 10
  -- digits of data-level |level| 1e-9
  local hx, hy = (w[2] - w[1]) / (gx - 1), (w[4] - w[3]) / (gy - 1)
  local ex, ey = 0.005 / bw * (w[2] - w[1]), 0.005 / bh * (w[4] - w[3])
  local ninterp = math.max(A11 * hx * hx, A22 * hy * hy) / 8
  local npaths, nclosed, npts, worst, bad = 0, 0, 0, 0, 0
  local closed, levels = {}, {}
  for lev, d in panel:gmatch('<path class="contour" data%-level="([^"]+)"'
                             .. '[^>]- d="([^"]*)"') do
    lev = tonumber(lev)
    if not levels[#levels] or levels[#levels] ~= lev then
      levels[#levels + 1] = lev
    end
    npaths = npaths + 1
    if d:find("Z$") then
      nclosed = nclosed + 1
      closed[lev] = (closed[lev] or 0) + 1
    end
    for px, py in d:gmatch("([%d.]+) ([%d.]+)") do
      local x1, x2 = tox(tonumber(px), tonumber(py))
      local g1, g2 = gq(x1, x2)
      local tol = ninterp + math.abs(g1) * ex + math.abs(g2) * ey
        + math.abs(lev) * 1e-9
      local err = math.abs(fq(x1, x2) - lev)
      npts = npts + 1
      if err > tol then bad = bad + 1 end
      if err / tol > worst then worst = err / tol end
    end
  end
  t.ok(npaths >= 8 and npts >= 200 and bad == 0, string.format(
       "figures: landscape SVG: all %d points of %d contour paths lie on "
       .. "their level, |f - level| <= f'' h^2/8 + rounding (worst %.4f of "
       .. "the bound)", npts, npaths, worst))
  -- a level's ellipse spans |x_i - c_i| <= sqrt(2 L (A^-1)_ii); well
  -- inside the window (a grid cell to spare) it is one closed path,
  -- crossing the window's edge it is not closed
  local det = A11 * A22 - A12 * A12
  local inside, right = 0, 0
  for _, lev in ipairs(levels) do
    local r1 = math.sqrt(2 * lev * A22 / det)
    local r2 = math.sqrt(2 * lev * A11 / det)
    local lo1, hi1, lo2, hi2 = c1 - r1, c1 + r1, c2 - r2, c2 + r2
    if lo1 > w[1] + hx and hi1 < w[2] - hx and lo2 > w[3] + hy
       and hi2 < w[4] - hy then
      inside = inside + 1
      if closed[lev] == 1 then right = right + 1 end
    elseif lo1 < w[1] - hx or hi1 > w[2] + hx or lo2 < w[3] - hy
           or hi2 > w[4] + hy then
      if not closed[lev] then right = right + 1 end
    else
      right = right + 1
    end
  end
  t.ok(inside >= 3 and right == #levels, string.format("figures: landscape "
       .. "SVG: the %d levels whose ellipse is inside the window are one "
       .. "closed path each, the ones crossing its edge are open (%d of %d "
       .. "levels right, %d closed paths)", inside, right, #levels,
       nclosed))
  local asc = true
  for i = 2, #levels do asc = asc and levels[i] > levels[i - 1] end
  t.ok(#levels >= 8 and asc, "figures: landscape SVG: " .. #levels
       .. " increasing levels")
  -- ticks: at least 3 per axis, equally spaced by 1, 2 or 5 x 10^k, each
  -- label at its value's place
  for _, ax in ipairs({"x", "y"}) do
    local vals, okpos = {}, true
    local pat = ax == "x"
      and '<line x1="([%d.]+)" y1="[%d.]+" x2="[%d.]+" y2="[%d.]+" '
          .. 'stroke="#444"/><text [^>]*class="xtick">([^<]*)<'
      or '<line x1="[%d.]+" y1="([%d.]+)" x2="[%d.]+" y2="[%d.]+" '
          .. 'stroke="#444"/><text [^>]*class="ytick">([^<]*)<'
    for pos, lab in panel:gmatch(pat) do
      local v = tonumber(lab)
      vals[#vals + 1] = v
      local want = ax == "x" and bx + (v - w[1]) / (w[2] - w[1]) * bw
        or by + (w[4] - v) / (w[4] - w[3]) * bh
      if math.abs(tonumber(pos) - want) > 0.1 then okpos = false end
    end
    local step = #vals >= 2 and vals[2] - vals[1] or 0
    local even = step > 0
    for i = 2, #vals do
      even = even and math.abs(vals[i] - vals[i - 1] - step) < 1e-9 * step
    end
    local m = step > 0 and step / 10 ^ math.floor(math.log(step, 10) + 1e-9)
    local nice = m and (math.abs(m - 1) < 1e-9 or math.abs(m - 2) < 1e-9
                        or math.abs(m - 5) < 1e-9)
    t.ok(#vals >= 3 and even and nice and okpos, string.format(
         "figures: landscape SVG: %d %s ticks a nice %g apart, each at its "
         .. "value", #vals, ax, step))
  end
  -- x*: the star's centre (the mean of its ten points); the start: the
  -- open square's centre
  local sd = panel:match('<path class="xstar" [^>]- d="([^"]*)"')
  local sx, sy, k = 0, 0, 0
  for px, py in (sd or ""):gmatch("([%d.]+) ([%d.]+)") do
    sx, sy, k = sx + tonumber(px), sy + tonumber(py), k + 1
  end
  local x1, x2 = tox(k > 0 and sx / k or 0, k > 0 and sy / k or 0)
  t.ok(k == 10 and math.abs(x1 - c1) < 2e-3 and math.abs(x2 - c2) < 2e-3,
       string.format("figures: landscape SVG: x* is starred at (%.4f, %.4f)",
                     x1, x2))
  local rx, ry = panel:match('<rect class="start" x="([%d.]+)" y="([%d.]+)"')
  x1, x2 = tox((tonumber(rx) or 0) + 3.5, (tonumber(ry) or 0) + 3.5)
  t.ok(rx and math.abs(x1 - 1.5) < 2e-3 and math.abs(x2 - 1) < 2e-3,
       string.format("figures: landscape SVG: the start is marked at "
                     .. "(%.4f, %.4f)", x1, x2))
  t.ok(panel:find('class="xstar key"', 1, true)
       and panel:find('class="note">x*<', 1, true),
       "figures: landscape SVG: the key names x*")
end
-- (7) in a race on the landscape no path hides another: gd and momentum
-- with mu = 0 take the very same steps, drawn in that order; each run's
-- colour still covers a good many pixels of the map (the slide-sized
-- PNG, decoded)
if have.perl then
  local four = race(problem.quadratic{n = 2, cond = 20}, {optim.gd{lr = 0.05},
    optim.momentum{lr = 0.05, mu = 0}, optim.nesterov{lr = 0.02, mu = 0.9},
    optim.adam{lr = 0.1}}, {iters = 200, progress = false})
  t.is(four[1].x[1], four[2].x[1], "figures: gd and momentum{mu = 0} end at "
       .. "the same point (the same path)")
  four:plot{file = tmp .. "/four.png", watch = {"landscape"}}
  four:plot{file = tmp .. "/four.svg", watch = {"landscape"}, width = 711,
            height = 400}
  local svg = slurp(tmp .. "/four.svg") or ""
  local _, okp = sh("perl tests/lib/png2ppm.pl " .. tmp .. "/four.png > "
                    .. tmp .. "/four.ppm")
  local im = okp == 0 and ppm(tmp .. "/four.ppm")
  local bx, by, bw, bh = svg:match('<rect x="([%d.]+)" y="([%d.]+)" '
    .. 'width="([%d.]+)" height="([%d.]+)" class="frame"')
  local cols = {}
  for col in svg:gmatch('<g class="legend"><line [^>]-stroke="#(%x+)"') do
    cols[#cols + 1] = {tonumber(col:sub(1, 2), 16),
      tonumber(col:sub(3, 4), 16), tonumber(col:sub(5, 6), 16)}
  end
  if im and bx and #cols == 4 then
    local s = im.h / 400
    local count = {0, 0, 0, 0}
    for y = math.ceil(by * s), math.floor((by + bh) * s) - 1 do
      for x = math.ceil(bx * s), math.floor((bx + bw) * s) - 1 do
        local pr, pg, pb = im.px(x, y)
        for k, c in ipairs(cols) do
          if math.abs(pr - c[1]) <= 6 and math.abs(pg - c[2]) <= 6
             and math.abs(pb - c[3]) <= 6 then
            count[k] = count[k] + 1
          end
        end
      end
    end
    local least = math.min(count[1], count[2], count[3], count[4])
    t.ok(least >= 1000, "figures: PNG: every run's colour shows on the "
         .. "landscape, the hidden-under-momentum gd too (pixels: "
         .. table.concat(count, ", ") .. "; >= 1000 each)")
  else
    t.ok(false, "figures: PNG of the 4-run landscape decodes")
  end
end

-- a problem that does not know x*: no star
local nox = problem.new{n = 2, x0 = {1.5, 1},
  f = function (x) return fq(x[1], x[2]) end,
  grad = function (x) local a, b = gq(x[1], x[2]) return {a, b} end}
run(nox, optim.gd{lr = 0.05}, {iters = 50, progress = false}):plot{
  file = tmp .. "/nox.svg", watch = {"landscape"}}
local nd = slurp(tmp .. "/nox.svg") or ""
t.ok(nd:find('class="contour"', 1, true) and not nd:find("xstar", 1, true),
     "figures: landscape SVG: no star when x* is unknown")

os.execute("rm -rf " .. tmp)
t.done()
