#!/bin/sh
# tests/mpi/summary.t -- under mpirun the ranks other than 0 keep each
# task's summary, not its history (issue 25): tests/mpi/summary.lua's
# values (final and smallest values, x, counts, stop reasons, a sweep's
# and a race's finals, 4 NUTS chains' draws and summary) are the same on
# every rank and in one process; on the other ranks what needs a history
# is refused naming rank 0, and saves, plots and printing do nothing.
cd "$(dirname "$0")/../.." || exit 1
. tests/mpi/lib.sh
if [ $MPI = 0 ]; then
  echo "1..0 # SKIP optlab was built without Open MPI"
  exit 0
fi
echo "1..9"
$OPTLAB tests/mpi/summary.lua >"$tmp/one.out" 2>"$tmp/one.err"
ok $? "one process runs"
[ ! -s "$tmp/one.err" ]; ok $? "one process: nothing on stderr"
for np in 2 3; do
  $MPIRUN -np $np $OPTLAB tests/mpi/summary.lua >"$tmp/np$np.out" \
    2>"$tmp/np$np.err"
  ok $? "mpirun -np $np runs"
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
run:series: this run's history is on rank 0 (under mpirun the other ranks keep each task's summary: x, the stop reason, the counts, the last and smallest value of each metric, the draws); read it on rank 0 (if optlab.rank == 0 then ... end)
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
grep -q '^rank 1: run:series: this run.s history is on rank 0 (under mpirun the other ranks keep each task.s summary: x, the stop reason, the counts, the last and smallest value of each metric, the draws); read it on rank 0 (if optlab.rank == 0 then ... end)$' "$tmp/np2.err"
ok $? "the refusal says where the history is, what the rank holds and how to read it"
