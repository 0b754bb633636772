-- tests/lua/oracle.lua -- what a user's grad, fdf, f and hess hand back
-- is checked before the core sees it (lua/lproblem.c): a gradient that is
-- rebound instead of filled, short, long, not numbers, or a return value
-- that is neither nil nor a table of n numbers is an error naming the
-- callback and what was expected, through run() (reason "callback error")
-- and through P:eval() (nil, message); NaN is a non-finite gradient
-- (reason "non-finite").  The same for hess=, and Newton and cubic reach
-- ||g|| <= 1e-8 on a Lua Rosenbrock with hess= (and, once second-order
-- methods fall back to a finite-difference Hessian, without it).
local t = dofile("tests/lib/tap.lua")

local function rosen (x)
  local a = x[1]
  local d, u = x[2] - a * a, 1 - a
  return 100 * d * d + u * u
end
local function rosen_grad (x, g)
  local a = x[1]
  local d = x[2] - a * a
  g[1] = -400 * a * d - 2 * (1 - a)
  g[2] = 200 * d
end
local function rosen_hess (x, H)
  local a = x[1]
  H[1][1] = 1200 * a * a - 400 * x[2] + 2
  H[1][2] = -400 * a
  H[2][1] = -400 * a
  H[2][2] = 200
end
local X0 = {-1.2, 1}
local quiet = {iters = 5, progress = false, view = false, x0 = X0}

-- run(p, gd) and p:eval(x0) must both fail with exactly msg, the run with
-- reason why.
local function fails (what, p, why, msg)
  local r = run(p, optim.gd{lr = 1e-4}, quiet)
  t.is(r.reason, why, what .. ": run stops with reason '" .. why .. "'")
  t.is(r.message, msg, what .. ": run message")
  local f, m = p:eval(X0)
  t.ok(f == nil and m == msg, what .. ": p:eval returns nil and the message")
  if not (f == nil and m == msg) then t.diag("p:eval gave " .. tostring(f)
                                             .. ", " .. tostring(m)) end
end

-- (1) grad = function (x, g) ... end, each mistake
local grads = {
  {"rebound", function (x, g) g = {2 * x[1], 2 * x[2]} end,
   "callback error", "grad: filled no entry of g and returned nil; fill "
   .. "g[1..2] in place (g[i] = ...) or return a table of 2 numbers"},
  {"nil entry", function (x, g) g[1] = 1 end,
   "callback error", "grad: g[2] is nil (expected a number)"},
  {"string entry", function (x, g) g[1] = 1; g[2] = "2" end,
   "callback error", "grad: g[2] is a string (expected a number)"},
  {"boolean entry", function (x, g) g[1] = true; g[2] = 2 end,
   "callback error", "grad: g[1] is a boolean (expected a number)"},
  {"NaN entry", function (x, g) g[1] = 0 / 0; g[2] = 1 end,
   "non-finite", "non-finite gradient"},
  {"short return", function (x) return {1} end,
   "callback error", "grad returned a table of 1 number (expected 2)"},
  {"long return", function (x) return {1, 2, 3} end,
   "callback error", "grad returned a table of 3 numbers (expected 2)"},
  {"long fill", function (x, g) g[1] = 1; g[2] = 2; g[3] = 3 end,
   "callback error", "grad: filled g[1..3] (expected g[1..2], n = 2)"},
  {"returns a number", function (x, g) rosen_grad(x, g); return 5 end,
   "callback error", "grad returned a number (expected a table of 2 numbers, "
   .. "or nil with g filled in place)"},
  {"returns a string", function (x, g) rosen_grad(x, g); return "ok" end,
   "callback error", "grad returned a string (expected a table of 2 numbers, "
   .. "or nil with g filled in place)"},
}
for _, c in ipairs(grads) do
  fails("grad " .. c[1], problem.new{n = 2, f = rosen, grad = c[2]}, c[3],
        c[4])
end

