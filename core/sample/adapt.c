/*
** core/sample/adapt.c -- dual-averaging step size and windowed diagonal
** metric for the adaptive samplers (definitions and constants in
** adapt.h: Hoffman & Gelman 2014 section 3.2; Stan's windowed
** adaptation).
*/
#include <math.h>
#include <stdlib.h>

#include "vec.h"
#include "adapt.h"

/* Restart from eps: mu = log(10 eps), t = 0 (after a metric update). */
static void ol_dualavg_restart (ol_dualavg *d, double eps);

void ol_dualavg_start (ol_dualavg *d, double delta, double eps)
{
  d->delta = delta;
  ol_dualavg_restart(d, eps);
}

static void ol_dualavg_restart (ol_dualavg *d, double eps)
{
  d->mu = log(10 * eps);
  d->hbar = 0;
  d->xbar = 0;
  d->t = 0;
}

double ol_dualavg_learn (ol_dualavg *d, double a)
{
  double t, eta, x, w;
  if (!(a >= 0)) a = 0;     /* NAN: nothing was accepted */
  if (a > 1) a = 1;
  t = (double)++d->t;
  /* (1) running mean of delta - a, weighted 1/(t + t0) */
  eta = 1 / (t + OL_DA_T0);
  d->hbar = (1 - eta) * d->hbar + eta * (d->delta - a);
  /* (2) the dual-averaging iterate, shrunk towards mu */
  x = d->mu - sqrt(t) / OL_DA_GAMMA * d->hbar;
  /* (3) its average with weights t^-kappa */
  w = pow(t, -OL_DA_KAPPA);
  d->xbar = (1 - w) * d->xbar + w * x;
  return exp(x);
}

double ol_dualavg_final (const ol_dualavg *d, double eps)
{
  return d->t > 0 ? exp(d->xbar) : eps;
}

/* Stan's set_window_params and restart, with the given buffers. */
static void set_windows (ol_winvar *w, long init_buffer, long term_buffer,
                         long base_window)
{
  long warmup = w->warmup;
  w->init_buffer = init_buffer;
  w->term_buffer = term_buffer;
  w->base_window = base_window;
  w->on = warmup >= 20;
  if (w->on && w->init_buffer + w->base_window + w->term_buffer > warmup) {
    w->init_buffer = (long)(0.15 * (double)warmup);
    w->term_buffer = (long)(0.1 * (double)warmup);
    w->base_window = warmup - (w->init_buffer + w->term_buffer);
  }
  w->counter = 0;
  w->window = w->base_window;
  w->next_window = w->init_buffer + w->window - 1;
  w->ns = 0;
}

