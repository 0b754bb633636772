#!/usr/bin/env bash
# tests/repl/livekeys.t -- turning a live parameter with the keys (p, *, /,
# f) in the live view of run and in the dashboard of a job, driven in tmux:
# GD on a quadratic whose L is known diverges visibly when its lr is raised
# past 2/L and recovers when it is lowered; the iterates after the changes
# equal the closed form; the status line shows parameter, value and factor,
# a refusal with the range, and a method with no live parameter says so;
# every change is marked on the loss panel.
#
# Speed-independent: every run opens paused (paused=true) and moves only by
# n (one step each, waited for on the title's "iter k/"), so a loaded or
# pinned core changes nothing but the time taken.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# f = 1/2 (x1^2 + 0.1 x2^2) (quadratic, cond 10, not rotated), x0 = (1, 1),
# L = 1: GD contracts for lr < 2/L = 2.  lr = 1.5 converges; * (factor 2)
# makes it 3, where |1 - 3 L| = 2: x1 doubles in size every step.
Q='q = problem.quadratic{n=2, cond=10, rotate=false}'
# The closed form: a steps at lr 1.5, then b at 3, then c at 1.5 give
# x_i = (1 - 1.5 l_i)^(a + c) (1 - 3 l_i)^b x0_i, l = (1, 0.1); chk returns
# the largest relative error of r.x against it.
CHK='function chk(r, a, b, c) local l, e = {1, 0.1}, 0 '\
'for i = 1, 2 do local w = (1 - 1.5*l[i])^(a + c) * (1 - 3*l[i])^b '\
'* q.x0[i] e = math.max(e, math.abs(r.x[i] - w) / math.abs(w)) end '\
'return e end'
OPTS="{iters=$LIVE_ITERS, tol=0, paused=true, watch={\"loss\"}}"

# The latest loss the loss panel's legend shows for the run labelled $1.
lossval () {
  tm_screen | sed -n "s/.*$1 \([-0-9.e+]*\) min .*/\1/p" | head -1
}
# lossat ITER LABEL: the legend's loss once the title says iteration ITER
# (retried: a capture may catch the legend mid-redraw).
lossat () {
  local v="" i=0
  tm_wait "iter $1/" || return 1
  while [ $i -lt $((T_WAIT * 10)) ]; do
    v=$(lossval "$2")
    [ -n "$v" ] && { echo "$v"; return 0; }
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}
# gt A B: A > B as numbers.
gt () { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }
# steps N: N presses of n.
steps () { local i; for i in $(seq "$1"); do tm_keys n; done; }
atprompt () {
  local tag=$1 v=""
  tm_line "print(\"$tag=\" .. $2)"
  tm_until 'v=$(tm_screen | sed -n "s/^$tag=\(.*\)\$/\1/p" | tail -1)
            [ -n "$v" ]'
  echo "$v"
}

tm_start
tm_wait "$P"
tm_line "$Q"
tm_line "$CHK"

# -- the live view of run --------------------------------------------------
tm_line "r = run(q, optim.gd{lr=1.5}, $OPTS)"
tm_wait 'iter 0/.*paused'; ok $? "view: the run opens paused"
tm_wait 'q stop .* lr=1\.5 x2 *$'
ok $? "view: the status line ends with the parameter, value and factor"
tm_wait 'p \*/ f tune'; ok $? "view: the key summary names the tuning keys"
steps 8
v8=$(lossat 8 'gd lr=1\.5'); ok $? "view: 8 steps at lr 1.5 (loss $v8)"
tm_keys '*'
tm_wait 'lr=3 x2'; ok $? "view: * doubles lr past 2/L (lr=3)"
tm_wait 'iter 8/'; ok $? "view: the key itself takes no step"
steps 8
v16=$(lossat 16 'gd lr=1\.5')
gt "$v16" "$(awk -v a="$v8" 'BEGIN { print 100 * a }')"
ok $? "view: at lr 3 > 2/L the loss grows a hundredfold ($v8 -> $v16)"
tm_keys '/'
tm_wait 'lr=1\.5 x2'; ok $? "view: / halves lr back to 1.5"
steps 8
v24=$(lossat 24 'gd lr=1\.5')
gt "$v16" "$(awk -v a="$v24" 'BEGIN { print 100 * a }')"
ok $? "view: back at lr 1.5 the loss falls again ($v16 -> $v24)"
tm_wait '▲ 2 changes'; ok $? "view: the loss panel's legend counts the changes"
tm_until "tm_screen | grep -q '└[┴─]*▲[┴─]*▲'"
ok $? "view: the changes are marked on the x axis"
tm_keys f
tm_wait 'lr=1\.5 x10'; ok $? "view: f cycles the factor (10)"
tm_keys f
tm_wait 'lr=1\.5 x1\.1'; ok $? "view: f cycles the factor (1.1)"
tm_keys f
tm_wait 'lr=1\.5 x2'; ok $? "view: f cycles the factor (back to 2)"
tm_keys p
tm_wait 'lr=1\.5 x2'; ok $? "view: p with one live parameter keeps lr"
tm_keys '?'
tm_wait 'p \* / f +tune a live parameter'
ok $? "view: the help overlay lists the tuning keys"
tm_keys x
tm_wait_not 'tune a live parameter'
tm_keys q
tm_wait "$P"; ok $? "view: q returns to the prompt"
e=$(atprompt e1 "chk(r, 8, 8, 8) .. ',' .. r.iter")
awk -v e="${e%,*}" 'BEGIN { exit !(e < 1e-12) }' && [ "${e#*,}" = 24 ]
ok $? "view: x after 8 steps at 1.5, 8 at 3, 8 at 1.5 is the closed form to 1e-12 ($e)"

