#!/usr/bin/env bash
# tests/repl/jobs.t -- background jobs and the dashboard beside the prompt,
# driven in tmux: the prompt works while a job steps, pause freezes the
# panels, stop; two jobs; jobs(); Ctrl-G focus keeps typed text; every
# dashboard key; Ctrl-C; completion; resize; Ctrl-D restores the terminal.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
J='j = start(problem.rosenbrock{n=2}, optim.adam{lr=1e-3}, '\
'{iters=1e8, tol=0})'
DASH_ROWS=27   # rows of the dashboard at 120x40 (40 - 1 prompt - 10 out)

# moves: the title's iteration count grows within 5 s (frames may be
# spaced out when drawing is slow: drawing is kept to a few per cent)
moves () {
  local a b i
  a=$(tm_iter)
  for i in $(seq 1 50); do
    sleep 0.1
    b=$(tm_iter)
    [ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] && return 0
  done
  return 1
}
dash () { tm_screen | head -"$DASH_ROWS"; }

tm_start
tm_wait "$P" 5
tm_line "$J"
tm_wait 'job #1  rosenbrock' 5; ok $? "jobs: start opens the dashboard"
tm_wait 'loss \[' 2; ok $? "jobs: the dashboard has the loss panel"
moves; ok $? "jobs: the job steps"
tm_wait '#1 adam lr=0.001' 2; ok $? "jobs: legend names job id and method"
tm_wait '\^G dashboard keys' 2; ok $? "jobs: status line shows the focus key"

tm_line 'print(1+1)'
tm_wait '^2$' 5; ok $? "jobs: print(1+1) prints 2 while the job runs"
tm_until "tm_screen | tail -1 | grep -qE '^> \$|^>\$'" 2
ok $? "jobs: the prompt is on the bottom row"
tm_line 'print(j.run.iter > 0, j.state)'
tm_wait '^true +running$' 5; ok $? "jobs: j.run readable while it runs"

tm_line 'j:pause()'
tm_wait 'paused  speed' 5; ok $? "jobs: j:pause() shows paused"
sleep 0.3
a=$(dash); sleep 1; b=$(dash)
[ "$a" = "$b" ]; ok $? "jobs: paused, two captures 1 s apart are equal"
tm_line 'j:resume()'
tm_wait 'running  speed' 5; ok $? "jobs: j:resume() runs again"
moves; ok $? "jobs: stepping resumed"

# a second job: both in the dashboard
tm_line 'k = start(problem.quadratic{n=10}, optim.gd{lr=0.01}, {iters=1e8, tol=0})'
tm_wait ' 2 jobs ' 5; ok $? "jobs: two jobs at once in one dashboard"
tm_wait '#2 gd lr=0.01' 3; ok $? "jobs: the legend names the second job"
tm_line 'jobs()'
tm_wait '^  2 +running +[0-9]+/100000000 +gd lr=0.01 on quadratic' 5
ok $? "jobs: jobs() lists id, state, iter, label"
tm_line 'k:stop()'
tm_wait 'job #1  rosenbrock' 5; ok $? "jobs: a stopped job leaves the dashboard"

# focus: Ctrl-G moves the keyboard to the dashboard and back
tm_type 'print(4'
tm_keys C-g
tm_wait '\[dashboard\] q stop' 3; ok $? "keys: Ctrl-G focuses the dashboard"
tm_keys Space
tm_wait 'paused  speed' 3; ok $? "keys: space pauses"
a=$(tm_iter)
tm_keys n
tm_wait "iter $((a + 1))/" 3; ok $? "keys: n takes exactly one step"
tm_keys Space
tm_wait 'running  speed' 3; ok $? "keys: space resumes"
tm_speed_keys keys tick
tm_focus_keys keys
tm_keys BTab
tm_wait '\* loss \[' 3; ok $? "keys: Shift-Tab moves focus back"
tm_keys Tab z
tm_wait_not ' loss \[' 3; ok $? "keys: z zooms the focused panel alone"
tm_keys z
tm_wait ' loss \[' 3; ok $? "keys: z again restores the grid"
tm_keys '?'
tm_wait 'dashboard keys \(Ctrl-G' 3 && tm_wait 'back to the prompt' 1
ok $? "keys: ? shows the dashboard help"
tm_keys x
tm_wait_not 'dashboard keys \(Ctrl-G' 3; ok $? "keys: any key closes the help"
tm_keys C-g
tm_wait '\^G dashboard keys' 3; ok $? "keys: Ctrl-G returns to the prompt"
tm_type '2)'
tm_keys Enter
tm_wait '^42$' 5; ok $? "keys: the typed text survived the focus switch"
tm_keys C-g
tm_wait '\[dashboard\] q stop' 3
tm_keys Escape
tm_wait '\^G dashboard keys' 3; ok $? "keys: Esc returns to the prompt"

