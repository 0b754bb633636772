/*
** lua/lutil.c -- the helpers the binding files share (declared in
** lbind.h).
**
** Checking what users pass (unknown keys listing the valid ones, choice
** errors, file names, number arrays and sequences without holes, a
** scalar against its ol_param entry), echoing it in messages (cut to
** OLUA_ECHOMAX), pushing vectors, the traceback handler, the info
** tables help() shows (olua_pushinfo), and writing a file whole or not
** at all (olua_wopen .. olua_wcommit, olua_writefile), which every
** exporter and --tasks slice uses.  Every message users see for a
** misspelt key or an out-of-range value is spelt here, once.  No module
** state: each function works on the stack it is given.
*/
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lbind.h"
#include "ltask.h"

/* Push s, cut to OLUA_ECHOMAX bytes with "..." when longer: how error
** messages echo what they were given.  Returns the pushed string. */
const char *olua_pushshort (lua_State *L, const char *s)
{
  size_t len = strlen(s);
  if (len <= OLUA_ECHOMAX) return lua_pushstring(L, s);
  lua_pushlstring(L, s, OLUA_ECHOMAX);
  lua_pushliteral(L, "...");
  lua_concat(L, 2);
  return lua_tostring(L, -1);
}

/* Raise "<where><message on top of the stack> (valid: a, b, c)"; pops
** the message; where is the calling Lua code's "file:line:".  The one
** place choice errors are spelled. */
int olua_choicerror (lua_State *L, const char *const *valid)
{
  luaL_Buffer b;
  int i;
  luaL_buffinit(L, &b);
  lua_insert(L, -2);           /* the buffer's box below the message */
  luaL_where(L, 1);
  luaL_addvalue(&b);
  luaL_addvalue(&b);
  if (valid[0] == NULL) luaL_addstring(&b, " (none is valid)");
  else {
    luaL_addstring(&b, " (valid: ");
    for (i = 0; valid[i] != NULL; i++) {
      if (i > 0) luaL_addstring(&b, ", ");
      luaL_addstring(&b, valid[i]);
    }
    luaL_addchar(&b, ')');
  }
  luaL_pushresult(&b);
  return lua_error(L);
}

/* Raise the "unknown key" error listing the valid keys. */
int olua_unknownkey (lua_State *L, const char *who, const char *what,
                     const char *key, const char *const *valid)
{
  olua_pushshort(L, key);
  lua_pushfstring(L, "%s: unknown %s '%s'", who, what, lua_tostring(L, -1));
  lua_remove(L, -2);
  return olua_choicerror(L, valid);
}

/* The file name at idx; raises when it is not a string or holds a NUL
** (which would cut the name the file is opened by).  "/dev/null" in a
** process that writes nothing (an MPI rank > 0, a --tasks slice:
** olua_task_quiet), so a script's saves are made once, by rank 0. */
const char *olua_checkfilename (lua_State *L, int idx, const char *who)
{
  size_t len;
  const char *s;
  if (lua_type(L, idx) != LUA_TSTRING)
    luaL_error(L, "%s: a file name expected, got %s", who,
               lua_isnoneornil(L, idx) ? "nothing"
               : lua_pushfstring(L, "a %s", luaL_typename(L, idx)));
  s = lua_tolstring(L, idx, &len);
  if (strlen(s) != len)
    luaL_error(L, "%s: the file name contains a NUL character", who);
  return olua_task_quiet() ? "/dev/null" : s;
}

/* Flat table of numbers at idx -> new userdata buffer (left on the stack,
** so it is freed by the GC whatever happens). */
double *olua_checkarray (lua_State *L, int idx, const char *who,
                         const char *key, int *len)
{
  double *a;
  lua_Integer i, n;
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    luaL_error(L, "%s: %s must be a table of numbers, got a %s", who, key,
               luaL_typename(L, idx));
  n = (lua_Integer)lua_rawlen(L, idx);
  if (n > 100000000)
    luaL_error(L, "%s: %s has %I entries, more than 100000000", who, key, n);
  olua_checkseq(L, idx, who, key, n);
  a = lua_newuserdatauv(L, (size_t)(n > 0 ? n : 1) * sizeof(double), 0);
  for (i = 1; i <= n; i++) {
    int isnum;
    lua_rawgeti(L, idx, i);
    a[i - 1] = lua_tonumberx(L, -1, &isnum);
    if (!isnum)
      luaL_error(L, "%s: %s[%d] must be a number, got %s", who, key,
                 (int)i, lua_isnil(L, -1) ? "nil (a hole)"
                 : lua_pushfstring(L, "a %s", luaL_typename(L, -1)));
    lua_pop(L, 1);
  }
  *len = (int)n;
  return a;
}

