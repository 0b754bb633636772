#!/usr/bin/env bash
# tests/repl/panels.t -- the landscape and simplex panels of the live view,
# driven in tmux: a race on a 2-D problem shows the heat map with the
# trajectories, a game shows the simplex; under LANG=C both are ASCII.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
RACE='r = race(problem.rosenbrock{n=2}, {optim.gd{lr=1e-3}, '\
'optim.adam{lr=0.01}}, {iters=100000000})'
GAME='g = run(problem.rps{}, game.rmplus{}, {iters=1e9})'
# The landscape panel's rows (between its title and its x axis labels).
land () { tm_screen | sed -n '/landscape x1,x2/,/ x1 /p'; }

tm_start
tm_wait "$P" 5
tm_line "$RACE"
tm_wait 'landscape x1,x2 \[log f\]' 5
ok $? "panels: a 2-D race shows the landscape panel by default"
sleep 0.5
s=$(land)
echo "$s" | grep -q '@' && echo "$s" | grep -q '#' && echo "$s" | grep -q '='
ok $? "panels: the heat map shades levels (@ # =)"
echo "$s" | LC_ALL=C grep -qP '\xe2[\xa0-\xa3][\x80-\xbf]'
ok $? "panels: trajectories drawn as braille over the heat map"
echo "$s" | grep -q '●'; ok $? "panels: the current point is marked"
echo "$s" | grep -q 'gd lr=0.001' && echo "$s" | grep -q 'adam lr=0.01'
ok $? "panels: the landscape legend names both runs"
echo "$s" | grep -qE '^. +x2 '; ok $? "panels: axes are named x1, x2"
tm_keys q
tm_wait "$P" 5; ok $? "panels: q returns to the prompt"

tm_line 'w = run(problem.rosenbrock{n=4}, optim.gd{lr=1e-3}, '\
'{iters=1e9, watch={"loss", "landscape"}})'
tm_wait 'landscape x1,x2 slice' 5
ok $? "panels: watch = {..., \"landscape\"} shows a slice for n = 4"
tm_keys q
tm_wait "$P" 5

tm_line "$GAME"
tm_wait ' simplex ' 5; ok $? "panels: a game shows the simplex panel"
sleep 0.5
s=$(tm_screen | cut -c61-)
echo "$s" | grep -qE '^[^1]* 1[^ ]' && echo "$s" | grep -qE '[^ ]2 ' \
  && echo "$s" | grep -qE ' 3[^ ]'
ok $? "panels: triangle vertices labelled 1, 2, 3"
echo "$s" | grep -q 'rmplus alternate=false p1' \
  && echo "$s" | grep -q 'rmplus alternate=false p2'
ok $? "panels: one legend entry per player"
tm_keys q
tm_wait "$P" 5

tm_start LANG=C
tm_wait "$P" 5
tm_line "$RACE"
tm_wait 'landscape x1,x2' 5; ok $? "panels (ascii): landscape shown"
sleep 0.5
! tm_high; ok $? "panels (ascii): no byte >= 0x80 with the landscape"
land | grep -qE '[ab]'; ok $? "panels (ascii): paths drawn as run letters"
tm_keys q
tm_wait "$P" 5
tm_line "$GAME"
tm_wait ' simplex ' 5; ok $? "panels (ascii): simplex shown"
sleep 0.5
! tm_high; ok $? "panels (ascii): no byte >= 0x80 with the simplex"
tm_screen | grep -qE '1_+.*2'; ok $? "panels (ascii): triangle base 1___2"
tm_keys q
tm_wait "$P" 5; ok $? "panels (ascii): q returns to the prompt"

done_testing
