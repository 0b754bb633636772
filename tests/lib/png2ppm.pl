#!/usr/bin/perl
# tests/lib/png2ppm.pl -- a PNG file (8-bit RGB or RGBA, not interlaced:
# what cairo writes) to a binary PPM (P6) on standard output, alpha laid
# over white, so a test can look at pixels without an image library
# (perl and its Compress::Zlib are in the Makefile's DEBS).
#   perl tests/lib/png2ppm.pl file.png > file.ppm
# Exits 1 with a message on anything else.
use strict;
use warnings;
use Compress::Zlib;

my $file = shift or die "usage: png2ppm.pl file.png\n";
open(my $fh, '<:raw', $file) or die "png2ppm: $file: $!\n";
local $/;
my $png = <$fh>;
close $fh;
substr($png, 0, 8) eq "\x89PNG\r\n\x1a\n" or die "png2ppm: not a PNG\n";

# (1) chunks: the header and the concatenated image data
my ($w, $h, $depth, $ctype, $interlace, $idat) = (0, 0, 0, 0, 0, '');
my $at = 8;
while ($at + 8 <= length $png) {
  my ($len, $type) = unpack('Na4', substr($png, $at, 8));
  my $data = substr($png, $at + 8, $len);
  if ($type eq 'IHDR') {
    ($w, $h, $depth, $ctype, undef, undef, $interlace) =
      unpack('NNCCCCC', $data);
  }
  elsif ($type eq 'IDAT') { $idat .= $data }
  elsif ($type eq 'IEND') { last }
  $at += 12 + $len;
}
die "png2ppm: only 8-bit RGB/RGBA, not interlaced\n"
  unless $depth == 8 && ($ctype == 2 || $ctype == 6) && !$interlace;
my $bpp = $ctype == 6 ? 4 : 3;
my $raw = uncompress($idat);
defined $raw or die "png2ppm: bad image data\n";
my $stride = $w * $bpp;
length($raw) == $h * ($stride + 1) or die "png2ppm: truncated image data\n";

# (2) undo each row's filter (PNG spec 9.2), then drop alpha over white
my @prev = (0) x $stride;
my $out = "P6\n$w $h\n255\n";
for my $y (0 .. $h - 1) {
  my $ft = ord(substr($raw, $y * ($stride + 1), 1));
  my @cur = unpack('C*', substr($raw, $y * ($stride + 1) + 1, $stride));
  for my $i (0 .. $stride - 1) {
    my $a = $i >= $bpp ? $cur[$i - $bpp] : 0;
    my $b = $prev[$i];
    my $c = $i >= $bpp ? $prev[$i - $bpp] : 0;
    my $p;
    if ($ft == 0) { $p = 0 }
    elsif ($ft == 1) { $p = $a }
    elsif ($ft == 2) { $p = $b }
    elsif ($ft == 3) { $p = ($a + $b) >> 1 }
    elsif ($ft == 4) {
      my $q = $a + $b - $c;
      my ($pa, $pb, $pc) = (abs($q - $a), abs($q - $b), abs($q - $c));
      $p = $pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $c;
    }
    else { die "png2ppm: bad filter $ft\n" }
    $cur[$i] = ($cur[$i] + $p) & 255;
  }
  my $row = '';
  for (my $i = 0; $i < $stride; $i += $bpp) {
    my ($r, $g, $bl) = @cur[$i .. $i + 2];
    if ($bpp == 4) {
      # cairo's PNG is unpremultiplied: blend over white
      my $al = $cur[$i + 3];
      ($r, $g, $bl) = map { int(($_ * $al + 255 * (255 - $al)) / 255 + 0.5) }
        ($r, $g, $bl);
    }
    $row .= pack('CCC', $r, $g, $bl);
  }
  $out .= $row;
  @prev = @cur;
}
binmode STDOUT;
print $out;
