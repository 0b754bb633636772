/*
** core/problem.h -- what is optimized, sampled or played.
**
** A problem offers oracles (value + gradient with a status return, an
** optional dense Hessian), an optional constraint set with its projection,
** an optional noise model for stochastic gradients, and the known facts
** that make exact metrics possible (x*, f*, target moments, payoffs).
**
** Three kinds share one oracle:
**   objective  f(x) and grad f(x)                    (minimised)
**   density    U(x) = -log p(x) + const and grad U   (the potential)
**   game       z = (x, y) joint strategy; f(z) = x'Ay (row player's
**              payoff) and "gradient" g(z) = -(A y, -A'x), i.e. minus
**              each player's utility vector, so descent on g is each
**              player ascending its own payoff.
**
** Built-in problem types are registered in core/problems/list.h, one line
** each; user problems (Lua functions) are made with ol_problem_custom.
** Every problem points at its type (p->type, never NULL), whose hooks tell
** the structure some methods need (a game, a tree, a mixture, an MDP, ...).
** A problem is complete and checked when it is built: ol_problem_new or
** ol_problem_custom, then the checked setters below (x0, noise, set, l1,
** and for a custom problem its kind, Hessian, name and known optimum),
** each validating its value once with a message naming it.  The first
** ol_run_new on a problem freezes it (p->frozen): from then on it is
** immutable, every setter refuses, and it may be shared by many runs;
** runs borrow it and it must outlive them.  Callers (the binding
** included) never write the struct's fields themselves.
*/
#ifndef OL_PROBLEM_H
#define OL_PROBLEM_H

#include "ol.h"

enum { OL_OBJECTIVE, OL_DENSITY, OL_GAME };

/* Oracle.  At x (n entries, borrowed) store the value in *f when f is not
** NULL and the gradient in g when g is not NULL.  Returns OL_OK or an
** error code with e filled (a Lua callback returns OL_ECALLBACK with its
** traceback).  Must not keep x. */
typedef int (*ol_fdf_fn) (void *ud, const double *x, double *f, double *g,
                          ol_err *e);
/* Separable gradient: for a problem whose g_i depends on x_i alone, store
** g_lo .. g_{hi-1} of the true gradient at x in gb[0, hi - lo), and
** return OL_EDOM ("non-finite gradient") when one is not finite (the test
** folded into the loop with ol_fbit).  Lets coordinate-wise methods take
** the gradient a block at a time into a buffer that stays in cache
** (ol_ctx_grad_apply). */
typedef int (*ol_gsep_fn) (void *ud, const double *x, int lo, int hi,
                           double *gb, ol_err *e);

/* Blocks are asked for in increasing order, so a separable oracle can
** prefetch what it will read OL_GSEP_AHEAD coordinates on: a[lo, hi)
** shifted by that much (one request per 64-byte line; n bounds a).  The
** update of the current block is bound by its arithmetic and leaves the
** memory bus idle; this fills it (blocked Adam at d = 10^6 went from 1.33x
** to 1.17x the fused loop). */
#define OL_GSEP_AHEAD 1024
static inline void ol_gsep_prefetch (const double *a, int lo, int hi, int n)
{
#if defined(__GNUC__)
  int j, end = hi + OL_GSEP_AHEAD < n ? hi + OL_GSEP_AHEAD : n;
  for (j = lo + OL_GSEP_AHEAD; j < end; j += 8) __builtin_prefetch(a + j);
#else
  (void)a; (void)lo; (void)hi; (void)n;
#endif
}
/* Dense Hessian, row-major n x n, written to H. */
typedef int (*ol_hess_fn) (void *ud, const double *x, double *H, ol_err *e);

/* Constraint sets (core/sets.c).  Lua spells them set = {box = {lo, hi}},
** {simplex = {k1, k2, ...}}, {l1ball = r}, {l2ball = r}. */
enum {
  OL_SET_NONE,
  OL_SET_BOX,       /* lo <= x <= hi, componentwise */
  OL_SET_SIMPLEX,   /* product of probability simplices, see blocks */
  OL_SET_L1BALL,    /* ||x||_1 <= radius */
  OL_SET_L2BALL     /* ||x||_2 <= radius */
};

