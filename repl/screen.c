/*
** repl/screen.c -- curses lifetime, colour roles, glyph output, and
** restoring the terminal on every exit path.  See screen.h.
**
** Curses features relied on: newterm (not initscr, which exits on a bad
** TERM), cbreak/noecho/nonl, keypad, getch with timeout, curs_set,
** resizeterm, endwin and resume by refresh.  Optional, with fallbacks:
**   - colours (start_color, use_default_colors): without them runs are
**     told apart by ASCII markers and attributes are bold/reverse only;
**   - wide characters (ncursesw setcchar/mvadd_wch/mvaddnwstr) in a UTF-8
**     locale: braille and box glyphs; otherwise (LANG=C, --ascii) every
**     byte written is ASCII ('?' replaces non-ASCII text);
**   - curs_set(0) may fail on terminals without cursor control (ignored).
** Output goes to a dup of stdout made at the first open (the terminal),
** so the dashboard may point stdout elsewhere to capture program output.
** Resize: our own SIGWINCH handler (installed before newterm, so ncurses
** keeps out) sets a flag; screen_resized reads the size with TIOCGWINSZ
** and calls resizeterm.  KEY_RESIZE, if delivered, is treated the same.
**
** Restoration: atexit and every signal whose default action ends the
** program (SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGABRT,
** SIGILL, SIGTRAP, SIGSYS, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGVTALRM,
** SIGPROF, SIGXCPU, SIGXFSZ; where no handler was installed before) end
** curses, put back the terminal mode saved by screen_guard (the prompt
** calls it before readline changes the mode), then the signal is raised
** again with its default action, so the exit status says which it was.  endwin in a fatal handler is not strictly
** async-signal-safe; it is the conventional best effort, and the
** tcsetattr after it is.
*/
#include <langinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "screen.h"

static SCREEN *scr;                 /* kept across open/close */
static FILE *tty;                   /* the terminal, a dup of stdout */
static int active;                  /* between screen_open and close */
static int ascii_only;
static int have_colors;
static volatile sig_atomic_t winch_seen; /* SIGWINCH seen */
static int resize_key;              /* KEY_RESIZE seen */
static struct sigaction old_winch;

static int guarded;
static int have_tio;
static struct termios saved_tio;
static int devtty = -1;             /* screen_devtty: /dev/tty's fd */

/* -- restoration ---------------------------------------------------------- */

static void restore_terminal (void)
{
  if (active) {
    endwin();
    active = 0;
  }
  if (have_tio) tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
}

static void on_fatal (int sig)
{
  restore_terminal();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void on_exit_restore (void)
{
  if (active) {
    endwin();
    active = 0;
  }
}

void screen_guard (void)
{
  /* every signal whose default action ends the program, but SIGINT
  ** (Ctrl-C: handled) and SIGKILL / SIGSTOP (cannot be caught): SIGILL
  ** is an -march=native binary on an older CPU, SIGXCPU a cluster's
  ** `ulimit -t`, SIGPIPE a closed pipe, SIGUSR1 / SIGALRM a stray kill */
  static const int sigs[] = {
    SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL,
    SIGTRAP, SIGSYS, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGVTALRM, SIGPROF,
    SIGXCPU, SIGXFSZ
  };
  size_t i;
  if (guarded) return;
  guarded = 1;
  if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_tio) == 0)
    have_tio = 1;
  atexit(on_exit_restore);
  for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction old, sa;
    if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
      continue;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

/* -- lifetime ------------------------------------------------------------- */

static void on_winch (int sig)
{
  (void)sig;
  winch_seen = 1;
}

/* Run colours (palette.h): the xterm colour on a 256-colour terminal,
** the ANSI one on 16, the normal one plus bold on 8 (series_bold). */
static unsigned series_bold;        /* bit k: series k is drawn bold */

