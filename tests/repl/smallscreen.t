#!/usr/bin/env bash
# tests/repl/smallscreen.t -- the live view at 80x24 (a projector): a
# 4-method race keeps a legend in every panel (the loss, gradnorm and
# landscape panels each name the four runs, shortened where needed), the
# landscape gets at least 5 rows of map, the header and the status line
# fit 80 columns with whole entries only; panels that do not fit are
# left out by priority (said in the border), and Tab brings one back.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# Never finishes by itself: LIVE_ITERS on a noisy problem; q ends it.
RACE='r = race(problem.rosenbrock{n=2, noise={sigma=1}}, {optim.gd{lr=1e-3},'\
' optim.momentum{lr=1e-3, mu=0.95}, optim.adam{lr=0.01},'\
' optim.nesterov{lr=1e-3, mu=0.9}}, '"{iters=$LIVE_ITERS})"

# legends: every run's entry at least 3 times (one per panel)
legends () {
  local s l
  s=$(tm_screen)
  for l in 'gd' 'momentum' 'adam' 'nesterov'; do
    [ "$(echo "$s" | grep -o "● $l[ …]" | wc -l)" -ge 3 ] || return 1
  done
}
# map rows: the landscape panel's rows between its title and x1 labels
maprows () { tm_screen | sed -n '/landscape x1,x2/,/ x1 /p' | sed '1d;$d' | wc -l; }
# plot rows: the fewest of any metric panel on screen (the rows between a
# title "─ name [" and its x axis "└┴", in the panel's columns)
plotrows () {
  tm_screen | perl -CS -ne '
    push @r, $_; END {
      my $min = 99;
      for my $y (0 .. $#r) {
        while ($r[$y] =~ /\x{250C}\x{2500} (?:\* )?[a-z]+ \[/g) {
          my $x = $-[0];
          my $n = 0;
          for my $b ($y + 1 .. $#r) {
            my $c = substr($r[$b], $x + 1, 14);
            last if $c =~ /\x{2514}\x{2534}/;
            $n++;
          }
          $min = $n if $n < $min;
        }
      }
      print $min == 99 ? 0 : $min, "\n";
    }'
}
# the status line: at most 80 columns, each entry (split at two or more
# spaces) a whole one of the key summary or the tuning field
status_ok () {
  tm_screen | tail -1 | perl -CS -ne '
    chomp; s/\s+$//;
    exit 1 if length($_) > 80;
    my %ok = map { $_ => 1 } ("q stop", "space pause", "n step",
      "+/- speed", "<> pace", "l log", "x logx", "Tab focus", "z zoom",
      "p */ f tune", "? help", "lr=0.001 x2 (4 runs)");
    my @e = split /\s{2,}/;
    for (@e) { exit 1 unless $ok{$_} }
    exit(($e[0] eq "q stop" && $e[-1] eq "lr=0.001 x2 (4 runs)"
          && grep({ $_ eq "? help" } @e)) ? 0 : 1);'
}

T_COLS=80 T_ROWS=24 tm_start
tm_wait "$P"
tm_line "$RACE"
tm_wait 'landscape x1,x2'; ok $? "smallscreen: the 80x24 race shows the landscape"
tm_until "tm_screen | grep -q 'loss \[' && tm_screen | grep -q 'gradnorm \['"
ok $? "smallscreen: and both metric panels"
tm_until legends
ok $? "smallscreen: every panel keeps a legend naming the four runs"
tm_until '[ "$(maprows)" -ge 5 ]'
ok $? "smallscreen: the landscape has at least 5 rows of map ($(maprows))"
tm_until status_ok
ok $? "smallscreen: the status line fits 80 columns, whole entries ($(tm_screen | tail -1))"
tm_until "tm_screen | head -1 | grep -qE '^.{1,80}\$' && tm_screen | head -1 | grep -q 'iter '"
ok $? "smallscreen: the header fits 80 columns"
tm_until '[ "$(plotrows)" -ge 5 ]'
ok $? "smallscreen: every metric panel has at least 5 plot rows (fewest: $(plotrows))"
tm_keys q
tm_wait "$P"; ok $? "smallscreen: q returns to the prompt"

# six runs (two or three legend rows in a panel) and three metrics: the
# metric panels still get 5 plot rows each, the landscape 5 map rows
tm_line "r = race(problem.rosenbrock{n=2, noise={sigma=1}}, {optim.gd{lr=1e-3}, optim.momentum{lr=1e-3, mu=0.95}, optim.adam{lr=0.01}, optim.nesterov{lr=1e-3, mu=0.9}, optim.adagrad{lr=0.1}, optim.rmsprop{lr=1e-3}}, {iters=1000000000, watch={\"loss\", \"gradnorm\", \"dist\"}})"
tm_wait 'landscape x1,x2'; ok $? "smallscreen: a 6-run race with three metrics shows the landscape"
tm_until '[ "$(plotrows)" -ge 5 ] && [ "$(maprows)" -ge 5 ]'
ok $? "smallscreen: 5 plot rows or more in every metric panel ($(plotrows)), 5 map rows or more ($(maprows))"
tm_until "tm_screen | head -1 | grep -q 'speed [0-9.]*M/s'"
ok $? "smallscreen: the pace of a 10^9-step budget reads in M/s ($(tm_screen | head -1 | grep -o 'speed [^ ]*'))"
tm_keys q
tm_wait "$P"

# five panels on 22 rows: one metric is left out, the border says so
tm_line "r = run(problem.rosenbrock{n=2, noise={sigma=1}}, optim.gd{lr=1e-3}, {iters=$LIVE_ITERS, watch={\"loss\", \"gradnorm\", \"dist\", \"subopt\"}})"
tm_wait '1 more panel: Tab or z'; ok $? "smallscreen: a panel that does not fit is left out, and said"
tm_until "s=\$(tm_screen); echo \"\$s\" | grep -q '\* loss \[' && echo \"\$s\" | grep -q 'landscape x1,x2' && ! echo \"\$s\" | grep -q 'subopt \['"
ok $? "smallscreen: the last metric goes first; the first one and the landscape stay"
tm_keys Tab Tab Tab
tm_wait '\* subopt \['; ok $? "smallscreen: Tab to a left-out panel shows it"
tm_keys q
tm_wait "$P"
done_testing
