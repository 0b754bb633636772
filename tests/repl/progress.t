#!/usr/bin/env bash
# tests/repl/progress.t -- progress lines of bulk operations at a terminal
# (issue 25, item 6), driven in tmux: with --no-tui a repeats writes its
# progress lines (optlab: repeats #1: DONE/TOTAL tasks, EL s, ~LEFT s left)
# to the terminal, as in a batch job (tests/repl/slices.t checks those
# lines' fields); with the live view it writes none (the view says it).
# The interval is OPTLAB_PROGRESS_SECONDS=0.1; the operations have 10^6
# tasks, so they cannot end before they are stopped, whatever the
# machine's speed; every wait polls the screen.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

cat >"$T_TMP/rep.lua" <<'EOF2'
local q = repeats(problem.quadratic{n = 3, noise = {sigma = 1}},
                  optim.gd{lr = 0.01}, {iters = 2000, tol = 0}, 1000000)
print(string.format("R %d interrupted %s", q.R, tostring(q.interrupted)))
io.read("l")   -- the pane kept alive (see tests/repl/bulkview.t)
EOF2

line='^optlab: repeats #1: [0-9]+/1000000 tasks, [0-9]+\.[0-9] s, ~[0-9.]+ s left$'
tm_start OPTLAB_PROGRESS_SECONDS=0.1 --no-tui "$T_TMP/rep.lua"
tm_wait "$line"
ok $? "progress: --no-tui at a terminal: a repeats writes progress lines"
n1=$(tm_screen | grep -cE "$line")
tm_until '[ "$(tm_screen | grep -cE "$line")" -gt "$n1" ]'
ok $? "progress: ... more of them as it goes on ($n1, then more)"
! tm_screen | grep -q 'tasks done'
ok $? "progress: ... and no view"
tm_keys C-c
tm_wait '^R [0-9]+ interrupted true$'
ok $? "progress: Ctrl-C stops it, keeping the runs done"
tm_keys Enter

# stderr to a file: what the view's screen would hide
tm_start OPTLAB_PROGRESS_SECONDS=0.1 "$T_TMP/rep.lua" "2>$T_TMP/err"
tm_wait 'repeats: [0-9]+ of 1000000 tasks done'
ok $? "progress: at a terminal the live view shows the operation"
tm_keys q
tm_wait '^R [0-9]+ interrupted true$'
ok $? "progress: q stops it"
# the view opens after 0.5 s of the operation: five intervals at least
[ -f "$T_TMP/err" ] && ! grep -q 'tasks, ' "$T_TMP/err"
ok $? "progress: ... and no progress line was written while the view showed"
tm_keys Enter

done_testing
