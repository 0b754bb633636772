-- tests/lua/mixflow.lua -- vi.mixflow through the binary: its parameters
-- and their errors, its metrics and results against closed forms, a
-- trajectory that runs off, and the demo scripts/mixflow_n.lua at two more
-- seeds (tests/lua/scripts.lua runs it at its default seed 1).
--
-- Truth:
--   - N = 1: q_N is the reference N(x0, sd0^2) x m x U[0, 1), so kl =
--     KL(N(x0, sd0^2 I) || N(mu, Sigma)) in closed form and r.mean = x0,
--     each within 4 of its MC error (elbo_se, r.mean_se), on
--     problem.gaussian{n = 1} (mu = 0, Sigma = 1, x0 = 1) and gauss2d
--     (rho = 0.5: P by hand), both momentum laws;
--   - elbo + kl = log Z (the same numbers: kl is log Z - elbo);
--   - a non-Gaussian target (banana): kl is NaN, elbo finite;
--   - r:samples() has evals rows of n;
--   - misuse raises naming the range, the choices or the valid keys; a
--     step size far too large raises (at the first trajectory) naming
--     eps.
local t = dofile("tests/lib/tap.lua")
local abs, log = math.abs, math.log
local SEED = 20261206
t.diag("seed " .. SEED)

-- (1) N = 1: the reference itself
do
  for _, mom in ipairs{"laplace", "normal"} do
    local r = run(problem.gaussian{n = 1},
                  vi.mixflow{N = 1, sd0 = 0.5, evals = 500, momentum = mom},
                  {iters = 3, seed = SEED, progress = false})
    local want = 0.5 * (0.25 + 1 - 1 - log(0.25))
    local kl, se = r:last("kl"), r:last("elbo_se")
    t.ok(abs(kl - want) <= 4 * se, string.format("mixflow: N = 1 (%s): kl "
         .. "%.4f = KL(q_0 || p) %.4f within 4 se (%.4f)", mom, kl, want, se))
    t.ok(abs(r.mean[1] - 1) <= 4 * r.mean_se[1], string.format("mixflow: N "
         .. "= 1: r.mean %.4f = x0 = 1 within 4 se (%.4f)", r.mean[1],
         r.mean_se[1]))
    local lz = 0.5 * log(2 * math.pi)
    t.near(r:last("elbo") + kl, lz, 1e-12, "mixflow: elbo + kl = log Z")
  end
  -- gauss2d{rho = 0.5}: mu = (1, -1), s = (1, 0.5), x0 = (0, 0)
  local rho, s1, s2 = 0.5, 1, 0.5
  local det = s1 * s1 * s2 * s2 * (1 - rho * rho)
  local P = {{s2 * s2 / det, -rho * s1 * s2 / det},
             {-rho * s1 * s2 / det, s1 * s1 / det}}
  local sd0 = 0.6
  local d = {0 - 1, 0 + 1}
  local quad = 0
  for i = 1, 2 do for j = 1, 2 do quad = quad + d[i] * P[i][j] * d[j] end end
  local want = 0.5 * (sd0 * sd0 * (P[1][1] + P[2][2]) + quad - 2 + log(det)
                      - 2 * log(sd0 * sd0))
  local r = run(problem.gauss2d{rho = rho}, vi.mixflow{N = 1, sd0 = sd0,
                                                        evals = 500},
                {iters = 3, seed = SEED, progress = false})
  local kl, se = r:last("kl"), r:last("elbo_se")
  t.ok(abs(kl - want) <= 4 * se, string.format("mixflow: N = 1 on gauss2d: "
       .. "kl %.4f = KL(q_0 || p) %.4f within 4 se (%.4f)", kl, want, se))
  local z = r:samples()
  t.ok(#z == 500 and #z[1] == 2, "mixflow: r:samples() has evals rows of n")
end

-- (2) a non-Gaussian target: no kl
do
  local r = run(problem.banana{}, vi.mixflow{N = 10}, {iters = 2, seed = SEED,
                                                       progress = false})
  t.ok(r:last("kl") ~= r:last("kl") and r:last("elbo") == r:last("elbo"),
       "mixflow: banana: kl NaN (no known log Z), elbo finite")
  t.ok(tostring(r):find("q: mean", 1, true) ~= nil,
       "mixflow: print(r) shows q's mean")
end

-- (3) misuse and a step size far too large
do
  t.errors("out of range %[1, 100000%]", vi.mixflow, {N = 0})
  t.errors("not one of laplace|normal", vi.mixflow, {momentum = "cauchy"})
  t.errors("valid: N, eps, L, momentum, refresh, xi, sd0, evals",
           vi.mixflow, {steps = 3})
  t.errors("eps = 50 %(L = 10%) is too large", run, problem.gaussian{n = 2},
           vi.mixflow{eps = 50, momentum = "normal"},
           {iters = 3, progress = false})
end

-- (4) the demo at seeds 2 and 3 (seed 1: tests/lua/scripts.lua)
for _, seed in ipairs{2, 3} do
  local f = assert(io.popen("OPTLAB_PROGRESS_SECONDS=0 ./optlab --no-tui "
                            .. "scripts/mixflow_n.lua " .. seed .. " 2>&1"))
  local out = f:read("a")
  f:close()
  local v = out:match("verdict: [^\n]*") or "(no verdict)"
  t.ok(v:match("^verdict: holds") ~= nil, "mixflow: scripts/mixflow_n.lua "
       .. "holds at seed " .. seed .. " (" .. v .. ")")
  if not v:match("^verdict: holds") then t.diag(out) end
end

-- a logp that fails at the start: the run stops with "callback error",
-- and printing it or reading its q (never made) neither crashes nor
-- reads memory it does not have (the fuzzer: print segfaulted, reading
-- mean_se's numbers through a NULL pointer)
do
  local r = run(problem.density{n = 1, ad = false, logp = function (x)
    return x[3] ^ 2 end}, vi.mixflow{N = 1},
    {iters = 10, seed = 2, progress = false})
  t.is(r.reason, "callback error", "mixflow: a logp that fails stops the "
       .. "run with its reason")
  local ok, s = pcall(tostring, r)
  t.ok(ok and s:find("stopped: callback error", 1, true) ~= nil
       and not s:find("q: mean", 1, true),
       "mixflow: such a run prints, without a q")
  t.ok(r.mean == nil and r.mean_se == nil, "mixflow: its q's fields "
       .. "(mean, mean_se) are nil")
end

t.done()
