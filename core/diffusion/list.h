/*
** core/diffusion/list.h -- the registry of diffusion samplers: one line per
** method.  OL_DIFFUSION(name) declares the object ol_diffusion_<name> defined in
** core/diffusion/<name>.c (Lua: diffusion.<name>{...}).  Order here is the order
** of help() and the man page.
*/
OL_DIFFUSION(ddpm)
OL_DIFFUSION(ddim)
OL_DIFFUSION(pfode)
OL_DIFFUSION(rd)
OL_DIFFUSION(sde)
OL_DIFFUSION(masked)
