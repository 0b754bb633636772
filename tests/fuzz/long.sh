#!/bin/sh
# tests/fuzz/long.sh -- a long fuzz campaign in the background, one worker
# a core, and its running count.
#
#   sh tests/fuzz/long.sh start [workers]   build (make fuzz-build), then start
#   sh tests/fuzz/long.sh count             executions, hours, findings
#   sh tests/fuzz/long.sh stop
#   sh tests/fuzz/long.sh resume [workers]  go on: the same binary and corpus
#
# The campaign lives in .build/fuzz/long/ (not in git): a copy of the
# fuzzer binary (so a rebuild does not change it under the workers), one
# corpus shared by the workers (started from .build/fuzz/corpus, the
# previous campaign's corpus and the seeds; the previous campaign is kept
# in .build/fuzz/long.prev), a directory run<k> per worker with its logs, and art/ for the
# inputs that crash, leak, time out or run out of memory.  Each worker has
# its own mutation seed (1000 + k) and restarts after a finding (libFuzzer's
# -jobs), so one finding does not end the campaign; `count` adds up the
# executions of every worker and restart (the last "#N" of each log, or
# its final number of executed units) and lists the findings, to be
# grouped with sh tests/fuzz/triage.sh .build/fuzz/long/fuzz
# .build/fuzz/long/art.  `resume` starts workers again after a stop (a
# session's end, a reboot) on the campaign's own copy of the binary and
# its corpus, with seeds not used before (the workers are numbered on),
# so a campaign of more hours than a sitting is one campaign of one
# binary; `count` adds the hours of its legs (the file legs: a start and
# a stop a line).  Workers default to the number of cores; the
# machine is theirs while they run (they are niced, but a desktop's
# autogroup scheduling shares the cores between sessions regardless).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/.build/fuzz/long
cmd=${1:-count}

count() {
  total=0
  for log in "$dir"/run*/fuzz-*.log; do
    [ -f "$log" ] || continue
    n=$(grep -a 'number_of_executed_units' "$log" | awk '{print $2}' | tail -1)
    [ -n "$n" ] || n=$(grep -a -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    total=$((total + ${n:-0}))
  done
  running=$(pgrep -f "$dir/fuzz" | wc -l)
  [ -f "$dir/legs" ] || echo "start $(cat "$dir/started" 2>/dev/null \
    || date +%s)" > "$dir/legs"
  legs=$(grep -c start "$dir/legs")
  hours=$(awk -v now="$(date +%s)" '$1 == "start" { t0 = $2; open = 1 }
    $1 == "stop" && open { s += $2 - t0; open = 0 }
    END { if (open) s += now - t0; printf "%.2f", s / 3600 }' "$dir/legs")
  echo "executions: $total in $hours h, $legs leg(s) ($running processes" \
    "running)"
  found=$(ls "$dir"/art 2>/dev/null | wc -l)
  echo "findings: $found"
  [ "$found" = 0 ] || ls "$dir"/art
}

# Workers first .. last, each in run<k> with seed 1000 + k.
workers() {
  k=$1
  while [ "$k" -le "$2" ]; do
    mkdir -p "$dir/run$k" "$dir/work$k"
    (cd "$dir/run$k" && OPENBLAS_NUM_THREADS=1 OPTLAB_FUZZ_DIR="$dir/work$k" \
      setsid nohup nice -n 19 "$dir/fuzz" -seed=$((1000 + k)) -jobs=1000 \
      -workers=1 -timeout=20 -rss_limit_mb=2048 -max_len=1024 \
      -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$dir/art/" \
      "$dir/corpus" "$top/tests/fuzz/corpus" >/dev/null 2>&1 &)
    k=$((k + 1))
  done
  echo "start $(date +%s)" >> "$dir/legs"
  echo "long.sh: workers $1 to $2 started in $dir"
}

running() {
  if pgrep -f "$dir/fuzz" >/dev/null; then
    echo "long.sh: a campaign is running in $dir (stop it first)"; exit 1
  fi
}

case $cmd in
start)
  running
  echo "long.sh: building the fuzzer (make fuzz-build, log in .build/fuzz/long.log)"
  mkdir -p "$top/.build/fuzz"
  make -C "$top" fuzz-build >"$top/.build/fuzz/long.log" 2>&1 || {
    tail -20 "$top/.build/fuzz/long.log"; exit 1; }
  # the previous campaign is kept in long.prev (its findings to triage),
  # and the new one starts from its corpus too: a campaign on a fixed
  # binary does not begin again from the seeds
  rm -rf "$dir.prev"
  [ ! -d "$dir" ] || mv "$dir" "$dir.prev"
  mkdir -p "$dir/corpus" "$dir/art"
  cp "$top/.build/fuzz/fuzz" "$dir/fuzz"
  cp "$top"/.build/fuzz/corpus/* "$dir/corpus/" 2>/dev/null || true
  cp "$dir.prev"/corpus/* "$dir/corpus/" 2>/dev/null || true
  date +%s > "$dir/started"
  workers 1 "${2:-$(nproc)}"
  ;;
resume)
  running
  [ -x "$dir/fuzz" ] || { echo "long.sh: no campaign in $dir (start one)"; exit 1; }
  [ -f "$dir/legs" ] || count >/dev/null
  # workers that ended without a stop (a session's end): their leg ended
  # with the last write to their logs
  if tail -1 "$dir/legs" | grep -q '^start'; then
    echo "stop $(ls -t "$dir"/run*/fuzz-*.log | head -1 | xargs stat -c %Y)" \
      >> "$dir/legs"
  fi
  last=$(ls -d "$dir"/run* 2>/dev/null | sed 's/.*run//' | sort -n | tail -1)
  last=${last:-0}
  workers $((last + 1)) $((last + ${2:-$(nproc)}))
  ;;
count) count ;;
stop)
  if pgrep -f "$dir/fuzz" >/dev/null; then
    # again until none is left: a worker's -jobs parent may start the next
    # job as it is killed
    for _ in 1 2 3 4 5; do
      pkill -f "$dir/fuzz" || true
      sleep 1
      pgrep -f "$dir/fuzz" >/dev/null || break
    done
    [ -f "$dir/legs" ] || count >/dev/null
    echo "stop $(date +%s)" >> "$dir/legs"
  fi
  count
  ;;
*) echo "usage: sh tests/fuzz/long.sh start [workers] | count | stop | resume [workers]"; exit 2 ;;
esac
