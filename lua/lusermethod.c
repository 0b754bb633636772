/*
** lua/lusermethod.c -- methods written in Lua: optim.new, sample.new and
** game.new (issue 24).
**
** A definition {name, doc, ref, params, probes, init, step} becomes an
** ol_method_type at run time, registered as its family's <name>
** constructor by the code that registers the built-ins
** (olua_registermethod), so help, ?, completion, parameter checks and
** sweep see it as one of them.  The type lives in a box (a userdata, the
** struct umeth below) together with its ol_param array and copies of
** its strings; the box is anchored in the registry for the life of the
** Lua state, because a run holds its method by pointer (c->m) and a run
** may outlive every Lua reference to the constructor.  The box's user
** value anchors its template thread Z, which only builds the runs'
** threads (never calls user code); init and step are registry refs.
**
** Per run (the state the run allocates, struct ustate): a Lua thread T
** of its own (so that a step may run other runs, and runs of the method
** nest, race and interleave as jobs), whose stack holds at fixed slots
** the traceback handler, step, init, the tables s, x, p, the oracle o
** and the strings the shims use as keys (interned once, so that a step
** allocates nothing on optlab's side).  x is one table reused by every
** step: c->x is copied into it only when the run moved x since the last
** step (a projection, a game's simplex), and read back after the step,
** checked (#x unchanged, numbers only, finite).  p is refreshed from the
** run's par only when a live change (j:set) altered it; every real
** parameter of a Lua method is live (p is read at each step).
**
** The oracle o reaches the problem through core/oracle.h's ol_ctx_*
** only, so its calls are counted in nfev / ngev / nhev and served from the
** run's cache exactly as a C method's are, and a traced problem gives its
** tape's derivatives.  o:stochastic_grad is ol_ctx_grad (the problem's
** noise or minibatch); o:grad is the exact gradient (ol_ctx_grad when
** the problem has no noise, which is the same call; else the problem's own
** evaluation, counted as one gradient).  o is valid only while its run's
** init or step runs; afterwards (kept in a global) it raises.
**
** Families: init(s, x, p, o) and step(s, x, o, p) are the same for all
** three.  A sampler's step returns its accept statistic (checked in
** [0, 1]), whether it diverged and log p at the new x; the state's
** ol_sampler_head holds them (the stats hook), with the warmup from a
** parameter named "warmup", so draws, chains, diagnostics and CmdStan CSV
** work unchanged.  A game's state keeps an ol_play (games/play.h): the
** first payoff gradient the step asks for at the profile it plays is
** observed (averaging, regret, ccegap), or evaluated after the step when
** it asked for none.
**
** Errors: a Lua error in init or step stops the run with reason "callback
** error" and the message with its traceback, as a failing problem callback
** does (an init error is kept and reported by the first step, so the run
** is made and stopped rather than refused); an oracle error keeps its own
** code (a non-finite value stops the run as "non-finite").  The thread is
** the state's callback thread (olua_state.cb) while it runs, so the SIGINT
** hook reaches a step that loops.  A yield and a step that re-enters its
** own run give named errors; nesting of runs of one method is bounded by
** OLUA_MAXDEPTH.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lbind.h"
#include "sample/stats.h"
#include "games/play.h"

#define OLUA_ORACLE "optlab.oracle"
#define OLUA_URNG   "optlab.rng"
#define UM_REG      "optlab.usermethods"   /* registry: every box, kept */
#define UM_MAXPARAMS 32                    /* params_live has 32 bits */
#define UM_MAXPROBES 8
#define UM_NAMEMAX 40

typedef struct umeth {
  ol_method_type t;            /* first: a run's c->m is the box */
  ol_param par[UM_MAXPARAMS];
  int probe[UM_MAXPROBES];     /* metric ids s.probe may give */
  int nprobe;
  lua_State *Z;                /* template thread (anchored by the box) */
  olua_state *S;
  int initref, stepref;        /* registry refs (initref LUA_NOREF: none) */
  int depth;                   /* steps of this method in progress */
  char str[];                  /* the strings t and par point into */
} umeth;

typedef struct uoracle uoracle;

/* A run's state (the run allocates it zeroed, t.size bytes). */
typedef struct ustate {
  ol_sampler_head h;           /* samplers: statistics (stats hook) */
  ol_play play;                /* games: averaging and regret */
  umeth *u;
  ol_ctx *c;
  lua_State *T;                /* the run's thread, or NULL */
  int tref;
  uoracle *o, *rng;            /* o and o:rng() (cleared at fini) */
  const double *par;           /* the run's parameters (live) */
  double *buf;                 /* one block for the arrays below */
  double *pseen, *xseen, *xb, *gb, *vb, *zt, *gt;
  double *H;                   /* n x n, made by the first o:hess / o:hvp */
  double probe[UM_MAXPROBES];
  int live;                    /* init or step running: o usable */
  int busy;                    /* step running (re-entry) */
  int failed;                  /* init failed: msg says why */
  int observed;                /* games: g at z_t seen by o:payoff_grad */
  int orc;                     /* code of an oracle error in this call */
  int tbase;                   /* T's fixed slots end here */
  char msg[OL_ERRMAX];
} ustate;

struct uoracle {
  unsigned magic;              /* UO_ORACLE or UO_RNG */
  ustate *s;                   /* NULL once the run is freed */
  const void *self;            /* its own address: with the size and the
                                  mark, no other userdata can pass for it */
};
#define UO_ORACLE 0x6f72636cu
#define UO_RNG    0x726e6721u

/* Fixed slots of a run's thread. */
enum { T_MSGH = 1, T_STEP, T_INIT, T_S, T_X, T_O, T_P, T_KPROBE, T_NAMES };

static const char *famname (int f)
{
  return ol_family_get(f)->ns;
}

/* a and b (n doubles) equal bit for bit (-0 is not 0: x copied into the
** step's table is the run's, bits and all); and a copy.  Loops, not
** memcmp / memcpy: n is small on the path of every step. */
static int samebits (const double *a, const double *b, int n)
{
  int i;
  for (i = 0; i < n; i++) {
    uint64_t u, v;
    memcpy(&u, a + i, sizeof u);
    memcpy(&v, b + i, sizeof v);
    if (u != v) return 0;
  }
  return 1;
}

static void copyvec (double *restrict d, const double *restrict a, int n)
{
  int i;
  for (i = 0; i < n; i++) d[i] = a[i];
}

/* == the oracle ============================================================ */

