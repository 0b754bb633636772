#!/usr/bin/env bash
# tests/repl/jobs.t -- background jobs and the dashboard beside the prompt,
# driven in tmux: the prompt works while a job steps, pause freezes the
# panels, stop; two jobs; jobs(); Ctrl-G focus keeps typed text; every
# dashboard key; Ctrl-C; completion; resize; Ctrl-D restores the terminal.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# Every job here must still be running when it is checked, on any machine:
# a budget of LIVE_ITERS steps is never reached, and with a noisy gradient
# no stop rule (tolerance, stationarity) can end the run, so only an
# explicit stop (j:stop(), q, Ctrl-C, Ctrl-D) ends it.
J='j = start(problem.rosenbrock{n=2, noise={sigma=1}}, optim.adam{lr=1e-3}, '\
"{iters=$LIVE_ITERS, tol=0})"
K='k = start(problem.quadratic{n=10, noise={sigma=1}}, optim.gd{lr=0.01}, '\
"{iters=$LIVE_ITERS, tol=0})"
TITLE='job #[0-9]+ adam  rosenbrock'   # the dashboard's title with a $J job
DASH_ROWS=27   # rows of the dashboard at 120x40 (40 - 1 prompt - 10 out)

dash () { tm_screen | head -"$DASH_ROWS"; }
# atprompt TAG EXPR: print "TAG=<EXPR>" at the prompt; echo the value once
# the output window shows it.
atprompt () {
  local tag=$1 v=""
  tm_line "print(\"$tag=\" .. $2)"
  tm_until 'v=$(tm_screen | sed -n "s/^$tag=\([0-9][0-9]*\)\$/\1/p" | tail -1)
            [ -n "$v" ]'
  echo "$v"
}

tm_start
tm_wait "$P"
tm_line "$J"
tm_wait 'job #1 adam  rosenbrock'; ok $? "jobs: start opens the dashboard (its header names the job)"
tm_wait 'loss \['; ok $? "jobs: the dashboard has the loss panel"
tm_moves; ok $? "jobs: the job steps"
tm_wait '#1 adam lr=0.001'; ok $? "jobs: legend names job id and method"
tm_wait '\^G dashboard keys'; ok $? "jobs: status line shows the focus key"

tm_line 'print(1+1)'
tm_wait '^2$'; ok $? "jobs: print(1+1) prints 2 while the job runs"
tm_until "tm_screen | tail -1 | grep -qE '^> \$|^>\$'"
ok $? "jobs: the prompt is on the bottom row"
tm_line 'print(j.run.iter > 0, j.state)'
tm_wait '^true +running$'; ok $? "jobs: j.run readable while it runs"

# Paused: the iteration read at the prompt twice, a whole typed and run
# line apart (the loop steps running jobs between keystrokes), is the same,
# the title shows it, and the dashboard is the same before and after.
tm_line 'j:pause()'
tm_wait 'paused  speed'; ok $? "jobs: j:pause() shows paused"
i1=$(atprompt at1 j.run.iter)
tm_until '[ "$(tm_iter)" = "$i1" ]'
ok $? "jobs: paused, the title shows the job's iteration ($i1)"
a=$(dash)
i2=$(atprompt at2 j.run.iter)
b=$(dash)
[ -n "$i1" ] && [ "$i1" = "$i2" ]
ok $? "jobs: paused, no step while a line is typed and run ($i1 = $i2)"
[ "$a" = "$b" ]; ok $? "jobs: paused, the dashboard does not change"
tm_line 'j:resume()'
tm_wait 'running  speed'; ok $? "jobs: j:resume() runs again"
tm_moves; ok $? "jobs: stepping resumed"

# a second job: both in the dashboard
tm_line "$K"
tm_wait ' 2 jobs '; ok $? "jobs: two jobs at once in one dashboard"
tm_wait '1 on other problems'
ok $? "jobs: a job on another problem is counted in the status line"
tm_line 'jobs()'
tm_wait '^  2 +running +[0-9]+/1000000000000000 +gd lr=0.01 on quadratic'
ok $? "jobs: jobs() lists id, state, iter, label"
tm_line 'k:stop()'
tm_wait_not ' 2 jobs ' && tm_wait 'job #1 adam  rosenbrock'
ok $? "jobs: a stopped job leaves the dashboard"

