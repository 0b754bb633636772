/*
** core/dist/graph.c -- mixing matrices (ring, torus, complete,
** Erdos-Renyi) with Metropolis-Hastings weights and their spectral gap,
** and the nodes the decentralized methods step; not a method (graph.h
** states the weights, the gap and the nodes' gradients).
*/
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "vec.h"

/* adjacency A (m x m, 0/1, no loops) of the graph; ER with stream */
static void adjacency (char *A, int kind, int m, double p, ol_rng *r)
{
  int i, j, rows = 1;
  memset(A, 0, (size_t)m * m);
#define EDGE(a, b) do { if ((a) != (b)) \
    A[(size_t)(a) * m + (b)] = A[(size_t)(b) * m + (a)] = 1; } while (0)
  switch (kind) {
  case OL_GRAPH_RING:
    for (i = 0; i < m; i++) EDGE(i, (i + 1) % m);
    break;
  case OL_GRAPH_TORUS:
    for (i = 1; i * i <= m; i++)
      if (m % i == 0) rows = i;
    for (i = 0; i < m; i++) {
      int a = i / (m / rows), b = i % (m / rows), cols = m / rows;
      EDGE(i, a * cols + (b + 1) % cols);
      EDGE(i, ((a + 1) % rows) * cols + b);
    }
    break;
  case OL_GRAPH_COMPLETE:
    for (i = 0; i < m; i++)
      for (j = i + 1; j < m; j++) EDGE(i, j);
    break;
  default:
    for (i = 0; i < m; i++)
      for (j = i + 1; j < m; j++)
        if (ol_rng_uniform(r) < p) EDGE(i, j);
    break;
  }
#undef EDGE
}

/* 1 when A is connected (breadth-first from node 0; q holds m ints) */
static int connected (const char *A, int m, int *q)
{
  int head = 0, tail = 1, seen = 1, i;
  char *mark = calloc((size_t)m, 1);
  if (mark == NULL) return -1;
  q[0] = 0;
  mark[0] = 1;
  while (head < tail) {
    int u = q[head++];
    for (i = 0; i < m; i++)
      if (A[(size_t)u * m + i] && !mark[i]) {
        mark[i] = 1;
        q[tail++] = i;
        seen++;
      }
  }
  free(mark);
  return seen == m;
}

