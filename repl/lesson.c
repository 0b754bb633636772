/*
** repl/lesson.c -- lesson scripts on a terminal: the hooks behind
** lesson.say / pause / ask (olua_lesson), the caption the live view
** draws, and the section driver of `optlab --lesson file.lua`.
**
** Keys are read from stdin with the terminal in non-canonical mode, no
** echo and no signals (so Ctrl-C arrives as a byte and stops the lesson
** as "interrupted!"), one key at a time; the mode in force before is put
** back before the key is returned.  Outside curses the prompt hint is
** drawn with the ANSI reverse-video and erase-line sequences.
**
** Sections: lines "-- %%" (optionally followed by a title) at the top
** level of the script.  The script is one chunk, so its locals carry from
** one section to the next; each marker line is replaced by a call
** __section(k) (on the same line: error messages keep their line numbers),
** and section k waits, once section k - 1 has run, for space / Right
** (go on), backspace / Left (back) or q (quit).  Going back runs the
** script again from the start: the sections before the one wanted run
** quietly (stdout and stderr to /dev/null, no live view) and the keys the
** lesson's own pauses and polls took there are given back in order, so a
** seeded script reaches the same state.
**
** Invariants: stdout and stderr are the terminal again (quiet_off) before
** any error is reported and before repl_lesson_run returns.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/types.h>
#include <termios.h>
#include <unistd.h>

#include "lauxlib.h"

#include "lesson.h"
#include "screen.h"

#define MAXSEC 200        /* sections of a lesson */
#define MAXKEYS 512       /* keys kept for a quiet replay */
#define ESC_MS 50         /* how long an escape sequence may take */

enum { ACT_NONE, ACT_BACK, ACT_QUIT };

/* The caption (lesson.say), kept for the view until the next call. */
static char caption[2048];

/* The --lesson driver; on is 0 outside it. */
static struct driver {
  int on;
  lua_State *L;
  int n;                  /* sections */
  char *title[MAXSEC + 1];  /* 1 .. n, owned */
  int target;             /* the section shown (1 .. n) */
  int at;                 /* the section running now (0: before the first
                             marker) */
  int quiet;              /* replaying the sections before target */
  int headed;             /* target's header printed in this pass */
  int action;             /* ACT_*: what a section wait asked for */
  int out, err;           /* the terminal's stdout / stderr while quiet */
  const olua_view *view;  /* the live view to put back */
  int key[MAXKEYS], keysec[MAXKEYS];  /* keys the lesson took, and in
                                         which section */
  int nkeys, ikey;        /* kept; given back so far in this pass */
  int fallback;           /* replay past the kept keys: alternate ' ', 'a' */
} D;

/* -- keys ----------------------------------------------------------------- */

/* One byte from fd within ms milliseconds (ms < 0: wait), or -1. */
static int readbyte (int ms)
{
  unsigned char b;
  if (ms >= 0) {
    fd_set fds;
    struct timeval tv;
    FD_ZERO(&fds);
    FD_SET(STDIN_FILENO, &fds);
    tv.tv_sec = ms / 1000;
    tv.tv_usec = (ms % 1000) * 1000;
    if (select(STDIN_FILENO + 1, &fds, NULL, NULL, &tv) <= 0) return -1;
  }
  if (read(STDIN_FILENO, &b, 1) != 1) return -1;
  return b;
}

/* One key from the terminal (see olua_lesson.key); the prompt, if any, in
** reverse video on the current line while waiting. */
static int termkey (const char *prompt)
{
  struct termios old, raw;
  int c, have = tcgetattr(STDIN_FILENO, &old) == 0;
  if (have) {
    raw = old;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    tcsetattr(STDIN_FILENO, TCSANOW, &raw);
  }
  if (prompt != NULL && prompt[0] != '\0') printf("\033[7m%s\033[0m", prompt);
  fflush(stdout);
  c = readbyte(-1);
  if (c == 27) {                       /* ESC [ C, ESC O C: arrows */
    int c2 = readbyte(ESC_MS), c3 = c2 == '[' || c2 == 'O'
                                     ? readbyte(ESC_MS) : -1;
    c = c3 == 'C' ? OLUA_KEY_RIGHT : c3 == 'D' ? OLUA_KEY_LEFT : 27;
  }
  else if (c == 127 || c == 8) c = OLUA_KEY_BACK;
  else if (c == 3 || c == 4 || c < 0) c = OLUA_KEY_INTR;
  else if (c == '\r') c = '\n';
  if (prompt != NULL && prompt[0] != '\0') printf("\r\033[K");
  fflush(stdout);
  if (have) tcsetattr(STDIN_FILENO, TCSANOW, &old);
  return c;
}

