/*
** core/optim/rdp.h -- Renyi-DP accountant of the Poisson-sampled Gaussian
** mechanism (DP-SGD's privacy accounting; core/optim/dpsgd.c).
**
** The mechanism: each record joins the batch with probability q, the sum
** of the batch's clipped contributions (l2 sensitivity 1 after scaling by
** the clip level) gets N(0, sigma^2 I) noise.  Its Renyi divergence at
** an integer order alpha >= 2 (Mironov, Talwar & Zhang 2019, "Renyi
** Differential Privacy of the Sampled Gaussian Mechanism", Sec. 3.3, the
** integer-order closed form; add-or-remove-one adjacency):
**
**   A_alpha = sum_{k=0}^{alpha} C(alpha, k) (1 - q)^(alpha - k) q^k
**             exp((k^2 - k) / (2 sigma^2))
**   rdp(alpha) = log A_alpha / (alpha - 1)
**
** summed in log space (log-sum-exp of the alpha + 1 terms), so large
** orders and small sigma neither overflow nor underflow.  T steps compose
** to T rdp(alpha) (Mironov 2017, Prop. 1).  The conversion to
** (epsilon, delta)-DP is the tighter one of Balle et al. 2020 ("Hypothesis
** Testing Interpretations and Renyi Differential Privacy", Thm. 21) and
** Canonne, Kamath & Steinke 2020 (Prop. 12), also Google's dp_accounting:
**
**   epsilon = min_alpha  R + log(1 - 1/alpha) - log(delta alpha) / (alpha - 1)
**
** with R = T rdp(alpha), clamped at 0; an order whose R is so small that
** delta >= sqrt(1 - exp(-R)) (the Bretagnolle-Huber bound on the total
** variation by KL <= R) gives epsilon = 0.  Orders: the integers
** OL_RDP_AMIN .. OL_RDP_AMAX (2 .. 256), no fractional ones, so epsilon
** can exceed an accountant that also uses orders in (1, 2) when sigma is
** large and epsilon small.
*/
#ifndef OL_RDP_H
#define OL_RDP_H

#define OL_RDP_AMIN 2
#define OL_RDP_AMAX 256
#define OL_RDP_NORD (OL_RDP_AMAX - OL_RDP_AMIN + 1)

/* rdp(alpha) of one step, integer alpha >= 2, 0 <= q <= 1, sigma >= 0:
** 0 when q == 0, +inf when sigma == 0 < q. */
double ol_rdp_sgm (double q, double sigma, int alpha);

/* rdp[j] = ol_rdp_sgm(q, sigma, OL_RDP_AMIN + j) for every order. */
void ol_rdp_orders (double q, double sigma, double rdp[OL_RDP_NORD]);

/* epsilon at delta (0 < delta < 1) of steps compositions of a mechanism
** with per-step RDP rdp[] at the orders OL_RDP_AMIN + j; *order (may be
** NULL) gets the minimising order.  +inf when every order is +inf. */
double ol_rdp_epsilon (const double rdp[OL_RDP_NORD], double steps,
                       double delta, int *order);

#endif
