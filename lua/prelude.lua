-- lua/prelude.lua -- small utilities of the pure-Lua part of optlab.
--
-- pretty(...) prints values with tables expanded (the REPL prints results
-- with optlab.format); metrics() lists the metric names.  Loaded by
-- lua/lembed.c with the internal core table as its argument.
local core = ...

-- What this file uses, captured at load time (see lua/help.lua).
local getmetatable, ipairs, pairs, select, tostring, type = getmetatable,
  ipairs, pairs, select, tostring, type
local io, math, string, table = io, math, string, table
local fmt, concat, sort = string.format, table.concat, table.sort
local MAXITEMS, WIDTH, MAXDEPTH = 50, 72, 4

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

-- Print each argument formatted, tab-separated, like print.
function pretty (...)
  local out = {}
  for i = 1, select("#", ...) do
    out[i] = core.format((select(i, ...)))
  end
  io.write(concat(out, "\t"), "\n")
end

-- List of the metric names, in registry order.
function metrics ()
  local names = {}
  for i, m in ipairs(core.metrics) do names[i] = m.name end
  return names
end
