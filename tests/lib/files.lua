-- tests/lib/files.lua -- the small file and shell helpers the Lua tests
-- share: local f = dofile("tests/lib/files.lua").
--   f.slurp(path)   the file's bytes, or nil when it cannot be opened
--   f.spit(path, s) writes s as the whole file
--   f.sh(cmd)       the command's standard output and its exit code
local M = {}

function M.slurp (path)
  local h = io.open(path, "rb")
  if not h then return nil end
  local s = h:read("a")
  h:close()
  return s
end

function M.spit (path, s)
  local h = assert(io.open(path, "wb"))
  h:write(s)
  h:close()
end

function M.sh (cmd)
  local h = assert(io.popen(cmd))
  local out = h:read("a")
  local ok, _, code = h:close()
  return out, ok and 0 or code
end

return M