int ol_graph_init (ol_graph *g, int kind, int m, double p, uint64_t seed,
                   ol_err *e)
{
  char *A = NULL;
  int *deg = NULL, i, j, k, rc = OL_OK, info;
  double *S = NULL, *lam = NULL;
  ol_rng r;
  memset(g, 0, sizeof *g);
  if (m < 1 || m > OL_GRAPH_MAXNODES)
    return ol_err_set(e, OL_EINVAL, "a graph of %d nodes is out of range "
                      "[1, %d] (split the problem among fewer workers)", m,
                      OL_GRAPH_MAXNODES);
  g->m = m;
  g->kind = kind;
  g->draws = 1;
  A = malloc((size_t)m * m);
  deg = calloc((size_t)m, sizeof *deg);
  g->W = calloc((size_t)m * m, sizeof *g->W);
  g->off = malloc(sizeof *g->off * ((size_t)m + 1));
  S = malloc(sizeof *S * (size_t)m * m);
  lam = malloc(sizeof *lam * (size_t)m);
  if (A == NULL || deg == NULL || g->W == NULL || g->off == NULL ||
      S == NULL || lam == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "out of memory for a graph of %d nodes",
                    m);
    goto done;
  }
  /* (1) the edges; an Erdos-Renyi draw until it is connected */
  for (;;) {
    int ok;
    ol_rng_seed(&r, seed, (uint64_t)g->draws);
    adjacency(A, kind, m, p, &r);
    if ((ok = connected(A, m, deg)) < 0) {
      rc = ol_err_set(e, OL_ENOMEM, "out of memory");
      goto done;
    }
    if (ok) break;
    if (kind != OL_GRAPH_ER || g->draws >= OL_GRAPH_MAXDRAWS) {
      rc = ol_err_set(e, OL_EINVAL, "graph \"er\" on %d nodes with p = %g: "
                      "no connected draw in %d (raise p)", m, p,
                      OL_GRAPH_MAXDRAWS);
      goto done;
    }
    g->draws++;
  }
  /* (2) degrees, Metropolis-Hastings weights */
  for (i = 0; i < m; i++) {
    deg[i] = 0;
    for (j = 0; j < m; j++) deg[i] += A[(size_t)i * m + j];
    g->edges += deg[i];
  }
  g->edges /= 2;
  for (i = 0; i < m; i++) {
    double s = 0;
    for (j = 0; j < m; j++)
      if (A[(size_t)i * m + j]) {
        double w = 1.0 / (1 + (deg[i] > deg[j] ? deg[i] : deg[j]));
        g->W[(size_t)i * m + j] = w;
        s += w;
      }
    g->W[(size_t)i * m + i] = 1 - s;
  }
  /* (3) sparse rows (the diagonal always kept) */
  g->nbr = malloc(sizeof *g->nbr * ((size_t)m + 2 * (size_t)g->edges));
  g->wt = malloc(sizeof *g->wt * ((size_t)m + 2 * (size_t)g->edges));
  if (g->nbr == NULL || g->wt == NULL) {
    rc = ol_err_set(e, OL_ENOMEM, "out of memory for a graph's weights");
    goto done;
  }
  for (i = 0, k = 0; i < m; i++) {
    g->off[i] = k;
    for (j = 0; j < m; j++)
      if (j == i || A[(size_t)i * m + j]) {
        g->nbr[k] = j;
        g->wt[k++] = g->W[(size_t)i * m + j];
      }
  }
  g->off[m] = k;
  /* (4) spectrum: rho = max |lambda| over all but the top eigenvalue 1
  ** (ascending order from dsyev: lambda_m = lam[0], lambda_2 = lam[m-2]) */
  memcpy(S, g->W, sizeof *S * (size_t)m * m);
  info = LAPACKE_dsyev(LAPACK_ROW_MAJOR, 'N', 'U', m, S, m, lam);
  if (info != 0) {
    rc = ol_err_set(e, OL_ENUMERIC, "dsyev failed on the mixing matrix "
                    "(info %d)", info);
    goto done;
  }
  g->rho = m == 1 ? 0 : fmax(fabs(lam[0]), fabs(lam[m - 2]));
  g->gap = 1 - g->rho;
  g->info[0] = g->gap;
  g->info[1] = g->rho;
  g->info[2] = (double)g->edges;
  g->info[3] = g->draws;
done:
  free(A);
  free(deg);
  free(S);
  free(lam);
  return rc;
}

void ol_graph_fini (ol_graph *g)
{
  free(g->W);
  free(g->off);
  free(g->nbr);
  free(g->wt);
  g->W = g->wt = NULL;
  g->off = g->nbr = NULL;
}

void ol_graph_mix (const ol_graph *g, const double *X, double *Y, int d)
{
  int w, k, j;
  for (w = 0; w < g->m; w++) {
    double *y = Y + (size_t)w * d;
    for (j = 0; j < d; j++) y[j] = 0;
    for (k = g->off[w]; k < g->off[w + 1]; k++) {
      const double *x = X + (size_t)g->nbr[k] * d;
      double a = g->wt[k];
      for (j = 0; j < d; j++) y[j] += a * x[j];
    }
  }
}

/* -- nodes ---------------------------------------------------------------- */