#define OL_MAXBLOCKS 8
#define OL_SET_TOL 1e-9   /* feasibility tolerance of a start x0 */

typedef struct ol_set {
  int kind;                  /* OL_SET_* */
  double *lo, *hi;           /* OL_SET_BOX: n bounds each (owned) */
  int nblocks;               /* OL_SET_SIMPLEX: number of simplices */
  int blocks[OL_MAXBLOCKS];  /* their sizes, summing to n */
  double radius;             /* OL_SET_L1BALL, OL_SET_L2BALL: r > 0 */
} ol_set;

/* Euclidean projection of x (n entries) onto s, in place.  Simplex: the
** sort-based algorithm of Held, Wolfe & Crowder (1974) (Duchi,
** Shalev-Shwartz, Singer & Chandra 2008, fig. 1; Condat 2016); l1 ball:
** the simplex projection of |x| with radius r, signs restored (Duchi et
** al. 2008, sec. 4); l2 ball: x min(1, r / ||x||); box: clamp.  work
** needs n doubles (simplex and l1 ball; NULL is fine for the others). */
void ol_set_project (const ol_set *s, double *x, int n, double *work);
/* Linear minimisation oracle of Frank-Wolfe: v = argmin_{v in s} <g, v>
** (n entries).  Box: lo_i where g_i > 0, hi_i where g_i < 0, lo_i where
** g_i = 0 (a corner; OL_EINVAL when that bound is infinite); simplex: the
** vertex e_a of each block at a = argmin_a g_a (the first); l1 ball:
** -r sign(g_i) e_i at i = argmax |g_i| (the first; r e_1 when g = 0);
** l2 ball: -r g / ||g|| (0 when g = 0).  OL_EINVAL for an unconstrained
** or unbounded set (e may be NULL). */
int ol_set_lmo (const ol_set *s, const double *g, double *v, int n,
                ol_err *e);
/* Frank-Wolfe gap max_{v in s} <g, x - v> = <g, x> - min_{v in s} <g, v>
** without forming v: box sum_i (g_i x_i - min(g_i lo_i, g_i hi_i));
** simplices sum over blocks (<g_b, x_b> - min_a g_ba); l1 ball
** <g, x> + r ||g||_inf; l2 ball <g, x> + r ||g||_2.  >= 0 for x in s, 0
** exactly at the minimisers of a convex f with g = grad f(x).  INFINITY
** on an unbounded box side that g points to; NAN when s is NULL or
** unconstrained. */
double ol_set_fwgap (const ol_set *s, const double *x, const double *g,
                     int n);
/* 1 when x lies in s up to tol. */
int ol_set_contains (const ol_set *s, const double *x, int n, double tol);
/* OL_OK when x lies in s up to tol, else OL_EINVAL with e naming the set
** and the first violation ("block 1 (entries 1..3) sums to 1.1, not 1"). */
int ol_set_explain (const ol_set *s, const double *x, int n, double tol,
                    ol_err *e);
/* The set's Lua spelling for messages and prints: "box", "simplex",
** "simplex {3, 3}", "l1ball 2", "l2ball 1", or "none"; writes at most
** size bytes to buf and returns buf. */
char *ol_set_describe (const ol_set *s, char *buf, size_t size);