/* -- the hooks ------------------------------------------------------------ */

static int hook_width (void *ud)
{
  struct winsize ws;
  (void)ud;
  if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 80;
}

static void hook_caption (void *ud, const char *text)
{
  (void)ud;
  snprintf(caption, sizeof caption, "%s", text != NULL ? text : "");
}

/* A key for the lesson's own pause or poll: given back from the kept ones
** while replaying quietly, else read and (under --lesson) kept. */
static int hook_key (void *ud, const char *prompt)
{
  int c;
  (void)ud;
  if (D.on && D.quiet) {
    if (D.ikey < D.nkeys) return D.key[D.ikey++];
    D.fallback = !D.fallback;
    return D.fallback ? ' ' : 'a';
  }
  c = termkey(prompt);
  if (D.on && c != OLUA_KEY_INTR && D.nkeys < MAXKEYS) {
    D.key[D.nkeys] = c;
    D.keysec[D.nkeys++] = D.at;
    D.ikey = D.nkeys;
  }
  return c;
}

static const olua_lesson hooks = {
  NULL, hook_width, hook_caption, hook_key
};

const olua_lesson *repl_lesson_hooks (const repl_opts *o)
{
  const char *term = getenv("TERM");
  if (o->notui || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
    return NULL;
  if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0)
    return NULL;
  return &hooks;
}

/* -- the caption in the view ---------------------------------------------- */

/* Bytes of the next line of s at most w columns wide (a break at the last
** space that fits, or a hard cut in a longer word); *next: where the line
** after it starts. */
static size_t nextline (const char *s, int w, const char **next)
{
  size_t i = 0, brk = 0;
  int col = 0;
  while (s[i] != '\0' && s[i] != '\n') {
    if ((s[i] & 0xC0) != 0x80) {
      if (col == w) break;
      col++;
    }
    if (s[i] == ' ') brk = i;
    i++;
  }
  if (s[i] != '\0' && s[i] != '\n' && brk > 0) i = brk;
  *next = s + i;
  while (**next == ' ') (*next)++;
  if (**next == '\n') (*next)++;
  return i;
}

int lesson_caption_rows (int rows, int cols)
{
  const char *s = caption, *next;
  int n = 0, max = rows >= 30 ? 3 : 2;
  if (caption[0] == '\0' || cols < 20 || rows < 16) return 0;
  while (*s != '\0' && n < max) {
    nextline(s, cols - 2, &next);
    s = next;
    n++;
  }
  return n;
}

void lesson_caption_draw (int y, int n, int cols)
{
  const char *s = caption, *next;
  char line[1024];
  int i;
  for (i = 0; i < n; i++) {
    size_t len = nextline(s, cols - 2, &next);
    if (len >= sizeof line) len = sizeof line - 1;
    memcpy(line, s, len);
    line[len] = '\0';
    screen_blank(y + i, 0, cols, SC_DEFAULT, 0);
    if (i == n - 1 && *next != '\0') {  /* more than fits: mark it */
      int k = (int)len;
      while (k > 0 && (line[k - 1] & 0xC0) == 0x80) k--;
      if (k > 0) k--;
      while (k > 0 && (line[k] & 0xC0) == 0x80) k--;
      snprintf(line + k, sizeof line - (size_t)k, "%s",
               screen_utf8() ? "\xe2\x80\xa6" : "~");
    }
    screen_puts(y + i, 1, line, cols - 2, SC_TITLE, SA_BOLD);
    s = next;
  }
}

