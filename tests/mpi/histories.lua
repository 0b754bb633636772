-- tests/mpi/histories.lua -- what the ranks other than 0 get of a bulk
-- operation's results (OPTLAB_MPI_HISTORIES, issue 25): a repeats of R
-- runs of T steps recording every point of their loss (arg[1] = R,
-- arg[2] = T); every rank says whether its runs hold their history and,
-- when they do, the sum of every run's loss series to 17 digits (rank 0
-- on stdout, the others on stderr after "rank K: ").
local R, T = tonumber(arg[1]) or 4, tonumber(arg[2]) or 100
local q = repeats(problem.quadratic{noise = {kind = "gauss", sigma = 0.1}},
                  optim.gd{lr = 0.01}, {iters = T, cap = T + 2, seed = 5,
                  metrics = {"loss"}, progress = false}, R)
local ok, v = pcall(function ()
  local s = 0
  for _, r in ipairs(q.runs) do
    for _, x in ipairs((r:series("loss"))) do s = s + x end
  end
  return s
end)
local line = ok and string.format("histories: %d runs, sum %.17g", R, v)
  or ("summaries: " .. tostring(v):match("^[^(]*"))
if optlab.rank == 0 then print(line)
else io.stderr:write("rank " .. optlab.rank .. ": " .. line .. "\n") end
