#!/usr/bin/env bash
# tests/repl/dashboard.t -- the dashboard's per-job control, header and
# scroll-back, driven in tmux: [ ] select a job, space / n / q / - act on
# it alone; the header names the job whose iteration it shows and is cut
# by whole fields at 80x24; each landscape shows only the jobs on its
# problem; PgUp/PgDn scroll the output window and say so.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# Every job must still be running when checked: LIVE_ITERS is never
# reached and with a noisy gradient no stop rule ends the run.
J='j = start(problem.rosenbrock{n=2, noise={sigma=1}}, optim.adam{lr=1e-3}, '\
"{iters=$LIVE_ITERS, tol=0})"
K='k = start(problem.himmelblau{noise={sigma=1}}, optim.gd{lr=1e-3}, '\
"{iters=$LIVE_ITERS, tol=0})"
atprompt () {
  local tag=$1 v=""
  tm_line "print(\"$tag=\" .. $2)"
  tm_until 'v=$(tm_screen | sed -n "s/^$tag=\(.*\)\$/\1/p" | tail -1)
            [ -n "$v" ]'
  echo "$v"
}
header () { tm_screen | head -1; }

tm_start
tm_wait "$P"
tm_line "$J"
tm_wait 'landscape x1,x2'; ok $? "dashboard: one 2-D job has its landscape"
tm_line "$K"
tm_wait ' 2 jobs  job #1 adam'; ok $? "dashboard: the header names the job it shows"
tm_wait '1 on other problems'; ok $? "dashboard: the status line counts the jobs on other problems"
tm_until "s=\$(tm_screen); echo \"\$s\" | grep -q 'landscape x1,x2' && echo \"\$s\" | grep -q '#1 adam' && ! echo \"\$s\" | grep -q '#2 gd'"
ok $? "dashboard: jobs on two problems: the first job's problem and jobs only"

# select job #2: the panels show the jobs on its problem only
tm_keys C-g ']' ']'
tm_wait '\[job #2 selected\]'; ok $? "dashboard: ] ] selects job #2"
tm_wait 'job #2 gd  himmelblau'; ok $? "dashboard: the header shows the selected job"
tm_wait 'landscape x1,x2'; ok $? "dashboard: the selected job's landscape is shown"
tm_until "s=\$(tm_screen); echo \"\$s\" | grep -q '#2 gd' && ! echo \"\$s\" | grep -q '#1 adam'"
ok $? "dashboard: the landscape legend lists only the jobs on its problem"

# space pauses the selected job alone; n steps it by one
tm_keys Space
tm_wait 'iter [0-9]+/[0-9]+  paused'; ok $? "dashboard: space pauses the selected job"
a=$(tm_iter_wait)
tm_keys n
tm_wait "iter $((a + 1))/"; ok $? "dashboard: n steps the selected job by exactly one"
tm_keys -- '1'
tm_wait 'speed 1/s'; ok $? "dashboard: 1 sets the selected job's speed"
tm_keys C-g
s=$(atprompt st 'j.state .. "," .. k.state')
[ "$s" = "running,paused" ]; ok $? "dashboard: only the selected job paused ($s)"
i1=$(atprompt it1 k.iter)
tm_line 'k:resume()'
tm_until "tm_screen | head -1 | grep -q 'running  speed 1/s'"
ok $? "dashboard: a resumed job keeps its own speed"
tm_line 'k:pause()'
tm_wait 'paused  speed'

# q stops the selected job alone
tm_keys C-g q
tm_wait_not ' 2 jobs '; ok $? "dashboard: q stops the selected job"
tm_wait 'job #1 adam  rosenbrock'; ok $? "dashboard: the other job goes on"
tm_keys C-g
s=$(atprompt st2 'j.state .. "," .. k.state .. "," .. k.run.reason')
[ "$s" = "running,done,stopped" ]; ok $? "dashboard: q stopped job #2 alone ($s)"

# the header at 80x24: whole fields only
tm_resize 80 24
tm_wait 'loss \['
tm_until "header | grep -qE '^ (optlab  )?job #1 adam(  rosenbrock\{n=2\})? +iter [0-9]+/[0-9]+(  (running|paused))?(  speed (max|[0-9.]+/s))? *\$'"
ok $? "dashboard: at 80x24 the header drops whole fields ($(header | tr -s ' '))"
tm_resize 120 40

# scroll-back
tm_line 'for i = 1, 60 do print("line" .. i) end'
tm_wait '^line60$'
tm_keys PPage
tm_wait 'scrolled back [0-9]+ lines: PgDn'; ok $? "dashboard: PgUp scrolls the output back and says so"
tm_until "! tm_screen | grep -q '^line60\$' && tm_screen | grep -q '^line5[0-9]\$'"
ok $? "dashboard: scrolled back, older lines are shown"
oldest () { tm_screen | sed -n 's/^line\([0-9]*\)$/\1/p' | head -1; }
o1=$(oldest)
tm_keys PPage
tm_until 'o2=$(oldest); [ -n "$o2" ] && [ -n "$o1" ] && [ "$o2" -lt "$o1" ]'
ok $? "dashboard: PgUp again goes further back (line$o1 -> line$o2)"
tm_keys NPage NPage NPage
tm_wait_not 'scrolled back'; ok $? "dashboard: PgDn returns to the newest output"
tm_wait '^line60$'; ok $? "dashboard: the newest line is shown again"

tm_keys C-c
tm_wait_not 'job #1'
done_testing
