/*
** core/problems/efg.c -- a user's two-player zero-sum extensive-form game
** as a game tree (problems/efg.h: the description, its validation and the
** numbering of the information sets; problems/kuhn.h: the tree contract).
**
** The preorder description is converted once into flat arrays (per node:
** who moves, its information set, its children as a run of edges with
** their chance probabilities, a leaf's payoff), and the walks of kuhn.h
** run on them:
**   value    u_1(x) = sum over leaves z of chance(z) pi_1(z) pi_2(z) u(z)
**   walk     the counterfactual values cfv(I, a) = sum over h in I of
**            chance(h) pi_{-i}(h) u_i(h a) and own reaches pi_i(I)
**            (Zinkevich et al. 2007, eq. (7), unnormalised), as
**            problems/kuhn.c's walk computes them for Kuhn poker;
**   brvalue  player i's best response by one walk per own depth, deepest
**            information sets first (the depth of I is the number of i's
**            own information sets above it, the same for all of I's nodes
**            by perfect recall; a set's counterfactual values depend only
**            on i's choices below it, already best responses);
**   nashconv the sum of both players' best-response gains.
** Recursion is bounded by OL_EFG_MAXDEPTH.  The tree (struct efg) is the
** problem's ud, freed with it.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "efg.h"
#include "kuhn.h"

typedef struct efg {
  ol_tree tree;          /* first: the tree hook answers &G->tree */
  int nn;                /* nodes */
  int *who;              /* nn: 0, 1, OL_EFG_CHANCE, OL_EFG_LEAF */
  int *iset;             /* nn: a decision's information set */
  int *kid;              /* nn: its first edge in child / prob */
  int *nkid;             /* nn */
  int *child;            /* nn - 1 edges: the child node */
  double *prob;          /* nn - 1 edges: chance probability (else 1) */
  double *u;             /* nn: a leaf's payoff for player 1 */
  int *depth;            /* n: own depth of each information set */
  int maxdepth[2];
  char **name, **where;  /* n each, owned strings */
  const char *(*act)[2]; /* n: owned strings */
} efg;

static void efg_free (void *ud)
{
  efg *G = ud;
  int I;
  if (G == NULL) return;
  for (I = 0; I < G->tree.n; I++) {
    if (G->name != NULL) free(G->name[I]);
    if (G->where != NULL) free(G->where[I]);
    if (G->act != NULL) {
      free((char *)G->act[I][0]);
      free((char *)G->act[I][1]);
    }
  }
  free(G->name);
  free(G->where);
  free(G->act);
  free(G->who);
  free(G->iset);
  free(G->kid);
  free(G->nkid);
  free(G->child);
  free(G->prob);
  free(G->u);
  free(G->depth);
  free(G);
}

/* == the walks ============================================================ */

/* Player 1's expected payoff below node k; p[2] the players' reaches of
** k, pc the chance reach.  Accumulates cfv and records reach (NULL:
** not), as problems/kuhn.c's kuhn_rec. */
static double efg_rec (const efg *G, int k, const double *x,
                       const double *p, double pc, double *cfv,
                       double *reach)
{
  int w = G->who[k], j, I;
  const int *ch = G->child + G->kid[k];
  double v = 0, q, v0, v1, p2[2];
  if (w == OL_EFG_LEAF) return G->u[k];
  if (w == OL_EFG_CHANCE) {
    const double *pr = G->prob + G->kid[k];
    for (j = 0; j < G->nkid[k]; j++)
      if (pr[j] > 0)
        v += pr[j] * efg_rec(G, ch[j], x, p, pc * pr[j], cfv, reach);
    return v;
  }
  I = G->iset[k];
  q = x[I];
  /* (1) the first action, then the second, w's reach scaled */
  p2[0] = p[0];
  p2[1] = p[1];
  p2[w] = p[w] * (1 - q);
  v0 = efg_rec(G, ch[0], x, p2, pc, cfv, reach);
  p2[w] = p[w] * q;
  v1 = efg_rec(G, ch[1], x, p2, pc, cfv, reach);
  /* (2) counterfactual values in w's own payoff (-u_1 for player 2) */
  if (cfv != NULL) {
    double wt = pc * p[1 - w] * (w == 0 ? 1 : -1);
    cfv[2 * I] += wt * v0;
    cfv[2 * I + 1] += wt * v1;
    reach[I] = p[w];
  }
  return (1 - q) * v0 + q * v1;
}

