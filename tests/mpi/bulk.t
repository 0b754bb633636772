#!/bin/sh
# tests/mpi/bulk.t -- bulk operations over Open MPI ranks and scheduler
# slices give what one process gives, byte for byte (issue 16): the CSV
# files and the printout of tests/mpi/bulk.lua (a 64-seed repeats, a
# 16-point sweep with one task that raises, a 4-chain NUTS run) from one
# process, mpirun -np 2, mpirun -np 3 and --tasks 1/3..3/3 then --gather.
# Without MPI the one-process and slice/gather cases still run.
cd "$(dirname "$0")/../.." || exit 1
. tests/mpi/lib.sh
files="repeats.csv sweep.csv nuts_1.csv nuts_2.csv nuts_3.csv nuts_4.csv nuts_chain1.csv race.csv"
# the run's seconds and the chains' total time are measured: left out
clean () { grep -v '^  in all: ' "$1"; }
unprogress () { grep -vE '^optlab: .*: [0-9]+/[0-9]+ tasks( on [0-9]+ ranks)?, [0-9.]+ s' "$1"; }

mkdir "$tmp/one" "$tmp/np2" "$tmp/np3" "$tmp/gather" "$tmp/slices" "$tmp/quiet"
$OPTLAB tests/mpi/bulk.lua "$tmp/one" >"$tmp/one.out" 2>"$tmp/one.err"
ok $? "one process runs"
ways=gather
[ $MPI = 1 ] && ways="np2 np3 gather"
for np in 2 3; do
  [ $MPI = 1 ] || break
  $MPIRUN -np $np $OPTLAB tests/mpi/bulk.lua "$tmp/np$np" \
    >"$tmp/np$np.out" 2>"$tmp/np$np.err"
  ok $? "mpirun -np $np runs"
done
# three slices, run until every bulk operation's tasks are in the
# directory (one round per operation: 4), then the gathering run
for round in 1 2 3 4; do
  for k in 1 2 3; do
    $OPTLAB --tasks $k/3 --dir "$tmp/slices" tests/mpi/bulk.lua "$tmp/quiet" \
      >>"$tmp/slices.out" 2>>"$tmp/slices.err" || echo "slice $k/3 failed" >&2
  done
done
$OPTLAB --gather "$tmp/slices" tests/mpi/bulk.lua "$tmp/gather" \
  >"$tmp/gather.out" 2>"$tmp/gather.err"
ok $? "--tasks 1/3..3/3 then --gather runs"
for way in $ways; do
  bad=""
  for f in $files; do cmp -s "$tmp/one/$f" "$tmp/$way/$f" || bad="$bad $f"; done
  ok "$([ -z "$bad" ] && echo 0 || echo 1)" "$way: the 8 CSV files are byte-identical to one process's${bad:+ (differ:$bad)}"
  clean "$tmp/one.out" | sed 's/size	1$/size/' >"$tmp/a"
  clean "$tmp/$way.out" | sed 's/size	[0-9]*$/size/' >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b"
  ok $? "$way: the printout is the one process's (but for measured seconds)"
  # progress lines (an operation running over 2 s) left out
  unprogress "$tmp/one.err" >"$tmp/err1"
  unprogress "$tmp/$way.err" >"$tmp/err"
  cmp -s "$tmp/err1" "$tmp/err"
  ok $? "$way: stderr is the one process's (the failed task reported once)"
