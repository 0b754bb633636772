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
OL_OPTIM(dog)
OL_OPTIM(clipsgd)
OL_OPTIM(nsgdm)
OL_OPTIM(clipadagradnorm)
OL_OPTIM(bcd)
OL_OPTIM(agr)
OL_OPTIM(gradavg)
OL_OPTIM(adagradnorm)
OL_OPTIM(adamw)
OL_OPTIM(amsgrad)
OL_OPTIM(adabound)
OL_OPTIM(adamod)
OL_OPTIM(adopt)
OL_OPTIM(diffgrad)
OL_OPTIM(ista)
OL_OPTIM(fista)
