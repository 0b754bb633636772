#!/usr/bin/env bash
# tests/repl/demos.t -- the demo scripts on a terminal (issue 26,
# acceptance 4): each shows a live plot (its debug log records a view
# opened), and prints its claim and verdict wrapped to the terminal's
# width: in the pane's joined capture (tmux -J undoes the terminal's own
# wrapping) the claim and verdict lines fit in the 100 columns, and each is
# the start of the line the script prints headless (all of it when that
# fits; the three quick scripts' claims are longer).
# Three quick scripts by default; every script in scripts/ (but the
# lesson_* ones, which wait for keys: tests/repl/lesson.t) with
# OPTLAB_SLOW_TESTS=1, which takes minutes: paced live views; the names
# in OPTLAB_DEMOS (space-separated) instead when it is set.
cd "$(dirname "$0")/../.." || exit 1
T_COLS=100
T_ROWS=30
. tests/lib/tmux.sh

if [ -n "$OPTLAB_DEMOS" ]; then
  names=$OPTLAB_DEMOS
elif [ -n "$OPTLAB_SLOW_TESTS" ]; then
  names=$(ls scripts/*.lua | sed 's|scripts/||; s|\.lua$||' | grep -v '^lesson_')
else
  names="momentum newton terngrad_var"
fi

for n in $names; do
  head=$("$T_BIN" "scripts/$n.lua" < /dev/null 2>/dev/null)
  hclaim=$(printf '%s\n' "$head" | grep '^claim: ')
  hverdict=$(printf '%s\n' "$head" | grep '^verdict: ')
  tm_start "OPTLAB_LOG=$T_TMP/$n.log" -v "scripts/$n.lua"
  tm_until '! tm_alive' 900; ok $? "demos: $n ends by itself on a terminal"
  grep -q 'view: open' "$T_TMP/$n.log"
  ok $? "demos: $n shows a live plot on a terminal"
  pane=$(tm capture-pane -p -J -S - -t t)
  claim=$(printf '%s\n' "$pane" | grep '^claim: ' | head -1)
  verdict=$(printf '%s\n' "$pane" | grep '^verdict: ' | head -1)
  [ -n "$claim" ] && [ ${#claim} -le 100 ] \
    && [ "${hclaim#"$claim"}" != "$hclaim" ]
  ok $? "demos: $n's claim (${#hclaim} chars headless) fits in 100 columns (${#claim})"
  [ -n "$verdict" ] && [ ${#verdict} -le 100 ] \
    && [ "${hverdict#"$verdict"}" != "$hverdict" ]
  ok $? "demos: $n's verdict (${#hverdict} chars headless) fits in 100 columns (${#verdict})"
  printf '%s\n' "$pane" | grep -q '^verdict: holds'
  ok $? "demos: $n's verdict holds on a terminal too"
done

done_testing
