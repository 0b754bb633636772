#!/usr/bin/env bash
# tests/bench/dash.sh -- the cost of the dashboard: iterations per second
# of one background job (Adam on 2-D Rosenbrock, N steps) with the
# dashboard drawing in a tmux pseudo-terminal (120x40) against the same
# job stepped headless (optlab --no-tui, j:wait()).  R pairs (default 5),
# each a headless run then a dashboard run; rate = j.iter / j.elapsed (wall
# clock from start() to done); the overhead is taken within each pair and
# printed as the median and the least over the pairs, or as "noisy" when
# the pairs' ratios (tui / headless) differ by more than a factor SPREAD
# (1.25): at 20-30 M steps per second a busy machine moves either side
# by more than the dashboard costs, and best-of-R of each side alone
# read 17.8% and then -20% a minute apart.
# The job runs at speed = "max": the bench measures the dashboard's cost,
# not the watchable pacing of a short job.
# Prints "DASH headless <it/s>", "DASH tui <it/s>" and the overhead.
# Also the same per CPU second of the optlab process (os.clock from before
# start() to done: stepping plus, with the dashboard, its drawing), which
# a shared, loaded machine disturbs less than the wall clock ("DASH cpu").
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

N=${DASH_N:-20000000}
R=${DASH_R:-5}
SPREAD=${DASH_SPREAD:-1.25}
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

tmp=$(mktemp)
for i in $(seq 1 "$R"); do
  read -r h ch <<< "$(headless)"
  read -r t ct <<< "$(tui)"
  # (a failed side reads 0: the pair is left out)
  echo "DASH pair $i headless ${h:-0} tui ${t:-0} cpu headless ${ch:-0}" \
    "tui ${ct:-0}" | tee -a "$tmp"
done
awk -v n="$N" -v spread="$SPREAD" '
  function sort (a, k,   i, j, t) {
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
      if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
  }
  function med (a, k) { return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
  $5 > 0 && $7 > 0 { w[++k] = $7 / $5 }
  $10 > 0 && $12 > 0 { c[++m] = $10 / $12 }
  END {
    if (k == 0) { print "DASH overhead: measurement failed"; exit 1 }
    sort(w, k)
    if (w[k] / w[1] > spread)
      printf "DASH dashboard overhead: noisy (tui / headless rates %.3f to %.3f over %d pairs, spread over %.2f)\n", w[1], w[k], k, spread
    else
      printf "DASH dashboard overhead: median %.1f%%, least %.1f%% of headless stepping (%d pairs, %d steps; target < 5%%)\n", 100 * (1 - med(w, k)), 100 * (1 - w[k]), k, n
    if (m > 0) {
      sort(c, m)
      if (c[m] / c[1] > spread)
        printf "DASH cpu: noisy (headless / tui steps per CPU second %.3f to %.3f over %d pairs, spread over %.2f)\n", c[1], c[m], m, spread
      else
        printf "DASH cpu: median %.1f%% more CPU per step with the dashboard (%d pairs, %.3f to %.3f)\n", 100 * (med(c, m) - 1), m, c[1], c[m]
    }
  }' "$tmp"
rc=$?
rm -f "$tmp"
exit $rc