/* Noise models for stochastic gradients.  The additive kinds give
** g = grad f(x) + xi with E xi = 0; OL_NOISE_BATCH gives the minibatch
** gradient of a finite sum (needs p->nsum and p->fdfi). */
enum {
  OL_NOISE_NONE,
  OL_NOISE_GAUSS,    /* xi ~ N(0, sigma^2 I) */
  OL_NOISE_ANISO,    /* xi ~ N(0, sigma^2 H / batch), H the Hessian at x0:
                        xi = sigma/sqrt(batch) L z with H = L L' (chol) */
  OL_NOISE_STUDENT,  /* xi_i = sigma t_nu: finite p-th moment only for
                        p < nu (heavy tails for nu <= 2) */
  OL_NOISE_ASYM,     /* xi_i = sigma (E_i - 1), E_i ~ Exp(1): zero mean,
                        skewed (asymmetric) */
  OL_NOISE_AFFINE,   /* affine variance (B043): with g = grad f(x),
                        xi_i = sqrt(sigma^2 / n + sigma1^2 g_i^2) z_i,
                        z ~ N(0, I), so E xi = 0 and exactly
                        E||xi||^2 = sigma^2 + sigma1^2 ||g||^2 (sigma is
                        Lua's sigma0); per coordinate E xi_i^2 =
                        sigma^2/n + sigma1^2 g_i^2, the coordinate-wise
                        form of Zhang, Zhou & Zou 2025, Assumption 3 */
  OL_NOISE_BATCH     /* minibatch of 'batch' components drawn in 'order' */
};

/* Orders of drawing finite-sum components (OL_NOISE_BATCH). */
enum {
  OL_ORDER_REPLACE,  /* uniformly with replacement */
  OL_ORDER_SHUFFLE,  /* random reshuffling: a new permutation every epoch */
  OL_ORDER_ONCE,     /* shuffle once, then the same permutation each epoch */
  OL_ORDER_CYCLIC,   /* 0, 1, ..., N-1, 0, ... (online problems) */
  OL_ORDER_GRAB      /* GraB: each epoch's order balances the centred
                        component gradients of the epoch before (online
                        gradient balancing, core/oracle.c) */
};

typedef struct ol_noise {
  int kind;
  double sigma;              /* scale (additive kinds) */
  double nu;                 /* OL_NOISE_STUDENT: degrees of freedom */
  int batch;                 /* ANISO: covariance divisor; BATCH: size */
  int order;                 /* OL_NOISE_BATCH: OL_ORDER_* */
  double *chol;              /* ANISO: lower Cholesky factor of H, n x n
                                row-major (owned by the problem) */
  double sigma1;             /* OL_NOISE_AFFINE: the gradient-proportional
                                scale (sigma is the constant one) */
} ol_noise;

/* Component oracle of a finite sum f = (1/N) sum_i f_i: value and/or
** gradient of f_i at x, 0 <= i < N. */
typedef int (*ol_fdfi_fn) (void *ud, long i, const double *x, double *f,
                           double *g, ol_err *e);

/* Optional with fdfi: grad f_i(x) added into g (n entries) for each of the
** cnt indices idx[0..cnt), in that order, each term as fdfi computes it,
** so that the sum is fdfi's to the bit; one call instead of cnt (a
** worker's local gradient over its whole shard, core/dist/dist.c). */
typedef int (*ol_gsumi_fn) (void *ud, const long *idx, long cnt,
                            const double *x, double *g, ol_err *e);

/* General constraints (core/constr.c), objectives only: m functions c_i
** of x, each an equality c_i(x) = 0 or an inequality c_i(x) >= 0 (SciPy's
** convention), numbered 0..m-1 in the order given.  The callback stores
** c_i(x) in *c (when c is not NULL) and grad c_i(x) in g (n entries, when
** g is not NULL); it is asked for a gradient only for constraints with
** fd[i] == 0 (the others get central differences, ol_problem_ceval).
** OL_OK or a code with e set (a Lua callback: OL_ECALLBACK with its
** traceback).  Must not keep x. */
enum { OL_CON_EQ, OL_CON_INEQ };
#define OL_MAXCON 1000
typedef int (*ol_con_fn) (void *ud, int i, const double *x, double *c,
                          double *g, ol_err *e);
typedef struct ol_constr {
  int m, meq, mineq;         /* counts: m = meq + mineq (0: none) */
  int *kind;                 /* m entries, OL_CON_* (owned) */
  int *fd;                   /* m entries: 1 = gradient by differences */
  ol_con_fn fn;              /* NULL when m == 0 */
  void *ud;                  /* borrowed: lives as long as the problem
                                (a binding passes its oracle's ud) */
} ol_constr;

