-- scripts/potential_cce.lua -- CCE fast, Nash slow: regret matching in
-- self-play on a two-player potential game.
--
-- Claim (Anagnostides, Tewolde, Zhang, Panageas, Conitzer & Sandholm, the
-- RM+ eps-KKT paper): regret matching (RM, Hart & Mas-Colell 2000), with
-- or without alternation, can take exponentially many iterations to reach
-- even a crude Nash equilibrium of a two-player potential game, while the
-- empirical joint play of any no-regret dynamic is an eps-CCE as soon as
-- the average regret is eps (ccegap = max(0, regret), Hart & Mas-Colell);
-- RM+ does not suffer the same delay.
--
-- The game is built here (the paper's own lower-bound construction is not
-- in its abstract): identical interest, A = B = Phi on K x K actions, a
-- path of improving moves (r1, c1) -> (r2, c1) -> (r2, c2) -> (r3, c2) ->
-- ... with Phi rising by gamma = 1 at each move, and the cell of the next
-- action one move ahead delta = 3 below the current value, so that while
-- one player waits the other's next action collects negative regret at
-- rate delta; every other cell is low.  RM keeps negative regrets, and
-- what one wait collected is paid back at rate gamma in the next, so each
-- wait lasts at least delta / gamma times the one before: the last-iterate
-- NashConv stays at gamma = 1 (the waiting player's gain) for a time
-- geometric in K, while the average regret, hence the CCE gap, falls like
-- 1/T.  RM+ clips its regrets at 0 and moves on at once.  The start puts
-- 1e-3 on every action but the first of each player.
--
-- Deterministic (no seed).  Usage: optlab scripts/potential_cce.lua [K]
-- [iters] (defaults 5, 100000); in the full-screen view the ccegap and
-- nashconv panels of both runs are side by side on log-log axes.
local K = tonumber(arg and arg[1]) or 5
local T = tonumber(arg and arg[2]) or 100000
local delta, gamma = 3, 1

-- The chain game on k actions each.
local function chain (k)
  local low = -(2 * k * gamma + delta + 1)
  local P = {}
  for i = 1, k do
    P[i] = {}
    for j = 1, k do P[i][j] = low end
  end
  for i = 1, k do
    P[i][i] = 2 * (i - 1) * gamma                     -- (r_i, c_i)
    if i < k then P[i + 1][i] = (2 * i - 1) * gamma end -- (r_i+1, c_i)
    if i < k then P[i][i + 1] = P[i][i] - delta end     -- c_i+1 given r_i
    if i + 2 <= k then P[i + 2][i] = P[i + 1][i] - delta end
  end
  local x0 = {}
  for j = 1, k do x0[j] = j == 1 and 1 - 1e-3 * (k - 1) or 1e-3 end
  for j = 1, k do x0[k + j] = x0[j] end
  return problem.matrixgame{potential = P, x0 = x0}, 2 * k * gamma - low
end

-- The first step with metric name <= 1e-2 (stop_below: exact), or nil.
local function first_below (g, dyn, name, iters)
  local r = run(g, dyn, {iters = iters, metrics = {name},
                         stop_below = {[name] = 1e-2}, progress = false,
                         view = false})
  return r.reason == "tolerance" and r.iter or nil, r
end

lesson.claim(string.format("in a %d x %d potential game regret matching's "
                    .. "empirical play is a 1e-2-CCE within a few hundred "
                    .. "steps while its last iterate stays far from Nash "
                    .. "(NashConv = %g) for a number of steps that grows "
                    .. "geometrically with the size; RM+ reaches Nash "
                    .. "within tens of steps", K, K, gamma))
local g, range = chain(K)
local metrics = {"ccegap", "nashconv"}
local rm = run(g, game.rm{}, {iters = T, metrics = metrics,
                              watch = metrics})
local rp = run(g, game.rmplus{}, {iters = T, metrics = metrics,
                                  watch = metrics})

-- (1) the CCE time and the NashConv there, from the records
local cs, ts = rm:series("ccegap")
local ns = rm:series("nashconv")
local tc, nc
for i = 1, #cs do
  if cs[i] <= 1e-2 then tc, nc = ts[i], ns[i]; break end
end
print(string.format("rm: ccegap <= 1e-2 at T = %s, where NashConv = %.3g "
                    .. "(payoff range %g); at T = %d: ccegap %.3g, NashConv "
                    .. "%.3g", tostring(tc), nc
                    or -1, range, rm.iter, rm:last("ccegap"),
                    rm:last("nashconv")))

-- (2) the Nash time, exactly, for RM and RM+ at every size up to K
local tn, grow = {}, {}
for k = 3, K do
  local gk = chain(k)
  local a = first_below(gk, game.rm{}, "nashconv", 20 * T)
  local b = first_below(gk, game.rmplus{}, "nashconv", T)
  local c = first_below(gk, game.rm{}, "ccegap", T)
  tn[k] = a
  if k > 3 and a and tn[k - 1] then grow[#grow + 1] = a / tn[k - 1] end
  print(string.format("K = %d: first step with NashConv <= 1e-2: rm %s, "
                      .. "rmplus %s; with ccegap <= 1e-2: rm %s", k,
                      tostring(a), tostring(b), tostring(c)))
end
local gmin = math.huge
for _, v in ipairs(grow) do gmin = math.min(gmin, v) end
print(string.format("rm's Nash time grows by at least %.1fx per added "
                    .. "action (ratios %s)", gmin,
                    table.concat((function ()
                      local s = {}
                      for i, v in ipairs(grow) do
                        s[i] = string.format("%.1f", v)
                      end
                      return s
                    end)(), ", ")))
print(string.format("rmplus at T = %d: ccegap %.3g, NashConv %.3g", rp.iter,
                    rp:last("ccegap"), rp:last("nashconv")))

local ok = tc ~= nil and tc <= 1000 and nc >= 0.5 * gamma
  and tn[K] ~= nil and tn[K] >= 10 * tc and gmin >= 5
  and rp:last("nashconv") <= 1e-2 and rm:last("ccegap") <= 1e-2
lesson.verdict(string.format("%s (rm: ccegap <= 1e-2 at T = %s with "
                    .. "NashConv %.3g >= %g; NashConv <= 1e-2 only at T = "
                    .. "%s >= 10x that; growth >= %.1fx >= 5x per action; "
                    .. "rmplus NashConv %.3g <= 1e-2; no seed)", ok and "holds"
                    or "does not hold", tostring(tc), nc or -1, 0.5 * gamma,
                    tostring(tn[K]), gmin, rp:last("nashconv")))
