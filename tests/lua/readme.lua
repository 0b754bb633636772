-- tests/lua/readme.lua -- every example in README.md runs as shown and
-- prints what the README shows after it.
--
-- The README's examples are fenced code blocks of two kinds:
--   prompt sessions, lines "> text" (">> " continues a line) each followed
--     by the lines optlab prints;
--   shell sessions, lines "$ command" each followed by its output.
-- A prompt session is typed into the real prompt (optlab -i with the
-- lines on standard input: repl/prompt.c runs each line as a user's,
-- "return <line>" first, and echoes it) in a fresh directory, so files the
-- examples write land there; a shell session runs each command with sh
-- from the top directory.  Each must run without error (exit 0, nothing
-- on stderr).  For each shown output line an output line must match, in
-- order (lines the README leaves out may come between): the same tokens
-- (split at blanks), numbers within 1% (the README rounds nothing, the
-- margin is for the last digit of a platform's libm); a token "..." in a
-- shown line matches any tokens, and a line "..." stands for lines cut.  The
-- output of the commands in `varies` (a running job's iteration count)
-- depends on the machine's speed: there any number matches any number.
-- Where the README shows no output, none may come.
local t = dofile("tests/lib/tap.lua")

local varies = {["print(j.run.iter)          -- the prompt stays usable "
                 .. "while it runs"] = true}

local files = dofile("tests/lib/files.lua")
local slurp, sh = files.slurp, files.sh

local function lines_of (s)
  local v = {}
  for line in (s:gsub("\n$", "") .. "\n"):gmatch("(.-)\n") do
    v[#v + 1] = line
  end
  if #v == 1 and v[1] == "" then v = {} end
  return v
end

local top = sh("pwd"):gsub("\n$", "")
local bin = top .. "/optlab"

-- The fenced blocks of README.md, each a list of lines.
local blocks = {}
do
  local cur
  for _, line in ipairs(lines_of(slurp("README.md"))) do
    if line:match("^```") then
      if cur then blocks[#blocks + 1] = cur; cur = nil else cur = {} end
    elseif cur then
      cur[#cur + 1] = line
    end
  end
end

-- Groups of a transcript: {input = {typed lines}, shown = {output lines}}.
-- A line opening with prompt (or, for the prompt, its continuation ">> ")
-- starts or continues an input; anything before the first is dropped.
local function groups_of (lines, prompt, cont)
  local gs, g = {}, nil
  for _, line in ipairs(lines) do
    if cont and line:sub(1, #cont) == cont and g and #g.shown == 0 then
      g.input[#g.input + 1] = line:sub(#cont + 1)
    elseif line:sub(1, #prompt) == prompt or line == prompt:gsub(" $", "") then
      g = {input = {line:sub(#prompt + 1)}, shown = {}}
      gs[#gs + 1] = g
    elseif g then
      g.shown[#g.shown + 1] = line
    end
  end
  return gs
end

local function tokens (s)
  local v = {}
  for w in s:gmatch("%S+") do v[#v + 1] = w end
  return v
end

local function same (a, b, any_number)
  if a == b then return true end
  local pa, na, sa = a:match("^(%D-)(%-?[%d.]+[eE]?[-+]?%d*)(%D*)$")
  local pb, nb, sb = b:match("^(%D-)(%-?[%d.]+[eE]?[-+]?%d*)(%D*)$")
  na, nb = tonumber(na), tonumber(nb)
  if not (na and nb) or pa ~= pb or sa ~= sb then return false end
  if any_number then return true end
  return math.abs(na - nb) <= 0.01 * math.max(math.abs(na), math.abs(nb))
end

-- Does the output line `got` match the shown line `want`?
local function matches (want, got, any_number)
  local gt = tokens(got)
  local segs, open = {{}}, false
  for _, w in ipairs(tokens(want)) do
    if w == "..." then
      segs[#segs + 1], open = {}, true
    else
      local seg = segs[#segs]
      seg[#seg + 1] = w
    end
  end
  local pos = 1
  for k, seg in ipairs(segs) do
    local found = nil
    local last = k == 1 and 1 or #gt - #seg + 1
    for i = pos, math.max(pos, last) do
      local ok = i + #seg - 1 <= #gt
      for j = 1, #seg do
        ok = ok and same(seg[j], gt[i + j - 1], any_number)
      end
      if ok then found = i; break end
    end
    if not found then return false end
    pos = found + #seg
  end
  return open or pos == #gt + 1
end

-- Checks the output of one group against what the README shows.
local function check (name, g, out_lines)
  local text = table.concat(g.input, " / ")
  local want = {}
  for _, w in ipairs(g.shown) do
    if w:match("^%s*%.%.%.%s*$") == nil then want[#want + 1] = w end
  end
  if #g.shown == 0 then
    local extra = table.concat(out_lines, "\n")
    t.ok(#out_lines == 0, name .. ": '" .. text .. "' prints nothing, as "
         .. "shown (got " .. string.format("%q", extra) .. ")")
    return
  end
  local i = 1
  for _, w in ipairs(want) do
    local found = false
    while i <= #out_lines do
      i = i + 1
      if matches(w, out_lines[i - 1], varies[text]) then found = true; break end
    end
    t.ok(found, name .. ": '" .. text .. "' shows " .. string.format("%q", w))
    if not found then
      t.diag("printed:\n" .. table.concat(out_lines, "\n"))
      return
    end
  end
end

local tmp = sh("mktemp -d"):gsub("\n$", "")
local nsession, nshell = 0, 0
for _, b in ipairs(blocks) do
  if b[1] and b[1]:match("^> ") then
    -- a prompt session, typed into the real prompt in a fresh directory
    nsession = nsession + 1
    local name = "readme: session " .. nsession
    local dir = tmp .. "/s" .. nsession
    os.execute("mkdir -p " .. dir)
    local gs = groups_of(b, "> ", ">> ")
    local f = assert(io.open(dir .. "/input", "w"))
    for _, g in ipairs(gs) do
      for _, line in ipairs(g.input) do f:write(line, "\n") end
    end
    f:close()
    local _, code = sh("cd " .. dir .. " && OPTLAB_HISTORY=" .. dir
                       .. "/hist " .. bin .. " --no-tui -i < input > out "
                       .. "2> err")
    t.is(code, 0, name .. " (" .. #gs .. " inputs) exits 0")
    local err = slurp(dir .. "/err")
    t.is(err, "", name .. " writes nothing to stderr")
    local got = groups_of(lines_of(slurp(dir .. "/out")), "> ", ">> ")
    if got[#got] and got[#got].input[1] == "" then got[#got] = nil end
    t.is(#got, #gs, name .. ": the prompt echoes " .. #gs .. " inputs")
    for k, g in ipairs(gs) do
      local o = got[k] or {input = {}, shown = {}}
      t.is(table.concat(o.input, "\n"), table.concat(g.input, "\n"),
           name .. ": input " .. k .. " echoed as typed")
      check(name, g, o.shown)
    end
  elseif b[1] and b[1]:match("^%$ ") then
    -- a shell session, each command run from the top directory
    nshell = nshell + 1
    local name = "readme: shell " .. nshell
    for _, g in ipairs(groups_of(b, "$ ")) do
      local cmd = g.input[1]
      local errf = tmp .. "/err"
      local out, code = sh(cmd .. " 2> " .. errf)
      t.is(code, 0, name .. ": '" .. cmd .. "' exits 0")
      t.is(slurp(errf), "", name .. ": '" .. cmd .. "' writes nothing to "
           .. "stderr")
      check(name, g, lines_of(out))
    end
  end
end
t.ok(nsession >= 3, "readme: " .. nsession .. " prompt sessions found")
t.ok(nshell >= 1, "readme: " .. nshell .. " shell sessions found")
os.execute("rm -rf " .. tmp)

t.done()
