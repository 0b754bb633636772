/*
** repl/screen.h -- the terminal screen: curses lifetime, colour roles,
** glyph output and terminal restoration on every exit path.
**
** The only module that calls newterm/endwin.  Drawing code (draw.c) uses
** the put helpers below and the semantic colour roles, never raw colour
** numbers, and asks screen_utf8() whether it may use non-ASCII glyphs.
*/
#ifndef REPL_SCREEN_H
#define REPL_SCREEN_H

#include "palette.h"

/* Colour roles (curses pair numbers); series colours follow SC_SERIES:
** run k's is SC_SERIES + k % SC_NSERIES, core/plot/palette.h's colour k
** (the nearest xterm colour on a 256-colour terminal, else an ANSI one,
** the bright ones in bold on 8 colours), as in the SVG. */
enum {
  SC_DEFAULT = 0,
  SC_AXIS,
  SC_TITLE,
  SC_STATUS,
  SC_FOCUS,
  SC_WARN,
  SC_SERIES       /* SC_SERIES + (run index % SC_NSERIES) */
};
#define SC_NSERIES PL_NPAL

/* Attribute flags for screen_put*. */
enum { SA_BOLD = 1, SA_REVERSE = 2, SA_DIM = 4 };

/* Save the terminal's current (cooked) mode and install, once, the atexit
** and fatal-signal (SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE,
** SIGABRT) handlers that end curses and restore that mode before the
** default action re-runs.  Called by the prompt loop and the view. */
void screen_guard (void);

/* Start (or resume) curses on the controlling terminal: 0 on success, -1
** when the terminal cannot be used (the caller then declines).  ascii
** forbids non-ASCII glyphs.  SIGWINCH is caught while the screen is on. */
int screen_open (int ascii);
/* Draw on /dev/tty instead of stdout (before the first screen_open):
** rank 0 under mpirun, whose stdout is mpirun's pipe and whose keys come
** through it on stdin.  The process is then not in the terminal's
** foreground group, so SIGTTOU is ignored for curses to set the
** terminal's mode, and the size is read every frame (SIGWINCH goes to
** mpirun).  The screen is raw there, so that Ctrl-C comes as a key (the
** view stops the bulk operation, keeping what is done) rather than as a
** signal to mpirun, which ends every rank.  Returns 0, or -1 when there
** is no controlling terminal or when the launcher's (the parent
** process's) stdin or stdout is not a terminal: mpirun ... > file shows
** no screen, as optlab ... > file does not. */
int screen_devtty (void);
/* Leave curses mode (endwin) and restore the previous SIGWINCH handler;
** no-op when not open. */
void screen_close (void);
int screen_active (void);

/* 1 when glyphs beyond ASCII may be drawn (UTF-8 locale, no --ascii). */
int screen_utf8 (void);
/* 1 when the terminal shows colours. */
int screen_colors (void);

/* Poll the terminal size; returns 1 when it changed since the last call
** (SIGWINCH seen or KEY_RESIZE delivered) and curses was resized. */
int screen_resized (void);
void screen_size (int *rows, int *cols);
/* Note a SIGWINCH caught by someone else: the next screen_resized polls. */
void screen_winch (void);
/* Show the cursor at (y, x) after the next flush; y < 0 hides it. */
void screen_cursor (int y, int x);

/* Read one key: waits up to ms milliseconds (0: poll); -1 when none.
** Keys are curses key codes (KEY_RESIZE is consumed and reported by
** screen_resized instead). */
int screen_key (int ms);

void screen_erase (void);
/* Flush the drawing to the terminal. */
void screen_flush (void);

/* Draw text at (y, x), at most maxw columns, with colour role and SA_*
** attributes.  Non-ASCII bytes become '?' when !screen_utf8(); returns the
** columns used. */
int screen_puts (int y, int x, const char *s, int maxw, int role, int attr);
/* Draw one code point (U+0020..); falls back to ascii when it may not
** draw non-ASCII glyphs. */
void screen_putc (int y, int x, unsigned u, char ascii, int role, int attr);
/* Fill a row segment with blanks. */
void screen_blank (int y, int x, int w, int role, int attr);

#endif
