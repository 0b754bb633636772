-- lua/tasks.lua -- bulk operations as lists of independent tasks.
--
-- core.bulk(spec) runs tasks 1..spec.n, each a run object fixed by its
-- index alone (its seed and rng stream are chosen by the caller from the
-- index, never from the rank or the number of ranks), in the process's
-- task mode (lua/ltask.c):
--   one      every task here, in order (today's behaviour);
--   slice    --tasks K/N --dir DIR: tasks i with (i - 1) mod N = K - 1
--            computed and written to DIR/op<j>-<i>.task (j counts the
--            script's bulk operations); when every task of operation j is
--            in DIR the operation returns them all and the script goes on,
--            otherwise the process stops there (exit status 0), so a
--            script whose later operations depend on earlier ones runs as
--            a chain of job arrays;
--   gather   --gather DIR: every task read back from DIR;
--   mpi      mpirun -np N: rank 0 hands out task indices (each rank asks
--            for two ahead, then one per result, so uneven tasks balance)
--            from a server thread while it computes tasks itself,
--            collects the packed results and keeps them, and broadcasts
--            them, or past a size each task's summary (its results
--            without the history: OPTLAB_MPI_HISTORIES below), so the
--            script goes on in step on every rank and prints (rank 0
--            only) what one process would.
-- spec = {who = "repeats", n = R, run = function (i) -> run stepped,
--         make = function (i, shell) -> the same run made, not stepped
--         (to restore into; shell: core.task_mkrun's), desc = function (i) -> "seed 1, stream 4",
--         progress = false: no progress lines (the operation's option)}.
-- Returns results, missing, interrupted: results[i] the run of task i or
-- nil; missing = {{task = i, desc = ..., error = msg}, ...} in task order
-- (a task that raised, one not run because of Ctrl-C, one absent from
-- DIR); interrupted true after Ctrl-C.  Loaded by lua/lembed.c with the
-- other library files.
local core = ...

local error, ipairs, pairs, pcall, tonumber, tostring, type = error,
  ipairs, pairs, pcall, tonumber, tostring, type
local io, math, os, string, table, utf8 = io, math, os, string, table, utf8
local fmt, concat, spack, sunpack = string.format, table.concat,
  string.pack, string.unpack

local mode, mk, mn, mdir, partial = core.task_mode()
local rank = mode == "mpi" and mk or 0
local size = mode == "mpi" and mn or 1
local opcount = 0
local nslices              -- slices of the job array, from its task files
local open = io.open

-- A process that writes nothing (a rank > 0, a slice) opens every file
-- for writing on /dev/null (C writers: olua_checkfilename).
if rank > 0 or mode == "slice" then
  io.open = function (name, m, ...)
    if type(m) == "string" and m:find("[wa+]") then
      return open("/dev/null", m, ...)
    end
    return open(name, m, ...)
  end
end

local function isintr (err)
  return type(err) == "string" and err:find("interrupted!", 1, true) ~= nil
end

-- Task i computed here: "ok", run; "error", message; "intr", run or nil.
local function compute (spec, i)
  local ok, r = pcall(spec.run, i)
  if not ok then
    if isintr(r) then return "intr" end
    return "error", (tostring(r):gsub("^lua/[%w_]+%.lua:%d+: ", ""))
  end
  if r.reason == "interrupted" then return "intr", r end
  return "ok", r
end

-- A result as bytes: a status letter, then the packed run or the message.
local function encode (status, v)
  if status == "ok" then return "o" .. core.task_pack(v) end
  if status == "error" then return "e" .. v end
  return "s"
end

-- A task's error message as it may be printed: at most 1000 bytes,
-- control characters and bytes that are not UTF-8 as \ddd escapes.
local MSGMAX = 1000
local function printable (msg)
  if #msg > MSGMAX then msg = msg:sub(1, MSGMAX) .. "..." end
  local ok = utf8.len(msg)
  return (msg:gsub(ok and "[%c\127]" or "[%c\127-\255]", function (c)
    if c == "\n" or c == "\t" then return c end
    return fmt("\\%03d", c:byte())
  end))
end

-- Restore task i from its bytes into results / missing; from: where the
-- bytes came from ("D/op1-3.task"), named when they are not a result.
local function decode (spec, i, bytes, results, missing, from)
  local k = bytes:sub(1, 1)
  local function bad (why)
    missing[#missing + 1] = {task = i, error = from and fmt("%s: %s", from,
                                                            why) or why,
                             file = from ~= nil}
  end
  if k == "o" then
    local r = spec.make(i, true)   -- a shell: nothing evaluated
    -- a summary only from rank 0 (from == nil), never from a file
    local ok, err = pcall(core.task_unpack, r, bytes, from == nil, 2)
    if ok then results[i] = r
    else bad(tostring(err):gsub("^tasks: ", "")) end
  elseif k == "e" then
    missing[#missing + 1] = {task = i, error = printable(bytes:sub(2))}
  elseif k == "s" and #bytes == 1 then
    missing[#missing + 1] = {task = i, error = "not run (interrupted)"}
  else
    bad(fmt("no task result (it begins with the byte %d, not o, e or s)",
            bytes:byte(1) or -1))
  end
end

-- Failed tasks said one line each up to this many, then in one line.
local SAYFAILED = 5

local function finish (spec, results, missing, stopped, from)
  -- from: tasks from..n were not run (Ctrl-C), without an entry each
  local notrun, first = from and spec.n - from + 1 or 0, from
  local said, more, sorted = 0, 0, true
  for k = 2, #missing do
    if missing[k - 1].task > missing[k].task then sorted = false end
  end
  if not sorted then
    table.sort(missing, function (a, b) return a.task < b.task end)
  end
  -- each entry's desc made when it is read: after a Ctrl-C there may be
  -- 10^5 failed tasks, and the prompt is waiting
  local lazy = {__index = function (m, k)
    if k ~= "desc" then return nil end
    local d = spec.desc(m.task)
    rawset(m, "desc", d)
    return d
  end}
  for _, m in ipairs(missing) do
    setmetatable(m, lazy)
    if m.error:find("^not run", 1) then
      -- Ctrl-C: the tasks left are said in one line, not one each
      notrun = notrun + 1
      first = first and math.min(first, m.task) or m.task
    elseif m.said then
      -- named already (a task --gather --partial found missing)
    elseif rank == 0 and mode ~= "slice" then
      if said < SAYFAILED then
        io.stderr:write(fmt("optlab: %s: task %d of %d (%s) failed: %s\n",
                            spec.who, m.task, spec.n, m.desc, m.error))
        said = said + 1
      else
        more = more + 1
      end
    end
  end
  if more > 0 then
    io.stderr:write(fmt("optlab: %s: %d more tasks failed (the result's "
                        .. "missing lists them)\n", spec.who, more))
  end
  if notrun > 0 and rank == 0 and mode ~= "slice" then
    io.stderr:write(fmt("optlab: %s: interrupted: %d of %d tasks not run "
                        .. "(from task %d)\n", spec.who, notrun, spec.n,
                        first))
  end
  return results, missing, stopped or nil
end

-- == progress lines ============================================================

-- Without a view to show how far an operation is (no terminal, --no-tui,
-- a slice, rank 0 of an mpirun job writing to a file), a line on stderr
-- every PROGRESS seconds of wall time, the first once the operation has
-- run that long, so a quick one says nothing: "optlab: repeats #1: 37/64
-- tasks, 11.5 s, ~8 s left" (a slice counts its own tasks and says which
-- it is, rank 0 says on how many ranks).  The lines are looked at
-- between tasks.  OPTLAB_PROGRESS_SECONDS sets the interval (0: none).
local PROGRESS = 2
do
  local e = os.getenv("OPTLAB_PROGRESS_SECONDS")
  local v = e and tonumber(e)
  if e and e ~= "" and not (v and v >= 0 and v < math.huge) then
    io.stderr:write(fmt("optlab: OPTLAB_PROGRESS_SECONDS=%s is not a number "
                        .. "of seconds >= 0 (0: no progress lines); using "
                        .. "%d\n", e, PROGRESS))
  elseif v then
    PROGRESS = v
  end
end

-- A progress meter for operation j of spec, total tasks to do here;
-- nil when no line is wanted.
local function meter (spec, j, total)
  if PROGRESS <= 0 or spec.progress == false or rank ~= 0
     or mode == "gather" then
    return nil
  end
  local t0 = optlab.now()
  return {t0 = t0, next = t0 + PROGRESS, total = total,
          head = fmt("optlab: %s%s #%d: ", mode == "slice"
                     and fmt("tasks %d/%d: ", mk, mn) or "", spec.who, j),
          ranks = size > 1 and fmt(" on %d ranks", size) or ""}
end

-- done tasks of the meter's are done; b: the live view, which, while it
-- can show, says it instead.
local function meter_tick (p, done, b)
  if not p or (b and not b.off) then return end
  local now = optlab.now()
  if now < p.next then return end
  p.next = now + PROGRESS
  local el, left = now - p.t0, ""
  if done > 0 and done < p.total then
    local l = el / done * (p.total - done)
    left = fmt(l < 10 and ", ~%.1f s left" or ", ~%.0f s left", l)
  end
  io.stderr:write(fmt("%s%d/%d tasks%s, %.1f s%s\n", p.head, done, p.total,
                      p.ranks, el, left))
  io.stderr:flush()
end

-- == the live view ===============================================================

-- While the tasks of an operation finish, rank 0 (or the one process)
-- shows what they add up to, through the program's view (lua/ltask.c's
-- core.task_view): a repeats its 10%, median and 90% bands over the runs
-- done (core.task_band: at every recorded time, the quantiles of the
-- runs' values there), a sweep its best run so far (smallest final value
-- of spec.score) beside the last one done, chains the chains done (their
-- pooled R-hat and ESS panels), a race the runs done.  The view opens
-- once the operation has run VIEWAFTER seconds (a quick one never
-- flashes a screen), its runs are rebuilt at most every REBUILD seconds,
-- and it is polled between tasks: q stops the operation (the tasks not
-- run are missing, as after Ctrl-C), space pauses it.  No view without a
-- terminal, with view = false, on ranks > 0 or in slices.
local VIEWAFTER, REBUILD = 0.5, 0.25
local BANDS = {{0.9, "90%"}, {0.5, "median"}, {0.1, "10%"}}

local function board (spec)
  if not spec.kind or spec.view == false or rank ~= 0 or mode == "slice"
     or mode == "gather" or not core.task_viewable() then
    return nil
  end
  return {spec = spec, done = {}, count = 0, t0 = optlab.now(),
          built = 0, dirty = false}
end

local function board_add (b, i, r)
  if b and not b.off and r then
    b.done[i] = r
    b.count = b.count + 1
    b.last = i
    b.dirty = true
  end
end

local function board_build (b)
  local spec, shown, labels = b.spec, {}, {}
  b.t1 = optlab.now()
  local idx = {}
  for i in pairs(b.done) do idx[#idx + 1] = i end
  table.sort(idx)
  if spec.kind == "repeats" then
    local list = {}
    for k, i in ipairs(idx) do list[k] = b.done[i] end
    if not b.bands then
      b.bands, b.qs = {}, {}
      for k, q in ipairs(BANDS) do b.bands[k], b.qs[k] = spec.makeband(), q[1] end
    end
    core.task_band(b.bands, b.qs, list)
    for k, q in ipairs(BANDS) do shown[k], labels[k] = b.bands[k], q[2] end
    labels[1] = fmt("90%% of %d runs", #list)
  elseif spec.kind == "sweep" then
    local m = spec.score or b.done[idx[1]]:metrics()[1]
    local bi, bv
    for _, i in ipairs(idx) do
      local v = b.done[i]:last(m)
      if v == v and (bv == nil or v < bv) then bi, bv = i, v end
    end
    bi = bi or idx[1]
    shown[1], labels[1] = b.done[bi], "best: " .. spec.desc(bi)
    if b.last ~= bi then
      shown[2], labels[2] = b.done[b.last], "last: " .. spec.desc(b.last)
    end
  else
    for k = math.max(1, #idx - 15), #idx do
      shown[#shown + 1] = b.done[idx[k]]
      labels[#labels + 1] = spec.desc(idx[k])
    end
  end
  b.shown, b.labels = shown, labels
  b.title = fmt("%s: %d of %d tasks done%s", spec.who, b.count, spec.n,
                size > 1 and fmt(" on %d ranks", size) or "")
  b.dirty = false
  -- the next rebuild waits ten times this one's cost, so that a band
  -- over thousands of runs takes at most a tenth of the operation's time
  local now = optlab.now()
  b.wait = math.max(REBUILD, 10 * (now - b.t1))
  b.built = now
end

-- Between tasks: show what is done; true when the user stopped (q).  A
-- view that fails (a run that cannot be shown) is given up, not raised.
local board_show
local function board_tick (b)
  if not b or b.off then return false end
  local ok, stop = pcall(board_show, b)
  if ok then return stop end
  b.off = true
  if b.open then core.task_view_close() end
  b.open = false
  -- Ctrl-C while the view drew (the SIGINT hook raises there): the
  -- operation stops as when a task is interrupted, keeping what is done
  return isintr(stop)
end

function board_show (b)
  if not b or b.off or b.count == 0 then return false end
  local now = optlab.now()
  if now - b.t0 < VIEWAFTER then return false end
  if not b.shown or (b.dirty and now - b.built >= b.wait) then
    board_build(b)
  end
  local r = core.task_view(b.shown, b.labels, b.title)
  while r == 0 do r = core.task_view(b.shown, b.labels, b.title) end
  if r == nil then b.off = true end
  b.open = r ~= nil
  return r == -1
end

local function board_close (b)
  if b and b.open then core.task_view_close() end
  if b then b.open = false end
end

-- == one process ===============================================================

-- spec.failfast: the tasks differ only in their stream (repeats), so when
-- the first FAILFAST fail with one message and none has succeeded the
-- operation stops there: the rest would fail alike.
local FAILFAST = 3

local function bulk_one (spec)
  local results, missing = {}, {}
  local b = board(spec)
  local p = meter(spec, opcount, spec.n)
  local upto = 0          -- tasks 1 .. upto are recorded
  local function loop ()
    for i = 1, spec.n do
      if core.task_intr() then
        board_close(b)
        return finish(spec, results, missing, true, i)
      end
      meter_tick(p, i - 1, b)
      local st, v = compute(spec, i)
      if st == "ok" then
        results[i] = v
        upto = i
        board_add(b, i, v)
        if i < spec.n and board_tick(b) then
          board_close(b)
          return finish(spec, results, missing, true, i + 1)
        end
      elseif st == "error" then
        missing[#missing + 1] = {task = i, error = v}
        upto = i
        if spec.failfast and i == FAILFAST and #missing == FAILFAST
           and missing[1].error == v and missing[2].error == v then
          board_close(b)
          error(fmt("%s: tasks 1 to %d failed alike, so the other %d were "
                    .. "not run: %s", spec.who, FAILFAST, spec.n - FAILFAST,
                    v), 0)
        end
      else
        results[i] = v
        board_close(b)
        return finish(spec, results, missing, true, i + (v and 1 or 0))
      end
    end
    board_close(b)
    return finish(spec, results, missing)
  end
  -- Ctrl-C raises "interrupted!" in whatever Lua code runs when it comes
  -- (the program's hook), here too: the tasks done are kept all the same
  local ok, r1, r2, r3 = pcall(loop)
  if ok then return r1, r2, r3 end
  if not isintr(r1) then error(r1, 0) end
  board_close(b)
  return finish(spec, results, missing, true, upto + 1)
end

-- == slices and gathering ========================================================

local function taskfile (j, i)
  return fmt("%s/op%d-%d.task", mdir, j, i)
end

-- A task file: one header line, then the result's bytes (encode).  The
-- header names the operation and task and the slice that wrote it (K/N:
-- a --gather missing tasks can say which slices to run again), and ends
-- with the length and the FNV-1a 64-bit hash of those bytes, so that a
-- file cut short (a full disk, a killed copy) or changed is refused by
-- name, not read.
local VERSION = 3

local function header (spec, j, i)
  return fmt("optlab task %d: %s #%d, task %d of %d (%s)", VERSION, spec.who,
             j, i, spec.n, spec.desc(i))
end

-- The bytes of task i of operation j in DIR and the number of slices of
-- the job array that wrote it, or nil, why.
local function readtask (spec, j, i)
  local name = taskfile(j, i)
  local s, why = core.task_read(name)
  if not s then
    if why == "absent" then return nil, "no result in " .. mdir end
    return nil, fmt("%s %s", name, why)
  end
  local h = header(spec, j, i)
  if s:sub(1, #h) ~= h then
    local first = s:sub(1, 200):match("^[^\n]*")
    return nil, fmt("%s holds another task or another format (%s)", name,
                    printable(first))
  end
  local k, n, len, sum, at = s:match("^; slice (%d+)/(%d+); (%d+) bytes, "
                                     .. "fnv1a64 (%x+)\n()", #h + 1)
  k, n = math.tointeger(tonumber(k)), math.tointeger(tonumber(n))
  if not (len and k and n and k >= 1 and k <= n) then
    return nil, fmt("%s: its header line is damaged", name)
  end
  if math.tointeger(tonumber(len)) ~= #s - at + 1 then
    return nil, fmt("%s is cut short or damaged: %d bytes after its header, "
                    .. "which says %s", name, #s - at + 1, len)
  end
  if core.task_sum(s, at) ~= sum then
    return nil, fmt("%s is damaged: its checksum does not match its bytes",
                    name)
  end
  return s:sub(at), n
end

-- Write task i of operation j to DIR whole or not at all; a failure ends
-- the slice with status 1, naming the file and the reason.
local function writetask (spec, j, i, bytes)
  local ok, err = pcall(core.task_write, taskfile(j, i),
                        fmt("%s; slice %d/%d; %d bytes, fnv1a64 %s\n",
                            header(spec, j, i), mk, mn, #bytes,
                            core.task_sum(bytes)) .. bytes)
  if not ok then
    io.stderr:write(fmt("optlab: tasks %d/%d: %s #%d, task %d of %d: %s\n",
                        mk, mn, spec.who, j, i, spec.n,
                        tostring(err):gsub("^tasks: ", "")))
    io.stderr:flush()
    os.exit(1, true)
  end
end

-- --gather found the tasks in lost (entries of missing) absent or
-- refused: each named on stderr (up to SAYLOST) with the slice that
-- computes it, then which slices to run again; without --partial the
-- process ends there with status 1, before the script prints or writes
-- anything of the operation; with it the operation goes on without them.
local SAYLOST = 20

local function gather_lost (spec, j, lost)
  local n, w = nslices, io.stderr
  local head = fmt("optlab: --gather %s: %s #%d: ", mdir, spec.who, j)
  local ks, seen = {}, {}
  for c, m in ipairs(lost) do
    local k = n and (m.task - 1) % n + 1
    if k and not seen[k] then
      seen[k] = true
      ks[#ks + 1] = k
    end
    if c <= SAYLOST then
      w:write(fmt("%stask %d of %d (%s) missing: %s%s\n", head, m.task,
                  spec.n, spec.desc(m.task), m.error,
                  k and fmt("; slice %d/%d computes it", k, n) or ""))
    end
    m.said = true
  end
  if #lost > SAYLOST then
    w:write(fmt("%s%d more tasks missing\n", head, #lost - SAYLOST))
  end
  local again
  if n then
    table.sort(ks)
    local list = {}
    for c = 1, math.min(#ks, 10) do list[c] = fmt("%d/%d", ks[c], n) end
    if #ks > 10 then list[#list + 1] = fmt("... (%d slices)", #ks) end
    -- the script's name (arg[0]); without a script (-e) arg[0] is the
    -- program's and there is no arg[-1]
    local script = type(arg) == "table" and arg[-1] ~= nil
      and tostring(arg[0]) or "SCRIPT"
    again = fmt("run slice%s %s (optlab --tasks K/%d --dir %s %s)",
                #ks > 1 and "s" or "", concat(list, ", "), n, mdir, script)
  else
    again = fmt("no task file in %s says how many slices N there were: "
                .. "task i is slice (i - 1) mod N + 1's", mdir)
  end
  w:write(fmt("%s%d of %d tasks missing; %s%s\n", head, #lost, spec.n, again,
              partial and fmt("; --partial: going on with the %d there",
                              spec.n - #lost)
                or fmt(", or give --partial to go on with the %d there",
                       spec.n - #lost)))
  w:flush()
  if not partial then os.exit(1, true) end
end

local function bulk_files (spec)
  local j = opcount
  local results, missing, have = {}, {}, 0
  if mode == "slice" then
    local todo = {}
    for i = mk, spec.n, mn do
      if core.task_intr() then error("interrupted!", 0) end
      local got, why = readtask(spec, j, i)
      if got then
        -- its checksum holds; what it holds must restore too (a file of
        -- another build of the script), or --gather would refuse it
        local r, m = {}, {}
        decode(spec, i, got, r, m, taskfile(j, i))
        if m[1] and m[1].file then got, why = nil, m[1].error end
      end
      if not got then todo[#todo + 1] = {i, why} end
    end
    local p = meter(spec, j, #todo)
    for k, t in ipairs(todo) do
      local i, why = t[1], t[2]
      if core.task_intr() then error("interrupted!", 0) end
      meter_tick(p, k - 1)
      if not why:find("^no result in ") then
        io.stderr:write(fmt("optlab: tasks %d/%d: %s; computing task %d "
                            .. "again\n", mk, mn, why, i))
      end
      local st, v = compute(spec, i)
      if st == "intr" then error("interrupted!", 0) end
      writetask(spec, j, i, encode(st, v))
    end
  end
  local bytes, why = {}, {}
  for i = 1, spec.n do
    local b, x = readtask(spec, j, i)
    if b then
      bytes[i], have, nslices = b, have + 1, nslices or x
    else
      why[i] = x
    end
  end
  if mode == "slice" and have < spec.n then
    io.stderr:write(fmt("optlab: tasks %d/%d: %s #%d: this slice's tasks "
                        .. "are in %s (%d of %d there); the script goes on "
                        .. "once every slice has run\n", mk, mn, spec.who, j,
                        mdir, have, spec.n))
    io.stderr:flush()
    os.exit(0, true)
  end
  -- the tasks whose file is absent or refused: a slice must run again
  local lost = {}
  for i = 1, spec.n do
    if bytes[i] then
      decode(spec, i, bytes[i], results, missing, taskfile(j, i))
    else
      missing[#missing + 1] = {task = i, error = why[i], file = true}
    end
    if missing[#missing] and missing[#missing].task == i
       and missing[#missing].file then
      lost[#lost + 1] = missing[#missing]
    end
  end
  if #lost > 0 then gather_lost(spec, j, lost) end
  return finish(spec, results, missing)
end

-- == Open MPI ====================================================================

-- the protocol of rank 0's server (lua/ltask.c): AHEAD requests, then a
-- message of results per chunk; each message answered by the next chunk
-- "i k" (tasks i .. i + k - 1), -1 none, -2 stop
local REQ, RES = 1, 2
local AHEAD = 2                     -- chunks a worker holds ahead

local function worker (spec)
  local send, recv = core.task_send, core.task_recv
  for _ = 1, AHEAD do send(0, REQ, "") end
  local out, queue, stop = AHEAD, {}, false
  while true do
    while out > 0 and (#queue == 0 or core.task_probe()) do
      local _, _, s = recv()
      out = out - 1
      local a, b = s:match("^(%-?%d+) ?(%d*)$")
      local i = math.tointeger(tonumber(a))
      if i == -2 then stop = true
      elseif i > 0 then
        queue[#queue + 1] = {i, math.tointeger(tonumber(b)) or 1}
      end
    end
    if #queue == 0 and out == 0 then break end
    if #queue > 0 then
      local c, parts = table.remove(queue, 1), {}
      for i = c[1], c[1] + c[2] - 1 do
        local st, v = "intr", nil
        if not stop then st, v = compute(spec, i) end
        -- after a Ctrl-C the rest of the chunk is not run
        if st == "intr" then stop = true end
        parts[#parts + 1] = spack("js4", i, encode(st, v))
      end
      send(0, RES, concat(parts))
      out = out + 1
    end
  end
  core.task_flush()
end

-- What the other ranks get of each task (OPTLAB_MPI_HISTORIES): "all"
-- its whole results; "rank0" its summary (core/runpack.h: x, the stop
-- reason, the counts, the last and smallest value of each metric, the
-- draws, without the history), which is what a script reads to decide
-- what to do next, the histories staying with rank 0 (there a run:series
-- raises, saves and plots do nothing); "auto" (the default) the whole
-- results while what the broadcast carries, the operation's results
-- times the ranks that get them, comes to at most HISTBUDGET bytes (64
-- MB of results on 2 ranks, 9 MB on 8, 2 MB on 32), so a script that
-- reads histories runs under mpirun as in one process, and the summaries
-- beyond (10^5 runs of 100 KB would be a 10 GB broadcast, past MPI's 2 GB
-- limit, and as much memory on every rank; 48 MB to 7 ranks took 3 s of
-- an 8-rank emulation's 7 s).
local HISTBUDGET = 64 * 1024 * 1024
local HISTORIES = "auto"
if mode == "mpi" then
  local e = os.getenv("OPTLAB_MPI_HISTORIES")
  if e == "all" or e == "rank0" or e == "auto" then HISTORIES = e
  elseif e and e ~= "" and rank == 0 then
    io.stderr:write(fmt("optlab: OPTLAB_MPI_HISTORIES=%s is not one of all, "
                        .. "rank0, auto; using auto\n", e))
  end
end

-- Whether the other ranks get the whole results of tasks 1..nxt - 1 (rank
-- 0's decision, sent in the broadcast): bytes[i] the packed results of
-- task i from another rank, results[i] the run.
local function wholeresults (results, bytes, nxt)
  if HISTORIES ~= "auto" then return HISTORIES == "all" end
  local total, budget = 0, HISTBUDGET // math.max(1, size - 1)
  for i = 1, nxt - 1 do
    total = total + (bytes[i] and #bytes[i]
                     or results[i] and core.task_packsize(results[i]) or 0)
    if total > budget then return false end
  end
  return true
end

-- Rank 0: a thread of ltask.c serves the workers (indices out, results
-- in) while this loop takes indices from the same counter and computes
-- them.  Between its own tasks it restores the results the others sent
-- meanwhile (core.task_fresh), so that little is left for after the last
-- task, and shows them in the live view (board).  Without a terminal to
-- show it, rank 0 says how far an operation is (meter).  Returns the
-- bytes of the others' tasks that did not restore or may go whole to
-- the other ranks (none once they are past the budget: see
-- wholeresults) and of its own that did not succeed (its own results are
-- packed by bulk_mpi), the set of tasks already restored into results /
-- missing, whether it was stopped and the first task not handed out.
local function master (spec, results, missing, b)
  local n, bytes, restored, own, seen = spec.n, {}, {}, 0, 0
  local keep = HISTORIES ~= "rank0" and 0 or nil   -- bytes kept, or nil
  local budget = HISTORIES == "auto"
    and HISTBUDGET // math.max(1, size - 1) or math.huge
  local function take (t)
    for i, s in pairs(t) do
      if not restored[i] then
        decode(spec, i, s, results, missing)
        restored[i] = true
        board_add(b, i, results[i])
      end
      if not results[i] then bytes[i] = s        -- an error goes as it came
      elseif keep then
        bytes[i] = s
        keep = keep + #s
        if keep > budget then
          -- past the budget the others get summaries: the bytes are not
          -- needed (10^5 of 100 KB would be 10 GB held here)
          for k in pairs(bytes) do
            if results[k] then bytes[k] = nil end
          end
          keep = nil
        end
      end
    end
  end
  core.task_serve(n)
  local p = meter(spec, opcount, n)
  local function absorb ()
    local t
    t, seen = core.task_fresh(seen)
    take(t)
  end
  local ok, err = pcall(function ()
    while true do
      meter_tick(p, core.task_progress() + own, b)
      if core.task_intr() then
        core.task_stop()
        break
      end
      local i = core.task_take()
      if not i then break end
      local st, v = compute(spec, i)
      if st == "intr" then core.task_stop() end
      -- its own results are packed once, at the end, whole or as
      -- summaries (bulk_mpi)
      if st ~= "ok" then bytes[i] = encode(st, v) end
      if st == "ok" then
        results[i] = v
        restored[i] = true
        board_add(b, i, v)
      elseif st == "error" then
        missing[#missing + 1] = {task = i, error = v}
        restored[i] = true
      end
      own = own + 1
      absorb()
      if board_tick(b) then
        core.task_stop()
        break
      end
    end
  end)
  if not ok then
    core.task_stop()
    if not isintr(err) then
      board_close(b)
      core.task_served(seen)
      error(err, 0)
    end
  end
  board_close(b)
  local theirs, nxt, stopped = core.task_served(seen)
  take(theirs)
  -- tasks nxt..n were never handed out: not run, without an entry each
  -- (after a stop there may be 10^6 of them)
  return bytes, restored, stopped or not ok, nxt
end

local function bulk_mpi (spec)
  local results, missing, blob, stopped = {}, {}, nil, false
  local nxt
  if rank == 0 then
    local bytes, restored
    bytes, restored, stopped, nxt = master(spec, results, missing,
                                           board(spec))
    local whole = wholeresults(results, bytes, nxt)
    local parts = {stopped and "1" or "0", spack("j", nxt)}
    for i = 1, nxt - 1 do
      -- another rank's bytes go as they came (also a result that would
      -- not restore: the others refuse it alike), rank 0's own results
      -- packed now; an error or a stop as its status
      local s = bytes[i]
      if results[i] and not (whole and s) then
        s = "o" .. core.task_pack(results[i], not whole)
      end
      parts[#parts + 1] = spack("s4", s or "s")
    end
    core.task_bcast(concat(parts))
  else
    worker(spec)
    blob = core.task_bcast()
    stopped = blob:sub(1, 1) == "1"
    local at
    nxt, at = sunpack("j", blob, 2)
    for i = 1, nxt - 1 do
      local b
      b, at = sunpack("s4", blob, at)
      decode(spec, i, b, results, missing)
    end
  end
  return finish(spec, results, missing, stopped,
                nxt <= spec.n and nxt or nil)
end

function core.bulk (spec)
  opcount = opcount + 1
  if mode == "one" then return bulk_one(spec) end
  if mode == "mpi" then return bulk_mpi(spec) end
  return bulk_files(spec)
end

-- race(p, {m1, m2, ...}, opts) in a task mode other than one (lua/lrun.c
-- calls it with the race object rt, its runs made): each run a task; the
-- runs are independent (lock-step only paces the live view), so the
-- results are one process's.  Every run is needed, so a failed one raises.
function core.race_bulk (problem, methods, opts, rt)
  local results, missing = core.bulk{
    who = "race", n = #methods, kind = "race",
    view = not (type(opts) == "table" and opts.view == false),
    progress = not (type(opts) == "table" and opts.progress == false),
    run = function (i)
      return core.task_drive(core.task_mkrun(problem, methods[i], opts, true))
    end,
    make = function (i, shell)
      return core.task_mkrun(problem, methods[i], opts, true, shell)
    end,
    desc = function (i) return fmt("methods[%d], %s", i, tostring(methods[i])) end}
  if #missing > 0 then
    error(fmt("race: methods[%d] (%s): %s", missing[1].task, missing[1].desc,
              missing[1].error), 2)
  end
  for i = 1, #methods do rt[i] = results[i] end
end

-- run(p, sampler, {chains = k, ...}) in a task mode other than one
-- (lua/lrun.c calls it): each chain a task (lua/lsample.c's
-- olua_mkchain fixes its start and stream by its index); every chain is
-- needed, so a failed one raises.
function core.chains_bulk (problem, method, opts)
  local k = opts.chains
  local seed, stream = opts.seed or 1, opts.stream or 0
  local results, missing = core.bulk{
    who = "chains", n = k, kind = "chains",
    view = not (type(opts) == "table" and opts.view == false),
    progress = not (type(opts) == "table" and opts.progress == false),
    run = function (i)
      return core.task_drive(core.task_mkchain(problem, method, opts, i - 1))
    end,
    make = function (i)
      return core.task_mkchain(problem, method, opts, i - 1)
    end,
    desc = function (i)
      return fmt("chain %d, seed %d, stream %d", i, seed, stream + i - 1)
    end}
  if #missing > 0 then
    error(fmt("run: chain %d (%s): %s", missing[1].task, missing[1].desc,
              missing[1].error), 2)
  end
  return core.task_chains(results)
end
