/* The patch stages' report (patch.h) for `plan` and `run`: one text line,
 * or the JSON member "patch"; and the runtime query `plan` makes for them
 * when the header's plan does not run them (fw_make_patched). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tinyarena/patch.h"
#include "tinyarena/runtime.h"

static double percent(const ta_patch_plan *p) {
    return p->macs ? 100.0 * (double)p->extra_macs / (double)p->macs : 0.0;
}

void cli_patch_text(FILE *f, const ta_patch_plan *p) {
    if (!p || !p->n_stages) return;
    fprintf(f, "patch: %u stage%s band by band:", p->n_stages, p->n_stages == 1 ? "" : "s");
    for (uint32_t i = 0; i < p->n_stages; i++)
        fprintf(f, "%s ops %d..%d grid %dx1", i ? "," : "", p->stages[i].first_op, p->stages[i].last_op,
                p->stages[i].bands);
    /* from an init table (run --arena) the graph's MACs are not known */
    if (!p->macs) fprintf(f, "; planned %zu -> %zu B; extra MACs %llu\n", p->bytes_before, p->bytes_after,
                          (unsigned long long)p->extra_macs);
    else fprintf(f, "; planned %zu -> %zu B; extra MACs %llu of %llu (%.2f%%)\n", p->bytes_before, p->bytes_after,
                 (unsigned long long)p->extra_macs, (unsigned long long)p->macs, percent(p));
}

int cli_patch_json_str(char *buf, size_t cap, const ta_patch_plan *p) {
    if (!p || !p->n_stages) return snprintf(buf, cap, "\"patch\": null");
    /* the first stage in op order names the member's first_op, last_op and
     * grid; extra_macs counts every stage; "stages" lists them all */
    const ta_patch_stage *s = &p->stages[0];
    int at = snprintf(buf, cap,
                      "\"patch\": {\"first_op\": %d, \"last_op\": %d, \"grid\": \"%dx1\", \"extra_macs\": %llu, "
                      "\"extra_macs_percent\": %.3f, \"macs\": %llu, \"planned_bytes_before\": %zu, "
                      "\"planned_bytes_after\": %zu, \"stages\": [",
                      s->first_op, s->last_op, s->bands, (unsigned long long)p->extra_macs, percent(p),
                      (unsigned long long)p->macs, p->bytes_before, p->bytes_after);
    for (uint32_t i = 0; i < p->n_stages && at > 0 && (size_t)at < cap; i++)
        at += snprintf(buf + at, cap - (size_t)at, "%s{\"first_op\": %d, \"last_op\": %d, \"grid\": \"%dx1\", \"extra_macs\": %llu}",
                       i ? ", " : "", p->stages[i].first_op, p->stages[i].last_op, p->stages[i].bands,
                       (unsigned long long)p->stages[i].extra_macs);
    if (at > 0 && (size_t)at < cap) at += snprintf(buf + at, cap - (size_t)at, "]}");
    return at;
}

void cli_patch_json(FILE *f, const ta_patch_plan *p) {
    char buf[2048];
    cli_patch_json_str(buf, sizeof buf, p);
    fprintf(f, " %s", buf);
}

bool cli_patch_query(const unsigned char *model, size_t len, const char *strategy, uint32_t rewrites,
                     ta_align_rule rule, uint32_t pct, ta_patch_plan *out, ta_arena_breakdown *b, ta_diag *d) {
    memset(out, 0, sizeof *out);
    ta_runtime_options opt = ta_runtime_options_default();
    if (ta_runtime_use_strategy(&opt, strategy)) return false;
    opt.rewrites = rewrites;
    opt.align_rule = rule;
    opt.patch_overhead = pct;
    ta_runtime rt;
    void *work = NULL;
    size_t wb = 0;
    bool ok = ta_runtime_open(&rt, model, len, &opt, d) == TA_OK && cli_runtime_query(&rt, &work, &wb, b, d) == TA_OK;
    if (ok) *out = *ta_runtime_patch(&rt);
    free(work);
    return ok;
}
