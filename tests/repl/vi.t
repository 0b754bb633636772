#!/usr/bin/env bash
# tests/repl/vi.t -- the variational family's default view, driven in
# tmux: a vi.fullrank run on a correlated 2-D Gaussian shows its own
# metrics as panels (entropy, kl, elbo, elbo_se, gradvar: the method's
# probes, in metric order), no loss panel.  The run opens paused
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
tm_line "r = run(problem.gauss2d{rho = 0.8}, vi.fullrank{lr = 0.02}, {iters = $LIVE_ITERS, paused = true})"
tm_wait 'iter 0/.*paused'; ok $? "vi: the run opens paused at iteration 0"
has 'elbo'; ok $? "vi: a variational run watches its elbo"
has 'entropy'; ok $? "vi: ... its Gaussian's entropy"
has 'kl'; ok $? "vi: ... and its kl to the Gaussian target"
! titles | grep -qx 'loss'; ok $? "vi: no loss panel"
tm_keys n
tm_wait 'iter 1/.*paused'; ok $? "vi: n takes one step"
tm_keys q
tm_wait "$P"; ok $? "vi: q returns to the prompt"
done_testing
