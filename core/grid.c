/*
** core/grid.c -- f on a 2-D slice grid and a default landscape window.
** See grid.h.  No reference: a direct evaluation, cell centres
**   f(x0 + (a - x0_i) e_i + (b - x0_j) e_j),  a, b the centre coordinates.
*/
#include <math.h>
#include <string.h>

#include "grid.h"

int ol_problem_grid (const ol_problem *p, const double *x0, int i, int j,
                     double xlo, double xhi, double ylo, double yhi, int nx,
                     int ny, double *out, double *work, ol_err *e)
{
  double *x = work, *w2 = work + p->n;
  int r, c;
  /* (1) arguments */
  if (i < 0 || j < 0 || i >= p->n || j >= p->n || i == j)
    return ol_err_set(e, OL_EINVAL, "grid: coordinates %d, %d out of range "
                      "for n = %d", i, j, p->n);
  if (nx < 1 || ny < 1 || !(xlo < xhi) || !(ylo < yhi)
      || !isfinite(xhi - xlo) || !isfinite(yhi - ylo))
    return ol_err_set(e, OL_EINVAL, "grid: empty or non-finite window");
  memcpy(x, x0, (size_t)p->n * sizeof *x);
  /* (2) one oracle call per cell centre; non-finite values become NAN */
  for (r = 0; r < ny; r++) {
    x[j] = ylo + (r + 0.5) * (yhi - ylo) / ny;
    for (c = 0; c < nx; c++) {
      double f = NAN;
      int rc;
      x[i] = xlo + (c + 0.5) * (xhi - xlo) / nx;
      rc = ol_problem_eval(p, x, &f, NULL, w2, e);
      if (rc == OL_EDOM) f = NAN;
      else if (rc != OL_OK) return rc;
      out[(size_t)r * (size_t)nx + (size_t)c] = f;
    }
  }
  ol_err_clear(e);
  return OL_OK;
}

/* A 1-2-5 number >= x > 0. */
static double nice_up (double x)
{
  double p = pow(10, floor(log10(x))), m = x / p;
  if (m <= 1 + 1e-9) m = 1;
  else if (m <= 2 + 1e-9) m = 2;
  else if (m <= 5 + 1e-9) m = 5;
  else m = 10;
  return m * p;
}

static void grow (double *lo, double *hi, double v)
{
  if (!isfinite(v)) return;
  if (v < *lo) *lo = v;
  if (v > *hi) *hi = v;
}

int ol_grid_window (const ol_run *const *runs, int nruns, int i, int j,
                    int square, double win[4])
{
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  double ex, ey, step;
  const ol_problem *p = NULL;
  int k, t, any = 0;
  /* (1) bounding box of the recorded points and current iterates */
  for (k = 0; k < nruns; k++) {
    int dim = 0, len = ol_run_len(runs[k]);
    const double *x = ol_run_traj(runs[k], &dim);
    if (x == NULL || dim <= i || dim <= j) continue;
    for (t = 0; t < len; t++) {
      grow(&xlo, &xhi, x[(size_t)t * dim + i]);
      grow(&ylo, &yhi, x[(size_t)t * dim + j]);
    }
    grow(&xlo, &xhi, ol_run_x(runs[k])[i]);
    grow(&ylo, &yhi, ol_run_x(runs[k])[j]);
    if (p == NULL) p = ol_run_problem(runs[k]);
    any = 1;
  }
  if (!any || !(xlo <= xhi) || !(ylo <= yhi)) return -1;
  if (p->xstar != NULL) {
    grow(&xlo, &xhi, p->xstar[i]);
    grow(&ylo, &yhi, p->xstar[j]);
  }
  /* (2) padding, square, nice step */
  ex = xhi - xlo;
  ey = yhi - ylo;
  if (square) ex = ey = ex > ey ? ex : ey;
  ex = ex > 0 ? 0.1 * ex : 0.5;
  ey = ey > 0 ? 0.1 * ey : 0.5;
  if (square) {
    double c = 0.5 * (xlo + xhi), h = 0.5 * (yhi - ylo) > 0.5 * (xhi - xlo)
      ? 0.5 * (yhi - ylo) : 0.5 * (xhi - xlo);
    xlo = c - h;
    xhi = c + h;
    c = 0.5 * (ylo + yhi);
    ylo = c - h;
    yhi = c + h;
  }
  xlo -= ex;
  xhi += ex;
  ylo -= ey;
  yhi += ey;
  step = nice_up(0.1 * ((xhi - xlo) > (yhi - ylo) ? xhi - xlo : yhi - ylo));
  win[0] = floor(xlo / step) * step;
  win[1] = ceil(xhi / step) * step;
  win[2] = floor(ylo / step) * step;
  win[3] = ceil(yhi / step) * step;
  return 0;
}
