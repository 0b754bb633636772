/*
** tests/c/t_dec.c -- the decentralized methods (core/dist/dsgd.c, gt.c,
** gtnsgdm.c) and their mixing matrices (core/dist/graph.c).
**
** Truth, independent of the methods' code:
**   - Metropolis-Hastings weights on regular graphs are 1 / (1 + degree)
**     everywhere, so the spectra are closed forms: a ring of m nodes has
**     eigenvalues (1 + 2 cos(2 pi k / m)) / 3, a 4 x 4 torus (1 + 2 cos(pi
**     a / 2) + 2 cos(pi b / 2)) / 5 (rho = 3/5), the complete graph W =
**     11' / m (rho = 0); every W symmetric and doubly stochastic; an
**     Erdos-Renyi draw connected (breadth-first search here), a hopeless p
**     refused.
**   - Each method's first round by hand from its update rule (the nodes'
**     gradients from fsquad's component oracle).
**   - On fsquad split among heterogeneous workers (noise none), node w's
**     gradient is D_w x - b_w with D_w diagonal, read off here from the
**     component oracle; D-SGD's fixed point then solves, coordinate by
**     coordinate, the m x m system (I - W + lr D) X = lr b (LAPACK dgesv):
**     the run's nodes after convergence match it, and its consensus error
**     scales as lr^2 (ratio 4 between lr and lr / 2, within 10%) and lies
**     below the bound lr^2 G^2 / gap^2 (G^2 = (1/m) sum_w ||grad f_w(x*)||^2)
**     within a factor 20 of it on a ring and a torus.
**   - Gradient tracking reaches fsquad's x* (closed form) with consensus
**     error below 1e-20, where D-SGD stays at a bias.
**   - The workers panel (core/plot/plotpanel.c, pn_workers): every node's
**     mark in the cell its iterate maps to by the documented geometry
**     (the plot right of the 7 y-label columns, rows from the top, in the
**     window pn_workers_window gives), in its own role, the average's mark
**     at the average's cell over them; spread apart at D-SGD's constant
**     step, all under the average's mark once gradient tracking agrees;
**     the SVG has one dot per node and one average; a run without nodes
**     has no such panel and a 2-D dist run gets it by default.
**   - The mixing panel (pn_mixing): with a row and two columns per node,
**     cell (i, j) lit exactly where W_ij > 0 (a ring: j = i, i +- 1 mod m),
**     the complete graph's cells all at one level; the SVG has one square
**     per nonzero entry.
*/
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist/graph.h"
#include "olt.h"
#include "plot.h"
#include "tap.h"
#include "vec.h"

#define M 8      /* nodes of the runs */
#define D 2      /* dimension */
#define PI 3.14159265358979323846

/* row sums, symmetry and sign of W */
static int stochastic (const ol_graph *g)
{
  int i, j, m = g->m, good = 1;
  for (i = 0; i < m; i++) {
    double s = 0;
    for (j = 0; j < m; j++) {
      double w = g->W[i * m + j];
      good = good && w >= 0 && fabs(w - g->W[j * m + i]) < 1e-15;
      s += w;
    }
    good = good && fabs(s - 1) < 1e-14;
  }
  return good;
}

static int connected (const ol_graph *g)
{
  int seen[64] = {0}, q[64], h = 0, t = 1, i, cnt = 1, m = g->m;
  q[0] = 0;
  seen[0] = 1;
  while (h < t) {
    int u = q[h++];
    for (i = 0; i < m; i++)
      if (i != u && g->W[u * m + i] > 0 && !seen[i]) {
        seen[i] = 1;
        q[t++] = i;
        cnt++;
      }
  }
  return cnt == m;
}

