-- lua/sweep.lua -- multi-seed repeats and parameter sweeps.
--
-- repeats(problem, method, opts, R): R runs of one method with the same
-- seed on independent rng streams 0..R-1, summarised by quantiles of the
-- final metric values.  sweep(problem, ctor, grid, opts): one run per
-- configuration of a cartesian grid of method parameters.  Both run
-- headless (progress and view off) and return objects with a tostring.
-- Ctrl-C stops the whole call, not only its current run: the runs that
-- finished are kept and returned, and the object says it was interrupted.
-- Quantiles are type 7 of Hyndman & Fan (1996): linear interpolation
-- between order statistics, h = (R - 1) p + 1.  Loaded by lua/lembed.c
-- after the binding has made the globals run, optim, problem (and after
-- lua/help.lua, whose core.fdocs table receives the help texts).
local core = ...

-- What this file uses, captured at load time (see lua/help.lua).
local error, ipairs, pairs, pcall, select, setmetatable, tostring, type =
  error, ipairs, pairs, pcall, select, setmetatable, tostring, type
local io, math, string, table, run = io, math, string, table, run
local fmt, concat, sort = string.format, table.concat, table.sort
local typeof = core.typeof

core.fdocs = core.fdocs or {}
core.frows = core.frows or {}

-- NaN sorts after +inf (a diverged run is worse than any finite one).
local function before (a, b)
  if a ~= a then return false end
  if b ~= b then return true end
  return a < b
end

local function sorted (vals)
  local v = {}
  for i = 1, #vals do v[i] = vals[i] end
  sort(v, before)
  return v
end

-- Type-7 quantile of the sorted list v at p in [0, 1].
local function quantile7 (v, p)
  local n = #v
  local h = (n - 1) * p + 1
  local lo = math.floor(h)
  if lo >= n then return v[n] end
  local frac = h - lo
  local a, b = v[lo], v[lo + 1]
  if frac == 0 or a == b then return a end
  return a + frac * (b - a)
end

-- Numbers as everywhere (core.fmtnum, lua/prelude.lua): 3 digits, no -0.
local function g3 (v)
  return core.fmtnum(v, 3)
end

local function showval (v)
  if math.type(v) == "float" then return fmt("%g", v) end
  return tostring(v)
end

