-- tests/mpi/bulk.lua -- the bulk operations of tests/mpi/bulk.t: writes
-- into the directory arg[1] the CSV of a 64-seed repeats, of a 16-point
-- sweep (one configuration out of range: a task that raises) and of a
-- 4-chain NUTS run (its draws, CmdStan's layout, and chain 1's history)
-- and of a race,
-- and prints the objects; the .t file runs it in one process, under
-- mpirun -np 2 and -np 3 and as --tasks slices then --gather, and
-- compares.  Short runs: this is a correctness test.  Seed 16.
local dir = assert(arg[1], "usage: bulk.lua DIR")
local SEED = 16
local p = problem.quadratic{noise = {kind = "gauss", sigma = 0.1}}
local q = repeats(p, optim.adam{lr = 0.05}, {iters = 200, seed = SEED}, 64)
q:save(dir .. "/repeats.csv")
print(q)
local lrs = {}
for k = 1, 15 do lrs[k] = 0.1 * k end
lrs[16] = -1                          -- out of range: task 16 raises
local s = sweep(p, optim.gd, {lr = lrs}, {iters = 100, seed = SEED})
s:save(dir .. "/sweep.csv")
print(s)
local c = run(problem.gauss2d{}, sample.nuts{}, {iters = 300, warmup = 200,
              chains = 4, seed = SEED, progress = false})
c:save_draws(dir .. "/nuts.csv")
c[1]:save(dir .. "/nuts_chain1.csv")
print(c:summary()[1].mean, c:summary()[2].mean)
-- a race of three methods (one noisy, whose run draws from its stream),
-- each run a task; adam's lr envelope is a metric the others lack
local rc = race(p, {optim.gd{lr = 0.2}, optim.momentum{lr = 0.1, mu = 0.9},
                    optim.adam{lr = 0.05}},
                {iters = 150, seed = SEED, progress = false,
                 watch = {"loss", "gradnorm"}})
rc:save(dir .. "/race.csv")
for i = 1, #rc do
  print(i, rc[i].reason, rc[i].iter, string.format("%.17g", rc[i]:last("loss")))
end
print("rank", optlab.rank, "size", optlab.size)
