-- tests/mpi/die.lua -- tests/mpi/bulk.t's dead rank: under mpirun, rank 1
-- kills itself (SIGKILL) in the first task it runs, 1000 evaluations of
-- f in; the repeats goes on without it, the tasks it held are reported
-- missing, and a later sweep runs on the ranks left.  arg[1]: the
-- directory for the CSV.
local dir = arg[1]
local die, calls = optlab.rank == 1, 0
local p = problem.new{n = 2, ad = false, noise = {sigma = 0.1},
  f = function (x)
    calls = calls + 1
    if die and calls > 1000 then
      local pid = io.open("/proc/self/stat"):read("n")
      os.execute("kill -9 " .. math.tointeger(pid))
    end
    return (x[1] - 1)^2 + 10 * (x[2] - x[1]^2)^2
  end, x0 = {-1, 1}}
local q = repeats(p, optim.gd{lr = 0.01}, {iters = 10000, seed = 3}, 64)
print(string.format("repeats R %d", q.R))
for _, m in ipairs(q.missing or {}) do
  print(string.format("missing %d: %s", m.task, m.error))
end
q:save(dir .. "/die_repeats.csv")
local s = sweep(problem.quadratic{n = 5}, optim.gd, {lr = {0.1, 0.2, 0.3, 0.4}},
                {iters = 200})
print(string.format("sweep %d runs", #s.runs))