static void graphs (void)
{
  ol_graph g;
  ol_err e;
  int m, good;
  /* (1) rings: rho = max(|1 + 2 cos(2 pi / m)|, |1 + 2 cos(2 pi k / m)|
  ** at k = m / 2) / 3 */
  for (m = 3; m <= 12; m += 3) {
    double c1 = (1 + 2 * cos(2 * PI / m)) / 3;
    double cm = (1 + 2 * cos(2 * PI * (m / 2) / m)) / 3;
    ok(ol_graph_init(&g, OL_GRAPH_RING, m, 0, 0, &e) == OL_OK &&
       stochastic(&g) && g.edges == m, "ring %d: W symmetric, doubly "
       "stochastic, %d edges", m, m);
    is_near(g.rho, fmax(fabs(c1), fabs(cm)), 1e-12, "ring %d: rho = %.6f "
            "from the closed form", m, fmax(fabs(c1), fabs(cm)));
    is_near(g.W[1], 1.0 / 3, 1e-15, "ring %d: W_01 = 1/3 (degree 2)", m);
    ol_graph_fini(&g);
  }
  /* (2) a 4 x 4 torus: degree 4, rho = 3/5 */
  ok(ol_graph_init(&g, OL_GRAPH_TORUS, 16, 0, 0, &e) == OL_OK &&
     stochastic(&g) && g.edges == 32, "torus 4x4: 32 edges, W stochastic");
  is_near(g.gap, 0.4, 1e-12, "torus 4x4: gap 1 - 3/5");
  ol_graph_fini(&g);
  /* (3) complete: W = 11'/m, gap 1 */
  ok(ol_graph_init(&g, OL_GRAPH_COMPLETE, 5, 0, 0, &e) == OL_OK &&
     fabs(g.W[7] - 0.2) < 1e-15 && fabs(g.W[0] - 0.2) < 1e-15,
     "complete 5: every weight 1/5");
  is_near(g.gap, 1, 1e-12, "complete 5: gap 1");
  ol_graph_fini(&g);
  /* (4) Erdos-Renyi: connected, seeded; hopeless p refused */
  good = ol_graph_init(&g, OL_GRAPH_ER, 30, 0.15, 7, &e) == OL_OK;
  ok(good && stochastic(&g) && connected(&g) && g.gap > 0 && g.gap < 1,
     "er(30, 0.15, seed 7): connected after %d draw(s), gap %.4f", g.draws,
     g.gap);
  {
    ol_graph h;
    ok(ol_graph_init(&h, OL_GRAPH_ER, 30, 0.15, 7, &e) == OL_OK &&
       memcmp(h.W, g.W, sizeof(double) * 900) == 0,
       "er: the same seed, the same graph");
    ol_graph_fini(&h);
  }
  ol_graph_fini(&g);
  ok(ol_graph_init(&g, OL_GRAPH_ER, 30, 0.001, 1, &e) == OL_EINVAL &&
     strstr(e.msg, "connected") != NULL, "er with p = 0.001 refused (%s)",
     e.msg);
  ol_graph_fini(&g);
}

/* fsquad (N components, d = D) split among M heterogeneous workers,
** noise none */
static ol_problem *hetero (long N)
{
  ol_problem *p = olt_problem("fsquad", NULL, "N", (double)N, "d",
                              (double)D, "seed", 3.0, (char *)NULL);
  ol_noise nz;
  ol_err e;
  if (p == NULL) return NULL;
  nz = p->noise;
  nz.kind = OL_NOISE_NONE;
  nz.nu = 4;
  nz.batch = 1;
  if (ol_problem_set_noise(p, &nz, &e) != OL_OK ||
      ol_problem_set_workers(p, M, 1, 1, 5, &e) != OL_OK) {
    diag("hetero: %s", e.msg);
    ol_problem_free(p);
    return NULL;
  }
  return p;
}

/* node w's gradient at x, as graph.h defines it (noise none) */
static void nodegrad (const ol_problem *p, int w, const double *x,
                      double *g)
{
  long k, a = p->workers.start[w], b = p->workers.start[w + 1];
  double gi[D], f;
  ol_err e;
  int j;
  for (j = 0; j < D; j++) g[j] = 0;
  for (k = a; k < b; k++) {
    p->fdfi(p->ud, p->workers.perm[k], x, &f, gi, &e);
    for (j = 0; j < D; j++) g[j] += gi[j];
  }
  for (j = 0; j < D; j++) g[j] *= (double)M / (double)p->nsum;
}

static const double *nodes_of (const ol_run *r, int *rows, int *cols)
{
  const double *v;
  if (!ol_method_result(ol_run_method(r), ol_run_state(r), "workers", &v,
                        rows, cols))
    return NULL;
  return v;
}

