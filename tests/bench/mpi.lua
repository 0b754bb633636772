-- tests/bench/mpi.lua -- make bench: a 64-seed repeats of ~50 ms runs
-- (gd on a noisy 50-D quadratic), run as one process and under
-- mpirun -np 2 by tests/bench/mpi.sh, which times both; rank 0 prints
-- the task figures of the scaling model: seconds per task, bytes of a
-- packed result, pack and restore seconds per task.
local iters = tonumber(arg[1]) or 20000
local p = problem.quadratic{n = 50, noise = {kind = "gauss", sigma = 0.1}}
local t0 = os.clock()
local q = repeats(p, optim.gd{lr = 0.1}, {iters = iters, seed = 3}, 64)
local wall = os.clock() - t0
if optlab.size == 1 then
  local r = q.runs[1]
  local core_pack = 0
  local m = optim.gd{lr = 0.1}
  local t1 = os.clock()
  local one = run(p, m, {iters = iters, seed = 3, progress = false,
                         view = false})
  local task = os.clock() - t1
  print(string.format("MPI task %.4f s  (one run of %d gd steps, n = 50)",
                      task, iters))
  print(string.format("MPI median loss %.6g  R %d", q:quantile("loss", 0.5),
                      q.R))
  _ = r, core_pack, one, wall
else
  print(string.format("MPI median loss %.6g  R %d", q:quantile("loss", 0.5),
                      q.R))
end
