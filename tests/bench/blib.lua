-- tests/bench/blib.lua -- what the Lua benchmarks share: medians and
-- timings on the process's CPU clock (os.clock), one side and the other
-- interleaved so that both meet the same machine state.
local B = {}

function B.median (t)
  local s = {}
  for i = 1, #t do s[i] = t[i] end
  table.sort(s)
  local m = #s
  return m % 2 == 1 and s[(m + 1) // 2] or 0.5 * (s[m // 2] + s[m // 2 + 1])
end

function B.min (t)
  local m = math.huge
  for i = 1, #t do if t[i] < m then m = t[i] end end
  return m
end

-- seconds of fn(), one call
function B.time (fn)
  local t0 = os.clock()
  fn()
  return os.clock() - t0
end

-- median seconds of fn() over reps calls
function B.timed (fn, reps)
  local ts = {}
  for i = 1, reps do ts[i] = B.time(fn) end
  return B.median(ts)
end

-- reps pairs of (a, b) timed one after the other: the lists of seconds
-- of each and of the ratios b / a
function B.pairs (a, b, reps)
  local ta, tb, r = {}, {}, {}
  for i = 1, reps do
    ta[i] = B.time(a)
    tb[i] = B.time(b)
    r[i] = tb[i] / ta[i]
  end
  return ta, tb, r
end

return B
