-- lua/race.lua -- methods of race objects (race(problem, methods, opts)).
--
-- A race is a table of run objects (race[1] .. race[#race]) with the
-- metatable core.race_mt made in lua/lrun.c; here are its tostring, save,
-- csv and series.  All runs share the seed, x0 and options.
local core = ...

-- What this file uses, captured at load time (see lua/help.lua).
local error, ipairs, pcall, select, tostring, type = error, ipairs, pcall,
  select, tostring, type
local io, math, string, table = io, math, string, table
local fmt, concat = string.format, table.concat
local mt = core.race_mt
local methods = {}
mt.__index = methods

-- A CSV number: every digit (%.17g), nan and inf unsigned.
local function num (v)
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  return fmt("%.17g", v)
end

-- Raise msg, an error of a run method called here, at the caller of the
-- race method (level 3: the user's line), as race:<what>.
local function rethrow (msg, what)
  msg = tostring(msg):gsub("^[^\n]-race%.lua:%d+: ", "")
    :gsub("^run:" .. what, "race:" .. what)
  error(msg, 3)
end

-- race:series(name) -> values, times: one table per run.
function methods.series (self, name)
  local vals, times = {}, {}
  for i = 1, #self do
    local r = self[i]
    local ok, v, t = pcall(r.series, r, name)
    if not ok then rethrow(v, "series") end
    vals[i], times[i] = v, t
  end
  return vals, times
end

-- race:csv() -> long CSV text "run,method,iter,<metrics>", one row per
-- run and recorded time (metrics of the first run; nan where a run did
-- not record one); live parameter changes first, a comment line each:
-- "# change run=2 iter=10 lr=0.5" (none without changes).
function methods.csv (self)
  local ok, err = pcall(core.task_history, "race:csv", self)
  if not ok then error(err, 2) end
  local names = self[1]:metrics()
  local out = {}
  for i = 1, #self do
    for _, c in ipairs(self[i].changes) do
      out[#out + 1] = "# change run=" .. i .. " iter=" .. c.iter .. " "
        .. c.param .. "=" .. num(c.value)
    end
  end
  out[#out + 1] = "run,method,iter," .. concat(names, ",")
  for i = 1, #self do
    local r = self[i]
    local have, cols, times = {}, {}, nil
    for _, m in ipairs(r:metrics()) do have[m] = true end
    for j, m in ipairs(names) do
      if have[m] then cols[j], times = r:series(m) end
    end
    if not times then times = select(2, r:series(r:metrics()[1])) end
    local label = r.label:gsub(",", ";")
    for k = 1, #times do
      local row = {i, label, times[k]}
      for j = 1, #names do
        row[#row + 1] = cols[j] and num(cols[j][k]) or "nan"
      end
      out[#out + 1] = concat(row, ",")
    end
  end
  return concat(out, "\n") .. "\n"
end

-- race:save(filename): writes race:csv() to the file, whole or not at
-- all (core.writefile: a temporary beside it, flushed to disk, renamed
-- into place) and returns nothing (so the prompt echoes nothing); raises
-- naming the file and the OS reason when it cannot.
function methods.save (self, filename)
  if type(filename) ~= "string" then
    error(fmt("race:save: a file name expected, got a %s", type(filename)),
          2)
  end
  if filename:find("\0", 1, true) then
    error("race:save: the file name contains a NUL character", 2)
  end
  -- under mpirun a rank other than 0 holds summaries (lua/tasks.lua) and
  -- writes nowhere: rank 0 writes the file
  local ok, err = pcall(core.writefile, "race:save", filename,
                        core.task_remote(self) and "" or self:csv())
  if not ok then error(err, 2) end
end

-- The final-value columns of a race's table: loss and gradient norm, or
-- for a game the equilibrium measures some run records (a game's loss is
-- x'Ay and its gradient the payoff vectors: neither goes to 0).
local plain = {"loss", "gradnorm"}
local gamecols = {"exploitability", "exploitability_avg", "regret"}

-- A table: one row per run with its stop reason, iterations, gradient
-- evaluations, stepping seconds and final loss and gradient norm (a game:
-- exploitability of the last and of the average iterate, regret), then
-- the metrics of the user's (metric.new) that some run records, numbers
-- as everywhere (core.fmtnum).
mt.__tostring = function (self)
  local num = core.fmtnum
  local r1 = self[1]
  local head = {"#", "method", "reason", "iters", "grads", "time"}
  local right = {true, false, false, true, true, true}
  local rows, have, extra, cols = {head}, {}, {}, plain
  for i = 1, #self do
    have[i] = {}
    for _, m in ipairs(self[i]:metrics()) do have[i][m] = true end
  end
  if r1.problem.kind == "game" then
    cols = {}
    for _, m in ipairs(gamecols) do
      local any = false
      for i = 1, #self do any = any or have[i][m] end
      if any then cols[#cols + 1] = m end
    end
  end
  for _, m in ipairs(cols) do
    head[#head + 1] = m
    right[#right + 1] = true
  end
  for _, m in ipairs(core.metrics) do
    local any = false
    for i = 1, #self do any = any or (m.user and have[i][m.name]) end
    if any then
      extra[#extra + 1] = m.name
      head[#head + 1] = m.name
      right[#right + 1] = true
    end
  end
  for i = 1, #self do
    local r = self[i]
    local row = {
      tostring(i), r.label, r.reason, tostring(r.iter), tostring(r.ngev),
      num(r.seconds, 2) .. " s",
    }
    for _, m in ipairs(cols) do
      row[#row + 1] = have[i][m] and num(r:last(m), 3) or "-"
    end
    for _, m in ipairs(extra) do
      row[#row + 1] = have[i][m] and num(r:last(m), 3) or "-"
    end
    rows[#rows + 1] = row
  end
  local w = {}
  for _, row in ipairs(rows) do
    for j, c in ipairs(row) do w[j] = math.max(w[j] or 0, #c) end
  end
  local lines = {fmt("race on %s  seed %d  (%d runs)", tostring(r1.problem),
                     r1.seed, #self)}
  for _, row in ipairs(rows) do
    local cells = {}
    for j, c in ipairs(row) do
      local pad = (" "):rep(w[j] - #c)
      cells[j] = right[j] and pad .. c or (j < #row and c .. pad or c)
    end
    lines[#lines + 1] = "  " .. concat(cells, "  ")
  end
  return concat(lines, "\n")
end
