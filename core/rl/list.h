/*
** core/rl/list.h -- the registry of reinforcement-learning (policy-gradient) methods: one line per
** method.  OL_RL(name) declares the object ol_rl_<name> defined in
** core/rl/<name>.c (Lua: rl.<name>{...}).  Order here is the order
** of help() and the man page.
*/
OL_RL(pg)
OL_RL(dynpg)
OL_RL(grpo)
OL_RL(qae)
OL_RL(sarsa)
