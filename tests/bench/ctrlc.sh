#!/usr/bin/env bash
# tests/bench/ctrlc.sh -- Ctrl-C latency to a usable prompt (issue 22, item
# 3), as the issue measures it: optlab in tmux pinned to one core
# (taskset -c CORE) beside a CPU hog on the same core; each case types a
# statement, waits until it is busy, sends C-c and polls the pane every
# 5 ms until the prompt is back; the median of REPS (3) per case, in ms.
#   tests/bench/ctrlc.sh [case-name-pattern]     (CORE=0 REPS=3 HOG=1)
# Two figures: the pane's (from send-keys to the prompt on the captured
# screen: it includes tmux, the poll's granularity and the terminal; the
# case idle-prompt, Ctrl-C on a typed line with nothing running, is that
# floor on the machine measured) and optlab's own (from its SIGINT handler
# to the fresh prompt, from its -v debug log).  Not a test:
# tests/repl/ctrlc.t drives the same cases without timing.
cd "$(dirname "$0")/../.." || exit 1
BIN="${OPTLAB:-./optlab}"
CORE=${CORE:-0}
REPS=${REPS:-3}
SOCK="optlab-bench-$$"
TMP=$(mktemp -d)
tm () { tmux -L "$SOCK" -f /dev/null "$@"; }
hog=""
cleanup () { tm kill-server >/dev/null 2>&1; [ -n "$hog" ] && kill "$hog"; rm -rf "$TMP"; }
trap cleanup EXIT
if [ "${HOG:-1}" = 1 ]; then
  taskset -c "$CORE" sh -c 'while :; do :; done' &
  hog=$!
