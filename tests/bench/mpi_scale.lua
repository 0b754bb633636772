-- tests/bench/mpi_scale.lua -- make bench, issue 25: what the MPI route
-- costs per task when tasks are many, run by tests/bench/mpi_scale.sh.
--
--   optlab tests/bench/mpi_scale.lua wait N
--     N tasks (a repeats) that each wait 50 ms (optlab.sleep: no core
--     used, so 32 ranks oversubscribed on 2 cores stand for 32 machines)
--     and return a ~100 KB history (1000 recorded points of the loss and
--     8 coordinates of x); rank 0 prints the repeats call's wall seconds
--     and the efficiency, (N x 50 ms / ranks) / wall: the share of the
--     wall time the ranks spent on the tasks' own work.
--   optlab tests/bench/mpi_scale.lua tiny N
--     N tiny tasks (10 gd steps on a 2-D quadratic); every rank prints
--     the call's wall seconds and its peak resident memory (VmHWM), the
--     memory per rank the protocol leaves: rank 0 keeps every history,
--     the others each task's summary.
local what, N = arg[1] or "wait", math.tointeger(tonumber(arg[2])) or 2000

local function hwm ()
  local f = io.open("/proc/self/status")
  if not f then return 0 end
  local s = f:read("a")
  f:close()
  return (tonumber(s:match("VmHWM:%s*(%d+)")) or 0) / 1024
end

local q, wall
if what == "wait" then
  local n = 8
  local x0 = {}
  for i = 1, n do x0[i] = 1 end
  -- the wait comes at the first gradient, at x0 (no other iterate has
  -- x[1] = 1): once per task, never when rank 0 restores a result
  local p = problem.new{n = n, x0 = x0,
    f = function (x)
      local s = 0
      for i = 1, #x do s = s + x[i] * x[i] end
      return 0.5 * s
    end,
    grad = function (x, g)
      if x[1] == 1 then optlab.sleep(0.05) end
      for i = 1, #x do g[i] = x[i] end
    end}
  local t0 = optlab.now()
  q = repeats(p, optim.gd{lr = 1e-4}, {iters = 1000, seed = 3,
              metrics = {"loss"}, record_x = true, progress = false}, N)
  wall = optlab.now() - t0
  if optlab.rank == 0 then
    local ideal = N * 0.05 / optlab.size
    print(string.format("MPISCALE wait %d tasks on %d ranks: wall %.3f s, "
                        .. "ideal %.3f s, efficiency %.3f", N, optlab.size,
                        wall, ideal, ideal / wall))
  end
else
  local t0 = optlab.now()
  q = repeats(problem.quadratic{n = 2}, optim.gd{lr = 0.1},
              {iters = 10, seed = 3, progress = false}, N)
  wall = optlab.now() - t0
  io.stderr:write(string.format("MPISCALE tiny %d tasks, rank %d of %d: "
                                .. "wall %.2f s, peak RSS %.1f MB, median "
                                .. "loss %.6g\n", N, optlab.rank,
                                optlab.size, wall, hwm(),
                                q:quantile("loss", 0.5)))
end
