#!/usr/bin/env bash
# tests/repl/chains.t -- a sampler's chains in the live view, driven in
# tmux: four NUTS chains on a 2-D Gaussian show one legend entry and one
# colour per chain, and the sample cloud over the density's contours.
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
tm_until "s=\$(tm_screen); for k in 1 2 3 4; do \
  echo \"\$s\" | grep -q \"nuts eps=1 chain \$k\" || exit 1; done"
ok $? "chains: the legend has an entry for each of the 4 chains"
# one colour each: the colour sequence just before each chain's legend
# label, taken from the first panel's four entries, differs
tm_until "n=\$(tm capture-pane -p -e -t t \
  | grep -oE $'\\e\\[[0-9;]*mnuts eps=1 chain [1-4]' | sort -u \
  | sed -E 's/nuts.*chain ([1-4])/ \\1/' | sort -k2 -u | cut -d' ' -f1 \
  | sort -u | wc -l); [ \"\$n\" -eq 4 ]"
ok $? "chains: the four legend entries are drawn in four colours"
tm_wait 'landscape x1,x2'
ok $? "chains: a 2-D target shows the sample cloud over its contours"
tm_keys q
tm_wait "$P"; ok $? "chains: q returns to the prompt"
tm_line 'print(c.chains, c[4].label, #c:draws())'
tm_wait 'nuts eps=1 chain 4 +4$|4	nuts eps=1 chain 4	4'
ok $? "chains: the stopped chains are kept (4 chains, labelled)"
tm_line 'print(1 + 1)'
tm_wait '^2$'; ok $? "chains: the prompt still works"

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
