/*
** repl/prompt.c -- the interactive loop: Lua 5.4's lua.c REPL rebuilt on
** readline's callback interface inside one pselect() loop on stdin.
**
** Each turn of the loop waits for a key, a signal, or a tick (every
** REPL_TICK_MS while background jobs are not done, see below); keys go to
** rl_callback_read_char.  When readline completes a line, its handler
** removes itself (which puts the terminal back in normal mode), and the
** loop runs the line: first as "return <line>" (an expression whose values
** are printed by the global `pretty` when it exists, else with tostring,
** tab separated), then as a statement; an incomplete statement (syntax error
** at "<eof>") is kept and continued with the ">> " prompt.  Chunks run
** through repl_docall with the terminal in normal mode, so a live view or
** io.read works inside them; the handler is reinstalled afterwards.
**
** Signals: while waiting at the prompt our SIGINT handler replaces the
** program's (Ctrl-C clears the line and shows a fresh prompt) and SIGWINCH
** resizes readline; both are put back before a chunk runs.  readline's
** own signal handling is off (rl_catch_signals = 0).
**
** History: $OPTLAB_HISTORY or ~/.optlab_history, read at start, each line
** appended as it is entered, never more than HISTORY_MAX lines, mode 0600,
** never written through a symbolic link (see history_fd).  When there
** is no such file name (no HOME) or the file cannot be written, stderr
** says once that history is not saved, and the session keeps it in memory.
** Completion: Lua keywords, global names and fields after '.' or ':'
** (walking the dotted prefix, through metatable __index tables, so
** userdata methods complete; a userdata whose __index is a function can
** list its names in a metatable field __fields); ':' offers functions.
**
** Background jobs (start() in Lua): while some are not done the loop
** steps them (olua_jobs_tick, JOB_SLICE seconds per turn, the wait
** becoming a poll while any runs at full speed) and, on a terminal, keeps
** the dashboard (dash.c) open: readline then reads the bytes the loop
** read (rl_getc_function), draws through dash_prompt
** (rl_redisplay_function), lists completions in the output window, and
** leaves the terminal modes to curses (prep/deprep no-ops); its own
** output goes to /dev/null.  Ctrl-G moves the keyboard between the
** prompt and the dashboard; the typed line stays.  Ctrl-C drops the
** typed line; on an empty line (or with the keyboard on the dashboard)
** it stops every job.  Ctrl-D with jobs not done first says which jobs
** it would stop; a second Ctrl-D (no line run between) stops them and
** exits.  PgUp/PgDn scroll the output window.  When the last
** job is done the dashboard closes and the line moves back to the normal
** terminal, text and cursor kept.
**
** Readline keeps its callbacks argument-free, hence the file-level state
** (one interactive loop per process).
*/
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <readline/readline.h>
#include <readline/history.h>

#include "lauxlib.h"
#include "repl.h"
#include "log.h"
#include "dash.h"
#include "screen.h"

#define HISTORY_MAX 1000
#define PROMPT1 "> "
#define PROMPT2 ">> "
#define REPL_TICK_MS 33     /* the loop's wake-up while jobs are not done */
#define JOB_SLICE 0.010     /* seconds of job stepping per turn */
#define KEY_FOCUS 7         /* Ctrl-G: focus prompt <-> dashboard */

static struct {
  lua_State *L;
  char *chunk;              /* pending incomplete statement (malloc) */
  size_t len, cap;
  char *line;               /* line completed by readline (malloc) */
  int eof;                  /* end of input: quit */
  int eofkey;               /* Ctrl-D on an empty line, not acted on yet */
  int confirm;              /* Ctrl-D said what it would stop */
  int installed;            /* readline handler installed */
  char prompt[64];
} lp;

static char hist_path[4096];
static int have_hist;

/* Dashboard mode: readline reads from pend (bytes read by the loop) and
** draws through dash_prompt; its own output goes to /dev/null. */
static struct {
  int allowed, ascii;
  unsigned char pend[4096];
  size_t npend, qpos, qend;  /* readline's window: pend[qpos .. qend) */
  FILE *devnull, *outstream;
} dm;

static volatile sig_atomic_t got_int, got_winch;
static struct sigaction old_int, old_winch;
static int catching;

static void repl_prompt_print (const char *s);

/* -- signals while waiting at the prompt ---------------------------------- */

static volatile sig_atomic_t in_tick;   /* stepping jobs (olua_jobs_tick) */

static void on_int (int sig)
{
  (void)sig;
  repl_intr_mark();
  got_int = 1;
  if (in_tick) repl_intr_tick_signal();
}

static void on_winch (int sig)
{
  (void)sig;
  got_winch = 1;
}

static void catch_signals (void)
{
  struct sigaction sa;
  if (catching) return;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_int;
  sigaction(SIGINT, &sa, &old_int);
  sa.sa_handler = on_winch;
  sigaction(SIGWINCH, &sa, &old_winch);
  catching = 1;
}

static void release_signals (void)
{
  if (!catching) return;
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGWINCH, &old_winch, NULL);
  catching = 0;
}

