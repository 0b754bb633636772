#!/usr/bin/env bash
# tests/repl/chains.t -- a sampler's chains in the live view, driven in
# tmux: four NUTS chains on a 2-D Gaussian show one legend entry and one
# colour per chain, and the sample cloud over the density's contours; the
# trace panel zoomed draws its lines in four colours, the R-hat panel one
# pooled curve; a centred funnel's divergent transitions are marked.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

P='^>( |$)'
# Never finishes by itself (LIVE_ITERS draws after the warmup); q ends it.
RUN="c = run(problem.gauss2d{}, sample.nuts{}, {chains = 4, iters = $LIVE_ITERS})"
# The legend lines of the first panel, with their escape sequences.
legend_sgr () { tm capture-pane -p -e -t t | grep -E 'chain [1-4]' | head -4; }

tm_start
tm_wait "$P"
tm_line "$RUN"
tm_wait 'chain 4'
ok $? "chains: the live view of 4 chains names chain 4"
tm_until "(s=\$(tm_screen); for k in 1 2 3 4; do \
  echo \"\$s\" | grep -q \"● chain \$k \" || exit 1; done)"
ok $? "chains: the legend has an entry 'chain k' for each of the 4 chains"
# one colour each: the colour sequence just before each chain's legend
# label, taken from the first panel's four entries, differs
tm_until "n=\$(tm capture-pane -p -e -t t \
  | grep -oE $'\\e\\[[0-9;]*mchain [1-4]' | sort -u \
  | sed -E 's/chain ([1-4])/ \\1/' | sort -k2 -u | cut -d' ' -f1 \
  | sort -u | wc -l); [ \"\$n\" -eq 4 ]"
ok $? "chains: the four legend entries are drawn in four colours"
tm_wait 'cloud x1,x2 over log p contours'
ok $? "chains: a 2-D target shows the sample cloud over its contours"
tm_wait 'rhat, chains pooled' && tm_wait '4 chains pooled [0-9]'
ok $? "chains: the R-hat panel draws one curve pooled over the 4 chains"
# the trace panel (second by default) zoomed: the colour sequences just
# before its braille cells, four distinct ones (one per chain)
tm_keys Tab z
tm_wait '\* trace x1'
ok $? "chains: Tab z zooms the trace panel"
trace_colours () {
  tm capture-pane -p -e -t t | perl -CS -ne \
    'while (/(\e\[[0-9;]*m)[\x{2801}-\x{28FF}]/g) { $c{$1} = 1 }
     END { print scalar(keys %c), "\n" }'
}
tm_until "[ \"\$(trace_colours)\" -ge 4 ]"
ok $? "chains: the trace panel draws the 4 chains in 4 colours"
tm_keys z
tm_keys q
tm_wait "$P"; ok $? "chains: q returns to the prompt"
tm_line 'print(c.chains, c[4].label, #c:draws())'
tm_wait 'nuts eps=1 chain 4 +4$|4	nuts eps=1 chain 4	4'
ok $? "chains: the stopped chains are kept (4 chains, labelled)"
tm_line 'print(1 + 1)'
tm_wait '^2$'; ok $? "chains: the prompt still works"

# divergences where they happen: a centred funnel's trace and cloud mark
# each divergent transition with a red cross, counted in the legend
tm_line "f = run(problem.funnel{}, sample.nuts{}, {chains = 4, seed = 3, iters = $LIVE_ITERS})"
tm_wait $'\xc3\x97 [0-9]+ divergent'
ok $? "chains: a centred funnel's legend counts its divergent transitions"
tm_until "[ \$(tm capture-pane -p -e -t t | perl -CS -ne \
  '\$n++ while /\e\[[0-9;]*31[0-9;]*m\x{00D7}/g; END { print \$n + 0 }') -ge 3 ]"
ok $? "chains: divergent transitions are marked on the plots in red"
tm_keys q
tm_wait "$P"; ok $? "chains: q ends the funnel run"

# chains take the pacing options of a run
tm_line 'cp = run(problem.gaussian{n=2}, sample.rwmh{}, {chains=3, iters=50, warmup=0, paused=true})'
tm_wait 'iter 0/50 +paused'; ok $? "chains: paused=true opens the view paused at iteration 0"
tm_keys n
tm_wait 'iter 1/50 +paused'; ok $? "chains: n steps every chain once"
tm_keys q
tm_wait "$P"
tm_line 'print("iters", cp[1].iter, cp[2].iter, cp[3].iter)'
tm_wait '^iters +1 +1 +1$'; ok $? "chains: each chain took exactly the one step"
done_testing
