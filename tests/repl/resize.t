#!/usr/bin/env bash
# tests/repl/resize.t -- the live view reflows on resize: 120x40 (two
# columns), 60x28 (one column), 60x20 (two columns again: stacked, the
# panels would get under 5 plot rows), 30x8 ("too small"), back to 120x40.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# The view must still be live when checked, on any machine: LIVE_ITERS is
# never reached, and on a noisy problem no stop rule ends a run; q ends it.
RACE='r = race(problem.quadratic{n=20, cond=100, noise={sigma=1}}, '\
'{optim.gd{lr=0.5}, optim.momentum{lr=0.5, mu=0.9}, optim.adam{lr=0.05}}, '\
"{iters=$LIVE_ITERS, watch={\"loss\",\"gradnorm\"}})"

side_by_side () { tm_screen | grep -qE 'loss \[.*gradnorm \['; }
panel_rows () { tm_screen | grep -oE ' (loss|gradnorm) \[' | wc -l; }

tm_start
tm_wait "$P"
tm_line "$RACE"
tm_wait 'gradnorm \['
tm_until side_by_side; ok $? "resize: 120x40 shows the panels side by side"

tm_resize 60 28
tm_wait_not 'loss \[.*gradnorm \[' && tm_wait 'gradnorm \['
ok $? "resize: 60x28 stacks the panels in one column"
tm_until '[ "$(panel_rows)" -eq 2 ]'
ok $? "resize: both panels still shown at 60x28"

# 60x20: stacked, each would get 3 plot rows; two columns give 12
tm_resize 60 20
tm_until side_by_side
ok $? "resize: 60x20 puts the panels side by side rather than squeeze them"
tm_until '[ "$(panel_rows)" -eq 2 ]'
ok $? "resize: both panels still shown at 60x20"
tm_until "tm_screen | head -1 | grep -q 'running  speed max'"
ok $? "resize: the title line fits 60 columns"
tm_until "tm_screen | tail -1 | grep -q '^q stop'"
ok $? "resize: the status line is at the bottom"

tm_resize 30 8
tm_wait 'too small \(30x8\)'; ok $? "resize: 30x8 says the terminal is too small"
tm_alive; ok $? "resize: still running at 30x8"

tm_resize 120 40
tm_wait 'loss \[.*gradnorm \['; ok $? "resize: back to 120x40 reflows to two columns"
tm_wait 'running' && tm_moves; ok $? "resize: the experiment kept running"

tm_keys q
tm_wait "$P"; ok $? "resize: q returns to the prompt"
tm_line 'print(r[2].reason)'
tm_wait '^stopped$'; ok $? "resize: the runs stopped cleanly"

done_testing
