#!/bin/bash
# tests/repl/cli.t -- the optlab program's command line, as TAP: -e,
# scripts with arguments, '-' and piped stdin, --version, --help, exit
# status 1 with "file:line" on errors (syntax errors too), and Ctrl-C
# (SIGINT) stopping a run but not the script.  Run from the repo root.
cd "$(dirname "$0")/../.." || exit 1
OPTLAB="${OPTLAB:-./optlab}"   # (as tests/lib/tmux.sh: the binary under test)
n=0
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check () {   # check <description> <command...>: ok when it exits 0
  local desc=$1
  shift
  n=$((n + 1))
  if "$@" >/dev/null 2>&1; then echo "ok $n - $desc"
  else echo "not ok $n - $desc"; fails=$((fails + 1)); fi
}

out=$($OPTLAB -e 'print(1 + 1)' 2>&1)
check "cli: -e runs a chunk" test "$out" = 2

out=$($OPTLAB -e 'x = 3' -e 'print(x * 2)' 2>&1)
check "cli: several -e run in order" test "$out" = 6

out=$($OPTLAB -e 'print(0/0, -(0/0), tostring(0/0), 1.5)' 2>&1)
check "cli: print and tostring show NaN as nan, never -nan" \
  test "$out" = "nan	nan	nan	1.5"

out=$($OPTLAB -e 'r = run(problem.new{n = 1, f = function () return 0/0 end},
  optim.gd{}, {iters = 3, progress = false}) print(r.message)' 2>&1)
check "cli: a NaN objective's stop message says f = nan" \
  test "$out" = "non-finite value (f = nan)"

cat > "$tmp/args.lua" <<'LUA'
print(arg[0], arg[1], arg[2], select("#", ...), ...)
LUA
out=$($OPTLAB "$tmp/args.lua" a b 2>&1)
check "cli: script gets arg[] and ... " test "$out" = "$tmp/args.lua	a	b	2	a	b"

out=$(echo 'print("from stdin", arg[1])' | $OPTLAB - x 2>&1)
check "cli: '-' runs stdin with args" test "$out" = "from stdin	x"

out=$(echo 'print(tostring(optim.gd{}))' | $OPTLAB 2>&1)
check "cli: piped stdin without a script is one chunk" test "$out" = "gd{lr=0.001}"

out=$($OPTLAB --version 2>&1)
check "cli: --version" bash -c "[[ '$out' =~ ^optlab\ 0\.1\.0\ \(Lua\ 5\.4\.[0-9]+\)$ ]]"

out=$($OPTLAB --help 2>&1)
check "cli: --help prints usage" bash -c "[[ '$out' == usage:* && '$out' == *--no-tui* ]]"

$OPTLAB --bogus >/dev/null 2>"$tmp/err"
st=$?
check "cli: unknown option exits 1" test $st = 1
check "cli: unknown option is named" grep -q "unrecognized option '--bogus'" "$tmp/err"

printf 'local x = 1\nerror("boom")\n' > "$tmp/fail.lua"
$OPTLAB "$tmp/fail.lua" >/dev/null 2>"$tmp/err"
st=$?
check "cli: runtime error exits 1" test $st = 1
check "cli: error message is 'optlab: file:line: message'" \
  grep -q "^optlab: $tmp/fail.lua:2: boom" "$tmp/err"
check "cli: error has a traceback" grep -q "stack traceback" "$tmp/err"

printf 'local x = = 1\n' > "$tmp/syntax.lua"
$OPTLAB "$tmp/syntax.lua" >/dev/null 2>"$tmp/err"
st=$?
check "cli: syntax error exits 1" test $st = 1
check "cli: syntax error has file:line" grep -q "^optlab: $tmp/syntax.lua:1:" "$tmp/err"

$OPTLAB -e 'error("bad chunk")' >/dev/null 2>"$tmp/err"
st=$?
check "cli: -e error exits 1" test $st = 1
check "cli: -e error names the command line" grep -q "(command line):1: bad chunk" "$tmp/err"

$OPTLAB "$tmp/missing.lua" >/dev/null 2>"$tmp/err"
st=$?
check "cli: missing script exits 1" test $st = 1
check "cli: missing script is named" grep -q "cannot open $tmp/missing.lua" "$tmp/err"

out=$($OPTLAB -e 'os.exit(3)' 2>&1)
st=$?
check "cli: os.exit status passes through" test $st = 3

# wait_for FILE TEXT: poll (0.1 s) until FILE contains TEXT, up to 60 s
# (generous for a loaded single core; returns as soon as it is there).
wait_for () {
  local i
  for i in $(seq 600); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# Ctrl-C during a run: the run stops "interrupted", the script goes on.
# The run cannot end by itself: the budget is never reached and, with a
# noisy gradient from x0 = (1, 1), no stop rule on the gradient holds.  The
# objective says when the run has taken steps, and only then comes Ctrl-C.
cat > "$tmp/intr.lua" <<'LUA'
local calls = 0
local p = problem.new{n = 2, x0 = {1, 1}, noise = {sigma = 1},
  f = function (x)
    local s = 0
    for i = 1, 2000 do s = s + i end
    calls = calls + 1
    if calls == 50 then io.stderr:write("stepping\n") end
    return x[1]^2 + x[2]^2 + 0 * s
  end}
local r = run(p, optim.gd{lr = 1e-3}, {iters = 1e15, progress = false})
print(r.reason, r.iter > 0)
print("after")
LUA
$OPTLAB --no-tui "$tmp/intr.lua" >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_for "$tmp/err" stepping
kill -INT $pid
wait $pid
st=$?
check "cli: Ctrl-C during run: script exits 0" test $st = 0
check "cli: Ctrl-C stops the run as 'interrupted' and keeps it" \
  grep -q "^interrupted	true" "$tmp/out"
check "cli: the script goes on after the interrupted run" grep -q "^after" "$tmp/out"

# Ctrl-C in plain Lua code raises "interrupted!" (the handler is in place
# while the chunk runs, so the signal may come as soon as it has started)
$OPTLAB -e 'io.stderr:write("started\n") while true do end' >/dev/null 2>"$tmp/err" &
pid=$!
wait_for "$tmp/err" started
kill -INT $pid
wait $pid
st=$?
check "cli: Ctrl-C in a Lua loop exits 1" test $st = 1
check "cli: Ctrl-C in a Lua loop says interrupted!" grep -q "interrupted!" "$tmp/err"

echo "1..$n"
[ $fails = 0 ]
