/*
** core/metrics/user.c -- the slots of metrics written at run time (Lua's
** metric.new): ol_metric_user0 .. ol_metric_user15 of core/metrics/list.h.
**
** Each entry is a const ol_metric_type like any other, whose name and doc
** point into this file's slot table: an unbound slot's name is "" (so
** ol_metric_defined says no and no listing shows it), binding copies a
** name and a doc there and installs the binder's hook, unbinding clears
** them.  The entry's functions know their slot by number (one small set
** per slot, made by USER_SLOT): avail is 1 while bound, for every problem
** and family; try_eval calls the hook (the run stops on its error); eval,
** for callers that cannot fail (the stop_below test), gives NaN instead.
** The core knows nothing of Lua: the hook and its ud are the binder's.
*/
#include <math.h>
#include <string.h>

#include "metrics.h"

typedef struct uslot {
  char name[OL_METRIC_NAMEMAX];   /* "" while unbound */
  char doc[OL_METRIC_DOCMAX];
  ol_metric_hook hook;            /* NULL while unbound */
  void *ud;                       /* the binder's, borrowed */
} uslot;

static uslot slots[OL_METRIC_NUSER];

static int u_try (int k, const ol_mstate *s, double *v, ol_err *e)
{
  uslot *u = &slots[k];
  *v = NAN;
  if (u->hook == NULL)
    return ol_err_set(e, OL_EINVAL, "metric slot %d is not bound", k);
  return u->hook(u->ud, OL_MET_USER0 + k, s, v, e);
}

static double u_eval (int k, const ol_mstate *s)
{
  ol_err e;
  double v;
  return u_try(k, s, &v, &e) == OL_OK ? v : NAN;
}

#define USER_SLOT(k) \
  static int avail_##k (const ol_problem *p, int family) \
  { \
    (void)p; \
    (void)family; \
    return slots[k].hook != NULL; \
  } \
  static double eval_##k (const ol_mstate *s) \
  { \
    return u_eval(k, s); \
  } \
  static int try_##k (const ol_mstate *s, double *v, ol_err *e) \
  { \
    return u_try(k, s, v, e); \
  } \
  const ol_metric_type ol_metric_user##k = { \
    .name = slots[k].name, \
    .doc = slots[k].doc, \
    .avail = avail_##k, \
    .eval = eval_##k, \
    .try_eval = try_##k, \
    .unavailable_msg = "{metric} is not bound (metric.new)", \
  };

USER_SLOT(0)
USER_SLOT(1)
USER_SLOT(2)
USER_SLOT(3)
USER_SLOT(4)
USER_SLOT(5)
USER_SLOT(6)
USER_SLOT(7)
USER_SLOT(8)
USER_SLOT(9)
USER_SLOT(10)
USER_SLOT(11)
USER_SLOT(12)
USER_SLOT(13)
USER_SLOT(14)
USER_SLOT(15)

int ol_metric_user (int id)
{
  return id >= OL_MET_USER0 && id < OL_MET_USER0 + OL_METRIC_NUSER;
}

/* An identifier: a letter or '_', then letters, digits, '_'. */
static int identifier (const char *s)
{
  const char *c;
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return 0;
  for (c = s + 1; *c != '\0'; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
          (*c >= '0' && *c <= '9') || *c == '_'))
      return 0;
  return 1;
}

int ol_metric_user_bind (const char *name, const char *doc,
                         ol_metric_hook hook, void *ud, ol_err *e)
{
  int id, k, free_k = -1;
  if (doc == NULL) doc = "";
  if (name == NULL || !identifier(name)) {
    ol_err_set(e, OL_EINVAL, "metric name '%s' is not an identifier "
               "(letters, digits, _; not starting with a digit)",
               name != NULL ? name : "(null)");
    return -1;
  }
  if (strlen(name) >= OL_METRIC_NAMEMAX) {
    ol_err_set(e, OL_EINVAL, "metric name '%.40s...' is longer than %d "
               "characters", name, OL_METRIC_NAMEMAX - 1);
    return -1;
  }
  if (strlen(doc) >= OL_METRIC_DOCMAX) {
    ol_err_set(e, OL_EINVAL, "metric %s: doc is longer than %d characters "
               "(one line)", name, OL_METRIC_DOCMAX - 1);
    return -1;
  }
  if (hook == NULL) {
    ol_err_set(e, OL_EINVAL, "metric %s: no hook", name);
    return -1;
  }
  id = ol_metric_find(name);
  if (id >= 0 && !ol_metric_user(id)) {
    ol_err_set(e, OL_EINVAL, "'%s' is a built-in metric (choose another "
               "name)", name);
    return -1;
  }
  if (id >= 0 && slots[id - OL_MET_USER0].ud != ud) {
    ol_err_set(e, OL_EINVAL, "metric '%s' is bound by another binder "
               "(another session)", name);
    return -1;
  }
  if (id >= 0)
    k = id - OL_MET_USER0;
  else {
    for (k = 0; k < OL_METRIC_NUSER && free_k < 0; k++)
      if (slots[k].hook == NULL) free_k = k;
    if (free_k < 0) {
      char held[OL_METRIC_NUSER * OL_METRIC_NAMEMAX];
      size_t len = 0;
      held[0] = '\0';
      for (k = 0; k < OL_METRIC_NUSER; k++) {
        size_t m = strlen(slots[k].name);
        if (len + m + 3 >= sizeof held) break;
        if (k > 0) {
          memcpy(held + len, ", ", 2);
          len += 2;
        }
        memcpy(held + len, slots[k].name, m + 1);
        len += m;
      }
      ol_err_set(e, OL_EINVAL, "cannot define metric '%s': all %d slots "
                 "for metrics of your own are taken (%s)", name,
                 OL_METRIC_NUSER, held);
      return -1;
    }
    k = free_k;
  }
  memcpy(slots[k].name, name, strlen(name) + 1);
  memcpy(slots[k].doc, doc, strlen(doc) + 1);
  slots[k].hook = hook;
  slots[k].ud = ud;
  return OL_MET_USER0 + k;
}

void ol_metric_user_unbind (int id)
{
  uslot *u;
  if (!ol_metric_user(id)) return;
  u = &slots[id - OL_MET_USER0];
  u->name[0] = '\0';
  u->doc[0] = '\0';
  u->hook = NULL;
  u->ud = NULL;
}

void ol_metric_user_release (const void *ud)
{
  int k;
  for (k = 0; k < OL_METRIC_NUSER; k++)
    if (slots[k].hook != NULL && slots[k].ud == ud)
      ol_metric_user_unbind(OL_MET_USER0 + k);
}
