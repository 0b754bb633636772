/*
** core/sample/list.h -- the sampler registry: one line per sampler.
** OL_SAMPLER(name) declares ol_sample_<name> from core/sample/<name>.c.
*/
OL_SAMPLER(mala)
OL_SAMPLER(rwmh)
OL_SAMPLER(ula)
OL_SAMPLER(hmc)
OL_SAMPLER(nuts)
OL_SAMPLER(sgld)
OL_SAMPLER(pmala)
