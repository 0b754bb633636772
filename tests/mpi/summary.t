#!/bin/sh
# tests/mpi/summary.t -- under mpirun the ranks other than 0 keep each
# task's summary, not its history, when OPTLAB_MPI_HISTORIES is rank0 or
# (auto, the default) an operation's broadcast (its results times the
# other ranks) would exceed 64 MB; all and a
# smaller operation under auto send them the whole results (issue 25).
# With rank0, tests/mpi/summary.lua's
# values (final and smallest values, x, counts, stop reasons, a sweep's
# and a race's finals, 4 NUTS chains' draws and summary) are the same on
# every rank and in one process; on the other ranks what needs a history
# is refused naming rank 0, and saves, plots and printing do nothing.
cd "$(dirname "$0")/../.." || exit 1
. tests/mpi/lib.sh
need_mpi
echo "1..17"
$OPTLAB tests/mpi/summary.lua >"$tmp/one.out" 2>"$tmp/one.err"
ok $? "one process runs"
[ ! -s "$tmp/one.err" ]; ok $? "one process: nothing on stderr"
for np in 2 3; do
  $MPIRUN -np $np -x OPTLAB_MPI_HISTORIES=rank0 $OPTLAB tests/mpi/summary.lua \
    >"$tmp/np$np.out" 2>"$tmp/np$np.err"
  ok $? "mpirun -np $np runs (OPTLAB_MPI_HISTORIES=rank0)"
done
cmp -s "$tmp/one.out" "$tmp/np3.out"
ok $? "rank 0 reads what one process reads"
# each other rank's values, its prefix taken off, are one process's
for r in 1 2; do
  sed -n "s/^rank $r: //p" "$tmp/np3.err" | head -n "$(wc -l <"$tmp/one.out")" \
    >"$tmp/r$r"
  cmp -s "$tmp/one.out" "$tmp/r$r"
  ok $? "rank $r of 3 reads the same values (summaries: finals, x, counts, draws)"
done
sed -n 's/^rank 1: //p' "$tmp/np2.err" | tail -n +"$(($(wc -l <"$tmp/one.out") + 1))" \
  >"$tmp/tries"
cat >"$tmp/want" <<'W'
run:series: refused (run:series:)
run:series: this run's history is on rank 0 (under mpirun the other ranks keep each task's summary: x, the stop reason, the counts, the last and smallest value of each metric, the draws); read it on rank 0 (if optlab.rank == 0 then ... end), or send every rank the histories (OPTLAB_MPI_HISTORIES=all)
run:traj: refused (run:traj:)
run:csv: refused (run:csv:)
run:continue: refused (run:continue:)
repeats:csv: refused (repeats:csv:)
sweep:csv: refused (sweep:csv:)
race:csv: refused (race:csv:)
race:series: refused (race:series:)
run:save: done
repeats:save: done
sweep:save: done
race:save: done
run:plot: done
repeats:plot: done
sweep:plot: done
race:plot: done
save_draws: done
sweep:plot text: done
repeats:plot text: done
tostring: done
tostring: done
tostring: done
tostring: done
tostring: done
W
cmp -s "$tmp/want" "$tmp/tries"
ok $? "rank 1: reading a history is refused naming rank 0; saves, plots and print do nothing"
[ $? = 0 ] || diff "$tmp/want" "$tmp/tries" | sed 's/^/# /'
grep -q '^rank 1: run:series: this run.s history is on rank 0 (under mpirun the other ranks keep each task.s summary: x, the stop reason, the counts, the last and smallest value of each metric, the draws); read it on rank 0 (if optlab.rank == 0 then ... end), or send every rank the histories (OPTLAB_MPI_HISTORIES=all)$' "$tmp/np2.err"
ok $? "the refusal says where the history is, what the rank holds and how to read it"
# auto (the default): a small operation sends the whole results, so a
# script that reads histories runs as in one process; one over 64 MB the
# summaries; all always the whole; an unknown value is said and is auto
h () { sed -n "s/^rank 1: //p" "$1"; }
$OPTLAB tests/mpi/histories.lua 4 100 >"$tmp/h1" 2>&1
$MPIRUN -np 2 $OPTLAB tests/mpi/histories.lua 4 100 >"$tmp/h2" 2>"$tmp/h2e"
cmp -s "$tmp/h1" "$tmp/h2" && [ "$(h "$tmp/h2e")" = "$(cat "$tmp/h1")" ]
ok $? "auto, 4 runs: rank 1 reads every history, the same sums as one process ($(cat "$tmp/h1"))"
$OPTLAB tests/mpi/histories.lua 28 100000 >"$tmp/h3" 2>&1
$MPIRUN -np 2 $OPTLAB tests/mpi/histories.lua 28 100000 >"$tmp/h4" 2>"$tmp/h4e"
cmp -s "$tmp/h3" "$tmp/h4"
ok $? "auto, 28 runs of 2.4 MB (68.6 MB): rank 0 reads every history ($(cat "$tmp/h4"))"
h "$tmp/h4e" | grep -q "^summaries: .*run:series: this run's history is on rank 0"
ok $? "auto, 28 runs of 2.4 MB: rank 1 holds summaries ($(h "$tmp/h4e"))"
$MPIRUN -np 2 -x OPTLAB_MPI_HISTORIES=all $OPTLAB tests/mpi/histories.lua 28 100000 \
  >/dev/null 2>"$tmp/h5e"
[ "$(h "$tmp/h5e")" = "$(cat "$tmp/h3")" ]
ok $? "all, 28 runs of 2.4 MB: rank 1 reads every history"
$MPIRUN -np 2 -x OPTLAB_MPI_HISTORIES=rank0 $OPTLAB tests/mpi/histories.lua 4 100 \
  >/dev/null 2>"$tmp/h6e"
h "$tmp/h6e" | grep -q "^summaries: "
ok $? "rank0, 4 runs: rank 1 holds summaries"
$MPIRUN -np 2 -x OPTLAB_MPI_HISTORIES=bogus $OPTLAB tests/mpi/histories.lua 4 100 \
  >/dev/null 2>"$tmp/h7e"
grep -q '^optlab: OPTLAB_MPI_HISTORIES=bogus is not one of all, rank0, auto; using auto$' "$tmp/h7e" &&
  [ "$(h "$tmp/h7e")" = "$(cat "$tmp/h1")" ]
ok $? "an unknown OPTLAB_MPI_HISTORIES is said, and auto used"
# auto's budget is the broadcast's bytes: 16 runs of 2.4 MB (39 MB) go
# whole to 1 other rank, but would be 78 MB to 2
$MPIRUN -np 2 $OPTLAB tests/mpi/histories.lua 16 100000 >/dev/null 2>"$tmp/h8e"
h "$tmp/h8e" | grep -q "^histories: 16 runs"
ok $? "auto, 16 runs of 2.4 MB on 2 ranks: rank 1 reads every history ($(h "$tmp/h8e"))"
$MPIRUN -np 3 $OPTLAB tests/mpi/histories.lua 16 100000 >/dev/null 2>"$tmp/h9e"
[ "$(sed -n 's/^rank [12]: //p' "$tmp/h9e" | grep -c "^summaries: .*run:series: this run's history is on rank 0")" = 2 ]
ok $? "auto, the same on 3 ranks (78 MB of broadcast): ranks 1 and 2 hold summaries"
