#!/usr/bin/env bash
# tests/repl/view.t -- the live view of a race, driven in tmux: panels,
# legend, every key, q back to a working prompt, Ctrl-C interrupting.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
RACE='r = race(problem.quadratic{n=20, cond=100}, '\
'{optim.gd{lr=0.5}, optim.momentum{lr=0.5, mu=0.9}, optim.adam{lr=0.05}}, '\
'{iters=100000000, watch={"loss","gradnorm"}})'

tm_start
tm_wait "$P" 5
tm_line "$RACE"
tm_wait 'gradnorm \[' 5; ok $? "view: a panel per watched metric (gradnorm)"
tm_wait 'loss \[' 1; ok $? "view: a panel per watched metric (loss)"
s=$(tm_screen)
echo "$s" | grep -q ' gd ' && echo "$s" | grep -q ' momentum ' \
  && echo "$s" | grep -q ' adam '
ok $? "view: the legend names the three runs"
echo "$s" | grep -q 'min '; ok $? "view: the legend shows each run's minimum"
echo "$s" | grep -q 'q stop  space pause'; ok $? "view: key help on the status line"
echo "$s" | head -1 | grep -q 'quadratic'; ok $? "view: title shows the problem"
tm_wait 'running' 2; ok $? "view: status says running"
echo "$s" | LC_ALL=C grep -qP '\xe2[\xa0-\xa3][\x80-\xbf]'
ok $? "view: braille series drawn in UTF-8"

tm_keys Space
tm_wait 'paused' 3; ok $? "view: space pauses"
a=$(tm_iter); sleep 0.3; b=$(tm_iter)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "view: no steps while paused ($a = $b)"
tm_keys n
tm_wait "iter $((a + 1))/" 3; ok $? "view: n takes exactly one step"
tm_keys Space
tm_wait 'running' 3; ok $? "view: space resumes"

tm_speed_keys view frame

tm_focus_keys view
tm_keys z
tm_wait_not ' loss \[' 3; ok $? "view: z zooms the focused panel alone"
tm_wait '\* gradnorm \[' 1; ok $? "view: the zoomed panel is the focused one"
tm_keys z
tm_wait ' loss \[' 3; ok $? "view: z again restores the grid"
tm_keys '?'
tm_wait 'pause / resume' 3 && tm_wait 'zoom the focused' 1
ok $? "view: ? shows the help overlay with the keys"
tm_keys x
tm_wait_not 'pause / resume' 3; ok $? "view: any key closes the help"

tm_keys q
tm_wait "$P" 5; ok $? "view: q returns to the prompt"
tm_type 'print(r[1].reason, r[3].reason)'
tm_wait '^> print\(r\[1\]\.reason, r\[3\]\.reason\)' 3
ok $? "view: the terminal is restored (typed text echoes)"
tm_keys Enter
tm_wait '^stopped +stopped' 5; ok $? "view: q stops every run with reason stopped"

tm_line 'r2 = run(problem.quadratic{n=20, cond=100}, optim.gd{lr=0.01}, {iters=1e9, watch={"loss"}})'
tm_wait 'loss \[' 5
tm_keys C-c
tm_wait "$P" 5; ok $? "view: Ctrl-C during a long run returns to the prompt"
tm_line 'print(r2.reason)'
tm_wait '^interrupted$' 5; ok $? "view: the run's reason is interrupted"
tm_line 'print(1 + 2)'
tm_wait '^3$' 5; ok $? "view: the prompt works after Ctrl-C"

tm_line 'r3 = run(problem.quadratic{n=20, cond=100}, optim.gradavg{lr=0.01}, {iters=1e9, watch={"loss"}, xaxis="evals"})'
tm_wait 'loss \[' 5 && tm_wait '─ gradient evaluations ─' 2
ok $? "view: xaxis = \"evals\" names the x axis under the panel (evaluations)"
tm_keys q
tm_wait "$P" 5

done_testing
