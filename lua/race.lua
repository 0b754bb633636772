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
-- not record one).
function methods.csv (self)
  local names = self[1]:metrics()
  local out = {"run,method,iter," .. concat(names, ",")}
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

-- race:save(filename) -> true, or nil, message, errno.
function methods.save (self, filename)
  if type(filename) ~= "string" then
    error(fmt("race:save: a file name expected, got a %s", type(filename)),
          2)
  end
  if filename:find("\0", 1, true) then
    error("race:save: the file name contains a NUL character", 2)
  end
  local f, msg, code = io.open(filename, "w")
  if not f then return nil, msg, code end
  local ok, err, ecode = f:write(self:csv())
  f:close()
  if not ok then return nil, err, ecode end
  return true
end

-- A table: one row per run with its stop reason and final metrics.
mt.__tostring = function (self)
  local r1 = self[1]
  local lines = {fmt("race on %s  seed %d  (%d runs)", tostring(r1.problem),
                     r1.seed, #self)}
  local w = 6
  for i = 1, #self do w = math.max(w, #self[i].label) end
  lines[2] = fmt("  %-3s %-" .. w .. "s  %-14s %10s %10s %10s", "#",
                 "method", "reason", "iters", "loss", "gradnorm")
  for i = 1, #self do
    local r = self[i]
    local have = {}
    for _, m in ipairs(r:metrics()) do have[m] = true end
    local loss = have.loss and fmt("%.3g", r:last("loss")) or "-"
    local gn = have.gradnorm and fmt("%.3g", r:last("gradnorm")) or "-"
    lines[#lines + 1] = fmt("  %-3d %-" .. w .. "s  %-14s %10d %10s %10s", i,
                            r.label, r.reason, r.iter, loss, gn)
  end
  return concat(lines, "\n")
end
