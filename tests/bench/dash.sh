#!/usr/bin/env bash
# tests/bench/dash.sh -- the cost of the dashboard: iterations per second
# of one background job (Adam on 2-D Rosenbrock, N steps) with the
# dashboard drawing in a tmux pseudo-terminal (120x40) against the same
# job stepped headless (optlab --no-tui, j:wait()).  Best of R runs each,
# alternated; rate = j.iter / j.elapsed (wall clock from start() to done).
# The job runs at speed = "max": the bench measures the dashboard's cost,
# not the watchable pacing of a short job.
# Prints "DASH headless <it/s>", "DASH tui <it/s>" and the overhead.
# Also the same per CPU second of the optlab process (os.clock from before
# start() to done: stepping plus, with the dashboard, its drawing), which
# a shared, loaded machine disturbs less than the wall clock ("DASH cpu").
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

N=${DASH_N:-20000000}
R=${DASH_R:-2}
JOB="c0 = os.clock(); j = start(problem.rosenbrock{n=2}, optim.adam{lr=1e-3}, {iters=$N, tol=0, speed=\"max\"})"
RATE='string.format("RATE %.0f %.0f", j.iter / j.elapsed, j.iter / (os.clock() - c0))'

headless () {
  ./optlab --no-tui -e "$JOB; j:wait(); print($RATE)" | sed -n 's/^RATE //p'
}

tui () {
  tm_start
  tm_wait '^>( |$)' 10 || return 1
  tm_line "$JOB"
  tm_wait 'job #1' 10 || return 1
  # (poll the screen once a second, not every 0.1 s: capturing the pane
  # costs CPU that the headless run does not pay)
  local i=0
  while tm_screen | grep -q 'job #1'; do
    sleep 1
    i=$((i + 1))
    [ $i -lt 600 ] || return 1
  done
  tm_line "print($RATE)"
  tm_wait '^RATE [0-9]+ [0-9]+' 10 || return 1
  tm_screen | sed -n 's/^RATE //p' | tail -1
}

best_h=0 best_t=0 cpu_h=0 cpu_t=0
for i in $(seq 1 "$R"); do
  read -r h ch <<< "$(headless)"
  read -r t ct <<< "$(tui)"
  [ -n "$h" ] && [ "$h" -gt "$best_h" ] && best_h=$h
  [ -n "$t" ] && [ "$t" -gt "$best_t" ] && best_t=$t
  [ -n "$ch" ] && [ "$ch" -gt "$cpu_h" ] && cpu_h=$ch
  [ -n "$ct" ] && [ "$ct" -gt "$cpu_t" ] && cpu_t=$ct
done
echo "DASH headless $best_h"
echo "DASH tui $best_t"
awk -v h="$best_h" -v t="$best_t" -v ch="$cpu_h" -v ct="$cpu_t" -v n="$N" 'BEGIN {
  if (h <= 0 || t <= 0) { print "DASH overhead: measurement failed"; exit 1 }
  printf "DASH dashboard overhead: %.1f%% of headless stepping (%d steps; target < 5%%)\n", 100 * (1 - t / h), n
  if (ch > 0 && ct > 0)
    printf "DASH cpu: %.1f%% more CPU per step with the dashboard (headless %d, tui %d steps per CPU second)\n", 100 * (ch / ct - 1), ch, ct
}'
