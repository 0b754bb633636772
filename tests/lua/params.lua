-- tests/lua/params.lua -- named parameters (issue 22, item 7): params =
-- in the list form (written order) and the map form (sorted by name), a
-- scalar, a bounded scalar and a vector; callbacks receive the named
-- table; bounds go through the bound transforms (draws inside them); the
-- summary, r:draws(), CmdStan CSV headers use the names; x vectors keep
-- working; malformed declarations are refused with the reason.  Checked
-- against closed forms: a Gaussian with named mean and vector, a
-- half-normal scale (E|z| = sqrt(2/pi) sigma); traced gradients against
-- the analytic ones.  Seeds are fixed and printed.
local t = dofile("tests/lib/tap.lua")
local Q = {progress = false, view = false}
local function opts (o)
  for k, v in pairs(Q) do if o[k] == nil then o[k] = v end end
  return o
end
local SEED = 20261207
t.diag("seed " .. SEED)

-- (1) the map form: sorted by name (a, sigma, theta), a bounded scalar
-- (sigma ~ half-normal(0, 2): its lower bound 0 through the log
-- transform), a vector of 3 ~ N(m_j, 1), a ~ N(1, 0.5^2)
local m = {-1, 0, 2}
local seen
local p = problem.density{
  params = {theta = 3, sigma = {lower = 0}, a = 1},
  logp = function (q)
    seen = q
    local lp = -0.5 * ((q.a - 1) / 0.5) ^ 2 - 0.5 * (q.sigma / 2) ^ 2
    for j = 1, 3 do lp = lp - 0.5 * (q.theta[j] - m[j]) ^ 2 end
    return lp
  end}
t.is(p.n, 5, "map form: n = 1 + 1 + 3")
t.is(table.concat(p.names, ","), "a,sigma,theta[1],theta[2],theta[3]",
     "p.names: the flat names, the order of x, g and r.x")
local c = run(p, sample.nuts{}, opts{chains = 4, iters = 1000, seed = SEED})
local s = c:summary()
local want = {"a", "sigma", "theta[1]", "theta[2]", "theta[3]"}
local names = {}
for j, r in ipairs(s) do names[j] = r.name end
t.is(table.concat(names, ","), table.concat(want, ","),
     "map form: the summary names, sorted by name, vector entries [j]")
local txt = tostring(c)
t.ok(txt:find("\n  sigma ", 1, true) and txt:find("\n  theta[3] ", 1, true),
     "map form: print(c) shows the names")
-- moments against the closed forms, in MCSE
local truth = {a = 1, sigma = 2 * math.sqrt(2 / math.pi)}
local function within (r, mu, k, what)
  t.ok(math.abs(r.mean - mu) <= k * r.mcse,
       string.format("%s: mean %.4f within %d MCSE (%.3g) of %.4f", what,
                     r.mean, k, r.mcse, mu))
end
within(s[1], truth.a, 4, "a ~ N(1, 0.25)")
within(s[2], truth.sigma, 4, "sigma ~ half-normal(2): E = 2 sqrt(2/pi)")
for j = 1, 3 do within(s[2 + j], m[j], 4, "theta[" .. j .. "] ~ N(m_j, 1)") end
local d = c:draws()
local minsig = math.huge
for _, ch in ipairs(d) do
  for _, q in ipairs(ch) do minsig = math.min(minsig, q.sigma) end
end
t.ok(type(d[1][1].theta) == "table" and #d[1][1].theta == 3 and
     type(d[1][1].a) == "number" and minsig > 0,
     "draws: named tables (theta a vector of 3), sigma > 0 in every draw")
local ds = diag.summary(d)
t.ok(ds[2].name == "sigma" and ds[5].name == "theta[3]" and
     ds[5].ess_bulk == s[5].ess_bulk, "diag.summary of named draws: "
     .. "flattened by name, equal to the run's summary")
t.ok(type(seen) == "table" and seen.theta and seen.sigma,
     "logp receives the named table")
-- CmdStan CSV header
local files = c:save_draws(os.tmpname() .. ".csv")
local fh = assert(io.open(files[1]))
local header
for line in fh:lines() do
  if line:sub(1, 1) ~= "#" then header = line break end
end
fh:close()
t.is(header, "lp__,accept_stat__,stepsize__,treedepth__,n_leapfrog__,"
     .. "divergent__,energy__,a,sigma,theta.1,theta.2,theta.3",
     "CSV: CmdStan's names (theta.1)")
local back = diag.read_csv(files)
t.is(back.names[10], "theta.1", "CSV: read back with its names")
for _, f in ipairs(files) do os.remove(f) end

-- plots title traces and clouds with the names
local svg = os.tmpname() .. ".svg"
c:plot{file = svg, watch = {"trace", "cloud"}}
local sv = assert(io.open(svg)):read("a")
os.remove(svg)
t.ok(sv:find("trace a [lin]", 1, true) and sv:find("cloud a,sigma", 1, true),
     "plots: trace a, cloud a,sigma (not x1, x2)")

-- (2) the list form keeps the written order; a named x0; bounds on a
-- vector; problem.new's f receives the named table too
local q = problem.new{params = {{"b", 2, lower = {0, -5}}, "a"},
                      f = function (v)
                        return (v.b[1] - 1) ^ 2 + (v.b[2] + 1) ^ 2 + v.a ^ 2
                      end, x0 = {b = {3, 3}, a = 2}}
