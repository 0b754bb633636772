-- tests/lua/figures.lua -- figures for slides: r:plot{file = "x.png"} and
-- "x.pdf" (lua/lfigure.c: the SVG drawn by librsvg on a cairo surface).
-- The files open (file(1) names the format and the PNG's size, pdfinfo
-- the PDF's page), are 16:9 by default, carry the legend (pdftotext finds
-- every run's label; the PNG's pixels hold every run's swatch colour) in
-- text legible from the back of a room (>= 2.5% of the height), and the
-- argument and file errors are clear and leave no file behind.
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

os.execute("rm -rf " .. tmp)
t.done()
