#!/usr/bin/env bash
# tests/repl/legend.t -- legends never cover data, driven in tmux: in a
# 6-method race at 120x40 every legend entry of the loss panel sits below
# its x axis, and the plot's left 45% (where the legend used to sit, over
# the start of every curve) shows the series; long labels are shortened by
# whole tokens, never inside a number.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# Never finishes by itself: LIVE_ITERS on a noisy problem; q ends it.
RACE='r = race(problem.rosenbrock{n=2, noise={sigma=1}}, {optim.gd{lr=1e-3},'\
' optim.momentum{lr=1e-3, mu=0.95}, optim.adam{lr=0.01},'\
' optim.nesterov{lr=1e-3, mu=0.9}, optim.adagrad{lr=0.1},'\
' optim.rmsprop{lr=0.01}}, '"{iters=$LIVE_ITERS})"

# check WHAT [WIDTH]: on one capture of the first panel (its left WIDTH
# columns, default 60: the left one of two panel columns), from its
# title row to its bottom border, in characters (perl -CS):
#   below  every label's legend row is below the x axis row (the row with
#          the axis corner) and no label text is on a plot row;
#   left   at least 3 plot rows have series dots (braille) in the left 45%
#          of the plot columns;
#   tokens every "key=value" token shown is one of the race's labels'
#          tokens (so no number is cut: "mu=0." for mu=0.95).
check () {
  tm_screen | perl -CS -e '
    my ($what, $w) = @ARGV;
    my @rows = map { substr($_, 0, $w) } <STDIN>;
    my ($top, $ax, $bot) = (-1, -1, -1);
    for my $i (0 .. $#rows) {
      $top = $i if $top < 0 && $rows[$i] =~ /loss \[/;
      $ax = $i if $top >= 0 && $ax < 0 && $rows[$i] =~ /\x{2514}\x{2534}/;
      if ($ax >= 0 && $rows[$i] =~ /^\x{2514}/) { $bot = $i; last; }
    }
    exit 1 if $top < 0 || $ax < 0 || $bot < 0;
    my @labels = ("gd", "momentum", "adam", "nesterov", "adagrad", "rmsprop");
    if ($what eq "below") {
      for my $l (@labels) {
        my $at = -1;
        for my $i ($top + 1 .. $bot - 1) {
          $at = $i if $rows[$i] =~ /\x{25CF} \Q$l\E[ \x{2026}]/;
        }
        exit 1 if $at <= $ax;
      }
      for my $i ($top + 1 .. $ax - 1) { exit 1 if $rows[$i] =~ /lr=/; }
      exit 0;
    }
    if ($what eq "left") {
      my $n = 0;
      for my $i ($top + 1 .. $ax - 1) {
        my $r = $rows[$i];
        my $p = index($r, "\x{2502}", 1);          # the y axis column
        $p = index($r, "\x{2524}", 1) if $p < 0 || $p > 12;
        next if $p < 0;
        my $band = substr($r, $p + 1, int(0.45 * ($w - 1 - $p - 1)));
        $n++ if $band =~ /[\x{2801}-\x{28FF}]/;
      }
      exit($n >= 3 ? 0 : 1);
    }
    if ($what eq "tokens") {
      my %ok = map { $_ => 1 } qw(lr=0.001 mu=0.95 lr=0.01 mu=0.9 lr=0.1);
      my $seen = 0;
      for my $i ($ax + 1 .. $bot - 1) {
        for my $t ($rows[$i] =~ /(\w+=[^\s\x{2026}]*)/g) {
          exit 1 unless $ok{$t};
          $seen++;
        }
      }
      exit($seen >= 3 ? 0 : 1);
    }
    exit 1;' "$1" "${2:-60}"
}

tm_start
tm_wait "$P"
tm_line "$RACE"
tm_wait 'rmsprop'
ok $? "legend: the 6-method race view opens"
tm_until "check below"
ok $? "legend: every entry of the loss panel is below its x axis"
tm_until "check left"
ok $? "legend: the left 45% of the loss plot shows the series"
tm_until "check tokens"
ok $? "legend: labels keep whole key=value tokens"
tm_keys q
tm_wait "$P"; ok $? "legend: q returns to the prompt"

# a narrow terminal: entries must be shortened, by whole tokens
T_COLS=80 T_ROWS=30 tm_start
tm_wait "$P"
tm_line "$RACE"
tm_wait 'rmsprop'
tm_until "check tokens 80"
ok $? "legend: at 80 columns labels are shortened by whole tokens"
tm_until "check below 80"
ok $? "legend: at 80 columns the entries stay below the x axis"
tm_keys q
tm_wait "$P"
done_testing
