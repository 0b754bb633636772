#!/usr/bin/env bash
# tests/repl/sampleview.t -- the live view of a sampler's chains reads as
# chains (issue 26), driven in tmux at 120x40: four NUTS chains on a 2-D
# Gaussian (warmup 1000) are "chain 1" .. "chain 4" in every legend (the
# start value eps=1 is not shown: it is not what adapted chains run
# with), the title names the sampler, the step size panel says when the
# values are the adapted ones, the acceptance axis is [0, 1] (ticks 1 at
# the top, 0 at the bottom, none below), the trace's x axis starts at the
# first kept draw (its first tick label >= the warmup, 1000), and the
# accept and stepsize panels, where the four lines share cells, show all
# four chains' colours.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# Never finishes by itself (LIVE_ITERS draws after the warmup); q ends it.
RUN="c = run(problem.gauss2d{}, sample.nuts{}, {chains = 4, seed = 2, iters = $LIVE_ITERS})"

# The plot cells of the left-column panel titled $1: for each of its rows
# (from its title to its x axis), the part between the y axis and the
# right border, with escape sequences; then the distinct colour sequences
# just before braille cells there.
panel_colours () {
  tm capture-pane -p -e -t t | perl -CS -ne '
    BEGIN { $want = shift @ARGV }
    if (!$in && /\Q$want\E/) { $in = 1; next }
    next unless $in;
    my @seg = split /[\x{2502}\x{2524}]/;
    my $plot = $seg[2] // "";
    if (/\x{2514}/) { $in = 0; last }
    $plot =~ s/\e\[0?m//g;
    while ($plot =~ /(\e\[[0-9;]*m)[\x{2801}-\x{28FF}]/g) { $c{$1} = 1 }
    END { print scalar(keys %c), "\n" }' "$1"
}

# The y tick labels of the left-column panel titled $1, top to bottom.
panel_yticks () {
  tm_screen | perl -CS -ne '
    BEGIN { $want = shift @ARGV }
    if (!$in && /\Q$want\E/) { $in = 1; next }
    next unless $in;
    last if /\x{2514}/;
    print "$1\n" if /^\x{2502}\s*(\S+)\x{2524}/' "$1"
}

# The first x tick label of the right-column panel titled $1 (the row
# under its x axis).
panel_xfirst () {
  tm_screen | perl -CS -ne '
    BEGIN { $want = shift @ARGV }
    my $r = substr($_, 60);
    if (!$in && $r =~ /\Q$want\E/) { $in = 1; next }
    next unless $in;
    if ($r =~ /\x{2514}/) { $next = 1; next }
    if ($next) { $r =~ /^\x{2502}\s*(\S+)/; print "$1\n"; last }' "$1"
}

tm_start
tm_wait "$P"
tm_line "$RUN"
tm_wait 'chain 4'
ok $? "sampleview: the live view of 4 chains opens"
tm_until "(s=\$(tm_screen); for k in 1 2 3 4; do \
  [ \$(echo \"\$s\" | grep -o \"● chain \$k \" | wc -l) -ge 3 ] || exit 1; \
  done)"
ok $? "sampleview: accept, trace and stepsize legends each have chain 1..4"
tm_screen | grep -q 'eps=1'
[ $? -ne 0 ]; ok $? "sampleview: no legend shows the start value eps=1"
tm_wait 'gauss2d\{[^}]*\}: nuts, 4 chains'
ok $? "sampleview: the title names the sampler and the chains"
tm_wait 'adapted \(warmup 1000\)'
ok $? "sampleview: the step size panel says its values are the adapted ones"

# acceptance on [0, 1]
tm_until '[ "$(panel_yticks "accept [lin]" | head -1)" = 1 ] &&
  [ "$(panel_yticks "accept [lin]" | tail -1)" = 0 ]'
ok $? "sampleview: the accept axis runs from 0 (bottom) to 1 (top)"
panel_yticks "accept [lin]" | grep -q -- '-'
[ $? -ne 0 ]; ok $? "sampleview: no accept tick below 0"

# the trace from the first kept draw: after the warmup of 1000
tm_until 'f=$(panel_xfirst "trace x1"); [ -n "$f" ] &&
  awk -v f="$f" "BEGIN { exit !(f + 0 >= 1000) }"'
ok $? "sampleview: the trace's x axis starts at the first kept draw (first tick $(panel_xfirst "trace x1") >= 1000)"

# every chain's colour where the lines share cells
tm_until '[ "$(panel_colours "accept [lin]")" -ge 4 ]'
ok $? "sampleview: the accept panel shows the 4 chains' colours ($(panel_colours "accept [lin]"))"
tm_until '[ "$(panel_colours "stepsize [lin]")" -ge 4 ]'
ok $? "sampleview: the stepsize panel shows the 4 chains' colours ($(panel_colours "stepsize [lin]"))"

tm_keys q
tm_wait "$P"; ok $? "sampleview: q returns to the prompt"
tm_line 'print(c[2].label)'
tm_wait '^nuts eps=1 chain 2$'
ok $? "sampleview: a chain's own label still names its sampler"
done_testing
