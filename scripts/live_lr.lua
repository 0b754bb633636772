-- scripts/live_lr.lua -- turning gradient descent's step size while it
-- runs (j:set), and replaying the session (r.changes).
--
-- Claim (the stability of gradient descent on a quadratic; e.g. Nesterov,
-- "Introductory Lectures on Convex Optimization", 2004, sec. 1.2.3): on
-- f = 1/2 x'Hx with eigenvalues in [mu, L], gd's error along the top
-- eigenvector is multiplied by |1 - lr L| each step, so it converges for
-- lr < 2/L and grows geometrically, by |1 - lr L| per step, for lr > 2/L;
-- lowering lr below 2/L again makes it converge from wherever it got.
-- The job is turned the way the prompt turns it (j:set between
-- j:step's), each change is logged with its iteration (r.changes), and
-- run(p, m, {changes = r.changes}) replays the session byte for byte.
--
-- Usage: optlab scripts/live_lr.lua [high]   (the raised lr; default 2.5)
local fmt = string.format
local high = tonumber(arg and arg[1]) or 2.5
local L = 1                           -- problem.quadratic's spectrum: [1/cond, 1]
local p = problem.quadratic{n = 2, cond = 10, seed = 3}
local m = optim.gd{lr = 1.9}
local low = 1.2
local seed, iters = 1, 120            -- <= 128 steps: every step recorded

lesson.claim(fmt("gd on a quadratic with L = %g converges at lr = 1.9 < 2/L "
          .. "= %g; raised to lr = %g > 2/L while running its loss grows by "
          .. "(lr L - 1)^2 = %g per step; lowered to %g it converges again; "
          .. "the replay of r.changes is byte-identical", L, 2 / L, high,
          (high * L - 1)^2, low))

local j = start(p, m, {iters = iters, seed = seed})
local r = j.run
local function loss () return r:last("loss") end
local function phase (name, steps)
  local first = loss()
  io.write(fmt("  %-22s", name))
  for k = 1, steps do
    j:step(1)
    if k % 5 == 0 then io.write(fmt(" %9.3g", loss())) end
  end
  io.write("\n")
  return first, loss()
end

print(fmt("loss every 5 iterations (start %.3g):", loss()))
local a0, a1 = phase("lr = 1.9   (t 0-30)", 30)
j:set{lr = high}
local b0, b1 = phase(fmt("lr = %g   (t 30-60)", high), 30)
j:set{lr = low}
local c0, c1 = phase(fmt("lr = %g   (t 60-120)", low), 60)
print(j.state == "done" and r.reason == "budget" and "job done: budget"
      or "job: " .. j.state .. ", " .. r.reason)

for _, c in ipairs(r.changes) do
  print(fmt("change: iter %d  %s = %g", c.iter, c.param, c.value))
end
local growth = (b1 / b0)^(1 / 30)
print(fmt("growth per step at lr = %g: %.4f  (theory (lr L - 1)^2 = %.4f)",
          high, growth, (high * L - 1)^2))

-- the replay: the same problem, method object and seed, the changes given
local r2 = run(p, m, {iters = iters, seed = seed, changes = r.changes,
                      view = false, progress = false})
local function bytes (x)
  local t = {}
  for i = 1, #x do t[i] = fmt("%a", x[i]) end
  return table.concat(t, " ")
end
local same_x = bytes(r2.x) == bytes(r.x)
local same_csv = r2:csv() == r:csv()
local same_log = #r2.changes == #r.changes
for i, c in ipairs(r.changes) do
  local d = r2.changes[i]
  same_log = same_log and d ~= nil and d.iter == c.iter and
    d.param == c.param and d.value == c.value
end
print(fmt("replay: x %s, csv %s (%d bytes), changes %s",
          same_x and "identical" or "differs",
          same_csv and "identical" or "differs", #r:csv(),
          same_log and "identical" or "differ"))

local ok = a1 < a0 / 100 and b1 > 1e3 * b0 and
  math.abs(growth / (high * L - 1)^2 - 1) < 0.05 and c1 < c0 / 1e3 and
  #r.changes == 2 and same_x and same_csv and same_log
-- on a terminal, the experiment shown live (headless: nothing)
lesson.show(p, m, {iters = iters, seed = seed, changes = r.changes,
                  watch = {"loss"}})
lesson.verdict(fmt("%s (loss %.3g -> %.3g at lr 1.9, %.3g -> %.3g at lr %g, "
          .. "%.3g -> %.3g at lr %g; growth %.4f vs %.4f within 5%%; replay "
          .. "byte-identical: %s; seed %d)", ok and "holds" or "does not hold",
          a0, a1, b0, b1, high, c0, c1, low, growth, (high * L - 1)^2,
          tostring(same_x and same_csv and same_log), seed))