/* -- history -------------------------------------------------------------- */

/* The history file is optlab's own (readline's history functions open it
** by name, through a symbolic link, and keep an existing file's mode):
** opened with O_NOFOLLOW, so a symbolic link is refused; made mode 0600
** whatever mode it had; and never more than HISTORY_MAX lines (when an
** append would pass it, the file is rewritten with the latest
** HISTORY_MAX - HISTORY_SLACK entries under a temporary name, then renamed
** over it).  Only a regular file is read or rewritten (/dev/full, say, is
** only appended to). */
#define HISTORY_SLACK 100
static long hist_lines;           /* lines in the file */

/* Say once that the history file cannot be written (errno err), and
** stop trying. */
static void history_lost (int err)
{
  if (err == ELOOP)
    fprintf(stderr, "optlab: %s is a symbolic link, which history is never "
            "written through: the prompt's history will not be saved (set "
            "OPTLAB_HISTORY to a regular file)\n", hist_path);
  else
    fprintf(stderr, "optlab: cannot write %s (%s): the prompt's history "
            "will not be saved\n", hist_path, strerror(err));
  have_hist = 0;
}

/* Open the file with flags (O_RDONLY, or O_WRONLY | O_APPEND | O_CREAT),
** never through a symbolic link; a regular file opened for writing is
** made mode 0600.  -1 with errno set on failure. */
static int history_fd (int flags)
{
  struct stat st;
  int fd = open(hist_path, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0 && (flags & O_ACCMODE) != O_RDONLY && fstat(fd, &st) == 0
      && S_ISREG(st.st_mode) && (st.st_mode & 07777) != 0600)
    fchmod(fd, 0600);
  return fd;
}

/* Rewrite a regular history file with the latest keep entries. */
static int history_trim (int keep)
{
  char tmp[sizeof hist_path + 16];
  struct stat st;
  int fd, i, first, err = 0;
  FILE *f;
  if (lstat(hist_path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  snprintf(tmp, sizeof tmp, "%s.XXXXXX", hist_path);
  if ((fd = mkstemp(tmp)) < 0) return errno;          /* mode 0600 */
  if ((f = fdopen(fd, "w")) == NULL) {
    err = errno;
    close(fd);
    unlink(tmp);
    return err;
  }
  first = history_length > keep ? history_length - keep : 0;
  for (i = first; i < history_length; i++) {
    HIST_ENTRY *h = history_get(history_base + i);
    if (h != NULL) fprintf(f, "%s\n", h->line);
  }
  if (fflush(f) != 0 || ferror(f)) err = errno ? errno : EIO;
  if (fclose(f) != 0 && err == 0) err = errno;
  if (err == 0 && rename(tmp, hist_path) != 0) err = errno;
  if (err != 0) {
    unlink(tmp);
    return err;
  }
  hist_lines = history_length - first;
  return 0;
}

static void history_open (void)
{
  const char *p = getenv("OPTLAB_HISTORY"), *home = getenv("HOME");
  struct stat st;
  int fd;
  using_history();
  stifle_history(HISTORY_MAX);
  if (p != NULL && *p != '\0')
    snprintf(hist_path, sizeof hist_path, "%s", p);
  else if (home != NULL && *home != '\0')
    snprintf(hist_path, sizeof hist_path, "%s/.optlab_history", home);
  else {
    fprintf(stderr, "optlab: HOME is not set: the prompt's history will "
            "not be saved (set OPTLAB_HISTORY to a file name)\n");
    return;
  }
  have_hist = 1;
  hist_lines = 0;
  if ((fd = history_fd(O_RDONLY)) >= 0) {
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      FILE *f = fdopen(fd, "r");
      char *line = NULL;
      size_t cap = 0;
      ssize_t len;
      if (f == NULL) close(fd);
      else {
        while ((len = getline(&line, &cap, f)) >= 0) {
          if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
          hist_lines++;
          if (len > 0) add_history(line);
        }
        free(line);
        fclose(f);
      }
    }
    else close(fd);
  }
  else if (errno == ELOOP) {
    history_lost(ELOOP);
    return;
  }
  /* the file made now (0600), or made 0600; kept to its limit */
  if ((fd = history_fd(O_WRONLY | O_APPEND | O_CREAT)) < 0) {
    history_lost(errno);
    return;
  }
  close(fd);
  if (hist_lines > HISTORY_MAX) {
    int err = history_trim(HISTORY_MAX);
    if (err != 0) history_lost(err);
  }
  repl_log("prompt: history %s, %d entries", hist_path, history_length);
}

/* Keep a non-empty line in memory and append it to the file. */
static void history_keep (const char *line)
{
  int fd, err = 0;
  size_t len = strlen(line);
  if (*line == '\0') return;
  add_history(line);
  if (!have_hist) return;
  if (hist_lines + 1 > HISTORY_MAX) {
    if ((err = history_trim(HISTORY_MAX - HISTORY_SLACK)) != 0) {
      history_lost(err);
      return;
    }
    if (hist_lines + 1 <= HISTORY_MAX) return;   /* the line is in it */
  }
  if ((fd = history_fd(O_WRONLY | O_APPEND | O_CREAT)) < 0) {
    history_lost(errno);
    return;
  }
  if (write(fd, line, len) != (ssize_t)len || write(fd, "\n", 1) != 1)
    err = errno ? errno : EIO;
  close(fd);
  if (err != 0) history_lost(err);
  else hist_lines++;
}

/* -- completion ----------------------------------------------------------- */

static const char *const keywords[] = {
  "and", "break", "do", "else", "elseif", "end", "false", "for",
  "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat",
  "return", "then", "true", "until", "while", NULL
};

static struct {
  char **s;
  int *type;
  int n, cap;
} cands;

static void cands_clear (void)
{
  int i;
  for (i = 0; i < cands.n; i++) free(cands.s[i]);
  cands.n = 0;
}

/* Add prefix..key (type: a LUA_T* or -1 for a keyword), once. */
static void cands_add (const char *prefix, size_t plen, const char *key,
                       int type)
{
  size_t klen = strlen(key);
  char *s;
  int i;
  for (i = 0; i < cands.n; i++)
    if (strncmp(cands.s[i], prefix, plen) == 0
        && strcmp(cands.s[i] + plen, key) == 0) return;
  if (cands.n == cands.cap) {
    int cap = cands.cap ? 2 * cands.cap : 64;
    char **ns = realloc(cands.s, (size_t)cap * sizeof *ns);
    int *nt;
    if (ns == NULL) return;
    cands.s = ns;
    nt = realloc(cands.type, (size_t)cap * sizeof *nt);
    if (nt == NULL) return;
    cands.type = nt;
    cands.cap = cap;
  }
  s = malloc(plen + klen + 1);
  if (s == NULL) return;
  memcpy(s, prefix, plen);
  memcpy(s + plen, key, klen + 1);
  cands.s[cands.n] = s;
  cands.type[cands.n] = type;
  cands.n++;
}

static int is_name (const char *s)
{
  const char *p;
  if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
    return 0;
  for (p = s + 1; *p; p++)
    if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
          || (*p >= '0' && *p <= '9'))) return 0;
  return 1;
}