-- (2) the same mistakes in fdf (which must fill g in place)
local function fdf_with (gfill)
  return function (x, g)
    if g then gfill(x, g) end
    return rosen(x)
  end
end
local fdfs = {
  {"rebound", fdf_with(function (x, g) g = {1, 2} end),
   "callback error", "fdf: filled no entry of g; fill g[1..2] in place "
   .. "(g[i] = ...) when g is not nil"},
  {"nil entry", fdf_with(function (x, g) g[2] = 1 end),
   "callback error", "fdf: g[1] is nil (expected a number)"},
  {"string entry", fdf_with(function (x, g) g[1] = "1"; g[2] = 2 end),
   "callback error", "fdf: g[1] is a string (expected a number)"},
  {"NaN entry", fdf_with(function (x, g) g[1] = 1; g[2] = 0 / 0 end),
   "non-finite", "non-finite gradient"},
  {"long fill", fdf_with(function (x, g) for i = 1, 4 do g[i] = i end end),
   "callback error", "fdf: filled g[1..4] (expected g[1..2], n = 2)"},
  {"nil value", function (x, g) if g then rosen_grad(x, g) end end,
   "callback error", "fdf returned nil (expected a number)"},
  {"table value", function (x, g) local gg = {}; rosen_grad(x, gg)
     return gg end,
   "callback error", "fdf returned a table (expected a number)"},
}
for _, c in ipairs(fdfs) do
  fails("fdf " .. c[1], problem.new{n = 2, fdf = c[2]}, c[3], c[4])
end

-- (3) f's value
fails("f nil", problem.new{n = 2, f = function () end}, "callback error",
      "f returned nil (expected a number)")
fails("f numeric string", problem.new{n = 2, f = function () return "1" end},
      "callback error", "f returned a string (expected a number)")

-- (4) correct callbacks still work: filling g and returning it, and a
-- grad that failed once (g[3] set) is clean on the next call
do
  local p = problem.new{n = 2, f = rosen, grad = function (x, g)
    rosen_grad(x, g)
    return g
  end}
  local f, g = p:eval(X0)
  t.ok(f ~= nil and math.abs(g[1] + 215.6) < 1e-12
       and math.abs(g[2] + 88) < 1e-12,
       "grad: filling g and returning it is accepted")
  local calls = 0
  local q = problem.new{n = 2, f = rosen, grad = function (x, g)
    calls = calls + 1
    rosen_grad(x, g)
    if calls == 1 then g[3] = 0 end
  end}
  t.is(select(2, q:eval(X0)), "grad: filled g[1..3] (expected g[1..2], "
       .. "n = 2)", "grad: g[3] set on the first call is an error")
  local f2, g2 = q:eval(X0)
  t.ok(f2 ~= nil and #g2 == 2, "grad: the next call starts clean (g[3] "
       .. "cleared)")
end

-- (5) hess = function (x, H): the same checks on an n x n table of rows
local function newton_fails (what, h, why, msg)
  local p = problem.new{n = 2, f = rosen, grad = rosen_grad, hess = h,
                        x0 = X0}
  local r = run(p, optim.newton{}, quiet)
  t.is(r.reason, why, "hess " .. what .. ": newton stops with reason '"
       .. why .. "'")
  t.is(r.message, msg, "hess " .. what .. ": message")