/* The state behind the oracle (or rng) at idx.  On the path of every
** oracle call, so the object is recognised by its size and mark (two
** API calls; luaL_checkudata looks the metatable up in the registry by
** name), and by its metatable only to word the error. */
static ustate *checkoracle (lua_State *L, int idx, const char *tname,
                            const char *who)
{
  uoracle *o = lua_touserdata(L, idx);
  unsigned magic = strcmp(tname, OLUA_ORACLE) == 0 ? UO_ORACLE : UO_RNG;
  if (o == NULL || lua_rawlen(L, idx) != sizeof *o || o->self != o ||
      o->magic != magic)
    o = luaL_checkudata(L, idx, tname);
  if (o->s == NULL)
    luaL_error(L, "%s: its run has ended (o and o:rng() are valid only "
               "inside the method's init and step)", who);
  if (!o->s->live)
    luaL_error(L, "%s: used outside the method's init and step (o and "
               "o:rng() are valid only while they run)", who);
  return o->s;
}

static ustate *ckor (lua_State *L, const char *who)
{
  return checkoracle(L, 1, OLUA_ORACLE, who);
}

/* Read the table at idx (n numbers) into buf.  (Each entry is pushed,
** read and the stack reset once: fewer API calls on the path of every
** oracle call.) */
static void readvec (lua_State *L, int idx, double *buf, int n,
                     const char *who, const char *what)
{
  int i, top;
  if (lua_type(L, idx) != LUA_TTABLE)
    luaL_error(L, "%s: %s must be a table of %d numbers, got %s", who, what,
               n, luaL_typename(L, idx));
  if ((lua_Integer)lua_rawlen(L, idx) != n)
    luaL_error(L, "%s: %s has %d entries, the problem has %d", who, what,
               (int)lua_rawlen(L, idx), n);
  /* at most 16 pushed at a time: a C function has LUA_MINSTACK (20) free
  ** slots, and an oracle function pushes nothing before this */
  top = lua_gettop(L);
  for (i = 0; i < n; i++) {
    if (i > 0 && (i & 15) == 0) lua_settop(L, top);
    if (lua_rawgeti(L, idx, i + 1) != LUA_TNUMBER)
      luaL_error(L, "%s: %s[%d] is a %s, not a number", who, what, i + 1,
                 luaL_typename(L, -1));
    buf[i] = lua_tonumberx(L, -1, NULL);
  }
  lua_settop(L, top);
}

/* Write buf (n numbers, times sign) into the table at idx. */
static void writevec (lua_State *L, int idx, const double *buf, int n,
                      double sign, const char *who, const char *what)
{
  int i;
  if (lua_type(L, idx) != LUA_TTABLE)
    luaL_error(L, "%s: %s must be a table (it is filled), got %s", who, what,
               luaL_typename(L, idx));
  for (i = 0; i < n; i++) {
    lua_pushnumber(L, sign * buf[i]);
    lua_rawseti(L, idx, i + 1);
  }
}

/* An oracle error: raised in the step, its code kept for the run. */
static int orcfail (lua_State *L, ustate *s, const char *who, int rc,
                    const ol_err *e)
{
  s->orc = rc;
  return luaL_error(L, "%s: %s", who, e->msg);
}

/* The exact value at x (arg 2), times sign. */
static int valuecall (lua_State *L, const char *who, double sign)
{
  ustate *s = ckor(L, who);
  double f;
  ol_err e;
  int rc;
  readvec(L, 2, s->xb, s->c->n, who, "x");
  if ((rc = ol_ctx_value(s->c, s->xb, &f, &e)) != OL_OK)
    return orcfail(L, s, who, rc, &e);
  lua_pushnumber(L, sign * f);
  return 1;
}

/* o:f(x) -> f(x) (exact). */
static int o_f (lua_State *L)
{
  return valuecall(L, "o:f", 1);
}

/* The exact f (when wantf) and gradient at s->xb into s->gb. */
static int exactgrad (ustate *s, double *f, ol_err *e)
{
  ol_ctx *c = s->c;
  const ol_problem *p = c->p;
  if (p->noise.kind == OL_NOISE_NONE) return ol_ctx_grad(c, s->xb, f, s->gb, e);
  /* a noisy problem: its own exact evaluation, counted as the oracle
  ** counts one */
  c->nfev += f != NULL;
  c->ngev++;
  return ol_problem_eval(p, s->xb, f, s->gb,
                         c->orc != NULL ? c->orc->work : NULL, e);
}

/* Games: the first gradient at the profile played (z_t) is the one the
** regret accounting sees. */
static void observe (ustate *s)
{
  int n = s->c->n;
  if (s->u->t.family == OL_DYNAMIC && !s->observed &&
      samebits(s->xb, s->zt, n)) {
    copyvec(s->gt, s->gb, n);
    s->observed = 1;
  }
}

/* o:grad(x, g) -> g: the exact gradient into g. */
static int o_grad (lua_State *L)
{
  ustate *s = ckor(L, "o:grad");
  ol_err e;
  int rc;
  readvec(L, 2, s->xb, s->c->n, "o:grad", "x");
  if ((rc = exactgrad(s, NULL, &e)) != OL_OK)
    return orcfail(L, s, "o:grad", rc, &e);
  writevec(L, 3, s->gb, s->c->n, 1, "o:grad", "g");
  lua_settop(L, 3);
  return 1;
}

/* o:fdf(x, g) -> f: value and exact gradient. */
static int o_fdf (lua_State *L)
{
  ustate *s = ckor(L, "o:fdf");
  double f;
  ol_err e;
  int rc;
  readvec(L, 2, s->xb, s->c->n, "o:fdf", "x");
  if ((rc = exactgrad(s, &f, &e)) != OL_OK)
    return orcfail(L, s, "o:fdf", rc, &e);
  writevec(L, 3, s->gb, s->c->n, 1, "o:fdf", "g");
  lua_pushnumber(L, f);
  return 1;
}

/* The context's gradient (the problem's noise or minibatch included) at
** x (arg 2) into g (arg 3), times sign; games note the one at z_t. */
static int ctxgrad (lua_State *L, const char *who, double sign)
{
  ustate *s = ckor(L, who);
  ol_err e;
  int rc;
  readvec(L, 2, s->xb, s->c->n, who, "x");
  if ((rc = ol_ctx_grad(s->c, s->xb, NULL, s->gb, &e)) != OL_OK)
    return orcfail(L, s, who, rc, &e);
  observe(s);
  writevec(L, 3, s->gb, s->c->n, sign, who, "g");
  lua_settop(L, 3);
  return 1;
}

