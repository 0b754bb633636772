"""tests/bench/w5_scipy.py -- W5's peer: scipy.optimize.minimize with
method L-BFGS-B (m = 10, its default) on the d-dimensional chained
Rosenbrock (scipy.optimize.rosen and rosen_der, numpy-vectorised) from
(-1.2, 1, -1.2, 1, ...), run to its own criterion: projected gradient
inf-norm <= 1e-6 (gtol; ftol = 0 so that only it stops the run), as W5's
engine runs to ||g||_2 <= 1e-6.  Time per solve: process CPU time, the
clock tests/bench/w5 uses; median and min of reps.
Prints  W5 scipy ms/solve <median> min <min> nit <k> nfev <k> |g|2 <final> d <d>
usage: /usr/bin/python3 w5_scipy.py d reps"""
import statistics
import sys
import time

import numpy as np
from scipy.optimize import minimize, rosen, rosen_der


def fg(x):
    return rosen(x), rosen_der(x)


def main():
    d, reps = int(sys.argv[1]), int(sys.argv[2])
    x0 = np.array([-1.2 if i % 2 == 0 else 1.0 for i in range(d)])
    secs = []
    for _ in range(reps):
        t0 = time.process_time()
        r = minimize(fg, x0, jac=True, method="L-BFGS-B",
                     options={"gtol": 1e-6, "ftol": 0.0, "maxiter": 10**6,
                              "maxfun": 10**6})
        secs.append(time.process_time() - t0)
    gn = float(np.linalg.norm(rosen_der(r.x)))
    print("W5 scipy ms/solve %.3f min %.3f nit %d nfev %d |g|2 %.3g d %d"
          % (1e3 * statistics.median(secs), 1e3 * min(secs), r.nit, r.nfev,
             gn, d))


main()