end
local hs = {
  {"rebound", function (x, H) H = {{1, 0}, {0, 1}} end, "callback error",
   "hess: filled no entry of H and returned nil; fill H[i][j] in place "
   .. "(H[i][j] = ..., i, j = 1..2) or return a table of 2 rows of 2 "
   .. "numbers"},
  {"nil entry", function (x, H) H[1][1] = 1; H[1][2] = 0; H[2][1] = 0 end,
   "callback error", "hess: H[2][2] is nil (expected a number)"},
  {"string entry", function (x, H) rosen_hess(x, H); H[1][2] = "0" end,
   "callback error", "hess: H[1][2] is a string (expected a number)"},
  {"row not a table", function (x, H) H[2] = 5 end, "callback error",
   "hess: H[2] is a number (expected a row: a table of 2 numbers)"},
  {"short return", function (x) return {{2, 0}} end, "callback error",
   "hess returned a table of 1 row (expected 2 rows of 2 numbers)"},
  {"short row", function (x) return {{2, 0}, {0}} end, "callback error",
   "hess: H[2] has 1 entry (expected 2)"},
  {"long row", function (x, H) rosen_hess(x, H); H[1][3] = 0 end,
   "callback error", "hess: filled H[1][1..3] (expected H[1][1..2], n = 2)"},
  {"extra row", function (x, H) rosen_hess(x, H); H[3] = {0, 0} end,
   "callback error", "hess: filled rows H[1..3] (expected H[1..2], n = 2)"},
  {"returns a number", function (x, H) rosen_hess(x, H); return 1 end,
   "callback error", "hess returned a number (expected a table of 2 rows of 2 "
   .. "numbers, or nil with H filled in place)"},
  {"not symmetric", function (x, H) rosen_hess(x, H); H[2][1] = 0 end,
   "callback error", "hess: H is not symmetric: H[1][2] = 480 but H[2][1] "
   .. "= 0"},
  {"NaN entry", function (x, H) rosen_hess(x, H); H[2][2] = 0 / 0 end,
   "non-finite", "non-finite Hessian"},
}
for _, c in ipairs(hs) do newton_fails(c[1], c[2], c[3], c[4]) end

-- (6) Newton and cubic on a Lua Rosenbrock: with hess= (filled in place,
-- or returned as rows), and without (finite differences of grad)
local function hess_rows (x)
  local a = x[1]
  return {{1200 * a * a - 400 * x[2] + 2, -400 * a}, {-400 * a, 200}}
end
local conv = {iters = 200, tol = 1e-8, progress = false, view = false,
              x0 = X0}
for _, mk in ipairs{{"newton", optim.newton}, {"cubic", optim.cubic}} do
  for _, h in ipairs{{"hess= filling H", rosen_hess},
                     {"hess= returning rows", hess_rows}} do
    local p = problem.new{n = 2, f = rosen, grad = rosen_grad, hess = h[2]}
    local r = run(p, mk[2]{}, conv)
    t.ok(r:last("gradnorm") <= 1e-8 and r.iter < 200,
         string.format("%s: reaches ||g|| <= 1e-8 on a Lua rosenbrock with "
                       .. "%s (%s, %d iterations, ||g|| = %.2g)", mk[1],
                       h[1], r.reason, r.iter, r:last("gradnorm")))
    t.ok(r.nhev >= r.iter and r.nhev > 0,
         string.format("%s: r.nhev counts the Lua Hessian calls (%d for %d "
                       .. "iterations)", mk[1], r.nhev, r.iter))
  end
  local p = problem.new{n = 2, f = rosen, grad = rosen_grad}
  local okrun, r = pcall(run, p, mk[2]{}, conv)
  if not okrun then
    t.ok(false, mk[1] .. ": runs without hess= (" .. tostring(r) .. ")")
  else
    t.ok(r:last("gradnorm") <= 1e-8 and r.iter < 200,
         string.format("%s: reaches ||g|| <= 1e-8 on a Lua rosenbrock "
                       .. "without hess= (finite differences; %s, %d "
                       .. "iterations, ||g|| = %.2g)", mk[1], r.reason,
                       r.iter, r:last("gradnorm")))
    t.ok(r.ngev >= 4 * r.iter,
         string.format("%s: the 2n gradient calls of each finite-difference "
                       .. "Hessian are counted in r.ngev (%d for %d "
                       .. "iterations)", mk[1], r.ngev, r.iter))
    t.ok(r.fdhess == true and tostring(r):find("Hessians (by finite "
                                                .. "differences", 1, true),
         mk[1] .. ": r.fdhess and the summary say the Hessian was by "
         .. "finite differences")
  end
end

t.done()