/* (5) each method's first round by hand */
static void firststeps (void)
{
  ol_problem *p = hetero(40);
  ol_graph g;
  ol_err e;
  double G0[M * D], X1[M * D], par[8], lr = 0.1, beta = 0.7;
  const double *x0, *v;
  int w, j, k, u, rows, cols;
  const char *names[3] = {"dsgd", "gt", "gtnsgdm"};
  ol_run_opts o = olt_opts(1, 0, OL_MSET_EMPTY);
  if (p == NULL) return;
  x0 = p->x0;
  ol_graph_init(&g, OL_GRAPH_RING, M, 0, 0, &e);
  for (w = 0; w < M; w++) nodegrad(p, w, x0, G0 + w * D);
  for (k = 0; k < 3; k++) {
    const ol_method_type *m = strcmp(names[k], "gtnsgdm") == 0
      ? olt_method(names[k], par, "lr", lr, "beta", beta, (char *)NULL)
      : olt_method(names[k], par, "lr", lr, (char *)NULL);
    ol_run *r = olt_go(p, m, par, &o);
    /* x_w1 = sum_v W_wv x0 - lr g_w(x0) = x0 - lr y_w for dsgd and gt
    ** (y_w = g_w(x0)); gtnsgdm: x0 - lr sum_v W_wv g_v / ||g_v|| */
    for (w = 0; w < M; w++)
      for (j = 0; j < D; j++) {
        double s = 0;
        if (k < 2) s = G0[w * D + j];
        else
          for (u = 0; u < M; u++)
            s += g.W[w * M + u] * G0[u * D + j] /
                 hypot(G0[u * D], G0[u * D + 1]);
        X1[w * D + j] = x0[j] - lr * s;
      }
    v = r != NULL ? nodes_of(r, &rows, &cols) : NULL;
    ok(v != NULL && rows == M && cols == D && olt_agree(v, X1, M * D, 1e-13),
       "%s: the nodes' first iterates by hand (result workers: %d x %d)",
       names[k], rows, cols);
    if (v != NULL) {
      double xb[D] = {0, 0};
      for (w = 0; w < M; w++)
        for (j = 0; j < D; j++) xb[j] += v[w * D + j] / M;
      ok(olt_agree(ol_run_x(r), xb, D, 1e-14), "%s: r.x is the nodes' "
         "average", names[k]);
    }
    ol_run_free(r);
  }
  ol_graph_fini(&g);
  ol_problem_free(p);
}

/* D-SGD's fixed point: per coordinate j, (I - W + lr D_j) X_j = lr b_j */
static void fixedpoint (const ol_problem *p, const ol_graph *g, double lr,
                        double *X)
{
  double A[M * M], b[M], zero[D] = {0, 0}, g0[D], gj[D], ej[D];
  lapack_int ipiv[M];
  int w, v, j;
  for (j = 0; j < D; j++) {
    for (w = 0; w < M; w++) {
      for (v = 0; v < M; v++)
        A[w * M + v] = (w == v) - g->W[w * M + v];
      nodegrad(p, w, zero, g0);
      memset(ej, 0, sizeof ej);
      ej[j] = 1;
      nodegrad(p, w, ej, gj);
      A[w * M + w] += lr * (gj[j] - g0[j]);
      b[w] = -lr * g0[j];
    }
    LAPACKE_dgesv(LAPACK_ROW_MAJOR, M, 1, A, M, ipiv, b, 1);
    for (w = 0; w < M; w++) X[w * D + j] = b[w];
  }
}

static double consensus (const double *X)
{
  double xb[D] = {0, 0}, s = 0;
  int w, j;
  for (w = 0; w < M; w++)
    for (j = 0; j < D; j++) xb[j] += X[w * D + j] / M;
  for (w = 0; w < M; w++)
    for (j = 0; j < D; j++) s += pow(X[w * D + j] - xb[j], 2);
  return s / M;
}

