-- tests/lua/efg.lua -- user extensive-form games (problem.efg{root = ...},
-- issue 27): Kuhn poker written here as a tree equals problem.kuhn{}
-- (hand-coded in core/problems/kuhn.c, itself checked by brute force in
-- tests/lua/kuhn.lua) to 1e-12 -- the same exploitability series of CFR+
-- and CFR over 1000 iterations and the same average policy, matched by
-- information-set name; matching pennies as a tree (player 2 does not see
-- player 1's coin) has value 0 and the uniform equilibrium; a Leduc-sized
-- poker (two ranks of three cards twice, a public card, two betting
-- rounds: 4000+ nodes) runs and CFR+'s exploitability falls by 100x; the
-- printed policy names the user's sets and actions; every validation
-- error.  Deterministic: no randomness.
local t = dofile("tests/lib/tap.lua")

-- (1) Kuhn poker as a tree: cards J < Q < K, ante 1, bet 1
local cards = {"J", "Q", "K"}
local function show (c1, c2, stake)
  return {payoff = (c1 > c2 and 1 or -1) * stake}
end
local deals = {}
for c1 = 1, 3 do
  for c2 = 1, 3 do
    if c1 ~= c2 then
      local j1, j2 = cards[c1], cards[c2]
      deals[#deals + 1] = {
        player = 1, infoset = "1" .. j1, where = "player 1 opens",
        actions = {"check", "bet"}, children = {
          {player = 2, infoset = "2c" .. j2, where = "player 2 after check",
           actions = {"check", "bet"}, children = {
             show(c1, c2, 1),
             {player = 1, infoset = "1cb" .. j1,
              where = "player 1 after check, bet",
              actions = {"fold", "call"},
              children = {{payoff = -1}, show(c1, c2, 2)}}}},
          {player = 2, infoset = "2b" .. j2, where = "player 2 after bet",
           actions = {"fold", "call"},
           children = {{payoff = 1}, show(c1, c2, 2)}}}}
    end
  end
end
local ukuhn = problem.efg{root = {player = "chance", children = deals},
                          name = "ukuhn", value = -1 / 18}
local kuhn = problem.kuhn{}
t.ok(ukuhn.kind == "game" and ukuhn.n == 12, "efg: user Kuhn is a game "
     .. "of n = 12 information sets")
t.near(ukuhn.fstar, -1 / 18, 0, "efg: value = -1/18 is its f*")

local opts = {iters = 1000, progress = false, view = false,
              metrics = {"exploitability_avg", "exploitability", "value"}}
for _, m in ipairs{"cfrplus", "cfr"} do
  local ru = run(ukuhn, game[m]{}, opts)
  local rk = run(kuhn, game[m]{}, opts)
  for _, met in ipairs{"exploitability_avg", "exploitability", "value"} do
    local a, b = ru:series(met), rk:series(met)
    local w = #a == #b and 0 or math.huge
    for i = 1, math.min(#a, #b) do w = math.max(w, math.abs(a[i] - b[i])) end
    t.ok(w <= 1e-12, string.format("efg: %s on user Kuhn: the %s series "
         .. "(%d points) equals problem.kuhn's to %.2g <= 1e-12", m, met,
         #a, w))
  end
  -- the average policy, set by set: the user's numbering (player 1's
  -- sets first, by heading, then by first appearance: deal (J, Q) shows
  -- 2cQ first) puts Kuhn's set I at order[I]
  local order = {1, 2, 3, 4, 5, 6, 9, 7, 8, 12, 10, 11}
  local xu, xk, w = ru.xavg, rk.xavg, 0
  for I = 1, 12 do w = math.max(w, math.abs(xu[order[I]] - xk[I])) end
  t.ok(w <= 1e-12, string.format("efg: %s on user Kuhn: the average "
       .. "policy equals problem.kuhn's set by set to %.2g <= 1e-12", m, w))
end

-- the coordinates are numbered player 1's first, headings in order of
-- appearance; the printed policy names the user's sets and actions
local r = run(ukuhn, game.cfrplus{}, opts)
local s = tostring(r)
t.ok(s:find("player 1 after check, bet:  1cbJ: call 0.000 fold 1.000", 1,
            true) ~= nil, "efg: the policy is printed by the user's set "
     .. "and action names")
t.ok(s:find("(the game's value: -0.05556)", 1, true) ~= nil,
     "efg: the printed value is the given one")
local p1 = s:find("player 1 opens:", 1, true)
local p2 = s:find("player 2 after check:", 1, true)
t.ok(p1 ~= nil and p2 ~= nil and p1 < p2, "efg: player 1's sets first")
t.near(r:last("value"), -1 / 18, 1e-3, "efg: cfrplus's average value on "
       .. "user Kuhn within 1e-3 of -1/18")

-- (2) matching pennies: player 2 picks without seeing player 1's coin
local pennies = problem.efg{root = {
  player = 1, infoset = "coin1", actions = {"heads", "tails"}, children = {
    {player = 2, infoset = "coin2", actions = {"heads", "tails"},
     children = {{payoff = 1}, {payoff = -1}}},
    {player = 2, infoset = "coin2", actions = {"heads", "tails"},
     children = {{payoff = -1}, {payoff = 1}}}}}}
t.is(pennies.n, 2, "efg: matching pennies has 2 information sets")
local rp = run(pennies, game.cfrplus{}, {iters = 2000, progress = false,
               view = false, metrics = {"exploitability_avg", "value"}})
t.ok(rp:last("exploitability_avg") <= 1e-3, "efg: matching pennies: "
     .. "exploitability of the average " .. rp:last("exploitability_avg")
     .. " <= 1e-3 after 2000 CFR+ steps")
t.near(rp:last("value"), 0, 1e-3, "efg: matching pennies: value 0")
t.near(rp.xavg[1], 0.5, 1e-3, "efg: matching pennies: player 1 uniform")
t.near(rp.xavg[2], 0.5, 1e-3, "efg: matching pennies: player 2 uniform")
-- exact at the equilibrium: a run of 0 steps from x0 = (1/2, 1/2)
local r0 = run(pennies, game.cfr{}, {iters = 0, progress = false,
               view = false, metrics = {"exploitability", "value"}})
t.near(r0:last("exploitability"), 0, 1e-15, "efg: matching pennies: "
       .. "exploitability 0 at the uniform profile")
-- and the pure profile (heads, heads) is exploitable by 1 for each
-- player: NashConv 2 (player 1 gains 0, player 2 gains 2), half is 1
local rh = run(pennies, game.cfr{}, {iters = 0, x0 = {0, 0},
               progress = false, view = false,
               metrics = {"nashconv", "value"}})
t.near(rh:last("nashconv"), 2, 1e-15, "efg: matching pennies: NashConv 2 "
       .. "at (heads, heads)")

-- a hidden-move game off the uniform point: payoffs (H,H) 2, (H,T) -1,
-- (T,H) -1, (T,T) 1; closed form (2 x 2 without a saddle): value
-- (ad - bc) / (a + d - b - c) = 1/5, both play heads with probability
-- 2/5, so x = P(tails) = 3/5 for each
local hidden = problem.efg{root = {
  player = 1, infoset = "p1", actions = {"heads", "tails"}, children = {
    {player = 2, infoset = "p2", actions = {"heads", "tails"},
     children = {{payoff = 2}, {payoff = -1}}},
    {player = 2, infoset = "p2", actions = {"heads", "tails"},
     children = {{payoff = -1}, {payoff = 1}}}}}}
local rhd = run(hidden, game.cfrplus{}, {iters = 5000, progress = false,
                view = false, metrics = {"exploitability_avg", "value"}})
t.ok(rhd:last("exploitability_avg") <= 1e-3, "efg: hidden 2 x 2: "
     .. "exploitability " .. rhd:last("exploitability_avg") .. " <= 1e-3")
t.near(rhd:last("value"), 1 / 5, 1e-3, "efg: hidden 2 x 2: value 1/5")
t.near(rhd.xavg[1], 3 / 5, 2e-3, "efg: hidden 2 x 2: player 1 tails 3/5")
t.near(rhd.xavg[2], 3 / 5, 2e-3, "efg: hidden 2 x 2: player 2 tails 3/5")

-- (3) a Leduc-sized poker: ranks J Q K, two cards of each; a private
-- card each, a round of check/bet/fold/call (bet 1), a public card, a
-- second round (bet 2); a pair with the public card wins, else the higher
-- rank, else a split.  h is the public history (actions, "/", the public
-- rank), which every information set includes beside the private card.
local function round (h, bet, j1, j2, stake, cont)
  return {player = 1, infoset = "1" .. j1 .. ":" .. h, where = "p1 " .. h,
    actions = {"check", "bet"}, children = {
      {player = 2, infoset = "2" .. j2 .. ":" .. h .. "c",
       where = "p2 " .. h .. "c", actions = {"check", "bet"}, children = {
         cont(stake, h .. "cc"),
         {player = 1, infoset = "1" .. j1 .. ":" .. h .. "cb",
          where = "p1 " .. h .. "cb", actions = {"fold", "call"},
          children = {{payoff = -stake}, cont(stake + bet, h .. "cbc")}}}},
      {player = 2, infoset = "2" .. j2 .. ":" .. h .. "b",
       where = "p2 " .. h .. "b", actions = {"fold", "call"},
       children = {{payoff = stake}, cont(stake + bet, h .. "bc")}}}}
end
local R = {"J", "J", "Q", "Q", "K", "K"}
local deal = {}
for a = 1, 6 do
  for b = 1, 6 do
    if a ~= b then
      local k1, k2 = (a + 1) // 2, (b + 1) // 2
      deal[#deal + 1] = round("", 1, R[a], R[b], 1, function (st, h1)
        local pubs = {}
        for c = 1, 6 do
          if c ~= a and c ~= b then
            local kc = (c + 1) // 2
            pubs[#pubs + 1] = round(h1 .. "/" .. R[c] .. "/", 2, R[a], R[b],
                                    st, function (st2)
              local s1 = (k1 == kc and 10 or 0) + k1
              local s2 = (k2 == kc and 10 or 0) + k2
              return {payoff = s1 > s2 and st2 or s1 < s2 and -st2 or 0}
            end)
          end
        end
        return {player = "chance", children = pubs}
      end)
    end
  end
end
local leduc = problem.efg{root = {player = "chance", children = deal},
                          name = "leduc2"}
t.is(leduc.n, 120, "efg: the Leduc-sized poker has 120 information sets "
     .. "(12 in the first round, 108 in the second)")
local rl = run(leduc, game.cfrplus{}, {iters = 1000, progress = false,
               view = false, metrics = {"exploitability_avg", "value"}})
local ex = rl:series("exploitability_avg")
t.diag(string.format("leduc2: exploitability of the average %.3g at t = 1, "
       .. "%.3g at 10, %.3g at 100, %.3g at 1000", ex[2], ex[11], ex[101],
       ex[1001]))
t.ok(ex[2] > ex[11] and ex[11] > ex[101] and ex[101] > ex[1001],
     "efg: leduc2: CFR+'s exploitability falls at t = 1, 10, 100, 1000")
t.ok(ex[1001] <= ex[2] / 100, "efg: leduc2: and by 100x over 1000 steps")
local rlc = run(leduc, game.cfr{}, {iters = 300, progress = false,
                view = false, metrics = {"exploitability_avg"}})
local exc = rlc:series("exploitability_avg")
t.ok(exc[301] < exc[2] / 5, string.format("efg: leduc2: CFR's too "
     .. "(%.3g -> %.3g in 300 steps)", exc[2], exc[301]))

-- (4) refusals, each named
local function leaf (u) return {payoff = u} end
local function dec (pl, I, kids, acts)
  return {player = pl, infoset = I, actions = acts or {"l", "r"},
          children = kids}
end
local E = function (root) return function () problem.efg{root = root} end end
t.errors("unknown parameter 'roots'", function () problem.efg{roots = 1} end)
t.errors("root must be the game's root node", function () problem.efg{} end)
t.errors("value must be a number", function ()
  problem.efg{root = dec(1, "a", {leaf(1), leaf(2)}), value = "x"} end)
t.errors("the node at root.children[2]: unknown key 'pay'",
         E(dec(1, "a", {leaf(1), {pay = 2}})))
t.errors("player = 3 at root must be 1, 2 or \"chance\"",
         E({player = 3, children = {leaf(1)}}))
t.errors("has neither player", E({children = {leaf(1)}}))
t.errors("has both player and payoff", E({player = 1, payoff = 1}))
t.errors("needs infoset", E({player = 1, actions = {"l", "r"},
                             children = {leaf(1), leaf(2)}}))
t.errors("needs actions, a list of two names",
         E(dec(1, "a", {leaf(1), leaf(2)}, {"l", "m", "r"})))
t.errors("has 3 children for its 2 actions",
         E(dec(1, "a", {leaf(1), leaf(2), leaf(3)})))
t.errors("names both actions 'l'", E(dec(1, "a", {leaf(1), leaf(2)},
                                          {"l", "l"})))
t.errors("children[1] at root must be a table, got number",
         E(dec(1, "a", {3, leaf(2)})))
t.errors("has probs; only a chance node", E({player = 1, infoset = "a",
  actions = {"l", "r"}, probs = {0.5, 0.5}, children = {leaf(1), leaf(2)}}))
t.errors("information set 'b' at root.children[2] is player 2's, but its "
         .. "first node is player 1's",
         E({player = "chance", children = {dec(1, "b", {leaf(1), leaf(2)}),
                                           dec(2, "b", {leaf(1), leaf(2)})}}))
t.errors("information set 'b' at root.children[2] has actions {'x', 'y'}, "
         .. "but {'l', 'r'} at its first node",
         E({player = "chance", children = {dec(1, "b", {leaf(1), leaf(2)}),
           dec(1, "b", {leaf(1), leaf(2)}, {"x", "y"})}}))
t.errors("perfect recall fails at information set 'b' "
         .. "(root.children[2]): player 1 reaches it there after 'r' at a, "
         .. "at its first node after 'l' at a",
         E(dec(1, "a", {dec(1, "b", {leaf(1), leaf(2)}),
                        dec(1, "b", {leaf(3), leaf(4)})})))
t.errors("sum to 0.90000000000000002, not 1",
         E({player = "chance", probs = {0.5, 0.4},
            children = {dec(1, "a", {leaf(1), leaf(2)}), leaf(0)}}))
t.errors("probs[2] = -0.5 at root is not a probability",
         E({player = "chance", probs = {1.5, -0.5},
            children = {dec(1, "a", {leaf(1), leaf(2)}), leaf(0)}}))
t.errors("has 1 probs for 2 children",
         E({player = "chance", probs = {1},
            children = {dec(1, "a", {leaf(1), leaf(2)}), leaf(0)}}))
t.errors("payoff = inf at root.children[2] is not finite",
         E(dec(1, "a", {leaf(1), leaf(1 / 0)})))
t.errors("at root.children[1] is not finite",
         E(dec(1, "a", {leaf(0 / 0), leaf(1)})))
t.errors("the tree has no decision of a player", E(leaf(1)))
t.errors("the chance node at root.children[2] has no children",
         E({player = "chance", children = {dec(1, "a", {leaf(1), leaf(2)}),
                                           {player = "chance",
                                            children = {}}}}))
local deep = dec(1, "a", {leaf(1), leaf(2)})
for _ = 1, 400 do deep = {player = "chance", children = {deep}} end
t.errors("the tree is deeper than 400 levels at "
         .. "root.children[1].children[1].children[1]...", E(deep))
local cyc = {player = "chance"}
cyc.children = {cyc}
t.errors("the tree is deeper than 400 levels", E(cyc))
t.errors("rm plays normal-form games; ukuhn is an extensive-form game",
         function ()
  run(ukuhn, game.rm{}, {iters = 1, progress = false, view = false}) end)
t.errors("cfr needs an extensive-form game (a game tree: problem.kuhn{} "
         .. "or problem.efg{...}); rps is not one", function ()
  run(problem.rps{}, game.cfr{}, {iters = 1, progress = false,
                                  view = false}) end)

t.done()
