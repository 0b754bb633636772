#!/usr/bin/env bash
# tests/repl/ctrlc.t -- one Ctrl-C brings back a usable prompt from every
# loop whose length the user controls (issue 22, item 3), driven in tmux:
#   (a) a background job whose callback loops for ever, or is slow, while
#       the prompt steps it between keystrokes (the prompt froze for good);
#   (b) Lua code looping inside a coroutine (coroutine.wrap, resume);
#   (c) a run nested in a callback (the inner run took the Ctrl-C and the
#       outer one went on), and a loop of runs (one Ctrl-C stopped one run);
#   (d) long work in C: hessian() of a 2000-d function, problem builders of
#       large sizes (matlsq, linreg, rosenbrock, rlvr, density, problem.new
#       with hess=), hmc{L=1e6}, a diffusion sampler over 10^6 particles, one over 10^7
#       with its metrics, lowrank and lasso builds, optlab.sleep, a NUTS
#       transition of maxdepth 30, a Gaussian target's
#       Sigma^1/2 at n = 1000 (the fuzzer found them deaf to Ctrl-C),
#       repeats of 10^8 runs, grad() inside the f of grad() where neither
#       can be traced (grad's tracer lets an interrupt through and takes
#       any other error as "untraceable": the fuzzer's own budget error
#       was caught at every level).
# Each case starts a statement that cannot finish soon, waits until it is
# busy, sends one C-c and waits for the prompt (a hang guard of HANG s, no
# timing asserted: tests/bench/ctrlc.sh measures the latency), then checks
# that the session survived: a variable set at the start is still there.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tmux.sh

HANG=${HANG:-20}
P='^(\^C)?> ?$'          # the prompt, after a Ctrl-C echoed as ^C or not

at_prompt () { tm_screen | grep -v '^ *$' | tail -1 | grep -qE -- "$P"; }

# ctrl_c NAME: one C-c, then the prompt must come back within HANG s.
ctrl_c () {
  tm_keys C-c
  tm_until at_prompt "$HANG"
  ok $? "ctrlc: $1: one Ctrl-C returns to the prompt"
}

# survives NAME: alive, and keep (set at the start) is still 42.
survives () {
  tm_alive; ok $? "ctrlc: $1: optlab is still running"
  tm_line 'print("keep=" .. keep)'
  tm_wait '^keep=42$' 10; ok $? "ctrlc: $1: the session kept its variables"
  tm_keys C-l
}

wait_file () { tm_until "[ -e '$1' ]"; }

fresh () {
  tm_start
  tm_wait "$P"
  tm_line 'keep = 42'
  tm_wait "$P"
}

# (a) a job whose gradient loops for ever from its 200th call on; the
# prompt steps it between keystrokes (the dashboard shows it)
M="$T_TMP/in_loop"
fresh
tm_line "cnt = 0 p = problem.new{n=2, f=function(x) return x[1]^2+x[2]^2 end, \
grad=function(x,g) cnt = cnt + 1 if cnt > 200 then io.open('$M', 'w'):close() \
while true do end end g[1]=2*x[1] g[2]=2*x[2] end}"
tm_line 'j = start(p, optim.gd{lr=1e-9}, {iters=1e6, x0={1,1}})'
wait_file "$M"; ok $? "ctrlc: (a) the job's callback is looping"
ctrl_c "(a) job with a looping callback"
tm_line 'print("state=" .. j.state .. " " .. j.run.reason)'
tm_wait '^state=done interrupted$' 10
ok $? "ctrlc: (a) the job stopped, interrupted"
tm_line 'print(j) print(jobs())'
tm_wait '^job #1 gd lr=1e-09 on lua.*: interrupted, iter' 10
ok $? "ctrlc: (a) print(j) says interrupted, not done"
tm_wait '^  1 +interrupted +[0-9]+/1000000 +gd' 10
ok $? "ctrlc: (a) jobs() lists it as interrupted"
survives "(a)"