static double efg_walk (const ol_tree *T, const double *x, double *cfv,
                        double *reach)
{
  const efg *G = (const efg *)T;
  const double one[2] = {1, 1};
  if (cfv != NULL) {
    memset(cfv, 0, sizeof *cfv * 2 * (size_t)T->n);
    memset(reach, 0, sizeof *reach * (size_t)T->n);
  }
  return efg_rec(G, 0, x, one, 1, cfv, reach);
}

static double efg_value (const ol_tree *T, const double *x)
{
  return efg_walk(T, x, NULL, NULL);
}

/* Player i's best-response payoff against the other's part of x; NAN
** when out of memory. */
static double efg_brvalue (const ol_tree *T, const double *x, int i)
{
  const efg *G = (const efg *)T;
  size_t n = (size_t)T->n;
  double *y = malloc(sizeof *y * 4 * n), *cfv = y + n, *reach = y + 3 * n;
  double v;
  int I, d, lo = i == 0 ? 0 : T->n1, hi = i == 0 ? T->n1 : T->n;
  if (y == NULL) return NAN;
  memcpy(y, x, sizeof *y * n);
  for (d = G->maxdepth[i]; d >= 0; d--) {
    efg_walk(T, y, cfv, reach);
    for (I = lo; I < hi; I++)
      if (G->depth[I] == d) y[I] = cfv[2 * I + 1] > cfv[2 * I] ? 1 : 0;
  }
  v = efg_value(T, y);
  free(y);
  return i == 0 ? v : -v;
}

static double efg_nashconv (const ol_tree *T, const double *x)
{
  return efg_brvalue(T, x, 0) + efg_brvalue(T, x, 1);
}

