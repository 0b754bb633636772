#!/usr/bin/env bash
# tests/repl/palette.t -- one colour per run everywhere, and landscape
# races where no path hides another, checked on screenshots: the pane is
# captured with its colour escapes (tmux capture-pane -e), drawn as a PNG
# cell by cell (tm_shot: tests/lib/shot.pl and rsvg-convert), and each
# cell's colour read back from the PNG's pixels; the characters come from
# the capture.  Colours "differ" when they are at least DIST apart in
# some channel of RGB, as drawn (two escape codes for one visible colour
# would not pass).
#   - a 6-dynamics race on rps: every legend mark of a run (its metric
#     panels' entries, both players' entries of the simplex) has one
#     colour, the six colours differ, and every mark and path cell in the
#     simplex is in a run's colour, each run's current points included;
#   - a 4-method race on rosenbrock (gd, momentum, nesterov, adam; gd and
#     nesterov run close to momentum): in the landscape every run has
#     path cells of its own colour, its legend's;
#   - a diverging fourth run (gd lr=0.01) does not shrink the others to
#     dots: they keep their cells and the window stays near the start and
#     x*; the start and x* are keyed;
#   - view = {xlim, ylim} fixes the window (bounds shown, title "fixed"),
#     bad limits and unknown keys are errors naming the valid ones, and w
#     frees and freezes the window.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'

