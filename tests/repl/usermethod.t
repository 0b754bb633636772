#!/usr/bin/env bash
# tests/repl/usermethod.t -- a method written at the prompt (optim.new,
# issue 24), driven in tmux: ?optim.myhb shows its help and parameter
# table from its params, Tab after "optim.myhb{" completes its parameter
# names, an unknown key names the valid ones, and Ctrl-C stops a run whose
# step loops (the prompt comes back and the run says "interrupted").
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'

tm_start
tm_wait "$P"; ok $? "usermethod: '> ' appears"

tm_line 'optim.new{name = "myhb", doc = "heavy ball in Lua", ref = "Polyak 1964", params = {lr = {default = 0.01, min = 0, doc = "step size"}, mu = {default = 0.9, min = 0, max = 1, max_open = true, doc = "momentum"}}, init = function (s, x) s.g, s.d = {}, {0, 0} end, step = function (s, x, o, p) o:stochastic_grad(x, s.g) for i = 1, #x do s.d[i] = p.mu * s.d[i] - p.lr * s.g[i] x[i] = x[i] + s.d[i] end end}'
tm_line '?optim.myhb'
tm_wait '^optim\.myhb -- heavy ball in Lua'; ok $? "usermethod: ?optim.myhb shows its help"
tm_wait '^  mu +0\.9 +\[0, 1\) +momentum'; ok $? "usermethod: ... with its parameter table"

tm_type 'm = optim.myhb{m'; tm_keys Tab
tm_wait '^> m = optim\.myhb\{mu=$'; ok $? "usermethod: optim.myhb{m<Tab> completes mu="
tm_type '0.5}'; tm_keys Enter
tm_line 'print(m)'
tm_wait '^myhb\{lr=0\.01, mu=0\.5\}$'; ok $? "usermethod: the completed constructor makes the method"

tm_line 'optim.myhb{lrr = 1}'
tm_wait "unknown parameter 'lrr' \(valid: lr, mu\)"; ok $? "usermethod: an unknown key names the valid ones"

tm_line 'optim.new{name = "spin", step = function () print("spin" .. "ning") while true do end end}'
tm_line 'r = run(problem.rosenbrock{}, optim.spin{}, {iters = 10, view = false, progress = false})'
tm_wait '^spinning$'; ok $? "usermethod: the looping step runs"
tm_keys C-c
tm_wait "$P" ; ok $? "usermethod: Ctrl-C in a looping step gives the prompt back"
tm_line 'print(r and r.reason or "no run")'
tm_wait '^interrupted$'; ok $? "usermethod: the run stopped as interrupted"

done_testing