# focus: Ctrl-G moves the keyboard to the dashboard and back
tm_type 'print(4'
tm_keys C-g
tm_wait '\[dashboard\] q stop'; ok $? "keys: Ctrl-G focuses the dashboard"
tm_keys Space
tm_wait 'paused  speed'; ok $? "keys: space pauses"
a=$(tm_iter_wait)
tm_keys n
tm_wait "iter $((a + 1))/"; ok $? "keys: n takes exactly one step"
tm_keys Space
tm_wait 'running  speed'; ok $? "keys: space resumes"
tm_speed_keys keys s
tm_focus_keys keys
tm_keys BTab
tm_wait '\* loss \['; ok $? "keys: Shift-Tab moves focus back"
tm_keys Tab z
tm_wait_not ' loss \['; ok $? "keys: z zooms the focused panel alone"
tm_keys z
tm_wait ' loss \['; ok $? "keys: z again restores the grid"
tm_keys '?'
tm_wait 'dashboard keys \(Ctrl-G' && tm_wait 'back to the prompt'
ok $? "keys: ? shows the dashboard help"
tm_keys x
tm_wait_not 'dashboard keys \(Ctrl-G'; ok $? "keys: any key closes the help"
tm_keys C-g
tm_wait '\^G dashboard keys'; ok $? "keys: Ctrl-G returns to the prompt"
tm_type '2)'
tm_keys Enter
tm_wait '^42$'; ok $? "keys: the typed text survived the focus switch"
tm_keys C-g
tm_wait '\[dashboard\] q stop'
tm_keys Escape
tm_wait '\^G dashboard keys'; ok $? "keys: Esc returns to the prompt"

# completion in dashboard mode
tm_type 'j:pa'
tm_keys Tab
tm_wait '^> j:pause\($'; ok $? "completion: j:pa completes to j:pause("
tm_keys C-u
tm_type 'optim.ad'
tm_keys Tab Tab
tm_wait 'adagrad .*adam '; ok $? "completion: matches listed in the output window"
tm_until "tm_screen | head -1 | grep -q 'job #1'"
ok $? "completion: the dashboard is intact"

# Ctrl-C: a typed line is dropped; on an empty line the jobs stop
tm_keys C-u
tm_type 'print("never")'
tm_wait '^> print\("never"\)$'
tm_keys C-c
tm_wait 'print\("never"\)\^C'; ok $? "ctrl-c: drops the typed line"
tm_alive && tm_until "tm_screen | head -1 | grep -q 'job #1'"
ok $? "ctrl-c: with text on the line the job goes on"

# resize with a job running
tm_resize 80 24
tm_wait 'loss \[' && tm_wait 'job #1'; ok $? "resize: 80x24 reflows the dashboard"
tm_until "tm_screen | tail -1 | grep -qE '^>'"
ok $? "resize: the prompt stays on the bottom row"
tm_resize 40 9
tm_wait 'too small'; ok $? "resize: 40x9 says too small"
tm_resize 120 40
tm_wait 'loss \['; ok $? "resize: back to 120x40"
tm_moves; ok $? "resize: the job kept stepping"

tm_keys C-c
tm_wait '\^C: jobs stopped'; ok $? "ctrl-c: on an empty line says the jobs stopped"
tm_wait_not "$TITLE"; ok $? "ctrl-c: on an empty line stops the jobs"
tm_line 'print(j.run.reason, j.state)'
tm_wait '^stopped +done$'; ok $? "jobs: stopped job keeps its run (reason stopped)"

# q in the dashboard stops every job; j:stop() reason
tm_line "$J"
tm_wait "$TITLE"; ok $? "jobs: a new job opens the dashboard again"
tm_keys C-g q
tm_wait_not "$TITLE"; ok $? "keys: q stops every job, the dashboard closes"
tm_line "$J"
tm_wait "$TITLE"; ok $? "jobs: and again"
tm_line 'j:stop()'
tm_wait_not "$TITLE"; ok $? "jobs: j:stop() of the last job closes the dashboard"
tm_line 'print(j.run.reason)'
tm_wait '^stopped$'; ok $? "jobs: j:stop() ends it with reason stopped"
tm_line 'print(1 + 2)'
tm_wait '^3$'; ok $? "jobs: line mode works after the dashboard"

# Ctrl-D with a job running: exit, terminal restored
T_BIN="sh -c '$T_BIN; stty -a; echo EXITED; sleep 30'"
tm_start
tm_wait "$P"
tm_line "$J"
tm_wait 'loss \['
tm_keys C-d
tm_wait '1 job running \(#1 adam\): Ctrl-D again to stop it and quit'
ok $? "ctrl-d: with a job running first says what it would stop"
tm_until "tm_screen | head -1 | grep -q 'job #1 adam'"
ok $? "ctrl-d: the job goes on after the first Ctrl-D"
tm_keys C-d
tm_wait 'EXITED'; ok $? "ctrl-d: a second Ctrl-D exits with a job running"
tm_screen | grep -qE '(^| )icanon( |$)' && tm_screen | grep -qE '(^| )echo( |$)'
ok $? "ctrl-d: the terminal is back in cooked mode with echo"

done_testing
