/* Running strategies and printing their results: shared by buffer lists
 * and models. */
#ifndef TA_PLAN_REPORT_H
#define TA_PLAN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "tinyarena/plan.h"

typedef struct {
    const ta_strategy *s;
    ta_status st;
    ta_plan_result res;
    uint64_t time_us;
    size_t *offsets; /* malloc'ed, n entries */
    ta_diag diag;
} plan_outcome;

/* Runs one strategy (timing only ta_plan_run). offsets are allocated. */
plan_outcome plan_report_run(const ta_strategy *s, const ta_request *reqs, size_t n,
                             const ta_plan_options *opt);

/* The strategy table: strategy, arena bytes, saving vs naive, ratio to the
 * bound, time. `naive_bytes` is the reference for the saving column. */
void plan_report_table(FILE *f, const plan_outcome *o, size_t count);

/* The JSON contract:
 * {"strategy": S, "arena_bytes": N, "lower_bound_bytes": N, "time_us": N,
 *  "optimal": B, "gap_bytes": N, "proof": S, "naive_bytes": N,
 *  "buffers": [{"id": S, "size": N, "first": N, "last": N, "offset": N}, ...]}
 * `extra` (may be NULL) is printed verbatim before "buffers" (e.g. model fields). */
void plan_report_json(FILE *f, const plan_outcome *o, const ta_request *reqs, size_t n,
                      const char *const *ids, const char *extra);

/* "1,234,567" into buf (>= 32 bytes). */
const char *fmt_bytes(size_t v, char *buf);
#endif