/* A finite sum's components split among workers (distributed methods,
** core/dist/): worker w holds the components perm[start[w]] ..
** perm[start[w + 1] - 1]; a fraction participation of the workers takes
** part in each round.  n = 0: no split. */
typedef struct ol_workers {
  int n;                     /* workers */
  double heterogeneity;      /* as set (ol_problem_set_workers) */
  double participation;      /* (0, 1] */
  long *start;               /* n + 1 offsets into perm (owned) */
  long *perm;                /* nsum component indices (owned) */
} ol_workers;

typedef struct ol_problem {
  /* What kind of problem this is: its registry entry (ol_problem_new), or
  ** ol_problem_custom_type / ol_problem_density_type (made from an
  ** oracle); never NULL.  Its hooks are the one way to tell a problem's
  ** structure: nothing compares a problem's function pointers. */
  const struct ol_problem_type *type;
  char name[32];             /* "rosenbrock", "lua", ... */
  int kind;                  /* OL_OBJECTIVE, OL_DENSITY, OL_GAME */
  int n;                     /* dimension (joint strategy length for games) */
  ol_fdf_fn fdf;             /* never NULL */
  ol_hess_fn hess;           /* NULL when no Hessian */
  ol_gsep_fn gsep;           /* NULL unless the gradient is separable */
  void *ud;                  /* oracle user data */
  void (*free_ud) (void *);  /* called on ud by ol_problem_free, may be NULL */
  int fd_grad;               /* 1: fdf gives values only; gradients are
                                central finite differences (ol_problem_eval) */
  ol_set set;
  ol_noise noise;
  double *x0;                /* default start (n), owned, never NULL */
  double *xstar;             /* known minimiser / mode / equilibrium, or NULL */
  double fstar;              /* known optimal value, NAN when unknown */
  double *mean, *cov;        /* density: known mean (n) and covariance
                                (n x n) or NULL */
  int rows, cols;            /* game: payoff matrix shape */
  double *payoff;            /* game: A, rows x cols row-major (owned); the
                                row player (first block) gets x'Ay */
  long nsum;                 /* finite sum: number of components N, or 0 */
  ol_fdfi_fn fdfi;           /* finite sum: component oracle, or NULL */
  ol_gsumi_fn gsumi;         /* finite sum: summed component gradients over
                                a list of indices, or NULL */
  int quadratic;             /* f is quadratic: f(x* + d) - f* = 1/2 d'Hd
                                exactly (with x*, f* known: the bias and
                                variance metrics) */
  double l1;                 /* composite: F = f + l1 ||x||_1 (0: none);
                                fdf gives the smooth part f only */
  const struct ol_penalty *pen;  /* the composite term's shape with weight
                                l1 (core/penalty.h): NULL for the l1 norm,
                                or &ol_penalty_scad, F = f + sum_i
                                SCAD(|x_i|; l1, pen_a) */
  double pen_a;              /* its shape parameter (SCAD's a > 2) */
  int mrows, mcols;          /* x is a matrix W (mrows x mcols, row-major),
                                or 0 when x is a plain vector */
  int mblocks[4];            /* x stacks several matrices of mcols columns:
                                their row counts (summing to mrows), 0-ended;
                                all 0 when x is one matrix */
  char desc[128];            /* one-line description with parameters */
  const struct ol_transform *xform;  /* density sampled on an unconstrained
                                scale: the oracle's x is u, the quantities
                                of interest are ol_problem_constrain(p, u)
                                (see the end of this file); NULL for every
                                other problem */
  ol_constr con;             /* general constraints (m = 0: none) */
  ol_workers workers;        /* the components' workers (n = 0: none) */
  int frozen;                /* a run was made on it: the setters refuse
                                (the one field ol_run_new writes) */
  char **names;              /* the n coordinates' names (named parameters,
                                "theta[1]"; owned), or NULL: x1, x2, ... */
} ol_problem;

