-- tests/lua/stan.lua -- what the samplers tell a Stan user (issue 22,
-- items 1b, 6 and 8): a short x0 with chains > 1 is refused as with one
-- chain (repro F1); a log density that returns NaN is named as such, not
-- as curvature divergences; NUTS transitions that hit maxdepth are warned
-- with count and fraction; an invalid start is re-initialised as Stan's
-- random inits and the summary names chains that kept no draws; no lp__
-- row without a log density; the R-hat warning shows enough digits; diag.*
-- on draws from anywhere equal the sampler's own summary, 4 x 7 draws give
-- posterior's ESS of 12 (split chains of 3: tau = 2), and a CmdStan CSV
-- reads back.  Seeds are fixed and printed.
local t = dofile("tests/lib/tap.lua")
local Q = {progress = false, view = false}
local function opts (o)
  for k, v in pairs(Q) do if o[k] == nil then o[k] = v end end
  return o
end
local SEED = 20261206
t.diag("seed " .. SEED)

-- (1) F1: chains = 2 with an x0 shorter than n: the error one chain gives
t.errors("x0 has 1 entries, expected n = 4", run, problem.gaussian{n = 4},
         sample.rwmh{warmup = 0},
         opts{chains = 2, x0 = {0.5}, iters = 1, record_x = true})
t.errors("x0 has 1 entries, expected n = 4", run, problem.gaussian{n = 4},
         sample.rwmh{warmup = 0}, opts{x0 = {0.5}, iters = 1})
t.errors("x0 has 5 entries, expected n = 4", run, problem.gaussian{n = 4},
         sample.nuts{}, opts{chains = 3, x0 = {1, 2, 3, 4, 5}, iters = 1})