/* (6) D-SGD's consensus error at a constant step */
static void dsgd_consensus (void)
{
  ol_problem *p = hetero(80);
  const char *gname[2] = {"ring", "torus"};
  double par[8], G2 = 0, gw[D];
  int w, k, rows, cols;
  ol_run_opts o = olt_opts(0, 0, OL_MSET_OF(OL_MET_CONSENSUS));
  if (p == NULL) return;
  for (w = 0; w < M; w++) {
    nodegrad(p, w, p->xstar, gw);
    G2 += (gw[0] * gw[0] + gw[1] * gw[1]) / M;
  }
  for (k = 0; k < 2; k++) {
    double c[2], lr = 0.02;
    ol_graph g;
    ol_err e;
    int h;
    ol_graph_init(&g, k == 0 ? OL_GRAPH_RING : OL_GRAPH_TORUS, M, 0, 0, &e);
    for (h = 0; h < 2; h++, lr /= 2) {
      double Xf[M * D];
      const ol_method_type *m = olt_method("dsgd", par, "lr", lr, "graph",
                                           (double)k, (char *)NULL);
      ol_run *r;
      const double *v;
      o.iters = (long)(200 / lr);       /* ~ 20 / (lr mu): to 1e-10 */
      r = olt_go(p, m, par, &o);
      v = r != NULL ? nodes_of(r, &rows, &cols) : NULL;
      fixedpoint(p, &g, lr, Xf);
      ok(v != NULL && olt_agree(v, Xf, M * D, 1e-9), "dsgd %s, lr %g: the "
         "nodes settle at the fixed point of (I - W + lr D) X = lr b",
         gname[k], lr);
      c[h] = v != NULL ? consensus(v) : NAN;
      is_close(ol_run_last(r, OL_MET_CONSENSUS), c[h], 1e-9, "dsgd %s: the "
               "consensus metric is (1/m) sum ||x_w - xbar||^2 = %.4g",
               gname[k], c[h]);
      if (h == 0)
        ok(c[0] <= lr * lr * G2 / (g.gap * g.gap) &&
           c[0] >= lr * lr * G2 / (g.gap * g.gap) / 20,
           "dsgd %s (gap %.4f): consensus %.4g within [1/20, 1] of "
           "lr^2 G^2 / gap^2 = %.4g", gname[k], g.gap, c[0],
           lr * lr * G2 / (g.gap * g.gap));
      ol_run_free(r);
    }
    is_close(c[0] / c[1], 4, 0.1, "dsgd %s: halving lr divides the "
             "consensus error by %.3f (lr^2: 4)", gname[k], c[0] / c[1]);
    ol_graph_fini(&g);
  }
  ol_problem_free(p);
}

/* (7) gradient tracking reaches x*; D-SGD keeps a bias */
static void tracking (void)
{
  ol_problem *p = hetero(80);
  double par[8];
  ol_run_opts o = olt_opts(3000, 0, OL_MSET_OF(OL_MET_CONSENSUS));
  const ol_method_type *m;
  ol_run *r;
  double dg, dd;
  if (p == NULL) return;
  m = olt_method("gt", par, "lr", 0.2, (char *)NULL);
  r = olt_go(p, m, par, &o);
  dg = r != NULL ? ol_vec_dist(ol_run_x(r), p->xstar, D) : NAN;
  ok(dg < 1e-10, "gt on a ring of %d heterogeneous nodes: ||xbar - x*|| = "
     "%.3g", M, dg);
  ok(r != NULL && ol_run_last(r, OL_MET_CONSENSUS) < 1e-20, "gt: consensus "
     "error %.3g", r != NULL ? ol_run_last(r, OL_MET_CONSENSUS) : NAN);
  ol_run_free(r);
  m = olt_method("dsgd", par, "lr", 0.2, (char *)NULL);
  r = olt_go(p, m, par, &o);
  dd = r != NULL ? ol_vec_dist(ol_run_x(r), p->xstar, D) : NAN;
  ok(dd > 1e-3 && r != NULL && ol_run_last(r, OL_MET_CONSENSUS) > 1e-3,
     "dsgd at the same lr stays at ||xbar - x*|| = %.3g, consensus %.3g",
     dd, r != NULL ? ol_run_last(r, OL_MET_CONSENSUS) : NAN);
  ol_run_free(r);
  /* normalized steps of length lr: within a few lr of x* */
  m = olt_method("gtnsgdm", par, "lr", 1e-3, "beta", 0.5, (char *)NULL);
  r = olt_go(p, m, par, &o);
  dd = r != NULL ? ol_vec_dist(ol_run_x(r), p->xstar, D) : NAN;
  ok(dd < 1e-2, "gtnsgdm, lr 1e-3, noise none: ||xbar - x*|| = %.3g", dd);
  ol_run_free(r);
  ol_problem_free(p);
}

/* -- the workers panel ------------------------------------------------ */

#define GW 72
#define GH 18
#define YLABS 7   /* the 2-D panels' y label columns (plotpanel.c, YLAB) */
static unsigned gu[GH][GW];
static int grole[GH][GW];

static void gput (void *ud, int y, int x, unsigned u, char a, int role)
{
  (void)ud;
  (void)a;
  if (y >= 0 && y < GH && x >= 0 && x < GW) {
    gu[y][x] = u;
    grole[y][x] = role;
  }
}

