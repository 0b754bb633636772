-- lua/prelude.lua -- small utilities of the pure-Lua part of optlab.
--
-- pretty(...) formats values with tables expanded (and is what the
-- prompt shows results with); metrics() lists the metric names.  core.fmtnum is
-- the one number format of the Lua side (that of ol_fmtnum in C), and
-- core.suggest the "did you mean" of names.  Loaded by lua/lembed.c with
-- the internal core table as its argument.
local core = ...

-- What this file uses, captured at load time (see lua/help.lua).
local getmetatable, ipairs, pairs, select, tostring, type = getmetatable,
  ipairs, pairs, select, tostring, type
local debug, io, math, string, table = debug, io, math, string, table
local fmt, concat, sort = string.format, table.concat, table.sort
local MAXITEMS, WIDTH, MAXDEPTH = 50, 72, 4

-- core.fmtnum(v [, sig]) -> v as ol_fmtnum (core/fmt.c) writes it: %g
-- with sig significant digits (3 by default, 1 to 17), "nan" and "inf"
-- without a sign printf would give a negative NaN, 0 for -0; integers
-- (math.type) as integers; anything else through tostring.
function core.fmtnum (v, sig)
  if math.type(v) == "integer" then return tostring(v) end
  if type(v) ~= "number" then return tostring(v) end
  sig = math.max(1, math.min(17, math.floor(sig or 3)))
  if v ~= v then return "nan" end
  if v == math.huge then return "inf" end
  if v == -math.huge then return "-inf" end
  if v == 0 then v = 0.0 end
  return fmt("%." .. sig .. "g", v)
end

-- Optimal string alignment distance between a and b (Levenshtein plus
-- the swap of two neighbours, so "adma" is 1 from "adam").
local function distance (a, b)
  local la, lb = #a, #b
  local d = {}
  for i = 0, la do d[i] = {[0] = i} end
  for j = 1, lb do d[0][j] = j end
  for i = 1, la do
    local ai = a:byte(i)
    for j = 1, lb do
      local bj = b:byte(j)
      local v = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                         d[i - 1][j - 1] + (ai == bj and 0 or 1))
      if i > 1 and j > 1 and ai == b:byte(j - 1) and a:byte(i - 1) == bj then
        v = math.min(v, d[i - 2][j - 2] + 1)
      end
      d[i][j] = v
    end
  end
  return d[la][lb]
end
core.distance = distance

