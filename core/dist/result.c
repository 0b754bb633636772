/*
** core/dist/result.c -- the named results of distributed methods
** (method.h: ol_method_result); not a method.
**   workers    m x n: each node's iterate (the decentralized methods,
**              whose state begins with an ol_dec: graph.h), the rows
**              whose average is the run's x; the federated and
**              asynchronous methods' workers' iterates (dist.h,
**              ol_dist_fedresult)
**   mixing     m x m: the decentralized methods' mixing matrix W
**   graph      1 x 4: its spectral gap, rho = 1 - gap, edges, draws (an
**              Erdos-Renyi graph's draws until connected, else 1)
*/
#include <string.h>

#include "graph.h"

static int isdec (const ol_method_type *m)
{
  return strcmp(m->name, "dsgd") == 0 || strcmp(m->name, "gt") == 0 ||
         strcmp(m->name, "gtnsgdm") == 0;
}

int ol_dist_result (const ol_method_type *m, const void *st,
                    const char *name, const double **v, int *rows,
                    int *cols)
{
  const ol_dec *s = st;
  if (!isdec(m)) return ol_dist_fedresult(m, st, name, v, rows, cols);
  if (s->X == NULL) return 0;
  if (strcmp(name, "workers") == 0) {
    *v = s->X;
    *rows = s->m;
    *cols = s->d;
    return 1;
  }
  if (strcmp(name, "mixing") == 0 && s->g.W != NULL) {
    *v = s->g.W;
    *rows = *cols = s->m;
    return 1;
  }
  if (strcmp(name, "graph") == 0 && s->g.W != NULL) {
    *v = s->g.info;
    *rows = 1;
    *cols = 4;
    return 1;
  }
  return 0;
}
