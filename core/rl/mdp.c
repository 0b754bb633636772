/*
** core/rl/mdp.c -- tabular finite-horizon MDPs under softmax policies
** (mdp.h): backward induction, exact values and policy gradients, the
** REINFORCE episode, policy entropy and its first-order change, and the
** objective oracle f = -J shared by the MDP problems.  Not a method.
**
** Costs per call, n = H S A: the policy O(n); J and its gradient
** O(H S^2 A) (one backward pass for V, one forward pass for d).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rl/mdp.h"

ol_mdp *ol_mdp_new (int H, int S, int A, ol_err *e)
{
  ol_mdp *M = calloc(1, sizeof *M);
  size_t sa = (size_t)S * A;
  if (M == NULL) goto fail;
  M->H = H;
  M->S = S;
  M->A = A;
  M->P = calloc(sa * S, sizeof *M->P);
  M->R = calloc(sa, sizeof *M->R);
  M->mu = calloc((size_t)S, sizeof *M->mu);
  M->vopt = calloc((size_t)(H + 1) * S, sizeof *M->vopt);
  M->pistar = calloc((size_t)H * S, sizeof *M->pistar);
  M->work = calloc(ol_mdp_worksize(M), sizeof *M->work);
  if (M->P == NULL || M->R == NULL || M->mu == NULL || M->vopt == NULL
      || M->pistar == NULL || M->work == NULL)
    goto fail;
  return M;
fail:
  ol_mdp_free(M);
  ol_err_set(e, OL_ENOMEM, "out of memory");
  return NULL;
}

void ol_mdp_free (ol_mdp *M)
{
  if (M == NULL) return;
  free(M->P);
  free(M->R);
  free(M->mu);
  free(M->vopt);
  free(M->pistar);
  free(M->work);
  free(M);
}

size_t ol_mdp_worksize (const ol_mdp *M)
{
  return (size_t)M->H * M->S * M->A + 2 * (size_t)(M->H + 1) * M->S;
}

static void mdp_free_ud (void *ud)
{
  ol_mdp_free(ud);
}

/* Q(s, a) of one stage against the next stage's values v (S). */
static double qval (const ol_mdp *M, int s, int a, const double *v)
{
  const double *p = M->P + ((size_t)s * M->A + a) * M->S;
  double q = M->R[(size_t)s * M->A + a];
  int t;
  for (t = 0; t < M->S; t++) q += p[t] * v[t];
  return q;
}

static int mdp_fdf (void *ud, const double *x, double *f, double *g,
                    ol_err *e)
{
  ol_mdp *M = ud;
  int i, n = M->H * M->S * M->A;
  double J = ol_mdp_eval(M, x, g, M->work);
  if (!isfinite(J)) return ol_err_set(e, OL_EDOM, "non-finite value");
  if (f != NULL) *f = -J;
  if (g != NULL)
    for (i = 0; i < n; i++) g[i] = -g[i];
  return OL_OK;
}

const ol_mdp *ol_mdp_ud (const ol_problem *p)
{
  return p->ud;
}

const ol_mdp *ol_mdp_of (const ol_problem *p)
{
  if (p == NULL || p->type->mdp == NULL) return NULL;
  return p->type->mdp(p);
}

int ol_mdp_setup (ol_problem *p, ol_mdp *M, const char *name, ol_err *e)
{
  int H = M->H, S = M->S, A = M->A, h, s, a, t;
  size_t sa = (size_t)S * A;
  double msum = 0;
  p->ud = M;
  p->free_ud = mdp_free_ud;
  /* (1) check the dynamics */
  for (s = 0; s < S; s++) {
    if (!(M->mu[s] >= 0) || !isfinite(M->mu[s]))
      return ol_err_set(e, OL_EINVAL, "%s: mu[%d] = %g", name, s + 1,
                        M->mu[s]);
    msum += M->mu[s];
  }
  if (fabs(msum - 1) > 1e-12)
    return ol_err_set(e, OL_EINVAL, "%s: mu sums to %.17g", name, msum);
  for (s = 0; s < (int)sa; s++) {
    double r = 0;
    if ((s & 1023) == 0 && ol_interrupted())     /* S A S: up to 1e8 */
      return ol_err_set(e, OL_EINTR, "%s: interrupted", name);
    if (!isfinite(M->R[s]))
      return ol_err_set(e, OL_EINVAL, "%s: R is not finite", name);
    for (t = 0; t < S; t++) {
      double q = M->P[(size_t)s * S + t];
      if (!(q >= 0) || !isfinite(q))
        return ol_err_set(e, OL_EINVAL, "%s: P has entry %g", name, q);
      r += q;
    }
    if (r > 1 + 1e-12)
      return ol_err_set(e, OL_EINVAL, "%s: a row of P sums to %.17g > 1",
                        name, r);
  }
  /* (2) backward induction */
  for (s = 0; s < S; s++) M->vopt[(size_t)H * S + s] = 0;
  for (h = H - 1; h >= 0; h--)
    for (s = 0; s < S; s++) {
      const double *vn = M->vopt + (size_t)(h + 1) * S;
      double best = -INFINITY;
      int arg = 0;
      if ((s & 63) == 0 && ol_interrupted())
        return ol_err_set(e, OL_EINTR, "%s: interrupted", name);
      for (a = 0; a < A; a++) {
        double q = qval(M, s, a, vn);
        if (q > best) {
          best = q;
          arg = a;
        }
      }
      M->vopt[(size_t)h * S + s] = best;
      M->pistar[(size_t)h * S + s] = arg;
    }
  M->vstar = 0;
  for (s = 0; s < S; s++) M->vstar += M->mu[s] * M->vopt[s];
  M->binary = H == 1;
  for (s = 0; s < (int)sa && M->binary; s++) {
    if ((s & 1023) == 0 && ol_interrupted())
      return ol_err_set(e, OL_EINTR, "%s: interrupted", name);
    if (M->R[s] != 0 && M->R[s] != 1) M->binary = 0;
    for (t = 0; t < S; t++)
      if (M->P[(size_t)s * S + t] != 0) M->binary = 0;
  }
  /* (3) the problem */
  snprintf(p->name, sizeof p->name, "%s", name);
  p->kind = OL_OBJECTIVE;
  p->n = H * S * A;
  p->fdf = mdp_fdf;
  if ((p->x0 = ol_problem_alloc(p->n, e)) == NULL) return OL_ENOMEM;
  p->fstar = -M->vstar;
  return OL_OK;
}

