/*
** lua/lprint.h -- what run and job objects look like when printed.
**
** The text of print(r), print(j) and print(jobs()) lives in lua/lprint.c,
** apart from the stepping and bookkeeping of lua/lrun.c and lua/ljob.c:
** those files register the __tostring functions declared here, and ljob.c
** hands a job's state over as a plain olua_jobrow.
*/
#ifndef LPRINT_H
#define LPRINT_H

#include "lbind.h"

/* Stop reason as shown: a callback error caused by Ctrl-C is an
** interruption; OL_STOP_NONE while running. */
int olua_runreason (const lrun *b);

/* A sampler that accepted no proposal over 20 steps or more, or a
** Metropolis-Hastings one (OL_M_MH) that accepted every one over 100 or
** more, mixes badly whatever the numbers say: the note that says so
** ("acceptance 0 over 10000 steps: h is too large"), in buf; NULL for any
** other run. */
const char *olua_acceptnote (const ol_run *r, char *buf, size_t sz);

/* A constrained run that ended on its budget or time with the constraints
** violated by more than OL_CONSTR_WARN (the last recorded feasibility
** metric): the warning that says so, in buf; NULL for any other run. */
#define OL_CONSTR_WARN 1e-6
const char *olua_constrnote (const ol_run *r, char *buf, size_t sz);

/* __tostring of a run object: what ran, why it stopped, the final
** metrics, evaluations and x. */
int olua_run_tostring (lua_State *L);
/* Push and return the first words of a run's print: "run <method{params}>
** on <problem>" (a single run's and a chain set's). */
const char *olua_pushrunhead (lua_State *L, const ol_run *r);

/* A job as printed.  The strings are borrowed from the job (its label
** table) and valid while the job object is on the stack. */
typedef struct olua_jobrow {
  int id;
  const char *state;           /* "running", "paused", "done" */
  long iter, budget;           /* the furthest run's iterations, budget */
  const char *label;           /* "adam lr=0.01", or a race's labels */
  const char *title;           /* the problem's description */
} olua_jobrow;

/* Fill row from the job object at idx (refreshing its state); 0 if idx is
** not a job (ljob.c). */
int olua_getjobrow (lua_State *L, int idx, olua_jobrow *row);

/* __tostring of a job object and of the jobs() list. */
int olua_job_tostring (lua_State *L);
int olua_joblist_tostring (lua_State *L);

#endif
