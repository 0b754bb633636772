/*
** core/smc/list.h -- the registry of sequential Monte Carlo smoothers on
** state-space models: one line per method.  OL_SMC(name) declares the
** object ol_smc_<name> defined in core/smc/<name>.c (Lua: smc.<name>{...}).
** Order here is the order of help() and the man page.
*/
OL_SMC(paris)
OL_SMC(ppg)
