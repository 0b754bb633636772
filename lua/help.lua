-- lua/help.lua -- help(x): documentation built from the C registries.
--
-- x may be a method constructor (optim.adam) or object, a problem
-- constructor or object, problem.new, run, race, a run object, a family
-- table (optim, sample, game, problem: its list), a metric name,
-- "metrics", a name ("adam", "optim.adam", "r": what the prompt's ?name
-- asks for), or nothing (overview).  Everything printed comes from
-- core.methods / core.problems / core.metrics (lua/loptlab.c) so a newly
-- registered plug-in is documented the moment it is compiled in.  Prints
-- to stdout.
--
-- The family tables get a metatable here: reading a name they lack raises
-- "no optimizer 'adma' -- did you mean adam?" (core.suggest: the names
-- within a small edit distance, or starting with it), instead of the nil
-- that made optim.adma{} fail as "attempt to call a nil value"; and
-- __params maps each constructor's name to its parameter names, for the
-- prompt's completion of optim.adam{l<Tab> (repl/prompt.c).
local core = ...

-- What this file uses, captured at load time, so that a program that
-- rebinds a global (math = nil, ipairs = nil, run = 1) keeps help working.
local error, ipairs, next, pcall, rawget, setmetatable, tonumber, tostring,
  type = error, ipairs, next, pcall, rawget, setmetatable, tonumber,
  tostring, type
local io, math, string, table = io, math, string, table
local G = _ENV
local run, race, start, jobs, blas_threads = run, race, start, jobs,
  blas_threads
local fmt, concat = string.format, table.concat

-- Help of functions defined by later library files (lua/sweep.lua ...):
-- core.fdocs[fn] and core.fdocs[name] = text; core.frows = {usage, doc}
-- rows for the overview.
core.fdocs = core.fdocs or {}
core.frows = core.frows or {}

local function out (...) io.write(fmt(...), "\n") end

-- Numbers as everywhere else (core.fmtnum, lua/prelude.lua), 6 digits.
local function g (v)
  return core.fmtnum(v, 6)
end

-- A bound as shown, and whether it lies beyond the value shown: 1e300
-- and over is no bound (inf); a bound within 1e-300 of 0 is the
-- tables' way to say "> 0" (shown as "(0"); near 2^53 is the integers'
-- limit.
local function bound (v)
  if v == math.huge then return "inf", false end
  if v == -math.huge then return "-inf", false end
  if v >= 1e300 then return "inf", true end
  if v <= -1e300 then return "-inf", true end
  if v ~= 0 and math.abs(v) <= 1e-300 then return "0", true end  -- "> 0"
  if math.abs(v) >= 2^52 and math.abs(v) <= 2^53 then
    return (v < 0 and "-" or "") .. "2^53", math.abs(v) < 2^53
  end
  local s = g(v)
  return s, tonumber(s) ~= v
end

-- The range column: "any" for no bound, "(0, inf)" for open ends (the
-- core's ol_param_range marks an open end with a parenthesis; a bound
-- shown rounded, as 1e300 as inf, is open too), the choices of an enum,
-- true|false for a boolean.
local function range (p)
  if p.kind == "enum" then return concat(p.choices, "|") end
  if p.kind == "bool" then return "true|false" end
  if p.kind == "vector" or p.kind == "matrix" then return p.kind end
  if p.lo == nil or p.hi == nil then return p.range end
  if p.lo <= -1e300 and p.hi >= 1e300 then return "any" end
  local r = p.range or ""
  local lo, inlo = bound(p.lo)
  local hi, inhi = bound(p.hi)
  return ((inlo or r:sub(1, 1) == "(") and "(" or "[") .. lo .. ", " .. hi
    .. ((inhi or r:sub(-1) == ")") and ")" or "]")
end

local function default (p)
  if p.default == nil then return "-" end
  if type(p.default) == "number" then return g(p.default) end
  return tostring(p.default)
end

