/* plan_harness.h -- one strategy run the way a caller runs it, for the
 * planner tests (test_optimal, test_optimal_rel, test_optimal_large):
 * query the scratch, allocate it, plan, free it.  Header only; include
 * after testutil.h (it uses CHECK). */
#ifndef TA_PLAN_HARNESS_H
#define TA_PLAN_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tinyarena/plan.h"

typedef struct {
    ta_status st;
    ta_plan_result res;
} outcome;

/* Runs strategy `name` (which must exist) on r[0..n) with opt into off[];
 * prints the diagnostic when the call fails. */
static inline outcome run(const char *name, const ta_request *r, size_t n, const ta_plan_options *opt,
                          size_t *off) {
    outcome o;
    memset(&o, 0, sizeof o);
    const ta_strategy *s = ta_strategy_find(name);
    CHECK(s != NULL);
    size_t need = 0;
    CHECK(ta_plan_scratch_bytes(s, r, n, opt, &need) == TA_OK);
    void *scratch = malloc(need ? need : 1);
    ta_diag d;
    o.st = ta_plan_run(s, r, n, opt, scratch, need, off, &o.res, &d);
    if (o.st) fprintf(stderr, "%s failed: %s: %s\n", name, ta_status_str(o.st), d.msg);
    free(scratch);
    return o;
}

/* A request with the defaults (align 1, not fixed). */
static inline ta_request req(size_t size, int32_t first, int32_t last) { return ta_request_make(size, first, last); }
#endif
