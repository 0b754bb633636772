#!/usr/bin/perl
# tests/lib/shot.pl -- a screenshot of the terminal: a tmux capture with
# its colour escapes (capture-pane -e -p) drawn as an SVG, cell by cell,
# for rsvg-convert to turn into a PNG; and, the other way, the colour of
# each cell read back from that PNG's pixels (as a PPM from png2ppm.pl).
#
#   perl tests/lib/shot.pl svg CAPTURE > shot.svg
#   rsvg-convert -o shot.png shot.svg
#   perl tests/lib/png2ppm.pl shot.png > shot.ppm
#   perl tests/lib/shot.pl cells CAPTURE shot.ppm > cells
#
# The drawing: each cell CW x CH pixels on the terminal's background, a
# background colour (SGR 48) filling its cell; braille cells as their
# dots (squares on the 2 x 4 grid, crisp edges), the marks the plots use
# (filled circle, diamond, square; ring, star) as shapes, any other glyph
# as text in a monospace font, all in the cell's foreground colour (SGR
# 30-37, 90-97, 38;5;n from the xterm 256-colour table, 38;2;r;g;b; bold
# is ignored).  So what a test then reads is what a person would see.
#
# "cells" prints one line per screen row: for each cell its colour as
# "r,g,b" (the most frequent pixel colour in the cell other than the
# cell's majority, i.e. its background), or "-" when the cell has only
# one colour (blank); separated by spaces.
use strict;
use warnings;

my ($CW, $CH) = (6, 12);
my @BG = (0, 0, 0);             # the terminal's background and foreground
my @FG = (208, 208, 208);