/* Evaluate the true oracle at x, with central differences when fd_grad is
** set (step h_i = cbrt(eps) * max(1, |x_i|); work needs n doubles).
** Checks that what it returns is finite: OL_EDOM otherwise. */
int ol_problem_eval (const ol_problem *p, const double *x, double *f,
                     double *g, double *work, ol_err *e);

/* Finite-difference Hessian at x into H (n x n row-major), for problems
** without p->hess: central differences of the true gradient oracle,
**   column i = (g(x + h_i e_i) - g(x - h_i e_i)) / (2 h_i),
**   h_i = cbrt(eps) * max(1, |x_i|)  (over the exact representable step),
** then symmetrised, H := (H + H')/2, so H is exactly symmetric.  2n
** gradient evaluations through ol_problem_eval (so a value-only problem,
** fd_grad, gets differences of its difference gradient; noise is never
** added).  Truncation error O(h^2 |g'''|), rounding O(eps |g| / h): both
** ~ eps^(2/3) ~ 4e-11 relative for well-scaled problems.  work needs 2n
** doubles (3n when p->fd_grad); x is not changed.  Returns OL_OK, the
** oracle's own code (e.g. OL_ECALLBACK), OL_EDOM when a gradient or
** the result is not finite, or OL_EINTR when the interrupt flag is up
** before a column (ol_interrupted).  H is unspecified on error. */
int ol_problem_fdhess (const ol_problem *p, const double *x, double *H,
                       double *work, ol_err *e);

/* Prepare the anisotropic noise of p: Cholesky factor of the Hessian at
** p->x0 into p->noise.chol (LAPACKE dpotrf).  OL_EINVAL without a
** Hessian, OL_ENUMERIC when H is not positive definite. */
int ol_problem_aniso (ol_problem *p, ol_err *e);

/* Game helpers (kind == OL_GAME, two players, zero-sum payoff A). */
/* Duality gap of z = (x, y): max_i (A y)_i - min_j (A'x)_j, >= 0. */
double ol_game_gap (const ol_problem *p, const double *z, double *work);

/* Problem types (registry).  Written with designated initialisers; every
** field after create is optional (0 / NULL: none).
**
** The structure hooks tell the methods and metrics that need more than
** the oracle what a problem of the type is: each returns the structure of
** p, borrowed from p (from its ud, or static) for p's life, or NULL when p
** has none (yet: ud is set during create).  Callers ask through the
** structure's own accessor (ol_game_of, ol_kuhn_is, ol_gmm_of,
** ol_tokens_of, ol_mdp_of, ol_bilevel_of, ol_linmdp_of, ol_ssm_of), which answers
** NULL for a type without the hook.  Adding a structure is one hook
** here, one accessor beside the structure, and the hook named in the
** types that have it. */
struct ol_game;      /* problems/game.h: a bimatrix game */
struct ol_tree;      /* problems/kuhn.h: an extensive-form game tree */
struct ol_gmm;       /* problems/gmm.h: a Gaussian mixture */
struct ol_tokens;    /* problems/tokens.h: a token-sequence target */
struct ol_mdp;       /* rl/mdp.h: a tabular finite-horizon MDP */
struct ol_bilevel;   /* problems/bilevel.h: upper and lower levels */
struct ol_linmdp;    /* problems/linmdp.h: a discounted MDP with features */
struct ol_manifold;  /* manifold.h: x on a submanifold h(x) = 0 */
struct ol_ssm;       /* problems/ssm.h: a state-space model with its data */
typedef struct ol_problem_type {
  const char *name;          /* Lua name: problem.<name>{...} */
  int kind;                  /* the kind its problems are made with
                                (ol_problem_set_kind may change a custom
                                problem's own p->kind) */
  const char *doc;           /* one line */
  const char *ref;           /* reference, or NULL */
  const ol_param *params;
  int nparams;
  /* Fill p (zeroed, with fstar = NAN, type and kind set) from v (nparams
  ** values, in table order, already range-checked).  Allocations go into
  ** p's owned fields or ud + free_ud; on failure return a code with e set
  ** (the caller frees the partial problem with ol_problem_free).  NULL for
  ** the types of problems made from an oracle, which ol_problem_new
  ** refuses. */
  int (*create) (ol_problem *p, const ol_pval *v, ol_err *e);
  /* The name of a parameter a binding takes as a function of the pure
  ** actions (i, j) returning the payoffs (a, b; b absent: zero-sum),
  ** tabulated over m x n (the params "m" and "n") into the matrix params
  ** "A" and "B" (matrixgame's u); NULL: none.  Not in params: a value of
  ** the core is a number or an array. */
  const char *payoff_fn;
  /* Structure hooks (see above). */
  const struct ol_game *(*game) (const ol_problem *p);
  const struct ol_tree *(*tree) (const ol_problem *p);
  const struct ol_gmm *(*mixture) (const ol_problem *p);
  const struct ol_tokens *(*tokens) (const ol_problem *p);
  const struct ol_mdp *(*mdp) (const ol_problem *p);
  const struct ol_bilevel *(*bilevel) (const ol_problem *p);
  const struct ol_linmdp *(*linmdp) (const ol_problem *p);
  const struct ol_manifold *(*manifold) (const ol_problem *p);
  const struct ol_ssm *(*ssm) (const ol_problem *p);
} ol_problem_type;

