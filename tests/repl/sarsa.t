#!/usr/bin/env bash
# tests/repl/sarsa.t -- rl.sarsa's default view, driven in tmux: a run on
# problem.linmdp shows its region (M28) as a panel and no loss panel; the
# run opens paused (paused = true), so the screen does not depend on the
# machine's speed; n takes steps, q ends; a run on a problem without
# features is refused at the prompt with a message naming
# problem.linmdp, and the prompt survives.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
titles () { tm_screen | perl -CS -ne 'while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,()]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }
has () { tm_until "titles | grep -qx '$1'"; }

tm_start
tm_wait "$P"
tm_line "r = run(problem.linmdp{}, rl.sarsa{}, {iters = $LIVE_ITERS, paused = true, seed = 1})"
tm_wait 'iter 0/.*paused'; ok $? "sarsa: the run opens paused at iteration 0"
has 'region'; ok $? "sarsa: it watches the region its iterates chatter in"
! titles | grep -qx 'loss'; ok $? "sarsa: no loss panel"
tm_keys n
tm_wait 'iter 1/.*paused'; ok $? "sarsa: n takes one step"
tm_keys q
tm_wait "$P"; ok $? "sarsa: q returns to the prompt"
tm_line "run(problem.stopping{}, rl.sarsa{}, {iters = 10})"
tm_wait 'needs a discounted MDP with features \(problem.linmdp\)'
ok $? "sarsa: a problem without features is refused, naming problem.linmdp"
tm_wait "$P"; ok $? "sarsa: the prompt is back"
done_testing
