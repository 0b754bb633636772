#!/bin/sh
# tests/bench/run.sh -- make bench: every workload as a ratio to a plain C
# floor timed in the same run (absolute times on shared machines are noise).
set -e
cd "$(dirname "$0")/../.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# Every workload runs on one core, as the peers were measured.
export OPENBLAS_NUM_THREADS=1

# How busy the machine is: ratios are of two sides under the same load,
# but a loaded machine widens their spread (see pairs below)
echo "== load average (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# Start-up: optlab -e "" against the Lua interpreter's lua5.4 -e "" (when
# installed) and against /bin/true (the cost of a process), CPU time of
# 40 starts each, the three in turn 5 times
echo "== START: start-up to the end of -e \"\" (40 starts, CPU time, 5 rounds)"
starts () {
  /usr/bin/time -f "%U %S" sh -c "i=0; while [ \$i -lt 40 ]; do $1 >/dev/null; i=\$((i + 1)); done" 2>&1 | tail -1 \
    | awk '{ printf "%.3f\n", ($1 + $2) / 40 * 1000 }'
}
if [ -x /usr/bin/time ]; then
  lua=$(command -v lua5.4 || true)
  k=0
  while [ $k -lt 5 ]; do
    o=$(starts "./optlab -e ''")
    t=$(starts /bin/true)
    l=$([ -n "$lua" ] && starts "$lua -e ''" || echo nan)
    echo "START round $k optlab $o ms true $t ms lua5.4 $l ms"
    k=$((k + 1))
  done | tee "$out"
  awk '
    { o[++n] = $5; t[n] = $8; l[n] = $11 }
    END {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
        if (o[j] < o[i]) { x = o[i]; o[i] = o[j]; o[j] = x }
        if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
        if (l[j] < l[i]) { x = l[i]; l[i] = l[j]; l[j] = x }
      }
      printf "START optlab -e \"\": min %.2f ms median %.2f ms CPU (target <= 3 ms); a process (/bin/true) %.2f ms; lua5.4 -e \"\" %s ms\n", o[1], o[int((n + 1) / 2)], t[1], l[1]
    }' "$out"
else
  echo "START skipped: needs /usr/bin/time (Debian package time)"
fi

# pairs K SPREAD 'A' 'B': K pairs of the commands A and B run in turn
# (A B A B ...), each printing one "<tag> <side> ns/step <ns> ..." line
# (ns in field 4, CPU time of the measured work: tests/bench/bench.h and
# os.clock); prints every line, then "PAIR <a side> <b side> min <r>
# median <r> spread <s>" of the ratios B/A per pair (spread: largest over
# smallest), or "noisy" in place of the ratios when the spread is over
# SPREAD: the machine changed speed between pairs, and no figure is
# better than a wrong one.
pairs () {
  k=$1 spread=$2 a=$3 b=$4 i=0 tmp=$(mktemp)
  while [ $i -lt "$k" ]; do
    sh -c "$a" | grep ' ns/step ' | head -1 >> "$tmp"
    sh -c "$b" | grep ' ns/step ' | head -1 >> "$tmp"
    i=$((i + 1))
  done
  cat "$tmp"
  awk -v spread="$spread" '
    NR % 2 == 1 { na = $2; a = $4 }
    NR % 2 == 0 { nb = $2; r[++n] = $4 / a }
    END {
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }
      med = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
      if (r[n] / r[1] > spread)
        printf "PAIR %s %s noisy (ratios %.2f to %.2f over %d pairs, spread over %.2f)\n", na, nb, r[1], r[n], n, spread
      else
        printf "PAIR %s %s min %.3f median %.3f spread %.2f pairs %d\n", na, nb, r[1], med, r[n] / r[1], n
    }' "$tmp"
  rm -f "$tmp"
}

echo "== W1: Adam, 2-D Rosenbrock, 10^6 steps, one core (OPENBLAS_NUM_THREADS=1)"
tests/bench/w1 1000000 7 | tee "$out"
./optlab --no-tui tests/bench/w1_lua.lua 1000000 5 | tee -a "$out"
# the Lua objective against the floor: other processes, so pairs
pairs 5 1.25 "tests/bench/w1 1000000 1" \
  "./optlab --no-tui tests/bench/w1_lua.lua 1000000 1" | tee -a "$out"