extern const ol_problem_type *const ol_problem_types[];   /* NULL-ended */
const ol_problem_type *ol_problem_type_find (const char *name);
/* The types of problems made from an oracle, not in the registry (no
** create): ol_problem_custom's ("custom", Lua's problem.new) and
** ol_problem_density's ("density", Lua's problem.density). */
extern const ol_problem_type ol_problem_custom_type;
extern const ol_problem_type ol_problem_density_type;

/* Make a problem of type t with values v (nparams entries).  NULL on error
** with e set.  The result is owned by the caller: ol_problem_free. */
ol_problem *ol_problem_new (const ol_problem_type *t, const ol_pval *v,
                            ol_err *e);
/* A user problem of dimension n with oracle fdf (fd_grad: gradients by
** finite differences).  ud is kept until ol_problem_free, which calls
** free_ud(ud).  x0 defaults to zeros. */
ol_problem *ol_problem_custom (int n, ol_fdf_fn fdf, int fd_grad, void *ud,
                               void (*free_ud) (void *), ol_err *e);
void ol_problem_free (ol_problem *p);   /* NULL is a no-op */
/* A user finite sum f = (1/m) sum_{i<m} f_i of dimension n from its
** component oracle fdfi (core/problems/finitesum.c): p->nsum = m, p->fdfi
** calls fdfi(ud, i, ...), p->fdf sums the m components in index order.
** Of type ol_problem_finitesum_type ("finitesum"), an objective; x0
** zeros.  On success the problem owns ud (free_ud, may be NULL); on
** failure (NULL, e set) ud stays the caller's. */
extern const ol_problem_type ol_problem_finitesum_type;
ol_problem *ol_problem_finitesum (int n, long m, ol_fdfi_fn fdfi, void *ud,
                                  void (*free_ud) (void *), ol_err *e);

/* Checked setters.  Each validates its value, then stores it (copies:
** arrays are borrowed for the call); on any failure p is unchanged and
** OL_EINVAL (OL_ENOMEM, OL_ENUMERIC for aniso) is returned with e
** holding a message without the problem's prefix, e.g. "l1 = -1 is out
** of range [0, inf)", so a binding can put its own caller's name first.
** All refuse a frozen problem: "<name> is in use by a run: its x0, noise,
** set and l1 are fixed". */
/* The default start: n must be p->n ("x0 has 2 entries, expected n = 3"),
** every entry finite ("x0[2] = nan is not finite").  With anisotropic
** noise the Hessian is factored again at the new x0. */
int ol_problem_set_x0 (ol_problem *p, const double *x, int n, ol_err *e);
/* The noise model spec (spec->chol is ignored).  Checked: the kind, sigma
** and sigma1 in [0, inf), nu in (0, inf), batch >= 1 and, for
** OL_NOISE_BATCH, a finite-sum problem with batch <= N and a valid
** order; OL_NOISE_ANISO
** factors the Hessian at x0 (ol_problem_aniso; a failure names it:
** 'noise kind "aniso": ...'). */
int ol_problem_set_noise (ol_problem *p, const ol_noise *spec, ol_err *e);
/* The composite weight of F = f + lam ||x||_1: lam in [0, inf). */
int ol_problem_set_l1 (ol_problem *p, double lam, ol_err *e);
/* The composite term's shape (core/penalty.h) by name, "l1" or "scad",
** with its parameter *a (a NULL: the kind's default, 3.7 for SCAD; a
** kind without one refuses a value): 'penalty "x" is unknown (valid: l1,
** scad)', "scad a = 2 is out of range (2, inf)" (nan and inf too).  The
** weight stays p->l1. */
int ol_problem_set_penalty (ol_problem *p, const char *name, const double *a,
                            ol_err *e);
