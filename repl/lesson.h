/*
** repl/lesson.h -- lesson scripts on a terminal: the hooks behind
** lesson.say / pause / ask (lua/lesson.lua), the caption and section
** label the live view shows, and `optlab --lesson file.lua`.
*/
#ifndef REPL_LESSON_H
#define REPL_LESSON_H

#include "lua.h"
#include "repl.h"

/* The lesson hooks for a terminal (stdin and stdout terminals, a usable
** TERM, no --no-tui), or NULL: lesson.* then prints and returns at once. */
const olua_lesson *repl_lesson_hooks (const repl_opts *o);

/* Rows the caption takes on a rows x cols view (0 when there is none or
** the screen is too small to give it room), and drawing it on rows y ..
** y + n - 1. */
int lesson_caption_rows (int rows, int cols);
void lesson_caption_draw (int y, int n, int cols);
/* The view's key line, prefixed with "section k/n: title" while a lesson
** runs (--lesson); keys itself otherwise.  buf holds the result. */
const char *lesson_status (const char *keys, char *buf, size_t size);

/* optlab --lesson file: run file section by section (sections begin at
** lines "-- %%"), waiting between them for space / Right (next),
** backspace / Left (back: the script is run again from the start, quietly
** up to the section before) or q (quit).  Without a terminal the file
** runs straight through as a script.  Returns a lua_pcall status, the
** error message (if any) reported. */
int repl_lesson_run (lua_State *L, const char *file, const repl_opts *o);

#endif
