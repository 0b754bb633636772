#!/usr/bin/env bash
# tests/repl/jset.t -- j:set typed at the prompt (issue 24), driven in
# tmux: a GD job on a quadratic with L = 1 (problem.quadratic's top
# eigenvalue) is opened paused and stepped with j:step, so nothing depends
# on the machine's speed; lr = 1.9 < 2/L converges, j:set{lr = 2.5} past
# 2/L makes the loss grow (by 2.25 a step: more than 10^6 over 30 steps),
# the dashboard's legend shows the lr in force, j:set{lr = 1.2} recovers,
# the replay of r.changes is byte-identical, misuse is named, and print(r)
# lists the changes.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
tm_start
tm_wait "$P"
tm_line 'p = problem.quadratic{n=2, cond=10, seed=3}; m = optim.gd{lr=1.9}'
tm_line 'j = start(p, m, {iters=120, paused=true})'
tm_wait 'job #1 gd'; ok $? "jset: the paused job opens the dashboard"
tm_wait '#1 gd lr=1.9'; ok $? "jset: the legend shows lr=1.9"
tm_line 'j:step(30); a = j.run:last("loss"); print("a<" .. tostring(a < 1e-4))'
tm_wait '^a<true$'; ok $? "jset: lr = 1.9 < 2/L converges (loss below 1e-4 at 30)"
tm_line 'j:set{lr=2.5}'
tm_wait '#1 gd lr=2.5'; ok $? "jset: after j:set the legend shows lr=2.5"
tm_line 'j:step(30); b = j.run:last("loss"); print("grew=" .. tostring(b > 1e6 * a))'
tm_wait '^grew=true$'; ok $? "jset: lr = 2.5 > 2/L: the loss grows by more than 10^6 in 30 steps"
tm_line 'j:set{lr=1.2}; j:step(60); c = j.run:last("loss"); print("back=" .. tostring(c < b / 1e9))'
tm_wait '^back=true$'; ok $? "jset: lowered to 1.2 the loss falls by more than 10^9"
tm_line 'print(j.state, #j.run.changes)'
tm_wait '^done +2$'; ok $? "jset: the job is done at its budget with 2 changes"
tm_line 'r2 = run(p, m, {iters=120, changes=j.run.changes, view=false, progress=false}); print("replay=" .. tostring(r2:csv() == j.run:csv() and r2.x[1] == j.run.x[1]))'
tm_wait '^replay=true$'; ok $? "jset: the replay of r.changes is byte-identical"
tm_line 'print(j.run)'
tm_wait 'changes: lr=2.5 at 30, lr=1.2 at 60 \(started with lr=1.9\)'
ok $? "jset: print(r) lists the changes"
tm_line 'j:set{lr=0.1}'
tm_wait 'job:set: job #1 is done'; ok $? "jset: a done job refuses j:set, named"
tm_line 'k = start(p, optim.adam{}, {iters=10, paused=true})'
tm_wait 'job #2 adam'
tm_line 'k:set{beta1=0.5}'
tm_wait "job:set: adam.beta1 cannot change during a run" &&
  tm_wait "live parameters: lr, eps\)"
ok $? "jset: a parameter that is not live is named with the live ones"
tm_line 'k:set{lrr=1}'
tm_wait "job:set: unknown parameter 'lrr' \(valid: lr, beta1, beta2, eps\)"
ok $? "jset: an unknown parameter lists the method's"
tm_line 'k:stop(); print(1 + 1)'
tm_wait '^2$'; ok $? "jset: the prompt goes on"
tm_alive; ok $? "jset: optlab is still running"

done_testing
