#!/usr/bin/env bash
# tests/repl/bulkview.t -- the live view of a bulk operation in one
# process (issue 16), driven in tmux: a repeats shows its 10%, median and
# 90% bands over the runs done, the count in the header grows, space
# pauses it (the count stays), q stops it and the runs done are returned;
# a sweep shows its best run so far beside the last one; view = false
# shows none.  The operations are of 10^6 tasks, so they cannot end
# before they are stopped whatever the machine's speed; the view opens
# after 0.5 s of the operation (lua/tasks.lua), waited for by polling.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

cat >"$T_TMP/rep.lua" <<'EOF'
local p = problem.quadratic{n = 3, noise = {sigma = 1}}
local q = repeats(p, optim.gd{lr = 0.01}, {iters = 2000, tol = 0, seed = 5},
                  1000000)
print(string.format("R %d interrupted %s", q.R, tostring(q.interrupted)))
print(string.format("median %.6g", q:quantile("loss", 0.5)))
io.read("l")   -- the pane kept alive: tmux drops the first line after the
               -- alternate screen when the program exits at once
EOF
cat >"$T_TMP/sweep.lua" <<'EOF'
local lrs = {}
-- decreasing: the first task done is the best (a larger step converges
-- faster below 2/L), so from the second on the last one done differs from
-- the best and both are shown, however few tasks a slow machine has done
for i = 1, 100000 do lrs[i] = 1 / (i + 1) end
local s = sweep(problem.quadratic{n = 3, noise = {sigma = 1}}, optim.gd,
                {lr = lrs}, {iters = 2000, tol = 0})
print(string.format("runs %d interrupted %s", #s.runs,
                    tostring(s.interrupted)))
EOF
cat >"$T_TMP/quiet.lua" <<'EOF'
print("started")
local q = repeats(problem.quadratic{n = 3, noise = {sigma = 1}},
                  optim.gd{lr = 0.01}, {iters = 2000, tol = 0, view = false},
                  1000000)
print(string.format("R %d interrupted %s", q.R, tostring(q.interrupted)))
EOF

# (the pane of a program that leaves the alternate screen and exits at
# once loses, in tmux, the line written first after it, though the bytes
# are right: the scripts wait for a line on stdin before they end)

# count: the number of tasks done in the view's header (empty if none)
count () { tm_screen | head -1 | sed -n 's/.*repeats: \([0-9]*\) of 1000000 tasks done.*/\1/p'; }

tm_start "$T_TMP/rep.lua"
tm_wait 'repeats: [0-9]+ of 1000000 tasks done'
ok $? "bulkview: a repeats of 10^6 runs opens a view naming its tasks done"
tm_wait '90% of [0-9]+ runs'
ok $? "bulkview: the legend has the 90% band over the runs done"
tm_wait '● median ' && tm_wait '● 10% '
ok $? "bulkview: ... the median and the 10% band"
tm_wait 'loss \[' && tm_wait 'gradnorm \['
ok $? "bulkview: the bands are drawn on gd's panels, loss and gradnorm"
c1=""
tm_until 'c1=$(count); [ -n "$c1" ]'
tm_until 'c2=$(count); [ -n "$c2" ] && [ "$c2" -gt "$c1" ]'
ok $? "bulkview: the count of tasks done grows ($c1, then ${c2:-none})"
tm_keys Space
tm_wait ' paused '
ok $? "bulkview: space pauses the operation"
p1=""
tm_until 'p1=$(count); [ -n "$p1" ]'
sleep 1
p2=$(count)
[ -n "$p2" ] && [ "$p2" = "$p1" ]
ok $? "bulkview: paused, no task is run ($p1, then ${p2:-none} a second later)"
tm_keys Space
tm_wait ' running '
ok $? "bulkview: space again goes on"
tm_keys q
tm_wait '^R [0-9]+ interrupted true$'
ok $? "bulkview: q stops it; the runs done are returned, interrupted"
r=$(tm_screen | sed -n 's/^R \([0-9]*\) interrupted true$/\1/p')
[ -n "$r" ] && [ "$r" -ge "$c2" ]
ok $? "bulkview: ... at least the $c2 the view had counted ($r)"
tm_wait '^median [0-9.e-]+$'
ok $? "bulkview: the returned runs' quantiles are finite"
tm_wait 'interrupted: [0-9]+ of 1000000 tasks not run'
ok $? "bulkview: the tasks not run are said in one line"

tm_start "$T_TMP/sweep.lua"
tm_wait 'sweep: [0-9]+ of 100000 tasks done'
ok $? "bulkview: a sweep opens a view naming its tasks done"
tm_wait '● best: lr = 0\.[0-9]+'
ok $? "bulkview: it shows the best configuration so far"
tm_wait '● last: lr = 0\.[0-9]+'
ok $? "bulkview: ... beside the last one done"
tm_keys q
tm_wait '^runs [0-9]+ interrupted true$'
ok $? "bulkview: q stops the sweep, keeping the runs done"

tm_start "$T_TMP/quiet.lua"
tm_wait '^started$'
ok $? "bulkview: view = false: the script runs"
sleep 2
! tm_screen | grep -q 'tasks done'
ok $? "bulkview: view = false opens no view"
tm_keys C-c
tm_wait '^R [0-9]+ interrupted true$'
ok $? "bulkview: view = false: Ctrl-C stops it, keeping the runs done"

done_testing