const char *lesson_status (const char *keys, char *buf, size_t size)
{
  if (!D.on || D.target < 1 || D.target > D.n) return keys;
  snprintf(buf, size, " section %d/%d: %s %s %s", D.target, D.n,
           D.title[D.target], screen_utf8() ? "\xc2\xb7" : "|", keys);
  return buf;
}

/* -- the section driver --------------------------------------------------- */

static void quiet_on (void)
{
  int fd;
  if (D.quiet) return;
  fflush(stdout);
  fflush(stderr);
  fd = open("/dev/null", O_WRONLY);
  D.out = dup(STDOUT_FILENO);
  D.err = dup(STDERR_FILENO);
  if (fd < 0 || D.out < 0 || D.err < 0) {
    if (fd >= 0) close(fd);
    if (D.out >= 0) close(D.out);
    if (D.err >= 0) close(D.err);
    return;                            /* not quiet: shown again instead */
  }
  dup2(fd, STDOUT_FILENO);
  dup2(fd, STDERR_FILENO);
  close(fd);
  olua_setview(D.L, NULL);
  D.quiet = 1;
}

static void quiet_off (void)
{
  if (!D.quiet) return;
  fflush(stdout);
  fflush(stderr);
  dup2(D.out, STDOUT_FILENO);
  dup2(D.err, STDERR_FILENO);
  close(D.out);
  close(D.err);
  olua_setview(D.L, D.view);
  D.quiet = 0;
}

static void header (int k)
{
  printf("\033[1m== section %d/%d: %s ==\033[0m\n", k, D.n, D.title[k]);
  fflush(stdout);
  D.headed = 1;
}

/* The wait after a section (k: the one that would come next, D.n + 1 at
** the end): ACT_NONE to go on, ACT_BACK (D.target set), ACT_QUIT, or -1
** for Ctrl-C. */
static int between (int k)
{
  char prompt[320];
  if (k <= D.n)
    snprintf(prompt, sizeof prompt, "[section %d/%d: %s -- space: next "
             "(%s)  backspace: back  q: quit]", D.target, D.n,
             D.title[D.target], D.title[k]);
  else
    snprintf(prompt, sizeof prompt, "[section %d/%d: %s -- end of the "
             "lesson  backspace: back  q or space: quit]", D.target, D.n,
             D.title[D.target]);
  for (;;) {
    int c = termkey(prompt);
    if (c == OLUA_KEY_INTR) return -1;
    if (c == 'q' || c == 'Q') return ACT_QUIT;
    if (c == ' ' || c == '\n' || c == OLUA_KEY_RIGHT)
      return k <= D.n ? ACT_NONE : ACT_QUIT;
    if (c == OLUA_KEY_BACK || c == OLUA_KEY_LEFT) {
      if (D.target > 1) D.target--;
      return ACT_BACK;
    }
  }
}

/* __section(k), the call that replaces marker line k. */
static int l_section (lua_State *L)
{
  int k = (int)luaL_checkinteger(L, 1), a;
  D.at = k;
  if (k < D.target) return 0;          /* replaying quietly */
  if (k == D.target) {
    quiet_off();
    if (!D.headed) header(k);
    return 0;
  }
  a = between(k);
  if (a == -1) return luaL_error(L, "interrupted!");
  if (a == ACT_NONE) {
    D.target = k;
    header(k);
    return 0;
  }
  D.action = a;
  return luaL_error(L, "lesson: %s", a == ACT_BACK ? "back" : "quit");
}

/* The marker's title: what follows "%%" (trimmed), or "section k". */
static char *marker (const char *line, size_t len, int k)
{
  size_t i = 0, j;
  char *t;
  while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
  if (len - i < 2 || strncmp(line + i, "--", 2) != 0) return NULL;
  i += 2;
  while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
  if (len - i < 2 || strncmp(line + i, "%%", 2) != 0) return NULL;
  i += 2;
  while (i < len && (line[i] == ' ' || line[i] == '\t')) i++;
  j = len;
  while (j > i && (line[j - 1] == ' ' || line[j - 1] == '\t' ||
                   line[j - 1] == '\r' || line[j - 1] == '\n')) j--;
  t = malloc(j > i ? j - i + 1 : 24);
  if (t == NULL) return NULL;
  if (j > i) {
    memcpy(t, line + i, j - i);
    t[j - i] = '\0';
  }
  else snprintf(t, 24, "section %d", k);
  return t;
}

