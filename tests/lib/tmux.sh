# tests/lib/tmux.sh -- drive the real optlab in a tmux pane, and print TAP.
#
# Source it from a tests/repl/*.t script run from the top directory.  Each
# test script gets a private tmux server (-L optlab-test-<pid>, no config
# file), a temporary directory $T_TMP (history file $T_TMP/hist), and a
# trap that kills the server and removes the directory on exit.  Waiting is
# by polling the screen every 0.1 s up to a timeout, never a fixed sleep.
#
# No test may depend on the machine's speed: the default timeout T_WAIT
# (30 s) is meant for a loaded single core (a poll returns as soon as the
# screen matches, so it costs nothing when things are fast); a run that must
# still be live when checked is one that cannot end by itself (LIVE_ITERS
# iterations on a noisy problem, so neither the budget nor any stop rule on
# the gradient can end it) and is stopped explicitly.
#
#   tm_start [env assignments and optlab args...]  start optlab in 120x40
#   tm_type TEXT            type text literally;   tm_keys KEY...  send keys
#   tm_screen               the visible pane as text
#   tm_shot NAME            a PNG screenshot of the pane, and each cell's
#                           colour read from its pixels ($T_TMP/NAME.*)
#   tm_wait ERE [secs]      until the screen matches (0) or timeout (1)
#   tm_wait_not ERE [secs]  until the screen does not match
#   tm_until CMD [secs]     until the shell command CMD succeeds
#   tm_alive                0 while optlab still runs in the pane
#   tm_iter                 the iteration count in the title line
#   tm_iter_wait            the same, polled until a title line is shown
#   tm_moves                the title's iteration count grows
#   tm_high                 0 when the screen shows a byte >= 0x80
#   tm_speed_keys NAME UNIT   live-view speed keys - and + (2 tests; UNIT s)
#   tm_focus_keys NAME        first panel focused, l, Tab (3 tests)
#   ok COND-STATUS NAME     TAP line for the last command's status
#   todo STATUS NAME WHY    the same, marked TODO (a known gap)
#   done_testing            plan line; exit status 1 when a test failed

T_SOCK="optlab-test-$$"
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/optlab-test.XXXXXX")
T_N=0
T_FAIL=0
T_BIN="${OPTLAB:-./optlab}"
T_WAIT="${T_WAIT:-30}"
# A budget no run reaches: at 1 ns a step, 1e15 steps take 11 days.
LIVE_ITERS=1e15

tm () { tmux -L "$T_SOCK" -f /dev/null "$@"; }

t_cleanup () {
  tm kill-server >/dev/null 2>&1
  rm -rf "$T_TMP"
}
trap t_cleanup EXIT