-- (2) a log density that is NaN below -1 (the Stan user's S1): named, with
-- the point and the count; no curvature warning, no advice to raise delta
local half = problem.density{n = 1, logp = function (x)
  if x[1] < -1 then return 0 / 0 end
  return -0.5 * x[1] ^ 2
end}
local c = run(half, sample.nuts{}, opts{chains = 4, iters = 1000,
                                        seed = SEED})
local txt = tostring(c)
local nnan, ntot, at = txt:match("(%d+) of (%d+) transitions after warmup "
                                 .. "%([%d.]+%%%) met a log density of nan")
local x = txt:match("logp returned nan at x = %(([-%d.e]+)%)")
t.ok(nnan and tonumber(ntot) == 4000 and tonumber(nnan) > 0,
     "nan: the count of transitions that met it, of 4000 (" ..
       tostring(nnan) .. ")")
t.ok(x and tonumber(x) < -1, "nan: the point named is where logp is nan ("
     .. tostring(x) .. ")")
t.ok(not txt:find("curvature there", 1, true) and
     not txt:find("raise delta closer", 1, true),
     "nan: not reported as curvature divergences")
t.ok(txt:find("divergences 0, non-finite logp " .. tostring(nnan), 1, true),
     "nan: the sampler line counts them apart from divergences")

local st = c:stats()
t.ok(st.transitions == 4000 and st.nonfinite == tonumber(nnan) and
     st.divergences == 0, "nan: c:stats() counts nonfinite " ..
     tostring(st.nonfinite) .. ", divergences " .. tostring(st.divergences))

-- (3) maxdepth: an ill-conditioned Gaussian with maxdepth = 5 (S2)
local g = run(problem.gaussian{n = 10, cond = 1e6}, sample.nuts{maxdepth = 5},
              opts{chains = 2, iters = 200, seed = SEED})
txt = tostring(g)
local hit, of = txt:match("(%d+) of (%d+) transitions after warmup %([%d.]+%%%)"
                          .. " hit the maximum tree depth 5")
t.is(g:stats().maxdepth, tonumber(hit), "maxdepth: in c:stats() too")
t.ok(hit and tonumber(of) == 400 and tonumber(hit) > 300,
     "maxdepth: warned with count and fraction (" .. tostring(hit) .. " of "
       .. tostring(of) .. ")")
txt = tostring(run(problem.gauss2d{}, sample.nuts{}, opts{chains = 2,
                   iters = 500, seed = SEED}))
t.ok(not txt:find("maximum tree depth", 1, true),
     "maxdepth: no warning on a healthy run")

-- (4) an x0 where logp is NaN (S5): every chain re-initialised, said so;
-- all four chains keep their draws
local nanleft = problem.density{n = 2, logp = function (x)
  if x[1] < -1 then return 0 / 0 end
  return -0.5 * (x[1] ^ 2 + x[2] ^ 2)
end}
c = run(nanleft, sample.nuts{}, opts{chains = 4, iters = 200, seed = SEED,
                                     x0 = {-5, 0}})
txt = tostring(c)
t.ok(txt:find("note: chain 1: re-initialised: the log density is nan at x0",
              1, true) and txt:find("4 chains, warmup 1000, 200 draws each "
                                    .. "kept", 1, true),
     "re-init: chain 1 restarted from a random point, said; 4 chains kept")
t.ok(#c:draws()[1] == 200 and c[1].x[1] >= -1,
     "re-init: chain 1 kept 200 draws where logp is finite")
local r1 = run(nanleft, sample.nuts{}, opts{iters = 50, seed = SEED,
                                            x0 = {-5, 0}})
t.ok(r1.reason == "budget" and tostring(r1):find("re-initialised", 1, true),
     "re-init: a single chain too")

-- (5) no valid start anywhere near: the chain is left out and named, the
-- header says how many chains the table pools
local narrow = problem.density{n = 1, logp = function (x)
  if math.abs(x[1] - 10) > 1.2 then return 0 / 0 end
  return -0.5 * (x[1] - 10) ^ 2
end}
c = run(narrow, sample.nuts{}, opts{chains = 4, iters = 200, seed = 3,
                                    x0 = {10}})
txt = tostring(c)
local kept = 0
for k = 1, 4 do if #c:draws()[k] > 0 then kept = kept + 1 end end
t.ok(kept < 4 and txt:find(kept .. " of 4 chains kept draws", 1, true) and
     txt:find("at 100 random points in (-2, 2)^1", 1, true) and
     not txt:find("4 chains, warmup", 1, true),
     "no start: " .. kept .. " of 4 chains kept draws, the others named")
t.is(c:summary().chains, kept, "no start: the summary pools the chains "
     .. "with draws")

-- (6) no log density (sgld): no lp__ row of zeros
local sg = run(problem.linreg{n = 50, d = 2}, sample.sgld{},
               opts{iters = 200, seed = SEED})
txt = tostring(sg)
t.ok(not txt:find("lp__", 1, true) and sg:summary().lp__ == nil and
     txt:find("x[1]", 1, true), "sgld: no lp__ row")
t.ok(run(problem.gauss2d{}, sample.nuts{}, opts{iters = 100, seed = SEED})
     :summary().lp__ ~= nil, "nuts: its summary has lp__")

-- (7) R-hat warnings never read "1.01 (> 1.01)": the value shown has 4
-- decimals and is above 1.01
for seed = 1, 12 do
  local s = tostring(run(problem.gauss2d{}, sample.rwmh{}, opts{chains = 4,
                         iters = 60, seed = seed}))
  local v = s:match("R%-hat is ([%d.]+)")
  if v then
    t.ok(#v:match("%.(%d+)") == 4 and tonumber(v) > 1.01,
         "rhat: warning shows " .. v .. " (seed " .. seed .. ")")
    break
  end
end

-- (8) diag on any draws equals the sampler's own summary
c = run(problem.gauss2d{}, sample.nuts{}, opts{chains = 3, iters = 400,
                                               seed = SEED})
local mine, ds = c:summary(), diag.summary(c:draws())
local same = true
for j = 1, 2 do
  for _, f in ipairs{"mean", "sd", "mcse", "q5", "q50", "q95", "ess_bulk",
                     "ess_tail", "rhat"} do
    if mine[j][f] ~= ds[j][f] then same = false end
  end
end
t.ok(same, "diag.summary(c:draws()) equals c:summary() field by field")
local x1 = {}
for k, ch in ipairs(c:draws()) do
  x1[k] = {}
  for s, d in ipairs(ch) do x1[k][s] = d[1] end
end
t.ok(diag.rhat(x1) == mine[1].rhat and diag.ess_bulk(x1) == mine[1].ess_bulk
     and diag.ess_tail(x1) == mine[1].ess_tail and
     diag.mcse(x1) == mine[1].mcse,
     "diag.rhat, ess_bulk, ess_tail, mcse of x[1] equal the summary's")
t.ok(tostring(ds):find("ess_bulk", 1, true) and
     tostring(mine):find("x[2]", 1, true), "summaries print as the table")
-- 4 chains of 7 draws: split chains of 3, Geyer's loop never runs, tau =
-- -1 + 2 rho_0 + rho_0 = 2 (posterior's sum(rho[1:0]) is rho[1]): 28 - 4
-- middle draws dropped = 24 split draws, ESS 12
local short = {{0.3, -1.2, 0.8, 2.1, -0.4, 0.9, 1.7},
               {1.1, 0.2, -0.7, 0.5, 1.9, -1.5, 0.05},
               {-0.3, 0.6, 1.4, -2.2, 0.1, 0.75, -0.9},
               {0.45, -0.15, 2.5, -0.6, 1.25, 0.35, -1.1}}
t.near(diag.ess_bulk(short), 12, 1e-12, "diag.ess_bulk of 4 x 7 draws is 12 "
       .. "(posterior's)")
t.near(diag.summary(short)[1].ess_tail, 12, 1e-12, "and its tail ESS is 12")
t.errors("chain 2 has 6 draws, chain 1 has 7", diag.rhat,
         {short[1], {1, 2, 3, 4, 5, 6}})
t.errors("draw 3 of chain 1 is a string", diag.rhat, {{1, 2, "x", 4}})
t.errors("give one quantity", diag.rhat, c:draws())

-- (9) a CmdStan CSV back: save_draws then diag.read_csv
local files = c:save_draws(os.tmpname() .. ".csv")
local back = diag.read_csv(files)
t.ok(#back == 3 and #back[1] == 400 and back.names[1] == "lp__" and
     back.names[8] == "x.1", "read_csv: 3 chains of 400 draws, CmdStan names")
local rs = diag.summary(back)
t.ok(rs.lp__ and math.abs(rs[1].mean - mine[1].mean) < 1e-12 and
     rs[2].name == "x.2" and #rs == 2,
     "read_csv: summarised as the run (lp__ apart, sampler columns left out)")
local f = assert(io.open(files[1] .. ".w.csv", "w"))
f:write("# warmup saved\nlp__,x\n-1,5\n-2,6\n# Adaptation terminated\n",
        "-1,1\n-2,2\n-3,nan\n-4,3\n")
f:close()
back = diag.read_csv(files[1] .. ".w.csv")
t.ok(#back[1] == 4 and back[1][1][2] == 1 and back[1][3][2] ~= back[1][3][2],
     "read_csv: warmup draws before 'Adaptation terminated' dropped, nan read")
t.errors("draw 3 of chain 1 is nan", diag.summary, back)
-- its errors point at the caller's line, not at the Lua wrapper that
-- flattens named draws (lua/prelude.lua:297 before)
do
  local chunk = load("local s = diag.summary({{1, 2, 3}})\nreturn s",
                     "=mine")
  local ok, e = pcall(chunk)
  t.ok(not ok and tostring(e):find("^mine:1: diag%.summary: 3 draws per "
                                   .. "chain, needs 4") ~= nil,
       "diag.summary's error is at the caller's line: " .. tostring(e))
end
for _, fn in ipairs(files) do os.remove(fn) end
os.remove(files[1] .. ".w.csv")

-- (9b) a log density of -inf met where x overflowed (x = 0 + exp(u) = inf
-- after a long warmup step, seed 1) is said as such; 5aa2093 advised to
-- "declare the support with lower =", which this density has
do
  local q = problem.density{n = 1, lower = 0,
    logp = function (x) return -0.5 * x[1] ^ 2 end}
  local txt = tostring(run(q, sample.nuts{}, opts{chains = 2, iters = 200,
                                                 x0 = {-1}, seed = 1}))
  local note = txt:match("\nnote: logp returned %-inf[^\n]*")
  t.ok(note ~= nil and note:find("overflowed", 1, true) ~= nil
       and not note:find("declare the support", 1, true),
       "an overflowed x is named, no advice to add bounds it has: "
       .. tostring(note))
end

-- (10) help for diag and its functions
for _, f in ipairs{diag, diag.summary, diag.rhat, diag.read_csv} do
  local out = {}
  local saved = io.write
  io.write = function (...) for _, v in ipairs{...} do out[#out + 1] = v end end
  help(f)
  io.write = saved
  local txt = table.concat(out)
  t.ok(txt:find("diag.summary(chains", 1, true) and
       txt:find("diag.read_csv", 1, true), "help: diag's text")
end

t.done()