# the static plot and its SVG mark the same two changes: on the iteration
# axis the SVG's lines sit at x = 8 and 16, so their distances from the
# frame's left edge are 1 : 2
tm_line 'r:plot{watch={"loss"}}'
tm_until "tm_screen | grep -q '└[┴─]*▲[┴─]*▲'"
ok $? "plot: r:plot marks the changes on the x axis"
tm_line "r:plot{file=\"$T_TMP/r.svg\", watch={\"loss\"}}"
tm_until "[ -s $T_TMP/r.svg ]"
n=$(grep -c 'class="change"' "$T_TMP/r.svg")
[ "$n" = 2 ] && grep -q '>lr=3</text>' "$T_TMP/r.svg" \
  && grep -q '>lr=1.5</text>' "$T_TMP/r.svg"
ok $? "svg: two change lines labelled lr=3 and lr=1.5 ($n)"
bx=$(sed -n 's/.*<rect x="\([0-9.]*\)".*class="frame".*/\1/p' "$T_TMP/r.svg" \
  | head -1)
xs=$(sed -n 's/.*<line class="change" x1="\([0-9.]*\)".*/\1/p' \
  "$T_TMP/r.svg" | tr '\n' ' ')
awk -v b="$bx" -v xs="$xs" 'BEGIN { split(xs, x, " ");
  exit !(b > 0 && (x[2] - b) - 2 * (x[1] - b) < 0.2 \
         && (x[2] - b) - 2 * (x[1] - b) > -0.2) }'
ok $? "svg: the change lines sit at iterations 8 and 16 (frame $bx, lines $xs)"

# -- a race: the change goes to every run whose method has the parameter ---
tm_line "g = race(q, {optim.gd{lr=1.5}, optim.gd{lr=0.5}, optim.lbfgs{}}, $OPTS)"
tm_wait ' lr=1\.5 x2 \(2 runs\) *$'
ok $? "race: the status names the first gd's lr and the runs it reaches"
tm_keys '*'
tm_wait ' lr=3 x2 \(2 runs\) *$'; ok $? "race: * doubles lr"
steps 1
tm_wait 'iter 1/'
tm_keys q
tm_wait "$P"
e=$(atprompt e3 "string.format('%.17g,%.17g,%.17g', g[1].x[1], g[2].x[1], g[2].x[2])")
awk -v e="$e" 'BEGIN { split(e, v, ","); d = v[3] - 0.9;
  exit !(v[1] == -2 && v[2] == 0 && d < 1e-15 && d > -1e-15) }'
ok $? "race: each gd stepped once at twice its own lr: x = (-2, .), (0, 0.9) ($e)"

