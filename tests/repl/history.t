#!/usr/bin/env bash
# tests/repl/history.t -- a prompt whose history cannot be saved says so,
# once, on stderr (issue 9): no HOME, a HOME that does not exist, a history
# file that refuses writes (/dev/full: ENOSPC even for root, who ignores
# read-only modes).  The prompt works either way.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
NOTE='history will not be saved'

# the screen with wrapped lines joined (the notes name long paths)
joined () { tm capture-pane -p -J -t t; }
count () { joined | grep -c -- "$NOTE"; }

tm_start OPTLAB_HISTORY= HOME=
tm_wait "$NOTE"; ok $? "history: no HOME says the history will not be saved"
tm_screen | grep -q 'HOME is not set'; ok $? "history: ... naming HOME"
tm_line 'print(6*7)'
tm_wait '^42$'; ok $? "history: the prompt works without HOME"

tm_start OPTLAB_HISTORY= HOME=$T_TMP/nosuch
tm_until 'joined | grep -q -- "$NOTE"'; ok $? "history: a missing HOME says so"
joined | grep -q "cannot write $T_TMP/nosuch/.optlab_history"
ok $? "history: ... naming the file"

tm_start OPTLAB_HISTORY=/dev/full
tm_wait "$P"
tm_line 'print(1)'
tm_wait "$NOTE"; ok $? "history: a file that refuses the append says so"
tm_line 'print(2)'
tm_line 'print(3)'
tm_wait '^3$'
[ "$(count)" = 1 ]; ok $? "history: ... once (got $(count))"

done_testing
