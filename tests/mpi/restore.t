#!/bin/sh
# tests/mpi/restore.t -- restoring results evaluates nothing (issue 25):
# under mpirun rank 0 restores each result another rank sent, and every
# rank each result of the broadcast, into a shell (core opts.shell) that
# neither evaluates the problem nor initialises the method; before, each
# restore evaluated f and g at x0 twice, so a 50 ms objective cost 50 ms
# a restored task.  tests/mpi/restore.lua counts the objective's calls on
# every rank: their sum is one process's.
cd "$(dirname "$0")/../.." || exit 1
. tests/mpi/lib.sh
need_mpi
echo "1..3"
$OPTLAB tests/mpi/restore.lua >"$tmp/one" 2>/dev/null
one=$(sed -n 's/^calls \([0-9]*\) .*/\1/p' "$tmp/one")
[ -n "$one" ] && [ "$one" -gt 0 ]
ok $? "one process: $one objective calls for 16 runs of 4000 steps"
for np in 2 3; do
  $MPIRUN -np $np $OPTLAB tests/mpi/restore.lua >"$tmp/np$np" 2>"$tmp/np$np.err"
  sum=$(cat "$tmp/np$np" "$tmp/np$np.err" | sed -n 's/^\(rank [0-9]*: \)\{0,1\}calls \([0-9]*\) .*/\2/p' \
    | awk '{ s += $1 } END { print s + 0 }')
  same=$(cat "$tmp/np$np" "$tmp/np$np.err" | sed -n 's/^\(rank [0-9]*: \)\{0,1\}calls [0-9]* //p' | sort -u | wc -l)
  # the other ranks ran tasks (so rank 0 restored some), and every rank
  # reads the runs one process reads
  theirs=$(sed -n 's/^rank [0-9]*: calls \([0-9]*\) .*/\1/p' "$tmp/np$np.err" \
    | awk '{ s += $1 } END { print s + 0 }')
  [ "$sum" = "$one" ] && [ "$theirs" -gt 0 ] && [ "$same" = 1 ] &&
    [ "$(sed 's/^calls [0-9]* //' "$tmp/one")" = "$(sed 's/^calls [0-9]* //' "$tmp/np$np")" ]
  ok $? "-np $np: the ranks' calls add up to one process's ($sum of $one; $theirs on the other ranks), every rank reads the same runs"
done