/* The script's text as one chunk: "local __section = ...; " before line 1,
** each marker line replaced by "__section(k)", a first line "#..." blanked.
** Pushes it (a string); sets D.n and D.title.  Returns 0, or -1 when the
** file cannot be opened. */
static int prepare (lua_State *L, const char *file)
{
  FILE *f = fopen(file, "rb");
  luaL_Buffer b;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int lineno = 0;
  if (f == NULL) return -1;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "local __section = ...; ");
  while ((len = getline(&line, &cap, f)) >= 0) {
    char *t;
    lineno++;
    if (lineno == 1 && line[0] == '#') {
      luaL_addchar(&b, '\n');
      continue;
    }
    if (D.n < MAXSEC && (t = marker(line, (size_t)len, D.n + 1)) != NULL) {
      D.title[++D.n] = t;
      lua_pushfstring(L, "__section(%d)\n", D.n);
      luaL_addvalue(&b);
      continue;
    }
    luaL_addlstring(&b, line, (size_t)len);
  }
  free(line);
  fclose(f);
  luaL_pushresult(&b);
  if (D.n == 0) {                      /* no markers: one section */
    const char *base = strrchr(file, '/');
    D.title[1] = strdup(base != NULL ? base + 1 : file);
    D.n = D.title[1] != NULL ? 1 : 0;
  }
  return 0;
}

int repl_lesson_run (lua_State *L, const char *file, const repl_opts *o)
{
  int status, i, top = lua_gettop(L);
  if (repl_lesson_hooks(o) == NULL) {  /* headless: a plain script */
    status = luaL_loadfile(L, file);
    if (status == LUA_OK) status = repl_docall(L, 0, 0);
    return repl_report(L, status);
  }
  memset(&D, 0, sizeof D);
  D.L = L;
  errno = 0;
  D.view = repl_view(o);
  if (prepare(L, file) != 0 || D.n == 0) {
    const char *why = errno != 0 ? strerror(errno) : "not enough memory";
    lua_settop(L, top);
    lua_pushfstring(L, "cannot open %s: %s", file, why);
    status = repl_report(L, LUA_ERRFILE);
    goto done;
  }
  D.on = 1;
  D.target = 1;
  for (;;) {
    int a;
    size_t len;
    const char *src = lua_tolstring(L, top + 1, &len);
    for (i = 0; i < D.nkeys && D.keysec[i] < D.target; i++) {}
    D.nkeys = i;                       /* keep the keys before target */
    D.ikey = 0;
    D.fallback = 0;
    D.at = 0;
    D.action = ACT_NONE;
    D.headed = 0;
    if (D.target > 1) quiet_on();
    else header(1);
    lua_pushfstring(L, "@%s", file);
    status = luaL_loadbuffer(L, src, len, lua_tostring(L, -1));
    lua_remove(L, -2);
    if (status == LUA_OK) {
      lua_pushcfunction(L, l_section);
      status = repl_docall(L, 1, 0);
    }
    quiet_off();
    if (status != LUA_OK && D.action != ACT_NONE) {
      lua_pop(L, 1);
      if (D.action == ACT_QUIT) {
        status = LUA_OK;
        break;
      }
      printf("\033[H\033[2J");         /* back: a clean screen */
      continue;
    }
    if (status != LUA_OK) {
      repl_report(L, status);
      break;
    }
    a = between(D.n + 1);
    if (a != ACT_BACK) break;
    printf("\033[H\033[2J");
  }
  lua_settop(L, top);
done:
  for (i = 1; i <= D.n; i++) free(D.title[i]);
  D.on = 0;
  D.n = 0;
  caption[0] = '\0';
  fflush(stdout);
  return status;
}