/* Replace the value on top with its field k, raw, following metatable
** __index tables (never calling metamethods).  0 (value popped) when the
** field is absent. */
static int lookup (lua_State *L, const char *k, size_t klen)
{
  int depth;
  for (depth = 0; depth < 8; depth++) {
    if (lua_type(L, -1) == LUA_TTABLE) {
      lua_pushlstring(L, k, klen);
      if (lua_rawget(L, -2) != LUA_TNIL) {
        lua_remove(L, -2);
        return 1;
      }
      lua_pop(L, 1);
    }
    if (luaL_getmetafield(L, -1, "__index") == LUA_TNIL) break;
    if (lua_type(L, -1) != LUA_TTABLE) {
      lua_pop(L, 1);
      break;
    }
    lua_remove(L, -2);
  }
  lua_pop(L, 1);
  return 0;
}

/* Candidates from a metatable's __fields (for userdata whose __index is a
** function): a table mapping names to values, or an array of names;
** with methods, only names mapped to functions. */
static void list_declared (lua_State *L, const char *prefix, size_t plen,
                           const char *field, int methods)
{
  size_t flen = strlen(field);
  if (luaL_getmetafield(L, -1, "__fields") == LUA_TNIL) return;
  if (lua_istable(L, -1)) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      int named = lua_type(L, -2) == LUA_TSTRING;
      const char *k = lua_tostring(L, named ? -2 : -1);
      if (k != NULL && strncmp(k, field, flen) == 0 && is_name(k)
          && (!methods || (named && lua_type(L, -1) == LUA_TFUNCTION)))
        cands_add(prefix, plen, k, named ? lua_type(L, -1) : LUA_TNONE);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/* Candidates among the fields of the value on top (and of its __index
** tables, or declared __fields) whose names start with field. */
static void list_fields (lua_State *L, const char *prefix, size_t plen,
                         const char *field, int methods)
{
  size_t flen = strlen(field);
  int depth;
  for (depth = 0; depth < 8; depth++) {
    list_declared(L, prefix, plen, field, methods);
    if (lua_type(L, -1) == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING) {
          const char *k = lua_tostring(L, -2);
          int t = lua_type(L, -1);
          if (strncmp(k, field, flen) == 0 && is_name(k)
              && (!methods || t == LUA_TFUNCTION))
            cands_add(prefix, plen, k, t);
        }
        lua_pop(L, 1);
      }
    }
    if (luaL_getmetafield(L, -1, "__index") == LUA_TNIL) break;
    if (!lua_istable(L, -1)) break;
  }
}

