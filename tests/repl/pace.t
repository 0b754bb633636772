#!/usr/bin/env bash
# tests/repl/pace.t -- pacing of the live view: a short run is shown at a
# watchable pace by default (it is still running after the first screen
# and its iteration rises from frame to frame), paused=true opens paused
# at iteration 0 and n takes exactly one step, speed= sets steps per
# second, and - from max goes down a decade a press; the same for a
# background job in the dashboard.  Only states are asserted, never
# durations.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
SHORT='r = run(problem.rosenbrock{n=2}, optim.adam{}, {iters=2000})'

tm_start
tm_wait "$P"
tm_line "$SHORT"
a=$(tm_iter_wait)
[ -n "$a" ] && [ "$a" -lt 2000 ]
ok $? "pace: a 2000-step run is still running on the first screen ($a/2000)"
tm_until "tm_screen | head -1 | grep -q 'speed 667/s'"
ok $? "pace: the default speed is the budget over 3 s (667/s)"
tm_until 'b=$(tm_iter); [ -n "$b" ] && [ "$b" -gt "$a" ]'
ok $? "pace: its iteration rises on later screens ($a -> $b)"
tm_wait "$P"; ok $? "pace: the paced run ends by itself"
tm_line 'print("n=" .. r.iter)'
tm_wait '^n=2000$'; ok $? "pace: the paced run took its whole budget"

tm_line 'r = run(problem.rosenbrock{n=2}, optim.adam{}, {iters=2000, paused=true})'
tm_wait 'iter 0/2000  paused'; ok $? "pace: paused=true opens paused at iteration 0"
tm_keys n
tm_wait 'iter 1/2000  paused'; ok $? "pace: n takes exactly one step"
tm_keys n
tm_wait 'iter 2/2000  paused'; ok $? "pace: n again takes one more"
tm_keys 1
tm_wait 'speed 1/s'; ok $? "pace: 1 sets one step per second"
tm_keys q
tm_wait "$P"

tm_line "r = run(problem.quadratic{n=4, noise={sigma=1}}, optim.gd{lr=0.01}, {iters=$LIVE_ITERS, speed=\"max\"})"
tm_wait 'speed max'; ok $? "pace: speed=\"max\" opens at full speed"
# the header's speed: "7/s" below 10^4, then "10k/s", "100k/s", "1M/s",
# ... (repl/model.c); spd_num reads one back, spd_fmt writes a number so
spd_num () {
  case "$1" in
    *k) echo $(( ${1%k} * 1000 )) ;; *M) echo $(( ${1%M} * 1000000 )) ;;
    *G) echo $(( ${1%G} * 1000000000 )) ;; *) echo "$1" ;;
  esac
}
spd_fmt () {
  if [ "$1" -ge 1000000000 ]; then echo "$(( $1 / 1000000000 ))G"
  elif [ "$1" -ge 1000000 ]; then echo "$(( $1 / 1000000 ))M"
  elif [ "$1" -ge 10000 ]; then echo "$(( $1 / 1000 ))k"
  else echo "$1"; fi
}
tm_keys -- -
tm_until 's1=$(tm_screen | head -1 | sed -n "s/.*speed \([0-9]*[kMG]\{0,1\}\)\/s.*/\1/p"); [ -n "$s1" ]'
ok $? "pace: - from max sets a finite speed ($s1/s)"
n1=$(spd_num "$s1")
echo "$n1" | grep -qE '^10*$'; ok $? "pace: - from max gives a power of ten ($n1)"
if [ -n "$n1" ] && [ "$n1" -gt 1 ]; then
  tm_keys -- -
  tm_wait "speed $(spd_fmt $((n1 / 10)))/s"; ok $? "pace: - again divides by ten ($(spd_fmt $((n1 / 10)))/s)"
else
  ok 0 "pace: - again divides by ten (already at 1)"
fi
tm_keys +
tm_wait "speed $s1/s"; ok $? "pace: + multiplies by ten"
tm_keys q
tm_wait "$P"

tm_line "r = run(problem.quadratic{n=4, noise={sigma=1}}, optim.gd{lr=0.01}, {iters=$LIVE_ITERS, speed=7})"
tm_wait 'speed 7/s'; ok $? "pace: speed=7 opens at 7 steps per second"
tm_keys q
tm_wait "$P"
tm_line 'print("r=" .. r.reason)'
tm_wait '^r=stopped$'; ok $? "pace: q stops a paced run"

# race takes the same options: its runs open paused, n steps all of them
tm_line 'rc = race(problem.quadratic{n=4}, {optim.gd{lr=0.1}, optim.adam{lr=0.1}}, {iters=500, paused=true, speed=3})'
tm_wait 'iter 0/500  paused  speed 3/s'; ok $? "pace: race with paused=true, speed=3 opens paused at 3/s"
tm_keys n
tm_wait 'iter 1/500  paused'; ok $? "pace: n steps the race by one"
tm_keys q
tm_wait "$P"
tm_line 'print("rc=" .. rc[1].iter .. " " .. rc[2].iter)'
tm_wait '^rc=1 1$'; ok $? "pace: each run of the race took exactly that one step"

# A background job is paced the same way while the dashboard shows it,
# and opens paused with paused=true.
tm_line 's = start(problem.rosenbrock{n=2}, optim.adam{}, {iters=2000})'
a=$(tm_iter_wait)
[ -n "$a" ] && [ "$a" -lt 2000 ]
ok $? "pace: a 2000-step job is still running on the first dashboard ($a/2000)"
tm_until "tm_screen | head -1 | grep -q 'job #1 adam.*speed 667/s'"
ok $? "pace: the job's default speed is the budget over 3 s"
tm_wait_not 'job #1 adam'; ok $? "pace: the paced job ends by itself"
tm_line 'print("s=" .. s.iter .. " " .. s.state)'
tm_wait '^s=2000 done$'; ok $? "pace: the paced job took its whole budget"
tm_line 'p = start(problem.rosenbrock{n=2}, optim.adam{}, {iters=2000, paused=true})'
tm_wait 'job #2 adam.*iter 0/2000  paused'; ok $? "pace: start with paused=true opens paused at 0"
tm_keys C-g n
tm_wait 'iter 1/2000  paused'; ok $? "pace: n steps the paused job by one"
tm_keys q
tm_wait_not 'job #2'

done_testing