local r = run(q, optim.lbfgs{}, opts{seed = SEED})
t.ok(math.abs(r.x[1] - 1) < 1e-6 and math.abs(r.x[2] + 1) < 1e-6 and
     math.abs(r.x[3]) < 1e-6, "list form: x in the written order (b, a)")
t.is(q.x0[1], 3, "list form: the named x0 flattened")
local _, g = q:eval({2, 0, 1})
t.ok(q.ad.mode == "traced" and math.abs(g[1] - 2) < 1e-12 and math.abs(g[2] - 2) < 1e-12 and
     math.abs(g[3] - 2) < 1e-12, "list form: traced gradient through the "
     .. "names (2(b1 - 1), 2(b2 + 1), 2a)")
-- a user gradient receives the named p and fills a flat g
local qg = problem.new{params = {{"u"}, {"w", 2}},
                       f = function (v) return v.u ^ 2 + v.w[1] * v.w[2] end,
                       grad = function (v, gg)
                         gg[1] = 2 * v.u; gg[2] = v.w[2]; gg[3] = v.w[1]
                       end}
local f1, g1 = qg:eval({3, 2, 5})
t.ok(f1 == 19 and g1[1] == 6 and g1[2] == 5 and g1[3] == 2,
     "grad(p, g): named p, flat g")

-- (3) x vectors keep working
local px = problem.density{n = 2, logp = function (x)
  return -0.5 * (x[1] ^ 2 + x[2] ^ 2) end}
t.is(run(px, sample.nuts{}, opts{iters = 50, seed = SEED}):summary()[2].name,
     "x[2]", "no params: x[j] as before")

-- a name longer than the summary's column keeps its index: the rows of
-- one vector stay apart (5aa2093 cut all twelve to the same 24 bytes)
do
  local nm = "a_very_long_parameter_name"
  local pl = problem.density{params = {{nm, 12}}, logp = function (q)
    local s = 0
    for i = 1, 12 do s = s - 0.5 * q[nm][i] ^ 2 end
    return s end}
  local txt = tostring(run(pl, sample.nuts{}, opts{chains = 2, iters = 100,
                                                  seed = SEED}))
  local rows, seen, distinct = 0, {}, 0
  for label in txt:gmatch("\n  (a_very_long_param%S*)") do
    rows = rows + 1
    if not seen[label] then distinct = distinct + 1 end
    seen[label] = true
  end
  t.ok(rows == 12 and distinct == 12 and seen["a_very_long_paramete~[1]"]
       and seen["a_very_long_paramet~[12]"],
       string.format("long names: 12 rows, 12 labels, each ending in its "
                     .. "index (%d, %d)",
           rows, distinct))
end

-- (4) malformed declarations
local lp = function () return 0 end
t.errors("parameter mu is declared twice", problem.density,
         {params = {{"mu"}, {"mu", 2}}, logp = lp})
t.errors("parameter theta: its size must be an integer in [1, 100000000]",
         problem.density, {params = {theta = 0}, logp = lp})
t.errors("unknown key of parameter tau 'lowr'", problem.density,
         {params = {tau = {lowr = 0}}, logp = lp})
-- the same with a value that is no string: its key is named (clang
-- builds read the value's slot and passed NULL; found by the fuzzer)
t.errors("unknown key of parameter tau 'lowr'", problem.density,
         {params = {tau = {lowr = {}}}, logp = lp})
t.errors("n = 3, but params declare 2 entries", problem.density,
         {n = 3, params = {a = 1, b = 1}, logp = lp})
t.errors("give the bounds in params", problem.density,
         {params = {a = {lower = 0}}, lower = 0, logp = lp})
t.errors("parameter name \"2x\" must be letters", problem.density,
         {params = {["2x"] = 1}, logp = lp})
t.errors("params mixes the list form", problem.density,
         {params = {{"a"}, b = 2}, logp = lp})
t.errors("x0.b must be a table of 2 numbers", problem.density,
         {params = {{"b", 2}}, x0 = {b = 1}, logp = lp})
t.errors("parameter tau: lower has 1 entries, its size is 2",
         problem.density, {params = {{"tau", 2, lower = {0}}}, logp = lp})
-- bounds in the wrong order name the parameter, not x[k] (5aa2093's core
-- message "bounds of x[2]" left the user to count entries)
t.errors("parameter tau: lower = 0 must be below upper = -1",
         problem.density, {params = {mu = 1, tau = {lower = 0, upper = -1}},
                           logp = lp})
t.errors("parameter tau: lower = 2 must be below upper = 2",
         problem.density, {params = {{"mu"}, {"tau", lower = 2, upper = 2}},
                           logp = lp})
t.errors("parameter tau: lower = 3 must be at most upper = 2", problem.new,
         {params = {{"mu"}, {"tau", lower = 3, upper = 2}}, f = lp})
t.ok(pcall(problem.new, {params = {{"mu"}, {"tau", lower = 2, upper = 2}},
                         f = lp}),
     "problem.new may fix a parameter (lower = upper), as with lower=/upper=")
t.errors("parameter tau: lower is NaN", problem.density,
         {params = {{"tau", lower = 0 / 0, upper = 1}}, logp = lp})
t.errors("n = 3, but params declare 1 entry (", problem.density,
         {n = 3, params = {a = 1}, logp = lp})

t.done()
