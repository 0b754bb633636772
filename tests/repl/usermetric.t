#!/usr/bin/env bash
# tests/repl/usermetric.t -- a metric written at the prompt (metric.new)
# in the live view, driven in tmux: watched, it gets a panel of its own
# beside a built-in one; an eval that fails stops the run as a callback
# error whose message reaches the prompt; the prompt completes metric.n.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
tm_start
tm_wait "$P"
tm_line 'metric.new{name = "xsq", doc = "||x||^2", eval = function(r) return r.x[1]^2 + r.x[2]^2 end}'
tm_wait '^"xsq"$'; ok $? "usermetric: metric.new at the prompt returns the name"
# a live run (noisy: no stop rule ends it) watching it and the loss
tm_line "r = run(problem.rosenbrock{n=2, noise={sigma=1}}, optim.gd{lr=1e-3}, {iters=$LIVE_ITERS, watch={\"xsq\", \"loss\"}})"
tm_wait 'xsq \[lin\]'; ok $? "usermetric: the live view has a panel titled xsq"
tm_wait 'loss \[log\]'; ok $? "usermetric: ... beside the loss panel"
tm_moves; ok $? "usermetric: the run moves while its metric is recorded"
tm_keys q
tm_wait "$P"; ok $? "usermetric: q returns to the prompt"
tm_line 'print(r:last("xsq") == r.x[1]^2 + r.x[2]^2)'
tm_wait '^true$'; ok $? "usermetric: its last value is ||x||^2 at the last iterate"
# an eval that fails at iteration 40 stops the run; the message names it
tm_line 'metric.new{name = "bad", eval = function(r) if r.iter >= 40 then error("bad at " .. r.iter) end return 0 end}'
tm_wait '^"bad"$'
tm_line "b = run(problem.rosenbrock{n=2}, optim.gd{lr=1e-3}, {iters=$LIVE_ITERS, watch={\"bad\"}})"
# (the live view takes the keys while it is open: wait for the run's own
# message, not for a prompt, which is already on the screen)
tm_wait 'stopped by callback error at iteration 40'
tm_wait "$P"
tm_line 'print(b.reason, b.iter)'
tm_wait 'callback error +40'; ok $? "usermetric: a failing eval stops the run (callback error at 40)"
tm_line 'print(b.message:match("metric bad: [^\n]*"))'
tm_wait 'metric bad: .*bad at 40'; ok $? "usermetric: the message names the metric and the error"
tm_alive; ok $? "usermetric: optlab is still running"
# completion of the table's names
tm_type 'metric.n'
tm_keys Tab
tm_wait '> metric\.new'; ok $? "usermetric: metric.n<Tab> completes to metric.new"
tm_keys C-u
tm_line 'os.exit(0)'
done_testing
