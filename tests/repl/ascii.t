#!/usr/bin/env bash
# tests/repl/ascii.t -- without UTF-8 (LANG=C) or with --ascii the whole
# screen, live view included, is plain ASCII, and runs stay distinguishable
# by their markers.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# The view must still be live when checked, on any machine: LIVE_ITERS is
# never reached, and on a noisy problem no stop rule ends a run; q ends it.
RACE='r = race(problem.quadratic{n=20, cond=100, noise={sigma=1}}, '\
'{optim.gd{lr=0.5}, optim.momentum{lr=0.5, mu=0.9}, optim.adam{lr=0.05}}, '\
"{iters=$LIVE_ITERS, watch={\"loss\",\"gradnorm\"}})"

# frame: one capture ($s) of a whole frame with data drawn: the title counts
# iterations done, each run's legend entry and the status line are there.
frame () {
  s=$(tm_screen)
  echo "$s" | head -1 | grep -qE 'iter [1-9][0-9]*/' \
    && echo "$s" | grep -qE '\. gd ' && echo "$s" | grep -qE '\* momentum ' \
    && echo "$s" | grep -qE 'o adam ' && echo "$s" | tail -1 | grep -q '^q stop'
}
high () { echo "$s" | LC_ALL=C grep -qP '[\x80-\xff]'; }

for mode in "LANG=C" "--ascii"; do
  tm_start $mode
  tm_wait "$P"
  tm_line "$RACE"
  tm_wait 'gradnorm \['; ok $? "ascii ($mode): the view opens"
  tm_until frame; ok $? "ascii ($mode): the legend shows each run's marker"
  ! high; ok $? "ascii ($mode): no byte >= 0x80 on the screen"
  echo "$s" | grep -qE '^\+-+ \* loss'; ok $? "ascii ($mode): ASCII borders"
  tm_keys '?'
  tm_until "frame && echo \"\$s\" | grep -q 'pause / resume' \
    && echo \"\$s\" | grep -q 'this help (any key closes it)'"
  ok $? "ascii ($mode): the help overlay is shown"
  ! high; ok $? "ascii ($mode): the help overlay is ASCII too"
  tm_keys q
  tm_wait "$P"; ok $? "ascii ($mode): q returns to the prompt"
done

done_testing
