#!/bin/sh
# tests/bench/mpi.sh -- make bench, issue 16: the 2-rank speedup of a
# 64-seed repeats of ~50 ms runs (tests/bench/mpi.lua), the bytes and
# messages per task (the packed results to rank 0, the summary back), and a model of the efficiency at 100 and 1000 ranks
# for 10^5 tasks.  Skipped when optlab is built without Open MPI.
cd "$(dirname "$0")/../.." || exit 1
if [ "$(./optlab -e 'io.write(tostring(optlab.mpi))')" != true ]; then
  echo "MPI skipped: optlab built without Open MPI (libopenmpi-dev)"
  exit 0
fi
MPIRUN="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
iters=${1:-25000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now () { date +%s.%N; }
# three interleaved pairs, the fastest of each kept: this machine's other
# load only ever adds time
best=""
for k in 1 2 3; do
  t0=$(now); ./optlab tests/bench/mpi.lua $iters >"$tmp/one$k"; t1=$(now)
  $MPIRUN -np 2 ./optlab tests/bench/mpi.lua $iters >"$tmp/two$k"; t2=$(now)
  $MPIRUN -np 2 -x OPTLAB_MPI_HISTORIES=rank0 ./optlab tests/bench/mpi.lua \
    $iters >"$tmp/sum$k"
  echo "$k $(echo "$t1 - $t0" | bc) $(echo "$t2 - $t1" | bc)" >>"$tmp/walls"
done
w () { sed -n "s/^MPI repeats wall \([0-9.]*\) s.*/\1/p" "$1"; }
k1=1; k2=1; k3=1
for k in 2 3; do
  [ "$(echo "$(w "$tmp/one$k") < $(w "$tmp/one$k1")" | bc)" = 1 ] && k1=$k
  [ "$(echo "$(w "$tmp/two$k") < $(w "$tmp/two$k2")" | bc)" = 1 ] && k2=$k
  [ "$(echo "$(w "$tmp/sum$k") < $(w "$tmp/sum$k3")" | bc)" = 1 ] && k3=$k
done
w3=$(w "$tmp/sum$k3")
cp "$tmp/one$k1" "$tmp/one"; cp "$tmp/two$k2" "$tmp/two"
t0=0; t1=$(sort -k2 -n "$tmp/walls" | head -1 | cut -d' ' -f2)
t2=$(echo "$t1 + $(sort -k3 -n "$tmp/walls" | head -1 | cut -d' ' -f3)" | bc)
cat "$tmp/one" "$tmp/two"
w2=$(sed -n 's/^MPI repeats wall \([0-9.]*\) s on 2 ranks$/\1/p' "$tmp/two")
m2=$(grep '^MPI median' "$tmp/two")
awk -v a="$t0" -v b="$t1" -v c="$t2" -v w2="$w2" -v w3="$w3" -v m2="$m2" '
  /^MPI task/ { t = $3 }
  /^MPI repeats wall/ { w1 = $4 }
  /^MPI median/ { m1 = $0 }
  /^MPI bytes per task/ { up = $5; back = $9 }
  END {
    one = b - a; two = c - b
    printf "MPI repeats of 64 runs (fastest of 3 each): the repeats call %.2f s in one process, %.2f s on mpirun -np 2: speedup %.2fx (target >= 1.9x, issue 25); %s\n", w1, w2, w1 / w2, m1 == m2 ? "same median loss" : "MEDIANS DIFFER"
    printf "MPI the same with OPTLAB_MPI_HISTORIES=rank0 (summaries, no histories broadcast): %.2f s: speedup %.2fx\n", w3, w1 / w3
    printf "MPI whole command with start-up: one process %.2f s, mpirun -np 2 %.2f s: %.2fx\n", one, two, one / two
    printf "MPI per task: %d bytes of packed results to rank 0, which keeps them; back to every rank in the one broadcast per operation the same bytes while the broadcast (the operation'"'"'s results times the other ranks) comes to at most 64 MB (this one: %.1f MB), else its %d-byte summary (no history; OPTLAB_MPI_HISTORIES); 2 messages (its result in, the next index out); per worker and operation 2 requests\n", up, 64 * up / 1048576, back
    # model: N tasks of t s on P ranks; rank 0 serves one message pair per
    # task in s0 s; the broadcast of N summaries costs log2(P) hops at bw
    # (a binomial tree: an upper bound for a large broadcast, which Open
    # MPI pipelines)
    N = 100000; s0 = 20e-6; bw = 1e9
    for (i = 1; i <= 2; i++) {
      P = i == 1 ? 100 : 1000
      comp = N * t / P; serve = N * s0; bc = N * back * log(P) / log(2) / bw
      span = (comp > serve ? comp : serve) + bc
      printf "MPI model, %d ranks, 10^5 tasks of %.3f s: %.1f s compute per rank, rank 0 serves %.1f s, broadcast of the summaries %.2f s: efficiency %.0f%%\n", P, t, comp, serve, bc, 100 * comp / span
    }
    printf "MPI model: rank 0 is the bottleneck once (P - 1) s0 > t, P > %.0f ranks at s0 = 20 us per message pair (assumed; Lua handling and a small MPI message) -- then batch k tasks per message (P > k t / s0) or run slices; rank 0 holds every history (%d bytes a task: %.1f GB for 10^5), each other rank %d bytes a task (%.2f GB)\n", t / s0, up, N * up / 1e9, back, N * back / 1e9
  }' "$tmp/one"
