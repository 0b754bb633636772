#!/usr/bin/env bash
# tests/repl/view.t -- the live view of a race, driven in tmux: panels,
# legend, every key, q back to a working prompt, Ctrl-C interrupting.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# The view must still be live when checked, on any machine: LIVE_ITERS is
# never reached, and on a noisy problem no stop rule ends a run; q or
# Ctrl-C ends it.
PROB='problem.quadratic{n=20, cond=100, noise={sigma=1}}'
RACE="r = race($PROB, "\
'{optim.gd{lr=0.5}, optim.momentum{lr=0.5, mu=0.9}, optim.adam{lr=0.05}}, '\
"{iters=$LIVE_ITERS, watch={\"loss\",\"gradnorm\"}})"

tm_start
tm_wait "$P"
tm_line "$RACE"
tm_wait 'gradnorm \['; ok $? "view: a panel per watched metric (gradnorm)"
tm_wait 'loss \['; ok $? "view: a panel per watched metric (loss)"
# (each check retries with a fresh capture: the screen is redrawn live)
tm_until "s=\$(tm_screen); echo \"\$s\" | grep -q ' gd ' \
  && echo \"\$s\" | grep -q ' momentum ' && echo \"\$s\" | grep -q ' adam '"
ok $? "view: the legend names the three runs"
tm_wait 'min '; ok $? "view: the legend shows each run's minimum"
tm_wait 'q stop  space pause'; ok $? "view: key help on the status line"
tm_until "tm_screen | head -1 | grep -q 'quadratic'"
ok $? "view: title shows the problem"
tm_wait 'running'; ok $? "view: status says running"
tm_until "tm_screen | LC_ALL=C grep -qP '\xe2[\xa0-\xa3][\x80-\xbf]'"
ok $? "view: braille series drawn in UTF-8"

# Paused: the iteration stays the same while the view handles keys and
# redraws (the help overlay opened and closed; a running view steps
# between them).
tm_keys Space
tm_wait 'paused'; ok $? "view: space pauses"
a=$(tm_iter_wait)
tm_keys '?'
tm_wait 'pause / resume' && tm_keys x && tm_wait_not 'pause / resume'
b=$(tm_iter_wait)
[ -n "$a" ] && [ "$a" = "$b" ]; ok $? "view: no steps while paused ($a = $b)"
tm_keys n
tm_wait "iter $((a + 1))/"; ok $? "view: n takes exactly one step"
tm_keys Space
tm_wait 'running'; ok $? "view: space resumes"
tm_moves; ok $? "view: stepping resumed"

tm_speed_keys view s

tm_focus_keys view
tm_keys z
tm_wait_not ' loss \['; ok $? "view: z zooms the focused panel alone"
tm_wait '\* gradnorm \['; ok $? "view: the zoomed panel is the focused one"
tm_keys z
tm_wait ' loss \['; ok $? "view: z again restores the grid"
tm_keys '?'
tm_wait 'pause / resume' && tm_wait 'zoom the focused'
ok $? "view: ? shows the help overlay with the keys"
tm_keys x
tm_wait_not 'pause / resume'; ok $? "view: any key closes the help"

tm_keys q
tm_wait "$P"; ok $? "view: q returns to the prompt"
tm_type 'print(r[1].reason, r[3].reason)'
tm_wait '^> print\(r\[1\]\.reason, r\[3\]\.reason\)'
ok $? "view: the terminal is restored (typed text echoes)"
tm_keys Enter
tm_wait '^stopped +stopped'; ok $? "view: q stops every run with reason stopped"

tm_line "r2 = run($PROB, optim.gd{lr=0.01}, {iters=$LIVE_ITERS, watch={\"loss\"}})"
tm_wait 'loss \['
tm_keys C-c
tm_wait "$P"; ok $? "view: Ctrl-C during a long run returns to the prompt"
tm_line 'print(r2.reason)'
tm_wait '^interrupted$'; ok $? "view: the run's reason is interrupted"
tm_line 'print(1 + 2)'
tm_wait '^3$'; ok $? "view: the prompt works after Ctrl-C"

tm_line "r3 = run($PROB, optim.gradavg{lr=0.01}, {iters=$LIVE_ITERS, watch={\"loss\"}, xaxis=\"evals\"})"
tm_wait 'loss \[' && tm_wait '─ gradient evaluations ─'
ok $? "view: xaxis = \"evals\" names the x axis under the panel (evaluations)"
tm_keys q
tm_wait "$P"

# The landscape panel of a 2-D problem takes the focus (Tab cycles through
# it) and zooms like a metric panel.
tm_line "r4 = run(problem.rosenbrock{n=2, noise={sigma=1}}, optim.gd{lr=1e-3}, {iters=$LIVE_ITERS})"
tm_wait 'landscape x1,x2'; ok $? "view: a 2-D problem gets a landscape panel"
tm_keys x
tm_wait '\* loss \[l(og|in), log x\]'; ok $? "view: x sets a log x axis on the focused panel"
tm_keys x
tm_wait_not 'log x\]'; ok $? "view: x again restores the linear x axis"
tm_keys Tab Tab
tm_wait '\* landscape x1,x2'; ok $? "view: Tab focuses the landscape panel"
tm_keys z
tm_wait_not 'loss \[' && tm_wait 'landscape x1,x2'
ok $? "view: z zooms the landscape panel alone"
tm_keys z Tab
tm_wait '\* loss \['; ok $? "view: Tab from the landscape cycles back to the first panel"
tm_keys q
tm_wait "$P"

done_testing
