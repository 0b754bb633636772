/*
** core/optim/envelope.c -- min / median / max of per-coordinate step
** multipliers, for the lrmin / lrmed / lrmax probes of adaptive methods.
** The median uses Wirth's selection in place (no allocation, as probes
** run between steps on the method's own scratch array).
*/
#include "envelope.h"

#include <math.h>

#include "metrics.h"

/* The k-th smallest of a[0..n) (Wirth's selection); on return every
** a[i], i < k, is <= a[k]. */
static double select_kth (double *a, int n, int k)
{
  int l = 0, r = n - 1;
  while (l < r) {
    double p = a[k];
    int i = l, j = r;
    do {
      while (a[i] < p) i++;
      while (p < a[j]) j--;
      if (i <= j) {
        double t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
  return a[k];
}

double ol_envelope (double *w, int n, int metric)
{
  double r = w[0];
  int i, k = n / 2;
  switch (metric) {
  case OL_MET_LRMIN:
    for (i = 1; i < n; i++) if (w[i] < r) r = w[i];
    return r;
  case OL_MET_LRMAX:
    for (i = 1; i < n; i++) if (w[i] > r) r = w[i];
    return r;
  case OL_MET_LRMED:
    r = select_kth(w, n, k);
    if (n % 2 == 0) {
      double lo = w[0];
      for (i = 1; i < k; i++) if (w[i] > lo) lo = w[i];
      r = 0.5 * (lo + r);
    }
    return r;
  default:
    return NAN;
  }
}
