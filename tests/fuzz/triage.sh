#!/bin/sh
# tests/fuzz/triage.sh -- group the fuzzer's crash inputs by their report.
#
#   sh tests/fuzz/triage.sh [fuzz-binary [dir]]
#       (defaults: .build/fuzz/fuzz .build/fuzz/crashes)
#
# Runs every crash-*, leak-*, timeout-* and oom-* input of dir again with
# OPTLAB_FUZZ_SHOW=1 and groups them by the sanitizer's summary line and
# first frames in the project's code.  For each group it prints how many
# inputs hit it, the smallest, its report's first frames, and the
# statement that was running (the last one shown before the report): the
# start of a one-line reproduction.  Write the reproduction as
#   printf -- '--lua\n<statements, one a line>\n' > r; <fuzz-binary> r
set -u
bin=${1:-.build/fuzz/fuzz}
dir=${2:-.build/fuzz/crashes}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
work=$tmp/work
mkdir -p "$work"
for f in "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-*; do
  [ -f "$f" ] || continue
  out=$tmp/out
  OPTLAB_FUZZ_SHOW=1 OPTLAB_FUZZ_DIR=$work timeout 60 "$bin" -timeout=20 \
    -rss_limit_mb=2048 "$f" >"$out" 2>&1
  summary=$(grep -m1 -E '^fuzz: Ctrl-C ignored|^SUMMARY|ERROR: libFuzzer' "$out" \
            | sed -E 's/0x[0-9a-f]+//g; s/==[0-9]+==//g; s#/[^ ]*/(core|lua)/#\1/#')
  [ -n "$summary" ] || summary="(no report on rerun: $(basename "$f" | cut -d- -f1))"
  frames=$(grep -E '^ +#[0-9]+ .* in [a-z_]+ .*/(core|lua)/' "$out" \
           | head -3 | sed -E 's/^ +#[0-9]+ 0x[0-9a-f]+ in //; s#/[^ ]*/(core|lua)/#\1/#')
  stmt=$(awk '/^==|^fuzz: Ctrl-C|DEADLYSIGNAL|ERROR: |runtime error|^MS: / {exit}
              /^(INFO|Running|Executed|  ->|stack|\t)/ {next}
              /^[A-Za-z_]|^--@/ {last = $0} END {print last}' "$out")
  key=$(printf '%s\n%s' "$summary" "$frames" | cksum | cut -d' ' -f1)
  size=$(wc -c <"$f")
  if [ ! -f "$tmp/g.$key" ] || [ "$size" -lt "$(head -1 "$tmp/g.$key")" ]; then
    printf '%s\n%s\n%s\n%s\n%s\n' "$size" "$f" "$summary" "$frames" \
      "$stmt" >"$tmp/g.$key"
  fi
  echo "$key" >>"$tmp/keys"
done
[ -f "$tmp/keys" ] || { echo "triage: no crash inputs in $dir"; exit 0; }
for k in $(sort "$tmp/keys" | uniq -c | sort -rn | awk '{print $2}'); do
  n=$(grep -c "^$k\$" "$tmp/keys")
  {
    read -r _size; read -r file; read -r summary
    echo "== $n input(s), smallest $file"
    echo "   $summary"
    sed -n '4,$p' "$tmp/g.$k" | sed 's/^/   /'
  } <"$tmp/g.$k"
done
