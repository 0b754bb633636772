#!/usr/bin/env bash
# tests/repl/constraints.t -- a generally constrained problem's live view
# (issue 12): optim.auglag on Hock & Schittkowski's HS071 shows the loss
# and the three parts of IPOPT's KKT error, stationarity, feasibility and
# complementarity, as its default panels (and no gradnorm panel: grad f
# does not vanish at a constrained optimum).  tol = ctol = 0 keep the run
# live until q (LIVE_ITERS).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
titles () { tm_screen | perl -CS -ne 'while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,()]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }
has () { tm_until "titles | grep -qx '$1'"; }

tm_start
tm_wait "$P"
tm_line 'p = problem.new{n = 4, f = function (x) return x[1]*x[4]*(x[1]+x[2]+x[3]) + x[3] end, constraints = {{kind = "ineq", c = function (x) return x[1]*x[2]*x[3]*x[4] - 25 end}, {kind = "eq", c = function (x) return x[1]^2+x[2]^2+x[3]^2+x[4]^2 - 40 end}}, lower = 1, upper = 5, x0 = {1, 5, 5, 1}}'
tm_wait "$P"
tm_line "r = run(p, optim.auglag{tol = 0, ctol = 0}, {iters = $LIVE_ITERS})"
has 'loss'; ok $? "constraints: the view watches loss"
has 'stationarity'; ok $? "constraints: ... stationarity"
has 'feasibility'; ok $? "constraints: ... feasibility"
has 'complementarity'; ok $? "constraints: ... complementarity"
! titles | grep -qx 'gradnorm'; ok $? "constraints: no gradnorm panel"
tm_keys q
tm_wait "$P"; ok $? "constraints: q returns to the prompt"
done_testing
