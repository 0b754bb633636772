/*
** core/sample/list.h -- the sampler registry: one line per sampler.
** OL_SAMPLER(name) declares ol_sample_<name> from core/sample/<name>.c.
*/
OL_SAMPLER(mala)
