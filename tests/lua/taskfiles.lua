-- tests/lua/taskfiles.lua -- the task files of --tasks K/N --dir DIR read
-- back by --gather DIR (issue 22): a file whose fields a valid run cannot
-- hold (stride or thinning 0: SIGFPE on 5aa2093) is refused by name, as
-- is a file cut short or changed (a checksum in the header), a
-- directory, a FIFO or a link to /dev/zero where a task file should be
-- (no hang), and an error status with binary bytes is printed escaped
-- (the reproductions F2_gather_sigfpe.sh and F13_task_dir_entry.sh).
-- A refused file is a missing task, named on stderr with the slice that
-- computes it: --gather exits 1 before the operation prints anything
-- (issue 25), and with --partial a repeats goes on without it, chains
-- raise naming it; nothing crashes.  A random mutation
-- fuzz (seed printed) checks that every mutated file either is refused by
-- name or gives exactly the original results.  Run through the binary
-- (prove -e ./optlab), which it also starts for each slice and gather.
local t = dofile("tests/lib/tap.lua")

local OPTLAB = arg and arg[-1] or "./optlab"   -- the binary under test
local fmt = string.format

local function sh (cmd)
  local ok, how, code = os.execute(cmd)
  return ok, how, code
end

local function slurp (name)
  local f = io.open(name, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function spit (name, s)
  local f = assert(io.open(name, "wb"))
  f:write(s)
  f:close()
end

local tmp = io.popen("mktemp -d"):read("l")
local D = tmp .. "/D"
local S = tmp .. "/s.lua"
sh("mkdir " .. D)
-- a repeats of 2 (op1-1, op1-2), then 2 NUTS chains that thin their
-- draws (op2-1, op2-2); the restored runs are continued, as F2 did
spit(S, [[
local q = repeats(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3},
                  {iters = 300, progress = false}, 2)
for _, r in ipairs(q.runs) do io.write(r:csv()) end
print(q)
local c = run(problem.gauss2d{}, sample.nuts{},
              {chains = 2, iters = 60, warmup = 20, progress = false, seed = 3,
               max_draws = 20})
for i = 1, #c do
  local d = c[i]:draws()[1]
  print(i, #d, c[i].iter, c[i].reason)
  for k = 1, #d do io.write(table.concat(d[k], ","), "\n") end
end
q.runs[1]:continue(400)
io.write(q.runs[1]:csv())
c[1]:continue(100)
print(#c[1]:draws()[1])
]])

local OUT, ERR = tmp .. "/out", tmp .. "/err"
-- gather D: exit code (128 + signal when killed), stdout, stderr; with
-- --partial unless strict
local function gather (strict)
  local _, how, code = sh(fmt("timeout 60 %s --gather %s %s %s >%s 2>%s",
                              OPTLAB, D, strict and "" or "--partial", S,
                              OUT, ERR))
  if how == "signal" then code = 128 + code end
  local err = slurp(ERR) or ""
  -- under make sanitize a report exits 1: counted as a crash
  if err:find("Sanitizer", 1, true) or err:find("runtime error:", 1, true)
  then code = 200 end
  return code, slurp(OUT) or "", err
end

local _, _, code = sh(fmt("%s --tasks 1/1 --dir %s %s >/dev/null 2>%s",
                          OPTLAB, D, S, ERR))
t.is(code, 0, "tasks: the slice writes every task file")
local rc, ref, referr = gather()
t.is(rc, 0, "tasks: the gathering run ends well")
t.is(referr, "", "tasks: and says nothing on stderr")
t.ok(#ref > 1000, "tasks: and prints the results")
local oneout = io.popen(fmt("%s %s 2>/dev/null", OPTLAB, S)):read("a")
t.is(ref, oneout, "tasks: gathered results are one process's")

local files = {"op1-1.task", "op1-2.task", "op2-1.task", "op2-2.task"}
local orig = {}
for _, f in ipairs(files) do orig[f] = slurp(D .. "/" .. f) end
local function restore ()
  for _, f in ipairs(files) do
    sh(fmt("rm -rf %s/%s", D, f))
    spit(D .. "/" .. f, orig[f])
  end
end

-- the header: "optlab task 3: ... (desc); slice K/N; <len> bytes, fnv1a64
-- <hex>\n"
local head1 = orig["op1-1.task"]:match("^[^\n]*")
t.ok(head1:match("^optlab task 3: repeats #1, task 1 of 2 %(seed 1, stream "
                 .. "0%); slice 1/1; %d+ bytes, fnv1a64 %x+$"),
     "tasks: the header names the task, the slice, the length and the "
     .. "checksum")

-- FNV-1a 64 as optlab's (the header's checksum), to make files whose
-- sum is right but whose fields are not
local function fnv (s)
  local h = -3750763034362895579          -- 14695981039346656037
  for i = 1, #s do h = (h ~ s:byte(i)) * 1099511628211 end
  return fmt("%016x", h)
end
-- (a header without a checksum, as 5aa2093 wrote, is kept so: there the
-- test shows the SIGFPE)
local summed = orig["op1-1.task"]:match("^[^\n]*fnv1a64") ~= nil
local function split (s)
  if not summed then return s:match("^([^\n]*)\n(.*)$") end
  return s:match("^(.-); %d+ bytes, fnv1a64 %x+\n(.*)$")
end
local function join (head, body)
  if not summed then return head .. "\n" .. body end
  return fmt("%s; %d bytes, fnv1a64 %s\n", head, #body, fnv(body)) .. body
end
do
  local head, body = split(orig["op1-1.task"])
  t.is(join(head, body), orig["op1-1.task"],
       "tasks: the checksum is FNV-1a 64 of the bytes after the header")
end

-- == every scalar field set to values a run cannot hold, sum fixed ======
-- payload: "o", the magic (8 bytes), then the scalars (core/runpack.c)
local FIELDS = {
  {"n", 0, "i4"}, {"tdim", 4, "i4"}, {"len", 8, "i4"}, {"offgrid", 12, "i4"},
  {"stride", 16, "i8"}, {"next_rec", 24, "i8"}, {"reason", 32, "i4"},
  {"t", 36, "i8"}, {"nfev", 44, "i8"}, {"ngev", 52, "i8"}, {"nhev", 60, "i8"},
  {"accepted", 68, "i8"}, {"mfev", 76, "i8"}, {"mgev", 84, "i8"},
  {"metrics", 92, "i8"}, {"seconds", 100, "d"}, {"drows", 108, "i8"},
  {"dthin", 116, "i8"}, {"dseen", 124, "i8"}, {"hasavg", 132, "i4"},
  {"mingrad", 136, "d"}, {"changes", 144, "i8"},
}
local function setfield (file, fld, v)
  local head, body = split(orig[file])
  local at = 1 + 1 + 8 + fld[2]
  body = body:sub(1, at - 1) .. string.pack(fld[3], v)
         .. body:sub(at + string.packsize(fld[3]))
  spit(D .. "/" .. file, join(head, body))
end
local function getfield (file, fld)
  local _, body = split(orig[file])
  return (string.unpack(fld[3], body, 1 + 1 + 8 + fld[2]))
end

-- the F2 cases and others that must be refused, naming file and field
local MUST = {
  {"op1-1.task", "stride", 0, "stride 0"},
  {"op1-1.task", "stride", 3, "stride 3"},
  {"op2-1.task", "dthin", 0, "thinning 0"},
  {"op1-1.task", "reason", 99, "reason 99"},
  {"op1-1.task", "t", -1, "iteration %-1"},
  {"op1-1.task", "len", 0x7fffffff, "2147483647 history points"},
  {"op1-1.task", "offgrid", 2, "offgrid = 2"},
  {"op2-1.task", "drows", 1 << 40, "kept draws"},
  {"op2-1.task", "dseen", -5, "draws seen"},
  {"op1-1.task", "seconds", -1.0, "stepping time"},
  {"op1-1.task", "mingrad", 0 / 0, "mingradnorm"},
  {"op1-1.task", "next_rec", 0, "next record"},
  {"op1-1.task", "accepted", 1 << 50, "accepted"},
}
local byname = {}
for _, f in ipairs(FIELDS) do byname[f[1]] = f end
for _, m in ipairs(MUST) do
  restore()
  setfield(m[1], byname[m[2]], m[3])
  local c, _, err = gather()
  t.ok(c < 128 and err:find(m[1], 1, true) and err:find(m[4]),
       fmt("tasks: %s with %s = %s is refused by name (exit %d)", m[1], m[2],
           tostring(m[3]), c))
  if not err:find(m[1], 1, true) then t.diag(err) end
end

-- a summary (what a worker rank keeps under mpirun, issue 25) is never a
-- task's result: a file that holds one is refused by name
do
  restore()
  local head, body = split(orig["op1-1.task"])
  spit(D .. "/op1-1.task", join(head, "oOLRS1\0\0\0" .. body:sub(10)))
  local c, _, err = gather(true)
  t.ok(c == 1 and err:find("op1-1.task", 1, true)
       and err:find("a summary (what a worker rank keeps), not a task's "
                    .. "results", 1, true),
       fmt("tasks: a task file holding a summary is refused by name (exit %d)",
           c))
end

-- a slice run again computes such a file again (its checksum holds, its
-- result does not restore), so that a rerun mends what --gather refuses
do
  restore()
  setfield("op1-1.task", byname.stride, 0)
  local _, _, sc = sh(fmt("%s --tasks 1/1 --dir %s %s >/dev/null 2>%s",
                          OPTLAB, D, S, ERR))
  local err = slurp(ERR) or ""
  t.ok(sc == 0 and err:find("op1-1.task", 1, true)
       and err:find("stride 0", 1, true)
       and err:find("computing task 1 again", 1, true),
       "tasks: a slice computes a file that does not restore again, "
       .. "saying why")
  local c, out = gather(true)
  t.ok(c == 0 and out == ref, "tasks: then the gather is the original")
end

-- the sweep: every field, several values; never a crash or an internal
-- error (a value that a run can hold may give another valid run)
local crashes, silent, tried = 0, 0, 0
for _, file in ipairs({"op1-1.task", "op2-1.task"}) do
  for _, fld in ipairs(FIELDS) do
    local v0 = getfield(file, fld)
    local vals = fld[3] == "d" and {-1.0, 0 / 0, math.huge, 0.0, 1e300}
      or {0, -1, 1, 3, v0 + 1, fld[3] == "i4" and 0x7fffffff or 1 << 62}
    for _, v in ipairs(vals) do
      restore()
      setfield(file, fld, v)
      local c, out, err = gather()
      tried = tried + 1
      if c >= 124 then
        crashes = crashes + 1
        t.diag(fmt("%s %s = %s: exit %d", file, fld[1], tostring(v), c))
      elseif err:find("attempt to", 1, true)
             or err:find("bad argument", 1, true) then
        -- a value a run can hold gives another run (a reason "time"
        -- refuses r:continue): fine; an internal error is not
        silent = silent + 1
        t.diag(fmt("%s %s = %s: exit %d: %s", file, fld[1], tostring(v), c,
                   err))
      end
    end
  end
end
t.is(crashes, 0, fmt("tasks: %d scalar-field changes (checksum fixed): no "
                     .. "crash, no hang", tried))
t.is(silent, 0, "tasks: and no internal error")

-- == hostile entries where a task file should be =========================
local function hostile (make, want, desc)
  restore()
  sh(fmt("rm -f %s/op1-2.task && %s", D, make))
  local c, out, err = gather(true)
  t.ok(c == 1 and err:find("task 2 of 2 (seed 1, stream 1) missing: " .. D
                           .. "/op1-2.task " .. want, 1, true)
       and err:find("slice 1/1 computes it", 1, true) and out == "",
       fmt("tasks: %s where a task file should be: --gather names the "
           .. "missing task and its slice, prints nothing, exit 1, no hang "
           .. "(exit %d)", desc, c))
  c, out, err = gather()
  t.ok(c == 0 and err:find("op1-2.task " .. want, 1, true)
       and out:find("missing: task 2", 1, true),
       fmt("tasks: ... and with --partial the repeats goes on without it "
           .. "(exit %d)", c))
end
hostile(fmt("mkdir %s/op1-2.task", D), "is a directory", "a directory")
hostile(fmt("mkfifo %s/op1-2.task", D), "is a FIFO", "a FIFO")
hostile(fmt("ln -s /dev/zero %s/op1-2.task", D), "is a device",
        "a link to /dev/zero")
-- a slice finding a FIFO where its task file goes: named, exit 1, no hang
do
  restore()
  sh(fmt("rm -f %s/op1-2.task && mkfifo %s/op1-2.task", D, D))
  local _, how, c = sh(fmt("timeout 60 %s --tasks 1/1 --dir %s %s "
                           .. ">/dev/null 2>%s", OPTLAB, D, S, ERR))
  local err = slurp(ERR) or ""
  t.ok(how == "exit" and c == 1
       and err:find("op1-2.task is a FIFO, not a regular file; remove it", 1,
                    true),
       fmt("tasks: a slice refuses to write into a FIFO, by name (exit %d)",
           c))
end
restore()

-- an error status with binary bytes, checksum right: printed escaped
do
  local head = split(orig["op1-2.task"])
  spit(D .. "/op1-2.task", join(head, "e\0\1\27[2J\255\254 boom"))
  local c, _, err = gather()
  t.ok(c == 0 and err:find("\\000\\001\\027[2J\\255\\254 boom", 1, true)
       and not err:find("\27", 1, true) and not err:find("\0", 1, true),
       "tasks: an error status with binary bytes is printed with escapes")
  spit(D .. "/op1-2.task", join(head, "x123"))
  c, _, err = gather(true)
  t.ok(c == 1 and err:find("op1-2.task: no task result", 1, true),
       "tasks: an unknown status byte is refused by name (exit 1)")
end
restore()

-- a truncated file (a full disk): refused, and a slice run again
-- computes that task again, after which the gather is whole
do
  spit(D .. "/op1-1.task", orig["op1-1.task"]:sub(1, 4096))
  local c, out, err = gather(true)
  t.ok(c == 1 and err:find("op1-1.task is cut short or damaged", 1, true)
       and out == "",
       "tasks: a file cut short is a missing task, named (exit 1)")
  c, out, err = gather()
  t.ok(c == 0 and err:find("op1-1.task is cut short or damaged", 1, true)
       and out:find("missing: task 1", 1, true),
       "tasks: ... used as such with --partial")
  -- the heading names the streams of the runs there (task 1, stream 0,
  -- is missing; 5aa2093 said "streams 0..R-2" whatever was missing)
  t.ok(out:find("runs?, streams? 1%.%.%d+%)") ~= nil
       or out:find("%(1 run, stream 1%)") ~= nil,
       "tasks: the heading's streams leave the missing one out: "
       .. (out:match("repeats: [^\n]*") or out))
  local _, _, sc = sh(fmt("%s --tasks 1/1 --dir %s %s >/dev/null 2>%s",
                          OPTLAB, D, S, ERR))
  t.ok(sc == 0 and (slurp(ERR) or ""):find("computing task 1 again", 1, true),
       "tasks: the slice run again says so and computes it again")
  c, out = gather()
  t.ok(c == 0 and out == ref, "tasks: then the gather is the original")
end

-- == random mutations, checksum not fixed ================================
local seed = 20261206
t.diag(fmt("mutation fuzz seed %d", seed))
math.randomseed(seed)
local bad, named, same, N = 0, 0, 0, 200
for k = 1, N do
  restore()
  local file = files[math.random(#files)]
  local s = orig[file]
  local kind = math.random(5)
  if kind == 1 then                       -- flip a bit anywhere
    local i = math.random(#s)
    s = s:sub(1, i - 1) .. string.char(s:byte(i) ~ (1 << math.random(0, 7)))
        .. s:sub(i + 1)
  elseif kind == 2 then                   -- cut short
    s = s:sub(1, math.random(0, #s - 1))
  elseif kind == 3 then                   -- a byte in the header line
    local hl = #s:match("^[^\n]*\n")
    local i = math.random(hl)
    s = s:sub(1, i - 1) .. string.char(math.random(0, 255)) .. s:sub(i + 1)
  elseif kind == 4 then                   -- bytes inserted
    local i = math.random(#s)
    s = s:sub(1, i) .. string.rep("\0", math.random(1, 16)) .. s:sub(i + 1)
  else                                    -- 8 random bytes over a scalar
    local hl = #s:match("^[^\n]*\n")
    local i = hl + 10 + math.random(0, 150)
    local r = {}
    for j = 1, 8 do r[j] = string.char(math.random(0, 255)) end
    s = s:sub(1, i - 1) .. table.concat(r) .. s:sub(i + 8)
  end
  spit(D .. "/" .. file, s)
  local c, out, err = gather()
  if c >= 124 then
    bad = bad + 1
    t.diag(fmt("mutation %d (kind %d) of %s: exit %d", k, kind, file, c))
  elseif err:find(file, 1, true) then
    named = named + 1
  elseif out == ref and c == 0 then
    same = same + 1
  else
    bad = bad + 1
    t.diag(fmt("mutation %d (kind %d) of %s: accepted, results differ",
               k, kind, file))
  end
end
t.is(bad, 0, fmt("tasks: %d mutated files: %d refused by name, %d give the "
                 .. "original results, none crashes or is taken silently",
                 N, named, same))

-- a restored run's method results: its method state was never stepped,
-- so it would answer with the values it started from (a gathered sqp run
-- gave lambda = 0 where one process gives 1; a gathered VI run printed
-- its starting q): refused by name, and print says q was not kept
do
  local S2, D2 = tmp .. "/m.lua", tmp .. "/D2"
  spit(S2, [[
local p = problem.new{n = 2, x0 = {2, 2}, f = function (x)
  return x[1]^2 + x[2]^2 end, constraints = {{kind = "eq",
  c = function (x) return x[1] + x[2] - 1 end}}}
local s = sweep(p, optim.sqp, {tol = {1e-8, 1e-9}}, {iters = 50})
local v = sweep(problem.gauss2d{}, vi.meanfield, {lr = {0.05, 0.1}},
                {iters = 300, seed = 2})
print(v.runs[1])
local ok, err = pcall(function () return s.runs[1].lambda[1] end)
print(ok and string.format("lambda %.6f", err) or err)
]])
  local capture = dofile("tests/lib/files.lua").sh
  local one = capture(fmt("%s %s 2>&1", OPTLAB, S2))
  os.execute("mkdir " .. D2)
  sh(fmt("%s --tasks 1/1 --dir %s %s >/dev/null 2>&1", OPTLAB, D2, S2))
  local got = capture(fmt("%s --gather %s %s 2>&1", OPTLAB, D2, S2))
  t.ok(one:find("lambda 1.000000", 1, true) and one:find("q: mean", 1, true),
       "tasks: in one process r.lambda is 1 and print shows q")
  t.ok(got:find("r.lambda: not kept: the run was restored from a task file "
                .. "or another rank, which carry its history and final "
                .. "point but not its method's results (read r.lambda in "
                .. "one process)", 1, true) ~= nil,
       "tasks: a gathered run's r.lambda is refused by name, not 0")
  t.ok(got:find("q: not kept (the run was restored from a task file or "
                .. "another rank)", 1, true) ~= nil
       and not got:find("q: mean", 1, true),
       "tasks: a gathered VI run's print says q was not kept, not its start")
end

sh("rm -rf " .. tmp)
t.done()
