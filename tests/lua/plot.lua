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
t.is(select("#", r:plot{file=svg, watch={"loss", "gradnorm", "landscape"},
                        width=900, height=700}), 0,
     "plot: race:plot writes an SVG and returns nothing")
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
t.is(select("#", g:plot{file=gs}), 0, "plot: r:plot of a game")
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

-- (3b) legends: outside the axes box, labels shortened by whole tokens
local function textplot (body, env)
  local sf = tmp .. "/tp.lua"
  local fh = assert(io.open(sf, "w"))
  fh:write(body)
  fh:close()
  local o = sh((env or "LANG=C LC_ALL=") .. " ./optlab " .. sf)
  local ls = {}
  for l in o:gmatch("([^\n]*)\n") do ls[#ls + 1] = l end
  return ls, o
end
local six = [[
local r = race(problem.rosenbrock{n=2}, {optim.gd{lr=1e-3},
  optim.momentum{lr=1e-3, mu=0.95}, optim.adam{lr=0.01},
  optim.nesterov{lr=1e-3, mu=0.9}, optim.adagrad{lr=0.1},
  optim.rmsprop{lr=0.01}}, {iters=300, progress=false})
r:plot{text=true, watch={"loss"}, width=%d}
]]
local tokens = {["lr=0.001"] = true, ["mu=0.95"] = true, ["lr=0.01"] = true,
                ["mu=0.9"] = true, ["lr=0.1"] = true}
for _, width in ipairs({80, 60, 44}) do
  local ls = textplot(six:format(width))
  -- the x axis row: "|       ++----"; its tick labels below it
  local axis
  for i, l in ipairs(ls) do
    if l:match("^| +%+%+%-") then axis = i break end
  end
  local below, inside, bad = true, false, {}
  for i, l in ipairs(ls) do
    for _, name in ipairs({"gd", "momentum", "adam", "nesterov", "adagrad",
                           "rmsprop"}) do
      if l:find("[%.%*o%+x#@%%] " .. name .. "[ .]") and axis
         and i <= axis + 1 then below = false end
    end
    if axis and i < axis and l:find("lr=", 1, true) then inside = true end
    if axis and i > axis + 1 then
      for tok in l:gmatch("(%a+=[^%s]*)") do
        tok = tok:gsub("%.%.%.$", "")
        if not tokens[tok] then bad[#bad + 1] = tok end
      end
    end
  end
  t.ok(axis ~= nil and below and not inside, "plot: at width " .. width
       .. " the 6 legend entries are below the x axis, none in the plot")
  t.ok(#bad == 0, "plot: at width " .. width .. " legend tokens are whole ("
       .. table.concat(bad, " ") .. ")")
end

-- (3c) the x axis title is in the bottom border: the last tick stays
do
  local ls = textplot([[
local r = run(problem.rosenbrock{n=2}, optim.adam{lr=0.05}, {iters=500,
  progress=false})
r:plot{text=true, watch={"loss"}}
]])
  local axis
  for i, l in ipairs(ls) do
    if l:match("^| +%+%+%-") then axis = i break end
  end
  t.ok(axis and ls[axis + 1]:match("500|$"),
       "plot: the last x tick label (500) is shown whole at the right end")
  t.ok(ls[#ls]:match("^%+%-+ iteration %-%-%+$"),
       "plot: the x axis title is in the bottom border")
end

-- (3d) exact zeros and denormals: drawn at the floor, they do not set the
-- range (a loss reaching 3e-323 would run the axis to 1e-323 and flatten
-- the other curve)
do
  local ls, o = textplot([[
local p = problem.new{n = 2, x0 = {1, 1}, f = function (x)
  local v = x[1]^2 + x[2]^2
  if v < 1e-6 then return 3e-323 end
  return v end, grad = function (x) return {2 * x[1], 2 * x[2]} end}
local z = problem.new{n = 2, x0 = {1, 1}, f = function (x)
  local v = x[1]^2 + x[2]^2
  if v < 1e-6 then return 0 end
  return v end, grad = function (x) return {2 * x[1], 2 * x[2]} end}
local a = run(p, optim.gd{lr=0.2}, {iters=300, tol=0, progress=false})
local c = run(z, optim.gd{lr=0.2}, {iters=300, tol=0, progress=false})
local b = run(problem.quadratic{n=2, cond=10}, optim.gd{lr=0.01},
  {iters=300, tol=0, progress=false})
a.plot({a, c, b}, {text=true, watch={"loss"}})
]])
  local lowest, floor, rows = math.huge, nil, {}
  local axis
  for i, l in ipairs(ls) do
    if l:match("^| +%+%+%-") then axis = i break end
    local tick = l:match("^| *([%d.e+-]+)%+")
    if tick then lowest = math.min(lowest, tonumber(tick)) end
  end
  t.ok(axis and lowest >= 1e-7, "plot: the y range ends at 1e-7 or above "
       .. "(lowest tick " .. lowest .. "), not at the denormal")
  t.ok(axis and ls[axis - 1]:find("vvvv", 1, true),
       "plot: the denormal and zero losses are 'v' marks on the floor row")
  for i = 1, (axis or 1) - 1 do
    if ls[i]:find("o", 9, true) then rows[#rows + 1] = i end
  end
  t.ok(#rows >= 3, "plot: the normal run's curve spans " .. #rows
       .. " rows (not flattened)")
  local _, u = textplot([[
local p = problem.new{n = 2, x0 = {1, 1}, f = function (x)
  local v = x[1]^2 + x[2]^2
  if v < 1e-6 then return 0 end
  return v end, grad = function (x) return {2 * x[1], 2 * x[2]} end}
run(p, optim.gd{lr=0.2}, {iters=300, tol=0, progress=false}):plot{
  text=true, watch={"loss"}}
]], "LANG=C.UTF-8 LC_ALL=")
  t.ok(u:find("\226\150\188", 1, true), "plot: UTF-8 floor marks are U+25BC")
end

-- (3e) log x axis: decade ticks 1, 10, 100, 1000
do
  local ls = textplot([[
local r = run(problem.rosenbrock{n=2}, optim.adam{lr=0.05}, {iters=1000,
  progress=false})
r:plot{text=true, watch={"loss"}, xlog=true}
]])
  local axis
  for i, l in ipairs(ls) do
    if l:match("^| +%+%+%-") or l:match("^| +%+%-") then axis = i break end
  end
  local row = axis and ls[axis + 1] or ""
  local got = {}
  for n in row:gmatch("%d+") do got[#got + 1] = n end
  t.is(table.concat(got, " "), "1 10 100 1000",
       "plot: xlog ticks are the decades 1 10 100 1000")
  t.ok(ls[1]:find("log x", 1, true) and ls[#ls]:find("iteration (log)", 1,
       true), "plot: xlog is named in the title and the axis title")
  t.errors("xlog must be a boolean", function ()
    r:plot{text=true, xlog=1}
  end)
end

-- (3e') a game's regret and gap panels are on log x by default (their
-- rate claims are log-log lines); entropy and an optimizer's loss are not
do
  local ls = textplot([[
local g = run(problem.rps{}, game.rmplus{}, {iters=1000, progress=false})
g:plot{text=true, watch={"exploitability_avg", "regret", "entropy"}}
]])
  local titles = {}
  for _, l in ipairs(ls) do
    local name, mode = l:match("^%+%-%- ([%w_]+) %[([^]]*)%]")
    if name then titles[name] = mode end
  end
  t.ok(titles.exploitability_avg and titles.exploitability_avg:find("log x",
       1, true) and titles.regret and titles.regret:find("log x", 1, true),
       "plot: a game's exploitability_avg and regret panels are log x by "
       .. "default")
  t.ok(titles.entropy and not titles.entropy:find("log x", 1, true),
       "plot: entropy stays on a linear x")
  local lo = textplot([[
local r = run(problem.rosenbrock{n=2}, optim.adam{}, {iters=100,
  progress=false})
r:plot{text=true, watch={"loss"}}
]])
  t.ok(not lo[1]:find("log x", 1, true), "plot: a loss panel stays on "
       .. "linear x")
end

-- (3f) SVG ticks: one notation per axis; a time axis in one unit
do
  local function axes (doc)
    local res = {}
    for body in doc:gmatch('<g class="panel"(.-)</g>\n') do
      local ax = {y = {}, x = {}}
      for v in body:gmatch('class="ytick">([^<]*)<') do ax.y[#ax.y + 1] = v end
      for v in body:gmatch('class="xtick">([^<]*)<') do ax.x[#ax.x + 1] = v end
      ax.xlabel = body:match('class="xlabel">([^<]*)<')
      res[#res + 1] = ax
    end
    return res
  end
  local function notation (v)
    if v:match("^%-?%d+%.?%d*$") then return "plain" end
    if v:match("^%-?%d+%.?%d*e%-?%d+$") then return "sci" end
    return "other:" .. v
  end
  local function one (list)
    local n = list[1] and notation(list[1])
    for _, v in ipairs(list) do
      if notation(v) ~= n then return false, table.concat(list, " ") end
    end
    return n ~= nil and not n:find("other"), table.concat(list, " ")
  end
  local long = run(problem.rosenbrock{n=2}, optim.adam{lr=0.05},
                   {iters=20000, tol=0, progress=false})
  local sf = tmp .. "/ticks.svg"
  long:plot{file=sf, watch={"loss", "gradnorm", "landscape"}}
  local doc = assert(io.open(sf)):read("a")
  local all, nax = true, 0
  for _, ax in ipairs(axes(doc)) do
    for _, list in ipairs({ax.y, ax.x}) do
      local okk, s = one(list)
      nax = nax + 1
      if not okk then all = false t.diag("mixed ticks: " .. s) end
    end
  end
  t.ok(all and nax == 6, "plot: SVG: every one of " .. nax
       .. " axes uses one notation")
  -- a y axis spanning 1e-8..1e2 on a log scale is all scientific
  local sci = 0
  for _, ax in ipairs(axes(doc)) do
    if ax.y[1] and notation(ax.y[1]) == "sci" then sci = sci + 1 end
  end
  t.ok(sci >= 1, "plot: SVG: a y axis over many decades is scientific")
  long:plot{file=sf, watch={"loss"}, xaxis="time"}
  local tx = axes(assert(io.open(sf)):read("a"))[1]
  local unit = tx.xlabel and tx.xlabel:match("^time %[(%a+)%]$")
  t.ok(unit == "ms" or unit == "s" or unit == "min",
       "plot: SVG: the time axis names its unit (" .. tostring(tx.xlabel)
       .. ")")
  local okk, s = one(tx.x)
  t.ok(okk and not s:find("s", 1, true), "plot: SVG: time ticks are "
       .. "numbers in that unit (" .. s .. ")")
  local hi = tonumber(tx.x[#tx.x])
  t.ok(hi and hi >= 1 and hi <= 1000, "plot: SVG: the time axis ends at a "
       .. "readable number of " .. tostring(unit) .. " (" .. tostring(hi)
       .. ")")
end

-- (3g) default panels per family (r:plot text output: the panel titles)
do
  local function titles (body)
    local ls = textplot(body)
    local got = {}
    for _, l in ipairs(ls) do
      local name = l:match("^%+%-%- ([%w_ ,]+)")
      if name then got[#got + 1] = name:gsub("%s+$", "") end
    end
    return table.concat(got, "; ")
  end
  t.is(titles([[run(problem.rps{}, game.rmplus{}, {iters=100,
    progress=false}):plot{text=true}]]),
    "exploitability_avg; exploitability; entropy; simplex",
    "plot: a game's default panels are the average's and the last "
    .. "iterate's exploitability, entropy, simplex")
  t.is(titles([[run(problem.gauss2d{}, sample.nuts{}, {iters=100,
    progress=false}):plot{text=true}]]),
    "accept; trace x1; cloud x1,x2 over log p contours; stepsize",
    "plot: a 2-D adapting sampler's default panels are accept, trace, "
    .. "the cloud over log p contours, step size")
  t.is(titles([[run(problem.gaussian{n=5}, sample.rwmh{}, {iters=100,
    progress=false}):plot{text=true}]]),
    "accept; trace x1; cloud x1,x2; stepsize",
    "plot: a 5-D sampler's default panels are accept, trace, the cloud "
    .. "(no contours: a slice is not the marginal), step size")
  t.is(titles([[run(problem.rosenbrock{n=2}, optim.adam{}, {iters=100,
    progress=false}):plot{text=true}]]),
    "loss; gradnorm; landscape x1,x2",
    "plot: an optimizer's default panels are loss, gradnorm, landscape")
  t.is(titles([[run(problem.gaussian{n=5}, sample.rwmh{}, {iters=100,
    progress=false}):plot{text=true, watch={"trace", "cloud"}}]]),
    "trace x1; cloud x1,x2", "plot: watch = {\"trace\", \"cloud\"}")
end

-- (3b) repeats and sweep plot as a race of their curves: the bands of a
-- repeats (their final values are the type-7 quantiles of the runs'
-- final values, which q:quantile computes independently in Lua), a
-- sweep's configurations labelled by their parameters; labels checked
do
  local q = repeats(problem.quadratic{noise = {kind = "gauss", sigma = 0.1}},
                    optim.gd{lr = 0.5}, {iters = 60, seed = 3}, 9)
  local qs = tmp .. "/q.svg"
  q:plot{file = qs}
  local doc = assert(io.open(qs)):read("a")
  local _, nseries = doc:gsub('class="series"', "")
  t.is(nseries, 6, "repeats:plot: 3 band curves in each of 2 panels")
  t.ok(doc:find(">90% of 9 runs<", 1, true) and doc:find(">median<", 1, true)
       and doc:find(">10%<", 1, true), "repeats:plot: the bands are named")
  -- the text legend's last values against q:quantile (4 significant
  -- digits printed: 5e-4 relative)
  local script = tmp .. "/bands.lua"
  local f = assert(io.open(script, "w"))
  f:write([[
local q = repeats(problem.quadratic{noise = {kind = "gauss", sigma = 0.1}},
                  optim.gd{lr = 0.5}, {iters = 60, seed = 3}, 9)
q:plot{text = true, watch = {"loss"}}
for _, p in ipairs{0.9, 0.5, 0.1} do
  io.write(string.format("Q %.17g\n", q:quantile("loss", p)))
end
]])
  f:close()
  local out = sh("LANG=C LC_ALL= ./optlab " .. script)
  local want = {}
  for v in out:gmatch("Q (%S+)") do want[#want + 1] = tonumber(v) end
  local got = {out:match("90%% of 9 runs (%S+)"), out:match("median (%S+)"),
               out:match("10%% (%S+)")}
  local close = #want == 3 and #got == 3
  for k = 1, 3 do
    local g = tonumber(got[k])
    if not (close and g and math.abs(g - want[k]) <= 5e-4 * want[k]) then
      close = false
    end
  end
  t.ok(close, "repeats:plot: each band ends at that quantile of the final "
       .. "losses (legend " .. table.concat(got, ", ") .. " vs "
       .. table.concat(want, ", ") .. ")")
  local s = sweep(problem.quadratic{}, optim.gd, {lr = {0.1, 1, 1.9}},
                  {iters = 20})
  local ss = tmp .. "/s.svg"
  s:plot{file = ss, watch = {"loss"}, runs = true}
  doc = assert(io.open(ss)):read("a")
  _, nseries = doc:gsub('class="series"', "")
  t.is(nseries, 3, "sweep:plot: one curve per configuration")
  t.ok(doc:find(">lr=0.1<", 1, true) and doc:find(">lr=1.9<", 1, true),
       "sweep:plot: curves labelled by their parameter values")
  t.errors("sweep:plot: labels has 1 entry, 3 expected (one per run)",
           function () s:plot{file = ss, labels = {"a"}, runs = true} end)
  t.errors("sweep:plot: options must be a table", function () s:plot(3) end)
  t.errors("plot: labels[2] must be a string", function ()
    local bad = {}
    for i = 1, #r do bad[i] = "run " .. i end
    bad[2] = 2
    r:plot{file = ss, labels = bad}
  end)
end

-- (4) errors
t.errors("unknown key 'colour' (valid: file, watch, width, height, text, "
         .. "xaxis, xlog, labels",
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

-- (6) the landscape's marks and window in the text plot (what the last
-- frame of a live view prints too) and the SVG: the start (open circle)
-- and x* (star) are drawn and keyed; view = {xlim, ylim} of the run, or
-- the plot's own xlim and ylim, fix the window (title "fixed", the axis
-- ends the limits), a diverging run's path is clipped to it in the SVG
do
  local ms = tmp .. "/marks.lua"
  local g = assert(io.open(ms, "w"))
  g:write([[
local r = race(problem.rosenbrock{n=2}, {optim.gd{lr=1e-3},
  optim.gd{lr=0.01}}, {iters=300, progress=false,
  view={xlim={-2, 2}, ylim={-1, 3}}})
r:plot{width=80, height=20, watch={"landscape"}}
print("--")
r:plot{width=80, height=20, watch={"landscape"}, xlim={-1.5, 0}}
print("--")
r:plot{file=os.getenv("SVGOUT"), watch={"landscape"}}
local q = run(problem.rosenbrock{n=2}, optim.gd{lr=1e-3}, {iters=300,
  progress=false})
q:plot{width=80, height=20, watch={"landscape"}}
]])
  g:close()
  local so = tmp .. "/marks.svg"
  local o2, ok2 = sh("LANG=C.UTF-8 LC_ALL= SVGOUT=" .. so .. " ./optlab "
                     .. ms .. " 2>/dev/null")
  t.ok(ok2, "landscape marks: the script runs")
  local a, b, c = o2:match("^(.-)\n%-%-\n(.-)\n%-%-\n(.*)$")
  t.ok(a ~= nil, "landscape marks: three text plots")
  a, b, c = a or "", b or "", c or ""
  for name, s in pairs{fixed = a, own = b, runs = c} do
    t.ok(s:find("\u{25CB} start  \u{2605} x*", 1, true),
         "landscape marks (" .. name .. "): start and x* are keyed")
    local body = s:gsub("\u{25CB} start  \u{2605} x%*", "")
    t.ok(body:find("\u{25CB}", 1, true),
         "landscape marks (" .. name .. "): the start is drawn")
  end
  t.ok(a:find("landscape x1,x2 [log f] fixed", 1, true)
       and a:find("\u{2502}%s+%-2%s+x1%s+2\u{2502}")
       and a:find("\u{2502}     3 ") and a:find("\u{2502}    %-1 "),
       "landscape window: view = {xlim, ylim} of the run fixes the text "
       .. "plot's window (-2..2, -1..3)")
  t.ok(a:find("\u{2605}", 1, true) and a:gsub("\u{2605} x%*", ""):find(
         "\u{2605}", 1, true),
       "landscape window: x* = (1, 1) is inside it and drawn")
  t.ok(b:find("\u{2502}%s+%-1%.5%s+x1%s+0\u{2502}")
       and b:find("\u{2502}     3 "),
       "landscape window: the plot's xlim replaces that axis only")
  t.ok(not c:find("fixed", 1, true),
       "landscape window: a run without view limits is not fixed")
  local sv = io.open(so) and io.open(so):read("a") or ""
  t.ok(sv:find('data-window="-2 2 -1 3"', 1, true)
       and sv:find("landscape x1,x2 [log f] fixed", 1, true),
       "landscape window: the SVG keeps the fixed window")
  t.ok(sv:find('<g clip%-path="url%(#lclip') and sv:find("<clipPath"),
       "landscape window: the SVG's paths are clipped to it")
  local big = 0
  for v in sv:gmatch('class="series"[^>]* d="([^"]*)"') do
    for num in v:gmatch("%-?[%d%.]+e?[%+%-]?%d*") do
      local x = tonumber(num)
      if x and math.abs(x) > 1e5 + 1 then big = big + 1 end
    end
  end
  t.is(big, 0, "landscape window: no path coordinate beyond 1e5 px (the "
       .. "diverging run clamped)")
  t.errors("plot: xlim must be {lo, hi}, two finite numbers with lo < hi",
           function () r:plot{text = true, xlim = {1, 0}} end)
end

os.execute("rm -rf " .. tmp)
t.done()
