#!/usr/bin/env bash
# tests/repl/prompt.t -- the interactive prompt, driven in tmux as a person
# uses it: values, completion, multi-line input, errors, Ctrl-C, Ctrl-D,
# history across sessions.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'    # an empty prompt line (capture-pane trims the blank)

tm_start
tm_wait "$P"; ok $? "prompt: '> ' appears"

tm_line '1+1'
tm_wait '^2$'; ok $? "prompt: 1+1 prints 2"

tm_line 'return 1, "a", nil'
tm_wait '^1 +"?a"? +nil$'; ok $? "prompt: several values are tab separated"

tm_type 'string.fo'; tm_keys Tab
tm_wait '^> string\.format'; ok $? "prompt: string.fo<Tab> completes string.format"
tm_keys C-u C-c
# (the first Tab completes the common prefix, if any; the second lists)
tm_type 'optim.ad'; tm_keys Tab Tab
tm_wait '(^| )optim\.adam( |$)'; ok $? "prompt: optim.ad<Tab><Tab> offers optim.adam"
tm_keys C-c
tm_line 'qq = run(problem.quadratic{n=2}, optim.gd{}, {iters=3})'
# (the run's live view takes the keys while it is open: wait for the
# summary it prints when it closes, not for a prompt, which is already on
# the screen from before -- keys typed into the view were lost under load)
tm_wait 'stopped: budget after 3 iterations'
tm_wait "$P"
tm_type 'qq:ser'; tm_keys Tab
tm_wait '^> qq:series'
ok $? "prompt: userdata methods complete (qq:ser -> qq:series)"
tm_keys C-u C-c
tm_line 'print("after" .. " ser")'
tm_wait '^after ser$'
# two methods share 'se' (series, and set: live parameters): both listed
tm_type 'qq:se'; tm_keys Tab Tab
tm_wait '(^| )qq:set( |$)' && tm_wait '(^| )qq:series( |$)'
ok $? "prompt: qq:se<Tab><Tab> offers qq:series and qq:set"

tm_keys C-u C-c

tm_line 'for i=1,3 do'
tm_wait '^>>( |$)'; ok $? "prompt: an open statement shows the '>>' continuation"
tm_line 'print(i*i)'
tm_line 'end'
tm_wait '^9$'
tm_screen | tr '\n' ' ' | grep -qE '^.*1 4 9 ' ; ok $? "prompt: the multi-line for prints 1 4 9"

tm_line 'math.max(3,'
tm_wait '^>> ?$'; ok $? "prompt: an open call continues on a >> line"
tm_line '  4000 + 17)'
tm_wait '^4017$'; ok $? "prompt: an expression typed over two lines prints its value"
tm_line 'local function twice (v)'
tm_line '  return 2 * v end'
tm_line 'print("multi" .. "ok")'
tm_wait '^multiok$'; ok $? "prompt: a multi-line statement still runs as a statement"

tm_line 'error("boom")'
tm_wait 'boom'; ok $? "prompt: error message shown"
tm_wait 'stack traceback'; ok $? "prompt: error has a traceback"
tm_line 'print("after" .. "error")'
tm_wait '^aftererror$'; ok $? "prompt: the prompt keeps working after an error"

tm_keys C-c
# (Ctrl-C was handled once the line shows ^C and a fresh prompt follows)
tm_until "tm_screen | grep -v '^\$' | tail -2 | head -1 | grep -qE '^> ?\^C\$'" \
  && tm_until "tm_screen | grep -v '^\$' | tail -1 | grep -qE '^>\$'"
ok $? "prompt: Ctrl-C at an empty prompt shows ^C and a fresh prompt"
tm_line 'print("still" .. "here")'
tm_wait '^stillhere$'; ok $? "prompt: Ctrl-C at an empty prompt does not exit"

tm_type 'print("typed'; tm_keys C-c
tm_line 'print("clean" .. "line")'
tm_wait '^cleanline$'; ok $? "prompt: Ctrl-C discards the line being typed"

tm_line 'hist_marker_42 = 42'
tm_keys C-d
tm_until '! tm_alive'; ok $? "prompt: Ctrl-D on an empty line exits"
grep -q '^hist_marker_42 = 42$' "$T_TMP/hist"; ok $? "prompt: history file written"

tm_start
tm_wait "$P"
tm_keys Up
tm_wait '^> hist_marker_42 = 42'; ok $? "prompt: history persists across sessions"

done_testing
