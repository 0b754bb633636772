#!/usr/bin/env bash
# tests/repl/smc.t -- the SMC smoothers at the prompt, driven in tmux:
#   (a) an smc.ppg run on problem.ssm opens paused with its own metrics as
#       panels (smooth, pfess: the method's probes), n takes one Gibbs
#       sweep, q returns to the prompt;
#   (b) Ctrl-C during one long PaRIS pass (T = 1e5 observations, N = 2e5
#       particles: minutes of work in a single step, so only the pass's
#       own look at the interrupt flag can stop it) returns to the prompt
#       with the run kept (r.reason "interrupted", as for any run a Ctrl-C
#       stops), and optlab is still usable.  The bound (20
#       s) is a hang guard only: the pass looks every time step and every
#       1024 particles.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^(\^C)?> ?$'
at_prompt () { tm_screen | grep -v '^ *$' | tail -1 | grep -qE -- "$P"; }
titles () { tm_screen | perl -CS -ne 'while (/[\x{250C}]\x{2500}+ (?:\* )?([a-z][a-z0-9_ ,()]*?)(?: \[[^]]*\])? \x{2500}/g) { print "$1\n" }'; }
has () { tm_until "titles | grep -qx '$1'"; }

tm_start
tm_wait '^> ?$'
# (a)
tm_line "r = run(problem.ssm{T = 50}, smc.ppg{N = 16}, {iters = $LIVE_ITERS, paused = true, seed = 1})"
tm_wait 'iter 0/.*paused'; ok $? "smc: the ppg run opens paused at iteration 0"
tm_keys n
tm_wait 'iter 1/.*paused'; ok $? "smc: n takes one sweep"
has 'smooth'; ok $? "smc: its smoothed estimate is a panel"
has 'pfess'; ok $? "smc: ... and its effective sample size"
tm_keys q
tm_until at_prompt; ok $? "smc: q returns to the prompt"

# (b)
M="$T_TMP/in_pass"
tm_line "p = problem.ssm{T = 100000}; io.open('$M', 'w'):close(); r = run(p, smc.paris{N = 200000}, {iters = 1, view = false, progress = false})"
tm_until "[ -e '$M' ]"; ok $? "smc: the long pass starts"
sleep 0.5
tm_keys C-c
t0=$(date +%s)
while ! at_prompt && [ $(($(date +%s) - t0)) -lt 20 ]; do sleep 0.05; done
at_prompt; ok $? "smc: Ctrl-C in a PaRIS pass returns to the prompt"
# the run stopped inside its step is kept, as any run Ctrl-C stops
tm_line 'print("reason=" .. r.reason)'
tm_wait '^reason=interrupted$'; ok $? "smc: ... keeping the run, stopped with reason interrupted"
tm_alive; ok $? "smc: optlab is still running"
tm_line 'print(1+1)'
tm_wait '^2$'; ok $? "smc: print(1+1) prints 2 afterwards"
done_testing