-- core.suggest(name, names) -> the names that name is probably a typo of,
-- sorted: those at the least distance when it is at most 1 for a name of
-- 3 or 4 letters, 2 up to 8, 3 beyond (none for 1 or 2: everything is
-- close), case ignored; else those that start with name (3 letters or
-- more); {} when none is close.
function core.suggest (name, names)
  if type(name) ~= "string" or name == "" then return {} end
  local low = name:lower()
  local limit = #name <= 2 and 0 or #name <= 4 and 1 or #name <= 8 and 2
    or 3
  local best, out = limit + 1, {}
  for _, c in ipairs(names) do
    local d = distance(low, c:lower())
    if d < best then best, out = d, {c}
    elseif d == best then out[#out + 1] = c end
  end
  if #out == 0 and #name >= 3 then
    for _, c in ipairs(names) do
      if c:lower():sub(1, #low) == low then out[#out + 1] = c end
    end
  end
  sort(out)
  return out
end

-- "a", "a or b", "a, b or c" (at most 5, then "...").
function core.orlist (list)
  if #list <= 1 then return list[1] or "" end
  local n = math.min(#list, 5)
  local head = concat(list, ", ", 1, n - 1)
  if #list > 5 then return head .. ", " .. list[n] .. ", ..." end
  return head .. " or " .. list[n]
end

local function isident (k)
  return type(k) == "string" and k:match("^[%a_][%w_]*$") ~= nil
end

local function scalar (v)
  local tv = type(v)
  if tv == "string" then return fmt("%q", v) end
  if math.type(v) == "float" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return fmt("%.14g", v)
  end
  return tostring(v)
end

local function keyorder (a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  return tostring(a) < tostring(b)
end

-- Format v; seen guards cycles; indent is the current indentation.
local function format (v, indent, seen, depth)
  if type(v) ~= "table" or getmetatable(v) and getmetatable(v).__tostring then
    return scalar(v)
  end
  if seen[v] then return "<cycle>" end
  if depth >= MAXDEPTH then return "{...}" end
  seen[v] = true
  local items, n = {}, #v
  for i = 1, math.min(n, MAXITEMS) do
    items[#items + 1] = format(v[i], indent .. "  ", seen, depth + 1)
  end
  if n > MAXITEMS then
    items[#items + 1] = fmt("... (%d more)", n - MAXITEMS)
  end
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then
      keys[#keys + 1] = k
    end
  end
  sort(keys, keyorder)
  for i, k in ipairs(keys) do
    if i > MAXITEMS then
      items[#items + 1] = fmt("... (%d more)", #keys - MAXITEMS)
      break
    end
    local ks = isident(k) and k or "[" .. scalar(k) .. "]"
    items[#items + 1] = ks .. " = " .. format(v[k], indent .. "  ", seen,
                                             depth + 1)
  end
  seen[v] = nil
  if #items == 0 then return "{}" end
  local one = "{" .. concat(items, ", ") .. "}"
  if #one + #indent <= WIDTH and not one:find("\n") then return one end
  return "{\n" .. indent .. "  " .. concat(items, ",\n" .. indent .. "  ")
    .. "\n" .. indent .. "}"
end

-- The text pretty() prints for v.
function core.format (v)
  return format(v, "", {}, 0)
end

-- pretty(...) -> the arguments formatted (tables expanded), tab-separated.
-- Called from Lua it returns that text and prints nothing (a script
-- writes print(pretty(t))).  The prompt calls it with no Lua caller to
-- show a line's results, and then it prints them; the text it returned
-- last is shown as it is, not quoted, so pretty(t) typed at the prompt
-- shows the table once, as any value typed there is shown.
local getinfo = debug.getinfo
local returned      -- the text pretty returned last, nil once shown

-- true when no Lua function is among pretty's callers (the prompt's C code).
local function fromhost ()
  local level = 3
  while true do
    local info = getinfo(level, "S")
    if info == nil then return true end
    if info.what ~= "C" then return false end
    level = level + 1
  end
end

function pretty (...)
  local n = select("#", ...)
  local host = fromhost()
  if host and n == 1 and returned ~= nil and (...) == returned then
    returned = nil
    io.write((...), "\n")
    return
  end
  local out = {}
  for i = 1, n do
    out[i] = core.format((select(i, ...)))
  end
  local text = concat(out, "\t")
  if host then
    io.write(text, "\n")
    return
  end
  returned = text
  return text
end

-- List of the metric names, in registry order.
function metrics ()
  local names = {}
  for i, m in ipairs(core.metrics) do names[i] = m.name end
  return names
end

-- diag.read_csv(file or {file1, file2, ...}) -> chains: a CmdStan CSV (or
-- optlab's save_draws) read into {chain1, chain2, ..., names = {...}}, one
-- chain per file, each a list of draws, each an array of the file's
-- columns (lp__, accept_stat__, ..., then the parameters) in header order;
-- names holds the header.  Lines starting with '#' are comments; draws
-- before a "# Adaptation terminated" line are warmup (CmdStan's
-- save_warmup) and are dropped.  nan and inf read as numbers.  Errors
-- name the file and line.  diag.summary(chains) summarises it as a
-- sampler run (the "__" columns other than lp__ left out).
local diagt = rawget(_ENV, "diag")
if type(diagt) == "table" then
  local tonumber, error, open = tonumber, error, io.open
  local special = {nan = 0 / 0, ["-nan"] = 0 / 0, inf = math.huge,
                   ["+inf"] = math.huge, ["-inf"] = -math.huge}
  local function fields (line)
    local out = {}
    for f in (line .. ","):gmatch("([^,]*),") do
      out[#out + 1] = f:match("^%s*(.-)%s*$"):gsub('^"(.*)"$', "%1")
    end
    return out
  end
  local function readone (file)
    local f, err = open(file, "r")
    if not f then
      error(fmt("diag.read_csv: cannot read %s (%s)", tostring(file),
                tostring(err)), 3)
    end
    local names, draws, lineno = nil, {}, 0
    for line in f:lines() do
      lineno = lineno + 1
      line = line:gsub("\r$", "")
      if line:find("^%s*#") then
        if names and #draws > 0 and line:find("Adaptation terminated") then
          draws = {}                        -- warmup draws were saved
        end
      elseif line:find("%S") then
        local row = fields(line)
        if not names then names = row
        else
          if #row ~= #names then
            f:close()
            error(fmt("diag.read_csv: %s line %d has %d fields, the header "
                      .. "has %d", file, lineno, #row, #names), 3)
          end
          for k, v in ipairs(row) do
            local x = tonumber(v) or special[v:lower()]
            if x == nil then
              f:close()
              error(fmt("diag.read_csv: %s line %d, column %d (%s): %q is "
                        .. "not a number", file, lineno, k, names[k], v), 3)
            end
            row[k] = x
          end
          draws[#draws + 1] = row
        end
      end
    end
    f:close()
    if not names then
      error(fmt("diag.read_csv: %s has no header line (a CmdStan CSV has "
                .. "lp__,... after its comments)", file), 3)
    end
    return names, draws
  end
  function diagt.read_csv (files)
    if type(files) == "string" then files = {files} end
    if type(files) ~= "table" or #files == 0 then
      error("diag.read_csv: expected a file name or a list of them", 2)
    end
    local chains, names = {}, nil
    for i, file in ipairs(files) do
      if type(file) ~= "string" then
        error(fmt("diag.read_csv: entry %d is a %s, not a file name", i,
                  type(file)), 2)
      end
      local nm, draws = readone(file)
      if names and concat(nm, ",") ~= concat(names, ",") then
        error(fmt("diag.read_csv: %s's header differs from %s's", file,
                  files[1]), 2)
      end
      names = nm
      chains[i] = draws
    end
    chains.names = names
    return chains
  end
  -- diag.summary of named draws (r:draws() of a run with params =):
  -- flattened, keys sorted by name, a vector's entries named key[j]
  local cfun = diagt.summary
  -- the C function's errors at the user's line, not at this wrapper's
  local function csummary (...)
    local res = table.pack(pcall(cfun, ...))
    if res[1] then return table.unpack(res, 2, res.n) end
    local e = res[2]
    if type(e) ~= "string" then error(e, 0) end
    error((e:gsub("^[^\n]-prelude%.lua:%d+: ", "")), 3)
  end
  function diagt.summary (chains, names, ...)
    local first = type(chains) == "table" and type(chains[1]) == "table"
      and chains[1][1]
    if type(first) ~= "table" or first[1] ~= nil or next(first) == nil then
      local s = csummary(chains, names, ...)
      return s
    end
    local keys = {}
    for k in pairs(first) do keys[#keys + 1] = k end
    sort(keys, function (a, b) return tostring(a) < tostring(b) end)
    local flat, nm = {}, {}
    for _, k in ipairs(keys) do
      local v = first[k]
      if type(v) == "table" then
        for j = 1, #v do nm[#nm + 1] = fmt("%s[%d]", tostring(k), j) end
      else nm[#nm + 1] = tostring(k) end
    end
    for c, ch in ipairs(chains) do
      flat[c] = {}
      for s, d in ipairs(ch) do
        local row = {}
        for _, k in ipairs(keys) do
          local v = type(d) == "table" and d[k]
          if type(v) == "table" then
            for j = 1, #v do row[#row + 1] = v[j] end
          else row[#row + 1] = v end
        end
        flat[c][s] = row
      end
    end
    local s = csummary(flat, names or nm, ...)
    return s
  end
  -- help(diag.read_csv): diag's text (lua/help.lua, loaded before this)
  if core.fdocs and core.fdocs[diagt] then
    core.fdocs[diagt.read_csv] = core.fdocs[diagt]
    core.fdocs[diagt.summary] = core.fdocs[diagt]
  end
end
