-- scripts/rps.lua -- regret matching+ in self-play on rock-paper-scissors.
--
-- Claim (Tammelin 2014; Farina, Kroer & Sandholm 2021): RM+ is a no-regret
-- dynamic, so in a two-player zero-sum game the average strategy pair
-- converges to a Nash equilibrium, with exploitability (duality gap)
-- O(1/sqrt(T)) in the worst case.  On rock-paper-scissors the equilibrium
-- is uniform, whose entropy is log 3 per player.
--
-- Usage: optlab scripts/rps.lua [iters]   (default 20000)
local T = tonumber(arg and arg[1]) or 20000
local r = run(problem.rps{}, game.rmplus{},
              {iters = T, seed = 1, watch = {"exploitability", "entropy"}})
print(r)

-- Fit the log-log slope of exploitability over the second half of the run.
local e, t = r:series("exploitability")
local sx, sy, sxx, sxy, k = 0, 0, 0, 0, 0
for i = 1, #e do
  if t[i] >= T / 2 and e[i] > 0 then
    local lx, ly = math.log(t[i]), math.log(e[i])
    sx, sy, sxx, sxy, k = sx + lx, sy + ly, sxx + lx * lx, sxy + lx * ly, k + 1
  end
end
local slope = (k * sxy - sx * sy) / (k * sxx - sx * sx)
print(string.format("exploitability of the average %.3g after %d steps",
                    r:last("exploitability"), r.iter))
print(string.format("log-log slope %.2f (worst-case bound -0.5)", slope))
print(string.format("entropy of the last iterate %.4f (uniform: %.4f)",
                    r:last("entropy"), 2 * math.log(3)))
