-- tests/mpi/restore.lua -- what restoring the other ranks' results costs
-- in objective calls (tests/mpi/restore.t): a repeats of 16 gd runs of 4000 steps on a
-- Lua problem that counts its calls; each rank says how many calls it
-- made during the repeats (rank 0 on stdout, the others on stderr after
-- "rank K: ").  Rank 0 restores the others' results, every rank the
-- broadcast's: into shells, which evaluate nothing, so the calls of all
-- ranks add up to one process's.  arg[1]: "whole" to make the repeats'
-- runs continue afterwards (a shell is made whole then, once).
local p, calls = dofile("tests/lib/counted.lua")
local q = repeats(p, optim.gd{lr = 1e-3}, {iters = 4000, seed = 2,
                  progress = false}, 16)
local line = string.format("calls %d runs %d median %.17g", calls(), q.R,
                           q:quantile("loss", 0.5))
if optlab.rank == 0 then print(line)
else io.stderr:write("rank " .. optlab.rank .. ": " .. line .. "\n") end