# (a') a job whose objective takes 5 s a call (a busy loop on the clock)
# from its 10th call on (start() itself evaluates f at x0)
M="$T_TMP/in_slow"
tm_line "nf = 0 q = problem.new{n=2, ad=false, f=function(x) nf = nf + 1 \
if nf > 10 then io.open('$M', 'w'):close() local t = os.clock() \
while os.clock() - t < 5 do end end return x[1]^2 end}"
tm_line 'j2 = start(q, optim.gd{}, {iters=1e6, x0={1,1}})'
wait_file "$M"; ok $? "ctrlc: (a') the slow objective is running"
ctrl_c "(a') job with a 5 s objective"
tm_line 'print("state=" .. j2.state)'
tm_wait '^state=done$' 10; ok $? "ctrlc: (a') the job stopped"
survives "(a')"

# (b) Lua code looping in a coroutine, through wrap and through resume
M="$T_TMP/in_co"
tm_line "coroutine.wrap(function () io.open('$M', 'w'):close() while true do end end)()"
wait_file "$M"; ok $? "ctrlc: (b) the coroutine is looping"
ctrl_c "(b) loop in coroutine.wrap"
tm_wait 'interrupted!' 5; ok $? "ctrlc: (b) it says interrupted!"
! tm_screen | grep -q 'stack traceback'
ok $? "ctrlc: (b) without a traceback (where a Ctrl-C landed says nothing)"
survives "(b)"
M="$T_TMP/in_co2"
tm_line "co = coroutine.create(function () io.open('$M', 'w'):close() \
local t = {} for i = 1, 1e12 do t[i % 7 + 1] = i end end) \
print('resumed', coroutine.resume(co))"
wait_file "$M"; ok $? "ctrlc: (b') the resumed coroutine is looping"
ctrl_c "(b') loop in coroutine.resume"
survives "(b')"
# work in C called from a coroutine: a dense Hessian of 2000 variables
tm_line 'x = {} for i = 1, 2000 do x[i] = 0.5 end'
tm_line "coroutine.wrap(function () io.open('$M.h', 'w'):close() \
return hessian(function (x) local s = 0 for i = 1, #x do \
for j = i, math.min(#x, i + 60) do s = s + x[i] * x[j] end end return s end, x) end)()"
wait_file "$M.h"; sleep 1
ctrl_c "(b'') hessian() in a coroutine"
survives "(b'')"

# (c) a run nested in the objective of a run: one Ctrl-C ends both
fresh
tm_line 'P = problem.rosenbrock{n = 2}'
tm_line "pn = problem.new{n = 2, f = function (x) run(P, optim.gd{lr = 1e-3}, \
{iters = 2000, progress = false, view = false}) return x[1]^2 + x[2]^2 end, \
grad = function (x, g) g[1] = 2 * x[1] g[2] = 2 * x[2] end}"
M="$T_TMP/nested"
tm_line "io.open('$M', 'w'):close() r = run(pn, optim.gd{lr = 1e-9}, {iters = 1e9, x0 = {1, 1}, progress = false})"
wait_file "$M"; sleep 1
ctrl_c "(c) run nested in a callback"
tm_line 'print("outer=" .. r.reason)'
tm_wait '^outer=interrupted$' 10; ok $? "ctrlc: (c) the outer run is interrupted"
survives "(c)"
# a loop of three endless runs: the first keeps its run, the loop stops
M="$T_TMP/loop"
tm_line "io.open('$M', 'w'):close() done = 0 for i = 1, 3 do \
r = run(problem.rosenbrock{n = 50}, optim.gd{lr = 1e-4}, {iters = 1e9, progress = false}) \
done = i end"
wait_file "$M"; sleep 1
ctrl_c "(c') a loop of three runs"
tm_line 'print("done=" .. done .. " " .. r.reason)'
tm_wait '^done=1 interrupted$' 10
ok $? "ctrlc: (c') the first run is kept, interrupted; the loop stopped there"
survives "(c')"

# (d) long work in C and in the binding
# name|statement: each cannot finish within a second (loops repeat builds)
while IFS='|' read -r name stmt; do
  [ -z "$name" ] && continue
  tm_line "$stmt"
  sleep 1
  ctrl_c "(d) $name"
  survives "(d) $name"
