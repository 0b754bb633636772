/*
** repl/dash.h -- the dashboard: live panels of the background jobs above
** an output window and the prompt line, on one curses screen.
**
** prompt.c owns readline and the loop; it opens the dashboard while jobs
** are not done, routes readline's redisplay to dash_prompt and keys meant
** for the dashboard to dash_key, and calls dash_tick every turn.  While
** open, the process's stdout and stderr point at a capture file that
** dash_tick drains into the output window (so print, io.write, errors and
** progress lines land there); on close they are restored and the
** session's output is printed to the terminal as a transcript.
*/
#ifndef REPL_DASH_H
#define REPL_DASH_H

#include "lua.h"

/* 0 when the screen is up; -1 when curses cannot start. */
int dash_open (lua_State *L, int ascii);
/* Restore stdout/stderr and the terminal, print the transcript. */
void dash_close (void);
int dash_is_open (void);

/* Drain captured output, then redraw what changed (at most OLUA_FPS
** frames a second, and drawing kept to about 1% of the time). */
void dash_tick (lua_State *L);
/* Redraw everything at the next dash_tick (resize, after a chunk). */
void dash_dirty (void);

/* readline's line: draw the prompt row with the cursor at point. */
void dash_prompt (const char *prompt, const char *line, int point);
/* Append text to the output window (after draining captured output). */
void dash_print (const char *s);

/* Keyboard focus: 0 the prompt, 1 the dashboard. */
int dash_focus (void);
void dash_set_focus (int f);
/* A dashboard key (bytes of one read); returns the number of bytes
** used, at least 1. */
int dash_key (lua_State *L, const unsigned char *s, int n);

/* PgUp / PgDn (ESC [ 5 ~ / ESC [ 6 ~ at s) scroll the output window back
** and forward a page, whichever has the keyboard; returns the bytes used,
** 0 when s does not start with one of them. */
int dash_scrollkey (const unsigned char *s, int n);

#endif
