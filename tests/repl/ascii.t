#!/usr/bin/env bash
# tests/repl/ascii.t -- without UTF-8 (LANG=C) or with --ascii the whole
# screen, live view included, is plain ASCII, and runs stay distinguishable
# by their markers.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
RACE='r = race(problem.quadratic{n=20, cond=100}, '\
'{optim.gd{lr=0.5}, optim.momentum{lr=0.5, mu=0.9}, optim.adam{lr=0.05}}, '\
'{iters=100000000, watch={"loss","gradnorm"}})'

for mode in "LANG=C" "--ascii"; do
  tm_start $mode
  tm_wait "$P" 5
  tm_line "$RACE"
  tm_wait 'gradnorm \[' 5; ok $? "ascii ($mode): the view opens"
  sleep 0.5
  ! tm_high; ok $? "ascii ($mode): no byte >= 0x80 on the screen"
  s=$(tm_screen)
  echo "$s" | grep -qE '^\+-+ \* loss'; ok $? "ascii ($mode): ASCII borders"
  echo "$s" | grep -qE '\. gd ' && echo "$s" | grep -qE '\* momentum ' \
    && echo "$s" | grep -qE 'o adam '
  ok $? "ascii ($mode): the legend shows each run's marker"
  tm_keys '?'
  tm_wait 'pause / resume' 3
  ! tm_high; ok $? "ascii ($mode): the help overlay is ASCII too"
  tm_keys q
  tm_wait "$P" 5; ok $? "ascii ($mode): q returns to the prompt"
done

done_testing