done
last=gather
[ $MPI = 1 ] && last=np3
grep -q '^  missing: configuration 16 (lr = -1): optim.gd: lr = -1 is out of range' "$tmp/$last.out"
ok $? "$last: the task that raised is named with its index and configuration"
c=$(grep -c '^  [0-9]* *[0-9.]*  budget' "$tmp/$last.out")
[ "$c" = 15 ]; ok $? "$last: the 15 other configurations are kept ($c rows)"
# the slices wrote nothing and printed nothing but where they stopped
[ -z "$(ls "$tmp/quiet")" ] && [ ! -s "$tmp/slices.out" ]
ok $? "the slices wrote none of the script's files and printed nothing"
grep -q 'the script goes on once every slice has run' "$tmp/slices.err"
ok $? "a slice stops at the first operation still missing tasks, and says so"
# a demo with repeats (its claim, numbers and verdict) prints the same
# under mpirun -np 2 as in one process (stdout; stderr may hold rank 0's
# progress lines when it runs long, as under make sanitize)
if [ $MPI = 1 ]; then
  $OPTLAB scripts/heavytail.lua >"$tmp/demo1" 2>"$tmp/demo1.err"
  $MPIRUN -np 2 $OPTLAB scripts/heavytail.lua >"$tmp/demo2" 2>"$tmp/demo2.err"
  grep -q '^verdict: ' "$tmp/demo1" && cmp -s "$tmp/demo1" "$tmp/demo2"
  ok $? "scripts/heavytail.lua (repeats over seeds): mpirun -np 2 prints what one process prints"
  # one task a message (OPTLAB_MPI_CHUNK=1) on 3 ranks: the same again
  $MPIRUN -np 3 -x OPTLAB_MPI_CHUNK=1 $OPTLAB scripts/heavytail.lua \
    >"$tmp/demo3" 2>"$tmp/demo3.err"
  cmp -s "$tmp/demo1" "$tmp/demo3"
  ok $? "scripts/heavytail.lua: OPTLAB_MPI_CHUNK=1 on 3 ranks prints what one process prints"
  # a rank that dies (tests/mpi/die.lua: rank 1 kills itself in its first
  # task) under mpirun's recovery option: the tasks it held are named,
  # the others kept, and the script goes on on the ranks left
  mkdir "$tmp/die1" "$tmp/die3"
  $OPTLAB tests/mpi/die.lua "$tmp/die1" >"$tmp/die1.out" 2>"$tmp/die1.err"
  $MPIRUN --mca orte_enable_recovery 1 -np 3 $OPTLAB tests/mpi/die.lua \
    "$tmp/die3" >"$tmp/die3.out" 2>"$tmp/die3.err"
  ok $? "dead rank: the job ends with status 0"
  dead=$(grep -c '^missing [0-9]*: rank 1 died while running it (pid [0-9]*)$' "$tmp/die3.out")
  # it held at most its two chunks, each at most a 4 x 3-th of what was
  # left (lua/ltask.c, srv_give): 5 + 4 of the 64
  [ "$dead" -ge 1 ] && [ "$dead" -le 9 ] && grep -q "^repeats R $((64 - dead))$" "$tmp/die3.out"
  ok $? "dead rank: the $dead task(s) it held (at most its 2 chunks, 9) are missing, naming it; the $((64 - dead)) others kept"
  grep -Eq '^optlab: repeats: task [0-9]+ of 64 \(seed 3, stream [0-9]+\) failed: rank 1 died' "$tmp/die3.err"
  ok $? "dead rank: stderr names each task with its seed and stream"
  # the rows of the runs kept are one process's rows of those streams
  # (the run column, renumbered, left out)
  cut -d, -f2- "$tmp/die1/die_repeats.csv" | sort >"$tmp/a"
  cut -d, -f2- "$tmp/die3/die_repeats.csv" | sort >"$tmp/b"
  streams=$(cut -d, -f1 "$tmp/b" | grep "^[0-9]" | sort -u | wc -l)
  [ "$streams" = $((64 - dead)) ] && [ -z "$(comm -13 "$tmp/a" "$tmp/b")" ]
  ok $? "dead rank: the CSV of the $streams runs kept is one process's, row for row"
  grep -q '^sweep 4 runs$' "$tmp/die3.out"
  ok $? "dead rank: a later sweep runs on the ranks left"
else
  echo "# optlab built without Open MPI (libopenmpi-dev): the mpirun cases skipped"
fi
echo "1..$n"
