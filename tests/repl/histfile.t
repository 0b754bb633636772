#!/usr/bin/env bash
# tests/repl/histfile.t -- the prompt's history file (issue 22, item 5):
# written mode 0600 even when it existed with another mode, never through
# a symbolic link (refused with a message naming it; the link's target is
# left alone), and never more than its documented 1000 lines (it grew to
# 1004: it was cut back only every 100 lines).  The prompt works either
# way.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
H="$T_TMP/hist"
joined () { tm capture-pane -p -J -t t; }

# (1) an existing file of mode 0644 is made 0600, its lines kept
printf 'print("old1")\nprint("old2")\n' > "$H"
chmod 644 "$H"
tm_start
tm_wait "$P"
tm_line 'print(40+2)'
tm_wait '^42$'
tm_until "grep -q 'print(40+2)' '$H'"; ok $? "histfile: the line is appended"
[ "$(stat -c %a "$H")" = 600 ]; ok $? "histfile: mode 0600 (was 0644, now $(stat -c %a "$H"))"
[ "$(head -1 "$H")" = 'print("old1")' ]; ok $? "histfile: the old lines are kept"
tm_keys C-d
tm_until '! tm_alive' 10

# (2) a new file is made 0600
rm -f "$H"
tm_start
tm_wait "$P"
tm_line 'print(1)'
tm_until "grep -q 'print(1)' '$H'"; ok $? "histfile: a new file is written"
[ "$(stat -c %a "$H")" = 600 ]; ok $? "histfile: ... mode 0600 ($(stat -c %a "$H"))"
tm_keys C-d
tm_until '! tm_alive' 10

# (3) a symbolic link: refused, named, its target untouched
echo 'secret' > "$T_TMP/target"
chmod 644 "$T_TMP/target"
rm -f "$H"
ln -s "$T_TMP/target" "$H"
tm_start
tm_until "joined | grep -q 'is a symbolic link'"
ok $? "histfile: a symbolic link is refused with a message"
joined | grep -q "$H is a symbolic link"; ok $? "histfile: ... naming it"
tm_line 'print(6*7)'
tm_wait '^42$'; ok $? "histfile: the prompt works"
[ "$(cat "$T_TMP/target")" = secret ] && [ "$(stat -c %a "$T_TMP/target")" = 644 ]
ok $? "histfile: the link's target is unchanged"
tm_keys C-d
tm_until '! tm_alive' 10
rm -f "$H"

# (4) the limit: 1000 lines already, 5 more typed; and 1200 at the start
for i in $(seq 1 1000); do echo "x = $i"; done > "$H"
tm_start
tm_wait "$P"
for i in 1 2 3 4 5; do tm_line "y = $i"; done
tm_line 'print("typed")'
tm_wait '^typed$'
n=$(wc -l < "$H")
[ "$n" -le 1000 ]; ok $? "histfile: at most 1000 lines after 1005 entries ($n)"
[ "$(tail -1 "$H")" = 'print("typed")' ]; ok $? "histfile: the latest line is last"
tm_keys C-d
tm_until '! tm_alive' 10
for i in $(seq 1 1200); do echo "x = $i"; done > "$H"
tm_start
tm_wait "$P"
tm_line 'print("in")'
tm_wait '^in$'
n=$(wc -l < "$H")
[ "$n" -le 1000 ]; ok $? "histfile: a file of 1200 lines is cut to at most 1000 ($n)"
grep -q '^x = 1200$' "$H"; ok $? "histfile: ... keeping the latest"
tm_keys Up Up
tm_wait '> x = 1200'; ok $? "histfile: the history of the file is recalled"

done_testing
