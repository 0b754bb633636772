-- tests/lib/counted.lua -- 2-D Rosenbrock from (-1.2, 1) as a Lua
-- problem (not traced) that counts its objective calls, for tests of
-- what evaluates the problem and what does not (tests/lua/shell.lua,
-- tests/mpi/restore.lua).  Returns the problem and a function giving
-- the calls so far (f and g each count one).
local calls = 0
local p = problem.new{n = 2, ad = false, x0 = {-1.2, 1},
  f = function (x)
    calls = calls + 1
    return 100 * (x[2] - x[1] ^ 2) ^ 2 + (1 - x[1]) ^ 2
  end,
  grad = function (x, g)
    calls = calls + 1
    g[1] = -400 * x[1] * (x[2] - x[1] ^ 2) - 2 * (1 - x[1])
    g[2] = 200 * (x[2] - x[1] ^ 2)
  end}
return p, function () return calls end