awk '
  $1 == "W1" { ns[$2] = $4 }
  $1 == "PAIR" && $3 == "lua" { lua = $0 }
  END {
    printf "W1 built-in problem : %.2fx the C floor (target <= 1.2x, issue 28; floor and engine interleaved in one process, median of 7)\n", ns["engine"] / ns["floor"]
    split(lua, f, " ")
    if (f[4] == "noisy") printf "W1 Lua objective    : noisy (%s)\n", lua
    else printf "W1 Lua objective    : %.2fx the C floor (min of %d interleaved process pairs, CPU time; median %.2fx), +%.1f ns/step over it (target ~ +60 ns)\n", f[5], f[11], f[7], ns["lua"] - ns["floor"]
    printf "W1 of which         : %.1f ns the objective'"'"'s own Lua arithmetic, %.1f ns the binding (call, marshalling)\n", ns["luabody"], ns["lua"] - ns["engine"] - ns["luabody"]
  }' "$out"

echo "== LIVE: live parameters (issue 24) unused, pending, set; gd on 2-D Rosenbrock, 10^6 steps, one core"
tests/bench/live 1000000 7 | tee "$out"
awk '
  $1 == "LIVE" { ns[$2] = $4 }
  END {
    printf "LIVE no changes     : %.2fx the gd floor (the run engine, the replay check included)\n", ns["none"] / ns["floor"]
    printf "LIVE pending replay : %+.2f ns/step over no changes (the replay looked at every step)\n", ns["pending"] - ns["none"]
    printf "LIVE j:set per 1000 : %+.2f ns/step over no changes (ol_run_set between slices)\n", ns["set"] - ns["none"]
  }' "$out"

echo "== AD: traced Lua objectives (issue 15): W1 with a Lua f and no gradient; 1000-D extended Rosenbrock, traced vs the C gradient; one core"
./optlab --no-tui tests/bench/ad.lua 1000000 5 | tee "$out"
pairs 5 1.25 "tests/bench/w1 1000000 1" \
  "./optlab --no-tui tests/bench/ad.lua 1000000 1 w1" | tee -a "$out"
awk '
  $1 == "PAIR" && $3 == "ad" { ad = $0 }
  $1 == "AD1000" && $3 == "us" { r[$2] = $8 }
  $1 == "ADTRACE" { tr[$2] = sprintf("trace %s us (tracer %s us), tape of %s ops, %s guards", $4, $7, $9, $11) }
  END {
    split(ad, f, " ")
    if (f[4] == "noisy") printf "AD W1 traced Lua f  : noisy (%s)\n", ad
    else printf "AD W1 traced Lua f  : %.2fx the C floor (min of %d interleaved process pairs, CPU time; median %.2fx; target <= 1.5x, issue 28)\n", f[5], f[11], f[7]
    printf "AD 1000-D gradient  : %.2fx the C gradient per gd step, %.2fx per p:eval (target <= 2x, issue 28)\n", r["step"], r["eval"]
    printf "AD tracing          : W1 %s; 1000-D %s\n", tr["W1"], tr["AD1000"]
  }' "$out"

echo "== UM: a GD written in Lua (optim.new, issue 24) vs optim.gd, 2-D Rosenbrock with a traced gradient, 10^6 steps, one core"
./optlab --no-tui tests/bench/umethod.lua 1000000 5 | tee "$out"
awk '
  $1 == "UM" && $3 == "ns/step" { ns[$2] = $4 }
  $1 == "UM" && $2 == "ratio" { rmin = $4; rmed = $6 }
  END {
    printf "UM Lua GD           : %.2fx optim.gd per step (min of 5 interleaved pairs; median %.2fx; target <= 3x), +%.1f ns/step over it\n", rmin, rmed, ns["lua"] - ns["c"]
    printf "UM of which         : %.1f ns the step'"'"'s own Lua (with a stub oracle), %.1f ns the binding (thread call, x in and out, the oracle call)\n", ns["body"], ns["lua"] - ns["c"] - ns["body"]
  }' "$out"

echo "== DASH: a background job with the dashboard in tmux vs headless"
bash tests/bench/dash.sh

echo "== W2: Adam, quadratic d = 10^6 (rotate = false), one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/w2 1000000 100 3

echo "== W4: MALA, 100-D Gaussian, 10^5 steps; NUTS per gradient; one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/w4 100000 5

echo "== STAN: NUTS on posteriordb's eight schools, kidiq, garch against Stan (density in Lua, 4 chains, one core)"
peers="${OPTLAB_PEERS:-../shared/bench/peers}"
if command -v Rscript >/dev/null 2>&1 && Rscript -e 'library(rstan)' >/dev/null 2>&1; then
  # Stan measured now, in the same sitting (results/stan.txt of the peers)
  bash "$peers/run_stan.sh" 3 >/dev/null
  echo "STAN Stan figures measured now by $peers/run_stan.sh"
else
  echo "STAN skipped: rstan not installed (Stan's figures below are the ones" \
    "recorded on this machine earlier in $peers/results/stan.txt)"