/* Fill cands with the completions of text. */
static void collect (lua_State *L, const char *text)
{
  const char *sep = NULL, *p, *seg;
  int top = lua_gettop(L), i;
  cands_clear();
  for (p = text; *p; p++)
    if (*p == '.' || *p == ':') sep = p;
  lua_pushglobaltable(L);
  if (sep == NULL) {
    for (i = 0; keywords[i] != NULL; i++)
      if (strncmp(keywords[i], text, strlen(text)) == 0)
        cands_add("", 0, keywords[i], -1);
    list_fields(L, "", 0, text, 0);
  } else {
    for (seg = text; seg < sep; seg = p + 1) {
      for (p = seg; p < sep && *p != '.' && *p != ':'; p++)
        ;
      if (p == seg || !lookup(L, seg, (size_t)(p - seg))) goto done;
    }
    list_fields(L, text, (size_t)(sep - text + 1), sep + 1, *sep == ':');
  }
done:
  lua_settop(L, top);
}

static char *next_candidate (const char *text, int state)
{
  static int i;
  (void)text;
  if (state == 0) i = 0;
  return i < cands.n ? strdup(cands.s[i++]) : NULL;
}

/* Where line[0 .. start) leaves the cursor: at a key of a table
** constructor called on a name path, as in "optim.adam{lr=0.1, b": then
** *path and *plen get the path ("optim.adam") and 1 is returned; otherwise
** 0 (inside a string, a nested bracket, or after "key =").  Strings are
** skipped (quotes with escapes; long strings are not recognised). */
static int ctor_context (const char *line, int start, const char **path,
                         size_t *plen)
{
  char open[64];
  int pos[64], depth = 0, i, q = 0, key = 0;
  for (i = 0; i < start; i++) {
    char c = line[i];
    if (q) {
      if (c == '\\' && i + 1 < start) i++;
      else if (c == q) q = 0;
      continue;
    }
    if (c == '"' || c == '\'') q = c;
    else if (c == '{' || c == '(' || c == '[') {
      if (depth == 64) return 0;
      open[depth] = c;
      pos[depth++] = i;
      key = c == '{';
    }
    else if (c == '}' || c == ')' || c == ']') {
      if (depth > 0) depth--;
      key = 0;
    }
    else if (c == ',' && depth > 0) key = open[depth - 1] == '{';
    else if (c != ' ' && c != '\t') key = 0;
  }
  if (q || depth == 0 || open[depth - 1] != '{' || !key) return 0;
  /* the name path just before the brace */
  i = pos[depth - 1];
  while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t')) i--;
  *plen = 0;
  while (i > 0 && (line[i - 1] == '_' || line[i - 1] == '.'
                   || (line[i - 1] >= 'a' && line[i - 1] <= 'z')
                   || (line[i - 1] >= 'A' && line[i - 1] <= 'Z')
                   || (line[i - 1] >= '0' && line[i - 1] <= '9'))) {
    i--;
    (*plen)++;
  }
  *path = line + i;
  return *plen > 0;
}