/* Raise unless the table at idx of length n (lua_rawlen) has no numeric
** key outside 1..n: {[1] = a, [3] = b} has a hole, whatever its length
** says.  Other keys (names) are left alone. */
void olua_checkseq (lua_State *L, int idx, const char *who, const char *key,
                    lua_Integer n)
{
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TNUMBER) {
      int isint;
      lua_Integer k = lua_tointegerx(L, -1, &isint);
      if (!isint || k < 1 || k > n) {
        if (isint && k > n)
          luaL_error(L, "%s: %s has a hole: [%I] is set but [%I] is nil",
                     who, key, k, n + 1);
        luaL_error(L, "%s: %s has the key [%s], expected entries 1..%I",
                   who, key, luaL_tolstring(L, -1, NULL), n);
      }
    }
  }
}

/* Index of s among the '|'-separated choices, or -1. */
static int findchoice (const char *choices, const char *s)
{
  size_t len = strlen(s);
  int k = 0;
  const char *c = choices;
  while (c != NULL && *c) {
    const char *bar = strchr(c, '|');
    size_t cl = bar ? (size_t)(bar - c) : strlen(c);
    if (cl == len && strncmp(c, s, len) == 0) return k;
    k++;
    c = bar ? bar + 1 : NULL;
  }
  return -1;
}

/* Read the scalar value at idx for parameter pd into *v and check it;
** raises "<who>: <ol_param_check message>" when it is out of range. */
int olua_readparam (lua_State *L, int idx, const char *who,
                    const ol_param *pd, double *v)
{
  ol_err e;
  int isnum;
  if (pd->kind == OL_P_ENUM && lua_type(L, idx) == LUA_TSTRING) {
    int k = findchoice(pd->choices, lua_tostring(L, idx));
    if (k < 0)
      return luaL_error(L, "%s: %s = '%s' is not one of %s", who, pd->name,
                        olua_pushshort(L, lua_tostring(L, idx)),
                        pd->choices);
    *v = k;
    return 0;
  }
  if (pd->kind == OL_P_BOOL && lua_isboolean(L, idx)) {
    *v = lua_toboolean(L, idx);
    return 0;
  }
  *v = lua_tonumberx(L, idx, &isnum);
  if (!isnum || lua_type(L, idx) != LUA_TNUMBER)
    return luaL_error(L, "%s: %s must be a %s, got a %s", who, pd->name,
                      pd->kind == OL_P_BOOL ? "boolean"
                      : pd->kind == OL_P_ENUM ? "string" : "number",
                      luaL_typename(L, idx));
  if (ol_param_check(pd, *v, &e) != OL_OK)
    return luaL_error(L, "%s: %s", who, e.msg);
  return 0;
}

static const char *const kindnames[] = {
  "real", "int", "bool", "enum", "vector", "matrix"
};

