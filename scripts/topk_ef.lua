-- scripts/topk_ef.lua -- naive top-k compression stalls on heterogeneous
-- workers; error feedback fixes it (f - f* against the bits sent).
--
-- Claim (the seeds catalog's claim 32, after EControl, Gao et al. 2024:
-- "the naive implementation often leads to unstable convergence or even
-- exponential divergence due to the compression bias"; Richtarik,
-- Sokolov & Fatkhullin 2021 for EF21): on problem.fedquad's heterogeneous
-- clients (d = 20, 10 clients), each sending the top-1 coordinate of its
-- message (37 bits instead of 640), compressed gradient descent without
-- memory stalls at a gap that does not shrink (its fixed points are not
-- x*: at x* the clients' gradients differ, and their top coordinates do
-- not cancel); EF14's error memory brings the iterates within an O(lr)
-- neighbourhood of x* (the clients' memories keep what heterogeneity
-- leaves unsent); EF21 converges to f* at a constant step, and needs fewer
-- bits for f - f* <= 1e-6 than uncompressed gradient descent.
--
-- Usage: optlab scripts/topk_ef.lua [rounds]   (default 4000)
-- Run it in the terminal for the live race against the bits sent.
local rounds = tonumber(arg and arg[1]) or 4000
local seed = 1        -- fedquad's component centres; the runs draw nothing
local p = problem.fedquad{n = 20, workers = 10, per = 5, heterogeneity = 1,
                          cond = 10, seed = seed}
local methods = {
  dist.ef14{lr = 0.05, compress = {kind = "topk", k = 1}, feedback = false},
  dist.ef14{lr = 0.05, compress = {kind = "topk", k = 1}},
  dist.ef21{lr = 0.5, compress = {kind = "topk", k = 1}},
  dist.ef14{lr = 0.5, compress = "none"},
}
local names = {"naive top-1", "ef14 top-1", "ef21 top-1", "gd (none)"}
lesson.claim(string.format("top-1 compression without memory stalls on "
                    .. "heterogeneous clients; EF14's memory shrinks the "
                    .. "gap by 20x or more, EF21 reaches f* and uses fewer "
                    .. "bits than uncompressed gd (%d rounds)", rounds))
local rc = race(p, methods, {iters = rounds, seed = seed, xaxis = "bits",
                             metrics = {"subopt", "bits", "compress_err"},
                             watch = {"subopt"}, progress = false})

-- f - f* at the first record with round >= t; bits at the first record
-- with f - f* <= eps (inf when never)
local function at (r, t)
  local v, ts = r:series("subopt")
  for i = 1, #ts do if ts[i] >= t then return v[i] end end
  return v[#v]
end
local function bits_to (r, eps)
  local v = r:series("subopt")
  local b = r:series("bits")
  for i = 1, #v do if v[i] <= eps then return b[i] end end
  return math.huge
end

print(string.format("%-12s %11s %11s %11s %12s %13s", "method", "f-f* 1/4",
                    "f-f* 1/2", "f-f* end", "bits/round", "bits to 1e-6"))
local res = {}
for i, r in ipairs(rc) do
  local q, h, e = at(r, rounds / 4), at(r, rounds / 2), r:last("subopt")
  res[i] = {q = q, h = h, e = e, b = bits_to(r, 1e-6)}
  print(string.format("%-12s %11.3e %11.3e %11.3e %12d %13.4g", names[i], q,
                      h, e, math.floor(r:last("bits") / rounds + 0.5),
                      res[i].b))
end
local naive, ef14, ef21, gd = res[1], res[2], res[3], res[4]
local stalls = naive.e > 0.5 and naive.e > 0.5 * naive.q
local ok = stalls and ef14.e < naive.e / 20 and ef21.e < 1e-10
  and ef21.b < gd.b
lesson.verdict(string.format("%s (naive f-f* %.3g at the end, %.3g at a "
                    .. "quarter; ef14 %.3g; ef21 %.3g; bits to 1e-6: ef21 "
                    .. "%.4g, gd %.4g; fedquad seed %d)",
                    ok and "holds" or "does not hold", naive.e, naive.q,
                    ef14.e, ef21.e, ef21.b, gd.b, seed))