/* Fill cands with "name=" for the parameters, starting with text, of the
** constructor at path: the parent table's metatable declares them in
** __params (lua/help.lua: optim, sample, game, problem), name ->
** {names}.  Raw lookups only.  Returns the number found. */
static int collect_params (lua_State *L, const char *path, size_t plen,
                           const char *text)
{
  const char *seg = path, *end = path + plen, *dot, *last = path;
  size_t tlen = strlen(text);
  int top = lua_gettop(L);
  cands_clear();
  for (dot = path; dot < end; dot++)
    if (*dot == '.') last = dot + 1;
  if (last == path) goto done;               /* a bare name: no parent */
  lua_pushglobaltable(L);
  while (seg < last - 1) {
    for (dot = seg; dot < last - 1 && *dot != '.'; dot++)
      ;
    if (dot == seg || !lookup(L, seg, (size_t)(dot - seg))) goto done;
    seg = dot + 1;
  }
  if (luaL_getmetafield(L, -1, "__params") != LUA_TTABLE) goto done;
  lua_pushlstring(L, last, (size_t)(end - last));
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_Integer k, n = (lua_Integer)lua_rawlen(L, -1);
    for (k = 1; k <= n; k++) {
      const char *name;
      lua_rawgeti(L, -1, k);
      name = lua_tostring(L, -1);
      if (name != NULL && strncmp(name, text, tlen) == 0) {
        lua_pushfstring(L, "%s=", name);
        cands_add("", 0, lua_tostring(L, -1), LUA_TNIL);  /* no suffix */
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
  }
done:
  lua_settop(L, top);
  return cands.n;
}

/* readline's attempted-completion hook.  After a unique match, '.'
** follows a table, '(' a function, ' ' a keyword.  At a key of a
** constructor's table (optim.adam{l), the parameter names complete, with
** their '='. */
static char **complete (const char *text, int start, int end)
{
  const char *path;
  size_t plen;
  (void)end;
  rl_attempted_completion_over = 1;
  rl_completion_append_character = '\0';
  if (!(ctor_context(rl_line_buffer, start, &path, &plen)
        && collect_params(lp.L, path, plen, text) > 0))
    collect(lp.L, text);
  if (cands.n == 0) return NULL;
  if (cands.n == 1) {
    int t = cands.type[0];
    rl_completion_append_character = t == LUA_TTABLE ? '.'
      : t == LUA_TFUNCTION ? '(' : t == -1 ? ' ' : '\0';
  }
  return rl_completion_matches(text, next_candidate);
}

/* -- running lines -------------------------------------------------------- */

static void on_line (char *line)
{
  rl_callback_handler_remove();
  lp.installed = 0;
  if (line == NULL) lp.eofkey = 1;
  else lp.line = line;
}

static void set_prompt (lua_State *L, int first)
{
  const char *p;
  lua_getglobal(L, first ? "_PROMPT" : "_PROMPT2");
  p = lua_tostring(L, -1);
  snprintf(lp.prompt, sizeof lp.prompt, "%s",
           p != NULL ? p : first ? PROMPT1 : PROMPT2);
  lua_pop(L, 1);
}

static void install (lua_State *L)
{
  set_prompt(L, lp.len == 0);
  fflush(stdout);
  fflush(stderr);
  catch_signals();
  rl_callback_handler_install(lp.prompt, on_line);
  lp.installed = 1;
  {
    double ms = repl_intr_answered();
    if (ms >= 0) repl_log("ctrl-c: a fresh prompt %.1f ms after the signal",
                          ms);
  }
}

static int chunk_append (const char *s)
{
  size_t n = strlen(s), need = lp.len + n + 2;
  if (need > lp.cap) {
    size_t cap = need * 2;
    char *c = realloc(lp.chunk, cap);
    if (c == NULL) return -1;
    lp.chunk = c;
    lp.cap = cap;
  }
  if (lp.len > 0) lp.chunk[lp.len++] = '\n';
  memcpy(lp.chunk + lp.len, s, n + 1);
  lp.len += n;
  return 0;
}

static void chunk_reset (void)
{
  lp.len = 0;
  if (lp.chunk != NULL) lp.chunk[0] = '\0';
}

/* 1 when status is a syntax error at the end of the chunk (pops it). */
static int incomplete (lua_State *L, int status)
{
  static const char mark[] = "<eof>";
  size_t lmsg, lmark = sizeof mark - 1;
  const char *msg;
  if (status != LUA_ERRSYNTAX) return 0;
  msg = lua_tolstring(L, -1, &lmsg);
  if (msg != NULL && lmsg >= lmark && strcmp(msg + lmsg - lmark, mark) == 0) {
    lua_pop(L, 1);
    return 1;
  }
  return 0;
}

/* Print the values base+1 .. top: through the global `pretty` (which
** prints its arguments tab separated) when it is a function, else with
** tostring, tab separated.  Nothing when the one value is the run whose
** last frame and summary the view just left on the screen (OLUA_SHOWN). */
static void print_results (lua_State *L, int base)
{
  int n = lua_gettop(L) - base, i, shown;
  if (n <= 0) return;
  lua_getfield(L, LUA_REGISTRYINDEX, OLUA_SHOWN);
  shown = n == 1 && !lua_isnil(L, -1) && lua_rawequal(L, -1, base + 1);
  lua_pop(L, 1);
  if (shown) return;
  luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
  if (lua_getglobal(L, "pretty") == LUA_TFUNCTION) {
    lua_insert(L, base + 1);
    if (lua_pcall(L, n, 0, 0) != LUA_OK) {
      lua_pushfstring(L, "error calling 'pretty' (%s)",
                      lua_tostring(L, -1));
      lua_remove(L, -2);
      repl_report(L, LUA_ERRRUN);
    }
    fflush(stdout);
    return;
  }
  lua_pop(L, 1);
  for (i = 1; i <= n; i++) {
    size_t len;
    const char *s = luaL_tolstring(L, base + i, &len);
    if (i > 1) fputc('\t', stdout);
    fwrite(s, 1, len, stdout);
    lua_pop(L, 1);
  }
  fputc('\n', stdout);
  fflush(stdout);
}

/* Run the function on top (a compiled chunk), print its results or
** report its error; leaves the stack as it was below the function. */
static void execute (lua_State *L)
{
  int base = lua_gettop(L) - 1, status;
  release_signals();
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, OLUA_SHOWN);
  status = repl_docall(L, 0, LUA_MULTRET);
  if (status == LUA_OK) print_results(L, base);
  else repl_report(L, status);
  lua_pushnil(L);                       /* (the run is not kept alive) */
  lua_setfield(L, LUA_REGISTRYINDEX, OLUA_SHOWN);
  fflush(stdout);
  fflush(stderr);
  lua_settop(L, base);
}