static void init_colors (void)
{
  short bg = -1;
  int i;
  have_colors = 0;
  series_bold = 0;
  if (!has_colors() || start_color() == ERR) return;
  if (use_default_colors() == ERR) bg = COLOR_BLACK;
  init_pair(SC_AXIS, -1 == bg ? -1 : COLOR_WHITE, bg);
  init_pair(SC_TITLE, COLOR_CYAN, bg);
  init_pair(SC_STATUS, -1 == bg ? -1 : COLOR_WHITE, bg);
  init_pair(SC_FOCUS, COLOR_YELLOW, bg);
  init_pair(SC_WARN, COLOR_RED, bg);
  for (i = 0; i < SC_NSERIES; i++) {
    int c = COLORS >= 256 ? pl_pal_xterm(i) : pl_pal_ansi(i);
    if (COLORS < 16 && c >= 8) {
      c -= 8;
      series_bold |= 1u << i;
    }
    init_pair((short)(SC_SERIES + i), (short)c, bg);
  }
  have_colors = 1;
}

int screen_open (int ascii)
{
  struct sigaction sa;
  const char *term = getenv("TERM");
  if (active) return 0;
  if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0) return -1;
  screen_guard();
  fflush(stdout);
  fflush(stderr);
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_winch;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGWINCH, &sa, &old_winch);
  if (scr == NULL) {
    int fd = devtty >= 0 ? devtty : dup(STDOUT_FILENO);
    tty = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (tty == NULL) {
      if (fd >= 0) close(fd);
      sigaction(SIGWINCH, &old_winch, NULL);
      return -1;
    }
    scr = newterm(NULL, tty, stdin);
    if (scr == NULL) {
      sigaction(SIGWINCH, &old_winch, NULL);
      return -1;
    }
    set_term(scr);
    /* on /dev/tty under mpirun, Ctrl-C must reach the view as a key:
    ** as a signal it would go to mpirun, which ends every rank */
    if (devtty >= 0) raw();
    else cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    set_escdelay(25);
    init_colors();
  } else {
    set_term(scr);
    reset_prog_mode();
    clearok(curscr, TRUE);
  }
  ascii_only = ascii;
  active = 1;
  winch_seen = 1;   /* the size may have changed while we were away */
  screen_resized();
  curs_set(0);
  erase();
  refresh();
  return 0;
}

