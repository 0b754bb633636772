#!/usr/bin/env bash
# tests/repl/square.t -- the game panels of the live view with the known
# equilibria, driven in tmux: a 2 x 2 game (matching pennies, coordination)
# shows the unit square of the joint strategy (x1 across, y1 up) instead of
# a simplex, a 3 x 3 game (rps) the triangle; each known equilibrium is a
# star with a "Nash" legend entry; under LANG=C the star is '*'.  Every run
# opens paused (paused = true), so what is on screen does not depend on the
# machine's speed; n steps it, q ends it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
PEN="r = run(problem.pennies{}, game.mwu{}, {iters=$LIVE_ITERS, paused=true})"
CO="r = run(problem.coordination{}, game.pg{}, {iters=$LIVE_ITERS, "\
"paused=true})"
RPS="r = run(problem.rps{}, game.mwu{}, {iters=$LIVE_ITERS, paused=true})"
# The game panel's rows, from its title down (left or right column).
sq () { tm_screen | sed -n '/ unit square x1,y1 /,$p'; }
simp () { tm_screen | sed -n '/ simplex /,$p'; }
# Its plot rows without the legend's entries.
plot_rows () { grep -v 'Nash\|mwu lr\|pg lr\|P1'; }

tm_start
tm_wait "$P"
tm_line "$PEN"
tm_wait 'iter 0/.*paused'; ok $? "square: pennies opens paused at iteration 0"
tm_wait ' unit square x1,y1 '
ok $? "square: a 2 x 2 game shows the unit square panel"
! tm_screen | grep -q ' simplex '
ok $? "square: and no triangle (no panel titled simplex)"
tm_until "s=\$(sq); echo \"\$s\" | grep -q ' y1 ' \
  && echo \"\$s\" | grep -qE ' 0 +x1 +1 '"
ok $? "square: its axes are named x1 (below, 0 .. 1) and y1 (left)"
tm_until "s=\$(sq); echo \"\$s\" | plot_rows | grep -q '★'"
ok $? "square: the equilibrium (1/2, 1/2) is a star on the plot"
tm_until "s=\$(sq); echo \"\$s\" | grep -q '★ Nash' \
  && echo \"\$s\" | grep -q '● mwu lr=0.1'"
ok $? "square: the legend has the run (●) and the star (★ Nash)"
# the star sits in the middle row of the square, between its frame rows
tm_until "s=\$(sq); top=\$(echo \"\$s\" | grep -n '┌' | sed -n 2p | cut -d: -f1); \
  bot=\$(echo \"\$s\" | grep -n '└' | sed -n 1p | cut -d: -f1); \
  st=\$(echo \"\$s\" | plot_rows | grep -n '★' | head -1 | cut -d: -f1); \
  [ -n \"\$top\" ] && [ -n \"\$bot\" ] && [ -n \"\$st\" ] \
  && [ \$((2 * st - top - bot)) -ge -2 ] && [ \$((2 * st - top - bot)) -le 2 ]"
ok $? "square: the star is on the square's middle row (y1 = 1/2)"
tm_keys n
tm_wait 'iter 1/.*paused'; ok $? "square: n takes one step"
tm_keys q
tm_wait "$P"; ok $? "square: q returns to the prompt"

tm_line "$CO"
tm_wait ' unit square x1,y1 '; ok $? "square: coordination shows the square"
# three stars and the legend's key (the legend may share a row with one)
tm_until "[ \$(sq | grep -o '★' | wc -l) -eq 4 ] && sq | grep -q '★ Nash'"
ok $? "square: coordination's three equilibria are three stars (and the key)"
tm_keys q
tm_wait "$P"

tm_line "$RPS"
tm_wait ' simplex '; ok $? "square: rps (3 x 3) keeps the simplex panel"
! tm_screen | grep -q 'unit square'
ok $? "square: and no unit square"
tm_until "s=\$(simp); echo \"\$s\" | plot_rows | grep -q '★' \
  && echo \"\$s\" | grep -q '★ Nash'"
ok $? "square: rps's equilibrium is a star on the simplex, keyed ★ Nash"
tm_keys q
tm_wait "$P"

tm_start LANG=C
tm_wait "$P"
tm_line "$PEN"
tm_wait ' unit square x1,y1 '; ok $? "square (ascii): the unit square"
tm_until "s=\$(sq); echo \"\$s\" | grep -q '\* Nash' \
  && echo \"\$s\" | plot_rows | grep -qE '\|.*\*.*\|'"
ok $? "square (ascii): the star is '*' inside the frame, keyed '* Nash'"
! tm_high; ok $? "square (ascii): no byte >= 0x80"
tm_keys q
tm_wait "$P"; ok $? "square (ascii): q returns to the prompt"

done_testing
