-- tests/mpi/summary.lua -- what the ranks other than 0 hold under mpirun
-- (issue 25): each task's summary, not its history.  Every rank writes
-- the values a script reads to decide what to do next (final and
-- smallest values, x, counts, stop reasons, draws and the chains'
-- summary) -- rank 0 to stdout, the others to stderr with "rank R: "
-- before each line -- and the others then try what needs the history
-- (refused, naming rank 0) and the saves and plots (which do nothing
-- there).  tests/mpi/summary.t compares the lines.  Seed 7.
local rank = optlab.rank
local out = rank == 0 and io.stdout or io.stderr
local function say (...)            -- one write a line: ranks share stderr
  out:write((rank == 0 and "" or ("rank " .. rank .. ": "))
            .. string.format(...) .. "\n")
end
local function g (v) return string.format("%.17g", v) end

local p = problem.quadratic{noise = {kind = "gauss", sigma = 0.1}}
local q = repeats(p, optim.adam{lr = 0.05},
                  {iters = 300, seed = 7, record_x = true}, 8)
for i, r in ipairs(q.runs) do
  say("repeats %d: %s iter %d loss %s min %s x1 %s nfev %d ngev %d", i,
      r.reason, r.iter, g(r:last("loss")), g(r:min("loss")), g(r.x[1]),
      r.nfev, r.ngev)
end
say("median loss %s", g(q:quantile("loss", 0.5)))
local s = sweep(p, optim.gd, {lr = {0.05, 0.1, 0.2}}, {iters = 100, seed = 7})
for i, v in ipairs(s:values("loss")) do say("sweep %d: %s", i, g(v)) end
local rc = race(p, {optim.gd{lr = 0.2}, optim.adam{lr = 0.05}},
                {iters = 120, seed = 7, progress = false})
for i = 1, #rc do
  say("race %d: %s %d %s", i, rc[i].reason, rc[i].iter, g(rc[i]:last("loss")))
end
local c = run(problem.gauss2d{}, sample.nuts{}, {iters = 200, warmup = 100,
              chains = 4, seed = 7, progress = false})
local sm = c:summary()
say("chains: mean %s %s rhat %s ess %s", g(sm[1].mean), g(sm[2].mean),
    g(sm[1].rhat), g(sm[1].ess_bulk))
local d = c[1]:draws()[1]            -- chain 1's draws, rows of x
say("chain 1: %d draws, the last (%s, %s)", #d, g(d[#d][1]), g(d[#d][2]))

if rank > 0 then
  local function try (what, f, ...)
    local ok, err = pcall(f, ...)
    if ok then say("%s: done", what)
    elseif tostring(err):find("history is on rank 0", 1, true) then
      say("%s: refused (%s)", what, tostring(err):match("^[^:]*:[^:]*:"))
      if what == "run:series" then say("%s", err) end
    else say("%s: other error: %s", what, tostring(err)) end
  end
  local r = q.runs[1]
  try("run:series", r.series, r, "loss")
  try("run:traj", r.traj, r)
  try("run:csv", r.csv, r)
  try("run:continue", r.continue, r, 10)
  try("repeats:csv", q.csv, q)
  try("sweep:csv", s.csv, s)
  try("race:csv", rc.csv, rc)
  try("race:series", rc.series, rc, "loss")
  try("run:save", r.save, r, "r.csv")
  try("repeats:save", q.save, q, "q.csv")
  try("sweep:save", s.save, s, "s.csv")
  try("race:save", rc.save, rc, "race.csv")
  try("run:plot", r.plot, r, {file = "r.svg"})
  try("repeats:plot", q.plot, q, {file = "q.svg"})
  try("sweep:plot", s.plot, s, {file = "s.svg"})
  try("race:plot", rc.plot, rc)
  try("save_draws", c.save_draws, c, "d.csv")
  try("sweep:plot text", s.plot, s)
  try("repeats:plot text", q.plot, q)
  for _, o in ipairs{r, q, s, rc, c} do try("tostring", tostring, o) end
end
