-- tests/bench/mpi.lua -- make bench: a 64-seed repeats of ~50 ms runs
-- (gd on a noisy 50-D quadratic), run as one process and under
-- mpirun -np 2 by tests/bench/mpi.sh, which times both; rank 0 prints
-- the wall seconds of the repeats call itself ("MPI repeats wall", the
-- process start-up left out) and, in one process, the seconds of one
-- task for the scaling model.
local iters = tonumber(arg[1]) or 20000
local p = problem.quadratic{n = 50, noise = {kind = "gauss", sigma = 0.1}}
local t0 = optlab.now()
local q = repeats(p, optim.gd{lr = 0.1}, {iters = iters, seed = 3}, 64)
local wall = optlab.now() - t0
print(string.format("MPI repeats wall %.4f s on %d rank%s", wall,
                    optlab.size, optlab.size > 1 and "s" or ""))
if optlab.size == 1 then
  local r = q.runs[1]
  local m = optim.gd{lr = 0.1}
  local t1 = optlab.now()
  local one = run(p, m, {iters = iters, seed = 3, progress = false,
                         view = false})
  local task = optlab.now() - t1
  print(string.format("MPI task %.4f s  (one run of %d gd steps, n = 50)",
                      task, iters))
  print(string.format("MPI median loss %.6g  R %d", q:quantile("loss", 0.5),
                      q.R))
  -- the bytes of one task each way: its packed results to rank 0, its
  -- summary back to every rank (the library's own packers, found in the
  -- registry as tests/lua/fuzzgrammar.lua finds them)
  for _, v in pairs(debug.getregistry()) do
    if type(v) == "table" and type(rawget(v, "task_pack")) == "function" then
      print(string.format("MPI bytes per task %d to rank 0, %d back",
                          #v.task_pack(r), #v.task_pack(r, true)))
    end
  end
  _ = r, one
else
  print(string.format("MPI median loss %.6g  R %d", q:quantile("loss", 0.5),
                      q.R))
end
