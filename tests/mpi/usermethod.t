#!/bin/sh
# tests/mpi/usermethod.t -- methods written in Lua (optim.new, sample.new:
# issue 24) in bulk operations give, under mpirun -np 2 and as --tasks
# slices then --gather, the CSV files and the printout of one process,
# byte for byte (tests/mpi/usermethod.lua).  Every rank and slice runs the
# script, so each defines the methods the tasks use.  Without MPI only the
# slices run.
cd "$(dirname "$0")/../.." || exit 1
. tests/mpi/lib.sh
files="repeats.csv sweep.csv mh_1.csv mh_2.csv mh_3.csv mh_4.csv"
clean () { grep -v '^  in all: ' "$1" | grep -v ' s)$'; }
mkdir "$tmp/one" "$tmp/np2" "$tmp/gather" "$tmp/slices" "$tmp/quiet"
$OPTLAB tests/mpi/usermethod.lua "$tmp/one" >"$tmp/one.out" 2>"$tmp/one.err"
ok $? "usermethod: one process runs"
ways=gather
if [ $MPI = 1 ]; then
  $MPIRUN -np 2 $OPTLAB tests/mpi/usermethod.lua "$tmp/np2" \
    >"$tmp/np2.out" 2>"$tmp/np2.err"
  ok $? "usermethod: mpirun -np 2 runs"
  ways="np2 gather"
fi
for round in 1 2 3; do
  for k in 1 2; do
    $OPTLAB --tasks $k/2 --dir "$tmp/slices" tests/mpi/usermethod.lua \
      "$tmp/quiet" >>"$tmp/slices.out" 2>>"$tmp/slices.err" \
      || echo "slice $k/2 failed" >&2
  done
done
$OPTLAB --gather "$tmp/slices" tests/mpi/usermethod.lua "$tmp/gather" \
  >"$tmp/gather.out" 2>"$tmp/gather.err"
ok $? "usermethod: --tasks 1/2, 2/2 then --gather runs"
for way in $ways; do
  bad=""
  for f in $files; do
    [ -s "$tmp/one/$f" ] || bad="$bad $f(absent)"
    cmp -s "$tmp/one/$f" "$tmp/$way/$f" || bad="$bad $f"
  done
  ok "$([ -z "$bad" ] && echo 0 || echo 1)" "usermethod: $way: the CSV files are byte-identical to one process's${bad:+ (differ:$bad)}"
  clean "$tmp/one.out" >"$tmp/a"
  clean "$tmp/$way.out" >"$tmp/b"
  cmp -s "$tmp/a" "$tmp/b"
  ok $? "usermethod: $way: the printout is one process's (but for measured seconds)"
done
echo "1..$n"
