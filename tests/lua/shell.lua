-- tests/lua/shell.lua -- runs made only to restore results into (core
-- opts.shell, lua/tasks.lua's decode): a shell neither evaluates the
-- problem nor initialises the method, so restoring 10^5 results (rank
-- 0 under mpirun, --gather) costs no objective call; a shell that is
-- continued is first made whole (ol_run_unshell), and then continues
-- byte for byte as a run restored the old way.  Methods that keep draws
-- or name results (samplers, sqp) are made whole at once.
local t = dofile("tests/lib/tap.lua")

local core
for _, v in pairs(debug.getregistry()) do
  if type(v) == "table" and type(rawget(v, "task_mkrun")) == "function" then
    core = v
  end
end
t.ok(core ~= nil, "shell: the library's task primitives are found")

-- a Lua problem that counts its evaluations
local p, count = dofile("tests/lib/counted.lua")
local o = {iters = 150, seed = 4, progress = false, view = false}

for _, m in ipairs{optim.gd{lr = 1e-3}, optim.adam{lr = 1e-2}} do
  local name = m.name
  local r = run(p, m, o)
  local bytes = core.task_pack(r)
  local c0 = count()
  local s = core.task_unpack(core.task_mkrun(p, m, o, false, true), bytes)
  t.is(count() - c0, 0, name .. ": a shell restores without evaluating f or g")
  c0 = count()
  local w = core.task_unpack(core.task_mkrun(p, m, o), bytes)
  t.ok(count() - c0 >= 2, string.format("%s: a whole run made to restore into "
                                      .. "evaluates (%d calls)", name,
                                      count() - c0))
  t.is(s:csv(), r:csv(), name .. ": the shell's history is the run's")
  t.is(s.x[1], r.x[1], name .. ": and its x")
  t.is(s.reason, r.reason, name .. ": and its stop reason")
  s:continue(100)
  w:continue(100)
  t.is(s:csv(), w:csv(), name .. ": continued, the shell's csv is a whole "
       .. "restored run's, byte for byte")
  t.ok(s.nfev == w.nfev and s.ngev == w.ngev and s.ngev > 0,
       string.format("%s: and so are its counts (nfev %d, ngev %d)", name,
                     s.nfev, s.ngev))
  t.is(s.iter, 250, name .. ": it ran the 100 more steps")
end

-- a user method's init is not called for a shell
local inits = 0
optim.new{name = "shellgd", params = {lr = {default = 1e-3, min = 0}},
  init = function (s) inits = inits + 1; s.g = {0, 0} end,
  step = function (s, x, oo, pp)
    oo:grad(x, s.g)
    for i = 1, #x do x[i] = x[i] - pp.lr * s.g[i] end
  end}
do
  local r = run(p, optim.shellgd{}, o)
  local bytes = core.task_pack(r)
  local i0, c0 = inits, count()
  local s = core.task_unpack(core.task_mkrun(p, optim.shellgd{}, o, false,
                                             true), bytes)
  t.ok(inits == i0 and count() == c0,
       "optim.new method: a shell calls neither init nor the problem")
  s:continue(10)
  t.is(inits - i0, 1, "optim.new method: continuing the shell calls init once")
  local g = run(p, optim.gd{lr = 1e-3}, {iters = 160, seed = 4,
                                         progress = false, view = false})
  t.ok(math.abs(s.x[1] - g.x[1]) < 1e-12,
       string.format("optim.new method: continued to 160 steps it is gd's "
                     .. "iterate (%.15g vs %.15g)", s.x[1], g.x[1]))
end

-- samplers keep draws and sqp names results: no shell, made whole
do
  local dcalls = 0
  local d = problem.density{n = 1, ad = false, logp = function (x)
    dcalls = dcalls + 1
    return -0.5 * x[1] ^ 2
  end}
  local m = sample.rwmh{}
  local oo = {iters = 50, warmup = 10, seed = 2, progress = false,
              view = false}
  local r = run(d, m, oo)
  local c0 = dcalls
  core.task_unpack(core.task_mkrun(d, m, oo, false, true), core.task_pack(r))
  t.ok(dcalls > c0, "rwmh: a sampler's run to restore into is made whole ("
       .. dcalls - c0 .. " logp calls)")
  local q = problem.new{n = 2, x0 = {1, 1},
    f = function (x) return x[1] ^ 2 + x[2] ^ 2 end,
    constraints = {{kind = "eq", c = function (x) return x[1] + x[2] - 1 end}}}
  local qo = {iters = 20, progress = false, view = false}
  local qr = run(q, optim.sqp{}, qo)
  local s = core.task_unpack(core.task_mkrun(q, optim.sqp{}, qo, false, true),
                             core.task_pack(qr))
  local ok, err = pcall(function () return s.lambda end)
  t.ok(not ok and tostring(err):find("not kept", 1, true),
       "sqp: restored without a shell, r.lambda says it was not kept: "
       .. tostring(err))
end

t.done()
