/*
** core/optim/envelope.h -- the effective-learning-rate envelope shared by
** the adaptive optimizers' probes (metrics lrmin, lrmed, lrmax).
*/
#ifndef OL_ENVELOPE_H
#define OL_ENVELOPE_H

/* min (OL_MET_LRMIN), median (OL_MET_LRMED; the mean of the two middle
** values for an even n) or max (OL_MET_LRMAX) of w[0..n), which it
** reorders; NAN for any other metric.  O(n), never allocates. */
double ol_envelope (double *w, int n, int metric);

#endif
