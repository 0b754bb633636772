-- tests/lua/golden.lua -- every script in scripts/ and every README
-- example prints, byte for byte, what it printed when issue 23's refactor
-- began (the files under tests/golden/, recorded by this file with
-- OPTLAB_GOLDEN_RECORD=1 set).
--
-- A script runs as a user runs it (optlab scripts/NAME.lua, no arguments)
-- in a fresh directory; its record is its standard output, its standard
-- error, its exit status and, for each file it wrote, the file's name,
-- size and SHA-256 (CSV, SVG, draws: the bytes, not only the summary).
-- A README prompt session is typed into optlab -i as tests/lua/readme.lua
-- does, a shell session run from the top directory; their record is the
-- whole transcript.  What depends on the machine's speed is masked: the
-- line the README marks so (a running job's iteration count) and wall
-- times ("0.0026 s"), and the progress lines of bulk operations.
local t = dofile("tests/lib/tap.lua")

local record = os.getenv("OPTLAB_GOLDEN_RECORD") ~= nil

local files = dofile("tests/lib/files.lua")
local slurp, spit, sh = files.slurp, files.spit, files.sh

-- OpenBLAS picks its kernels by CPU at run time, and kernels round
-- differently (a dot product summed in another order): on an AMD machine
-- a handful of scripts printed other last digits, and runs that amplify
-- rounding (NUTS, Newton-Schulz) other figures, from the same code.  So
-- every command runs with the Haswell kernels (AVX2 and FMA), the records
-- were made with them, and a CPU without AVX2 or FMA skips the comparison.
local cpuflags = (sh("grep -m1 '^flags' /proc/cpuinfo 2>/dev/null") or "")
local pin = "OPENBLAS_CORETYPE=Haswell "
if not (cpuflags:find(" avx2[ \n]") and cpuflags:find(" fma[ \n]")) then
  io.write("1..0 # SKIP the records are of OpenBLAS's Haswell kernels, "
           .. "and this CPU has no AVX2 and FMA\n")
  return
end

local top = sh("pwd"):gsub("\n$", "")
local bin = top .. "/optlab"
local tmp = sh("mktemp -d"):gsub("\n$", "")

-- name, size and sha256 of every file under dir but the ones in skip
-- the progress lines of a bulk operation that runs longer than their
-- interval depend on the machine's speed: dropped from stderr
local function unprogress (s)
  return (s:gsub("optlab: [^\n]-: %d+/%d+ tasks[^\n]*, [%d.]+ s[^\n]*\n", ""))
end

local function files_of (dir, skip)
  local out = sh("cd " .. dir .. " && find . -type f | LC_ALL=C sort")
  local rec = {}
  for path in out:gmatch("[^\n]+") do
    local name = path:gsub("^%./", "")
    if not skip[name] then
      local sum = sh("sha256sum " .. dir .. "/" .. name):match("^(%x+)")
      local size = #(slurp(dir .. "/" .. name) or "")
      rec[#rec + 1] = string.format("file %s %d %s", name, size, sum)
    end
  end
  return table.concat(rec, "\n")
end

local function compare (name, got)
  local path = top .. "/tests/golden/" .. name .. ".out"
  if record then
    spit(path, got)
    t.ok(true, name .. ": recorded (" .. #got .. " bytes)")
    return
  end
  local want = slurp(path)
  if want == nil then
    t.ok(false, name .. ": no record at tests/golden/" .. name .. ".out")
    return
  end
  local same = got == want
  t.ok(same, name .. ": output byte-identical to tests/golden/" .. name
       .. ".out (" .. #want .. " bytes)")
  if not same then
    spit(tmp .. "/" .. name:gsub("/", "_") .. ".got", got)
    t.diag(sh("diff " .. path .. " " .. tmp .. "/"
              .. name:gsub("/", "_") .. ".got | head -20"))
  end
end

-- scripts/
local scripts = {}
for s in sh("ls " .. top .. "/scripts/*.lua"):gmatch("[^\n]+") do
  scripts[#scripts + 1] = s:match("([^/]+)%.lua$")
end
table.sort(scripts)
t.ok(#scripts >= 30, "golden: " .. #scripts .. " scripts found")
for _, s in ipairs(scripts) do
  local dir = tmp .. "/" .. s
  os.execute("mkdir -p " .. dir)
  local _, code = sh("cd " .. dir .. " && " .. pin .. "OPTLAB_HISTORY=/dev/null " .. bin
                     .. " " .. top .. "/scripts/" .. s .. ".lua > .stdout "
                     .. "2> .stderr")
  local got = "== stdout\n" .. slurp(dir .. "/.stdout")
    .. "== stderr\n" .. unprogress(slurp(dir .. "/.stderr"))
    .. "== exit " .. code .. "\n"
    .. "== files\n" .. files_of(dir, {[".stdout"] = true,
                                      [".stderr"] = true}) .. "\n"
  compare("scripts/" .. s, got)
end

-- README.md's fenced blocks
local blocks = {}
do
  local cur
  for line in (slurp("README.md") .. "\n"):gmatch("(.-)\n") do
    if line:match("^```") then
      if cur then blocks[#blocks + 1] = cur; cur = nil else cur = {} end
    elseif cur then
      cur[#cur + 1] = line
    end
  end
end
local varies = "print(j.run.iter)"
-- wall times (run summaries, the race table) depend on the machine
-- (and the width of a race table's time column, which its header follows)
local function masktimes (s)
  s = s:gsub("[ (]*%d[%d.]*e?[-+]?%d* ([mu\194\181]*s)%f[^%w]", " <time> %1")
  return (s:gsub("\n(%s*#%s[^\n]-) +time +", "\n%1 <time-column> "))
end
local nsession, nshell = 0, 0
for _, b in ipairs(blocks) do
  if b[1] and b[1]:match("^> ") then
    nsession = nsession + 1
    local dir = tmp .. "/readme" .. nsession
    os.execute("mkdir -p " .. dir)
    local input = {}
    for _, line in ipairs(b) do
      local l = line:match("^> (.*)$") or line:match("^>> (.*)$")
      if l then input[#input + 1] = l end
    end
    spit(dir .. "/.input", table.concat(input, "\n") .. "\n")
    local _, code = sh("cd " .. dir .. " && " .. pin .. "OPTLAB_HISTORY=" .. dir
                       .. "/.hist " .. bin .. " --no-tui -i < .input "
                       .. "> .stdout 2> .stderr")
    local out = slurp(dir .. "/.stdout")
    -- the one machine-dependent line: the number printed after it
    out = out:gsub("(> " .. varies:gsub("%p", "%%%0") .. "[^\n]*\n)[^\n]*\n",
                   "%1<iterations>\n")
    local got = "== stdout\n" .. masktimes(out)
      .. "== stderr\n" .. unprogress(slurp(dir .. "/.stderr"))
      .. "== exit " .. code .. "\n"
      .. "== files\n" .. files_of(dir, {[".stdout"] = true,
                                        [".stderr"] = true,
                                        [".input"] = true,
                                        [".hist"] = true}) .. "\n"
    compare("readme/session" .. nsession, got)
  elseif b[1] and b[1]:match("^%$ ") then
    nshell = nshell + 1
    local got = {}
    for _, line in ipairs(b) do
      local cmd = line:match("^%$ (.*)$")
      if cmd then
        local out, code = sh("export " .. pin .. "&& " .. cmd .. " 2> "
                             .. tmp .. "/.err")
        got[#got + 1] = "$ " .. cmd .. "\n" .. out .. "== stderr\n"
          .. unprogress(slurp(tmp .. "/.err")) .. "== exit " .. code .. "\n"
      end
    end
    compare("readme/shell" .. nshell, table.concat(got))
  end
end
t.ok(nsession >= 3, "golden: " .. nsession .. " README prompt sessions")
t.ok(nshell >= 1, "golden: " .. nshell .. " README shell sessions")
os.execute("rm -rf " .. tmp)

t.done()