int ol_dec_init (ol_dec *s, const double *par, ol_ctx *c, const char *who,
                 ol_err *e)
{
  const ol_problem *p = c->p;
  int m, w, rc, dflt;
  if (p->noise.kind == OL_NOISE_ANISO)
    return ol_err_set(e, OL_EINVAL, "%s: anisotropic noise is not drawn "
                      "per node; use gauss, student, asym, affine or "
                      "batch", who);
  dflt = (long)par[3] < p->nsum ? (int)par[3] : (int)p->nsum;
  if ((rc = ol_dist_split_init(&s->split, p, dflt, who, e)) != OL_OK)
    return rc;
  m = s->m = s->split.n;
  s->d = c->n;
  if ((double)m * c->n > INT_MAX)
    return ol_err_set(e, OL_EINVAL, "%s: %d nodes of %d coordinates are too "
                      "many", who, m, c->n);
  if ((rc = ol_graph_init(&s->g, (int)par[0], m, par[1], (uint64_t)par[2],
                          e)) != OL_OK)
    return rc;
  s->X = malloc(sizeof *s->X * (size_t)m * c->n);
  s->T = malloc(sizeof *s->T * (size_t)m * c->n);
  s->rng = malloc(sizeof *s->rng * (size_t)m);
  s->gi = malloc(sizeof *s->gi * (size_t)c->n);
  if (s->X == NULL || s->T == NULL || s->rng == NULL || s->gi == NULL)
    return ol_err_set(e, OL_ENOMEM, "%s: out of memory for %d nodes", who,
                      m);
  ol_dist_streams(s->rng, m, c->rng);
  for (w = 0; w < m; w++) ol_vec_copy(c->x, s->X + (size_t)w * c->n, c->n);
  return OL_OK;
}

void ol_dec_fini (ol_dec *s)
{
  ol_graph_fini(&s->g);
  ol_dist_split_fini(&s->split);
  free(s->X);
  free(s->T);
  free(s->rng);
  free(s->gi);
  s->X = s->T = s->gi = NULL;
  s->rng = NULL;
}

int ol_dec_grads (ol_dec *s, ol_ctx *c, const double *X, double *G,
                  ol_err *e)
{
  const ol_noise *nz = &c->p->noise;
  int w, j, d = s->d, rc;
  int batch = nz->kind == OL_NOISE_BATCH ? nz->batch : 0;
  for (w = 0; w < s->m; w++) {
    double *g = G + (size_t)w * d, sigma = nz->sigma;
    ol_rng *r = &s->rng[w];
    /* (1) the local mean gradient, scaled to the node's share of f */
    if ((rc = ol_dist_grad(c, &s->split, w, X + (size_t)w * d, batch, r, g,
                           s->gi, e)) != OL_OK)
      return rc;
    ol_vec_scal((double)s->m * (double)ol_dist_size(&s->split, w) /
                (double)c->p->nsum, g, d);
    /* (2) the node's additive noise */
    for (j = 0; j < d; j++) {
      if (nz->kind == OL_NOISE_GAUSS) g[j] += sigma * ol_rng_normal(r);
      else if (nz->kind == OL_NOISE_STUDENT)
        g[j] += sigma * ol_rng_student(r, nz->nu);
      else if (nz->kind == OL_NOISE_ASYM)
        g[j] += sigma * (ol_rng_exp(r) - 1);
      else if (nz->kind == OL_NOISE_AFFINE)   /* of the node's gradient */
        g[j] += sqrt(sigma * sigma / d + nz->sigma1 * nz->sigma1 * g[j]
                     * g[j]) * ol_rng_normal(r);
    }
  }
  return OL_OK;
}

void ol_dec_average (const ol_dec *s, double *x)
{
  int w;
  ol_vec_set(x, 0, s->d);
  for (w = 0; w < s->m; w++) ol_vec_axpy(1, s->X + (size_t)w * s->d, x, s->d);
  ol_vec_scal(1.0 / s->m, x, s->d);
}

double ol_dec_probe (const void *st, int metric, const ol_ctx *c)
{
  const ol_dec *s = st;
  if (metric == OL_MET_CONSENSUS && s->X != NULL && c != NULL)
    return ol_dist_consensus(s->X, s->m, s->d, c->x);
  return NAN;
}

int ol_dec_result (const void *st, const char *name, const double **v,
                   int *rows, int *cols)
{
  const ol_dec *s = st;
  if (s->X == NULL) return 0;
  if (strcmp(name, "workers") == 0) {
    *v = s->X;
    *rows = s->m;
    *cols = s->d;
    return 1;
  }
  if (strcmp(name, "mixing") == 0 && s->g.W != NULL) {
    *v = s->g.W;
    *rows = *cols = s->m;
    return 1;
  }
  if (strcmp(name, "graph") == 0 && s->g.W != NULL) {
    *v = s->g.info;
    *rows = 1;
    *cols = 4;
    return 1;
  }
  return 0;
}