# The checker: reads an escape-coded capture on stdin.
#   simplex LABEL...     as described above, for the simplex panel
#   landscape MIN LABEL...  every label has >= MIN path cells of its colour
#                        in the landscape's plot area (braille)
# Diagnostics on stderr; exit 0 when the check holds.
cat > "$T_TMP/chk.pl" <<'EOF'
use strict; use warnings;
binmode STDIN, ':encoding(UTF-8)'; binmode STDERR, ':encoding(UTF-8)';
my ($mode, @args) = @ARGV;
my (@ch, @fg);
while (my $line = <STDIN>) {
  chomp $line;
  my (@c, @f); my $cur = 'def';
  while (length $line) {
    if ($line =~ s/^\e\[([0-9;]*)m//) {
      my @p = split /;/, ($1 eq '' ? '0' : $1);
      while (@p) {
        my $n = shift @p;
        if ($n == 0 || $n == 39) { $cur = 'def' }
        elsif ($n >= 30 && $n <= 37) { $cur = 'a' . ($n - 30) }
        elsif ($n >= 90 && $n <= 97) { $cur = 'a' . ($n - 82) }
        elsif ($n == 38) {
          my $k = shift @p // 0;
          if ($k == 5) { $cur = 'x' . (shift @p // 0) }
          else { $cur = 'rgb' . join ',', splice @p, 0, 3 }
        }
      }
    } elsif ($line =~ s/^\e[^a-zA-Z]*[a-zA-Z]//) {
    } else {
      push @c, substr($line, 0, 1, ''); push @f, $cur;
    }
  }
  push @ch, \@c; push @fg, \@f;
}
# the colours from the screenshot's pixels: "-" (blank) and the default
# foreground are "def", any other an "r,g,b"
{
  open(my $cf, '<', $ENV{CELLS}) or die "chk: no cells file: $!\n";
  my $y = 0;
  while (my $line = <$cf>) {
    chomp $line;
    my @c = split / /, $line;
    for my $x (0 .. $#{$ch[$y] // []}) {
      my $v = $c[$x] // '-';
      $fg[$y][$x] = $v eq '-' || $v eq '208,208,208' ? 'def' : $v;
    }
    $y++;
  }
}
# two drawn colours a person can tell apart: DIST or more in some channel
my $DIST = 48;
sub apart {
  my @a = split /,/, $_[0]; my @b = split /,/, $_[1];
  return 1 if @a != 3 || @b != 3;
  for (0 .. 2) { return 1 if abs($a[$_] - $b[$_]) >= $DIST }
  return 0;
}
sub all_apart {
  my @c = @_;
  for my $i (0 .. $#c) {
    for my $j ($i + 1 .. $#c) {
      return "$c[$i] and $c[$j]" unless apart($c[$i], $c[$j]);
    }
  }
  return '';
}
my @rows = map { join '', @$_ } @ch;
# the panel whose title matches re: (top, bottom, left, right) borders
sub panel {
  my ($re) = @_;
  for my $y (0 .. $#rows) {
    next unless $rows[$y] =~ $re;
    my $t = $-[0];
    my $l = rindex($rows[$y], "\x{250C}", $t);
    my $r = index($rows[$y], "\x{2510}", $t);
    next if $l < 0 || $r < 0;
    for my $b ($y + 1 .. $#rows) {
      return ($y, $b, $l, $r) if ($ch[$b][$l] // '') eq "\x{2514}";
    }
  }
  return;
}
# colours of the legend marks of label lab (in rows y0..y1, cols x0..x1),
# and the cells they and their text take (into %$skip)
sub legend {
  my ($lab, $skip, $y0, $y1, $x0, $x1, $suffix) = @_;
  my %col;
  for my $y ($y0 .. $y1) {
    my $row = $rows[$y];
    while ($row =~ /[\x{25CF}\x{25C6}\x{25A0}] \Q$lab\E$suffix(?= |\x{2502}|$)/g) {
      my ($s, $e) = ($-[0], $+[0]);
      next if $s < $x0 || $s > $x1;
      $col{$fg[$y][$s]}++;
      $skip->{"$y,$_"} = 1 for $s .. $e - 1;
    }
  }
  return %col;
}
my $fail = 0;
sub bad { print STDERR "# $_[0]\n"; $fail = 1 }
my (%runcol, %skip);
if ($mode eq 'simplex') {
  my ($t, $b, $l, $r) = panel(qr/simplex/);
  unless (defined $t) { bad("no simplex panel"); exit 1 }
  for my $lab (@args) {
    my %all = legend($lab, \%skip, 0, $#rows, 0, 1e9, '');
    my %sx = legend($lab, \%skip, $t, $b, $l, $r, ' p[12]');
    my %both = (%all, %sx);
    my @c = keys %both;
    bad("$lab: legend marks in colours @c") if @c != 1;
    bad("$lab: no legend entry in the simplex") unless %sx;
    bad("$lab: no legend entry outside the simplex") unless keys %all;
    $runcol{$lab} = $c[0] // '?';
  }
  my %seen; $seen{$_}++ for values %runcol;
  bad("run colours not distinct: @{[%runcol]}") if keys %seen != @args;
  my $near = all_apart(values %runcol);
  bad("run colours too close to tell apart: $near") if $near ne '';
  # the key line "P1 ●  P2 ◆" is in the title colour
  for my $y ($t .. $b) {
    while ($rows[$y] =~ /P[123] [\x{25CF}\x{25C6}\x{25A0}]/g) {
      $skip{"$y,$_"} = 1 for $-[0] .. $+[0] - 1;
    }
  }
  my %own; my %isrun = map { $_ => 1 } values %runcol;
  for my $y ($t + 1 .. $b - 1) {
    for my $x ($l + 1 .. $r - 1) {
      next if $skip{"$y,$x"};
      my ($c, $f) = ($ch[$y][$x] // ' ', $fg[$y][$x] // 'def');
      next unless $c =~ /[\x{2801}-\x{28FF}\x{25CF}\x{25C6}]/;
      next if $f eq 'def';
      if (!$isrun{$f}) { bad("simplex cell ($y,$x) '$c' in colour $f, no run's"); next }
      $own{$f}++ if $c =~ /[\x{25CF}\x{25C6}]/;
    }
  }
  for my $lab (@args) {
    bad("$lab: no current point in its colour $runcol{$lab} in the simplex")
      unless $own{$runcol{$lab}};
  }
  print STDERR "# run colours: ", join(', ', map { "$_=$runcol{$_}" } @args), "\n";
} elsif ($mode eq 'landscape') {
  my $min = shift @args;
  my ($t, $b, $l, $r) = panel(qr/landscape x1,x2/);
  unless (defined $t) { bad("no landscape panel"); exit 1 }
  my %n;
  for my $lab (@args) {
    my %c = legend($lab, \%skip, $t, $b, $l, $r, '');
    my @c = keys %c;
    bad("$lab: legend marks in colours @c") if @c != 1;
    $runcol{$lab} = $c[0] // '?';
  }
  my %seen; $seen{$_}++ for values %runcol;
  bad("run colours not distinct") if keys %seen != @args;
  my $near = all_apart(values %runcol);
  bad("run colours too close to tell apart: $near") if $near ne '';
  for my $y ($t + 1 .. $b - 1) {
    for my $x ($l + 1 .. $r - 1) {
      next if $skip{"$y,$x"};
      $n{$fg[$y][$x]}++ if ($ch[$y][$x] // '') =~ /[\x{2801}-\x{28FF}]/;
    }
  }
  for my $lab (@args) {
    my $k = $n{$runcol{$lab}} // 0;
    bad("$lab: $k path cells in its colour $runcol{$lab} (want >= $min)")
      if $k < $min;
  }
  print STDERR "# path cells: ", join(', ', map { "$_=" . ($n{$runcol{$_}} // 0) } @args), "\n";
}
exit $fail;
EOF
chk () {
  tm_shot shot || { echo "screenshot failed" > "$T_TMP/diag"; return 1; }
  CELLS="$T_TMP/shot.cells" perl "$T_TMP/chk.pl" "$@" \
    < "$T_TMP/shot.cap" 2>"$T_TMP/diag"
}
diag () { sed 's/^/# /; s/^# # /# /' "$T_TMP/diag"; }
# tm_until with a checker: the last failure's diagnostics are shown.
chk_until () { tm_until "chk $*"; local rc=$?; diag; return $rc; }

# (1) six game dynamics on rps: the simplex agrees with the legends
tm_start
tm_wait "$P"; ok $? "prompt shown"
tm_line "r = race(problem.rps{}, {game.mwu{}, game.omwu{}, game.rm{},"\
" game.rmplus{}, game.fp{}, game.eg{}}, {iters=$LIVE_ITERS})"
tm_wait 'simplex .*one path per player'; ok $? "rps race: the simplex is shown"
chk_until "simplex 'mwu lr=0.1' 'omwu lr=0.1' 'rm avg=uniform'"\
" 'rmplus alternate=false' fp 'eg lr=0.1'"
ok $? "rps race: each run's legend marks share one colour in every panel,"\
" six distinct; every simplex mark and path is in a run's colour, each"\
" run's current points included"
tm_keys q
tm_wait "$P"; ok $? "rps race: q stops it"

# (2) four methods on rosenbrock: every path has cells of its own colour
RB="problem.rosenbrock{}, {optim.gd{lr=1e-3},"\
" optim.momentum{lr=1e-3, mu=0.9}, optim.nesterov{lr=1e-3, mu=0.9},"
L4="'gd lr=0.001' 'momentum lr=0.001' 'nesterov lr=0.001'"
tm_line "r = race($RB optim.adam{lr=0.01}}, {iters=$LIVE_ITERS, tol=0,"\
" watch={\"loss\", \"landscape\"}})"
tm_wait 'landscape x1,x2'; ok $? "rosenbrock race: the landscape is shown"
chk_until "landscape 4 $L4 'adam lr=0.01'"
ok $? "rosenbrock race: every path has at least 4 cells of its own colour,"\
" its legend's, in the landscape"
tm_keys q
tm_wait "$P"; ok $? "rosenbrock race: q stops it"

# (3) a diverging run leaves the window; starts and x* are keyed
tm_line "r = race($RB optim.gd{lr=0.01}}, {iters=$LIVE_ITERS, tol=0,"\
" watch={\"loss\", \"landscape\"}})"
tm_wait 'landscape x1,x2'; ok $? "diverging race: the landscape is shown"
tm_wait 'gd lr=0\.01 [^ ]*e\+(1[0-9]|[2-9][0-9]|[0-9]{3})'
ok $? "diverging race: gd lr=0.01 diverges (loss >= 1e10)"
chk_until "landscape 4 $L4"
ok $? "diverging race: the other three keep at least 4 path cells each"
# the landscape's x1 bounds (its axis row: "lo  x1  hi") within [-2, 2]
x1_within () {
  tm_screen | perl -CS -ne '$ok = 1 if /\x{2502}\s+(-?[0-9.]+)\s+x1\s+(-?[0-9.]+)\x{2502}$/
    && $1 >= -2 && $2 <= 2; END { exit !$ok }'
}
tm_until x1_within
ok $? "diverging race: the window's x1 range stays within [-2, 2]"
tm_wait '○ start  ★ x\*'; ok $? "diverging race: start and x* are keyed"
tm_until '[ "$(tm_screen | sed -n "3,39p" | grep -c "○")" -ge 2 ]'
ok $? "diverging race: the start is marked in the plot"
tm_keys q
tm_wait "$P"; ok $? "diverging race: q stops it"

# (4) view = {xlim, ylim}: checked, fixed, freed and frozen by w
tm_line "race($RB optim.adam{lr=0.01}}, {iters=10, view={xlim={1, 0}}})"
tm_wait 'view\.xlim must be \{lo, hi\}, two finite numbers with lo < hi'
ok $? "view: a decreasing xlim is refused, saying what it must be"
tm_line "race($RB optim.adam{lr=0.01}}, {iters=10, view={xlim={-2, 2},"\
" zlim={0, 1}}})"
tm_wait "unknown view key 'zlim' \(valid: xlim, ylim\)"
ok $? "view: an unknown key is named with the valid ones"
tm_line "r = race($RB optim.adam{lr=0.01}}, {iters=$LIVE_ITERS, tol=0,"\
" watch={\"loss\", \"landscape\"}, view={xlim={-2, 2}, ylim={-1, 3}}})"
tm_wait 'landscape x1,x2 \[log f\] fixed'; ok $? "view: the title says fixed"
tm_wait '│ +-2 +x1 +2│'; ok $? "view: x1 runs from -2 to 2"
tm_wait '│     3 '; ok $? "view: x2 runs up to 3"
tm_keys w
tm_wait_not '\[log f\] fixed'; ok $? "w: the window follows the runs again"
tm_wait '│   1\.5 '; ok $? "w: the runs' window (x2 up to 1.5)"
tm_keys w
tm_wait '\[log f\] fixed'; ok $? "w: freezes it again"
tm_keys q
tm_wait "$P"; ok $? "view: q stops it"
tm_line 'os.exit(0)'
tm_until '! tm_alive'; ok $? "optlab exits"
done_testing