/* o:stochastic_grad(x, g) -> g: the problem's noisy or minibatch
** gradient (the exact one on a noise-free problem), as C methods get. */
static int o_sgrad (lua_State *L)
{
  return ctxgrad(L, "o:stochastic_grad", 1);
}

/* The Hessian at s->xb into s->H (made on first use). */
static void hessat (lua_State *L, ustate *s, const char *who)
{
  ol_err e;
  int rc, n = s->c->n;
  if (s->H == NULL) {
    if (n > 4096)
      luaL_error(L, "%s: n = %d is too large for a dense Hessian (at most "
                 "4096)", who, n);
    s->H = malloc((size_t)n * (size_t)n * sizeof *s->H);
    if (s->H == NULL) luaL_error(L, "%s: out of memory", who);
  }
  if ((rc = ol_ctx_hess(s->c, s->xb, s->H, &e)) != OL_OK)
    orcfail(L, s, who, rc, &e);
}

/* o:hess(x, H) -> H: the dense Hessian into H (a table of n rows). */
static int o_hess (lua_State *L)
{
  ustate *s = ckor(L, "o:hess");
  int i, n = s->c->n;
  readvec(L, 2, s->xb, n, "o:hess", "x");
  luaL_checktype(L, 3, LUA_TTABLE);
  hessat(L, s, "o:hess");
  for (i = 0; i < n; i++) {
    if (lua_rawgeti(L, 3, i + 1) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_createtable(L, n, 0);
      lua_pushvalue(L, -1);
      lua_rawseti(L, 3, i + 1);
    }
    writevec(L, lua_gettop(L), s->H + (size_t)i * n, n, 1, "o:hess", "H");
    lua_pop(L, 1);
  }
  lua_settop(L, 3);
  return 1;
}

/* o:hvp(x, v, out) -> out = H(x) v (one Hessian evaluation). */
static int o_hvp (lua_State *L)
{
  ustate *s = ckor(L, "o:hvp");
  int i, j, n = s->c->n;
  readvec(L, 2, s->xb, n, "o:hvp", "x");
  readvec(L, 3, s->vb, n, "o:hvp", "v");
  hessat(L, s, "o:hvp");
  for (i = 0; i < n; i++) {
    double a = 0;
    for (j = 0; j < n; j++) a += s->H[(size_t)i * n + j] * s->vb[j];
    s->gb[i] = a;
  }
  writevec(L, 4, s->gb, n, 1, "o:hvp", "out");
  lua_settop(L, 4);
  return 1;
}

/* o:project(x) -> x: onto the problem's set, in place. */
static int o_project (lua_State *L)
{
  ustate *s = ckor(L, "o:project");
  readvec(L, 2, s->xb, s->c->n, "o:project", "x");
  ol_ctx_project(s->c, s->xb);
  writevec(L, 2, s->xb, s->c->n, 1, "o:project", "x");
  lua_settop(L, 2);
  return 1;
}

/* o:logp(x) -> log density (up to its constant): -U. */
static int o_logp (lua_State *L)
{
  return valuecall(L, "o:logp", -1);
}

/* o:grad_logp(x, g) -> g: the gradient of the log density. */
static int o_grad_logp (lua_State *L)
{
  return ctxgrad(L, "o:grad_logp", -1);
}

/* o:payoff_grad(x, g) -> g: each player's payoff gradient (the
** problem's g is minus it). */
static int o_payoff_grad (lua_State *L)
{
  return ctxgrad(L, "o:payoff_grad", -1);
}

/* o:rng() -> the run's generator. */
static int o_rng (lua_State *L)
{
  ckor(L, "o:rng");
  lua_getiuservalue(L, 1, 1);
  return 1;
}

/* o:iter() -> steps done before this one; o:sched() -> the schedule's
** step-size multiplier for this step (1 without one). */
static int o_iter (lua_State *L)
{
  lua_pushinteger(L, ckor(L, "o:iter")->c->t);
  return 1;
}

static int o_sched (lua_State *L)
{
  lua_pushnumber(L, ckor(L, "o:sched")->c->sched);
  return 1;
}

/* o:warmup() -> the warmup's length (a sampler's parameter "warmup",
** else 0) and whether this step is one of it. */
static int o_warmup (lua_State *L)
{
  ustate *s = ckor(L, "o:warmup");
  lua_pushinteger(L, s->h.warmup);
  lua_pushboolean(L, s->c->t < s->h.warmup);
  return 2;
}

