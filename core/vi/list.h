/*
** core/vi/list.h -- the registry of variational-inference methods: one line per
** method.  OL_VI(name) declares the object ol_vi_<name> defined in
** core/vi/<name>.c (Lua: vi.<name>{...}).  Order here is the order
** of help() and the man page.
*/
OL_VI(meanfield)
OL_VI(fullrank)
OL_VI(mixflow)