-- Aligned rows (lists of strings), first column left-aligned, the others
-- right-aligned, two-space indent.
local function tabulate (rows, lines)
  local w = {}
  for _, row in ipairs(rows) do
    for j, cell in ipairs(row) do w[j] = math.max(w[j] or 0, #cell) end
  end
  for _, row in ipairs(rows) do
    local cells = {}
    for j, cell in ipairs(row) do
      cells[j] = j == 1 and cell .. (" "):rep(w[j] - #cell)
        or (" "):rep(w[j] - #cell) .. cell
    end
    lines[#lines + 1] = "  " .. concat(cells, "  ")
  end
end

-- Check that metric is recorded by run r; raises naming the recorded
-- ones otherwise.
local function checkmetric (who, r, metric)
  if type(metric) ~= "string" then
    error(fmt("%s: metric must be a string, got a %s", who, type(metric)), 3)
  end
  local names = r:metrics()
  for _, m in ipairs(names) do
    if m == metric then return end
  end
  error(fmt("%s: metric '%s' was not recorded (recorded: %s)", who, metric,
            concat(names, ", ")), 3)
end

-- Copy of the options table with progress and view off; raises on a
-- non-table and on the keys listed in banned.
local function headless (who, opts, banned)
  if opts ~= nil and type(opts) ~= "table" then
    error(fmt("%s: options must be a table, got a %s", who, type(opts)), 3)
  end
  local o = {}
  for k, v in pairs(opts or {}) do
    if banned and banned[k] then
      error(fmt("%s: option '%s' is set by %s itself", who, k, who), 3)
    end
    o[k] = v
  end
  o.progress, o.view = false, false
  return o
end

-- A CSV number: every digit (%.17g), nan and inf unsigned (as race:csv).
local function csvnum (v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  return fmt("%.17g", v)
end

-- Long CSV rows of runs: lead(i) (the leading cells of run i, with their
-- commas), iter, then the metrics of the first run (nan where a run did
-- not record one), one row per recorded time; live parameter changes
-- first, a comment line each ("# change run=2 iter=10 lr=0.5", run i of
-- runs; none without changes).
local function longcsv (runs, head, lead)
  local names = runs[1]:metrics()
  local out = {}
  for i, r in ipairs(runs) do
    for _, c in ipairs(r.changes) do
      out[#out + 1] = fmt("# change run=%d iter=%d %s=%s", i, c.iter,
                          c.param, csvnum(c.value))
    end
  end
  out[#out + 1] = head .. ",iter," .. concat(names, ",")
  for i, r in ipairs(runs) do
    local have, cols, times = {}, {}, nil
    for _, m in ipairs(r:metrics()) do have[m] = true end
    for j, m in ipairs(names) do
      if have[m] then cols[j], times = r:series(m) end
    end
    if not times then times = select(2, r:series(r:metrics()[1])) end
    local l = lead(i)
    for k = 1, #times do
      local row = {l, times[k]}
      for j = 1, #names do
        row[#row + 1] = cols[j] and csvnum(cols[j][k]) or "nan"
      end
      out[#out + 1] = concat(row, ",")
    end
  end
  return concat(out, "\n") .. "\n"
end

-- Write text to filename, whole or not at all (core.writefile: a
-- temporary beside it, flushed to disk, renamed into place); returns
-- nothing, raises naming the file and the OS reason.
local function savetext (who, text, filename)
  if type(filename) ~= "string" then
    error(fmt("%s: a file name expected, got a %s", who, type(filename)), 3)
  end
  local ok, err = pcall(core.writefile, who, filename, text)
  if not ok then error(err, 3) end
end

-- Under mpirun a rank other than 0 holds each task's summary, not its
-- history (lua/tasks.lua): the texts made of histories raise there, and
-- saving or plotting them does nothing (that rank writes nowhere; rank 0
-- writes the file).
local function checkhistory (who, runs)
  local ok, err = pcall(core.task_history, who, runs)
  if not ok then error(err, 3) end
end

-- Plot runs as r:plot and race:plot do (lua/lplot.c), with one legend
-- label per run unless opts.labels gives them; opts is not changed.
local function plotruns (who, runs, labels, opts)
  if opts ~= nil and type(opts) ~= "table" then
    error(fmt("%s: options must be a table, got a %s", who, type(opts)), 3)
  end
  local c = {}
  for k, v in pairs(opts or {}) do c[k] = v end
  if c.labels == nil then c.labels = labels end
  local ok, err = pcall(core.plot, runs, c)
  if not ok then error((tostring(err):gsub("^plot:", who .. ":")), 3) end
end

-- == repeats =================================================================

local Repeats = {}
Repeats.__index = Repeats
Repeats.__name = "optlab.repeats"

-- q:values(metric) -> list of the final values, one per run (stream order).
function Repeats.values (self, metric)
  checkmetric("repeats:values", self.runs[1], metric)
  local v = {}
  for i, r in ipairs(self.runs) do v[i] = r:last(metric) end
  return v
end

-- q:quantile(metric, p) -> type-7 quantile of the final values.
function Repeats.quantile (self, metric, p)
  checkmetric("repeats:quantile", self.runs[1], metric)
  if type(p) ~= "number" or not (p >= 0 and p <= 1) then
    error(fmt("repeats:quantile: p = %s is out of range [0, 1]",
              tostring(p)), 2)
  end
  return quantile7(sorted(self:values(metric)), p)
end

-- q:csv() -> "run,stream,iter,<metrics>", one row per run and recorded
-- time; q:save(filename) writes it.
function Repeats.csv (self)
  checkhistory("repeats:csv", self.runs)
  return longcsv(self.runs, "run,stream", function (i)
    return fmt("%d,%d", i, self.streams[i])
  end)
end

function Repeats.save (self, filename)
  if core.task_remote(self.runs) then
    return savetext("repeats:save", "", filename)
  end
  return savetext("repeats:save", self:csv(), filename)
end

-- q:metrics() -> the recorded metric names.
function Repeats.metrics (self)
  return self.runs[1]:metrics()
end

-- q:plot(opts) -> the 90%, median and 10% bands over the runs (at every
-- recorded time, those quantiles of the runs' values there: the curves
-- of the live view), as r:plot draws a race: text, or a file.
local BANDS = {{0.9, "90%"}, {0.5, "median"}, {0.1, "10%"}}

function Repeats.plot (self, opts)
  if core.task_remote(self.runs) then return end
  local bands, qs, labels = {}, {}, {}
  for k, q in ipairs(BANDS) do
    bands[k], qs[k], labels[k] = self._band(), q[1], q[2]
  end
  labels[1] = fmt("90%% of %d runs", self.R)
  core.task_band(bands, qs, self.runs)
  plotruns("repeats:plot", bands, labels, opts)
end

-- "0..4", or "1, 3..5" when some are missing: the streams of the runs
local function streamlist (streams, R)
  if streams == nil or #streams == 0 then return fmt("0..%d", R - 1) end
  local parts, a, b = {}, streams[1], streams[1]
  local function flush ()
    parts[#parts + 1] = a == b and tostring(a) or fmt("%d..%d", a, b)
  end
  for k = 2, #streams do
    if streams[k] == b + 1 then b = streams[k]
    else
      flush()
      a, b = streams[k], streams[k]
    end
  end
  flush()
  if #parts > 4 then
    return fmt("%s, ..., %s", parts[1], parts[#parts])
  end
  return table.concat(parts, ", ")
end

Repeats.__tostring = function (self)
  local r1 = self.runs[1]
  local lines = {fmt("repeats: %s on %s  seed %d  (%d run%s, stream%s %s)",
                     r1.label, tostring(r1.problem), self.seed, self.R,
                     self.R == 1 and "" or "s",
                     self.R == 1 and "" or "s",
                     streamlist(self.streams, self.R))}
  if self.interrupted then
    lines[2] = fmt("  interrupted: %d of %d runs finished", self.R,
                   self.asked)
  end
  for _, m in ipairs(self.missing or {}) do
    lines[#lines + 1] = fmt("  missing: task %d (%s): %s", m.task, m.desc,
                            m.error)
  end
  local rows = {{"metric", "min", "10%", "median", "90%", "max", "R"}}
  for _, m in ipairs(self:metrics()) do
    local v = sorted(self:values(m))
    rows[#rows + 1] = {m, g3(v[1]), g3(quantile7(v, 0.1)),
                       g3(quantile7(v, 0.5)), g3(quantile7(v, 0.9)),
                       g3(v[#v]), tostring(#v)}
  end
  tabulate(rows, lines)
  return concat(lines, "\n")
end

-- The task numbers of results, in order: after a Ctrl-C only the tasks
-- done are visited, not every one of the R asked (10^8 take seconds).
local function doneidx (results)
  local idx = {}
  for i in pairs(results) do idx[#idx + 1] = i end
  table.sort(idx)
  return idx
end

function repeats (problem, method, opts, R)
  local who = "repeats"
  if typeof(problem) ~= "problem" then
    error(fmt("%s: argument 1 must be a problem, got a %s", who,
              typeof(problem) or type(problem)), 2)
  end
  if typeof(method) ~= "method" then
    error(fmt("%s: argument 2 must be a method (e.g. optim.adam{}), got a %s",
              who, typeof(method) or type(method)), 2)
  end
  if math.type(R) ~= "integer" and not (type(R) == "number" and R % 1 == 0)
  then
    error(fmt("%s: R (argument 4) must be an integer >= 1, got %s", who,
              tostring(R)), 2)
  end
  local given = R
  R = math.tointeger(R)
  if R == nil or R < 1 then
    error(fmt("%s: R = %s is out of range [1, %d]", who, showval(given),
              math.maxinteger), 2)
  end
  local o = headless(who, opts, {stream = true})
  -- task i: stream i - 1 (lua/tasks.lua: one process, slices or ranks)
  local function opts_of (i)
    local c = {}
    for k, v in pairs(o) do c[k] = v end
    c.stream = i - 1
    return c
  end
  local function makeband ()
    local c = opts_of(1)
    c.record_x = false
    return core.task_mkrun(problem, method, c)
  end
  local results, missing, stopped = core.bulk{
    who = who, n = R, failfast = true, kind = "repeats",
    view = not (opts and opts.view == false),
    progress = not (opts and opts.progress == false),
    run = function (i) return run(problem, method, opts_of(i)) end,
    make = function (i, shell)
      return core.task_mkrun(problem, method, opts_of(i), false, shell)
    end,
    makeband = makeband,
    desc = function (i)
      return fmt("seed %d, stream %d", o.seed or 1, i - 1)
    end}
  local runs, streams = {}, {}
  for _, i in ipairs(doneidx(results)) do
    local r = results[i]
    if r and r.reason ~= "interrupted" then
      runs[#runs + 1] = r
      streams[#runs] = i - 1
    end
  end
  if #runs == 0 then
    if not stopped and missing[1] then
      error(fmt("%s: every task failed; task 1 (%s): %s", who,
                missing[1].desc, missing[1].error), 2)
    end
    error(fmt("%s: interrupted before the first run finished", who), 2)
  end
  local failed = {}
  for _, m in ipairs(missing) do
    if not m.error:find("^not run") then failed[#failed + 1] = m end
  end
  return setmetatable({runs = runs, R = #runs, seed = runs[1].seed,
                       streams = streams, _band = makeband,
                       missing = failed[1] and failed or nil,
                       interrupted = stopped or nil,
                       asked = stopped and R or nil}, Repeats)
end

-- == sweep ===================================================================

local Sweep = {}
Sweep.__index = Sweep
Sweep.__name = "optlab.sweep"

-- s:best(metric) -> configuration (table of parameter values), run: the
-- one with the smallest final value; NaN never wins, ties go to the
-- first built.  nil when every value is NaN.
function Sweep.best (self, metric)
  checkmetric("sweep:best", self.runs[1], metric)
  local bi, bv
  for i, r in ipairs(self.runs) do
    local v = r:last(metric)
    if v == v and (bv == nil or v < bv) and r.reason ~= "interrupted" then
      bi, bv = i, v
    end
  end
  if bi == nil then return nil end
  local c = {}
  for k, v in pairs(self.configs[bi]) do c[k] = v end
  return c, self.runs[bi]
end

-- s:csv() -> "config,<parameters>,reason,iter,<metrics>", one row per
-- configuration and recorded time; s:save(filename) writes it.
function Sweep.csv (self)
  checkhistory("sweep:csv", self.runs)
  return longcsv(self.runs, "config," .. concat(self.names, ",")
                 .. ",reason", function (i)
    local row = {tostring(self.tasks[i])}
    for _, k in ipairs(self.names) do
      row[#row + 1] = showval(self.configs[i][k])
    end
    row[#row + 1] = self.runs[i].reason
    return concat(row, ",")
  end)
end

function Sweep.save (self, filename)
  if core.task_remote(self.runs) then
    return savetext("sweep:save", "", filename)
  end
  return savetext("sweep:save", self:csv(), filename)
end

-- s:values(metric) -> final values, one per configuration (build order).
function Sweep.values (self, metric)
  checkmetric("sweep:values", self.runs[1], metric)
  local v = {}
  for i, r in ipairs(self.runs) do v[i] = r:last(metric) end
  return v
end

-- "lr = 0.1, momentum = 0.9": configuration i as its legend label
local function configlabel (self, i)
  local kv = {}
  for _, k in ipairs(self.names) do
    kv[#kv + 1] = k .. "=" .. showval(self.configs[i][k])
  end
  return concat(kv, " ")
end

-- s:plot(opts): the final value of each watched metric against one
-- parameter (x), one curve per combination of the other parameters that
-- vary (the default); heat = true (or x = {a, b}): the heat map of the
-- final value over the grid of two numeric parameters; runs = true: one
-- curve per configuration against time, as r:plot draws a race.  A sweep
-- without a numeric parameter gets the runs figure.  Text, or a file
-- (.svg, .png, .pdf) as r:plot.  The figures are core/plot/sweep.c's.
local PLOTKEYS = {"file", "watch", "x", "heat", "runs", "width", "height",
                  "text", "xlog", "ylog"}

-- The parameters of the sweep's configurations (the interrupted one
-- left out): kept, the list of configuration indices; for each name its
-- distinct values (count), whether all are numbers.
local function paraminfo (self, kept)
  local info = {}
  for _, k in ipairs(self.names) do
    local seen, nd, num = {}, 0, true
    for _, i in ipairs(kept) do
      local v = self.configs[i][k]
      if math.type(v) == nil then num = false end
      if seen[v] == nil then
        seen[v] = true
        nd = nd + 1
      end
    end
    info[k] = {n = nd, numeric = num}
  end
  return info
end

local function numericnames (self, info)
  local l = {}
  for _, k in ipairs(self.names) do
    if info[k].numeric then l[#l + 1] = k end
  end
  return l
end

-- A parameter given as x: a name of the sweep, numeric.
local function checkparam (self, info, who, name)
  if type(name) ~= "string" then
    error(fmt("%s: x must be a parameter name or a list of two, got a %s",
              who, type(name)), 3)
  end
  if info[name] == nil then
    error(fmt("%s: x = '%s' is not a parameter of the sweep (valid: %s)",
              who, name, concat(self.names, ", ")), 3)
  end
  if not info[name].numeric then
    local nums = numericnames(self, info)
    error(fmt("%s: x = '%s' is not a numeric parameter (numeric: %s)", who,
              name, #nums > 0 and concat(nums, ", ") or "none"), 3)
  end
  return name
end

function Sweep.plot (self, opts)
  local who = "sweep:plot"
  if opts ~= nil and type(opts) ~= "table" then
    error(fmt("%s: options must be a table, got a %s", who, type(opts)), 2)
  end
  opts = opts or {}
  local runs = opts.runs
  if runs ~= nil and type(runs) ~= "boolean" then
    error(fmt("%s: runs must be a boolean, got a %s", who, type(runs)), 2)
  end
  local kept = {}
  for i, r in ipairs(self.runs) do
    if r.reason ~= "interrupted" then kept[#kept + 1] = i end
  end
  local info = paraminfo(self, kept)
  local nums = numericnames(self, info)
  if runs or (#nums == 0 and opts.x == nil and not opts.heat) then
    -- one curve per configuration against time
    local c, labels = {}, {}
    for k, v in pairs(opts) do
      if k ~= "runs" then c[k] = v end
    end
    for i in ipairs(self.runs) do labels[i] = configlabel(self, i) end
    plotruns(who, self.runs, labels, c)
    return
  end
  for k in pairs(opts) do
    local ok = false
    for _, v in ipairs(PLOTKEYS) do ok = ok or v == k end
    if not ok then
      error(fmt("%s: unknown key '%s' (valid: %s)", who, tostring(k),
                concat(PLOTKEYS, ", ")), 2)
    end
  end
  if #kept == 0 then
    error(fmt("%s: no finished configuration to plot", who), 2)
  end
  for _, k in ipairs{"heat", "xlog", "ylog"} do
    if opts[k] ~= nil and type(opts[k]) ~= "boolean" then
      error(fmt("%s: %s must be a boolean, got a %s", who, k,
                type(opts[k])), 2)
    end
  end
  -- (1) the parameters: x (and y for a heat map)
  local xname, yname
  if type(opts.x) == "table" then
    if #opts.x ~= 2 then
      error(fmt("%s: x as a list names two parameters (a heat map), got %d",
                who, #opts.x), 2)
    end
    xname = checkparam(self, info, who, opts.x[1])
    yname = checkparam(self, info, who, opts.x[2])
    if xname == yname then
      error(fmt("%s: x = {'%s', '%s'} names one parameter twice", who,
                xname, yname), 2)
    end
  elseif opts.x ~= nil then
    xname = checkparam(self, info, who, opts.x)
  end
  if xname == nil then
    if #nums == 0 then
      error(fmt("%s: no numeric parameter to plot against (parameters: %s; "
                .. "runs = true plots the curves)", who,
                concat(self.names, ", ")), 2)
    end
    -- the numeric parameter with the most values (the first on ties)
    for _, k in ipairs(nums) do
      if xname == nil or info[k].n > info[xname].n then xname = k end
    end
  end
  if opts.heat and yname == nil then
    for _, k in ipairs(nums) do
      if k ~= xname and info[k].n > 1 then
        if yname ~= nil then
          error(fmt("%s: heat = true needs two numeric parameters that vary; "
                    .. "%s, %s and %s do (give x = {a, b})", who, xname,
                    yname, k), 2)
        end
        yname = k
      end
    end
    if yname == nil then
      error(fmt("%s: heat = true needs two numeric parameters that vary "
                .. "(numeric: %s)", who, concat(nums, ", ")), 2)
    end
  end
  if opts.heat == false and yname ~= nil then
    error(fmt("%s: x = {a, b} is a heat map; heat = false contradicts it",
              who), 2)
  end
  -- (2) the curves: the other parameters that vary; a heat map has none
  local others = {}
  for _, k in ipairs(self.names) do
    if k ~= xname and k ~= yname and info[k].n > 1 then
      others[#others + 1] = k
    end
  end
  if yname ~= nil and #others > 0 then
    error(fmt("%s: a heat map of %s and %s, but %s also var%s (give x = "
              .. "name for curves)", who, xname, yname, concat(others, ", "),
              #others == 1 and "ies" or "y"), 2)
  end
  -- (3) the metrics: the listed ones, or the first recorded
  local watch = opts.watch
  if watch == nil then watch = {self.runs[kept[1]]:metrics()[1]} end
  if type(watch) ~= "table" or #watch == 0 then
    error(fmt("%s: watch must be a non-empty list of metric names", who), 2)
  end
  for _, m in ipairs(watch) do checkmetric(who, self.runs[kept[1]], m) end
  -- (4) the figure's data, one entry per configuration kept
  local fig = {title = fmt("%s on %s  seed %d", self.method,
                           tostring(self.runs[1].problem), self.runs[1].seed),
               xname = xname, yname = yname, x = {}, y = yname and {} or nil,
               group = {}, glabels = {}, div = {}, metrics = {}, values = {},
               xlog = opts.xlog, ylog = opts.ylog}
  local gid = {}
  for j, m in ipairs(watch) do
    fig.metrics[j] = m
    fig.values[j] = {}
  end
  for n, i in ipairs(kept) do
    local c, r = self.configs[i], self.runs[i]
    fig.x[n] = c[xname]
    if yname then fig.y[n] = c[yname] end
    local kv = {}
    for _, k in ipairs(others) do kv[#kv + 1] = k .. "=" .. showval(c[k]) end
    local label = concat(kv, " ")
    if gid[label] == nil then
      fig.glabels[#fig.glabels + 1] = label
      gid[label] = #fig.glabels
    end
    fig.group[n] = gid[label]
    fig.div[n] = r.reason == "diverged" and 1 or 0
    local have = {}
    for _, m in ipairs(r:metrics()) do have[m] = true end
    for j, m in ipairs(watch) do
      fig.values[j][n] = have[m] and r:last(m) or 0 / 0
    end
  end
  local o = {file = opts.file, width = opts.width, height = opts.height,
             text = opts.text}
  local ok, err = pcall(core.plotsweep, fig, o)
  if not ok then error((tostring(err):gsub("^plot:", who .. ":")), 2) end
end

Sweep.__tostring = function (self)
  local r1 = self.runs[1]
  local metrics = r1:metrics()
  local lines = {fmt("sweep: %s on %s  seed %d  (%d configurations)",
                     self.method, tostring(r1.problem), r1.seed,
                     #self.runs)}
  if self.interrupted then
    lines[2] = fmt("  interrupted: %d of %d configurations finished",
                   self.finished, self.asked)
  end
  for _, m in ipairs(self.missing or {}) do
    lines[#lines + 1] = fmt("  missing: configuration %d (%s): %s", m.task,
                            m.desc, m.error)
  end
  local head = {"#"}
  for _, k in ipairs(self.names) do head[#head + 1] = k end
  head[#head + 1] = "reason"
  for _, m in ipairs(metrics) do head[#head + 1] = m end
  local rows = {head}
  for i, r in ipairs(self.runs) do
    local row = {tostring(self.tasks[i])}
    for _, k in ipairs(self.names) do
      row[#row + 1] = showval(self.configs[i][k])
    end
    row[#row + 1] = r.reason
    local have = {}
    for _, m in ipairs(r:metrics()) do have[m] = true end
    for _, m in ipairs(metrics) do
      row[#row + 1] = have[m] and g3(r:last(m)) or "-"
    end
    rows[#rows + 1] = row
  end
  tabulate(rows, lines)
  return concat(lines, "\n")
end

function sweep (problem, ctor, grid, opts)
  local who = "sweep"
  if typeof(problem) ~= "problem" then
    error(fmt("%s: argument 1 must be a problem, got a %s", who,
              typeof(problem) or type(problem)), 2)
  end
  local info = core.ctors[ctor]
  if type(info) ~= "table" or not core.families[info.family] then
    error(fmt("%s: argument 2 must be a method constructor (e.g. optim.gd), "
              .. "got a %s", who, typeof(ctor) or type(ctor)), 2)
  end
  if type(grid) ~= "table" then
    error(fmt("%s: grid (argument 3) must be a table {param = {values}}, "
              .. "got a %s", who, type(grid)), 2)
  end
  local valid, names = {}, {}
  for _, p in ipairs(info.params) do valid[p.name] = true end
  for k, v in pairs(grid) do
    if type(k) ~= "string" or not valid[k] then
      local list = {}
      for _, p in ipairs(info.params) do list[#list + 1] = p.name end
      error(fmt("%s: unknown parameter '%s' of %s.%s (valid: %s)", who,
                tostring(k), info.family, info.name, concat(list, ", ")), 2)
    end
    if type(v) ~= "table" or #v == 0 then
      error(fmt("%s: grid.%s must be a non-empty list of values", who, k), 2)
    end
    names[#names + 1] = k
  end
  if #names == 0 then
    error(fmt("%s: grid is empty (give {param = {values}})", who), 2)
  end
  sort(names)
  local o = headless(who, opts)
  -- cartesian product, the first name (in sorted order) varying slowest:
  -- configuration i is task i (lua/tasks.lua), made when it is needed, so
  -- that a grid of 10^6 points costs nothing before its first run
  local asked = 1
  for _, k in ipairs(names) do asked = asked * #grid[k] end
  local function config (i)
    local c, r = {}, i - 1
    for d = #names, 1, -1 do
      local vs = grid[names[d]]
      c[names[d]] = vs[r % #vs + 1]
      r = r // #vs
    end
    return c
  end
  local configs = setmetatable({}, {__index = function (t, i)
    local c = config(i)
    t[i] = c
    return c
  end})
  local function desc (i)
    local kv = {}
    for _, k in ipairs(names) do
      kv[#kv + 1] = k .. " = " .. showval(configs[i][k])
    end
    return concat(kv, ", ")
  end
  local results, missing, stopped = core.bulk{
    who = who, n = asked, kind = "sweep",
    view = not (opts and opts.view == false),
    progress = not (opts and opts.progress == false),
    run = function (i) return run(problem, ctor(configs[i]), o) end,
    make = function (i, shell)
      return core.task_mkrun(problem, ctor(configs[i]), o, false, shell)
    end,
    desc = desc}
  -- an interrupted run keeps its row (reason "interrupted")
  local runs, kept, tasks = {}, {}, {}
  for _, i in ipairs(doneidx(results)) do
    if results[i] then
      runs[#runs + 1] = results[i]
      kept[#kept + 1] = configs[i]
      tasks[#tasks + 1] = i
    end
  end
  if #runs == 0 then
    if not stopped and missing[1] then
      error(fmt("%s: every task failed; task 1 (%s): %s", who,
                missing[1].desc, missing[1].error), 2)
    end
    error(fmt("%s: interrupted before the first run finished", who), 2)
  end
  local failed = {}
  for _, m in ipairs(missing) do
    if not m.error:find("^not run") then failed[#failed + 1] = m end
  end
  local finished = #runs
  if runs[#runs].reason == "interrupted" then finished = finished - 1 end
  return setmetatable({configs = kept, runs = runs, names = names,
                       tasks = tasks, missing = failed[1] and failed or nil,
                       method = info.family .. "." .. info.name,
                       interrupted = stopped or nil,
                       finished = stopped and finished or nil,
                       asked = stopped and asked or nil}, Sweep)
end

-- == help ====================================================================

local repeats_doc = [[
repeats(problem, method, opts, R) -> q   R runs on independent rng streams
  Runs method on problem R times with the same seed (opts.seed, default 1)
  and streams 0..R-1 (opts.stream may not be given), each run headless;
  other options as run.  On a terminal, after 0.5 s, a live view shows the
  90%, median and 10% bands over the runs done (space pauses, q stops
  like Ctrl-C); view = false turns it off.
  q.runs          the R run objects (q.runs[k + 1] used stream k)
  q.R, q.seed     number of runs, the seed
  q:values(m)     final values of metric m, one per run
  q:quantile(m, p)  type-7 quantile (linear interpolation between order
                  statistics, h = (R-1)p + 1) of the final values; NaN sorts
                  after inf
  q:metrics()     recorded metric names
  q:csv(), q:save(file)  "run,stream,iter,<metrics>", every recorded point
  q:plot(opts)    the 90%, median and 10% bands over the runs against
                  time, as r:plot (text, or opts.file an SVG)
  q.missing       tasks that raised: {task =, desc =, error =} (also
                  printed); the others are kept
  print(q)        per metric: min, 10%, median, 90%, max of the final
                  values and R, with the seed
  Each run is a task (lua/tasks.lua): under mpirun or --tasks/--gather
  the runs are shared out and the result is the same as here.
  Ctrl-C stops every run to come: q keeps the runs that finished (q.R of
  them, q.interrupted = true); none finished is an error.
example: q = repeats(problem.quadratic{noise = {kind = "gauss", sigma = 0.1}},
                     optim.gd{lr = 0.5}, {iters = 200}, 20)
         print(q:quantile("loss", 0.5))]]

local sweep_doc = [[
sweep(problem, ctor, grid, opts) -> s   one run per grid configuration
  ctor is a method constructor (optim.gd); grid = {param = {v1, v2, ...},
  ...}: the cartesian product of the lists, parameter names sorted, the
  first name varying slowest, values in the order given.  Each run uses
  opts (same seed and x0), each run headless.  On a terminal, after 0.5 s,
  a live view shows the best configuration so far beside the last one
  done (q stops like Ctrl-C); view = false turns it off.
  s.configs[i]    the parameter table of configuration i
  s.runs[i]       its run object
  s:values(m)     final values of metric m, in build order
  s:best(m)       -> config, run with the smallest final value of m (NaN
                  never wins; ties go to the first built)
  s:csv(), s:save(file)  "config,<params>,reason,iter,<metrics>"
  s:plot(opts)    the final value of a metric against a parameter: opts.x
                  (default: the numeric parameter with the most values),
                  log x when the values span >= 10x, log y when the
                  finals are positive and span >= 100x, one curve per
                  combination of the other parameters, a diverged run a
                  triangle on the top edge; watch = {metrics} one panel
                  each (default: the first recorded); heat = true or
                  x = {a, b}: a heat map of the final value over two
                  numeric parameters, colour key, best cell outlined;
                  runs = true: one curve per configuration against time
                  (r:plot's options); text, or file = "f.svg" (.png, .pdf)
  s.missing       configurations whose run raised (an out-of-range value):
                  {task =, desc =, error =}, printed; the others are kept
  print(s)        one row per configuration: parameters, stop reason,
                  final metrics
  Ctrl-C stops every run to come: s keeps the runs made, the last one with
  reason "interrupted" (s.interrupted = true; s:best skips it).
example: s = sweep(problem.quadratic{}, optim.gd, {lr = {0.1, 1, 1.9}},
                   {iters = 100})
         print(s:best("loss"))]]

core.fdocs[repeats] = repeats_doc
core.fdocs.repeats = repeats_doc
core.fdocs[sweep] = sweep_doc
core.fdocs.sweep = sweep_doc
core.frows[#core.frows + 1] =
  {"repeats(p, m, opts, R)", "R runs on rng streams 0..R-1, quantiles"}
core.frows[#core.frows + 1] =
  {"sweep(p, ctor, grid, opts)", "one run per grid point; s:best(metric)"}
