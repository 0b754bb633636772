#!/usr/bin/env bash
# tests/repl/lesson.t -- lesson scripts as a class sees them (issue 26):
#   (a) lesson.say's caption is shown in the live view, above the key line;
#   (b) lesson.pause waits until space (another key does not end it), and
#       resumes on space; lesson.ask ignores a letter out of range and
#       returns the index and the choice of the letter pressed;
#   (c) Ctrl-C at a pause stops the script with "interrupted!" and gives a
#       working prompt back (-i);
#   (d) optlab --lesson steps through the sections: space runs the next,
#       the key line of a live view names the section, backspace goes back
#       (the screen cleared, the sections before it run quietly, a poll
#       asked again), q quits with status 0;
#   (e) headless (stdout a pipe) the same scripts print their captions and
#       questions, never wait, and ask returns nil;
#   (f) scripts/lesson_momentum.lua, the man page's worked lesson, stepped
#       through on a terminal to its verdict.
# Every wait polls the screen up to T_WAIT seconds; nothing sleeps.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^(\^C)?> ?$'
at_prompt () { tm_screen | grep -v '^ *$' | tail -1 | grep -qE -- "$P"; }

cat > "$T_TMP/say.lua" <<EOF
lesson.say("CAPTION-ONE: the caption of the lesson")
local live = lesson.live()
r = run(problem.quadratic{n = 4, noise = {sigma = 1}}, optim.gd{lr = 0.01},
        {iters = live and $LIVE_ITERS or 10, speed = 1})
print("after-run")
lesson.pause("PAUSE-TEXT")
print("resumed")
local i, c = lesson.ask("Which method?", {"alpha", "beta", "gamma"})
print("answer=" .. tostring(i) .. " " .. tostring(c))
EOF

cat > "$T_TMP/steps.lua" <<EOF
local live = lesson.live()
-- %% first
print("in-one")
-- %% second
print("in-two")
local k = lesson.ask("pick one", {"x", "y"})
print("picked=" .. tostring(k))
-- %% third
print("in-three picked " .. tostring(k))
-- %% live view
r = run(problem.quadratic{n = 4, noise = {sigma = 1}}, optim.gd{lr = 0.01},
        {iters = live and $LIVE_ITERS or 10, speed = 1})
print("after-live")
EOF

# (a) and (b)
tm_start -i "$T_TMP/say.lua"
tm_wait 'iter [0-9]+/'; ok $? "lesson: the run's live view opens"
tm_until 'tm_screen | tail -2 | head -1 | grep -q "^ CAPTION-ONE: the caption of the lesson"'
ok $? "lesson: say's caption is shown in the view, on the row above the key line"
tm_keys q
tm_wait '^\[press space to go on\]'
ok $? "lesson: pause shows its prompt once the run is stopped"
tm_screen | grep -q '^PAUSE-TEXT$'; ok $? "lesson: pause prints its text"
tm_keys x
tm_keys Space
tm_wait '^resumed$'; ok $? "lesson: pause resumes on space"
[ "$(tm_screen | grep -c '^resumed$')" = 1 ] && ! tm_screen | grep -q 'press space'
ok $? "lesson: pause's prompt is erased, the script goes on once"
tm_wait '^\[press a letter, a-c\]'; ok $? "lesson: ask waits for a letter a-c"
tm_screen | grep -q '^  b) beta$'; ok $? "lesson: ask letters its choices"
tm_keys z
tm_keys b
tm_wait '^answer=2 beta$'; ok $? "lesson: ask ignores z and returns 2, \"beta\" for b"
tm_wait "$P"; ok $? "lesson: the prompt follows the script (-i)"

# (c) Ctrl-C at a pause
tm_line 'lesson.pause("WAITING-HERE"); print("not-reached")'
tm_wait '^\[press space to go on\]'; ok $? "lesson: pause from the prompt waits"
tm_keys C-c
tm_wait 'interrupted!'; ok $? "lesson: Ctrl-C at a pause says interrupted!"
tm_wait "$P"; ok $? "lesson: Ctrl-C at a pause returns to the prompt"
! tm_screen | grep -q '^not-reached'; ok $? "lesson: the statement stopped at the pause"
tm_line 'print(20 + 22)'
tm_wait '^42$'; ok $? "lesson: the terminal is usable after Ctrl-C (echo, lines)"
tm_line 'print(pcall(lesson.ask, "q", {"a", 3}))'
tm_wait 'lesson.ask: choices\[2\] must be a string \(got number\)'
ok $? "lesson: ask names a bad choice and its type"
tm_line 'print(pcall(lesson.say, {}))'
tm_wait 'lesson.say: text must be a string \(got table\)'
ok $? "lesson: say names the type expected"

