#!/usr/bin/env bash
# tests/bench/dash.sh -- the cost of the dashboard: iterations per second
# of one background job (Adam on 2-D Rosenbrock, N steps) with the
# dashboard drawing in a tmux pseudo-terminal (120x40) against the same
# job stepped headless (optlab --no-tui, j:wait()).  Best of R runs each,
# alternated; rate = j.iter / j.elapsed (wall clock from start() to done).
# Prints "DASH headless <it/s>", "DASH tui <it/s>" and the overhead.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

N=${DASH_N:-20000000}
R=${DASH_R:-2}
JOB="j = start(problem.rosenbrock{n=2}, optim.adam{lr=1e-3}, {iters=$N, tol=0})"
RATE='string.format("RATE %.0f", j.iter / j.elapsed)'

headless () {
  ./optlab --no-tui -e "$JOB; j:wait(); print($RATE)" | sed -n 's/^RATE //p'
}

tui () {
  tm_start
  tm_wait '^>( |$)' 10 || return 1
  tm_line "$JOB"
  tm_wait 'job #1' 10 || return 1
  tm_wait_not 'job #1' 600 || return 1
  tm_line "print($RATE)"
  tm_wait '^RATE [0-9]+' 10 || return 1
  tm_screen | sed -n 's/^RATE //p' | tail -1
}

best_h=0
best_t=0
for i in $(seq 1 "$R"); do
  h=$(headless)
  t=$(tui)
  [ -n "$h" ] && [ "$h" -gt "$best_h" ] && best_h=$h
  [ -n "$t" ] && [ "$t" -gt "$best_t" ] && best_t=$t
done
echo "DASH headless $best_h"
echo "DASH tui $best_t"
awk -v h="$best_h" -v t="$best_t" -v n="$N" 'BEGIN {
  if (h <= 0 || t <= 0) { print "DASH overhead: measurement failed"; exit 1 }
  printf "DASH dashboard overhead: %.1f%% of headless stepping (%d steps; target < 5%%)\n", 100 * (1 - t / h), n
}'