# completion in dashboard mode
tm_type 'j:pa'
tm_keys Tab
tm_wait '^> j:pause\($' 3; ok $? "completion: j:pa completes to j:pause("
tm_keys C-u
tm_type 'optim.ad'
tm_keys Tab Tab
tm_wait 'adagrad .*adam ' 3; ok $? "completion: matches listed in the output window"
tm_until "tm_screen | head -1 | grep -q 'job #1'" 2
ok $? "completion: the dashboard is intact"

# Ctrl-C: a typed line is dropped; on an empty line the jobs stop
tm_keys C-u
tm_type 'print("never")'
tm_wait '^> print\("never"\)$' 3
tm_keys C-c
tm_wait 'print\("never"\)\^C' 3; ok $? "ctrl-c: drops the typed line"
tm_alive && tm_until "tm_screen | head -1 | grep -q 'job #1'" 2
ok $? "ctrl-c: with text on the line the job goes on"

# resize with a job running
tm_resize 80 24
tm_wait 'loss \[' 3 && tm_wait 'job #1' 1; ok $? "resize: 80x24 reflows the dashboard"
tm_until "tm_screen | tail -1 | grep -qE '^>'" 2
ok $? "resize: the prompt stays on the bottom row"
tm_resize 40 9
tm_wait 'too small' 3; ok $? "resize: 40x9 says too small"
tm_resize 120 40
tm_wait 'loss \[' 3; ok $? "resize: back to 120x40"
moves; ok $? "resize: the job kept stepping"

tm_keys C-c
tm_wait '\^C: jobs stopped' 3 || tm_wait "$P" 3
tm_wait_not 'job #1  rosenbrock' 5; ok $? "ctrl-c: on an empty line stops the jobs"
tm_line 'print(j.run.reason, j.state)'
tm_wait '^stopped +done$' 5; ok $? "jobs: stopped job keeps its run (reason stopped)"

# q in the dashboard stops every job; j:stop() reason
tm_line "$J"
tm_wait 'job #2  rosenbrock|job #3  rosenbrock' 5
tm_keys C-g q
tm_wait_not 'rosenbrock\{n=2\} +iter' 5; ok $? "keys: q stops every job, the dashboard closes"
tm_line "$J"
tm_wait '  rosenbrock' 5
tm_line 'j:stop()'
tm_wait_not 'rosenbrock\{n=2\} +iter' 5
tm_line 'print(j.run.reason)'
tm_wait '^stopped$' 5; ok $? "jobs: j:stop() ends it with reason stopped"
tm_line 'print(1 + 2)'
tm_wait '^3$' 5; ok $? "jobs: line mode works after the dashboard"

# Ctrl-D with a job running: exit, terminal restored
T_BIN="sh -c './optlab; stty -a; echo EXITED; sleep 30'"
tm_start
tm_wait "$P" 5
tm_line "$J"
tm_wait 'loss \[' 5
tm_keys C-d
tm_wait 'EXITED' 5; ok $? "ctrl-d: exits with a job running"
tm_screen | grep -qE '(^| )icanon( |$)' && tm_screen | grep -qE '(^| )echo( |$)'
ok $? "ctrl-d: the terminal is back in cooked mode with echo"

done_testing
