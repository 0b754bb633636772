-- tests/lib/tap.lua -- a minimal TAP producer for the Lua tests.
--
-- local t = dofile("tests/lib/tap.lua")
-- t.ok(cond, desc); t.is(got, want, desc); t.near(got, want, tol, desc);
-- t.errors(pattern, f, ...); t.todo(desc, why) (a known gap: "not ok N -
-- desc # TODO why", which prove does not count as a failure); t.diag(msg);
-- t.done() prints the plan
-- ("1..N", at the end, so tests need not count) and exits non-zero when
-- a check failed.  Failures print what was wanted and what came.
local t = {}
local count, failed = 0, 0

local function report (pass, desc)
  count = count + 1
  if not pass then failed = failed + 1 end
  io.write(pass and "ok " or "not ok ", count, " - ", desc or "", "\n")
  return pass
end

-- "# ..." lines (one per line of msg).
function t.diag (msg)
  for line in (tostring(msg) .. "\n"):gmatch("(.-)\n") do
    io.write("# ", line, "\n")
  end
end

local function show (v)
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end

function t.ok (cond, desc)
  return report(not not cond, desc)
end

-- got == want (raw equality).
function t.is (got, want, desc)
  local pass = got == want
  report(pass, desc)
  if not pass then
    t.diag("     got: " .. show(got))
    t.diag("expected: " .. show(want))
  end
  return pass
end

-- |got - want| <= tol (absolute); NaN and non-numbers never pass.
function t.near (got, want, tol, desc)
  local pass = type(got) == "number" and math.abs(got - want) <= tol
  report(pass, desc)
  if not pass then
    t.diag(string.format("     got: %s\nexpected: %.17g +- %g", show(got),
                         want, tol))
  end
  return pass
end

-- f(...) raises an error whose message contains pattern (as plain text,
-- or failing that as a Lua pattern).
function t.errors (pattern, f, ...)
  local okcall, err = pcall(f, ...)
  local msg = tostring(err)
  local pass = not okcall and (msg:find(pattern, 1, true) ~= nil
    or (pcall(string.find, msg, pattern) and msg:find(pattern) ~= nil))
  report(pass, "error: " .. pattern)
  if not pass then
    t.diag(okcall and "no error was raised" or ("message: " .. msg))
  end
  return pass
end

-- A check that cannot pass yet, for the reason why (TAP TODO).
function t.todo (desc, why)
  count = count + 1
  io.write("not ok ", count, " - ", desc or "", " # TODO ", why, "\n")
end

-- Print the plan; exit status 1 when something failed.
function t.done ()
  io.write("1..", count, "\n")
  io.stdout:flush()
  if failed > 0 then os.exit(1) end
end

return t
