#!/bin/bash
# tests/repl/slices.t -- slices for a scheduler you can rely on, and
# progress lines without a terminal (issue 25, items 5 and 6).
#
# 1. The man page's Slurm recipe (MANY PROCESSES, "Slices for a
#    scheduler") runs as written: its two blocks are taken from
#    man/optlab.1 and run with a fake sbatch that runs the job array's
#    tasks one after another with SLURM_ARRAY_TASK_ID set, and the gather
#    once they all ended well (afterok); the submission is repeated, as the
#    man page says, until the gather finds everything (one round per bulk
#    operation of the study: 4).  The gathered printout and CSV files are
#    byte for byte those of the study run in one process.
# 2. The fault cases, each with a named error and its exit status: --dir
#    missing (made, with its parents), a file in its way, --gather of a
#    directory that is not there, tasks missing (each named with its index,
#    seed, stream and slice; exit 1, nothing printed; --partial goes on),
#    a task file corrupted, truncated, or a FIFO (exit 1, named).  (The
#    full disk: tests/repl/fulldisk.t; field-level damage:
#    tests/lua/taskfiles.lua.)
# 3. A slice run again keeps its valid files (the same inode: not
#    rewritten) and computes the damaged and the absent ones again.
# 4. Progress lines: a bulk operation whose tasks take a known wall time
#    (its objective spins on the clock, so the test does not depend on the
#    machine's speed) prints, with OPTLAB_PROGRESS_SECONDS=0.1, lines whose
#    fields are checked; stdout is the same with and without them.
# Run from the repo root.
cd "$(dirname "$0")/../.." || exit 1
OPTLAB="${OPTLAB:-./optlab}"
OPTLAB=$(cd "$(dirname "$OPTLAB")" && pwd)/$(basename "$OPTLAB")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
export OPENBLAS_NUM_THREADS=1
n=0
fails=0
ok () {   # ok <status> <description>
  n=$((n + 1))
  if [ "$1" = 0 ]; then echo "ok $n - $2"
  else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}
san () { ! grep -qE 'Sanitizer|runtime error:' "$@"; }

# -- 1. the Slurm recipe, as the man page writes it ---------------------------
mkdir -p "$tmp/bin" "$tmp/study" "$tmp/one"
ln -s "$OPTLAB" "$tmp/bin/optlab"
# the man page's blocks after "A Slurm job array": slices.sh, then the
# submission; groff's \- and \e unescaped
awk '/^A Slurm job array of/ { on = 1 }
     on && /^\.RS/ { b++; next }
     on && /^\.RE/ { if (b == 2) exit; next }
     on && b >= 1 && !/^\./ { print > (b == 1 ? "'"$tmp"'/study/slices.sh" : "'"$tmp"'/study/submit.sh") }' \
  man/optlab.1
sed -i 's/\\-/-/g; s/\\e/\\/g' "$tmp/study/slices.sh" "$tmp/study/submit.sh"
grep -q '^optlab --tasks \$SLURM_ARRAY_TASK_ID/32 --dir results study.lua$' \
  "$tmp/study/slices.sh" && grep -q "^#SBATCH --array=1-32$" "$tmp/study/slices.sh" \
  && grep -q "optlab --gather results study.lua > study.out" "$tmp/study/submit.sh"
ok $? "the man page's Slurm recipe is found: slices.sh and the submission"

# sbatch as far as the recipe uses it: --parsable SCRIPT runs the array of
# SCRIPT's "#SBATCH --array=A-B" one task after another and prints a job
# id; --dependency=afterok:ID --wrap CMD runs CMD when job ID ended well
cat >"$tmp/bin/sbatch" <<'EOF'
#!/bin/sh
wrap= script= dep=
while [ $# -gt 0 ]; do
  case $1 in
    --wrap) wrap=$2; shift ;;
    --dependency=afterok:*) dep=${1#--dependency=afterok:} ;;
    -*) ;;
    *) script=$1 ;;
  esac
  shift
done
if [ -n "$wrap" ]; then
  [ -f "job$dep.failed" ] && { echo "sbatch: job $dep failed" >&2; exit 1; }
  sh -c "$wrap"
  exit
fi
range=$(sed -n 's/^#SBATCH --array=//p' "$script")
id=$(( $(cat jobs 2>/dev/null || echo 100) + 1 ))
echo $id >jobs
for k in $(seq "${range%-*}" "${range#*-}"); do
  SLURM_ARRAY_JOB_ID=$id SLURM_ARRAY_TASK_ID=$k sh "$script" || : >"job$id.failed"
done
echo $id
EOF
chmod +x "$tmp/bin/sbatch"