int ol_winvar_init (ol_winvar *w, int n, long warmup, ol_err *e)
{
  w->n = n;
  w->warmup = warmup;
  set_windows(w, 75, 50, 25);
  w->dense = 0;
  w->c2 = w->cov = w->d = NULL;
  if ((w->mean = ol_vec_new(n, e)) == NULL
      || (w->m2 = ol_vec_new(n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

void ol_winvar_buffers (ol_winvar *w, long init_buffer, long term_buffer,
                        long base_window)
{
  set_windows(w, init_buffer, term_buffer, base_window);
}

/* Make w (after init) estimate the dense covariance.  OL_ENOMEM. */
static int ol_winvar_dense (ol_winvar *w, ol_err *e)
{
  int nn = w->n * w->n;
  w->dense = 1;
  if ((w->c2 = ol_vec_new(nn, e)) == NULL
      || (w->cov = ol_vec_new(nn, e)) == NULL
      || (w->d = ol_vec_new(w->n, e)) == NULL)
    return OL_ENOMEM;
  return OL_OK;
}

/* Stan's compute_next_window: the next window doubles, and is stretched
** to the terminal buffer when the one after it would not fit. */
static void next_window (ol_winvar *w)
{
  long last = w->warmup - w->term_buffer - 1;
  if (w->next_window == last) return;
  w->window *= 2;
  w->next_window = w->counter + w->window;
  if (w->next_window != last && w->next_window + 2 * w->window > last)
    w->next_window = last;
}

int ol_winvar_learn (ol_winvar *w, const double *x, double *minv)
{
  long c = w->counter;
  int i, n = w->n, updated = 0;
  if (!w->on) {
    w->counter++;
    return 0;
  }
  /* (1) a draw inside the slow phase joins the window's estimator */
  if (c >= w->init_buffer && c < w->warmup - w->term_buffer) {
    double k = (double)++w->ns;
    if (w->dense)
      for (i = 0; i < n; i++) w->d[i] = x[i] - w->mean[i];
    for (i = 0; i < n; i++) {
      double d = x[i] - w->mean[i];
      w->mean[i] += d / k;
      w->m2[i] += d * (x[i] - w->mean[i]);
    }
    /* co-moments: C += (x - mean_old)(x - mean_new)' */
    if (w->dense) {
      int j;
      for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++)
          w->c2[i * n + j] += w->d[i] * (x[j] - w->mean[j]);
    }
  }
  /* (2) end of a window: regularised variance, estimator restarted */
  if (c == w->next_window && c != w->warmup) {
    double k = (double)w->ns;
    next_window(w);
    if (k >= 2) {
      for (i = 0; i < n; i++) {
        double v = w->m2[i] / (k - 1);
        minv[i] = k / (k + 5) * v + 1e-3 * (5 / (k + 5));
      }
      if (w->dense) {
        int j;
        for (i = 0; i < n; i++)
          for (j = 0; j <= i; j++) {
            double v = k / (k + 5) * w->c2[i * n + j] / (k - 1);
            if (i == j) v = minv[i];
            w->cov[i * n + j] = w->cov[j * n + i] = v;
          }
      }
      updated = 1;
    }
    w->ns = 0;
    ol_vec_set(w->mean, 0, n);
    ol_vec_set(w->m2, 0, n);
    if (w->dense) ol_vec_set(w->c2, 0, n * n);
  }
  w->counter++;
  return updated;
}

void ol_winvar_fini (ol_winvar *w)
{
  ol_vec_free(w->mean);
  ol_vec_free(w->m2);
  ol_vec_free(w->c2);
  ol_vec_free(w->cov);
  ol_vec_free(w->d);
  w->mean = w->m2 = w->c2 = w->cov = w->d = NULL;
}

int ol_adapt_init (ol_adapt *a, int n, long warmup, double delta,
                   double eps0, int metric, ol_err *e)
{
  int rc;
  a->warmup = warmup;
  a->iter = 0;
  a->metric = metric;
  ol_dualavg_start(&a->da, delta, eps0);
  if (!metric) return OL_OK;
  if ((rc = ol_winvar_init(&a->wv, n, warmup, e)) != OL_OK) return rc;
  return metric == 2 ? ol_winvar_dense(&a->wv, e) : OL_OK;
}

int ol_adapt_step (ol_adapt *a, double accept, const double *x, double *eps,
                   double *minv)
{
  int upd = OL_ADAPT_NONE;
  if (a->iter >= a->warmup) return OL_ADAPT_NONE;
  /* (1) step size, then (2) the metric, in Stan's order */
  *eps = ol_dualavg_learn(&a->da, accept);
  if (a->metric && ol_winvar_learn(&a->wv, x, minv)) upd = OL_ADAPT_METRIC;
  /* (3) the last warmup step freezes the averaged step size */
  if (++a->iter == a->warmup) *eps = ol_dualavg_final(&a->da, *eps);
  return upd;
}

void ol_adapt_restart (ol_adapt *a, double eps)
{
  ol_dualavg_restart(&a->da, eps);
}

void ol_adapt_fini (ol_adapt *a)
{
  if (a->metric) ol_winvar_fini(&a->wv);
}
