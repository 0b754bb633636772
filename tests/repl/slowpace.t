#!/usr/bin/env bash
# tests/repl/slowpace.t -- a pace a teacher can narrate: speed = 0.5 steps
# one iterate every 2 s (three steps timed against the clock: a slow pace
# cannot be made faster by a loaded machine, so the lower bound is tight
# and the upper one wide), without busy-waiting (the process's CPU time
# over that window is a small part of it); > and < double and halve the
# pace down to 0.25/s, 1 sets one step a second, and the status line
# names the pace keys; a background job is paced the same way.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# never ends by itself (LIVE_ITERS on a noisy problem); q ends it
SLOW="r = run(problem.quadratic{n=4, noise={sigma=1}}, optim.gd{lr=0.01}, {iters=$LIVE_ITERS, speed=0.5})"

now () { date +%s.%N; }
# CPU seconds (user + system) of process $1 so far
cpu () { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }

tm_start
tm_wait "$P"
tm_line "$SLOW"
tm_wait 'speed 0.5/s'; ok $? "slowpace: speed=0.5 opens at 0.5/s"
tm_wait '<> pace'; ok $? "slowpace: the status line names the pace keys"
pid=$(tm list-panes -t t -F '#{pane_pid}')

# time three steps: from the moment one step shows to the third after it
a=$(tm_iter_wait)
tm_until '[ "$(tm_iter)" -gt "$a" ] 2>/dev/null'
t1=$(now); c1=$(cpu "$pid"); b=$(tm_iter)
tm_until '[ "$(tm_iter)" -ge $((b + 3)) ] 2>/dev/null' 40
t2=$(now); c2=$(cpu "$pid"); e=$(tm_iter)
dt=$(echo "$t2 - $t1" | bc -l)
per=$(echo "$dt / ($e - $b)" | bc -l)
echo "# $((e - b)) steps in $dt s ($per s a step), CPU $(echo "$c2 - $c1" | bc -l) s"
[ "$((e - b))" -eq 3 ] && [ "$(echo "$dt >= 5.4 && $dt <= 18" | bc -l)" = 1 ]
ok $? "slowpace: three steps at 0.5/s take 6 s (measured $dt s, bounds 5.4..18)"
[ "$(echo "($c2 - $c1) < 0.2 * $dt" | bc -l)" = 1 ]
ok $? "slowpace: waiting for the next step does not busy-wait ($(echo "$c2 - $c1" | bc -l) s CPU in $dt s)"

tm_keys '>'
tm_wait 'speed 1/s'; ok $? "slowpace: > doubles the pace (1/s)"
tm_keys '<'
tm_wait 'speed 0.5/s'; ok $? "slowpace: < halves it (0.5/s)"
tm_keys '<'
tm_wait 'speed 0.25/s'; ok $? "slowpace: < again: 0.25/s"
tm_keys '<'
sleep 0.5
tm_wait 'speed 0.25/s'; ok $? "slowpace: < stops at 0.25/s, one step every 4 s"
tm_keys +
tm_wait 'speed 1/s'; ok $? "slowpace: + from 0.25/s goes to 1/s"
tm_keys -- -
tm_wait 'speed 0.25/s'; ok $? "slowpace: - from 1/s goes to 0.25/s"
tm_keys 1
tm_wait 'speed 1/s'; ok $? "slowpace: 1 sets one step per second"
tm_keys q
tm_wait "$P"; ok $? "slowpace: q stops the slow run"
tm_line 'print("r=" .. r.reason)'
tm_wait '^r=stopped$'; ok $? "slowpace: its reason is stopped"

# a background job at 0.5/s in the dashboard: two steps take 4 s
tm_line "j = start(problem.quadratic{n=4, noise={sigma=1}}, optim.gd{lr=0.01}, {iters=$LIVE_ITERS, speed=0.5})"
tm_wait 'job #1 gd.*speed 0.5/s'; ok $? "slowpace: start takes speed=0.5 too"
a=$(tm_iter_wait)
tm_until '[ "$(tm_iter)" -gt "$a" ] 2>/dev/null'
t1=$(now); b=$(tm_iter)
tm_until '[ "$(tm_iter)" -ge $((b + 2)) ] 2>/dev/null' 40
t2=$(now); e=$(tm_iter)
dt=$(echo "$t2 - $t1" | bc -l)
echo "# job: $((e - b)) steps in $dt s"
[ "$((e - b))" -eq 2 ] && [ "$(echo "$dt >= 3.6 && $dt <= 12" | bc -l)" = 1 ]
ok $? "slowpace: the job's two steps at 0.5/s take 4 s (measured $dt s, bounds 3.6..12)"
tm_line 'j:stop()'
tm_wait_not 'job #1'

done_testing
