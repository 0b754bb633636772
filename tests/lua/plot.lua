-- tests/lua/plot.lua -- r:plot and race:plot: the text rendering (legend,
-- fixed width, panels), the SVG export (rendered by rsvg-convert to a PNG
-- of the requested size, one series path per run and panel) and the
-- argument errors.
local t = dofile("tests/lib/tap.lua")


local function sh (cmd)
  local p = io.popen(cmd)
  local s = p:read("a")
  local okk = p:close()
  return s, okk
end

local tmp = os.tmpname()
os.remove(tmp)
os.execute("mkdir -p " .. tmp)

-- (1) text, in a child process so stdout can be read
local script = tmp .. "/text.lua"
local f = assert(io.open(script, "w"))
f:write([[
local r = race(problem.rosenbrock{n=2}, {optim.gd{lr=1e-3},
  optim.adam{lr=0.05}}, {iters=500, progress=false})
r:plot{text=true}
]])
f:close()
local out, okk = sh("LANG=C LC_ALL= ./optlab " .. script)
t.ok(okk, "plot: text rendering runs")
local lines, wide = {}, 0
for l in out:gmatch("([^\n]*)\n") do
  lines[#lines + 1] = l
  if #l ~= 80 then wide = wide + 1 end
end
t.is(wide, 0, "plot: every text line is 80 columns")
t.is(#lines, 3 * 16, "plot: three panels of 16 rows (loss, gradnorm, "
     .. "landscape)")
t.ok(out:find("gd lr=0.001", 1, true) and out:find("adam lr=0.05", 1, true),
     "plot: the legend names both runs")
t.ok(out:find("loss [log]", 1, true) and out:find("landscape x1,x2", 1,
     true), "plot: panel titles")
t.ok(not out:find("[\128-\255]"), "plot: ASCII only under LANG=C")
t.ok(out:find("@", 1, true) and out:find("b", 1, true),
     "plot: heat map and the second run's path letter")
out = sh("LANG=C.UTF-8 LC_ALL= ./optlab " .. script)
t.ok(out:find("\226\160", 1, true) or out:find("\226\161", 1, true)
     or out:find("\226\162", 1, true) or out:find("\226\163", 1, true),
     "plot: braille under a UTF-8 locale")

-- (2) SVG of a finished 3-method race
local r = race(problem.rosenbrock{n=2}, {optim.gd{lr=1e-3},
  optim.momentum{lr=1e-3, mu=0.9}, optim.adam{lr=0.05}},
  {iters=3000, progress=false})
local svg = tmp .. "/race.svg"
t.ok(r:plot{file=svg, watch={"loss", "gradnorm", "landscape"}, width=900,
            height=700}, "plot: race:plot writes an SVG")
local text = assert(io.open(svg)):read("a")
local n = 0
for _ in text:gmatch('<path class="series"') do n = n + 1 end
t.is(n, 3 * 3, "plot: one series path per run and panel (3 x 3)")
t.ok(text:find("momentum lr=0.001", 1, true), "plot: SVG legend labels")
local have = sh("command -v rsvg-convert")
if have ~= "" then
  local png = tmp .. "/race.png"
  local _, rc = sh("rsvg-convert -o " .. png .. " " .. svg)
  t.ok(rc, "plot: rsvg-convert renders the SVG")
  local p = assert(io.open(png, "rb")):read("a")
  t.ok(#p > 1000 and p:sub(2, 4) == "PNG", "plot: a non-empty PNG")
  local w = string.unpack(">I4", p, 17)
  local h = string.unpack(">I4", p, 21)
  t.is(w, 900, "plot: PNG width as requested")
  t.is(h, 700, "plot: PNG height as requested")
else
  t.diag("rsvg-convert missing (make deps): PNG checks skipped")
end

-- (3) a game: simplex panel in the SVG, one path per run
local g = run(problem.rps{}, game.rmplus{}, {iters=300, progress=false})
local gs = tmp .. "/game.svg"
t.ok(g:plot{file=gs}, "plot: r:plot of a game")
text = assert(io.open(gs)):read("a")
n = 0
for _ in text:gmatch('<path class="series"') do n = n + 1 end
t.ok(text:find(">simplex<", 1, true), "plot: a game gets the simplex")
local titles = 0
for _ in text:gmatch('class="title"') do titles = titles + 1 end
t.ok(titles >= 2 and n == titles - 1,
     "plot: one path per panel for one run (" .. n .. " paths, "
     .. (titles - 1) .. " panels)")
t.ok(text:find("<polygon", 1, true), "plot: the triangle")

-- (4) errors
t.errors("unknown key 'colour' (valid: file, watch, width, height, text, "
         .. "xaxis, xlog)",
         function () r:plot{colour = "red"} end)
t.errors("unknown metric or panel 'lossy'",
         function () r:plot{watch = {"lossy"}} end)
t.errors("metric 'dist' was not recorded",
         function () g:plot{file = gs, watch = {"dist"}} end)
t.errors("no simplex for",
         function () r:plot{file = svg, watch = {"simplex"}} end)
t.errors("needs the trajectory", function ()
  local q = run(problem.rosenbrock{n=2}, optim.gd{}, {iters=5,
                record_x=false, progress=false})
  q:plot{text=true, watch={"landscape"}}
end)
t.errors("width = 10 is out of range", function ()
  r:plot{file = svg, width = 10}
end)
t.errors("not both", function () r:plot{file = svg, text = true} end)
t.errors("unknown metric or panel 'nope'", function ()
  run(problem.rosenbrock{n=2}, optim.gd{}, {iters=1, watch={"nope"},
      progress=false})
end)

os.execute("rm -rf " .. tmp)
t.done()
