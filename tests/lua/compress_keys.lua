-- tests/lua/compress_keys.lua -- dist.compress's option keys and its
-- messages about them (found by the fuzzer, issue 22): its unknown-key
-- error listed "compress" as valid, which it then refused as unknown, and
-- never listed "kind", the key its help documents.  Now "kind" is the
-- key, the methods' "compress" is accepted as the same, and the messages
-- name "kind".  Deterministic: topk and sign draw nothing.
local t = dofile("tests/lib/tap.lua")

local c, bits = dist.compress({3, -1, 2, 0.5}, {kind = "topk", k = 2})
t.ok(c[1] == 3 and c[2] == 0 and c[3] == 2 and c[4] == 0 and bits == 68,
     "kind = \"topk\", k = 2: (3, 0, 2, 0) in 68 bits")

local ok, c2, bits2 = pcall(dist.compress, {3, -1, 2, 0.5},
                            {compress = "topk", k = 2})
t.ok(ok and c2[1] == 3 and c2[2] == 0 and c2[3] == 2 and c2[4] == 0
     and bits2 == 68, "compress = \"topk\" (the methods' key) does the "
     .. "same (" .. tostring(ok and "" or c2) .. ")")

local ok3, err = pcall(dist.compress, {1, 2}, {bogus = 1})
t.ok(not ok3 and err:match("unknown parameter 'bogus'")
     and err:match("valid: kind, k, s, clip, seed, draws"),
     "an unknown key names the valid ones, kind first (" .. tostring(err)
     .. ")")

local ok4, err4 = pcall(dist.compress, {1, 2}, {kind = "top2"})
t.ok(not ok4 and err4:match("kind = 'top2'") and err4:match("topk"),
     "a bad kind is named as kind, with the choices (" .. tostring(err4)
     .. ")")

local s1 = dist.compress({3, -1, 2, 0.5}, {compress = "sign"})
t.ok(s1[1] == 1 and s1[2] == -1 and s1[3] == 1 and s1[4] == 1,
     "compress = \"sign\": the signs (1, -1, 1, 1)")
t.done()