# (d) --lesson, run by a shell that writes its exit status to a file (what
# tmux reports of a dead pane is not reliable on a loaded machine: it can
# read a dead pane before it has reaped the program)
cat > "$T_TMP/wrap.sh" <<EOF
#!/bin/sh
$T_BIN "\$@"
echo "status \$?" > "$T_TMP/exit"
EOF
chmod +x "$T_TMP/wrap.sh"
T_BIN0=$T_BIN
T_BIN="$T_TMP/wrap.sh"
tm_start --lesson "$T_TMP/steps.lua"
T_BIN=$T_BIN0
tm_wait '^== section 1/4: first ==$'; ok $? "--lesson: section 1's header"
tm_wait '^\[section 1/4: first -- space: next \(second\)'
ok $? "--lesson: waits after section 1, naming the next"
tm_screen | grep -q '^in-one$'; ok $? "--lesson: section 1 ran"
! tm_screen | grep -q '^in-two$'; ok $? "--lesson: section 2 waits for space"
tm_keys Space
tm_wait '^\[press a letter, a-b\]'; ok $? "--lesson: space runs section 2 (its poll)"
tm_keys b
tm_wait '^picked=2$'; ok $? "--lesson: the poll's answer"
tm_wait '^\[section 2/4: second'; ok $? "--lesson: waits after section 2"
tm_keys Right
tm_wait '^in-three picked 2$'
ok $? "--lesson: Right runs section 3; a local of section 2 is seen there"
tm_keys Space
tm_until 'tm_screen | tail -1 | grep -q "^ section 4/4: live view"'
ok $? "--lesson: the live view's key line names the section"
tm_keys q
tm_wait '^\[section 4/4: live view -- end of the lesson'
ok $? "--lesson: the end of the lesson waits"
tm_keys BSpace
tm_wait '^\[section 3/4: third'; ok $? "--lesson: backspace goes back to section 3"
tm_screen | grep -q '^in-three picked 2$'
ok $? "--lesson: the quiet replay gave the poll its answer again"
! tm_screen | grep -qE '^(in-one|in-two|picked=2)$'
ok $? "--lesson: the sections before it ran quietly on a cleared screen"
tm_keys Left
tm_wait '^\[press a letter, a-b\]'; ok $? "--lesson: Left goes back to section 2, its poll asked again"
tm_keys a
tm_wait '^picked=1$'; ok $? "--lesson: a new answer"
tm_keys Space
tm_wait '^in-three picked 1$'; ok $? "--lesson: the next section sees the new answer"
tm_keys q
tm_until '! tm_alive'; ok $? "--lesson: q quits"
st=""
for i in $(seq $((T_WAIT * 10))); do
  [ -s "$T_TMP/exit" ] && { st=$(cat "$T_TMP/exit"); break; }
  sleep 0.1
done
[ "$st" = "status 0" ]
ok $? "--lesson: exit status 0 after q (status '$st')"

# (f) the worked lesson of the man page, stepped through as in class
last_is () { tm_screen | grep -v '^ *$' | tail -1 | grep -qE -- "$1"; }
step () { tm_until "last_is '$1'" && tm_keys "$2"; }
T_COLS=100 tm_start --lesson scripts/lesson_momentum.lua
step '^\[section 1/5: the valley' Space
ok $? "lesson_momentum: section 1 waits, space goes on"
step '^\[press space to go on\]' Space
ok $? "lesson_momentum: section 2 pauses before its run"
step '^\[section 2/5: gradient descent' Space
ok $? "lesson_momentum: section 2's run ends, space goes on"
step '^\[press a letter, a-c\]' b
ok $? "lesson_momentum: the poll waits for a letter"
step '^\[section 3/5: a poll' Space
ok $? "lesson_momentum: the poll's section ends"
tm_screen | grep -q '^right: sqrt(50) is about 7$'
ok $? "lesson_momentum: b is the right answer"
step '^\[press space to go on\]' Space
ok $? "lesson_momentum: section 4 pauses before the race"
step '^\[section 4/5: the heavy ball' Space
ok $? "lesson_momentum: the race ends, space goes on"
tm_wait '^verdict: holds \(gd 346 steps, heavy ball 59'
ok $? "lesson_momentum: the verdict holds on a terminal (gd 346, heavy ball 59)"
step '^\[section 5/5: the verdict -- end of the lesson' Space
ok $? "lesson_momentum: the end of the lesson; space quits"
tm_until '! tm_alive'; ok $? "lesson_momentum: the lesson is over"

# (e) headless
out=$("$T_BIN" "$T_TMP/say.lua" < /dev/null 2>&1); st=$?
[ $st = 0 ]; ok $? "lesson: headless, the script ends by itself (status $st)"
printf '%s\n' "$out" | grep -q '^CAPTION-ONE: the caption of the lesson$'
ok $? "lesson: headless, say prints the caption"
printf '%s\n' "$out" | grep -q '^PAUSE-TEXT$' \
  && ! printf '%s\n' "$out" | grep -q 'press space'
ok $? "lesson: headless, pause prints its text and does not wait"
printf '%s\n' "$out" | grep -q '^  c) gamma$' \
  && printf '%s\n' "$out" | grep -q '^answer=nil nil$'
ok $? "lesson: headless, ask prints the choices and returns nil"
out=$("$T_BIN" --lesson "$T_TMP/steps.lua" < /dev/null 2>&1); st=$?
[ $st = 0 ] && [ "$(printf '%s\n' "$out" | grep -cE '^(in-one|in-two|picked=nil|in-three picked nil|after-live)$')" = 5 ]
ok $? "--lesson: headless, every section runs once, straight through"
long=$(printf 'word%.0s ' $(seq 1 40))
out=$("$T_BIN" -e "lesson.say('$long'); lesson.claim('$long')" < /dev/null)
[ "$(printf '%s\n' "$out" | awk 'length > 80' | wc -l)" = 1 ] \
  && [ "$(printf '%s\n' "$out" | wc -l)" = 4 ]
ok $? "lesson: headless, say wraps to 80 columns, claim stays one line"

done_testing
