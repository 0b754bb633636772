#!/usr/bin/env bash
# tests/repl/finalframe.t -- the last frame stays: when a foreground run or
# race ends on a terminal, its plot (as r:plot() prints it) and its summary
# (as print shows it) are left on the screen, and still there 3 s later;
# view = "clear" leaves the screen as it was; a bad view value is refused
# naming the valid ones.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
RUN='r = run(problem.quadratic{n=2, cond=20}, optim.gd{lr=1}, {iters=300})'
RACE='rc = race(problem.quadratic{n=2, cond=20}, {optim.gd{lr=1},'\
' optim.momentum{lr=0.5, mu=0.5}}, {iters=300})'

# kept: the screen shows a plot row (a loss panel's title and a y tick
# on its axis) and the summary line, with the prompt below them.
kept () {
  local s
  s=$(tm_screen)
  echo "$s" | grep -qE 'loss \[(log|lin)\]' \
    && echo "$s" | grep -qE '^│ +[0-9.e-]+┤' \
    && echo "$s" | grep -qE "$1" \
    && echo "$s" | tail -n +2 | grep -qE "$P"
}

tm_start
tm_wait "$P"
tm_line "$RUN"
tm_wait 'iter [0-9]+/300'; ok $? "finalframe: the run shows its live view"
tm_wait '^  stopped: budget after 300 iterations'
ok $? "finalframe: the summary is printed when the run ends"
sleep 3    # (the claim is about what stays: nothing may clear it)
kept '^  stopped: budget after 300 iterations'
ok $? "finalframe: 3 s later the plot and the summary are still on screen"
tm_screen | grep -qE 'landscape x1,x2'
ok $? "finalframe: the kept frame has the run's panels (landscape)"
tm_line 'print("it=" .. r.iter)'
tm_wait '^it=300$'; ok $? "finalframe: the prompt works after the kept frame"

tm_keys C-l
tm_line "$RACE"
tm_wait '^race on quadratic'; ok $? "finalframe: a race's summary is printed"
sleep 3
kept '^ +2 +momentum lr=0.5 mu=0.5 +budget'
ok $? "finalframe: 3 s later the race's plot and table are on screen"

tm_keys C-l
tm_wait_not 'race on quadratic'
tm_line 'rc = race(problem.quadratic{n=2, cond=20}, {optim.gd{lr=1}}, {iters=300, view="clear"})'
tm_wait 'iter [0-9]+/300'; ok $? "finalframe: view=\"clear\" still shows the view"
tm_wait "$P"
sleep 1
! tm_screen | grep -qE 'loss \[|race on quadratic'
ok $? "finalframe: view=\"clear\" leaves no frame and no summary"

# a bare run(...) at the prompt: the summary the view left is not
# printed again as the statement's value (one "stopped:" line)
tm_keys C-l
tm_wait_not 'race on quadratic|loss \['
tm_line 'run(problem.quadratic{n=2, cond=20}, optim.gd{lr=1}, {iters=300})'
tm_wait '^  stopped: budget after 300 iterations'
tm_wait "$P"
sleep 1
n=$(tm_screen | grep -cE '^  stopped: budget after 300 iterations')
[ "$n" = 1 ]
ok $? "finalframe: a bare run(...) shows its summary once, not again as its value ($n)"

tm_line 'print(pcall(run, problem.quadratic{n=2}, optim.gd{}, {view="fade"}))'
tm_wait "unknown view mode 'fade' \(valid: keep, clear\)"
ok $? "finalframe: an unknown view value names the valid ones"

done_testing