# the xterm palette: 16 system colours, the 6x6x6 cube, 24 greys
my @X16 = ([0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0],
           [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
           [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0],
           [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255]);
sub xterm {
  my ($n) = @_;
  return @{$X16[$n]} if $n < 16;
  if ($n < 232) {
    my @l = (0, 95, 135, 175, 215, 255);
    $n -= 16;
    return ($l[int($n / 36)], $l[int($n / 6) % 6], $l[$n % 6]);
  }
  my $g = 8 + 10 * ($n - 232);
  return ($g, $g, $g);
}

# the capture: rows of [char, fg rgb, bg rgb]
sub readcap {
  my ($file) = @_;
  open(my $fh, '<:encoding(UTF-8)', $file) or die "shot: $file: $!\n";
  my @rows;
  while (my $line = <$fh>) {
    chomp $line;
    my @r;
    my ($fg, $bg) = ([@FG], [@BG]);
    while (length $line) {
      if ($line =~ s/^\e\[([0-9;:]*)m//) {
        my @p = split /[;:]/, ($1 eq '' ? '0' : $1);
        while (@p) {
          my $c = shift @p;
          if ($c == 0) { ($fg, $bg) = ([@FG], [@BG]) }
          elsif ($c == 39) { $fg = [@FG] }
          elsif ($c == 49) { $bg = [@BG] }
          elsif ($c >= 30 && $c <= 37) { $fg = [xterm($c - 30)] }
          elsif ($c >= 90 && $c <= 97) { $fg = [xterm($c - 82)] }
          elsif ($c >= 40 && $c <= 47) { $bg = [xterm($c - 40)] }
          elsif ($c >= 100 && $c <= 107) { $bg = [xterm($c - 92)] }
          elsif ($c == 38 || $c == 48) {
            my $k = shift @p // 0;
            my @v = $k == 5 ? xterm(shift @p // 0) : splice(@p, 0, 3);
            if ($c == 38) { $fg = [@v] } else { $bg = [@v] }
          }
        }
      } elsif ($line =~ s/^\e[^a-zA-Z]*[a-zA-Z]//) {
      } else {
        push @r, [substr($line, 0, 1, ''), $fg, $bg];
      }
    }
    push @rows, \@r;
  }
  close $fh;
  return @rows;
}

sub hex3 { sprintf '#%02x%02x%02x', @_ }

sub svg {
  my @rows = readcap(@_);
  my $cols = 0;
  for (@rows) { $cols = @$_ if @$_ > $cols }
  my ($w, $h) = ($cols * $CW, @rows * $CH);
  binmode STDOUT, ':encoding(UTF-8)';
  print qq{<svg xmlns="http://www.w3.org/2000/svg" width="$w" height="$h" },
    qq{shape-rendering="crispEdges">\n},
    qq{<rect width="$w" height="$h" fill="}, hex3(@BG), qq{"/>\n};
  for my $y (0 .. $#rows) {
    for my $x (0 .. $#{$rows[$y]}) {
      my ($c, $fg, $bg) = @{$rows[$y][$x]};
      my ($px, $py) = ($x * $CW, $y * $CH);
      my $f = hex3(@$fg);
      print qq{<rect x="$px" y="$py" width="$CW" height="$CH" fill="},
        hex3(@$bg), qq{"/>\n} if join(',', @$bg) ne join(',', @BG);
      my $o = ord $c;
      next if $c eq ' ';
      if ($o >= 0x2800 && $o <= 0x28FF) {
        # dots 1-8: (0,0) (0,1) (0,2) (1,0) (1,1) (1,2) (0,3) (1,3)
        my @at = ([0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [0, 3],
                  [1, 3]);
        for my $d (0 .. 7) {
          next unless ($o - 0x2800) >> $d & 1;
          my ($dx, $dy) = @{$at[$d]};
          printf qq{<rect x="%d" y="%d" width="2" height="2" fill="%s"/>\n},
            $px + 1 + 3 * $dx, $py + 1 + 3 * $dy, $f;
        }
      } elsif ($c eq "\x{25CF}" || $c eq "\x{25CB}") {     # filled, ring
        my ($cx, $cy) = ($px + $CW / 2, $py + $CH / 2);
        print $c eq "\x{25CF}"
          ? qq{<rect x="@{[$px + 1]}" y="@{[$cy - 2]}" width="4" height="4" fill="$f"/>\n}
          : qq{<circle cx="$cx" cy="$cy" r="2.2" fill="none" stroke="$f"/>\n};
      } elsif ($c eq "\x{25C6}") {                          # diamond
        my ($cx, $cy) = ($px + $CW / 2, $py + $CH / 2);
        printf qq{<polygon points="%g,%g %g,%g %g,%g %g,%g" fill="%s" },
          $cx, $cy - 3, $cx + 3, $cy, $cx, $cy + 3, $cx - 3, $cy, $f;
        print qq{shape-rendering="auto"/>\n};
      } elsif ($c eq "\x{25A0}") {                          # square
        print qq{<rect x="@{[$px + 1]}" y="@{[$py + 4]}" width="4" height="4" fill="$f"/>\n};
      } else {
        my $t = $c eq '&' ? '&amp;' : $c eq '<' ? '&lt;' : $c eq '>' ? '&gt;'
          : $c;
        printf qq{<text x="%d" y="%d" font-family="DejaVu Sans Mono,monospace" },
          $px, $py + $CH - 3;
        print qq{font-size="10" fill="$f" shape-rendering="auto">$t</text>\n};
      }
    }
  }
  print "</svg>\n";
}

sub cells {
  my ($cap, $ppm) = @_;
  my @rows = readcap($cap);
  open(my $fh, '<:raw', $ppm) or die "shot: $ppm: $!\n";
  local $/;
  my $img = <$fh>;
  close $fh;
  $img =~ s/^P6\s+(\d+)\s+(\d+)\s+255\s//s or die "shot: $ppm: not a PPM\n";
  my ($w, $h) = ($1, $2);
  my $ny = int($h / $CH);
  my $nx = int($w / $CW);
  for my $y (0 .. $ny - 1) {
    my @out;
    for my $x (0 .. $nx - 1) {
      my %n;
      for my $v (0 .. $CH - 1) {
        my $at = (($y * $CH + $v) * $w + $x * $CW) * 3;
        my $row = substr($img, $at, $CW * 3);
        $n{substr($row, 3 * $_, 3)}++ for 0 .. $CW - 1;
      }
      my @k = sort { $n{$b} <=> $n{$a} || $a cmp $b } keys %n;
      push @out, @k < 2 ? '-' : join(',', unpack('C3', $k[1]));
    }
    print join(' ', @out), "\n";
  }
}

my $mode = shift // '';
if ($mode eq 'svg' && @ARGV == 1) { svg(@ARGV) }
elsif ($mode eq 'cells' && @ARGV == 2) { cells(@ARGV) }
else { die "usage: shot.pl svg CAPTURE | shot.pl cells CAPTURE PPM\n" }
