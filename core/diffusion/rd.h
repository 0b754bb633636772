/*
** core/diffusion/rd.h -- one restoration-degradation step of one point
** (rd.c; Chen, Daras & Dimakis 2023), for the sampler and its tests.
*/
#ifndef OL_RD_H
#define OL_RD_H

/* From x (n, the frame x = s (x_0 + sigma z) of diffuse.h) at (s, sig),
** with g the score grad_x log p_t at x, to the level (sp, sigp) through
** the restoration level (sr, sigr), 0 <= sigr < sigp < sig:
**   xr  = sr (x / s + (sig^2 - sigr^2) s g)    the restored point,
**         E[x_tr | x_t = x] (Tweedie);
**   out = sp (xr / sr + sqrt(sigp^2 - sigr^2) zb),
**         zb = (x / s - xr / sr) / sqrt(sig^2 - sigr^2)
**         the degraded point: the forward process from tr to t' driven by
**         the noise zb that carries xr to x.
** xr and out may not alias x or g. */
void ol_rd_point (int n, const double *x, const double *g, double s,
                  double sig, double sp, double sigp, double sr, double sigr,
                  double *xr, double *out);

#endif