-- Aligned table of rows (lists of strings), two-space indent.
local function tabulate (rows)
  local w = {}
  for _, row in ipairs(rows) do
    for j, cell in ipairs(row) do w[j] = math.max(w[j] or 0, #cell) end
  end
  for _, row in ipairs(rows) do
    local cells = {}
    for j, cell in ipairs(row) do
      cells[j] = j < #row and cell .. (" "):rep(w[j] - #cell) or cell
    end
    out("  %s", concat(cells, "  "))
  end
end

local function params (info, obj)
  if #info.params == 0 then
    out("no parameters")
    return
  end
  out("parameters:")
  local head = {"name", "default", "range", "description"}
  if obj then table.insert(head, 2, "value") end
  local rows = {head}
  for _, p in ipairs(info.params) do
    local row = {p.name, default(p), range(p), p.doc}
    if obj then
      local v = obj[p.name]
      table.insert(row, 2, type(v) == "number" and g(v) or tostring(v))
    end
    rows[#rows + 1] = row
  end
  tabulate(rows)
end

local family_title = {
  optim = "optimizers", sample = "samplers", game = "game dynamics",
}

local function method_help (info, obj)
  out("%s.%s -- %s", info.family, info.name, info.doc)
  if info.ref and info.ref ~= "" then out("reference: %s", info.ref) end
  out("usage: %s.%s{%s}", info.family, info.name,
      #info.params > 0 and info.params[1].name .. " = ..." or "")
  params(info, obj)
end

local function problem_help (info, obj)
  out("problem.%s -- %s (%s)", info.name, info.doc, info.kind)
  if info.ref and info.ref ~= "" then out("reference: %s", info.ref) end
  if obj then out("this problem: %s", tostring(obj)) end
  params(info)
  if info.kind == "density" then
    out("also accepted: x0 = {...} (start, on the constrained scale)")
  elseif info.kind == "game" then
    out("also accepted: x0 = {...} (start: both players' mixed strategies),")
    out("  noise = {kind = \"gauss\" | \"student\" | \"asym\", sigma =, nu =} "
        .. "(added to each operator")
    out("  sample: stochastic dynamics, e.g. game.clipseg)")
  else
    out("also accepted: x0 = {...} (start), set = {box = {lo, hi}} | "
        .. "{simplex = {k1, k2, ...}} | {l1ball = r} | {l2ball = r},")
    out("  l1 = lambda (adds lambda ||x||_1),")
    out("  penalty = \"scad\" | {kind = \"scad\", a = 3.7} (the l1 term "
        .. "as SCAD(|x_i|; lambda, a)),")
    out("  noise = {kind = \"gauss\" | \"aniso\" | \"student\" | "
        .. "\"asym\" | \"affine\" | \"batch\" | \"none\", sigma =, nu =,")
    out("           batch =, order = \"replace\" | \"shuffle\" | "
        .. "\"once\" | \"cyclic\" | \"grab\", sigma0 =, sigma1 =}")
    out("           (see man optlab, noise=)")
  end
end

local function find (list, name)
  for _, info in ipairs(list) do
    if info.name == name then return info end
  end
end

-- The family tables, as they are when the library opens: the problems,
-- then the method families of core.families (core/family.c) in order.
local families = {
  {tab = problem, fam = "problem", what = "problem", plural = "problems"},
}
for _, f in ipairs(core.families) do
  families[#families + 1] = {tab = G[f.fam], fam = f.fam, what = f.what,
                             plural = f.plural}
end
local familyof = {}
for _, f in ipairs(families) do familyof[f.tab] = f end

-- The names family table t holds (raw, sorted).
local function names (t)
  local list = {}
  for k in next, t do
    if type(k) == "string" then list[#list + 1] = k end
  end
  table.sort(list)
  return list
end

-- "no optimizer 'adma' -- did you mean adam?", or with the valid names
-- when none is close.
local function noname (f, k)
  for _, o in ipairs(families) do
    if o ~= f and rawget(o.tab, k) ~= nil then
      return fmt("no %s '%s' -- %s.%s is a %s", f.what, k, o.fam, k, o.what)
    end
  end
  local all = names(f.tab)
  local near = core.suggest(k, all)
  if #near > 0 then
    return fmt("no %s '%s' -- did you mean %s?", f.what, k,
               core.orlist(near))
  end
  return fmt("no %s '%s' (%s: %s)", f.what, k, f.plural, concat(all, ", "))
end

-- The parameter names each constructor takes (for the completion):
-- a method's, a problem's plus the keys every problem accepts.
local userkeys = {
  new = {"n", "f", "grad", "fdf", "hess", "x0", "xstar", "fstar", "name",
         "kind", "set", "noise", "l1", "penalty"},
  density = {"n", "logp", "grad", "lower", "upper", "x0", "name"},
  finitesum = {"n", "m", "fi", "x0", "xstar", "fstar", "name", "noise",
               "set", "l1", "penalty"},
  efg = {"root", "name", "value"},
}
for _, f in ipairs(families) do
  local params = {}
  for k, ctor in next, f.tab do
    local info = core.ctors[ctor]
    if type(info) == "table" then
      local list = {}
      for i, p in ipairs(info.params) do list[i] = p.name end
      if f.fam == "problem" then
        for _, x in ipairs{"x0", "set", "l1", "noise", "penalty"} do
          list[#list + 1] = x
        end
      end
      params[k] = list
    elseif k == "new" and f.fam ~= "problem" then
      -- optim.new, sample.new, game.new (lua/lusermethod.c)
      params[k] = {"name", "doc", "ref", "params", "probes", "init", "step"}
    elseif userkeys[k] then
      params[k] = userkeys[k]
    end
  end
  setmetatable(f.tab, {
    __index = function (_, k)
      if type(k) ~= "string" then return nil end
      error(noname(f, k), 2)
    end,
    __params = params,
  })
end

-- The value a name path ("optim.adam", "r", "r.x") names, looked up from
-- the globals; nil and a message when a part is missing.
local function resolve (path)
  local v = G
  for part in path:gmatch("[^.:]+") do
    if type(v) ~= "table" and type(v) ~= "userdata" then
      return nil, fmt("no help for '%s' (%s is a %s)", path, part, type(v))
    end
    local f = familyof[v]
    if f then
      if rawget(v, part) == nil then return nil, noname(f, part) end
      v = rawget(v, part)
    else
      local ok, x = pcall(function () return v[part] end)
      if not ok or x == nil then
        return nil, fmt("no help for '%s' (no %s)", path, part)
      end
      v = x
    end
  end
  return v
end

local docs = {}

docs.new = [[
problem.new{n = , f = , grad = , fdf = , ...} -- a problem from Lua functions
  n       dimension (required), or params: named parameters, as
          problem.density's (help(problem.density)); f(p) gets p.mu, ...
  f       f(x) -> number
  grad    grad(x, g): fill g[1..n] (or return a new table of n numbers)
  fdf     fdf(x, g) -> f, filling g when g is not nil (one call per step)
  hess    hess(x, H): fill H[i][j], i, j = 1..n (H is a table of n rows),
          or return a table of n rows of n numbers; must be symmetric
  x0      default start (zeros), xstar, fstar: known solution and value
  name    shown in summaries ("lua"), kind = "objective" | "density"
  set     {box = {lo, hi}} | {simplex = {k1, ...}} | {l1ball = r} | {l2ball = r}
          ("simplex", {lo =, hi =} too);  noise = {kind = "gauss", sigma = s}
  constraints  {{kind = "ineq" | "eq", c = function (x) return v end,
          grad = function (x, g) ... end}, ...}: c(x) >= 0 or c(x) = 0
          (grad optional: finite differences); lower, upper: bounds.
          Solved by optim.sqp (line-search SQP: damped-BFGS Hessian of the
          Lagrangian, dense dual QP, l1 merit with Powell's weights and a
          second-order correction) and optim.auglag (augmented Lagrangian,
          projected L-BFGS inner solver); other methods refuse.  Both
          scale f and each c_i by min(1, 100 / ||gradient at x0||_inf) as
          IPOPT does (scale = false: off; results are unscaled), move a
          start outside the bounds 1e-2 inside (IPOPT's bound push, with a
          notice), and stop with reason "infeasible" at the least-
          infeasible point when minimising the violation alone ends above
          1e-6 (sqp: tried when its QP step fails twice; auglag: when 3
          raises of the penalty leave the violation above 1/4 of where it
          was).  r.lambda: multipliers (grad f - sum lambda_i grad c_i -
          zl + zu = 0); r.zl, r.zu: the bounds' (>= 0); metrics kkt,
          stationarity, feasibility, complementarity; a run that ends on
          its budget with the constraints violated by > 1e-6 warns.
Without grad or fdf, f is traced at x0 into a tape (help(grad)): exact
gradients and Hessians in C, no Lua call per step while its branches hold
(ad = false: central finite differences; ad = "check": print the tape's
error against them at x0; p.ad: mode, ops, guards, traces, reason).
With grad and a traceable f, grad is checked against the tape's gradient
(a warning names the coordinates that differ; ad = "check" checks at x0
at once, against differences when f cannot be traced).  Constraints
without grad are traced too; one that cannot be is said, by differences
(p.ad.constraints).  An f that cannot be traced gets central differences,
and so does hess when missing: h_i = eps^(1/3) max(1, |x_i|), 2n
gradient calls, in r.ngev.
g and H are cleared to nil before each call, and what comes back is
checked: every entry set to a number, nothing beyond n, or else an error
naming the callback (write g[i] = ..., not g = {...}, which only rebinds
the local).  The tables x, g and H are reused across calls: copy them if
you need to keep them.  A callback may evaluate or run its own problem
(16 levels deep at most), but not step, stop or close the run or job
calling it.  p:close() (or a <close> variable) closes a problem: new uses
raise "problem is closed"; runs and jobs made before go on.]]

docs.density = [[
problem.density{n = , logp = , grad = , ...} -- a density from Lua functions
  n       dimension (required)
  logp    logp(x) -> log p(x), up to an additive constant (the sign of a
          log density, not the potential)
  grad    grad(x, g): fill g[1..n] with grad log p (or return a new table);
          optional: central differences, as for problem.new
  lower   lower bounds: a number for every coordinate or a table of n
  upper   upper bounds, likewise; -math.huge / math.huge (or nil): none
  x0      default start, on the constrained scale, inside the bounds
  name    shown in summaries ("density")
Bounded coordinates are sampled as Stan does, on an unconstrained u with
x = lower + exp(u), upper - exp(u), or lower + (upper - lower) / (1 +
exp(-u)) when both are given, and log |dx/du| added to log p; methods and
r.x see u.  p:constrain(u) -> x and p:unconstrain(x) -> u map between
the scales; p.x0 is u; p:eval(u) -> U, grad U with U = -log p(x) -
log |dx/du| (the potential samplers use).  logp and grad are checked as
problem.new's f and grad are; an error names logp or grad.
Named parameters instead of n (problem.new takes them too):
  params = {{"mu"}, {"tau", lower = 0}, {"theta", 8}}   written order
  params = {mu = 1, tau = {lower = 0}, theta = 8}       sorted by name
  1: a scalar, k: a vector of k; lower/upper: a number or k numbers.
logp(p) gets the named table (p.mu, p.theta[j]); grad(p, g) fills a flat
g in the order mu, tau, theta[1..8] (p.names; that of r.x); x0 may be
named.
Summaries, r:draws() (named draws), save_draws (theta.1) and plots use
the names.]]

docs.finitesum = [[
problem.finitesum{n = , m = , fi = , ...} -- a finite sum from a Lua
component:  f(x) = (1/m) sum_{i=1..m} f_i(x)
  n       dimension (required)
  m       number of components (required)
  fi      fi(i, x, g) -> f_i(x); when g is not nil, fill g[1..n] with
          grad f_i(x) in place (checked as problem.new's fdf)
  x0, xstar, fstar, name, noise, set, l1, penalty   as for problem.new
p:eval(x) sums the m components in index order.  The components are what
minibatch noise (noise = {kind = "batch", batch = 1, order = "shuffle"}:
each component once an epoch), optim.svrg, sample.sgld, optim.dpsgd and
the dist methods' worker splits (problem.workers) use, so they run on
your data.
An error in fi names the component: "component i = 4: ..." with the
traceback.]]

docs.efg = [[
problem.efg{root = node, name = , value = } -- a two-player zero-sum
extensive-form game from its tree, for game.cfr, game.cfrplus and the
exploitability metrics.  A node is one of
  {player = 1 or 2, infoset = "name", actions = {"a", "b"},
   children = {node_a, node_b}, where = "heading"}    a decision
  {player = "chance", children = {...}, probs = {...}}  (probs: uniform
                                                        when left out)
  {payoff = u}                       a leaf: player 1's payoff (2: -u)
Nodes with the same infoset string are one information set: one player,
the same two actions in order, reached after the same own moves (perfect
recall).  Every decision has two actions; write a choice among more as a
chain of two-action decisions.  x[I] is the probability of the second
action at information set I, player 1's sets first; the printed policy
names them and their actions, grouped under where (default "player 1",
"player 2").  value: the game's value for player 1, if known.  Chance
probabilities must sum to 1 (1e-9), payoffs be finite; at most 2000000
nodes, depth 400.]]

docs.workers = [[
problem.workers(p, {n = 10, heterogeneity = 0, participation = 1, seed = 1})
  splits the finite sum of p (its components f_i) among n workers for the
  dist methods, and returns p: contiguous shards of the components sorted
  by  h z_i + (1 - h) xi_i,  z_i the standardised pull of grad f_i(x0) on a
  random direction, xi_i noise (seeded): heterogeneity 0 shuffles them, 1
  gives each worker components whose optima lie apart; participation is
  the fraction of workers in each round.  p.workers shows the split.
]]

docs.compress = [[
dist.compress(v, {kind = "topk", k = 1, s = 2, clip = inf, seed = 1,
              draws = 0}) -> C(v), bits
  the compressor of the compressed dist methods (ef14, ef21) applied to
  the list v: kind "none", "topk" (k largest |v_i|), "randk" (k at random,
  scaled n/k), "sign", "ssign" ((||v||_1 / n) sign v), "qsgd" (s levels)
  or "terngrad" (clipped at clip sd when finite); with draws = m a list of
  m seeded draws.  bits: one message's count (man optlab: Compressors).
  A method takes the same keys: dist.ef14{compress = {kind = "topk",
  k = 2}} or dist.ef14{compress = "topk", k = 2}.
]]
core.fdocs[rawget(dist, "compress")] = docs.compress

docs.usermethod = [[
optim.new{name =, doc =, ref =, params =, probes =, init =, step =}
sample.new{...}  game.new{...}  -> a constructor used as a built-in's
  a method written in Lua: optim.<name>{...} makes it, and it runs in run,
  race, repeats, sweep, start and chains as a C method does (same seed,
  same bytes).  name: an identifier no built-in uses.
  params = {lr = {default = 0.01, min = 0, max = inf, min_open = false,
            max_open = false, doc = "..."}, ...}: checked as a built-in's
    (unknown keys name the valid ones, ranges are named); every number
    parameter is live: p is read afresh at each step (j:set).
  init(s, x, p, o)  optional, once: s the method's own state table.
  step(s, x, o, p)  one iteration: update the table x in place (#x fixed,
    numbers, finite).  sample.new: return the accept statistic in [0, 1]
    (and optionally whether the step diverged, and log p at the new x);
    a parameter named warmup sets the warmup (o:warmup() -> its length,
    whether this step is in it).  s.probe = {lrmax = ...}
    feeds the metrics named in probes = {"lrmax", ...}.
  the oracle o (valid only inside init and step; every call counted in
    r.nfev, r.ngev, r.nhev, traced derivatives when the problem has a tape):
    o:f(x)  o:grad(x, g) (exact)  o:fdf(x, g) -> f  o:hess(x, H)
    o:hvp(x, v, out)  o:stochastic_grad(x, g) (the problem's noise or
    minibatch: what C methods get)  o:project(x)  o:rng():uniform(),
    :normal() (the run's seeded stream)  o:iter()  o:sched() (the
    schedule's multiplier)  o:logp(x)  o:grad_logp(x, g) (samplers)
    o:payoff_grad(x, g)  o:blocks() (games: each player's payoff
    gradient; the players' block sizes)
  An error in init or step stops the run ("callback error", with the
  traceback); a non-finite x stops it as "non-finite"; Ctrl-C interrupts
  a step that loops.  Example:
    optim.new{name = "hb", params = {lr = {default = 0.01, min = 0},
      mu = {default = 0.9, min = 0, max = 1, max_open = true}},
      init = function (s, x) s.g, s.d = {}, {}
        for i = 1, #x do s.d[i] = 0 end end,
      step = function (s, x, o, p) local g, d = s.g, s.d
        o:stochastic_grad(x, g)
        for i = 1, #x do d[i] = p.mu * d[i] - p.lr * g[i]
          x[i] = x[i] + d[i] end end}
    r = run(problem.rosenbrock{}, optim.hb{lr = 1e-3})]]
for _, fam in ipairs{"optim", "sample", "game"} do
  local f = rawget(G, fam) and rawget(rawget(G, fam), "new")
  if f then core.fdocs[f] = docs.usermethod end
end

docs.diag = [[
diag -- the sampler summary's diagnostics on draws from anywhere, computed
as the posterior R package does (Vehtari et al. 2021):
  diag.summary(chains [, names])  the summary object (prints as a run's
      table with its warnings): chains = {chain1, ...}, each a list of
      draws, each a number or a table of numbers, equal lengths, >= 4
  diag.rhat(x)  diag.ess_bulk(x)  diag.ess_tail(x)  diag.mcse(x)
      one quantity: x = {chain1, ...}, each a list of numbers
  diag.read_csv(file or {files}) -> {chain1, ..., names = header}
      a CmdStan CSV, one chain per file ('#' comments; warmup saved
      before "# Adaptation terminated" dropped); diag.summary(that)
      shows lp__ and the parameters, not the other "__" columns
4 chains of 7 draws give an ESS of 12 (split chains of 3: tau = 2).]]
if rawget(G, "diag") then
  core.fdocs[rawget(G, "diag")] = docs.diag
  for _, k in ipairs{"summary", "rhat", "ess_bulk", "ess_tail", "mcse",
                     "read_csv"} do
    local f = rawget(rawget(G, "diag"), k)
    if f then core.fdocs[f] = docs.diag end
  end
end

docs.ad = [[
grad(f, x) -> g; hessian(f, x) -> H; hvp(f, x, v) -> H v; tape(f, x)
f is traced at x: called once with tracers, whose arithmetic and math.*
(exp, log, sqrt, sin, cos, tan, atan, tanh, abs, max, min, floor, ceil,
pow, log1p, expm1, lgamma, tointeger; lbeta, log_sum_exp and lpdf built on
them: help(lpdf)) are recorded into a tape in C, then swept: forward for
f, reverse for g, forward over reverse for H v, n of those for H.
Comparisons, abs, max, min and floor record guards: the tape holds the
branch taken at x.  When f cannot be traced (tostring or tonumber of
x[i], a C function that needs numbers, a write to a global or an
upvalue), grad, hessian and hvp fall back to central differences and
return the reason as a second result.  tape(f, x) prints the tape: its
nodes, ops, guards and output (tape(f, x, true) returns it instead).
problem.new{f = ...} without grad traces f the same way (ad = false:
finite differences; ad = "check": compare with them at x0); print(r)
says "gradient: traced (tape of N ops, K guards)" or why not.
Note t == 0 is false for a tracer t (Lua compares a userdata and a number
without metamethods): each trace ends with a call of f on numbers, and a
tape whose value differs is not used (differences, with the reason).
p:eval and run check a tape the same way at its trace point, and re-trace
when f changed (a global it reads).  With grad= and a traceable f, grad
is compared with the tape's gradient at the first gradient asked for and
the next point: a warning names the coordinates that differ beyond
1e-6 (|t_i| + max |t|), and print(r) says it was checked.]]
for _, k in ipairs{"grad", "hessian", "hvp", "tape"} do
  if rawget(G, k) then core.fdocs[rawget(G, k)] = docs.ad end
end
core.frows[#core.frows + 1] =
  {"grad(f, x)", "exact gradient of a Lua f, traced; hessian, hvp, tape"}

docs.metric = [[
metric.new{name = "xsq", doc = "||x||^2", eval = function(r) ... end} -> name
  a metric of your own, recorded, printed, plotted (watch = {"xsq"}),
  saved in CSV and raced like the built-in ones, for any method and
  problem: run(p, m, {metrics = {"loss", "xsq"}}), r:series("xsq").
  eval(r) returns a number (NaN is recorded as such) at each recorded
  iteration; r.x and r.g (tables, reused: copy what you keep), r.f,
  r.iter (= r.t, steps done), r.n, and r.<probe> for a metric the method
  computes itself (r.lrmax of optim.dog); r is valid during the call only.
  An error in eval, or a result that is not a number, stops the run with
  reason "callback error" and the traceback in r.message.  name: an
  identifier, not a built-in metric's, a panel's or a CSV column's (iter,
  x1, ...); defining a name again replaces its doc and eval; up to 16 per
  session.  doc: one line (help).
metric.list() -> the names of the metrics you defined]]
if rawget(G, "metric") then
  core.fdocs[rawget(G, "metric")] = docs.metric
  for _, k in ipairs{"new", "list"} do
    local f = rawget(rawget(G, "metric"), k)
    if f then core.fdocs[f] = docs.metric end
  end
end

docs.run = [[
run(problem, method [, opts]) -> run   step a method on a problem
options:
  iters     iteration budget (1000)        tol     stop when gradnorm <= tol
  time      wall-time budget in seconds    seed    rng seed (1), printed
  stream    rng stream, 0..2^63-1 (0)      x0      start point (table)
  metrics   names to record                watch   names to plot live
  cap       history size (4096: all of the first 128 iterations, 64 an
            octave after, 2048 evenly spread)   record_x  keep the trajectory
  schedule  {kind = "step"|"inv"|"invsqrt"|"cosine"|"warmup"|"const",
             gamma = , period = }
  progress  progress lines without a view (true)   view  live view (true)
  xaxis     x of the plots: "iter" (default), "evals" (gradient
            evaluations), "time" (each run's stepping seconds), "bits"
            (bits sent: dist methods) or "rounds" (communication rounds)
  average   keep the Polyak-Ruppert average of the iterates in r.xavg
  changes   replay live changes (r.changes): {{iter = t, param = "lr",
            value = v}, ...}, each set after t steps, byte for byte
stop rules (0 = off; tolerance rules evaluate f and g every step):
  f_abstol  |f_t - f_t-1| <= f_abstol     f_reltol  ... <= f_reltol |f_t|
  x_abstol  ||x_t - x_t-1||inf <= x_abstol   x_reltol  ... <= x_reltol ||x_t||inf
  stop_below  {metric = value}: stop at the first iteration metric <= value
  xlimit    diverged when ||x||inf > xlimit max(1, ||x0||inf)  (1e50)
  flimit    diverged when f < f(x0) - flimit max(1, |f(x0)|)  (1e10)
samplers:  chains = k independent chains (1), warmup = steps before the
  draws (the sampler's own), max_draws = draws kept per chain (100000);
  r:draws(), r:summary(), r:save_draws(file) (CmdStan's CSV layout).
An optimizer stops as converged when the gradient is exactly 0 or f
cannot decrease in floating point.  An x0 outside a constrained
problem's set is an error.
Ctrl-C stops the run and keeps it.  See help(r) for a run object.]]

docs.race = [[
race(problem, {m1, m2, ...} [, opts]) -> race
  one run per method with the same seed and x0, stepped in lock-step in one
  view; options as run.  #race, race[i] (runs), print(race) (a table:
  reason, iters, grads, time, loss, gradnorm per run),
  race:series(name) -> values per run, race:save(file) (long CSV
  "run,method,iter,<metrics>"; returns nothing), race:csv().]]

docs.runobj = [[
run object r:
  print(r)        summary: method, problem, seed, stop reason, evaluations
                  (finite differences named), final metrics, x (a game:
                  each player's strategy and the value x'Ay)
  r.iter r.reason r.message r.seed r.x r.xavg r.method r.problem r.label
  r.budget r.nfev r.ngev r.seconds
  r:series(name) -> values, times, evals, seconds (parallel lists)
  r:last(name)     r:metrics()
  r:save(file) (CSV, %.17g, no timings)   r:csv()   r:continue(iters)
  r:plot{file = "fig.svg"} writes an SVG (.png, .pdf: a 16:9 slide);
  r:plot() prints a text plot
  r:traj() -> the recorded points (record_x)
  r:set{lr = v} a live parameter from the next step on (a job's run);
  r.changes -> {{iter = t, param = "lr", value = v}, ...} the changes made
  variational: r.mean r.cov (the returned q: by default the average of the
  iterates over the last 1/2 to 3/4 of the steps), r.mean_se r.cov_se
  (their Monte Carlo errors, from batch means), r.drift (the batch means'
  trend, as t, rows m and log sd; print(r) warns above 6), r.window,
  r:samples()]]

docs.start = [[
start(problem, method or {m1, m2, ...} [, opts]) -> job
  like run / race, but returns at once: the job steps in the background
  while the prompt stays usable, with a dashboard above it on a terminal
  (Ctrl-G moves the keyboard to it and back).  Options as run.
  j:pause() j:resume() j:step(n) j:stop() j:wait() j:plot{...}
  j:set{lr = 0.05} live parameters of every run, from the next step on
  (gd, momentum, nesterov, rmsprop, adagrad, adam, adamw: their step
  sizes, momenta, eps, decay); logged in r.changes, replayed by the
  changes option
  j.state ("running" | "paused" | "done") j.id j.label j.iter j.iters
  j.elapsed   j.run (the live run)   j.runs, j[i] (all its runs)]]

docs.jobs = [[
jobs() -> the jobs alive, in order: those not done, the 16 latest, and
done ones still referred to (others are collected); printed one line per
job: id, state, iteration / budget, label and problem.]]

docs.help = [[
help(x): help(), help(optim.adam), help(problem.quadratic), help(run),
help(optim) (the optimizers; sample, game, problem likewise),
help("metrics"), help("loss"), help(r) for a run object, help("adam").
At the prompt ?x is help for x: ?adam, ?optim.adam, ?run, ?r; ? alone is
help().  A name a family table lacks is an error that suggests the names
close to it: optim.adma{} -> "no optimizer 'adma' -- did you mean adam?"
(rawget(optim, name) tests for one without the error).]]

docs.pretty = [[
pretty(...) -> the values as text, tables expanded (nested 4 deep, 50
items a table), tab-separated.  It returns the text and prints nothing:
print(pretty(t)) in a script; typed at the prompt, pretty(t) shows the
text as any result is shown there (the prompt shows results with it).]]
docs.blas_threads = [[
blas_threads([n]) -> the number of OpenBLAS threads, after setting it to n
(1 to 256) when given.  optlab starts with 1 unless OPENBLAS_NUM_THREADS
or OMP_NUM_THREADS is set: most problems here are small, where a second
thread costs more than it gives (a 20-d quadratic with Hessian-shaped
noise steps 4x slower with two); raise it for large dense Newton, cubic
or Muon work.]]
docs.metrics = "metrics() -> list of metric names; help(\"metrics\") for docs"

local function metrics_help ()
  out("metrics (record with run(..., {metrics = {...}}), plot with watch):")
  local rows = {}
  for _, m in ipairs(core.metrics) do rows[#rows + 1] = {m.name, m.doc} end
  tabulate(rows)
end

-- The rows of a family's list: name and one-line doc.
local function family_rows (fam)
  local rows = {}
  if fam == "problem" then
    for _, p in ipairs(core.problems) do rows[#rows + 1] = {p.name, p.doc} end
    rows[#rows + 1] = {"new",
                       "a problem from Lua functions (help(problem.new))"}
    rows[#rows + 1] = {"density",
                       "a density from log p in Lua, with bounds "
                       .. "(help(problem.density))"}
    rows[#rows + 1] = {"finitesum",
                       "a finite sum (1/m) sum f_i from a Lua component "
                       .. "(help(problem.finitesum))"}
    rows[#rows + 1] = {"efg",
                       "a two-player zero-sum extensive-form game from its "
                       .. "tree (help(problem.efg))"}
    rows[#rows + 1] = {"workers",
                       "split a finite sum among workers for dist methods "
                       .. "(help(problem.workers))"}
  else
    for _, m in ipairs(core.families[fam].methods) do
      rows[#rows + 1] = {m.name, m.doc}
    end
    if fam == "dist" then
      rows[#rows + 1] = {"compress", "a compressor's C(v) and its bits "
                         .. "(help(dist.compress))"}
    end
  end
  return rows
end

-- help(optim) and the like: the family's list.
local function family_help (f)
  out("%s (%s.<name>{...}):", f.plural, f.fam)
  tabulate(family_rows(f.fam))
  out("help(%s.<name>) or ?%s.<name> for one's parameters", f.fam, f.fam)
end

-- The metric names, wrapped under a heading.
local function metric_names ()
  local line, lines = "", {}
  for _, m in ipairs(core.metrics) do
    if #line + #m.name + 2 > 74 then
      lines[#lines + 1] = line
      line = ""
    end
    line = line == "" and m.name or line .. ", " .. m.name
  end
  if line ~= "" then lines[#lines + 1] = line end
  out("metrics (run(..., {metrics = {...}, watch = {...}}); "
      .. "help(\"metrics\") says what each measures):")
  for _, l in ipairs(lines) do out("  %s", l) end
end

local function overview ()
  out("optlab -- a terminal lab for optimization, sampling and game dynamics")
  for _, f in ipairs(families) do
    local rows = family_rows(f.fam)
    if #rows > 0 then
      out("")
      out("%s (%s.<name>{...}):", f.plural, f.fam)
      tabulate(rows)
    end
  end
  out("")
  metric_names()
  out("")
  out("functions:")
  tabulate{
    {"run(p, m, opts)", "run a method on a problem; print(r) for a summary"},
    {"race(p, {m1, m2}, opts)", "several methods in lock-step, one view"},
    {"start(p, m, opts)", "a background job beside the prompt; j:stop()"},
    {"jobs()", "the jobs alive (running, latest, kept), with their state"},
    {"help(x)", "help(optim.adam), help(optim), help(run), "
                .. "help(\"metrics\"); ?x at the prompt"},
    {"pretty(v)", "a value as text, tables expanded (print(pretty(t)))"},
    {"metrics()", "list of metric names"},
    {"blas_threads(n)", "OpenBLAS threads (1 unless set in the environment)"},
    table.unpack(core.frows)
  }
  out("")
  out("example: r = run(problem.rosenbrock{n = 2}, optim.adam{lr = 1e-2},")
  out("                   {x0 = {-1.2, 1}, iters = 20000, tol = 1e-6})")
  out("         print(r)")
end

-- local, so help(help) knows itself whatever the global is rebound to
local help

function help (x)
  local tx = type(x)
  if x == nil then return overview() end
  if tx == "function" then
    local info = core.ctors[x]
    if info == "problem.new" then return out("%s", docs.new) end
    if info == "problem.density" then return out("%s", docs.density) end
    if info == "problem.workers" then return out("%s", docs.workers) end
    if info == "problem.finitesum" then
      return out("%s", docs.finitesum)
    end
    if info == "problem.efg" then return out("%s", docs.efg) end
    if type(info) == "table" then
      -- a method's family is one of core.families, a problem's is not
      if core.families[info.family] then return method_help(info) end
      return problem_help(info)
    end
    if x == run then return out("%s", docs.run) end
    if x == race then return out("%s", docs.race) end
    if x == start then return out("%s", docs.start) end
    if x == jobs then return out("%s", docs.jobs) end
    if x == help then return out("%s", docs.help) end
    if x == pretty then return out("%s", docs.pretty) end
    if x == metrics then return out("%s", docs.metrics) end
    if x == blas_threads then return out("%s", docs.blas_threads) end
    if core.fdocs[x] then return out("%s", core.fdocs[x]) end
    return out("no help for this function")
  end
  local kind = core.typeof(x)
  if kind == "method" then
    return method_help(find(core.methods, x.name), x)
  elseif kind == "problem" then
    local info = find(core.problems, x.name)
    if info then return problem_help(info, x) end
    out("%s -- a %s from Lua functions (n = %d)", tostring(x), x.kind, x.n)
    return out("%s", x.kind == "density" and docs.density or docs.new)
  elseif kind == "run" then
    out("%s", tostring(x))
    return out("%s", docs.runobj)
  elseif kind == "race" then
    return out("%s", docs.race)
  end
  if tx == "table" and core.fdocs[x] then return out("%s", core.fdocs[x]) end
  if familyof[x] then return family_help(familyof[x]) end
  if tx == "table" and core.fdocs[x] then return out("%s", core.fdocs[x]) end
  if tx == "string" then
    if x == "" then return overview() end
    if x == "metrics" then return metrics_help() end
    for _, m in ipairs(core.metrics) do
      if m.name == x then return out("%s: %s", m.name, m.doc) end
    end
    for _, f in ipairs(families) do
      if f.fam == x then return family_help(f) end
    end
    local info = find(core.methods, x)
    if info then
      -- a name two families share (optim.rmplus, game.rmplus): both
      for _, m in ipairs(core.methods) do
        if m.name == x then
          if m ~= info then out("") end
          method_help(m)
        end
      end
      return
    end
    info = find(core.problems, x)
    if info then return problem_help(info) end
    if x == "new" or x == "density" or x == "workers" then
      return out("%s", docs[x])
    end
    if docs[x] then return out("%s", docs[x]) end
    if core.fdocs[x] then return out("%s", core.fdocs[x]) end
    if x:find("^[%a_][%w_]*$") and rawget(G, x) ~= nil
       or x:find("^[%a_][%w_]*[.:][%a_][%w_.:]*$") then
      local v, msg = resolve(x)
      if v == nil then return out("%s", msg) end
      if type(v) == "string" then return out("%s = %q", x, v) end
      return help(v)
    end
    local all = {}
    for _, m in ipairs(core.metrics) do all[#all + 1] = m.name end
    for _, m in ipairs(core.methods) do all[#all + 1] = m.name end
    for _, p in ipairs(core.problems) do all[#all + 1] = p.name end
    for k in next, docs do all[#all + 1] = k end
    local near = core.suggest(x, all)
    if #near > 0 then
      return out("no help for '%s' -- did you mean %s?", x,
                 core.orlist(near))
    end
    return out("no help for '%s' (try help())", x)
  end
  out("no help for a %s (try help())", tx)
end

_ENV.help = help
