#!/bin/sh
# tests/extend/run.sh -- issue 23's plug-in contract, shown: adds one
# optimizer, sampler, game dynamic, problem, metric and panel kind (the
# example files beside this script) to a scratch copy of the tree, each
# as one new file plus one line in its list, builds optlab there and checks
# that each is known and works (check.lua), then sweeps every registered
# method over every problem it accepts (tests/c/t_sweep.c).  TAP on
# stdout; exits non-zero on any failure.  The copy is
# ${TMPDIR:-/tmp}/optlab-extend.XXXXXX, removed at the end (kept with
# EXTEND_KEEP=1, to look at).  Under a minute on 2 idle cores, a few when
# loaded (a whole build of the tree; BUILD_FLAGS adds make flags).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ex="$top/tests/extend"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/optlab-extend.XXXXXX") || exit 1
[ "${EXTEND_KEEP:-0}" = 1 ] || trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
n=0
failed=0
tap () {    # tap <0 when passed> <description>
  n=$((n + 1))
  if [ "$1" = 0 ]; then echo "ok $n - $2"
  else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
bail () {
  echo "Bail out! $*"
  exit 1
}

# (1) the copy: the files git knows (tracked and new, the working versions)
# or, outside a git checkout, the tree without objects
cd "$top" || exit 1
tree="$scratch/tree"
mkdir -p "$tree"
if git rev-parse --git-dir >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard |
    tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$tree"
else
  tar -cf - --exclude=./.git --exclude=./.build --exclude='*.o' \
    --exclude='*.a' --exclude=./optlab . | tar -xf - -C "$tree"
fi
[ -f "$tree/Makefile" ] || bail "could not copy the tree to $tree"
cp -R "$tree/core" "$scratch/core.orig"
cd "$tree" || exit 1

# (2) the additions: a new file, and a line at the end of a list
add () {    # add <example> <new file> <list> <line>
  [ ! -e "$2" ] || bail "$2 exists already: rename the example"
  cp "$ex/$1" "$2" && printf '%s\n' "$4" >> "$3" || bail "cannot add $1"
}
add optim_signgd.c core/optim/signgd.c core/optim/list.h 'OL_OPTIM(signgd)'
add sample_rwfixed.c core/sample/rwfixed.c core/sample/list.h \
  'OL_SAMPLER(rwfixed)'
add game_dampbr.c core/games/dampbr.c core/games/list.h 'OL_DYNAMIC(dampbr)'
add problem_sphere.c core/problems/sphere.c core/problems/list.h \
  'OL_PROBLEM(sphere)'
add panel_hist.c core/plot/hist.c core/plot/panels.h 'PN_KIND(HIST, hist)'
add metric_xnorm.c core/metrics/xnorm.c core/metrics/list.h \
  'OL_METRIC(XNORM, xnorm)'
echo "# scratch tree $tree; the edits to existing files:"
for f in core/optim/list.h core/sample/list.h core/games/list.h \
         core/problems/list.h core/plot/panels.h core/metrics/list.h; do
  diff -U0 "$scratch/core.orig/${f#core/}" "$f" |
    awk -v f="$f" '/^\+[^+]/ { a++ } /^-[^-]/ { d++ }
      /^@@/ { h++ } END { printf "#   %-22s %d place(s), +%d -%d lines\n",
      f, h, a, d }'
done

# (3) the build (the whole tree: list headers are every object's
# dependency), quietly; its log when it fails
t0=$(date +%s)
nice ${MAKE:-make} -j2 ARCH= ${BUILD_FLAGS:-} optlab tests/c/t_sweep.t \
  > "$scratch/build.log" 2>&1
rc=$?
tap $rc "the tree with the six additions builds (-Werror; $(( $(date +%s) - t0 )) s)"
[ $rc = 0 ] || { sed 's/^/# /' "$scratch/build.log" | tail -40; bail "build failed"; }
${MAKE:-make} -s lint > "$scratch/lint.log" 2>&1
rc=$?
tap $rc "make lint passes with the additions (designated initialisers)"
[ $rc = 0 ] || sed 's/^/# /' "$scratch/lint.log"

# (4) the checks of each addition, renumbered into this stream
./optlab "$ex/check.lua" > "$scratch/check.log" 2>&1
rc=$?
while IFS= read -r l; do
  case "$l" in
    "ok "*) tap 0 "${l#ok * - }" ;;
    "not ok "*) l=${l#not ok }; tap 1 "${l#* - }" ;;
    1..*) ;;
    *) echo "$l" ;;
  esac
done < "$scratch/check.log"
tap $rc "check.lua exits 0"

# (5) the registry sweep, with the new methods and the new problem in it
./tests/c/t_sweep.t > "$scratch/sweep.log" 2>&1
rc=$?
grep '^not ok' "$scratch/sweep.log" | sed 's/^/# /'
tap $rc "t_sweep: every method on every problem it accepts ($(grep -c '^ok' "$scratch/sweep.log") checks, $(grep -c '^not ok' "$scratch/sweep.log") failed)"
for m in signgd rwfixed dampbr; do
  k=$(grep -c "^ok [0-9]* - $m on " "$scratch/sweep.log")
  b=$(grep -c "^not ok [0-9]* - $m on " "$scratch/sweep.log")
  [ "$k" -gt 0 ] && [ "$b" = 0 ]
  tap $? "t_sweep: $m runs on $k problem checks, none failed"
done
k=$(grep -c "^ok [0-9]* - [a-z0-9]* on sphere:" "$scratch/sweep.log")
b=$(grep -c "^not ok [0-9]* - [a-z0-9]* on sphere:" "$scratch/sweep.log")
[ "$k" -gt 0 ] && [ "$b" = 0 ]
tap $? "t_sweep: $k checks of methods on sphere, none failed"

echo "1..$n"
[ $failed = 0 ]
