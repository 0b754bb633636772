-- tests/lua/kuhn.lua -- Kuhn poker (problem.kuhn{}) with game.cfr{} and
-- game.cfrplus{} through the Lua interface (issue 12): the problem's
-- facts, r.xavg as the average behavioural strategy (12 entries, each in
-- [0, 1]), the metrics nashconv / exploitability (_avg) and value against
-- a best response and payoff computed here in Lua by enumerating the 6
-- deals and the 64 pure strategies of each player; the issue's criterion
-- for CFR+ (exploitability <= 1e-3 within 10^4 steps, value within 1e-3
-- of -1/18); the refusals.  Deterministic: no randomness.
local t = dofile("tests/lib/tap.lua")

-- Player 1's expected payoff of the joint behavioural strategy x (x[1..3]
-- P1 bets with J Q K, x[4..6] P1 calls after check-bet, x[7..9] P2 bets
-- after a check, x[10..12] P2 calls a bet).
local function value (x)
  local v = 0
  for c1 = 0, 2 do
    for c2 = 0, 2 do
      if c1 ~= c2 then
        local s = c1 > c2 and 1 or -1
        local b, k, be, ga = x[1 + c1], x[4 + c1], x[7 + c2], x[10 + c2]
        v = v + ((1 - b) * ((1 - be) * s + be * ((1 - k) * -1 + k * 2 * s))
                 + b * ((1 - ga) + ga * 2 * s)) / 6
      end
    end
  end
  return v
end

local function br (x, i)
  local best = -math.huge
  for s = 0, 63 do
    local y = {table.unpack(x)}
    for j = 0, 5 do y[6 * i + j + 1] = (s >> j) & 1 end
    local u = i == 0 and value(y) or -value(y)
    if u > best then best = u end
  end
  return best
end

local function nashconv (x) return br(x, 0) + br(x, 1) end

-- (1) the problem
local p = problem.kuhn{}
t.ok(p.kind == "game" and p.n == 12, "kuhn: a game of n = 12")
t.near(p.fstar, -1 / 18, 1e-15, "kuhn: f* = -1/18")
local a = 1 / 3
local eq = {a, 0, 3 * a, 0, a + 1 / 3, 1, 1 / 3, 0, 1, 0, 1 / 3, 1}
t.near(value(eq), -1 / 18, 1e-12, "kuhn: the alpha = 1/3 equilibrium's "
       .. "value by deals is -1/18")
t.ok(math.abs(nashconv(eq)) < 1e-12, "kuhn: and its NashConv by brute "
     .. "force is 0")

-- (2) CFR+ and CFR runs: r.xavg and the metrics against the Lua truth
local metrics = {"nashconv", "exploitability", "nashconv_avg",
                 "exploitability_avg", "value"}
for _, m in ipairs{"cfrplus", "cfr"} do
  local r = run(p, game[m]{}, {iters = 10000, metrics = metrics,
                               progress = false, view = false})
  local xa, x = r.xavg, r.x
  local inbox = #xa == 12
  for i = 1, 12 do inbox = inbox and xa[i] >= 0 and xa[i] <= 1 end
  t.ok(inbox, m .. ": r.xavg is a behavioural strategy (12 entries in "
       .. "[0, 1])")
  t.near(r:last("nashconv"), nashconv(x), 1e-12, m .. ": nashconv of r.x "
         .. "is the brute-force one")
  t.near(r:last("exploitability"), nashconv(x) / 2, 1e-12, m
         .. ": exploitability = nashconv / 2")
  t.near(r:last("nashconv_avg"), nashconv(xa), 1e-12, m
         .. ": nashconv_avg is of r.xavg")
  t.near(r:last("value"), value(xa), 1e-12, m .. ": value is player 1's "
         .. "payoff at r.xavg")
  if m == "cfrplus" then
    t.ok(r:last("exploitability_avg") <= 1e-3, "cfrplus: exploitability "
         .. "of the average " .. r:last("exploitability_avg")
         .. " <= 1e-3 after 10^4 steps")
    t.ok(math.abs(r:last("value") + 1 / 18) <= 1e-3, "cfrplus: value "
         .. r:last("value") .. " within 1e-3 of -1/18")
  else
    -- O(1/sqrt(T)) (Zinkevich et al. 2007): 0.25 / sqrt(T) measured
    t.ok(r:last("exploitability_avg") <= 1 / math.sqrt(10000), "cfr: "
         .. "exploitability of the average " .. r:last("exploitability_avg")
         .. " <= 1/sqrt(T) = 0.01 after 10^4 steps")
  end
end

-- (3) parameters and refusals
t.ok(game.cfrplus{avg = "uniform", alternate = false} ~= nil,
     "cfrplus: avg and alternate are parameters")
t.errors("use game.cfr or game.cfrplus", function ()
  run(p, game.rm{}, {iters = 10, progress = false, view = false})
end)
t.errors("needs an extensive-form game", function ()
  run(problem.rps{}, game.cfr{}, {iters = 10, progress = false,
                                  view = false})
end)
-- r.value on Kuhn: player 1's value at the average strategy, the value
-- metric's last value, near -1/18 after CFR+
do
  local k = run(problem.kuhn{}, game.cfrplus{}, {iters = 3000,
                progress = false, view = false})
  t.is(k.value, k:last("value"), "kuhn: r.value is the value metric's last")
  t.near(k.value, -1 / 18, 1e-3, "kuhn: r.value within 1e-3 of -1/18")
end
t.done()