/* o:blocks() -> the sizes of a game's players' blocks ({n} otherwise). */
static int o_blocks (lua_State *L)
{
  ustate *s = ckor(L, "o:blocks");
  int i;
  if (s->u->t.family != OL_DYNAMIC || s->play.nb < 1) {
    lua_createtable(L, 1, 0);
    lua_pushinteger(L, s->c->n);
    lua_rawseti(L, -2, 1);
    return 1;
  }
  lua_createtable(L, s->play.nb, 0);
  for (i = 0; i < s->play.nb; i++) {
    lua_pushinteger(L, s->play.blk[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int o_tostring (lua_State *L)
{
  uoracle *o = luaL_checkudata(L, 1, OLUA_ORACLE);
  lua_pushstring(L, o->s == NULL ? "oracle (its run has ended)"
                 : "oracle (o:f, o:grad, o:fdf, o:hess, o:hvp, "
                   "o:stochastic_grad, o:project, o:rng, ...)");
  return 1;
}

static int rng_uniform (lua_State *L)
{
  ustate *s = checkoracle(L, 1, OLUA_URNG, "rng:uniform");
  lua_pushnumber(L, ol_rng_uniform(s->c->rng));
  return 1;
}

static int rng_normal (lua_State *L)
{
  ustate *s = checkoracle(L, 1, OLUA_URNG, "rng:normal");
  lua_pushnumber(L, ol_rng_normal(s->c->rng));
  return 1;
}

static const luaL_Reg oracle_methods[] = {
  {"f", o_f}, {"grad", o_grad}, {"fdf", o_fdf}, {"hess", o_hess},
  {"hvp", o_hvp}, {"stochastic_grad", o_sgrad}, {"project", o_project},
  {"rng", o_rng}, {"logp", o_logp}, {"grad_logp", o_grad_logp},
  {"payoff_grad", o_payoff_grad}, {"iter", o_iter}, {"sched", o_sched},
  {"blocks", o_blocks}, {"warmup", o_warmup},
  {NULL, NULL}
};

static const luaL_Reg rng_methods[] = {
  {"uniform", rng_uniform}, {"normal", rng_normal}, {NULL, NULL}
};

/* == the C shims ============================================================ */

/* Build the run's thread (on Z, under lua_pcall; arg 1: the state). */
static int mkthread (lua_State *Z)
{
  ustate *s = lua_touserdata(Z, 1);
  umeth *u = s->u;
  ol_ctx *c = s->c;
  int i, n = c->n, np = u->t.nparams, k, ref;
  lua_State *T;
  uoracle *o, *rng;
  lua_settop(Z, 0);
  lua_pushcfunction(Z, olua_msghandler);               /* T_MSGH */
  lua_rawgeti(Z, LUA_REGISTRYINDEX, u->stepref);       /* T_STEP */
  if (u->initref != LUA_NOREF)
    lua_rawgeti(Z, LUA_REGISTRYINDEX, u->initref);     /* T_INIT */
  else lua_pushnil(Z);
  lua_newtable(Z);                                     /* T_S */
  olua_pushvec(Z, c->x, n);                            /* T_X */
  o = lua_newuserdatauv(Z, sizeof *o, 1);              /* T_O */
  o->magic = UO_ORACLE;
  o->self = o;
  o->s = s;
  luaL_setmetatable(Z, OLUA_ORACLE);
  rng = lua_newuserdatauv(Z, sizeof *rng, 0);
  rng->magic = UO_RNG;
  rng->self = rng;
  rng->s = s;
  luaL_setmetatable(Z, OLUA_URNG);
  lua_setiuservalue(Z, -2, 1);
  lua_createtable(Z, 0, np);                           /* T_P */
  for (i = 0; i < np; i++) {
    if (u->t.params[i].kind == OL_P_BOOL) lua_pushboolean(Z, s->par[i] != 0);
    else lua_pushnumber(Z, s->par[i]);
    lua_setfield(Z, -2, u->t.params[i].name);
  }
  lua_pushliteral(Z, "probe");                         /* T_KPROBE */
  for (i = 0; i < np; i++) lua_pushstring(Z, u->t.params[i].name);
  for (i = 0; i < u->nprobe; i++)
    lua_pushstring(Z, ol_metric_types[u->probe[i]]->name);
  k = lua_gettop(Z);
  T = lua_newthread(Z);
  if (!lua_checkstack(T, k + 16)) luaL_error(Z, "out of memory");
  lua_insert(Z, 1);
  lua_xmove(Z, T, k);
  ref = luaL_ref(Z, LUA_REGISTRYINDEX);
  /* only now, when nothing can fail: fini clears o and rng through these
  ** pointers, and an unanchored thread's would be freed memory */
  s->tref = ref;
  s->T = T;
  s->tbase = k;
  s->o = o;
  s->rng = rng;
  return 0;
}

/* Read x (slot T_X) back into c->x: #x unchanged, numbers, finite. */
static int readback (ustate *s, const char *when, ol_err *e)
{
  lua_State *T = s->T;
  ol_ctx *c = s->c;
  int i, n = c->n;
  lua_Integer len = (lua_Integer)lua_rawlen(T, T_X);
  if (len != n)
    return ol_err_set(e, OL_ECALLBACK, "%s.%s: %s changed #x from %d to %lld "
                      "(update x in place: x[i] = ...)",
                      famname(s->u->t.family), s->u->t.name, when, n,
                      (long long)len);
  /* (the slots above tbase are free: T's stack was made with 16 spare) */
  for (i = 0; i < n; i++) {
    int ty;
    if (i > 0 && (i & 7) == 0) lua_settop(T, s->tbase);
    ty = lua_rawgeti(T, T_X, i + 1);
    s->xb[i] = lua_tonumberx(T, -1, NULL);
    if (ty != LUA_TNUMBER) {
      lua_settop(T, s->tbase);
      return ol_err_set(e, OL_ECALLBACK, "%s.%s: after %s x[%d] is a %s, "
                        "not a number", famname(s->u->t.family),
                        s->u->t.name, when, i + 1, lua_typename(T, ty));
    }
    if (!isfinite(s->xb[i])) {
      lua_settop(T, s->tbase);
      return ol_err_set(e, OL_EDOM, "non-finite iterate after %s.%s's %s "
                        "(x[%d] = %g)", famname(s->u->t.family),
                        s->u->t.name, when, i + 1, s->xb[i]);
    }
  }
  lua_settop(T, s->tbase);
  if (s->u->t.family == OL_SAMPLER &&
      !samebits(s->xb, c->x, n))
    c->accepted++;
  copyvec(c->x, s->xb, n);
  copyvec(s->xseen, s->xb, n);
  return OL_OK;
}

/* The error of a failed call on T (message on top) into e. */
static int callerr (ustate *s, const char *when, ol_err *e)
{
  lua_State *T = s->T;
  const char *msg = lua_tostring(T, -1);
  int code = s->orc != OL_OK ? s->orc : OL_ECALLBACK;
  if (msg == NULL) msg = "(error object)";
  if (strstr(msg, "attempt to yield") != NULL)
    ol_err_set(e, code, "%s.%s: %s yields (a method's init and step run to "
               "the end; no coroutine.yield): %s",
               famname(s->u->t.family), s->u->t.name, when, msg);
  else ol_err_set(e, code, "%s", msg);
  lua_settop(T, s->tbase);
  return code;
}

/* Call the function in slot fn: step(s, x, o, p) or init(s, x, p, o);
** nres results. */
static int call (ustate *s, int fn, int nres, const char *when, ol_err *e)
{
  lua_State *T = s->T, *prev = s->u->S->cb;
  int rc;
  lua_pushvalue(T, fn);
  lua_pushvalue(T, T_S);
  lua_pushvalue(T, T_X);
  lua_pushvalue(T, fn == T_STEP ? T_O : T_P);
  lua_pushvalue(T, fn == T_STEP ? T_P : T_O);
  s->orc = OL_OK;
  s->live = 1;
  s->u->depth++;
  s->u->S->cb = T;           /* for the SIGINT hook (olua_cbthread) */
  rc = lua_pcall(T, 4, nres, T_MSGH);
  s->u->S->cb = prev;
  s->u->depth--;
  s->live = 0;
  if (rc != LUA_OK) return callerr(s, when, e);
  return OL_OK;
}

static int u_init (void *st, const double *par, ol_ctx *c, ol_err *e)
{
  ustate *s = st;
  umeth *u = (umeth *)(void *)c->m;
  lua_State *Z;
  int n = c->n, np, rc, i;
  size_t nb;
  s->tref = LUA_NOREF;
  if (u == NULL || u->t.init != c->m->init)
    return ol_err_set(e, OL_EINVAL, "a method written in Lua runs in a run "
                      "only");
  np = u->t.nparams;
  s->u = u;
  s->c = c;
  s->par = par;
  nb = (size_t)np + 6 * (size_t)n + 1;
  if ((s->buf = malloc(nb * sizeof *s->buf)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory (%s)", u->t.name);
  s->pseen = s->buf;
  s->xseen = s->pseen + np;
  s->xb = s->xseen + n;
  s->gb = s->xb + n;
  s->vb = s->gb + n;
  s->zt = s->vb + n;
  s->gt = s->zt + n;
  memcpy(s->pseen, par, (size_t)np * sizeof *par);
  memcpy(s->xseen, c->x, (size_t)n * sizeof *c->x);
  for (i = 0; i < UM_MAXPROBES; i++) s->probe[i] = NAN;
  if (u->t.family == OL_SAMPLER) {
    i = ol_param_find(u->t.params, np, "warmup");
    s->h.n = n;
    s->h.warmup = i >= 0 ? (long)par[i] : 0;
    s->h.stat.lp = s->h.stat.accept_stat = s->h.stat.energy = NAN;
  }
  if (u->t.family == OL_DYNAMIC &&
      (rc = ol_play_init(&s->play, c, OL_AVG_UNIFORM, u->t.name, e)) != OL_OK)
    return rc;
  if (u->depth >= OLUA_MAXDEPTH)
    return ol_err_set(e, OL_ECALLBACK, "%s.%s: runs of it are nested %d deep "
                      "(a step that runs its own method without end?)",
                      famname(u->t.family), u->t.name, u->depth);
  /* the thread, built on Z (which runs no user code, so never nests) */
  Z = u->Z;
  if (!lua_checkstack(Z, 4))
    return ol_err_set(e, OL_ENOMEM, "out of memory (%s)", u->t.name);
  lua_pushcfunction(Z, mkthread);
  lua_pushlightuserdata(Z, s);
  if (lua_pcall(Z, 1, 0, 0) != LUA_OK) {
    ol_err_set(e, OL_ENOMEM, "%s: cannot make its thread: %s", u->t.name,
               lua_tostring(Z, -1) ? lua_tostring(Z, -1) : "error");
    lua_settop(Z, 0);
    return e->code;
  }
  if (u->initref == LUA_NOREF) return OL_OK;
  /* the user's init: its error stops the run at the first step */
  rc = call(s, T_INIT, 0, "init", e);
  if (rc == OL_OK) rc = readback(s, "init", e);
  if (rc != OL_OK) {
    s->failed = rc;
    memcpy(s->msg, e->msg, sizeof s->msg);
    ol_err_clear(e);
  }
  return OL_OK;
}

/* The values of s.probe after a step. */
static void readprobes (ustate *s)
{
  lua_State *T = s->T;
  int i;
  lua_pushvalue(T, T_KPROBE);
  if (lua_rawget(T, T_S) != LUA_TTABLE) {
    for (i = 0; i < s->u->nprobe; i++) s->probe[i] = NAN;
  }
  else
    for (i = 0; i < s->u->nprobe; i++) {
      lua_pushvalue(T, T_NAMES + s->u->t.nparams + i);
      s->probe[i] = lua_rawget(T, -2) == LUA_TNUMBER ? lua_tonumber(T, -1)
                                                     : NAN;
      lua_pop(T, 1);
    }
  lua_pop(T, 1);
}

/* Set the entries of p (arg 2) that changed (state: arg 1). */
static int prefresh (lua_State *T)
{
  ustate *s = lua_touserdata(T, 1);
  const ol_method_type *t = &s->u->t;
  int i;
  for (i = 0; i < t->nparams; i++)
    if (!samebits(s->par + i, s->pseen + i, 1)) {
      lua_pushstring(T, t->params[i].name);
      if (t->params[i].kind == OL_P_BOOL) lua_pushboolean(T, s->par[i] != 0);
      else lua_pushnumber(T, s->par[i]);
      lua_rawset(T, 2);            /* raw: p's metatable is the user's */
      s->pseen[i] = s->par[i];
    }
  return 0;
}

static int u_step (void *st, ol_ctx *c, ol_err *e)
{
  ustate *s = st;
  umeth *u = s->u;
  lua_State *T = s->T;
  int n = c->n, np = u->t.nparams, i, rc, sampler;
  if (s->failed)
    return ol_err_set(e, s->failed, "%s", s->msg);
  if (s->busy)
    return ol_err_set(e, OL_ECALLBACK, "%s.%s: its step re-entered its own "
                      "run (a step may run other runs, not its own)",
                      famname(u->t.family), u->t.name);
  if (u->depth >= OLUA_MAXDEPTH)
    return ol_err_set(e, OL_ECALLBACK, "%s.%s: runs of it are nested %d deep "
                      "(a step that runs its own method without end?)",
                      famname(u->t.family), u->t.name, u->depth);
  s->c = c;
  /* (1) p: the live parameters that changed since the last step (rare:
  ** in a protected call, as the step may have removed a key from p) */
  if (!samebits(s->par, s->pseen, np)) {
    lua_pushcfunction(T, prefresh);
    lua_pushlightuserdata(T, s);
    lua_pushvalue(T, T_P);
    if (lua_pcall(T, 2, 0, 0) != LUA_OK) {
      ol_err_set(e, OL_ENOMEM, "%s.%s: cannot set p: %s",
                 famname(u->t.family), u->t.name,
                 lua_tostring(T, -1) ? lua_tostring(T, -1) : "error");
      lua_settop(T, s->tbase);
      return OL_ENOMEM;
    }
  }
  /* (2) x: only when the run moved it (a projection) since the step */
  if (!samebits(c->x, s->xseen, n)) {
    if ((lua_Integer)lua_rawlen(T, T_X) != n)
      return ol_err_set(e, OL_ECALLBACK, "%s.%s: x was changed outside its "
                        "step", famname(u->t.family), u->t.name);
    for (i = 0; i < n; i++) {
      if (lua_rawgeti(T, T_X, i + 1) == LUA_TNIL) {
        lua_pop(T, 1);
        return ol_err_set(e, OL_ECALLBACK, "%s.%s: x was changed outside "
                          "its step", famname(u->t.family), u->t.name);
      }
      lua_pop(T, 1);
      lua_pushnumber(T, c->x[i]);
      lua_rawseti(T, T_X, i + 1);    /* an existing key: no allocation */
    }
    copyvec(s->xseen, c->x, n);
  }
  if (u->t.family == OL_DYNAMIC) {
    copyvec(s->zt, c->x, n);
    s->observed = 0;
  }
  /* (3) the user's step */
  sampler = u->t.family == OL_SAMPLER;
  s->busy = 1;
  rc = call(s, T_STEP, sampler ? 3 : 0, "step", e);
  s->busy = 0;
  if (rc != OL_OK) return rc;
  if (sampler) {
    double a = lua_tonumber(T, -3);
    if (lua_type(T, -3) != LUA_TNUMBER || !(a >= 0 && a <= 1)) {
      ol_err_set(e, OL_ECALLBACK, "%s.%s: step must return the accept "
                 "statistic, a number in [0, 1], got %s%s",
                 famname(u->t.family), u->t.name,
                 lua_type(T, -3) == LUA_TNUMBER ? "" : "a ",
                 lua_type(T, -3) == LUA_TNUMBER ? "a number outside"
                 : luaL_typename(T, -3));
      lua_settop(T, s->tbase);
      return OL_ECALLBACK;
    }
    s->h.stat.accept_stat = a;
    s->h.stat.divergent = lua_toboolean(T, -2);
    /* optional third result: log p at the new x (CmdStan's lp__) */
    s->h.stat.lp = lua_type(T, -1) == LUA_TNUMBER ? lua_tonumber(T, -1) : NAN;
    s->h.stat.nonfinite = 0;
    s->h.stat.stepsize = c->sched;
    lua_settop(T, s->tbase);
  }
  /* (4) x back, checked; probes; the family's accounting */
  if ((rc = readback(s, "step", e)) != OL_OK) return rc;
  if (u->nprobe > 0) readprobes(s);
  if (sampler) ol_sampler_count(&s->h);
  if (u->t.family == OL_DYNAMIC) {
    if (!s->observed) {
      /* the step never asked for the gradient at z_t: the regret needs it */
      if ((rc = ol_ctx_grad(c, s->zt, NULL, s->gt, e)) != OL_OK) return rc;
    }
    ol_play_observe(&s->play, c, s->zt, s->gt);
  }
  return OL_OK;
}

static void u_fini (void *st)
{
  ustate *s = st;
  if (s->o != NULL) s->o->s = NULL;
  if (s->rng != NULL) s->rng->s = NULL;
  s->o = s->rng = NULL;
  if (s->tref != LUA_NOREF && s->u != NULL && lua_checkstack(s->u->Z, 4))
    luaL_unref(s->u->Z, LUA_REGISTRYINDEX, s->tref);
  s->tref = LUA_NOREF;
  s->T = NULL;
  if (s->u != NULL && s->u->t.family == OL_SAMPLER)
    ol_sampler_head_fini(&s->h);
  if (s->u != NULL && s->u->t.family == OL_DYNAMIC) ol_play_fini(&s->play);
  free(s->buf);
  free(s->H);
  s->buf = s->H = NULL;
}

static double u_probe (const void *st, int metric, const ol_ctx *c)
{
  const ustate *s = st;
  int i;
  for (i = 0; i < s->u->nprobe; i++)
    if (s->u->probe[i] == metric) return s->probe[i];
  if (s->u->t.family == OL_DYNAMIC) return ol_play_probe(&s->play, metric, c);
  return NAN;
}

static ol_sampler_head *u_stats (const void *st)
{
  return &((ustate *)(void *)st)->h;
}

/* == optim.new{...} ========================================================= */

static const char *const defkeys[] = {
  "name", "doc", "ref", "params", "probes", "init", "step", NULL
};
static const char *const parkeys[] = {
  "default", "min", "max", "min_open", "max_open", "doc", NULL
};

static int isident (const char *s)
{
  static const char *const kw[] = {
    "and", "break", "do", "else", "elseif", "end", "false", "for",
    "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat",
    "return", "then", "true", "until", "while", NULL
  };
  int i;
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return 0;
  for (i = 1; s[i] != '\0'; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
      return 0;
  for (i = 0; kw[i] != NULL; i++)
    if (strcmp(s, kw[i]) == 0) return 0;
  return 1;
}

/* The optional string field k of the table at idx (NULL when nil). */
static const char *optstring (lua_State *L, int idx, const char *k,
                              const char *who)
{
  int ty = lua_getfield(L, idx, k);
  const char *v;
  if (ty == LUA_TNIL) {
    lua_pop(L, 1);
    return NULL;
  }
  if (ty != LUA_TSTRING)
    luaL_error(L, "%s: %s must be a string, got a %s", who, k,
               luaL_typename(L, -1));
  v = lua_tostring(L, -1);
  lua_pop(L, 1);
  return v;       /* anchored by the definition table */
}

/* The optional number field k of the parameter table at idx. */
static double optnum (lua_State *L, int idx, const char *k, double def,
                      const char *who, const char *pname)
{
  double v = def;
  int ty = lua_getfield(L, idx, k);
  if (ty != LUA_TNIL) {
    if (ty != LUA_TNUMBER)
      luaL_error(L, "%s: params.%s.%s must be a number, got a %s", who,
                 pname, k, luaL_typename(L, -1));
    v = lua_tonumber(L, -1);
    if (isnan(v))
      luaL_error(L, "%s: params.%s.%s is nan", who, pname, k);
  }
  lua_pop(L, 1);
  return v;
}

static int optbool (lua_State *L, int idx, const char *k, const char *who,
                    const char *pname)
{
  int ty = lua_getfield(L, idx, k), v;
  if (ty != LUA_TNIL && ty != LUA_TBOOLEAN)
    luaL_error(L, "%s: params.%s.%s must be a boolean, got a %s", who, pname,
               k, luaL_typename(L, -1));
  v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

static int cmpstr (const void *a, const void *b)
{
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Copy s into the box's string area at *at; returns the copy. */
static const char *keep (char **at, const char *s)
{
  char *d = *at;
  size_t k = strlen(s) + 1;
  memcpy(d, s, k);
  *at += k;
  return d;
}

/* optim.new / sample.new / game.new.  Upvalues: the core table, the
** family (integer). */
static int usermethod_new (lua_State *L)
{
  int fam = (int)lua_tointeger(L, lua_upvalueindex(2));
  const char *fns = famname(fam);
  char who[32];
  const char *name, *doc, *ref, *pnames[UM_MAXPARAMS], *pdocs[UM_MAXPARAMS];
  int np = 0, nprobe = 0, probes[UM_MAXPROBES], i, j;
  size_t strbytes;
  umeth *u;
  char *at;
  ol_param pt[UM_MAXPARAMS];
  snprintf(who, sizeof who, "%s.new", fns);
  if (!lua_istable(L, 1))
    return luaL_error(L, "%s: expected a table {name = ..., step = function "
                      "(s, x, o, p) ... end, ...}, got %s", who,
                      luaL_typename(L, 1));
  lua_settop(L, 1);
  /* (1) the keys */
  lua_pushnil(L);
  while (lua_next(L, 1) != 0) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
    for (i = 0; defkeys[i] != NULL && strcmp(defkeys[i], k) != 0; i++) {}
    if (defkeys[i] == NULL) olua_unknownkey(L, who, "key", k, defkeys);
    lua_pop(L, 1);
  }
  /* (2) name, doc, ref */
  name = optstring(L, 1, "name", who);
  if (name == NULL)
    return luaL_error(L, "%s: name is missing (name = \"mymethod\": then "
                      "%s.mymethod{...} makes it)", who, fns);
  if (!isident(name) || strlen(name) > UM_NAMEMAX)
    return luaL_error(L, "%s: name '%s' is not an identifier (letters, digits "
                      "and _, not starting with a digit, not a Lua keyword, "
                      "at most %d characters)", who, olua_pushshort(L, name),
                      UM_NAMEMAX);
  if (ol_method_find(name) != NULL)
    return luaL_error(L, "%s: name '%s' is a built-in method (%s.%s); "
                      "choose another", who, name,
                      famname(ol_method_find(name)->family), name);
  lua_getglobal(L, fns);
  lua_pushstring(L, name);
  if (lua_rawget(L, -2) != LUA_TNIL) {   /* raw: the table's __index raises */
    int user = 0;
    lua_getfield(L, lua_upvalueindex(1), "ctors");
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) == LUA_TTABLE) {
      lua_getfield(L, -1, "user");
      user = lua_toboolean(L, -1);
      lua_pop(L, 1);
    }
    lua_pop(L, 2);
    if (!user)
      return luaL_error(L, "%s: name '%s' is taken (%s.%s); choose another",
                        who, name, fns, name);
  }
  lua_pop(L, 2);
  doc = optstring(L, 1, "doc", who);
  ref = optstring(L, 1, "ref", who);
  if (doc == NULL) doc = "a method written in Lua";
  if (ref == NULL) ref = "";
  /* (3) init and step */
  if (lua_getfield(L, 1, "step") != LUA_TFUNCTION)
    return luaL_error(L, "%s: step must be a function (s, x, o, p), got %s",
                      who, lua_isnil(L, -1) ? "nil (step is missing)"
                      : luaL_typename(L, -1));
  lua_pop(L, 1);
  i = lua_getfield(L, 1, "init");
  if (i != LUA_TNIL && i != LUA_TFUNCTION)
    return luaL_error(L, "%s: init must be a function (s, x, p), got a %s",
                      who, luaL_typename(L, -1));
  lua_pop(L, 1);
  /* (4) params, sorted by name (a table's order is not defined) */
  i = lua_getfield(L, 1, "params");                    /* index 2 */
  if (i != LUA_TNIL && i != LUA_TTABLE)
    return luaL_error(L, "%s: params must be a table {name = {default = "
                      "..., min = ..., max = ..., doc = ...}}, got a %s", who,
                      luaL_typename(L, -1));
  if (i == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING || !isident(lua_tostring(L, -2)))
        return luaL_error(L, "%s: params: a parameter's name must be an "
                          "identifier, got %s", who,
                          lua_type(L, -2) == LUA_TSTRING
                          ? olua_pushshort(L, lua_tostring(L, -2))
                          : luaL_typename(L, -2));
      if (np == UM_MAXPARAMS)
        return luaL_error(L, "%s: at most %d params", who, UM_MAXPARAMS);
      pnames[np++] = lua_tostring(L, -2);
      lua_pop(L, 1);
    }
    qsort(pnames, (size_t)np, sizeof *pnames, cmpstr);
  }
  for (i = 0; i < np; i++) {
    const char *pn = pnames[i];
    ol_err e;
    int ty;
    if (lua_getfield(L, 2, pn) != LUA_TTABLE)
      return luaL_error(L, "%s: params.%s must be a table {default = ..., "
                        "min = ..., max = ..., doc = ...}, got a %s", who, pn,
                        luaL_typename(L, -1));
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                      : "?";
      for (j = 0; parkeys[j] != NULL && strcmp(parkeys[j], k) != 0; j++) {}
      if (parkeys[j] == NULL) {
        lua_pushfstring(L, "%s: params.%s", who, pn);
        olua_unknownkey(L, lua_tostring(L, -1), "key", k, parkeys);
      }
      lua_pop(L, 1);
    }
    memset(&pt[i], 0, sizeof pt[i]);
    pt[i].kind = OL_P_REAL;
    ty = lua_getfield(L, -1, "default");
    if (ty == LUA_TBOOLEAN) {
      pt[i].kind = OL_P_BOOL;
      pt[i].def = lua_toboolean(L, -1);
      pt[i].lo = 0;
      pt[i].hi = 1;
    }
    else if (ty != LUA_TNUMBER)
      return luaL_error(L, "%s: params.%s.default must be a number (or a "
                        "boolean), got %s", who, pn,
                        ty == LUA_TNIL ? "nil (default is missing)"
                        : luaL_typename(L, -1));
    else pt[i].def = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (pt[i].kind == OL_P_REAL) {
      double lo = optnum(L, -1, "min", -INFINITY, who, pn);
      double hi = optnum(L, -1, "max", INFINITY, who, pn);
      if (lo > hi) {
        char a[32], b[32];
        snprintf(a, sizeof a, "%g", lo);
        snprintf(b, sizeof b, "%g", hi);
        return luaL_error(L, "%s: params.%s: min = %s is above max = %s", who,
                          pn, a, b);
      }
      if (optbool(L, -1, "min_open", who, pn)) lo = nextafter(lo, INFINITY);
      if (optbool(L, -1, "max_open", who, pn)) hi = nextafter(hi, -INFINITY);
      pt[i].lo = lo;
      pt[i].hi = hi;
      if (!isfinite(pt[i].def))
        return luaL_error(L, "%s: params.%s.default must be finite", who,
                          pn);
    }
    pt[i].name = pn;
    if (ol_param_check(&pt[i], pt[i].def, &e) != OL_OK)
      return luaL_error(L, "%s: params.%s.default: %s", who, pn, e.msg);
    pdocs[i] = optstring(L, -1, "doc", who);
    if (pdocs[i] == NULL) pdocs[i] = "";
    lua_pop(L, 1);
  }
  /* (5) probes: the probe metrics s.probe may set */
  i = lua_getfield(L, 1, "probes");                    /* index 3 */
  if (i != LUA_TNIL) {
    lua_Integer k, len;
    if (i != LUA_TTABLE)
      return luaL_error(L, "%s: probes must be a list of metric names, got a "
                        "%s", who, luaL_typename(L, -1));
    len = (lua_Integer)lua_rawlen(L, 3);
    if (len > UM_MAXPROBES)
      return luaL_error(L, "%s: at most %d probes", who, UM_MAXPROBES);
    for (k = 1; k <= len; k++) {
      const char *mn;
      int id;
      lua_rawgeti(L, 3, k);
      mn = lua_tostring(L, -1);
      id = mn != NULL && lua_type(L, -1) == LUA_TSTRING ? ol_metric_find(mn)
                                                        : -1;
      if (id < 0 || !ol_metric_byprobe(id)) {
        luaL_Buffer b;
        int m, first = 1;
        luaL_buffinit(L, &b);
        for (m = 0; m < OL_NMETRICS; m++)
          if (ol_metric_byprobe(m)) {
            if (!first) luaL_addstring(&b, ", ");
            luaL_addstring(&b, ol_metric_types[m]->name);
            first = 0;
          }
        luaL_pushresult(&b);
        return luaL_error(L, "%s: probes[%d] is not a probe metric (valid: "
                          "%s)", who, (int)k, lua_tostring(L, -1));
      }
      probes[nprobe++] = id;
      lua_pop(L, 1);
    }
  }
  /* (6) the box: type, params, strings; anchored for the state's life */
  strbytes = strlen(name) + strlen(doc) + strlen(ref) + 3;
  for (i = 0; i < np; i++) strbytes += strlen(pnames[i]) + strlen(pdocs[i]) + 2;
  u = lua_newuserdatauv(L, sizeof *u + strbytes, 1);   /* index 4 */
  memset(u, 0, sizeof *u);
  u->initref = u->stepref = LUA_NOREF;
  at = u->str;
  u->t.name = keep(&at, name);
  u->t.doc = keep(&at, doc);
  u->t.ref = keep(&at, ref);
  for (i = 0; i < np; i++) {
    u->par[i] = pt[i];
    u->par[i].name = keep(&at, pnames[i]);
    u->par[i].doc = keep(&at, pdocs[i]);
    if (pt[i].kind == OL_P_REAL) u->t.params_live |= OL_LIVE(i);
  }
  u->t.family = fam;
  u->t.params = u->par;
  u->t.nparams = np;
  u->t.size = sizeof(ustate);
  u->t.init = u_init;
  u->t.step = u_step;
  u->t.fini = u_fini;
  u->nprobe = nprobe;
  memcpy(u->probe, probes, (size_t)nprobe * sizeof *probes);
  for (i = 0; i < nprobe; i++) ol_mset_add(&u->t.probes, probes[i]);
  if (nprobe > 0) u->t.probe = u_probe;
  switch (fam) {
  case OL_SAMPLER:
    u->t.kinds = OL_KIND(OL_DENSITY) | OL_KIND(OL_OBJECTIVE);
    u->t.stats = u_stats;
    break;
  case OL_DYNAMIC:
    u->t.kinds = OL_KIND(OL_GAME);
    u->t.flags = OL_M_NEEDSET | OL_M_OWNAVG;
    u->t.check = ol_game_check;
    u->t.probe = u_probe;
    u->t.probes = ol_mset_or(u->t.probes, OL_MSET_OF(OL_MET_REGRET,
                                                     OL_MET_REGRET1,
                                                     OL_MET_REGRET2));
    break;
  default:
    u->t.kinds = OL_KIND(OL_OBJECTIVE) | OL_KIND(OL_DENSITY);
  }
  u->S = olua_getstate(L);
  lua_createtable(L, 3, 0);                /* the box's anchor table */
  u->Z = lua_newthread(L);
  lua_rawseti(L, -2, 1);
  lua_getfield(L, 1, "step");
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, 2);
  u->stepref = luaL_ref(L, LUA_REGISTRYINDEX);
  if (lua_getfield(L, 1, "init") == LUA_TFUNCTION) {
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, 3);
    u->initref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  else lua_pop(L, 1);
  lua_setiuservalue(L, 4, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, UM_REG);
  lua_pushvalue(L, 4);
  lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
  lua_pop(L, 1);
  /* (7) the constructor, registered as a built-in's */
  olua_registermethod(L, lua_upvalueindex(1), &u->t);
  lua_getglobal(L, fns);
  lua_pushstring(L, name);
  lua_rawget(L, -2);                       /* the constructor */
  lua_getfield(L, lua_upvalueindex(1), "ctors");
  lua_pushvalue(L, -2);
  lua_rawget(L, -2);
  lua_pushboolean(L, 1);
  lua_setfield(L, -2, "user");
  lua_pop(L, 2);
  /* its keys for the completion (lua/help.lua's __params) */
  if (lua_getmetatable(L, -2)) {
    if (lua_getfield(L, -1, "__params") == LUA_TTABLE) {
      lua_createtable(L, np, 0);
      for (i = 0; i < np; i++) {
        lua_pushstring(L, u->t.params[i].name);
        lua_rawseti(L, -2, i + 1);
      }
      lua_setfield(L, -2, name);
    }
    lua_pop(L, 2);
  }
  return 1;
}

void olua_openusermethod (lua_State *L)
{
  static const int fams[] = {OL_OPTIM, OL_SAMPLER, OL_DYNAMIC};
  int core = lua_gettop(L), i;
  luaL_newmetatable(L, OLUA_ORACLE);
  luaL_newlib(L, oracle_methods);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, o_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  luaL_newmetatable(L, OLUA_URNG);
  luaL_newlib(L, rng_methods);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  for (i = 0; i < 3; i++) {
    lua_getglobal(L, famname(fams[i]));
    lua_pushvalue(L, core);
    lua_pushinteger(L, fams[i]);
    lua_pushcclosure(L, usermethod_new, 2);
    lua_setfield(L, -2, "new");
    lua_pop(L, 1);
  }
}
