-- tests/lua/savefile.lua -- how every export writes its file (issue 22;
-- lua/lutil.c's olua_wopen): through a temporary beside it renamed into
-- place, so a symbolic link stays a link (the file it names is
-- replaced), a file replaced keeps its mode, a new one gets 0666 less
-- the umask, /dev/null is written in place; a directory, a missing
-- directory or an empty name raise naming the file and the reason, and
-- nothing is left behind.  Run through the binary (prove -e ./optlab).
local t = dofile("tests/lib/tap.lua")

local fmt = string.format

local function slurp (name)
  local f = io.open(name, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local function sh (cmd) return io.popen(cmd):read("a") end

local tmp = sh("mktemp -d"):gsub("\n$", "")
local r = run(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3},
              {iters = 50, progress = false})
local csv = r:csv()

-- a new file: the CSV, 0666 less the umask (this process's, which a
-- shell it starts inherits)
local new = tmp .. "/new.csv"
t.is(select("#", r:save(new)), 0, "save: returns nothing")
t.is(slurp(new), csv, "save: the file holds r:csv()")
local um = tonumber(sh("sh -c umask"), 8)
t.is(sh("stat -c %a " .. new), fmt("%o\n", 438 & ~um),
     "save: a new file has mode 0666 less the umask")

-- a file replaced keeps its mode
local old = tmp .. "/old.csv"
io.open(old, "w"):write("old\n"):close()
sh("chmod 640 " .. old)
r:save(old)
t.ok(slurp(old) == csv and sh("stat -c %a " .. old) == "640\n",
     "save: a file replaced holds the new CSV and keeps its mode 640")

-- a symbolic link stays one; the file it names is replaced
local target, link = tmp .. "/target.csv", tmp .. "/link.csv"
io.open(target, "w"):write("old\n"):close()
sh(fmt("ln -s target.csv %s", link))
r:save(link)
t.ok(sh("stat -c %F " .. link) == "symbolic link\n" and slurp(target) == csv,
     "save: through a symbolic link, the link stays and its file is replaced")

-- not a regular file: written in place
t.ok(pcall(r.save, r, "/dev/null"), "save: /dev/null is written in place")

-- failures: named, with the reason; nothing left
local function fails (name, want, desc)
  local ok, err = pcall(r.save, r, name)
  t.ok(not ok and tostring(err):find(want, 1, true),
       fmt("save: %s raises (%s)", desc, tostring(err)))
end
fails(tmp, "run:save: cannot write " .. tmp .. ": Is a directory",
      "a directory")
fails(tmp .. "/no/such.csv", "cannot write " .. tmp
      .. "/no/such.csv: No such file or directory", "a missing directory")
fails("", "run:save: the file name is empty", "an empty name")
local rc = race(problem.rosenbrock{}, {optim.gd{}, optim.adam{}},
                {iters = 10, progress = false})
local ok, err = pcall(rc.save, rc, tmp .. "/no/race.csv")
t.ok(not ok and err:find("race:save: cannot write " .. tmp
                         .. "/no/race.csv: No such file or directory", 1, true),
     "race:save: a failure raises naming the file and the reason")
local q = repeats(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3},
                  {iters = 20, progress = false}, 2)
ok, err = pcall(q.save, q, tmp .. "/no/q.csv")
t.ok(not ok and err:find("repeats:save: cannot write", 1, true),
     "repeats:save: a failure raises naming the file and the reason")
t.is(sh("ls -A " .. tmp),
     "link.csv\nnew.csv\nold.csv\ntarget.csv\n",
     "save: no temporary left beside the files")

sh("rm -rf " .. tmp)
t.done()
