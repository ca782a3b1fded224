/* What firmware gets from a budget header, computed on the host: the plan
 * as a table, the op constants blob, the init table, and the arena figures
 * of the runtime that uses them -- shared by `plan --header`/`--json` and
 * `run --arena`, so that both are the same thing. */
#ifndef TA_FIRMWARE_H
#define TA_FIRMWARE_H

#include <stddef.h>
#include <stdint.h>

#include "model_load.h"
#include "model_plan.h"
#include "plan_report.h"
#include "tinyarena/runtime.h"

typedef struct {
    ta_arena_breakdown in_arena; /* table plan, op constants built in the arena (work block in the head) */
    ta_arena_breakdown fw;       /* table plan, const blob + init table: no work block (<P>_ARENA_BYTES) */
    void *consts;                /* the const blob (16-byte aligned, malloc'd) */
    size_t consts_bytes;
    void *init;                  /* the init table (16-byte aligned, malloc'd) */
    size_t init_bytes;
    uint32_t kernels;            /* the kernel variants one invoke called (tinyarena/kernel_link.h;
                                    TA_KV_ALL when the host cannot invoke the model) */
    const unsigned char *model;  /* the model bytes it was made from (the caller's): the */
    size_t model_len;            /* header's 1x1 weight packs key on offsets in them */
} fw_budget;

/* Runs the runtime on the host with `table` as the plan (rewrites as the
 * table was planned), exports the op constants and the init table, and
 * queries the runtime firmware runs (both blobs, no work block).  False
 * with *d set when the runtime cannot; fw_free either way. */
bool fw_make(const unsigned char *model, size_t len, const ta_plan_table *table, uint32_t rewrites, ta_align_rule rule,
             fw_budget *fw, ta_diag *d);
void fw_free(fw_budget *fw);

/* A budget whose plan runs patch stages (patch.h): the runtime plans the
 * model itself with strategy `strategy` and patch overhead pct percent, as
 * `run` does; when it chooses stages, *fw is as fw_make's and *pe the plan
 * -- the entries the header's table holds (malloc'd, the runtime's request
 * order), the planned bytes, the lower bound and the stages.  False (both
 * freed) when it runs no stage, pct is 0, or it fails (*d set). */
typedef struct {
    ta_budget_entry *entries;
    size_t n;
    size_t planned, lower_bound;
    ta_patch_plan patch;
} fw_patch;
bool fw_make_patched(const unsigned char *model, size_t len, const char *strategy, uint32_t rewrites, ta_align_rule rule,
                     uint32_t pct, fw_budget *fw, fw_patch *pe, ta_diag *d);
void fw_patch_free(fw_patch *pe);

/* The plan `plan --header` makes for a loaded model: the rewritten graph,
 * the runtime's kernel scratch, strategy s; the rewrites that applied.
 * *offsets (malloc'd, one per request) and *entries (malloc'd, the budget
 * table's entries) follow mp's request order; mp/graph memory is the
 * caller's to free (fw_plan_free).  Prints and returns CLI_FAIL on error. */
typedef struct {
    model_plan mp;
    ta_graph g2;
    void *g2mem;
    ta_scratch_request *scratch;
    uint32_t *offsets;
    ta_budget_entry *entries;
    ta_plan_table table;
    uint32_t applied;
    ta_align_rule rule;
    ta_plan_result res;
} fw_plan;
int fw_plan_make(const char *what, const loaded_model *lm, const ta_strategy *s, uint32_t rewrites, ta_align_rule rule,
                 fw_plan *p);
void fw_plan_free(fw_plan *p);
#endif
