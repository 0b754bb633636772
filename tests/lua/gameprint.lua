-- tests/lua/gameprint.lua -- how game runs print (issue 26): a game
-- race's table has exploitability / regret columns (not loss and
-- gradnorm), each cell the run's own last value; a game run's final line
-- leaves out loss and kkt unless the run asked for them; a general-sum
-- game prints both players' values, checked against x'Ay and x'By
-- computed here from r.xavg and the payoffs; an extensive-form run (CFR+
-- on Kuhn poker) prints its average policy by named information set,
-- each probability r.xavg's to 3 decimals and on Kuhn's equilibrium
-- family (Kuhn 1950) within 0.01, and its last iterate labelled as such.
-- Deterministic: the game dynamics used draw no random numbers.
local t = dofile("tests/lib/tap.lua")

local function lines (s)
  local out = {}
  for l in (s .. "\n"):gmatch("(.-)\n") do out[#out + 1] = l end
  return out
end

-- A printed 3-significant-digit number against the value it shows.
local function shows (cell, v, desc)
  local x = tonumber(cell)
  t.ok(x ~= nil and math.abs(x - v) <= 5e-3 * math.abs(v) + 1e-300,
       desc .. ": " .. tostring(cell) .. " shows " .. tostring(v))
end

-- (1) a game race's table
local rc = race(problem.rps{}, {game.mwu{}, game.omwu{}, game.rmplus{}},
                {iters = 2000})
local L = lines(tostring(rc))
t.ok(L[2]:match("^  #  method +reason +iters +grads +time +exploitability"
                .. " +exploitability_avg +regret$"),
     "game race header: exploitability, exploitability_avg, regret: " .. L[2])
t.ok(not L[2]:find("loss") and not L[2]:find("gradnorm"),
     "game race header: no loss, no gradnorm")
for i = 1, 3 do
  local cells = {}
  for c in L[2 + i]:gmatch("%S+") do cells[#cells + 1] = c end
  local n = #cells
  shows(cells[n - 2], rc[i]:last("exploitability"),
        "race row " .. i .. " exploitability")
  shows(cells[n - 1], rc[i]:last("exploitability_avg"),
        "race row " .. i .. " exploitability_avg")
  shows(cells[n], rc[i]:last("regret"), "race row " .. i .. " regret")
end
-- an optimizer race keeps loss and gradnorm
local ro = race(problem.quadratic{n = 3}, {optim.gd{}, optim.adam{}},
                {iters = 10})
t.ok(lines(tostring(ro))[2]:match("loss +gradnorm$"),
     "an optimizer race still shows loss and gradnorm")

-- (2) the final line of a game run
local s = tostring(rc[1])
local final = s:match("\n  final:([^\n]*)")
t.ok(final and not final:find(" loss ") and not final:find(" kkt "),
     "game run, default metrics: no loss, no kkt: " .. tostring(final))
t.ok(final and final:find(" exploitability ") and final:find(" regret "),
     "game run: exploitability and regret on the final line")
local ra = run(problem.rps{}, game.mwu{}, {iters = 100,
               metrics = {"loss", "kkt", "exploitability"}})
final = tostring(ra):match("\n  final:([^\n]*)")
t.ok(final and final:find(" loss ") and final:find(" kkt "),
     "game run asking for loss and kkt prints them: " .. tostring(final))
local rw = run(problem.rps{}, game.mwu{}, {iters = 100, watch = {"kkt"}})
final = tostring(rw):match("\n  final:([^\n]*)")
t.ok(final and final:find(" kkt ") and not final:find(" loss "),
     "game run watching kkt prints kkt, not loss: " .. tostring(final))

-- (3) general-sum: both players' values at the average strategies
local function values (A, B, z, m)
  local va, vb = 0, 0
  for i = 1, m do
    for j = 1, m do
      va = va + z[i] * A[i][j] * z[m + j]
      vb = vb + z[i] * B[i][j] * z[m + j]
    end
  end
  return va, vb
end
local PA = {{3, 0}, {5, 1}}
local PB = {{3, 5}, {0, 1}}            -- the column player's: A transposed
local rp = run(problem.prisoners{}, game.mwu{}, {iters = 500})
local a, b, ea, eb = tostring(rp):match("\n  values: row x'Ay (%S+), column "
  .. "x'By (%S+) %(at the equilibrium: (%S+), (%S+)%)")
local va, vb = values(PA, PB, rp.xavg, 2)
t.ok(a ~= nil, "prisoners: both players' values printed")
shows(a, va, "prisoners: row x'Ay at the average")
shows(b, vb, "prisoners: column x'By at the average")
t.ok(tonumber(ea) == 1 and tonumber(eb) == 1,
     "prisoners: the values at (defect, defect) are 1 and 1")
t.ok(tostring(rc[1]):find("\n  value x'Ay: ") ~= nil,
     "zero-sum: one value, x'Ay, as before")

-- (4) CFR+ on Kuhn poker: the average policy, named
local k = run(problem.kuhn{}, game.cfrplus{}, {iters = 10000})
local ks = tostring(k)
local ex = ks:match("\n  average policy %(the one that converges%), "
                    .. "exploitability (%S+), value")
shows(ex, k:last("exploitability_avg"), "kuhn: the average's exploitability")
t.ok(ks:find("\n    player 1 opens: +J: bet [%d.]+ check [%d.]+   Q: ") ~= nil,
     "kuhn: print(k) names the information sets (J: bet p check 1-p)")
local where = {"player 1 opens", "player 1 after check, bet",
               "player 2 after check", "player 2 after bet"}
local act = {"bet", "call", "bet", "call"}
local got = {}
for g = 1, 4 do
  local line = ks:match("\n    " .. where[g]:gsub("%p", "%%%0")
                        .. ": +([^\n]*)")
  t.ok(line ~= nil, "kuhn: a line for " .. where[g])
  local c = 0
  for card, p, q in (line or ""):gmatch("(%a): " .. act[g]
                                        .. " ([%d.]+) %a+ ([%d.]+)") do
    c = c + 1
    local I = 3 * (g - 1) + c
    got[I] = tonumber(p)
    t.ok(card == ({"J", "Q", "K"})[c] and math.abs(got[I] - k.xavg[I])
         <= 5e-4 + 1e-12 and math.abs(tonumber(q) - (1 - k.xavg[I]))
         <= 5e-4 + 1e-12, string.format("kuhn: %s %s shows xavg[%d] = %.4f",
                                        where[g], card, I, k.xavg[I]))
  end
end
-- Kuhn's family: alpha = P(bet | J) in [0, 1/3]
local al = got[1] or -1
local fam = {al, 0, 3 * al, 0, al + 1 / 3, 1, 1 / 3, 0, 1, 0, 1 / 3, 1}
local worst = 0
for I = 1, 12 do worst = math.max(worst, math.abs((got[I] or 99) - fam[I])) end
t.ok(al >= 0 and al <= 1 / 3 + 0.01 and worst <= 0.01,
     string.format("kuhn: the printed average policy is on Kuhn's family "
                   .. "(alpha %.3f, largest deviation %.4f <= 0.01)", al,
                   worst))
local le = ks:match("\n  last iterate %(need not converge%), exploitability "
                    .. "(%S+):")
shows(le, k:last("exploitability"), "kuhn: the last iterate, labelled, "
      .. "with its exploitability")
t.ok(not ks:find("\n  x:"), "kuhn: no unlabelled x line")
t.done()