/* A "?x" line, as Julia's help mode: help("x") for a name path (?adam,
** ?optim.adam, ?run, ?r), help(x) for another expression (?optim.adam{}),
** help() for "?" alone. */
static void help_line (lua_State *L, const char *text)
{
  const char *s = text, *e, *p;
  int path = 1, status;
  while (*s == ' ' || *s == '\t') s++;
  e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == ';')) e--;
  for (p = s; p < e; p++)
    if (!(*p == '_' || *p == '.' || *p == ':' || (*p >= 'a' && *p <= 'z')
          || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
      path = 0;
  if (s == e) lua_pushliteral(L, "help()");
  else lua_pushfstring(L, path ? "help(\"%s\")" : "help(%s)",
                       lua_pushlstring(L, s, (size_t)(e - s)));
  status = luaL_loadbuffer(L, lua_tostring(L, -1), lua_rawlen(L, -1),
                           "=stdin");
  lua_remove(L, -2);                  /* the chunk's text */
  if (s != e) lua_remove(L, -2);      /* the text after '?' */
  if (status == LUA_OK) execute(L);
  else repl_report(L, status);
}

static void run_line (lua_State *L, const char *line)
{
  int status;
  history_keep(line);
  if (lp.len == 0 && line[0] == '?') {
    help_line(L, line + 1);
    return;
  }
  if (lp.len == 0) {
    const char *ret = lua_pushfstring(L, "return %s", line);
    status = luaL_loadbuffer(L, ret, strlen(ret), "=stdin");
    lua_remove(L, -2);
    if (status == LUA_OK) {
      execute(L);
      return;
    }
    lua_pop(L, 1);
  }
  if (chunk_append(line) != 0) {
    chunk_reset();
    return;
  }
  status = luaL_loadbuffer(L, lp.chunk, lp.len, "=stdin");
  if (incomplete(L, status)) return;
  if (status == LUA_OK && strchr(lp.chunk, '\n') != NULL) {
    /* a multi-line expression shows its value, as a one-line one does */
    const char *ret = lua_pushfstring(L, "return %s", lp.chunk);
    if (luaL_loadbuffer(L, ret, strlen(ret), "=stdin") == LUA_OK) {
      lua_remove(L, -2);                /* the text */
      lua_remove(L, -2);                /* the chunk as a statement */
      chunk_reset();
      execute(L);
      return;
    }
    lua_pop(L, 2);                      /* the message and the text */
  }
  chunk_reset();
  if (status == LUA_OK) execute(L);
  else repl_report(L, status);
}

/* Echo the prompt and line into the dashboard's output window. */
static void dash_echo (const char *line, const char *tail)
{
  char buf[512];
  snprintf(buf, sizeof buf, "%s%s%s\n", lp.prompt, line, tail);
  dash_print(buf);
}

/* Ctrl-C at the prompt: drop the line (and any pending statement), show a
** fresh prompt.  On an empty line while jobs run, or with the keyboard on
** the dashboard, stop the jobs instead. */
static void interrupt_line (lua_State *L)
{
  int dash = dash_is_open();
  got_int = 0;
  if ((dash && dash_focus()) || (rl_end == 0 && lp.len == 0
                                 && olua_jobs_count(L, NULL) > 0)) {
    if (olua_jobs_ctl(L, 0, OLUA_JOB_STOP) > 0) {
      if (dash) dash_print("^C: jobs stopped\n");
      else repl_prompt_print("^C: jobs stopped\n");
    }
    if (dash) dash_set_focus(0);
    {
      double ms = repl_intr_answered();
      if (ms >= 0) repl_log("ctrl-c: jobs stopped %.1f ms after the signal",
                            ms);
    }
    return;
  }
  if (dash) {
    char *t = rl_copy_text(0, rl_end);
    dash_echo(t != NULL ? t : "", "^C");
    free(t);
  }
  else {
    rl_point = rl_end;
    rl_redisplay();
    fputs("^C", rl_outstream);
    fflush(rl_outstream);
  }
  rl_free_line_state();
  rl_callback_sigcleanup();
  if (!dash) rl_cleanup_after_signal();
  rl_replace_line("", 0);
  rl_point = 0;
  rl_callback_handler_remove();
  lp.installed = 0;
  if (!dash) fputs("\n", stdout);
  chunk_reset();
  using_history();
  install(L);
}

/* -- dashboard mode ------------------------------------------------------- */

static int dm_getc (FILE *f)
{
  unsigned char c;
  if (dm.qpos < dm.qend) return dm.pend[dm.qpos++];
  return read(fileno(f), &c, 1) == 1 ? c : EOF;
}

static int dm_avail (void)
{
  return dm.qpos < dm.qend;
}

static void dm_prep (int meta)
{
  (void)meta;
}

static void dm_deprep (void)
{
}

static void dm_redisplay (void)
{
  dash_prompt(rl_display_prompt != NULL ? rl_display_prompt : lp.prompt,
              rl_line_buffer, rl_point);
}

/* Completion matches (matches[1..n]) in columns in the output window. */
static void dm_matches (char **matches, int n, int maxlen)
{
  char line[512];
  int rows, cols, per, i, len = 0;
  char *t = rl_copy_text(0, rl_end);
  dash_echo(t != NULL ? t : "", "");
  free(t);
  screen_size(&rows, &cols);
  per = cols / (maxlen + 2);
  if (per < 1) per = 1;
  for (i = 1; i <= n; i++) {
    len += snprintf(line + len, sizeof line - (size_t)len, "%-*s",
                    maxlen + 2, matches[i]);
    if (i % per == 0 || i == n || len > (int)sizeof line - 2 * maxlen - 8) {
      line[len] = '\0';
      dash_print(line);
      dash_print("\n");
      len = 0;
    }
  }
  rl_forced_update_display();
}

static void dm_hooks (int on)
{
  if (on) {
    if (dm.devnull == NULL) dm.devnull = fopen("/dev/null", "w");
    dm.outstream = rl_outstream;
    rl_getc_function = dm_getc;
    rl_input_available_hook = dm_avail;
    rl_redisplay_function = dm_redisplay;
    rl_prep_term_function = dm_prep;
    rl_deprep_term_function = dm_deprep;
    rl_completion_display_matches_hook = dm_matches;
    if (dm.devnull != NULL) rl_outstream = dm.devnull;
  }
  else {
    rl_getc_function = rl_getc;
    rl_input_available_hook = NULL;
    rl_redisplay_function = rl_redisplay;
    rl_prep_term_function = rl_prep_terminal;
    rl_deprep_term_function = rl_deprep_terminal;
    rl_completion_display_matches_hook = NULL;
    rl_outstream = dm.outstream;
  }
}

/* Open (on) or close the dashboard, keeping the line being typed. */
static void dm_switch (lua_State *L, int on)
{
  char *saved = NULL;
  int point = 0, had = lp.installed;
  if (had) {
    saved = rl_copy_text(0, rl_end);
    point = rl_point;
    rl_callback_handler_remove();
    lp.installed = 0;
  }
  if (on) {
    if (dash_open(L, dm.ascii) == 0) dm_hooks(1);
    else dm.allowed = 0;
  }
  else {
    dm_hooks(0);
    dash_close();
  }
  dm.npend = dm.qpos = dm.qend = 0;
  if (had) {
    install(L);
    if (saved != NULL && *saved != '\0') {
      rl_replace_line(saved, 0);
      rl_point = point;
      rl_forced_update_display();
    }
  }
  free(saved);
}

/* The dashboard is up exactly while jobs are not done. */
static void dm_sync (lua_State *L, int njobs)
{
  if (njobs > 0 && dm.allowed && !dash_is_open()) dm_switch(L, 1);
  else if (njobs == 0 && dash_is_open()) dm_switch(L, 0);
}

/* Hand the pending bytes to their owner until none is left or a line is
** complete: Ctrl-G switches focus, the dashboard takes its keys, readline
** the rest. */
static void dm_feed (lua_State *L)
{
  size_t i = 0;
  while (i < dm.npend && lp.line == NULL && !lp.eof && !lp.eofkey
         && dash_is_open()) {
    int k;
    if (dm.pend[i] == KEY_FOCUS) {
      dash_set_focus(!dash_focus());
      i++;
    }
    else if ((k = dash_scrollkey(dm.pend + i, (int)(dm.npend - i))) > 0)
      i += (size_t)k;
    else if (dash_focus())
      i += (size_t)dash_key(L, dm.pend + i, (int)(dm.npend - i));
    else if (!lp.installed) break;
    else {
      dm.qpos = i;
      for (dm.qend = i; dm.qend < dm.npend && dm.pend[dm.qend] != KEY_FOCUS
           && !(dm.qend > i && dm.pend[dm.qend] == 27); dm.qend++) {}
      rl_callback_read_char();
      i = dm.qpos > i ? dm.qpos : i + 1;
      dm.qpos = dm.qend = 0;
    }
  }
  if (i >= dm.npend || !dash_is_open()) dm.npend = 0;
  else {
    memmove(dm.pend, dm.pend + i, dm.npend - i);
    dm.npend -= i;
  }
}

static void dm_read (lua_State *L)
{
  ssize_t k = read(STDIN_FILENO, dm.pend + dm.npend,
                   sizeof dm.pend - dm.npend);
  if (k == 0) lp.eof = 1;
  if (k <= 0) return;
  dm.npend += (size_t)k;
  dm_feed(L);
}

static void leave (void)
{
  if (lp.installed) {
    rl_callback_handler_remove();
    lp.installed = 0;
  }
}

/* Ctrl-D on an empty line: quit, unless jobs are not done and this is
** the first Ctrl-D since a line was run; then say which jobs a second one
** stops ("2 jobs running (#1 adam, #3 nag): Ctrl-D again to stop them and
** quit") and go on. */
static void take_eof (lua_State *L)
{
  static olua_job jb[64];
  char msg[512];
  int n, running, i, len;
  lp.eofkey = 0;
  n = olua_jobs_count(L, &running);
  if (n == 0 || lp.confirm) {
    lp.eof = 1;
    return;
  }
  n = olua_jobs_list(L, jb, 64);
  len = snprintf(msg, sizeof msg, "%d job%s %s (", n, n == 1 ? "" : "s",
                 running == n ? "running" : "not done");
  for (i = 0; i < n && len < (int)sizeof msg - 80; i++)
    len += snprintf(msg + len, sizeof msg - (size_t)len, "%s#%d %s%s",
                    i > 0 ? ", " : "", jb[i].id, jb[i].method,
                    jb[i].state == OLUA_JOB_PAUSED ? " paused" : "");
  snprintf(msg + len, sizeof msg - (size_t)len, "%s): Ctrl-D again to stop "
           "%s and quit\n", i < n ? ", ..." : "", n == 1 ? "it" : "them");
  lp.confirm = 1;
  if (dash_is_open()) {
    dash_echo("", "");
    dash_print(msg);
  }
  else {
    fputs("\n", stdout);
    fputs(msg, stdout);
    fflush(stdout);
  }
  install(L);
}

/* Run the line readline completed (in dashboard mode, echoed first). */
static void take_line (lua_State *L, int top)
{
  char *line = lp.line;
  lp.line = NULL;
  lp.confirm = 0;
  if (dash_is_open()) dash_echo(line, "");
  run_line(L, line);
  free(line);
  lua_settop(L, top);
  if (dash_is_open()) dash_dirty();
  install(L);
}

void repl_loop (lua_State *L, const repl_opts *o)
{
  sigset_t block, old;
  double last_job = ol_now();
  int top = lua_gettop(L);
  repl_log_open(o);
  screen_guard();
  atexit(leave);
  lp.L = L;
  chunk_reset();
  dm.allowed = repl_view(o) != NULL;
  dm.ascii = o->ascii;
  rl_readline_name = "optlab";
  rl_catch_signals = 0;
  rl_catch_sigwinch = 0;
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = " \t\n\"\\'`@$><=;|&{}()[],+-*/%^~#";
  rl_completer_word_break_characters = rl_basic_word_break_characters;
  history_open();
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGWINCH);
  install(L);
  while (!lp.eof) {
    fd_set rfds;
    struct timespec ts, *tsp = NULL;
    int n = -1, err = EINTR, running = 0, njobs, busy;
    /* (0) jobs: the dashboard is up while some are not done; stepping
    ** at full speed makes the wait a poll */
    njobs = olua_jobs_count(L, &running);
    dm_sync(L, njobs);
    busy = running > 0 && (!dash_is_open() || olua_jobs_busy(L) > 0);
    FD_ZERO(&rfds);
    FD_SET(STDIN_FILENO, &rfds);
    if (busy || njobs > 0) {
      ts.tv_sec = 0;
      ts.tv_nsec = busy ? 0 : REPL_TICK_MS * 1000000L;
      tsp = &ts;
    }
    /* (1) wait, with SIGINT/SIGWINCH deliverable only inside pselect */
    sigprocmask(SIG_BLOCK, &block, &old);
    if (!got_int && !got_winch) {
      n = pselect(STDIN_FILENO + 1, &rfds, NULL, NULL, tsp, &old);
      err = n < 0 ? errno : 0;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    /* (2) signals */
    if (got_int) interrupt_line(L);
    if (got_winch) {
      got_winch = 0;
      if (dash_is_open()) {
        screen_winch();
        dash_dirty();
      }
      else rl_resize_terminal();
    }
    /* (3) a slice of job steps, then the dashboard */
    if (running > 0 && (busy || ol_now() - last_job >= REPL_TICK_MS * 1e-3)) {
      last_job = ol_now();
      repl_intr_tick(1);
      in_tick = 1;
      olua_jobs_tick(L, JOB_SLICE, dash_is_open());
      in_tick = 0;
      repl_intr_tick(0);
    }
    if (dash_is_open()) dash_tick(L);
    if (n < 0 && err != EINTR) break;
    if (n <= 0) continue;
    /* (4) a key for readline (or the dashboard); a finished line runs now */
    if (dash_is_open()) {
      dm_read(L);
      while (lp.line != NULL || lp.eofkey) {
        if (lp.line != NULL) take_line(L, top);
        else take_eof(L);
        if (lp.eof) break;
        dm_feed(L);
      }
    }
    else {
      rl_callback_read_char();
      if (lp.line != NULL) take_line(L, top);
      else if (lp.eofkey) take_eof(L);
    }
  }
  /* Ctrl-D: jobs still going are stopped, the terminal restored */
  if (olua_jobs_ctl(L, 0, OLUA_JOB_STOP) > 0)
    repl_log("prompt: jobs stopped at exit");
  if (dash_is_open()) {
    dm_hooks(0);
    dash_close();
  }
  fputc('\n', stdout);
  leave();
  release_signals();
  free(lp.chunk);
  lp.chunk = NULL;
  lp.cap = lp.len = 0;
  cands_clear();
  repl_log("prompt: end of input");
}

/* Print s above the prompt line, keeping what the user is typing. */
static void repl_prompt_print (const char *s)
{
  char *saved;
  int point;
  if (dash_is_open()) {
    dash_print(s);
    return;
  }
  if (!lp.installed) {
    fputs(s, stdout);
    fflush(stdout);
    return;
  }
  point = rl_point;
  saved = rl_copy_text(0, rl_end);
  rl_save_prompt();
  rl_replace_line("", 0);
  rl_redisplay();
  fputs(s, stdout);
  fflush(stdout);
  rl_restore_prompt();
  rl_replace_line(saved != NULL ? saved : "", 0);
  rl_point = point;
  rl_forced_update_display();
  free(saved);
}
