# tests/mpi/lib.sh -- what the MPI tests share (sourced from the project
# root): OPTLAB, MPI (1 when the binary was built with Open MPI), MPIRUN
# (mpirun with the flags these tests need), tmp (a directory removed at
# exit), one BLAS thread, and ok STATUS DESCRIPTION printing TAP lines.
OPTLAB=./optlab
# Without Open MPI (a build without libopenmpi-dev) only the one-process
# and the --tasks / --gather parts of a test run.
MPI=0
[ "$($OPTLAB -e 'io.write(tostring(optlab.mpi))')" = true ] && MPI=1
MPIRUN="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
# Under make sanitize: Open MPI leaves some thousand blocks allocated at
# exit from components it has unloaded (LeakSanitizer cannot name them to
# suppress), so the ranks run without leak detection; the rest of ASan
# and UBSan stays on, and the one-process and slice runs keep it.
MPIRUN="$MPIRUN -x ASAN_OPTIONS=detect_leaks=0"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
n=0
ok () { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
# need_mpi: a test that is all mpirun cases skips whole without Open MPI.
need_mpi () {
  if [ $MPI = 0 ]; then
    echo "1..0 # SKIP optlab was built without Open MPI"
    exit 0
  fi
}
