#!/usr/bin/env bash
# tests/repl/axes.t -- the axes of the live view, driven in tmux: a loss
# that underflows to denormals and exact zeros is drawn at the floor with
# a mark and does not set the y range; xlog = true gives a log x axis with
# decade ticks from 1, and the x key toggles it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# f is x'x until it drops below 1e-6, then 3e-323 (a denormal); with
# tol = 0 nothing stops gd, which goes on at the floor: q ends it.
tm_start
tm_wait "$P"
tm_line 'p = problem.new{n = 2, x0 = {1, 1}, f = function (x) local v = x[1]^2 + x[2]^2; if v < 1e-6 then return 3e-323 end; return v end, grad = function (x) return {2 * x[1], 2 * x[2]} end}'
tm_wait "$P"
tm_line "r = run(p, optim.gd{lr = 0.2}, {iters = $LIVE_ITERS, tol = 0, watch = {\"loss\"}})"
tm_wait 'loss \[log'; ok $? "axes: the view of an underflowing loss opens"
tm_until "tm_screen | grep -q '▼▼▼'"
ok $? "axes: the denormal losses are ▼ marks on the floor"
# y tick labels: the lowest is 1e-6 or above (the axis is not stretched to
# 1e-323), read from the tick marks on the y axis
lowest () { tm_screen | perl -CS -ne 'print "$1\n" if /^\S\s*([0-9.e+-]+)\x{2524}/' \
  | sort -g | head -1; }
tm_until "l=\$(lowest); [ -n \"\$l\" ] && perl -e 'exit(!(\$ARGV[0] >= 1e-7))' \"\$l\""
ok $? "axes: the y range ends at the normal values (lowest tick $(lowest))"
tm_keys q
tm_wait "$P"; ok $? "axes: q returns to the prompt"

# log x: the option, decade ticks 1 10 100 ..., the x key toggles it; at
# 300 steps a second the run needs minutes to pass 1e5 iterations, where
# ticks would start to skip decades, on any machine
tm_line "r = run(problem.rosenbrock{n=2, noise={sigma=1}}, optim.adam{lr=0.01}, {iters = $LIVE_ITERS, xlog = true, speed = 300, watch = {\"loss\"}})"
tm_wait 'loss \[log, log x\]'; ok $? "axes: xlog = true draws a log x axis"
ticks () { tm_screen | perl -CS -ne 'if ($p) { print; exit } $p = 1 if /\x{2514}\x{2534}/'; }
tm_until "ticks | grep -qE '^. +1 +10 +100( |\$)'"
ok $? "axes: log x ticks are the decades 1 10 100 ($(ticks | tr -s ' ' | cut -c1-40))"
tm_until "tm_screen | grep -q 'iteration (log)'"
ok $? "axes: the x axis title says (log)"
tm_keys x
tm_wait 'loss \[log\]'; ok $? "axes: x switches the focused panel to a linear x axis"
tm_keys x
tm_wait 'loss \[log, log x\]'; ok $? "axes: x again gives the log x axis back"
tm_keys q
tm_wait "$P"; ok $? "axes: q returns to the prompt"
done_testing
