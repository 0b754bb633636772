#!/usr/bin/env bash
# tests/repl/panels.t -- the landscape and simplex panels of the live view,
# driven in tmux: a race on a 2-D problem shows the heat map with the
# trajectories, a game shows the simplex; under LANG=C both are ASCII.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# The views must still be live when checked, on any machine: LIVE_ITERS is
# never reached, and with noisy gradients no stop rule ends a race; the
# game's last iterate cycles around the equilibrium.  q ends each.
RACE='r = race(problem.rosenbrock{n=2, noise={sigma=1}}, {optim.gd{lr=1e-3}, '\
"optim.adam{lr=0.01}}, {iters=$LIVE_ITERS})"
GAME="g = run(problem.rps{}, game.rmplus{}, {iters=$LIVE_ITERS})"
# The landscape panel's rows (between its title and its x axis labels).
land () { tm_screen | sed -n '/landscape x1,x2/,/ x1 /p'; }
# Each check of the live view retries with a fresh capture ($s), since a
# capture may catch the screen mid-redraw (or before the paths are drawn).
land_has () { tm_until "s=\$(land); $1"; }
high () { echo "$s" | LC_ALL=C grep -qP '[\x80-\xff]'; }

tm_start
tm_wait "$P"
tm_line "$RACE"
tm_wait 'landscape x1,x2 \[log f\]'
ok $? "panels: a 2-D race shows the landscape panel by default"
land_has "echo \"\$s\" | grep -q '@' && echo \"\$s\" | grep -q '#' \
  && echo \"\$s\" | grep -q '='"
ok $? "panels: the heat map shades levels (@ # =)"
land_has "echo \"\$s\" | LC_ALL=C grep -qP '\xe2[\xa0-\xa3][\x80-\xbf]'"
ok $? "panels: trajectories drawn as braille over the heat map"
land_has "echo \"\$s\" | grep -q '●'"; ok $? "panels: the current point is marked"
land_has "echo \"\$s\" | grep -q 'gd lr=0.001' \
  && echo \"\$s\" | grep -q 'adam lr=0.01'"
ok $? "panels: the landscape legend names both runs"
land_has "echo \"\$s\" | grep -qE '^. +x2 '"; ok $? "panels: axes are named x1, x2"
# the landscape takes focus and zooms: a full-screen map, its legend in an
# empty corner or below, the metric panels gone
tm_keys Tab Tab
tm_wait '\* landscape x1,x2'; ok $? "panels: Tab focuses the landscape panel"
tm_keys z
tm_until "s=\$(tm_screen); echo \"\$s\" | grep -q '\* landscape x1,x2' \
  && ! echo \"\$s\" | grep -q 'gradnorm \[' \
  && [ \$(echo \"\$s\" | grep -c '@') -ge 10 ]"
ok $? "panels: z zooms the landscape alone, over the whole screen"
tm_keys z
tm_wait 'gradnorm \['; ok $? "panels: z again restores the grid"
tm_keys q
tm_wait "$P"; ok $? "panels: q returns to the prompt"

tm_line 'w = run(problem.rosenbrock{n=4, noise={sigma=1}}, optim.gd{lr=1e-3}, '\
"{iters=$LIVE_ITERS, watch={\"loss\", \"landscape\"}})"
tm_wait 'landscape x1,x2 slice'
ok $? "panels: watch = {..., \"landscape\"} shows a slice for n = 4"
tm_keys q
tm_wait "$P"

tm_line "$GAME"
tm_wait ' simplex '; ok $? "panels: a game shows the simplex panel"
# the simplex panel: its rows from its title down (left or right column)
simp () { tm_screen | sed -n '/ simplex /,$p'; }
tm_until "s=\$(simp); echo \"\$s\" | grep -qE ' 1[^ ]' \
  && echo \"\$s\" | grep -qE '[^ ]2 ' && echo \"\$s\" | grep -qE ' 3[^ ]'"
ok $? "panels: triangle vertices labelled 1, 2, 3"
tm_until "s=\$(simp); \
  echo \"\$s\" | grep -q '● rmplus alternate=false p1' \
  && echo \"\$s\" | grep -q '◆ rmplus alternate=false p2'"
ok $? "panels: one legend entry per player, each with its own mark (● p1, ◆ p2)"
tm_until "s=\$(simp); echo \"\$s\" | grep -q 'P1 ●  P2 ◆'"
ok $? "panels: the simplex names the players' marks (P1 ● P2 ◆)"
# both players' current points are on screen: a disc and a diamond
# inside the triangle rows (a coinciding diamond is moved aside)
tm_until "s=\$(simp | grep -v 'rmplus\|P1'); echo \"\$s\" | grep -q '●' \
  && echo \"\$s\" | grep -q '◆'"
ok $? "panels: player 1's disc and player 2's diamond are both drawn"
# the simplex takes focus (Tab x3: after the average's and the last
# iterate's exploitability and entropy) and zooms alone (z), like a
# metric panel
tm_keys Tab Tab Tab
tm_wait '\* simplex'; ok $? "panels: Tab focuses the simplex panel (* simplex)"
tm_keys z
tm_until "s=\$(tm_screen); echo \"\$s\" | grep -q '\* simplex' \
  && ! echo \"\$s\" | grep -q 'exploitability \[' \
  && echo \"\$s\" | grep -q 'P1 ●  P2 ◆'"
ok $? "panels: z zooms the simplex alone (no metric panel on screen)"
tm_keys z
tm_wait 'exploitability \['; ok $? "panels: z again restores the grid"
tm_keys q
tm_wait "$P"

tm_start LANG=C
tm_wait "$P"
tm_line "$RACE"
tm_wait 'landscape x1,x2'; ok $? "panels (ascii): landscape shown"
# (a capture with the paths drawn, then no byte >= 0x80 in it)
# (the map's rows without the panel title and the legend entries)
land_has "echo \"\$s\" | sed '1d; s/[ab] gd lr=[0-9.]*//; s/[ab] adam lr=[0-9.]*//' \
  | grep -qE '[ab]'"
ok $? "panels (ascii): paths drawn as run letters"
s=$(tm_screen)
! high; ok $? "panels (ascii): no byte >= 0x80 with the landscape"
tm_keys q
tm_wait "$P"
tm_line "$GAME"
tm_wait ' simplex '; ok $? "panels (ascii): simplex shown"
tm_until "s=\$(tm_screen); echo \"\$s\" | grep -qE '1_+.*2' \
  && echo \"\$s\" | grep -q 'rmplus alternate=false p2'"
ok $? "panels (ascii): triangle base 1___2"
! high; ok $? "panels (ascii): no byte >= 0x80 with the simplex"
tm_keys q
tm_wait "$P"; ok $? "panels (ascii): q returns to the prompt"

done_testing
