#!/bin/sh
# tests/bench/run.sh -- make bench: every workload as a ratio to a plain C
# floor timed in the same run (absolute times on shared machines are noise).
set -e
cd "$(dirname "$0")/../.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "== W1: Adam, 2-D Rosenbrock, 10^6 steps"
tests/bench/w1 1000000 7 | tee "$out"
./optlab --no-tui tests/bench/w1_lua.lua 1000000 5 | tee -a "$out"
awk '
  $1 == "W1" { ns[$2] = $4 }
  END {
    printf "W1 built-in problem : %.2fx the C floor (target <= 1.3x)\n", ns["engine"] / ns["floor"]
    printf "W1 Lua objective    : %.2fx the C floor, +%.1f ns/step over it (target ~ +60 ns)\n", ns["lua"] / ns["floor"], ns["lua"] - ns["floor"]
  }' "$out"

echo "== DASH: a background job with the dashboard in tmux vs headless"
bash tests/bench/dash.sh

echo "== W2: Adam, quadratic d = 10^6 (rotate = false), one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/w2 1000000 100 3

echo "== W6: Newton-Schulz 5 steps, 1024^2, one core (OPENBLAS_NUM_THREADS=1)"
OPENBLAS_NUM_THREADS=1 tests/bench/w6 1024 3 | tee "$out"
awk '
  $1 == "W6" && $3 == "ms" { ms[$2] = $4 }
  END { printf "W6 ol_polar_ns5: %.2fx the 15-dgemm floor (target <= 1.2x)\n", ms["polar"] / ms["floor"] }' "$out"