/* 1 when the launcher's (the parent's) file descriptor k is a terminal. */
static int parent_tty (int k)
{
  char path[64];
  int fd, yes;
  snprintf(path, sizeof path, "/proc/%ld/fd/%d", (long)getppid(), k);
  fd = open(path, (k == 0 ? O_RDONLY : O_WRONLY) | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return 0;
  yes = isatty(fd);
  close(fd);
  return yes;
}

int screen_devtty (void)
{
  int fd;
  if (devtty >= 0) return 0;
  /* as in one process, no screen when mpirun's output or input is not
  ** the terminal (mpirun ... > out, a batch job) */
  if (!parent_tty(0) || !parent_tty(1)) return -1;
  fd = open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (fd < 0) return -1;
  if (!isatty(fd)) {
    close(fd);
    return -1;
  }
  signal(SIGTTOU, SIG_IGN);
  devtty = fd;
  return 0;
}

void screen_close (void)
{
  if (!active) return;
  erase();
  refresh();
  curs_set(1);
  endwin();
  active = 0;
  sigaction(SIGWINCH, &old_winch, NULL);
  /* the leaving of the alternate screen out before anything else is
  ** written (stderr is unbuffered) */
  if (tty != NULL) fflush(tty);
  fflush(stdout);
}

int screen_active (void)
{
  return active;
}

int screen_utf8 (void)
{
  const char *cs;
  if (ascii_only) return 0;
  cs = nl_langinfo(CODESET);
  return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

int screen_colors (void)
{
  return have_colors;
}

int screen_resized (void)
{
  struct winsize ws;
  int changed = resize_key;
  resize_key = 0;
  if (!active) return 0;
  if (winch_seen || devtty >= 0) {
    winch_seen = 0;
    if (ioctl(fileno(tty), TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0
        && ws.ws_col > 0 && (ws.ws_row != LINES || ws.ws_col != COLS)) {
      resizeterm(ws.ws_row, ws.ws_col);
      changed = 1;
    }
  }
  if (changed) clearok(curscr, TRUE);
  return changed;
}

void screen_winch (void)
{
  winch_seen = 1;
}

void screen_cursor (int y, int x)
{
  if (!active) return;
  if (y < 0) {
    curs_set(0);
    return;
  }
  move(y, x);
  curs_set(1);
}

void screen_size (int *rows, int *cols)
{
  *rows = LINES;
  *cols = COLS;
}

int screen_key (int ms)
{
  int c;
  timeout(ms > 0 ? ms : 0);
  c = getch();
  if (c == KEY_RESIZE) {
    resize_key = 1;
    return -1;
  }
  return c == ERR ? -1 : c;
}

void screen_erase (void)
{
  erase();
}

void screen_flush (void)
{
  refresh();
}

/* -- output --------------------------------------------------------------- */

static attr_t attrs_of (int attr)
{
  attr_t a = A_NORMAL;
  if (attr & SA_BOLD) a |= A_BOLD;
  if (attr & SA_REVERSE) a |= A_REVERSE;
  if (attr & SA_DIM) a |= A_DIM;
  return a;
}

static short pair_of (int role)
{
  return have_colors ? (short)role : 0;
}

/* attrs_of(attr), and bold for a series that needs it to be told apart. */
static attr_t attrs_role (int attr, int role)
{
  attr_t a = attrs_of(attr);
  if (have_colors && role >= SC_SERIES && role < SC_SERIES + SC_NSERIES
      && (series_bold >> (role - SC_SERIES) & 1))
    a |= A_BOLD;
  return a;
}

int screen_puts (int y, int x, const char *s, int maxw, int role, int attr)
{
  int room = COLS - x, n = 0;
  if (y < 0 || y >= LINES || x < 0 || room <= 0) return 0;
  if (maxw > room) maxw = room;
  attr_set(attrs_role(attr, role), pair_of(role), NULL);
  if (screen_utf8()) {
    wchar_t wb[512];
    mbstate_t st;
    int cols = 0;
    memset(&st, 0, sizeof st);
    while (*s != '\0' && n < 511) {
      wchar_t wc;
      size_t k = mbrtowc(&wc, s, strlen(s), &st);
      int w;
      if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
        wc = L'?';
        k = 1;
        memset(&st, 0, sizeof st);
      }
      w = wcwidth(wc);
      if (w < 0) {
        wc = L'?';
        w = 1;
      }
      if (cols + w > maxw) break;
      wb[n++] = wc;
      cols += w;
      s += k;
    }
    wb[n] = L'\0';
    mvaddnwstr(y, x, wb, n);
    n = cols;
  } else {
    char b[512];
    while (s[n] != '\0' && n < maxw && n < 511) {
      unsigned char ch = (unsigned char)s[n];
      b[n] = (ch >= 0x80 || ch < 0x20) ? '?' : (char)ch;
      n++;
    }
    b[n] = '\0';
    mvaddnstr(y, x, b, n);
  }
  attr_set(A_NORMAL, 0, NULL);
  return n;
}

void screen_putc (int y, int x, unsigned u, char ascii, int role, int attr)
{
  if (y < 0 || y >= LINES || x < 0 || x >= COLS) return;
  if (u >= 0x80 && screen_utf8()) {
    cchar_t cc;
    wchar_t w[2];
    w[0] = (wchar_t)u;
    w[1] = L'\0';
    setcchar(&cc, w, attrs_role(attr, role), pair_of(role), NULL);
    mvadd_wch(y, x, &cc);
  } else {
    unsigned char ch = (unsigned char)(u < 0x80 ? u : (unsigned)ascii);
    if (ch < 0x20 || ch >= 0x80) ch = '?';
    mvaddch(y, x, (chtype)ch | attrs_role(attr, role)
            | COLOR_PAIR(pair_of(role)));
  }
}

void screen_blank (int y, int x, int w, int role, int attr)
{
  int i;
  for (i = 0; i < w; i++) screen_putc(y, x + i, ' ', ' ', role, attr);
}
