/*
** core/optim/list.h -- the optimizer registry: one line per optimizer.
** OL_OPTIM(name) declares the object ol_optim_<name> defined in
** core/optim/<name>.c.  Order here is the order of help() and the man page.
*/
OL_OPTIM(gd)
OL_OPTIM(momentum)
OL_OPTIM(nesterov)
OL_OPTIM(adagrad)
OL_OPTIM(rmsprop)
OL_OPTIM(adam)
OL_OPTIM(pgd)