/* Push a list of parameter descriptions for help(): {name, kind,
** default, lo, hi, range, open_lo, open_hi, choices, doc}; range is
** ol_param_range's text ("(0, inf)", "(-inf, inf)" for no bound). */
static void pushparams (lua_State *L, const ol_param *pt, int np)
{
  int i;
  lua_createtable(L, np, 0);
  for (i = 0; i < np; i++) {
    const ol_param *pd = &pt[i];
    lua_createtable(L, 0, 8);
    lua_pushstring(L, pd->name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, pd->kind >= 0 && pd->kind <= OL_P_MATRIX
                   ? kindnames[pd->kind] : "?");
    lua_setfield(L, -2, "kind");
    if (pd->kind == OL_P_ENUM && pd->choices != NULL) {
      const char *c = pd->choices;
      int k = 0, j = 1;
      lua_newtable(L);
      while (c && *c) {
        const char *bar = strchr(c, '|');
        size_t cl = bar ? (size_t)(bar - c) : strlen(c);
        lua_pushlstring(L, c, cl);
        if (k == (int)pd->def) lua_setfield(L, -3, "default");
        else lua_pop(L, 1);
        lua_pushlstring(L, c, cl);
        lua_rawseti(L, -2, j++);
        k++;
        c = bar ? bar + 1 : NULL;
      }
      lua_setfield(L, -2, "choices");
    }
    else if (pd->kind == OL_P_BOOL) {
      lua_pushboolean(L, pd->def != 0);
      lua_setfield(L, -2, "default");
    }
    else if (pd->kind == OL_P_REAL || pd->kind == OL_P_INT) {
      if (pd->kind == OL_P_INT) lua_pushinteger(L, (lua_Integer)pd->def);
      else lua_pushnumber(L, pd->def);
      lua_setfield(L, -2, "default");
      lua_pushnumber(L, pd->lo);
      lua_setfield(L, -2, "lo");
      lua_pushnumber(L, pd->hi);
      lua_setfield(L, -2, "hi");
      {
        /* (formatted once: every start makes these for every parameter) */
        char range[80];
        size_t len;
        lua_pushstring(L, ol_param_range(pd, range, sizeof range));
        lua_setfield(L, -2, "range");
        len = strlen(range);
        lua_pushboolean(L, range[0] == '(');
        lua_setfield(L, -2, "open_lo");
        lua_pushboolean(L, len > 0 && range[len - 1] == ')');
        lua_setfield(L, -2, "open_hi");
      }
    }
    lua_pushstring(L, pd->doc ? pd->doc : "");
    lua_setfield(L, -2, "doc");
    lua_rawseti(L, -2, i + 1);
  }
}

/* Push the info table {name, family, kind, doc, ref, params} shared by
** problem types and method types (used by help). */
void olua_pushinfo (lua_State *L, const char *name, const char *family,
                    const char *doc, const char *ref, const ol_param *pt,
                    int np)
{
  lua_createtable(L, 0, 6);
  lua_pushstring(L, name);
  lua_setfield(L, -2, "name");
  lua_pushstring(L, family);
  lua_setfield(L, -2, "family");
  lua_pushstring(L, doc ? doc : "");
  lua_setfield(L, -2, "doc");
  if (ref != NULL) {
    lua_pushstring(L, ref);
    lua_setfield(L, -2, "ref");
  }
  pushparams(L, pt, np);
  lua_setfield(L, -2, "params");
}

/* Raise "<who>: unknown parameter '<key>' (valid: <names of pt>)". */
int olua_unknownparam (lua_State *L, const char *who, const char *key,
                       const ol_param *pt, int np)
{
  const char *names[65];
  int i;
  if (np == 0) {
    luaL_where(L, 1);
    lua_pushfstring(L, "%s: unknown parameter '%s' (%s takes no "
                    "parameters)", who, olua_pushshort(L, key), who);
    lua_remove(L, -2);
    lua_concat(L, 2);
    return lua_error(L);
  }
  for (i = 0; i < np && i < 64; i++) names[i] = pt[i].name;
  names[i] = NULL;
  return olua_unknownkey(L, who, "parameter", key, names);
}

/* Format value v of parameter pd into buf ("0.01", "true", "cosine"). */
void olua_fmtparam (const ol_param *pd, double v, char *buf, size_t sz)
{
  const char *c;
  int k;
  switch (pd->kind) {
  case OL_P_BOOL:
    snprintf(buf, sz, "%s", v != 0 ? "true" : "false");
    return;
  case OL_P_INT:
    snprintf(buf, sz, "%.0f", v);
    return;
  case OL_P_ENUM:
    for (c = pd->choices, k = 0; c != NULL && *c; k++) {
      const char *bar = strchr(c, '|');
      int cl = bar ? (int)(bar - c) : (int)strlen(c);
      if (k == (int)v) {
        snprintf(buf, sz, "%.*s", cl, c);
        return;
      }
      c = bar ? bar + 1 : NULL;
    }
    snprintf(buf, sz, "%g", v);
    return;
  default:
    snprintf(buf, sz, "%.6g", v);
  }
}