# the study: a repeats, a sweep, a race and a 4-chain NUTS run, each
# printed and saved
cat >"$tmp/study/study.lua" <<'EOF'
local p = problem.quadratic{noise = {kind = "gauss", sigma = 0.1}}
local q = repeats(p, optim.adam{lr = 0.05}, {iters = 100, seed = 7}, 40)
print(q)
q:save("repeats.csv")
local s = sweep(p, optim.gd, {lr = {0.05, 0.1, 0.2, 0.4, 0.8}},
                {iters = 50, seed = 7})
print(s)
s:save("sweep.csv")
local rc = race(p, {optim.gd{lr = 0.2}, optim.adam{lr = 0.05}},
                {iters = 80, seed = 7, progress = false})
rc:save("race.csv")
for i = 1, #rc do print(i, rc[i].reason, rc[i]:last("loss")) end
local c = run(problem.gauss2d{}, sample.nuts{},
              {chains = 4, iters = 100, warmup = 50, seed = 7,
               progress = false})
c:save_draws("nuts.csv")
print(string.format("%.17g %.17g", c:summary()[1].mean, c:summary()[2].mean))
EOF
cp "$tmp/study/study.lua" "$tmp/one/"
(cd "$tmp/one" && "$OPTLAB" study.lua >one.out 2>one.err)
ok $? "the study runs in one process"

rounds=0 st=1
while [ $st != 0 ] && [ $rounds -lt 6 ]; do
  rounds=$((rounds + 1))
  (cd "$tmp/study" && PATH="$tmp/bin:$PATH" sh submit.sh \
     >"$tmp/round$rounds.out" 2>"$tmp/round$rounds.err")
  st=$?
done
[ $st = 0 ] && [ $rounds = 4 ]
ok $? "the recipe, submitted again until the gather finds everything, ends well after 4 rounds, one per bulk operation ($rounds, status $st)"
grep -q '^optlab: --gather results: sweep #2: task 1 of 5 (lr = 0.05) missing: no result in results; slice 1/32 computes it$' "$tmp/round1.err" \
  && grep -q '^optlab: --gather results: sweep #2: 5 of 5 tasks missing; run slices 1/32, 2/32, 3/32, 4/32, 5/32 (optlab --tasks K/32 --dir results study.lua), or give --partial to go on with the 0 there$' "$tmp/round1.err"
ok $? "after the first round the gather names the sweep's tasks missing and their slices"
ls "$tmp/study/results" | grep -c '\.task$' | grep -qx 51
ok $? "results holds one task file per task: 40 + 5 + 2 + 4"
cmp -s "$tmp/one/one.out" "$tmp/study/study.out"
ok $? "the gathered printout is byte for byte the one process's"
bad=
for f in repeats.csv sweep.csv race.csv nuts_1.csv nuts_2.csv nuts_3.csv nuts_4.csv; do
  [ -s "$tmp/one/$f" ] && cmp -s "$tmp/one/$f" "$tmp/study/$f" || bad="$bad $f"
done
[ -z "$bad" ]
ok $? "the gathered CSV files are byte for byte the one process's${bad:+ (differ:$bad)}"
san "$tmp"/round*.err "$tmp/one/one.err"
ok $? "no sanitizer report in the recipe's runs"

# -- 2. faults: named errors and exit status ---------------------------------
cd "$tmp" || exit 1
cat >small.lua <<'EOF'
local q = repeats(problem.rosenbrock{n = 2}, optim.gd{lr = 1e-3},
                  {iters = 200, seed = 3, progress = false}, 6)
print(q)
EOF
"$OPTLAB" small.lua >small.one 2>/dev/null