/* The constraint set, copied (a box's lo, hi: n entries each, borrowed;
** lo_i <= hi_i, no nan; a simplex's 1..OL_MAXBLOCKS blocks, each >= 1,
** sum to n; a ball's radius is finite and > 0; OL_SET_NONE removes it).
** The start x0 need not lie in it: a run checks the start it uses. */
int ol_problem_set_set (ol_problem *p, const ol_set *s, ol_err *e);
/* x as a matrix W of mrows x mcols (mrows mcols = n), or several stacked
** ones: blocks (NULL: one matrix) lists their row counts, 0-ended, at
** most 4, summing to mrows; mrows = mcols = 0 makes x a plain vector. */
int ol_problem_set_matrix (ol_problem *p, int mrows, int mcols,
                           const int *blocks, ol_err *e);
/* A custom problem's kind (OL_OBJECTIVE or OL_DENSITY: a game needs its
** payoff, so only the catalog makes one). */
int ol_problem_set_kind (ol_problem *p, int kind, ol_err *e);
/* The Hessian oracle (NULL: none). */
int ol_problem_set_hess (ol_problem *p, ol_hess_fn hess, ol_err *e);
/* The name (1..31 bytes, cut otherwise) and a description "name{n=N}". */
int ol_problem_set_name (ol_problem *p, const char *name, ol_err *e);
/* The names of the n coordinates (copied; names NULL clears them), which
** plots show instead of x1, x2, ...  OL_EINVAL for a NULL or empty name,
** OL_ENOMEM. */
int ol_problem_set_names (ol_problem *p, const char *const *names,
                          ol_err *e);
/* Coordinate j's (0-based) name: p's own, else "x<j+1>" written to buf. */
const char *ol_problem_coordname (const ol_problem *p, int j, char *buf,
                                  size_t sz);
/* The known minimiser (n = p->n entries, copied; NULL: unknown) and
** optimal value (NAN: unknown); finite when known. */
int ol_problem_set_xstar (ol_problem *p, const double *x, int n, ol_err *e);
int ol_problem_set_fstar (ol_problem *p, double fstar, ol_err *e);

/* General constraints: m (1..OL_MAXCON) constraints of kinds kind[i]
** (OL_CON_EQ, OL_CON_INEQ), hasgrad[i] != 0 when fn gives the gradient
** of constraint i (else central differences), evaluated by fn(ud, ...)
** (see ol_constr above; ud is borrowed for the problem's life).  Only
** for objectives; m = 0 removes them.  Bounds lower <= x <= upper are
** the box set (ol_problem_set_set). */
int ol_problem_set_constraints (ol_problem *p, int m, const int *kind,
                                const int *hasgrad, ol_con_fn fn, void *ud,
                                ol_err *e);

/* Split the finite sum of p (p->nsum components, p->fdfi) among n
** workers (1 <= n <= nsum), in contiguous shards of the order of the key
**   k_i = h z_i + (1 - h) xi_i,
** z_i the standardised projection of grad f_i(x0) on a random direction
** u, xi_i standard normal (u and xi drawn from seed): heterogeneity h = 0
** shuffles the components at random, h = 1 sorts them by the direction
** their gradients pull x0 (workers whose optima lie apart).  participation
** in (0, 1] is the fraction of the workers in each round.  The oracle is
** called nsum times. */
int ol_problem_set_workers (ol_problem *p, int n, double heterogeneity,
                            double participation, uint64_t seed, ol_err *e);