/* Push the n doubles of x as a new sequence. */
void olua_pushvec (lua_State *L, const double *x, int n)
{
  int i;
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, x[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

/* Traceback message handler (as lua.c's msghandler, but an interrupt
** is said without a traceback); also the program's
** (repl/main.c). */
int olua_msghandler (lua_State *L)
{
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      return 1;
    msg = lua_pushfstring(L, "(error object is a %s value)",
                          luaL_typename(L, 1));
  }
  else {                 /* Ctrl-C: where it landed tells the user nothing */
    size_t len = strlen(msg), k = sizeof "interrupted!" - 1;
    if (len >= k && strcmp(msg + len - k, "interrupted!") == 0) return 1;
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* == writing files whole or not at all ====================================
** Every exporter (r:save, race:save, a sweep's and a repeats' save,
** save_draws, r:plot{file=}) and every --tasks slice writes through
** these.  The bytes go to a temporary file beside the target
** (".<name>.XXXXXX" in the same directory, so that the rename is atomic),
** every write is checked, the file is flushed to disk (fsync) and closed,
** then renamed onto the target: a reader sees the old file or the whole
** new one, never a part.  On any failure the temporary is removed and
** "<who>: cannot write <file>: <OS reason>" is raised, followed by "; the
** file there is left as it was" when there was one.  A target that
** exists and is not a regular file (/dev/null, a terminal, a FIFO) is
** written in place; a symbolic link is followed, the file it names
** replaced (the link stays).  The new file keeps the mode of the one it
** replaces, or gets 0666 less the umask as fopen's would.  (A process
** that writes nothing, olua_task_quiet, is given /dev/null by
** olua_checkfilename.)  The writer is a to-be-closed userdata on the
** stack, so an error raised while writing (Ctrl-C, out of memory)
** removes the temporary as well. */

#define OLUA_WFILE "optlab.wfile"

static void wf_discard (olua_wfile *w)
{
  if (w->fd >= 0) close(w->fd);
  w->fd = -1;
  if (w->tmp[0] != '\0') unlink(w->tmp);
  w->tmp[0] = '\0';
  w->done = 1;
}

static int wf_close (lua_State *L)
{
  olua_wfile *w = luaL_checkudata(L, 1, OLUA_WFILE);
  if (!w->done) wf_discard(w);
  return 0;
}

/* Raise the failure of w with errno err, after removing the temporary. */
static int wf_fail (lua_State *L, olua_wfile *w, int err)
{
  wf_discard(w);
  if (w->existed)
    return luaL_error(L, "%s: cannot write %s: %s; the file there is left "
                      "as it was", w->who, w->name, strerror(err));
  return luaL_error(L, "%s: cannot write %s: %s", w->who, w->name,
                    strerror(err));
}

/* path with its symbolic links followed (at most 40, as the kernel) into
** out[sz]: the file a write would reach; 0, or -1 (too long, a loop). */
static int wf_resolve (const char *path, char *out, size_t sz)
{
  char link[4096];
  struct stat st;
  int hops;
  if (strlen(path) >= sz) return -1;
  memcpy(out, path, strlen(path) + 1);
  for (hops = 0; hops < 40; hops++) {
    ssize_t k;
    const char *slash;
    size_t dl;
    if (lstat(out, &st) != 0 || !S_ISLNK(st.st_mode)) return 0;
    k = readlink(out, link, sizeof link - 1);
    if (k < 0) return -1;
    link[k] = '\0';
    slash = strrchr(out, '/');
    dl = link[0] == '/' || slash == NULL ? 0 : (size_t)(slash - out) + 1;
    if (dl + (size_t)k >= sz) return -1;
    memcpy(out + dl, link, (size_t)k + 1);
  }
  return -1;
}

olua_wfile *olua_wopen (lua_State *L, const char *who, const char *path)
{
  olua_wfile *w = lua_newuserdatauv(L, sizeof *w, 0);
  struct stat st;
  const char *target;
  size_t dl;
  const char *slash;
  int exists;
  memset(w, 0, sizeof *w);
  w->fd = -1;
  w->done = 1;
  if (luaL_newmetatable(L, OLUA_WFILE)) {
    lua_pushcfunction(L, wf_close);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, wf_close);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  lua_toclose(L, -1);
  snprintf(w->who, sizeof w->who, "%s", who);
  if (path[0] == '\0')
    luaL_error(L, "%s: the file name is empty", who);
  if (strlen(path) >= sizeof w->name - 1)
    luaL_error(L, "%s: the file name is longer than %d bytes", who,
               (int)sizeof w->name - 2);
  memcpy(w->name, path, strlen(path) + 1);
  /* a symbolic link: replace the file it names (the link stays) */
  if (wf_resolve(path, w->dest, sizeof w->dest - 16) != 0)
    memcpy(w->dest, path, strlen(path) + 1);
  target = w->dest;
  exists = stat(target, &st) == 0;
  if (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    /* a device, a FIFO, a terminal: written in place */
    w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (w->fd < 0) wf_fail(L, w, errno);
    w->direct = 1;
    w->done = 0;
    return w;
  }
  if (exists && S_ISDIR(st.st_mode)) wf_fail(L, w, EISDIR);
  w->existed = exists;
  slash = strrchr(target, '/');
  dl = slash != NULL ? (size_t)(slash - target) + 1 : 0;
  memcpy(w->tmp, target, dl);
  snprintf(w->tmp + dl, sizeof w->tmp - dl, ".%s.XXXXXX", target + dl);
  w->fd = mkstemp(w->tmp);
  if (w->fd < 0) {
    int err = errno;
    w->tmp[0] = '\0';
    wf_fail(L, w, err);
  }
  w->done = 0;
  if (exists) fchmod(w->fd, st.st_mode & 07777);
  else {
    mode_t um = umask(022);
    umask(um);
    fchmod(w->fd, 0666 & ~um);
  }
  return w;
}

/* Write out the buffered bytes; 0 or an errno. */
static int wf_flush (olua_wfile *w)
{
  size_t at = 0;
  while (at < w->used) {
    ssize_t k = write(w->fd, w->buf + at, w->used - at);
    if (k < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (k == 0) return EIO;
    at += (size_t)k;
  }
  w->used = 0;
  return 0;
}

void olua_wwrite (lua_State *L, olua_wfile *w, const void *s, size_t n)
{
  const char *p = s;
  while (n > 0) {
    size_t k = sizeof w->buf - w->used;
    int err;
    if (k > n) k = n;
    memcpy(w->buf + w->used, p, k);
    w->used += k;
    p += k;
    n -= k;
    if (w->used == sizeof w->buf && (err = wf_flush(w)) != 0)
      wf_fail(L, w, err);
  }
}

void olua_wclose (lua_State *L, olua_wfile *w)
{
  int err;
  if (w->fd < 0) return;
  if ((err = wf_flush(w)) != 0) wf_fail(L, w, err);
  /* fsync of a device or pipe may say EINVAL: nothing to make durable */
  if (fsync(w->fd) != 0 && !(w->direct && (errno == EINVAL ||
                                            errno == EROFS)))
    wf_fail(L, w, errno);
  err = close(w->fd);
  w->fd = -1;
  if (err != 0) wf_fail(L, w, errno);
}

void olua_wcommit (lua_State *L, olua_wfile *w)
{
  olua_wclose(L, w);
  if (!w->direct && rename(w->tmp, w->dest) != 0)
    wf_fail(L, w, errno);
  w->tmp[0] = '\0';
  w->done = 1;
  /* a Ctrl-C while the file was written: the file is whole, so the call
  ** is not failed for it; the hook armed to raise at this call's return
  ** (repl/main.c) raises at the caller's next instruction instead */
  if (ol_interrupted() && lua_gethook(L) != NULL &&
      (lua_gethookmask(L) & LUA_MASKRET))
    lua_sethook(L, lua_gethook(L), LUA_MASKCOUNT, 1);
}

void olua_wdiscard (olua_wfile *w)
{
  if (!w->done) wf_discard(w);
}

void olua_writefile (lua_State *L, const char *who, const char *path,
                     const void *s, size_t n)
{
  olua_wfile *w = olua_wopen(L, who, path);
  olua_wwrite(L, w, s, n);
  olua_wcommit(L, w);
  lua_pop(L, 1);
}

/* core.writefile(who, file, text): olua_writefile for the Lua side
** (race:save, a sweep's and a repeats' save); returns nothing. */
int olua_writefile_lua (lua_State *L)
{
  const char *who = luaL_checkstring(L, 1);
  const char *path = olua_checkfilename(L, 2, who);
  size_t n;
  const char *s = luaL_checklstring(L, 3, &n);
  olua_writefile(L, who, path, s, n);
  return 0;
}