# --dir missing: made with its parents (mode 0777 less the umask)
(umask 027 && "$OPTLAB" --tasks 1/3 --dir new/a/b small.lua >/dev/null 2>err)
st=$?
[ $st = 0 ] && [ -f new/a/b/op1-1.task ] && [ -f new/a/b/op1-4.task ] \
  && [ "$(stat -c %a new new/a new/a/b)" = "750
750
750" ]
ok $? "--dir missing: made with its parents, mode 0777 less the umask ($st)"
: >afile
"$OPTLAB" --tasks 1/3 --dir afile/x small.lua >out 2>err
st=$?
[ $st = 1 ] && grep -qx 'optlab: --dir afile/x: afile exists and is not a directory' err \
  && [ ! -s out ]
ok $? "--dir through a file: exit 1 naming it ($st: $(cat err))"
"$OPTLAB" --gather nothere small.lua >out 2>err
st=$?
[ $st = 1 ] && grep -q '^optlab: --gather nothere: No such file or directory' err \
  && [ ! -s out ]
ok $? "--gather of a directory not there: exit 1 naming it ($st)"
"$OPTLAB" --partial small.lua >out 2>err
st=$?
[ $st = 1 ] && grep -q -- '--partial goes with --gather' err
ok $? "--partial without --gather: exit 1, said ($st)"

mkdir empty
"$OPTLAB" --gather empty small.lua >out 2>err
st=$?
[ $st = 1 ] && [ ! -s out ] && [ "$(grep -c ' missing: no result in empty$' err)" = 6 ] \
  && grep -qx 'optlab: --gather empty: repeats #1: 6 of 6 tasks missing; no task file in empty says how many slices N there were: task i is slice (i - 1) mod N + 1'"'"'s, or give --partial to go on with the 0 there' err
ok $? "--gather of an empty directory: every task named missing, the slice rule given, exit 1 ($st)"

# tasks missing: slice 1 of 3 only
"$OPTLAB" --gather new/a/b small.lua >out 2>err
st=$?
{ [ $st = 1 ] && [ ! -s out ] \
  && grep -qx 'optlab: --gather new/a/b: repeats #1: task 2 of 6 (seed 3, stream 1) missing: no result in new/a/b; slice 2/3 computes it' err \
  && grep -qx 'optlab: --gather new/a/b: repeats #1: task 6 of 6 (seed 3, stream 5) missing: no result in new/a/b; slice 3/3 computes it' err \
  && [ "$(grep -c ' missing: ' err)" = 4 ] \
  && grep -qx 'optlab: --gather new/a/b: repeats #1: 4 of 6 tasks missing; run slices 2/3, 3/3 (optlab --tasks K/3 --dir new/a/b small.lua), or give --partial to go on with the 2 there' err; }
ok $? "tasks missing: --gather names each (index, seed, stream, slice), prints nothing, exit 1 ($st)"
"$OPTLAB" --gather new/a/b --partial small.lua >out 2>err
st=$?
[ $st = 0 ] && grep -q '^  missing: task 2 (seed 3, stream 1)' out \
  && grep -q '^repeats: .*(2 runs, streams 0, 3)$' out \
  && grep -q -- '--partial: going on with the 2 there' err
ok $? "tasks missing, --partial: the results there printed, the missing listed, exit 0 ($st)"
for k in 2 3; do "$OPTLAB" --tasks $k/3 --dir new/a/b small.lua >/dev/null 2>&1; done
"$OPTLAB" --gather new/a/b small.lua >out 2>err
st=$?
[ $st = 0 ] && [ ! -s err ] && cmp -s out small.one
ok $? "every slice run: the gather is the one process's, exit 0, nothing on stderr ($st)"

# damaged entries: each refused by name, exit 1, nothing printed
D=new/a/b
cp $D/op1-2.task keep2
damage () {   # damage <what> <command making op1-2.task so> <expected text>
  rm -rf $D/op1-2.task
  eval "$2"
  timeout 60 "$OPTLAB" --gather $D small.lua >out 2>err
  st=$?
  [ $st = 1 ] && [ ! -s out ] \
    && grep -q "^optlab: --gather $D: repeats #1: task 2 of 6 (seed 3, stream 1) missing: $D/op1-2.task $3.*; slice 2/3 computes it$" err
  ok $? "$1: --gather names the file and what is wrong, exit 1 ($st)"
  [ $st = 1 ] || cat err | sed 's/^/# /'
  rm -rf $D/op1-2.task
  cp keep2 $D/op1-2.task
}
# a byte of the result changed (the checksum no longer holds)
damage "a corrupted task file" \
  "cp keep2 $D/op1-2.task && printf 'X' | dd of=$D/op1-2.task bs=1 seek=3000 conv=notrunc 2>/dev/null" \
  "is damaged: its checksum does not match its bytes"
damage "a truncated task file" "head -c 2000 keep2 >$D/op1-2.task" \
  "is cut short or damaged: [0-9]* bytes after its header, which says [0-9]*"
damage "a FIFO as a task file" "mkfifo $D/op1-2.task" \
  "is a FIFO, not a regular file"
damage "an empty task file" ": >$D/op1-2.task" "holds another task or another format"

# -- 3. a slice run again keeps its valid files and redoes the rest --------
ino () { stat -c '%i %Y' "$@"; }
before=$(ino $D/op1-3.task)
printf 'X' | dd of=$D/op1-2.task bs=1 seek=3000 conv=notrunc 2>/dev/null
cp $D/op1-2.task damaged2
rm $D/op1-5.task
"$OPTLAB" --tasks 2/3 --dir $D small.lua >/dev/null 2>err
st=$?
[ $st = 0 ] && grep -q "^optlab: tasks 2/3: $D/op1-2.task is damaged: its checksum does not match its bytes; computing task 2 again$" err \
  && [ "$(grep -c . err)" = 1 ]
ok $? "a slice run again says which file it computes again, and why ($st)"
# (the bytes hold the run's measured seconds: not compared)
! cmp -s $D/op1-2.task damaged2 && [ -f $D/op1-5.task ] \
  && head -1 $D/op1-2.task | grep -q '^optlab task 3: repeats #1, task 2 of 6 (seed 3, stream 1); slice 2/3; [0-9]* bytes, fnv1a64 [0-9a-f]*$'
ok $? "... the damaged task is written again, the absent one made"
"$OPTLAB" --tasks 3/3 --dir $D small.lua >/dev/null 2>err
[ "$(ino $D/op1-3.task)" = "$before" ] && [ ! -s err ]
ok $? "... a slice whose files are all valid rewrites none (same inode and time)"
"$OPTLAB" --gather $D small.lua >out 2>err
[ $? = 0 ] && cmp -s out small.one
ok $? "... then the gather is the one process's"

# -- 4. progress lines ---------------------------------------------------------
# tasks of a known wall time: the objective spins 1 ms a call
cat >prog.lua <<'EOF'
local function spin (s)
  local t = optlab.now() + s
  while optlab.now() < t do end
end
local p = problem.new{n = 2, x0 = {1, 1},
  f = function (x) spin(0.001); return x[1]^2 + x[2]^2 end,
  grad = function (x, g) spin(0.001); g[1] = 2 * x[1]; g[2] = 2 * x[2] end}
local opts = {iters = 10, progress = arg[1] ~= "off"}
print(repeats(p, optim.gd{lr = 0.01}, opts, 12))
print(sweep(p, optim.gd, {lr = {0.01, 0.02, 0.03, 0.04, 0.05, 0.06}}, opts))
EOF
OPTLAB_PROGRESS_SECONDS=0.1 "$OPTLAB" prog.lua >p.out 2>p.err
ok $? "progress: the script runs (stdout a file)"
# every line: optlab: WHO #J: DONE/TOTAL tasks, EL s[, ~LEFT s left]
awk -v who="repeats #1" -v total=12 '
  BEGIN { bad = 0; lines = 0; last = -1; lastel = 0 }
  index($0, "optlab: " who ": ") == 1 {
    lines++
    if (!match($0, /: [0-9]+\/[0-9]+ tasks, [0-9]+\.[0-9] s(, ~[0-9.]+ s left)?$/)) { bad = 1; next }
    split(substr($0, RSTART + 2), f, /[\/ ,]+/)
    done = f[1] + 0; tot = f[2] + 0; el = f[4] + 0
    if (tot != total || done < last || done >= total || el + 0.05 < 0.1 || el < lastel) bad = 1
    if (done > 0 && !/, ~[0-9.]+ s left$/) bad = 1
    last = done; lastel = el
  }
  END { exit !(lines >= 2 && !bad) }' p.err
ok $? "progress: repeats #1 lines: done/12 growing, elapsed >= 0.1 s growing, time left once a task is done"
grep -qE '^optlab: sweep #2: [0-9]+/6 tasks, [0-9]+\.[0-9] s' p.err
ok $? "progress: the sweep's lines say sweep #2 of 6 tasks"
[ "$(grep -cvE '^optlab: (repeats #1|sweep #2): [0-9]+/[0-9]+ tasks, ' p.err)" = 0 ]
ok $? "progress: nothing else on stderr"
OPTLAB_PROGRESS_SECONDS=0 "$OPTLAB" prog.lua >p0.out 2>p0.err
"$OPTLAB" prog.lua off >poff.out 2>poff.err
cmp -s p.out p0.out && cmp -s p.out poff.out && [ ! -s p0.err ] && [ ! -s poff.err ]
ok $? "progress: stdout is the same without them; OPTLAB_PROGRESS_SECONDS=0 and progress = false print none"
OPTLAB_PROGRESS_SECONDS=0.1 "$OPTLAB" --tasks 1/2 --dir pd prog.lua >/dev/null 2>ps.err
grep -qE '^optlab: tasks 1/2: repeats #1: [0-9]+/6 tasks, [0-9]+\.[0-9] s' ps.err
ok $? "progress: a slice counts its own tasks (6 of the 12) and names itself"
"$OPTLAB" small.lua >/dev/null 2>ps.err
[ ! -s ps.err ]
ok $? "progress: a quick operation (under 2 s) prints none by default"
OPTLAB_PROGRESS_SECONDS=soon "$OPTLAB" -e 'print(1)' >out 2>err
grep -qx 'optlab: OPTLAB_PROGRESS_SECONDS=soon is not a number of seconds >= 0 (0: no progress lines); using 2' err \
  && grep -qx 1 out
ok $? "progress: a bad OPTLAB_PROGRESS_SECONDS is named with the valid range"
san p.err ps.err
ok $? "no sanitizer report"

echo "1..$n"
[ $fails = 0 ]