/* The same with the shards given: worker w holds components
** [start[w], start[w + 1]) in index order (a built-in whose clients are
** its components, e.g. fedquad); start has n + 1 entries, 0 to nsum. */
int ol_problem_set_shards (ol_problem *p, int n, const long *start,
                           double heterogeneity, double participation,
                           ol_err *e);

/* Shared allocation helper for create functions: zeroed n doubles,
** NULL with e set on failure. */
double *ol_problem_alloc (int n, ol_err *e);

/* Unconstrained parametrisations (core/problems/bounded.c).  A density
** over constrained or awkwardly shaped variables x is sampled on an
** unconstrained scale u, x = T(u), where its potential is
**   U(u) = -log p(T(u)) - log |det dT/du(u)|,
** so the draws of u, mapped by T, are draws of p (Stan's reference
** manual, "Constraint transforms").  p->xform says what T is: samplers,
** metrics and the oracle see u; draws and summaries are meant to be
** reported as x = T(u).  When xform is set, p->x0 and p->xstar (the
** minimiser of U) are on the u scale, and p->mean, p->cov (when known)
** are the moments of x.
**
** The bound transforms, per coordinate (lo = -inf or hi = inf: none):
**   lower only   x = lo + exp(u)                 log|dx/du| = u
**   upper only   x = hi - exp(u)                 log|dx/du| = u
**   both         x = lo + (hi - lo) s, s = 1 / (1 + exp(-u))
**                                 log|dx/du| = log(hi - lo) + log s
**                                              + log(1 - s)
**   neither      x = u                           0
** A transform struct lives as long as its problem (in its ud, or static). */
typedef struct ol_transform {
  const double *lo, *hi;     /* bounds (n each), or NULL when T is not a
                                bound transform */
  /* T itself when it is not a bound transform (lo, hi NULL): x = T(u),
  ** n entries each (x may alias u); its inverse, OL_OK or OL_EINVAL with
  ** e naming the coordinate when x lies outside the support. */
  void (*constrain) (int n, const double *u, double *x);
  int (*unconstrain) (int n, const double *x, double *u, ol_err *e);
} ol_transform;

/* x = T(u) for a problem with p->xform, a copy of u otherwise (n = p->n
** entries; x may alias u).  Never fails: a u of large magnitude gives x
** on a bound (exp underflows, s rounds to 0 or 1), or infinite on the
** open side of a one-sided bound. */
void ol_problem_constrain (const ol_problem *p, const double *u, double *x);
/* u = T^-1(x); a copy without xform.  OL_EINVAL (e says which coordinate
** and its interval) when x is not strictly inside the bounds. */
int ol_problem_unconstrain (const ol_problem *p, const double *x, double *u,
                            ol_err *e);

/* A density from an oracle of log p, the sign users write: logp is a
** problem (from ol_problem_custom) whose fdf gives f = log p(x) + const
** and g = grad log p (or values only, logp->fd_grad).  Returns a problem
** of kind OL_DENSITY whose fdf is the potential U(u) above, its gradient
** by the chain rule (or finite differences on the u scale when
** logp->fd_grad), with the bounds lo, hi (n each, or NULL: none;
** entries -inf / inf: none; lo_i < hi_i) and the start x0 (n, on the
** constrained scale, strictly inside the bounds; NULL: u = 0).  xform is
** set when some coordinate is bounded, NULL otherwise (then U = -log p).
** On success the result owns logp (and frees it with itself); on failure
** NULL with e set (a bound pair out of order, x0 outside them, out of
** memory) and logp is left to the caller. */
ol_problem *ol_problem_density (ol_problem *logp, const double *lo,
                                const double *hi, const double *x0,
                                ol_err *e);

#endif