/* draw r's workers panel; its title into title */
static void draw_workers (ol_run *r, char *title, size_t tsize, double *win)
{
  static cv_canvas cv;
  const char *labels[1] = {"run"};
  ol_run *runs[1];
  pn_runs rs;
  pn_out out;
  runs[0] = r;
  rs.n = 1;
  rs.runs = runs;
  rs.labels = labels;
  out.put = gput;
  out.ud = NULL;
  out.y = out.x = 0;
  out.h = GH;
  out.w = GW;
  out.utf8 = 1;
  out.cv = &cv;
  memset(gu, 0, sizeof gu);
  pn_workers(&rs, &out, title, tsize);
  pn_workers_window(&rs, win);
}

/* the cell of (a, b): plot GW - YLABS wide, GH - 1 high (legend in a
** corner) */
static void cell_of (const double *win, double a, double b, int *y, int *x)
{
  int pw = GW - YLABS, ph = GH - 1;
  *x = YLABS + (int)floor((a - win[0]) / (win[1] - win[0]) * pw);
  *y = (int)floor((win[3] - b) / (win[3] - win[2]) * ph);
  if (*x >= GW) *x = GW - 1;
  if (*y >= ph) *y = ph - 1;
}

static void panel (void)
{
  ol_problem *p = hetero(40);
  double par[8], win[4];
  char title[96];
  ol_run_opts o = olt_opts(30, 0, OL_MSET_OF(OL_MET_CONSENSUS));
  const ol_method_type *m;
  ol_run *r;
  const double *X;
  int w, y, x, ya, xa, good = 1, spread = 0, rows, cols;
  if (p == NULL) return;
  o.record_x = 1;
  /* (1) D-SGD at a large constant step: the nodes apart */
  m = olt_method("dsgd", par, "lr", 0.3, (char *)NULL);
  r = olt_go(p, m, par, &o);
  X = r != NULL ? nodes_of(r, &rows, &cols) : NULL;
  if (X == NULL) return;
  draw_workers(r, title, sizeof title, win);
  ok(strstr(title, "8 workers") != NULL && strstr(title, "consensus") != NULL,
     "panel title: %s", title);
  cell_of(win, ol_run_x(r)[0], ol_run_x(r)[1], &ya, &xa);
  ok(gu[ya][xa] == PN_AVGMARK && grole[ya][xa] == PN_TITLE, "the average's "
     "mark at its cell (%d, %d)", ya, xa);
  for (w = 0; w < M; w++) {
    int v, shared = 0;
    cell_of(win, X[w * D], X[w * D + 1], &y, &x);
    for (v = w + 1; v < M; v++) {
      int y2, x2;
      cell_of(win, X[v * D], X[v * D + 1], &y2, &x2);
      shared |= y2 == y && x2 == x;
    }
    if (y == ya && x == xa) continue;
    if (!shared) {
      good = good && gu[y][x] == PN_WORKMARK && grole[y][x] == w;
      spread++;
    } else good = good && gu[y][x] == PN_WORKMARK;
  }
  ok(good, "each node's mark at its iterate's cell, in its own role");
  ok(spread >= 5, "dsgd lr 0.3: %d nodes in cells of their own", spread);
  {
    int legend = 0;
    for (y = 0; y < 3; y++)
      for (x = 0; x < GW; x++) legend += gu[y][x] == PN_AVGMARK;
    ok(legend >= 1 && ya >= 0, "the legend in a corner of the plot");
  }
  /* (2) SVG: one dot per node, one average */
  {
    pl_plot pl;
    pl_buf b;
    const char *labels[1] = {"dsgd"};
    ol_run *runs[1];
    const char *s;
    int dots = 0;
    runs[0] = r;
    memset(&pl, 0, sizeof pl);
    pl.rs.n = 1;
    pl.rs.runs = runs;
    pl.rs.labels = labels;
    pl.npanels = 1;
    pl.panels[0] = PN_WORKERS;
    pl_buf_init(&b);
    ok(pl_svg(&pl, 600, 400, &b) == 0, "svg of the workers panel");
    for (s = b.s; (s = strstr(s, "class=\"worker\"")) != NULL; s++) dots++;
    ok(dots == M && strstr(b.s, "class=\"average\"") != NULL, "svg: %d "
       "node dots and the average", dots);
    pl_buf_fini(&b);
  }
  /* (3) the default panel of a 2-D dist run; none without nodes */
  {
    ol_run *runs[1];
    const char *labels[1] = {"x"};
    pn_runs rs;
    char why[160];
    ol_run *g;
    runs[0] = r;
    rs.n = 1;
    rs.runs = runs;
    rs.labels = labels;
    ok(pn_auto_panel(&rs) == PN_WORKERS && pn_find("workers") == PN_WORKERS
       && pn_available(&rs, PN_WORKERS, why, sizeof why),
       "a 2-D dsgd run shows its workers by default");
    ol_run_opts og = olt_opts(30, 0, OL_MSET_EMPTY);
    og.record_x = 1;
    m = olt_method("gd", par, (char *)NULL);
    runs[0] = g = olt_go(p, m, par, &og);
    ok(g != NULL && !pn_available(&rs, PN_WORKERS, why, sizeof why) &&
       strstr(why, "distributed") != NULL && pn_auto_panel(&rs)
       == PN_LANDSCAPE, "gd: no workers panel (%s)", why);
    ol_run_free(g);
  }
  ol_run_free(r);
  /* (4) gradient tracking agreed: every node under the average's mark */
  m = olt_method("gt", par, "lr", 0.2, (char *)NULL);
  o.iters = 2000;
  r = olt_go(p, m, par, &o);
  draw_workers(r, title, sizeof title, win);
  cell_of(win, ol_run_x(r)[0], ol_run_x(r)[1], &ya, &xa);
  spread = 0;
  for (y = 0; y < GH; y++)
    for (x = 0; x < GW; x++) spread += gu[y][x] == PN_WORKMARK;
  ok(gu[ya][xa] == PN_AVGMARK && spread == 1, "gt agreed: the nodes hidden "
     "under the average's mark (only the legend's key left: %d)", spread);
  ol_run_free(r);
  ol_problem_free(p);
}

