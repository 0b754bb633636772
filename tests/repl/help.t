#!/usr/bin/env bash
# tests/repl/help.t -- help at the prompt, driven in tmux: ?name shows a
# method's help on the screen (Julia's help mode), ? alone the overview,
# ?optim.adma and optim.adma{} the did-you-mean line, also beside a
# job's dashboard; Tab after "optim.adam{" completes parameter names.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'    # an empty prompt line (capture-pane trims the blank)

tm_start
tm_wait "$P"; ok $? "help: '> ' appears"

tm_line '?adam'
tm_wait '^optim\.adam -- Adam'; ok $? "help: ?adam shows optim.adam's help"
tm_wait '^  beta1 +0\.9 '; ok $? "help: ?adam shows the parameter table"
tm_line 'clear_marker_1 = 1'

tm_line '?optim.lbfgs'
tm_wait '^optim\.lbfgs -- L-BFGS'; ok $? "help: ?optim.lbfgs (a path)"

tm_line '?run'
tm_wait 'record_x'; ok $? "help: ?run shows run's options"

tm_line '?optim'
# (the list is longer than the 40-line screen: its header scrolls off, the
# last entries and the closing hint stay)
tm_wait '^help\(optim\.<name>\) or \?optim\.<name>'; ok $? "help: ?optim lists the optimizers"
tm_wait '^  sqp  *line-search SQP'; ok $? "help: ... down to the last, sqp"

tm_line '?optim.adma'
tm_wait "^no optimizer 'adma' -- did you mean adam\?$"
ok $? "help: ?optim.adma prints the did-you-mean line"

tm_line 'm = optim.adma{}'
tm_wait "stdin:1: no optimizer 'adma' -- did you mean adam\?"
ok $? "help: optim.adma{} raises the did-you-mean error"

tm_line '?'
tm_wait '^metrics \(run'; ok $? "help: ? alone shows the overview with the metrics"

tm_line 'print("still" .. "here")'
tm_wait '^stillhere$'; ok $? "help: the prompt works after ?-lines"

# completion of parameter names in a constructor's table
tm_type 'm = optim.adam{l'; tm_keys Tab
tm_wait '^> m = optim\.adam\{lr=$'; ok $? "help: optim.adam{l<Tab> completes lr="
tm_type '0.1, be'; tm_keys Tab
tm_wait '^> m = optim\.adam\{lr=0\.1, beta$'
ok $? "help: optim.adam{lr=0.1, be<Tab> completes the common prefix beta"
# (after a Tab that inserted text, readline lists on the Tab after next)
tm_keys Tab Tab
tm_wait '(^| )beta1=( |$)' && tm_wait '(^| )beta2=( |$)'
ok $? "help: more Tabs list beta1= and beta2="
tm_type '1=0.8}'; tm_keys Enter
tm_line 'print(m.beta1 + m.lr)'
tm_wait '^0\.9$'; ok $? "help: the completed constructor runs (beta1 + lr = 0.9)"

tm_type 'p = problem.quadratic{co'; tm_keys Tab
tm_wait '^> p = problem\.quadratic\{cond=$'
ok $? "help: problem.quadratic{co<Tab> completes cond="
tm_keys C-u C-c

tm_type 'x = {string.fo'; tm_keys Tab
tm_wait '^> x = \{string\.format'
ok $? "help: a plain table constructor still completes globals"
tm_keys C-u C-c

# with a job running, the dashboard's output window shows the help too
tm_line 'j = start(problem.rosenbrock{n=2}, optim.adam{lr=1e-3}, {iters=1e9})'
tm_wait '1 job, 1 running'; ok $? "help: a job's dashboard opens"
tm_line '?nuts'
tm_wait '^sample\.nuts -- No-U-Turn' && tm_wait '^  maxdepth +10 '
ok $? "help: ?nuts beside the dashboard shows nuts's help"
tm_line 'j:stop()'

done_testing
