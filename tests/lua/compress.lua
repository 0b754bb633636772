-- tests/lua/compress.lua -- the compressed dist methods through the
-- binary: the table form compress = {kind = ..., ...} and its refusals,
-- dist.compress against hand values, the bits metric of a run against a
-- hand count (and xaxis = "bits"), and the numbers of the demos
-- scripts/topk_ef.lua and scripts/terngrad_var.lua.
--
-- Truth: top-2 of (3, -1, 2, 0.5) is (3, 0, 2, 0) in 2 (32 + 2) = 68
-- bits; ef14 top-1 on fedquad d = 20 with 10 clients sends 10 (32 + 5)
-- bits a round; the demos' claims with their stated margins (naive top-1
-- stalls above 0.5, EF14 at least 20x lower, EF21 below 1e-10 and in
-- fewer bits than gd to 1e-6; TernGrad's mean within 4 se per coordinate
-- and its variance s||g||_1 - ||g||^2 within 4 se, seed 3 in the script).
local t = dofile("tests/lib/tap.lua")
local SEED = 2
t.diag("seed " .. SEED)

-- (1) the table form, flattened into the method's own parameters
local m = dist.ef14{compress = {kind = "qsgd", s = 4}, lr = 0.2}
t.ok(m.compress == "qsgd" and m.s == 4 and m.lr == 0.2,
     "ef14: compress = {kind = \"qsgd\", s = 4} sets compress and s")
local m2 = dist.ef21{compress = {kind = "topk", k = 3}}
t.ok(m2.compress == "topk" and m2.k == 3, "ef21: compress = {kind = "
     .. "\"topk\", k = 3}")
t.ok(dist.ef14{compress = "terngrad", clip = 2.5}.clip == 2.5,
     "ef14: the flat form compress = \"terngrad\", clip = 2.5")
local okk, err = pcall(dist.ef14, {compress = {k = 2}})
t.ok(not okk and err:match("needs kind"), "ef14: compress = {k = 2} "
     .. "without kind raises (" .. tostring(err) .. ")")
okk, err = pcall(dist.ef14, {compress = {kind = "topk", q = 2}})
t.ok(not okk and err:match("q"), "ef14: an unknown key in compress = {...} "
     .. "raises (" .. tostring(err) .. ")")
okk, err = pcall(dist.ef14, {compress = {kind = "top2"}})
t.ok(not okk and err:match("topk"), "ef14: a bad kind raises with the "
     .. "choices (" .. tostring(err) .. ")")

-- (2) dist.compress
local c, bits = dist.compress({3, -1, 2, 0.5}, {kind = "topk", k = 2})
t.ok(#c == 4 and c[1] == 3 and c[2] == 0 and c[3] == 2 and c[4] == 0,
     "dist.compress: top-2 of (3, -1, 2, 0.5) is (3, 0, 2, 0)")
t.is(bits, 68, "dist.compress: top-2 of 4 costs 2 (32 + 2) bits")
local s1 = dist.compress({3, -1, 2, 0.5}, {kind = "ssign"})
t.ok(math.abs(s1[2] + 6.5 / 4) < 1e-15 and math.abs(s1[1] - 6.5 / 4)
     < 1e-15, "dist.compress: ssign is (||v||_1 / n) sign(v)")
local d1 = dist.compress({1, -2, 3}, {kind = "qsgd", s = 2, seed = SEED,
                                      draws = 5})
local d2 = dist.compress({1, -2, 3}, {kind = "qsgd", s = 2, seed = SEED,
                                      draws = 5})
t.ok(#d1 == 5 and #d1[1] == 3 and d1[5][3] == d2[5][3],
     "dist.compress: draws = 5 gives 5 draws, the same for the same seed")
t.ok(not pcall(dist.compress, {1, 2}, {kind = "topk", j = 1}),
     "dist.compress: an unknown key raises")

-- (3) a run's bits and rounds, and xaxis = "bits"
local p = problem.fedquad{n = 20, workers = 10, per = 5}
local r = run(p, dist.ef14{compress = {kind = "topk", k = 1}},
              {iters = 25, seed = SEED, progress = false, view = false,
               xaxis = "bits"})
t.is(r:last("bits"), 25 * 10 * 37, "ef14: bits after 25 rounds = 25 x 10 "
     .. "x 37 (recorded by default)")
t.is(r:last("rounds"), 25, "ef14: rounds = 25")
local ce = r:last("compress_err")
t.ok(ce > 0 and ce < 1, "ef14: compress_err of top-1 in (0, 1): " .. ce)

-- (4) the demos' numbers
local function script (name)
  local f = assert(io.popen("./optlab --no-tui scripts/" .. name
                            .. ".lua 2>&1"))
  local out = f:read("a")
  f:close()
  return out
end
local out = script("topk_ef")
local function row (name)
  local q, h, e, b = out:match(name:gsub("%p", "%%%0")
                               .. "%s+(%S+)%s+(%S+)%s+(%S+)%s+%S+%s+(%S+)")
  return tonumber(q), tonumber(h), tonumber(e), tonumber(b)
end
local nq, _, ne = row("naive top-1")
local _, _, fe = row("ef14 top-1")
local _, _, ee, eb = row("ef21 top-1")
local _, _, _, gb = row("gd (none)")
t.ok(ne and ne > 0.5 and ne > 0.5 * nq, string.format("topk_ef: naive top-1 "
     .. "stalls (f - f* %s at the end, %s at a quarter)", tostring(ne),
     tostring(nq)))
t.ok(fe and fe < ne / 20, "topk_ef: ef14 within 1/20 of naive's gap ("
     .. tostring(fe) .. ")")
t.ok(ee and ee < 1e-10, "topk_ef: ef21 reaches f* (" .. tostring(ee) .. ")")
t.ok(eb and gb and eb < gb, string.format("topk_ef: ef21 needs fewer bits "
     .. "than gd to 1e-6 (%s < %s)", tostring(eb), tostring(gb)))
out = script("terngrad_var")
local z = tonumber(out:match("largest coordinate z = (%S+)"))
local meas, se, th, k = out:match("measured (%S+) %+%- (%S+), s||g||_1 %- "
                                  .. "||g||%^2 = (%S+)%s+%((%S+) se%)")
t.ok(z and z <= 4, "terngrad_var: every coordinate's mean within 4 se ("
     .. tostring(z) .. ")")
t.ok(meas and math.abs(tonumber(meas) - tonumber(th)) <= 4 * tonumber(se),
     string.format("terngrad_var: variance %s within 4 se (%s) of s||g||_1 "
                   .. "- ||g||^2 = %s (%s se)", tostring(meas), tostring(se),
                   tostring(th), tostring(k)))
t.done()
