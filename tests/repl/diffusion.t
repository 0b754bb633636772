#!/usr/bin/env bash
# tests/repl/diffusion.t -- the diffusion family's default view, driven in
# tmux: a diffusion.ddpm run on the 2-D ring problem.gmm{} shows its own
# metrics as panels (entropy, kl, w2, tv, modeweights: the method's
# probes, in metric order), and the particles as a cloud over the
# target's contours, no loss or landscape panel; the budget is the steps.  The run opens paused
# (paused = true), so the screen does not depend on the machine's speed;
# n steps it, q ends it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# titles: the panel titles on the screen, in order, one a line
titles () { tm_screen | perl -CS -ne 'while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,()]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }
has () { tm_until "titles | grep -qx '$1'"; }

tm_start
tm_wait "$P"
tm_line "r = run(problem.gmm{}, diffusion.ddpm{steps = 50}, {samples = 500, paused = true})"
tm_wait 'iter 0/50 .*paused'; ok $? "diffusion: the run opens paused at iteration 0 of its 50 steps"
has 'kl'; ok $? "diffusion: a ddpm run watches its particles' kl"
has 'tv'; ok $? "diffusion: ... their tv"
has 'entropy'; ok $? "diffusion: ... their entropy"
has 'w2'; ok $? "diffusion: ... their w2 to the target's moments"
has 'modeweights'; ok $? "diffusion: ... and their mode-weight error"
! titles | grep -qx 'loss'; ok $? "diffusion: no loss panel"
has 'cloud x1,x2 over log p contours'; ok $? "diffusion: the particles as a cloud over the target's contours"
! titles | grep -q 'landscape'; ok $? "diffusion: no landscape of the particles' mean"
tm_keys n
tm_wait 'iter 1/.*paused'; ok $? "diffusion: n takes one step"
tm_keys q
tm_wait "$P"; ok $? "diffusion: q returns to the prompt"
done_testing