/* (8) the mixing panel */
static void mixing (void)
{
  ol_problem *p = hetero(40);
  double par[8];
  ol_run_opts o = olt_opts(1, 0, OL_MSET_EMPTY);
  static cv_canvas cv;
  char title[96];
  int k;
  if (p == NULL) return;
  for (k = 0; k < 2; k++) {
    const ol_method_type *m = olt_method("dsgd", par, "graph", k == 0 ? 0.0
                                         : (double)OL_GRAPH_COMPLETE,
                                         (char *)NULL);
    ol_run *r = olt_go(p, m, par, &o), *runs[1];
    const char *labels[1] = {"dsgd"};
    pn_runs rs;
    pn_out out;
    int i, j, good = 1, x0 = (GW - 2 * M) / 2, lev = -1, nz = 0;
    pl_plot pl;
    pl_buf b;
    const char *sv;
    runs[0] = r;
    rs.n = 1;
    rs.runs = runs;
    rs.labels = labels;
    out.put = gput;
    out.ud = NULL;
    out.y = out.x = 0;
    out.h = GH;
    out.w = GW;
    out.utf8 = 1;
    out.cv = &cv;
    memset(gu, 0, sizeof gu);
    ok(r != NULL && pn_mixing(&rs, &out, title, sizeof title) == 0,
       "mixing panel: %s", title);
    for (i = 0; i < M; i++)
      for (j = 0; j < M; j++) {
        int edge = k == 1 || i == j || (i - j + M) % M == 1 ||
                   (j - i + M) % M == 1;
        unsigned a = gu[i][x0 + 2 * j], c = gu[i][x0 + 2 * j + 1];
        good = good && a == c && (a != ' ') == edge && (a == ' ' ||
               grole[i][x0 + 2 * j] == PN_HEAT);
        if (k == 1) good = good && (lev < 0 || (int)a == lev);
        lev = (int)a;
      }
    ok(good, "%s: cell (i, j) lit exactly where W_ij > 0%s", k == 0
       ? "ring" : "complete", k == 1 ? ", all at one level" : "");
    memset(&pl, 0, sizeof pl);
    pl.rs = rs;
    pl.npanels = 1;
    pl.panels[0] = PN_MIXING;
    pl_buf_init(&b);
    pl_svg(&pl, 400, 400, &b);
    for (sv = b.s; (sv = strstr(sv, "class=\"w\"")) != NULL; sv++) nz++;
    ok(nz == (k == 0 ? 3 * M : M * M), "svg: %d squares, one per nonzero "
       "W_ij", nz);
    pl_buf_fini(&b);
    ol_run_free(r);
  }
  ol_problem_free(p);
}

int main (void)
{
  graphs();
  firststeps();
  dsgd_consensus();
  tracking();
  panel();
  mixing();
  return done();
}