# tm_start [VAR=value ...] [optlab args ...]: a fresh session "t" running
# optlab with a private history file and a UTF-8 locale unless overridden.
tm_start () {
  local envs=() args=()
  while [ $# -gt 0 ] && [[ "$1" == *=* ]]; do envs+=("$1"); shift; done
  args=("$@")
  # Keep the private server alive between sessions, so a new session never
  # races a server that is shutting down after the last one was killed.
  tm start-server \; set-option -g exit-empty off >/dev/null 2>&1
  tm kill-session -t t >/dev/null 2>&1
  tm new-session -d -s t -x "${T_COLS:-120}" -y "${T_ROWS:-40}" \
    "env LANG=C.UTF-8 LC_ALL= TERM=screen-256color \
OPTLAB_HISTORY=$T_TMP/hist ${envs[*]} $T_BIN ${args[*]}" \; \
    set-option -t t remain-on-exit on >/dev/null
}

tm_type () { tm send-keys -t t -l -- "$1"; }
tm_keys () { tm send-keys -t t "$@"; }
tm_line () { tm_type "$1"; tm_keys Enter; }
tm_screen () { tm capture-pane -p -t t; }
tm_resize () { tm resize-window -t t -x "$1" -y "$2"; }

# tm_shot NAME: a screenshot of the pane: $T_TMP/NAME.cap (the capture
# with its colour escapes), NAME.png (drawn from it by tests/lib/shot.pl
# and rsvg-convert: what the screen looks like, cell by cell) and
# NAME.cells (each cell's colour read back from the PNG's pixels); the
# PNG is also copied to $OPTLAB_SHOTS when that names a directory.
tm_shot () {
  local f="$T_TMP/$1"
  tm capture-pane -e -p -t t > "$f.cap" &&
    perl tests/lib/shot.pl svg "$f.cap" > "$f.svg" &&
    rsvg-convert -o "$f.png" "$f.svg" &&
    perl tests/lib/png2ppm.pl "$f.png" > "$f.ppm" &&
    perl tests/lib/shot.pl cells "$f.cap" "$f.ppm" > "$f.cells" || return 1
  [ -n "$OPTLAB_SHOTS" ] && [ -d "$OPTLAB_SHOTS" ] &&
    cp "$f.png" "$OPTLAB_SHOTS/$(basename "$0" .t)-$1.png"
  return 0
}

# The waits poll every 0.1 s up to SECS (default T_WAIT).  When the pane
# is dead (optlab exited or never started) its screen cannot change: one
# last look, then the answer, without sitting out the timeout.
tm_wait () {
  local re="$1" secs="${2:-$T_WAIT}" i=0
  local n=$((secs * 10))
  while [ $i -lt $n ]; do
    if tm_screen | grep -qE -- "$re"; then return 0; fi
    tm_alive || { tm_screen | grep -qE -- "$re"; return; }
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

tm_wait_not () {
  local re="$1" secs="${2:-$T_WAIT}" i=0
  local n=$((secs * 10))
  while [ $i -lt $n ]; do
    if ! tm_screen | grep -qE -- "$re"; then return 0; fi
    tm_alive || { ! tm_screen | grep -qE -- "$re"; return; }
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

# tm_until CMD [SECS]: retry the shell command CMD every 0.1 s until it
# succeeds (a screen caught mid-redraw passes a moment later).
tm_until () {
  local secs="${2:-$T_WAIT}" i=0
  local n=$((secs * 10))
  while [ $i -lt $n ]; do
    if eval "$1"; then return 0; fi
    tm_alive || { eval "$1"; return; }
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

tm_alive () {
  [ "$(tm list-panes -t t -F '#{pane_dead}' 2>/dev/null)" = 0 ]
}

tm_iter () { tm_screen | head -1 | sed -n 's/.*iter \([0-9]*\)\/.*/\1/p'; }

# tm_iter_wait: the title's iteration count, retried while a capture shows
# no title (mid-redraw); empty after T_WAIT seconds without one.
tm_iter_wait () {
  local i=0 a n=$((T_WAIT * 10))
  while [ $i -lt $n ]; do
    a=$(tm_iter)
    if [ -n "$a" ]; then echo "$a"; return 0; fi
    tm_alive || return 1
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

# tm_moves: the title's iteration count grows within T_WAIT seconds (frames
# are spaced out when the machine is slow or loaded; drawing is kept to a
# few per cent of the time).
tm_moves () {
  local a b i=0 n=$((T_WAIT * 10))
  a=$(tm_iter_wait) || return 1
  while [ $i -lt $n ]; do
    b=$(tm_iter)
    [ -n "$b" ] && [ "$b" -gt "$a" ] && return 0
    tm_alive || return 1
    sleep 0.1
    i=$((i + 1))
  done
  return 1
}

tm_high () { tm_screen | LC_ALL=C grep -qP '[\x80-\xff]'; }

# tm_speed_keys NAME UNIT: in a live view (race or dashboard) "-" sets a
# finite speed, shown as "speed N/UNIT", and 40 "+" go back to max.
tm_speed_keys () {
  local i
  tm_keys -- -
  tm_wait "speed [0-9.]+[kMG]?/$2"; ok $? "$1: - sets a finite speed"
  for i in $(seq 1 40); do tm_keys +; done
  tm_wait 'speed max'; ok $? "$1: + goes back to max"
}

# tm_focus_keys NAME: with panels loss and gradnorm, loss has the focus,
# l toggles its scale (log <-> lin) and Tab moves the focus to gradnorm.
tm_focus_keys () {
  local before="" want
  tm_wait '\* loss \[l(og|in)\]'; ok $? "$1: the first panel has focus"
  # (a capture taken mid-redraw may lack the title: take the next one)
  tm_until 'before=$(tm_screen | grep -o "\* loss \[l..\]")'
  tm_keys l
  if [ "$before" = '* loss [log]' ]; then want='\* loss \[lin\]'
  else want='\* loss \[log\]'; fi
  tm_wait "$want"; ok $? "$1: l toggles log/lin of the focused panel"
  tm_keys Tab
  tm_wait '\* gradnorm \['; ok $? "$1: Tab moves focus to the next panel"
}

# ok STATUS NAME: STATUS is 0 for a pass (use `cmd; ok $? "name"`).
ok () {
  T_N=$((T_N + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $T_N - $2"
  else
    echo "not ok $T_N - $2"
    T_FAIL=$((T_FAIL + 1))
    tm_screen 2>/dev/null | sed 's/^/# | /'
  fi
}

# todo STATUS NAME REASON: a known gap; reported, not counted as failure.
todo () {
  T_N=$((T_N + 1))
  if [ "$1" -eq 0 ]; then echo "ok $T_N - $2 # TODO $3"
  else echo "not ok $T_N - $2 # TODO $3"; fi
}

done_testing () {
  echo "1..$T_N"
  [ "$T_FAIL" -eq 0 ]
}