fi
now_ms () { echo $(($(date +%s%N) / 1000000)); }
at_prompt () {
  tm capture-pane -p -t t | grep -v '^ *$' | tail -1 | grep -qE '^(\^C)?> ?$'
}
# until CMD succeeds, at most 30 s
upto () { local i=0; until eval "$1"; do sleep 0.05; i=$((i + 1)); [ $i -ge 600 ] && return 1; done; }
start () {
  tm start-server \; set-option -g exit-empty off >/dev/null 2>&1
  tm kill-session -t t >/dev/null 2>&1
  tm new-session -d -s t -x 120 -y 40 \
    "env LANG=C.UTF-8 TERM=screen-256color OPTLAB_HISTORY=$TMP/hist OPTLAB_LOG=$TMP/log taskset -c $CORE $BIN -v"
  upto at_prompt
}
line () { tm send-keys -t t -l -- "$1"; tm send-keys -t t Enter; }
# one NAME WAIT SETUP STMT: ms from C-c to the prompt; WAIT: a file the
# statement makes when busy ("-": sleep 2 s instead)
one () {
  local setup=$3 stmt=$4 t0 t1
  start
  [ -n "$setup" ] && { line "$setup"; sleep 0.3; upto at_prompt; }
  rm -f "$TMP/busy"
  if [ "$2" = "i" ]; then tm send-keys -t t -l -- "$stmt"; sleep 0.3
  else line "$stmt"; fi
  if [ "$2" = "i" ]; then :; elif [ "$2" = "-" ]; then sleep 2; else
    upto '[ -e "$TMP/busy" ]'; sleep 0.5
  fi
  t0=$(now_ms)
  tm send-keys -t t C-c
  while ! at_prompt; do
    sleep 0.005
    [ $(($(now_ms) - t0)) -gt 60000 ] && break
  done
  t1=$(now_ms)
  sleep 0.2
  # the pane's time, and optlab's own (its debug log: signal to prompt)
  echo "$((t1 - t0)) $(sed -n 's/.*ctrl-c: [a-z ]* \([0-9.]*\) ms after the signal/\1/p' "$TMP/log" | tail -1)"
}
B="io.open('$TMP/busy','w'):close()"
HF='function (x) local s = 0 for i = 1, #x do for j = i, math.min(#x, i + 60) do s = s + x[i] * x[j] end end return s end'
cases=(
"idle-prompt|i||x = 1"
"job-looping-callback|f|cnt = 0 p = problem.new{n=2, f=function(x) return x[1]^2+x[2]^2 end, grad=function(x,g) cnt = cnt + 1 if cnt > 200 then $B while true do end end g[1]=2*x[1] g[2]=2*x[2] end}|j = start(p, optim.gd{lr=1e-9}, {iters=1e6, x0={1,1}})"
"job-5s-callback|f|nf = 0 q = problem.new{n=2, ad=false, f=function(x) nf = nf + 1 if nf > 10 then $B local t = os.clock() while os.clock() - t < 5 do end end return x[1]^2 end}|j = start(q, optim.gd{}, {iters=1e6, x0={1,1}})"
"coroutine-wrap|f||coroutine.wrap(function () $B while true do end end)()"
"coroutine-resume|f||co = coroutine.create(function () $B local k = 0 while true do k = k + 1 end end) print(coroutine.resume(co))"
"nested-run|-|P = problem.rosenbrock{n = 2} pn = problem.new{n = 2, f = function (x) run(P, optim.gd{lr = 1e-3}, {iters = 2000, progress = false, view = false}) return x[1]^2 + x[2]^2 end, grad = function (x, g) g[1] = 2 * x[1] g[2] = 2 * x[2] end}|r = run(pn, optim.gd{lr = 1e-9}, {iters = 1e9, x0 = {1, 1}, progress = false})"
"loop-of-runs|-||for i = 1, 3 do r = run(problem.rosenbrock{n = 50}, optim.gd{lr = 1e-4}, {iters = 1e9, progress = false}) end"
"hessian-2000|-|x = {} for i = 1, 2000 do x[i] = 0.5 end|H = hessian($HF, x)"
"matlsq-16384x4096|-||q = problem.matlsq{m = 16384, n = 4096, k = 1}"
"linreg-1e5x2048|-||q = problem.linreg{n = 100000, d = 2048}"
"rosenbrock-1e8|-||for i = 1, 1e9 do q = problem.rosenbrock{n = 1e8} q:close() q = nil collectgarbage() end"
"rlvr-1000x100|-||for i = 1, 1e9 do q = problem.rlvr{queries = 1000, responses = 100} q:close() q = nil collectgarbage() end"
"density-1e7|-||for i = 1, 1e9 do q = problem.density{n = 1e7, logp = function (x) return 0 end, grad = function (x, g) end} q:close() q = nil collectgarbage() end"
"new-hess-1e4|-||for i = 1, 1e9 do q = problem.new{n = 10000, f = function (x) return x[1]^2 end, grad = function (x, g) for i = 1, #x do g[i] = 0 end end, hess = function (x, H) end} q:close() end"
"hmc-L1e6|-||r = run(problem.blogreg{n = 100, d = 10}, sample.hmc{eps = 1e-3, L = 1e6, warmup = 0}, {iters = 50})"
"ddpm-1e6|-||r = run(problem.gmm{}, diffusion.ddpm{steps = 1000}, {samples = 1e6})"
"ddim-1e7-metrics|-||for i = 1, 1e9 do r = run(problem.gmm{weights = {3, 1e-3, 0.5}}, diffusion.ddim{steps = 1, samples = 1e7}, {iters = 1, metrics = {\"entropy\", \"kl\", \"w2\"}, view = false, progress = false}) end"
"lowrank-16384x2000|-||for i = 1, 1e9 do q = problem.lowrank{m = 16384, n = 2, r = 2000} q:close() q = nil collectgarbage() end"
"lasso-5e4x1000|-||for i = 1, 1e9 do q = problem.lasso{m = 50000, n = 1000} q:close() q = nil collectgarbage() end"
"fullrank-mixture-1000|-||for i = 1, 1e9 do q = run(problem.mixture{n = 1000}, vi.fullrank{}, {iters = 3, view = false, progress = false}) end"
"newton-3500|-||r = run(problem.lowrank{n = 5, r = 100}, optim.newton{step = \"pure\"}, {iters = 1e4, view = false, progress = false})"
"cubic-3500|-||r = run(problem.lowrank{n = 5, r = 100}, optim.cubic{}, {iters = 1e4, view = false, progress = false})"
"bcd-fdhess-4000|-||r = run(problem.stopping{K = 200}, optim.bcd{rule = \"gsd\", bs = 1, blocks = \"fixed\", update = \"gradient\"}, {iters = 1e5, view = false, progress = false})"
"repeats-1e8|-||q = repeats(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3}, {iters = 100, progress = false}, 1e8)"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name wait setup stmt <<<"$c"
  [ -n "$1" ] && [[ "$name" != *$1* ]] && continue
  ms=() in=()
  for r in $(seq 1 "$REPS"); do
    : > "$TMP/log"
    read -r a b <<<"$(one "$name" "$wait" "$setup" "$stmt")"
    ms+=("$a") in+=("${b:--}")
  done
  med=$(printf '%s\n' "${ms[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p")
  imed=$(printf '%s\n' "${in[@]}" | sort -g | sed -n "$(( (REPS + 1) / 2 ))p")
  printf '%-22s pane median %5d ms (%s)  optlab median %s ms (%s)\n' \
    "$name" "$med" "${ms[*]}" "$imed" "${in[*]}"
done