/* Softmax of k logits z into q; returns log sum exp z. */
static double softmax (const double *z, double *q, int k)
{
  double m = z[0], sum = 0;
  int a;
  for (a = 1; a < k; a++)
    if (z[a] > m) m = z[a];
  for (a = 0; a < k; a++) sum += (q[a] = exp(z[a] - m));
  for (a = 0; a < k; a++) q[a] /= sum;
  return m + log(sum);
}

void ol_mdp_policy (const ol_mdp *M, const double *z, double *pi)
{
  int b, nb = M->H * M->S, A = M->A;
  for (b = 0; b < nb; b++)
    softmax(z + (size_t)b * A, pi + (size_t)b * A, A);
}

double ol_mdp_eval (const ol_mdp *M, const double *z, double *g,
                    double *work)
{
  int H = M->H, S = M->S, A = M->A, h, s, a, t;
  double *pi = work, *V = pi + (size_t)H * S * A;
  double *d = V + (size_t)(H + 1) * S, J = 0;
  ol_mdp_policy(M, z, pi);
  /* (1) values backwards: V_h(s) = sum_a pi Q_h */
  for (s = 0; s < S; s++) V[(size_t)H * S + s] = 0;
  for (h = H - 1; h >= 0; h--)
    for (s = 0; s < S; s++) {
      const double *q = pi + ((size_t)h * S + s) * A;
      double v = 0;
      for (a = 0; a < A; a++)
        if (q[a] > 0) v += q[a] * qval(M, s, a, V + (size_t)(h + 1) * S);
      V[(size_t)h * S + s] = v;
    }
  for (s = 0; s < S; s++) J += M->mu[s] * V[s];
  if (g == NULL) return J;
  /* (2) occupancy forwards, d_0 = mu, and the gradient
  ** d_h(s) pi (Q_h - V_h) */
  for (s = 0; s < S; s++) d[s] = M->mu[s];
  for (h = 0; h < H; h++) {
    double *dn = d + S;
    const double *vn = V + (size_t)(h + 1) * S;
    if (h + 1 < H)
      for (t = 0; t < S; t++) dn[t] = 0;
    for (s = 0; s < S; s++) {
      const double *q = pi + ((size_t)h * S + s) * A;
      double *gb = g + ((size_t)h * S + s) * A, v = V[(size_t)h * S + s];
      for (a = 0; a < A; a++) {
        gb[a] = d[s] == 0 ? 0 : d[s] * q[a] * (qval(M, s, a, vn) - v);
        if (h + 1 < H && d[s] * q[a] != 0) {
          const double *p = M->P + ((size_t)s * A + a) * S;
          for (t = 0; t < S; t++) dn[t] += d[s] * q[a] * p[t];
        }
      }
    }
    if (h + 1 < H)
      for (t = 0; t < S; t++) d[t] = dn[t];
  }
  return J;
}

