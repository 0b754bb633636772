/*
** core/dist/graph.h -- mixing matrices of the decentralized methods and
** the nodes they step (dsgd.c, gt.c, gtnsgdm.c); not a method.
**
** A graph on m nodes (ring, 2-D torus, complete, Erdos-Renyi) carries the
** Metropolis-Hastings weights (Xiao & Boyd 2004; Boyd, Diaconis & Xiao
** 2004, "Fastest mixing Markov chain on a graph")
**   W_ij = 1 / (1 + max(d_i, d_j))   for an edge ij,
**   W_ii = 1 - sum_{j != i} W_ij,     W_ij = 0 otherwise,
** d_i the degree of i: W is symmetric and doubly stochastic, and primitive
** when the graph is connected.  Its spectral gap
**   gap = 1 - rho,   rho = max(|lambda_2|, |lambda_m|) = ||W - 11'/m||_2
** (eigenvalues by LAPACK dsyev, lambda_1 = 1) measures how fast gossip
** x <- W x contracts the disagreement: ||W X - 1 xbar'|| <= rho ||X - 1
** xbar'||.  The torus is r x (m / r), r the largest divisor of m with r^2
** <= m (a ring when r = 1; sides of 2 give single edges).  Erdos-Renyi
** keeps each pair with probability p, drawn from its seed; a disconnected
** draw is redrawn (stream 1, 2, ...), up to 100 draws, then refused.
**
** The nodes (ol_dec): node w holds its own iterate, row w of X (m x d),
** and the components of worker w of the split of dist.h (p->workers, or,
** when the problem has none, `workers` contiguous shares of the components
** in index order).  Node w's stochastic gradient at its iterate is
**   g_w = (m |S_w| / N) (local mean gradient over S_w, dist.h's
**         ol_dist_grad: the whole shard, or with minibatch noise (noise =
**         {kind = "batch", batch = b}) b components drawn uniformly with
**         replacement)
**       + the problem's additive noise (gauss, student, asym) drawn per
**         node,
** scaled so that (1/m) sum_w E g_w = grad f whatever the shard sizes.
** Each node draws from its own stream (dist.h: ol_dist_streams from the
** run's generator).  Participation is not used: every node takes part in
** every round.
*/
#ifndef OL_DIST_GRAPH_H
#define OL_DIST_GRAPH_H

#include "dist.h"

enum { OL_GRAPH_RING, OL_GRAPH_TORUS, OL_GRAPH_COMPLETE, OL_GRAPH_ER };
#define OL_GRAPH_CHOICES "ring|torus|complete|er"
#define OL_GRAPH_MAXDRAWS 100
#define OL_GRAPH_MAXNODES 1024   /* W is dense and dsyev O(m^3) */

typedef struct ol_graph {
  int m;             /* nodes */
  int kind;          /* OL_GRAPH_* */
  double *W;         /* m x m row-major mixing matrix (owned) */
  int *off, *nbr;    /* row w's nonzeros: nbr[off[w] .. off[w + 1]) (w
                        itself included), weights wt (owned) */
  double *wt;
  long edges;        /* undirected edges */
  int draws;         /* Erdos-Renyi: draws until connected (else 1) */
  double rho;        /* max(|lambda_2|, |lambda_m|) */
  double gap;        /* 1 - rho */
  double info[4];    /* gap, rho, edges, draws (the result "graph") */
} ol_graph;

/* The graph of kind on 1 <= m <= OL_GRAPH_MAXNODES nodes, with its
** weights and spectral gap; p and seed are Erdos-Renyi's (ignored
** otherwise).  OL_OK, OL_ENOMEM, OL_EINVAL (m out of range, no connected
** draw) or OL_ENUMERIC (dsyev failed) with e set;
** ol_graph_fini frees a partial one. */
int ol_graph_init (ol_graph *g, int kind, int m, double p, uint64_t seed,
                   ol_err *e);
void ol_graph_fini (ol_graph *g);
/* Y = W X for X, Y m x d row-major (distinct arrays). */
void ol_graph_mix (const ol_graph *g, const double *X, double *Y, int d);

/* The shared parameters of the decentralized methods, after their own:
** graph, p, seed, workers (their table entries are OL_DEC_PARAMS). */
#define OL_DEC_NPAR 4
#define OL_DEC_PARAMS \
  {"graph", OL_P_ENUM, OL_GRAPH_RING, 0, OL_GRAPH_ER, "communication " \
   "graph; Metropolis-Hastings weights", OL_GRAPH_CHOICES}, \
  {"p", OL_P_REAL, 0.5, OL_GT0, 1, "graph = \"er\": edge probability", \
   NULL}, \
  {"seed", OL_P_INT, 1, 0, 9007199254740992.0, "graph = \"er\": seed of " \
   "the graph", NULL}, \
  {"workers", OL_P_INT, 4, 1, OL_GRAPH_MAXNODES, "nodes when the " \
   "problem has no workers (problem.workers): contiguous shares of the " \
   "components", NULL}

/* The nodes of a decentralized method: first in its state, so that the
** shared probe and the workers result read any of them. */
typedef struct ol_dec {
  ol_graph g;
  int m, d;
  double *X;         /* m x d node iterates (owned) */
  double *T;         /* m x d scratch for the methods (owned) */
  double *gi;        /* d: a component's gradient (owned) */
  ol_dist_split split;  /* the nodes' components (dist.h) */
  ol_rng *rng;       /* m node streams (owned) */
} ol_dec;

/* Nodes for c's problem from the shared parameters par[0 ..
** OL_DEC_NPAR), every iterate at c->x.  who names the method in
** messages.  Refuses anisotropic noise. */
int ol_dec_init (ol_dec *s, const double *par, ol_ctx *c, const char *who,
                 ol_err *e);
void ol_dec_fini (ol_dec *s);
/* Every node's stochastic gradient at its row of X into G (m x d); the
** component oracle counts each evaluation. */
int ol_dec_grads (ol_dec *s, ol_ctx *c, const double *X, double *G,
                  ol_err *e);
/* c->x := the nodes' average (1/m) sum_w X_w. */
void ol_dec_average (const ol_dec *s, double *x);
/* The probe of consensus, (1/m) sum_w ||X_w - xbar||^2 around the run's
** x (the average; st begins with an ol_dec). */
double ol_dec_probe (const void *st, int metric, const ol_ctx *c);
#define OL_PROBES_DEC OL_MSET(OL_MET_CONSENSUS)
/* The result hook (method.h) of a state that begins with an ol_dec:
**   workers    m x d: each node's iterate, the rows whose average is the
**              run's x
**   mixing     m x m: the mixing matrix W
**   graph      1 x 4: its spectral gap, rho = 1 - gap, edges, draws (an
**              Erdos-Renyi graph's draws until connected, else 1) */
int ol_dec_result (const void *st, const char *name, const double **v,
                   int *rows, int *cols);

#endif
