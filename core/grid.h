/*
** core/grid.h -- the objective on a 2-D grid through two coordinates, and
** a default plotting window from recorded trajectories (landscape plots).
**
** The grid is a slice: coordinates i and j vary, the others stay at x0's
** values.  Cell (r, c) of an nx x ny grid over [xlo, xhi] x [ylo, yhi]
** holds f at the cell centre
**   x_i = xlo + (c + 1/2) (xhi - xlo) / nx,  x_j = ylo + (r + 1/2) (yhi -
**   ylo) / ny,
** stored row-major, out[r * nx + c], row 0 at ylo.  Front ends only map
** these values to shades; the numbers come from here.
*/
#ifndef OL_GRID_H
#define OL_GRID_H

#include "ol.h"
#include "problem.h"
#include "run.h"

/* Evaluate f of p on the grid (see above).  x0 has p->n entries; i != j,
** both in [0, n); xlo < xhi, ylo < yhi; nx, ny >= 1.  work needs 2 n
** doubles.  A non-finite value (or OL_EDOM from the oracle) is stored as
** NAN; any other oracle failure (a Lua callback error) stops and returns
** its code with e set.  OL_EINVAL on bad arguments. */
int ol_problem_grid (const ol_problem *p, const double *x0, int i, int j,
                     double xlo, double xhi, double ylo, double yhi, int nx,
                     int ny, double *out, double *work, ol_err *e);

/* A default window win = {xlo, xhi, ylo, yhi} over coordinates i, j for
** the trajectories of runs (those recording x with dim > max(i, j)): the
** bounding box of every recorded point, the current iterates and x* of
** the first run's problem when known, padded by 10% of its extent on each
** side (at least 0.5 when the extent is 0), widened to a square when
** square is set (same extent on both axes), then snapped outwards to
** multiples of a 1-2-5 step (a tenth of the larger extent, rounded up).
** Returns 0, or -1 when no run has a usable trajectory (win untouched). */
int ol_grid_window (const ol_run *const *runs, int nruns, int i, int j,
                    int square, double win[4]);

#endif