done <<'CASES'
hessian 2000-d|x = {} for i = 1, 2000 do x[i] = 0.5 end H = hessian(function (x) local s = 0 for i = 1, #x do for j = i, math.min(#x, i + 60) do s = s + x[i] * x[j] end end return s end, x)
matlsq m=16384 n=4096|q = problem.matlsq{m = 16384, n = 4096, k = 1}
linreg n=1e5 d=2048|q = problem.linreg{n = 100000, d = 2048}
rosenbrock n=5e7|for i = 1, 1e9 do q = problem.rosenbrock{n = 5e7} q:close() q = nil collectgarbage() end
rlvr 1000x100|for i = 1, 1e9 do q = problem.rlvr{queries = 1000, responses = 100} q:close() q = nil collectgarbage() end
density n=1e7|for i = 1, 1e9 do q = problem.density{n = 1e7, logp = function (x) return 0 end, grad = function (x, g) end} q:close() q = nil collectgarbage() end
problem.new hess n=1e4|for i = 1, 1e9 do q = problem.new{n = 10000, f = function (x) return x[1]^2 end, grad = function (x, g) for i = 1, #x do g[i] = 0 end end, hess = function (x, H) end} q:close() end
hmc L=1e6|r = run(problem.blogreg{n = 100, d = 10}, sample.hmc{eps = 1e-3, L = 1e6, warmup = 0}, {iters = 1e6})
ddpm 1e6 particles|r = run(problem.gmm{}, diffusion.ddpm{steps = 1000}, {samples = 1e6})
ddim 1e7 particles, every metric|for i = 1, 1e9 do r = run(problem.gmm{weights = {3, 1e-3, 0.5}}, diffusion.ddim{steps = 1, samples = 1e7}, {iters = 1, metrics = {"entropy", "kl", "w2"}, view = false, progress = false}) end
lowrank 16384x2000|for i = 1, 1e9 do q = problem.lowrank{m = 16384, n = 2, r = 2000} q:close() q = nil collectgarbage() end
lasso 5e4x1000|for i = 1, 1e9 do q = problem.lasso{m = 50000, n = 1000} q:close() q = nil collectgarbage() end
fullrank on mixture n=1000|for i = 1, 1e9 do q = run(problem.mixture{n = 1000}, vi.fullrank{}, {iters = 3, view = false, progress = false}) end
newton n=3500 (one dsyevd of 5 s)|r = run(problem.lowrank{n = 5, r = 100}, optim.newton{step = "pure"}, {iters = 1e4, view = false, progress = false})
cubic n=3500 (one dsyevd of 5 s)|r = run(problem.lowrank{n = 5, r = 100}, optim.cubic{}, {iters = 1e4, view = false, progress = false})
bcd gsd fd Hessian n=4000|r = run(problem.stopping{K = 200}, optim.bcd{rule = "gsd", bs = 1, blocks = "fixed", update = "gradient"}, {iters = 1e5, view = false, progress = false})
kmeans n=2000 d=100|for i = 1, 1e9 do q = problem.kmeans{n = 2000, d = 100, starts = 1000} q:close() q = nil collectgarbage() end
optlab.sleep of a day|optlab.sleep(86400)
nuts maxdepth 30 (2^30 steps a transition)|r = run(problem.fsquad{N = 1000, cond = 10, seed = 1, l1 = 2}, sample.nuts{eps = 1, maxdepth = 30, warmup = 10}, {iters = 1e6, progress = false, view = false})
repeats 1e8|q = repeats(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3}, {iters = 100, progress = false}, 1e8)
grad inside grad, 1e4-d, untraceable|y0 = {} for i = 1, 1e4 do y0[i] = 0.5 end g = grad(function (x) local h = grad(function (y) local s = 0 for i = 1, #y do s = s + (y[i] == 1 and 5 or y[i] ^ 2) end return s end, y0) return x[1] * h[1] + (x[2] == 1 and 0 or x[2]) end, y0)
CASES

tm_line 'os.exit(0)'
done_testing