double ol_mdp_stage (const ol_mdp *M, const double *z, int h, double *g,
                     double *work)
{
  int H = M->H, S = M->S, A = M->A, k, s, a;
  double *q = work, *V = work + A, gap = 0;
  /* (1) V_{k}, k = H .. h+1, under the later policies; V[k S + s] */
  for (s = 0; s < S; s++) V[(size_t)H * S + s] = 0;
  for (k = H - 1; k > h; k--)
    for (s = 0; s < S; s++) {
      double v = 0;
      softmax(z + ((size_t)k * S + s) * A, q, A);
      for (a = 0; a < A; a++)
        if (q[a] > 0) v += q[a] * qval(M, s, a, V + (size_t)(k + 1) * S);
      V[(size_t)k * S + s] = v;
    }
  /* (2) stage h: g = w pi (Q - V), gap = sum w (max Q - V) */
  for (s = 0; s < S; s++) {
    const double *vn = V + (size_t)(h + 1) * S;
    double w = h == 0 ? M->mu[s] : 1.0 / S, v = 0, qmax = -INFINITY;
    double *gb = g + (size_t)s * A;
    softmax(z + ((size_t)h * S + s) * A, q, A);
    for (a = 0; a < A; a++) {
      gb[a] = qval(M, s, a, vn);
      v += q[a] * gb[a];
      if (gb[a] > qmax) qmax = gb[a];
    }
    for (a = 0; a < A; a++) gb[a] = w * q[a] * (gb[a] - v);
    gap += w * (qmax - v);
  }
  return gap;
}

int ol_mdp_draw (const double *q, int k, ol_rng *rng)
{
  double u = ol_rng_uniform(rng);
  int a;
  for (a = 0; a < k - 1; a++) {
    u -= q[a];
    if (u < 0) return a;
  }
  return k - 1;
}

double ol_mdp_episode (const ol_mdp *M, const double *pi, ol_rng *rng,
                       double *g)
{
  int H = M->H, S = M->S, A = M->A, h, s, a, b, t;
  int st[64], ac[64];
  double rw[64], G = 0;
  /* (1) roll out (horizons beyond 64 are refused by the problems) */
  s = ol_mdp_draw(M->mu, S, rng);
  for (h = 0; h < H && h < 64; h++) {
    const double *p;
    double u, left;
    a = ol_mdp_draw(pi + ((size_t)h * S + s) * A, A, rng);
    st[h] = s;
    ac[h] = a;
    rw[h] = M->R[(size_t)s * A + a];
    p = M->P + ((size_t)s * A + a) * S;
    u = ol_rng_uniform(rng);
    left = u;
    for (t = 0; t < S; t++) {
      left -= p[t];
      if (left < 0) break;
    }
    if (t == S) {           /* the episode ends */
      h++;
      break;
    }
    s = t;
  }
  /* (2) reward-to-go times the score, backwards */
  for (b = h - 1; b >= 0; b--) {
    const double *q = pi + ((size_t)b * S + st[b]) * A;
    double *gb = g + ((size_t)b * S + st[b]) * A;
    G += rw[b];
    if (G != 0)
      for (a = 0; a < A; a++) gb[a] += G * ((a == ac[b]) - q[a]);
  }
  return G;
}

/* Entropy of softmax(z) over k logits: log sum exp z - E_pi z. */
static double block_entropy (const double *z, int k)
{
  double m = z[0], sum = 0, ez = 0;
  int a;
  for (a = 1; a < k; a++)
    if (z[a] > m) m = z[a];
  for (a = 0; a < k; a++) {
    double w = exp(z[a] - m);
    sum += w;
    ez += w * (z[a] - m);
  }
  return log(sum) - ez / sum;
}

double ol_mdp_entropy (const ol_mdp *M, const double *z)
{
  int b, nb = M->H * M->S;
  double s = 0;
  for (b = 0; b < nb; b++) s += block_entropy(z + (size_t)b * M->A, M->A);
  return s / nb;
}

double ol_mdp_dentropy_pred (const ol_mdp *M, const double *z,
                             const double *dz)
{
  int b, a, nb = M->H * M->S, A = M->A;
  double tot = 0;
  for (b = 0; b < nb; b++) {
    const double *zb = z + (size_t)b * A, *db = dz + (size_t)b * A;
    double m = zb[0], sum = 0, lse, el = 0, ed = 0, eld = 0;
    for (a = 1; a < A; a++)
      if (zb[a] > m) m = zb[a];
    for (a = 0; a < A; a++) sum += exp(zb[a] - m);
    lse = m + log(sum);
    for (a = 0; a < A; a++) {
      double lp = zb[a] - lse, p = exp(lp);
      el += p * lp;
      ed += p * db[a];
      eld += p * lp * db[a];
    }
    tot -= eld - el * ed;
  }
  return tot / nb;
}

double ol_mdp_pass (const ol_mdp *M, const double *z, int s)
{
  const double *zb = z + (size_t)s * M->A;
  double m = zb[0], sum = 0, ps = 0;
  int a;
  for (a = 1; a < M->A; a++)
    if (zb[a] > m) m = zb[a];
  for (a = 0; a < M->A; a++) {
    double w = exp(zb[a] - m);
    sum += w;
    ps += w * M->R[(size_t)s * M->A + a];
  }
  return ps / sum;
}
