/*
** core/dist/list.h -- the registry of distributed methods (federated,
** decentralized, compressed, asynchronous) over a problem's workers
** (problem.h, ol_workers): one line per method.  OL_DIST(name) declares
** the object ol_dist_<name> defined in core/dist/<name>.c (Lua:
** dist.<name>{...}).  Order here is the order of help() and the man page.
*/
OL_DIST(dsgd)
OL_DIST(gt)
OL_DIST(gtnsgdm)
OL_DIST(ef14)
OL_DIST(ef21)
OL_DIST(econtrol)
OL_DIST(fedavg)
OL_DIST(scaffold)
OL_DIST(asgd)
