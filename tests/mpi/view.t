#!/usr/bin/env bash
# tests/mpi/view.t -- rank 0's live view under mpirun (issue 16), driven
# in tmux as a person would: `mpirun -np 2 optlab script` in a terminal
# shows the repeats' bands filling in with "on 2 ranks" in the header
# (rank 0 draws on /dev/tty; mpirun's stdin brings the keys), q stops
# every rank and the runs done are returned, Ctrl-C does the same rather
# than ending the job, and the terminal's mode is back after (icanon, echo
# and isig on).  Skipped without Open MPI.  The repeats has 10^6 tasks,
# so it cannot end before it is stopped, whatever the machine's speed;
# its runs are long (50000 steps, ~10 ms), so that the results sent to
# every rank after the stop (about 100 KB a run) stay small.
cd "$(dirname "$0")/../.." || exit 1
if [ "$(./optlab -e 'io.write(tostring(optlab.mpi))')" != true ]; then
  echo "1..0 # SKIP optlab built without Open MPI"
  exit 0
fi
. tests/lib/tmux.sh

MPIRUN="mpirun --oversubscribe -x ASAN_OPTIONS=detect_leaks=0"
[ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
cat >"$T_TMP/rep.lua" <<'EOF'
local p = problem.quadratic{n = 3, noise = {sigma = 1}}
local q = repeats(p, optim.gd{lr = 0.01}, {iters = 50000, tol = 0, seed = 5},
                  1000000)
print(string.format("R %d interrupted %s", q.R, tostring(q.interrupted)))
EOF
# the job, then its exit status and the terminal's mode; the pane stays
# (the shell catches Ctrl-C, so it goes on when mpirun ends; mpirun, its
# child, gets the default action)
cat >"$T_TMP/job.sh" <<EOF
#!/bin/sh
trap 'echo' INT
$MPIRUN -np 2 $PWD/optlab "\$@"
echo "exit \$?"
stty -a | tr ' ;' '\n\n' | grep -E '^-?(icanon|echo|isig)\$' | sort | tr '\n' ' '
echo
read line
EOF
chmod +x "$T_TMP/job.sh"
T_BIN="$T_TMP/job.sh"

for key in q C-c; do
  tm_start "$T_TMP/rep.lua"
  tm_wait 'repeats: [0-9]+ of 1000000 tasks done on 2 ranks'
  ok $? "mpiview ($key): rank 0 shows the view, its header naming 2 ranks"
  tm_wait '90% of [0-9]+ runs' && tm_wait '● median '
  ok $? "mpiview ($key): ... with the bands over the runs done"
  tm_keys "$key"
  tm_wait '^R [0-9]+ interrupted true$' 300
  ok $? "mpiview ($key): it stops every rank; the runs done are returned"
  tm_wait '^exit 0$' 300
  ok $? "mpiview ($key): the job ends normally (exit status 0)"
  tm_wait '^echo icanon isig ?$'
  ok $? "mpiview ($key): the terminal is back in its mode (echo, icanon, isig)"
  tm_keys Enter
done

# mpirun's output to a file: no screen (as optlab > file shows none), a
# progress line on stderr every 2 s instead; Ctrl-C then ends the job
sed "s|optlab \"\\\$@\"|optlab \"\\\$@\" >$T_TMP/out|" "$T_TMP/job.sh" \
  >"$T_TMP/job2.sh"
chmod +x "$T_TMP/job2.sh"
T_BIN="$T_TMP/job2.sh"
tm_start "$T_TMP/rep.lua"
tm_wait '^optlab: repeats #1: [0-9]+/1000000 tasks on 2 ranks, [0-9]+\.[0-9] s(, ~[0-9.]+ s left)?$'
ok $? "mpiview (> file): progress lines on stderr"
! tm_screen | grep -q '● median'
ok $? "mpiview (> file): no screen"
tm_keys C-c
tm_wait '^exit [1-9][0-9]*$'
ok $? "mpiview (> file): Ctrl-C ends the job"
tm_wait '^echo icanon isig ?$'
ok $? "mpiview (> file): the terminal's mode is untouched"

done_testing
