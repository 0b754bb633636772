#!/usr/bin/env bash
# tests/repl/rl.t -- the RL family's default view, driven in tmux: an
# rl.pg run on problem.stopping shows its own metrics as panels (entropy,
# gap, dentropy_pred, dentropy: the method's probes, in metric order),
# the entropy and gap panels side by side on one row, no loss panel; an
# rl.qae run on problem.rlvr adds zeroadv, zeroadv_pred and pass1.  The
# runs open paused (paused = true), so the screen does not depend on the
# machine's speed; n steps, q ends.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# titles: the panel titles on the screen, in order, one a line
titles () { tm_screen | perl -CS -ne 'while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,()]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }
has () { tm_until "titles | grep -qx '$1'"; }
# row: the titles of the screen line that holds title $1, one a line
row () { tm_screen | perl -CS -ne 'next unless /[\x{250C}]\x{2500}+ (?:\* )?'"$1"'(?: \[[^]]*\])? \x{2500}/; while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,()]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }

tm_start
tm_wait "$P"
tm_line "r = run(problem.stopping{}, rl.pg{lr = 2}, {iters = $LIVE_ITERS, paused = true})"
tm_wait 'iter 0/.*paused'; ok $? "rl: the run opens paused at iteration 0"
has 'entropy'; ok $? "rl: a policy-gradient run watches its policy entropy"
has 'gap'; ok $? "rl: ... and its gap V* - V^pi"
has 'dentropy_pred'; ok $? "rl: ... the predicted one-step entropy change"
has 'dentropy'; ok $? "rl: ... and the actual one"
row entropy | grep -qx gap; ok $? "rl: the entropy and gap panels are side by side"
! titles | grep -qx 'loss'; ok $? "rl: no loss panel"
tm_keys n
tm_wait 'iter 1/.*paused'; ok $? "rl: n takes one step"
tm_keys q
tm_wait "$P"; ok $? "rl: q returns to the prompt"

tm_line "g = run(problem.rlvr{}, rl.qae{K = 0.6}, {iters = $LIVE_ITERS, paused = true, seed = 1})"
tm_wait 'iter 0/.*paused'; ok $? "rl: a qae run opens paused"
has 'zeroadv'; ok $? "rl: qae watches its zero-advantage fraction"
has 'zeroadv_pred'; ok $? "rl: ... beside its closed form"
# (seven panels: at 120x40 one is left out rather than all squeezed
# below 5 plot rows, and the border says so; Tab brings it in)
tm_wait '1 more panel: Tab or z' 5 && tm_keys Tab Tab Tab Tab Tab Tab
has 'pass1'; ok $? "rl: ... and pass@1"
tm_keys q
tm_wait "$P"; ok $? "rl: q returns to the prompt"
done_testing
