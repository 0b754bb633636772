#!/usr/bin/env bash
# tests/repl/signals.t -- the terminal is restored whatever signal ends
# optlab (issue 22, item 5; repro F11): SIGILL (an -march=native binary on
# another CPU), SIGUSR1, SIGPIPE, SIGALRM, SIGXCPU (`ulimit -t`), and
# SIGTERM as before, sent while the live view is up, while the dashboard
# of a background job is up, and at the prompt (readline's raw mode).
# After each: `stty -a` shows the cooked mode (icanon echo icrnl onlcr), the
# pane is off the alternate screen with the cursor shown, and the shell saw
# the signal's own exit status (128 + its number: re-raised with the
# default action).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
REAL=$T_BIN
OUT="$T_TMP/after"
# the pane runs optlab, then records the terminal and the status, then
# waits (the pane stays up to be inspected)
T_BIN="sh -c '$REAL; echo status=\$? > $OUT.st; stty -a > $OUT; echo EXITED; sleep 600'"

optpid () { pgrep -P "$(tm display -p -t t '#{pane_pid}')" | head -1; }

# check WHERE SIG: after optlab got SIG, the terminal and the status
check () {
  local where=$1 sig=$2 num
  num=$(kill -l "$sig")
  tm_wait 'EXITED' 20; ok $? "signals: $where, SIG$sig: optlab ends"
  tm_until "[ -s '$OUT' ]" 10
  grep -qE '(^| )icanon( |;|$)' "$OUT" && grep -qE '(^| )echo( |;|$)' "$OUT" \
    && grep -qE '(^| )icrnl( |;|$)' "$OUT" && grep -qE '(^| )onlcr( |;|$)' "$OUT"
  ok $? "signals: $where, SIG$sig: stty shows icanon echo icrnl onlcr"
  [ "$(tm display -p -t t '#{alternate_on} #{cursor_flag}')" = "0 1" ]
  ok $? "signals: $where, SIG$sig: main screen, cursor shown ($(tm display -p -t t '#{alternate_on} #{cursor_flag}'))"
  grep -q "^status=$((128 + num))\$" "$OUT.st"
  ok $? "signals: $where, SIG$sig: exit status 128 + $num ($(cat "$OUT.st"))"
}

for sig in ILL USR1 PIPE ALRM XCPU TERM; do
  # the live view
  rm -f "$OUT" "$OUT.st"
  tm_start
  tm_wait "$P"
  tm_line "r = run(problem.rosenbrock{n=2, noise={sigma=1}}, optim.gd{lr=1e-6}, {iters=$LIVE_ITERS, tol=0})"
  tm_iter_wait >/dev/null
  kill -"$sig" "$(optpid)"
  check "live view" "$sig"
  # the dashboard of a background job
  rm -f "$OUT" "$OUT.st"
  tm_start
  tm_wait "$P"
  tm_line "j = start(problem.rosenbrock{n=2, noise={sigma=1}}, optim.adam{lr=1e-3}, {iters=$LIVE_ITERS, tol=0})"
  tm_wait 'job #1 adam'
  kill -"$sig" "$(optpid)"
  check "dashboard" "$sig"
  # the prompt, a line half typed
  rm -f "$OUT" "$OUT.st"
  tm_start
  tm_wait "$P"
  tm_type 'print("half'
  tm_wait 'half'
  kill -"$sig" "$(optpid)"
  check "prompt" "$sig"
done

done_testing
