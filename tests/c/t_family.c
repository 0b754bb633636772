/*
** tests/c/t_family.c -- the family table (core/family.c): every entry is
** complete, and every registered method's family gives its runs defaults.
**
** Truth: the Lua namespaces are the globals the manual documents (optim,
** sample, game, vi, diffusion, rl, dist, in family order); a method's full
** name as Lua shows it ("optim.adam") finds that method again
** (ol_method_find); every registered method, on the first built-in problem
** it accepts, records some metric and watches some panel by default.
*/
#include "family.h"
#include "method.h"
#include "metrics.h"
#include "olt.h"
#include "plotpanel.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

#define MAXPROBLEMS 256

/* 1 when list (ended by end) holds only ids in [lo, hi) or end. */
static int list_ok (const int *list, int end, int lo, int hi)
{
  int i;
  if (list == NULL) return 0;
  for (i = 0; list[i] != end; i++)
    if (list[i] < lo || list[i] >= hi || i > 4 * OL_NMETRICS) return 0;
  return 1;
}

int main (void)
{
  static const char *const lua_ns[OL_NFAMILY] = {
    "optim", "sample", "game", "vi", "diffusion", "rl", "dist", "smc"
  };
  static ol_problem *probs[MAXPROBLEMS];
  int f, g, i, j, np = 0, count[OL_NFAMILY] = {0};
  char full[128];

  /* (1) the entries */
  for (f = 0; f < OL_NFAMILY; f++) {
    const ol_family *fa = &ol_families[f];
    is_str(fa->ns, lua_ns[f], "family %d: its Lua namespace", f);
    ok(fa->what != NULL && fa->what[0] != '\0' && fa->plural != NULL &&
       strncmp(fa->plural, fa->what, strlen(fa->what)) == 0,
       "family %s: names its methods (\"%s\", \"%s\")", fa->ns,
       fa->what ? fa->what : "(null)", fa->plural ? fa->plural : "(null)");
    ok(list_ok(fa->metrics, -1, 0, OL_NMETRICS),
       "family %s: its default metrics are metric ids ended by -1", fa->ns);
    ok(list_ok(fa->panels, OL_PANEL_END, OL_PANEL_RECORDED, OL_NMETRICS) &&
       fa->panels[0] != OL_PANEL_END,
       "family %s: its default panels are metric ids or OL_PANEL_*, at "
       "least one, ended by OL_PANEL_END", fa->ns);
    ok(fa->metrics[0] >= 0 || fa->probe_metrics,
       "family %s: has default metrics, its own or its methods' probes'",
       fa->ns);
    is_int(ol_family_find(fa->ns), f, "family %s: found by its namespace",
           fa->ns);
    for (g = 0; g < f; g++)
      if (strcmp(ol_families[g].ns, fa->ns) == 0)
        ok(0, "family %s: namespace shared with family %d", fa->ns, g);
  }
  is_str(ol_family_get(-1)->ns, "method", "family: -1 gets the empty entry");
  is_str(ol_family_get(OL_NFAMILY)->ns, "method",
         "family: OL_NFAMILY gets the empty entry");
  is_int(ol_family_find("problem"), -1, "family: problem is not a family");

  /* (2) every registered method: its family, its full name, defaults on
  ** the first built-in problem it accepts */
  for (i = 0; ol_problem_types[i] != NULL && np < MAXPROBLEMS; i++) {
    ol_err e;
    ol_problem *p = olt_problem(ol_problem_types[i]->name, &e, NULL);
    if (p != NULL) probs[np++] = p;
  }
  for (i = 0; ol_methods[i] != NULL; i++) {
    const ol_method_type *m = ol_methods[i];
    const ol_problem *p = NULL;
    int fine = m->family >= 0 && m->family < OL_NFAMILY;
    ok(fine && ol_family_of(m) == &ol_families[m->family],
       "%s: its family %d has an entry", m->name, m->family);
    if (!fine) continue;
    count[m->family]++;
    snprintf(full, sizeof full, "%s.%s", ol_family_of(m)->ns, m->name);
    ok(ol_method_find(full) == m, "%s: found by its Lua name", full);
    for (j = 0; j < np && p == NULL; j++) {
      ol_err e;
      if (ol_method_check(m, probs[j], &e) == OL_OK) p = probs[j];
    }
    if (p == NULL) {
      diag("%s: no built-in problem accepts it with defaults", full);
      continue;
    }
    {
      ol_mset rec = ol_method_metrics(p, m);
      int w[OL_NMETRICS + 8];
      ok(!ol_mset_empty(rec), "%s: records some metric on %s by default",
         full, p->name);
      ok(pn_defaults(p, m->family, rec, w, OL_NMETRICS + 8) > 0,
         "%s: watches some panel on %s by default", full, p->name);
    }
  }
  for (f = 0; f < OL_NFAMILY; f++)
    ok(count[f] > 0, "family %s: has registered methods (%d)",
       ol_families[f].ns, count[f]);
  for (j = 0; j < np; j++) ol_problem_free(probs[j]);
  return done();
}