# -- a refusal, and a method without live parameters -----------------------
tm_line "m = run(q, optim.momentum{lr=0.1, mu=0.9}, $OPTS)"
tm_wait 'lr=0\.1 x2  momentum: lr, mu live *$'
ok $? "view: momentum's first live parameter is lr; the status lists both"
tm_keys p
tm_wait 'mu=0\.9 x2'; ok $? "view: p selects mu"
tm_keys '*'
tm_wait 'refused: mu = 1\.8 is out of range \[0, 1\)'
ok $? "view: mu x2 is refused with the range on the status line"
tm_keys f
tm_wait 'mu=0\.9 x10'; ok $? "view: the refused value was not applied (mu=0.9)"
tm_keys p
tm_wait 'lr=0\.1 x10'; ok $? "view: p cycles back to lr"
tm_keys q
tm_wait "$P"
# x10 until lr would overflow: refused (lr's range [0, inf] is closed)
tm_line "z = run(q, optim.gd{lr=1.5}, $OPTS)"
tm_wait ' lr=1\.5 x2 *$'
tm_keys f
tm_type "$(printf '*%.0s' $(seq 320))"
tm_wait 'refused: lr = inf is not finite'
ok $? "view: a value that overflows is refused"
tm_keys f
tm_wait ' lr=1\.5e\+308 x1\.1 *$'; ok $? "view: lr kept its last finite value"
tm_keys q
tm_wait "$P"
# a race whose gd has stopped (diverged past xlimit 10: lr 3 doubles x1
# every step, noise aside) while lbfgs, on a noisy gradient, goes on:
# nothing to change
tm_line "d = race(problem.quadratic{n=2, cond=10, rotate=false, noise={sigma=1}}, {optim.gd{lr=3}, optim.lbfgs{}}, {iters=$LIVE_ITERS, tol=0, paused=true, xlimit=10, watch={\"loss\"}})"
tm_wait ' lr=3 x2 *$'
steps 6
tm_wait 'iter 6/'
tm_keys '*'
tm_wait 'lr: every run has stopped *$'
ok $? "race: * when the gd has stopped says so"
tm_keys q
tm_wait "$P"
e=$(atprompt e7 "d[1].reason .. ',' .. d[1].iter")
[ "${e%,*}" = diverged ] && [ "${e#*,}" -lt 6 ]
ok $? "race: the gd had stopped, diverged before iteration 6 ($e)"
tm_line "b = run(q, optim.lbfgs{}, $OPTS)"
tm_wait 'lbfgs: no live parameters'; ok $? "view: lbfgs says it has no live parameters"
tm_keys '*' p /
steps 1
tm_wait 'iter 1/'; ok $? "view: the tuning keys on lbfgs change nothing and break nothing"
tm_keys q
tm_wait "$P"
tm_line 'print("alive")'
tm_wait '^alive$'; ok $? "view: the prompt works after the tuning keys"

# -- the dashboard of a job ------------------------------------------------
tm_line "j = start(q, optim.gd{lr=1.5}, $OPTS)"
tm_wait 'job #1 gd.*iter 0/.*paused'; ok $? "dashboard: the job opens paused"
tm_keys C-g
tm_wait '\[dashboard\] q stop .* lr=1\.5 x2 *$'
ok $? "dashboard: the status line shows the parameter, value and factor"
steps 4
u4=$(lossat 4 '#1 gd lr=1\.5'); ok $? "dashboard: 4 steps at lr 1.5 (loss $u4)"
tm_keys '*'
tm_wait '\[dashboard\] .* lr=3 x2 *$'; ok $? "dashboard: * doubles lr past 2/L"
steps 8
u12=$(lossat 12 '#1 gd lr=1\.5')
gt "$u12" "$(awk -v a="$u4" 'BEGIN { print 100 * a }')"
ok $? "dashboard: the job's loss grows a hundredfold ($u4 -> $u12)"
tm_keys '/'
tm_wait '\[dashboard\] .* lr=1\.5 x2 *$'; ok $? "dashboard: / lowers lr to 1.5"
steps 10
u22=$(lossat 22 '#1 gd lr=1\.5')
gt "$u12" "$(awk -v a="$u22" 'BEGIN { print 100 * a }')"
ok $? "dashboard: the job recovers ($u12 -> $u22)"
tm_wait '▲ 2 changes'; ok $? "dashboard: the changes are counted on the loss panel"
tm_keys C-g
e=$(atprompt e2 "chk(j.run, 4, 8, 10) .. ',' .. j.iter")
awk -v e="${e%,*}" 'BEGIN { exit !(e < 1e-12) }' && [ "${e#*,}" = 22 ]
ok $? "dashboard: the job's x is the closed form to 1e-12 ($e)"
# two jobs, one selected: the keys change that job alone
tm_line "h = start(q, optim.gd{lr=0.5}, $OPTS)"
tm_wait ' 2 jobs '
tm_keys C-g ']' ']'
tm_wait '\[job #2 selected\].* lr=0\.5 x2 *$'
ok $? "dashboard: with job #2 selected the status shows its lr"
tm_keys '*'
tm_wait '\[job #2 selected\].* lr=1 x2 *$'; ok $? "dashboard: * doubles job #2's lr"
tm_keys C-g
tm_keys C-g n
tm_wait 'job #2 .*iter 1/'
tm_keys C-g
e=$(atprompt e5 "string.format('%.17g,%.17g', h.run.x[1], h.run.x[2])")
[ "$e" = "0,0.90000000000000002" ]
ok $? "dashboard: job #2 stepped at lr 1: x = (0, 0.9) ($e)"
e=$(atprompt e6 "chk(j.run, 4, 8, 10) .. ',' .. j.iter")
awk -v e="${e%,*}" 'BEGIN { exit !(e < 1e-12) }' && [ "${e#*,}" = 22 ]
ok $? "dashboard: job #1 was not changed ($e)"
tm_keys C-g ']'
tm_wait_not 'job #2 selected'
tm_keys q
tm_wait_not 'job #1'; ok $? "dashboard: q with none selected stops the jobs"
tm_line 'print("alive")'
tm_wait '^alive$'; ok $? "dashboard: the prompt works after the job"

done_testing
