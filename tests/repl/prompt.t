#!/usr/bin/env bash
# tests/repl/prompt.t -- the interactive prompt, driven in tmux as a person
# uses it: values, completion, multi-line input, errors, Ctrl-C, Ctrl-D,
# history across sessions.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'    # an empty prompt line (capture-pane trims the blank)

tm_start
tm_wait "$P" 5; ok $? "prompt: '> ' appears"

tm_line '1+1'
tm_wait '^2$' 5; ok $? "prompt: 1+1 prints 2"

tm_line 'return 1, "a", nil'
tm_wait '^1 +"?a"? +nil$' 5; ok $? "prompt: several values are tab separated"

tm_type 'string.fo'; tm_keys Tab
tm_wait '^> string\.format' 5; ok $? "prompt: string.fo<Tab> completes string.format"
tm_keys C-u C-c
tm_type 'optim.ad'; tm_keys Tab
tm_wait '^> optim\.ada' 5
tm_keys Tab; tm_wait 'adam( |$)' 2 || { tm_keys Tab; tm_wait 'adam( |$)' 5; }; ok $? "prompt: optim.ad<Tab> offers optim.adam"
tm_keys C-c
tm_line 'qq = run(problem.quadratic{n=2}, optim.gd{}, {iters=3})'
tm_wait "$P" 5
tm_type 'qq:se'; tm_keys Tab
tm_wait '^> qq:series' 5
ok $? "prompt: userdata methods complete (qq:se -> qq:series)"

tm_keys C-u C-c

tm_line 'for i=1,3 do'
tm_wait '^>>( |$)' 5; ok $? "prompt: an open statement shows the '>>' continuation"
tm_line 'print(i*i)'
tm_line 'end'
tm_wait '^9$' 5
tm_screen | tr '\n' ' ' | grep -qE '^.*1 4 9 ' ; ok $? "prompt: the multi-line for prints 1 4 9"

tm_line 'error("boom")'
tm_wait 'boom' 5; ok $? "prompt: error message shown"
tm_wait 'stack traceback' 5; ok $? "prompt: error has a traceback"
tm_line 'print("after" .. "error")'
tm_wait '^aftererror$' 5; ok $? "prompt: the prompt keeps working after an error"

tm_keys C-c
sleep 0.3
tm_line 'print("still" .. "here")'
tm_wait '^stillhere$' 5; ok $? "prompt: Ctrl-C at an empty prompt does not exit"

tm_type 'print("typed'; tm_keys C-c
tm_line 'print("clean" .. "line")'
tm_wait '^cleanline$' 5; ok $? "prompt: Ctrl-C discards the line being typed"

tm_line 'hist_marker_42 = 42'
tm_keys C-d
i=0; while tm_alive && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
! tm_alive; ok $? "prompt: Ctrl-D on an empty line exits"
grep -q '^hist_marker_42 = 42$' "$T_TMP/hist"; ok $? "prompt: history file written"

tm_start
tm_wait "$P" 5
tm_keys Up
tm_wait '^> hist_marker_42 = 42' 5; ok $? "prompt: history persists across sessions"

done_testing
