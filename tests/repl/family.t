#!/usr/bin/env bash
# tests/repl/family.t -- each method family's default panels in the live
# view, driven in tmux: a game shows exploitability, entropy and the
# simplex (no loss panel), a sampler its acceptance, the x1 trace and the
# sample cloud (the landscape for a 2-D density), an optimizer loss and
# gradnorm.  Every run is live until q (LIVE_ITERS).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# titles: the panel titles on the screen, in order, one a line
titles () { tm_screen | perl -CS -ne 'while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,()]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }
has () { tm_until "titles | grep -qx '$1'"; }

tm_start
tm_wait "$P"
tm_line "g = run(problem.rps{}, game.rmplus{}, {iters = $LIVE_ITERS})"
has 'exploitability_avg'; ok $? "family: a game watches the average's exploitability"
has 'exploitability'; ok $? "family: ... and the last iterate's"
has 'entropy'; ok $? "family: a game watches entropy"
tm_until "tm_screen | grep -q 'exploitability_avg \\[[a-z]*, log x\\]'"
ok $? "family: the game's gap panel is on log x by default"
has 'simplex (one path per player)'; ok $? "family: a game shows the simplex"
! titles | grep -qx 'loss'; ok $? "family: a game has no loss panel"
tm_keys q
tm_wait "$P"

tm_line "s = run(problem.gauss2d{}, sample.nuts{}, {iters = $LIVE_ITERS})"
has 'accept'; ok $? "family: a sampler watches its acceptance"
has 'trace x1'; ok $? "family: a sampler shows the x1 trace"
has 'cloud x1,x2 over log p contours'; ok $? "family: a 2-D sampler shows the draws over the density's contours"
tm_keys q
tm_wait "$P"

tm_line "c = run(problem.gaussian{n = 5}, sample.rwmh{}, {iters = $LIVE_ITERS})"
has 'cloud x1,x2'; ok $? "family: a 5-D sampler shows the sample cloud"
has 'trace x1'; ok $? "family: ... and the x1 trace"
tm_keys q
tm_wait "$P"

tm_line "o = run(problem.rosenbrock{n = 2, noise = {sigma = 1}}, optim.adam{}, {iters = $LIVE_ITERS})"
has 'loss'; ok $? "family: an optimizer watches loss"
has 'gradnorm'; ok $? "family: an optimizer watches gradnorm"
tm_keys q
tm_wait "$P"; ok $? "family: q returns to the prompt"
done_testing