/* f = u_1(x), g_I = -pi_i(I) (cfv(I, 2) - cfv(I, 1)) (problems/kuhn.c). */
static int efg_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  const ol_tree *T = ud;
  double *cfv, v;
  int I;
  if (g == NULL) {
    if (f != NULL) *f = efg_value(T, x);
    return OL_OK;
  }
  if ((cfv = malloc(sizeof *cfv * 3 * (size_t)T->n)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  v = efg_walk(T, x, cfv, cfv + 2 * T->n);
  for (I = 0; I < T->n; I++)
    g[I] = -cfv[2 * T->n + I] * (cfv[2 * I + 1] - cfv[2 * I]);
  free(cfv);
  if (f != NULL) *f = v;
  return OL_OK;
}

/* == construction ========================================================= */

/* An information set as first met (discovery order). */
typedef struct dset {
  const char *name, *where;   /* borrowed from the description */
  const char *act[2];
  int who, parent;            /* parent: 2 J + a, the last own (set,
                                 action) of who above it, -1 none */
  int depth, disc, first;     /* disc: discovery index; first: its first
                                 node (increasing with disc) */
  int group;                  /* the first node of the earliest set of who
                                 with the same where */
} dset;

typedef struct build {
  const ol_efg_node *node;
  int nnodes;
  efg *G;
  dset *set;
  int nset;
  int *hash;                  /* open addressing on names: set + 1, 0 free */
  size_t hmask;
  int nedge;
  int path[OL_EFG_MAXDEPTH + 1];
  char pbuf[300];             /* a node's path, for a message */
  ol_err *e;
} build;

static size_t strhash (const char *s)
{
  uint64_t h = 1469598103934665603u;         /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return (size_t)h;
}

/* "root.children[2].children[1]" for the node at depth d (the middle left
** out past eight levels). */
static const char *pathstr (const build *B, int d, char *buf, size_t size)
{
  size_t len;
  int j;
  snprintf(buf, size, "root");
  for (j = 0; j < d; j++) {
    len = strlen(buf);
    if (d > 8 && j == 3) {
      snprintf(buf + len, size - len, "...");
      j = d - 5;
      continue;
    }
    snprintf(buf + len, size - len, ".children[%d]", B->path[j] + 1);
  }
  return buf;
}

/* The path of the node at depth d, in B's buffer. */
static const char *at (build *B, int d)
{
  return pathstr(B, d, B->pbuf, sizeof B->pbuf);
}

/* The discovery index of the set named name, inserted when new (*fresh =
** 1: the caller fills who and the rest).  The table has room for twice
** the decision nodes, so a probe always ends. */
static int setfind (build *B, const char *name, int *fresh)
{
  size_t h = strhash(name) & B->hmask;
  while (B->hash[h] != 0) {
    if (strcmp(B->set[B->hash[h] - 1].name, name) == 0) {
      *fresh = 0;
      return B->hash[h] - 1;
    }
    h = (h + 1) & B->hmask;
  }
  *fresh = 1;
  B->hash[h] = ++B->nset;
  B->set[B->nset - 1].name = name;
  B->set[B->nset - 1].disc = B->nset - 1;
  return B->nset - 1;
}

static const char *const who_str[2] = {"player 1", "player 2"};

/* Convert the subtree of node k at depth d, seq[i] the last own (set,
** action) of player i above it; returns the index after the subtree, or -1
** with B->e set. */
static int convert (build *B, int k, int d, const int *seq)
{
  const ol_efg_node *nd;
  efg *G = B->G;
  int j, next, e0;
  if (k >= B->nnodes)
    return ol_err_set(B->e, OL_EINVAL, "the description ends inside %s "
                      "(nodes must come in preorder)", at(B, d)), -1;
  if (d > OL_EFG_MAXDEPTH)
    return ol_err_set(B->e, OL_EINVAL, "the tree is deeper than %d levels "
                      "at %s (a cycle, or a game too deep: at most %d)",
                      OL_EFG_MAXDEPTH, at(B, OL_EFG_MAXDEPTH),
                      OL_EFG_MAXDEPTH), -1;
  nd = B->node + k;
  G->who[k] = nd->who;
  G->kid[k] = e0 = B->nedge;
  G->nkid[k] = 0;
  if (nd->who == OL_EFG_LEAF) {
    if (!isfinite(nd->payoff))
      return ol_err_set(B->e, OL_EINVAL, "payoff = %g at %s is not finite "
                        "(a leaf's payoff is player 1's, a finite "
                        "number)", nd->payoff,
                        at(B, d)), -1;
    G->u[k] = nd->payoff;
    return k + 1;
  }
  if (nd->who == OL_EFG_CHANCE) {
    double sum = 0;
    if (nd->nkids < 1)
      return ol_err_set(B->e, OL_EINVAL, "the chance node at %s has no "
                        "children (give it at least one)",
                        at(B, d)), -1;
    for (j = 0; j < nd->nkids; j++) {
      double pj = nd->probs != NULL ? nd->probs[j] : 1.0 / nd->nkids;
      if (!isfinite(pj) || pj < 0)
        return ol_err_set(B->e, OL_EINVAL, "probs[%d] = %g at %s is not a "
                          "probability (finite, >= 0)", j + 1, pj,
                          at(B, d)), -1;
      sum += pj;
    }
    if (fabs(sum - 1) > 1e-9)
      return ol_err_set(B->e, OL_EINVAL, "the chance probabilities at %s "
                        "sum to %.17g, not 1 (within 1e-9)", at(B, d),
                        sum), -1;
  }
  else if (nd->who == 0 || nd->who == 1) {
    int fresh, s = -1;
    dset *S;
    if (nd->nkids != 2)
      return ol_err_set(B->e, OL_EINVAL, "the decision at %s has %d "
                        "children; a decision has exactly two actions and "
                        "two children (write more as a chain of two-action "
                        "decisions)", at(B, d), nd->nkids), -1;
    if (nd->infoset == NULL || nd->act[0] == NULL || nd->act[1] == NULL)
      return ol_err_set(B->e, OL_EINVAL, "the decision at %s lacks its "
                        "information set or an action name",
                        at(B, d)), -1;
    if (strcmp(nd->act[0], nd->act[1]) == 0)
      return ol_err_set(B->e, OL_EINVAL, "the decision at %s names both "
                        "actions '%s' (give them distinct names)",
                        at(B, d), nd->act[0]), -1;
    s = setfind(B, nd->infoset, &fresh);
    S = B->set + s;
    if (fresh) {
      S->who = nd->who;
      S->where = nd->where != NULL ? nd->where : who_str[nd->who];
      S->act[0] = nd->act[0];
      S->act[1] = nd->act[1];
      S->parent = seq[nd->who];
      S->depth = S->parent < 0 ? 0 : B->set[S->parent / 2].depth + 1;
      S->first = k;
    }
    else if (S->who != nd->who)
      return ol_err_set(B->e, OL_EINVAL, "information set '%s' at %s is "
                        "player %d's, but its first node is player %d's "
                        "(the nodes of one information set belong to one "
                        "player)", S->name, at(B, d), nd->who + 1,
                        S->who + 1), -1;
    else if (strcmp(S->act[0], nd->act[0]) != 0 ||
             strcmp(S->act[1], nd->act[1]) != 0)
      return ol_err_set(B->e, OL_EINVAL, "information set '%s' at %s has "
                        "actions {'%s', '%s'}, but {'%s', '%s'} at its first "
                        "node (one information set, one list of actions, "
                        "in the same order)", S->name, at(B, d),
                        nd->act[0], nd->act[1], S->act[0], S->act[1]), -1;
    else if (S->parent != seq[nd->who]) {
      const int a = S->parent, b = seq[nd->who];
      return ol_err_set(B->e, OL_EINVAL, "perfect recall fails at "
                        "information set '%s' (%s): player %d reaches it "
                        "there after %s%s%s%s, at its first node after "
                        "%s%s%s%s (a player's nodes in one information set "
                        "must follow the same own actions)", S->name,
                        at(B, d), nd->who + 1,
                        b < 0 ? "no own move" : "'",
                        b < 0 ? "" : B->set[b / 2].act[b % 2],
                        b < 0 ? "" : "' at ",
                        b < 0 ? "" : B->set[b / 2].name,
                        a < 0 ? "no own move" : "'",
                        a < 0 ? "" : B->set[a / 2].act[a % 2],
                        a < 0 ? "" : "' at ",
                        a < 0 ? "" : B->set[a / 2].name), -1;
    }
    G->iset[k] = s;            /* discovery index, renumbered later */
  }
  else
    return ol_err_set(B->e, OL_EINVAL, "node at %s: who = %d is not a "
                      "player (0, 1), chance or a leaf",
                      at(B, d), nd->who), -1;
  /* the children, in order */
  G->nkid[k] = nd->nkids;
  B->nedge += nd->nkids;
  next = k + 1;
  for (j = 0; j < nd->nkids; j++) {
    int sq[2];
    sq[0] = seq[0];
    sq[1] = seq[1];
    if (nd->who >= 0) sq[nd->who] = 2 * G->iset[k] + j;
    G->child[e0 + j] = next;
    G->prob[e0 + j] = nd->who == OL_EFG_CHANCE
      ? (nd->probs != NULL ? nd->probs[j] : 1.0 / nd->nkids) : 1;
    B->path[d] = j;
    if ((next = convert(B, next, d + 1, sq)) < 0) return -1;
  }
  return next;
}

/* The final order: player, heading group, discovery. */
static int setcmp (const void *pa, const void *pb)
{
  const dset *a = pa, *b = pb;
  if (a->who != b->who) return a->who < b->who ? -1 : 1;
  if (a->group != b->group) return a->group < b->group ? -1 : 1;
  return a->first < b->first ? -1 : a->first > b->first;
}

/* Sort by player and heading text (then discovery): runs of equal
** headings, whose first member's discovery index names the group. */
static int wherecmp (const void *pa, const void *pb)
{
  const dset *a = pa, *b = pb;
  int c;
  if (a->who != b->who) return a->who < b->who ? -1 : 1;
  if ((c = strcmp(a->where, b->where)) != 0) return c;
  return a->first < b->first ? -1 : a->first > b->first;
}

static char *dupstr (const char *s)
{
  size_t l = strlen(s) + 1;
  char *d = malloc(l);
  if (d != NULL) memcpy(d, s, l);
  return d;
}

/* Number the sets in setcmp's order, renumber the nodes' sets, and copy
** the sets' depths and strings into G. */
static int number (build *B, ol_err *e)
{
  efg *G = B->G;
  int n = B->nset, I, k, *final;
  dset *s = B->set;
  /* (1) groups: runs of one player's sets with equal headings, named by
  ** the run head's first node (the earliest: sorted by first within) */
  qsort(s, (size_t)n, sizeof *s, wherecmp);
  for (I = 0; I < n; I++)
    s[I].group = I > 0 && s[I].who == s[I - 1].who &&
      strcmp(s[I].where, s[I - 1].where) == 0 ? s[I - 1].group
                                               : s[I].first;
  qsort(s, (size_t)n, sizeof *s, setcmp);
  /* (2) discovery index -> final index, for the nodes */
  if ((final = malloc(sizeof *final * (size_t)n)) == NULL)
    return ol_err_set(e, OL_ENOMEM, "out of memory");
  for (I = 0; I < n; I++) final[s[I].disc] = I;
  for (k = 0; k < B->nnodes; k++)
    if (G->who[k] == 0 || G->who[k] == 1) G->iset[k] = final[G->iset[k]];
  free(final);
  /* (3) depths, the players' split, the names */
  G->tree.n = n;
  G->tree.n1 = 0;
  G->maxdepth[0] = G->maxdepth[1] = 0;
  for (I = 0; I < n; I++) {
    G->depth[I] = s[I].depth;
    if (s[I].depth > G->maxdepth[s[I].who])
      G->maxdepth[s[I].who] = s[I].depth;
    if (s[I].who == 0) G->tree.n1++;
    if ((G->name[I] = dupstr(s[I].name)) == NULL ||
        (G->where[I] = dupstr(s[I].where)) == NULL ||
        (G->act[I][0] = dupstr(s[I].act[0])) == NULL ||
        (G->act[I][1] = dupstr(s[I].act[1])) == NULL)
      return ol_err_set(e, OL_ENOMEM, "out of memory");
  }
  return OL_OK;
}

static const ol_tree *efg_tree (const ol_problem *p)
{
  return p->ud;
}

const ol_problem_type ol_problem_efg_type = {
  .name = "efg",
  .kind = OL_GAME,
  .doc = "a user's two-player zero-sum extensive-form game from its tree "
         "(ol_problem_efg; Lua: problem.efg)",
  .tree = efg_tree,
};

ol_problem *ol_problem_efg (const ol_efg_node *node, int nnodes, ol_err *e)
{
  build B;
  efg *G = NULL;
  ol_problem *p = NULL;
  const int none[2] = {-1, -1};
  size_t nn = (size_t)(nnodes > 0 ? nnodes : 1), cap = 16, ndec = 0;
  int k, I, end;
  memset(&B, 0, sizeof B);
  B.node = node;
  B.nnodes = nnodes;
  B.e = e;
  if (nnodes < 1 || nnodes > OL_EFG_MAXNODES) {
    ol_err_set(e, OL_EINVAL, "the tree has %d nodes; between 1 and %d are "
               "allowed", nnodes, OL_EFG_MAXNODES);
    return NULL;
  }
  for (k = 0; k < nnodes; k++) ndec += node[k].who == 0 || node[k].who == 1;
  if (ndec == 0) {
    ol_err_set(e, OL_EINVAL, "the tree has no decision of a player (give "
               "player 1 or 2 at least one information set)");
    return NULL;
  }
  while (cap < 2 * ndec) cap *= 2;
  /* (1) the flat arrays and the set table */
  if ((G = calloc(1, sizeof *G)) == NULL ||
      (G->who = malloc(sizeof *G->who * nn)) == NULL ||
      (G->iset = calloc(nn, sizeof *G->iset)) == NULL ||
      (G->kid = malloc(sizeof *G->kid * nn)) == NULL ||
      (G->nkid = malloc(sizeof *G->nkid * nn)) == NULL ||
      (G->child = malloc(sizeof *G->child * nn)) == NULL ||
      (G->prob = malloc(sizeof *G->prob * nn)) == NULL ||
      (G->u = calloc(nn, sizeof *G->u)) == NULL ||
      (B.set = calloc(ndec, sizeof *B.set)) == NULL ||
      (B.hash = calloc(cap, sizeof *B.hash)) == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory for a tree of %d nodes",
               nnodes);
    goto fail;
  }
  B.G = G;
  B.hmask = cap - 1;
  G->nn = nnodes;
  /* (2) convert and validate, then number the sets */
  if ((end = convert(&B, 0, 0, none)) < 0) goto fail;
  if (end != nnodes) {
    ol_err_set(e, OL_EINVAL, "%d nodes follow the root's subtree (nodes "
               "must come in preorder, one tree)", nnodes - end);
    goto fail;
  }
  if ((G->depth = malloc(sizeof *G->depth * (size_t)B.nset)) == NULL ||
      (G->name = calloc((size_t)B.nset, sizeof *G->name)) == NULL ||
      (G->where = calloc((size_t)B.nset, sizeof *G->where)) == NULL ||
      (G->act = calloc((size_t)B.nset, sizeof *G->act)) == NULL) {
    ol_err_set(e, OL_ENOMEM, "out of memory");
    goto fail;
  }
  G->tree.n = B.nset;            /* efg_free frees the strings so far */
  if (number(&B, e) != OL_OK) goto fail;
  G->tree.value = efg_value;
  G->tree.walk = efg_walk;
  G->tree.brvalue = efg_brvalue;
  G->tree.nashconv = efg_nashconv;
  G->tree.name = (const char *const *)G->name;
  G->tree.where = (const char *const *)G->where;
  G->tree.act = (const char *const (*)[2])G->act;
  /* (3) the problem: a box [0, 1]^n from x0 = 1/2, the tree its ud */
  if ((p = ol_problem_custom(G->tree.n, efg_fdf, 0, G, efg_free, e))
      == NULL)
    goto fail;
  G = NULL;                      /* p owns it */
  p->type = &ol_problem_efg_type;
  p->kind = OL_GAME;
  if ((p->set.lo = ol_problem_alloc(p->n, e)) == NULL ||
      (p->set.hi = ol_problem_alloc(p->n, e)) == NULL)
    goto fail;
  p->set.kind = OL_SET_BOX;
  for (I = 0; I < p->n; I++) {
    p->x0[I] = 0.5;
    p->set.lo[I] = 0;
    p->set.hi[I] = 1;
  }
  snprintf(p->name, sizeof p->name, "efg");
  snprintf(p->desc, sizeof p->desc, "efg{} (a user's game tree: %d nodes, "
           "%d + %d information sets)", nnodes, B.G->tree.n1,
           B.G->tree.n - B.G->tree.n1);
  free(B.set);
  free(B.hash);
  return p;
fail:
  efg_free(G);
  ol_problem_free(p);
  free(B.set);
  free(B.hash);
  return NULL;
}