fi
# the C -> Lua bridge's own cost per call (tests/bench/bridge.lua)
OPENBLAS_NUM_THREADS=1 ./optlab --no-tui tests/bench/bridge.lua 100000 3
if [ -f ../shared/data/posteriordb/posteriors.lua ]; then
  OPENBLAS_NUM_THREADS=1 ./optlab --no-tui tests/bench/stan.lua 3 "$peers"
else
  echo "STAN optlab side skipped: no ../shared/data/posteriordb/posteriors.lua"
fi

echo "== W6: Newton-Schulz 5 steps, 1024^2, one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/w6 1024 3 | tee "$out"
awk '
  $1 == "W6" && $3 == "ms" { ms[$2] = $4 }
  END { printf "W6 ol_polar_ns5: %.2fx the 15-dgemm floor (target <= 1.2x)\n", ms["polar"] / ms["floor"] }' "$out"

echo "== W3: Newton, logreg n = 2000, d = 500, 10 steps, one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/w3 10 5 | tee "$out"
awk '
  $1 == "W3" { ms[$2] = $4 }
  END {
    printf "W3 newton pure     : %.2fx the dsyrk+dposv floor (target <= 1.2x)\n", ms["pure"] / ms["floor"]
    printf "W3 newton backtrack: %.2fx the floor (one more f per step)\n", ms["backtrack"] / ms["floor"]
  }' "$out"

echo "== W5: L-BFGS, chained Rosenbrock to |g| <= 1e-6, d = 1000 and 10^4, one core (OPENBLAS_NUM_THREADS=1)"
# scipy's L-BFGS-B on the same function and start (tests/bench/w5_scipy.py,
# when python3-scipy is installed: make bench installs it), CPU time both
w5 () {
  OPENBLAS_NUM_THREADS=1 tests/bench/w5 "$2" "$1" | tee "$out"
  if /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 /usr/bin/python3 \
      tests/bench/w5_scipy.py "$1" "$3" | tee -a "$out"
  else
    echo "W5 scipy peer skipped: needs python3-scipy"
  fi
  awk -v d="$1" -v want="$4" '
    $1 == "W5" && $3 == "ms/solve" { ms[$2] = $4 }
    END {
      printf "W5 lbfgs d=%s: %.2fx the C floor estimate (nfev f+g + nit two-loops; target <= 1.3x)\n", d, ms["engine"] / ms["floor"]
      if (ms["scipy"] > 0)
        printf "W5 lbfgs d=%s: %.1fx faster than scipy L-BFGS-B (target >= %sx); the C floor estimate is %.1fx faster\n", d, ms["scipy"] / ms["engine"], want, ms["scipy"] / ms["floor"]
    }' "$out"
}
w5 1000 5 3 5
w5 10000 3 1 10

echo "== W7: a game step (mwu) on a 100 x 100 matrix game vs two dgemv, one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/w7 100000 7 100 | tee "$out"
awk '
  $1 == "W7" && $3 == "ns" { ns[$2] = $4 }
  END { printf "W7 mwu step: %.2fx the two-dgemv floor (target <= 1.5x)\n", ns["engine"] / ns["floor"] }' "$out"

echo "== HS: IPOPT against optim.sqp on Hock-Schittkowski problems, one core (OPENBLAS_NUM_THREADS=1)"
if [ -x tests/bench/ipopt ]; then
  OPENBLAS_NUM_THREADS=1 tests/bench/ipopt 21
else
  echo "HS skipped: IPOPT's development package is not installed" \
    "(apt-get install coinor-libipopt-dev, then make bench)"
fi

echo "== VI: one BBVI step (vi.fullrank, d = 100, 10 draws, Adam) on a dense Gaussian vs the same arithmetic in C, one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/vi 2000 5

echo "== DIFF: one DDPM step per particle (diffusion.ddpm, exact score) on the 2-D 8-mode gmm, 10^4 particles, vs the same arithmetic in C, one core"
OPENBLAS_NUM_THREADS=1 tests/bench/diffusion 10000 100 5

echo "== FED: one FedAvg round (dist.fedavg, K = 5, whole shards) on fedquad, 10^5 components among 100 clients, d = 10, vs the same local steps in C, one core"
OPENBLAS_NUM_THREADS=1 tests/bench/fed 200 3 5 10

echo "== MPI: a 64-seed repeats of ~50 ms runs, one process vs mpirun -np 2 (issue 16)"
sh tests/bench/mpi.sh

echo "== MPISCALE: 32 ranks oversubscribed, 2000 tasks of 50 ms waits returning 100 KB histories (efficiency), and 10^5 tiny tasks on 2 ranks (memory per rank) (issue 25)"
sh tests/bench/mpi_scale.sh
