#!/usr/bin/env bash
# tests/repl/workers.t -- the workers panel of a 2-D decentralized run,
# driven in tmux: dist.dsgd on fsquad split among 8 heterogeneous workers
# opens with its loss, gradnorm and consensus panels and, beside them, the
# workers panel (each node's iterate as a mark around their average, the
# average's mark), in place of the landscape.  The run opens paused
# (paused = true), so the screen does not depend on the machine's speed:
# at iteration 0 every node sits at x0 under the average's mark; after
# steps (n, 20 times) the nodes' marks spread apart around it; a finished
# gradient-tracking run's plot (r:plot) shows them agreed again.  A 2-D
# federated run (dist.fedavg on problem.fedquad) shows its clients' last
# local iterates the same way.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
titles () { tm_screen | perl -CS -ne 'while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,.:()+-]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }
has () { tm_until "titles | grep -q '$1'"; }
# marks: the node marks (U+2022) on the screen, the legend's key included
marks () { tm_screen | perl -CS -ne '$n += () = /\x{2022}/g; END { print $n + 0, "\n" }'; }

tm_start
tm_wait "$P"
tm_line "p = problem.fsquad{N = 40, d = 2, noise = {kind = 'none'}}; problem.workers(p, {n = 8, heterogeneity = 1, seed = 1})"
tm_wait "$P"
tm_line "r = run(p, dist.dsgd{lr = 0.3}, {iters = 100, paused = true})"
tm_wait 'iter 0/100 .*paused'; ok $? "workers: the dsgd run opens paused at iteration 0"
has '^workers x1,x2: 8 workers'; ok $? "workers: the workers panel of the 8 nodes"
has '^consensus'; ok $? "workers: a consensus panel"
! titles | grep -q 'landscape'; ok $? "workers: in place of the landscape"
tm_until "tm_screen | grep -q $'\u2295 average'"; ok $? "workers: the legend keys the average's mark"
[ "$(marks)" -le 1 ]; ok $? "workers: at iteration 0 the nodes sit under the average ($(marks) marks)"
for i in $(seq 20); do tm_keys n; done
tm_wait 'iter 20/100 .*paused'; ok $? "workers: n steps the run"
tm_until '[ "$(marks)" -ge 6 ]'; ok $? "workers: after 20 rounds the nodes' marks spread around the average ($(marks))"
tm_keys q
tm_wait "$P"; ok $? "workers: q returns to the prompt"
tm_keys C-l     # (the run's last frame stays on the screen: clear it)
tm_wait_not 'workers x1,x2: 8 workers'
tm_line "g = run(p, dist.gt{lr = 0.2}, {iters = 600, view = false, progress = false}); g:plot{watch = {'workers'}, width = 60, height = 16}"
has '^workers x1,x2: 8 workers, consensus [0-9.]*e-[2-9][0-9]'; ok $? "workers: a finished gt run's plot: consensus below 1e-20 in the title"
tm_until '[ "$(marks)" -le 1 ]'; ok $? "workers: the agreed nodes hidden under the average ($(marks) marks: the key)"
tm_line "f = run(problem.fedquad{n = 2, workers = 6}, dist.fedavg{K = 5}, {iters = 50, paused = true})"
tm_wait 'iter 0/50 .*paused'; ok $? "workers: a 2-D fedavg run on fedquad opens paused"
has '^workers x1,x2: 6 workers'; ok $? "workers: the federated run's workers panel"
for i in $(seq 5); do tm_keys n; done
tm_wait 'iter 5/50 .*paused'
tm_until '[ "$(marks)" -ge 4 ]'; ok $? "workers: the clients' local iterates apart around the server's model ($(marks) marks)"
tm_keys q
tm_wait "$P"; ok $? "workers: q returns to the prompt"
done_testing
